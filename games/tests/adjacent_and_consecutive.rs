//! Tests of the `adjacent-and-consecutive` plugin: the sample, differential checks of the three solvers on
//! thousands of random small games, memoized against plain negamax, the verifier against wrong answers, and one
//! test per kind of bad input (the closed form against the exact engine: `adjacent_and_consecutive_closed_form.rs`).

#![allow(clippy::unwrap_used)] // tests may unwrap

use ludus_framework::conformance::{check_corruption, check_plugin, check_sample, GameCheck, SampleVerdict};
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::Mode;
use ludus_framework::input::Source;
use ludus_framework::plugin::{Corruptions, GenOptions, NoProgress, Plugin, Preset, SolveOptions};
use ludus_framework::{Budget, Error};
use ludus_games::adjacent_and_consecutive::board::Board;
use ludus_games::adjacent_and_consecutive::game::{FastGame, GenericGame};
use ludus_games::adjacent_and_consecutive::{fast_a_wins, random_records, AdjacentAndConsecutive};

const PLUGIN: AdjacentAndConsecutive = AdjacentAndConsecutive;

fn solve(input: &str, solver: &str) -> ludus_framework::Result<String> {
    let answers = PLUGIN.solve(Source::new("test.in", input), &SolveOptions::with_solver(solver), &NoProgress)?;
    Ok(PLUGIN.render(&answers))
}

fn error_text(input: &str) -> String {
    match solve(input, "fast") {
        Ok(output) => panic!("expected an error, got {output}"),
        Err(error) => error.to_string(),
    }
}

#[test]
fn sample_comes_out_right_for_every_solver() {
    for solver in PLUGIN.solvers() {
        assert_eq!(check_sample(&PLUGIN, solver.name).unwrap(), SampleVerdict::Right, "solver {}", solver.name);
    }
    assert_eq!(solve(PLUGIN.sample().input, "fast").unwrap(), "Case #1: 2 1\nCase #2: 0 0\nCase #3: 0 0\n");
}

#[test]
fn json_answers_list_every_mistake() {
    let input = Source::new("sample.in", PLUGIN.sample().input);
    for solver in PLUGIN.solvers() {
        let answers = PLUGIN.solve(input, &SolveOptions::with_solver(solver.name), &NoProgress).unwrap();
        let json = &answers[0].json;
        assert_eq!((json["a"].as_u64(), json["b"].as_u64()), (Some(2), Some(1)), "{}", solver.name);
        let players: Vec<&str> =
            json["mistakes"].as_array().unwrap().iter().map(|mistake| mistake["player"].as_str().unwrap()).collect();
        assert_eq!(players.iter().filter(|&&player| player == "A").count(), 2, "{json}");
        assert_eq!(players.len(), 3, "{json}");
        assert_eq!(answers[1].json["mistakes"], serde_json::json!([]));
    }
}

#[test]
fn solvers_agree_and_verify_on_thousands_of_random_small_games() {
    let report = check_plugin(&PLUGIN, 2000, 20_260_001).unwrap();
    assert_eq!(report.solvers, vec!["fast", "generic", "parallel", "closed-form"]);
    assert!(report.failures.is_empty(), "{:#?}", &report.failures[..report.failures.len().min(3)]);
}

#[test]
fn generated_small_inputs_have_small_games_and_official_ones_large() {
    let small = random_records(&GenOptions { preset: Preset::Small, cases: None, size: None }, 5).unwrap();
    assert!(small.iter().all(|record| (1..=8).contains(&record.size)));
    let official = random_records(&GenOptions { preset: Preset::Official, cases: None, size: None }, 5).unwrap();
    assert_eq!(official.len(), 100);
    assert!(official.iter().all(|record| (4..=50).contains(&record.size)));
    assert!(official.iter().any(|record| record.size >= 45));
}

/// The eight symmetric images of a board, for the canonical-key checks.
fn images(board: &Board) -> Vec<Board> {
    board.images()
}

#[test]
fn memoized_and_plain_negamax_agree_on_random_positions() {
    for size in 1..=5 {
        let start = Board::new(size);
        GameCheck::new(&GenericGame, start.clone())
            .playouts(20)
            .max_plies(10)
            .seed(u64::from(size))
            .compare_engines()
            .run()
            .unwrap();
        let check = GameCheck::new(&FastGame, start.clone()).playouts(20).max_plies(10).seed(100 + u64::from(size));
        check.symmetries(&images).compare_engines().run().unwrap();
    }
    // Larger boards: keys stable under the symmetries (no engine comparison, the plain engine would be slow).
    for size in [9, 16, 30] {
        let check = GameCheck::new(&FastGame, Board::new(size)).playouts(50).max_plies(40).seed(u64::from(size));
        check.symmetries(&images).run().unwrap();
    }
}

#[test]
fn fast_game_values_equal_generic_game_values_on_every_position_of_random_records() {
    let mut generic = MemoNegamax::new(Mode::Outcome);
    let mut fast = MemoNegamax::new(Mode::Outcome);
    let records = random_records(&GenOptions { preset: Preset::Small, cases: Some(300), size: Some(7) }, 77).unwrap();
    for record in &records {
        let mut board = Board::new(record.size);
        for placement in &record.moves {
            let exact = ludus_framework::engines::Engine::value(&mut generic, &GenericGame, &board);
            assert_eq!(fast_a_wins(&mut fast, &board), exact.is_win() == board.a_to_move(), "{}", board.describe());
            board.place(*placement);
        }
    }
}

#[test]
fn official_size_input_solves_and_verifies_with_fast_and_closed_form() {
    let input = PLUGIN.generate(&GenOptions { preset: Preset::Official, cases: None, size: None }, 9).unwrap();
    let fast = solve(&input, "fast").unwrap();
    assert_eq!(fast, solve(&input, "closed-form").unwrap());
    let verdicts = PLUGIN.judge(Source::new("in", &input), Source::new("out", &fast)).unwrap();
    assert_eq!(verdicts.len(), 100);
    assert!(verdicts.iter().all(|verdict| verdict.problem.is_none()));
}

#[test]
fn closed_form_solves_a_careful_game_of_n_1000() {
    let input = PLUGIN.generate(&GenOptions { preset: Preset::Official, cases: Some(2), size: Some(1000) }, 3).unwrap();
    let output = solve(&input, "closed-form").unwrap();
    assert_eq!(output.lines().count(), 2);
    assert!(matches!(solve(&input, "fast"), Err(Error::Limit { .. })));
}

#[test]
fn verifier_rejects_corrupted_and_hand_made_wrong_answers() {
    let input = PLUGIN.generate(&GenOptions { preset: Preset::Official, cases: Some(30), size: Some(20) }, 4).unwrap();
    assert_eq!(
        check_corruption(&PLUGIN, &input, &SolveOptions::default(), 5).unwrap(),
        Corruptions::AllCaught { tried: 30 }
    );

    let sample = PLUGIN.sample().input;
    let judge = |output: &str| PLUGIN.judge(Source::new("sample.in", sample), Source::new("out", output)).unwrap();
    let problems = |output: &str| judge(output).into_iter().map(|verdict| verdict.problem).collect::<Vec<_>>();
    assert_eq!(problems("Case #1: 2 1\nCase #2: 0 0\nCase #3: 0 0\n"), vec![None, None, None]);
    let swapped = problems("Case #1: 1 2\nCase #2: 0 0\nCase #3: 0 0\n");
    assert_eq!(swapped[0].as_deref(), Some("A made 2 mistakes and B made 1, not 1 and 2"));
    assert!(swapped[1].is_none() && swapped[2].is_none());
    let short = problems("Case #1: 2\nCase #2: 0 0\n");
    assert!(short[0].as_deref().is_some_and(|problem| problem.contains("two integers")));
    assert!(short[2].as_deref().is_some_and(|problem| problem.contains("missing")));
    assert!(problems("Case #1: 2 -1\nCase #2: 0 0\nCase #3: 0 0\n")[0].is_some());
    assert!(problems("Case #1: 2 1\nCase #2: 0 0\nCase #3: 0 0\nCase #4: 0 0\n")[3].is_some());
}

#[test]
fn bad_tile_is_reported_with_game_turn_and_line() {
    let text = error_text("2\n1\n1 1\n2\n1 1\n3 2\n");
    assert_eq!(text, "test.in:6:1: game 2, turn 2: expected the tile number M (an integer from 1 to 2), found `3`");
}

#[test]
fn bad_cell_is_reported_with_game_turn_and_line() {
    let text = error_text("1\n2\n1 0\n2 2\n");
    assert_eq!(text, "test.in:3:3: game 1, turn 1: expected the cell number C (an integer from 1 to 2), found `0`");
}

#[test]
fn repeated_tile_is_reported_with_the_earlier_turn() {
    let text = error_text("1\n3\n1 1\n2 2\n1 3\n");
    assert_eq!(text, "test.in:5:1: game 1, turn 3: tile 1 was already used at turn 1");
}

#[test]
fn repeated_cell_is_reported_with_the_earlier_turn() {
    let text = error_text("1\n3\n1 1\n2 2\n3 2\n");
    assert_eq!(text, "test.in:5:3: game 1, turn 3: cell 2 was already used at turn 2");
}

#[test]
fn truncated_input_is_reported() {
    let text = error_text("2\n2\n1 1\n2 2\n3\n1 1\n");
    assert_eq!(text, "test.in:7:1: game 2, turn 2: expected the tile number M, found the end of the input");
    let text = error_text("2\n1\n1 1\n");
    assert_eq!(text, "test.in:4:1: game 2: expected N, the number of tiles, found the end of the input");
}

#[test]
fn zero_tiles_and_zero_games_are_rejected() {
    let text = error_text("1\n0\n");
    assert!(text.starts_with("test.in:2:1: game 1: expected N, the number of tiles (an integer from 1"), "{text}");
    let text = error_text("0\n");
    assert!(text.starts_with("test.in:1:1: expected the number of games T (an integer from 1"), "{text}");
    let text = error_text("x\n");
    assert!(text.contains("found `x`"), "{text}");
}

#[test]
fn huge_t_and_huge_n_are_limit_errors() {
    match solve("20000\n", "fast") {
        Err(Error::Limit { got: 20_000, limit: 10_000, what, .. }) => assert!(what.contains("test.in:1:1"), "{what}"),
        other => panic!("expected a limit error, got {other:?}"),
    }
}

#[test]
fn huge_n_is_a_limit_error_naming_the_game() {
    match solve("2\n1\n1 1\n1000000\n", "fast") {
        Err(Error::Limit { got: 1_000_000, limit: 100_000, what, .. }) => {
            assert!(what.contains("game 2") && what.contains("test.in:4:1"), "{what}")
        }
        other => panic!("expected a limit error, got {other:?}"),
    }
}

#[test]
fn trailing_garbage_is_reported() {
    let text = error_text("1\n1\n1 1\n7\n");
    assert_eq!(text, "test.in:4:1: expected the end of the input, found `7`");
}

#[test]
fn size_limited_solvers_name_the_no_limit_override() {
    let input = PLUGIN.generate(&GenOptions { preset: Preset::Small, cases: Some(1), size: Some(11) }, 1).unwrap();
    match solve(&input, "generic") {
        Err(error @ Error::Limit { .. }) => assert!(
            error.remedies().contains(&ludus_framework::Remedy::Set(ludus_framework::Setting::NoLimit)),
            "{error}"
        ),
        other => panic!("expected a limit error, got {other:?}"),
    }
    let input = PLUGIN.generate(&GenOptions { preset: Preset::Small, cases: Some(1), size: Some(61) }, 1).unwrap();
    assert!(matches!(solve(&input, "fast"), Err(Error::Limit { got: 61, limit: 60, .. })));
    assert!(matches!(solve(&input, "nope"), Err(Error::UnknownSolver { .. })));
}

#[test]
fn max_positions_bounds_the_engines_of_fast_and_generic() {
    let input = PLUGIN.generate(&GenOptions { preset: Preset::Official, cases: Some(10), size: Some(8) }, 1).unwrap();
    let expected = solve(&input, "fast").unwrap();
    for solver in ["fast", "generic"] {
        let options = SolveOptions { max_positions: Some(1), ..SolveOptions::with_solver(solver) };
        match PLUGIN.solve(Source::new("test.in", &input), &options, &NoProgress) {
            Err(error @ Error::InCase { .. }) => {
                let Error::InCase { error: source, .. } = &error else { unreachable!() };
                assert!(matches!(**source, Error::Budget(Budget::Positions(1))), "{solver}: {error}");
                assert!(
                    error.remedies().contains(&ludus_framework::Remedy::Raise(ludus_framework::Setting::MaxPositions)),
                    "{error}"
                );
            }
            other => panic!("{solver}: expected a budget error, got {other:?}"),
        }
        let options = SolveOptions { max_positions: Some(1_000_000), ..SolveOptions::with_solver(solver) };
        let answers = PLUGIN.solve(Source::new("test.in", &input), &options, &NoProgress).unwrap();
        assert_eq!(PLUGIN.render(&answers), expected, "{solver}");
    }
}

#[test]
fn a_hand_checked_game() {
    // N = 4. A: 2 in cell 2 ("can win in two": 1, 2, 3 unused and cells 1-3 empty) keeps A's win.
    // B: 1 in cell 4 (B was lost anyway). Tile 2 is live (cell 3 empty, 3 unused): A can win now.
    // A: 4 in cell 1 does not win at once but leaves B only 3 in cell 3, next to 2: still A's win, no mistake.
    assert_eq!(solve("1\n4\n2 2\n1 4\n4 1\n3 3\n", "generic").unwrap(), "Case #1: 0 0\n");
}

fn permutations(size: u32) -> Vec<Vec<u32>> {
    if size == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for smaller in permutations(size - 1) {
        for at in 0..=smaller.len() {
            let mut longer = smaller.clone();
            longer.insert(at, size);
            all.push(longer);
        }
    }
    all
}

#[test]
fn every_record_up_to_n_4_gets_the_same_answer_from_all_solvers() {
    let mut input = Vec::new();
    for size in 1..=4u32 {
        for tiles in permutations(size) {
            for cells in permutations(size) {
                let moves: String = tiles.iter().zip(&cells).map(|(tile, cell)| format!("{tile} {cell}\n")).collect();
                input.push(format!("{size}\n{moves}"));
            }
        }
    }
    assert_eq!(input.len(), 1 + 4 + 36 + 576);
    let text = format!("{}\n{}", input.len(), input.concat());
    let generic = solve(&text, "generic").unwrap();
    assert_eq!(solve(&text, "fast").unwrap(), generic);
    assert_eq!(solve(&text, "closed-form").unwrap(), generic);
    // Some records of N = 4 do contain mistakes.
    assert!(generic.lines().any(|line| !line.ends_with(" 0 0")));
}
