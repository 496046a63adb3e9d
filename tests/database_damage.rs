//! End-to-end tests of `ludus db` over damaged, crafted and misplaced files and concurrent solves: a damaged
//! tier a solve resumes from is solved again; crafted headers, FIFOs, directories and forged keys are clear
//! errors naming the file (exit status 2; for `db check`, problems found: status 1), never an abort or a hang;
//! a second solve into a directory being written is refused.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failure to spawn the binary should fail loudly

mod common;

use common::{forge_last_key, scratch, tier_files, wait_for_entries};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A small game whose solve takes a few milliseconds.
const SMALL: &str = "dodgem:n=3";

/// The start tier's file of [`SMALL`] (two cars each).
const START_TIER: &str = "tier-2-2.ludb";

/// Runs `ludus` with `args`, killed (and the test failed) if it runs past 60 seconds: a hang is a failure.
fn ludus(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ludus starts");
    let clock = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if clock.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("ludus {args:?} hangs");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.wait_with_output().unwrap()
}

/// Standard error and output, for messages.
fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stderr), String::from_utf8_lossy(&output.stdout))
}

/// A solved database of [`SMALL`] in a scratch directory named `name`.
fn solved(name: &str) -> PathBuf {
    let directory = scratch("ludus-db-damage", name);
    let done = ludus(&["db", "solve", SMALL, "--db", directory.to_str().unwrap()]);
    assert!(done.status.success(), "{}", text(&done));
    directory
}

/// The crc32 (IEEE) of `bytes`, as the format computes it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xedb8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// Rewrites the header of the tier file at `path` with `change`, its checksum recomputed so that it passes.
fn craft(path: &Path, change: impl FnOnce(&mut serde_json::Value)) {
    let bytes = std::fs::read(path).unwrap();
    let length = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
    let mut header: serde_json::Value = serde_json::from_slice(&bytes[12..12 + length]).unwrap();
    change(&mut header);
    let header_bytes = serde_json::to_vec(&header).unwrap();
    let mut crafted = bytes[..8].to_vec();
    crafted.extend_from_slice(&(header_bytes.len() as u32).to_le_bytes());
    crafted.extend_from_slice(&header_bytes);
    crafted.extend_from_slice(&crc32(&header_bytes).to_le_bytes());
    crafted.extend_from_slice(&bytes[12 + length + 4..]);
    std::fs::write(path, crafted).unwrap();
}

/// A block claiming 4,294,967,295 records (a read would reserve about 90 GB).
fn huge_block(header: &mut serde_json::Value) {
    let old = header["blocks"][0]["records"].as_u64().unwrap();
    header["blocks"][0]["records"] = serde_json::json!(u32::MAX);
    header["records"] = serde_json::json!(header["records"].as_u64().unwrap() - old + u64::from(u32::MAX));
}

/// 200,000 blocks of 4,096 records and no bytes (a read of every record would reserve about 26 GB).
fn empty_blocks(header: &mut serde_json::Value) {
    let blocks: Vec<serde_json::Value> = (0..200_000u64)
        .map(|place| serde_json::json!({"first_key": format!("{place:x}"), "records": 4096, "offset": 0, "bytes": 0, "checksum": 0}))
        .collect();
    header["records"] = serde_json::json!(200_000u64 * 4096);
    header["counts"] = serde_json::json!([200_000u64 * 4096, 0, 0]);
    header["blocks"] = serde_json::json!(blocks);
}

/// Overwrites the last byte of the file at `path`.
fn damage_last_byte(path: &Path) {
    let mut bytes = std::fs::read(path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_damaged_finished_tier_is_reported_and_solved_again() {
    let whole = solved("whole");
    for (name, damage) in [("last-byte", 0), ("header", 1), ("crafted", 2)] {
        let directory = solved(name);
        let path = directory.join(START_TIER);
        match damage {
            0 => damage_last_byte(&path),
            1 => {
                let mut bytes = std::fs::read(&path).unwrap();
                bytes[20] ^= 0x01;
                std::fs::write(&path, bytes).unwrap();
            }
            _ => craft(&path, huge_block),
        }
        let resumed = ludus(&["db", "solve", SMALL, "--db", directory.to_str().unwrap()]);
        assert!(resumed.status.success(), "{name}: {}", text(&resumed));
        let message = String::from_utf8_lossy(&resumed.stderr);
        assert!(
            message.contains(&format!("{}", path.display())) && message.contains("solving it again"),
            "{name}: the damaged file is not named: {message}"
        );
        assert_eq!(tier_files(&directory), tier_files(&whole), "{name}: the files differ from a clean solve");
        std::fs::remove_dir_all(&directory).ok();
    }
    std::fs::remove_dir_all(&whole).ok();
}

#[test]
fn crafted_headers_are_clear_errors_for_every_command() {
    for (name, change) in [("huge-block", huge_block as fn(&mut serde_json::Value)), ("empty-blocks", empty_blocks)] {
        let directory = solved(name);
        let path = directory.join(START_TIER);
        craft(&path, change);
        let db = directory.to_str().unwrap();
        for args in [
            vec!["db", "query", SMALL, "--db", db],
            vec!["db", "check", SMALL, "--db", db],
            vec!["db", "analyze", SMALL, "--db", db],
            vec!["play", SMALL, "--db", db, "--side", "first"],
        ] {
            let output = ludus(&args);
            let expected = if args[1] == "check" { 1 } else { 2 };
            assert_eq!(output.status.code(), Some(expected), "{name}, {args:?}: {}", text(&output));
            let message = text(&output);
            assert!(message.contains(&format!("{}", path.display())), "{name}, {args:?}: no file named: {message}");
            assert!(message.contains("block"), "{name}, {args:?}: no word of the blocks: {message}");
        }
        std::fs::remove_dir_all(&directory).ok();
    }
}

#[test]
fn fifos_and_directories_in_place_of_tier_files_are_refused_by_name() {
    for kind in ["fifo", "directory"] {
        let directory = solved(kind);
        let path = directory.join(START_TIER);
        std::fs::remove_file(&path).unwrap();
        if kind == "fifo" {
            assert!(Command::new("mkfifo").arg(&path).status().unwrap().success(), "mkfifo runs");
        } else {
            std::fs::create_dir(&path).unwrap();
        }
        let what = if kind == "fifo" { "is not a regular file" } else { "is a directory, not a tier file" };
        let db = directory.to_str().unwrap();
        for args in [
            vec!["db", "check", SMALL, "--db", db],
            vec!["db", "query", SMALL, "--db", db],
            vec!["db", "solve", SMALL, "--db", db],
        ] {
            let output = ludus(&args);
            let expected = if args[1] == "check" { 1 } else { 2 };
            assert_eq!(output.status.code(), Some(expected), "{kind}, {args:?}: {}", text(&output));
            let message = text(&output);
            assert!(message.contains(&format!("{}: {what}", path.display())), "{kind}, {args:?}: {message}");
        }
        std::fs::remove_dir_all(&directory).ok();
    }
}

#[test]
fn a_second_solve_into_a_directory_being_solved_is_refused() {
    const GAME: &str = "connect-four:width=5,height=4";
    let directory = scratch("ludus-db-damage", "locked");
    let db = directory.to_str().unwrap();
    let first = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["db", "solve", GAME, "--db", db, "--threads", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ludus starts");
    // The first solve holds the lock once it writes.
    wait_for_entries(&directory, 1);
    let second = ludus(&["db", "solve", GAME, "--db", db]);
    let first = first.wait_with_output().unwrap();
    assert!(first.status.success(), "{}", text(&first));
    assert!(tier_files(&directory).len() < 21 || !second.status.success(), "the first solve ended too soon");
    assert_eq!(second.status.code(), Some(2), "{}", text(&second));
    let message = text(&second);
    assert!(message.contains(&format!("{db}: another `ludus db solve` is writing into this directory")), "{message}");
    let check = ludus(&["db", "check", GAME, "--db", db]);
    assert!(check.status.success(), "{}", text(&check));
    std::fs::remove_dir_all(&directory).ok();
}

#[test]
fn a_damaged_child_tier_is_one_problem_of_the_check() {
    let directory = solved("check-once");
    let path = directory.join("tier-1-1.ludb");
    damage_last_byte(&path);
    let check = ludus(&["db", "check", SMALL, "--db", directory.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(1), "{}", text(&check));
    let stdout = String::from_utf8_lossy(&check.stdout);
    let named = stdout.lines().filter(|line| line.contains(&format!("{}", path.display()))).count();
    assert_eq!(named, 1, "the problem is not printed once: {stdout}");
    std::fs::remove_dir_all(&directory).ok();
}

#[test]
fn a_forged_key_names_its_file_and_tier() {
    let directory = solved("forged");
    let path = directory.join("tier-1-1.ludb");
    forge_last_key(&path);
    let output = ludus(&["db", "check", SMALL, "--db", directory.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let message = text(&output);
    // Dodgem's files are laid out by rank: the forged word is a record the header does not count, and the
    // damaged file is named.
    assert!(
        message.contains(&format!("{}: the records do not match the header's counts", path.display())),
        "the file is not named: {message}"
    );
    assert!(!message.contains("Rank contract"), "the game is blamed: {message}");
    std::fs::remove_dir_all(&directory).ok();
}

#[test]
fn a_database_path_that_cannot_be_read_is_the_system_error_not_a_missing_tier() {
    // As root, permissions do not bite: a path through a regular file fails for every user (not a directory).
    let directory = solved("through-a-file");
    let inside = directory.join(START_TIER).join("db");
    let output = ludus(&["db", "query", SMALL, "--db", inside.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let message = text(&output);
    assert!(!message.contains("missing"), "{message}");
    assert!(message.contains(&format!("{}", inside.join(START_TIER).display())), "{message}");
    assert!(message.to_lowercase().contains("not a directory"), "{message}");
    std::fs::remove_dir_all(&directory).ok();
}

#[test]
fn a_scored_database_damaged_or_missing_is_a_problem_the_check_finds() {
    // Kalah's database is one file of scores: its damage is what `db check` looks for (status 1, as a wrong
    // record), where the commands that read it cannot run (status 2).
    const SCORED: &str = "kalah:pits=3,seeds=2";
    let directory = scratch("ludus-db-damage", "scored");
    let db = directory.to_str().unwrap();
    let done = ludus(&["db", "solve", SCORED, "--db", db]);
    assert!(done.status.success(), "{}", text(&done));
    assert_eq!(ludus(&["db", "check", SCORED, "--db", db]).status.code(), Some(0));
    let path = directory.join("scores.ludb");
    damage_last_byte(&path);
    let check = ludus(&["db", "check", SCORED, "--db", db]);
    assert_eq!(check.status.code(), Some(1), "{}", text(&check));
    assert!(text(&check).contains(&format!("problem: {}: ", path.display())), "{}", text(&check));
    assert_eq!(ludus(&["db", "query", SCORED, "--db", db]).status.code(), Some(2));
    std::fs::remove_file(&path).unwrap();
    let check = ludus(&["db", "check", SCORED, "--db", db]);
    assert_eq!(check.status.code(), Some(1), "{}", text(&check));
    assert!(text(&check).contains(&format!("problem: {}: missing", path.display())), "{}", text(&check));
    std::fs::remove_dir_all(&directory).ok();
}

#[test]
fn a_solve_into_a_path_that_is_a_file_says_it_is_not_a_directory() {
    // The system's words were "File exists (os error 17)".
    let directory = scratch("ludus-db-damage", "a-file");
    std::fs::create_dir_all(&directory).unwrap();
    let file = directory.join("not-a-directory");
    std::fs::write(&file, b"kept").unwrap();
    let path = file.to_str().unwrap();
    for arguments in [
        vec!["db", "solve", SMALL, "--db", path],
        vec!["db", "solve", "kalah:pits=3,seeds=2", "--db", path],
        vec!["db", "solve", "kalah:pits=3,seeds=2", "--up-to", "4", "--db", path],
    ] {
        let output = ludus(&arguments);
        assert_eq!(output.status.code(), Some(2), "{arguments:?}: {}", text(&output));
        assert!(text(&output).contains(&format!("{path}: is not a directory")), "{arguments:?}: {}", text(&output));
    }
    assert_eq!(std::fs::read(&file).unwrap(), b"kept", "the file is left as it was");
    std::fs::remove_dir_all(&directory).ok();
}
