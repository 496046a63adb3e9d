//! The exact score search of Lazy SMP threads over one shared range of the root's score. Every thread takes its
//! next test from the range proven so far, in the converging order of one thread ([`End::Converging`]), so the
//! threads run the same test together and split its work (the busy set of `busy.rs` defers the children another
//! thread is in); the first to finish narrows the range, and a thread whose test the range has made moot (its
//! answer is known) drops it and takes the next. Splitting the tests between the ends instead (quick ends on
//! some threads, the draw outward on others) spends more positions than the converging order saves on one
//! thread: the tests of the walk that does not meet the value are wasted (see BENCHMARKS.md).

use super::narrowing::{pick, End, Scale, Step};
use super::progress::Test;
use super::search::{Search, TableAccess};
use crate::engines::support::value_of;
use crate::game::Canonicalize;
use crate::game::Game;
use crate::hints::SearchHints;
use crate::table::MATE;
use crate::value::Value;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The test of a thread that runs none.
const IDLE: i32 = i32::MIN;

/// One thread's test under way and the flag that drops it, on cache lines of its own: each thread reads its
/// flag at every position it expands, and a shared line would be written by the others' tests.
#[derive(Debug)]
#[repr(align(128))]
struct Running {
    test: AtomicI32,
    drop: AtomicBool,
}

/// The range `[low, high]` of the root's score that the threads of one search have proven, and each thread's
/// test under way.
///
/// Invariant: `low <= true score <= high` (every bound comes from a finished test); a thread's `test` is
/// written only under the lock of `range`, so a thread is dropped only from the test that became moot.
#[derive(Debug)]
pub(crate) struct SharedRange {
    range: Mutex<(i32, i32)>,
    running: Vec<Running>,
}

impl SharedRange {
    /// The whole range, for `threads` threads.
    pub(crate) fn new(threads: usize) -> Self {
        let running =
            (0..threads).map(|_| Running { test: AtomicI32::new(IDLE), drop: AtomicBool::new(false) }).collect();
        SharedRange { range: Mutex::new((-MATE, MATE)), running }
    }

    /// The flag that tells thread `thread`'s search to unwind (its test is moot, or the value is known).
    pub(crate) fn flag(&self, thread: usize) -> Option<&AtomicBool> {
        self.running.get(thread).map(|running| &running.drop)
    }

    /// The range, locked. A thread that panicked while holding the lock left a range of true bounds (it is
    /// written in one assignment), so a poisoned lock is still good.
    fn lock(&self) -> MutexGuard<'_, (i32, i32)> {
        self.range.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next step of thread `thread`, whose tests come from `end` of the range; its test is then under way.
    fn next(&self, thread: usize, scale: Option<Scale>, end: End) -> Step {
        let range = self.lock();
        let step = pick(scale, end, range.0, range.1);
        if let Some(running) = self.running.get(thread) {
            running.drop.store(false, Ordering::Relaxed);
            running.test.store(if let Step::Test(test) = step { test } else { IDLE }, Ordering::Relaxed);
        }
        step
    }

    /// Records what thread `thread`'s test of `test` found, and drops every other thread's test that the
    /// narrower range answers (all of them once the range is down to the value on `scale`).
    fn record(&self, thread: usize, test: i32, found: i32, scale: Option<Scale>) {
        let mut range = self.lock();
        if found >= test {
            range.0 = range.0.max(found);
        } else {
            range.1 = range.1.min(found);
        }
        let (low, high) = *range;
        let settled = matches!(pick(scale, End::Quick, low, high), Step::Done(_));
        for (index, running) in self.running.iter().enumerate() {
            let other = running.test.load(Ordering::Relaxed);
            if index == thread {
                running.test.store(IDLE, Ordering::Relaxed);
            } else if other != IDLE && (settled || other <= low || other > high) {
                running.drop.store(true, Ordering::Relaxed);
            }
        }
    }
}

impl<Ruleset, Access> Search<'_, Ruleset, Access>
where
    Ruleset: Game + Canonicalize + SearchHints,
    Access: TableAccess<Ruleset::Key>,
{
    /// The exact value of `root` by null-window tests shared with the other threads through `shared`, as thread
    /// `thread`; `None` if this thread's budget ran out. The search's stop flag must be `shared.flag(thread)`.
    pub(crate) fn narrow_shared(
        &mut self,
        root: &Ruleset::Position,
        shared: &SharedRange,
        thread: usize,
    ) -> Option<Value> {
        let scale = self.scale(root);
        loop {
            let test = match shared.next(thread, scale, End::Converging) {
                Step::Done(score) => return Some(value_of(score, 0)),
                Step::Test(test) => test,
            };
            self.show(Test::AtLeast(value_of(test, 0)));
            let found = self.search(root, 0, test - 1, test);
            if self.stopped {
                if self.visited >= self.budget {
                    return None;
                }
                // Dropped: the test's answer is known; the next step starts from the range as it is now.
                self.stopped = false;
                continue;
            }
            shared.record(thread, test, found, scale);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dropped(shared: &SharedRange, thread: usize) -> bool {
        shared.flag(thread).is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    #[test]
    fn the_two_ends_test_apart_and_a_test_the_range_answers_is_dropped() {
        let scale = Some(Scale::new(42));
        let shared = SharedRange::new(2);
        let Step::Test(quick) = shared.next(0, scale, End::Quick) else { panic!("the whole range is open") };
        let Step::Test(slow) = shared.next(1, scale, End::Slow) else { panic!("the whole range is open") };
        assert_ne!(quick, slow);
        // The slow end finds "a win": the quick end's test of a loss is answered, so it is dropped.
        assert!(quick < 0 && slow > 0, "{quick} {slow}");
        shared.record(1, slow, slow, scale);
        assert!(dropped(&shared, 0) && !dropped(&shared, 1));
        // Its next step clears the flag and starts from the narrower range.
        let Step::Test(next) = shared.next(0, scale, End::Quick) else { panic!("wins are left open") };
        assert!(next > slow && !dropped(&shared, 0));
    }

    #[test]
    fn threads_on_the_converging_order_share_a_test_and_the_first_answer_drops_the_others() {
        let scale = Some(Scale::new(42));
        let shared = SharedRange::new(2);
        let Step::Test(first) = shared.next(0, scale, End::Converging) else { panic!("the whole range is open") };
        assert_eq!(shared.next(1, scale, End::Converging), Step::Test(first));
        // Thread 1 answers "no": thread 0's copy of the test is moot, and both go on to the same next test.
        shared.record(1, first, first - 1, scale);
        assert!(dropped(&shared, 0) && !dropped(&shared, 1));
        let Step::Test(second) = shared.next(1, scale, End::Converging) else { panic!("scores below are open") };
        assert!(second < first);
        assert_eq!(shared.next(0, scale, End::Converging), Step::Test(second));
        assert!(!dropped(&shared, 0));
    }

    #[test]
    fn a_test_the_range_leaves_open_goes_on_and_the_value_stops_everyone() {
        let scale = Some(Scale::new(10));
        let shared = SharedRange::new(3);
        let win_in_3 = MATE - 3;
        let Step::Test(first) = shared.next(0, scale, End::Quick) else { panic!("open") };
        // Another thread proves "at most a win in 3", which leaves the first test open.
        shared.record(1, win_in_3 + 1, win_in_3, scale);
        assert!(first <= win_in_3 && !dropped(&shared, 0));
        // ...then "at least a win in 3": the value, which drops every test under way.
        let _ = shared.next(2, scale, End::Slow);
        shared.record(1, win_in_3, win_in_3, scale);
        assert!(dropped(&shared, 0) && dropped(&shared, 2));
        assert_eq!(shared.next(0, scale, End::Quick), Step::Done(win_in_3));
        assert_eq!(shared.next(2, scale, End::Slow), Step::Done(win_in_3));
    }
}
