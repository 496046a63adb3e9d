//! Tests of the `adjacent-and-consecutive` plugin's closed form against the exact engine: on every reachable
//! key up to N = 8, on every quiet key up to K = 18 (larger K in an ignored one-off run), on careful records up to
//! N = 40, and B's turn as one full ply over A's.

#![allow(clippy::unwrap_used)] // tests may unwrap

use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::Mode;
use ludus_framework::plugin::{GenOptions, Preset};
use ludus_framework::table::KeyedTable;
use ludus_framework::Rules;
use ludus_framework::Statistics;
use ludus_framework::{Canonicalize, SearchHints};
use ludus_games::adjacent_and_consecutive::board::{Board, Placement};
use ludus_games::adjacent_and_consecutive::game::{FastGame, FastKey};
use ludus_games::adjacent_and_consecutive::{closed_form, count_mistakes, fast_a_wins, random_records, render_input};
use std::collections::HashSet;

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
