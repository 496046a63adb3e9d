//! Tests of the `bacterial-tactics` plugin: the sample, differential checks of the three solvers on thousands of
//! random small grids, Grundy (nimber 0) against negamax (loss), facts worked out by hand, the verifier against
//! wrong answers, and one test per kind of malformed input.

use ludus_framework::conformance::{check_corruption, check_plugin, check_sample, GameCheck, SampleVerdict};
use ludus_framework::engines::grundy::GrundyEngine;
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::input::Source;
use ludus_framework::plugin::{Corruptions, GenOptions, NoProgress, Plugin, PluginOptions, Preset, SolveOptions};
use ludus_framework::Rules;
use ludus_framework::{Budget, Error, Impartial};
use ludus_games::bacterial_tactics::{
    generic_winning_openings, parse, BacterialTactics, Board, FastSolver, Grid, RectangleGame, SpreadGame,
};

fn solve_with(input: &str, solver: &str) -> Result<Vec<String>, Error> {
    let answers =
        BacterialTactics.solve(Source::new("test.in", input), &SolveOptions::with_solver(solver), &NoProgress)?;
    Ok(answers.into_iter().map(|answer| answer.class).collect())
}

fn error_of(input: &str) -> String {
    match parse(Source::new("bad.in", input)) {
        Ok(grids) => panic!("expected an error, parsed {} grids", grids.len()),
        Err(error) => error.to_string(),
    }
}

#[test]
fn sample_is_solved_by_every_solver() {
    for solver in BacterialTactics.solvers() {
        assert_eq!(
            check_sample(&BacterialTactics, solver.name).unwrap(),
            SampleVerdict::Right,
            "solver {}",
            solver.name
        );
    }
    assert_eq!(BacterialTactics.solvers()[0].name, "fast");
}

#[test]
fn solvers_agree_on_thousands_of_random_small_grids() {
    let report = check_plugin(&BacterialTactics, 5000, 20_190_501).unwrap();
    assert_eq!(report.cases, 5000);
    assert_eq!(report.solvers, vec!["fast", "generic", "parallel"]);
    assert!(report.failures.is_empty(), "{:#?}", &report.failures[..report.failures.len().min(3)]);
}

#[test]
fn nimber_is_zero_exactly_when_negamax_says_lost() {
    let mut fast = FastSolver::new();
    let (mut lost, mut won) = (0, 0);
    for seed in 0..1500 {
        let input = BacterialTactics
            .generate(&GenOptions { preset: Preset::Small, cases: Some(1), size: None }, 7_000 + seed)
            .unwrap();
        let grid = parse(Source::new("generated", &input)).unwrap().remove(0);
        let game = SpreadGame::new(&grid).unwrap();
        let value = MemoNegamax::new(Mode::Outcome).value(&game, &game.start());
        let nimber = fast.nimber(&grid).unwrap();
        assert_eq!(nimber == 0, value.is_loss(), "grid\n{}nimber {nimber}, negamax {value}", grid.to_text());
        if value.is_loss() {
            lost += 1;
        } else {
            won += 1;
        }
    }
    // Both outcomes occur often enough for the comparison to mean something.
    assert!(lost > 100 && won > 100, "lost {lost}, won {won}");
}

#[test]
fn generic_game_passes_the_conformance_checks() {
    for rows in [[".#.", "..."], ["...", "..."], ["#..", ".#."]] {
        let grid = Grid::from_rows(&rows).unwrap();
        let game = SpreadGame::new(&grid).unwrap();
        GameCheck::new(&game, game.start()).playouts(20).max_plies(12).seed(3).compare_engines().run().unwrap();
    }
}

#[test]
fn hand_worked_grids() {
    // 1 x 3 free: the three H moves fill the row; V in the middle leaves two lone cells (1 xor 1 = 0).
    assert_eq!(solve_with("1\n1 3\n...\n", "fast").unwrap(), vec!["4"]);
    // 1 x 3 with a radioactive middle: every H mutates, V on either end leaves a nimber-1 rectangle.
    assert_eq!(solve_with("1\n1 3\n.#.\n", "fast").unwrap(), vec!["0"]);
    // A lone cell: H and V give the same position but are two moves; both win.
    assert_eq!(solve_with("1\n1 1\n.\n", "generic").unwrap(), vec!["2"]);
    // No empty cell at all: Becca cannot move and loses.
    assert_eq!(solve_with("1\n2 2\n##\n##\n", "generic").unwrap(), vec!["0"]);
    // Only mutating moves: Becca must mutate.
    assert_eq!(solve_with("1\n2 2\n.#\n#.\n", "fast").unwrap(), vec!["0"]);
    for solver in ["fast", "generic", "parallel"] {
        assert_eq!(solve_with("2\n1 3\n...\n1 3\n.#.\n", solver).unwrap(), vec!["4", "0"], "{solver}");
    }
}

#[test]
fn mutating_moves_end_the_generic_game_against_their_mover() {
    let grid = Grid::from_rows(&[".#."]).unwrap();
    let game = SpreadGame::new(&grid).unwrap();
    let start = game.start();
    let moves = game.legal_moves(&start);
    assert_eq!(moves.len(), 4); // two empty cells, H and V each
    let mutated = moves.iter().map(|mv| game.play(&start, mv)).filter(|board| board.mutated).count();
    assert_eq!(mutated, 2); // both H moves spread into the radioactive middle
    let after = game.play(&start, &moves[0]);
    assert_eq!(after, Board { filled: 0, mutated: true });
    assert!(game.outcome(&after).is_some_and(|value| value.is_win()));
}

#[test]
fn rectangle_options_count_every_cell_of_a_filled_line() {
    let grid = Grid::from_rows(&["...", "..#"]).unwrap();
    let game = RectangleGame::new(&grid).unwrap();
    let options = game.option_list(&game.whole());
    // Row 0 (3 cells), columns 0 and 1 (2 cells each); row 1 and column 2 hold the radioactive cell.
    let counts: Vec<u64> = options.iter().map(|(_, count)| *count).collect();
    assert_eq!(counts, vec![3, 2, 2]);
    assert_eq!(options[0].0.len(), 1);
    let total: u64 = counts.iter().sum();
    let generic_moves = SpreadGame::new(&grid).unwrap().legal_moves(&Board { filled: 0, mutated: false }).len();
    assert_eq!(generic_moves, 10); // 5 empty cells x 2 colonies, of which 7 do not mutate
    assert_eq!(total, 7);
}

#[test]
fn solving_a_file_at_once_equals_solving_each_case_alone() {
    // The Grundy table is kept between cases (free rectangles only): stale per-case entries would show here.
    let input =
        BacterialTactics.generate(&GenOptions { preset: Preset::Official, cases: Some(40), size: Some(7) }, 5).unwrap();
    let grids = parse(Source::new("generated", &input)).unwrap();
    let together = solve_with(&input, "fast").unwrap();
    for (grid, answer) in grids.iter().zip(&together) {
        let alone = FastSolver::new().winning_openings(grid).unwrap();
        assert_eq!(answer, &alone.to_string(), "grid\n{}", grid.to_text());
    }
    assert_eq!(solve_with(&input, "parallel").unwrap(), together);
}

#[test]
fn free_rectangles_have_symmetric_nimbers() {
    for height in 1..=7 {
        for width in 1..=7 {
            let rows = vec![".".repeat(width); height];
            let transposed = vec![".".repeat(height); width];
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let transposed: Vec<&str> = transposed.iter().map(String::as_str).collect();
            let grid = Grid::from_rows(&rows).unwrap();
            let other = Grid::from_rows(&transposed).unwrap();
            let mut engine = GrundyEngine::new();
            let game = RectangleGame::new(&grid).unwrap();
            let nimber = engine.nimber(&game, &game.whole());
            assert_eq!(nimber, FastSolver::new().nimber(&other).unwrap(), "{height} x {width}");
            assert_eq!(
                FastSolver::new().winning_openings(&grid).unwrap(),
                FastSolver::new().winning_openings(&other).unwrap()
            );
        }
    }
}

#[test]
fn parallel_agrees_with_fast_on_official_size_grids() {
    let input =
        BacterialTactics.generate(&GenOptions { preset: Preset::Official, ..GenOptions::default() }, 11).unwrap();
    let fast = solve_with(&input, "fast").unwrap();
    assert_eq!(fast.len(), 100);
    for threads in [1, 2] {
        let options = SolveOptions { threads, ..SolveOptions::with_solver("parallel") };
        let parallel: Vec<String> = BacterialTactics
            .solve(Source::new("official", &input), &options, &NoProgress)
            .unwrap()
            .into_iter()
            .map(|answer| answer.class)
            .collect();
        assert_eq!(parallel, fast, "{threads} threads");
    }
    // The rendered answers verify.
    let answers =
        BacterialTactics.solve(Source::new("official", &input), &SolveOptions::default(), &NoProgress).unwrap();
    let rendered = BacterialTactics.render(&answers);
    let verdicts = BacterialTactics.judge(Source::new("official", &input), Source::new("out", &rendered)).unwrap();
    assert!(verdicts.iter().all(|verdict| verdict.problem.is_none()));
}

#[test]
fn verifier_rejects_corrupted_answers() {
    let sample = BacterialTactics.sample();
    assert_eq!(
        check_corruption(&BacterialTactics, sample.input, &SolveOptions::default(), 1).unwrap(),
        Corruptions::AllCaught { tried: 5 }
    );
    let input =
        BacterialTactics.generate(&GenOptions { preset: Preset::Official, cases: Some(30), size: None }, 3).unwrap();
    assert_eq!(
        check_corruption(&BacterialTactics, &input, &SolveOptions::default(), 2).unwrap(),
        Corruptions::AllCaught { tried: 30 }
    );
}

#[test]
fn verifier_rejects_hand_made_wrong_answers() {
    let input = "3\n1 1\n.\n1 3\n.#.\n1 3\n...\n";
    let judge = |output: &str| -> Vec<Option<String>> {
        BacterialTactics
            .judge(Source::new("in", input), Source::new("out", output))
            .unwrap()
            .into_iter()
            .map(|verdict| verdict.problem)
            .collect()
    };
    assert_eq!(judge("Case #1: 2\nCase #2: 0\nCase #3: 4\n"), vec![None, None, None]);
    let wrong = judge("Case #1: 1\nCase #2: 1\nCase #3: 5\n");
    assert!(wrong[0].as_deref().is_some_and(|p| p.contains("2 winning opening moves, not 1")), "{wrong:?}");
    assert!(wrong[1].as_deref().is_some_and(|p| p.contains("Becca loses")), "{wrong:?}");
    assert!(wrong[2].as_deref().is_some_and(|p| p.contains("4 winning opening moves, not 5")), "{wrong:?}");
    let too_many = judge("Case #1: 3\nCase #2: 0\nCase #3: 4\n");
    assert!(too_many[0].as_deref().is_some_and(|p| p.contains("only 2 opening moves")), "{too_many:?}");
    let garbage = judge("Case #1: two\nCase #2: 0 0\nCase #3: -4\n");
    assert!(garbage.iter().all(|p| p.as_deref().is_some_and(|p| p.contains("expected one non-negative integer"))));
    let missing = judge("Case #1: 2\nCase #2: 0\n");
    assert!(missing[2].as_deref().is_some_and(|p| p.contains("missing")));
    let extra = judge("Case #1: 2\nCase #2: 0\nCase #3: 4\nCase #4: 1\n");
    assert_eq!(extra.len(), 4);
    assert!(extra[3].is_some());
}

#[test]
fn wrong_row_length_names_the_case_and_line() {
    let error = error_of("2\n1 1\n.\n2 3\n...\n..\n");
    assert!(error.starts_with("bad.in:6:1: case 2: row 2: expected 3 characters"), "{error}");
    let error = error_of("1\n1 2\n...\n");
    assert!(error.starts_with("bad.in:3:1: case 1: row 1: expected 2 characters (C = 2), found 3"), "{error}");
    let error = error_of(&format!("1\n1 3\n{}\n", ".".repeat(1000)));
    assert!(error.ends_with(&format!("found 1000: `{}...`", ".".repeat(24))), "{error}");
}

#[test]
fn unknown_characters_name_the_case_line_and_column() {
    let error = error_of("1\n2 3\n...\n.x.\n");
    assert_eq!(error, "bad.in:4:2: case 1: row 2: expected `.` or `#`, found `x`");
    let error = error_of("1\n1 3\n.é.\n");
    assert!(error.starts_with("bad.in:3:2: case 1: row 1: expected `.` or `#`, found `é`"), "{error}");
}

#[test]
fn truncated_input_names_what_is_missing() {
    let error = error_of("2\n1 1\n.\n2 2\n..\n");
    assert!(error.starts_with("bad.in:6:1: case 2: expected row 2 of 2 of the grid"), "{error}");
    assert!(error.ends_with("found the end of the input"), "{error}");
    let error = error_of("2\n1 1\n.\n");
    assert!(error.starts_with("bad.in:4:1: case 2: expected R (the number of rows)"), "{error}");
    let error = error_of("1\n3\n");
    assert!(error.starts_with("bad.in:3:1: case 1: expected C"), "{error}");
}

#[test]
fn sides_below_one_or_above_the_cap_are_rejected() {
    let error = error_of("1\n0 2\n");
    assert_eq!(error, "bad.in:2:1: case 1: expected R (the number of rows) (an integer from 1 to 64), found `0`");
    let error = error_of("1\n2 -1\n");
    assert!(error.starts_with("bad.in:2:3: case 1: expected C (the number of columns)"), "{error}");
    let error = error_of("2\n1 1\n.\n3 65\n");
    assert!(error.starts_with("C (the number of columns) at bad.in:4:3, case 2 is 65, above the limit of 64"));
    assert!(matches!(
        parse(Source::new("bad.in", "1\n99999999999 1\n")),
        Err(Error::Limit { got: 99_999_999_999, limit: 64, .. })
    ));
}

#[test]
fn case_count_out_of_range_is_rejected() {
    assert_eq!(error_of("0\n"), "bad.in:1:1: expected the number of cases T (an integer from 1 to 100), found `0`");
    assert!(error_of("x\n").contains("expected the number of cases T"));
    let error = error_of("101\n");
    assert!(error.starts_with("the number of cases T at bad.in:1:1 is 101, above the limit of 100"), "{error}");
    let error = error_of("1\n1 1\n.\n1 1\n.\n");
    assert_eq!(error, "bad.in:4:1: expected the end of the input, found `1`");
}

#[test]
fn generic_solver_stops_at_its_limit_unless_told_otherwise() {
    let long_row = format!("1\n1 17\n{}\n", ".".repeat(17));
    let error = solve_with(&long_row, "generic").unwrap_err();
    assert!(matches!(error, Error::Limit { got: 17, limit: 16, .. }));
    assert!(error.remedies().contains(&ludus_framework::Remedy::Set(ludus_framework::Setting::NoLimit)), "{error}");
    let options = SolveOptions { no_limit: true, ..SolveOptions::with_solver("generic") };
    let answers = BacterialTactics.solve(Source::new("long", &long_row), &options, &NoProgress).unwrap();
    assert_eq!(answers[0].class, solve_with(&long_row, "fast").unwrap()[0]);
    // Past the bitmask, not even --no-limit helps.
    let huge = format!("1\n12 11\n{}", format!("{}\n", ".".repeat(11)).repeat(12));
    let error = BacterialTactics.solve(Source::new("huge", &huge), &options, &NoProgress).unwrap_err();
    assert!(
        matches!(&error, Error::InCase { error: source, .. } if matches!(**source, Error::Limit { got: 132, limit: 128, .. })),
        "{error}"
    );
    assert!(generic_winning_openings(&parse(Source::new("huge", &huge)).unwrap()[0]).is_err());
}

#[test]
fn generation_respects_the_presets() {
    let small = BacterialTactics.generate(&GenOptions::default(), 1).unwrap();
    for grid in parse(Source::new("small", &small)).unwrap() {
        assert!(grid.rows() <= 4 && grid.columns() <= 4);
    }
    let official =
        BacterialTactics.generate(&GenOptions { preset: Preset::Official, ..GenOptions::default() }, 1).unwrap();
    let grids = parse(Source::new("official", &official)).unwrap();
    assert_eq!(grids.len(), 100);
    assert!(grids.iter().all(|grid| grid.rows() <= 15 && grid.columns() <= 15));
    assert!(grids.iter().any(|grid| grid.rows() > 10 && grid.columns() > 10));
    let big = GenOptions { preset: Preset::Official, cases: Some(1), size: Some(65) };
    assert!(matches!(BacterialTactics.generate(&big, 1), Err(Error::Limit { .. })));
    let zero = GenOptions { preset: Preset::Small, cases: Some(1), size: Some(0) };
    assert!(BacterialTactics.generate(&zero, 1).is_err());
}

#[test]
fn witness_lists_the_winning_lines() {
    let options = SolveOptions { plugin_options: PluginOptions::new(["witness"]), ..SolveOptions::default() };
    let answers = BacterialTactics.solve(Source::new("row", "1\n1 3\n...\n"), &options, &NoProgress).unwrap();
    assert_eq!(
        answers[0].json["winning_lines"],
        serde_json::json!([
            { "colony": "H", "line": "row 1", "moves": 3 },
            { "colony": "V", "line": "column 2", "moves": 1 },
        ])
    );
    // Sample case 3 (`#.##` / `....` / `#.##`): H anywhere on row 2 and V anywhere on column 2 win.
    let sample = BacterialTactics.sample();
    for solver in ["fast", "parallel"] {
        let options =
            SolveOptions { plugin_options: PluginOptions::new(["witness"]), ..SolveOptions::with_solver(solver) };
        let answers = BacterialTactics.solve(Source::new("sample", sample.input), &options, &NoProgress).unwrap();
        assert_eq!(
            answers[2].json["winning_lines"],
            serde_json::json!([
                { "colony": "H", "line": "row 2", "moves": 4 },
                { "colony": "V", "line": "column 2", "moves": 3 },
            ]),
            "{solver}"
        );
        assert_eq!(answers[0].json["winning_lines"], serde_json::json!([]));
    }
    // The solvers check every witness against their count before answering.
    let input =
        BacterialTactics.generate(&GenOptions { preset: Preset::Official, ..GenOptions::default() }, 8).unwrap();
    let with = BacterialTactics.solve(Source::new("official", &input), &options, &NoProgress).unwrap();
    let without =
        BacterialTactics.solve(Source::new("official", &input), &SolveOptions::default(), &NoProgress).unwrap();
    assert_eq!(with.iter().map(|a| &a.text).collect::<Vec<_>>(), without.iter().map(|a| &a.text).collect::<Vec<_>>());
}

#[test]
fn largest_free_grid_is_solved_on_every_thread_kind() {
    // The recursion of the Grundy engine goes 128 rectangles deep here, also on rayon's worker threads.
    let input = format!(
        "2\n64 64\n{0}64 63\n{1}",
        format!("{}\n", ".".repeat(64)).repeat(64),
        format!("{}\n", ".".repeat(63)).repeat(64)
    );
    let fast = solve_with(&input, "fast").unwrap();
    assert_eq!(solve_with(&input, "parallel").unwrap(), fast);
    let answers = BacterialTactics.solve(Source::new("big", &input), &SolveOptions::default(), &NoProgress).unwrap();
    let verdicts = BacterialTactics
        .judge(Source::new("big", &input), Source::new("out", &BacterialTactics.render(&answers)))
        .unwrap();
    assert!(verdicts.iter().all(|verdict| verdict.problem.is_none()));
}

#[test]
fn generic_and_fast_agree_past_the_small_preset() {
    // Sides up to 5 (up to 25 cells, past the generic solver's default limit, called directly here).
    let mut fast = FastSolver::new();
    for seed in 0..600 {
        let input = BacterialTactics
            .generate(&GenOptions { preset: Preset::Small, cases: Some(1), size: Some(5) }, 90_000 + seed)
            .unwrap();
        let grid = parse(Source::new("generated", &input)).unwrap().remove(0);
        let (count, value, _) = generic_winning_openings(&grid).unwrap();
        assert_eq!(count, fast.winning_openings(&grid).unwrap(), "grid\n{}", grid.to_text());
        assert_eq!(count > 0, value.is_win());
    }
}

#[test]
fn budgets_stop_every_solver_with_the_budget_error_never_a_wrong_count() {
    // Case 2 starts on line 4; a 4 x 4 grid with radioactive cells needs far more than 5 positions.
    let input = "2\n1 1\n.\n4 4\n.#..\n....\n..#.\n....\n";
    for solver in ["fast", "parallel", "generic"] {
        let options = SolveOptions { max_positions: Some(5), threads: 2, ..SolveOptions::with_solver(solver) };
        let error = BacterialTactics.solve(Source::new("budget.in", input), &options, &NoProgress).unwrap_err();
        assert!(
            matches!(&error, Error::InCase { place, error: source }
                if place == "budget.in:4: case 2" && matches!(**source, Error::Budget(Budget::Positions(5)))),
            "{solver}: {error}"
        );
        assert!(
            error.remedies().contains(&ludus_framework::Remedy::Raise(ludus_framework::Setting::MaxPositions)),
            "{solver}: {error}"
        );
        let enough = SolveOptions { max_positions: Some(1_000_000), ..options };
        let answers = BacterialTactics.solve(Source::new("budget.in", input), &enough, &NoProgress).unwrap();
        let classes: Vec<String> = answers.into_iter().map(|answer| answer.class).collect();
        assert_eq!(classes, solve_with(input, "fast").unwrap(), "{solver}");
    }
    // The Grundy engine's table memory: a table of 0 MiB cannot hold one rectangle.
    let options = SolveOptions { table_mb: 0, ..SolveOptions::default() };
    let error = BacterialTactics.solve(Source::new("budget.in", input), &options, &NoProgress).unwrap_err();
    assert!(error.remedies().contains(&ludus_framework::Remedy::Raise(ludus_framework::Setting::TableMb)), "{error}");
}
