//! One search of the scored alpha-beta ([`super::ScoredAlphaBeta`], [`super::ScoredLazySmp`]): fail-soft
//! negamax over scores with a table of bounds, enhanced transposition cutoffs at the far depths, the history
//! heuristic, and the null-window narrowing of the root's score ([`Narrowing`]) that one thread runs alone or
//! several threads share.

use super::broken;
use super::scale::{from_table, lower_to_table, upper_to_table};
use super::{Progress, ProgressHook, PROGRESS_EVERY};
use crate::engines::alpha_beta::busy::Busy;
use crate::engines::alpha_beta::search::{NearDepths, TableAccess};
use crate::engines::alpha_beta::{ProgressHandle, Test, PROGRESS_STEP};
use crate::engines::support::{with_stack_every, History, MoveLists, PathGuard};
use crate::error::Error;
use crate::hints::Shortcut;
use crate::scored::{ScoredGame, SCORE_LIMIT};
use crate::table::Bounds;
use crate::{Canonicalize, SearchHints};
use std::sync::atomic::{AtomicBool, Ordering};

/// Where the null-window tests of a root's score stand: the range proven, and the next test.
///
/// The first test is "at least `guess`?" (with no guess: "above 0?", then "at least 0?", which settle who
/// wins). Each later test starts from the bound the last one moved, one step beyond it; the step doubles while
/// the tests keep failing the same way (galloping), and starts again at one when they turn, so a guess `d` off
/// costs about `2 log2 d` tests, and a right one two.
///
/// Invariant: `low <= score <= high` (every bound comes from a finished test).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Narrowing {
    pub(super) low: i32,
    pub(super) high: i32,
    test: i32,
    step: i32,
    last_up: Option<bool>,
}

impl Narrowing {
    /// The range `[low, high]`, the first test aimed by `guess`.
    pub(super) fn new(low: i32, high: i32, guess: Option<i32>) -> Self {
        Narrowing { low, high, test: guess.unwrap_or(1), step: 1, last_up: None }
    }

    /// The next test ("at least this?"), or `None` once the range is one score.
    pub(super) fn next(&self) -> Option<i32> {
        (self.low < self.high).then(|| self.test.clamp(self.low + 1, self.high))
    }

    /// Records that the test "at least `test`?" found `found` (fail-soft), and aims the next test. A test other
    /// than the one [`Narrowing::next`] gives (another thread's, answered late) still narrows the range.
    pub(super) fn record(&mut self, test: i32, found: i32) {
        let current = self.next() == Some(test);
        let up = found >= test;
        if up {
            self.low = self.low.max(found.max(test));
        } else {
            self.high = self.high.min(found.min(test - 1));
        }
        if current {
            self.step = if self.last_up == Some(up) { self.step.saturating_mul(2) } else { 1 };
            self.last_up = Some(up);
            self.test = if up { self.low.saturating_add(self.step) } else { self.high.saturating_sub(self.step - 1) };
        }
    }
}

/// The range `known` (a root's [`Search::known_range`]) within `[low, high]`: a single score (the bound) where
/// they do not meet, so that a narrowing over it ends at once with the clamped score.
pub(super) fn within((known_low, known_high): (i32, i32), (low, high): (i32, i32)) -> (i32, i32) {
    let high = high.max(low);
    (known_low.clamp(low, high), known_high.clamp(low, high))
}

/// One search of one root.
pub(super) struct Search<'search, Ruleset: ScoredGame + Canonicalize + SearchHints, Access> {
    pub(super) game: &'search Ruleset,
    pub(super) table: Access,
    pub(super) lists: MoveLists<Ruleset::Move>,
    pub(super) near: NearDepths,
    pub(super) visited: u64,
    pub(super) hits: u64,
    pub(super) budget: u64,
    pub(super) stopped: bool,
    /// The first breach of the game's contract met (the search then unwinds).
    pub(super) broken: Option<Error>,
    /// Finds a position that comes back on the path.
    pub(super) guard: PathGuard<Ruleset::Position>,
    pub(super) progress: Option<ProgressHook>,
    /// The last progress reported (its range and test).
    pub(super) report: Progress,
    /// Where the search shows itself to a watcher (the CLI's progress line).
    pub(super) line: Option<ProgressHandle>,
    /// The history heuristic, kept across the null-window tests of the root.
    pub(super) history: History,
    /// Lazy SMP: the flag that tells this thread to unwind (its test is moot, or the score is known).
    pub(super) stop: Option<&'search AtomicBool>,
    /// Lazy SMP: the positions the threads are in, whose far-depth children a thread defers.
    pub(super) busy: Option<&'search Busy>,
}

impl<'search, Ruleset, Access> Search<'search, Ruleset, Access>
where
    Ruleset: ScoredGame + Canonicalize + SearchHints,
    Access: TableAccess<Ruleset::Key>,
{
    pub(super) fn new(game: &'search Ruleset, table: Access, budget: u64) -> Self {
        Search {
            game,
            table,
            lists: MoveLists::default(),
            near: NearDepths::default(),
            visited: 0,
            hits: 0,
            budget,
            stopped: false,
            broken: None,
            guard: PathGuard::default(),
            progress: None,
            report: Progress {
                visited: 0,
                low: -SCORE_LIMIT,
                high: SCORE_LIMIT,
                test: None,
                finished: false,
                found: 0,
            },
            line: None,
            history: History::default(),
            stop: None,
            busy: None,
        }
    }

    /// Reports where the search stands, if a hook listens.
    fn tell(&mut self) {
        if let Some(hook) = &self.progress {
            self.report.visited = self.visited;
            hook(&self.report);
        }
    }

    /// Whether the search must unwind (budget spent, or the game broke its contract).
    pub(super) fn halted(&self) -> bool {
        self.stopped || self.broken.is_some()
    }

    /// The exact score of `root` by null-window searches that narrow `range` (its [`Search::known_range`]),
    /// aimed by `guess` (see [`Narrowing`]).
    pub(super) fn narrow(&mut self, root: &Ruleset::Position, (low, high): (i32, i32), guess: Option<i32>) -> i32 {
        let mut narrowing = Narrowing::new(low, high, guess);
        while let Some(test) = narrowing.next() {
            if self.halted() {
                break;
            }
            let found = self.test(root, &narrowing, test);
            if !self.halted() {
                narrowing.record(test, found);
            }
        }
        narrowing.low
    }

    /// The range `root`'s score is known to lie in: its score alone where the game is over there; else the
    /// game's [`SearchHints::value_range`], narrowed by the bounds the table holds for it. Every stored bound is
    /// proven, so a score the table pins needs no search and the tests earlier searches answered are not asked
    /// again (an analysis values a position's moves after the position, whose search bounded each of them; its
    /// line follows moves whose values are stored).
    pub(super) fn known_range(&mut self, root: &Ruleset::Position) -> (i32, i32) {
        if let Some(score) = self.game.outcome(root) {
            return (score, score);
        }
        let (mut low, mut high) = self.game.value_range(root);
        if let Some(bounds) = self.table.probe(&self.game.canonical(root), false) {
            low = low.max(from_table(bounds.lower));
            high = high.min(from_table(bounds.upper));
        }
        (low, high.max(low))
    }

    /// One null-window test of `root`, "at least `test`?", with `narrowing` the range before it: reported to
    /// the progress hook and line; the fail-soft score found.
    pub(super) fn test(&mut self, root: &Ruleset::Position, narrowing: &Narrowing, test: i32) -> i32 {
        let (low, high) = (narrowing.low, narrowing.high);
        self.report = Progress { visited: self.visited, low, high, test: Some(test), finished: false, found: 0 };
        self.tell();
        if let Some(line) = &self.line {
            line.0.testing(Test::ScoreAtLeast(test));
        }
        let found = self.search(root, 0, test - 1, test);
        self.report.finished = true;
        self.report.found = found;
        if !self.halted() {
            self.tell();
        }
        found
    }

    /// Reports another thread's answer `found` to the test "at least `test`?", with `[low, high]` the shared
    /// range when it was recorded (Lazy SMP: the progress hook listens to the first thread only, which passes the helpers'
    /// answers on).
    #[cfg(feature = "parallel")]
    pub(super) fn hear(&mut self, answer: super::lazy_smp::Answer) {
        self.report = super::lazy_smp::heard(self.visited, answer);
        self.tell();
    }

    /// Counts `positions` more expanded (one, or a game's small search): each [`PROGRESS_STEP`] passed goes to
    /// the progress line, whose stop ends the search as its budget would, and each [`PROGRESS_EVERY`] passed to
    /// the progress hook.
    #[inline]
    fn count(&mut self, positions: u64) {
        let before = self.visited;
        self.visited = before.saturating_add(positions);
        if before / PROGRESS_STEP != self.visited / PROGRESS_STEP {
            self.passed(before);
        }
    }

    /// The progress reports of [`Search::count`], once a [`PROGRESS_STEP`] is passed since `before` positions.
    #[cold]
    fn passed(&mut self, before: u64) {
        let steps = self.visited / PROGRESS_STEP - before / PROGRESS_STEP;
        if self.line.as_ref().is_some_and(|line| line.0.add(steps * PROGRESS_STEP)) {
            self.budget = self.visited;
        }
        if self.visited / PROGRESS_EVERY != before / PROGRESS_EVERY {
            self.tell();
        }
    }

    /// A score of at least `beta` that a child's stored bound proves for `position`, if one does.
    fn transposition_cutoff(
        &mut self,
        position: &Ruleset::Position,
        moves: &[Ruleset::Move],
        depth: u32,
        beta: i32,
    ) -> Option<i32> {
        let near = self.near.is_near(depth.saturating_add(1));
        for mv in moves {
            let child = self.game.play(position, mv);
            if self.game.is_over(&child) {
                continue;
            }
            let passes = self.game.turn_passes(position, &child);
            // A child settled by a shortcut (an endgame database's value) refutes the window as surely.
            if let Some(value) = self.game.shortcut(&child).and_then(Shortcut::exact) {
                let seen = if passes { -value } else { value };
                if seen >= beta {
                    self.hits += 1;
                    return Some(seen);
                }
                continue;
            }
            let Some(bounds) = self.table.probe(&self.game.canonical(&child), near) else { continue };
            let seen = if passes { -from_table(bounds.upper) } else { from_table(bounds.lower) };
            if seen >= beta {
                self.hits += 1;
                return Some(seen);
            }
        }
        None
    }

    /// Fail-soft alpha-beta: the score of `position` (for its mover) if it lies in `(alpha, beta)`, else a bound
    /// on the side where it falls.
    pub(super) fn search(&mut self, position: &Ruleset::Position, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        if self.halted() {
            return 0;
        }
        if self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
            self.stopped = true;
            return 0;
        }
        if self.guard.repeats(depth, position) {
            self.broken = Some(crate::engines::repeated());
            return 0;
        }
        if let Some(score) = self.game.outcome(position) {
            if score.abs() > SCORE_LIMIT {
                self.broken = Some(broken(format!("a final score of {score}, beyond ±{SCORE_LIMIT}")));
            }
            return score;
        }
        if let Some(score) = self.game.shortcut(position).and_then(Shortcut::exact) {
            return score;
        }
        if self.visited >= self.budget {
            self.stopped = true;
            return 0;
        }
        if let Some(small) = self.game.small_search(position, alpha, beta) {
            self.count(small.positions);
            return small.value;
        }
        let (mut low, mut high) = self.game.value_range(position);
        if high <= alpha {
            return high;
        }
        if low >= beta {
            return low;
        }
        let key = self.game.canonical(position);
        let near = self.near.is_near(depth);
        if let Some(bounds) = self.table.probe(&key, near) {
            low = low.max(from_table(bounds.lower));
            high = high.min(from_table(bounds.upper));
            if low >= high || high <= alpha || low >= beta {
                self.hits += 1;
                return if low >= beta || low >= high { low } else { high };
            }
        }
        alpha = alpha.max(low - 1);
        beta = beta.min(high + 1);
        let (window_low, window_high) = (alpha, beta);
        self.count(1);
        let before = self.visited;
        let level = usize::try_from(depth).unwrap_or(usize::MAX);
        let game = self.game;
        let mut moves = self.lists.take_filled(level, |moves, scores| game.search_moves(position, moves, scores));
        // At near depths a search costs less than ordering it by history would save.
        if !near && moves.len() > 1 {
            self.history.order(game, position, &mut moves, self.lists.scores());
        }
        if moves.is_empty() {
            self.broken = Some(broken(format!("a position that is not over has no move: {position:?}")));
            return 0;
        }
        // Enhanced transposition cutoffs, at the costly depths only: a child whose stored bound already refutes
        // the window ends the search before any child is searched.
        if !near {
            if let Some(cutoff) = self.transposition_cutoff(position, &moves, depth, beta) {
                self.lists.give_back(level, moves);
                let bounds = Bounds { lower: lower_to_table(cutoff.max(low)), upper: upper_to_table(high) };
                self.table.store(&key, bounds, 1, near);
                return cutoff;
            }
        }
        let mut best = -SCORE_LIMIT - 1;
        // Lazy SMP where the children are far too: the children another thread is in wait until the others are
        // searched, the first one too (a null window gains nothing from searching the first child first but its
        // cutoff). Where the children are near, none is ever marked busy, and deferring grandchildren of a few
        // dozen positions each splits the work finer than it pays: the deepest far depth neither marks nor
        // defers (Kalah(6, 4) on two threads: 1.5 times one thread, 1.25 to 1.44 deferring there; at every
        // depth, twice the time of one thread; BENCHMARKS.md, "Lazy SMP above the deepest far depth").
        let splits = !self.near.is_near(depth.saturating_add(1));
        let own = self.busy.filter(|_| splits && moves.len() > 1).map(|busy| {
            let hash = busy.hash(&key);
            busy.enter(hash);
            (busy, hash)
        });
        let mut deferred: u64 = 0;
        'passes: for pass in 0..2 {
            for (index, mv) in moves.iter().enumerate() {
                if pass == 1 && (index >= 64 || deferred & (1 << index) == 0) {
                    continue;
                }
                let before_child = self.visited;
                let child = game.play(position, mv);
                if let Some((busy, _)) = own.filter(|_| pass == 0 && index < 64) {
                    if busy.is_busy(busy.hash(&game.canonical(&child))) {
                        deferred |= 1 << index;
                        continue;
                    }
                }
                let next = depth.saturating_add(1);
                let score = if game.turn_passes(position, &child) {
                    -with_stack_every(depth, || self.search(&child, next, -beta, -alpha))
                } else {
                    with_stack_every(depth, || self.search(&child, next, alpha, beta))
                };
                if self.halted() {
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
                        if !near {
                            // By the work's order of magnitude: credited by the work itself, a few early
                            // cutoffs of huge subtrees fix the order for the rest of the search, and what the
                            // table held when they happened decides which (BENCHMARKS.md, "The history heuristic
                            // credited by the order of magnitude").
                            let work = self.visited - before_child + 1;
                            self.history.credit(game, position, mv, u64::from(work.ilog2()) + 1);
                        }
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
        let lower = if best > window_low { best.max(low) } else { low };
        let upper = if best < window_high { best.min(high) } else { high };
        let bounds = Bounds { lower: lower_to_table(lower), upper: upper_to_table(upper) };
        let work = self.visited - before + 1;
        if bounds != Bounds::UNKNOWN {
            self.table.store(&key, bounds, work, near);
        }
        self.near.record(level, work);
        best
    }
}
