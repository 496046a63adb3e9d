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
//! - [`retrograde`]: strong solving of every reachable position by backward induction, tiers, loopy games (the
//!   only engine that accepts games whose positions repeat);
//! - [`grundy`]: the Sprague-Grundy engine for [`crate::Impartial`] games;
//! - [`one_player`]: memoized depth-first search for [`crate::Solitaire`] games, returning a witness line;
//! - [`brute_force`]: the brute-force constructor over an [`crate::Enumerate`] space.

pub mod alpha_beta;
pub mod brute_force;
pub mod grundy;
pub mod negamax;
pub mod one_player;
#[cfg(feature = "parallel")]
pub mod parallel;
#[cfg(feature = "parallel")]
pub mod retrograde;
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

/// An engine that keeps a transposition table: it can be read, emptied, and asked for a value it stored.
pub trait TableEngine {
    /// The table's type.
    type Table;

    /// The table.
    fn table(&self) -> &Self::Table;

    /// The table, to change it.
    fn table_mut(&mut self) -> &mut Self::Table;

    /// Empties the table (statistics stay).
    fn clear(&mut self)
    where
        Self::Table: crate::table::TableStorage,
    {
        crate::table::TableStorage::clear(self.table_mut());
    }

    /// The exact value stored for `key`, if the table still holds one (its two bounds meet).
    fn lookup<Key>(&mut self, key: &Key) -> Option<Value>
    where
        Self::Table: crate::table::TranspositionTable<Key>,
    {
        support::stored_value(self.table_mut(), key)
    }
}

/// A two-player search engine: the value of a position of a game.
///
/// Required: [`Engine::search_within`] and [`Engine::budget`]; [`Engine::value`] and [`Engine::try_value`] are
/// provided from them.
pub trait Engine<Rules: Game>: Statistics {
    /// The value of `position`, or `None` if its search would expand more than `budget` positions.
    ///
    /// Contract: `None` only when the budget ran out (with `u64::MAX` there is always a value), and a search
    /// that stops early stores nothing that later searches would read as a value.
    fn search_within(&mut self, game: &Rules, position: &Rules::Position, budget: u64) -> Option<Value>;

    /// The positions one search may expand before [`Engine::try_value`] gives up (`u64::MAX`: no budget).
    fn budget(&self) -> u64;

    /// The value of `position` for the player to move (exactness of the remoteness depends on the mode),
    /// whatever the search costs: the engine's budget does not apply.
    fn value(&mut self, game: &Rules, position: &Rules::Position) -> Value {
        // Without a budget a search always ends with its value; the draw is never used.
        self.search_within(game, position, u64::MAX).unwrap_or(Value::Draw)
    }

    /// The value of `position`, or [`crate::Error::Budget`] if the search of this one position would expand
    /// more positions than the engine's budget, or the engine's failure ([`Engine::take_failure`]).
    fn try_value(&mut self, game: &Rules, position: &Rules::Position) -> crate::Result<Value> {
        let budget = self.budget();
        let value = self.search_within(game, position, budget);
        if let Some(failure) = self.take_failure() {
            return Err(failure);
        }
        support::within_budget(value, budget)
    }

    /// The first failure of a search for another reason than the budget, taken out of the engine: an engine
    /// that reads its values instead of searching (from a database on disk) fails on a missing or damaged
    /// file. `None` for engines that cannot fail so (the default). After such a failure [`Engine::value`]
    /// has given a draw that means nothing: a caller that may meet one uses [`Engine::try_value`].
    fn take_failure(&mut self) -> Option<crate::Error> {
        None
    }
}
