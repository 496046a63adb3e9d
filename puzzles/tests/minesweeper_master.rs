//! Tests of the `minesweeper-master` plugin: the bundled sample, the fast constructor against brute force on
//! every instance of at most 5 x 5, random differential checks, wrong answers rejected, bad inputs reported.

// Tests may unwrap (the helpers below are outside `#[test]` functions, where clippy does not allow it).
#![allow(clippy::unwrap_used)]

use ludus_framework::conformance::{check_corruption, check_plugin, check_sample, SampleVerdict};
use ludus_framework::engines::brute_force::brute_force;
use ludus_framework::input::Source;
use ludus_framework::plugin::{Corruptions, GenOptions, NoProgress, Plugin, Preset, SolveOptions};
use ludus_framework::{Budget, Construct, Error, Verify};
use ludus_puzzles::minesweeper_master::{
    backtrack, parse_input, staircase, Board, Instance, MinesweeperMaster, MinesweeperPuzzle, MAX_CELLS,
};

fn solve(input: &str, solver: &str) -> Result<Vec<ludus_framework::plugin::CaseAnswer>, Error> {
    MinesweeperMaster.solve(Source::new("test.in", input), &SolveOptions::with_solver(solver), &NoProgress)
}

fn verdicts(input: &str, output: &str) -> Vec<Option<String>> {
    MinesweeperMaster
        .judge(Source::new("test.in", input), Source::new("test.out", output))
        .unwrap()
        .into_iter()
        .map(|verdict| verdict.problem)
        .collect()
}

fn input_error(input: &str) -> String {
    solve(input, "fast").unwrap_err().to_string()
}

#[test]
fn sample_comes_out_right_with_every_solver() {
    for solver in ["fast", "generic", "backtrack"] {
        assert_eq!(check_sample(&MinesweeperMaster, solver).unwrap(), SampleVerdict::Right, "solver {solver}");
        let classes: Vec<String> =
            solve(MinesweeperMaster.sample().input, solver).unwrap().into_iter().map(|answer| answer.class).collect();
        assert_eq!(classes, ["IMPOSSIBLE", "POSSIBLE", "IMPOSSIBLE", "POSSIBLE", "POSSIBLE"], "solver {solver}");
    }
    // The published boards pass our verifier, case by case.
    let sample = MinesweeperMaster.sample();
    assert_eq!(verdicts(sample.input, sample.answer), vec![None; 5]);
}

#[test]
fn fast_constructor_agrees_with_brute_force_on_every_board_up_to_5_by_5() {
    let mut impossible = Vec::new();
    let mut checked = 0;
    for rows in 1..=5 {
        for columns in 1..=5 {
            for mines in 0..rows * columns {
                let instance = Instance::new(rows, columns, mines);
                let fast = MinesweeperPuzzle.construct(&instance).unwrap();
                let (oracle, _) = brute_force(&MinesweeperPuzzle, &instance);
                assert_eq!(fast.is_some(), oracle.is_some(), "{rows} x {columns} with {mines} mines");
                for board in fast.iter().chain(oracle.iter()) {
                    assert_eq!(MinesweeperPuzzle.verify(&instance, board), Ok(()), "{board:?}");
                }
                if fast.is_none() {
                    impossible.push((rows, columns, mines));
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 225);
    // Facts of the analysis, now checked by brute force: on 5 x 5, exactly 2, 3, 5 and 7 safe cells fail.
    let five_by_five: Vec<usize> = impossible.iter().filter(|(r, c, _)| (*r, *c) == (5, 5)).map(|x| x.2).collect();
    assert_eq!(five_by_five, [18, 20, 22, 23]);
    // On 2 x 5: odd mine counts (except 9, one safe cell) and 8 mines (two safe cells).
    let two_by_five: Vec<usize> = impossible.iter().filter(|(r, c, _)| (*r, *c) == (2, 5)).map(|x| x.2).collect();
    assert_eq!(two_by_five, [1, 3, 5, 7, 8]);
    // A 1-row or 1-column board is always possible.
    assert!(impossible.iter().all(|&(rows, columns, _)| rows > 1 && columns > 1));
}

#[test]
fn fast_answers_verify_on_every_board_up_to_20_by_20() {
    for rows in 1..=20 {
        for columns in 1..=20 {
            for mines in 0..rows * columns {
                let instance = Instance::new(rows, columns, mines);
                let safe = rows * columns - mines;
                match MinesweeperPuzzle.construct(&instance).unwrap() {
                    Some(board) => assert_eq!(MinesweeperPuzzle.verify(&instance, &board), Ok(())),
                    None => {
                        // The only impossible instances: 2 to 7 safe cells on boards of at least 3 x 3 (2, 3, 5
                        // or 7), or an odd count / 2 safe cells on two-row or two-column boards.
                        assert!(rows > 1 && columns > 1 && safe > 1, "{rows} x {columns}, {mines} mines");
                        if rows == 2 || columns == 2 {
                            assert!(safe % 2 == 1 || safe == 2);
                        } else {
                            assert!([2, 3, 5, 7].contains(&safe));
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn backtracking_agrees_with_the_case_analysis_on_every_board_up_to_10_by_10() {
    let mut possible = 0;
    for rows in 1..=10 {
        for columns in 1..=10 {
            for mines in 0..rows * columns {
                let instance = Instance::new(rows, columns, mines);
                let fast = MinesweeperPuzzle.construct(&instance).unwrap();
                let searched = backtrack(&instance).unwrap();
                assert_eq!(fast.is_some(), searched.is_some(), "{rows} x {columns} with {mines} mines");
                if let Some(board) = searched {
                    assert_eq!(MinesweeperPuzzle.verify(&instance, &board), Ok(()), "{board:?}");
                    possible += 1;
                }
            }
        }
    }
    // 3025 instances; impossible: R x C / 2 on each of the 17 boards with a side 2 (the other from 2 to 10: safe
    // counts 2 and the odd ones from 3), i.e. 54 + 52, and 4 (safe counts 2, 3, 5, 7) on each of the 64 boards
    // with both sides from 3 to 10: 362 in all.
    assert_eq!(possible, 3025 - (54 + 52 + 64 * 4));
}

#[test]
fn backtracking_agrees_with_the_case_analysis_on_random_official_boards() {
    let options = GenOptions { preset: Preset::Official, cases: Some(140), size: None };
    let input = MinesweeperMaster.generate(&options, 99).unwrap();
    let fast = solve(&input, "fast").unwrap();
    let searched = solve(&input, "backtrack").unwrap();
    let classes = |answers: &[ludus_framework::plugin::CaseAnswer]| {
        answers.iter().map(|answer| answer.class.clone()).collect::<Vec<_>>()
    };
    assert_eq!(classes(&fast), classes(&searched));
    assert_eq!(verdicts(&input, &MinesweeperMaster.render(&searched)), vec![None; 140]);
}

#[test]
fn random_small_cases_agree_and_verify() {
    let report = check_plugin(&MinesweeperMaster, 2000, 20_140_412).unwrap();
    assert_eq!(report.cases, 2000);
    assert_eq!(report.solvers, ["fast", "generic", "backtrack"]);
    assert!(report.failures.is_empty(), "{:?}", &report.failures[..report.failures.len().min(3)]);
}

#[test]
fn official_size_inputs_solve_and_verify() {
    let options = GenOptions { preset: Preset::Official, cases: None, size: None };
    for seed in 0..5 {
        let input = MinesweeperMaster.generate(&options, seed).unwrap();
        let instances = parse_input(Source::new("gen", &input)).unwrap().cases;
        assert_eq!(instances.len(), 140);
        assert!(instances.iter().all(|i| i.rows <= 50 && i.columns <= 50 && i.mines < i.cells()));
        let answers = solve(&input, "fast").unwrap();
        let rendered = MinesweeperMaster.render(&answers);
        assert_eq!(verdicts(&input, &rendered), vec![None; 140]);
    }
}

#[test]
fn small_preset_stays_within_5_by_5() {
    let options = GenOptions { preset: Preset::Small, cases: Some(200), size: None };
    let input = MinesweeperMaster.generate(&options, 7).unwrap();
    let instances = parse_input(Source::new("gen", &input)).unwrap().cases;
    assert_eq!(instances.len(), 200);
    assert!(instances.iter().all(|i| (1..=5).contains(&i.rows) && (1..=5).contains(&i.columns)));
    let sized = GenOptions { preset: Preset::Small, cases: Some(3), size: Some(3000) };
    assert!(matches!(MinesweeperMaster.generate(&sized, 1), Err(Error::Limit { .. })));
}

#[test]
fn generic_beyond_5_by_5_answers_only_what_it_can_finish() {
    // 6 x 6 with 7 safe cells is impossible, and proving it takes C(36, 29) x 7 candidates: a budget error
    // (1,000,000 mine layouts) naming the case and the flag that raises the budget.
    let error = solve("2\n2 2 0\n6 6 29\n", "generic").unwrap_err();
    assert!(
        matches!(&error, Error::InCase { error: source, .. } if matches!(**source, Error::Budget(Budget::Positions(1_000_000)))),
        "{error}"
    );
    let message = error.to_string();
    assert!(
        message.contains("case 2")
            && error.remedies().contains(&ludus_framework::Remedy::Raise(ludus_framework::Setting::MaxPositions)),
        "{message}"
    );
    // A large board whose valid layout comes early in the enumeration is answered (and verified).
    let input = "2\n1 30 15\n8 9 50\n";
    let answers = solve(input, "generic").unwrap();
    assert_eq!(answers.iter().map(|a| a.class.as_str()).collect::<Vec<_>>(), ["POSSIBLE", "POSSIBLE"]);
    assert_eq!(verdicts(input, &MinesweeperMaster.render(&answers)), vec![None, None]);
    // An exhaustive search that fits in the budget may say Impossible (2 x 13 with an odd safe count); with
    // --no-limit the search is exhaustive whatever the size.
    for no_limit in [false, true] {
        let options = SolveOptions { no_limit, ..SolveOptions::with_solver("generic") };
        let answers = MinesweeperMaster.solve(Source::new("in", "1\n2 13 1\n"), &options, &NoProgress).unwrap();
        assert_eq!(answers[0].class, "IMPOSSIBLE");
    }
}

#[test]
fn search_budgets_follow_max_positions_and_the_backtrack_limit_follows_no_limit() {
    let with = |solver: &str, max_positions: Option<u64>, no_limit: bool| SolveOptions {
        max_positions,
        no_limit,
        ..SolveOptions::with_solver(solver)
    };
    let run =
        |input: &str, options: &SolveOptions| MinesweeperMaster.solve(Source::new("in", input), options, &NoProgress);
    let budget_of = |error: &Error| match error {
        Error::InCase { error: source, .. } => match **source {
            Error::Budget(Budget::Positions(positions)) => Some(positions),
            _ => None,
        },
        _ => None,
    };
    // 2 x 2 with 1 mine has 4 mine layouts, none valid: a budget of 3 layouts stops the proof, 4 completes it.
    let error = run("1\n2 2 1\n", &with("generic", Some(3), false)).unwrap_err();
    assert_eq!(budget_of(&error), Some(3), "{error}");
    assert_eq!(run("1\n2 2 1\n", &with("generic", Some(4), false)).unwrap()[0].class, "IMPOSSIBLE");
    let error = run("1\n6 6 29\n", &with("generic", Some(10), true)).unwrap_err();
    assert_eq!(budget_of(&error), Some(10), "{error}");
    // The backtracking's node budget.
    let error = run("1\n3 3 0\n", &with("backtrack", Some(1), false)).unwrap_err();
    assert_eq!(budget_of(&error), Some(1), "{error}");
    assert_eq!(run("1\n3 3 0\n", &with("backtrack", Some(4), false)).unwrap()[0].class, "POSSIBLE");
    // Past 10,000 cells the backtracking needs --no-limit.
    let error = run("2\n2 2 0\n101 100 0\n", &with("backtrack", None, false)).unwrap_err();
    assert!(matches!(error, Error::Limit { got: 10_100, limit: 10_000, .. }), "{error}");
    let message = error.to_string();
    assert!(
        message.contains("case 2")
            && error.remedies().contains(&ludus_framework::Remedy::Set(ludus_framework::Setting::NoLimit)),
        "{message}"
    );
    assert_eq!(run("1\n101 100 0\n", &with("backtrack", None, true)).unwrap()[0].class, "POSSIBLE");
}

#[test]
fn huge_boards_are_built_in_linear_time_up_to_the_cell_limit() {
    for (rows, columns, mines) in [(1000, 1000, 0), (1000, 1000, 999_999 - 7), (1000, 1000, 500_001), (2000, 2000, 1)] {
        let instance = Instance::new(rows, columns, mines);
        let board = MinesweeperPuzzle.construct(&instance).unwrap().unwrap();
        assert_eq!(MinesweeperPuzzle.verify(&instance, &board), Ok(()));
    }
    // 999,999 - 7 mines leaves 8 safe cells: possible; 7 safe cells is not.
    assert_eq!(MinesweeperPuzzle.construct(&Instance::new(1000, 1000, 1_000_000 - 7)).unwrap(), None);
    let error = input_error("1\n2001 2000 5\n");
    assert!(matches!(solve("1\n2001 2000 5\n", "fast"), Err(Error::Limit { .. })));
    assert!(error.contains("case 1") && error.contains(&MAX_CELLS.to_string()), "{error}");
}

#[test]
fn json_carries_the_board_and_the_click() {
    let answers = solve("2\n2 3 2\n2 2 1\n", "fast").unwrap();
    assert_eq!(answers[0].json["possible"], true);
    assert_eq!(answers[0].json["board"], serde_json::json!(["c.*", "..*"]));
    assert_eq!(answers[0].json["click"], serde_json::json!({ "row": 1, "column": 1 }));
    assert_eq!(answers[1].json["possible"], false);
    assert_eq!(answers[1].text, "\nImpossible");
    assert_eq!(staircase(&Instance::new(2, 3, 2)), Some(vec![2, 2]));
}

#[test]
fn corrupted_answers_are_rejected() {
    for (seed, preset) in [(1, Preset::Small), (2, Preset::Official), (3, Preset::Small)] {
        let options = GenOptions { preset, cases: Some(60), size: None };
        let input = MinesweeperMaster.generate(&options, seed).unwrap();
        for round in 0..10 {
            let tried =
                check_corruption(&MinesweeperMaster, &input, &SolveOptions::default(), seed * 100 + round).unwrap();
            assert_eq!(tried, Corruptions::AllCaught { tried: 60 });
        }
    }
}

#[test]
fn hand_made_wrong_answers_are_rejected_with_a_reason() {
    let input = "1\n3 3 3\n";
    let reject = |board: &str| verdicts(input, &format!("Case #1:\n{board}\n"))[0].clone().unwrap_or_default();
    assert_eq!(reject("c..\n...\n***"), "");
    assert_eq!(reject("*..\n*..\n*.c"), "");
    assert!(reject("c..\n..c\n***").contains("2 click cells"));
    assert!(reject("c..\n..*\n***").contains("4 mines, expected M = 3"));
    assert!(reject("...\n...\n***").contains("no click cell"));
    assert!(reject("..*\n.*.\nc.*").contains("leaves 5 safe cells hidden"));
    assert!(reject("c..\n....\n***").contains("row 2 has 4 characters, expected C = 3"));
    assert!(reject("c..\n...\n***\n...").contains("4 rows, expected R = 3"));
    assert!(reject("c..\n...").contains("2 rows, expected R = 3"));
    assert!(reject("c..\n.x.\n***").contains("row 2, column 2: `x`"));
    assert!(reject("Impossible").contains("this board is valid"));
    assert!(reject("Impossible\nc..").contains("after `Impossible`"));
    assert!(reject("").contains("empty"));
    assert!(verdicts(input, "")[0].as_deref() == Some("missing from the answer file"));
    // A board for an impossible instance is wrong, whatever it is; `Impossible` is right.
    assert!(verdicts("1\n2 2 1\n", "Case #1:\nc.\n.*\n")[0].is_some());
    assert_eq!(verdicts("1\n2 2 1\n", "Case #1:\nImpossible\n"), vec![None]);
    // Impossible claims on larger boards are judged against the fast constructor.
    let large = verdicts("1\n50 50 100\n", "Case #1:\nImpossible\n")[0].clone().unwrap_or_default();
    assert!(large.contains("a valid board exists"), "{large}");
    assert_eq!(verdicts("1\n50 50 2493\n", "Case #1:\nImpossible\n"), vec![None]);
}

#[test]
fn mines_filling_the_board_is_an_input_error_naming_the_case_and_line() {
    let error = input_error("2\n2 2 3\n2 2 4\n");
    assert_eq!(
        error,
        "test.in:3:5: case 2: expected M (the number of mines, less than R x C) (an integer from 0 to 3), found `4`"
    );
}

#[test]
fn zero_sizes_are_input_errors() {
    let rows = input_error("1\n0 3 1\n");
    assert!(rows.starts_with("test.in:2:1: case 1: expected R (the number of rows)"), "{rows}");
    let columns = input_error("2\n1 1 0\n3 0 1\n");
    assert!(columns.starts_with("test.in:3:3: case 2: expected C (the number of columns)"), "{columns}");
}

#[test]
fn truncated_input_names_what_is_missing() {
    let error = input_error("3\n2 2 0\n4 4");
    assert_eq!(
        error,
        "test.in:3:4: case 2: expected M (the number of mines, less than R x C), found the end of the input"
    );
}

#[test]
fn case_count_out_of_range_is_an_input_error_or_a_limit() {
    assert!(input_error("0\n").starts_with("test.in:1:1: expected the number of cases T (an integer from 1 to 10000)"));
    let error = solve("10001\n", "fast").unwrap_err();
    assert!(matches!(error, Error::Limit { got: 10_001, limit: 10_000, .. }), "{error}");
    assert!(error.to_string().contains("the number of cases T at test.in:1:1"), "{error}");
    assert!(input_error("x\n").contains("found `x`"));
}

#[test]
fn trailing_text_and_non_numbers_are_input_errors() {
    assert_eq!(input_error("1\n2 2 0\n5\n"), "test.in:3:1: expected the end of the input, found `5`");
    assert!(input_error("1\n2 two 0\n").starts_with("test.in:2:3: case 1: expected C"));
    assert!(input_error("1\n2 2 -1\n").contains("found `-1`"));
}

#[test]
fn too_many_cells_in_total_is_a_limit_error() {
    let input = format!("5\n{}", "2000 2000 0\n".repeat(5));
    let error = solve(&input, "fast").unwrap_err();
    assert!(matches!(error, Error::Limit { .. }), "{error}");
    assert!(error.to_string().contains("case 5"), "{error}");
}

#[test]
fn unknown_solver_is_named() {
    let error = solve("1\n1 1 0\n", "quantum").unwrap_err();
    assert!(error.to_string().contains("fast, generic"), "{error}");
    // The board of a single cell is the click alone.
    let answers = solve("1\n1 1 0\n", "generic").unwrap();
    assert_eq!(answers[0].text, "\nc");
    assert_eq!(MinesweeperPuzzle.verify(&Instance::new(1, 1, 0), &Board::from_rows(&["c"])), Ok(()));
}
