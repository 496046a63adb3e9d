//! The benchmark workloads of `ludus bench`, which the game and puzzle crates register next to their plugins
//! (hung off their catalog entries, [`super::catalog::Entry`]), so that the CLI runs them knowing no game: each [`Workload`] has a name, what
//! it runs ([`Work`]: engines timed in process, or solvers of a plugin on a bundled input), the result it
//! asserts, and its reference figures. Every workload checks the result it times: a wrong one is an error.

use crate::error::{Error, Result};
use crate::stats::Stats;
use std::time::Instant;

/// A benchmark workload: a row of `ludus bench` per engine or solver it times.
#[derive(Clone, Debug)]
pub struct Workload {
    /// Its name, printed in every row and matched by `--filter` (`connect-four end-easy (1000 positions)`).
    pub name: String,
    /// The group it belongs to, which `--filter` matches too (`classic`, `connect-four sets`).
    pub group: &'static str,
    /// What it runs and asserts.
    pub work: Work,
}

impl Workload {
    /// Whether `--filter` text `filter` selects it: a part of its name or of its group.
    pub fn matches(&self, filter: &str) -> bool {
        self.name.contains(filter) || self.group.contains(filter)
    }
}

/// What a workload runs, and the result it asserts.
#[derive(Clone, Debug)]
pub enum Work {
    /// Engines timed in this process on a game, given `--threads` (0: all cores): one measurement per engine,
    /// each after asserting the value the engine found (an [`Error::Internal`] if it is wrong, see
    /// [`check_result`]).
    Engines(fn(usize) -> Result<Vec<Measurement>>),
    /// Solvers of a plugin on an input whose answers are known, each case run whole (no size limit): every
    /// answer must equal its line of `expected`; the note gives the time and positions per case beside the
    /// reference figure.
    Answers {
        /// The plugin's name.
        plugin: &'static str,
        /// The input, in the plugin's official format.
        input: String,
        /// The answer to each case, as the plugin writes it.
        expected: Vec<String>,
        /// The solvers timed, in order.
        runs: Vec<SolverRun>,
        /// What another solver needs on this input, if published.
        reference: Option<Reference>,
    },
    /// Every solver of a plugin on an input, timed beside the plugin's generated inputs: the solvers must agree
    /// on every case's class; a solver past its size limit is skipped.
    Solvers {
        /// The plugin's name.
        plugin: &'static str,
        /// The input, in the plugin's official format.
        input: String,
    },
}

impl Work {
    /// The plugin whose solvers it runs, if it runs a plugin's.
    pub fn plugin(&self) -> Option<&'static str> {
        match self {
            Work::Engines(_) => None,
            Work::Answers { plugin, .. } | Work::Solvers { plugin, .. } => Some(plugin),
        }
    }
}

/// One solver timed by a [`Work::Answers`] workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverRun {
    /// The solver's name.
    pub solver: &'static str,
    /// The threads it is given.
    pub threads: WorkloadThreads,
}

/// The threads a solver is given in a workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkloadThreads {
    /// One thread: the row is named after the solver alone.
    One,
    /// `--threads`: the row is named after the solver and the thread count (`parallel 2t`).
    Chosen,
}

/// A published figure to compare a workload's positions per case with: `Pons: 51 nodes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reference {
    /// Whose figure it is (`Pons`).
    pub source: &'static str,
    /// The mean per case.
    pub mean: u64,
    /// What is counted (`nodes`).
    pub unit: &'static str,
}

impl std::fmt::Display for Reference {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "{}: {} {}", self.source, self.mean, self.unit)
    }
}

/// One engine's run in a [`Work::Engines`] workload.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// The engine (`memo negamax`, `parallel negamax 2t`).
    pub engine: String,
    /// The time of the run, in seconds.
    pub seconds: f64,
    /// The engine's statistics after the run.
    pub stats: Stats,
    /// What was asserted (`draw`, `period 12 from 71`).
    pub note: String,
}

impl Measurement {
    /// The measurement of `engine`, run for `seconds`, with its `stats` and a `note`.
    pub fn new(engine: impl Into<String>, seconds: f64, stats: Stats, note: impl Into<String>) -> Self {
        Measurement { engine: engine.into(), seconds, stats, note: note.into() }
    }
}

/// Runs `work`: its result and the seconds it took.
pub fn timed<Output>(work: impl FnOnce() -> Output) -> (Output, f64) {
    let started = Instant::now();
    let result = work();
    (result, started.elapsed().as_secs_f64())
}

/// `Ok` if a benchmark's result is right (`condition`), else an error naming `what` it should have been: an
/// engine that gives a wrong value is a bug.
pub fn check_result(condition: bool, what: &str) -> Result<()> {
    match condition {
        true => Ok(()),
        false => Err(Error::internal("plugin", format!("benchmark self-check failed: {what}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filter_matches_the_name_or_the_group() {
        let workload =
            Workload { name: "Kayles nimbers".to_string(), group: "classic", work: Work::Engines(|_| Ok(Vec::new())) };
        assert!(workload.matches("Kayles") && workload.matches("classic") && !workload.matches("connect-four"));
        assert_eq!(Reference { source: "Pons", mean: 51, unit: "nodes" }.to_string(), "Pons: 51 nodes");
        assert!(check_result(true, "x").is_ok());
        assert!(check_result(false, "a draw").unwrap_err().to_string().contains("self-check failed: a draw"));
    }
}
