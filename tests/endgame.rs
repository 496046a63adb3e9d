//! `ludus db solve --up-to`, `db check`, `db query` and `analyze --endgame` on Kalah: the values read through
//! the endgame database are the searched ones, a database solved into `db/` is found there by every game of its
//! family, a wrong value makes the check fail, and a damaged file, another
//! rule's database and a budget too small are clear errors. The memory a solve holds is measured by the peak
//! the system reports, against its model.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failure should fail the test loudly

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn ludus(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus")).args(arguments).stdin(Stdio::null()).output().expect("ludus runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let directory = std::env::temp_dir().join(format!("ludus-endgame-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    directory
}

/// The JSON analysis of `position` of `game`, with `more` arguments.
fn analysis(game: &str, position: &str, more: &[&str]) -> Value {
    let mut arguments = vec!["analyze", game, position, "--format", "json"];
    arguments.extend_from_slice(more);
    let output = ludus(&arguments);
    assert!(output.status.success(), "{}", text(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The value and each move's score of an analysis.
fn values(analysis: &Value) -> (Value, Vec<(Value, Value)>) {
    let moves = analysis["moves"].as_array().unwrap();
    (analysis["value"].clone(), moves.iter().map(|mv| (mv["move"].clone(), mv["score"].clone())).collect())
}

fn solve(game: &str, directory: &Path, bound: &str) -> Output {
    ludus(&["db", "solve", game, "--up-to", bound, "--db", directory.to_str().unwrap()])
}

#[test]
fn analyses_over_the_endgame_database_give_the_searched_values_and_its_check_finds_a_wrong_one() {
    let directory = scratch("kalah");
    let db = directory.to_str().unwrap();
    let solved = solve("kalah:pits=4,seeds=3", &directory, "12");
    assert!(solved.status.success(), "{}", text(&solved.stderr));
    assert!(text(&solved.stderr).contains("tier 12:"), "{}", text(&solved.stderr));
    let checked = ludus(&["db", "check", "kalah:pits=4,seeds=3", "--db", db]);
    assert!(checked.status.success(), "{}{}", text(&checked.stdout), text(&checked.stderr));
    // From the start (24 seeds: above the database) and from positions inside it, every value is the searched
    // one; Kalah(4, 2) reads the same database (the same family).
    for (game, position) in [
        ("kalah:pits=4,seeds=3", ""),
        ("kalah:pits=4,seeds=3", "1 2 3 4 2"),
        ("kalah:pits=4,seeds=3", "0 2 3 4 5 / 1 0 0 2 7 s"),
        ("kalah:pits=4,seeds=2", "2"),
    ] {
        let searched = values(&analysis(game, position, &["--no-endgame"]));
        assert_eq!(values(&analysis(game, position, &["--endgame", db])), searched, "{game} {position}");
        let threads = analysis(game, position, &["--endgame", db, "--threads", "2"]);
        assert_eq!(values(&threads), searched, "{game} {position}, two threads");
        let queried = ludus(&["db", "query", game, position, "--db", db, "--format", "json"]);
        assert!(queried.status.success(), "{}", text(&queried.stderr));
        assert_eq!(values(&serde_json::from_slice(&queried.stdout).unwrap()), searched, "{game} {position}");
    }
    // Another capture rule is another game: its search refuses this database.
    let other = ludus(&["analyze", "kalah:pits=4,seeds=3,capture=always", "--endgame", db]);
    assert!(!other.status.success());
    assert!(text(&other.stderr).contains("capture=opposite"), "{}", text(&other.stderr));
    // A damaged tier: the check and the search name its file.
    let path = directory.join("endgame-011.ludb");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 2;
    bytes[last] ^= 0x11;
    std::fs::write(&path, bytes).unwrap();
    let damaged = |file: &str, words: &str| {
        // The check finds a problem (status 1, as for a wrong value); the search cannot run (status 2).
        for (arguments, status) in [
            (vec!["db", "check", "kalah:pits=4,seeds=3", "--db", db], 1),
            (vec!["analyze", "kalah:pits=4,seeds=3", "--endgame", db], 2),
        ] {
            let output = ludus(&arguments);
            let message = format!("{}{}", text(&output.stdout), text(&output.stderr));
            assert_eq!(output.status.code(), Some(status), "{arguments:?}: {message}");
            assert!(message.contains(&format!("{file}: {words}")), "{arguments:?}: {message}");
        }
    };
    damaged("endgame-011.ludb", "block");
    // The solve finds the damage, solves the tier again, and the check passes.
    let again = solve("kalah:pits=4,seeds=3", &directory, "12");
    assert!(again.status.success() && text(&again.stderr).contains("solving it again"), "{}", text(&again.stderr));
    assert!(ludus(&["db", "check", "kalah:pits=4,seeds=3", "--db", db]).status.success());
    // A tier missing between two that are here: damage, not a database that ends there (the check used to
    // pass the tiers below the gap and never read those above).
    std::fs::remove_file(directory.join("endgame-005.ludb")).unwrap();
    damaged("endgame-005.ludb", "missing, yet tier 6 is here");
    let again = solve("kalah:pits=4,seeds=3", &directory, "12");
    assert!(again.status.success(), "{}", text(&again.stderr));
    // Tier 0 too (the check looked for a whole game's database instead, and named its file).
    std::fs::remove_file(directory.join("endgame-000.ludb")).unwrap();
    damaged("endgame-000.ludb", "missing, yet tier 1 is here");
    let again = solve("kalah:pits=4,seeds=3", &directory, "12");
    assert!(again.status.success(), "{}", text(&again.stderr));
    let checked = ludus(&["db", "check", "kalah:pits=4,seeds=3", "--db", db]);
    assert!(checked.status.success() && text(&checked.stdout).contains(" in 13 tiers "), "{}", text(&checked.stdout));
    std::fs::remove_dir_all(&directory).ok();
}

/// `ludus` run in `directory`, with `arguments`.
fn ludus_in(directory: &Path, arguments: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ludus"));
    command.args(arguments).current_dir(directory).stdin(Stdio::null()).output().expect("ludus runs")
}

/// The positions an analysis's search visited (0: every value read from a database).
fn visited(output: &Output) -> u64 {
    let analysis: Value = serde_json::from_slice(&output.stdout).unwrap();
    analysis["stats"]["visited"].as_u64().unwrap()
}

#[test]
fn a_database_solved_without_a_directory_is_found_by_its_family_and_by_no_other() {
    let directory = scratch("found");
    std::fs::create_dir_all(&directory).unwrap();
    let solved = ludus_in(&directory, &["db", "solve", "kalah:pits=3,seeds=2", "--up-to", "12"]);
    assert!(solved.status.success(), "{}", text(&solved.stderr));
    let folder = "db/kalah_pits=3_capture=opposite.endgame";
    assert!(directory.join(folder).join("endgame-012.ludb").is_file(), "{}", text(&solved.stderr));
    // Every game of the family finds it (12 seeds: Kalah(3, 2) wholly inside it), says so, and reads every
    // value from it; `--no-endgame` searches, to the same values; another rule is another family.
    for game in ["kalah:pits=3,seeds=2", "kalah:pits=3,seeds=1,capture=opposite"] {
        let found = ludus_in(&directory, &["analyze", game, "--format", "json"]);
        assert!(found.status.success(), "{}", text(&found.stderr));
        assert!(text(&found.stderr).contains(folder), "{game}: {}", text(&found.stderr));
        assert_eq!(visited(&found), 0, "{game}");
        let searched = ludus_in(&directory, &["analyze", game, "--format", "json", "--no-endgame"]);
        assert!(searched.status.success() && text(&searched.stderr).is_empty(), "{}", text(&searched.stderr));
        assert!(visited(&searched) > 0, "{game}");
        let value = |output: &Output| values(&serde_json::from_slice(&output.stdout).unwrap());
        assert_eq!(value(&found), value(&searched), "{game}");
    }
    let other = ludus_in(&directory, &["analyze", "kalah:pits=3,seeds=2,capture=always", "--format", "json"]);
    assert!(other.status.success() && text(&other.stderr).is_empty(), "{}", text(&other.stderr));
    assert!(visited(&other) > 0);
    // `db check` and `db query` find it too; naming a directory and refusing one at once is an error.
    let checked = ludus_in(&directory, &["db", "check", "kalah:pits=3,seeds=1"]);
    assert!(checked.status.success() && text(&checked.stdout).contains("every record is right"));
    let queried = ludus_in(&directory, &["db", "query", "kalah:pits=3,seeds=2", "--format", "json"]);
    assert!(queried.status.success() && visited(&queried) == 0, "{}", text(&queried.stderr));
    let both = ludus_in(&directory, &["analyze", "kalah:pits=3,seeds=2", "--endgame", folder, "--no-endgame"]);
    assert!(!both.status.success() && text(&both.stderr).contains("cannot be used with"));
    // Found there without its tier 0, it is a damaged database, named as one (it was passed over in silence
    // and the search ran without it).
    std::fs::remove_file(directory.join(folder).join("endgame-000.ludb")).unwrap();
    let damaged = ludus_in(&directory, &["analyze", "kalah:pits=3,seeds=2"]);
    assert_eq!(damaged.status.code(), Some(2), "{}", text(&damaged.stderr));
    assert!(
        text(&damaged.stderr).contains("endgame-000.ludb: missing, yet tier 1 is here"),
        "{}",
        text(&damaged.stderr)
    );
    std::fs::remove_dir_all(&directory).ok();
}

#[test]
fn a_solve_beyond_its_memory_budget_stops_before_it_starts_and_one_within_holds_its_model() {
    let directory = scratch("budget");
    let refused =
        ludus(&["db", "solve", "kalah", "--up-to", "30", "--memory-mb", "512", "--db", directory.to_str().unwrap()]);
    assert!(!refused.status.success());
    let error = text(&refused.stderr);
    assert!(error.contains("--memory-mb") && error.contains("512"), "{error}");
    assert!(!directory.join("endgame-000.ludb").exists(), "nothing solved");
    // Tiers 0 to 16 of Kalah(6, n): 30.4 million ranks, a byte each, and the writing of tier 16 (13.0 million
    // ranks, 5/8 of a byte each): 37 MiB by the model. The peak the system measures stays within the model and
    // the process's own start-up (the binary, its threads' stacks: about 20 MiB).
    let output = Command::new("/usr/bin/time")
        .args(["-v", env!("CARGO_BIN_EXE_ludus"), "db", "solve", "kalah", "--up-to", "16", "--memory-mb", "40"])
        .args(["--db", directory.to_str().unwrap()])
        .stdin(Stdio::null())
        .output();
    let Ok(output) = output else { return };
    assert!(output.status.success(), "{}", text(&output.stderr));
    let peak_kb: u64 = text(&output.stderr)
        .lines()
        .find_map(|line| line.trim().strip_prefix("Maximum resident set size (kbytes): "))
        .and_then(|number| number.trim().parse().ok())
        .unwrap();
    assert!(peak_kb < (37 + 25) * 1024, "peak {peak_kb} kB");
    std::fs::remove_dir_all(&directory).ok();
}
