//! The contest plugins from Python: `_ludus.plugins()` lists them (as `ludus list --format json`), and
//! `_ludus.solve(plugin, text, ...)` solves an input in the plugin's official format with any of its solvers,
//! each case's answer as its official text and as the typed answer of `ludus solve --format json`.

use crate::convert::{to_python, value_to_python};
use crate::errors;
use crate::game::run_stoppable;
use ludus_framework::engines::alpha_beta::ProgressHandle;
use ludus_framework::input::Source;
use ludus_framework::plugin::catalog::Entry;
use ludus_framework::plugin::{CaseAnswer, Plugin, PluginOptions, Progress, SolveOptions};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// Every entry of the built-in catalogs.
pub fn catalog() -> impl Iterator<Item = &'static Entry> {
    ludus_games::CATALOG.iter().chain(ludus_puzzles::CATALOG)
}

/// The plugin named `name`.
fn plugin(name: &str) -> PyResult<Box<dyn Plugin>> {
    catalog().find(|entry| entry.name == name).and_then(Entry::make_plugin).ok_or_else(|| {
        let names: Vec<&str> = catalog().filter(|entry| entry.plugin.is_some()).map(|entry| entry.name).collect();
        errors::ParameterError::new_err(format!("no plugin `{name}` (available: {})", names.join(", ")))
    })
}

/// A solve's progress as the Python caller sees it: nothing shown, and a stop asked for on Ctrl-C.
struct Stoppable(ProgressHandle);

impl Progress for Stoppable {
    fn start(&self, _total: u64) {}
    fn advance(&self, _steps: u64) {}
    fn cancelled(&self) -> bool {
        self.0 .0.stop_requested()
    }
}

/// Every plugin, as `ludus list --format json` lists it.
#[pyfunction]
pub fn plugins(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let listings: Vec<_> = catalog()
        .filter_map(Entry::make_plugin)
        .map(|plugin| ludus::reports::PluginListing::of(plugin.as_ref()))
        .collect();
    to_python(py, &listings)
}

/// Solves `text`, an input in the official format of `plugin`: a list of dicts, one a case, each with the case's
/// number, its official text (`Case #x:` and this), the class solvers agree on, and the typed answer.
#[pyfunction]
#[pyo3(signature = (plugin_name, text, solver, threads, options, table_mb, memory_mb, max_positions, no_limit))]
#[allow(clippy::too_many_arguments)]
pub fn solve<'py>(
    py: Python<'py>,
    plugin_name: &str,
    text: String,
    solver: String,
    threads: usize,
    options: Vec<String>,
    table_mb: usize,
    memory_mb: usize,
    max_positions: Option<u64>,
    no_limit: bool,
) -> PyResult<Bound<'py, PyList>> {
    let chosen = plugin(plugin_name)?;
    let progress = ProgressHandle::default();
    let solve_options = SolveOptions {
        solver,
        threads,
        no_limit,
        table_mb,
        memory_mb,
        plugin_options: PluginOptions::new(options),
        max_positions,
        progress: Some(progress.clone()),
    };
    let stoppable = Stoppable(progress.clone());
    let answers: Vec<CaseAnswer> =
        run_stoppable(py, &progress, move || chosen.solve(Source::new("input", &text), &solve_options, &stoppable))?;
    let list = PyList::empty(py);
    for (index, answer) in answers.iter().enumerate() {
        let case = PyDict::new(py);
        case.set_item("case", index + 1)?;
        case.set_item("text", answer.text.trim())?;
        case.set_item("class", &answer.class)?;
        case.set_item("answer", value_to_python(py, &answer.json)?)?;
        list.append(case)?;
    }
    Ok(list)
}
