//! The scored engines' memory budgets, measured from outside: the release binary runs under `/usr/bin/time -v`
//! and the whole process's peak (its maximum resident set) must stay within the budget plus 32 MiB (the
//! binary, its threads' stacks, buffers). Each workload reaches its budget within a few seconds; each ends
//! either with its answer or with the budget error naming the flag that raises it, never past the budget.
//!
//! The peaks are measured, not the engines' own counts: a count that forgets a map's spare capacity, the old
//! table held while a map grows, or the copy a database makes to write its file, shows here.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// What the process may take beyond its budget: the binary, stacks, buffers.
const SLACK_MIB: u64 = 32;

const TIME: &str = "/usr/bin/time";

/// How a run ended and the most memory it held.
struct Run {
    status: Option<i32>,
    stderr: String,
    peak_mib: u64,
}

/// Runs `ludus` with `arguments` under `/usr/bin/time -v`, or `None` (with a message) where the measure is
/// not available: no `/usr/bin/time`, or a debug build, whose engines are too slow for these workloads.
fn measured(arguments: &[&str]) -> Option<Run> {
    if !Path::new(TIME).exists() {
        eprintln!("skipped: {TIME} is not installed (the peaks are measured with `{TIME} -v`)");
        return None;
    }
    if cfg!(debug_assertions) {
        eprintln!("skipped: the peaks are measured on the release binary (`cargo test --release`)");
        return None;
    }
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, Ordering::Relaxed);
    let report = std::env::temp_dir().join(format!("ludus-peak-{}-{run}", std::process::id()));
    let output = Command::new(TIME)
        .arg("-v")
        .arg("-o")
        .arg(&report)
        .arg(env!("CARGO_BIN_EXE_ludus"))
        .args(arguments)
        .stdin(Stdio::null())
        .output()
        .expect("time runs ludus");
    let text = std::fs::read_to_string(&report).expect("the report of time");
    let _ = std::fs::remove_file(&report);
    let kib: u64 = text
        .lines()
        .find_map(|line| line.trim().strip_prefix("Maximum resident set size (kbytes):"))
        .expect("the peak in the report of time")
        .trim()
        .parse()
        .expect("a number of KiB");
    Some(Run {
        status: output.status.code(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        peak_mib: kib / 1024,
    })
}

/// Runs `arguments` with a budget of `budget_mib` (the flag `flag`): the peak must be within the budget and the
/// run must end with its answer (`finishes`) or, if `finishes` is `None`, with either the answer or the budget
/// error naming `flag`.
fn check(arguments: &[&str], flag: &str, budget_mib: u64, finishes: Option<bool>) {
    let Some(run) = measured(arguments) else { return };
    let command = arguments.join(" ");
    eprintln!("{command}: peak {} MiB, status {:?}", run.peak_mib, run.status);
    assert!(
        run.peak_mib <= budget_mib + SLACK_MIB,
        "`ludus {command}` held {} MiB, past its budget of {budget_mib} MiB (+{SLACK_MIB})",
        run.peak_mib
    );
    match run.status {
        Some(0) => assert_ne!(finishes, Some(false), "`ludus {command}` was expected to stop at its budget"),
        Some(2) => {
            assert_ne!(finishes, Some(true), "`ludus {command}` stopped: {}", run.stderr);
            assert!(run.stderr.contains("budget") && run.stderr.contains(flag), "`ludus {command}`: {}", run.stderr);
        }
        other => panic!("`ludus {command}` ended with {other:?}: {}", run.stderr),
    }
}

#[test]
fn a_scored_database_solve_keeps_to_memory_mb() {
    let directory = std::env::temp_dir().join(format!("ludus-peaks-db-{}", std::process::id()));
    let db = directory.to_str().expect("a path");
    for (game, budget, finishes) in [
        // 2.9 million positions: about 70 MiB with Kalah's 64-bit keys (120 MiB with 128-bit keys; a map of
        // scores and a copy of the records took 250 MiB).
        ("kalah:pits=4,seeds=3", 50, Some(false)),
        ("kalah:pits=4,seeds=3", 100, Some(true)),
        ("kalah:pits=4,seeds=4", 100, Some(false)),
    ] {
        let _ = std::fs::remove_dir_all(&directory);
        let memory = budget.to_string();
        check(&["db", "solve", game, "--db", db, "--memory-mb", &memory], "--memory-mb", budget, finishes);
    }
    let _ = std::fs::remove_dir_all(&directory);
}

#[test]
fn expectimax_keeps_to_table_mb() {
    // Hog to 300 with up to 20 dice keeps 1.85 million entries: about 200 MiB of table at its last growth.
    for (budget, finishes) in [(100, Some(false)), (300, Some(true))] {
        let megabytes = budget.to_string();
        let arguments = ["analyze", "hog:goal=300,dice=20", "--table-mb", &megabytes, "--memory-mb", &megabytes];
        check(&arguments, "--table-mb", budget, finishes);
    }
}

#[test]
fn value_iteration_keeps_to_memory_mb() {
    // Pig to 200 has about 8 million positions; 425 MiB stops its enumeration just past a growth of its index.
    check(&["analyze", "pig:goal=200", "--memory-mb", "425"], "--memory-mb", 425, Some(false));
    check(&["analyze", "pig:goal=100", "--memory-mb", "200"], "--memory-mb", 200, Some(true));
}

#[test]
fn scored_alpha_beta_keeps_to_table_mb() {
    // Six million positions fill these tables; the position budget then ends the search.
    for (game, budget) in [("kalah:pits=6,seeds=6", 100), ("othello:size=8", 64)] {
        let megabytes = budget.to_string();
        let arguments =
            ["analyze", game, "--table-mb", &megabytes, "--memory-mb", &megabytes, "--max-positions", "6000000"];
        check(&arguments, "--max-positions", budget, Some(false));
    }
}
