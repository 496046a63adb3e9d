//! What a search under way has found so far ([`Watched`]), for a page that asks again while it runs: the
//! position's value once known, each move's value as its search ends, the move being searched, the positions
//! searched and their rate; and whether anyone still waits for it (a search nobody has asked about for
//! [`ABANDONED_AFTER`] is stopped when another request needs its game's engine).

use ludus_framework::engines::alpha_beta::ProgressHandle;
use ludus_framework::playable::{Assessment, Found, MoveAnalysis};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// A search that no request has waited for or asked about for this long is abandoned (a page that streams
/// asks about its search about every half second).
pub const ABANDONED_AFTER: Duration = Duration::from_millis(1500);

/// The values found so far.
#[derive(Clone, Debug, Default)]
struct Seen {
    value: Option<Assessment>,
    moves: Vec<MoveAnalysis>,
    searching: Option<String>,
    line: bool,
}

/// A search's live state, shared by its search and the requests that ask about it.
pub struct Watched {
    seen: Mutex<Seen>,
    /// The engine's progress once the search began (it may wait for its game's engine first), with the
    /// positions it had counted then and the time.
    began: Mutex<Option<(ProgressHandle, u64, Instant)>>,
    asked: Mutex<Instant>,
    waiting: AtomicUsize,
    stopped: AtomicBool,
}

impl Default for Watched {
    fn default() -> Self {
        Watched {
            seen: Mutex::default(),
            began: Mutex::default(),
            asked: Mutex::new(Instant::now()),
            waiting: AtomicUsize::new(0),
            stopped: AtomicBool::new(false),
        }
    }
}

/// Locks a mutex whose holder never panics while holding it (so a poisoned one is still whole).
fn lock<Inner>(mutex: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How far a search is, as the page shows it.
#[derive(Debug, Serialize)]
pub struct Progress {
    /// The position's value for the player to move, once known (flattened as an analysis writes it).
    #[serde(flatten)]
    pub value: Option<Assessment>,
    /// The moves valued so far, in the game's order; `best` marks a move whose value is the position's.
    pub moves: Vec<MoveAnalysis>,
    /// What is searched now: `the position`, `move 4`, `the line`, or `waiting for the engine`.
    pub searching: String,
    /// Positions searched (in steps of 65,536).
    pub positions: u64,
    /// Positions a second.
    pub positions_per_second: f64,
    /// Seconds since the search began.
    pub seconds: f64,
}

impl Watched {
    /// The search begins over the engine reporting to `progress`.
    pub fn begin(&self, progress: &ProgressHandle) {
        *lock(&self.began) = Some((progress.clone(), progress.0.visited_in_all(), Instant::now()));
    }

    /// What the analysis found.
    pub fn found(&self, found: Found<'_>) {
        let mut seen = lock(&self.seen);
        match found {
            Found::Value(value) => seen.value = Some(*value),
            Found::Searching(mv) => seen.searching = Some(mv.to_string()),
            Found::Move(analysis) => seen.moves.push(analysis.clone()),
            Found::Line => seen.line = true,
        }
    }

    /// A request asks about the search now.
    pub fn asked(&self) {
        *lock(&self.asked) = Instant::now();
    }

    /// A request waits for the search until [`Watched::done_waiting`].
    pub fn waiting(&self) {
        self.waiting.fetch_add(1, Ordering::SeqCst);
        self.asked();
    }

    /// A request stopped waiting.
    pub fn done_waiting(&self) {
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        self.asked();
    }

    /// Whether nobody waits for the search, nor asked about it for [`ABANDONED_AFTER`].
    pub fn abandoned(&self) -> bool {
        self.waiting.load(Ordering::SeqCst) == 0 && lock(&self.asked).elapsed() >= ABANDONED_AFTER
    }

    /// The search is being stopped, nobody waiting for it.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
    }

    /// Whether it was stopped so.
    pub fn was_stopped(&self) -> bool {
        self.stopped.load(Ordering::SeqCst)
    }

    /// How far the search is.
    pub fn progress(&self) -> Progress {
        let seen = lock(&self.seen).clone();
        let (positions, seconds) = match &*lock(&self.began) {
            Some((handle, before, began)) => {
                (handle.0.visited_in_all().saturating_sub(*before), began.elapsed().as_secs_f64())
            }
            None => (0, 0.0),
        };
        let searching = match (&*lock(&self.began), seen.line, &seen.searching, seen.value) {
            (None, ..) => "waiting for the engine".to_string(),
            (_, true, ..) => "the line".to_string(),
            (_, false, Some(mv), _) => format!("move {mv}"),
            (_, false, None, _) => "the position".to_string(),
        };
        let moves =
            seen.moves.into_iter().map(|mv| MoveAnalysis { best: seen.value == Some(mv.value), ..mv }).collect();
        let positions_per_second = if seconds > 0.0 { positions as f64 / seconds } else { 0.0 };
        Progress { value: seen.value, moves, searching, positions, positions_per_second, seconds }
    }
}
