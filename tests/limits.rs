//! Bounded time and memory on every accepted input: one test per kind of input that once ran without bound
//! (endless streams, huge counts, maximal sizes, extreme flags), scaled down where a small budget set by flag
//! shows the same behaviour. Each asserts the clear error (exit status 2, the limit and the flag that lifts it)
//! or the bounded answer, and the messages' shape (place first, short escaped excerpts).

#![allow(clippy::expect_used)] // test helpers: a failure to spawn the binary should fail the test loudly

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn ludus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus")).args(args).stdin(Stdio::null()).output().expect("ludus runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Runs `ludus` on an input file holding `text`, with `args` after the file.
fn solve_text(plugin: &str, text: &str, args: &[&str]) -> Output {
    let directory = tempfile::Builder::new().prefix("ludus-limits-").tempdir().expect("temp dir");
    let file = directory.path().join(format!("{plugin}-{}.in", text.len()));
    std::fs::write(&file, text).expect("write input");
    let path = file.to_str().expect("path");
    let mut all = vec!["solve", plugin, path];
    all.extend_from_slice(args);
    ludus(&all)
}

/// Asserts exit status 2 and a one-line error holding every one of `needles`.
fn assert_error(output: &Output, needles: &[&str]) {
    let message = stderr(output);
    assert_eq!(output.status.code(), Some(2), "{message}");
    for needle in needles {
        assert!(message.contains(needle), "`{needle}` not in: {message}");
    }
}

#[test]
fn an_endless_stream_is_cut_at_the_input_cap() {
    for plugin in ["square-free", "connect-four", "stack-management"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .args(["solve", plugin, "-", "--max-input-mb", "1"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ludus starts");
        let mut input = child.stdin.take().expect("stdin");
        // `yes 1`: the writer stops only when ludus closes the pipe.
        let writer = std::thread::spawn(move || while input.write_all(&b"1\n".repeat(4096)).is_ok() {});
        let output = child.wait_with_output().expect("ludus ends");
        writer.join().expect("writer");
        assert_error(&output, &["<stdin>", "larger than 1 MiB", "--max-input-mb"]);
    }
}

#[test]
fn device_files_are_cut_at_the_input_cap() {
    for device in ["/dev/zero", "/dev/urandom"] {
        if std::path::Path::new(device).exists() {
            assert_error(&ludus(&["solve", "minesweeper-master", device, "--max-input-mb", "1"]), &["--max-input-mb"]);
        }
    }
}

#[test]
fn thread_counts_are_capped() {
    let output = ludus(&["solve", "connect-four", "--threads", "100000", "-"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("0..=256"), "{}", stderr(&output));
}

#[test]
fn the_tables_of_all_workers_fit_the_memory_budget() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/bacterial-tactics/sample.in");
    let args = ["--solver", "parallel", "--threads", "4", "--table-mb", "100", "--memory-mb", "200"];
    let output = ludus(&[&["solve", "bacterial-tactics", sample][..], &args[..]].concat());
    assert_error(&output, &["memory of 4 table(s) of 100 MiB", "--memory-mb"]);
    let output = ludus(&["solve", "bacterial-tactics", sample, "--threads", "2", "--memory-mb", "200"]);
    assert!(output.status.success(), "{}", stderr(&output));
    // A solver that keeps no table is not charged for one.
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/square-free/sample.in");
    let output = ludus(&["solve", "square-free", sample, "--threads", "200", "--memory-mb", "100"]);
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn connect_four_searches_keep_to_their_budgets() {
    // 40 positions with 30 empty cells each: the table stays at its budget, and a position budget ends the run
    // at the first position that needs more, with the flag named.
    let game = "1234567123456712";
    let positions: String = (0..40).map(|_| format!("{game}\n")).collect();
    let output = solve_text("connect-four", &positions, &["--table-mb", "1", "--max-positions", "2000"]);
    assert_error(&output, &[":1: case 1:", "budget of 2000 positions", "--max-positions"]);
    // An opening with --no-limit and the generic solver: the same budget applies.
    let output = solve_text("connect-four", "4\n", &["--solver", "generic", "--no-limit", "--max-positions", "5000"]);
    assert_error(&output, &["case 1", "--max-positions"]);
    // Answers already found are printed, whole, before the error; standard error says so.
    let output = solve_text(
        "connect-four",
        &format!("2252576253462244111563365343671351441\n{game}\n"),
        &["--max-positions", "2000"],
    );
    assert_eq!(stdout(&output), "2252576253462244111563365343671351441 -1\n");
    assert!(stderr(&output).contains("the first 1 cases only"), "{}", stderr(&output));
}

#[test]
fn square_free_refuses_inputs_past_its_work_limit_up_front() {
    let grid = format!("500 500\n{}\n{}\n", vec!["0"; 500].join(" "), vec!["0"; 500].join(" "));
    let input = format!("10\n{}", grid.repeat(10));
    let output = solve_text("square-free", &input, &[]);
    assert_error(&output, &["work units", "cases 1 to 8 together", "above the limit", "--no-limit"]);
    assert!(stdout(&output).is_empty(), "nothing is solved before the refusal");
}

#[test]
fn bacterial_tactics_keeps_to_its_limits() {
    let grid = format!("64 64\n{}", format!("{}\n", ".".repeat(64)).repeat(64));
    let output = solve_text("bacterial-tactics", &format!("3\n{}", grid.repeat(3)), &[]);
    assert_error(&output, &["work units", "cases 1 to 3 together", "--no-limit"]);
    // The generic solver past its cell limit, made to run by --no-limit: its position budget still holds.
    let output = solve_text(
        "bacterial-tactics",
        &format!("1\n8 16\n{}", format!("{}\n", ".".repeat(16)).repeat(8)),
        &["--solver", "generic", "--no-limit", "--max-positions", "10000"],
    );
    assert_error(&output, &["case 1", "--max-positions"]);
}

#[test]
fn adjacent_and_consecutive_bounds_the_closed_form_and_its_judge() {
    let generated =
        ludus(&["gen", "adjacent-and-consecutive", "--preset", "official", "--cases", "17", "--size", "10000"]);
    assert!(generated.status.success(), "{}", stderr(&generated));
    let output = solve_text("adjacent-and-consecutive", &stdout(&generated), &["--solver", "closed-form"]);
    assert_error(&output, &["work units (N^2 per game)", "cases 1 to 17 together", "--no-limit"]);
    // A game the judge cannot check in reasonable time is rejected, saying why, at once.
    let moves: String = (1..=30_000).map(|tile| format!("{tile} {tile}\n")).collect();
    let directory = tempfile::Builder::new().prefix("ludus-limits-judge-").tempdir().expect("temp dir");
    let (input, answer) = (directory.path().join("big.in"), directory.path().join("big.ans"));
    std::fs::write(&input, format!("1\n30000\n{moves}")).expect("write");
    std::fs::write(&answer, "Case #1: 0 0\n").expect("write");
    let output =
        ludus(&["verify", "adjacent-and-consecutive", input.to_str().expect("path"), answer.to_str().expect("path")]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stdout(&output).contains("the judge checks games of at most 20000"), "{}", stdout(&output));
}

#[test]
fn minesweeper_brute_force_refuses_huge_boards_up_front() {
    let output = solve_text("minesweeper-master", "1\n2000 2000 1000\n", &["--solver", "generic"]);
    assert_error(&output, &["work units (mine layouts tried x clicks x cells)", "--no-limit"]);
}

#[test]
fn check_counts_are_bounded() {
    let output = ludus(&["check", "square-free", "--cases", "100000000"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("1..=1000000"), "{}", stderr(&output));
}

#[test]
fn every_generator_checks_its_counts_the_same_way() {
    for plugin in [
        "adjacent-and-consecutive",
        "bacterial-tactics",
        "connect-four",
        "minesweeper-master",
        "square-free",
        "stack-management",
    ] {
        let zero = ludus(&["gen", plugin, "--cases", "0"]);
        assert_error(&zero, &["the number of cases to generate must be at least 1"]);
        let many = ludus(&["gen", plugin, "--cases", "100000000"]);
        assert_error(&many, &["the number of cases to generate (--cases) is 100000000, above the limit"]);
    }
}

#[test]
fn errors_lead_with_the_place_and_quote_input_short_and_escaped() {
    // A byte-order mark is skipped: the input is read as if it were not there.
    let output = solve_text("square-free", "\u{feff}1\n1 1\n0\n0\n", &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    // NUL bytes and a 100 kB line are quoted short and escaped.
    let output = solve_text("square-free", &format!("\0{}\n", "x".repeat(100_000)), &[]);
    let message = stderr(&output);
    assert_error(&output, &[":1:1:", "\\u{0}", "..."]);
    assert!(message.len() < 300 && !message.contains('\0'), "{message}");
    // Connect Four's limit errors name the file and line too.
    let end = "2252576253462244111563365343671351441";
    let output =
        solve_text("connect-four", &format!("{end}\n{end}\n{end}\n1234567123456712\n"), &["--solver", "generic"]);
    assert_error(&output, &[":4: case 4: the empty cells for solver `generic`", "--no-limit"]);
}

#[test]
fn an_answer_file_that_is_not_text_rejects_its_cases() {
    let directory = tempfile::Builder::new().prefix("ludus-limits-utf8-").tempdir().expect("temp dir");
    let answer = directory.path().join("binary.ans");
    std::fs::write(&answer, b"Case #1: \xff\xfe\n").expect("write");
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/bacterial-tactics/sample.in");
    let output = ludus(&["verify", "bacterial-tactics", sample, answer.to_str().expect("path")]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stdout(&output).contains("not UTF-8 text (byte 10)"), "{}", stdout(&output));
}
