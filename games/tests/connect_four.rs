//! Tests of Connect Four and the `connect-four` plugin: the bundled sample and the End-Easy benchmark come out
//! exactly right, the two solvers agree on thousands of random positions, the verifier rejects wrong answers,
//! bad input is reported with its line and case, and the game's shortcuts, symmetry and engines agree.

use ludus_framework::conformance::{check_corruption, check_plugin, check_sample, GameCheck, SampleVerdict};
use ludus_framework::engines::alpha_beta::{AlphaBeta, LazySmp, ScoreSearch};
use ludus_framework::engines::negamax::{MemoNegamax, PlainNegamax};
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::hints::NoHints;
use ludus_framework::input::Source;
use ludus_framework::plugin::{
    seeded_rng, Corruptions, GenOptions, NoProgress, Plugin, PluginOptions, Preset, SolveOptions,
};
use ludus_framework::table::{PackedTable, UnboundedTable};
use ludus_framework::Rules;
use ludus_framework::{Budget, Canonicalize, Error, Remedy, Setting, Value};
use ludus_framework::{Statistics, TableEngine};
use ludus_games::connect_four::{exact_score, random_moves, Board, ConnectFour, ConnectFourPlugin};

const END_EASY: &str = include_str!("../../samples/connect-four/end-easy.txt");

fn solve(input: &str, solver: &str) -> Result<Vec<String>, Error> {
    let answers =
        ConnectFourPlugin.solve(Source::new("in.txt", input), &SolveOptions::with_solver(solver), &NoProgress)?;
    Ok(answers.into_iter().map(|answer| answer.text).collect())
}

fn input_error(input: &str) -> String {
    match solve(input, "fast") {
        Err(Error::Input(error)) => error.to_string(),
        other => panic!("expected an input error for {input:?}, got {other:?}"),
    }
}

#[test]
fn the_bundled_sample_comes_out_right_with_every_solver() {
    for solver in ["fast", "generic"] {
        assert_eq!(check_sample(&ConnectFourPlugin, solver).unwrap(), SampleVerdict::Right, "{solver}");
    }
    assert_eq!(ConnectFourPlugin.sample().input.lines().count(), 20);
}

/// Solves the End-Easy lines selected by `keep` with the fast solver and compares every score.
fn check_end_easy(keep: impl Fn(usize) -> bool) -> usize {
    let lines: Vec<&str> =
        END_EASY.lines().enumerate().filter(|(index, _)| keep(*index)).map(|(_, line)| line).collect();
    let input: String = lines.iter().map(|line| format!("{line}\n")).collect();
    let answers = solve(&input, "fast").unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(answers.len(), lines.len());
    for (line, answer) in lines.iter().zip(&answers) {
        assert_eq!(answer, line);
    }
    // The claims in the input are checked by the verifier as well.
    let rendered = ConnectFourPlugin.render(
        &ConnectFourPlugin
            .solve(Source::new("in", &input), &SolveOptions::default(), &NoProgress)
            .unwrap_or_else(|error| panic!("{error}")),
    );
    let verdicts = ConnectFourPlugin
        .judge(Source::new("in", &input), Source::new("out", &rendered))
        .unwrap_or_else(|error| panic!("{error}"));
    assert!(verdicts.iter().all(|verdict| verdict.problem.is_none()), "{verdicts:?}");
    lines.len()
}

#[test]
fn the_whole_end_easy_benchmark_gets_exact_scores() {
    assert_eq!(check_end_easy(|_| true), 1000);
}

#[test]
fn fast_and_generic_agree_on_thousands_of_random_small_positions() {
    let report = check_plugin(&ConnectFourPlugin, 2000, 1).unwrap();
    assert_eq!(report.cases, 2000);
    assert_eq!(report.solvers, vec!["fast", "parallel", "generic"]);
    assert!(report.failures.is_empty(), "{:?}", report.failures.first());
}

#[test]
fn the_verifier_rejects_corrupted_answers() {
    let input =
        ConnectFourPlugin.generate(&GenOptions { preset: Preset::Small, cases: Some(40), size: None }, 9).unwrap();
    assert_eq!(
        check_corruption(&ConnectFourPlugin, &input, &SolveOptions::default(), 3).unwrap(),
        Corruptions::AllCaught { tried: 40 }
    );
}

#[test]
fn the_verifier_rejects_hand_made_wrong_answers() {
    let input = "2252576253462244111563365343671351441\n7422341735647741166133573473242566\n";
    let verify = |output: &str| {
        ConnectFourPlugin
            .judge(Source::new("in", input), Source::new("out", output))
            .unwrap()
            .into_iter()
            .map(|verdict| verdict.problem)
            .collect::<Vec<_>>()
    };
    let right = "2252576253462244111563365343671351441 -1\n7422341735647741166133573473242566 1\n";
    assert_eq!(verify(right), vec![None, None]);
    // A wrong score, a wrong sign (a draw claimed as a loss), moves of another position, a malformed line.
    let problems = verify("2252576253462244111563365343671351441 1\n7422341735647741166133573473242566 0\n");
    assert!(problems[0].as_deref().unwrap().contains("exact score is -1"), "{problems:?}");
    assert!(problems[1].as_deref().unwrap().contains("exact score is 1"), "{problems:?}");
    let problems = verify("2252576253462244111563365343671351442 -1\n7422341735647741166133573473242566\n");
    assert!(problems[0].as_deref().unwrap().contains("moves"), "{problems:?}");
    assert!(problems[1].as_deref().unwrap().contains("MOVES SCORE"), "{problems:?}");
    // A missing answer, and an extra one.
    let problems = verify("2252576253462244111563365343671351441 -1\n");
    assert_eq!(problems[0], None);
    assert!(problems[1].as_deref().unwrap().contains("missing"));
    let problems = verify(&format!("{right}4 0\n"));
    assert_eq!(problems.len(), 3);
    assert!(problems[2].as_deref().unwrap().contains("extra answer"));
    // A wrong claim in the input rejects its case even when the answer is right.
    let claimed = "2252576253462244111563365343671351441 -2\n";
    let verdicts = ConnectFourPlugin
        .judge(Source::new("in", claimed), Source::new("out", "2252576253462244111563365343671351441 -1\n"))
        .unwrap();
    assert!(verdicts[0].problem.as_deref().unwrap().contains("claims the score -2"), "{verdicts:?}");
}

#[test]
fn a_non_digit_is_an_error_naming_line_and_case() {
    let message = input_error("4453\n44x3\n");
    assert!(message.starts_with("in.txt:2:3: case 2: expected a column from 1 to 7, found `x`"), "{message}");
}

#[test]
fn a_column_out_of_range_is_an_error_naming_line_and_case() {
    let message = input_error("4453\n\n1234\n4480\n");
    assert!(message.starts_with("in.txt:4:3: case 3: column 8 is out of range"), "{message}");
    let message = input_error("04\n");
    assert!(message.starts_with("in.txt:1:1: case 1: column 0 is out of range"), "{message}");
}

#[test]
fn a_full_column_is_an_error_naming_line_and_case() {
    let message = input_error("12\n4444444\n");
    assert!(message.starts_with("in.txt:2:7: case 2: move 7 plays in column 4, which is full"), "{message}");
}

#[test]
fn a_move_after_the_game_is_over_is_an_error_naming_line_and_case() {
    // The first player completes four in column 1 with move 7; move 8 is one too many.
    let message = input_error("1212121\n12121212\n");
    assert!(message.starts_with("in.txt:2:8: case 2: move 8 (column 2) comes after the game is over"), "{message}");
}

#[test]
fn bad_scores_extra_fields_and_empty_inputs_are_errors() {
    let message = input_error("4453 -1\n4453 abc\n");
    assert!(
        message.starts_with("in.txt:2:6: case 2: expected the claimed score (an integer from -22 to 22)"),
        "{message}"
    );
    let message = input_error("4453 1 2\n");
    assert!(message.starts_with("in.txt:1:8: case 1: expected the end of the line after the score"), "{message}");
    let message = input_error("\n\n");
    assert!(message.contains("expected a line of moves, found the end of the input"), "{message}");
}

#[test]
fn the_size_line_sets_the_board_and_bad_sizes_are_errors() {
    let answers = solve("size 4 4\n1234\n11223\n", "fast").unwrap();
    assert_eq!(answers, solve("size 4 4\n1234\n11223\n", "generic").unwrap());
    let message = input_error("size 4 4\n12345\n");
    assert!(message.starts_with("in.txt:2:5: case 1: column 5 is out of range: columns are 1 to 4"), "{message}");
    let message = input_error("size 8 8\n1\n");
    assert!(message.starts_with("in.txt:1:1: the size line:") && message.contains("64"), "{message}");
    let message = input_error("size 10 4\n1\n");
    assert!(message.starts_with("in.txt:1:6: the size line: expected the width W"), "{message}");
    let message = input_error("size 4\n1\n");
    assert!(message.contains("expected `size W H`"), "{message}");
}

#[test]
fn solvers_refuse_positions_beyond_their_limit_unless_told() {
    let input = "4444\n";
    match solve(input, "generic") {
        Err(Error::Limit { got, limit, remedies, .. }) => {
            assert_eq!((got, limit), (38, 22));
            assert!(remedies.contains(&Remedy::Set(Setting::NoLimit)), "{remedies:?}");
        }
        other => panic!("expected a limit error, got {other:?}"),
    }
    // The fast solver has no empty-cell limit (its table bounds memory): 28 empty cells, beyond `generic`'s 22.
    assert_eq!(solve("34753161612625\n", "fast").unwrap(), vec!["34753161612625 -2"]);
    assert!(matches!(solve("34753161612625\n", "generic"), Err(Error::Limit { got: 28, limit: 22, .. })));
    // A position budget bounds its time instead: past it, a limit error that names the flag.
    for solver in ["fast", "parallel", "generic"] {
        let options = SolveOptions { max_positions: Some(1000), no_limit: true, ..SolveOptions::with_solver(solver) };
        match ConnectFourPlugin.solve(Source::new("in", input), &options, &NoProgress) {
            Err(Error::InCase { place, error: source }) => {
                assert_eq!(place, "in:1: case 1");
                assert!(matches!(*source, Error::Budget(Budget::Positions(1000))), "{source:?}");
                assert!(
                    source.remedies().contains(&ludus_framework::Remedy::Raise(ludus_framework::Setting::MaxPositions)),
                    "{source}"
                );
            }
            other => panic!("{solver}: expected the budget's limit error, got {other:?}"),
        }
    }
    let mut options = SolveOptions::with_solver("generic");
    options.no_limit = true;
    let small = "size 4 4\n1\n";
    let answers = ConnectFourPlugin.solve(Source::new("in", small), &options, &NoProgress).unwrap();
    assert_eq!(answers.len(), 1);
    assert!(matches!(solve("1\n", "nope"), Err(Error::UnknownSolver { .. })));
}

#[test]
fn scores_follow_the_definition() {
    let game = ConnectFour::standard();
    // The first player has 1, 2, 3 on the bottom row and moves: a win with the 4th stone scores 22 - 4.
    let board = game.parse_moves("112233").unwrap();
    assert_eq!(exact_score(&game, &board).unwrap(), 18);
    assert_eq!(game.score(&board, Value::Win(1)), 18);
    // The second player to move after "1122334" has lost: the first player won with 4 stones.
    let over = game.parse_moves("1122334").unwrap();
    assert_eq!(game.score(&over, Value::LOST), -18);
    assert_eq!(solve("1122334\n", "fast").unwrap(), vec!["1122334 -18"]);
    // A draw scores 0, and the score base of odd boards keeps a last-cell win above 0.
    assert_eq!(game.score(&board, Value::Draw), 0);
    assert_eq!(game.score_base(), 22);
    let odd = ConnectFour::new(5, 5).unwrap();
    assert_eq!(odd.score_base(), 14);
    // On 25 cells the second player has 12 stones at most, so C is 13 for him (Pons' (W*H + 1 - n)/2 after n
    // stones): his win with his 4th stone after "1232521" (three in column 2) scores 9, not 14 - 4.
    let second = odd.parse_moves("1232521").unwrap();
    assert_eq!(exact_score(&odd, &second).unwrap(), 9);
    assert!(odd.check_score(&second, 9).is_ok() && odd.check_score(&second, 10).is_err());
    // ...and the first player, to move after his opponent's four, has lost by 9.
    let over = odd.parse_moves("12325212").unwrap();
    assert_eq!(odd.score(&over, Value::LOST), -9);
    assert!(odd.check_score(&over, -9).is_ok() && odd.check_score(&over, -10).is_err());
}

#[test]
fn nine_by_five_scores_are_those_of_the_pons_style_reference() {
    // Scores of 9 x 5 openings (benches/data/connect-four/9x5-begin-medium.txt) by the independent Pons-style
    // solver, benches/reference/pons_style.cpp built with -DWIDTH=9 -DHEIGHT=5; four with the second player to
    // move, whose scores on this odd board are one below the first player's for a win with the same stones.
    let input = "size 9 5\n631942891261\n14313756879\n23217592957\n98412147974\n41729468359\n633564282\n";
    let expected =
        ["631942891261 10", "14313756879 11", "23217592957 8", "98412147974 -9", "41729468359 9", "633564282 -13"];
    assert_eq!(solve(input, "fast").unwrap(), expected);
}

#[test]
fn the_game_passes_the_conformance_checks_on_small_boards() {
    // Plain negamax takes part, so the playouts start with few empty cells left.
    for (width, height, moves) in [(4, 4, "14232341"), (5, 4, "3324145252"), (4, 5, "231414322"), (3, 3, "")] {
        let game = ConnectFour::new(width, height).unwrap();
        let start = game.parse_moves(moves).unwrap();
        let symmetries = |board: &Board| vec![game.mirror(board)];
        let check = GameCheck::new(&game, start).playouts(30).max_plies(64).seed(7).symmetries(&symmetries);
        assert_eq!(check.compare_engines().run().map_err(|error| error.to_string()), Ok(()), "{width} x {height}");
        // Without plain negamax, playouts from the empty board.
        let check = GameCheck::new(&game, Board::EMPTY).playouts(200).max_plies(64).seed(8).symmetries(&symmetries);
        assert_eq!(check.run().map_err(|error| error.to_string()), Ok(()), "{width} x {height}");
    }
}

/// Random positions of `game` with `played` stones (no four in a row yet).
fn random_boards(game: &ConnectFour, played: std::ops::RangeInclusive<u32>, count: u64, seed: u64) -> Vec<Board> {
    let mut rng = seeded_rng(seed);
    (0..count)
        .map(|index| {
            let stones = *played.start() + (index as u32) % (played.end() - played.start() + 1);
            let moves = random_moves(game, stones, &mut rng).unwrap_or_else(|error| panic!("{error}"));
            game.parse_moves(&moves).unwrap_or_else(|illegal| panic!("{moves}: {illegal:?}"))
        })
        .collect()
}

#[test]
fn every_engine_agrees_with_and_without_hints_in_both_modes_and_with_tiny_tables() {
    for (width, height) in [(4, 4), (5, 4), (4, 3)] {
        let game = ConnectFour::new(width, height).unwrap();
        let bare = NoHints(&game);
        let mut reference = MemoNegamax::with_table(Mode::Exact, UnboundedTable::new());
        let mut memo = MemoNegamax::new(Mode::Exact);
        let mut alpha_beta = AlphaBeta::new(Mode::Exact);
        let mut alpha_beta_bare = AlphaBeta::new(Mode::Exact);
        let mut packed = AlphaBeta::with_table(Mode::Exact, PackedTable::with_budget(1 << 20).unwrap());
        let mut tiny = AlphaBeta::with_table(Mode::Exact, PackedTable::with_budget(1024).unwrap());
        let mut full_window =
            AlphaBeta::with_table(Mode::Exact, UnboundedTable::new()).with_score_search(ScoreSearch::FullWindow);
        let mut lazy = LazySmp::with_table(Mode::Exact, 2, PackedTable::with_budget(1 << 16).unwrap()).unwrap();
        let mut weak = AlphaBeta::new(Mode::Outcome);
        let mut weak_bare = AlphaBeta::new(Mode::Outcome);
        let mut weak_memo = MemoNegamax::new(Mode::Outcome);
        let cells = width * height;
        for board in random_boards(&game, cells - 11..=cells - 1, 300, u64::from(width * 10 + height)) {
            let expected = reference.value(&bare, &board);
            assert_eq!(memo.value(&game, &board), expected, "{board:?}");
            assert_eq!(alpha_beta.value(&game, &board), expected, "{board:?}");
            assert_eq!(alpha_beta_bare.value(&bare, &board), expected, "{board:?}");
            assert_eq!(packed.value(&game, &board), expected, "{board:?}");
            assert_eq!(tiny.value(&game, &board), expected, "{board:?}");
            assert_eq!(full_window.value(&game, &board), expected, "{board:?}");
            assert_eq!(lazy.value(&game, &board), expected, "{board:?}");
            assert_eq!(weak.value(&game, &board).outcome(), expected.outcome(), "{board:?}");
            assert_eq!(weak_bare.value(&bare, &board).outcome(), expected.outcome(), "{board:?}");
            assert_eq!(weak_memo.value(&game, &board).outcome(), expected.outcome(), "{board:?}");
            if game.empty_cells(&board) <= 6 {
                assert_eq!(PlainNegamax::new(Mode::Exact).value(&bare, &board), expected, "{board:?}");
                assert_eq!(PlainNegamax::new(Mode::Exact).value(&game, &board), expected, "{board:?}");
            }
        }
    }
}

#[test]
fn a_table_with_a_near_part_gives_the_same_values() {
    // Searches large enough that the engine learns which depths are near and uses the near part: the empty 5 x 4
    // and 6 x 4 boards (a draw; a second-player win in 24 plies by the solved databases) and random 5 x 5
    // positions, against a table that never forgets. Tiny near parts force constant replacement. On 7 x 4 the
    // one-bucket near part holds only keys below 2^32 (two stones in the last column or fewer): the others keep
    // their near entries in the far part.
    for (width, height, near_bytes) in [(5, 4, 1 << 12), (6, 4, 1 << 10), (5, 5, 1 << 14), (7, 4, 16)] {
        let game = ConnectFour::new(width, height).unwrap();
        let mut reference = AlphaBeta::with_table(Mode::Exact, UnboundedTable::new());
        let mut split = AlphaBeta::with_table(Mode::Exact, PackedTable::with_parts(1 << 20, near_bytes).unwrap());
        let mut lazy =
            LazySmp::with_table(Mode::Exact, 2, PackedTable::with_parts(1 << 20, near_bytes).unwrap()).unwrap();
        let cells = width * height;
        let mut boards = vec![Board::EMPTY];
        boards.extend(random_boards(&game, cells - 16..=cells - 8, 12, u64::from(cells)));
        for board in boards {
            let expected = reference.value(&game, &board);
            assert_eq!(split.value(&game, &board), expected, "{width} x {height}: {board:?}");
            assert_eq!(lazy.value(&game, &board), expected, "{width} x {height}: {board:?}");
        }
        assert!(split.table().occupied_near() > 0, "{width} x {height}: the near part was used");
    }
    let game = ConnectFour::new(6, 4).unwrap();
    let mut split = AlphaBeta::with_table(Mode::Exact, PackedTable::with_parts(1 << 20, 1 << 10).unwrap());
    assert_eq!(split.value(&game, &Board::EMPTY), Value::Lose(24));
}

#[test]
fn a_one_kilobyte_table_still_gives_exact_scores_on_end_easy() {
    // 64 entries for positions that visit thousands: the table forgets constantly, the scores stay exact.
    let game = ConnectFour::standard();
    let mut tiny = AlphaBeta::with_table(Mode::Exact, PackedTable::with_budget(1024).unwrap());
    for line in END_EASY.lines().take(60) {
        let (moves, score) = line.split_once(' ').unwrap();
        let board = game.parse_moves(moves).unwrap();
        assert_eq!(game.score(&board, tiny.value(&game, &board)), score.parse::<i32>().unwrap(), "{moves}");
    }
    // 1 KiB is 64 buckets of two entries; the bucket count is the largest prime that fits: 61.
    assert_eq!(tiny.table().capacity(), 122);
}

#[test]
fn four_by_four_is_a_draw_by_two_engines() {
    let game = ConnectFour::new(4, 4).unwrap();
    let mut alpha_beta = AlphaBeta::new(Mode::Exact);
    assert_eq!(alpha_beta.value(&game, &Board::EMPTY), Value::Draw);
    let mut memo = MemoNegamax::new(Mode::Outcome);
    assert_eq!(memo.value(&game, &Board::EMPTY), Value::Draw);
    let (fast, generic) = (alpha_beta.stats(), memo.stats());
    eprintln!("4x4: alpha-beta {fast}; memoized negamax {generic}");
    assert!(fast.visited < generic.visited, "alpha-beta {fast}, memoized negamax {generic}");
}

#[test]
fn mirror_keys_merge_mirror_images_only() {
    let game = ConnectFour::standard();
    for board in random_boards(&game, 28..=38, 200, 4) {
        let mirrored = game.mirror(&board);
        assert_eq!(game.canonical(&board), game.canonical(&mirrored));
        assert_eq!(exact_score(&game, &board).unwrap(), exact_score(&game, &mirrored).unwrap());
        let moves = game.legal_moves(&board);
        if let Some(column) = moves.first() {
            let child = game.play(&board, column);
            assert_ne!(game.canonical(&board), game.canonical(&child));
        }
    }
}

#[test]
fn generated_inputs_have_the_requested_number_of_empty_cells() {
    let game = ConnectFour::standard();
    let input = ConnectFourPlugin
        .generate(&GenOptions { preset: Preset::Official, cases: Some(50), size: Some(9) }, 3)
        .unwrap();
    for line in input.lines() {
        let board = game.parse_moves(line).unwrap();
        assert_eq!(game.empty_cells(&board), 9);
        assert_eq!(game.outcome(&board), None);
    }
    let official =
        ConnectFourPlugin.generate(&GenOptions { preset: Preset::Official, cases: None, size: None }, 5).unwrap();
    assert_eq!(official.lines().count(), 1000);
    assert!(official.lines().all(|line| (29..=41).contains(&line.len())));
    assert!(ConnectFourPlugin
        .generate(&GenOptions { preset: Preset::Small, cases: Some(1), size: Some(42) }, 1)
        .is_err());
}

#[test]
fn a_weak_solve_gives_the_sign_of_the_exact_score_with_every_solver() {
    let lines: Vec<&str> = END_EASY.lines().take(200).collect();
    let input: String =
        lines.iter().filter_map(|line| line.split(' ').next()).map(|moves| format!("{moves}\n")).collect();
    for solver in ["fast", "parallel", "generic"] {
        let plugin_options = PluginOptions::new(["weak"]);
        let options = SolveOptions { plugin_options, threads: 2, ..SolveOptions::with_solver(solver) };
        let answers = ConnectFourPlugin.solve(Source::new("in", &input), &options, &NoProgress).unwrap();
        for (answer, line) in answers.iter().zip(&lines) {
            let (moves, score) = line.split_once(' ').unwrap();
            let sign = score.parse::<i32>().unwrap().signum();
            assert_eq!(answer.text, format!("{moves} {sign}"), "{solver}");
            assert_eq!(answer.json["weak"], true);
        }
    }
    // The empty board, written `-`, is accepted (a weak solve of 4 x 4: a draw).
    let options = SolveOptions { plugin_options: PluginOptions::new(["weak=on"]), ..SolveOptions::default() };
    let answers = ConnectFourPlugin.solve(Source::new("in", "size 4 4\n-\n"), &options, &NoProgress).unwrap();
    assert_eq!(answers[0].text, "- 0");
    // `weak=off` is the exact solve; an option the plugin does not declare is refused before any case.
    let options = SolveOptions { plugin_options: PluginOptions::new(["weak=off"]), ..SolveOptions::default() };
    let answers = ConnectFourPlugin.solve(Source::new("in", &input), &options, &NoProgress).unwrap();
    assert_eq!(answers[0].text, lines[0]);
    let options = SolveOptions { plugin_options: PluginOptions::new(["deep"]), ..SolveOptions::default() };
    let error = ConnectFourPlugin.solve(Source::new("in", &input), &options, &NoProgress).unwrap_err();
    assert_eq!(error.to_string(), "connect-four has no option `deep` (its options: weak)");
}

/// Generated Middle-Medium-like positions with their exact scores (see `examples/connect_four_sets.rs`).
const MIDDLE_MEDIUM: &str = include_str!("../../benches/data/connect-four/middle-medium.txt");

#[test]
fn lazy_smp_threads_agree_on_searches_long_enough_to_wake_them() {
    // Each of these positions takes tens of thousands of positions: beyond what the main thread tries alone.
    let game = ConnectFour::standard();
    let table = PackedTable::with_budget(1 << 24).unwrap();
    let mut lazy = LazySmp::with_table(Mode::Exact, 2, table).unwrap();
    for line in MIDDLE_MEDIUM.lines().take(12) {
        let (moves, score) = line.split_once(' ').unwrap();
        let board = game.parse_moves(moves).unwrap();
        assert_eq!(game.score(&board, lazy.value(&game, &board)), score.parse::<i32>().unwrap(), "{moves}");
    }
    assert!(lazy.stats().visited > 12 * 10_000, "{}", lazy.stats());
    // Small boards from the empty position, exact, against memoized negamax.
    for (width, height) in [(5, 4), (4, 5)] {
        let small = ConnectFour::new(width, height).unwrap();
        let table = PackedTable::with_budget(1 << 22).unwrap();
        let mut lazy = LazySmp::with_table(Mode::Exact, 2, table).unwrap();
        let expected = MemoNegamax::new(Mode::Exact).value(&small, &Board::EMPTY);
        assert_eq!(lazy.value(&small, &Board::EMPTY), expected, "{width} x {height}");
    }
}
