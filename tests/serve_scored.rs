//! `ludus serve` over real HTTP for the scored games and the games with chance: Kalah's pits, Dots and Boxes'
//! edges (from a search and from a served database) and Othello's grid (its pass a button), Pig's and Hog's panels and their chance nodes, every value equal to `ludus
//! analyze`'s (or to `ludus db query`'s, from a served Kalah database, whose failures are named: a position it
//! does not hold, a file deleted while serving), and their searches within the server's budgets (positions,
//! time).

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failure should fail the test loudly

mod server;

use serde_json::{json, Value};
use server::Server;
use std::process::Command;

/// `ludus ARGS` and its standard output as JSON.
fn ludus_json(arguments: &[&str]) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_ludus")).args(arguments).output().expect("ludus runs");
    assert!(output.status.success(), "ludus {arguments:?}: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("JSON")
}

/// `ludus analyze GAME [POSITION] --format json`.
fn analyzed(game: &str, position: &str) -> Value {
    if position.is_empty() {
        ludus_json(&["analyze", game, "--format", "json"])
    } else {
        ludus_json(&["analyze", game, position, "--format", "json"])
    }
}

/// An analysis without its statistics (the search's counts) and its drawing's note on the solve (value
/// iteration's sweeps, which depend on the position the solve started from).
///
/// A server keeps one engine per game, so value iteration may answer from a solve begun at another position:
/// expected scores then agree within the solve's error (about 1e-12), not bit for bit, and the solve's own
/// numbers (its error, its sweeps) differ. So numbers are compared to 9 decimals, the solve's numbers not at
/// all.
fn values_of(analysis: &Value) -> Value {
    fn round(value: &mut Value) {
        match value {
            Value::Number(number) if number.is_f64() => {
                let rounded = (number.as_f64().unwrap_or(0.0) * 1e9).round() / 1e9;
                *value = serde_json::json!(rounded);
            }
            Value::Array(items) => items.iter_mut().for_each(round),
            Value::Object(fields) => {
                fields.remove("error");
                fields.remove("convergence");
                fields.values_mut().for_each(round);
            }
            _ => {}
        }
    }
    let mut analysis = analysis.clone();
    let fields = analysis.as_object_mut().expect("an object");
    fields.remove("stats");
    if let Some(Value::String(drawing)) = fields.get_mut("drawing") {
        *drawing = drawing.lines().filter(|line| !line.starts_with("value iteration:")).collect::<Vec<_>>().join("\n");
    }
    round(&mut analysis);
    analysis
}

/// The moves of an answer's board and of its analysis, which are one list in one order.
fn check_board_moves(answer: &Value) {
    let texts = |list: &Value| -> Vec<Value> { list.as_array().unwrap().iter().map(|mv| mv["move"].clone()).collect() };
    assert_eq!(texts(&answer["board"]["moves"]), texts(&answer["analysis"]["moves"]), "{answer}");
}

#[test]
fn kalah_s_pits_and_values_are_ludus_analyze_s_extra_moves_included() {
    let server = Server::start(&[]);
    let mut client = server.connect();
    let game = "kalah:pits=3,seeds=2";
    for moves in [&[][..], &["2"][..], &["2", "3"][..], &["2", "3", "1"][..]] {
        let answer = client.position(game, None, moves).json();
        assert_eq!(answer["source"], "search");
        assert_eq!(values_of(&answer["analysis"]), values_of(&analyzed(game, &moves.join(" "))), "{moves:?}");
        check_board_moves(&answer);
    }
    // South's pit 2 (two seeds) ends in South's store: South moves again, from pits 1 and 3 only.
    let answer = client.position(game, None, &["2"]).json();
    assert_eq!(
        answer["board"],
        json!({"kind": "pits", "pits": [[2, 0, 3], [2, 2, 2]], "stores": [1, 0], "to_move": "first", "moves": [
            {"move": "1", "place": {"kind": "sow", "pit": 0}},
            {"move": "3", "place": {"kind": "sow", "pit": 2}},
        ]})
    );
    let scores: Vec<(Value, Value)> = answer["analysis"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mv| (mv["move"].clone(), mv["score"].clone()))
        .collect();
    assert_eq!(scores, [(json!("1"), json!(0)), (json!("3"), json!(4))], "`ludus analyze kalah:pits=3,seeds=2 2`");
    // Then North's turn: its row is sown, numbered from North's left.
    let board = &client.position(game, None, &["2", "3"]).json()["board"];
    assert_eq!(
        (&board["pits"], &board["stores"], &board["to_move"]),
        (&json!([[2, 0, 0], [3, 3, 2]]), &json!([2, 0]), &json!("second"))
    );
    // A board position text and moves after it.
    let answer = client.position(game, Some("2 0 3 1 / 2 2 2 0 s"), &["3"]).json();
    assert_eq!(values_of(&answer["analysis"]), values_of(&analyzed(game, "2 3")));
}

#[test]
fn dots_and_boxes_edges_and_values_are_ludus_analyze_s_from_a_search_and_from_a_database() {
    let game = "dots-and-boxes:rows=1,columns=1";
    let server = Server::start(&[]);
    let mut client = server.connect();
    // Three edges drawn, none closes the box: the second player draws the fourth and takes it.
    let answer = client.position(game, None, &["a1b1", "b1b2", "a2b2"]).json();
    assert_eq!(
        answer["board"],
        json!({"kind": "edges", "rows": 1, "columns": 1, "edges": ["first", "first", null, "second"], "boxes": [null],
            "to_move": "second", "moves": [{"move": "a1a2", "place": {"kind": "edge", "edge": 2}}]})
    );
    assert_eq!(answer["analysis"]["moves"][0]["score"], 1);
    let end = client.position(game, None, &["a1b1", "b1b2", "a2b2", "a1a2"]).json();
    assert_eq!((&end["board"]["boxes"], &end["board"]["to_move"]), (&json!(["second"]), &json!("second")));
    for moves in [&[][..], &["a1b1"][..], &["a1b1", "b1b2", "a2b2"][..]] {
        let answer = client.position(game, None, moves).json();
        assert_eq!(values_of(&answer["analysis"]), values_of(&analyzed(game, &moves.join(" "))), "{moves:?}");
        check_board_moves(&answer);
    }
    drop(client);
    drop(server);

    // 2 x 2 from its database: the values of the search, the same board.
    let game = "dots-and-boxes:rows=2,columns=2";
    let directory = std::env::temp_dir().join(format!("ludus-serve-dots-and-boxes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    let db = directory.to_str().unwrap();
    let solved = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["db", "solve", game, "--db", db])
        .output()
        .expect("ludus db solve runs");
    assert!(solved.status.success(), "{}", String::from_utf8_lossy(&solved.stderr));
    let server = Server::start(&["--db", db]);
    let mut client = server.connect();
    for moves in [&[][..], &["b2c2", "a1a2"][..], &["a1b1", "a1a2", "b1b2", "a2b2"][..]] {
        let answer = client.position(game, None, moves).json();
        assert_eq!(answer["source"], "database", "{moves:?}: {answer}");
        let searched = analyzed(game, &moves.join(" "));
        assert_eq!(values_of(&answer["analysis"]), values_of(&searched), "{moves:?}");
        assert_eq!(answer["board"]["kind"], "edges");
        check_board_moves(&answer);
    }
    drop(client);
    drop(server);
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn a_served_kalah_database_gives_the_search_s_values() {
    let directory = std::env::temp_dir().join(format!("ludus-serve-kalah-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    let db = directory.to_str().unwrap();
    let solved = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["db", "solve", "kalah:pits=3,seeds=2", "--db", db])
        .output()
        .expect("ludus db solve runs");
    assert!(solved.status.success(), "{}", String::from_utf8_lossy(&solved.stderr));
    let server = Server::start(&["--db", db]);
    let mut client = server.connect();
    for moves in [&[][..], &["2", "3"][..], &["1", "1", "2"][..]] {
        let answer = client.position("kalah:seeds=2,pits=3", None, moves).json();
        assert_eq!(answer["source"], "database", "{moves:?}: {answer}");
        let searched = analyzed("kalah:pits=3,seeds=2", &moves.join(" "));
        assert_eq!(values_of(&answer["analysis"]), values_of(&searched), "{moves:?}");
        assert_eq!(answer["board"]["kind"], "pits");
    }
    drop(client);
    drop(server);
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn a_served_kalah_database_names_its_failures() {
    let directory = std::env::temp_dir().join(format!("ludus-serve-kalah-failures-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    let db = directory.to_str().unwrap();
    let solved = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["db", "solve", "kalah:pits=3,seeds=2", "--db", db])
        .output()
        .expect("ludus db solve runs");
    assert!(solved.status.success(), "{}", String::from_utf8_lossy(&solved.stderr));
    let server = Server::start(&["--db", db]);
    let mut client = server.connect();
    // A position the database does not hold (seeds missing: never reached) is the request's: named, not dumped.
    let unreachable = client.position("kalah:pits=3,seeds=2", Some("3 3 3 0 / 3 0 0 0 s"), &[]);
    assert_eq!((unreachable.status, unreachable.error_kind().as_str()), (422, "no-record"));
    let message = unreachable.json()["error"]["message"].as_str().unwrap().to_string();
    assert!(message.contains("no record of `3 3 3 0 / 3 0 0 0 s` (it is not reachable from the start)"), "{message}");
    assert!(!message.contains('{') && !message.contains('['), "no debug dump: {message}");
    // The file deleted while the server runs: the database failed, not the request.
    std::fs::remove_file(directory.join("scores.ludb")).unwrap();
    let deleted = client.position("kalah:pits=3,seeds=2", None, &["1"]);
    assert_eq!((deleted.status, deleted.error_kind().as_str()), (500, "database"), "{}", deleted.json());
    drop(client);
    drop(server);
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn othello_s_grid_holds_the_discs_and_a_pass_is_a_button() {
    let server = Server::start(&[]);
    let mut client = server.connect();
    let game = "othello:size=4";
    let answer = client.position(game, None, &["b1"]).json();
    assert_eq!(values_of(&answer["analysis"]), values_of(&analyzed("othello:size=4,empties=winner", "b1")));
    assert_eq!(answer["game"], "othello:size=4,empties=winner");
    let board = &answer["board"];
    assert_eq!(
        (&board["kind"], &board["style"], &board["rows"], &board["columns"]),
        (&json!("grid"), &json!("squares"), &json!(4), &json!(4))
    );
    assert_eq!(board["column_labels"], json!(["a", "b", "c", "d"]));
    assert_eq!(board["row_labels"], json!(["1", "2", "3", "4"]));
    // `.x../.xx./.xo./.... w`: Black's b1 turned b2 over.
    let disc = |player: &str| json!({"player": player, "shape": "disc"});
    let cells = board["cells"].as_array().unwrap();
    for (cell, owner) in [(1, "first"), (5, "first"), (6, "first"), (9, "first"), (10, "second")] {
        assert_eq!(cells[cell], disc(owner), "cell {cell}");
    }
    assert_eq!(cells.iter().filter(|cell| !cell.is_null()).count(), 5);
    assert_eq!(board["to_move"], "second");
    check_board_moves(&answer);
    for mv in board["moves"].as_array().unwrap() {
        // A placement's cell is its text's: column letter, row number from the top.
        let text = mv["move"].as_str().unwrap().as_bytes();
        let cell = u64::from(text[1] - b'1') * 4 + u64::from(text[0] - b'a');
        assert_eq!(mv["place"], json!({"kind": "place", "cell": cell}), "{mv}");
    }
    // White has no disc to place and Black has: White's one move is the pass, a button beside the board.
    let position = "xo../..../..../.... w";
    let answer = client.position(game, Some(position), &[]).json();
    assert_eq!(answer["board"]["moves"], json!([{"move": "pass", "place": {"kind": "choice"}}]));
    assert_eq!(values_of(&answer["analysis"]), values_of(&analyzed(game, position)));
    assert_eq!(answer["analysis"]["moves"][0]["score"], -16, "`ludus analyze othello:size=4 '{position}'`");
}

#[test]
fn pig_s_panel_and_its_chance_node_s_outcomes_with_their_probabilities() {
    let server = Server::start(&[]);
    let mut client = server.connect();
    let game = "pig:goal=5";
    let answer = client.position(game, None, &[]).json();
    assert_eq!(values_of(&answer["analysis"]), values_of(&analyzed(game, "")));
    let counter = |name: &str, value: u32, player: Value| json!({"name": name, "value": value, "player": player});
    assert_eq!(
        answer["board"],
        json!({"kind": "panel", "counters": [
            counter("first player's score", 0, json!("first")),
            counter("second player's score", 0, json!("second")),
            counter("turn total", 0, Value::Null),
            counter("goal", 5, Value::Null),
        ], "to_move": "first", "moves": [{"move": "roll", "place": {"kind": "choice"}}]})
    );
    // The die in the air: six outcomes of probability 1/6, none a best move (nobody chooses them), and the
    // position's value is their mean.
    let answer = client.position(game, None, &["roll"]).json();
    assert_eq!(values_of(&answer["analysis"]), values_of(&analyzed(game, "roll")));
    check_board_moves(&answer);
    assert_eq!(answer["board"]["to_move"], "first", "the die decides the first player's turn");
    let outcomes = answer["analysis"]["moves"].as_array().unwrap();
    let texts: Vec<&str> = outcomes.iter().map(|mv| mv["move"].as_str().unwrap()).collect();
    assert_eq!(texts, ["1", "2", "3", "4", "5", "6"]);
    assert!(outcomes.iter().all(|mv| mv["chance"] == "1/6" && mv["best"] == false && mv["value"] == "chance"));
    let mean = outcomes.iter().map(|mv| mv["probability"].as_f64().unwrap()).sum::<f64>() / 6.0;
    let value = answer["analysis"]["probability"].as_f64().unwrap();
    assert!((mean - value).abs() < 1e-9, "the mean of the outcomes {mean} is the position's {value}");
    // A 1 ends the turn: the second player rolls; a 5 reaches the goal: the game is over.
    let board = &client.position(game, None, &["roll", "1"]).json()["board"];
    assert_eq!(board["to_move"], "second");
    let answer = client.position(game, None, &["roll", "5"]).json();
    assert_eq!((answer["board"]["moves"].clone(), answer["analysis"]["probability"].clone()), (json!([]), json!(1.0)));
    assert_eq!(answer["board"]["counters"][2], counter("turn total", 5, Value::Null));
}

#[test]
fn hog_s_outcomes_are_weighted_by_the_sequences_of_dice() {
    let server = Server::start(&[]);
    let mut client = server.connect();
    let game = "hog:goal=5,dice=2";
    let answer = client.position(game, None, &["roll 2"]).json();
    assert_eq!(values_of(&answer["analysis"]), values_of(&analyzed(game, "roll 2")));
    check_board_moves(&answer);
    assert_eq!(answer["board"]["counters"][3], json!({"name": "dice rolling", "value": 2, "player": null}));
    let chances: Vec<(&str, &str)> = answer["analysis"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mv| (mv["move"].as_str().unwrap(), mv["chance"].as_str().unwrap()))
        .collect();
    // Two dice: 11 of the 36 sequences hold a 1 (one point), else the sum of two faces 2..6.
    assert_eq!(&chances[..3], [("+1", "11/36"), ("+4", "1/36"), ("+5", "2/36")]);
    let total: u64 = chances.iter().map(|(_, chance)| chance.split('/').next().unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!((chances.len(), total), (10, 36));
}

#[test]
fn scored_searches_stop_at_their_budgets() {
    // Without the opening books, which hold Othello's start.
    let server = Server::start(&["--max-positions", "1000", "--no-book"]);
    for game in ["othello:size=6", "hog", "pig"] {
        let reply = server.connect().position(game, None, &[]);
        assert_eq!(
            (reply.status, reply.error_kind().as_str()),
            (422, "budget"),
            "{game}: {}",
            String::from_utf8_lossy(&reply.body)
        );
        assert!(reply.json()["error"]["message"].as_str().unwrap().contains("--max-positions"), "names the flag");
    }
    // Small games still fit.
    assert_eq!(server.connect().position("pig:goal=2", None, &["roll"]).status, 200);
    assert_eq!(server.connect().position("othello:size=4", Some("xo../..../..../.... w"), &[]).status, 200);
    // Past the time budget: a 503 that says so, and the server goes on answering.
    let server = Server::start(&["--max-seconds", "1", "--max-positions", "2000000000", "--no-book"]);
    let clock = std::time::Instant::now();
    let reply = server.connect().position("othello:size=6", None, &[]);
    assert_eq!((reply.status, reply.error_kind().as_str()), (503, "time"), "{}", String::from_utf8_lossy(&reply.body));
    assert!(clock.elapsed() < std::time::Duration::from_secs(8), "answered at the time budget");
    assert_eq!(server.connect().position("kalah:pits=3,seeds=2", None, &[]).status, 200);
}

/// `ludus serve --endgame DIR`: Kalah's searches probe its endgame database and give the values `ludus analyze`
/// gives without it; a game without endgame databases (tic-tac-toe) ignores the option.
#[test]
fn an_endgame_database_serves_kalah_and_leaves_other_games_alone() {
    let directory = std::env::temp_dir().join(format!("ludus-serve-endgame-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    let db = directory.to_str().unwrap();
    let solved = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["db", "solve", "kalah:pits=3,seeds=3", "--up-to", "10", "--db", db])
        .output()
        .unwrap();
    assert!(solved.status.success(), "{}", String::from_utf8_lossy(&solved.stderr));
    let server = Server::start(&["--endgame", db]);
    let mut client = server.connect();
    let game = "kalah:pits=3,seeds=3";
    for moves in [&[][..], &["3"][..], &["3", "1", "2"][..]] {
        let answer = client.position(game, None, moves).json();
        assert_eq!(answer["source"], "search");
        assert_eq!(values_of(&answer["analysis"]), values_of(&analyzed(game, &moves.join(" "))), "{moves:?}");
    }
    let answer = client.position("tic-tac-toe", None, &["5"]).json();
    assert_eq!(answer["analysis"]["value"], json!("draw"), "{answer}");
    std::fs::remove_dir_all(&directory).ok();
}

/// `ludus serve` run where `ludus db solve kalah:... --up-to N` wrote its database (in `db/`): the games of its
/// family read their values from it, to the values of a search; another capture rule's game searches.
#[test]
fn a_server_finds_the_endgame_database_of_each_game_s_family_in_db() {
    let directory = std::env::temp_dir().join(format!("ludus-serve-found-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    let solved = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .current_dir(&directory)
        .args(["db", "solve", "kalah:pits=3,seeds=2", "--up-to", "12"])
        .output()
        .unwrap();
    assert!(solved.status.success(), "{}", String::from_utf8_lossy(&solved.stderr));
    let server = Server::start_in(&directory, &[]);
    let mut client = server.connect();
    for (game, read) in
        [("kalah:pits=3,seeds=2", true), ("kalah:pits=3,seeds=1", true), ("kalah:pits=3,seeds=2,capture=always", false)]
    {
        let answer = client.position(game, None, &[]).json();
        let visited = answer["analysis"]["stats"]["visited"].as_u64().unwrap();
        assert_eq!(visited == 0, read, "{game}: {answer}");
        let searched = ludus_json(&["analyze", game, "--no-endgame", "--format", "json"]);
        assert_eq!(values_of(&answer["analysis"]), values_of(&searched), "{game}");
    }
    std::fs::remove_dir_all(&directory).ok();
}
