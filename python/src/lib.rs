//! `ludus._ludus`, the extension module under the `ludus` Python package (`python/ludus/__init__.py` wraps it in
//! typed classes): every built-in game by its spec, its positions, its analysis with the engines' budgets as
//! keyword arguments, and the contest plugins. Reports are the CLI's own structs (`ludus::reports`, the
//! framework's `Analysis`), turned into Python objects at this boundary; errors are exceptions of one class per
//! kind (`errors.rs`). Searches release the GIL, and Ctrl-C stops them.

mod convert;
mod database;
mod errors;
mod game;
mod plugins;
mod python_game;

use game::PyGame;
use ludus_framework::playable::Registration;
use pyo3::prelude::*;

/// The registrations of every built-in game.
fn registrations() -> Vec<Registration> {
    plugins::catalog().filter_map(|entry| entry.game).collect()
}

/// Every built-in game, as `ludus games --format json` lists it: name, summary, capabilities, parameters.
#[pyfunction]
fn games(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let listings: Vec<_> = registrations().iter().map(ludus::reports::GameListing::of).collect();
    convert::to_python(py, &listings)
}

/// The game of `spec` (`connect-four:width=5,height=4`; a name alone takes every default).
#[pyfunction]
fn load_game(spec: &str) -> PyResult<PyGame> {
    PyGame::load(&registrations(), spec)
}

/// The database of the game of `spec` in `directory` (solved or not).
#[pyfunction]
fn open_database(spec: &str, directory: std::path::PathBuf) -> PyResult<database::PyDatabase> {
    database::PyDatabase::open(&registrations(), spec, directory)
}

/// The memory budget of a whole analysis or solve when none is given, in MiB: half the machine's memory.
#[pyfunction]
fn default_memory_mb() -> usize {
    ludus_framework::table::default_memory_mb()
}

/// The module.
#[pymodule]
fn _ludus(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add("DEFAULT_TABLE_MB", ludus_framework::table::DEFAULT_TABLE_MB)?;
    module.add("GUESS_POSITIONS", ludus_framework::engines::scored::GUESS_POSITIONS)?;
    module.add_class::<PyGame>()?;
    module.add_class::<database::PyDatabase>()?;
    module.add_function(wrap_pyfunction!(open_database, module)?)?;
    module.add_function(wrap_pyfunction!(default_memory_mb, module)?)?;
    module.add_function(wrap_pyfunction!(games, module)?)?;
    module.add_function(wrap_pyfunction!(load_game, module)?)?;
    module.add_function(wrap_pyfunction!(plugins::plugins, module)?)?;
    module.add_function(wrap_pyfunction!(python_game::analyze_python_game, module)?)?;
    module.add_function(wrap_pyfunction!(plugins::solve, module)?)?;
    errors::register(module)
}
