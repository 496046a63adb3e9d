//! `ludus analyze` on the scored games, as JSON: Othello and Kalah against the scored engine called directly
//! (the value, every move's score, the line replayed to the value), Pig against value iteration called
//! directly, Hog at a chance node (outcomes with their probabilities, no best move); the errors of an engine
//! that does not solve scored games and of a bad position; and the JSON of the win/loss games unchanged.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use ludus_framework::engines::scored::{ScoredAlphaBeta, ValueIteration};
use ludus_framework::engines::Mode;
use ludus_framework::playable::TextForm;
use ludus_framework::scored::Deterministic;
use ludus_framework::Canonicalize;
use ludus_framework::Engine;
use ludus_framework::SearchHints;
use ludus_games::kalah::Kalah;
use ludus_games::othello::Othello;
use ludus_games::pig::Pig;
use std::process::{Command, Output, Stdio};

fn run(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus")).args(arguments).stdin(Stdio::null()).output().expect("ludus runs")
}

fn analyze(game: &str, position: &str) -> serde_json::Value {
    let output = run(&["analyze", game, position, "--format", "json"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("JSON output")
}

/// The analysis of `text` agrees with the engine called directly, and its line ends at the value.
fn check_scored<Ruleset>(game: &Ruleset, spec: &str, text: &str)
where
    Ruleset: TextForm + Canonicalize + SearchHints + Deterministic,
{
    let json = analyze(spec, text);
    let position = game.parse_position(text).unwrap();
    let mut engine = ScoredAlphaBeta::new(Mode::Exact);
    let value = engine.search(game, &position).unwrap();
    assert_eq!(json["score"], value, "{spec} {text}");
    assert_eq!(json["value"], ["loss", "draw", "win"][(value.signum() + 1) as usize]);
    assert!(json["remoteness"].is_null());
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), game.legal_moves(&position).len());
    for entry in moves {
        let mv = game.parse_move(&position, entry["move"].as_str().unwrap()).unwrap();
        let child = game.play(&position, &mv);
        let score = game.score_seen_from(&position, &child, engine.search(game, &child).unwrap());
        assert_eq!(entry["score"], score);
        assert_eq!(entry["best"], score == value);
    }
    let mut end = position.clone();
    for mv in json["line"].as_array().unwrap() {
        let mv = game.parse_move(&end, mv.as_str().unwrap()).unwrap();
        end = game.play(&end, &mv);
    }
    assert!(game.is_over(&end), "the line plays to the end");
    assert_eq!(game.score_seen_from(&position, &end, game.outcome(&end).unwrap()), value);
}

#[test]
fn othello_and_kalah_analyses_are_the_engine_s() {
    let othello = Othello::new(4, true).unwrap();
    check_scored(&othello, "othello:size=4", "");
    check_scored(&othello, "othello:size=4", "b1 a1");
    check_scored(&othello, "othello:size=4", "..../xxx./.ooo/.... w");
    let kalah = Kalah::new(4, 3).unwrap();
    check_scored(&kalah, "kalah:pits=4,seeds=3", "");
    check_scored(&kalah, "kalah:pits=4,seeds=3", "2");
    check_scored(&kalah, "kalah:pits=4,seeds=3", "0 0 1 5 6 / 2 1 0 4 5 n");
}

/// `--threads 2` (the scored Lazy SMP, over the packed table for Othello's compact keys and over a sharded one
/// for Kalah's) gives every score of one thread, and so does any `--guess-positions`.
#[test]
fn analyses_on_two_threads_and_with_any_guess_are_those_of_one() {
    let cases = [
        ("othello:size=6", "b3 b4 a5 c2 b1 e2 c5 b5 e5 a3 b2 e4 e3 c6 a6 e6"),
        ("othello:size=5", "a2 a3 b4 a5 b5"),
        ("kalah:pits=4,seeds=3", ""),
        ("kalah:pits=5,seeds=2", "1"),
    ];
    for (game, position) in cases {
        let scores = |threads: &str, guess: &str| {
            let output = run(&[
                "analyze",
                game,
                position,
                "--format",
                "json",
                "--threads",
                threads,
                "--guess-positions",
                guess,
                "--no-book",
            ]);
            assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
            let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON output");
            let moves: Vec<_> = json["moves"].as_array().unwrap().iter().map(|entry| entry["score"].clone()).collect();
            assert!(!moves.is_empty(), "{game} {position}");
            (json["score"].clone(), moves)
        };
        let one = scores("1", "65536");
        assert_eq!(scores("2", "65536"), one, "{game} {position}");
        // The first guess aims the search, and no guess or a deeper one finds the same scores.
        for guess in ["0", "1000000"] {
            assert_eq!(scores("1", guess), one, "{game} {position}, --guess-positions {guess}");
            assert_eq!(scores("2", guess), one, "{game} {position}, --guess-positions {guess}, two threads");
        }
    }
}

#[test]
fn pig_analysis_is_the_value_iteration_s() {
    let json = analyze("pig:goal=30", "12 20 6 first");
    let game = Pig::new(30).unwrap();
    let position = game.parse_position("12 20 6 first").unwrap();
    let solved = ValueIteration::default().solve(&game, &position).unwrap();
    let value = solved.value(&game, &position).unwrap();
    assert_eq!(json["value"], "chance");
    assert!((json["expected_score"].as_f64().unwrap() - value).abs() < 1e-11);
    assert!((json["probability"].as_f64().unwrap() - (1.0 + value) / 2.0).abs() < 1e-11);
    assert!(json["error"].as_f64().unwrap() < 1e-11);
    let moves = json["moves"].as_array().unwrap();
    let names: Vec<&str> = moves.iter().map(|entry| entry["move"].as_str().unwrap()).collect();
    assert_eq!(names, ["roll", "hold"]);
    assert!(json["drawing"].as_str().unwrap().contains("sweeps"));
}

#[test]
fn at_a_chance_node_the_outcomes_have_their_probabilities_and_none_is_best() {
    let json = analyze("hog:goal=20,dice=3", "5 9 first rolling 2");
    let moves = json["moves"].as_array().unwrap();
    // Two dice: a 1 anywhere (11 of 36) scores 1; else sums 4..12 without a 1.
    assert_eq!(moves[0]["move"], "+1");
    assert_eq!(moves[0]["chance"], "11/36");
    assert_eq!(moves.len(), 10);
    assert!(moves.iter().all(|entry| entry["best"] == false));
    assert_eq!(json["line"].as_array().unwrap().len(), 0, "the line stops at chance");
    let total: f64 = moves
        .iter()
        .map(|entry| {
            let (top, bottom) = entry["chance"].as_str().unwrap().split_once('/').unwrap();
            top.parse::<f64>().unwrap() / bottom.parse::<f64>().unwrap() * entry["expected_score"].as_f64().unwrap()
        })
        .sum();
    assert!((total - json["expected_score"].as_f64().unwrap()).abs() < 1e-12, "the value is the outcomes' mean");
}

#[test]
fn scored_games_refuse_win_loss_engines_and_bad_positions() {
    let refused = run(&["analyze", "kalah:pits=3,seeds=2", "--engine", "memo-negamax"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("scored alpha-beta"), "{refused:?}");
    let bad = run(&["analyze", "othello:size=6", "a1"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a legal move"), "{bad:?}");
    // Without the opening book, which holds the start.
    let budget = run(&["analyze", "othello:size=6", "--max-positions", "1000", "--no-book"]);
    assert_eq!(budget.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&budget.stderr).contains("--max-positions"), "{budget:?}");
    let listed = run(&["games"]);
    let text = String::from_utf8_lossy(&listed.stdout);
    for name in ["othello", "kalah", "pig", "hog", "scored-alpha-beta", "value-iteration", "expectimax"] {
        assert!(text.contains(name), "`ludus games` lists {name}");
    }
}

#[test]
fn win_loss_json_is_unchanged() {
    let json = run(&["analyze", "tic-tac-toe", "15", "--format", "json"]);
    let text = String::from_utf8_lossy(&json.stdout);
    // A win/loss analysis writes the entries it always wrote, and none of the scored ones.
    assert!(text.contains("\"remoteness\"") && !text.contains("\"score\"") && !text.contains("expected_score"));
}
