//! What the server may spend: [`Limits`] (the flags of `ludus serve` and the fixed bounds of a request) and
//! [`SearchSlots`] (at most `searches` searches at once, each holding its slot until it ends).

use serde::Serialize;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

/// The longest game name with its parameters a request may give.
pub const MAX_GAME_BYTES: usize = 256;
/// The longest position text a request may give.
pub const MAX_POSITION_BYTES: usize = 4096;
/// The most moves a request may give after its position.
pub const MAX_MOVES: usize = 1000;
/// The longest move text.
pub const MAX_MOVE_BYTES: usize = 64;

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
    /// Threads of each search (`--threads`, all cores counted for 0).
    pub threads: usize,
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
    pub fn acquire(self: &Arc<Self>, deadline: Instant) -> Option<Slot> {
        let mut free = self.free.lock().ok()?;
        while *free == 0 {
            let left = deadline.checked_duration_since(Instant::now())?;
            free = self.freed.wait_timeout(free, left).ok()?.0;
        }
        *free -= 1;
        Some(Slot(Arc::clone(self)))
    }
}
