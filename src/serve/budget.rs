//! What the server may spend: [`Limits`] (the flags of `ludus serve` and the fixed bounds of a request),
//! [`SearchSlots`] (at most `searches` searches at once, each on its own thread, answered within
//! `max_seconds`) and [`AnswerCache`] (the last answers, a fixed number of bounded entries, so that a search
//! that ran past the time budget still serves the request asked again).

use super::shapes::ApiError;
use serde::Serialize;
use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The longest game name with its parameters a request may give.
pub const MAX_GAME_BYTES: usize = 256;
/// The longest position text a request may give.
pub const MAX_POSITION_BYTES: usize = 4096;
/// The most moves a request may give after its position.
pub const MAX_MOVES: usize = 1000;
/// The longest move text.
pub const MAX_MOVE_BYTES: usize = 64;
/// Answers kept by the cache.
const CACHED_ANSWERS: usize = 128;
/// The largest answer the cache keeps (larger ones are sent, not kept).
const MAX_CACHED_BYTES: usize = 256 * 1024;
/// The stack of a search thread (engines grow their own stack past it where they recurse deeply).
const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

/// The server's budgets, as the flags of `ludus serve` set them, and the fixed bounds of a request (sent to
/// the page by `GET /api/games`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Limits {
    /// The most positions one search may expand (`--max-positions`).
    pub max_positions: u64,
    /// The most seconds a request waits for its search (`--max-seconds`); the search itself stops at its
    /// position budget.
    pub max_seconds: u64,
    /// The memory of a search's table, in MiB (`--table-mb`).
    pub table_mb: usize,
    /// The memory of one search, in MiB (`--memory-mb`): its table, or the positions the retrograde engine
    /// holds.
    pub memory_mb: usize,
    /// Searches at once (`--searches`); a request finding them all busy waits within its time budget.
    pub searches: usize,
    /// Connections served at once (`--connections`); past them, and a short queue, a connection is refused.
    pub connections: usize,
    /// The largest request body, in bytes.
    pub max_body_bytes: usize,
    /// The longest position text.
    pub max_position_bytes: usize,
    /// The most moves after a position.
    pub max_moves: usize,
}

/// Permits for searches: at most `searches` at once, each held by its search thread until it ends.
pub struct SearchSlots {
    free: Mutex<usize>,
    freed: Condvar,
}

/// A held search slot, given back when dropped.
pub struct Slot(Arc<SearchSlots>);

impl Drop for Slot {
    fn drop(&mut self) {
        if let Ok(mut free) = self.0.free.lock() {
            *free += 1;
            self.0.freed.notify_one();
        }
    }
}

impl SearchSlots {
    /// `count` slots.
    pub fn new(count: usize) -> Arc<SearchSlots> {
        Arc::new(SearchSlots { free: Mutex::new(count), freed: Condvar::new() })
    }

    /// A slot, waiting until `deadline` for one; `None` if every slot stayed busy.
    fn acquire(self: &Arc<Self>, deadline: Instant) -> Option<Slot> {
        let mut free = self.free.lock().ok()?;
        while *free == 0 {
            let left = deadline.checked_duration_since(Instant::now())?;
            free = self.freed.wait_timeout(free, left).ok()?.0;
        }
        *free -= 1;
        Some(Slot(Arc::clone(self)))
    }

    /// Runs `search` on a thread of its own once a slot is free, and waits for its answer until `seconds`
    /// after now: a busy server past the deadline is a 503 `busy`, a search still running at it a 503 `time`
    /// (the search goes on to its position budget, holding its slot, and `search` may keep its answer).
    pub fn run<Answer: Send + 'static>(
        self: &Arc<Self>,
        seconds: u64,
        search: impl FnOnce() -> Answer + Send + 'static,
    ) -> Result<Answer, ApiError> {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        let slot = self.acquire(deadline).ok_or_else(|| {
            ApiError::new(503, "busy", format!("every search slot stayed busy for {seconds} s (--searches): retry"))
        })?;
        let (sender, receiver) = std::sync::mpsc::sync_channel(1);
        std::thread::Builder::new()
            .name("ludus-search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let _slot = slot;
                // The request may have stopped waiting: then nobody receives, and that is fine.
                let _ = sender.send(search());
            })
            .map_err(|error| ApiError::new(503, "busy", format!("cannot start a search thread: {error}")))?;
        let left = deadline.saturating_duration_since(Instant::now());
        receiver.recv_timeout(left).map_err(|error| match error {
            std::sync::mpsc::RecvTimeoutError::Timeout => ApiError::new(
                503,
                "time",
                format!(
                    "the search takes longer than the {seconds} s this server waits (--max-seconds); it goes on \
                     within --max-positions, and asking again later may find its answer"
                ),
            ),
            std::sync::mpsc::RecvTimeoutError::Disconnected => {
                ApiError::new(500, "internal", "the search ended without an answer (a bug: see the server's log)")
            }
        })
    }
}

/// The last answers, by request: at most [`CACHED_ANSWERS`] of at most [`MAX_CACHED_BYTES`] each.
#[derive(Default)]
pub struct AnswerCache {
    entries: Mutex<VecDeque<(String, Arc<Vec<u8>>)>>,
}

impl AnswerCache {
    /// The answer kept for `key`.
    pub fn get(&self, key: &str) -> Option<Arc<Vec<u8>>> {
        let entries = self.entries.lock().ok()?;
        entries.iter().find(|(known, _)| known == key).map(|(_, answer)| Arc::clone(answer))
    }

    /// Keeps `answer` for `key` (the oldest entry makes room), unless it is too large to keep.
    pub fn keep(&self, key: String, answer: Arc<Vec<u8>>) {
        if answer.len() > MAX_CACHED_BYTES {
            return;
        }
        if let Ok(mut entries) = self.entries.lock() {
            entries.retain(|(known, _)| *known != key);
            if entries.len() == CACHED_ANSWERS {
                entries.pop_front();
            }
            entries.push_back((key, answer));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_bound_searches_and_time() {
        let slots = SearchSlots::new(1);
        assert_eq!(slots.run(5, || 7), Ok(7));
        // A search past the time budget is a 503 `time`, and holds its slot until it ends.
        let slow = slots.run(1, || std::thread::sleep(Duration::from_secs(4)));
        assert_eq!(slow.map_err(|error| (error.status, error.kind)), Err((503, "time")));
        let busy = slots.run(1, || 1);
        assert_eq!(busy.map_err(|error| (error.status, error.kind)), Err((503, "busy")));
        assert_eq!(slots.run(10, || 2), Ok(2), "the slot is given back once the slow search ends");
    }

    #[test]
    fn the_cache_keeps_the_last_answers_within_its_bounds() {
        let cache = AnswerCache::default();
        for index in 0..CACHED_ANSWERS + 1 {
            cache.keep(index.to_string(), Arc::new(vec![1]));
        }
        assert!(cache.get("0").is_none(), "the oldest answer made room");
        assert!(cache.get(&CACHED_ANSWERS.to_string()).is_some());
        cache.keep("large".into(), Arc::new(vec![0; MAX_CACHED_BYTES + 1]));
        assert!(cache.get("large").is_none());
    }
}
