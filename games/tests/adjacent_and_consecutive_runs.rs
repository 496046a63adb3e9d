//! Differential tests of the `fast` solver's [`RunsEngine`] (search over run multisets, no boards) against the
//! exact engine over boards ([`FastGame`] under memoized negamax) and the generic game: every key reachable from
//! the empty board up to N = 8, every position of swinging and random records up to N = 40, and random partial
//! boards; and its budget.

#![allow(clippy::unwrap_used)] // tests may unwrap

use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::plugin::{GenOptions, Preset};
use ludus_framework::Rules;
use ludus_framework::{Canonicalize, Statistics};
use ludus_games::adjacent_and_consecutive::board::{Board, Placement};
use ludus_games::adjacent_and_consecutive::game::{a_shortcut_win, FastGame, GenericGame};
use ludus_games::adjacent_and_consecutive::runs::RunsEngine;
use ludus_games::adjacent_and_consecutive::{fast_a_wins, random_records, runs_a_wins, ExactEngine};
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

#[test]
fn runs_engine_matches_the_exact_engine_on_every_reachable_key_up_to_n_8() {
    let mut exact: ExactEngine = MemoNegamax::new(Mode::Outcome);
    let mut runs = RunsEngine::new();
    let mut checked = 0;
    for size in 1..=8 {
        let mut seen = HashSet::new();
        let mut stack = vec![Board::new(size)];
        let mut moves = Vec::new();
        while let Some(board) = stack.pop() {
            if !seen.insert(FastGame.canonical(&board)) {
                continue;
            }
            assert_eq!(runs_a_wins(&mut runs, &board), fast_a_wins(&mut exact, &board), "{}", board.describe());
            checked += 1;
            moves.clear();
            FastGame.moves(&board, &mut moves);
            stack.extend(moves.iter().map(|placement| board.with(*placement)));
        }
    }
    assert!(checked > 40_000, "only {checked} keys");
}

#[test]
fn runs_engine_matches_the_exact_engine_on_every_position_of_records_up_to_n_40() {
    let mut exact: ExactEngine = MemoNegamax::new(Mode::Outcome);
    let mut runs = RunsEngine::new();
    for (preset, size) in [(Preset::Official, 12), (Preset::Official, 24), (Preset::Small, 30), (Preset::Official, 40)]
    {
        let options = GenOptions { preset, cases: Some(15), size: Some(size) };
        for record in random_records(&options, u64::from(size as u32)).unwrap() {
            let mut board = Board::new(record.size);
            for placement in &record.moves {
                assert_eq!(runs_a_wins(&mut runs, &board), fast_a_wins(&mut exact, &board), "{}", board.describe());
                board.place(*placement);
            }
        }
    }
}

#[test]
fn runs_engine_matches_the_generic_game_on_random_partial_boards() {
    // Random boards (no pair) with several live tiles, barred placements and either side to move.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut generic = MemoNegamax::new(Mode::Outcome);
    let mut runs = RunsEngine::new();
    let mut boards = 0;
    while boards < 3_000 {
        let size = rng.gen_range(2..=9u32);
        let mut board = Board::new(size);
        let placed = rng.gen_range(0..size);
        for _ in 0..50 * size {
            let placement = Placement { tile: rng.gen_range(1..=size), cell: rng.gen_range(1..=size) };
            if board.placed() < placed && board.is_legal(placement) && !board.makes_pair(placement) {
                board.place(placement);
            }
        }
        let exact = generic.value(&GenericGame, &board).is_win() == board.a_to_move();
        assert_eq!(runs_a_wins(&mut runs, &board), exact, "{}", board.describe());
        boards += 1;
    }
}

#[test]
fn runs_engine_gives_up_past_its_budget_and_shares_its_table() {
    let options = GenOptions { preset: Preset::Official, cases: Some(1), size: Some(30) };
    let record = random_records(&options, 2).unwrap().remove(0);
    let mut board = Board::new(record.size);
    // The position where the game is decided: the first one the engine must search.
    let mut bounded = RunsEngine::new().with_budget(1);
    let mut gave_up = false;
    for placement in &record.moves {
        gave_up |= bounded.try_value(&FastGame, &board).is_err();
        board.place(*placement);
    }
    assert!(gave_up, "a budget of one position never ran out");
    // A quiet board at A's turn (no shortcut): searched once, then read from the table.
    let mut board = Board::new(record.size);
    let quiet = record
        .moves
        .iter()
        .find_map(|placement| {
            board.place(*placement);
            (board.a_to_move() && !board.is_full() && !a_shortcut_win(&board)).then(|| board.clone())
        })
        .unwrap();
    let mut engine = RunsEngine::new();
    engine.value(&FastGame, &quiet);
    let first = engine.stats();
    assert!(first.visited > 0 && first.table_entries > 0, "{first:?}");
    engine.value(&FastGame, &quiet);
    assert_eq!(engine.stats().visited, first.visited, "a second search of a known board expands nothing");
}
