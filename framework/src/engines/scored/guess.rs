//! The first guess of the null-window driver of [`super::ScoredAlphaBeta`]: iterative deepening of a
//! depth-limited alpha-beta without a table, scoring the positions at its horizon by the game's
//! [`SearchHints::estimate`], within a budget of positions.
//!
//! The guess only aims the driver's first test: a wrong guess costs null-window searches, never a wrong score.
//! A root the table bounds already gets no more than the default budget ([`root_guess_budget`]).
//! An iteration that met no horizon (every line it searched reached the end of the game or a position of known
//! [`SearchHints::exact`] score) is an exact full-window search, and its value is the score itself.

use crate::engines::support::{with_stack_every, MoveLists};
use crate::hints::Shortcut;
use crate::scored::ScoredGame;
use crate::scored::{Deterministic, SCORE_LIMIT};
use crate::SearchHints;

use super::GUESS_POSITIONS;

/// What the first-guess search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Guess {
    /// No guess: the game has no estimate, or the budget did not cover the first iteration.
    None,
    /// The value of the deepest iteration done (an estimate).
    Estimate(i32),
    /// The exact score (an iteration met no horizon).
    Exact(i32),
}

/// The budget of the first guess at a root, from the engine's `budget`: a root the table `bounded` already
/// (a child of a root searched before, say) gets at most the default [`GUESS_POSITIONS`], as its tests clamp
/// to the stored bound; a deep guess is for a root the table knows nothing of (Othello 6 x 6's start: a guess of
/// 2^26 positions aims it, and spent again on each of its four moves it would cost over a minute and a half).
pub(crate) fn root_guess_budget(budget: u64, bounded: bool) -> u64 {
    if bounded {
        budget.min(GUESS_POSITIONS)
    } else {
        budget
    }
}

/// A depth-limited search of one root.
struct Shallow<'search, Ruleset: ScoredGame + SearchHints> {
    game: &'search Ruleset,
    lists: MoveLists<Ruleset::Move>,
    visited: u64,
    budget: u64,
    stopped: bool,
    /// Whether the iteration under way scored a position by the estimate (else it is exact).
    horizon_met: bool,
}

/// The first guess at the score of `root` (not over) by iterative deepening within `budget` positions, and
/// the positions it expanded.
pub(crate) fn first_guess<Ruleset>(game: &Ruleset, root: &Ruleset::Position, budget: u64) -> (Guess, u64)
where
    Ruleset: Deterministic + SearchHints,
{
    if game.estimate(root).is_none() {
        return (Guess::None, 0);
    }
    let mut shallow =
        Shallow { game, lists: MoveLists::default(), visited: 0, budget, stopped: false, horizon_met: false };
    let mut guess = Guess::None;
    for depth in 1.. {
        shallow.horizon_met = false;
        let value = shallow.search(root, 0, depth, -SCORE_LIMIT - 1, SCORE_LIMIT + 1);
        if shallow.stopped {
            break;
        }
        if !shallow.horizon_met {
            guess = Guess::Exact(value);
            break;
        }
        guess = Guess::Estimate(value);
    }
    (guess, shallow.visited)
}

impl<Ruleset: Deterministic + SearchHints> Shallow<'_, Ruleset> {
    /// Fail-soft alpha-beta to `depth` plies more from `position`, at ply `ply` from the root.
    fn search(&mut self, position: &Ruleset::Position, ply: u32, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if self.stopped {
            return 0;
        }
        if let Some(score) = self.game.outcome(position) {
            return score;
        }
        if let Some(score) = self.game.shortcut(position).and_then(Shortcut::exact) {
            return score;
        }
        let (low, high) = self.game.value_range(position);
        if depth == 0 {
            self.horizon_met = true;
            return self.game.estimate(position).unwrap_or(0).clamp(low, high);
        }
        if self.visited >= self.budget {
            self.stopped = true;
            return 0;
        }
        self.visited += 1;
        let level = usize::try_from(ply).unwrap_or(usize::MAX);
        let game = self.game;
        let moves = self.lists.take_filled(level, |moves, scores| game.search_moves(position, moves, scores));
        let mut best = -SCORE_LIMIT - 1;
        for mv in &moves {
            let child = game.play(position, mv);
            let (next, rest) = (ply.saturating_add(1), depth - 1);
            let score = if game.turn_passes(position, &child) {
                -with_stack_every(ply, || self.search(&child, next, rest, -beta, -alpha))
            } else {
                with_stack_every(ply, || self.search(&child, next, rest, alpha, beta))
            };
            if self.stopped {
                break;
            }
            best = best.max(score);
            alpha = alpha.max(best);
            if alpha >= beta || best >= high {
                break;
            }
        }
        self.lists.give_back(level, moves);
        if moves_were_empty(best) {
            self.stopped = true;
            return 0;
        }
        best
    }
}

/// Whether a search found no move (a position not over without moves breaks the game's contract; the exact
/// search reports it, the guess only gives up).
fn moves_were_empty(best: i32) -> bool {
    best == -SCORE_LIMIT - 1
}
