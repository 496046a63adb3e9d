//! `ludus analyze` and `ludus games`: for reference positions of tic-tac-toe (random move sequences) and of
//! Connect Four (the first End-Easy positions), the JSON output parses, and the position's value and every
//! move's value are those the exact engines give when called directly; the loopy games (Dodgem, Three Men's
//! Morris) are analysed by the retrograde engine.

#![allow(clippy::expect_used)] // test helpers: a failure to spawn the binary should fail the test loudly

use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::playable::TextForm;
use ludus_framework::Value;
use ludus_games::classic::{NimGame, TicTacToe};
use ludus_games::connect_four::{exact_value, ConnectFour};
use std::process::{Command, Stdio};

fn analyze(game: &str, position: &str, engine: &str) -> serde_json::Value {
    let output = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["analyze", game, position, "--engine", engine, "--format", "json"])
        .stdin(Stdio::null())
        .output()
        .expect("ludus runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("JSON output")
}

/// `win`/`loss`/`draw` and the remoteness, as the analysis writes a value.
fn words(value: Value) -> (String, Option<u64>) {
    let word = match value {
        Value::Win(_) => "win",
        Value::Lose(_) => "loss",
        Value::Draw => "draw",
    };
    (word.to_string(), value.remoteness().map(u64::from))
}

fn read(json: &serde_json::Value) -> (String, Option<u64>) {
    (json["value"].as_str().unwrap_or_default().to_string(), json["remoteness"].as_u64())
}

/// Checks an analysis against values computed directly: the position's, and each move's (the child's value
/// backed up).
fn check<Ruleset: TextForm>(
    game: &Ruleset,
    position: &str,
    json: &serde_json::Value,
    value_of: &mut dyn FnMut(&Ruleset::Position) -> Value,
) {
    let board = game.parse_position(position).expect("a valid position");
    assert_eq!(read(json), words(value_of(&board)), "{position}");
    let moves = json["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), if game.is_over(&board) { 0 } else { game.legal_moves(&board).len() }, "{position}");
    for entry in moves {
        let mv = game.parse_move(&board, entry["move"].as_str().expect("move")).expect("a legal move");
        let expected = value_of(&game.play(&board, &mv)).backed_up();
        assert_eq!(read(entry), words(expected), "{position} then {}", entry["move"]);
        let best = json["value"] == entry["value"] && json["remoteness"] == entry["remoteness"];
        assert_eq!(entry["best"].as_bool(), Some(best), "{position}: {entry}");
    }
    // The line is a game played to its end (or to the cap) with legal moves; a draw of a loopy game stops when a
    // position comes back.
    let mut current = board;
    for mv in json["line"].as_array().expect("line") {
        let mv = game.parse_move(&current, mv.as_str().expect("move")).expect("a legal move in the line");
        current = game.play(&current, &mv);
    }
    let ended = game.is_over(&current) || game.legal_moves(&current).is_empty();
    assert!(ended || json["value"] == "draw", "{position}: the line stops early");
}

#[test]
fn tic_tac_toe_analyses_match_memoized_negamax() {
    let mut engine = MemoNegamax::new(Mode::Exact);
    // Move sequences of several lengths, over the cells in different orders.
    for position in ["-", "5", "15", "159", "1593", "12345", "2468", "51937", "9513", "73"] {
        for analysis_engine in ["alpha-beta", "memo-negamax"] {
            let json = analyze("tic-tac-toe", position, analysis_engine);
            check(&TicTacToe, position, &json, &mut |board| engine.value(&TicTacToe, board));
        }
    }
}

#[test]
fn connect_four_analyses_match_the_exact_engine() {
    let game = ConnectFour::standard();
    let sample = include_str!("../samples/connect-four/sample.in");
    for line in sample.lines().take(12) {
        let position = line.split_whitespace().next().expect("moves");
        let json = analyze("connect-four", position, "alpha-beta");
        assert_eq!(json["game"], "connect-four:width=7,height=6");
        check(&game, position, &json, &mut |board| exact_value(&game, board).expect("solved"));
    }
    // A small board through memoized negamax, from the start.
    let small = ConnectFour::new(4, 4).expect("4 x 4");
    let json = analyze("connect-four:width=4,height=4", "-", "memo-negamax");
    check(&small, "-", &json, &mut |board| exact_value(&small, board).expect("solved"));
}

#[test]
fn nim_analyses_follow_the_xor_rule() {
    let game = NimGame { heaps: Vec::new() };
    let mut engine = MemoNegamax::new(Mode::Exact);
    for position in ["3,5,7", "1,2,3", "4,4", "0,0,5", "2,6,9,1"] {
        let json = analyze("nim", position, "alpha-beta");
        let heaps = game.parse_position(position).expect("heaps");
        let xor = heaps.iter().fold(0, |acc, heap| acc ^ heap);
        // Bouton: the player to move wins exactly when the heaps' XOR is not zero.
        assert_eq!(json["value"] == "win", xor != 0, "{position}: {json}");
        check(&game, position, &json, &mut |heaps| engine.value(&game, heaps));
    }
}

#[test]
fn dodgem_analyses_come_from_the_retrograde_engine() {
    use ludus_framework::engines::retrograde::RetrogradeSolver;
    use ludus_games::dodgem::Dodgem;
    let game = Dodgem::new(3).expect("3 x 3");
    let solution = RetrogradeSolver::new().solve(&game, &game.start()).expect("solved");
    // The published result: on 3 x 3 the first player wins.
    for position in ["-", "a2b2", "a3b3 b1b2", "a3b3 b1b2 b3c3"] {
        let json = analyze("dodgem", position, "auto");
        check(&game, position, &json, &mut |cars| solution.value(&game, cars).expect("reachable"));
    }
    assert_eq!(analyze("dodgem", "-", "retrograde")["value"], "win");
    // On 4 x 4 neither player can force a win (des Jardins, 1996).
    let json = analyze("dodgem:n=4", "-", "auto");
    assert_eq!((json["value"].as_str(), json["remoteness"].as_u64()), (Some("draw"), None));
    let output = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["analyze", "dodgem", "--engine", "alpha-beta"])
        .output()
        .expect("ludus runs");
    assert!(String::from_utf8_lossy(&output.stderr).contains("is loopy"), "{output:?}");
}

#[test]
fn three_mens_morris_analyses_come_from_the_retrograde_engine() {
    use ludus_framework::engines::retrograde::RetrogradeSolver;
    use ludus_games::three_mens_morris::ThreeMensMorris;
    let game = ThreeMensMorris;
    let solution = RetrogradeSolver::new().solve(&game, &game.start()).expect("solved");
    // Won, lost and drawn positions of both phases, and a finished one.
    let positions = ["-", "b2", "a1 b2", "b2 a1", "b2 a1 c3 a3 a2 c2", "b2 a1 c2 a2 a3 c1 b2b3", "a1 a2 b1 b2 c1"];
    for position in positions {
        let json = analyze("three-mens-morris", position, "auto");
        assert_eq!(json["game"], "three-mens-morris");
        check(&game, position, &json, &mut |board| solution.value(&game, board).expect("reachable"));
    }
    let json = analyze("three-mens-morris", "-", "retrograde");
    assert_eq!((json["value"].as_str(), json["remoteness"].as_u64()), (Some("win"), Some(9)));
    let output = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["analyze", "three-mens-morris", "--engine", "memo-negamax"])
        .output()
        .expect("ludus runs");
    assert!(String::from_utf8_lossy(&output.stderr).contains("is loopy"), "{output:?}");
    let output = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["analyze", "three-mens-morris", "b2 b2"])
        .output()
        .expect("ludus runs");
    assert!(String::from_utf8_lossy(&output.stderr).contains("move 2: point b2 is taken"), "{output:?}");
}

#[test]
fn games_are_listed_and_bad_names_explained() {
    let output = Command::new(env!("CARGO_BIN_EXE_ludus")).args(["games"]).output().expect("ludus runs");
    let text = String::from_utf8_lossy(&output.stdout);
    // Each game once, with its parameters' ranges and defaults, and what can be done with it.
    for name in [
        "tic-tac-toe",
        "connect-four",
        "nim",
        "octal",
        "dodgem",
        "three-mens-morris",
        "quixo",
        "teeko",
        "othello",
        "kalah",
        "dots-and-boxes",
        "pig",
        "hog",
    ] {
        assert_eq!(text.lines().filter(|line| line.starts_with(&format!("{name}  "))).count(), 1, "{name}: {text}");
    }
    assert!(
        text.contains("    width    1 to 9 (default 7)") && text.contains("    n        3 to 5 (default 3)"),
        "{text}"
    );
    assert!(text.contains("analyze, play: sprague-grundy\n"), "{text}");
    assert_eq!(text.matches("db: solve, query, analyze, check").count(), 8, "{text}");
    let output =
        Command::new(env!("CARGO_BIN_EXE_ludus")).args(["games", "--format", "json"]).output().expect("ludus runs");
    let games: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let dodgem = games.as_array().and_then(|games| games.iter().find(|game| game["name"] == "dodgem")).expect("dodgem");
    assert_eq!(dodgem["parameters"][0]["range"], serde_json::json!({"min": 3, "max": 5}));
    assert_eq!((dodgem["engine"].as_str(), dodgem["database"].as_str()), (Some("retrograde"), Some("tiered")));
    assert_eq!((dodgem["family"].as_str(), dodgem["positions_repeat"].as_bool()), (Some("win-loss"), Some(true)));
    let kalah = games.as_array().and_then(|games| games.iter().find(|game| game["name"] == "kalah")).expect("kalah");
    assert_eq!((kalah["database"].as_str(), kalah["board"].as_str()), (Some("whole-game"), Some("pits")));
    let boxes = games.as_array().and_then(|games| games.iter().find(|game| game["name"] == "dots-and-boxes"));
    let boxes = boxes.expect("dots-and-boxes");
    assert_eq!((boxes["database"].as_str(), boxes["board"].as_str()), (Some("whole-game"), Some("edges")));
    let pig = games.as_array().and_then(|games| games.iter().find(|game| game["name"] == "pig")).expect("pig");
    assert_eq!((pig["chance"].as_bool(), pig["database"].as_str()), (Some(true), None));
    // Every position a summary shows ("like `...`", those it writes whole) is one of its game at the defaults
    // (Dodgem's used to play a move onto a taken cell).
    let mut examples = 0;
    for game in games.as_array().expect("a list") {
        let summary = game["summary"].as_str().expect("a summary");
        for example in summary.split("like `").skip(1).filter_map(|rest| rest.split('`').next()) {
            if example.contains("...") {
                continue;
            }
            let name = game["name"].as_str().expect("a name");
            let arguments = ["analyze", name, example, "--line", "0", "--no-book", "--no-endgame"];
            let output = Command::new(env!("CARGO_BIN_EXE_ludus")).args(arguments).output().expect("ludus runs");
            assert!(output.status.success(), "{name} `{example}`: {}", String::from_utf8_lossy(&output.stderr));
            examples += 1;
        }
    }
    assert!(examples >= 4, "the summaries' examples: {examples}");
    for (spec, message) in [
        (
            "chess",
            "no game `chess` (available: tic-tac-toe, connect-four, nim, octal, dodgem, three-mens-morris, quixo, teeko, \
             othello, kalah, dots-and-boxes, pig, hog)",
        ),
        ("three-mens-morris:n=3", "three-mens-morris has no parameter `n` (its parameters: none)"),
        ("dodgem:n=6", "`n` is a whole number from 3 to 5, found `6`"),
        ("nim:heaps=3-x", "expected heap sizes like `3,5,7` (`3-5-7` as a parameter), found `x`"),
        ("connect-four:depth=3", "connect-four has no parameter `depth`"),
        ("connect-four:width=x", "`width` is a whole number from 1 to 9, found `x`"),
        ("connect-four:width=10", "`width` is a whole number from 1 to 9, found `10`"),
        ("connect-four:width=9,height=7", "64"),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_ludus")).args(["analyze", spec]).output().expect("ludus runs");
        assert_eq!(output.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&output.stderr).contains(message), "{spec}: {output:?}");
    }
    let output =
        Command::new(env!("CARGO_BIN_EXE_ludus")).args(["analyze", "tic-tac-toe", "155"]).output().expect("ludus runs");
    assert!(String::from_utf8_lossy(&output.stderr).contains("move 3: cell 5 is taken"), "{output:?}");
    // A game without a database says which games have one.
    let output = Command::new(env!("CARGO_BIN_EXE_ludus")).args(["db", "solve", "nim"]).output().expect("ludus runs");
    assert_eq!(output.status.code(), Some(2));
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.contains("nim:heaps=3-5-7 has no database: `ludus db` solves tic-tac-toe, connect-four, dodgem"),
        "{message}"
    );
}

/// A game's name is canonical whatever order its parameters are given in: a database solved as
/// `height=3,width=4` is the one `width=4,height=3` reads, in the same default folder.
#[test]
fn parameters_in_any_order_name_one_game() {
    let directory = std::env::temp_dir().join(format!("ludus-analyze-canonical-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    let run = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .args(args)
            .current_dir(std::env::temp_dir())
            .stdin(Stdio::null())
            .output()
            .expect("ludus runs");
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let db = directory.to_str().expect("a UTF-8 path");
    assert!(run(&["db", "solve", "connect-four:height=3,width=4", "--db", db])
        .starts_with("connect-four:width=4,height=3:"));
    assert!(run(&["db", "query", "connect-four:width=4,height=3", "--db", db])
        .contains("connect-four:width=4,height=3: draw"));
    let _ = std::fs::remove_dir_all(&directory);
}

/// An octal game is analysed by the Sprague-Grundy engine: Kayles on 80 pins answers at once with the nimbers
/// of the position and of every move (those of the Grundy engine called directly), and the winning moves
/// themselves; misère play is solved whole, by alpha-beta over the sum.
#[test]
fn octal_games_are_analysed_by_their_nimbers() {
    use ludus_framework::engines::grundy::GrundyEngine;
    use ludus_games::classic::Kayles;
    let json = analyze("octal:code=0.77", "80,7", "auto");
    let mut engine = GrundyEngine::new();
    let nimber = engine.nimber(&Kayles, &80) ^ engine.nimber(&Kayles, &7);
    assert_eq!(json["nimber"].as_u64(), Some(u64::from(nimber)));
    assert_eq!(json["value"], if nimber == 0 { "loss" } else { "win" });
    let moves = json["moves"].as_array().expect("moves");
    // Knocking down 1 or 2 pins leaves one row or two (mirror images once): of 80 pins, 1 + 39 and 1 + 39
    // options; of 7, 1 + 3 and 1 + 2.
    assert_eq!(moves.len(), 87);
    for mv in moves {
        let text = mv["move"].as_str().expect("a move");
        let (heap, parts) = text.split_once(':').expect("HEAP:PARTS");
        let mut after = if heap == "1" { engine.nimber(&Kayles, &7) } else { engine.nimber(&Kayles, &80) };
        for part in parts.split('+').filter(|part| *part != "-") {
            after ^= engine.nimber(&Kayles, &part.parse().expect("a heap"));
        }
        assert_eq!(mv["nimber"].as_u64(), Some(u64::from(after)), "{text}");
        assert_eq!(mv["value"], if after == 0 { "win" } else { "loss" }, "{text}");
    }
    let output = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["analyze", "octal:code=0.07,play=misere", "5,3"])
        .stdin(Stdio::null())
        .output()
        .expect("ludus runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stdout).contains("octal:code=0.07,play=misere: "));
    for bad in ["octal:code=0.9", "octal:play=sometimes"] {
        let output = Command::new(env!("CARGO_BIN_EXE_ludus")).args(["analyze", bad]).output().expect("ludus runs");
        assert_eq!(output.status.code(), Some(2), "{bad}");
    }
}

#[test]
fn the_line_takes_at_most_the_plies_asked_and_the_values_stay() {
    let run = |line: &str| -> serde_json::Value {
        let output = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .args(["analyze", "tic-tac-toe", "5", "--line", line, "--format", "json"])
            .stdin(Stdio::null())
            .output()
            .expect("ludus runs");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        serde_json::from_slice(&output.stdout).expect("JSON output")
    };
    let whole = run("200");
    // After the centre, perfect play fills the board: 8 more moves.
    assert_eq!(whole["line"].as_array().expect("line").len(), 8);
    for (plies, expected) in [("0", 0), ("3", 3)] {
        let short = run(plies);
        assert_eq!(short["line"].as_array().expect("line").len(), expected, "--line {plies}");
        assert_eq!(short["line"].as_array().expect("line")[..], whole["line"].as_array().expect("line")[..expected]);
        assert_eq!((&short["value"], &short["moves"]), (&whole["value"], &whole["moves"]), "--line {plies}");
    }
}

#[test]
fn the_value_alone_is_the_whole_analysis_value_with_one_search() {
    let run = |game: &str, flags: &[&str]| -> (serde_json::Value, String) {
        // No book and no database found in the working directory: the searches alone.
        let flags = [flags, &["--no-book", "--no-endgame"]].concat();
        let json = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .args(["analyze", game, "--format", "json"])
            .args(&flags)
            .stdin(Stdio::null())
            .output()
            .expect("ludus runs");
        assert!(json.status.success(), "{}", String::from_utf8_lossy(&json.stderr));
        let text = Command::new(env!("CARGO_BIN_EXE_ludus")).arg("analyze").arg(game).args(&flags).output();
        let text = text.expect("ludus runs");
        assert!(text.status.success(), "{}", String::from_utf8_lossy(&text.stderr));
        let text = String::from_utf8_lossy(&text.stdout).into_owned();
        (serde_json::from_slice(&json.stdout).expect("JSON output"), text)
    };
    // A scored game (Kalah(4, 3): +6, cross-checked by games/tests/kalah.rs) and a win/loss one.
    for game in ["kalah:pits=4,seeds=3", "connect-four:width=4,height=4"] {
        let (whole, whole_text) = run(game, &[]);
        let (alone, text) = run(game, &["--value-only"]);
        assert_eq!((&alone["value"], &alone["score"]), (&whole["value"], &whole["score"]), "{game}");
        assert_eq!(alone["value_only"], true, "{game}");
        assert!(whole.get("value_only").is_none(), "{game}");
        assert_eq!(alone["moves"].as_array().map(Vec::len), Some(0), "{game}");
        assert_eq!(alone["line"].as_array().map(Vec::len), Some(0), "{game}");
        // One search against one per move and per ply of the line.
        let visited = |analysis: &serde_json::Value| analysis["stats"]["visited"].as_u64().expect("a count");
        assert!(visited(&alone) < visited(&whole), "{game}");
        assert!(!text.contains("line:") && whole_text.contains("line:"), "{game}: {text}");
    }
    let (kalah, _) = run("kalah:pits=4,seeds=3", &["--value-only"]);
    assert_eq!(kalah["score"], 6);
    // Without the line, the text says it was not followed, not that the game is over.
    let (_, text) = run("kalah:pits=4,seeds=3", &["--line", "0"]);
    assert!(text.contains("line: (not followed: --line 0)"), "{text}");
    // The value alone takes no line.
    let both = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["analyze", "kalah:pits=4,seeds=3", "--value-only", "--line", "3"])
        .output()
        .expect("ludus runs");
    assert!(!both.status.success() && String::from_utf8_lossy(&both.stderr).contains("--line"));
}
