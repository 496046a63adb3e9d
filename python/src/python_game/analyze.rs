//! `_ludus.analyze_python_game`: the analysis of a position of a game written in Python, by the engine of its
//! family: alpha-beta or memoized negamax for a win/loss game whose turns alternate (the retrograde engine if
//! its positions repeat), the scored alpha-beta for a scored game (or a win/loss one whose turns need not
//! alternate), expectimax for a game of chance, value iteration for one whose positions repeat.

use super::rules::{PyScored, PyWinLoss};
use super::{Callbacks, PyPosition};
use crate::convert::to_python;
use crate::game::{analysis_options, run_stoppable};
use ludus_framework::analysis::SearchValue;
use ludus_framework::playable::{Analysis, AnalysisOptions, Playable, TextForm};
use ludus_framework::{Error, Result};
use pyo3::prelude::*;
use std::sync::{Arc, Mutex};

/// What the class declares: its attributes and optional methods.
#[derive(Clone, Copy)]
struct Declared {
    scored: bool,
    positions_repeat: bool,
    chance: bool,
    turn_passes: bool,
}

/// The attribute `name` of `game` as a boolean (`false` if it has none).
fn flag(game: &Bound<'_, PyAny>, name: &str) -> PyResult<bool> {
    match game.getattr(name) {
        Ok(value) => value.is_truthy(),
        Err(_) => Ok(false),
    }
}

/// Whether `game`'s class defines the method `name`.
fn defines(game: &Bound<'_, PyAny>, name: &str) -> PyResult<bool> {
    Ok(game.get_type().hasattr(name)? && game.getattr(name)?.is_callable())
}

/// The analysis of `position` by `playable`'s engine for `options` (the value alone if `options.value_only`).
fn analysis_of<Ruleset, Worth>(
    playable: &Playable<Ruleset, Worth>,
    position: &PyPosition,
    options: &AnalysisOptions,
) -> Result<Analysis>
where
    Ruleset: TextForm<Position = PyPosition>,
    Worth: SearchValue,
{
    let mut engine = playable.engine(options)?;
    playable.analysis_for(engine.as_mut(), position, options)
}

/// The analysis by the family's engine.
fn dispatch(
    callbacks: Arc<Callbacks>,
    declared: Declared,
    position: &PyPosition,
    options: &AnalysisOptions,
) -> Result<Analysis> {
    let name = callbacks.name.clone();
    let Declared { scored, positions_repeat, chance, turn_passes } = declared;
    if !scored && !chance && !turn_passes {
        return if positions_repeat {
            analysis_of(&Playable::win_loss(PyWinLoss::<true>(callbacks), name), position, options)
        } else {
            analysis_of(&Playable::win_loss(PyWinLoss::<false>(callbacks), name), position, options)
        };
    }
    // Chance, or positions that repeat, take the engines of expected scores (value iteration where positions
    // repeat); a deterministic game that never repeats, the scored alpha-beta.
    let expected = chance || positions_repeat;
    macro_rules! scored_as {
        ($repeat:literal, $win_loss:literal) => {{
            let game = PyScored::<$repeat, $win_loss>(callbacks);
            if expected {
                analysis_of(&Playable::with_chance(game, name), position, options)
            } else {
                analysis_of(&Playable::scored(game, name), position, options)
            }
        }};
    }
    match (positions_repeat, scored) {
        (true, true) => scored_as!(true, false),
        (true, false) => scored_as!(true, true),
        (false, true) => scored_as!(false, false),
        (false, false) => scored_as!(false, true),
    }
}

/// The stack of the thread that searches a game written in Python (engines grow their own past it).
const STACK_BYTES: usize = 64 << 20;

/// One thread, holding a Python thread state for as long as it lives with the GIL released, on which the
/// search and every parallel loop of the engines run: each call into the game then only takes the GIL (a
/// thread of rayon's own would make and drop a thread state at every call, about 5 us; and with the GIL, more
/// threads would only wait for one another).
fn python_pool() -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .thread_name(|_| "ludus-python-game".into())
        .spawn_handler(|thread| {
            std::thread::Builder::new()
                .name("ludus-python-game".into())
                .stack_size(STACK_BYTES)
                .spawn(move || Python::attach(|py| py.detach(|| thread.run())))
                .map(|_| ())
        })
        .build()
        .map_err(|error| Error::Threads { threads: 1, cause: format!("cannot start it: {error}") })
}

/// The analysis of `position` (a position object of `game`; `None`: its start) of `game`, an instance of a
/// subclass of `ludus.Game` written in Python: the report of `ludus analyze --format json` as a dict. Releases
/// the GIL between calls into the game; Ctrl-C stops it; an exception raised by the game's methods is raised
/// here once the search has stopped. `value_only`: the position's value alone (`--value-only`).
#[pyfunction]
#[pyo3(signature = (game, position, engine, table_mb, memory_mb, max_positions, max_line, value_only))]
#[allow(clippy::too_many_arguments)]
pub fn analyze_python_game<'py>(
    py: Python<'py>,
    game: Bound<'py, PyAny>,
    position: Option<Bound<'py, PyAny>>,
    engine: &str,
    table_mb: usize,
    memory_mb: usize,
    max_positions: u64,
    max_line: usize,
    value_only: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let (mut options, progress) = analysis_options(engine, table_mb, memory_mb, max_positions, max_line)?;
    options.value_only = value_only;
    let declared = Declared {
        scored: flag(&game, "scored")?,
        positions_repeat: flag(&game, "positions_repeat")?,
        chance: defines(&game, "chance_outcomes")?,
        turn_passes: defines(&game, "turn_passes")?,
    };
    let callbacks = Arc::new(Callbacks {
        name: game.get_type().name()?.to_string(),
        game: game.clone().unbind(),
        failure: Mutex::new(None),
        stop: progress.clone(),
        has_chance: declared.chance,
        has_turn_passes: declared.turn_passes,
    });
    let position = match position {
        Some(object) => callbacks.position(py, object)?,
        None => callbacks.position(py, game.call_method0("start")?)?,
    };
    let searching = Arc::clone(&callbacks);
    let analysis = run_stoppable(py, &progress, move || {
        python_pool()?.install(|| dispatch(searching, declared, &position, &options))
    });
    // An exception of the game's own comes first: whatever the search made of the stop it caused is moot.
    if let Some(failure) = callbacks.take_failure() {
        return Err(failure);
    }
    to_python(py, &analysis?)
}
