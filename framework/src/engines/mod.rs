//! Search engines. Each is generic over the game traits, knows no game, and reports [`crate::Stats`].
//!
//! Every two-player engine consults the game's [`crate::hints::SearchHints`], keeps its table within a budget
//! ([`crate::table`]), reuses its move lists by depth and grows its stack as deep as a game goes.
//!
//! - [`negamax`]: plain negamax (the reference) and memoized negamax over canonical keys, both behind the
//!   [`Engine`] trait that the generic analyses use;
//! - [`alpha_beta`]: exact alpha-beta over [`Value`]'s order with a fixed-size table of bounds and a score
//!   search by null windows, and its Lazy SMP form on several threads over one shared table;
//! - [`parallel`]: the parallel memoized negamax (shared `dashmap` table, rayon) and the parallel Grundy engine;
//! - [`grundy`]: the Sprague-Grundy engine for [`crate::Impartial`] games;
//! - [`one_player`]: memoized depth-first search for [`crate::Solitaire`] games, returning a witness line;
//! - [`brute_force`]: the brute-force constructor over an [`crate::Enumerate`] space.

pub mod alpha_beta;
pub mod brute_force;
pub mod grundy;
pub mod negamax;
pub mod one_player;
pub mod parallel;
mod support;

pub use support::settled_value;

use crate::game::Game;
use crate::stats::Stats;
use crate::value::Value;

/// What a negamax search computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    /// Win, loss or draw only: the search stops at the first winning move found, so the remoteness it returns
    /// belongs to some line, not necessarily the optimal one.
    #[default]
    Outcome,
    /// Exact remoteness: every move is searched and the best value under [`Value`]'s order is kept.
    Exact,
}

/// What every engine reports of its work, whatever game it searches.
pub trait Statistics {
    /// The statistics gathered so far: positions expanded and table hits since the engine was made, and the
    /// entries its table holds now.
    fn stats(&self) -> Stats;
}

/// A two-player search engine: the value of a position of a game.
pub trait Engine<Rules: Game>: Statistics {
    /// The value of `position` for the player to move (exactness of the remoteness depends on the mode).
    fn value(&mut self, game: &Rules, position: &Rules::Position) -> Value;

    /// The value of `position`, or [`crate::Error::Budget`] if the search of this one position would visit
    /// more positions than the engine's budget (engines without a budget always answer).
    fn try_value(&mut self, game: &Rules, position: &Rules::Position) -> crate::Result<Value> {
        Ok(self.value(game, position))
    }

    /// The mode the solver searches in.
    fn mode(&self) -> Mode;
}
