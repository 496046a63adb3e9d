//! [`Threshold`]: "does Black get at least `threshold`?" as a win/loss [`Game`] for the framework's alternating
//! engines. Othello alternates (a pass is a move), so the win/loss alpha-beta can answer it; the perfect-play
//! margin is then the largest threshold Black reaches, found by one win/loss solve per threshold: the sweep
//! the scored engine replaces (compared in `ludus bench --filter scored` and the tests).

use super::rules::{Discs, OthelloMove};
use super::Othello;
use ludus_framework::scored::ScoredGame;
use ludus_framework::{Canonicalize, Game, SearchHints, Value};

/// Othello where Black wins exactly when his final margin is at least `threshold`.
#[derive(Clone, Copy, Debug)]
pub struct Threshold<'game> {
    /// The game.
    pub game: &'game Othello,
    /// The margin Black must reach.
    pub threshold: i32,
}

impl Game for Threshold<'_> {
    type Position = Discs;
    type Move = OthelloMove;

    fn moves(&self, position: &Discs, moves: &mut Vec<OthelloMove>) {
        ScoredGame::moves(self.game, position, moves);
    }

    fn play(&self, position: &Discs, mv: &OthelloMove) -> Discs {
        ScoredGame::play(self.game, position, mv)
    }

    fn outcome(&self, position: &Discs) -> Option<Value> {
        let black = self.game.first_player_score(position)?;
        let black_wins = black >= self.threshold;
        Some(if black_wins == position.black_to_move { Value::Win(0) } else { Value::Lose(0) })
    }
}

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
        ludus_framework::scored::ScoredHints::search_moves(self.game, position, moves, scores);
    }
}
