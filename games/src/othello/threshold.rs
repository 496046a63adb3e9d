//! [`Threshold`]: "does Black get at least `threshold`?" as a win/loss [`Game`] for the framework's alternating
//! engines. Othello alternates (a pass is a move), so the win/loss alpha-beta can answer it; the perfect-play
//! margin is then the largest threshold Black reaches, found by one win/loss solve per threshold: the sweep
//! the scored engine replaces (compared in `ludus bench --filter scored` and the tests).

use super::rules::{Discs, OthelloMove};
use super::Othello;
use ludus_framework::Rules;
use ludus_framework::{Canonicalize, Game, Player, SearchHints, Value};

/// Othello where Black wins exactly when his final margin is at least `threshold`.
#[derive(Clone, Copy, Debug)]
pub struct Threshold<'game> {
    /// The game.
    pub game: &'game Othello,
    /// The margin Black must reach.
    pub threshold: i32,
}

impl Rules for Threshold<'_> {
    type Position = Discs;
    type Move = OthelloMove;
    type Outcome = Value;

    fn moves(&self, position: &Discs, moves: &mut Vec<OthelloMove>) {
        Rules::moves(self.game, position, moves);
    }

    fn play(&self, position: &Discs, mv: &OthelloMove) -> Discs {
        Rules::play(self.game, position, mv)
    }

    fn outcome(&self, position: &Discs) -> Option<Value> {
        let black = self.game.mover(position).score_for(self.game.outcome(position)?, Player::First);
        let black_wins = black >= self.threshold;
        Some(if black_wins == position.black_to_move { Value::Win(0) } else { Value::Lose(0) })
    }
}

impl Game for Threshold<'_> {}

/// The key from the mover's side would merge colour swaps, whose thresholds differ: keys keep the colour.
impl Canonicalize for Threshold<'_> {
    type Key = (u64, u64, bool);

    fn canonical(&self, position: &Discs) -> (u64, u64, bool) {
        (position.mover, position.other, position.black_to_move)
    }
}

/// The same move order as the scored search, so that the comparison is of the searches alone.
impl SearchHints for Threshold<'_> {
    fn search_moves(&self, position: &Discs, moves: &mut Vec<OthelloMove>, scores: &mut Vec<i32>) {
        ludus_framework::SearchHints::search_moves(self.game, position, moves, scores);
    }
}
