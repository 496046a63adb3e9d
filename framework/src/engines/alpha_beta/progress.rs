//! What a long alpha-beta search shows while it runs: the engines write a [`SearchProgress`] (the positions
//! expanded so far, the test under way) and a watcher on another thread reads it, such as the CLI's progress line.
//! Writing costs the search one shared counter update per [`PROGRESS_STEP`] positions.

use crate::value::Value;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::Arc;

/// How many positions a search expands between two updates of the shared counter.
pub(crate) const PROGRESS_STEP: u64 = 1 << 16;

/// The test a search is running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    /// The outcome: win, draw or loss (a weak solve: "a win?", then "at least a draw?").
    Outcome,
    /// "Is the value at least this?" (a null-window test of the exact score search).
    AtLeast(Value),
}

impl std::fmt::Display for Test {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Test::Outcome => write!(f, "win, draw or loss?"),
            Test::AtLeast(value) => write!(f, "at least a {value}?"),
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
    /// The test under way: 0 none, 1 the outcome, otherwise a value's code.
    test: AtomicI64,
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
        let code = self.test.load(Ordering::Relaxed);
        // The inverse of `testing`: a remoteness r is written 4 r + 4, its sign the kind.
        let remoteness = |code: i64| u32::try_from(code.unsigned_abs().saturating_sub(4) / 4).unwrap_or(u32::MAX);
        match code {
            0 => None,
            1 => Some(Test::Outcome),
            2 => Some(Test::AtLeast(Value::Draw)),
            code if code > 0 => Some(Test::AtLeast(Value::Win(remoteness(code)))),
            code => Some(Test::AtLeast(Value::Lose(remoteness(code)))),
        }
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
        let code = match test {
            Test::Outcome => 1,
            Test::AtLeast(Value::Draw) => 2,
            Test::AtLeast(Value::Win(remoteness)) => 4 * i64::from(remoteness) + 4,
            Test::AtLeast(Value::Lose(remoteness)) => -4 * i64::from(remoteness) - 4,
        };
        self.test.store(code, Ordering::Relaxed);
    }

    #[inline]
    pub(crate) fn add(&self, positions: u64) {
        self.visited.fetch_add(positions, Ordering::Relaxed);
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
        for test in
            [Test::Outcome, Test::AtLeast(Value::Draw), Test::AtLeast(Value::Win(37)), Test::AtLeast(Value::Lose(0))]
        {
            progress.testing(test);
            assert_eq!(progress.test(), Some(test));
        }
        progress.add(PROGRESS_STEP);
        assert_eq!(progress.visited(), PROGRESS_STEP);
        progress.finish();
        assert_eq!(progress.running(), None);
        assert_eq!(Test::AtLeast(Value::Win(3)).to_string(), "at least a win in 3?");
    }
}
