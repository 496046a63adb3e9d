//! What a long search shows while it runs: the engines write a [`SearchProgress`] (the positions expanded so
//! far, the test or step under way) and a watcher on another thread reads it, such as the CLI's progress line.
//! Writing costs the search one shared counter update per [`PROGRESS_STEP`] positions. The alpha-beta engines
//! write it, and so do scored alpha-beta, expectimax, value iteration and the retrograde engine.

use crate::value::Value;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::Arc;

/// How many positions a search expands between two updates of the shared counter.
pub(crate) const PROGRESS_STEP: u64 = 1 << 16;

/// The test a search is running, or the step of a solve that enumerates and sweeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    /// The outcome: win, draw or loss (a weak solve: "a win?", then "at least a draw?").
    Outcome,
    /// "Is the value at least this?" (a null-window test of the exact score search).
    AtLeast(Value),
    /// "Is the score at least this?" (a null-window test of scored alpha-beta's exact score search).
    ScoreAtLeast(i32),
    /// Every position reachable being enumerated (value iteration, the retrograde engine).
    Enumerating,
    /// A sweep of value iteration over every position (its number, from 1).
    Sweep(u64),
    /// The retrograde engine's backward induction, deciding the positions of a remoteness.
    Induction(u32),
}

impl Test {
    /// Whether it is a question a search answers ("searching" it), rather than a step of a solve.
    pub fn is_question(self) -> bool {
        matches!(self, Test::Outcome | Test::AtLeast(_) | Test::ScoreAtLeast(_))
    }

    /// The test as one word: its kind in the low 4 bits, its argument above them.
    fn code(self) -> i64 {
        let (kind, argument) = match self {
            Test::Outcome => (1, 0),
            Test::AtLeast(Value::Draw) => (2, 0),
            Test::AtLeast(Value::Win(remoteness)) => (3, i64::from(remoteness)),
            Test::AtLeast(Value::Lose(remoteness)) => (4, i64::from(remoteness)),
            Test::ScoreAtLeast(score) => (5, i64::from(score)),
            Test::Enumerating => (6, 0),
            Test::Sweep(sweep) => (7, i64::try_from(sweep).unwrap_or(i64::MAX).min(i64::MAX >> 4)),
            Test::Induction(remoteness) => (8, i64::from(remoteness)),
        };
        argument * 16 + kind
    }

    /// The inverse of [`Test::code`] (`None` for 0, no test).
    fn from_code(code: i64) -> Option<Test> {
        let argument = code >> 4;
        let small = |argument: i64| u32::try_from(argument).unwrap_or(u32::MAX);
        match code & 15 {
            1 => Some(Test::Outcome),
            2 => Some(Test::AtLeast(Value::Draw)),
            3 => Some(Test::AtLeast(Value::Win(small(argument)))),
            4 => Some(Test::AtLeast(Value::Lose(small(argument)))),
            5 => Some(Test::ScoreAtLeast(i32::try_from(argument).unwrap_or(i32::MAX))),
            6 => Some(Test::Enumerating),
            7 => Some(Test::Sweep(u64::try_from(argument).unwrap_or(0))),
            8 => Some(Test::Induction(small(argument))),
            _ => None,
        }
    }
}

impl std::fmt::Display for Test {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Test::Outcome => write!(f, "win, draw or loss?"),
            Test::AtLeast(value) => write!(f, "at least a {value}?"),
            Test::ScoreAtLeast(score) => write!(f, "a score of at least {score}?"),
            Test::Enumerating => write!(f, "enumerating the positions"),
            Test::Sweep(sweep) => write!(f, "value iteration, sweep {sweep}"),
            Test::Induction(remoteness) => write!(f, "backward induction, remoteness {remoteness}"),
        }
    }
}

/// The live state of an engine's searches, shared with a watcher (see the module documentation).
#[derive(Debug, Default)]
pub struct SearchProgress {
    /// Searches started (a watcher tells a new search from a long one by it).
    searches: AtomicU64,
    running: AtomicBool,
    /// Positions expanded by the search under way, in steps of [`PROGRESS_STEP`].
    visited: AtomicU64,
    /// The test under way: 0 none, else its code ([`Test::code`]).
    test: AtomicI64,
    /// Whether the caller asked the searches to stop (the Python module, on Ctrl-C).
    stop: AtomicBool,
    /// Positions expanded by every search since the state was made, in steps of [`PROGRESS_STEP`].
    all_visited: AtomicU64,
}

impl SearchProgress {
    /// Whether a search is running, and which one (a count of the searches started).
    pub fn running(&self) -> Option<u64> {
        self.running.load(Ordering::Relaxed).then(|| self.searches.load(Ordering::Relaxed))
    }

    /// The positions the search under way has expanded (rounded down to a step of 65,536).
    pub fn visited(&self) -> u64 {
        self.visited.load(Ordering::Relaxed)
    }

    /// The test under way, if any.
    pub fn test(&self) -> Option<Test> {
        Test::from_code(self.test.load(Ordering::Relaxed))
    }

    /// Asks every search that reports here to stop: each ends within a step of 65,536 positions, as if its
    /// position budget had run out, and so does every search started after it. A caller that asked for it
    /// knows that the budget error it then gets means "stopped".
    pub fn request_stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for ([`SearchProgress::request_stop`]).
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Takes back a stop asked for: the searches started after it run to their budgets (a server whose
    /// search for a page that went away was stopped, going on with the next request).
    pub fn clear_stop(&self) {
        self.stop.store(false, Ordering::Relaxed);
    }

    /// The positions every search that reported here has expanded (rounded down to steps of 65,536).
    pub fn visited_in_all(&self) -> u64 {
        self.all_visited.load(Ordering::Relaxed)
    }

    pub(crate) fn start(&self) {
        self.visited.store(0, Ordering::Relaxed);
        self.test.store(0, Ordering::Relaxed);
        self.searches.fetch_add(1, Ordering::Relaxed);
        self.running.store(true, Ordering::Relaxed);
    }

    pub(crate) fn finish(&self) {
        self.running.store(false, Ordering::Relaxed);
    }

    pub(crate) fn testing(&self, test: Test) {
        self.test.store(test.code(), Ordering::Relaxed);
    }

    /// Counts `positions` more; `true` if the search should stop ([`SearchProgress::request_stop`]).
    #[inline]
    pub(crate) fn add(&self, positions: u64) -> bool {
        self.visited.fetch_add(positions, Ordering::Relaxed);
        self.all_visited.fetch_add(positions, Ordering::Relaxed);
        self.stop.load(Ordering::Relaxed)
    }
}

/// A shared [`SearchProgress`], as options carry it to the engines they make; two handles are equal when they
/// share one state.
#[derive(Clone, Debug, Default)]
pub struct ProgressHandle(pub Arc<SearchProgress>);

impl PartialEq for ProgressHandle {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for ProgressHandle {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tests_read_back_as_written() {
        let progress = SearchProgress::default();
        assert_eq!(progress.running(), None);
        progress.start();
        assert_eq!(progress.running(), Some(1));
        assert_eq!(progress.test(), None);
        for test in [
            Test::Outcome,
            Test::AtLeast(Value::Draw),
            Test::AtLeast(Value::Win(37)),
            Test::AtLeast(Value::Lose(0)),
            Test::AtLeast(Value::Win(u32::MAX)),
            Test::ScoreAtLeast(-7),
            Test::ScoreAtLeast(i32::MIN),
            Test::ScoreAtLeast(i32::MAX),
            Test::Enumerating,
            Test::Sweep(1_000_000),
            Test::Induction(12),
        ] {
            progress.testing(test);
            assert_eq!(progress.test(), Some(test));
        }
        assert!(!progress.add(PROGRESS_STEP));
        assert_eq!(progress.visited(), PROGRESS_STEP);
        progress.request_stop();
        assert!(progress.add(PROGRESS_STEP) && progress.stop_requested());
        progress.finish();
        assert_eq!(progress.running(), None);
        assert_eq!(Test::AtLeast(Value::Win(3)).to_string(), "at least a win in 3?");
        assert_eq!(Test::ScoreAtLeast(-2).to_string(), "a score of at least -2?");
        assert!(Test::ScoreAtLeast(0).is_question() && !Test::Sweep(3).is_question());
    }
}
