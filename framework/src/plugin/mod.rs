//! The plugin interface: what a problem implements so that the `ludus` CLI can list it, solve its official
//! input format with several solvers, judge answer files, generate random inputs and cross-check solvers.
//!
//! A plugin implements the typed [`Problem`] (`problem.rs`): its input, its answer type and a table of
//! [`Solver`]s; the driver (`driver.rs`) makes every [`Problem`] a [`Plugin`], the object-safe interface the CLI
//! holds. `answers.rs` reads answer files; `options.rs` holds a plugin's own options; `workload.rs` the
//! benchmark workloads `ludus bench` times; `catalog.rs` the entries a crate registers: each name with its
//! game, its plugin and its workloads. Also here: seeded random generators and thread pools.

mod answers;
pub mod catalog;
pub mod driver;
mod options;
mod problem;
mod workload;

pub use answers::{judge_blocks, split_cases, split_lines, CaseBlock};
pub use options::PluginOptions;
pub use problem::{
    CaseList, Cases, EachCase, Layout, Limit, Parallelism, Problem, Scope, SolveCase, Solver, StartWorker, Tables,
    Worker,
};

pub use workload::{check_result, timed, Measurement, Reference, SolverRun, Work, Workload, WorkloadThreads};

use crate::error::{Error, Remedy, Result, Setting};
use crate::input::Source;
use crate::parameters::Parameter;
pub use crate::random::{seeded_rng, SeededRng};
use serde::Serialize;

/// What kind of problem a plugin solves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A two-player game solved by negamax.
    TwoPlayer,
    /// An impartial two-player game solved by Sprague-Grundy.
    Impartial,
    /// A one-player game.
    Solitaire,
    /// A constructive puzzle (construct an object or prove none exists).
    Constructive,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::TwoPlayer => "two-player game",
            Kind::Impartial => "impartial game",
            Kind::Solitaire => "solitaire",
            Kind::Constructive => "constructive puzzle",
        })
    }
}

/// A solver of a plugin: its name (`generic`, `fast`, ...) and what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SolverInfo {
    /// The name used on the command line.
    pub name: &'static str,
    /// One line on what it does and its size limit.
    pub summary: &'static str,
}

/// How to run a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// The solver's name.
    pub solver: String,
    /// Worker threads for parallel solvers (0: all cores).
    pub threads: usize,
    /// Run a size-limited solver past its limit (it may take very long).
    pub no_limit: bool,
    /// The memory budget of each search engine's table, in MiB.
    pub table_mb: usize,
    /// The memory budget of the whole solve, in MiB: the tables of all its workers must fit in it.
    pub memory_mb: usize,
    /// The plugin's own options (Connect Four's `weak`, the `witness` of the plugins that can show one),
    /// checked against those it declares ([`Plugin::options`]).
    pub plugin_options: PluginOptions,
    /// The most positions a search engine may expand for one case (`None`: no limit); past it the case is a
    /// limit error.
    pub max_positions: Option<u64>,
    /// Where the search engines that support it show their searches as they run (the CLI's progress line).
    pub progress: Option<crate::engines::alpha_beta::ProgressHandle>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            solver: "fast".to_string(),
            threads: 0,
            no_limit: false,
            table_mb: crate::table::DEFAULT_TABLE_MB,
            memory_mb: default_memory_mb(),
            plugin_options: PluginOptions::default(),
            max_positions: None,
            progress: None,
        }
    }
}

impl SolveOptions {
    /// Default options with the named solver.
    pub fn with_solver(solver: &str) -> Self {
        SolveOptions { solver: solver.to_string(), ..SolveOptions::default() }
    }
}

/// Progress of a long solve, reported case by case. Implementations must be cheap; the CLI shows a bar.
pub trait Progress: Sync {
    /// The number of steps (cases) to come.
    fn start(&self, total: u64);
    /// `steps` more are done.
    fn advance(&self, steps: u64);
    /// Engine statistics of the work done (a plugin calls it once per engine run; `ludus bench` sums them).
    fn record(&self, stats: &crate::Stats) {
        let _ = stats;
    }
    /// Whether the user asked to stop (Ctrl-C): a solve checks it between cases and ends early.
    fn cancelled(&self) -> bool {
        false
    }
}

/// Progress that shows nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn start(&self, _total: u64) {}
    fn advance(&self, _steps: u64) {}
}

/// The answer to one case.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CaseAnswer {
    /// What follows `Case #x:` in the official output, including its leading space or newline.
    pub text: String,
    /// The part solvers must agree on (the whole answer for games; POSSIBLE/IMPOSSIBLE for puzzles).
    pub class: String,
    /// The answer as structured data for `--format json`.
    pub json: serde_json::Value,
}

/// How two answers to the same case are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Comparison {
    /// Character by character: there is one right answer.
    Text,
    /// By the verifier's rules: any valid answer is right; solvers agree on the class only.
    Rule,
}

/// A plugin's bundled sample: official input and answer.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// The sample input file.
    pub input: &'static str,
    /// The published answer.
    pub answer: &'static str,
}

/// The verdict on one case of an answer file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CaseVerdict {
    /// 1-based case number.
    pub case: usize,
    /// `None` if accepted, else why the answer is wrong.
    pub problem: Option<String>,
}

/// What the corruption check ([`Plugin::corruptions`]) found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "outcome")]
pub enum Corruptions {
    /// The judge rejected every corrupted case, and only it.
    AllCaught {
        /// The corruptions tried (a case the plugin cannot corrupt is not tried).
        tried: usize,
    },
    /// The judge accepted a corrupted case or rejected an untouched one.
    Misjudged {
        /// Which corruption, what the judge said, and the corrupted answer file.
        reason: String,
    },
}

/// How big the generated instances are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// Small enough for every solver, including brute force (used by `check`).
    #[default]
    Small,
    /// The official large limits.
    Official,
}

/// Options of `ludus gen`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct GenOptions {
    /// The preset size class.
    pub preset: Preset,
    /// Number of cases (default: the preset's, capped by the official T).
    pub cases: Option<usize>,
    /// The main size parameter (N tiles, grid side, stack count...), overriding the preset's.
    pub size: Option<usize>,
}

impl GenOptions {
    /// The number of cases to generate: `--cases`, or `default`; an error unless it is from 1 to `most` (the
    /// same check and wording in every plugin).
    pub fn case_count(&self, default: usize, most: usize) -> Result<usize> {
        let cases = self.cases.unwrap_or(default);
        checked_count("the number of cases to generate", Setting::Cases, cases, most)
    }

    /// The size parameter: `--size`, if given; an error unless it is from 1 to `most`.
    pub fn checked_size(&self, most: usize) -> Result<Option<usize>> {
        self.size.map(|size| checked_count("the size", Setting::Size, size, most)).transpose()
    }
}

/// `count` if it is from 1 to `most`; else a limit error on `what`, the value of `setting`.
fn checked_count(what: &str, setting: Setting, count: usize, most: usize) -> Result<usize> {
    if count == 0 {
        return Err(Error::parameter(what, format!("{what} must be at least 1")));
    }
    if count > most {
        let got = count as u64;
        return Err(Error::Limit {
            what: what.into(),
            setting: Some(setting),
            got,
            limit: most as u64,
            remedies: vec![],
        });
    }
    Ok(count)
}

/// What a plugin is: the facts the CLI lists, and its bundled sample ([`Problem::ABOUT`]).
#[derive(Clone, Copy, Debug)]
pub struct About {
    /// The plugin's name, as typed on the command line (`bacterial-tactics`).
    pub name: &'static str,
    /// The kind of problem.
    pub kind: Kind,
    /// One line on what it answers.
    pub summary: &'static str,
    /// The bundled sample input and its published answer.
    pub sample: Sample,
    /// How answers are compared.
    pub comparison: Comparison,
}

/// A problem the `ludus` CLI can run, as an object (the registry holds `Box<dyn Plugin>`): answers are text,
/// a comparison class and JSON here. A plugin implements the typed [`Problem`] instead, and the driver makes it
/// a `Plugin` ([`driver`]); it prints nothing that its own verifier rejects.
pub trait Plugin: Send + Sync {
    /// The plugin's description (name, kind, summary, sample, comparison).
    fn about(&self) -> &'static About;

    /// The plugin's name, as typed on the command line.
    fn name(&self) -> &'static str {
        self.about().name
    }
    /// The kind of problem.
    fn kind(&self) -> Kind {
        self.about().kind
    }
    /// One line on what it answers.
    fn summary(&self) -> &'static str {
        self.about().summary
    }
    /// The solvers, the default first.
    fn solvers(&self) -> Vec<SolverInfo>;
    /// The plugin's own options ([`Problem::OPTIONS`]): name, help, kind and default of each.
    fn options(&self) -> &'static [Parameter];
    /// An error if `options` gives an option the plugin does not declare, or a value it does not take (the
    /// check every solve makes before its first case).
    fn check_options(&self, options: &SolveOptions) -> Result<()> {
        options.plugin_options.parse(self.name(), self.options()).map(drop)
    }
    /// How answer files are laid out.
    fn layout(&self) -> Layout;
    /// The bundled sample input and its published answer.
    fn sample(&self) -> Sample {
        self.about().sample
    }
    /// How answers are compared.
    fn comparison(&self) -> Comparison {
        self.about().comparison
    }

    /// Solves a whole input in the official format, one answer per case.
    fn solve(&self, input: Source<'_>, options: &SolveOptions, progress: &dyn Progress) -> Result<Vec<CaseAnswer>> {
        let mut answers = Vec::new();
        self.solve_each(input, options, progress, &mut |_, answer| {
            answers.push(answer);
            Ok(())
        })?;
        Ok(answers)
    }

    /// Solves a whole input, sending each answer to `sink` in case order as soon as it is known (the CLI
    /// prints it at once and keeps nothing); the number of cases. A cancelled solve ends with
    /// [`Error::Cancelled`] after the answers already found went out.
    fn solve_each(
        &self,
        input: Source<'_>,
        options: &SolveOptions,
        progress: &dyn Progress,
        sink: driver::Sink<'_, CaseAnswer>,
    ) -> Result<usize>;

    /// Parses an input without solving it: the number of cases it holds, or the error a solve would give
    /// before its first case (malformed input, or a solver's limit: `options` names the solver).
    fn parse(&self, input: Source<'_>, options: &SolveOptions) -> Result<usize>;

    /// Judges an answer file against an input, case by case, by the rules (`ludus verify`). `Err` only for a
    /// malformed input; a malformed or wrong answer is a rejected case.
    fn judge(&self, input: Source<'_>, output: Source<'_>) -> Result<Vec<CaseVerdict>>;

    /// A random input in the official format.
    fn generate(&self, options: &GenOptions, seed: u64) -> Result<String>;

    /// The official output for these answers, laid out as [`Plugin::layout`] says.
    fn render(&self, answers: &[CaseAnswer]) -> String {
        driver::render_texts(self.layout(), answers.iter().map(|answer| answer.text.as_str()))
    }

    /// Solves `input` with `options`, corrupts each answer in turn and checks that the judge rejects the
    /// corrupted case and only it: the number of corruptions tried, or the first one misjudged.
    fn corruptions(&self, input: &str, options: &SolveOptions, seed: u64) -> Result<Corruptions>;

    /// The named solver's entry, or an [`Error::UnknownSolver`] listing the available ones.
    fn solver(&self, name: &str) -> Result<SolverInfo>;
}

pub use crate::table::default_memory_mb;

/// The most threads a solve may ask for (`--threads`): far more than cores only costs memory and time.
pub const MAX_THREADS: usize = 256;

/// The number of worker threads meant by `threads` (0: all cores), at most [`MAX_THREADS`].
pub fn thread_count(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS)
    } else {
        threads.min(MAX_THREADS)
    }
}

/// `Err` naming `--threads` if `threads` is above [`MAX_THREADS`].
pub fn check_threads(threads: usize) -> Result<()> {
    let (asked, most) = (threads as u64, MAX_THREADS as u64);
    match asked <= most {
        true => Ok(()),
        false => Err(Error::Limit {
            what: "the number of threads".into(),
            setting: Some(Setting::Threads),
            got: asked,
            limit: most,
            remedies: vec![Remedy::Advice("0: one per core".into())],
        }),
    }
}

/// Runs `work` in a rayon pool of `threads` threads (0: all cores; at most [`MAX_THREADS`], else an error).
pub fn with_threads<Output: Send>(threads: usize, work: impl FnOnce() -> Output + Send) -> Result<Output> {
    check_threads(threads)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(thread_count(threads))
        .build()
        .map_err(|error| Error::Threads { threads, cause: format!("cannot start them: {error}") })?;
    Ok(pool.install(work))
}
