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
//! - [`scored`]: exact scores of scored games (alpha-beta with bounds and null windows, plain minimax),
//!   expected scores of games with chance (expectimax with Star1, value iteration);
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
pub mod scored;
pub(crate) mod support;

pub use support::settled_value;

use crate::game::Rules;
use crate::stats::Stats;
use crate::value::Value;
use std::convert::Infallible;

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

    /// For an engine whose values are exact only to a tolerance (value iteration), how far its last solve
    /// went; `None` (the default) for an exact engine.
    fn convergence(&self) -> Option<crate::stats::Convergence> {
        None
    }

    /// Values given from an opening book rather than searched, since the engine was made (0, the default, for
    /// an engine without a book).
    fn book_values(&self) -> u64 {
        0
    }
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

/// Why a search stopped without a value: its budget ran out, or the engine failed.
#[derive(Debug)]
pub enum Stop<Failure> {
    /// The search would have expanded more positions than its budget (the value is unknown, never wrong).
    Budget,
    /// The engine could not give the value for another reason: it reads values from a damaged or missing
    /// database, or a solve needed more memory than its budget.
    Failure(Failure),
    /// The search met a position again on its own path: the game's positions repeat, although it does not set
    /// [`Rules::POSITIONS_REPEAT`] (only the retrograde engine and value iteration solve such a game).
    Repeated,
}

/// A search engine: the value of a position of a game, of the type the engine gives (one entry for every
/// family: the win/loss/draw engines give a [`Value`] with its remoteness, the scored ones a score, the chance
/// ones an expected score, the Sprague-Grundy engine a nimber).
///
/// Required: [`Engine::search_within`] and [`Engine::budget`]; [`Engine::try_value`], [`Engine::search`] and
/// (for a win/loss engine that cannot fail) [`Engine::value`] are provided from them.
pub trait Engine<Ruleset: Rules>: Statistics {
    /// What a search gives a position, for its player to move: [`Value`], `i32` (a score),
    /// [`scored::ExpectedScore`], [`grundy::Nimber`].
    type Value: Copy + std::fmt::Debug;

    /// What stops a search besides its budget: [`Infallible`] for an engine that only searches (it then has
    /// [`Engine::value`]), [`crate::Error`] for one that reads values from disk or solves within memory.
    type Failure: Into<crate::Error>;

    /// The value of `position`, or why there is none: [`Stop::Budget`] if its search would expand more than
    /// `budget` positions, [`Stop::Failure`] if the engine failed.
    ///
    /// Contract: [`Stop::Budget`] only when the budget ran out (with `u64::MAX` it never does), and a search
    /// that stops early stores nothing that later searches would read as a value.
    fn search_within(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        budget: u64,
    ) -> Result<Self::Value, Stop<Self::Failure>>;

    /// The positions one search may expand before [`Engine::try_value`] gives up (`u64::MAX`: no budget).
    fn budget(&self) -> u64;

    /// Whether the engine gives `position`'s value without a search (a position of its opening book): `false`
    /// by default. An analysis whose position came from a book follows its line only through such positions.
    fn holds(&mut self, game: &Ruleset, position: &Ruleset::Position) -> bool {
        let _ = (game, position);
        false
    }

    /// The value of `position`, or [`crate::Error::Budget`] if the search of this one position would expand
    /// more positions than the engine's budget, or the engine's failure.
    fn try_value(&mut self, game: &Ruleset, position: &Ruleset::Position) -> crate::Result<Self::Value> {
        let budget = self.budget();
        self.search_within(game, position, budget).map_err(|stop| stopped(stop, budget))
    }

    /// `position`'s value where it lies within `[low, high]`; where it lies below, a value at most `low`, and
    /// where above, at least `high` (the bound, or the value itself); or why there is none, as
    /// [`Engine::try_value`]. Provided: the value. An engine that narrows a score by null-window tests tests
    /// only within the window and gives the bound (one test for two neighbouring scores: how an analysis's
    /// line confirms a best move whose value it knows).
    fn try_value_within(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        low: Self::Value,
        high: Self::Value,
    ) -> crate::Result<Self::Value> {
        let _ = (low, high);
        self.try_value(game, position)
    }

    /// The value of `position` whatever the search costs (the engine's budget does not apply), or the engine's
    /// failure.
    fn search(&mut self, game: &Ruleset, position: &Ruleset::Position) -> crate::Result<Self::Value> {
        self.search_within(game, position, u64::MAX).map_err(|stop| stopped(stop, u64::MAX))
    }

    /// The value of `position` for the player to move (exactness of the remoteness depends on the mode),
    /// whatever the search costs: the engine's budget does not apply. Only an engine that cannot fail has it:
    /// for a game that breaks [`Rules::POSITIONS_REPEAT`]'s contract, it gives a draw ([`Engine::search`] says
    /// why).
    fn value(&mut self, game: &Ruleset, position: &Ruleset::Position) -> Value
    where
        Self: Sized + Engine<Ruleset, Value = Value, Failure = Infallible>,
    {
        match self.search_within(game, position, u64::MAX) {
            Ok(value) => value,
            Err(Stop::Failure(never)) => match never {},
            // No search expands `u64::MAX` positions, so this draw is never given for a budget; a game whose
            // positions repeat has no value a depth-first search can give.
            Err(Stop::Budget | Stop::Repeated) => Value::Draw,
        }
    }
}

/// The error of a search that stopped within a budget of `positions`.
pub(crate) fn stopped<Failure: Into<crate::Error>>(stop: Stop<Failure>, positions: u64) -> crate::Error {
    match stop {
        Stop::Budget => crate::Error::Budget(crate::error::Budget::Positions(positions)),
        Stop::Failure(failure) => failure.into(),
        Stop::Repeated => repeated(),
    }
}

/// The error of a depth-first search that met a position again on its own path.
pub(crate) fn repeated() -> crate::Error {
    crate::Error::Contract {
        contract: "Rules::POSITIONS_REPEAT",
        detail: "a search met a position again on its own path, so the game's positions repeat: set \
                 `POSITIONS_REPEAT` (only the retrograde engine and value iteration solve such a game)"
            .to_string(),
    }
}

/// An engine that cannot fail, as one whose failure is a [`crate::Error`]: so that engines of both kinds can
/// stand behind one `dyn Engine<Ruleset, Value = ..., Failure = Error>`.
pub struct Fallible<Search>(pub Search);

impl<Search: Statistics> Statistics for Fallible<Search> {
    fn stats(&self) -> Stats {
        self.0.stats()
    }

    fn convergence(&self) -> Option<crate::stats::Convergence> {
        self.0.convergence()
    }
}

impl<Ruleset: Rules, Search: Engine<Ruleset, Failure = Infallible>> Engine<Ruleset> for Fallible<Search> {
    type Value = Search::Value;
    type Failure = crate::Error;

    fn search_within(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        budget: u64,
    ) -> Result<Search::Value, Stop<crate::Error>> {
        self.0.search_within(game, position, budget).map_err(|stop| match stop {
            Stop::Budget => Stop::Budget,
            Stop::Repeated => Stop::Repeated,
            Stop::Failure(never) => match never {},
        })
    }

    fn budget(&self) -> u64 {
        self.0.budget()
    }
}
