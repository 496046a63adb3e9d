//! One engine kept for each game being explored ([`Desks`]): a thread of its own per game holds the game and
//! its analyst ([`ludus_framework::playable::Analyst`]), whose table (within `--table-mb`) is kept from one
//! request to the next, so that the next position of a game reuses the last one's work. Each desk analyses
//! one position at a time, in the order asked. At most `--searches` desks are kept; a new game's desk
//! replaces the one used least recently (which ends after its search under way). A search nobody waits for
//! any more ([`Watched::abandoned`]: its page moved on) is stopped: the thread that handed it to its desk
//! checks every quarter second.

use super::partial::Watched;
use super::shapes::ApiError;
use ludus_framework::engines::alpha_beta::ProgressHandle;
use ludus_framework::playable::{Analysis, AnalysisOptions, PlayableGame};
use std::sync::mpsc::{channel, sync_channel, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// The stack of a desk's thread (engines grow their own stack past it where they recurse deeply).
const DESK_STACK_BYTES: usize = 64 * 1024 * 1024;

/// A position to analyse, and where its answer goes.
struct Job {
    position: Option<String>,
    moves: Vec<String>,
    watched: Arc<Watched>,
    reply: SyncSender<Result<Analysis, ApiError>>,
}

/// A game's desk: its thread's queue, its engine's progress, and the search under way.
struct Desk {
    game: String,
    jobs: Sender<Job>,
    progress: ProgressHandle,
    current: Current,
}

/// The desks, the one used last at the end.
pub struct Desks {
    desks: Mutex<Vec<Desk>>,
    limit: usize,
    options: AnalysisOptions,
}

fn lock<Inner>(mutex: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Desks {
    /// At most `limit` desks, each engine made from `options`.
    pub fn new(limit: usize, options: AnalysisOptions) -> Desks {
        Desks { desks: Mutex::default(), limit: limit.max(1), options }
    }

    /// The analysis of the position reached from `position` by `moves` in `game` (made for this request: it
    /// becomes the desk's game if the desk is new), by the game's desk, telling `watched` what it finds.
    pub fn analyze(
        &self,
        game: Box<dyn PlayableGame>,
        position: Option<String>,
        moves: Vec<String>,
        watched: &Arc<Watched>,
    ) -> Result<Analysis, ApiError> {
        let (reply, answer) = sync_channel(1);
        let job = Job { position, moves, watched: Arc::clone(watched), reply };
        let (jobs, current, progress) = self.desk_of(game)?;
        jobs.send(job).map_err(|_| desk_gone())?;
        // The search under way at the desk (this one, or one this job waits behind) is stopped once nobody
        // waits for it.
        loop {
            match answer.recv_timeout(STOP_CHECK_EVERY) {
                Ok(outcome) => return outcome,
                Err(RecvTimeoutError::Timeout) => stop_if_abandoned(&current, &progress),
                Err(RecvTimeoutError::Disconnected) => return Err(desk_gone()),
            }
        }
    }

    /// The queue of `game`'s desk (made if there is none), its search under way, and its engine's progress.
    fn desk_of(&self, game: Box<dyn PlayableGame>) -> Result<(Sender<Job>, Current, ProgressHandle), ApiError> {
        let name = game.name();
        let mut desks = lock(&self.desks);
        let desk = match desks.iter().position(|desk| desk.game == name) {
            Some(place) => desks.remove(place),
            None => {
                if desks.len() >= self.limit {
                    // Its queue closes: its thread ends after the search under way, stopped if abandoned.
                    let evicted = desks.remove(0);
                    stop_if_abandoned(&evicted.current, &evicted.progress);
                }
                self.open(game)?
            }
        };
        stop_if_abandoned(&desk.current, &desk.progress);
        let found = (desk.jobs.clone(), Arc::clone(&desk.current), desk.progress.clone());
        desks.push(desk);
        Ok(found)
    }

    /// A new desk for `game`, its thread started.
    fn open(&self, game: Box<dyn PlayableGame>) -> Result<Desk, ApiError> {
        let (jobs, queue) = channel();
        let progress = ProgressHandle::default();
        let current = Arc::new(Mutex::new(None));
        let options = AnalysisOptions { progress: Some(progress.clone()), ..self.options.clone() };
        let desk = Desk { game: game.name(), jobs, progress: progress.clone(), current: Arc::clone(&current) };
        std::thread::Builder::new()
            .name(format!("ludus-desk {}", desk.game))
            .stack_size(DESK_STACK_BYTES)
            .spawn(move || serve_jobs(game.as_ref(), &options, &queue, &current, &progress))
            .map_err(|error| ApiError::new(503, "busy", format!("cannot start a desk thread: {error}")))?;
        Ok(desk)
    }
}

/// The search under way at a desk, if any.
type Current = Arc<Mutex<Option<Arc<Watched>>>>;

/// How often a job waiting behind another checks whether the other is abandoned.
const STOP_CHECK_EVERY: Duration = Duration::from_millis(250);

/// Stops the search under way at a desk if nobody waits for it any more.
fn stop_if_abandoned(current: &Current, progress: &ProgressHandle) {
    if let Some(current) = &*lock(current) {
        if current.abandoned() && !current.was_stopped() {
            current.stop();
            progress.0.request_stop();
        }
    }
}

/// The error of a desk whose thread ended (a bug: its panic is in the server's log).
fn desk_gone() -> ApiError {
    ApiError::new(500, "internal", "the game's engine stopped (a bug: see the server's log)")
}

/// A desk's thread: the game's analyst made once, then each job in turn until the queue closes.
fn serve_jobs(
    game: &dyn PlayableGame,
    options: &AnalysisOptions,
    queue: &Receiver<Job>,
    current: &Mutex<Option<Arc<Watched>>>,
    progress: &ProgressHandle,
) {
    let mut analyst = match game.analyst(options) {
        Ok(analyst) => analyst,
        Err(error) => {
            let error = ApiError::from_framework(&error);
            for job in queue {
                let _ = job.reply.send(Err(error.clone()));
            }
            return;
        }
    };
    for job in queue {
        *lock(current) = Some(Arc::clone(&job.watched));
        progress.0.clear_stop();
        job.watched.begin(progress);
        let moves: Vec<&str> = job.moves.iter().map(String::as_str).collect();
        let outcome = analyst.analyze_after(job.position.as_deref(), &moves, &mut |found| job.watched.found(found));
        *lock(current) = None;
        let answer = outcome.map_err(|error| match job.watched.was_stopped() {
            true => ApiError::new(503, "stopped", "the search was stopped: nobody waited for it any more"),
            false => ApiError::from_framework(&error),
        });
        let _ = job.reply.send(answer);
    }
}
