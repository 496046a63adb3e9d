//! `_ludus.Database`: a game's solved database in a directory, read from Python (`query`, `summary`, `check`,
//! and `values_of_keys`, a batch of lookups by key whose keys and values cross as packed little-endian bytes,
//! so that numpy arrays go in and out without a Python loop), and `solve`, which writes it. A solve reports
//! each tier to a Python callable as it ends.

use crate::convert::to_python;
use crate::errors;
use crate::game::run_stoppable;
use ludus_framework::database::{SolveBudget, TierReport};
use ludus_framework::engines::alpha_beta::ProgressHandle;
use ludus_framework::playable::{DatabaseGame, Registration, StoredValue};
use ludus_framework::plugin::with_threads;
use ludus_framework::{Error, Value};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

/// Bytes of one key as it crosses: a `u128`, little-endian.
const KEY_BYTES: usize = 16;

/// The code of "no record" in the outcomes that `values_of_keys` gives.
const NO_RECORD: i8 = -2;

/// A game's database in a directory.
#[pyclass(module = "ludus._ludus", name = "Database", frozen)]
pub struct PyDatabase {
    game: Arc<dyn DatabaseGame>,
    directory: PathBuf,
}

impl PyDatabase {
    /// The database of the game of `spec` among `registrations` in `directory`: an `UnsupportedOperation` for a
    /// game without one.
    pub fn open(registrations: &[Registration], spec: &str, directory: PathBuf) -> PyResult<PyDatabase> {
        let registration = *ludus_framework::playable::find_registration(registrations, spec)
            .map_err(|error| errors::to_python(&error))?;
        let made = registration.make(spec).map_err(|error| errors::to_python(&error))?;
        let name = made.playable.name();
        let game = made.database.ok_or_else(|| {
            errors::to_python(&Error::Unsupported {
                game: name,
                operation: "a database".into(),
                reason: "its registration gives none (a game of chance, an impartial game, or one without tiers \
                         and keys a position is rebuilt from)"
                    .into(),
            })
        })?;
        Ok(PyDatabase { game: Arc::from(game), directory })
    }
}

/// A tier's report as the callback gets it.
fn tier_dict<'py>(py: Python<'py>, tier: &TierReport) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("tier", &tier.tier)?;
    dict.set_item("positions", tier.positions)?;
    dict.set_item("bytes", tier.bytes)?;
    dict.set_item("seconds", tier.elapsed.as_secs_f64())?;
    dict.set_item("resumed", tier.resumed)?;
    dict.set_item("damaged", tier.damaged.as_deref())?;
    Ok(dict)
}

#[pymethods]
impl PyDatabase {
    /// The game's canonical name.
    #[getter]
    fn name(&self) -> String {
        self.game.name()
    }

    /// The directory.
    #[getter]
    fn directory(&self) -> PathBuf {
        self.directory.clone()
    }

    /// `tiered` or `whole-game`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.game.kind() {
            ludus_framework::playable::DatabaseKind::Tiered => "tiered",
            ludus_framework::playable::DatabaseKind::WholeGame => "whole-game",
        }
    }

    /// The analysis of a position read from the database: the report of `ludus db query --format json`.
    #[pyo3(signature = (position, moves, max_line))]
    fn query<'py>(
        &self,
        py: Python<'py>,
        position: Option<String>,
        moves: Vec<String>,
        max_line: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (game, directory) = (Arc::clone(&self.game), self.directory.clone());
        let moves: Vec<String> = moves;
        let analysis = py.detach(move || {
            let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
            game.query_after(&directory, position.as_deref(), &moves, max_line)
        });
        to_python(py, &analysis.map_err(|error| errors::to_python(&error))?)
    }

    /// What the database holds: the report of `ludus db analyze --format json`.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (game, directory) = (Arc::clone(&self.game), self.directory.clone());
        let summary = py.detach(move || game.summary(&directory));
        to_python(py, &summary.map_err(|error| errors::to_python(&error))?)
    }

    /// Re-derives every record from its children's records within `memory_mb` MiB: the report of `ludus db
    /// check --format json`.
    #[pyo3(signature = (threads, memory_mb))]
    fn check<'py>(&self, py: Python<'py>, threads: usize, memory_mb: usize) -> PyResult<Bound<'py, PyAny>> {
        let (game, directory) = (Arc::clone(&self.game), self.directory.clone());
        let check = move || game.check(&directory, memory_mb, &mut |_, _, _| {});
        let report = py.detach(move || with_threads(threads, check));
        let report = report.and_then(|report| report).map_err(|error| errors::to_python(&error))?;
        to_python(py, &report)
    }

    /// The stored values of a batch of keys, each 16 bytes (a `u128`, little-endian): `(outcomes, details)`,
    /// one `i8` and one `i32` a key, little-endian. An outcome is 1 won, 0 drawn, -1 lost for the player to move,
    /// -2 no record; the detail is the remoteness of a win/loss game (-1 for a draw) or the score of a scored
    /// game.
    fn values_of_keys<'py>(
        &self,
        py: Python<'py>,
        keys: &[u8],
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        if !keys.len().is_multiple_of(KEY_BYTES) {
            return Err(errors::ParseError::new_err(format!(
                "the keys are {} bytes, not a whole number of {KEY_BYTES}-byte keys",
                keys.len()
            )));
        }
        let wide: Vec<u128> = keys
            .chunks_exact(KEY_BYTES)
            .map(|chunk| {
                let mut bytes = [0u8; KEY_BYTES];
                bytes.copy_from_slice(chunk);
                u128::from_le_bytes(bytes)
            })
            .collect();
        let (game, directory) = (Arc::clone(&self.game), self.directory.clone());
        let values =
            py.detach(move || game.values_of_keys(&directory, &wide)).map_err(|error| errors::to_python(&error))?;
        let mut outcomes = Vec::with_capacity(values.len());
        let mut details = Vec::with_capacity(values.len() * 4);
        for value in values {
            let (outcome, detail) = match value {
                None => (NO_RECORD, 0),
                Some(StoredValue::Outcome(Value::Win(remoteness))) => {
                    (1, i32::try_from(remoteness).unwrap_or(i32::MAX))
                }
                Some(StoredValue::Outcome(Value::Lose(remoteness))) => {
                    (-1, i32::try_from(remoteness).unwrap_or(i32::MAX))
                }
                Some(StoredValue::Outcome(Value::Draw)) => (0, -1),
                Some(StoredValue::Score(score)) => (score.signum() as i8, score),
            };
            outcomes.push(outcome as u8);
            details.extend_from_slice(&detail.to_le_bytes());
        }
        Ok((PyBytes::new(py, &outcomes), PyBytes::new(py, &details)))
    }

    /// Solves every position reachable from the start into the directory, resuming from the tiers already
    /// there; `progress`, if given, is called with each tier's report (a dict) as it ends.
    #[pyo3(signature = (threads, memory_mb, max_positions, progress))]
    fn solve(
        &self,
        py: Python<'_>,
        threads: usize,
        memory_mb: usize,
        max_positions: u64,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<()> {
        let (game, directory) = (Arc::clone(&self.game), self.directory.clone());
        solve_reporting(py, threads, progress, move |stop, report| {
            let budget = SolveBudget { memory_mb, max_positions, stop: Some(stop) };
            game.solve(&directory, budget, report)
        })
    }
}

/// Runs a solve on `threads` threads (0: one a core) on a thread of its own ([`run_stoppable`]), `solve`
/// given the handle through which Ctrl-C asks it to stop after the tier it is writing (a later solve resumes
/// from the tiers), and the report of each tier, passed to `progress` as a dict. The callback's first
/// exception is kept and raised when the solve ends.
pub fn solve_reporting(
    py: Python<'_>,
    threads: usize,
    progress: Option<Py<PyAny>>,
    solve: impl FnOnce(ProgressHandle, &mut dyn FnMut(&TierReport)) -> Result<(), Error> + Send + 'static,
) -> PyResult<()> {
    let stop = ProgressHandle::default();
    let raised: Arc<Mutex<Option<PyErr>>> = Arc::new(Mutex::new(None));
    let kept = Arc::clone(&raised);
    let handle = stop.clone();
    run_stoppable(py, &stop, move || {
        let mut report = |tier: &TierReport| {
            let Some(callback) = &progress else { return };
            Python::attach(|py| {
                let called = tier_dict(py, tier).and_then(|dict| callback.call1(py, (dict,)));
                if let Err(error) = called {
                    kept.lock().unwrap_or_else(PoisonError::into_inner).get_or_insert(error);
                }
            });
        };
        with_threads(threads, || solve(handle, &mut report))?
    })?;
    let first = raised.lock().unwrap_or_else(PoisonError::into_inner).take();
    first.map_or(Ok(()), Err)
}
