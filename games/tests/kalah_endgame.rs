//! Kalah's endgame databases: the ranks against a plain enumeration of the tiers, every stored value against a
//! search without the database, the search over the database against the search without it, under both
//! capture rules, and the check and the reader against damaged and wrong files.

// The helpers shared by the tests unwrap too, not only the test functions.
#![allow(clippy::unwrap_used)]

use ludus_framework::database::endgame::{
    check_endgame, solve_endgame, tier_path, EndgameSolve, EndgameTables, Probing,
};
use ludus_framework::engines::scored::ScoredAlphaBeta;
use ludus_framework::engines::{Mode, Statistics};
use ludus_framework::scored::EndgameTiers;
use ludus_framework::{Engine, Rules};
use ludus_games::kalah::{Board, Capture, Kalah};
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

fn scratch(name: &str) -> PathBuf {
    let directory = std::env::temp_dir().join(format!("ludus-kalah-endgame-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&directory).ok();
    directory
}

fn solved(game: &Kalah, directory: &std::path::Path, bound: u32) -> EndgameTables {
    let solve = EndgameSolve { bound, memory_mb: 1024, stop: None };
    solve_endgame(game, directory, &solve, &mut |_| {}).unwrap()
}

/// Every way to lay `seeds` seeds in `pits` pits, by plain recursion.
fn compositions(seeds: u8, pits: usize) -> Vec<Vec<u8>> {
    if pits == 1 {
        return vec![vec![seeds]];
    }
    (0..=seeds)
        .flat_map(|first| {
            compositions(seeds - first, pits - 1).into_iter().map(move |mut rest| {
                rest.insert(0, first);
                rest
            })
        })
        .collect()
}

fn board_of(m: usize, counts: &[u8], stores: [u8; 2], south_to_move: bool) -> Board {
    let mut board = Board { pits: [[0; 7]; 2], stores, south_to_move };
    let me = usize::from(!south_to_move);
    board.pits[me][..m].copy_from_slice(&counts[..m]);
    board.pits[1 - me][..m].copy_from_slice(&counts[m..]);
    board
}

#[test]
fn ranks_number_each_tier_densely_and_positions_read_back() {
    for m in [1, 2, 3, 6] {
        let game = Kalah::new(m, 1).unwrap();
        for tier in 0..=if m == 6 { 4 } else { 8 } {
            let all = compositions(tier as u8, 2 * m);
            assert_eq!(game.endgame_tier_size(tier), Some(all.len() as u64), "m {m}, tier {tier}");
            let mut ranks = HashSet::new();
            for counts in &all {
                for south_to_move in [true, false] {
                    let board = board_of(m, counts, [3, 1], south_to_move);
                    assert_eq!(game.endgame_tier(&board), tier);
                    let rank = game.endgame_rank(&board);
                    assert!(rank < all.len() as u64);
                    let back = game.endgame_position(tier, rank).unwrap();
                    assert_eq!(game.endgame_rank(&back), rank);
                    assert_eq!(board_of(m, counts, [0, 0], true), back);
                    if south_to_move {
                        ranks.insert(rank);
                    }
                }
            }
            assert_eq!(ranks.len(), all.len());
            assert!(game.endgame_position(tier, all.len() as u64).is_none());
        }
    }
}

#[test]
fn every_stored_value_is_the_searched_one_under_both_capture_rules() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    for capture in [Capture::Opposite, Capture::Always] {
        let game = Kalah::new(3, 3).unwrap().with_capture(capture);
        let directory = scratch(&format!("values-{}", capture.name()));
        let tables = solved(&game, &directory, 10);
        assert_eq!(tables.bound(), Some(10));
        for tier in 0..=10 {
            let size = game.endgame_tier_size(tier).unwrap();
            for _ in 0..40 {
                let rank = rng.gen_range(0..size);
                let mut board = game.endgame_position(tier, rank).unwrap();
                board.stores = [rng.gen_range(0..8), rng.gen_range(0..8)];
                board.south_to_move = rng.gen_bool(0.5);
                if board.south_to_move != game.endgame_position(tier, rank).unwrap().south_to_move {
                    board.pits.swap(0, 1);
                }
                if game.is_over(&board) {
                    continue;
                }
                let searched = ScoredAlphaBeta::new(Mode::Exact).search(&game, &board).unwrap();
                assert_eq!(tables.value(&game, &board), Some(searched), "{} tier {tier} rank {rank}", capture.name());
            }
        }
        std::fs::remove_dir_all(&directory).ok();
    }
}

#[test]
fn the_search_over_the_database_finds_the_same_margins_with_less_work() {
    for (m, n, capture) in [(3, 3, Capture::Opposite), (4, 3, Capture::Always), (5, 2, Capture::Opposite)] {
        let game = Kalah::new(m, n).unwrap().with_capture(capture);
        let directory = scratch(&format!("search-{m}-{n}"));
        let tables = Arc::new(solved(&game, &directory, 10));
        let mut plain = ScoredAlphaBeta::new(Mode::Exact);
        let margin = plain.search(&game, &game.start()).unwrap();
        let mut probing = Probing::new(tables, ScoredAlphaBeta::new(Mode::Exact));
        assert_eq!(probing.search(&game, &game.start()).unwrap(), margin, "Kalah({m}, {n})");
        assert!(probing.stats().visited < plain.stats().visited, "Kalah({m}, {n})");
        assert_eq!(probing.tables().and_then(|tables| tables.bound()), Some(10));
        // A position inside the bound needs no search: at most the root is counted.
        let mut board = game.start();
        while game.endgame_tier(&board) > 10 {
            board = game.play(&board, &game.legal_moves(&board)[0]);
        }
        if !game.is_over(&board) {
            let before = probing.stats().visited;
            let searched = ScoredAlphaBeta::new(Mode::Exact).search(&game, &board).unwrap();
            assert_eq!(probing.search(&game, &board).unwrap(), searched);
            assert!(probing.stats().visited <= before + 1);
        }
        std::fs::remove_dir_all(&directory).ok();
    }
}

#[test]
fn one_database_serves_every_start_of_the_same_pits_and_rule() {
    let directory = scratch("family");
    let three = Kalah::new(3, 3).unwrap();
    solved(&three, &directory, 8);
    // Kalah(3, 2) reads the tiers Kalah(3, 3) wrote: the seeds at the start are not part of the family.
    let two = Kalah::new(3, 2).unwrap();
    let tables = Arc::new(EndgameTables::open(&two, &directory, None, 64).unwrap());
    assert_eq!(tables.bound(), Some(8));
    let margin = ScoredAlphaBeta::new(Mode::Exact).search(&two, &two.start()).unwrap();
    assert_eq!(Probing::new(tables, ScoredAlphaBeta::new(Mode::Exact)).search(&two, &two.start()).unwrap(), margin);
    // Another rule is another family: its reader refuses these files.
    let always = two.with_capture(Capture::Always);
    assert!(EndgameTables::open(&always, &directory, None, 64).is_err());
    // Nor does its solve write over them: it stops at the first file, naming the other game's database.
    let before = std::fs::read(tier_path(&directory, 0)).unwrap();
    let solve = EndgameSolve { bound: 8, memory_mb: 64, stop: None };
    let error = solve_endgame(&always, &directory, &solve, &mut |_| {}).err().unwrap().to_string();
    assert!(error.contains("another game's database"), "{error}");
    assert_eq!(std::fs::read(tier_path(&directory, 0)).unwrap(), before);
    std::fs::remove_dir_all(&directory).ok();
}

#[test]
fn a_solve_resumes_and_the_check_and_the_reader_find_wrong_and_damaged_files() {
    let game = Kalah::new(3, 3).unwrap();
    let directory = scratch("check");
    let tables = solved(&game, &directory, 7);
    let report = check_endgame(&game, &tables, &mut |_, _, _| {});
    assert_eq!((report.tiers, report.problems.len()), (8, 0));
    assert_eq!(report.positions, (0..=7).map(|tier| game.endgame_tier_size(tier).unwrap()).sum::<u64>());
    // A second solve reads every tier back.
    let mut resumed = 0;
    let solve = EndgameSolve { bound: 7, memory_mb: 64, stop: None };
    solve_endgame(&game, &directory, &solve, &mut |tier| resumed += usize::from(tier.resumed)).unwrap();
    assert_eq!(resumed, 8);
    // A tier written with one wrong value: the file is whole, the check finds the value.
    use ludus_framework::database::file::{write_dense_tier, TierName};
    use ludus_framework::database::Record;
    let size = game.endgame_tier_size(6).unwrap();
    let mut records: Vec<u16> = (0..size)
        .map(|rank| {
            let board = game.endgame_position(6, rank).unwrap();
            Record::from_score(tables.value(&game, &board).unwrap()).unwrap().bits()
        })
        .collect();
    records[17] = Record::from_score(Record::from_bits(records[17]).unwrap().score().unwrap() + 2).unwrap().bits();
    let name = TierName {
        game: format!("endgame of {}", game.endgame_family()),
        tier: serde_json::json!(6),
        ranks: Some(size),
    };
    write_dense_tier(&tier_path(&directory, 6), &name, Vec::new(), &records).unwrap();
    let wrong = EndgameTables::open(&game, &directory, None, 64).unwrap();
    let report = check_endgame(&game, &wrong, &mut |_, _, _| {});
    assert!(report.problems.iter().any(|problem| problem.contains("tier 6, rank 17")), "{:?}", report.problems);
    // A damaged block: the reader refuses the file by its checksum.
    let path = tier_path(&directory, 5);
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 3;
    bytes[last] ^= 0x5a;
    std::fs::write(&path, bytes).unwrap();
    let error = EndgameTables::open(&game, &directory, None, 64).err().unwrap().to_string();
    assert!(error.contains("endgame-005"), "{error}");
    // The solve finds it damaged and solves it again.
    let mut damaged = 0;
    solve_endgame(&game, &directory, &solve, &mut |tier| damaged += usize::from(tier.damaged.is_some())).unwrap();
    assert_eq!(damaged, 1);
    assert!(EndgameTables::open(&game, &directory, None, 64).is_ok());
    // A memory budget too small for the tiers is an error before anything is solved.
    let error =
        solve_endgame(&game, &scratch("small"), &EndgameSolve { bound: 40, memory_mb: 1, stop: None }, &mut |_| {})
            .err()
            .unwrap();
    assert!(error.to_string().contains("MiB"), "{error}");
    std::fs::remove_dir_all(&directory).ok();
}
