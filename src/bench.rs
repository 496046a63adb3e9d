//! `ludus bench`: a quick benchmark table without criterion. It runs the workloads that the game and puzzle
//! crates register ([`Workload`]: engines on a game, or a plugin's solvers on a bundled input whose answers are
//! known) and every plugin's solvers on its generated inputs; per workload and engine or solver: time,
//! positions visited, table entries, hits and positions per second. Every workload checks the result it times.
//! It knows no game: what a workload runs and asserts is the registering crate's.

use crate::cli::Format;
use crate::progress::Bar;
use crate::registry::Registry;
use crate::reports::{print, BenchReport, BenchRow};
use anyhow::{bail, Result};
use ludus_framework::input::Source;
use ludus_framework::plugin::{
    thread_count, timed, GenOptions, Plugin, Preset, Reference, SolveOptions, SolverRun, Work, Workload,
    WorkloadThreads,
};
use ludus_framework::Stats;

/// The rows of a [`Work::Answers`] workload: each run's answers checked against the expected ones, time and
/// positions per case beside the reference figure.
fn answer_rows(
    workload: &str,
    plugin: &dyn Plugin,
    (input, expected): (&str, &[String]),
    runs: &[SolverRun],
    reference: Option<&Reference>,
    threads: usize,
) -> Result<Vec<BenchRow>> {
    let mut rows = Vec::new();
    for run in runs {
        let (workers, engine) = match run.threads {
            WorkloadThreads::One => (1, run.solver.to_string()),
            WorkloadThreads::Chosen => (threads, format!("{} {}t", run.solver, thread_count(threads))),
        };
        let bar = Bar::new(&format!("{workload} / {}", run.solver), true);
        // A benchmark runs every input whole, whatever the default per-case budget.
        let options = SolveOptions {
            solver: run.solver.to_string(),
            threads: workers,
            no_limit: true,
            ..SolveOptions::default()
        };
        let (answers, seconds) = timed(|| plugin.solve(Source::new(workload, input), &options, &bar));
        bar.finish();
        let answers = answers?;
        if !answers.iter().map(|answer| answer.text.as_str()).eq(expected.iter().map(String::as_str)) {
            bail!(
                "benchmark self-check failed: {workload}: solver `{}` does not give every expected answer",
                run.solver
            );
        }
        let stats = bar.stats();
        let count = answers.len().max(1) as f64;
        let mut note = format!(
            "{:.3} ms and {:.0} positions per position",
            seconds * 1000.0 / count,
            stats.visited as f64 / count
        );
        if let Some(reference) = reference {
            note.push_str(&format!(" ({reference})"));
        }
        rows.push(BenchRow::new(workload, &engine, seconds, stats, note));
    }
    Ok(rows)
}

/// Every solver of `plugin` on its generated inputs (official size, and 100 small cases) and on `inputs`, the
/// [`Work::Solvers`] workloads registered for it: the solvers must agree on each case's class.
fn plugin_rows(plugin: &dyn Plugin, generated: bool, inputs: &[(&str, &str)], threads: usize) -> Result<Vec<BenchRow>> {
    let mut all: Vec<(String, String)> = Vec::new();
    if generated {
        all.push((
            format!("{} (official size, seed 1)", plugin.name()),
            plugin.generate(&GenOptions { preset: Preset::Official, cases: None, size: None }, 1)?,
        ));
        all.push((
            format!("{} (100 small cases, seed 1)", plugin.name()),
            plugin.generate(&GenOptions { preset: Preset::Small, cases: Some(100), size: None }, 1)?,
        ));
    }
    all.extend(inputs.iter().map(|(name, input)| (name.to_string(), input.to_string())));
    let mut rows = Vec::new();
    for (workload, input) in &all {
        let mut reference: Option<Vec<String>> = None;
        for solver in plugin.solvers() {
            let bar = Bar::new(&format!("{workload} / {}", solver.name), true);
            let options = SolveOptions { solver: solver.name.to_string(), threads, ..SolveOptions::default() };
            let (answers, seconds) = timed(|| plugin.solve(Source::new(workload, input), &options, &bar));
            bar.finish();
            match answers {
                Ok(answers) => {
                    let classes: Vec<String> = answers.iter().map(|a| a.class.clone()).collect();
                    let note = match &reference {
                        None => format!("{} cases", answers.len()),
                        Some(expected) if *expected == classes => format!("{} cases, agrees", answers.len()),
                        Some(_) => {
                            bail!("{workload}: solver `{}` disagrees with `{}`", solver.name, plugin.solvers()[0].name)
                        }
                    };
                    reference.get_or_insert(classes);
                    rows.push(BenchRow::new(workload, solver.name, seconds, bar.stats(), note));
                }
                Err(ludus_framework::Error::Limit { .. }) => {
                    rows.push(BenchRow::new(
                        workload,
                        solver.name,
                        0.0,
                        Stats::default(),
                        "skipped: beyond its size limit",
                    ));
                }
                Err(error) => bail!("{workload}: solver `{}` failed: {error}", solver.name),
            }
        }
    }
    Ok(rows)
}

/// The plugin a workload runs, or an error naming the workload.
fn plugin_of(registry: &Registry, workload: &Workload, name: &str) -> Result<Box<dyn Plugin>> {
    match registry.find(name) {
        Ok(plugin) => Ok(plugin),
        Err(error) => bail!("workload `{}`: {error}", workload.name),
    }
}

/// Runs the workloads whose name or group contains `filter`, and every solver of each plugin whose name
/// contains it on the plugin's generated inputs, and prints the table.
pub fn run(registry: &Registry, filter: Option<&str>, threads: usize, format: Format) -> Result<()> {
    let wanted = |name: &str| filter.is_none_or(|f| name.contains(f));
    let workloads = registry.workloads();
    let selected: Vec<&Workload> =
        workloads.iter().filter(|workload| filter.is_none_or(|f| workload.matches(f))).collect();
    let mut rows = Vec::new();
    for workload in &selected {
        match &workload.work {
            Work::Engines(engines) => {
                for measurement in engines(threads)? {
                    let (engine, stats) = (&measurement.engine, measurement.stats);
                    rows.push(BenchRow::new(&workload.name, engine, measurement.seconds, stats, measurement.note));
                }
            }
            Work::Answers { plugin, input, expected, runs, reference } => {
                let plugin = plugin_of(registry, workload, plugin)?;
                let input = (input.as_str(), expected.as_slice());
                rows.extend(answer_rows(&workload.name, plugin.as_ref(), input, runs, reference.as_ref(), threads)?);
            }
            // Run below, with the plugin's generated inputs.
            Work::Solvers { plugin, .. } => drop(plugin_of(registry, workload, plugin)?),
        }
    }
    for plugin in registry.plugins() {
        let generated = wanted(plugin.name());
        let inputs: Vec<(&str, &str)> = workloads
            .iter()
            .filter(|workload| generated || selected.iter().any(|chosen| std::ptr::eq(*chosen, *workload)))
            .filter_map(|workload| match &workload.work {
                Work::Solvers { plugin: name, input } if *name == plugin.name() => {
                    Some((workload.name.as_str(), input.as_str()))
                }
                _ => None,
            })
            .collect();
        if generated || !inputs.is_empty() {
            rows.extend(plugin_rows(plugin.as_ref(), generated, &inputs, threads)?);
        }
    }
    Ok(print(&BenchReport { rows, threads: thread_count(threads) }, format)?)
}
