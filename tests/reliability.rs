//! Nothing lost, nothing aborted: output that cannot be written is an error (never a lost answer with status
//! 0, never a panic), a reader that leaves early ends a command quietly, a file-size limit is a message naming
//! the file, every engine of `analyze` and `play` obeys the memory and position budgets, every budget flag
//! has one range everywhere, and errors quote what they were given briefly.

#![allow(clippy::expect_used)] // test helpers: a failure to spawn the binary should fail the test loudly

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn ludus() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ludus"));
    command.stdin(Stdio::null());
    command
}

fn run(args: &[&str]) -> Output {
    ludus().args(args).output().expect("ludus runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A scratch directory for a test, removed when the test is done with it.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh scratch directory for this test.
fn scratch(name: &str) -> Scratch {
    let directory = std::env::temp_dir().join(format!("ludus-reliability-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).expect("scratch directory");
    Scratch(directory)
}

fn path(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// Asserts exit status 2, one error holding every one of `needles`, and no panic.
fn assert_error(output: &Output, needles: &[&str]) {
    let message = stderr(output);
    assert_eq!(output.status.code(), Some(2), "{message}");
    assert!(!message.contains("panicked"), "{message}");
    for needle in needles {
        assert!(message.contains(needle), "`{needle}` not in: {message}");
    }
}

/// A solved tic-tac-toe database in a scratch directory.
fn tic_tac_toe_database(name: &str) -> Scratch {
    let directory = scratch(name);
    let output = run(&["db", "solve", "tic-tac-toe", "--db", path(&directory)]);
    assert!(output.status.success(), "{}", stderr(&output));
    directory
}

/// Every command, its output sent to a device that is full: status 2 and a message, never status 0 with the
/// output lost, and never a panic.
#[test]
fn output_to_a_full_device_is_an_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: this system has no /dev/full");
        return;
    };
    let database = tic_tac_toe_database("full");
    let unsolved = scratch("full-solve");
    let inputs = scratch("full-input");
    let input = inputs.join("positions.txt");
    std::fs::write(&input, "2252576253462244111563365343671351441\n").expect("input");
    let db = path(&database);
    let commands: Vec<Vec<&str>> = vec![
        vec!["analyze", "tic-tac-toe", "--format", "json"],
        vec!["analyze", "tic-tac-toe"],
        vec!["games", "--format", "json"],
        vec!["games"],
        vec!["list"],
        vec!["solve", "connect-four", path(&input), "--format", "json"],
        vec!["solve", "connect-four", path(&input)],
        vec!["db", "query", "tic-tac-toe", "--db", db, "--format", "json"],
        vec!["db", "query", "tic-tac-toe", "--db", db],
        vec!["db", "analyze", "tic-tac-toe", "--db", db],
        vec!["db", "analyze", "tic-tac-toe", "--db", db, "--format", "json"],
        vec!["db", "check", "tic-tac-toe", "--db", db],
        vec!["db", "check", "tic-tac-toe", "--db", db, "--format", "json"],
        vec!["db", "solve", "tic-tac-toe", "--db", path(&unsolved), "--format", "json"],
        vec!["db", "solve", "tic-tac-toe", "--db", path(&unsolved)],
        // Its prompt is its first write (the error had no "cannot write standard output").
        vec!["play", "tic-tac-toe"],
    ];
    for args in commands {
        let sink = full.try_clone().expect("/dev/full");
        let output = ludus().args(&args).stdout(sink).output().expect("ludus runs");
        assert_error(&output, &["cannot write standard output", "No space left on device"]);
        assert_eq!(stderr(&output).matches("No space left on device").count(), 1, "{args:?}: {}", stderr(&output));
    }
}

/// A reader that leaves before the output is written (`ludus db check ... | head -0`): the command ends quietly
/// with status 0, without a panic.
#[test]
fn a_reader_that_leaves_early_ends_the_command_quietly() {
    let database = tic_tac_toe_database("pipe");
    let unsolved = scratch("pipe-solve");
    let db = path(&database);
    let commands: Vec<Vec<&str>> = vec![
        vec!["db", "check", "tic-tac-toe", "--db", db],
        vec!["db", "analyze", "tic-tac-toe", "--db", db],
        vec!["db", "solve", "tic-tac-toe", "--db", path(&unsolved)],
        vec!["analyze", "tic-tac-toe"],
        vec!["play", "tic-tac-toe"],
    ];
    for args in commands {
        let mut child = ludus().args(&args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("starts");
        drop(child.stdout.take());
        let output = child.wait_with_output().expect("ludus ends");
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {message}");
        assert!(!message.contains("panicked") && !message.contains("error"), "{args:?}: {message}");
    }
}

/// `ulimit -f`: the system would stop the solve with SIGXFSZ and no word; the write fails instead, and the
/// error names the tier file.
#[test]
fn a_file_size_limit_is_an_error_naming_the_file() {
    if Command::new("bash").arg("-c").arg("true").status().map(|status| !status.success()).unwrap_or(true) {
        eprintln!("skipped: no bash to set a file-size limit");
        return;
    }
    let directory = scratch("ulimit");
    let script = format!(
        "ulimit -f 8 && exec '{}' db solve connect-four:width=5,height=4 --db '{}'",
        env!("CARGO_BIN_EXE_ludus"),
        path(&directory)
    );
    let output = Command::new("bash").arg("-c").arg(script).stdin(Stdio::null()).output().expect("bash runs");
    assert_error(&output, &["File too large", ".ludb", path(&directory)]);
}

/// The retrograde engine of `analyze` holds no more positions than `--memory-mb` allows: a clear error, the
/// same as `db solve`'s, instead of growing past gigabytes.
#[test]
fn analyze_with_the_retrograde_engine_obeys_the_memory_budget() {
    let output = run(&["analyze", "connect-four:width=4,height=15", "--engine", "retrograde", "--memory-mb", "100"]);
    assert_error(&output, &["memory budget of 100 MiB", "--memory-mb"]);
    // Within the budget, the same engine answers: Dodgem 3 x 3 is a win for the first player.
    let output = run(&["analyze", "dodgem:n=3", "--engine", "retrograde", "--memory-mb", "64"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("win in"), "{}", stdout(&output));
    let output = run(&["analyze", "dodgem:n=3", "--engine", "retrograde", "--max-positions", "100"]);
    assert_error(&output, &["budget of 100 positions", "--max-positions"]);
}

/// `play` has the search budgets: the perfect player's search stops at `--max-positions` with the budget
/// error.
#[test]
fn play_obeys_the_position_budget() {
    let mut child = ludus()
        .args(["play", "connect-four", "--side", "first", "--no-book", "--max-positions", "1000"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    child.stdin.take().expect("stdin").write_all(b"4\n").expect("a move");
    let output = child.wait_with_output().expect("ends");
    assert_error(&output, &["budget of 1000 positions", "--max-positions"]);
}

/// A line of standard input longer than a command is skipped without being held, said briefly, and play goes
/// on.
#[test]
fn play_caps_the_lines_it_reads() {
    let mut child = ludus()
        .args(["play", "tic-tac-toe", "--side", "first"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut input = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let long = vec![b'x'; 4 << 20];
        input.write_all(&long).and_then(|()| input.write_all(b"\n5\nquit\n"))
    });
    let output = child.wait_with_output().expect("ends");
    writer.join().expect("writer").expect("the input is written");
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(text.contains("longer than 1024 bytes"), "{}", &text[..text.len().min(2000)]);
    assert!(text.contains("I play"), "the game went on after the long line");
    assert!(text.len() < 10_000, "the long line was echoed back: {} bytes", text.len());
}

/// Playing second, `undo` before any move of one's own takes nothing back (and says so): the perfect
/// player's first move is not taken back and played again.
#[test]
fn undo_before_any_move_of_ones_own_takes_nothing_back() {
    let mut child = ludus()
        .args(["play", "tic-tac-toe", "--side", "second"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("starts");
    child.stdin.take().expect("stdin").write_all(b"undo\nquit\n").expect("commands");
    let output = child.wait_with_output().expect("ends");
    let text = stdout(&output);
    assert!(text.contains("Nothing to take back"), "{text}");
    assert_eq!(text.matches("I play").count(), 1, "{text}");
}

/// `--table-mb` and `--memory-mb` take the same range in every command, and a table larger than the memory
/// budget is refused by `analyze` as by `solve`.
#[test]
fn every_budget_flag_has_one_range_everywhere() {
    let inputs = scratch("ranges");
    let input = inputs.join("positions.txt");
    std::fs::write(&input, "2252576253462244111563365343671351441\n").expect("input");
    let commands: Vec<Vec<&str>> = vec![
        vec!["analyze", "tic-tac-toe"],
        vec!["play", "tic-tac-toe", "--side", "first"],
        vec!["solve", "connect-four", path(&input)],
    ];
    for command in &commands {
        for flag in ["--table-mb", "--memory-mb"] {
            for value in ["0", "18446744073709551615", "1048577"] {
                let mut args = command.clone();
                args.extend([flag, value]);
                assert_error(&run(&args), &[flag, "1..=1048576"]);
            }
        }
    }
    for flag in ["--memory-mb", "--max-positions"] {
        assert_error(&run(&["db", "solve", "tic-tac-toe", flag, "0"]), &[flag]);
    }
    for command in &commands[..2] {
        let mut args = command.clone();
        args.extend(["--table-mb", "2000", "--memory-mb", "1000"]);
        assert_error(&run(&args), &["--table-mb", "2000", "1000", "--memory-mb"]);
    }
}

/// Errors quote a bad game name or parameter briefly, with control characters escaped, and say what is wrong
/// with a path once.
#[test]
fn errors_quote_their_input_briefly_and_once() {
    let long = "x".repeat(100_000);
    for game in [
        long.clone(),
        format!("tic-tac-toe:{long}"),
        format!("connect-four:width={long}"),
        format!("nim:heaps={long}"),
        format!("connect-four:width=5,width={long}"),
    ] {
        let output = run(&["analyze", &game]);
        assert_error(&output, &[]);
        assert!(stderr(&output).len() < 500, "{} bytes: {}", stderr(&output).len(), &stderr(&output)[..500]);
    }
    let output = run(&["analyze", "tic\u{1b}[31m"]);
    assert_error(&output, &["\\u{1b}"]);
    assert!(!stderr(&output).contains('\u{1b}'));
    let files = scratch("twice");
    let file = files.join("a-file");
    std::fs::write(&file, "").expect("a file");
    let output = run(&["db", "solve", "tic-tac-toe", "--db", path(&file)]);
    assert_error(&output, &["is not a directory"]);
    assert_eq!(stderr(&output).matches("is not a directory").count(), 1, "{}", stderr(&output));
}
