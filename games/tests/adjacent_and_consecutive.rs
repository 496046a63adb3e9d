//! Tests of the `adjacent-and-consecutive` plugin: the sample, differential checks of the three solvers on
//! thousands of random small games, memoized against plain negamax, the closed form against the exact engine on
//! every reachable key of small N, the verifier against wrong answers, and one test per kind of bad input.

#![allow(clippy::unwrap_used)] // tests may unwrap

use ludus_framework::conformance::{check_corruption, check_plugin, check_sample, GameCheck, SampleVerdict};
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::Mode;
use ludus_framework::input::Source;
use ludus_framework::plugin::{Corruptions, GenOptions, NoProgress, Plugin, Preset, SolveOptions};
use ludus_framework::table::KeyedTable;
use ludus_framework::Rules;
use ludus_framework::Statistics;
use ludus_framework::{Budget, Canonicalize, Error, SearchHints};
use ludus_games::adjacent_and_consecutive::board::{Board, Placement};
use ludus_games::adjacent_and_consecutive::game::{FastGame, FastKey, GenericGame};
use ludus_games::adjacent_and_consecutive::{
    closed_form, count_mistakes, fast_a_wins, random_records, render_input, AdjacentAndConsecutive,
};
use std::collections::HashSet;

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

/// Every key reachable from the empty board of size `size` through the fast game's moves (which keep one move
/// per class of equivalent moves, and drop only B moves that hand A an immediate win), checked against the
/// closed form; boards with a pair are not expanded (A has won). Returns the number of distinct keys checked.
fn closed_form_matches_exact_on_reachable_keys(
    size: u32,
    engine: &mut MemoNegamax<KeyedTable<FastKey>>,
) -> (usize, usize) {
    let mut by_rule = 0;
    let mut seen: HashSet<FastKey> = HashSet::new();
    let mut stack = vec![Board::new(size)];
    let mut moves = Vec::new();
    while let Some(board) = stack.pop() {
        if board.is_full() || board.has_pair() || !seen.insert(FastGame.canonical(&board)) {
            continue;
        }
        let exact = fast_a_wins(engine, &board);
        assert_eq!(closed_form::a_wins(&board), exact, "N = {size}, board {}", board.describe());
        if let FastKey::Quiet { a_to_move: true, first, second } = FastGame.canonical(&board) {
            assert_eq!(closed_form::quiet_key_a_wins(&first, &second), exact, "key {first:?} / {second:?}");
            by_rule += usize::from(FastGame.shortcut(&board).is_none());
        }
        moves.clear();
        FastGame.moves(&board, &mut moves);
        stack.extend(moves.iter().map(|placement| board.with(*placement)));
    }
    (seen.len(), by_rule)
}

#[test]
fn closed_form_matches_the_exact_engine_on_every_reachable_key_up_to_n_8() {
    let mut engine = MemoNegamax::new(Mode::Outcome);
    let (mut keys, mut by_rule) = (0, 0);
    for size in 1..=8 {
        let (size_keys, size_by_rule) = closed_form_matches_exact_on_reachable_keys(size, &mut engine);
        keys += size_keys;
        by_rule += size_by_rule;
    }
    assert!(keys > 40_000 && by_rule >= 15, "only {keys} keys checked, {by_rule} by the rule");
}

/// The partitions of `total` into parts of at most `largest`, each sorted increasingly.
fn partitions(total: u32, largest: u32) -> Vec<Vec<u32>> {
    if total == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for part in (1..=largest.min(total)).rev() {
        for mut rest in partitions(total - part, part) {
            rest.push(part);
            all.push(rest);
        }
    }
    all
}

/// A board whose empty cells form runs of lengths `cells` and whose unused numbers form runs of lengths
/// `tiles`, with no pair and no live tile (A to move): cell runs separated by single filled cells, then a block
/// of filled cells; number runs separated by single used numbers, then a block of used numbers. Numbers next to
/// an unused run go into cells with no empty neighbour; cells next to an empty run get numbers with no unused
/// neighbour.
fn realize(cells: &[u32], tiles: &[u32]) -> Board {
    let (cell_runs, tile_runs) = (cells.len() as u32, tiles.len() as u32);
    let total: u32 = cells.iter().sum();
    let block = tile_runs + cell_runs + 5;
    let used = cell_runs - 1 + block;
    // Even number of used tiles so that A is to move.
    let (block, used) = if used % 2 == 1 { (block + 1, used + 1) } else { (block, used) };
    let size = total + used;
    let mut exposed_numbers = Vec::new();
    let mut number = 0;
    for (index, &length) in tiles.iter().enumerate() {
        number += length + 1;
        if index + 1 < tiles.len() {
            exposed_numbers.push(number);
        }
    }
    exposed_numbers.push(number); // the first number of the top block
    let mut safe_numbers: Vec<u32> = (number + 1..=size).collect();
    let mut exposed_cells = Vec::new();
    let mut cell = 0;
    for &length in cells {
        cell += length + 1;
        exposed_cells.push(cell); // a separator, or the first cell of the right block
    }
    let mut board = Board::new(size);
    for &cell in &exposed_cells {
        let tile = safe_numbers.pop().unwrap();
        board.place(Placement { tile, cell });
    }
    let mut enclosed: Vec<u32> = exposed_numbers.into_iter().chain(safe_numbers).collect();
    enclosed.sort_unstable();
    // Interleave the upper and lower halves: neighbours differ by at least half the count (>= 2).
    let half = enclosed.len() / 2;
    let (lower, upper) = enclosed.split_at(half);
    let mut order = Vec::new();
    for (index, &high) in upper.iter().enumerate() {
        order.push(high);
        if let Some(&low) = lower.get(index) {
            order.push(low);
        }
    }
    let first_enclosed = exposed_cells.last().unwrap() + 1;
    assert_eq!(first_enclosed + order.len() as u32 - 1, size, "block of {block}");
    for (offset, &tile) in order.iter().enumerate() {
        board.place(Placement { tile, cell: first_enclosed + offset as u32 });
    }
    assert_eq!(board.placed(), used);
    board
}

/// Every quiet A-to-move key with K turns left (K in `totals`; one side only runs of 1 and 2, in both
/// orientations), realized as a board and solved by the exact engine, against the closed form. Returns the number
/// of keys checked per K.
fn closed_form_matches_exact_on_all_quiet_keys(
    totals: std::ops::RangeInclusive<u32>,
    engine: &mut MemoNegamax<KeyedTable<FastKey>>,
) -> Vec<usize> {
    let mut counts = Vec::new();
    for total in totals {
        let short = partitions(total, 2);
        let any = partitions(total, total);
        let mut count = 0;
        for cells in &short {
            for tiles in &any {
                for (first, second) in [(cells, tiles), (tiles, cells)] {
                    let board = realize(first, second);
                    let lengths = |runs: Vec<ludus_games::adjacent_and_consecutive::board::Run>| {
                        let mut lengths: Vec<u32> = runs.iter().map(|run| run.length).collect();
                        lengths.sort_unstable();
                        lengths
                    };
                    assert!(!board.has_pair() && board.live_tiles().is_empty() && board.a_to_move());
                    assert_eq!((&lengths(board.cell_runs()), &lengths(board.tile_runs())), (first, second));
                    let exact = fast_a_wins(engine, &board);
                    assert_eq!(closed_form::a_wins(&board), exact, "cells {first:?}, numbers {second:?}");
                    assert_eq!(closed_form::quiet_key_a_wins(first, second), exact);
                    count += 1;
                }
            }
        }
        counts.push(count);
    }
    counts
}

#[test]
fn closed_form_matches_the_exact_engine_on_every_quiet_key_up_to_k_18() {
    let mut engine = MemoNegamax::new(Mode::Outcome);
    let counts = closed_form_matches_exact_on_all_quiet_keys(1..=18, &mut engine);
    assert_eq!(counts[..4], [2, 8, 12, 30]);
    assert!(counts.iter().sum::<usize>() > 20_000, "{counts:?}");
}

/// The one-off run for larger K: `LUDUS_AC_MAX_K=30 cargo test --release -p ludus-games --test
/// adjacent_and_consecutive -- --ignored --nocapture`.
#[test]
#[ignore = "long: a one-off verification run for larger K"]
fn closed_form_matches_the_exact_engine_for_larger_k() {
    let largest: u32 = std::env::var("LUDUS_AC_MAX_K").ok().and_then(|text| text.parse().ok()).unwrap_or(24);
    let mut engine = MemoNegamax::new(Mode::Outcome);
    let start = std::time::Instant::now();
    for total in 1..=largest {
        let counts = closed_form_matches_exact_on_all_quiet_keys(total..=total, &mut engine);
        let table = engine.stats().table_entries as usize;
        println!("K = {total}: {} quiet keys agree (table {table}, {:?})", counts.last().unwrap(), start.elapsed());
    }
}

#[test]
fn closed_form_agrees_with_the_exact_engine_on_careful_records_up_to_n_40() {
    let mut engine = MemoNegamax::new(Mode::Outcome);
    let mut with_mistakes = 0;
    for size in [12, 20, 31, 40] {
        let options = GenOptions { preset: Preset::Official, cases: Some(40), size: Some(size) };
        for record in random_records(&options, size as u64).unwrap() {
            let exact = count_mistakes(&record, |board| fast_a_wins(&mut engine, board)).unwrap();
            let closed = count_mistakes(&record, closed_form::a_wins).unwrap();
            assert_eq!(exact, closed, "{}", render_input(std::slice::from_ref(&record)));
            with_mistakes += usize::from(!exact.plies.is_empty());
        }
    }
    assert!(with_mistakes > 10, "only {with_mistakes} records with mistakes");
}

#[test]
fn closed_form_at_b_turn_equals_one_full_ply_over_the_closed_form_at_a_turn() {
    // The closed form tries O(N) classes of B placements; here every legal placement is tried.
    let mut boards = 0;
    for size in [60, 97, 150] {
        let options = GenOptions { preset: Preset::Official, cases: Some(4), size: Some(size) };
        for record in random_records(&options, u64::from(size as u32)).unwrap() {
            let mut board = Board::new(record.size);
            for placement in &record.moves {
                if !board.a_to_move() && !board.has_pair() {
                    let cells: Vec<u32> = board.empty_cells().collect();
                    let b_wins = board.unused_tiles().any(|tile| {
                        cells.iter().any(|&cell| !closed_form::a_wins(&board.with(Placement { tile, cell })))
                    });
                    assert_eq!(closed_form::a_wins(&board), !b_wins, "{}", board.describe());
                    boards += 1;
                }
                board.place(*placement);
            }
        }
    }
    assert!(boards > 100, "only {boards} boards");
}

#[test]
fn closed_form_at_b_turn_equals_one_full_ply_on_random_boards() {
    // Random partial boards (B to move, no pair) have many placements barred by pairs and several live tiles:
    // the corner cases of the class-based search at B's turn.
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut boards = 0;
    while boards < 30_000 {
        let size = rng.gen_range(3..=16u32);
        let mut board = Board::new(size);
        let placed = 2 * rng.gen_range(0..size / 2) + 1;
        for _ in 0..50 * size {
            let placement = Placement { tile: rng.gen_range(1..=size), cell: rng.gen_range(1..=size) };
            if board.placed() < placed && board.is_legal(placement) && !board.makes_pair(placement) {
                board.place(placement);
            }
        }
        if board.placed() != placed {
            continue;
        }
        let cells: Vec<u32> = board.empty_cells().collect();
        let b_wins = board
            .unused_tiles()
            .any(|tile| cells.iter().any(|&cell| !closed_form::a_wins(&board.with(Placement { tile, cell }))));
        assert_eq!(closed_form::a_wins(&board), !b_wins, "{}", board.describe());
        boards += 1;
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
