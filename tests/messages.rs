//! The words of `ludus`'s messages: plies counted in words, the line at a chance node, and the budget that value
//! iteration ran out of.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failure should fail the test loudly

use std::process::{Command, Output, Stdio};

fn ludus(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus")).args(arguments).stdin(Stdio::null()).output().expect("ludus runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn one_ply_is_a_ply() {
    // X to move wins at once with 3.
    let output = ludus(&["analyze", "tic-tac-toe", "1425"]);
    let analysis = text(&output.stdout);
    assert!(analysis.contains("tic-tac-toe: win in 1 ply for the player to move"), "{analysis}");
    assert!(analysis.contains("     3  win in 1 ply  (best)"), "{analysis}");
    assert!(analysis.contains("     7  loss in 2 plies"), "{analysis}");
    assert!(!analysis.contains("1 plies"), "{analysis}");
}

#[test]
fn at_a_chance_node_the_line_is_not_a_finished_game() {
    let chance = text(&ludus(&["analyze", "pig:goal=10", "roll"]).stdout);
    assert!(chance.contains("the die is rolling"), "{chance}");
    assert!(chance.lines().any(|line| line == "line: (none at a chance node)"), "{chance}");
    assert!(!chance.contains("game is over"), "{chance}");
    // A game that is over still says so.
    let over = text(&ludus(&["analyze", "tic-tac-toe", "14253"]).stdout);
    assert!(over.lines().any(|line| line == "line: (the game is over)"), "{over}");
}

#[test]
fn value_iteration_names_the_budget_that_ran_out() {
    // What 256 MiB holds is fewer positions than Pig to 200 has: the memory budget is the one to raise.
    let memory = ludus(&["analyze", "pig:goal=200", "--memory-mb", "256"]);
    assert_eq!(memory.status.code(), Some(2));
    let error = text(&memory.stderr);
    assert!(error.contains("memory budget of 256 MiB (raise it with --memory-mb)"), "{error}");
    assert!(!error.contains("--max-positions"), "{error}");
    // Fewer positions allowed than the memory holds: that budget is named.
    let positions = ludus(&["analyze", "pig:goal=200", "--memory-mb", "256", "--max-positions", "1000"]);
    assert_eq!(positions.status.code(), Some(2));
    let error = text(&positions.stderr);
    assert!(error.contains("budget of 1000 positions (raise it with --max-positions)"), "{error}");
}
