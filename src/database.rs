//! `ludus db`: strong solving into databases on disk, and the queries, summaries and checks that read them.

use crate::cli::{DbCommand, Format};
use crate::places::{default_endgame_directory, DATABASES_DIRECTORY};
use crate::registry::Registry;
use crate::reports::{print, DatabaseCheckReport, DatabaseSolveReport};
use anyhow::{Context, Result};
use ludus_framework::database::endgame::{holds_endgame, EndgamePlace, EndgameSolve};
use ludus_framework::database::plan::PlanSettings;
use ludus_framework::database::{CheckProgress, CheckReport, SolveBudget, TierReport};
use ludus_framework::playable::AnalysisOptions;
use ludus_framework::playable::{DatabaseGame, PlayableGame};
use ludus_framework::plugin::with_threads;
use ludus_framework::Error;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Runs a `ludus db` subcommand; `Ok(false)` when a check finds a problem.
pub fn run(registry: &Registry, command: DbCommand) -> Result<bool> {
    match command {
        DbCommand::Solve { game, up_to: Some(bound), db, memory_mb, threads, format, .. } => {
            let game = registry.game(&game)?;
            let directory = endgame_directory_of(game.as_ref(), db);
            let endgame = EndgameSolve { bound, memory_mb, stop: None };
            let run = |report: &mut dyn FnMut(&TierReport)| game.solve_endgame(&directory, &endgame, report);
            with_threads(threads, || solve(&game.name(), &directory, format, None, run))?.map(|()| true)
        }
        DbCommand::Solve { game, db, memory_mb, max_positions, threads, format, mpi, split_tiers, .. } => {
            let game = registry.database(&game)?;
            let directory = directory_of(&game.name(), db);
            let budget = SolveBudget { memory_mb, max_positions: max_positions.unwrap_or(u64::MAX), stop: None };
            if mpi {
                let solve = || solve_over_mpi(game.as_ref(), &directory, budget, format, split_tiers);
                return with_threads(threads, solve)?.map(|()| true);
            }
            let run = |report: &mut dyn FnMut(&TierReport)| game.solve(&directory, budget, report);
            with_threads(threads, || solve(&game.name(), &directory, format, None, run))?.map(|()| true)
        }
        DbCommand::Query { game, position, db, format } => {
            let playable = registry.game(&game)?;
            let directory = stored_directory_of(playable.as_ref(), db);
            let analysis = if holds_endgame(&directory) {
                // An endgame database answers inside its tiers, and the search over it above them.
                let place = Some(EndgamePlace::Directory(directory));
                let options = AnalysisOptions { endgame: place, ..AnalysisOptions::default() };
                playable.analyze(position.as_deref(), &options)?
            } else {
                registry.database(&game)?.query(&directory, position.as_deref(), 200)?
            };
            print(&analysis, format)?;
            Ok(true)
        }
        DbCommand::Analyze { game, db, format } => {
            let game = registry.database(&game)?;
            let directory = directory_of(&game.name(), db);
            print(&game.summary(&directory)?, format)?;
            Ok(true)
        }
        DbCommand::Plan { game, ranks, memory_gb, threads, cores, network_gbit, samples, format } => {
            if !(memory_gb.is_finite() && memory_gb > 0.0 && memory_gb <= 1e9) {
                anyhow::bail!("--memory-gb: {memory_gb} is no memory size (a positive number of GB)");
            }
            if network_gbit.is_some_and(|rate| !(rate.is_finite() && rate > 0.0)) {
                anyhow::bail!("--network-gbit: a positive number of Gbit/s");
            }
            let settings = PlanSettings {
                ranks: ranks as usize,
                threads: threads as usize,
                cores: cores.map_or(ranks as usize * threads as usize, |cores| cores as usize),
                memory_bytes: (memory_gb * f64::from(1u32 << 30)) as u64,
                network_bytes_per_second: network_gbit.map(|rate| rate * 1e9 / 8.0),
                samples: samples as usize,
            };
            // Each tier's ranks are sampled and followed back to the start: minutes for a large game (Quixo 5 x 5
            // at the default 20,000 samples a tier), so the tiers are told as they go.
            let mut progress = |tier: &str, done: usize, total: usize| {
                note!("sampling tier {tier} ({} of {total})", done + 1);
            };
            print(&registry.database(&game)?.plan(settings, &mut progress)?, format)?;
            Ok(true)
        }
        DbCommand::Check { game, db, memory_mb, threads, format } => {
            let playable = registry.game(&game)?;
            let directory = stored_directory_of(playable.as_ref(), db);
            if holds_endgame(&directory) {
                let run = |progress: &mut CheckProgress| playable.check_endgame(&directory, memory_mb, progress);
                return with_threads(threads, || check(&playable.name(), &directory, format, run))?;
            }
            let game = registry.database(&game)?;
            let run = |progress: &mut CheckProgress| game.check(&directory, memory_mb, progress);
            with_threads(threads, || check(&game.name(), &directory, format, run))?
        }
    }
}

/// The directory given, or `db/` and the folder named after the game ([`folder_of`]).
fn directory_of(name: &str, given: Option<PathBuf>) -> PathBuf {
    given.unwrap_or_else(|| Path::new(DATABASES_DIRECTORY).join(folder_of(name)))
}

/// The directory given, or the one of the game's endgame database in `db/` (named after its family, where
/// `analyze` looks for it by default), or for a game without one the game's own ([`directory_of`]).
fn endgame_directory_of(game: &dyn PlayableGame, given: Option<PathBuf>) -> PathBuf {
    match given {
        Some(directory) => directory,
        None => default_endgame_directory(game).unwrap_or_else(|| directory_of(&game.name(), None)),
    }
}

/// The directory a query or a check reads: the one given, or the game's endgame database in `db/` if it
/// holds one, else the game's own database ([`directory_of`]).
fn stored_directory_of(game: &dyn PlayableGame, given: Option<PathBuf>) -> PathBuf {
    let endgame = endgame_directory_of(game, given.clone());
    if holds_endgame(&endgame) {
        endgame
    } else {
        directory_of(&game.name(), given)
    }
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
        return solve(&game.name(), directory, format, Some(mpi.size()), run);
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
    name: &str,
    directory: &Path,
    format: Format,
    ranks: Option<i32>,
    run: impl FnOnce(&mut dyn FnMut(&TierReport)) -> ludus_framework::Result<()>,
) -> Result<()> {
    let clock = Instant::now();
    let (mut tiers, mut solved, mut resumed, mut bytes, mut sent) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut report = |tier: &TierReport| {
        if let Some(damage) = &tier.damaged {
            note!("tier {}: {damage}; solving it again", tier.tier);
            return;
        }
        tiers += 1;
        bytes += tier.bytes;
        sent += tier.sent;
        if tier.resumed {
            resumed += tier.positions;
            note!("tier {}: on disk, {} positions", tier.tier, tier.positions);
        } else {
            solved += tier.positions;
            let between = match tier.sent {
                0 => String::new(),
                sent => format!(", {sent} bytes between ranks"),
            };
            note!(
                "tier {}: {} positions, {} bytes, {:.2} s{between}",
                tier.tier,
                tier.positions,
                tier.bytes,
                tier.elapsed.as_secs_f64()
            );
        }
    };
    run(&mut report).with_context(|| format!("solving {name} into {}", directory.display()))?;
    let seconds = clock.elapsed().as_secs_f64();
    let positions = solved + resumed;
    let per_second = if seconds > 0.0 { solved as f64 / seconds } else { 0.0 };
    let per_position = if positions > 0 { bytes as f64 / positions as f64 } else { 0.0 };
    let report = DatabaseSolveReport {
        game: name.to_string(),
        directory: directory.display().to_string(),
        tiers,
        positions,
        solved,
        resumed,
        bytes,
        seconds,
        positions_per_second: per_second,
        bytes_per_position: per_position,
        peak_memory_mb: peak_memory_mb(),
        ranks: ranks.unwrap_or(1),
        mpi: ranks.is_some(),
        sent,
    };
    Ok(print(&report, format)?)
}

/// `ludus db check`: `Ok(false)` if any record is wrong, damaged or missing. `run` checks, telling of each tier.
fn check(
    name: &str,
    directory: &Path,
    format: Format,
    run: impl FnOnce(&mut CheckProgress) -> ludus_framework::Result<CheckReport>,
) -> Result<bool> {
    let clock = Instant::now();
    let mut progress = |tier: &str, done: usize, total: usize| {
        note!("checking tier {tier} ({} of {total})", done + 1);
    };
    // A file damaged or missing is what the check looks for: a problem found (exit status 1), as a wrong record
    // is, not a command that could not run (2).
    let report = match run(&mut progress) {
        Ok(report) => report,
        Err(found @ (Error::Database { .. } | Error::NotSolved { .. } | Error::Records { .. })) => {
            CheckReport { problems: vec![found.to_string()], ..CheckReport::default() }
        }
        Err(error) => return Err(error.into()),
    };
    let report = DatabaseCheckReport {
        game: name.to_string(),
        directory: directory.display().to_string(),
        right: report.problems.is_empty(),
        tiers: report.tiers,
        positions: report.positions,
        problems: report.problems,
        seconds: clock.elapsed().as_secs_f64(),
    };
    print(&report, format)?;
    Ok(report.right)
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
