//! The answers of `POST /api/position`, by request. A request's [`AnswerKey`] is the request as parsed: the
//! game's canonical name, the position and the moves, each a field of its own (two requests share a key only
//! when they ask the same thing of the same game). [`Answers`] keeps the last answers (errors of the request
//! included, so that asking again never repeats a search that failed) and the searches under way: a request
//! finds its answer kept, or waits for the search under way for the same key, or starts one in a free search
//! slot; so identical requests take one slot, and a search that outlives the time budget still answers the
//! request asked again.
//!
//! The key keeps the position and moves as given rather than the position they reach: the answer repeats them.

use super::budget::SearchSlots;
use super::partial::Watched;
use super::shapes::ApiError;
use std::collections::{HashMap, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Answers kept.
const KEPT_ANSWERS: usize = 128;
/// The most bytes of a kept answer with its key (a larger one is sent, not kept): the cache holds at most
/// [`KEPT_ANSWERS`] x this.
const MAX_KEPT_BYTES: usize = 256 * 1024;
/// The stack of a search thread (engines grow their own stack past it where they recurse deeply).
const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;
/// The longest a request that streams waits for its search before it is told how far the search is.
pub const STREAM_WAIT: Duration = Duration::from_millis(400);

/// A request as the answers know it: equal keys, equal answers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AnswerKey {
    /// The game's canonical name (every parameter, in declared order).
    pub game: String,
    /// The position as given (`None`: the start).
    pub position: Option<String>,
    /// The moves as given.
    pub moves: Vec<String>,
}

impl AnswerKey {
    /// The bytes the key holds, its moves' own bookkeeping included.
    fn bytes(&self) -> usize {
        let texts = self.moves.iter().map(|mv| mv.len() + std::mem::size_of::<String>()).sum::<usize>();
        self.game.len() + self.position.as_ref().map_or(0, String::len) + texts
    }
}

/// What a request gets: the answer's JSON, or an error.
pub type Outcome = Result<Arc<Vec<u8>>, ApiError>;

/// What a request gets back: the outcome, or (for a request that streams) how far the search under way is.
pub enum Reply {
    /// The answer, or the error.
    Done(Outcome),
    /// The search goes on: what it found so far.
    Partial(Arc<Watched>),
}

/// A search under way: its outcome once it ends, the requests waiting for it woken then, and what it found
/// so far.
#[derive(Default)]
struct Pending {
    outcome: Mutex<Option<Outcome>>,
    ended: Condvar,
    watched: Arc<Watched>,
}

impl Pending {
    /// The outcome, waiting for it until `deadline`; `None` if the search is still under way then.
    fn wait(&self, deadline: Instant) -> Option<Outcome> {
        self.watched.waiting();
        let mut outcome = self.outcome.lock().unwrap_or_else(PoisonError::into_inner);
        while outcome.is_none() {
            let Some(left) = deadline.checked_duration_since(Instant::now()).filter(|left| !left.is_zero()) else {
                break;
            };
            outcome = self.ended.wait_timeout(outcome, left).unwrap_or_else(PoisonError::into_inner).0;
        }
        let outcome = outcome.clone();
        self.watched.done_waiting();
        outcome
    }

    /// Gives the outcome to every request waiting.
    fn end(&self, outcome: Outcome) {
        *self.outcome.lock().unwrap_or_else(PoisonError::into_inner) = Some(outcome);
        self.ended.notify_all();
    }
}

/// The answers kept and the searches under way, under one lock so that a search's end moves its outcome from
/// the one to the other at once.
#[derive(Default)]
struct Known {
    kept: VecDeque<(AnswerKey, Outcome)>,
    running: HashMap<AnswerKey, Arc<Pending>>,
}

/// The last answers, by request, and the searches under way.
#[derive(Default)]
pub struct Answers {
    known: Mutex<Known>,
}

impl Answers {
    /// The answers' state (a panic never happens while it is held, so a poisoned lock is still whole).
    fn known(&self) -> MutexGuard<'_, Known> {
        self.known.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The answer to `key`: kept, or the outcome of the search under way for it, or of `search` run on a thread
    /// of its own in one of `slots` (told where to show what it finds); waited for at most `seconds`. Past
    /// them, a request that found no free slot gets a 503 `busy`, one whose search is still under way a 503
    /// `time` (the search goes on to its position budget, holding its slot, and its outcome is kept for the
    /// request asked again). A request that streams waits at most [`STREAM_WAIT`] for the outcome, and is
    /// told how far the search is past it.
    pub fn answer(
        self: &Arc<Self>,
        key: AnswerKey,
        slots: &Arc<SearchSlots>,
        seconds: u64,
        stream: bool,
        search: impl FnOnce(Arc<Watched>) -> Outcome + Send + 'static,
    ) -> Reply {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        let pending = {
            let mut known = self.known();
            if let Some((_, outcome)) = known.kept.iter().find(|(kept, _)| *kept == key) {
                return Reply::Done(outcome.clone());
            }
            match known.running.get(&key) {
                Some(pending) => Arc::clone(pending),
                None => {
                    let pending = Arc::new(Pending::default());
                    known.running.insert(key.clone(), Arc::clone(&pending));
                    drop(known);
                    self.start(key, Arc::clone(&pending), slots, deadline, seconds, search);
                    pending
                }
            }
        };
        let waited = if stream { deadline.min(Instant::now() + STREAM_WAIT) } else { deadline };
        match pending.wait(waited) {
            Some(outcome) => Reply::Done(outcome),
            None if stream => Reply::Partial(Arc::clone(&pending.watched)),
            None => Reply::Done(Err(ApiError::new(
                503,
                "time",
                format!(
                    "the search takes longer than the {seconds} s this server waits (--max-seconds); it goes on \
                     within --max-positions, and asking again later may find its answer"
                ),
            ))),
        }
    }

    /// Runs `search` for `key` in a slot free before `deadline`, its outcome given to `pending`; without a slot
    /// (or a thread), `pending` ends in a 503 `busy` at once.
    fn start(
        self: &Arc<Self>,
        key: AnswerKey,
        pending: Arc<Pending>,
        slots: &Arc<SearchSlots>,
        deadline: Instant,
        seconds: u64,
        search: impl FnOnce(Arc<Watched>) -> Outcome + Send + 'static,
    ) {
        let Some(slot) = slots.acquire(deadline) else {
            let busy = format!("every search slot stayed busy for {seconds} s (--searches): retry");
            return self.end(&key, &pending, Err(ApiError::new(503, "busy", busy)));
        };
        let answers = Arc::clone(self);
        let thread_key = key.clone();
        let thread_pending = Arc::clone(&pending);
        let started =
            std::thread::Builder::new().name("ludus-search".into()).stack_size(SEARCH_STACK_BYTES).spawn(move || {
                let _slot = slot;
                let watched = Arc::clone(&thread_pending.watched);
                let outcome = catch_unwind(AssertUnwindSafe(|| search(watched))).unwrap_or_else(|_| {
                    Err(ApiError::new(500, "internal", "the search failed (a bug: see the server's log)"))
                });
                answers.end(&thread_key, &thread_pending, outcome);
            });
        if let Err(error) = started {
            let busy = ApiError::new(503, "busy", format!("cannot start a search thread: {error}"));
            self.end(&key, &pending, Err(busy));
        }
    }

    /// Ends the search for `key`: its outcome kept if it is the request's own (an answer, or an error of the
    /// request: a 5xx, the server's failure, is tried again next time) and small enough, then given to the
    /// requests waiting.
    fn end(&self, key: &AnswerKey, pending: &Pending, outcome: Outcome) {
        {
            let mut known = self.known();
            known.running.remove(key);
            let (keep, bytes) = match &outcome {
                Ok(answer) => (true, answer.len()),
                Err(error) => (error.status < 500, error.message.len()),
            };
            if keep && bytes + key.bytes() <= MAX_KEPT_BYTES {
                known.kept.retain(|(kept, _)| kept != key);
                if known.kept.len() == KEPT_ANSWERS {
                    known.kept.pop_front();
                }
                known.kept.push_back((key.clone(), outcome.clone()));
            }
        }
        pending.end(outcome);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn key(position: &str) -> AnswerKey {
        AnswerKey { game: "game".into(), position: Some(position.into()), moves: Vec::new() }
    }

    /// The answer to a request that does not stream.
    fn ask(
        answers: &Arc<Answers>,
        key: AnswerKey,
        slots: &Arc<SearchSlots>,
        seconds: u64,
        search: impl FnOnce() -> Outcome + Send + 'static,
    ) -> Outcome {
        match answers.answer(key, slots, seconds, false, move |_| search()) {
            Reply::Done(outcome) => outcome,
            Reply::Partial(_) => panic!("a request that does not stream got a partial answer"),
        }
    }

    #[test]
    fn a_request_that_streams_is_told_what_the_search_found_so_far_then_its_answer() {
        let (answers, slots) = (Arc::new(Answers::default()), SearchSlots::new(1));
        let search = |watched: Arc<Watched>| {
            let value = ludus_framework::playable::Assessment::Score(3);
            watched.found(ludus_framework::playable::Found::Value(&value));
            std::thread::sleep(Duration::from_millis(1500));
            Ok(Arc::new(vec![1, 2, 3]))
        };
        let started = Instant::now();
        let Reply::Partial(watched) = answers.answer(key("s"), &slots, 10, true, search) else {
            panic!("the search takes longer than a stream waits")
        };
        assert!(started.elapsed() < Duration::from_millis(1200), "{:?}", started.elapsed());
        assert_eq!(watched.progress().value, Some(ludus_framework::playable::Assessment::Score(3)));
        // Asked again, the same search answers (not a second one).
        let mut done = None;
        for _ in 0..20 {
            if let Reply::Done(outcome) = answers.answer(key("s"), &slots, 10, true, |_| Ok(Arc::new(Vec::new()))) {
                done = Some(outcome);
                break;
            }
        }
        assert_eq!(done.map(|outcome| status(&outcome)), Some(Ok(3)));
    }

    fn status(outcome: &Outcome) -> Result<usize, (u16, &'static str)> {
        outcome.as_ref().map(|answer| answer.len()).map_err(|error| (error.status, error.kind))
    }

    #[test]
    fn slots_bound_searches_and_time() {
        let (answers, slots) = (Arc::new(Answers::default()), SearchSlots::new(1));
        assert_eq!(status(&ask(&answers, key("a"), &slots, 5, || Ok(Arc::new(vec![7])))), Ok(1));
        // A search past the time budget is a 503 `time`, and holds its slot until it ends.
        let slow = ask(&answers, key("slow"), &slots, 1, || {
            std::thread::sleep(Duration::from_secs(3));
            Ok(Arc::new(vec![1, 2]))
        });
        assert_eq!(status(&slow), Err((503, "time")));
        let busy = ask(&answers, key("b"), &slots, 1, || Ok(Arc::new(Vec::new())));
        assert_eq!(status(&busy), Err((503, "busy")), "another request finds no slot");
        let again = ask(&answers, key("slow"), &slots, 10, || Ok(Arc::new(Vec::new())));
        assert_eq!(status(&again), Ok(2), "the same request waits for the search under way");
        assert_eq!(status(&ask(&answers, key("b"), &slots, 10, || Ok(Arc::new(vec![0; 3])))), Ok(3), "slot given back");
    }

    #[test]
    fn identical_requests_share_a_search_and_its_error_is_kept() {
        let (answers, slots) = (Arc::new(Answers::default()), SearchSlots::new(4));
        let searches = Arc::new(AtomicUsize::new(0));
        let search = |searches: &Arc<AtomicUsize>| {
            let searches = Arc::clone(searches);
            move || {
                searches.fetch_add(1, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(300));
                Err(ApiError::new(422, "budget", "past the budget"))
            }
        };
        std::thread::scope(|scope| {
            for _ in 0..4 {
                let (answers, slots, search) = (&answers, &slots, search(&searches));
                scope
                    .spawn(move || assert_eq!(status(&ask(answers, key("x"), slots, 5, search)), Err((422, "budget"))));
            }
        });
        assert_eq!(status(&ask(&answers, key("x"), &slots, 5, search(&searches))), Err((422, "budget")));
        assert_eq!(searches.load(Ordering::SeqCst), 1, "one search for five identical requests");
        // A failure of the server's is tried again.
        let failing = || Err(ApiError::new(500, "database", "cannot read"));
        assert_eq!(status(&ask(&answers, key("y"), &slots, 5, failing)), Err((500, "database")));
        assert_eq!(status(&ask(&answers, key("y"), &slots, 5, || Ok(Arc::new(vec![1])))), Ok(1));
        // A panic is a 500, not kept, and the slot is given back.
        let one = SearchSlots::new(1);
        assert_eq!(status(&ask(&answers, key("z"), &one, 5, || panic!("a bug"))), Err((500, "internal")));
        assert_eq!(status(&ask(&answers, key("z"), &one, 5, || Ok(Arc::new(vec![1])))), Ok(1));
    }

    #[test]
    fn the_kept_answers_are_the_last_ones_within_their_bounds() {
        let (answers, slots) = (Arc::new(Answers::default()), SearchSlots::new(1));
        let kept = |position: &str| answers.known().kept.iter().any(|(known, _)| *known == key(position));
        for index in 0..=KEPT_ANSWERS {
            assert_eq!(status(&ask(&answers, key(&index.to_string()), &slots, 5, || Ok(Arc::new(vec![1])))), Ok(1));
        }
        assert!(!kept("0"), "the oldest answer made room");
        assert!(kept(&KEPT_ANSWERS.to_string()));
        let large = ask(&answers, key("large"), &slots, 5, || Ok(Arc::new(vec![0; MAX_KEPT_BYTES])));
        assert_eq!(status(&large), Ok(MAX_KEPT_BYTES), "sent all the same");
        assert!(!kept("large"), "an answer that with its key passes the bound is not kept");
        assert!(answers.known().running.is_empty(), "no search left under way");
    }
}
