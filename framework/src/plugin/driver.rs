//! The one case driver every plugin runs on: from a [`Problem`] it derives the whole [`Plugin`] interface.
//!
//! Solving an input: the solver is looked up by name (an unknown one is an error listing the others); every
//! case is checked against the solver's [`super::Limit`] before any is solved; the cases are solved in order by one
//! worker, or by `--threads` workers at once for a solver that works case by case ([`Parallelism::Cases`]);
//! each answer passes the plugin's own verifier before it is returned; progress advances per case and each
//! worker's statistics are recorded once. An error in a case names the case's place.
//!
//! Invariant: answers come back in the order of the input's cases, whatever the number of threads.

use super::answers::judge_blocks;
use super::problem::{Layout, Parallelism, Problem, Solver, Worker};
use super::{thread_count, CaseAnswer, CaseVerdict, GenOptions, Plugin, Progress, SolveOptions, SolverInfo};
use crate::error::{Error, Result};
use crate::input::Source;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The solver of `problem` named `name`, or [`Error::UnknownSolver`] listing the available ones.
pub fn find_solver<P: Problem>(name: &str) -> Result<&'static Solver<P>> {
    P::SOLVERS.iter().find(|solver| solver.name == name).ok_or_else(|| Error::UnknownSolver {
        plugin: P::ABOUT.name.to_string(),
        solver: name.to_string(),
        available: P::SOLVERS.iter().map(|solver| solver.name).collect::<Vec<_>>().join(", "),
    })
}

/// Where case `case` (0-based) of a parsed input is, for error messages: `file:line: case N` or `case N`.
fn place<P: Problem>(problem: &P, name: &str, input: &P::Input, case: usize) -> String {
    match problem.case_line(input, case) {
        Some(line) => format!("{name}:{line}: case {}", case + 1),
        None => format!("case {}", case + 1),
    }
}

/// Refuses the first case past the solver's size limit (unless `no_limit`).
fn check_limits<P: Problem>(
    problem: &P,
    solver: &Solver<P>,
    name: &str,
    input: &P::Input,
    options: &SolveOptions,
) -> Result<()> {
    let Some(limit) = &solver.limit else { return Ok(()) };
    if options.no_limit {
        return Ok(());
    }
    for case in 0..problem.case_count(input) {
        let size = (limit.measure)(input, case);
        if size > limit.max {
            return Err(Error::Limit {
                what: format!("{}: the {} for solver `{}`", place(problem, name, input, case), limit.unit, solver.name),
                got: size,
                limit: limit.max,
                hint: " (pass --no-limit to run it anyway, or choose another solver with --solver)".to_string(),
            });
        }
    }
    Ok(())
}

/// The answers one worker found, with their case numbers.
type Solved<P> = Vec<(usize, <P as Problem>::Answer)>;

/// Solves a whole input with the solver `options.solver`: typed answers, in case order, each verified.
pub fn solve_input<P: Problem>(
    problem: &P,
    input: Source<'_>,
    options: &SolveOptions,
    progress: &dyn Progress,
) -> Result<Vec<P::Answer>> {
    let solver = find_solver::<P>(&options.solver)?;
    super::check_threads(options.threads)?;
    let parsed = problem.parse_input(input)?;
    check_limits(problem, solver, input.name, &parsed, options)?;
    let count = problem.case_count(&parsed);
    progress.start(count as u64);
    let solve_one = |worker: &mut dyn Worker<P>, case: usize| -> Result<P::Answer> {
        let answer = worker.solve(problem, &parsed, case).map_err(|error| match error {
            Error::SelfCheck { reason, .. } => Error::SelfCheck { case: case + 1, reason },
            error @ (Error::Input(_) | Error::InCase { .. }) => error,
            error => Error::InCase { place: place(problem, input.name, &parsed, case), source: Box::new(error) },
        })?;
        problem
            .verify_answer(&parsed, case, &answer)
            .map_err(|violation| Error::SelfCheck { case: case + 1, reason: violation.reason })?;
        progress.advance(1);
        Ok(answer)
    };
    let workers = match solver.parallelism {
        Parallelism::Cases => thread_count(options.threads).min(count),
        Parallelism::WithinCase | Parallelism::Sequential => 1,
    };
    if workers <= 1 {
        let mut worker = (solver.start)(problem, options)?;
        let mut answers = Vec::with_capacity(count.min(1 << 16));
        let outcome =
            (0..count).try_for_each(|case| solve_one(worker.as_mut(), case).map(|answer| answers.push(answer)));
        progress.record(&worker.stats());
        return outcome.map(|()| answers);
    }
    // Workers pull the next case from a shared counter; the first failure stops the others, and the failure of
    // the earliest case is the one reported (the same one a single thread would report).
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let run = || -> std::result::Result<Solved<P>, (usize, Error)> {
        let mut worker = (solver.start)(problem, options).map_err(|error| (0, error))?;
        let mut done = Vec::new();
        let outcome = loop {
            let case = next.fetch_add(1, Ordering::Relaxed);
            if case >= count || failed.load(Ordering::Relaxed) {
                break Ok(());
            }
            match solve_one(worker.as_mut(), case) {
                Ok(answer) => done.push((case, answer)),
                Err(error) => {
                    failed.store(true, Ordering::Relaxed);
                    break Err((case, error));
                }
            }
        };
        progress.record(&worker.stats());
        outcome.map(|()| done)
    };
    let results: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers).map(|_| scope.spawn(run)).collect();
        handles
            .into_iter()
            .map(|handle| {
                handle.join().unwrap_or_else(|_| Err((0, Error::Unsupported("a solver thread panicked".to_string()))))
            })
            .collect()
    });
    let mut slots: Vec<Option<P::Answer>> = (0..count).map(|_| None).collect();
    let mut first_failure: Option<(usize, Error)> = None;
    for result in results {
        match result {
            Ok(done) => {
                for (case, answer) in done {
                    slots[case] = Some(answer);
                }
            }
            Err((case, error)) => {
                if first_failure.as_ref().is_none_or(|(earliest, _)| case < *earliest) {
                    first_failure = Some((case, error));
                }
            }
        }
    }
    if let Some((_, error)) = first_failure {
        return Err(error);
    }
    slots
        .into_iter()
        .enumerate()
        .map(|(case, slot)| slot.ok_or_else(|| Error::Unsupported(format!("case {} was left unsolved", case + 1))))
        .collect()
}

/// Judges an answer file against an input, case by case: each block is read into a typed answer and judged.
pub fn judge_input<P: Problem>(problem: &P, input: Source<'_>, output: Source<'_>) -> Result<Vec<CaseVerdict>> {
    let parsed = problem.parse_input(input)?;
    let mut referee = problem.referee()?;
    Ok(judge_blocks(output, P::LAYOUT, problem.case_count(&parsed), |case, block| {
        let answer = problem.read_answer(&parsed, case, block)?;
        problem.judge_answer(&mut referee, &parsed, case, &answer)
    }))
}

/// The official output of answers given as their texts.
pub fn render_texts<'a>(layout: Layout, texts: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for (index, text) in texts.into_iter().enumerate() {
        match layout {
            Layout::Cases => out.push_str(&format!("Case #{}:{text}\n", index + 1)),
            Layout::Lines => out.push_str(&format!("{text}\n")),
        }
    }
    out
}

/// Solves `input` with `options`, then for every case corrupts its answer with [`Problem::corrupt_answer`] and
/// checks that the judge rejects the corrupted case, and only it. Returns the number of corruptions tried, or
/// the first corruption the judge misjudged.
pub fn check_corruptions<P: Problem>(
    problem: &P,
    input: &str,
    options: &SolveOptions,
    seed: u64,
) -> Result<std::result::Result<usize, String>> {
    let source = Source::new("input", input);
    let answers = solve_input(problem, source, options, &super::NoProgress)?;
    let parsed = problem.parse_input(source)?;
    let texts: Vec<String> = answers.iter().map(ToString::to_string).collect();
    let mut rng = super::seeded_rng(seed);
    let mut tried = 0;
    for (case, answer) in answers.iter().enumerate() {
        let Some(wrong) = problem.corrupt_answer(&parsed, case, answer, &mut rng) else { continue };
        tried += 1;
        let mut copy = texts.clone();
        copy[case] = wrong.to_string();
        let rendered = render_texts(P::LAYOUT, copy.iter().map(String::as_str));
        for verdict in judge_input(problem, source, Source::new("corrupted", &rendered))? {
            if (verdict.case == case + 1) != verdict.problem.is_some() {
                return Ok(Err(format!(
                    "after corrupting case {} the judge said {:?} about case {}:\n{rendered}",
                    case + 1,
                    verdict.problem,
                    verdict.case
                )));
            }
        }
    }
    Ok(Ok(tried))
}

impl<P: Problem> Plugin for P {
    fn about(&self) -> &'static super::About {
        P::ABOUT
    }

    fn solvers(&self) -> Vec<SolverInfo> {
        P::SOLVERS.iter().map(|solver| SolverInfo { name: solver.name, summary: solver.summary }).collect()
    }

    fn layout(&self) -> Layout {
        P::LAYOUT
    }

    fn solve(&self, input: Source<'_>, options: &SolveOptions, progress: &dyn Progress) -> Result<Vec<CaseAnswer>> {
        solve_input(self, input, options, progress)?
            .into_iter()
            .map(|answer| {
                let json = serde_json::to_value(&answer)
                    .map_err(|error| Error::Unsupported(format!("an answer cannot be written as JSON: {error}")))?;
                Ok(CaseAnswer { text: answer.to_string(), class: self.class_of(&answer), json })
            })
            .collect()
    }

    fn judge(&self, input: Source<'_>, output: Source<'_>) -> Result<Vec<CaseVerdict>> {
        judge_input(self, input, output)
    }

    fn generate(&self, options: &GenOptions, seed: u64) -> Result<String> {
        self.generate_input(options, seed)
    }

    fn corruptions(
        &self,
        input: &str,
        options: &SolveOptions,
        seed: u64,
    ) -> Result<std::result::Result<usize, String>> {
        check_corruptions(self, input, options, seed)
    }
}
