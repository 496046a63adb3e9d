//! [`ScoredLazySmp`]: the scored alpha-beta on several threads over one shared, lock-free table.
//!
//! The threads share the root's [`Narrowing`]: each takes the test under way from it and runs it, so that the
//! threads search the same test together; the first to answer narrows the range, aims the next test, and drops
//! the others' copies of the answered one (they move on to the next). Within a test, at the far depths, a
//! thread marks the position it is in (the busy set of the win/loss Lazy SMP) and defers the children another
//! thread is in until it has searched its other children (the idea of ABDADA): the threads split the work of
//! each costly node, and a deferred child's bounds are often in the table by the time its turn comes. Every
//! bound in the shared table is a proven one, so the threads' values agree with one thread's.
//!
//! A search starts on the calling thread alone and wakes the helpers only once it has expanded a few thousand
//! positions, so that quick positions cost no thread start-up.

use super::guess::{first_guess, root_guess_budget, AtOnce, Guess};
use super::search::{within, Narrowing, Search};
use super::{Progress, ProgressHook};
use crate::engines::alpha_beta::busy::Busy;
use crate::engines::alpha_beta::lazy_smp::search_pool;
use crate::engines::alpha_beta::ProgressHandle;
use crate::engines::{stopped, Engine, Mode, Statistics, Stop, TableEngine};
use crate::error::{Error, Result};
use crate::scored::Deterministic;
use crate::stats::Stats;
use crate::table::{SharedTable, TableStorage};
use crate::{Canonicalize, SearchHints};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The positions the calling thread searches alone before the helpers join.
const SEARCH_ALONE: u64 = 2_000;

/// The scored alpha-beta on `threads` threads over one shared table (see the module documentation). Its scores
/// are those of [`super::ScoredAlphaBeta`] in the same mode.
pub struct ScoredLazySmp<Table> {
    mode: Mode,
    budget: u64,
    guess_budget: u64,
    table: Table,
    pool: rayon::ThreadPool,
    threads: usize,
    stats: Stats,
    progress: Option<ProgressHook>,
    line: Option<ProgressHandle>,
}

impl<Table> std::fmt::Debug for ScoredLazySmp<Table> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("ScoredLazySmp")
            .field("mode", &self.mode)
            .field("budget", &self.budget)
            .field("guess_budget", &self.guess_budget)
            .field("threads", &self.threads)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl<Table> ScoredLazySmp<Table> {
    /// [`ScoredLazySmp::search_threads`], shown on the progress line from its start to its end.
    fn search_shown<Ruleset>(
        &mut self,
        game: &Ruleset,
        root: &Ruleset::Position,
        budget: u64,
        window: Option<(i32, i32)>,
    ) -> Result<i32, Stop<Error>>
    where
        Ruleset: Deterministic + Canonicalize + SearchHints + Sync,
        Ruleset::Position: Sync,
        Table: SharedTable<Ruleset::Key> + TableStorage,
    {
        let line = self.line.clone();
        line.iter().for_each(|line| line.0.start());
        let score = self.search_threads(game, root, budget, window);
        line.iter().for_each(|line| line.0.finish());
        score
    }

    /// An engine searching with `threads` threads (0: one per core) over `table`: a
    /// [`crate::table::PackedTable`] for keys that fit a `u64`, else a [`crate::table::ShardedTable`].
    /// [`Mode::Exact`] gives scores, [`Mode::Outcome`] their signs.
    pub fn with_table(mode: Mode, threads: usize, table: Table) -> Result<Self> {
        let pool = search_pool(threads)?;
        let threads = pool.current_num_threads();
        Ok(ScoredLazySmp {
            mode,
            budget: u64::MAX,
            guess_budget: super::GUESS_POSITIONS,
            table,
            pool,
            threads,
            stats: Stats::default(),
            progress: None,
            line: None,
        })
    }

    /// The same engine giving up ([`crate::Error::Budget`]) when one thread's search of one position would
    /// expand more than `positions`.
    #[must_use]
    pub fn with_budget(self, positions: u64) -> Self {
        ScoredLazySmp { budget: positions, ..self }
    }

    /// The same engine spending at most `positions` on the first guess of each exact score (0: no guess).
    #[must_use]
    pub fn with_guess_budget(self, positions: u64) -> Self {
        ScoredLazySmp { guess_budget: positions, ..self }
    }

    /// The same engine reporting the first thread's progress to `hook` (each test's start and end, and every
    /// [`super::PROGRESS_EVERY`] positions of that thread), with the helpers' answers too: the first thread
    /// passes each on (with its own count of positions) before its next test, so that the finished tests the
    /// hook hears prove the score the search returns.
    #[must_use]
    pub fn with_progress(self, hook: ProgressHook) -> Self {
        ScoredLazySmp { progress: Some(hook), ..self }
    }

    /// The same engine showing its searches in `line` (none: `None`), for a watcher on another thread.
    #[must_use]
    pub fn with_progress_line(self, line: Option<ProgressHandle>) -> Self {
        ScoredLazySmp { line, ..self }
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }
}

impl<Table> TableEngine for ScoredLazySmp<Table> {
    type Table = Table;

    fn table(&self) -> &Table {
        &self.table
    }

    fn table_mut(&mut self) -> &mut Table {
        &mut self.table
    }
}

/// Summed over the threads.
impl<Table: TableStorage> Statistics for ScoredLazySmp<Table> {
    fn stats(&self) -> Stats {
        Stats { table_entries: self.table.occupied() as u64, ..self.stats }
    }
}

impl<Ruleset, Table> Engine<Ruleset> for ScoredLazySmp<Table>
where
    Ruleset: Deterministic + Canonicalize + SearchHints + Sync,
    Ruleset::Position: Sync,
    Table: SharedTable<Ruleset::Key> + TableStorage,
{
    type Value = i32;
    type Failure = Error;

    fn search_within(&mut self, game: &Ruleset, position: &Ruleset::Position, budget: u64) -> Result<i32, Stop<Error>> {
        self.search_shown(game, position, budget, None)
    }

    fn budget(&self) -> u64 {
        self.budget
    }

    /// Null-window tests within `[low, high]` only, with no first guess (the window aims them).
    fn try_value_within(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        low: i32,
        high: i32,
    ) -> crate::Result<i32> {
        if self.mode != Mode::Exact {
            return self.try_value(game, position);
        }
        let budget = self.budget;
        let score = self.search_shown(game, position, budget, Some((low, high)));
        score.map(|score| score.max(low).min(high)).map_err(|stop| stopped(stop, budget))
    }
}

/// One thread's test under way and the flag that drops it, on cache lines of its own: each thread reads its
/// flag at every position it expands.
#[derive(Debug, Default)]
#[repr(align(128))]
struct Running {
    test: Mutex<Option<i32>>,
    drop: AtomicBool,
}

/// The narrowing the threads share, and each thread's test under way.
struct Shared {
    narrowing: Mutex<Narrowing>,
    running: Vec<Running>,
    /// Set when a thread ran out of budget or met a broken contract: every thread stops.
    ended: AtomicBool,
    /// The helpers' answers the first thread has not passed on to its progress hook yet.
    unheard: Mutex<Vec<Answer>>,
}

/// A helper's answer to a test, with the shared range when it was recorded: `(test, found, low, high)`.
pub(super) type Answer = (i32, i32, i32, i32);

/// The finished test a progress hook hears for a helper's `answer`, with the first thread's count `visited`.
pub(super) fn heard(visited: u64, (test, found, low, high): Answer) -> Progress {
    Progress { visited, low, high, test: Some(test), finished: true, found }
}

impl Shared {
    /// The narrowing, locked. A thread that panicked while holding the lock left true bounds (each update keeps
    /// them), so a poisoned lock is still good.
    fn lock(&self) -> MutexGuard<'_, Narrowing> {
        self.narrowing.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Thread `thread`'s next test and the range before it, or `None` when the score is known or the search
    /// ended; for the first thread, with the helpers' answers it has not heard yet, taken under the same lock
    /// (so that they come before the range they narrowed).
    fn next(&self, thread: usize) -> (Vec<Answer>, Option<(i32, Narrowing)>) {
        let narrowing = self.lock();
        let unheard = if thread == 0 { self.take_unheard() } else { Vec::new() };
        let test = narrowing.next().filter(|_| !self.ended.load(Ordering::Relaxed));
        if let Some(running) = self.running.get(thread) {
            running.drop.store(false, Ordering::Relaxed);
            *running.test.lock().unwrap_or_else(PoisonError::into_inner) = test;
        }
        (unheard, test.map(|test| (test, *narrowing)))
    }

    /// Records thread `thread`'s answer to "at least `test`?", and drops every test under way that the range
    /// now answers.
    fn record(&self, thread: usize, test: i32, found: i32) {
        let mut narrowing = self.lock();
        if thread != 0 {
            let answer = (test, found, narrowing.low, narrowing.high);
            self.unheard.lock().unwrap_or_else(PoisonError::into_inner).push(answer);
        }
        narrowing.record(test, found);
        for (index, running) in self.running.iter().enumerate() {
            let mut under_way = running.test.lock().unwrap_or_else(PoisonError::into_inner);
            if index == thread {
                *under_way = None;
            } else if under_way.is_some_and(|other| other <= narrowing.low || other > narrowing.high) {
                running.drop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// The helpers' answers not yet heard by the first thread, oldest first; they are then heard.
    fn take_unheard(&self) -> Vec<Answer> {
        std::mem::take(&mut *self.unheard.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Stops every thread (a budget spent, a contract broken).
    fn end(&self) {
        self.ended.store(true, Ordering::Relaxed);
        self.running.iter().for_each(|running| running.drop.store(true, Ordering::Relaxed));
    }
}

impl<Table> ScoredLazySmp<Table> {
    /// [`Engine::search_within`]: the guess and the first positions on this thread, then every thread; within
    /// `window` only, if given (with no guess: [`Engine::try_value_within`]).
    fn search_threads<Ruleset>(
        &mut self,
        game: &Ruleset,
        root: &Ruleset::Position,
        budget: u64,
        window: Option<(i32, i32)>,
    ) -> Result<i32, Stop<Error>>
    where
        Ruleset: Deterministic + Canonicalize + SearchHints + Sync,
        Ruleset::Position: Sync,
        Table: SharedTable<Ruleset::Key> + TableStorage,
    {
        let table = &self.table;
        let mut alone = Search::new(game, table, budget.min(SEARCH_ALONE));
        let known = alone.known_range(root);
        let (mut low, mut high) = window.map_or(known, |window| within(known, window));
        if low == high {
            return Ok(self.signed(low));
        }
        let guess = match self.mode {
            Mode::Exact if window.is_some() => None,
            // The sign alone: "above 0?", then (if not) "at least 0?".
            Mode::Outcome => {
                (low, high) = (low.clamp(-1, 1), high.clamp(-1, 1));
                None
            }
            Mode::Exact => {
                let guess_budget = root_guess_budget(self.guess_budget, known != game.value_range(root));
                let (guess, visited) = first_guess(game, root, guess_budget.min(budget), &AtOnce(&self.pool));
                self.stats.visited += visited;
                match guess {
                    Guess::Exact(score) => return Ok(score),
                    Guess::Estimate(score) => Some(score),
                    Guess::None => None,
                }
            }
        };
        let mut narrowing = Narrowing::new(low, high, guess);
        // Most positions are quick: this thread tries alone first, so that waking the helpers is paid only by
        // searches that last (what it found stays in the table for the threads).
        alone.line = self.line.clone();
        alone.progress = self.progress.clone();
        while let Some(test) = narrowing.next() {
            let found = alone.test(root, &narrowing, test);
            if alone.halted() {
                break;
            }
            narrowing.record(test, found);
        }
        self.stats.visited += alone.visited;
        self.stats.hits += alone.hits;
        if let Some(error) = alone.broken.take() {
            return Err(Stop::Failure(error));
        }
        if narrowing.next().is_none() {
            return Ok(self.signed(narrowing.low));
        }
        if budget <= SEARCH_ALONE {
            return Err(Stop::Budget);
        }
        let (budget, alone_visited) = (budget.saturating_sub(alone.visited), alone.visited);
        let shared = Shared {
            narrowing: Mutex::new(narrowing),
            running: (0..self.threads).map(|_| Running::default()).collect(),
            ended: AtomicBool::new(false),
            unheard: Mutex::default(),
        };
        let busy = Busy::new();
        let (visited, hits) = (AtomicU64::new(0), AtomicU64::new(0));
        // The first thread's last count, for the answers a helper recorded after the first thread left.
        let first_count = AtomicU64::new(alone_visited);
        let broken: Mutex<Option<Error>> = Mutex::new(None);
        let (progress, line) = (self.progress.clone(), self.line.clone());
        let run = |thread: usize| {
            let Some(running) = shared.running.get(thread) else { return };
            let mut search = Search::new(game, table, budget);
            search.stop = Some(&running.drop);
            search.busy = Some(&busy);
            search.line = line.clone();
            // The first thread goes on from the count of its search alone, so that its watcher's count never
            // falls (and its budget is the same).
            let mut start = 0;
            if thread == 0 {
                start = alone_visited;
                search.progress = progress.clone();
                search.visited = start;
                search.budget = budget.saturating_add(start);
            }
            loop {
                let (unheard, next) = shared.next(thread);
                unheard.into_iter().for_each(|answer| search.hear(answer));
                let Some((test, before)) = next else { break };
                let found = search.test(root, &before, test);
                if let Some(error) = search.broken.take() {
                    broken.lock().unwrap_or_else(PoisonError::into_inner).get_or_insert(error);
                    shared.end();
                    break;
                }
                if search.stopped {
                    if search.visited >= search.budget {
                        shared.end();
                        break;
                    }
                    // Dropped: the test's answer is known; the next one starts from the range as it is now.
                    search.stopped = false;
                    continue;
                }
                shared.record(thread, test, found);
            }
            if thread == 0 {
                first_count.store(search.visited, Ordering::Relaxed);
            }
            visited.fetch_add(search.visited - start, Ordering::Relaxed);
            hits.fetch_add(search.hits, Ordering::Relaxed);
        };
        self.pool.scope(|scope| {
            for helper in 1..self.threads {
                let run = &run;
                scope.spawn(move |_| run(helper));
            }
            run(0);
        });
        // A helper may answer after the first thread has left its loop (the search ended): heard here.
        if let Some(hook) = &self.progress {
            for answer in shared.take_unheard() {
                hook(&heard(first_count.load(Ordering::Relaxed), answer));
            }
        }
        self.stats.visited += visited.into_inner();
        self.stats.hits += hits.into_inner();
        if let Some(error) = broken.into_inner().unwrap_or_else(PoisonError::into_inner) {
            return Err(Stop::Failure(error));
        }
        let narrowing = shared.narrowing.into_inner().unwrap_or_else(PoisonError::into_inner);
        match narrowing.next() {
            None => Ok(self.signed(narrowing.low)),
            Some(_) => Err(Stop::Budget),
        }
    }

    /// The engine's answer for a score: the score itself, or its sign in [`Mode::Outcome`].
    fn signed(&self, score: i32) -> i32 {
        match self.mode {
            Mode::Outcome => score.signum(),
            Mode::Exact => score,
        }
    }
}
