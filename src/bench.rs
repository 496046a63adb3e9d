//! `ludus bench`: a quick benchmark table without criterion. For each workload (classic games, each plugin
//! on generated official-size inputs, Connect Four end-easy) and each engine or solver: time, positions
//! visited, table entries, hits and positions per second. Every workload checks the result it times.

use crate::cli::Format;
use crate::progress::Bar;
use anyhow::{bail, Result};
use ludus_framework::engines::alpha_beta::AlphaBeta;
use ludus_framework::engines::grundy::GrundyEngine;
use ludus_framework::engines::negamax::{MemoNegamax, PlainNegamax};
use ludus_framework::engines::parallel::{ParallelGrundy, ParallelNegamax};
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::input::Source;
use ludus_framework::plugin::{thread_count, with_threads, GenOptions, Plugin, Preset, SolveOptions};
use ludus_framework::Statistics;
use ludus_framework::{Stats, Value};
use ludus_games::classic::{Board, Kayles, TicTacToe};
use ludus_games::connect_four::ConnectFour;
use serde::Serialize;
use std::time::Instant;

/// The Connect Four "end-easy" benchmark positions (Pascal Pons' public test set), bundled.
const END_EASY: &str = include_str!("../samples/connect-four/end-easy.txt");

/// Connect Four sets like Pons' six (End-Easy is his; the others are generated and rated the same way by
/// `examples/connect_four_sets.rs`), with Pons' mean nodes per position (his solver, no opening book).
const CONNECT_FOUR_SETS: [(&str, &str, u64); 6] = [
    ("end-easy", END_EASY, 51),
    ("middle-easy", include_str!("../benches/data/connect-four/middle-easy.txt"), 450),
    ("middle-medium", include_str!("../benches/data/connect-four/middle-medium.txt"), 39_900),
    ("begin-easy", include_str!("../benches/data/connect-four/begin-easy.txt"), 3_298),
    ("begin-medium", include_str!("../benches/data/connect-four/begin-medium.txt"), 1_200_000),
    ("begin-hard", include_str!("../benches/data/connect-four/begin-hard.txt"), 65_900_000),
];

/// One row of the table.
#[derive(Debug, Serialize)]
struct Row {
    workload: String,
    engine: String,
    seconds: f64,
    stats: Stats,
    positions_per_second: f64,
    note: String,
}

impl Row {
    fn new(workload: &str, engine: &str, seconds: f64, stats: Stats, note: impl Into<String>) -> Self {
        let positions_per_second = if seconds > 0.0 { stats.visited as f64 / seconds } else { 0.0 };
        Row {
            workload: workload.to_string(),
            engine: engine.to_string(),
            seconds,
            stats,
            positions_per_second,
            note: note.into(),
        }
    }
}

fn timed<Output>(work: impl FnOnce() -> Output) -> (Output, f64) {
    let started = Instant::now();
    let result = work();
    (result, started.elapsed().as_secs_f64())
}

fn classic_rows(threads: usize) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    let workload = "tic-tac-toe (empty board, exact)";
    let mut plain = PlainNegamax::new(Mode::Exact);
    let (value, seconds) = timed(|| plain.value(&TicTacToe, &Board::EMPTY));
    check(value == Value::Draw, "tic-tac-toe is a draw")?;
    rows.push(Row::new(workload, "plain negamax", seconds, plain.stats(), "draw"));
    let mut memo = MemoNegamax::new(Mode::Exact);
    let (value, seconds) = timed(|| memo.value(&TicTacToe, &Board::EMPTY));
    check(value == Value::Draw, "tic-tac-toe is a draw")?;
    rows.push(Row::new(workload, "memo negamax", seconds, memo.stats(), "draw"));
    let parallel = ParallelNegamax::new(Mode::Exact, 2);
    let (value, seconds) = timed(|| with_threads(threads, || parallel.evaluate(&TicTacToe, &Board::EMPTY)));
    check(value? == Value::Draw, "tic-tac-toe is a draw")?;
    rows.push(Row::new(workload, "parallel negamax", seconds, parallel.stats(), "draw"));

    let workload = "Kayles nimbers G(0..=2000)";
    let mut grundy = GrundyEngine::new();
    let (values, seconds) = timed(|| (0..=2000u32).map(|pins| grundy.nimber(&Kayles, &pins)).collect::<Vec<_>>());
    check((71..=1988).all(|n| values[n] == values[n + 12]), "Kayles has period 12 from 71")?;
    rows.push(Row::new(workload, "grundy", seconds, grundy.stats(), "period 12 from 71"));
    let parallel = ParallelGrundy::new();
    let waves: Vec<Vec<u32>> = (0..=2000u32).map(|pins| vec![pins]).collect();
    let (done, seconds) = timed(|| with_threads(threads, || parallel.precompute(&Kayles, &waves)));
    done?;
    check((0..=2000u32).all(|n| parallel.nimber(&Kayles, &n) == values[n as usize]), "parallel Grundy agrees")?;
    rows.push(Row::new(workload, "parallel grundy", seconds, parallel.stats(), "agrees"));
    rows.extend(connect_four_rows(threads)?);
    Ok(rows)
}

/// Weak solve (win/draw/loss) of Connect Four 5 x 4 from the empty board: a draw.
fn connect_four_rows(threads: usize) -> Result<Vec<Row>> {
    let workload = "connect-four 5x4 weak solve (draw)";
    let game = ConnectFour::new(5, 4)?;
    let start = ludus_games::connect_four::Board::default();
    let mut rows = Vec::new();
    let mut memo = MemoNegamax::new(Mode::Outcome);
    let (value, seconds) = timed(|| memo.value(&game, &start));
    check(value == Value::Draw, "Connect Four 5 x 4 is a draw")?;
    rows.push(Row::new(workload, "memo negamax", seconds, memo.stats(), "draw"));
    for workers in [1, thread_count(threads)] {
        let parallel = ParallelNegamax::new(Mode::Outcome, 6);
        let (value, seconds) = timed(|| with_threads(workers, || parallel.evaluate(&game, &start)));
        check(value? == Value::Draw, "Connect Four 5 x 4 is a draw")?;
        rows.push(Row::new(workload, &format!("parallel negamax {workers}t"), seconds, parallel.stats(), "draw"));
    }
    let mut alpha_beta = AlphaBeta::new(Mode::Outcome);
    let (value, seconds) = timed(|| alpha_beta.value(&game, &start));
    check(value.outcome() == Value::Draw, "Connect Four 5 x 4 is a draw")?;
    rows.push(Row::new(workload, "alpha-beta", seconds, alpha_beta.stats(), "draw"));
    Ok(rows)
}

/// Each Connect Four set by the fast solver on one thread and the parallel solver: every score checked against
/// the file's, time and positions per position, beside Pons' mean nodes per position.
fn connect_four_set_rows(threads: usize) -> Result<Vec<Row>> {
    let plugin = ludus_games::connect_four::ConnectFourPlugin;
    let mut rows = Vec::new();
    for (name, text, pons_nodes) in CONNECT_FOUR_SETS {
        let workload = format!("connect-four {name} ({} positions)", text.lines().count());
        let moves: String =
            text.lines().filter_map(|line| line.split_whitespace().next()).map(|m| format!("{m}\n")).collect();
        for (solver, workers) in [("fast", 1), ("parallel", threads)] {
            let bar = Bar::new(&format!("{workload} / {solver}"), true);
            // A benchmark runs every set whole, whatever the default per-case budget.
            let options = SolveOptions {
                solver: solver.to_string(),
                threads: workers,
                no_limit: true,
                ..SolveOptions::default()
            };
            let (answers, seconds) = timed(|| plugin.solve(Source::new(name, &moves), &options, &bar));
            bar.finish();
            let answers = answers?;
            check(answers.iter().map(|answer| answer.text.as_str()).eq(text.lines()), "every score is the file's")?;
            let stats = bar.stats();
            let count = answers.len().max(1) as f64;
            let note = format!(
                "{:.3} ms and {:.0} positions per position (Pons: {pons_nodes} nodes)",
                seconds * 1000.0 / count,
                stats.visited as f64 / count
            );
            let engine =
                if solver == "fast" { "fast".to_string() } else { format!("parallel {}t", thread_count(threads)) };
            rows.push(Row::new(&workload, &engine, seconds, stats, note));
        }
    }
    Ok(rows)
}

fn check(condition: bool, what: &str) -> Result<()> {
    if condition {
        Ok(())
    } else {
        bail!("benchmark self-check failed: {what}")
    }
}

fn plugin_rows(plugin: &dyn Plugin, threads: usize) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    let mut inputs = vec![(
        format!("{} (official size, seed 1)", plugin.name()),
        plugin.generate(&GenOptions { preset: Preset::Official, cases: None, size: None }, 1)?,
    )];
    inputs.push((
        format!("{} (100 small cases, seed 1)", plugin.name()),
        plugin.generate(&GenOptions { preset: Preset::Small, cases: Some(100), size: None }, 1)?,
    ));
    if plugin.name() == "connect-four" {
        inputs.push(("connect-four (end-easy, 1000 positions)".to_string(), END_EASY.to_string()));
    }
    for (workload, input) in &inputs {
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
                    rows.push(Row::new(workload, solver.name, seconds, bar.stats(), note));
                }
                Err(ludus_framework::Error::Limit { .. }) => {
                    rows.push(Row::new(workload, solver.name, 0.0, Stats::default(), "skipped: beyond its size limit"));
                }
                Err(error) => bail!("{workload}: solver `{}` failed: {error}", solver.name),
            }
        }
    }
    Ok(rows)
}

/// Runs the workloads whose name contains `filter` and prints the table.
pub fn run(registry: &crate::registry::Registry, filter: Option<&str>, threads: usize, format: Format) -> Result<()> {
    let wanted = |name: &str| filter.is_none_or(|f| name.contains(f));
    let mut rows = Vec::new();
    if wanted("tic-tac-toe") || wanted("Kayles") || wanted("classic") || wanted("weak solve") {
        rows.extend(classic_rows(threads)?.into_iter().filter(|row| wanted(&row.workload) || wanted("classic")));
    }
    if wanted("connect-four sets") {
        rows.extend(connect_four_set_rows(threads)?);
    }
    for plugin in registry.plugins() {
        if wanted(plugin.name()) {
            rows.extend(plugin_rows(plugin.as_ref(), threads)?);
        }
    }
    if format == Format::Json {
        say!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    say!(
        "{:<46} {:<17} {:>10} {:>12} {:>10} {:>12} {:>12}  note",
        "workload",
        "engine",
        "ms",
        "visited",
        "table",
        "hits",
        "pos/s"
    );
    for row in &rows {
        say!(
            "{:<46} {:<17} {:>10.2} {:>12} {:>10} {:>12} {:>12.0}  {}",
            row.workload,
            row.engine,
            row.seconds * 1000.0,
            row.stats.visited,
            row.stats.table_entries,
            row.stats.hits,
            row.positions_per_second,
            row.note
        );
    }
    say!("threads: {}", thread_count(threads));
    Ok(())
}
