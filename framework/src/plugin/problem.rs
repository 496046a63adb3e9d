//! The typed side of a plugin: a [`Problem`] names its parsed input, its answer type and its table of
//! [`Solver`]s, and the framework's driver ([`super::driver`]) does the rest the same way for every plugin: the
//! size limits, the dispatch to a solver, the self-check of every answer, progress, statistics, the run over
//! cases on several threads, judging answer files, and the corruption check.
//!
//! Every type that implements [`Problem`] is a [`super::Plugin`] (the object-safe interface the `ludus` CLI
//! holds): answers stay typed until the CLI turns them into text or JSON.

use super::{About, CaseBlock, GenOptions, SeededRng, SolveOptions};
use crate::error::Result;
use crate::input::Source;
use crate::parameters::Parameter;
use crate::puzzle::Violation;
use crate::stats::Stats;
use serde::Serialize;
use std::fmt::Display;

/// A parsed input as the driver sees it: a number of cases, each perhaps with the line it starts on.
pub trait CaseList {
    /// The number of cases.
    fn case_count(&self) -> usize;

    /// The 1-based line where case `case` (0-based) starts, for the places in error messages.
    fn case_line(&self, case: usize) -> Option<usize> {
        let _ = case;
        None
    }
}

/// The usual parsed input: the cases in order and the line each starts on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cases<Case> {
    /// The cases, in order.
    pub cases: Vec<Case>,
    /// The 1-based line where each case starts (`lines[i]` is that of `cases[i]`).
    pub lines: Vec<usize>,
}

impl<Case> CaseList for Cases<Case> {
    fn case_count(&self) -> usize {
        self.cases.len()
    }

    fn case_line(&self, case: usize) -> Option<usize> {
        self.lines.get(case).copied()
    }
}

/// How an answer file is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// `Case #x:` followed by the answer (on the same line or the next ones), as in contest outputs.
    #[default]
    Cases,
    /// One answer per line, in the order of the input's cases, with no header (Connect Four's test sets).
    Lines,
}

/// How a solver uses `--threads`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Parallelism {
    /// Each thread solves whole cases: the driver runs `--threads` workers at once, each with its own state.
    Cases,
    /// The solver's engine uses the threads inside one case: the driver gives it the cases one at a time.
    WithinCase,
    /// One worker solves the cases in order on one thread (its table serves every case of the input).
    Sequential,
}

/// Which tables of `--table-mb` a solver's workers keep: what the driver checks against `--memory-mb`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tables {
    /// None: the solver's memory is its input's and its answers'.
    None,
    /// One table that every worker shares.
    Shared,
    /// One table per worker.
    PerWorker,
}

/// What a [`Limit`] bounds: each case, or the whole input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// Each case's measure is at most the limit.
    Case,
    /// The measures of all the cases add up to at most the limit (a file of many cases each within the case
    /// limit can still cost too much).
    Input,
}

/// A solver's cost model: a measure of a case (its size, or an estimate of the work it takes) and the most the
/// solver takes without `--no-limit`, past which its time or memory would grow past reason. The driver checks
/// every limit on every case before it solves any, and refuses with the measure, the limit and the flag.
pub struct Limit<P: Problem> {
    /// Per case, or added up over the input.
    pub scope: Scope,
    /// What is measured, in words, plural ("empty cells", "cells", "work units (cells x (R + C))").
    pub unit: &'static str,
    /// The largest measure the solver takes.
    pub max: u64,
    /// The measure of case `case` (0-based) of an input.
    pub measure: fn(&P::Input, usize) -> u64,
}

/// One named solver of a plugin (`fast`, `generic`, ...): an entry of [`Problem::SOLVERS`].
pub struct Solver<P: Problem> {
    /// The name typed after `--solver`.
    pub name: &'static str,
    /// One line on what it does.
    pub summary: &'static str,
    /// Its cost model: the limits it states (none for a solver whose every case is cheap).
    pub limits: &'static [Limit<P>],
    /// How it uses threads.
    pub parallelism: Parallelism,
    /// The tables its workers keep.
    pub tables: Tables,
    /// Starts a worker for these options (engines and tables are allocated here, once per worker).
    pub start: StartWorker<P>,
}

impl<P: Problem> Solver<P> {
    /// Its name and summary, as the object interface lists them.
    pub fn info(&self) -> super::SolverInfo {
        super::SolverInfo { name: self.name, summary: self.summary }
    }
}

/// A solver at work on the cases of one input, one case at a time; it keeps its engines and tables from case to
/// case.
pub trait Worker<P: Problem>: Send {
    /// The answer to case `case` (0-based) of `input`. A budget that runs out is an [`crate::Error::Budget`].
    fn solve(&mut self, problem: &P, input: &P::Input, case: usize) -> Result<P::Answer>;

    /// The statistics of the engines' work so far.
    fn stats(&self) -> Stats {
        Stats::default()
    }
}

/// How a solver starts a worker for given options.
pub type StartWorker<P> = fn(&P, &SolveOptions) -> Result<Box<dyn Worker<P>>>;

/// The signature of a solver that keeps nothing between cases.
pub type SolveCase<P> = fn(&P, &<P as Problem>::Input, usize, &SolveOptions) -> Result<<P as Problem>::Answer>;

/// A [`Worker`] that keeps nothing between cases: it calls a function per case.
pub struct EachCase<P: Problem> {
    solve: SolveCase<P>,
    options: SolveOptions,
}

impl<P: Problem> EachCase<P> {
    /// A worker calling `solve` for every case, for [`Solver::start`]:
    /// `start: |_, options| EachCase::start(options, solve_fast)`.
    pub fn start(options: &SolveOptions, solve: SolveCase<P>) -> Result<Box<dyn Worker<P>>> {
        Ok(Box::new(EachCase { solve, options: options.clone() }))
    }
}

impl<P: Problem> Worker<P> for EachCase<P> {
    fn solve(&mut self, problem: &P, input: &P::Input, case: usize) -> Result<P::Answer> {
        (self.solve)(problem, input, case, &self.options)
    }
}

/// A problem with an official input format, typed answers and named solvers: everything the `ludus` CLI runs.
///
/// Required: the associated types and constants, and the methods without a body; the rest is provided. The
/// contract that makes the driver's checks meaningful: every answer a solver returns passes
/// [`Problem::verify_answer`], and [`Problem::judge_answer`] accepts exactly the right answers.
pub trait Problem: Send + Sync + Sized + 'static {
    /// A parsed input file: its cases and whatever they share ([`Cases`] when that is all).
    type Input: CaseList + Send + Sync;
    /// The answer to one case. `Display` writes it as the official output does after `Case #x:` (with its
    /// leading space or line break), or as the whole line under [`Layout::Lines`]; `Serialize` gives the JSON
    /// of `--format json`.
    type Answer: Display + Serialize + Send;
    /// What the judge keeps from case to case (for example an engine and its table); `()` if nothing.
    type Referee;

    /// Name, kind, summary, bundled sample and comparison.
    const ABOUT: &'static About;
    /// The solvers, the default (`fast`) first, and at least `generic` besides.
    const SOLVERS: &'static [Solver<Self>];
    /// How an answer file is laid out.
    const LAYOUT: Layout = Layout::Cases;
    /// The plugin's own options (`ludus solve PLUGIN --option NAME[=VALUE]`), none by default; a solver reads
    /// their values with [`super::driver::option_arguments`].
    const OPTIONS: &'static [Parameter] = &[];

    /// Parses a whole input in the official format; errors name the file, line and column.
    fn parse_input(&self, input: Source<'_>) -> Result<Self::Input>;

    /// The plugin's own check of a freshly solved answer: the driver runs it on every answer before it is
    /// returned, and a rejection is an [`crate::Error::SelfCheck`] (a solver bug), never output.
    fn verify_answer(&self, input: &Self::Input, case: usize, answer: &Self::Answer) -> Result<(), Violation>;

    /// Reads the answer to case `case` from its block of an answer file; `Err` says what is malformed.
    fn read_answer(&self, input: &Self::Input, case: usize, block: &CaseBlock<'_>) -> Result<Self::Answer, Violation>;

    /// A fresh referee for judging one answer file.
    fn referee(&self) -> Result<Self::Referee>;

    /// Judges an answer read from a file: `Ok` exactly when it is a right answer to case `case`.
    fn judge_answer(
        &self,
        referee: &mut Self::Referee,
        input: &Self::Input,
        case: usize,
        answer: &Self::Answer,
    ) -> Result<(), Violation>;

    /// The part of an answer that every solver must agree on. Default: the whole answer's text, trimmed (one right
    /// answer per case); constructive puzzles return their class (`POSSIBLE` or `IMPOSSIBLE`).
    fn class_of(&self, answer: &Self::Answer) -> String {
        answer.to_string().trim().to_string()
    }

    /// A wrong variant of a right answer (tests check that the judge rejects it), or `None` if this answer has
    /// no simple wrong variant.
    fn corrupt_answer(
        &self,
        input: &Self::Input,
        case: usize,
        answer: &Self::Answer,
        rng: &mut SeededRng,
    ) -> Option<Self::Answer>;

    /// A random input in the official format.
    fn generate_input(&self, options: &GenOptions, seed: u64) -> Result<String>;
}
