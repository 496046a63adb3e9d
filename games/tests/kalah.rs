//! Kalah: the rules against a plain implementation of sowing on a ring of places, under both capture rules; the
//! margins of the small variants against a brute force over that ring; the scored alpha-beta against plain
//! minimax and against its own null-window (win/loss) answers at every threshold; the principal
//! variation replayed, extra moves included; the text forms.

// The helpers shared by the tests unwrap too, not only the test functions.
#![allow(clippy::unwrap_used)]

use ludus_framework::analysis::{exact_line_by, line_by};
use ludus_framework::conformance::GameCheck;
use ludus_framework::engines::scored::{ScoredAlphaBeta, ScoredLazySmp, ScoredMinimax};
use ludus_framework::engines::Mode;
use ludus_framework::playable::TextForm;
use ludus_framework::scored::ScoredGame;
use ludus_framework::table::{mib, PackedTable};
use ludus_framework::Engine;
use ludus_framework::Rules;
use ludus_games::kalah::{Board, Capture, CompactKalah, Kalah};
use rand::{Rng, SeedableRng};
use std::cell::RefCell;
use std::collections::HashMap;

/// Kalah played on a ring of `2m + 2` places as the rules are usually drawn: South's pits `0..m`, South's
/// store `m`, North's pits `m + 1..2m + 1` (left to right as North sees them), North's store `2m + 1`.
/// `always`: a last seed in an empty pit of one's own is captured even when the pit opposite is empty.
fn plain_play(m: usize, ring: &mut [u32], south: &mut bool, pit: usize, always: bool) {
    let (own_store, other_store, own) = if *south { (m, 2 * m + 1, 0..m) } else { (2 * m + 1, m, m + 1..2 * m + 1) };
    let mut place = if *south { pit } else { m + 1 + pit };
    let mut seeds = std::mem::take(&mut ring[place]);
    while seeds > 0 {
        place = (place + 1) % (2 * m + 2);
        if place == other_store {
            continue;
        }
        ring[place] += 1;
        seeds -= 1;
    }
    if own.contains(&place) && ring[place] == 1 {
        let opposite = 2 * m - place;
        if ring[opposite] > 0 || always {
            ring[own_store] += ring[opposite] + 1;
            ring[place] = 0;
            ring[opposite] = 0;
        }
    }
    if place != own_store {
        *south = !*south;
    }
    let south_empty = ring[..m].iter().all(|&seeds| seeds == 0);
    let north_empty = ring[m + 1..2 * m + 1].iter().all(|&seeds| seeds == 0);
    if south_empty || north_empty {
        for index in 0..m {
            ring[m] += std::mem::take(&mut ring[index]);
            ring[2 * m + 1] += std::mem::take(&mut ring[m + 1 + index]);
        }
    }
}

fn ring_of(m: usize, board: &Board) -> Vec<u32> {
    let mut ring = Vec::new();
    for side in 0..2 {
        ring.extend(board.pits[side][..m].iter().map(|&seeds| u32::from(seeds)));
        ring.push(u32::from(board.stores[side]));
    }
    ring
}

#[test]
fn sowing_follows_the_plain_rules_on_random_games() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    for ((m, n), capture) in [(1, 1), (2, 3), (3, 3), (4, 4), (6, 4), (6, 6), (7, 12)]
        .into_iter()
        .flat_map(|size| [(size, Capture::Opposite), (size, Capture::Always)])
    {
        let game = Kalah::new(m, n).unwrap().with_capture(capture);
        let always = capture == Capture::Always;
        let mut extra_moves = 0;
        for _ in 0..50 {
            let mut board = game.start();
            let (mut ring, mut south) = (ring_of(m, &board), true);
            while !game.is_over(&board) {
                let moves = game.legal_moves(&board);
                let pit = moves[rng.gen_range(0..moves.len())];
                let mover = game.mover(&board);
                plain_play(m, &mut ring, &mut south, usize::from(pit), always);
                board = game.play(&board, &pit);
                extra_moves += usize::from(game.mover(&board) == mover);
                assert_eq!(ring_of(m, &board), ring);
                assert_eq!(board.south_to_move, south);
            }
            let me = board.side();
            let stores = [ring[m] as i32, ring[2 * m + 1] as i32];
            assert_eq!(game.outcome(&board), Some(stores[me] - stores[1 - me]));
        }
        assert!(extra_moves > 0, "extra moves happen in Kalah({m}, {n})");
    }
}

/// The final margin for the side to move, by plain minimax over the ring (memoized on the ring and the turn):
/// no code of the plugin's.
fn brute_force(m: usize, ring: &[u32], south: bool, always: bool, memo: &mut HashMap<(u128, bool), i32>) -> i32 {
    let own = if south { 0..m } else { m + 1..2 * m + 1 };
    if ring[..m].iter().all(|&seeds| seeds == 0) || ring[m + 1..2 * m + 1].iter().all(|&seeds| seeds == 0) {
        let (mine, theirs) = if south { (ring[m], ring[2 * m + 1]) } else { (ring[2 * m + 1], ring[m]) };
        return mine as i32 - theirs as i32;
    }
    let key = ring.iter().fold(0u128, |key, &seeds| (key << 8) | u128::from(seeds));
    if let Some(&margin) = memo.get(&(key, south)) {
        return margin;
    }
    let mut best = i32::MIN;
    for (pit, place) in own.enumerate() {
        if ring[place] == 0 {
            continue;
        }
        let (mut next, mut next_south) = (ring.to_vec(), south);
        plain_play(m, &mut next, &mut next_south, pit, always);
        let margin = brute_force(m, &next, next_south, always, memo);
        best = best.max(if next_south == south { margin } else { -margin });
    }
    memo.insert((key, south), best);
    best
}

#[test]
fn margins_of_small_variants_match_a_brute_force_under_both_capture_rules() {
    let mut differ = 0;
    for (m, n) in [(1, 1), (2, 2), (2, 3), (3, 2), (3, 3), (4, 2), (4, 3), (5, 2)] {
        let mut margins = Vec::new();
        for capture in [Capture::Opposite, Capture::Always] {
            let game = Kalah::new(m, n).unwrap().with_capture(capture);
            let start = game.start();
            let expected = brute_force(m, &ring_of(m, &start), true, capture == Capture::Always, &mut HashMap::new());
            let margin = ScoredAlphaBeta::new(Mode::Exact).search(&game, &start).unwrap();
            assert_eq!(margin, expected, "Kalah({m}, {n}), capture {}", capture.name());
            // The compact keys in the packed table, on one thread and on two: the same margin.
            let compact = CompactKalah::new(game).unwrap();
            let table = PackedTable::with_budget(mib(16)).unwrap();
            let packed = ScoredAlphaBeta::with_table(Mode::Exact, table).search(&compact, &start).unwrap();
            assert_eq!(packed, expected, "Kalah({m}, {n}), capture {}, compact keys", capture.name());
            let table = PackedTable::with_budget(mib(16)).unwrap();
            let mut threads = ScoredLazySmp::with_table(Mode::Exact, 2, table).unwrap();
            assert_eq!(threads.search(&compact, &start).unwrap(), expected, "Kalah({m}, {n}), two threads");
            margins.push(margin);
        }
        differ += usize::from(margins[0] != margins[1]);
    }
    // The two rules are different games: some margin tells them apart.
    assert!(differ > 0);
}

#[test]
fn conformance_and_minimax_agree_on_small_variants() {
    for (m, n) in [(2, 2), (3, 2), (3, 3), (4, 2)] {
        let game = Kalah::new(m, n).unwrap();
        GameCheck::new(&game, game.start()).playouts(20).compare_scores(300_000).run().unwrap();
        if m * n as usize <= 6 {
            let reference = ScoredMinimax::new().with_budget(50_000_000).try_value(&game, &game.start()).unwrap();
            assert_eq!(ScoredAlphaBeta::new(Mode::Exact).search(&game, &game.start()).unwrap(), reference);
        }
    }
    let game = Kalah::new(6, 6).unwrap();
    GameCheck::new(&game, game.start()).playouts(20).run().unwrap();
}

#[test]
fn the_margin_is_the_one_threshold_solves_find_at_every_threshold() {
    for (m, n) in [(3, 3), (4, 2), (4, 3)] {
        let game = Kalah::new(m, n).unwrap();
        let start = game.start();
        let margin = ScoredAlphaBeta::new(Mode::Exact).search(&game, &start).unwrap();
        let total = game.total() as i32;
        for threshold in -total..=total {
            // A fresh engine per threshold: no bound of another search helps.
            let mut engine = ScoredAlphaBeta::new(Mode::Exact);
            assert_eq!(
                engine.at_least(&game, &start, threshold, u64::MAX).unwrap(),
                margin >= threshold,
                "{m},{n} {threshold}"
            );
        }
        assert_eq!(ScoredAlphaBeta::new(Mode::Outcome).search(&game, &start).unwrap(), margin.signum());
    }
}

#[test]
fn principal_variations_keep_the_margin_through_extra_moves() {
    for (m, n) in [(3, 3), (4, 3), (5, 2)] {
        let game = Kalah::new(m, n).unwrap();
        let mut engine = ScoredAlphaBeta::new(Mode::Exact);
        let start = game.start();
        let value = engine.search(&game, &start).unwrap();
        let line = line_by(&game, &start, 500, |_| false, |child| engine.search(&game, child)).unwrap();
        let end = game.play_line(&start, &line).unwrap();
        assert!(game.is_over(&end));
        assert_eq!(game.score_seen_from(&start, &end, game.outcome(&end).unwrap()), value);
    }
}

/// The analysis's line of `position` (score `value`) by `engine`, each best move confirmed within a window;
/// first, every window of [`Engine::try_value_within`] around `value` keeps its contract: exact within, at most
/// its low bound below, at least its high bound above.
fn line_by_windows<Ruleset, Search>(
    mut engine: Search,
    game: &Ruleset,
    position: &Ruleset::Position,
    value: i32,
) -> Vec<Ruleset::Move>
where
    Ruleset: Rules,
    Search: Engine<Ruleset, Value = i32>,
{
    for low in value - 2..=value + 1 {
        let high = low + 1;
        let found = engine.try_value_within(game, position, low, high).unwrap();
        match value {
            inside if (low..=high).contains(&inside) => assert_eq!(found, value, "window {low}..={high}"),
            below if below < low => assert!(found <= low, "{found} for {value} in {low}..={high}"),
            _ => assert!(found >= high, "{found} for {value} in {low}..={high}"),
        }
    }
    let engine = RefCell::new(engine);
    exact_line_by(
        game,
        position,
        500,
        |_| false,
        |child| engine.borrow_mut().try_value(game, child),
        |child, low, high| engine.borrow_mut().try_value_within(game, child, low, high),
    )
    .unwrap()
}

#[test]
fn lines_confirmed_by_windows_are_the_lines_of_plain_minimax() {
    // The analysis's line confirms each best move by one test within a window; plain minimax values every
    // move: both take the first best move in the order of the moves, so the lines are the same.
    let mut random = rand::rngs::StdRng::seed_from_u64(43);
    // Small enough for plain minimax (no table) to value every move of every line.
    for (m, n) in [(2, 3), (3, 2), (2, 4)] {
        for capture in [Capture::Opposite, Capture::Always] {
            let game = Kalah::new(m, n).unwrap().with_capture(capture);
            let compact = CompactKalah::new(game).unwrap();
            for _ in 0..6 {
                let mut position = game.start();
                for _ in 0..random.gen_range(0..6) {
                    let moves = game.legal_moves(&position);
                    if moves.is_empty() {
                        break;
                    }
                    position = game.play(&position, &moves[random.gen_range(0..moves.len())]);
                }
                let mut minimax = ScoredMinimax::new();
                let expected = line_by(&game, &position, 500, |_| false, |child| minimax.search(&game, child)).unwrap();
                let value = minimax.search(&game, &position).unwrap();
                let line = line_by_windows(ScoredAlphaBeta::new(Mode::Exact), &game, &position, value);
                assert_eq!(line, expected, "Kalah({m}, {n}), {}", capture.name());
                let table = PackedTable::with_budget(mib(16)).unwrap();
                let threads = ScoredLazySmp::with_table(Mode::Exact, 2, table).unwrap();
                let line = line_by_windows(threads, &compact, &position, value);
                assert_eq!(line, expected, "Kalah({m}, {n}), {}, two threads", capture.name());
            }
        }
    }
}

#[test]
fn positions_read_back_from_their_board_and_moves() {
    let game = Kalah::new(4, 3).unwrap();
    let board = game.parse_position("2 1").unwrap();
    assert_eq!(game.parse_position(&game.board_text(&board)).unwrap(), board);
    // Pit 2 of South holds 3 seeds and ends in the store: South moves again.
    let after = game.play(&game.start(), &game.parse_move(&game.start(), "2").unwrap());
    assert!(after.south_to_move);
    assert!(game.parse_move(&game.start(), "5").is_err());
    assert!(game.parse_position("3 3 3 3 0 / 3 3 3 3 1 s").unwrap_err().to_string().contains("seeds"));
    assert!(Kalah::new(8, 3).is_err() && Kalah::new(4, 0).is_err());
}

#[test]
fn the_database_of_a_small_kalah_holds_every_score_and_its_check_finds_a_wrong_one() {
    use ludus_framework::database::file::{write_tier, TierFile, TierName};
    use ludus_framework::database::{Record, SolveBudget};
    use ludus_framework::playable::{DatabaseGame, Playable, Solvable, WholeGame};
    use ludus_framework::{Canonicalize, FromKey};
    let game = Kalah::new(3, 2).unwrap();
    let name = "kalah:pits=3,seeds=2".to_string();
    let solvable = Solvable::new(Playable::scored(game, name.clone()), WholeGame);
    let directory = std::env::temp_dir().join(format!("ludus-kalah-db-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    assert!(solvable.query(&directory, None, 10).is_err(), "not solved yet");
    let budget = SolveBudget { memory_mb: 64, max_positions: u64::MAX, stop: None };
    let tiny = SolveBudget { memory_mb: 64, max_positions: 10, stop: None };
    assert!(matches!(solvable.solve(&directory, tiny, &mut |_| {}), Err(ludus_framework::Error::Budget(_))));
    let mut reports = Vec::new();
    solvable.solve(&directory, budget.clone(), &mut |report| reports.push(report.clone())).unwrap();
    assert!(!reports[0].resumed && reports[0].positions > 100);
    // Every record is the engine's score of its position, rebuilt from its key.
    let path = directory.join("scores.ludb");
    let tier = TierName { game: name.clone(), tier: serde_json::json!("all"), ranks: None };
    let records = TierFile::open(&path, &tier).unwrap().read_all().unwrap();
    let mut engine = ScoredAlphaBeta::new(Mode::Exact);
    for (wide, record) in &records {
        let position = game.checked_position_of_key(wide).unwrap();
        assert_eq!(record.score(), Some(engine.search(&game, &position).unwrap()));
    }
    let start = solvable.query(&directory, None, 100).unwrap();
    assert_eq!(start.value.score(), Some(engine.search(&game, &game.start()).unwrap()));
    assert!(solvable.check(&directory, 1024, &mut |_, _, _| {}).unwrap().problems.is_empty());
    // A budget below the records and their map: refused before they are read, naming --memory-mb.
    let refused = solvable.check(&directory, 0, &mut |_, _, _| {});
    assert!(
        matches!(refused, Err(ludus_framework::Error::Limit { setting: Some(ludus_framework::Setting::MemoryMb), .. })),
        "{refused:?}"
    );
    // Solved again: found on disk.
    solvable.solve(&directory, budget, &mut |report| assert!(report.resumed)).unwrap();
    // One record changed: the check names it.
    let changed: Vec<(u128, Record)> = records
        .iter()
        .enumerate()
        .map(|(index, &(key, record))| {
            if index == records.len() / 2 {
                (key, Record::from_score(record.score().unwrap() + 2).unwrap())
            } else {
                (key, record)
            }
        })
        .collect();
    write_tier(&path, &tier, Vec::new(), changed).unwrap();
    let report = solvable.check(&directory, 1024, &mut |_, _, _| {}).unwrap();
    assert!(
        !report.problems.is_empty() && report.problems.iter().any(|problem| problem.contains("stored")),
        "{report:?}"
    );
    assert!(game.canonical(&game.start()) > 0);
    std::fs::remove_dir_all(&directory).unwrap();
}
