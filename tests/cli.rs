//! End-to-end tests of the `ludus` binary: every plugin on the official samples (from `../shared/data` when
//! present, else the bundled copies), answer files judged by `ludus verify`, generated inputs round-tripped,
//! random cross-checks, and clear errors with non-zero exits for bad usage and bad input.

#![allow(clippy::expect_used)] // test helpers: a failure to spawn the binary should fail the test loudly

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn ludus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus")).args(args).stdin(Stdio::null()).output().expect("ludus runs")
}

fn ludus_with_stdin(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ludus starts");
    child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("write stdin");
    child.wait_with_output().expect("ludus ends")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The names of the registered plugins, from `ludus list --format json`.
fn plugins() -> Vec<(String, String)> {
    let output = ludus(&["list", "--format", "json"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let list: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    list.as_array()
        .expect("array")
        .iter()
        .map(|p| (p["name"].as_str().expect("name").to_string(), p["kind"].as_str().expect("kind").to_string()))
        .collect()
}

/// The official sample directory of a plugin: `../shared/data/NAME` if it exists, else the bundled copy.
fn sample_dir(plugin: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/data").join(plugin);
    if shared.join("sample.in").exists() {
        shared
    } else {
        root.join("samples").join(plugin)
    }
}

/// A scratch file in a directory of its own, both removed when it is dropped.
struct TempFile {
    path: PathBuf,
    _directory: tempfile::TempDir,
}

impl std::ops::Deref for TempFile {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

/// Writes `contents` to a scratch file named `name`.
fn temp_file(name: &str, contents: &str) -> TempFile {
    let directory = tempfile::Builder::new().prefix("ludus-cli-test-").tempdir().expect("temp dir");
    let path = directory.path().join(name);
    std::fs::write(&path, contents).expect("write temp file");
    TempFile { path, _directory: directory }
}

#[test]
fn the_default_command_runs_every_sample_and_all_are_right() {
    let output = ludus(&[]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", text(&output.stderr));
    let count = plugins().len();
    assert!(stdout.contains(&format!("{count} of {count} plugins answer their samples right")), "{stdout}");
}

#[test]
fn every_solver_of_every_plugin_answers_the_official_sample() {
    for (plugin, _) in plugins() {
        let dir = sample_dir(&plugin);
        let input = dir.join("sample.in");
        let input_arg = input.to_str().expect("path");
        let list = ludus(&["list", "--format", "json"]);
        let all: serde_json::Value = serde_json::from_slice(&list.stdout).expect("JSON");
        let entry =
            all.as_array().expect("array").iter().find(|p| p["name"] == plugin.as_str()).expect("listed").clone();
        for solver in entry["solvers"].as_array().expect("solvers") {
            let engine = solver["name"].as_str().expect("solver name");
            let output = ludus(&["solve", &plugin, input_arg, "--solver", engine]);
            assert!(output.status.success(), "{plugin}/{engine}: {}", text(&output.stderr));
            let answer = temp_file(&format!("{plugin}-{engine}.out"), &text(&output.stdout));
            let verdict = ludus(&["verify", &plugin, input_arg, answer.to_str().expect("path")]);
            assert!(verdict.status.success(), "{plugin}/{engine}: {}", text(&verdict.stdout));
            if entry["kind"] != "constructive" {
                let expected = std::fs::read_to_string(dir.join("sample.ans")).expect("sample.ans");
                assert_eq!(text(&output.stdout).trim_end(), expected.trim_end(), "{plugin}/{engine}");
            }
        }
    }
}

#[test]
fn published_sample_answers_verify_and_tampered_ones_do_not() {
    for (plugin, _) in plugins() {
        let dir = sample_dir(&plugin);
        let input = dir.join("sample.in");
        let answer = dir.join("sample.ans");
        let output = ludus(&["verify", &plugin, input.to_str().expect("path"), answer.to_str().expect("path")]);
        assert!(output.status.success(), "{plugin}: {}", text(&output.stdout));
        // Drop the last case: the verifier must notice.
        let published = std::fs::read_to_string(&answer).expect("sample.ans");
        if let Some(cut) = published.rfind("Case #") {
            let short = temp_file(&format!("{plugin}-short.ans"), &published[..cut]);
            let output = ludus(&["verify", &plugin, input.to_str().expect("path"), short.to_str().expect("path")]);
            assert_eq!(output.status.code(), Some(1), "{plugin}: {}", text(&output.stdout));
            assert!(text(&output.stdout).contains("missing"), "{plugin}: {}", text(&output.stdout));
        }
    }
}

#[test]
fn generated_official_inputs_solve_from_standard_input_and_verify() {
    for (plugin, _) in plugins() {
        let generated = ludus(&["gen", &plugin, "--preset", "official", "--seed", "3", "--cases", "5"]);
        assert!(generated.status.success(), "{plugin}: {}", text(&generated.stderr));
        let input = text(&generated.stdout);
        let solved = ludus_with_stdin(&["solve", &plugin, "-"], &input);
        assert!(solved.status.success(), "{plugin}: {}", text(&solved.stderr));
        let input_file = temp_file(&format!("{plugin}-gen.in"), &input);
        let answer_file = temp_file(&format!("{plugin}-gen.out"), &text(&solved.stdout));
        let verdict =
            ludus(&["verify", &plugin, input_file.to_str().expect("path"), answer_file.to_str().expect("path")]);
        assert!(verdict.status.success(), "{plugin}: {}", text(&verdict.stdout));
        let json = ludus(&["solve", &plugin, input_file.to_str().expect("path"), "--format", "json"]);
        let value: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON output");
        assert_eq!(value["cases"].as_array().map(Vec::len), Some(5), "{plugin}");
    }
}

#[test]
fn check_cross_checks_every_plugin() {
    let output = ludus(&["check", "all", "--cases", "30", "--seed", "9"]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert_eq!(stdout.matches("all agree, all verified").count(), plugins().len(), "{stdout}");
    // With witnesses: every winning line is replayed by the verifier.
    let output = ludus(&["check", "stack-management", "--cases", "200", "--seed", "3", "--option", "witness"]);
    assert!(output.status.success(), "{}", text(&output.stdout));
    // With `all`, each plugin gets the options it declares (two plugins declare `witness`), and an option that
    // no plugin declares is refused before any check runs.
    let output = ludus(&["check", "all", "--cases", "5", "--option", "witness", "--format", "json"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let output = ludus(&["check", "all", "--cases", "5", "--option", "deep"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("no plugin has an option `deep`"), "{}", text(&output.stderr));
    let output = ludus(&["check", "connect-four", "--cases", "5", "--option", "witness"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("connect-four has no option `witness` (its options: weak)"));
}

#[test]
fn unknown_plugins_solvers_and_flags_are_clear_errors() {
    let output = ludus(&["solve", "no-such-game", "x.in"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("unknown plugin `no-such-game`"), "{}", text(&output.stderr));
    assert_eq!(text(&output.stderr).lines().count(), 1);

    let output = ludus(&["solve", "--bogus-flag"]);
    assert_eq!(output.status.code(), Some(2));

    if let Some((plugin, _)) = plugins().first() {
        let output = ludus(&["solve", plugin, "--engine", "quantum", "x.in"]);
        assert_eq!(output.status.code(), Some(2));
        assert!(text(&output.stderr).contains("has no solver `quantum`"), "{}", text(&output.stderr));

        let output = ludus(&["solve", plugin, "/no/such/file.in"]);
        assert_eq!(output.status.code(), Some(2));
        assert!(text(&output.stderr).contains("cannot read /no/such/file.in"), "{}", text(&output.stderr));
    }
}

#[test]
fn malformed_input_names_the_file_and_line() {
    for (plugin, _) in plugins() {
        let bad = temp_file(&format!("{plugin}-bad.in"), "1\nnonsense here\n");
        let output = ludus(&["solve", &plugin, bad.to_str().expect("path")]);
        assert_eq!(output.status.code(), Some(2), "{plugin}: {}", text(&output.stdout));
        let stderr = text(&output.stderr);
        assert!(stderr.starts_with("error: "), "{plugin}: {stderr}");
        assert!(stderr.contains(&format!("{}:", bad.display())), "{plugin}: {stderr}");
        assert!(!stderr.contains("panicked"), "{plugin}: {stderr}");

        let empty = ludus_with_stdin(&["solve", &plugin], "");
        assert_eq!(empty.status.code(), Some(2), "{plugin}");
        assert!(text(&empty.stderr).contains("<stdin>:1:1"), "{plugin}: {}", text(&empty.stderr));
    }
}

#[test]
fn the_six_plugins_are_registered_with_generic_and_fast_solvers() {
    let names: Vec<String> = plugins().into_iter().map(|(name, _)| name).collect();
    assert_eq!(
        names,
        [
            "adjacent-and-consecutive",
            "bacterial-tactics",
            "connect-four",
            "minesweeper-master",
            "square-free",
            "stack-management"
        ]
    );
    let output = ludus(&["list", "--format", "json"]);
    let list: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    for plugin in list.as_array().expect("array") {
        let solvers: Vec<&str> =
            plugin["solvers"].as_array().expect("solvers").iter().filter_map(|s| s["name"].as_str()).collect();
        assert_eq!(solvers.first(), Some(&"fast"), "{plugin}");
        assert!(solvers.contains(&"generic"), "{plugin}");
    }
}

#[test]
fn list_shows_kinds_and_solvers() {
    let output = ludus(&["list"]);
    assert!(output.status.success());
    for (plugin, _) in plugins() {
        assert!(text(&output.stdout).contains(&plugin));
    }
    assert!(text(&output.stdout).contains("--solver generic") || plugins().is_empty());
}

#[test]
fn a_plugins_own_options_are_checked_and_weak_still_gives_weak_answers() {
    // `4455` is a win for the player to move: exact score 18, weakly 1, by `--option weak`.
    for (args, expected) in [
        (&["solve", "connect-four", "--option", "weak"][..], "4455 1\n"),
        (&["solve", "connect-four", "--option", "weak=on"][..], "4455 1\n"),
        (&["solve", "connect-four", "--option", "weak=off"][..], "4455 18\n"),
    ] {
        let output = ludus_with_stdin(args, "4455\n");
        assert_eq!(output.status.code(), Some(0), "{args:?}: {}", text(&output.stderr));
        assert_eq!(text(&output.stdout), expected, "{args:?}");
    }
    // An unknown option is an error before the input is read: it names the option and lists the known ones.
    let output = ludus(&["solve", "connect-four", "--option", "deep", "/no/such/file.in"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(text(&output.stderr).trim(), "error: connect-four has no option `deep` (its options: weak)");
    let output = ludus(&["solve", "bacterial-tactics", "--option", "weak", "/no/such/file.in"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("bacterial-tactics has no option `weak` (its options: witness)"));
    // The framework has no flag of a plugin's own.
    let output = ludus(&["solve", "connect-four", "--weak", "/no/such/file.in"]);
    assert_eq!(output.status.code(), Some(2));
    let listed = text(&ludus(&["list"]).stdout);
    assert!(listed.contains("--option weak") && listed.contains("--option witness"), "{listed}");
}
