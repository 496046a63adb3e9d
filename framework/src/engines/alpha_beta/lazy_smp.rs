//! Lazy SMP: the alpha-beta score search run by several threads at once over one shared, lock-free table.
//!
//! Every thread searches the same root. For an exact score the threads share the range of the score proven so
//! far and take its tests in one thread's converging order, so that they run each test together
//! (`shared_range.rs`); for the outcome they all run its one search. At far depths (where a search costs more
//! than a probe) a thread marks the position it searches in a shared [`Busy`] set and defers the children
//! another thread is in until it has searched its other children (the idea of ABDADA): the threads split the
//! work of each costly node instead of searching the same subtree side by side, and a deferred child's bounds
//! are often in the table by the time its turn comes. Each thread past the first keeps its near positions in a
//! near part of its own, so that each core's caches hold its own thread's cheap results. The first thread to
//! finish has the value (every bound in the table is a proven one); the others unwind without storing
//! anything. A search starts on the main thread alone and wakes the helpers only once it has expanded a few
//! thousand positions, so that quick positions cost no thread start-up.
use super::busy::Busy;
use super::progress::{ProgressHandle, SearchProgress};
use super::search::{Search, TableAccess};
use super::shared_range::SharedRange;
use super::ScoreSearch;
use crate::engines::{Engine, Mode, Statistics, Stop, TableEngine};
use crate::error::{Error, Result};
use crate::game::Canonicalize;
use crate::game::Game;
use crate::hints::SearchHints;
use crate::stats::Stats;
use crate::table::{Bounds, SharedTable, TableStorage};
use crate::value::Value;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// The positions the main thread searches alone before the helpers join.
const SEARCH_ALONE: u64 = 2_000;

/// The threads of a Lazy SMP engine: `threads` of them (0: one per core).
pub(crate) fn search_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|error| Error::Threads { threads, cause: format!("cannot start them: {error}") })
}

/// Alpha-beta on `threads` threads over one shared table (see the module documentation). Its values are those
/// of [`super::AlphaBeta`] in the same mode.
#[derive(Debug)]
pub struct LazySmp<Table> {
    mode: Mode,
    score_search: ScoreSearch,
    budget: u64,
    table: Table,
    pool: rayon::ThreadPool,
    threads: usize,
    /// The near parts of the threads past the first ([`TableStorage::private_near`]; fewer, or none, if the
    /// table gives none: those threads share its near part).
    nears: Vec<Table>,
    stats: Stats,
    progress: Option<ProgressHandle>,
}

impl<Table> LazySmp<Table> {
    /// An engine searching with `threads` threads (0: one per core) over `table`, usually a
    /// [`crate::table::PackedTable`]. Each thread past the first keeps its near positions in a table of its own
    /// from [`TableStorage::private_near`] (for a packed table, as large as its near part): the engine's memory
    /// is the table's and theirs, which [`crate::table::PackedTable::with_budget_for_threads`] keeps within one
    /// budget.
    pub fn with_table(mode: Mode, threads: usize, table: Table) -> Result<Self>
    where
        Table: TableStorage,
    {
        let pool = search_pool(threads)?;
        let threads = pool.current_num_threads();
        let score_search = ScoreSearch::default();
        let nears = (1..threads).map_while(|_| table.private_near()).collect();
        Ok(LazySmp {
            mode,
            score_search,
            budget: u64::MAX,
            table,
            pool,
            threads,
            nears,
            stats: Stats::default(),
            progress: None,
        })
    }

    /// The same engine giving up ([`Engine::try_value`] returns [`Error::Budget`]) when one thread's search
    /// of one position would expand more than `positions` positions. [`Engine::value`] ignores the budget.
    #[must_use]
    pub fn with_budget(self, positions: u64) -> Self {
        LazySmp { budget: positions, ..self }
    }

    /// The same engine finding exact scores by `score_search`.
    #[must_use]
    pub fn with_score_search(self, score_search: ScoreSearch) -> Self {
        LazySmp { score_search, ..self }
    }

    /// The same engine showing its searches in `progress` (none: `None`), for a watcher on another thread.
    #[must_use]
    pub fn with_progress(self, progress: Option<ProgressHandle>) -> Self {
        LazySmp { progress, ..self }
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }
}

impl<Table> TableEngine for LazySmp<Table> {
    type Table = Table;

    fn table(&self) -> &Table {
        &self.table
    }

    fn table_mut(&mut self) -> &mut Table {
        &mut self.table
    }

    /// Empties the table and the threads' near parts.
    fn clear(&mut self)
    where
        Table: TableStorage,
    {
        self.table.clear();
        self.nears.iter_mut().for_each(TableStorage::clear);
    }
}

/// Summed over the threads.
impl<Table: TableStorage> Statistics for LazySmp<Table> {
    fn stats(&self) -> Stats {
        Stats { table_entries: self.table.occupied() as u64, ..self.stats }
    }
}

impl<Ruleset, Table> Engine<Ruleset> for LazySmp<Table>
where
    Ruleset: Game + Canonicalize + SearchHints + Sync,
    Ruleset::Position: Sync,
    Table: SharedTable<Ruleset::Key> + TableStorage,
{
    type Value = Value;
    type Failure = Infallible;

    fn search_within(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        budget: u64,
    ) -> std::result::Result<Value, Stop<Infallible>> {
        let progress = self.progress.clone();
        let progress = progress.as_ref().map(|handle| &*handle.0);
        progress.inspect(|progress| progress.start());
        let value = self.search_threads(game, position, budget, progress);
        progress.inspect(|progress| progress.finish());
        value
    }

    fn budget(&self) -> u64 {
        self.budget
    }
}

impl<Table> LazySmp<Table> {
    /// [`Engine::search_within`] with the progress shown in `progress`.
    fn search_threads<Ruleset>(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        budget: u64,
        progress: Option<&SearchProgress>,
    ) -> std::result::Result<Value, Stop<Infallible>>
    where
        Ruleset: Game + Canonicalize + SearchHints + Sync,
        Ruleset::Position: Sync,
        Table: SharedTable<Ruleset::Key> + TableStorage,
    {
        let (mode, score_search, table) = (self.mode, self.score_search, &self.table);
        // Most positions of a file are quick: the main thread tries alone first, so that waking the helpers is
        // paid only by searches that last (what it found stays in the table for the threads).
        let mut alone = Search::new(game, mode, table);
        alone.budget = budget.min(SEARCH_ALONE);
        alone.progress = progress;
        let quick = alone.solve(position, score_search);
        self.stats.visited += alone.visited;
        self.stats.hits += alone.hits;
        if alone.repeated {
            return Err(Stop::Repeated);
        }
        if quick.is_some() || budget <= SEARCH_ALONE {
            return quick.ok_or(Stop::Budget);
        }
        let budget = budget - alone.visited;
        let stop = AtomicBool::new(false);
        let answer: Mutex<Option<Value>> = Mutex::new(None);
        let (visited, hits) = (AtomicU64::new(0), AtomicU64::new(0));
        let repeated = AtomicBool::new(false);
        let busy = Busy::new();
        // The exact score by null windows: the threads run the tests of a shared range together.
        let shared =
            (mode == Mode::Exact && score_search == ScoreSearch::NullWindow).then(|| SharedRange::new(self.threads));
        let nears = &self.nears;
        let run = |thread: usize| {
            let setup = ThreadSetup {
                stop: shared.as_ref().and_then(|shared| shared.flag(thread)).unwrap_or(&stop),
                busy: &busy,
                progress,
                budget,
                shared: shared.as_ref(),
                thread,
                score_search,
            };
            let (value, seen, found, came_back) = match thread.checked_sub(1).and_then(|index| nears.get(index)) {
                Some(near) => setup.run(Search::new(game, mode, OwnNear { table, near }), position),
                None => setup.run(Search::new(game, mode, table), position),
            };
            if let Some(value) = value {
                if let Ok(mut slot) = answer.lock() {
                    slot.get_or_insert(value);
                }
                stop.store(true, Ordering::Relaxed);
            }
            if came_back {
                repeated.store(true, Ordering::Relaxed);
                stop.store(true, Ordering::Relaxed);
            }
            visited.fetch_add(seen, Ordering::Relaxed);
            hits.fetch_add(found, Ordering::Relaxed);
        };
        self.pool.scope(|scope| {
            for helper in 1..self.threads {
                let run = &run;
                scope.spawn(move |_| run(helper));
            }
            run(0);
        });
        self.stats.visited += visited.into_inner();
        self.stats.hits += hits.into_inner();
        let stopped_by = if repeated.into_inner() { Stop::Repeated } else { Stop::Budget };
        answer.into_inner().ok().flatten().ok_or(stopped_by)
    }
}

/// How one Lazy SMP thread searches: its stop flag, the shared state and its budget.
struct ThreadSetup<'search> {
    stop: &'search AtomicBool,
    busy: &'search Busy,
    progress: Option<&'search SearchProgress>,
    budget: u64,
    /// The exact score's shared range (null-window tests), if that is the search.
    shared: Option<&'search SharedRange>,
    thread: usize,
    score_search: ScoreSearch,
}

impl<'search> ThreadSetup<'search> {
    /// Runs `search` (this thread's, through its access to the tables) on `position`: the value if it finished,
    /// the positions it expanded, its table hits, and whether a position came back on its path.
    fn run<Ruleset, Access>(
        &self,
        mut search: Search<'search, Ruleset, Access>,
        position: &Ruleset::Position,
    ) -> (Option<Value>, u64, u64, bool)
    where
        Ruleset: Game + Canonicalize + SearchHints,
        Access: TableAccess<Ruleset::Key>,
    {
        search.stop = Some(self.stop);
        search.busy = Some(self.busy);
        search.progress = self.progress;
        search.budget = self.budget;
        let value = match self.shared {
            Some(shared) => search.narrow_shared(position, shared, self.thread),
            None => search.solve(position, self.score_search),
        };
        (value, search.visited, search.hits, search.repeated)
    }
}

/// A thread's access to the shared table with a near part of its own: its near positions go to `near`, the
/// others (and the near ones that `near` cannot hold) to `table`'s far part.
struct OwnNear<'table, Table> {
    table: &'table Table,
    near: &'table Table,
}

impl<Table> OwnNear<'_, Table> {
    /// The table that keeps `key`: its own near part for a near key that it can hold, else the shared table
    /// (whose far part is used: `near` is then false in its calls).
    #[inline]
    fn part<Key>(&self, key: &Key, near: bool) -> &Table
    where
        Table: SharedTable<Key>,
    {
        if near && self.near.can_hold(key) {
            self.near
        } else {
            self.table
        }
    }
}

impl<Key, Table: SharedTable<Key>> TableAccess<Key> for OwnNear<'_, Table> {
    #[inline]
    fn probe(&mut self, key: &Key, near: bool) -> Option<Bounds> {
        SharedTable::probe(self.part(key, near), key)
    }

    #[inline]
    fn store(&mut self, key: &Key, bounds: Bounds, work: u64, near: bool) {
        SharedTable::store(self.part(key, near), key, bounds, work);
    }

    #[inline]
    fn prefetch(&self, key: &Key, near: bool) {
        SharedTable::prefetch(self.part(key, near), key, false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::PackedTable;

    #[test]
    fn a_thread_keeps_near_keys_its_own_part_cannot_hold_in_the_shared_table() {
        // The thread's own near table has 61 buckets (keys below about 2^37.9), the shared one about 4,000.
        let shared = PackedTable::with_parts(1 << 16, 0).unwrap_or_else(|error| panic!("{error}"));
        let own = PackedTable::with_parts(1 << 10, 0).unwrap_or_else(|error| panic!("{error}"));
        let mut access = OwnNear { table: &shared, near: &own };
        let (small, large) = (1_u64 << 30, 1_u64 << 40);
        for key in [small, large] {
            access.prefetch(&key, true);
            access.store(&key, Bounds::exact(0), 5, true);
            assert_eq!(access.probe(&key, true), Some(Bounds::exact(0)));
        }
        assert_eq!((own.occupied(), shared.occupied()), (1, 1));
        assert_eq!((own.probe(&small), shared.probe(&large)), (Some(Bounds::exact(0)), Some(Bounds::exact(0))));
        // A far key always goes to the shared table.
        access.store(&7_u64, Bounds::exact(0), 5, false);
        assert_eq!((own.occupied(), shared.occupied()), (1, 2));
    }
}
