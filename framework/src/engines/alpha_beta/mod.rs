//! Exact alpha-beta: negamax with alpha-beta pruning over [`Value`]'s order (exact remoteness), a fixed-size
//! transposition table of lower and upper bounds keyed by [`Canonicalize`] keys, the game's [`SearchHints`]
//! (shortcuts, a value range that clamps the window before the table is probed, pruned and ordered moves), and
//! a score search by null windows. [`LazySmp`] runs the same search on several threads over one shared table.
//! The engine knows no game.
//!
//! ## How values become scores
//!
//! Inside a search, a value is an integer score seen from the root: a position at depth `d` below the root
//! whose value is `Win(r)` scores `MATE - (d + r)` (the win comes at ply `d + r` of the root's line), `Lose(r)`
//! scores `-(MATE - (d + r))`, `Draw` scores 0. With this encoding the negamax back-up rule is plain negation,
//! so the usual alpha-beta window `(-beta, -alpha)` works unchanged, and the order of scores at one depth is
//! exactly [`Value`]'s order (a quicker win is larger, a slower loss is larger). The table stores scores
//! shifted back to depth 0, so an entry is valid wherever the position appears.
//!
//! ## What the table stores
//!
//! Each entry holds a lower and an upper bound of the position's score (seen from the position itself). A
//! search with window `(alpha, beta)` that returns `v` learns: `v <= alpha` an upper bound, `v >= beta` a lower
//! bound, anything in between the exact score; it stores that, intersected with what it knew before. The table
//! is lossy (see [`crate::table`]): a forgotten entry costs a search, never a wrong value. A table with a near
//! part (a [`crate::table::PackedTable`] of 8 MiB or more) gets there the positions of the depths whose searches
//! are cheap, as the search learns them from the work it measures per depth; the rest go to the far part.
//!
//! ## How the exact score is found
//!
//! [`ScoreSearch::NullWindow`] (the default) runs null-window searches, each asking "is the score at least
//! `m`?" and moving one end of the known range: first "a win?", then if not "at least a draw?", which settles
//! the outcome; then tests that halve the range of remoteness (or double from the quick end while the range is
//! vast). Every search reuses the bounds the previous ones left in the table. [`ScoreSearch::FullWindow`]
//! searches once with the full window. In [`Mode::Outcome`] (a weak solve) the null window `(0, 1)` asks "a
//! win?" and, if not, `(-1, 0)` asks "at least a draw?": two null windows prune more than one window around the
//! draw, and a won root needs only the first.
//!
//! ```
//! use ludus_framework::engines::{alpha_beta::AlphaBeta, negamax::MemoNegamax, Mode, Engine};
//! use ludus_framework::{Canonicalize, Game, Rules, Value, hints::SearchHints};
//!
//! /// Take 1 or 2 from a pile; who cannot move loses.
//! struct TakeAway;
//! impl Rules for TakeAway {
//!     type Position = u32;
//!     type Move = u32;
//!     type Outcome = Value;
//!     fn moves(&self, pile: &u32, moves: &mut Vec<u32>) {
//!         moves.extend((1..=2).filter(|take| take <= pile));
//!     }
//!     fn play(&self, pile: &u32, take: &u32) -> u32 { pile - take }
//!     fn outcome(&self, pile: &u32) -> Option<Value> { (*pile == 0).then_some(Value::LOST) }
//! }
//!
//! impl Game for TakeAway {}
//! impl Canonicalize for TakeAway {
//!     type Key = u32;
//!     fn canonical(&self, pile: &u32) -> u32 { *pile }
//! }
//! /// Search hints: take what leaves a multiple of 3 first.
//! impl SearchHints for TakeAway {
//!     fn move_score(&self, pile: &u32, take: &u32) -> i32 { i32::from((pile - take) % 3 == 0) }
//! }
//!
//! let mut alpha_beta = AlphaBeta::new(Mode::Exact);
//! let mut memo = MemoNegamax::new(Mode::Exact);
//! assert_eq!(alpha_beta.value(&TakeAway, &9), Value::Lose(6));
//! for pile in 0..30 {
//!     assert_eq!(alpha_beta.value(&TakeAway, &pile), memo.value(&TakeAway, &pile));
//! }
//! ```

pub(crate) mod busy;
#[cfg(feature = "parallel")]
pub(crate) mod lazy_smp;
mod narrowing;
mod progress;
pub(crate) mod search;
#[cfg(feature = "parallel")]
mod shared_range;

#[cfg(feature = "parallel")]
pub use lazy_smp::LazySmp;
pub(crate) use progress::PROGRESS_STEP;
pub use progress::{ProgressHandle, SearchProgress, Test};

use super::{Engine, Mode, Statistics, Stop, TableEngine};
use crate::game::Canonicalize;
use crate::game::Game;
use crate::hints::SearchHints;
use crate::stats::Stats;
use crate::table::{mib, KeyedTable, TableStorage, TranspositionTable, DEFAULT_TABLE_MB};
use crate::value::Value;
use search::Search;
use std::convert::Infallible;

/// How an exact-mode search finds the score of its root.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ScoreSearch {
    /// Repeated null-window searches that narrow the score (the default; see the module documentation).
    #[default]
    NullWindow,
    /// One search with the full window.
    FullWindow,
}

/// Negamax with alpha-beta pruning and a transposition table of bounds.
///
/// - [`Mode::Exact`]: the value is exact, remoteness included, and equal to
///   [`super::negamax::MemoNegamax`]'s in exact mode.
/// - [`Mode::Outcome`]: a weak solve, "a win?" then if not "at least a draw?" (two null windows); the outcome
///   (win, draw or loss) is exact, the remoteness is only a bound (a win in at most `r` moves, a loss in at most
///   `r` moves), and the game's shortcuts are used even when their remoteness is not exact.
///
/// The table persists across calls (one engine can serve every position of a file) and keeps to its budget.
#[derive(Clone, Debug)]
pub struct AlphaBeta<Table> {
    mode: Mode,
    score_search: ScoreSearch,
    budget: u64,
    table: Table,
    stats: Stats,
    progress: Option<ProgressHandle>,
}

impl<Key: std::hash::Hash + Eq + Clone> AlphaBeta<KeyedTable<Key>> {
    /// An engine with an empty table of the default budget ([`DEFAULT_TABLE_MB`] MiB; it grows up to it).
    pub fn new(mode: Mode) -> Self {
        Self::with_table(mode, KeyedTable::new(mib(DEFAULT_TABLE_MB)))
    }
}

impl<Table> AlphaBeta<Table> {
    /// An engine over `table`: a [`KeyedTable`] of another budget, a [`crate::table::PackedTable`] for `u64`
    /// keys, or a [`crate::table::UnboundedTable`].
    pub fn with_table(mode: Mode, table: Table) -> Self {
        AlphaBeta {
            mode,
            score_search: ScoreSearch::default(),
            budget: u64::MAX,
            table,
            stats: Stats::default(),
            progress: None,
        }
    }

    /// The same engine giving up ([`Engine::try_value`] returns [`crate::Error::Budget`]) when the search
    /// of one position would expand more than `positions` positions. [`Engine::value`] ignores the budget.
    #[must_use]
    pub fn with_budget(self, positions: u64) -> Self {
        AlphaBeta { budget: positions, ..self }
    }

    /// The same engine finding exact scores by `score_search`.
    #[must_use]
    pub fn with_score_search(self, score_search: ScoreSearch) -> Self {
        AlphaBeta { score_search, ..self }
    }

    /// The same engine showing its searches in `progress` (none: `None`), for a watcher on another thread.
    #[must_use]
    pub fn with_progress(self, progress: Option<ProgressHandle>) -> Self {
        AlphaBeta { progress, ..self }
    }
}

impl<Table> TableEngine for AlphaBeta<Table> {
    type Table = Table;

    fn table(&self) -> &Table {
        &self.table
    }

    fn table_mut(&mut self) -> &mut Table {
        &mut self.table
    }
}

impl<Table: TableStorage> Statistics for AlphaBeta<Table> {
    fn stats(&self) -> Stats {
        Stats { table_entries: self.table.occupied() as u64, ..self.stats }
    }
}

impl<Ruleset, Table> Engine<Ruleset> for AlphaBeta<Table>
where
    Ruleset: Game + Canonicalize + SearchHints,
    Table: TranspositionTable<Ruleset::Key>,
{
    type Value = Value;
    type Failure = Infallible;

    fn search_within(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        budget: u64,
    ) -> Result<Value, Stop<Infallible>> {
        let progress = self.progress.as_ref().map(|handle| &*handle.0);
        let mut search = Search::new(game, self.mode, &mut self.table);
        search.budget = budget;
        search.progress = progress;
        progress.inspect(|progress| progress.start());
        let value = search.solve(position, self.score_search);
        progress.inspect(|progress| progress.finish());
        self.stats.visited += search.visited;
        self.stats.hits += search.hits;
        value.ok_or(if search.repeated { Stop::Repeated } else { Stop::Budget })
    }

    fn budget(&self) -> u64 {
        self.budget
    }
}
