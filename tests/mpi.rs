//! `ludus db solve --mpi` under `mpirun` (a build with the `mpi` feature, and OpenMPI installed): the files
//! solved on 1 to 4 local ranks, each tier by one rank or every tier split over all ranks (`--split-tiers`: by
//! shares of each tier's ranks for the games solved by un-moves, Dodgem, Connect Four and Quixo; by a hash of
//! the keys for Three Men's Morris), are those of the in-process solve, byte for byte; a run whose rank is
//! killed fails with a message and a non-zero status, in both modes, and a rerun resumes from the tiers on disk
//! to the same files; a rank that fails (a damaged tier file) ends the run with its message, in both modes.
//! Run by `.ci/run` as `cargo test --release --locked --features mpi --test mpi`.

#![cfg(feature = "mpi")]
#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failure to spawn a process should fail loudly

mod common;

use common::{forge_last_key, scratch, tier_files, wait_for_tiers};
use std::path::Path;
use std::process::{Command, Output, Stdio};

const DODGEM: &str = "dodgem:n=4";
const CONNECT_FOUR: &str = "connect-four:width=5,height=4";

/// `mpirun` with local ranks, as root too (CI's containers), more ranks than cores allowed.
fn mpirun(ranks: usize) -> Command {
    let mut command = Command::new("mpirun");
    command.args(["--allow-run-as-root", "--oversubscribe", "-np", &ranks.to_string()]);
    command.stdin(Stdio::null());
    command
}

fn solve_in_process(game: &str, directory: &Path) {
    let done = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["db", "solve", game, "--db", directory.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .expect("ludus runs");
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
}

fn solve_over_mpi(ranks: usize, game: &str, directory: &Path, extra: &[&str]) -> Output {
    mpirun(ranks)
        .arg(env!("CARGO_BIN_EXE_ludus"))
        .args(["db", "solve", game, "--db", directory.to_str().unwrap(), "--mpi"])
        .args(extra)
        .output()
        .expect("mpirun runs (install openmpi-bin)")
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// How the ranks share the work: each tier by one rank, or every tier split over all ranks.
#[derive(Clone, Copy, Debug)]
enum Mode {
    ByTier,
    Split,
}

/// Solves `game` on each number of `ranks` in each of `modes` and checks that every run writes the `tiers`
/// files of the in-process solve, byte for byte, and leaves nothing else.
fn same_files_as_in_process(game: &str, name: &str, tiers: usize, ranks: &[usize], modes: &[Mode]) {
    let whole = scratch("ludus-mpi", &format!("{name}-whole"));
    solve_in_process(game, &whole);
    let expected = tier_files(&whole);
    assert_eq!(expected.len(), tiers);
    for &ranks in ranks {
        for &mode in modes {
            let directory = scratch("ludus-mpi", &format!("{name}-{ranks}-{mode:?}"));
            let mut flags = vec!["--format", "json"];
            if let Mode::Split = mode {
                flags.push("--split-tiers");
            }
            let done = solve_over_mpi(ranks, game, &directory, &flags);
            assert!(done.status.success(), "{ranks} ranks, {mode:?}: {}", text(&done));
            // Rank 0 alone prints the summary.
            let report: serde_json::Value = serde_json::from_slice(&done.stdout).expect("one JSON summary");
            assert_eq!(report["ranks"].as_u64(), Some(ranks as u64), "{report}");
            assert_eq!(report["tiers"].as_u64(), Some(tiers as u64), "{report}");
            assert!(
                tier_files(&directory) == expected,
                "{game} on {ranks} ranks, {mode:?}: other files than in-process"
            );
            assert_eq!(std::fs::read_dir(&directory).unwrap().count(), tiers, "{game}, {ranks} ranks: files left");
            std::fs::remove_dir_all(&directory).ok();
        }
    }
    std::fs::remove_dir_all(&whole).ok();
}

#[test]
fn dodgem_files_on_1_to_4_ranks_are_the_in_process_files() {
    same_files_as_in_process(DODGEM, "dodgem", 9, &[1, 2, 3, 4], &[Mode::ByTier, Mode::Split]);
}

#[test]
fn connect_four_files_on_1_to_4_ranks_are_the_in_process_files() {
    same_files_as_in_process(CONNECT_FOUR, "connect-four", 21, &[1, 2, 3, 4], &[Mode::ByTier, Mode::Split]);
}

#[test]
fn three_mens_morris_files_split_by_hash_are_the_in_process_files() {
    // Solved by reverse edges (no un-moves): its split is by a hash of the keys.
    same_files_as_in_process("three-mens-morris", "morris", 7, &[2, 3], &[Mode::ByTier, Mode::Split]);
}

#[test]
fn connect_four_5_by_5_and_quixo_split_by_shares_are_the_in_process_files() {
    same_files_as_in_process("connect-four:width=5,height=5", "connect-four-5x5", 26, &[2, 3, 4], &[Mode::Split]);
    same_files_as_in_process("quixo:size=4", "quixo", 60, &[2, 3, 4], &[Mode::Split]);
}

/// The process of MPI rank `rank` whose command line names `directory`, if it runs.
fn rank_process(directory: &Path, rank: u32) -> Option<u32> {
    let wanted = format!("OMPI_COMM_WORLD_RANK={rank}");
    std::fs::read_dir("/proc").ok()?.filter_map(Result::ok).find_map(|entry| {
        let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
        let command_line = std::fs::read(entry.path().join("cmdline")).ok()?;
        let command_line = String::from_utf8_lossy(&command_line);
        if !command_line.contains(directory.to_str()?) || !command_line.contains("--mpi") {
            return None;
        }
        let environment = std::fs::read(entry.path().join("environ")).ok()?;
        let ours = environment.split(|&byte| byte == 0).any(|variable| variable == wanted.as_bytes());
        ours.then_some(pid)
    })
}

/// Kills rank 1 of a run of `game` on 3 ranks (with `flags`) once 3 tiers are on disk, checks that the run
/// fails with word of it, then resumes on 2 ranks with `--split-tiers` and checks the files: the in-process
/// solve's `tiers` files, of `positions` positions, and nothing else.
fn killed_and_resumed(game: &str, name: &str, tiers: usize, positions: u64, flags: &[&str]) {
    let whole = scratch("ludus-mpi", &format!("killed-{name}-whole"));
    solve_in_process(game, &whole);

    let killed = scratch("ludus-mpi", &format!("killed-{name}"));
    let child = mpirun(3)
        .arg(env!("CARGO_BIN_EXE_ludus"))
        .args(["db", "solve", game, "--db", killed.to_str().unwrap(), "--mpi", "--threads", "1"])
        .args(flags)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mpirun starts (install openmpi-bin)");
    // Kill rank 1 (SIGKILL: no chance to tidy up) once a few tiers are on disk.
    wait_for_tiers(&killed, 3);
    let worker = rank_process(&killed, 1).expect("rank 1 runs");
    let signalled = Command::new("kill").args(["-KILL", &worker.to_string()]).status().unwrap();
    assert!(signalled.success());
    let failed = child.wait_with_output().unwrap();
    assert!(!failed.status.success(), "{flags:?}: the run succeeded with a rank killed: {}", text(&failed));
    let message = text(&failed).to_lowercase();
    assert!(message.contains("signal 9") || message.contains("killed"), "no word of the killed rank: {message}");
    let kept = tier_files(&killed).len();
    assert!(kept < tiers, "{flags:?}: every tier was solved before the kill: the test proves nothing");

    // The rerun splits every tier over the ranks: its survey of the tiers on disk is rank 0's, its discovery
    // every rank's; the killed run's scratch files (a set of reachable ranks per rank) go.
    let resumed = solve_over_mpi(2, game, &killed, &["--format", "json", "--split-tiers"]);
    assert!(resumed.status.success(), "{}", text(&resumed));
    let report: serde_json::Value = serde_json::from_slice(&resumed.stdout).unwrap();
    assert!(report["resumed"].as_u64().unwrap() > 0, "{report}");
    assert_eq!(report["positions"].as_u64(), Some(positions));
    assert!(tier_files(&killed) == tier_files(&whole), "{flags:?}: the resumed files are not the in-process files");
    // No half-written file is left.
    assert_eq!(std::fs::read_dir(&killed).unwrap().count(), tiers);
    std::fs::remove_dir_all(&killed).ok();
    std::fs::remove_dir_all(&whole).ok();
}

#[test]
fn a_killed_rank_fails_the_run_and_a_rerun_resumes_to_the_same_files() {
    killed_and_resumed(CONNECT_FOUR, "by-tier", 21, 1_974_174, &[]);
}

#[test]
fn a_killed_rank_of_a_split_run_fails_it_and_a_rerun_resumes_to_the_same_files() {
    // Every rank holds a share of every tier: the tiers written before the kill stay, the rest is solved anew.
    killed_and_resumed("connect-four:width=5,height=5", "split", 26, 34_888_367, &["--split-tiers"]);
}

#[test]
fn a_rank_that_fails_ends_the_run_with_its_message_in_both_modes() {
    // A database whose tiers 0 to 10 are to solve again, and whose tier 11, which tier 10 reads, holds a forged
    // record (a key no position has, with every checksum right, so rank 0 verifies it and takes it as finished):
    // the rank that reads it fails.
    let directory = scratch("ludus-mpi", "damaged");
    solve_in_process(CONNECT_FOUR, &directory);
    for tier in 0..=10 {
        std::fs::remove_file(directory.join(format!("tier-{tier}.ludb"))).unwrap();
    }
    let path = directory.join("tier-11.ludb");
    forge_last_key(&path);
    for flags in [&[][..], &["--split-tiers"][..]] {
        let failed = solve_over_mpi(3, CONNECT_FOUR, &directory, flags);
        assert!(!failed.status.success(), "{flags:?}: {}", text(&failed));
        let message = text(&failed);
        assert!(message.contains("tier-11.ludb") && message.contains("damaged"), "{flags:?}: {message}");
    }
    std::fs::remove_dir_all(&directory).ok();
}
