//! Kalah's margin from the start by the scored alpha-beta, with and without an endgame database under it: the
//! root's value only (no move list), the positions searched and the time of each, so that each technique's
//! share is measured in paired runs on the same machine.
//!
//! ```text
//! cargo run --release --example kalah_frontier -- [PITS] [SEEDS] [always|opposite] [BOUND] [TABLE-MB] [DB-DIR] [THREADS] [packed|keyed] [AT-LEAST]
//! ```
//!
//! Defaults: Kalah(4, 3) under the default capture rule, a database of the tiers up to 12 seeds, a table of 256
//! MiB, the database in a scratch directory, one thread (more: the scored Lazy SMP), the packed table (one part,
//! as `analyze --endgame` makes it) over Kalah's compact keys (`keyed`: the keyed table over the 128-bit keys,
//! sharded by locks on several threads). Each null-window test's answer goes to standard error. `AT-LEAST`: a
//! margin an earlier run proved the first player reaches; the tests then start above it (no first guess), so
//! a search of hours can go on where one stopped, and the margin it prints is proven only with that bound.
//! BENCHMARKS.md ("Kalah at the frontier") has the numbers.

use anyhow::{Context, Result};
use ludus_framework::database::endgame::{solve_endgame, EndgameSolve, Probing};
use ludus_framework::engines::scored::{Progress, ProgressHook, ScoredAlphaBeta, ScoredLazySmp};
use ludus_framework::engines::{Engine, Mode, Statistics};
use ludus_framework::table::{mib, KeyedTable, PackedTable, ShardedTable};
use ludus_games::kalah::{Capture, CompactKalah, Kalah};
use std::sync::Arc;
use std::time::Instant;

fn main() -> Result<()> {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let number = |place: usize, default: u32| -> Result<u32> {
        arguments.get(place).map_or(Ok(default), |text| text.parse().with_context(|| format!("not a number: {text}")))
    };
    let (pits, seeds) = (number(0, 4)? as usize, number(1, 3)?);
    let capture = match arguments.get(2).map(String::as_str) {
        None => Capture::Opposite,
        Some(name) => Capture::named(name).context("the capture rule is `opposite` or `always`")?,
    };
    let (bound, table_mb) = (number(3, 12)?, number(4, 256)? as usize);
    let game = Kalah::new(pits, seeds)?.with_capture(capture);
    let scratch = std::env::temp_dir().join(format!("ludus-kalah-frontier-{}", std::process::id()));
    let directory = arguments.get(5).map_or(scratch.clone(), std::path::PathBuf::from);

    let clock = Instant::now();
    let solve = EndgameSolve { bound, memory_mb: 16 << 10, stop: None };
    let tables = Arc::new(solve_endgame(&game, &directory, &solve, &mut |_| {})?);
    println!(
        "Kalah({pits}, {seeds}), capture {}: endgame tiers 0..={bound}, {} MiB, ready in {:.2} s",
        capture.name(),
        tables.bytes() >> 20,
        clock.elapsed().as_secs_f64()
    );
    let table = || KeyedTable::new(mib(table_mb));
    let clock = Instant::now();
    // Each null-window test's answer, on standard error: where the positions went.
    let tests: ProgressHook = Arc::new(move |progress: &Progress| {
        if let (Some(test), true) = (progress.test, progress.finished) {
            let answer = if progress.found >= test { "yes" } else { "no" };
            let seconds = clock.elapsed().as_secs_f64();
            eprintln!(
                "[{seconds:8.1} s] at least {test}? {answer} (bound {}), {} positions",
                progress.found, progress.visited
            );
        }
    });
    let threads = number(6, 1)? as usize;
    let packed = match arguments.get(7).map(String::as_str) {
        None | Some("packed") => true,
        Some("keyed") => false,
        Some(other) => anyhow::bail!("the table is `packed` or `keyed`, not {other}"),
    };
    // A proven lower bound: tests only within [bound, the most the first player can win].
    let window = match arguments.get(8) {
        None => None,
        Some(text) => Some(text.parse::<i32>().with_context(|| format!("not a margin: {text}"))?),
    }
    .map(|low| (low, (2 * pits as u32 * seeds) as i32));
    let root = game.start();
    let (margin, visited) = match (packed, threads > 1) {
        (true, many) => {
            let compact = CompactKalah::new(game)?;
            let table = PackedTable::with_parts(mib(table_mb), 0)?;
            if many {
                let engine = ScoredLazySmp::with_table(Mode::Exact, threads, table)?.with_progress(Arc::clone(&tests));
                margin(Probing::new(Arc::clone(&tables), engine), &compact, &root, window)?
            } else {
                let engine = ScoredAlphaBeta::with_table(Mode::Exact, table).with_progress(Arc::clone(&tests));
                margin(Probing::new(Arc::clone(&tables), engine), &compact, &root, window)?
            }
        }
        (false, true) => {
            let engine = ScoredLazySmp::with_table(Mode::Exact, threads, ShardedTable::new(mib(table_mb)))?
                .with_progress(Arc::clone(&tests));
            margin(Probing::new(Arc::clone(&tables), engine), &game, &root, window)?
        }
        (false, false) => {
            let engine = ScoredAlphaBeta::with_table(Mode::Exact, table()).with_progress(Arc::clone(&tests));
            margin(Probing::new(Arc::clone(&tables), engine), &game, &root, window)?
        }
    };
    println!(
        "over the database: margin {margin:+}, {visited} positions, {:.2} s, {threads} thread(s), {} table",
        clock.elapsed().as_secs_f64(),
        if packed { "packed" } else { "keyed" }
    );
    if arguments.len() < 4 {
        let clock = Instant::now();
        let mut plain = ScoredAlphaBeta::with_table(Mode::Exact, table());
        let searched = plain.search(&game, &game.start())?;
        println!(
            "searched alone: margin {searched:+}, {} positions, {:.2} s",
            plain.stats().visited,
            clock.elapsed().as_secs_f64()
        );
        anyhow::ensure!(searched == margin, "the two searches disagree: {searched} and {margin}");
    }
    if arguments.get(5).is_none() {
        std::fs::remove_dir_all(&scratch).ok();
    }
    Ok(())
}

/// The margin of `root` by `engine` (within `window` when an earlier run proved its low end) and the positions
/// it searched.
fn margin<Ruleset, Search>(
    mut engine: Search,
    game: &Ruleset,
    root: &Ruleset::Position,
    window: Option<(i32, i32)>,
) -> Result<(i32, u64)>
where
    Ruleset: ludus_framework::Rules,
    Search: Engine<Ruleset, Value = i32>,
{
    let margin = match window {
        None => engine.search(game, root)?,
        Some((low, high)) => engine.try_value_within(game, root, low, high)?,
    };
    Ok((margin, engine.stats().visited))
}
