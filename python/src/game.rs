//! `_ludus.Game`: a game made from its registration (a spec string, as the CLI takes it), its positions seen
//! from outside (`inspect`), and its analysis. A search runs on a thread of its own with the GIL released;
//! the calling thread waits for it and checks for signals every 50 ms, so Ctrl-C (`KeyboardInterrupt`) asks
//! the search to stop ([`SearchProgress::request_stop`]), and it ends within a step of 65,536 positions.

use crate::convert::to_python;
use crate::database::solve_reporting;
use crate::errors;
use ludus_framework::database::book::BookPlace;
use ludus_framework::database::endgame::{EndgamePlace, EndgameSolve};
use ludus_framework::engines::alpha_beta::ProgressHandle;
use ludus_framework::playable::{AnalysisEngine, AnalysisOptions, Finish, PlayableGame, Registration};
use ludus_framework::plugin::{check_threads, thread_count};
use ludus_framework::{Error, Player};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

/// How often a waiting caller looks for signals (Ctrl-C).
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// The stack of a search thread (engines grow their own stack past it where they recurse deeply).
const SEARCH_STACK_BYTES: usize = 64 << 20;

/// A game made from its spec (`connect-four:width=5,height=4`).
#[pyclass(module = "ludus._ludus", name = "Game", frozen)]
pub struct PyGame {
    game: Arc<dyn PlayableGame>,
    registration: Registration,
}

impl PyGame {
    /// The game of `spec` among `registrations`.
    pub fn load(registrations: &[Registration], spec: &str) -> PyResult<PyGame> {
        let registration = *ludus_framework::playable::find_registration(registrations, spec)
            .map_err(|error| errors::to_python(&error))?;
        let made = registration.make(spec).map_err(|error| errors::to_python(&error))?;
        Ok(PyGame { game: Arc::from(made.playable), registration })
    }
}

/// The moves as the framework takes them.
fn borrowed(moves: &[String]) -> Vec<&str> {
    moves.iter().map(String::as_str).collect()
}

/// Where a search thread leaves its outcome for the caller waiting on it.
struct Slot<Output> {
    outcome: Mutex<Option<Result<Output, Error>>>,
    ready: Condvar,
}

impl<Output> Slot<Output> {
    /// The outcome, if it came within `wait`.
    fn take_within(&self, wait: Duration) -> Option<Result<Output, Error>> {
        let guard = self.outcome.lock().unwrap_or_else(PoisonError::into_inner);
        let (mut guard, _) = self
            .ready
            .wait_timeout_while(guard, wait, |outcome| outcome.is_none())
            .unwrap_or_else(PoisonError::into_inner);
        guard.take()
    }
}

/// Runs `work` on a thread of its own while the caller waits with the GIL released, looking for signals; on
/// one (Ctrl-C), asks the work to stop through `progress`, waits for it to end, and gives the signal's
/// exception.
pub fn run_stoppable<Output: Send + 'static>(
    py: Python<'_>,
    progress: &ProgressHandle,
    work: impl FnOnce() -> Result<Output, Error> + Send + 'static,
) -> PyResult<Output> {
    let slot = Arc::new(Slot { outcome: Mutex::new(None), ready: Condvar::new() });
    let filled = Arc::clone(&slot);
    let thread =
        std::thread::Builder::new().name("ludus-search".into()).stack_size(SEARCH_STACK_BYTES).spawn(move || {
            // The thread takes a Python thread state for the whole search and releases the GIL at once: each
            // call into Python (a game written in Python, a progress callback) then only takes the GIL, instead
            // of making and dropping a thread state every time (about 5 us a call).
            let outcome = Python::attach(|py| py.detach(work));
            *filled.outcome.lock().unwrap_or_else(PoisonError::into_inner) = Some(outcome);
            filled.ready.notify_all();
        });
    let thread =
        thread.map_err(|error| errors::LudusError::new_err(format!("cannot start a search thread: {error}")))?;
    let mut interrupted: Option<PyErr> = None;
    loop {
        let waited = Arc::clone(&slot);
        let finished = thread.is_finished();
        // A thread seen finished has left its outcome, if any: it is taken without waiting.
        let wait = if finished { Duration::ZERO } else { SIGNAL_CHECK };
        match py.detach(move || waited.take_within(wait)) {
            Some(outcome) => {
                return match interrupted {
                    Some(signal) => Err(signal),
                    None => outcome.map_err(|error| errors::to_python(&error)),
                };
            }
            None if finished => return Err(errors::LudusError::new_err("the search thread ended without an answer")),
            None => {}
        }
        if interrupted.is_none() {
            if let Err(signal) = py.check_signals() {
                // The search ends within a step; its thread and memory are gone before the exception is raised.
                progress.0.request_stop();
                interrupted = Some(signal);
            }
        }
    }
}

/// The options of an analysis as a Python caller gives them, with the progress handle through which Ctrl-C
/// stops its searches.
pub fn analysis_options(
    engine: &str,
    table_mb: usize,
    memory_mb: usize,
    max_positions: u64,
    max_line: usize,
) -> PyResult<(AnalysisOptions, ProgressHandle)> {
    let engine: AnalysisEngine = engine.parse().map_err(|error: Error| errors::to_python(&error))?;
    let progress = ProgressHandle::default();
    // No opening book nor endgame database, one thread: `Game.analyze` sets them where its caller names them.
    let options = AnalysisOptions {
        engine,
        table_mb,
        memory_mb,
        max_positions,
        max_line,
        value_only: false,
        guess_positions: ludus_framework::engines::scored::GUESS_POSITIONS,
        threads: 1,
        progress: Some(progress.clone()),
        book: None,
        endgame: None,
    };
    Ok((options, progress))
}

#[pymethods]
impl PyGame {
    /// The game's canonical name, every parameter written (`connect-four:width=5,height=4`).
    #[getter]
    fn name(&self) -> String {
        self.game.name()
    }

    /// The registered name (`connect-four`).
    #[getter]
    fn family_name(&self) -> &'static str {
        self.registration.name
    }

    /// What the game is and has (as `ludus games --format json` lists it).
    fn listing<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &ludus::reports::GameListing::of(&self.registration))
    }

    /// The position written `position` (`None`: the start) after `moves`: a dict of its drawing, key, moves,
    /// outcomes (text, numerator, denominator), mover (0 or 1, counted from `position`) and finish.
    #[pyo3(signature = (position, moves))]
    fn inspect<'py>(
        &self,
        py: Python<'py>,
        position: Option<String>,
        moves: Vec<String>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let view =
            self.game.inspect(position.as_deref(), &borrowed(&moves)).map_err(|error| errors::to_python(&error))?;
        let dict = PyDict::new(py);
        dict.set_item("drawing", view.drawing)?;
        dict.set_item("key", view.key)?;
        dict.set_item("moves", PyList::new(py, view.moves)?)?;
        let outcomes = PyList::empty(py);
        for (text, probability) in view.outcomes {
            outcomes.append((text, probability.numerator, probability.denominator))?;
        }
        dict.set_item("outcomes", outcomes)?;
        dict.set_item("mover", u8::from(view.mover == Player::Second))?;
        let finish = view.finish.map(|finish| match finish {
            Finish::FirstWon => "first",
            Finish::SecondWon => "second",
            Finish::Drawn => "draw",
        });
        dict.set_item("finish", finish)?;
        Ok(dict)
    }

    /// The analysis of the position written `position` (`None`: the start) after `moves`: the report of
    /// `ludus analyze --format json` as a dict, on `threads` threads (0: one a core) for a game whose fastest
    /// solver searches on several, consulting the opening book in the file `book` and probing the endgame
    /// database in the directory `endgame` if given (`--threads`, `--book`, `--endgame`), a scored game's first
    /// guess within `guess_positions` (`--guess-positions`); the position's value alone if `value_only`
    /// (`--value-only`). Releases the GIL; Ctrl-C stops it.
    #[pyo3(signature = (position, moves, engine, table_mb, memory_mb, max_positions, max_line, threads, book, endgame, guess_positions, value_only))]
    #[allow(clippy::too_many_arguments)]
    fn analyze<'py>(
        &self,
        py: Python<'py>,
        position: Option<String>,
        moves: Vec<String>,
        engine: &str,
        table_mb: usize,
        memory_mb: usize,
        max_positions: u64,
        max_line: usize,
        threads: usize,
        book: Option<PathBuf>,
        endgame: Option<PathBuf>,
        guess_positions: u64,
        value_only: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        check_threads(threads).map_err(|error| errors::to_python(&error))?;
        let (mut options, progress) = analysis_options(engine, table_mb, memory_mb, max_positions, max_line)?;
        options.threads = thread_count(threads);
        options.book = book.map(BookPlace::File);
        options.endgame = endgame.map(EndgamePlace::Directory);
        options.guess_positions = guess_positions;
        options.value_only = value_only;
        let game = Arc::clone(&self.game);
        let analysis =
            run_stoppable(py, &progress, move || game.analyze_after(position.as_deref(), &borrowed(&moves), &options))?;
        to_python(py, &analysis)
    }

    /// `ludus db solve GAME --up-to N --db DIRECTORY`: the game's endgame database, its tiers `0..=up_to`,
    /// solved into `directory` (resuming from the tiers there) on `threads` threads within `memory_mb`, each
    /// tier's report passed to `progress` as it ends. Releases the GIL; Ctrl-C stops it after the tier it is
    /// writing.
    #[pyo3(signature = (directory, up_to, threads, memory_mb, progress))]
    fn solve_endgame(
        &self,
        py: Python<'_>,
        directory: PathBuf,
        up_to: u32,
        threads: usize,
        memory_mb: usize,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<()> {
        check_threads(threads).map_err(|error| errors::to_python(&error))?;
        let game = Arc::clone(&self.game);
        solve_reporting(py, threads, progress, move |stop, report| {
            let solve = EndgameSolve { bound: up_to, memory_mb, stop: Some(stop) };
            game.solve_endgame(&directory, &solve, report)
        })
    }
}
