//! Games written in Python, solved by Ludus' engines: a subclass of `ludus.Game` gives `start`, `moves`, `play`,
//! `outcome` and `key` (and, optionally, `chance_outcomes`, `turn_passes`, `scored` and `positions_repeat`),
//! and these adapters make it a game of the framework's model (`rules.rs`), analysed by the engine of its
//! family (`analyze.rs`).
//!
//! Positions and moves stay Python objects. A position carries its key, asked for once when the position is
//! made (equal keys are the same position to the engines: the key's contract). A move carries its text
//! (`str(move)`), by which it is compared, hashed and written in reports. Every call into Python takes the GIL
//! for the call only; an exception is kept (the first one), the search is asked to stop, and the exception is
//! raised when the search has ended.

mod analyze;
mod rules;

pub use analyze::analyze_python_game;

use ludus_framework::engines::alpha_beta::ProgressHandle;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyString};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, PoisonError};

/// A position's key as the game's `key` method gives it: a whole number from 0 below 2^128, bytes, or text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PyKey {
    /// A whole number.
    Whole(u128),
    /// Bytes.
    Bytes(Vec<u8>),
    /// Text.
    Text(String),
}

impl PyKey {
    /// The key `object` stands for.
    fn of(object: &Bound<'_, PyAny>) -> PyResult<PyKey> {
        if object.is_instance_of::<PyInt>() {
            return object.extract::<u128>().map(PyKey::Whole).map_err(|_| {
                pyo3::exceptions::PyValueError::new_err("a key that is a whole number lies from 0 below 2**128")
            });
        }
        if let Ok(bytes) = object.cast::<PyBytes>() {
            return Ok(PyKey::Bytes(bytes.as_bytes().to_vec()));
        }
        if let Ok(text) = object.cast::<PyString>() {
            return Ok(PyKey::Text(text.to_cow()?.into_owned()));
        }
        Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "key() gives an int, bytes or a str, not {}",
            object.get_type().name()?
        )))
    }
}

/// A position: the Python object, and its key.
#[derive(Clone)]
pub struct PyPosition {
    key: PyKey,
    object: Arc<Py<PyAny>>,
}

impl PartialEq for PyPosition {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for PyPosition {}

impl Hash for PyPosition {
    fn hash<State: Hasher>(&self, state: &mut State) {
        self.key.hash(state);
    }
}

impl fmt::Debug for PyPosition {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "position {:?}", self.key)
    }
}

/// A move: the Python object, and its text (`str(move)`).
#[derive(Clone)]
pub struct PyMove {
    text: String,
    object: Arc<Py<PyAny>>,
}

impl PartialEq for PyMove {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for PyMove {}

impl Hash for PyMove {
    fn hash<State: Hasher>(&self, state: &mut State) {
        self.text.hash(state);
    }
}

impl fmt::Debug for PyMove {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.text)
    }
}

/// The user's game object, with what a failed call leaves: its first exception, and the stop it asks for.
pub struct Callbacks {
    game: Py<PyAny>,
    name: String,
    failure: Mutex<Option<PyErr>>,
    stop: ProgressHandle,
    /// Whether the class defines `chance_outcomes` (a game of chance).
    has_chance: bool,
    /// Whether the class defines `turn_passes` (turns that need not alternate).
    has_turn_passes: bool,
}

impl Callbacks {
    /// Keeps the first exception and asks the search to stop (it ends within a step of 65,536 positions).
    fn fail(&self, error: PyErr) {
        self.failure.lock().unwrap_or_else(PoisonError::into_inner).get_or_insert(error);
        self.stop.0.request_stop();
    }

    /// The first exception a call raised, if any.
    pub fn take_failure(&self) -> Option<PyErr> {
        self.failure.lock().unwrap_or_else(PoisonError::into_inner).take()
    }

    /// Calls `method` of the game with the objects `arguments` and reads its result with `read`; `None` (the
    /// exception kept) if either fails.
    fn call<Output>(
        &self,
        method: &str,
        arguments: &[&Py<PyAny>],
        read: impl FnOnce(&Bound<'_, PyAny>) -> PyResult<Output>,
    ) -> Option<Output> {
        Python::attach(|py| {
            let called = pyo3::types::PyTuple::new(py, arguments.iter().map(|object| object.bind(py)))
                .and_then(|arguments| self.game.bind(py).call_method1(method, arguments))
                .and_then(|result| read(&result));
            called.map_err(|error| self.fail(error)).ok()
        })
    }

    /// The position the Python object `object` is, its key asked for.
    fn position(&self, py: Python<'_>, object: Bound<'_, PyAny>) -> PyResult<PyPosition> {
        let key = PyKey::of(&self.game.bind(py).call_method1("key", (&object,))?)?;
        Ok(PyPosition { key, object: Arc::new(object.unbind()) })
    }

    /// A stand-in position for a failed call: its search is stopping, and its value is never reported.
    fn stand_in(&self, from: &PyPosition) -> PyPosition {
        from.clone()
    }
}
