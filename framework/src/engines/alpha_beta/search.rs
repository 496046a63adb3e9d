//! The recursive alpha-beta search and the score search that drives it, shared by the sequential engine and
//! the Lazy SMP threads. One [`Search`] is one thread's search of one root: its move lists by depth, its
//! counters, and its access to the table (owned by the engine or shared between threads).

use super::busy::Busy;
use super::narrowing::{pick, End, Scale, Step};
use super::progress::{SearchProgress, Test, PROGRESS_STEP};
use super::ScoreSearch;
use crate::engines::support::{
    from_table, known, known_unfinished, score_of, to_table, value_of, with_stack_every, History, Known, MoveLists,
    PathGuard,
};
use crate::engines::Mode;
use crate::game::Canonicalize;
use crate::game::Game;
use crate::hints::SearchHints;
use crate::table::{Bounds, SharedTable, TranspositionTable, INFINITY, MATE};
use crate::value::Value;
use std::sync::atomic::{AtomicBool, Ordering};

/// How a search reaches its table: owned by one engine (`&mut`) or shared by threads (`&`); `near` picks the
/// table's near part (see [`crate::table`]).
pub(crate) trait TableAccess<Key> {
    /// The bounds stored for `key`, if any.
    fn probe(&mut self, key: &Key, near: bool) -> Option<Bounds>;
    /// Stores `bounds` for `key`.
    fn store(&mut self, key: &Key, bounds: Bounds, work: u64, near: bool);
    /// Hints that `key` will be probed soon.
    fn prefetch(&self, key: &Key, near: bool);
}

impl<Key, Table: TranspositionTable<Key>> TableAccess<Key> for &mut Table {
    #[inline]
    fn probe(&mut self, key: &Key, near: bool) -> Option<Bounds> {
        if near {
            TranspositionTable::probe_near(&mut **self, key)
        } else {
            TranspositionTable::probe(&mut **self, key)
        }
    }

    #[inline]
    fn store(&mut self, key: &Key, bounds: Bounds, work: u64, near: bool) {
        if near {
            TranspositionTable::store_near(&mut **self, key, bounds, work);
        } else {
            TranspositionTable::store(&mut **self, key, bounds, work);
        }
    }

    #[inline]
    fn prefetch(&self, key: &Key, near: bool) {
        TranspositionTable::prefetch(&**self, key, near);
    }
}

impl<Key, Table: SharedTable<Key>> TableAccess<Key> for &Table {
    #[inline]
    fn probe(&mut self, key: &Key, near: bool) -> Option<Bounds> {
        if near {
            SharedTable::probe_near(*self, key)
        } else {
            SharedTable::probe(*self, key)
        }
    }

    #[inline]
    fn store(&mut self, key: &Key, bounds: Bounds, work: u64, near: bool) {
        if near {
            SharedTable::store_near(*self, key, bounds, work);
        } else {
            SharedTable::store(*self, key, bounds, work);
        }
    }

    #[inline]
    fn prefetch(&self, key: &Key, near: bool) {
        SharedTable::prefetch(*self, key, near);
    }
}

/// Which depths of a search use the table's near part: the depths below the deepest one whose finished searches
/// have cost more than [`NEAR_WORK`] positions on average, learnt as the search goes (the engine knows no game,
/// so it measures rather than asks). A depth counts as having finished at least [`NEAR_EVIDENCE`] searches, so
/// that a few small searches do not make a depth far and a few huge ones do; until a depth has cost that much,
/// it is near (a small search then stays in the near part, and in the cache, from its first probe).
#[derive(Debug, Default)]
pub(crate) struct NearDepths {
    /// Searches finished at each depth, and the positions they visited.
    finished: Vec<(u64, u64)>,
    /// The shallowest near depth: every depth below the deepest far one.
    from: u32,
    /// Searches finished since `from` was last worked out.
    since: u32,
}

/// The average work (positions visited) above which a depth's positions go to the far part: about what a
/// probe that waits for main memory costs, in positions searched again.
const NEAR_WORK: u64 = 32;
/// The fewest searches a depth's average is taken over.
const NEAR_EVIDENCE: u64 = 256;
/// How many finished searches pass between two updates of the near depth.
const NEAR_UPDATE: u32 = 4096;
/// The deepest depth tracked (deeper ones count as this one).
const NEAR_TRACKED: usize = 256;

impl NearDepths {
    /// Whether positions at `depth` use the near part.
    #[inline]
    pub(crate) fn is_near(&self, depth: u32) -> bool {
        depth >= self.from
    }

    /// Records a search finished at `depth` that visited `work` positions.
    #[inline]
    pub(crate) fn record(&mut self, depth: usize, work: u64) {
        let depth = depth.min(NEAR_TRACKED - 1);
        if self.finished.len() <= depth {
            self.finished.resize(depth + 1, (0, 0));
        }
        if let Some((count, total)) = self.finished.get_mut(depth) {
            *count += 1;
            *total += work;
        }
        self.since += 1;
        if self.since >= NEAR_UPDATE {
            self.since = 0;
            self.from = self
                .finished
                .iter()
                .rposition(|&(count, total)| total > NEAR_WORK * count.max(NEAR_EVIDENCE))
                .map_or(0, |depth| u32::try_from(depth + 1).unwrap_or(u32::MAX));
        }
    }
}

/// One thread's search of one root.
pub(crate) struct Search<'search, Ruleset: Game + Canonicalize + SearchHints, Access> {
    pub(crate) game: &'search Ruleset,
    pub(crate) mode: Mode,
    pub(crate) table: Access,
    pub(crate) lists: MoveLists<Ruleset::Move>,
    /// Positions expanded.
    pub(crate) visited: u64,
    /// Table probes that settled a position.
    pub(crate) hits: u64,
    /// Set by another thread when the answer is known: the search then unwinds without storing anything.
    pub(crate) stop: Option<&'search AtomicBool>,
    /// Whether this search stopped early (the stop flag, the budget, or a repetition).
    pub(crate) stopped: bool,
    /// Whether it stopped because a position came back on its path (a game whose positions repeat).
    pub(crate) repeated: bool,
    /// Finds a position that comes back on the path.
    guard: PathGuard<Ruleset::Position>,
    /// The most positions this search may expand before it stops.
    pub(crate) budget: u64,
    /// Which depths use the table's near part.
    near: NearDepths,
    /// Lazy SMP: the positions the threads are searching, whose far-depth children a thread defers.
    pub(crate) busy: Option<&'search Busy>,
    /// Where a watcher follows the search.
    pub(crate) progress: Option<&'search SearchProgress>,
    /// The history heuristic.
    history: History,
    /// Scratch for the children and their keys in the enhanced transposition cutoff.
    children: Vec<(Ruleset::Position, Ruleset::Key)>,
    /// The game's shortcuts catch every move that ends it ([`SearchHints::shortcuts_catch_game_ends`]): below
    /// the root, no position is over.
    ends_caught: bool,
}

impl<'search, Ruleset, Access> Search<'search, Ruleset, Access>
where
    Ruleset: Game + Canonicalize + SearchHints,
    Access: TableAccess<Ruleset::Key>,
{
    /// A search of `game` in `mode` through `table`.
    pub(crate) fn new(game: &'search Ruleset, mode: Mode, table: Access) -> Self {
        Search {
            game,
            mode,
            table,
            lists: MoveLists::default(),
            visited: 0,
            hits: 0,
            stop: None,
            stopped: false,
            repeated: false,
            guard: PathGuard::default(),
            budget: u64::MAX,
            near: NearDepths::default(),
            busy: None,
            progress: None,
            history: History::default(),
            children: Vec::new(),
            ends_caught: game.shortcuts_catch_game_ends(),
        }
    }

    /// The exact value of `root` in the engine's mode, by `strategy`; `None` if stopped by another thread or by
    /// the budget.
    pub(crate) fn solve(&mut self, root: &Ruleset::Position, strategy: ScoreSearch) -> Option<Value> {
        let score = match (self.mode, strategy) {
            // A weak solve: "a win?", then if not "at least a draw?". Two null windows prune more than one
            // window around the draw, and a won root needs only the first.
            (Mode::Outcome, _) => {
                self.show(Test::Outcome);
                let win = self.search(root, 0, 0, 1);
                if win >= 1 || self.stopped {
                    win
                } else {
                    self.search(root, 0, -1, 0).min(0)
                }
            }
            (Mode::Exact, ScoreSearch::FullWindow) => self.search(root, 0, -INFINITY, INFINITY),
            (Mode::Exact, ScoreSearch::NullWindow) => self.narrow(root)?,
        };
        (!self.stopped).then(|| value_of(score, 0))
    }

    /// Tells the watcher, if any, which test runs now.
    pub(super) fn show(&self, test: Test) {
        if let Some(progress) = self.progress {
            progress.testing(test);
        }
    }

    /// The exact score of `root` by null-window searches: each asks "is the score at least `m`?" and moves one
    /// end of the known range `[low, high]`, in the order of [`End::Converging`].
    fn narrow(&mut self, root: &Ruleset::Position) -> Option<i32> {
        let scale = self.scale(root);
        let (mut low, mut high) = (-MATE, MATE);
        loop {
            if self.stopped {
                return None;
            }
            let test = match pick(scale, End::Converging, low, high) {
                Step::Done(score) => return Some(score),
                Step::Test(test) => test,
            };
            self.show(Test::AtLeast(value_of(test, 0)));
            let found = self.search(root, 0, test - 1, test);
            if found >= test {
                low = found;
            } else {
                high = found;
            }
        }
    }

    /// The scale of the root's values, if the game bounds its remoteness (see [`SearchHints::max_remoteness`]).
    pub(super) fn scale(&self, root: &Ruleset::Position) -> Option<Scale> {
        self.game.outcome(root).is_none().then(|| self.game.max_remoteness(root)).flatten().map(Scale::new)
    }

    /// Fail-soft alpha-beta: the score of `position` at `depth` below the root if it lies in `(alpha, beta)`;
    /// otherwise a bound on the side where it falls (a result `<= alpha` is an upper bound, `>= beta` a lower
    /// bound).
    pub(crate) fn search(&mut self, position: &Ruleset::Position, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        if self.visited >= self.budget || self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
            self.stopped = true;
            return 0;
        }
        if self.guard.repeats(depth, position) {
            (self.stopped, self.repeated) = (true, true);
            return 0;
        }
        // Below the root, a position is a move from one this search expanded, which its shortcuts did not settle.
        if depth == 0 || !self.ends_caught {
            if let Some(value) = self.game.outcome(position) {
                return score_of(value, depth);
            }
        }
        // The position's bucket is on its way while the hints work.
        let key = self.game.canonical(position);
        let near = self.near.is_near(depth);
        self.table.prefetch(&key, near);
        let (mut low, mut high) = match known_unfinished(self.game, self.mode, position) {
            Known::Value(value) => return score_of(value, depth),
            Known::Range(worst, best) => (score_of(worst, depth), score_of(best, depth)),
        };
        // The window is clamped to what the position can still score before the table is probed.
        if high <= alpha {
            return high;
        }
        if low >= beta {
            return low;
        }
        if let Some(bounds) = self.table.probe(&key, near) {
            low = low.max(from_table(bounds.lower, depth));
            high = high.min(from_table(bounds.upper, depth));
            if low == high || high <= alpha || low >= beta {
                self.hits += 1;
                return if low >= beta || low == high { low } else { high };
            }
        }
        alpha = alpha.max(low);
        beta = beta.min(high);
        let (window_low, window_high) = (alpha, beta);
        self.visited += 1;
        if self.visited.is_multiple_of(PROGRESS_STEP) {
            // A stop asked for by the caller ends the search as its budget would.
            if self.progress.is_some_and(|progress| progress.add(PROGRESS_STEP)) {
                self.budget = self.visited;
            }
        }
        let before = self.visited;
        let level = usize::try_from(depth).unwrap_or(usize::MAX);
        let mut moves = self.lists.take(self.game, position, level);
        // At near depths a search costs less than ordering it by history would save.
        if !near && moves.len() > 1 {
            self.history.order(self.game, position, &mut moves, self.lists.scores());
        }
        // A position with no moves and no outcome is lost for the player to move (the normal-play rule).
        let mut best = if moves.is_empty() { score_of(Value::LOST, depth) } else { -INFINITY };
        // At far depths, where a search costs more than a probe of each child, a child whose entry already
        // refutes the window settles the position without a search (the enhanced transposition cutoff).
        if !near && moves.len() > 1 {
            best = self.cutoff_bound(position, &moves, depth);
            alpha = alpha.max(best);
        }
        let searched = if best >= beta { 0 } else { moves.len() };
        // Lazy SMP at far depths: the children another thread is searching wait until the others are done.
        let busy = self.busy.filter(|_| !near && searched > 1);
        let own = busy.map(|busy| {
            let hash = busy.hash(&key);
            busy.enter(hash);
            (busy, hash)
        });
        let mut deferred: u64 = 0;
        'passes: for pass in 0..2 {
            for (index, mv) in moves[..searched].iter().enumerate() {
                if pass == 1 && (index >= 64 || deferred & (1 << index) == 0) {
                    continue;
                }
                let child = self.game.play(position, mv);
                if pass == 0 && index > 0 && index < 64 {
                    if let Some((busy, _)) = own {
                        if busy.is_busy(busy.hash(&self.game.canonical(&child))) {
                            deferred |= 1 << index;
                            continue;
                        }
                    }
                }
                let score = -with_stack_every(depth, || self.search(&child, depth.saturating_add(1), -beta, -alpha));
                if self.stopped {
                    if let Some((busy, hash)) = own {
                        busy.leave(hash);
                    }
                    self.lists.give_back(level, moves);
                    return 0;
                }
                best = best.max(score);
                if best > alpha {
                    alpha = best;
                    if alpha >= beta {
                        self.history.credit(self.game, position, mv, self.visited - before + 1);
                        break 'passes;
                    }
                }
            }
            if deferred == 0 {
                break;
            }
        }
        if let Some((busy, hash)) = own {
            busy.leave(hash);
        }
        self.lists.give_back(level, moves);
        // What the search proved, together with what was known before it.
        let lower = if best > window_low { best.max(low) } else { low };
        let upper = if best < window_high { best.min(high) } else { high };
        let bounds = Bounds { lower: to_table(lower, depth), upper: to_table(upper, depth) };
        let work = self.visited - before + 1;
        if bounds != Bounds::UNKNOWN {
            self.table.store(&key, bounds, work, near);
        }
        self.near.record(level, work);
        best
    }
}

impl<'search, Ruleset, Access> Search<'search, Ruleset, Access>
where
    Ruleset: Game + Canonicalize + SearchHints,
    Access: TableAccess<Ruleset::Key>,
{
    /// The best lower bound on the score of `position` (at `depth`) that its children's table entries and
    /// settled values prove without a search: the enhanced transposition cutoff, worth a probe per child only
    /// where a search costs more than the probes (at far depths).
    fn cutoff_bound(&mut self, position: &Ruleset::Position, moves: &[Ruleset::Move], depth: u32) -> i32 {
        let child_depth = depth.saturating_add(1);
        let near = self.near.is_near(child_depth);
        let mut bound = -INFINITY;
        // Every child's bucket is asked for first, so that the probes' waits for main memory overlap.
        let mut children = std::mem::take(&mut self.children);
        children.clear();
        for mv in moves {
            let child = self.game.play(position, mv);
            let key = self.game.canonical(&child);
            self.table.prefetch(&key, near);
            children.push((child, key));
        }
        for (child, key) in &children {
            let child_known = if self.ends_caught {
                known_unfinished(self.game, self.mode, child)
            } else {
                known(self.game, self.mode, child)
            };
            let child_best = match child_known {
                Known::Value(value) => score_of(value, child_depth),
                Known::Range(_, best) => {
                    let best = score_of(best, child_depth);
                    match self.table.probe(key, near) {
                        Some(bounds) => best.min(from_table(bounds.upper, child_depth)),
                        None => best,
                    }
                }
            };
            bound = bound.max(-child_best);
        }
        self.children = children;
        bound
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depths_are_near_until_their_searches_cost_more_than_the_threshold() {
        let mut near = NearDepths::default();
        // Small searches everywhere: every depth stays near.
        for index in 0..NEAR_UPDATE {
            near.record(5 + (index % 20) as usize, 3);
        }
        assert!(near.is_near(0) && near.is_near(30));
        // A few huge searches at depth 2 make depths 0 to 2 far (a few of them count as many as the evidence).
        for _ in 0..4 {
            near.record(2, NEAR_WORK * NEAR_EVIDENCE);
        }
        for _ in 4..NEAR_UPDATE {
            near.record(12, 1);
        }
        assert!(!near.is_near(0) && !near.is_near(2) && near.is_near(3));
        // Many searches just above the threshold at depth 7 make it and every shallower depth far.
        for _ in 0..NEAR_UPDATE {
            near.record(7, NEAR_WORK + 8);
        }
        assert!(!near.is_near(7) && near.is_near(8));
    }
}
