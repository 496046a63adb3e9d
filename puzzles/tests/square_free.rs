//! Tests of the `square-free` plugin: the bundled sample, fast vs generic vs brute force vs the Gale-Ryser
//! criterion on random and exhaustive small cases, the verifier against corrupted and hand-made wrong answers,
//! one test per kind of malformed input, the generic solver's limit, and one large grid.

use ludus_framework::conformance::{check_corruption, check_plugin, check_sample, SampleVerdict};
use ludus_framework::engines::brute_force::brute_force;
use ludus_framework::input::Source;
use ludus_framework::plugin::{Corruptions, GenOptions, NoProgress, Plugin, Preset, SolveOptions};
use ludus_framework::{Error, Verify};
use ludus_puzzles::square_free::{
    construct_backtracking, construct_lexicographic, find_square, margins_are_feasible, parse_input, Grid, Instance,
    Square, SquareFree,
};

fn solve(input: &str, solver: &str) -> Result<Vec<String>, Error> {
    let answers = SquareFree.solve(Source::new("test.in", input), &SolveOptions::with_solver(solver), &NoProgress)?;
    Ok(answers.into_iter().map(|answer| answer.class).collect())
}

fn verdicts(input: &str, output: &str) -> Vec<Option<String>> {
    match Plugin::judge(&SquareFree, Source::new("test.in", input), Source::new("test.out", output)) {
        Ok(verdicts) => verdicts.into_iter().map(|verdict| verdict.problem).collect(),
        Err(error) => panic!("the input should be well formed: {error}"),
    }
}

fn input_error(input: &str) -> String {
    match SquareFree.solve(Source::new("bad.in", input), &SolveOptions::default(), &NoProgress) {
        Err(error) => error.to_string(),
        Ok(answers) => panic!("expected an error, got {answers:?}"),
    }
}

#[test]
fn sample_is_solved_by_every_solver() {
    for solver in ["fast", "generic"] {
        assert_eq!(check_sample(&SquareFree, solver).unwrap(), SampleVerdict::Right, "solver {solver}");
        assert_eq!(
            solve(SquareFree.sample().input, solver).unwrap(),
            ["POSSIBLE", "IMPOSSIBLE", "POSSIBLE", "POSSIBLE"],
            "solver {solver}"
        );
    }
    // The published answer passes the verifier as it stands.
    let sample = SquareFree.sample();
    assert_eq!(verdicts(sample.input, sample.answer), vec![None; 4]);
}

#[test]
fn solvers_agree_and_verify_on_thousands_of_random_small_cases() {
    let report = check_plugin(&SquareFree, 2500, 20_261_129).unwrap();
    assert_eq!(report.cases, 2500);
    assert!(report.failures.is_empty(), "{:#?}", &report.failures[..report.failures.len().min(3)]);
}

#[test]
fn generated_small_cases_cover_both_answers_and_equal_sum_impossibles() {
    let (mut possible, mut impossible, mut equal_sums_impossible) = (0, 0, 0);
    for seed in 0..300 {
        let input =
            SquareFree.generate(&GenOptions { preset: Preset::Small, cases: Some(1), size: None }, seed).unwrap();
        let instance = &parse_input(Source::new("generated", &input)).unwrap().cases[0];
        assert!(instance.rows <= 5 && instance.columns <= 5);
        match construct_lexicographic(instance) {
            Some(_) => possible += 1,
            None => {
                impossible += 1;
                if instance.row_counts.iter().sum::<usize>() == instance.column_counts.iter().sum::<usize>() {
                    equal_sums_impossible += 1;
                }
            }
        }
    }
    assert!(possible > 100 && impossible > 50 && equal_sums_impossible > 0, "{possible} {impossible}");
}

/// Every pair of margins of every size up to 3 x 4 and 4 x 3: the fast grid exists exactly when the Gale-Ryser
/// criterion holds and the generic solver finds a grid, and both solvers return the same grid (both find the
/// lexicographically smallest one), which verifies.
#[test]
fn fast_generic_and_gale_ryser_agree_on_every_margin_pair_of_tiny_sizes() {
    let mut checked = 0;
    let mut possible = 0;
    for (rows, columns) in
        [(1usize, 1usize), (1, 2), (2, 1), (1, 4), (4, 1), (2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 3)]
    {
        for row_code in 0..(columns + 1).pow(rows as u32) {
            let row_counts = digits(row_code, columns + 1, rows);
            for column_code in 0..(rows + 1).pow(columns as u32) {
                let column_counts = digits(column_code, rows + 1, columns);
                let instance = Instance { rows, columns, row_counts: row_counts.clone(), column_counts };
                let fast = construct_lexicographic(&instance);
                let generic = construct_backtracking(&instance);
                assert_eq!(fast, generic, "{instance:?}");
                assert_eq!(fast.is_some(), margins_are_feasible(&instance.row_counts, &instance.column_counts));
                if let Some(grid) = &fast {
                    assert_eq!(Verify::verify(&SquareFree, &instance, grid), Ok(()));
                    possible += 1;
                }
                checked += 1;
            }
        }
    }
    // (C + 1)^R * (R + 1)^C pairs per size.
    assert_eq!(
        checked,
        2 * 2 + 3 * 4 + 4 * 3 + 5 * 16 + 16 * 5 + 9 * 9 + 16 * 27 + 27 * 16 + 64 * 64 + 125 * 256 + 256 * 125
    );
    assert!(possible > 1000);
}

fn digits(mut code: usize, base: usize, length: usize) -> Vec<usize> {
    (0..length)
        .map(|_| {
            let digit = code % base;
            code /= base;
            digit
        })
        .collect()
}

/// Every grid of up to 12 cells: its margins have a square-free grid (brute force over all grids, the
/// framework's engine) and the fast solver returns the brute force's first hit.
#[test]
fn fast_matches_the_brute_force_engine_on_the_margins_of_every_small_grid() {
    let mut seen = std::collections::HashSet::new();
    for (rows, columns) in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 3), (2, 6)] {
        for code in 0u32..(1 << (rows * columns)) {
            let mut grid = Grid::new(rows, columns);
            for cell in 0..rows * columns {
                grid.set(cell / columns, cell % columns, code >> cell & 1 == 1);
            }
            let instance =
                Instance { rows, columns, row_counts: grid.row_counts(), column_counts: grid.column_counts() };
            if !seen.insert((rows, columns, instance.row_counts.clone(), instance.column_counts.clone())) {
                continue;
            }
            let (oracle, stats) = brute_force(&SquareFree, &instance);
            assert!(stats.visited >= 1);
            assert_eq!(construct_lexicographic(&instance), oracle, "{instance:?}");
        }
    }
    assert!(seen.len() > 3000, "{}", seen.len());
}

#[test]
fn equal_sums_without_any_grid_are_impossible() {
    // The example of the analysis: the sums agree (14) but no 0/1 matrix has these margins.
    let input = "1\n4 6\n2 0 6 6\n4 2 2 2 2 2\n";
    assert_eq!(solve(input, "fast").unwrap(), ["IMPOSSIBLE"]);
    let mut options = SolveOptions::with_solver("generic");
    options.no_limit = true;
    let answers = SquareFree.solve(Source::new("seed.in", input), &options, &NoProgress).unwrap();
    assert_eq!(answers[0].class, "IMPOSSIBLE");
    assert_eq!(answers[0].json, serde_json::json!({ "possible": false }));
    assert_eq!(verdicts(input, "Case #1: IMPOSSIBLE\n"), [None]);
}

#[test]
fn verifier_rejects_corrupted_answers() {
    for (preset, seed) in [(Preset::Small, 3), (Preset::Official, 4)] {
        let input = SquareFree.generate(&GenOptions { preset, cases: Some(60), size: None }, seed).unwrap();
        let outcome = check_corruption(&SquareFree, &input, &SolveOptions::default(), seed).unwrap();
        assert_eq!(outcome, Corruptions::AllCaught { tried: 60 });
    }
}

#[test]
fn verifier_rejects_a_hand_made_square_of_side_two() {
    // A diamond of side 2 with its top corner between columns 2 and 3; no square of side 1 anywhere.
    let rows = ["\\/\\\\", "///\\", "\\///", "/\\/\\"];
    let grid = Grid::from_lines(&rows).unwrap();
    assert_eq!(find_square(&grid), Some(Square { top: 0, corner: 1, side: 2 }));
    let instance = Instance { rows: 4, columns: 4, row_counts: grid.row_counts(), column_counts: grid.column_counts() };
    let violation = Verify::verify(&SquareFree, &instance, &grid).unwrap_err();
    assert!(violation.reason.contains("side 2") && violation.reason.contains("columns 2 and 3"), "{violation}");
    let join = |counts: &[usize]| counts.iter().map(usize::to_string).collect::<Vec<_>>().join(" ");
    let input = format!("1\n4 4\n{}\n{}\n", join(&instance.row_counts), join(&instance.column_counts));
    let problem = verdicts(&input, &format!("Case #1: POSSIBLE\n{}\n", rows.join("\n")))[0].clone().unwrap();
    assert!(problem.contains("side 2"), "{problem}");
    // The same margins do have a square-free grid.
    assert_eq!(solve(&input, "fast").unwrap(), ["POSSIBLE"]);
}

#[test]
fn verifier_rejects_hand_made_wrong_answers() {
    let input = SquareFree.sample().input;
    let good = ["Case #1: POSSIBLE\n//\\/\n\\/\\/\n///\\\n/\\//\n", "Case #2: IMPOSSIBLE\n"];
    let rest = "Case #3: POSSIBLE\n\\\\/\n//\\\nCase #4: POSSIBLE\n/\\/\n\\\\\\\n/\\/\n";
    let check = |case_one: &str, case_two: &str, expected: &str, case: usize| {
        let output = format!("{case_one}{case_two}{rest}");
        let verdicts = verdicts(input, &output);
        for (index, verdict) in verdicts.iter().enumerate() {
            if index + 1 == case {
                let problem = verdict.clone().unwrap_or_default();
                assert!(problem.contains(expected), "expected `{expected}` in `{problem}`");
            } else {
                assert_eq!(verdict, &None, "case {}", index + 1);
            }
        }
    };
    check(good[0], good[1], "", 0);
    // Wrong row counts (each row still has 4 characters).
    check("Case #1: POSSIBLE\n\\/\\/\n//\\/\n///\\\n/\\//\n", good[1], "row 1 holds 2 `/`, expected 3", 1);
    // Right row counts, wrong column counts.
    check("Case #1: POSSIBLE\n///\\\n\\/\\/\n///\\\n/\\//\n", good[1], "column 3 holds 3 `/`, expected 2", 1);
    check("Case #1: POSSIBLE\n//\\/\n\\/\\/\n///\\\n", good[1], "expected 4 grid rows after POSSIBLE, found 3", 1);
    check("Case #1: POSSIBLE\n//\\/\n\\/\\/\n///\\\n/\\///\n", good[1], "grid row 4 has 5 characters", 1);
    check("Case #1: POSSIBLE\n//\\/\n\\/x/\n///\\\n/\\//\n", good[1], "row 2, column 3: `x`", 1);
    check("Case #1: IMPOSSIBLE\n", good[1], "says IMPOSSIBLE, but this grid fits", 1);
    check("Case #1: MAYBE\n", good[1], "expected POSSIBLE or IMPOSSIBLE, found `MAYBE`", 1);
    // Case 2 has 2 `/` in its rows and 3 in its columns: no grid can fit.
    check(good[0], "Case #2: POSSIBLE\n/\\\\\n\\/\\\n", "column", 2);
    check(good[0], "Case #2: IMPOSSIBLE\nextra\n", "unexpected text after IMPOSSIBLE", 2);
    // A missing case is rejected, the others judged.
    let verdicts = verdicts(input, good[0]);
    assert_eq!(verdicts[0], None);
    assert!(verdicts[1..].iter().all(|verdict| verdict.as_deref() == Some("missing from the answer file")));
}

#[test]
fn truncated_input_names_the_case_and_what_was_expected() {
    let error = input_error("2\n1 1\n1\n1\n2 2\n1 1\n");
    assert_eq!(error, "bad.in:7:1: case 2: expected D_1 (the number of `/` in column 1), found the end of the input");
    let error = input_error("2\n1 1\n1\n1\n");
    assert_eq!(error, "bad.in:5:1: case 2: expected the number of rows R, found the end of the input");
}

#[test]
fn count_out_of_range_is_an_input_error_at_its_place() {
    let error = input_error("1\n2 3\n1 4\n1 1 1\n");
    assert_eq!(
        error,
        "bad.in:3:3: case 1: expected S_2 (the number of `/` in row 2) (an integer from 0 to 3), found `4`"
    );
    let error = input_error("1\n2 3\n1 1\n1 -1 1\n");
    assert!(error.starts_with("bad.in:4:3: case 1: expected D_2"), "{error}");
}

#[test]
fn count_lists_of_the_wrong_length_are_reported_on_their_line() {
    let error = input_error("1\n2 3\n1\n1 1 0\n");
    assert_eq!(error, "bad.in:4:1: case 1: expected 2 row counts S_1 .. S_2 on line 3, found only 1");
    let error = input_error("1\n2 3\n1 1 1\n1 1 1\n");
    assert_eq!(error, "bad.in:3:5: case 1: expected 2 row counts S_1 .. S_2 on line 3, found more: `1`");
    let error = input_error("1\n2 3\n1 1\n1 1 1 0\n");
    assert_eq!(error, "bad.in:4:7: case 1: expected 3 column counts D_1 .. D_3 on line 4, found more: `0`");
}

#[test]
fn malformed_numbers_and_trailing_text_are_input_errors() {
    assert_eq!(
        input_error("0\n"),
        "bad.in:1:1: expected the number of cases T (an integer from 1 to 10000), found `0`"
    );
    assert_eq!(
        input_error("1\n0 2\n\n0 0\n"),
        "bad.in:2:1: case 1: expected the number of rows R (an integer from 1 to 500), found `0`"
    );
    assert_eq!(
        input_error("1\n2 x\n1 1\n1 1\n"),
        "bad.in:2:3: case 1: expected the number of columns C (an integer from 1 to 500), found `x`"
    );
    assert_eq!(input_error("1\n1 1\n1\n1\n1 1\n"), "bad.in:5:1: expected the end of the input, found `1`");
}

#[test]
fn huge_grids_are_limit_errors() {
    let error =
        SquareFree.solve(Source::new("big.in", "1\n501 2\n"), &SolveOptions::default(), &NoProgress).unwrap_err();
    assert!(matches!(error, Error::Limit { got: 501, limit: 500, .. }), "{error}");
    assert!(error.to_string().contains("big.in:2:1, case 1"), "{error}");
}

#[test]
fn generic_solver_refuses_grids_above_six_by_six_unless_told_otherwise() {
    let input =
        "2\n1 1\n0\n0\n1 40\n20\n1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0\n";
    let error = solve(input, "generic").unwrap_err();
    assert!(matches!(error, Error::Limit { got: 40, limit: 36, .. }), "{error}");
    assert!(
        error.to_string().contains("case 2")
            && error.remedies().contains(&ludus_framework::Remedy::Set(ludus_framework::Setting::NoLimit)),
        "{error}"
    );
    // The refused case is named by its place in the file too.
    assert!(error.to_string().contains("test.in:5: case 2"), "{error}");
    let mut options = SolveOptions::with_solver("generic");
    options.no_limit = true;
    let answers = SquareFree.solve(Source::new("wide.in", input), &options, &NoProgress).unwrap();
    let fast = SquareFree.solve(Source::new("wide.in", input), &SolveOptions::default(), &NoProgress).unwrap();
    assert_eq!(answers, fast);
    assert_eq!(answers[1].text, format!(" POSSIBLE\n{}", "/\\".repeat(20)));
    assert!(solve(input, "clever").is_err());
}

#[test]
fn large_generated_grids_are_solved_and_verified() {
    let input = SquareFree.generate(&GenOptions { preset: Preset::Official, cases: Some(2), size: Some(200) }, 9);
    let input = input.unwrap();
    let instances = parse_input(Source::new("generated", &input)).unwrap().cases;
    assert!(instances.iter().all(|instance| instance.rows == 200 && instance.columns == 200));
    let answers = SquareFree.solve(Source::new("generated", &input), &SolveOptions::default(), &NoProgress).unwrap();
    let rendered = SquareFree.render(&answers);
    assert!(verdicts(&input, &rendered).iter().all(Option::is_none));
    // A 200 x 200 grid from a random grid's margins always has a solution.
    let instance = Instance {
        rows: 200,
        columns: 200,
        row_counts: (0..200).map(|row| (row * 7) % 201).collect(),
        column_counts: Vec::new(),
    };
    let mut grid = Grid::new(200, 200);
    for (row, &count) in instance.row_counts.iter().enumerate() {
        for column in 0..count {
            grid.set(row, (column * 3 + row) % 200, true);
        }
    }
    let instance = Instance { column_counts: grid.column_counts(), row_counts: grid.row_counts(), ..instance };
    let built = construct_lexicographic(&instance).unwrap();
    assert_eq!(Verify::verify(&SquareFree, &instance, &built), Ok(()));
}

#[test]
fn generated_official_inputs_follow_the_official_limits() {
    let input = SquareFree.generate(&GenOptions { preset: Preset::Official, cases: None, size: None }, 5).unwrap();
    let instances = parse_input(Source::new("generated", &input)).unwrap().cases;
    assert_eq!(instances.len(), 100);
    assert!(instances.iter().all(|instance| instance.rows <= 20 && instance.columns <= 20));
    assert!(instances.iter().any(|instance| instance.rows > 10));
    assert!(SquareFree.generate(&GenOptions { preset: Preset::Small, cases: Some(1), size: Some(501) }, 1).is_err());
    // JSON answers carry the grid.
    let answers = SquareFree.solve(Source::new("generated", &input), &SolveOptions::default(), &NoProgress).unwrap();
    for answer in &answers {
        let possible = answer.json["possible"].as_bool().unwrap();
        assert_eq!(possible, answer.class == "POSSIBLE");
        if possible {
            let grid = answer.json["grid"].as_array().unwrap();
            assert_eq!(answer.text.lines().count(), grid.len() + 1);
        }
    }
}
