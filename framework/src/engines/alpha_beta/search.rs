//! The recursive alpha-beta search and the score search that drives it, shared by the sequential engine and
//! the Lazy SMP threads. One [`Search`] is one thread's search of one root: its move lists by depth, its
//! counters, and its access to the table (owned by the engine or shared between threads).

use super::busy::Busy;
use super::progress::{SearchProgress, Test, PROGRESS_STEP};
use super::ScoreSearch;
use crate::engines::support::{from_table, known, score_of, to_table, value_of, with_stack_every, Known, MoveLists};
use crate::engines::Mode;
use crate::game::Canonicalize;
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
pub(crate) struct Search<'search, Rules: Canonicalize + SearchHints, Access> {
    pub(crate) game: &'search Rules,
    pub(crate) mode: Mode,
    pub(crate) table: Access,
    pub(crate) lists: MoveLists<Rules::Move>,
    /// Positions expanded.
    pub(crate) visited: u64,
    /// Table probes that settled a position.
    pub(crate) hits: u64,
    /// Set by another thread when the answer is known: the search then unwinds without storing anything.
    pub(crate) stop: Option<&'search AtomicBool>,
    /// Whether this search stopped early (the stop flag, or the budget).
    pub(crate) stopped: bool,
    /// The most positions this search may expand before it stops.
    pub(crate) budget: u64,
    /// Which depths use the table's near part.
    near: NearDepths,
    /// Lazy SMP: the positions the threads are searching, whose far-depth children a thread defers.
    pub(crate) busy: Option<&'search Busy>,
    /// Where a watcher follows the search.
    pub(crate) progress: Option<&'search SearchProgress>,
}

impl<'search, Rules, Access> Search<'search, Rules, Access>
where
    Rules: Canonicalize + SearchHints,
    Access: TableAccess<Rules::Key>,
{
    /// A search of `game` in `mode` through `table`.
    pub(crate) fn new(game: &'search Rules, mode: Mode, table: Access) -> Self {
        Search {
            game,
            mode,
            table,
            lists: MoveLists::default(),
            visited: 0,
            hits: 0,
            stop: None,
            stopped: false,
            budget: u64::MAX,
            near: NearDepths::default(),
            busy: None,
            progress: None,
        }
    }

    /// The exact value of `root` in the engine's mode, by `strategy`; `None` if stopped by another thread or by
    /// the budget.
    pub(crate) fn solve(&mut self, root: &Rules::Position, strategy: ScoreSearch) -> Option<Value> {
        let score = match (self.mode, strategy) {
            // A weak solve: one search around the draw tells win, draw or loss.
            (Mode::Outcome, _) => {
                self.show(Test::Outcome);
                self.search(root, 0, -1, 1)
            }
            (Mode::Exact, ScoreSearch::FullWindow) => self.search(root, 0, -INFINITY, INFINITY),
            (Mode::Exact, ScoreSearch::NullWindow) => self.narrow(root)?,
        };
        (!self.stopped).then(|| value_of(score, 0))
    }

    /// Tells the watcher, if any, which test runs now.
    fn show(&self, test: Test) {
        if let Some(progress) = self.progress {
            progress.testing(test);
        }
    }

    /// The exact score of `root` by null-window searches: each asks "is the score at least `m`?" and moves one
    /// end of the known range `[low, high]`; the first ones ("a win?", then "at least a draw?") settle the
    /// outcome.
    fn narrow(&mut self, root: &Rules::Position) -> Option<i32> {
        let scale = self.game.outcome(root).is_none().then(|| self.game.max_remoteness(root)).flatten().map(Scale::new);
        let (mut low, mut high) = (-MATE, MATE);
        while low < high {
            if self.stopped {
                return None;
            }
            let test = match scale {
                Some(scale) => match scale.next_test(low, high) {
                    Some(test) => test,
                    // Only one value of the scale is left.
                    None => return Some(scale.snap(low)),
                },
                None => next_test(low, high),
            };
            self.show(Test::AtLeast(value_of(test, 0)));
            let found = self.search(root, 0, test - 1, test);
            if found >= test {
                low = found;
            } else {
                high = found;
            }
        }
        Some(low)
    }

    /// Fail-soft alpha-beta: the score of `position` at `depth` below the root if it lies in `(alpha, beta)`;
    /// otherwise a bound on the side where it falls (a result `<= alpha` is an upper bound, `>= beta` a lower
    /// bound).
    pub(crate) fn search(&mut self, position: &Rules::Position, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        if self.visited >= self.budget || self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
            self.stopped = true;
            return 0;
        }
        let (mut low, mut high) = match known(self.game, self.mode, position) {
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
        let key = self.game.canonical(position);
        let near = self.near.is_near(depth);
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
            if let Some(progress) = self.progress {
                progress.add(PROGRESS_STEP);
            }
        }
        let before = self.visited;
        let level = usize::try_from(depth).unwrap_or(usize::MAX);
        let moves = self.lists.take(self.game, position, level);
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
                if pass == 1 && deferred & (1 << index) == 0 {
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

impl<'search, Rules, Access> Search<'search, Rules, Access>
where
    Rules: Canonicalize + SearchHints,
    Access: TableAccess<Rules::Key>,
{
    /// The best lower bound on the score of `position` (at `depth`) that its children's table entries and
    /// settled values prove without a search: the enhanced transposition cutoff, worth a probe per child only
    /// where a search costs more than the probes (at far depths).
    fn cutoff_bound(&mut self, position: &Rules::Position, moves: &[Rules::Move], depth: u32) -> i32 {
        let child_depth = depth.saturating_add(1);
        let near = self.near.is_near(child_depth);
        let mut bound = -INFINITY;
        for mv in moves {
            let child = self.game.play(position, mv);
            let child_best = match known(self.game, self.mode, &child) {
                Known::Value(value) => score_of(value, child_depth),
                Known::Range(_, best) => {
                    let best = score_of(best, child_depth);
                    match self.table.probe(&self.game.canonical(&child), near) {
                        Some(bounds) => best.min(from_table(bounds.upper, child_depth)),
                        None => best,
                    }
                }
            };
            bound = bound.max(-child_best);
        }
        bound
    }
}

/// The values a root can have when their remoteness is at most `longest` plies
/// ([`SearchHints::max_remoteness`]), as one gapless scale of ranks: a win in `r` plies has the rank
/// `longest + 1 - r` (a quick win ranks highest), a draw 0, a loss in `r` plies `-(longest + 1 - r)`. Scores
/// outside the scale (a win slower than `longest`: only a bound) take the nearest rank on their side of the draw.
#[derive(Clone, Copy, Debug)]
struct Scale {
    longest: i64,
}

impl Scale {
    fn new(longest: u32) -> Self {
        Scale { longest: i64::from(longest).min(i64::from(MATE) - 1) }
    }

    /// The rank of a root score that is a lower bound (`upper` false) or an upper bound (`upper` true). A win
    /// slower than the scale is, as a lower bound, some win (rank 1) and, as an upper bound, no win (at most the
    /// draw, rank 0); likewise a loss slower than the scale is, as a lower bound, no loss (rank 0) and, as an
    /// upper bound, some loss (rank -1).
    fn rank(self, score: i32, upper: bool) -> i64 {
        let mate = i64::from(MATE);
        match score {
            0 => 0,
            win if win > 0 => {
                let rank = self.longest + 1 - (mate - i64::from(win.min(MATE)));
                if rank >= 1 {
                    rank
                } else {
                    i64::from(!upper)
                }
            }
            loss => {
                let rank = -(self.longest + 1 - (mate + i64::from(loss.max(-MATE))));
                if rank <= -1 {
                    rank
                } else {
                    -i64::from(upper)
                }
            }
        }
    }

    /// The root score of a rank.
    fn score(self, rank: i64) -> i32 {
        let mate = i64::from(MATE);
        let score = match rank {
            0 => 0,
            win if win > 0 => mate - (self.longest + 1 - win),
            loss => -(mate - (self.longest + 1 + loss)),
        };
        i32::try_from(score).unwrap_or(0)
    }

    /// The score of the one value of the scale that a score `low` (a lower bound whose rank is the upper
    /// bound's) stands for.
    fn snap(self, low: i32) -> i32 {
        self.score(self.rank(low, false))
    }

    /// The next score to test between `low` and `high` (`low < high`), or `None` if they stand for one value of
    /// the scale. As in Pons' solver, the test is the middle of the ranks left, moved out to half the remaining
    /// extreme when the middle is nearer the draw: tests of quick wins and losses look only a few moves ahead
    /// and are cheap, the tests near the draw are the costly ones, so the cheap ones narrow the range first.
    fn next_test(self, low: i32, high: i32) -> Option<i32> {
        let (low_rank, high_rank) = (self.rank(low, false), self.rank(high, true));
        if low_rank >= high_rank {
            return None;
        }
        let mut middle = low_rank + (high_rank - low_rank) / 2;
        if middle <= 0 && low_rank / 2 < middle {
            middle = low_rank / 2;
        } else if middle >= 0 && high_rank / 2 > middle {
            middle = high_rank / 2;
        }
        // "Is the rank above `middle`?": the score of rank `middle + 1`, which lies in `(low, high]`.
        Some(self.score(middle + 1).clamp(low.saturating_add(1), high))
    }
}

/// The next score to test between `low` and `high` (`low < high`): a test `m` with `low < m <= high`. While
/// the outcome is open it asks "a win?" (`m = 1`), then "at least a draw?" (`m = 0`). Once it is known, it halves
/// the range of remoteness; when the range is vast (no hint bounds it), it first doubles from the quick end, so
/// that a quick win or loss is found in a few cheap searches.
fn next_test(low: i32, high: i32) -> i32 {
    /// Ranges of remoteness up to this wide are halved at once.
    const NARROW: i64 = 64;
    if low < 1 && high >= 1 {
        return 1;
    }
    if low < 0 && high >= 0 {
        return 0;
    }
    let (low, high) = (i64::from(low), i64::from(high));
    let mate = i64::from(MATE);
    let test = if low >= 1 {
        // A win in `near..=far` moves: test "a win in at most `bound` moves" (the score `mate - bound`).
        let (near, far) = (mate - high, mate - low);
        let bound = if far - near > NARROW && far > 2 * near + 2 { 2 * near + 1 } else { near + (far - near) / 2 };
        mate - bound
    } else if high <= -1 {
        // A loss in `near..=far` moves: test "a loss in at least `bound` moves" (the score `-(mate - bound)`).
        let (near, far) = (mate + low, mate + high);
        let bound = if far - near > NARROW && far > 2 * near + 2 { 2 * near + 2 } else { near + (far - near + 1) / 2 };
        -(mate - bound)
    } else {
        low + (high - low + 1) / 2
    };
    i32::try_from(test.clamp(low + 1, high)).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_test_splits_the_range() {
        let ranges =
            [(1, MATE), (MATE - 90, MATE - 3), (-MATE, -1), (-MATE + 4, -MATE + 60), (-5, 7), (-5, 0), (10, 11)];
        for (low, high) in ranges {
            let test = next_test(low, high);
            assert!(low < test && test <= high, "{low} {high} -> {test}");
        }
    }

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

    #[test]
    fn a_bounded_scale_tests_the_quick_ends_first_and_splits_every_range() {
        let scale = Scale::new(20);
        // Ranks: a win in 3 is 18, a loss in 4 is -17, a draw 0; every score of a value maps back.
        assert_eq!(scale.rank(MATE - 3, false), 18);
        assert_eq!(scale.rank(-(MATE - 4), true), -17);
        for rank in -21..=21 {
            assert_eq!(scale.rank(scale.score(rank), false), rank);
            assert_eq!(scale.rank(scale.score(rank), true), rank);
        }
        // No win within the scale's plies is no win at all; no loss within them, no loss.
        assert_eq!(scale.next_test(-(MATE - 30), MATE - 30), None);
        assert_eq!(scale.snap(-(MATE - 30)), 0);
        // From the whole range the first test is "at least a loss in 12 plies?" (rank -10 exceeded), not the outcome.
        assert_eq!(scale.next_test(-MATE, MATE), Some(scale.score(-9)));
        // A bound beyond the scale (a win of unknown remoteness) stands for its slowest win.
        assert_eq!(scale.next_test(1, MATE - 20), None);
        assert_eq!(scale.snap(1), MATE - 20);
        let mut pairs = Vec::new();
        for low in -21..=21 {
            for high in low + 1..=21 {
                pairs.push((scale.score(low), scale.score(high)));
            }
        }
        pairs.push((1, MATE - 3));
        pairs.push((-MATE, -1));
        for (low, high) in pairs {
            let test = scale.next_test(low, high).unwrap();
            assert!(low < test && test <= high, "{low} {high} -> {test}");
        }
    }

    /// Narrows like the score search, against a search that answers each test with `answer(true score, test)`.
    fn narrow_by(scale: Scale, answer: impl Fn(i32, i32) -> i32, truth: i32) -> i32 {
        let (mut low, mut high) = (-MATE, MATE);
        for _ in 0..64 {
            if low >= high {
                return low;
            }
            let Some(test) = scale.next_test(low, high) else { return scale.snap(low) };
            let found = answer(truth, test);
            if found >= test {
                low = found;
            } else {
                high = found;
            }
        }
        panic!("no answer after 64 tests for {truth}");
    }

    #[test]
    fn narrowing_on_a_scale_finds_every_value_whatever_the_bounds_found() {
        for longest in [0, 1, 2, 5, 20, 41, 42] {
            let scale = Scale::new(longest);
            // A root is not over: its remoteness is 1 to `longest`.
            let truths = (-i64::from(longest)..=i64::from(longest)).map(|rank| scale.score(rank));
            for truth in truths {
                // Fail-soft answers: the true score; the weakest bounds on the right side; bounds beyond the scale.
                let exact = |truth: i32, _test: i32| truth;
                let weakest = |truth: i32, test: i32| if truth >= test { test } else { test - 1 };
                // A slow win and a slow loss beyond the scale: bounds a search may find (a win of unknown
                // remoteness, say), valid wherever they lie on the right side of the truth and of the test.
                let (slow_win, slow_loss) = (MATE - 2 * (longest as i32) - 9, -(MATE - 2 * (longest as i32) - 9));
                let beyond = move |truth: i32, test: i32| {
                    if truth >= test {
                        [1, slow_loss]
                            .into_iter()
                            .filter(|&bound| test <= bound && bound <= truth)
                            .min()
                            .unwrap_or(test)
                    } else {
                        [-1, slow_win]
                            .into_iter()
                            .filter(|&bound| truth <= bound && bound < test)
                            .max()
                            .unwrap_or(test - 1)
                    }
                };
                assert_eq!(narrow_by(scale, exact, truth), truth, "{longest} {truth}");
                assert_eq!(narrow_by(scale, weakest, truth), truth, "{longest} {truth}");
                assert_eq!(narrow_by(scale, beyond, truth), truth, "{longest} {truth}");
            }
        }
    }

    #[test]
    fn the_outcome_comes_first() {
        assert_eq!(next_test(-MATE, MATE), 1);
        assert_eq!(next_test(-MATE, 0), 0);
        assert_eq!(next_test(-3, 0), 0);
    }

    #[test]
    fn vast_ranges_are_probed_from_the_quick_end() {
        // A win of unknown remoteness: the first test asks for a win in 1, then 3, 7...
        assert_eq!(next_test(1, MATE), MATE - 1);
        assert_eq!(next_test(1, MATE - 2), MATE - 5);
        // A loss of unknown remoteness: the first test asks for a loss in at least 2 moves.
        assert_eq!(next_test(-MATE, -1), -(MATE - 2));
    }
}
