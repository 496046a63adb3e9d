//! [`Expectimax`]: the expected score of a game with chance nodes whose positions never repeat, with alpha-beta
//! at decision nodes and Star1 pruning at chance nodes (Ballard 1983): the children of a chance node are
//! searched with windows that their probability and the score ranges of the others imply, which is sound since
//! every score lies within the range the game's [`SearchHints::value_range`] gives. A table of bounds, keyed by
//! canonical keys, keeps what each search proved (written here rather than taken from [`crate::table`]: those
//! keep integer scores, these are doubles).
//!
//! Values are doubles: every probability is exact (an integer weight over a sum below `2^53`), and a chance
//! node's expectation rounds at most once per outcome, so the error of a value is at most
//! `height * (outcomes + 1) * 2^-53 * largest |score|`, `height` the most chance nodes on a line below it,
//! `outcomes` the most outcomes of one, and the largest final score the one met: [`ExpectedScore::error`], from which the CLI prints its digits.

use super::broken;
use crate::engines::alpha_beta::{ProgressHandle, PROGRESS_STEP};
use crate::engines::support::{with_stack, PathGuard};
use crate::engines::{Engine, Statistics, Stop};
use crate::error::{Budget, Error, Remedy, Setting};
use crate::scored::ScoredGame;
use crate::scored::{Chance, SCORE_LIMIT};
use crate::stats::Stats;
use crate::table::{map_growth, mib, DEFAULT_TABLE_MB};
use crate::{Canonicalize, SearchHints};
use hashbrown::HashMap;

/// An expected score with a bound on its rounding error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExpectedScore {
    /// The expected score for the mover.
    pub value: f64,
    /// The value is within this of the exact expectation (rounding only).
    pub error: f64,
}

/// What the table holds of a position: bounds of its value, and the chance nodes on its deepest line.
#[derive(Clone, Copy, Debug)]
struct Entry {
    lower: f64,
    upper: f64,
    height: u32,
}

/// Expectimax with Star1 pruning and a table of bounds (see the module documentation).
#[derive(Debug)]
pub struct Expectimax<Key> {
    budget: u64,
    table: HashMap<Key, Entry, foldhash::fast::FixedState>,
    table_budget: usize,
    stats: Stats,
    /// The most outcomes one chance node has had.
    widest: usize,
    /// The largest magnitude of a final score met.
    largest: i32,
    /// Where the searches show themselves to a watcher on another thread (the CLI's progress line).
    line: Option<ProgressHandle>,
}

impl<Key: std::hash::Hash + Eq + Clone> Expectimax<Key> {
    /// An engine whose table may take `table_bytes`, its buckets and the growth from half as many counted (past
    /// it a search fails with [`Error::Budget`]).
    pub fn new(table_bytes: usize) -> Self {
        Expectimax {
            budget: u64::MAX,
            table: HashMap::with_hasher(foldhash::fast::FixedState::default()),
            table_budget: table_bytes,
            stats: Stats::default(),
            widest: 1,
            largest: 1,
            line: None,
        }
    }

    /// The same engine giving up when one search would expand more than `positions` positions.
    #[must_use]
    pub fn with_budget(self, positions: u64) -> Self {
        Expectimax { budget: positions, ..self }
    }

    /// The same engine showing its searches in `line` (none: `None`): the positions searched, for a watcher on
    /// another thread (the CLI's progress line).
    #[must_use]
    pub fn with_progress_line(self, line: Option<ProgressHandle>) -> Self {
        Expectimax { line, ..self }
    }
}

impl<Ruleset, Key> Engine<Ruleset> for Expectimax<Key>
where
    Ruleset: Chance + Canonicalize<Key = Key> + SearchHints,
    Key: std::hash::Hash + Eq + Clone,
{
    type Value = ExpectedScore;
    type Failure = Error;

    /// The expected score of `position` for its mover, within `budget` positions.
    fn search_within(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        budget: u64,
    ) -> Result<ExpectedScore, Stop<Error>> {
        let mut search = Walk {
            game,
            engine: self,
            limit: 0,
            failure: None,
            outcomes: Vec::new(),
            depth: 0,
            guard: PathGuard::default(),
        };
        search.limit = search.engine.stats.visited.saturating_add(budget);
        let line = search.engine.line.clone();
        line.as_ref().inspect(|line| line.0.start());
        let (value, height) = search.search(position, -f64::INFINITY, f64::INFINITY);
        line.as_ref().inspect(|line| line.0.finish());
        if let Some(stop) = search.failure.take() {
            return Err(stop);
        }
        let largest = f64::from(self.largest);
        let rounding = f64::from(height) * (self.widest as f64 + 1.0) * f64::EPSILON / 2.0 * largest;
        Ok(ExpectedScore { value, error: rounding })
    }

    /// The budget of one search, in positions.
    fn budget(&self) -> u64 {
        self.budget
    }
}

impl<Key> Default for Expectimax<Key>
where
    Key: std::hash::Hash + Eq + Clone,
{
    fn default() -> Self {
        Expectimax::new(mib(DEFAULT_TABLE_MB))
    }
}

impl<Key> Statistics for Expectimax<Key> {
    fn stats(&self) -> Stats {
        Stats { table_entries: self.table.len() as u64, ..self.stats }
    }
}

/// One search.
struct Walk<'search, Ruleset: ScoredGame + Canonicalize, Key> {
    game: &'search Ruleset,
    engine: &'search mut Expectimax<Key>,
    limit: u64,
    failure: Option<Stop<Error>>,
    /// Outcome lists reused by depth would save little here: chance nodes are few and short.
    outcomes: Vec<(Ruleset::Move, u64)>,
    /// The depth of the position searched now, and the guard of the path to it.
    depth: u32,
    guard: PathGuard<Ruleset::Position>,
}

impl<Ruleset> Walk<'_, Ruleset, Ruleset::Key>
where
    Ruleset: Chance + Canonicalize + SearchHints,
{
    /// The bounds of `position`'s value that need no search: its final score, or its score range.
    fn range(&self, position: &Ruleset::Position) -> (f64, f64) {
        match self.game.outcome(position) {
            Some(score) => (f64::from(score), f64::from(score)),
            None => {
                let (low, high) = self.game.value_range(position);
                (f64::from(low), f64::from(high))
            }
        }
    }

    /// The value of `child` seen by the mover of `position`, searched with the window `(alpha, beta)` of that
    /// mover, and the child's height.
    fn child(&mut self, position: &Ruleset::Position, child: &Ruleset::Position, alpha: f64, beta: f64) -> (f64, u32) {
        self.depth = self.depth.saturating_add(1);
        let found = if self.game.turn_passes(position, child) {
            let (value, height) = with_stack(|| self.search(child, -beta, -alpha));
            (-value, height)
        } else {
            with_stack(|| self.search(child, alpha, beta))
        };
        self.depth = self.depth.saturating_sub(1);
        found
    }

    /// A child's range seen by the mover of `position`.
    fn child_range(&self, position: &Ruleset::Position, child: &Ruleset::Position) -> (f64, f64) {
        let (low, high) = self.range(child);
        if self.game.turn_passes(position, child) {
            (-high, -low)
        } else {
            (low, high)
        }
    }

    /// Fail-soft: the value of `position` if within `(alpha, beta)`, else a bound on the side where it falls;
    /// and the chance nodes on its deepest line searched.
    fn search(&mut self, position: &Ruleset::Position, mut alpha: f64, mut beta: f64) -> (f64, u32) {
        if self.failure.is_some() {
            return (0.0, 0);
        }
        if self.guard.repeats(self.depth, position) {
            self.failure = Some(Stop::Repeated);
            return (0.0, 0);
        }
        if let Some(score) = self.game.outcome(position) {
            if score.abs() > SCORE_LIMIT {
                self.failure = Some(Stop::Failure(broken(format!("a final score of {score}, beyond ±{SCORE_LIMIT}"))));
            }
            self.engine.largest = self.engine.largest.max(score.abs());
            return (f64::from(score), 0);
        }
        let (mut low, mut high) = self.range(position);
        let key = self.game.canonical(position);
        let mut height = 0;
        if let Some(entry) = self.engine.table.get(&key) {
            low = low.max(entry.lower);
            high = high.min(entry.upper);
            height = entry.height;
        }
        if high <= alpha || low >= beta || low >= high {
            self.engine.stats.hits += 1;
            return (if low >= beta || low >= high { low } else { high }, height);
        }
        if self.engine.stats.visited >= self.limit {
            self.failure = Some(Stop::Budget);
            return (0.0, 0);
        }
        self.engine.stats.visited += 1;
        if self.engine.stats.visited.is_multiple_of(PROGRESS_STEP) {
            // A stop asked for by the caller ends the search as its budget would.
            if self.engine.line.as_ref().is_some_and(|line| line.0.add(PROGRESS_STEP)) {
                self.limit = self.engine.stats.visited;
            }
        }
        alpha = alpha.max(low);
        beta = beta.min(high);
        let (window_low, window_high) = (alpha, beta);
        let (best, below) = if self.game.is_chance(position) {
            self.expectation(position, alpha, beta)
        } else {
            self.decision(position, alpha, beta)
        };
        if self.failure.is_some() {
            return (0.0, 0);
        }
        let lower = if best > window_low { best.max(low) } else { low };
        let upper = if best < window_high { best.min(high) } else { high };
        self.remember(key, Entry { lower, upper, height: below });
        (best, below)
    }

    /// Stores `entry` for `key`, unless the table's budget is spent (then the search fails). The budget counts
    /// the map's buckets, not its entries, and a growth's old and new tables together: a map that cannot double
    /// within the budget stops the search before it grows.
    fn remember(&mut self, key: Ruleset::Key, entry: Entry) {
        let table = &mut self.engine.table;
        if let Some(held) = table.get_mut(&key) {
            *held = entry;
            return;
        }
        let growth = map_growth::<(Ruleset::Key, Entry)>(table.len(), table.capacity(), 1);
        if growth.peak > self.engine.table_budget {
            self.failure = Some(Stop::Failure(Error::Budget(Budget::TableBytes(self.engine.table_budget))));
            return;
        }
        if table.try_reserve(1).is_err() {
            let megabytes = growth.after.div_ceil(1 << 20) as u64;
            let remedies = vec![Remedy::Lower(Setting::TableMb)];
            self.failure = Some(Stop::Failure(Error::Allocation { what: "expectimax's table", megabytes, remedies }));
            return;
        }
        table.insert(key, entry);
    }

    /// The best child of a decision node (alpha-beta), and the height below it.
    fn decision(&mut self, position: &Ruleset::Position, mut alpha: f64, beta: f64) -> (f64, u32) {
        let mut moves = Vec::new();
        self.game.search_moves(position, &mut moves, &mut Vec::new());
        if moves.is_empty() {
            self.failure =
                Some(Stop::Failure(broken(format!("a position that is not over has no move: {position:?}"))));
            return (0.0, 0);
        }
        let (mut best, mut height) = (-f64::INFINITY, 0);
        for mv in &moves {
            let child = self.game.play(position, mv);
            let (value, below) = self.child(position, &child, alpha, beta);
            if self.failure.is_some() {
                return (0.0, 0);
            }
            height = height.max(below);
            if value > best {
                best = value;
            }
            if best > alpha {
                alpha = best;
                if alpha >= beta {
                    break;
                }
            }
        }
        (best, height)
    }

    /// The expectation at a chance node with Star1 pruning, and the height (this node counted).
    fn expectation(&mut self, position: &Ruleset::Position, alpha: f64, beta: f64) -> (f64, u32) {
        self.outcomes.clear();
        let mut outcomes = std::mem::take(&mut self.outcomes);
        self.game.outcomes(position, &mut outcomes);
        let total: u64 = outcomes.iter().map(|(_, weight)| *weight).sum();
        if outcomes.is_empty() || total == 0 || outcomes.iter().any(|(_, weight)| *weight == 0) {
            self.failure =
                Some(Stop::Failure(broken(format!("a chance node without outcomes of positive weight: {position:?}"))));
            return (0.0, 0);
        }
        self.engine.widest = self.engine.widest.max(outcomes.len());
        let children: Vec<(Ruleset::Position, f64)> =
            outcomes.iter().map(|(mv, weight)| (self.game.play(position, mv), *weight as f64 / total as f64)).collect();
        self.outcomes = outcomes;
        let ranges: Vec<(f64, f64)> = children.iter().map(|(child, _)| self.child_range(position, child)).collect();
        // What the outcomes not yet searched can add at least and at most.
        let mut rest_low: f64 = children.iter().zip(&ranges).map(|((_, p), range)| p * range.0).sum();
        let mut rest_high: f64 = children.iter().zip(&ranges).map(|((_, p), range)| p * range.1).sum();
        let (mut sum, mut height) = (0.0, 0);
        for ((child, probability), &(low, high)) in children.iter().zip(&ranges) {
            rest_low -= probability * low;
            rest_high -= probability * high;
            let child_alpha = (alpha - sum - rest_high) / probability;
            let child_beta = (beta - sum - rest_low) / probability;
            if child_alpha >= high {
                return (sum + probability * high + rest_high, height + 1);
            }
            if child_beta <= low {
                return (sum + probability * low + rest_low, height + 1);
            }
            let (value, below) = self.child(position, child, child_alpha.max(low), child_beta.min(high));
            if self.failure.is_some() {
                return (0.0, 0);
            }
            height = height.max(below);
            if value <= child_alpha {
                return (sum + probability * value + rest_high, height + 1);
            }
            if value >= child_beta {
                return (sum + probability * value + rest_low, height + 1);
            }
            sum += probability * value;
        }
        (sum, height + 1)
    }
}
