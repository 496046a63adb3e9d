//! `ludus db` as a person runs it: a solve killed mid-way resumes to the same files as a solve never stopped;
//! `check` passes on a database and fails (status 1) on a damaged copy; `query` reads a position's value and
//! its moves' values (equal to alpha-beta's); `analyze` counts every position; bad requests are clear errors.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failure to spawn the binary should fail loudly

use ludus_framework::engines::alpha_beta::AlphaBeta;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::playable::TextForm;
use ludus_framework::Rules;
use ludus_games::connect_four::ConnectFour;
mod common;

use common::{scratch, tier_files, wait_for_tiers};
use std::process::{Command, Output, Stdio};

fn ludus(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus")).args(arguments).stdin(Stdio::null()).output().expect("ludus runs")
}

const GAME: &str = "connect-four:width=5,height=4";

#[test]
fn a_killed_solve_resumes_to_the_same_files() {
    let whole = scratch("ludus-db-cli", "whole");
    let done = ludus(&["db", "solve", GAME, "--db", whole.to_str().unwrap()]);
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    assert_eq!(tier_files(&whole).len(), 21);

    let killed = scratch("ludus-db-cli", "killed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["db", "solve", GAME, "--db", killed.to_str().unwrap(), "--threads", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("ludus starts");
    // Kill it (SIGKILL: no chance to tidy up) once a few tiers are on disk.
    wait_for_tiers(&killed, 4);
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "the solve ended before it was killed: the test proves nothing");
    let kept = tier_files(&killed).len();
    assert!((1..21).contains(&kept), "{kept} tiers on disk");

    let resumed = ludus(&["db", "solve", GAME, "--db", killed.to_str().unwrap(), "--format", "json"]);
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    let report: serde_json::Value = serde_json::from_slice(&resumed.stdout).unwrap();
    assert!(report["resumed"].as_u64().unwrap() > 0, "{report}");
    assert_eq!(report["positions"].as_u64(), Some(1_974_174));
    assert_eq!(tier_files(&killed), tier_files(&whole));
    // No half-written file is left.
    assert_eq!(std::fs::read_dir(&killed).unwrap().count(), 21);

    // The database checks; a copy with one byte flipped does not (status 1, the problem named).
    let check = ludus(&["db", "check", GAME, "--db", killed.to_str().unwrap()]);
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stdout));
    // Within a memory budget its middle tiers pass: a clear error before they are read (status 2).
    let check = ludus(&["db", "check", GAME, "--db", killed.to_str().unwrap(), "--memory-mb", "1"]);
    let text = String::from_utf8_lossy(&check.stderr);
    assert_eq!(check.status.code(), Some(2), "{text}");
    assert!(text.contains("the memory the check of tier") && text.contains("--memory-mb"), "{text}");
    let path = killed.join("tier-10.ludb");
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() - 1000;
    bytes[middle] ^= 0x04;
    std::fs::write(&path, bytes).unwrap();
    let check = ludus(&["db", "check", GAME, "--db", killed.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(1));
    let text = String::from_utf8_lossy(&check.stdout);
    assert!(text.contains("problem:") && text.contains("tier-10.ludb") && text.contains("WRONG"), "{text}");
    std::fs::remove_dir_all(&whole).unwrap();
    std::fs::remove_dir_all(&killed).unwrap();
}

#[test]
fn query_and_analyze_read_the_database() {
    let directory = scratch("ludus-db-cli", "query");
    let db = directory.to_str().unwrap();
    let game = "connect-four:width=4,height=4";
    assert!(ludus(&["db", "solve", game, "--db", db]).status.success());
    let rules = ConnectFour::new(4, 4).unwrap();
    let mut alpha_beta = AlphaBeta::new(Mode::Exact);
    for moves in ["", "1", "23", "2233", "1234123"] {
        let output = ludus(&["db", "query", game, moves, "--db", db, "--format", "json"]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let position = rules.parse_position(moves).unwrap();
        let value = alpha_beta.value(&rules, &position);
        assert_eq!(json["remoteness"].as_u64(), value.remoteness().map(u64::from), "{moves}: {json}");
        let moves_json = json["moves"].as_array().unwrap();
        assert_eq!(moves_json.len(), rules.legal_moves(&position).len());
    }
    let output = ludus(&["db", "analyze", game, "--db", db, "--format", "json"]);
    assert!(output.status.success());
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["start"], "draw");
    let tiers = json["tiers"].as_array().unwrap();
    assert_eq!(tiers.len(), 17);
    let counted: u64 = tiers
        .iter()
        .map(|tier| tier["wins"].as_u64().unwrap() + tier["losses"].as_u64().unwrap() + tier["draws"].as_u64().unwrap())
        .sum();
    assert_eq!(Some(counted), json["positions"].as_u64());
    let text = String::from_utf8_lossy(&ludus(&["db", "analyze", game, "--db", db]).stdout).into_owned();
    assert!(text.contains("remoteness") && text.contains("longest win"), "{text}");

    // Clear errors: a position that is not one, a game without a database, a directory without one.
    let bad = ludus(&["db", "query", game, "9", "--db", db]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a position"));
    let unknown = ludus(&["db", "solve", "chess", "--db", db]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("available: tic-tac-toe"));
    let empty = scratch("ludus-db-cli", "empty");
    let missing = ludus(&["db", "query", game, "--db", empty.to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("not solved"),
        "{}",
        String::from_utf8_lossy(&missing.stderr)
    );
    let check = ludus(&["db", "check", game, "--db", empty.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(1));
    std::fs::remove_dir_all(&directory).unwrap();
}

/// `db analyze` of a game whose keys pass 64 bits writes them as text in JSON (issue 44, item 11: Dodgem 4 x 4
/// failed with "number out of range"), and in its text with `0x`; a scored game's database is analysed too,
/// by score (issue 40: `db analyze` was advertised for scored games, which then refused it).
#[test]
fn analyze_writes_wide_keys_as_text_and_counts_a_scored_game_by_score() {
    let directory = scratch("ludus-db-cli", "wide");
    let db = directory.to_str().unwrap();
    let game = "dodgem:n=4";
    assert!(ludus(&["db", "solve", game, "--db", db]).status.success());
    let output = ludus(&["db", "analyze", game, "--db", db, "--format", "json"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let key = json["longest_win"]["key"].as_str().unwrap();
    let wide = u128::from_str_radix(key.trim_start_matches("0x"), 16).unwrap();
    assert!(key.starts_with("0x") && wide > u128::from(u64::MAX), "{key}: a key past 64 bits, as text");
    let text = String::from_utf8_lossy(&ludus(&["db", "analyze", game, "--db", db]).stdout).into_owned();
    assert!(text.contains(&format!("(key {key})")), "{text}");
    std::fs::remove_dir_all(&directory).unwrap();

    let scored = scratch("ludus-db-cli", "scored");
    let db = scored.to_str().unwrap();
    let game = "kalah:pits=3,seeds=2";
    assert!(ludus(&["db", "solve", game, "--db", db]).status.success());
    let output = ludus(&["db", "analyze", game, "--db", db, "--format", "json"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let by_score = json["by_score"].as_array().unwrap();
    let counted: u64 = by_score.iter().map(|row| row["positions"].as_u64().unwrap()).sum();
    assert_eq!(Some(counted), json["positions"].as_u64());
    // The start's score is the one `analyze` finds by search.
    let searched = ludus(&["analyze", game, "--format", "json"]);
    let searched: serde_json::Value = serde_json::from_slice(&searched.stdout).unwrap();
    assert_eq!(json["start"], searched["score"]);
    std::fs::remove_dir_all(&scored).unwrap();
}

#[test]
fn a_plan_estimates_the_positions_and_names_the_tiers_that_do_not_fit() {
    // Connect Four 5 x 4 has 1,974,174 positions (its solve, `tests/mpi.rs`); the plan draws ranks at random.
    let planned = ludus(&["db", "plan", "connect-four:width=5,height=4", "--ranks", "2", "--format", "json"]);
    assert!(planned.status.success(), "{}", String::from_utf8_lossy(&planned.stderr));
    let plan: serde_json::Value = serde_json::from_slice(&planned.stdout).unwrap();
    let positions = plan["positions"].as_f64().unwrap();
    assert!((positions / 1_974_174.0 - 1.0).abs() < 0.05, "{positions} positions estimated");
    assert_eq!(plan["tiers"].as_array().unwrap().len(), 21);
    // The tiers are told on standard error as their ranks are sampled (minutes for a large game).
    let told = String::from_utf8_lossy(&planned.stderr);
    assert!(told.contains("sampling tier 0 (1 of 21)") && told.contains("(21 of 21)"), "{told}");
    // Two ranks hold about half a tier each: the largest share is at most half the ranks and a block.
    for tier in plan["tiers"].as_array().unwrap() {
        let (ranks, share) = (tier["ranks"].as_u64().unwrap(), tier["share"].as_u64().unwrap());
        assert!(share <= ranks.div_ceil(2) + 65_536, "{tier}");
        assert_eq!(tier["fits"], true);
    }
    // A rank of 1 MiB holds none of them, and the text says which.
    let small = ludus(&["db", "plan", "connect-four:width=5,height=4", "--memory-gb", "0.001"]);
    assert!(small.status.success());
    let text = String::from_utf8_lossy(&small.stdout);
    assert!(text.contains("tiers that do not fit 0.0 GiB a rank: 20, 19"), "{text}");
    // A game that is not solved by un-moves has no plan.
    let refused = ludus(&["db", "plan", "tic-tac-toe"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("un-moves"));
}
