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
use super::problem::{Layout, Parallelism, Problem, Scope, Solver, Tables, Worker};
use super::{
    thread_count, CaseAnswer, CaseList, CaseVerdict, Corruptions, GenOptions, Plugin, Progress, SolveOptions,
    SolverInfo,
};
use crate::error::{Error, Remedy, Result, Setting};
use crate::input::Source;
use crate::playable::{Arguments, Parameter};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The solver of `problem` named `name`, or [`Error::UnknownSolver`] listing the available ones.
pub fn find_solver<P: Problem>(name: &str) -> Result<&'static Solver<P>> {
    P::SOLVERS.iter().find(|solver| solver.name == name).ok_or_else(|| Error::UnknownSolver {
        plugin: P::ABOUT.name.to_string(),
        solver: name.to_string(),
        available: P::SOLVERS.iter().map(|solver| solver.name).collect::<Vec<_>>().join(", "),
    })
}

/// The value of every option `P` declares ([`Problem::OPTIONS`]) for a solve with `options`: given, or the
/// default. The one place a plugin's options are read and checked: an unknown one is an error naming it and
/// listing the declared ones.
pub fn option_arguments<P: Problem>(options: &SolveOptions) -> Result<Arguments> {
    options.plugin_options.parse(P::ABOUT.name, P::OPTIONS)
}

/// Where case `case` (0-based) of a parsed input is, for error messages: `file:line: case N` or `case N`.
fn place(name: &str, input: &impl CaseList, case: usize) -> String {
    match input.case_line(case) {
        Some(line) => format!("{name}:{line}: case {}", case + 1),
        None => format!("case {}", case + 1),
    }
}

/// Refuses an input past one of the solver's limits (unless `no_limit`): the first case past a case limit, or
/// the whole input past an input limit.
fn check_limits<P: Problem>(solver: &Solver<P>, name: &str, input: &P::Input, options: &SolveOptions) -> Result<()> {
    if options.no_limit {
        return Ok(());
    }
    for limit in solver.limits {
        let mut total = 0u64;
        for case in 0..input.case_count() {
            let size = (limit.measure)(input, case);
            total = total.saturating_add(size);
            let got = if limit.scope == Scope::Case { size } else { total };
            if got > limit.max {
                let what = match limit.scope {
                    Scope::Case => format!("{}: the {}", place(name, input, case), limit.unit),
                    Scope::Input => format!("{name}: the {} of cases 1 to {} together", limit.unit, case + 1),
                };
                let what = format!("{what} for solver `{}`", solver.name);
                let remedies = vec![Remedy::Set(Setting::NoLimit), Remedy::Set(Setting::Solver)];
                return Err(Error::Limit { what, setting: None, got, limit: limit.max, remedies });
            }
        }
    }
    Ok(())
}

/// Refuses a solve whose `tables` tables of `table_mb` each would not fit its memory budget together.
fn check_memory(tables: usize, options: &SolveOptions) -> Result<()> {
    let tables_mb = tables.saturating_mul(options.table_mb);
    if tables_mb <= options.memory_mb {
        return Ok(());
    }
    Err(Error::limit_lifted(
        format!("the memory of {tables} table(s) of {} MiB each, in MiB,", options.table_mb),
        tables_mb as u64,
        options.memory_mb as u64,
        vec![Remedy::Raise(Setting::MemoryMb), Remedy::Lower(Setting::TableMb), Remedy::Lower(Setting::Threads)],
    ))
}

/// Where a solve sends its answers, in case order, as soon as each one's predecessors are out: `(case, answer)`
/// with a 0-based case. An error (the reader went away) stops the solve.
pub type Sink<'sink, Answer> = &'sink mut (dyn FnMut(usize, Answer) -> Result<()> + Send);

/// Answers solved out of order wait here until every case before them is out.
struct InOrder<'sink, Answer> {
    next: usize,
    pending: BTreeMap<usize, Answer>,
    sink: Sink<'sink, Answer>,
}

impl<Answer> InOrder<'_, Answer> {
    fn put(&mut self, case: usize, answer: Answer) -> Result<()> {
        self.pending.insert(case, answer);
        while let Some(answer) = self.pending.remove(&self.next) {
            (self.sink)(self.next, answer)?;
            self.next += 1;
        }
        Ok(())
    }
}

/// Solves a whole input with the solver `options.solver`: typed answers, in case order, each verified.
pub fn solve_input<P: Problem>(
    problem: &P,
    input: Source<'_>,
    options: &SolveOptions,
    progress: &dyn Progress,
) -> Result<Vec<P::Answer>> {
    let mut answers = Vec::new();
    solve_input_each(problem, input, options, progress, &mut |_, answer| {
        answers.push(answer);
        Ok(())
    })?;
    Ok(answers)
}

/// Solves a whole input, sending each verified answer to `sink` in case order as soon as it can (so a caller
/// can print it and keep nothing). Returns the number of cases. If `progress` reports a cancellation, the
/// cases under way finish, their answers go out, and the solve ends with [`Error::Cancelled`].
pub fn solve_input_each<P: Problem>(
    problem: &P,
    input: Source<'_>,
    options: &SolveOptions,
    progress: &dyn Progress,
    sink: Sink<'_, P::Answer>,
) -> Result<usize> {
    let solver = find_solver::<P>(&options.solver)?;
    option_arguments::<P>(options)?;
    super::check_threads(options.threads)?;
    let parsed = problem.parse_input(input)?;
    check_limits(solver, input.name, &parsed, options)?;
    let count = parsed.case_count();
    progress.start(count as u64);
    let solve_one = |worker: &mut dyn Worker<P>, case: usize| -> Result<P::Answer> {
        let answer = worker.solve(problem, &parsed, case).map_err(|error| match error {
            Error::SelfCheck { reason, .. } => Error::SelfCheck { case: case + 1, reason },
            error @ (Error::Input(_) | Error::InCase { .. }) => error,
            error => Error::InCase { place: place(input.name, &parsed, case), error: Box::new(error) },
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
    let tables = match solver.tables {
        Tables::None => 0,
        Tables::Shared => 1,
        Tables::PerWorker => workers.max(1),
    };
    check_memory(tables, options)?;
    if workers <= 1 {
        let mut worker = (solver.start)(problem, options)?;
        let outcome = (0..count).try_for_each(|case| {
            if progress.cancelled() {
                return Err(Error::Cancelled { done: case, total: count });
            }
            sink(case, solve_one(worker.as_mut(), case)?)
        });
        progress.record(&worker.stats());
        return outcome.map(|()| count);
    }
    // Workers pull the next case from a shared counter and hand their answers to the in-order sink; the first
    // failure stops the others, and the failure of the earliest case is the one reported (the one a single
    // thread would report).
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let in_order = Mutex::new(InOrder { next: 0, pending: BTreeMap::new(), sink });
    let run = || -> std::result::Result<(), (usize, Error)> {
        let mut worker = (solver.start)(problem, options).map_err(|error| {
            failed.store(true, Ordering::Relaxed);
            (0, error)
        })?;
        let outcome = loop {
            if failed.load(Ordering::Relaxed) || progress.cancelled() {
                break Ok(());
            }
            let case = next.fetch_add(1, Ordering::Relaxed);
            if case >= count {
                break Ok(());
            }
            let sent = solve_one(worker.as_mut(), case).and_then(|answer| match in_order.lock() {
                Ok(mut in_order) => in_order.put(case, answer),
                Err(_) => Err(Error::Threads { threads: workers, cause: "a solver thread panicked".into() }),
            });
            if let Err(error) = sent {
                failed.store(true, Ordering::Relaxed);
                break Err((case, error));
            }
        };
        progress.record(&worker.stats());
        outcome
    };
    let results: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers).map(|_| scope.spawn(run)).collect();
        handles
            .into_iter()
            .map(|handle| {
                // A panic's case is unknown: it ranks after every case's own error.
                handle.join().unwrap_or_else(|_| {
                    Err((usize::MAX, Error::Threads { threads: workers, cause: "a solver thread panicked".into() }))
                })
            })
            .collect()
    });
    let first_failure = results.into_iter().filter_map(std::result::Result::err).min_by_key(|(case, _)| *case);
    if let Some((_, error)) = first_failure {
        return Err(error);
    }
    let done = in_order.lock().map_or(0, |in_order| in_order.next);
    if done < count {
        return Err(Error::Cancelled { done, total: count });
    }
    Ok(count)
}

/// Judges an answer file against an input, case by case: each block is read into a typed answer and judged.
pub fn judge_input<P: Problem>(problem: &P, input: Source<'_>, output: Source<'_>) -> Result<Vec<CaseVerdict>> {
    let parsed = problem.parse_input(input)?;
    let mut referee = problem.referee()?;
    Ok(judge_blocks(output, P::LAYOUT, parsed.case_count(), |case, block| {
        let answer = problem.read_answer(&parsed, case, block)?;
        problem.judge_answer(&mut referee, &parsed, case, &answer)
    }))
}

/// The official output of one answer given as its text: `Case #number:` and the text, or the text alone under
/// [`Layout::Lines`]; with its line break.
pub fn render_case(layout: Layout, number: usize, text: &str) -> String {
    match layout {
        Layout::Cases => format!("Case #{number}:{text}\n"),
        Layout::Lines => format!("{text}\n"),
    }
}

/// The official output of answers given as their texts.
pub fn render_texts<'a>(layout: Layout, texts: impl IntoIterator<Item = &'a str>) -> String {
    texts.into_iter().enumerate().map(|(index, text)| render_case(layout, index + 1, text)).collect()
}

/// Solves `input` with `options`, then for every case corrupts its answer with [`Problem::corrupt_answer`] and
/// checks that the judge rejects the corrupted case, and only it. Returns the number of corruptions tried, or
/// the first corruption the judge misjudged.
pub fn check_corruptions<P: Problem>(
    problem: &P,
    input: &str,
    options: &SolveOptions,
    seed: u64,
) -> Result<Corruptions> {
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
                let reason = format!(
                    "after corrupting case {} the judge said {:?} about case {}:\n{rendered}",
                    case + 1,
                    verdict.problem,
                    verdict.case
                );
                return Ok(Corruptions::Misjudged { reason });
            }
        }
    }
    Ok(Corruptions::AllCaught { tried })
}

impl<P: Problem> Plugin for P {
    fn about(&self) -> &'static super::About {
        P::ABOUT
    }

    fn solvers(&self) -> Vec<SolverInfo> {
        P::SOLVERS.iter().map(Solver::info).collect()
    }

    fn options(&self) -> &'static [Parameter] {
        P::OPTIONS
    }

    fn solver(&self, name: &str) -> Result<SolverInfo> {
        find_solver::<P>(name).map(Solver::info)
    }

    fn layout(&self) -> Layout {
        P::LAYOUT
    }

    fn solve_each(
        &self,
        input: Source<'_>,
        options: &SolveOptions,
        progress: &dyn Progress,
        sink: Sink<'_, CaseAnswer>,
    ) -> Result<usize> {
        solve_input_each(self, input, options, progress, &mut |case, answer| {
            let json = serde_json::to_value(&answer)
                .map_err(|error| Error::internal("plugin", format!("an answer cannot be written as JSON: {error}")))?;
            sink(case, CaseAnswer { text: answer.to_string(), class: self.class_of(&answer), json })
        })
    }

    fn parse(&self, input: Source<'_>, options: &SolveOptions) -> Result<usize> {
        let solver = find_solver::<P>(&options.solver)?;
        option_arguments::<P>(options)?;
        let parsed = self.parse_input(input)?;
        check_limits(solver, input.name, &parsed, options)?;
        Ok(parsed.case_count())
    }

    fn judge(&self, input: Source<'_>, output: Source<'_>) -> Result<Vec<CaseVerdict>> {
        judge_input(self, input, output)
    }

    fn generate(&self, options: &GenOptions, seed: u64) -> Result<String> {
        self.generate_input(options, seed)
    }

    fn corruptions(&self, input: &str, options: &SolveOptions, seed: u64) -> Result<Corruptions> {
        check_corruptions(self, input, options, seed)
    }
}
