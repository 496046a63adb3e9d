//! Parallel engines with rayon: [`ParallelNegamax`] (over a shared table with a budget) and [`ParallelGrundy`]
//! (over a shared `dashmap`).
//!
//! Both compute exactly what their sequential twins compute (tests check it); they differ in who computes it.
//! The tables hash with hashbrown's default (foldhash) hasher, as the sequential engines do.
//! They run in the current rayon pool: wrap calls in `rayon::ThreadPool::install` to choose the thread count.

use super::grundy::mex;
use super::support::{score_of, settled_value, value_of, with_stack, PathGuard};
use super::{Engine, Mode, Statistics, Stop};
use crate::error::Budget;
use crate::game::Canonicalize;
use crate::game::Game;
use crate::hints::SearchHints;
use crate::impartial::Impartial;
use crate::stats::Stats;
use crate::table::{mib, Bounds, ShardedTable, SharedTable, TableStorage, DEFAULT_TABLE_MB};
use crate::value::Value;
use dashmap::DashMap;
use hashbrown::DefaultHashBuilder;
use rayon::prelude::*;
use std::convert::Infallible;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// One search's budget: the shared visited count at which it stops, and whether it has.
struct Run {
    limit: u64,
    stopped: AtomicBool,
    /// Whether it stopped because a position came back on a path (a game whose positions repeat).
    repeated: AtomicBool,
}

/// What one task of a search keeps for itself: its counters, and the guard of its path.
struct Task<Position> {
    counters: Stats,
    guard: PathGuard<Position>,
}

impl<Position> Task<Position> {
    fn new() -> Self {
        Task { counters: Stats::default(), guard: PathGuard::default() }
    }
}

/// Shards of the shared tables: many more than threads, so two threads rarely wait on the same lock.
const SHARDS: usize = 128;

/// Memoized negamax whose top `split_depth` plies search sibling moves in parallel (rayon tasks); deeper
/// nodes search sequentially. All threads share one table of exact values with a memory budget (a
/// [`ShardedTable`]), so work found by one thread is reused by all. In [`Mode::Outcome`] a found win stops the
/// sibling tasks of its node (rayon short-circuit).
#[derive(Debug)]
pub struct ParallelNegamax<Key: Eq + Hash> {
    mode: Mode,
    split_depth: u32,
    budget: u64,
    table: ShardedTable<Key>,
    visited: AtomicU64,
    hits: AtomicU64,
}

impl<Key: Eq + Hash + Clone + Send + Sync> ParallelNegamax<Key> {
    /// An engine that splits the work over the first `split_depth` plies, with a table of the default budget
    /// ([`DEFAULT_TABLE_MB`] MiB).
    pub fn new(mode: Mode, split_depth: u32) -> Self {
        Self::with_memory(mode, split_depth, mib(DEFAULT_TABLE_MB))
    }

    /// The same with a table of at most `budget_bytes` bytes.
    pub fn with_memory(mode: Mode, split_depth: u32, budget_bytes: usize) -> Self {
        ParallelNegamax {
            mode,
            split_depth,
            budget: u64::MAX,
            table: ShardedTable::new(budget_bytes),
            visited: AtomicU64::new(0),
            hits: AtomicU64::new(0),
        }
    }

    /// The same engine giving up ([`ParallelNegamax::try_evaluate`] and [`Engine::try_value`] return
    /// [`crate::Error::Budget`]) when the search of one position would expand more than `positions` positions
    /// (counted across threads; a task's count joins the total when the task ends, so the search may overshoot
    /// by what the running tasks have not reported yet). [`ParallelNegamax::evaluate`] ignores the budget.
    #[must_use]
    pub fn with_budget(self, positions: u64) -> Self {
        ParallelNegamax { budget: positions, ..self }
    }

    /// The value of `position` (the engine can be shared between threads: `&self`).
    pub fn evaluate<Ruleset>(&self, game: &Ruleset, position: &Ruleset::Position) -> Value
    where
        Ruleset: Game + Canonicalize<Key = Key> + SearchHints + Sync,
        Ruleset::Position: Send + Sync,
        Ruleset::Move: Send + Sync,
    {
        self.run(game, position, u64::MAX).unwrap_or(Value::Draw)
    }

    /// The value of `position` within the engine's budget of positions.
    pub fn try_evaluate<Ruleset>(&self, game: &Ruleset, position: &Ruleset::Position) -> crate::Result<Value>
    where
        Ruleset: Game + Canonicalize<Key = Key> + SearchHints + Sync,
        Ruleset::Position: Send + Sync,
        Ruleset::Move: Send + Sync,
    {
        self.run(game, position, self.budget).map_err(|stop| super::stopped(stop, self.budget))
    }

    /// The search of one position within `budget` positions, or why it stopped.
    fn run<Ruleset>(&self, game: &Ruleset, position: &Ruleset::Position, budget: u64) -> Result<Value, Stop<Infallible>>
    where
        Ruleset: Game + Canonicalize<Key = Key> + SearchHints + Sync,
        Ruleset::Position: Send + Sync,
        Ruleset::Move: Send + Sync,
    {
        let run = Run {
            limit: self.visited.load(Ordering::Relaxed).saturating_add(budget),
            stopped: AtomicBool::new(false),
            repeated: AtomicBool::new(false),
        };
        let mut task = Task::new();
        let value = self.search(game, position, 0, &run, &mut task);
        self.flush(&task.counters);
        match (run.stopped.load(Ordering::Relaxed), run.repeated.load(Ordering::Relaxed)) {
            (false, _) => Ok(value),
            (true, true) => Err(Stop::Repeated),
            (true, false) => Err(Stop::Budget),
        }
    }

    /// Adds a task's counters to the shared ones. Tasks count locally and flush once: shared atomic counters
    /// bumped at every node would bounce their cache line between cores and cost more than they measure.
    fn flush(&self, counters: &Stats) {
        self.visited.fetch_add(counters.visited, Ordering::Relaxed);
        self.hits.fetch_add(counters.hits, Ordering::Relaxed);
    }

    fn search<Ruleset>(
        &self,
        game: &Ruleset,
        position: &Ruleset::Position,
        depth: u32,
        run: &Run,
        task: &mut Task<Ruleset::Position>,
    ) -> Value
    where
        Ruleset: Game + Canonicalize<Key = Key> + SearchHints + Sync,
        Ruleset::Position: Send + Sync,
        Ruleset::Move: Send + Sync,
    {
        if let Some(value) = settled_value(game, self.mode, position) {
            return value;
        }
        let key = game.canonical(position);
        if let Some(bounds) = self.table.probe(&key).filter(|bounds| bounds.is_exact()) {
            task.counters.hits += 1;
            return value_of(bounds.lower, 0);
        }
        if run.stopped.load(Ordering::Relaxed) {
            return Value::Draw;
        }
        if self.visited.load(Ordering::Relaxed).saturating_add(task.counters.visited) >= run.limit {
            run.stopped.store(true, Ordering::Relaxed);
            return Value::Draw;
        }
        if task.guard.repeats(depth, position) {
            run.repeated.store(true, Ordering::Relaxed);
            run.stopped.store(true, Ordering::Relaxed);
            return Value::Draw;
        }
        task.counters.visited += 1;
        let before = task.counters.visited;
        let moves = game.legal_moves(position);
        let mode = self.mode;
        let value = if depth < self.split_depth {
            let folded = moves
                .par_iter()
                .map(|mv| {
                    let mut task = Task::new();
                    let value = self.search(game, &game.play(position, mv), depth + 1, run, &mut task).backed_up();
                    self.flush(&task.counters);
                    if mode == Mode::Outcome && value.is_win() {
                        Err(value)
                    } else {
                        Ok(value)
                    }
                })
                .try_reduce(|| Value::LOST, |a, b| Ok(a.max(b)));
            match folded {
                Ok(value) | Err(value) => value,
            }
        } else {
            super::negamax::best_of_children(
                mode,
                moves.iter().map(|mv| with_stack(|| self.search(game, &game.play(position, mv), depth + 1, run, task))),
            )
        };
        // A stopped search's values are meaningless: none is stored.
        if run.stopped.load(Ordering::Relaxed) {
            return Value::Draw;
        }
        // The tasks of a split node count their work apart: such a node is among the most expensive anyway.
        let work = if depth < self.split_depth { u64::MAX } else { task.counters.visited - before + 1 };
        self.table.store(&key, Bounds::exact(score_of(value, 0)), work);
        value
    }
}

impl<Key: Eq + Hash> Statistics for ParallelNegamax<Key> {
    fn stats(&self) -> Stats {
        Stats {
            visited: self.visited.load(Ordering::Relaxed),
            table_entries: self.table.occupied() as u64,
            hits: self.hits.load(Ordering::Relaxed),
        }
    }
}

impl<Ruleset> Engine<Ruleset> for ParallelNegamax<Ruleset::Key>
where
    Ruleset: Game + Canonicalize + SearchHints + Sync,
    Ruleset::Key: Send + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Move: Send + Sync,
{
    type Value = Value;
    type Failure = Infallible;

    fn search_within(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        budget: u64,
    ) -> Result<Value, Stop<Infallible>> {
        self.run(game, position, budget)
    }

    fn budget(&self) -> u64 {
        self.budget
    }
}

/// The Sprague-Grundy engine with a shared `DashMap` table. [`ParallelGrundy::precompute`] evaluates waves
/// of components in parallel, where each wave's options lie in earlier waves (for example sub-rectangles
/// ordered by area); [`ParallelGrundy::nimber`] then answers from the table. The `try_` methods keep to a
/// budget of components expanded per call and of table memory.
#[derive(Debug)]
pub struct ParallelGrundy<Key: Eq + Hash> {
    table: DashMap<Key, u32, DefaultHashBuilder>,
    /// Entries inserted (the table's size, without locking every shard to count it).
    entries: AtomicU64,
    visited: AtomicU64,
    hits: AtomicU64,
    budget: u64,
    memory: usize,
}

impl<Key: Eq + Hash + Clone + Send + Sync> Default for ParallelGrundy<Key> {
    fn default() -> Self {
        Self::new()
    }
}

impl<Key: Eq + Hash + Clone + Send + Sync> ParallelGrundy<Key> {
    /// An engine with an empty table and no budget.
    pub fn new() -> Self {
        ParallelGrundy {
            table: DashMap::with_hasher_and_shard_amount(DefaultHashBuilder::default(), SHARDS),
            entries: AtomicU64::new(0),
            visited: AtomicU64::new(0),
            hits: AtomicU64::new(0),
            budget: u64::MAX,
            memory: usize::MAX,
        }
    }

    /// The same engine whose `try_` methods give up with [`crate::Error::Budget`] past `positions` components
    /// expanded in one call (counted across threads as tasks report).
    #[must_use]
    pub fn with_budget(self, positions: u64) -> Self {
        ParallelGrundy { budget: positions, ..self }
    }

    /// The same engine whose `try_` methods give up with [`crate::Error::Budget`] when the table would take
    /// more than `bytes` bytes (estimated per entry: key, nimber, hash and the map's overhead).
    #[must_use]
    pub fn with_memory(self, bytes: usize) -> Self {
        ParallelGrundy { memory: bytes, ..self }
    }

    fn max_entries(&self) -> u64 {
        let entry = std::mem::size_of::<(Key, u32)>() + 8;
        ((self.memory / entry) as u64).saturating_mul(7) / 8
    }

    /// A run without budgets (the infallible methods).
    fn unbounded() -> GrundyRun {
        GrundyRun {
            limit: u64::MAX,
            max_entries: u64::MAX,
            stopped: AtomicBool::new(false),
            budget: std::sync::Mutex::new(None),
        }
    }

    /// A run within the engine's budgets.
    fn bounded(&self) -> GrundyRun {
        GrundyRun {
            limit: self.visited.load(Ordering::Relaxed).saturating_add(self.budget),
            max_entries: self.max_entries(),
            stopped: AtomicBool::new(false),
            budget: std::sync::Mutex::new(None),
        }
    }

    /// The nimber of `component` (recursive, memoized in the shared table).
    pub fn nimber<Ruleset>(&self, game: &Ruleset, component: &Ruleset::Component) -> u32
    where
        Ruleset: Impartial<Key = Key> + Sync,
    {
        self.nimber_in(game, component, &Self::unbounded())
    }

    fn nimber_in<Ruleset>(&self, game: &Ruleset, component: &Ruleset::Component, run: &GrundyRun) -> u32
    where
        Ruleset: Impartial<Key = Key> + Sync,
    {
        let mut counters = Stats::default();
        let nimber = self.nimber_counted(game, component, run, &mut counters);
        self.visited.fetch_add(counters.visited, Ordering::Relaxed);
        self.hits.fetch_add(counters.hits, Ordering::Relaxed);
        nimber
    }

    /// [`ParallelGrundy::nimber`], counting in the caller's local counters (see [`ParallelNegamax`]'s flush).
    fn nimber_counted<Ruleset>(
        &self,
        game: &Ruleset,
        component: &Ruleset::Component,
        run: &GrundyRun,
        counters: &mut Stats,
    ) -> u32
    where
        Ruleset: Impartial<Key = Key> + Sync,
    {
        let key = game.key(component);
        if let Some(nimber) = self.table.get(&key) {
            counters.hits += 1;
            return *nimber;
        }
        if run.is_stopped() {
            return 0;
        }
        if self.visited.load(Ordering::Relaxed).saturating_add(counters.visited) >= run.limit {
            return run.stop(Budget::Positions(self.budget));
        }
        if self.entries.load(Ordering::Relaxed) >= run.max_entries {
            return run.stop(Budget::TableBytes(self.memory));
        }
        counters.visited += 1;
        let mut values = Vec::new();
        game.options(component, &mut |parts, _| {
            values.push(parts.iter().fold(0, |acc, part| acc ^ self.nimber_counted(game, part, run, counters)));
        });
        let nimber = mex(&values);
        // A stopped run's values are meaningless: none is stored.
        if !run.is_stopped() && self.table.insert(key, nimber).is_none() {
            self.entries.fetch_add(1, Ordering::Relaxed);
        }
        nimber
    }

    /// Evaluates each wave in parallel, one wave after the other.
    pub fn precompute<Ruleset>(&self, game: &Ruleset, waves: &[Vec<Ruleset::Component>])
    where
        Ruleset: Impartial<Key = Key> + Sync,
        Ruleset::Component: Send + Sync,
    {
        self.precompute_in(game, waves, &Self::unbounded());
    }

    /// [`ParallelGrundy::precompute`] within the engine's budgets.
    pub fn try_precompute<Ruleset>(&self, game: &Ruleset, waves: &[Vec<Ruleset::Component>]) -> crate::Result<()>
    where
        Ruleset: Impartial<Key = Key> + Sync,
        Ruleset::Component: Send + Sync,
    {
        let run = self.bounded();
        self.precompute_in(game, waves, &run);
        run.result(())
    }

    fn precompute_in<Ruleset>(&self, game: &Ruleset, waves: &[Vec<Ruleset::Component>], run: &GrundyRun)
    where
        Ruleset: Impartial<Key = Key> + Sync,
        Ruleset::Component: Send + Sync,
    {
        for wave in waves {
            if run.is_stopped() {
                return;
            }
            wave.par_iter().for_each(|component| {
                self.nimber_in(game, component, run);
            });
        }
    }

    /// The nimber of a sum (XOR of the components' nimbers).
    pub fn sum<Ruleset>(&self, game: &Ruleset, components: &[Ruleset::Component]) -> u32
    where
        Ruleset: Impartial<Key = Key> + Sync,
        Ruleset::Component: Send + Sync,
    {
        components.par_iter().map(|c| self.nimber(game, c)).reduce(|| 0, |a, b| a ^ b)
    }

    /// [`ParallelGrundy::sum`] within the engine's budgets.
    pub fn try_sum<Ruleset>(&self, game: &Ruleset, components: &[Ruleset::Component]) -> crate::Result<u32>
    where
        Ruleset: Impartial<Key = Key> + Sync,
        Ruleset::Component: Send + Sync,
    {
        let run = self.bounded();
        let nimber = components.par_iter().map(|c| self.nimber_in(game, c, &run)).reduce(|| 0, |a, b| a ^ b);
        run.result(nimber)
    }
}

impl<Key: Eq + Hash> Statistics for ParallelGrundy<Key> {
    fn stats(&self) -> Stats {
        Stats {
            visited: self.visited.load(Ordering::Relaxed),
            table_entries: self.table.len() as u64,
            hits: self.hits.load(Ordering::Relaxed),
        }
    }
}

/// One call of [`ParallelGrundy`] under its budgets: where it stops, and which budget stopped it (the flag is
/// read at every component; the lock is taken only once a budget runs out).
struct GrundyRun {
    limit: u64,
    max_entries: u64,
    stopped: AtomicBool,
    budget: std::sync::Mutex<Option<Budget>>,
}

impl GrundyRun {
    fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// Records the budget that ran out; the nimber returned is meaningless (and never stored).
    fn stop(&self, budget: Budget) -> u32 {
        if let Ok(mut first) = self.budget.lock() {
            first.get_or_insert(budget);
        }
        self.stopped.store(true, Ordering::Relaxed);
        0
    }

    fn result<Output>(&self, output: Output) -> crate::Result<Output> {
        if !self.is_stopped() {
            return Ok(output);
        }
        match self.budget.lock().map(|budget| *budget) {
            Ok(Some(budget)) => Err(crate::Error::Budget(budget)),
            _ => Err(crate::Error::internal("engines", "a Grundy task stopped without a budget".to_string())),
        }
    }
}
