//! Parallel engines with rayon: [`ParallelNegamax`] (over a shared table with a budget) and [`ParallelGrundy`]
//! (over a shared `dashmap`).
//!
//! Both compute exactly what their sequential twins compute (tests check it); they differ in who computes it.
//! The tables hash with hashbrown's default (foldhash) hasher, as the sequential engines do.
//! They run in the current rayon pool: wrap calls in `rayon::ThreadPool::install` to choose the thread count.

use super::grundy::mex;
use super::support::{score_of, settled_value, value_of, with_stack};
use super::{Engine, Mode};
use crate::game::Canonicalize;
use crate::hints::SearchHints;
use crate::impartial::Impartial;
use crate::stats::Stats;
use crate::table::{mib, Bounds, ShardedTable, SharedTable, TableStorage, DEFAULT_TABLE_MB};
use crate::value::Value;
use dashmap::DashMap;
use hashbrown::DefaultHashBuilder;
use rayon::prelude::*;
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};

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
            table: ShardedTable::new(budget_bytes),
            visited: AtomicU64::new(0),
            hits: AtomicU64::new(0),
        }
    }

    /// The value of `position` (the engine can be shared between threads: `&self`).
    pub fn evaluate<Rules>(&self, game: &Rules, position: &Rules::Position) -> Value
    where
        Rules: Canonicalize<Key = Key> + SearchHints + Sync,
        Rules::Position: Send + Sync,
        Rules::Move: Send + Sync,
    {
        let mut counters = Stats::default();
        let value = self.search(game, position, 0, &mut counters);
        self.flush(&counters);
        value
    }

    /// Adds a task's counters to the shared ones. Tasks count locally and flush once: shared atomic counters
    /// bumped at every node would bounce their cache line between cores and cost more than they measure.
    fn flush(&self, counters: &Stats) {
        self.visited.fetch_add(counters.visited, Ordering::Relaxed);
        self.hits.fetch_add(counters.hits, Ordering::Relaxed);
    }

    fn search<Rules>(&self, game: &Rules, position: &Rules::Position, depth: u32, counters: &mut Stats) -> Value
    where
        Rules: Canonicalize<Key = Key> + SearchHints + Sync,
        Rules::Position: Send + Sync,
        Rules::Move: Send + Sync,
    {
        if let Some(value) = settled_value(game, self.mode, position) {
            return value;
        }
        let key = game.canonical(position);
        if let Some(bounds) = self.table.probe(&key).filter(|bounds| bounds.is_exact()) {
            counters.hits += 1;
            return value_of(bounds.lower, 0);
        }
        counters.visited += 1;
        let before = counters.visited;
        let moves = game.legal_moves(position);
        let mode = self.mode;
        let value = if depth < self.split_depth {
            let folded = moves
                .par_iter()
                .map(|mv| {
                    let mut task = Stats::default();
                    let value = self.search(game, &game.play(position, mv), depth + 1, &mut task).backed_up();
                    self.flush(&task);
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
                moves.iter().map(|mv| with_stack(|| self.search(game, &game.play(position, mv), depth + 1, counters))),
            )
        };
        // The tasks of a split node count their work apart: such a node is among the most expensive anyway.
        let work = if depth < self.split_depth { u64::MAX } else { counters.visited - before + 1 };
        self.table.store(&key, Bounds::exact(score_of(value, 0)), work);
        value
    }

    /// The statistics gathered so far.
    pub fn stats(&self) -> Stats {
        Stats {
            visited: self.visited.load(Ordering::Relaxed),
            table_entries: self.table.occupied() as u64,
            hits: self.hits.load(Ordering::Relaxed),
        }
    }
}

impl<Rules> Engine<Rules> for ParallelNegamax<Rules::Key>
where
    Rules: Canonicalize + SearchHints + Sync,
    Rules::Key: Send + Sync,
    Rules::Position: Send + Sync,
    Rules::Move: Send + Sync,
{
    fn value(&mut self, game: &Rules, position: &Rules::Position) -> Value {
        self.evaluate(game, position)
    }

    fn stats(&self) -> Stats {
        ParallelNegamax::stats(self)
    }

    fn mode(&self) -> Mode {
        self.mode
    }
}

/// The Sprague-Grundy engine with a shared `DashMap` table. [`ParallelGrundy::precompute`] evaluates waves
/// of components in parallel, where each wave's options lie in earlier waves (for example sub-rectangles
/// ordered by area); [`ParallelGrundy::nimber`] then answers from the table.
#[derive(Debug)]
pub struct ParallelGrundy<Key: Eq + Hash> {
    table: DashMap<Key, u32, DefaultHashBuilder>,
    visited: AtomicU64,
    hits: AtomicU64,
}

impl<Key: Eq + Hash + Clone + Send + Sync> Default for ParallelGrundy<Key> {
    fn default() -> Self {
        Self::new()
    }
}

impl<Key: Eq + Hash + Clone + Send + Sync> ParallelGrundy<Key> {
    /// An engine with an empty table.
    pub fn new() -> Self {
        ParallelGrundy {
            table: DashMap::with_hasher_and_shard_amount(DefaultHashBuilder::default(), SHARDS),
            visited: AtomicU64::new(0),
            hits: AtomicU64::new(0),
        }
    }

    /// The nimber of `component` (recursive, memoized in the shared table).
    pub fn nimber<Rules>(&self, game: &Rules, component: &Rules::Component) -> u32
    where
        Rules: Impartial<Key = Key> + Sync,
    {
        let mut counters = Stats::default();
        let nimber = self.nimber_counted(game, component, &mut counters);
        self.visited.fetch_add(counters.visited, Ordering::Relaxed);
        self.hits.fetch_add(counters.hits, Ordering::Relaxed);
        nimber
    }

    /// [`ParallelGrundy::nimber`], counting in the caller's local counters (see [`ParallelNegamax`]'s flush).
    fn nimber_counted<Rules>(&self, game: &Rules, component: &Rules::Component, counters: &mut Stats) -> u32
    where
        Rules: Impartial<Key = Key> + Sync,
    {
        let key = game.key(component);
        if let Some(nimber) = self.table.get(&key) {
            counters.hits += 1;
            return *nimber;
        }
        counters.visited += 1;
        let mut values = Vec::new();
        game.options(component, &mut |parts, _| {
            values.push(parts.iter().fold(0, |acc, part| acc ^ self.nimber_counted(game, part, counters)));
        });
        let nimber = mex(&values);
        self.table.insert(key, nimber);
        nimber
    }

    /// Evaluates each wave in parallel, one wave after the other.
    pub fn precompute<Rules>(&self, game: &Rules, waves: &[Vec<Rules::Component>])
    where
        Rules: Impartial<Key = Key> + Sync,
        Rules::Component: Send + Sync,
    {
        for wave in waves {
            wave.par_iter().for_each(|component| {
                self.nimber(game, component);
            });
        }
    }

    /// The nimber of a sum (XOR of the components' nimbers).
    pub fn sum<Rules>(&self, game: &Rules, components: &[Rules::Component]) -> u32
    where
        Rules: Impartial<Key = Key> + Sync,
        Rules::Component: Send + Sync,
    {
        components.par_iter().map(|c| self.nimber(game, c)).reduce(|| 0, |a, b| a ^ b)
    }

    /// The statistics gathered so far.
    pub fn stats(&self) -> Stats {
        Stats {
            visited: self.visited.load(Ordering::Relaxed),
            table_entries: self.table.len() as u64,
            hits: self.hits.load(Ordering::Relaxed),
        }
    }
}
