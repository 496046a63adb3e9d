//! `ludus play` fed its lines on standard input (`printf '2\nundo\nquit\n' | ludus play ...`), the whole
//! transcript read back: `undo` in Kalah, where a move that ends in the mover's store leaves the same player to
//! move, and the commands of the outcome prompt of `--ask-dice`.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failure should fail the test loudly

use std::io::Write;
use std::process::{Command, Stdio};

/// `ludus ARGUMENTS` with `input` on standard input: its exit status, standard output and standard error.
fn ludus(arguments: &[&str], input: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(arguments)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ludus runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (output.status.code(), text(&output.stdout), text(&output.stderr))
}

/// The positions shown at each `your move>` prompt, in order (Kalah writes each as `board: ...`).
fn boards_at_prompts(transcript: &str) -> Vec<&str> {
    transcript
        .split("your move>")
        .filter_map(|before| before.lines().rev().find_map(|line| line.split_once("board: ").map(|(_, board)| board)))
        .collect()
}

#[test]
fn undo_takes_back_a_move_that_ended_in_the_store() {
    // Pit 2 of three seeds ends in South's store: South, the person, moves again; `undo` takes it back.
    let (status, transcript, errors) = ludus(&["play", "kalah:pits=4,seeds=3", "--side", "first"], "2\nundo\nquit\n");
    assert_eq!(status, Some(0), "{errors}");
    assert!(!transcript.contains("Nothing to take back"), "{transcript}");
    let start = "3 3 3 3 0 / 3 3 3 3 0 s";
    assert_eq!(boards_at_prompts(&transcript), [start, "3 0 4 4 1 / 3 3 3 3 0 s", start], "{transcript}");
}

#[test]
fn undo_goes_back_past_every_reply_of_the_perfect_player() {
    // Playing second: before the person's first move, whatever the perfect player played (extra moves
    // included) is not the person's to take back; after it, `undo` comes back to that same position.
    let (status, transcript, errors) =
        ludus(&["play", "kalah:pits=4,seeds=3", "--side", "second"], "undo\n1\nundo\nundo\nquit\n");
    assert_eq!(status, Some(0), "{errors}");
    assert_eq!(transcript.matches("Nothing to take back.").count(), 2, "{transcript}");
    let boards = boards_at_prompts(&transcript);
    assert_eq!(boards.len(), 5, "{transcript}");
    assert!(boards[0].ends_with(" n"), "the person (North) is to move at the first prompt: {transcript}");
    assert_eq!(boards[1], boards[0], "nothing was taken back");
    assert_ne!(boards[2], boards[0], "the person's move and the reply");
    assert_eq!(boards[3], boards[0], "both taken back: {transcript}");
    assert_eq!(boards[4], boards[0]);
}

#[test]
fn the_outcome_prompt_takes_the_commands_of_the_move_prompt() {
    let (status, transcript, errors) =
        ludus(&["play", "pig:goal=4", "--side", "first", "--ask-dice"], "roll\nhelp\nhint\nundo\nroll\nquit\n");
    assert_eq!(status, Some(0), "{errors}");
    assert!(!transcript.contains("is not an outcome here"), "{transcript}");
    // `help` shows the commands again; `hint` every outcome's value with its probability.
    assert_eq!(transcript.matches("commands: ").count(), 2, "{transcript}");
    assert_eq!(transcript.matches("(outcome of probability 1/6)").count(), 6, "{transcript}");
    // `undo` takes the roll back to the move prompt; `quit` ends the game at the second roll's prompt.
    assert_eq!(transcript.matches("your move>").count(), 2, "{transcript}");
    assert_eq!(transcript.matches("outcome? [").count(), 4, "{transcript}");
    assert!(!transcript.contains("Chance: "), "no outcome was played: {transcript}");
}
