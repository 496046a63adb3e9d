//! The words of `ludus`'s messages: plies counted in words, the line at a chance node, the budget that value
//! iteration ran out of, the keys of `db analyze`, a query of a position a database does not hold, `play --db`
//! or `db query` given another game's database or none, and a book that is not the game's.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failure should fail the test loudly

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn ludus(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus")).args(arguments).stdin(Stdio::null()).output().expect("ludus runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// An empty scratch directory's path (not made), unique to this test process.
fn scratch(name: &str) -> PathBuf {
    let directory = std::env::temp_dir().join(format!("ludus-messages-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    directory
}

/// Solves `game` into `directory`.
fn solve(game: &str, directory: &std::path::Path) {
    let solved = ludus(&["db", "solve", game, "--db", directory.to_str().unwrap()]);
    assert!(solved.status.success(), "{}", text(&solved.stderr));
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

#[test]
fn db_analyze_writes_keys_as_hexadecimal_with_0x() {
    let directory = scratch("keys");
    solve("tic-tac-toe", &directory);
    let db = directory.to_str().unwrap();
    let summary = text(&ludus(&["db", "analyze", "tic-tac-toe", "--db", db]).stdout);
    let keys: Vec<&str> = summary.lines().filter_map(|line| line.split_once("(key ").map(|(_, key)| key)).collect();
    assert_eq!(keys.len(), 2, "the longest win and loss: {summary}");
    assert!(keys.iter().all(|key| key.starts_with("0x") && key.ends_with("):")), "{summary}");
    let json: serde_json::Value =
        serde_json::from_slice(&ludus(&["db", "analyze", "tic-tac-toe", "--db", db, "--format", "json"]).stdout)
            .unwrap();
    for longest in ["longest_win", "longest_loss"] {
        let key = json[longest]["key"].as_str().unwrap();
        assert!(key.starts_with("0x") && u128::from_str_radix(&key[2..], 16).is_ok(), "{json}");
    }
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn a_position_a_database_does_not_hold_is_named_not_dumped() {
    let directory = scratch("kalah");
    solve("kalah:pits=3,seeds=2", &directory);
    // A position with seeds missing: never reached from the start.
    let query =
        ludus(&["db", "query", "kalah:pits=3,seeds=2", "3 3 3 0 / 3 0 0 0 s", "--db", directory.to_str().unwrap()]);
    assert_eq!(query.status.code(), Some(2));
    let error = text(&query.stderr);
    assert!(error.contains("no record of `3 3 3 0 / 3 0 0 0 s` (it is not reachable from the start)"), "{error}");
    assert!(!error.contains('{') && !error.contains('['), "no debug dump: {error}");
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn play_from_another_game_s_database_says_which_database_to_give() {
    let connect_four = scratch("connect-four");
    solve("connect-four:width=4,height=4", &connect_four);
    let kalah = scratch("kalah-3-2");
    solve("kalah:pits=3,seeds=2", &kalah);
    // Each game as given, its directory, the game whose database that is and the game's name with every
    // parameter (as the messages write names).
    for (game, directory, holder, named) in [
        ("tic-tac-toe", &connect_four, "connect-four:width=4,height=4", "tic-tac-toe"),
        (
            "kalah:pits=3,seeds=3",
            &kalah,
            "kalah:pits=3,seeds=2,capture=opposite",
            "kalah:pits=3,seeds=3,capture=opposite",
        ),
    ] {
        for command in [&["play", game, "--side", "first"][..], &["db", "query", game][..]] {
            let mut arguments = command.to_vec();
            arguments.extend(["--db", directory.to_str().unwrap()]);
            let output = ludus(&arguments);
            assert_eq!(output.status.code(), Some(2), "{arguments:?}");
            let error = text(&output.stderr);
            assert!(error.contains(&format!("of {holder}, not tier ")), "{arguments:?}: {error}");
            assert!(error.contains(&format!("give a directory of {named}'s own")), "{arguments:?}: {error}");
            // Moving the file out, the advice to a solve that must not write over it, makes no database here.
            assert!(!error.contains("move it out"), "{arguments:?}: {error}");
        }
    }
    // A directory with nothing in it: solving into that very directory is the advice.
    let empty = scratch("empty");
    let db = empty.to_str().unwrap();
    // Each game as given, and with every parameter (as the advice names it).
    for (game, named) in [
        ("kalah:pits=3,seeds=2", "kalah:pits=3,seeds=2,capture=opposite"),
        ("connect-four:width=4,height=4", "connect-four:width=4,height=4"),
    ] {
        let output = ludus(&["play", game, "--side", "first", "--db", db]);
        assert_eq!(output.status.code(), Some(2));
        let error = text(&output.stderr);
        assert!(error.contains(&format!("not solved (run `ludus db solve {named} --db {db}`")), "{error}");
    }
    // Another size of the same game, whose start tier has no file here: solving into this directory would be
    // refused (it holds another game's database), so the advice is a directory of the game's own.
    let dodgem = scratch("dodgem-3");
    solve("dodgem:n=3", &dodgem);
    let db = dodgem.to_str().unwrap();
    for command in [&["play", "dodgem:n=4", "--side", "first"][..], &["db", "query", "dodgem:n=4"][..]] {
        let mut arguments = command.to_vec();
        arguments.extend(["--db", db]);
        let output = ludus(&arguments);
        let error = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{arguments:?}: {error}");
        let advice = format!("{db} holds the database of dodgem:n=3: give a directory of dodgem:n=4's own");
        assert!(error.contains(&advice) && !error.contains("ludus db solve"), "{arguments:?}: {error}");
    }
    std::fs::remove_dir_all(&dodgem).unwrap();
    std::fs::remove_dir_all(&connect_four).unwrap();
    std::fs::remove_dir_all(&kalah).unwrap();
}

/// A scored game's solve never writes over another game's database: `kalah:pits=3,seeds=3` into the directory of
/// `kalah:pits=3,seeds=2` stops with an error naming both, and leaves the file as it was (it replaced it).
#[test]
fn a_scored_solve_leaves_another_game_s_database_alone() {
    let directory = scratch("kalah-overwrite");
    solve("kalah:pits=3,seeds=2", &directory);
    let file = directory.join("scores.ludb");
    let before = std::fs::read(&file).unwrap();
    let other = ludus(&["db", "solve", "kalah:pits=3,seeds=3", "--db", directory.to_str().unwrap()]);
    assert_eq!(other.status.code(), Some(2));
    let error = text(&other.stderr);
    assert!(error.contains("kalah:pits=3,seeds=2") && error.contains("another game's database"), "{error}");
    assert_eq!(std::fs::read(&file).unwrap(), before, "the other game's file is untouched");
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn a_book_that_is_not_the_game_s_says_what_it_is_and_never_speaks_of_directories() {
    // A book is one file given by its path: the database files' words (a directory holding another game's
    // database, a file to move out of the database directory) would send the person the wrong way.
    let directory = scratch("books");
    std::fs::create_dir_all(&directory).unwrap();
    let book = directory.join("tic-tac-toe.book");
    let built = ludus(&["book", "build", "tic-tac-toe", "--depth", "2", "--out", book.to_str().unwrap()]);
    assert!(built.status.success(), "{}", text(&built.stderr));
    let given = [
        (book.clone(), "is an opening book of tic-tac-toe, not of connect-four:width=4,height=4"),
        (directory.clone(), "is a directory, not an opening book"),
        (PathBuf::from("/dev/null"), "is not a regular file (a FIFO, socket or device), not an opening book"),
    ];
    for (path, words) in given {
        let output = ludus(&["analyze", "connect-four:width=4,height=4", "--book", path.to_str().unwrap()]);
        let error = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{error}");
        assert!(error.contains(&format!("{}: {words}", path.display())), "{error}");
        assert!(!error.contains("director") || path == directory, "{error}");
        assert!(!error.contains("move it out"), "{error}");
    }
    std::fs::remove_dir_all(&directory).ok();
}

#[test]
fn a_book_past_its_memory_says_how_far_it_got_in_the_budget_s_unit() {
    // The count was a number of positions set against a flag in MiB, and always the limit plus one.
    let directory = scratch("book-memory");
    std::fs::create_dir_all(&directory).unwrap();
    let book = directory.join("connect-four.book");
    let arguments = ["book", "build", "connect-four:width=5,height=4", "--depth", "20", "--memory-mb", "1"];
    let output = ludus(&[&arguments[..], &["--table-mb", "1", "--out", book.to_str().unwrap()]].concat());
    let error = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{error}");
    assert!(error.contains("the memory the positions of the book's plies ("), "{error}");
    assert!(error.contains(" of 20, and more) needs, in MiB, (--memory-mb) is 2, above the limit of 1"), "{error}");
    assert!(error.ends_with("(raise --memory-mb, or build fewer plies)\n"), "{error}");
    std::fs::remove_dir_all(&directory).ok();
}
