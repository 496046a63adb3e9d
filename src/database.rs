//! `ludus db`: strong solving into databases on disk, and the queries, summaries and checks that read them.

use crate::cli::{DbCommand, Format};
use crate::commands::print_analysis;
use crate::output::print_json;
use crate::registry::Registry;
use anyhow::{Context, Result};
use ludus_framework::database::{DatabaseSummary, SolveBudget, TierReport};
use ludus_framework::playable::DatabaseGame;
use ludus_framework::plugin::with_threads;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Runs a `ludus db` subcommand; `Ok(false)` when a check finds a problem.
pub fn run(registry: &Registry, command: DbCommand) -> Result<bool> {
    match command {
        DbCommand::Solve { game, db, memory_mb, max_positions, threads, format, mpi, split_tiers } => {
            let game = registry.database(&game)?;
            let directory = directory_of(game.as_ref(), db);
            let budget = SolveBudget { memory_mb, max_positions: max_positions.unwrap_or(u64::MAX) };
            if mpi {
                let solve = || solve_over_mpi(game.as_ref(), &directory, budget, format, split_tiers);
                return with_threads(threads, solve)?.map(|()| true);
            }
            let run = |report: &mut dyn FnMut(&TierReport)| game.solve(&directory, budget, report);
            with_threads(threads, || solve(game.as_ref(), &directory, format, None, run))?.map(|()| true)
        }
        DbCommand::Query { game, position, db, format } => {
            let game = registry.database(&game)?;
            let directory = directory_of(game.as_ref(), db);
            let analysis = game.query(&directory, position.as_deref(), 200)?;
            print_analysis(&analysis, format).map(|()| true)
        }
        DbCommand::Analyze { game, db, format } => {
            let game = registry.database(&game)?;
            let directory = directory_of(game.as_ref(), db);
            analyze(game.as_ref(), &directory, format).map(|()| true)
        }
        DbCommand::Check { game, db, threads, format } => {
            let game = registry.database(&game)?;
            let directory = directory_of(game.as_ref(), db);
            with_threads(threads, || check(game.as_ref(), &directory, format))?
        }
    }
}

/// The directory given, or `db/` and the folder named after the game ([`folder_of`]).
fn directory_of(game: &dyn DatabaseGame, given: Option<PathBuf>) -> PathBuf {
    given.unwrap_or_else(|| Path::new("db").join(folder_of(&game.name())))
}

/// The folder of a game named with its parameters: the name and each key and value joined by `-`
/// (`connect-four:width=5,height=4` is `connect-four-width-5-height-4`). Letters and digits stay; so does
/// `-` in the game's name. Any other character, and `-` in a key or a value, is written `_` and its code in
/// hexadecimal (`margin=-8` is `margin-_2d8`), so that distinct parameters never share a folder.
fn folder_of(name: &str) -> String {
    fn push(folder: &mut String, text: &str, keep_dash: bool) {
        for character in text.chars() {
            if character.is_ascii_alphanumeric() || (keep_dash && character == '-') {
                folder.push(character);
            } else {
                folder.push_str(&format!("_{:x}", u32::from(character)));
            }
        }
    }
    let (game, parameters) = name.split_once(':').unwrap_or((name, ""));
    let mut folder = String::new();
    push(&mut folder, game, true);
    for pair in parameters.split(',').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        folder.push('-');
        push(&mut folder, key, false);
        folder.push('-');
        push(&mut folder, value, false);
    }
    folder
}

/// The process's peak resident memory in MiB, where the system tells it (Linux).
fn peak_memory_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes.div_ceil(1024))
}

/// `ludus db solve --mpi` in a build with MPI: every rank solves, rank 0 alone prints.
#[cfg(feature = "mpi")]
fn solve_over_mpi(
    game: &dyn DatabaseGame,
    directory: &Path,
    budget: SolveBudget,
    format: Format,
    split: bool,
) -> Result<()> {
    let mpi = ludus_framework::database::distributed::Mpi::initialize()?;
    let run = |report: &mut dyn FnMut(&TierReport)| game.solve_mpi(directory, budget, report, &mpi, split);
    if mpi.rank() == 0 {
        return solve(game, directory, format, Some(mpi.size()), run);
    }
    run(&mut |_| {}).with_context(|| format!("rank {}: solving {}", mpi.rank(), game.name()))
}

/// `ludus db solve --mpi` in a build without MPI: a clear error.
#[cfg(not(feature = "mpi"))]
fn solve_over_mpi(_: &dyn DatabaseGame, _: &Path, _: SolveBudget, _: Format, _: bool) -> Result<()> {
    anyhow::bail!("this ludus was built without MPI: build it with `cargo build --release --features mpi` (see README)")
}

/// `ludus db solve`: a line per tier on standard error, a summary at the end. `run` solves, reporting each
/// tier; `ranks` is the number of MPI ranks, if solved over MPI.
fn solve(
    game: &dyn DatabaseGame,
    directory: &Path,
    format: Format,
    ranks: Option<i32>,
    run: impl FnOnce(&mut dyn FnMut(&TierReport)) -> ludus_framework::Result<()>,
) -> Result<()> {
    let clock = Instant::now();
    let (mut tiers, mut solved, mut resumed, mut bytes) = (0u64, 0u64, 0u64, 0u64);
    let mut report = |tier: &TierReport| {
        if let Some(damage) = &tier.damaged {
            note!("tier {}: {damage}; solving it again", tier.tier);
            return;
        }
        tiers += 1;
        bytes += tier.bytes;
        if tier.resumed {
            resumed += tier.positions;
            note!("tier {}: on disk, {} positions", tier.tier, tier.positions);
        } else {
            solved += tier.positions;
            note!(
                "tier {}: {} positions, {} bytes, {:.2} s",
                tier.tier,
                tier.positions,
                tier.bytes,
                tier.elapsed.as_secs_f64()
            );
        }
    };
    run(&mut report).with_context(|| format!("solving {} into {}", game.name(), directory.display()))?;
    let seconds = clock.elapsed().as_secs_f64();
    let positions = solved + resumed;
    let per_second = if seconds > 0.0 { solved as f64 / seconds } else { 0.0 };
    let per_position = if positions > 0 { bytes as f64 / positions as f64 } else { 0.0 };
    let peak = peak_memory_mb();
    if format == Format::Json {
        return Ok(print_json(&json!({
            "game": game.name(), "directory": directory.display().to_string(), "tiers": tiers,
            "positions": positions, "solved": solved, "resumed": resumed, "bytes": bytes, "seconds": seconds,
            "positions_per_second": per_second, "bytes_per_position": per_position, "peak_memory_mb": peak,
            "ranks": ranks.unwrap_or(1),
        }))?);
    }
    say!(
        "{}: {positions} positions in {tiers} tiers ({resumed} found on disk), {bytes} bytes ({per_position:.2} \
         bytes a position) in {}",
        game.name(),
        directory.display()
    );
    let peak = peak.map_or(String::new(), |peak| format!(", peak memory {peak} MiB"));
    let ranks = ranks.map_or(String::new(), |ranks| format!(" on {ranks} MPI ranks (peak memory of rank 0)"));
    say!("solved in {seconds:.2} s ({per_second:.0} positions a second){peak}{ranks}");
    Ok(())
}

/// `ludus db analyze`.
fn analyze(game: &dyn DatabaseGame, directory: &Path, format: Format) -> Result<()> {
    let analysis = game.summary(directory)?;
    if format == Format::Json {
        return Ok(print_json(&serde_json::to_value(&analysis)?)?);
    }
    let analysis = match analysis {
        DatabaseSummary::Outcomes(analysis) => analysis,
        DatabaseSummary::Scores(report) => {
            let summary = &report.summary;
            say!("{}: the start's score is {}", report.game, summary.start);
            say!("{} positions, {} bytes on disk", summary.positions, summary.bytes);
            say!();
            say!("{:>10}  {:>14}", "score", "positions");
            for row in &summary.by_score {
                say!("{:>10}  {:>14}", row.score, row.positions);
            }
            return Ok(());
        }
    };
    let summary = &analysis.summary;
    say!("{}: the start is a {}", analysis.game, analysis.start);
    say!("{} positions in {} tiers, {} bytes on disk", summary.positions, summary.tiers.len(), summary.bytes);
    say!();
    say!("{:>10}  {:>14}  {:>14}  {:>14}", "remoteness", "win", "loss", "total");
    for row in &summary.by_remoteness {
        say!("{:>10}  {:>14}  {:>14}  {:>14}", row.remoteness, row.wins, row.losses, row.wins + row.losses);
    }
    say!("{:>10}  {:>14}  {:>14}  {:>14}", "draw", "", "", summary.draws);
    let (wins, losses): (u64, u64) =
        summary.by_remoteness.iter().fold((0, 0), |(w, l), row| (w + row.wins, l + row.losses));
    say!("{:>10}  {:>14}  {:>14}  {:>14}", "all", wins, losses, summary.positions);
    say!();
    say!("{:>10}  {:>14}  {:>14}  {:>14}  {:>12}", "tier", "win", "loss", "draw", "bytes");
    for tier in &summary.tiers {
        say!("{:>10}  {:>14}  {:>14}  {:>14}  {:>12}", tier.tier, tier.wins, tier.losses, tier.draws, tier.bytes);
    }
    for (what, longest, drawing) in [
        ("win", &summary.longest_win, &analysis.longest_win_drawing),
        ("loss", &summary.longest_loss, &analysis.longest_loss_drawing),
    ] {
        if let Some(longest) = longest {
            let remoteness = longest.value.remoteness().unwrap_or(0);
            say!();
            say!("longest {what}: {}, for example (key {:#x}):", crate::commands::plies(remoteness), longest.key);
            say!("{}", drawing.as_deref().unwrap_or("(the key does not decode to a position)"));
        }
    }
    Ok(())
}

/// `ludus db check`: `Ok(false)` if any record is wrong, damaged or missing.
fn check(game: &dyn DatabaseGame, directory: &Path, format: Format) -> Result<bool> {
    let clock = Instant::now();
    let mut progress = |tier: &str, done: usize, total: usize| {
        note!("checking tier {tier} ({} of {total})", done + 1);
    };
    let report = game.check(directory, &mut progress)?;
    let right = report.problems.is_empty();
    if format == Format::Json {
        print_json(&json!({
            "game": game.name(), "directory": directory.display().to_string(), "right": right,
            "tiers": report.tiers, "positions": report.positions, "problems": report.problems,
            "seconds": clock.elapsed().as_secs_f64(),
        }))?;
        return Ok(right);
    }
    for problem in &report.problems {
        say!("problem: {problem}");
    }
    let verdict = if right { "every record is right" } else { "the database is WRONG" };
    say!(
        "{}: {} records in {} tiers re-derived from their children in {:.2} s: {verdict}",
        game.name(),
        report.positions,
        report.tiers,
        clock.elapsed().as_secs_f64()
    );
    Ok(right)
}

#[cfg(test)]
mod tests {
    use super::folder_of;

    #[test]
    fn folders_keep_the_plain_names_and_never_collide() {
        assert_eq!(folder_of("connect-four:width=5,height=4"), "connect-four-width-5-height-4");
        assert_eq!(folder_of("dodgem:n=5"), "dodgem-n-5");
        assert_eq!(folder_of("three-mens-morris"), "three-mens-morris");
        let names = [
            "game:margin=-8",
            "game:margin=8",
            "game:margin=_2d8",
            "game:margin=8-",
            "game:a=b,c=d",
            "game:a=b-c=d",
            "game:a-b=c",
        ];
        let folders: std::collections::HashSet<String> = names.iter().map(|name| folder_of(name)).collect();
        assert_eq!(folders.len(), names.len(), "{folders:?}");
    }
}
