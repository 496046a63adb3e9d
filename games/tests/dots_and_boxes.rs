//! Dots and Boxes against an independent brute force (`dots_and_boxes/brute_force.rs`, written without the
//! framework) on every board of up to 2 x 3 boxes: the start's score by the analysis, every stored score of
//! the whole-game database record by record, and alpha-beta at each; the conformance check (keys under every
//! symmetry, ranges, alpha-beta against plain minimax); the rules' extra moves; the text forms; the registry.

// The helpers shared by the tests unwrap too, not only the test functions.
#![allow(clippy::unwrap_used)]

#[path = "dots_and_boxes/brute_force.rs"]
mod brute_force;

use brute_force::BruteForce;
use ludus_framework::conformance::GameCheck;
use ludus_framework::database::{ScoreDatabase, SolveBudget};
use ludus_framework::engines::scored::ScoredAlphaBeta;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::playable::{AnalysisOptions, DatabaseGame, Playable, PlayableGame, Solvable, TextForm, WholeGame};
use ludus_framework::{Canonicalize, FromKey, Rules};
use ludus_games::dots_and_boxes::{Board, DotsAndBoxes};
use ludus_games::registry::DOTS_AND_BOXES;
use std::path::PathBuf;
use std::time::Instant;

/// Every board of up to 2 x 3 boxes, with the first player's margin under perfect play. 1 x 1 by hand: the
/// first three edges take nothing and the fourth takes the box, so the second player draws it and wins by 1.
/// The others as the brute force finds them (which the tests below assert the framework finds too).
const BOARDS: [((usize, usize), i32); 8] =
    [((1, 1), -1), ((1, 2), 0), ((2, 1), 0), ((1, 3), -1), ((3, 1), -1), ((2, 2), 2), ((2, 3), -2), ((3, 2), -2)];

/// A directory of its own under the system's temporary directory, removed when dropped.
struct TemporaryDirectory(PathBuf);

impl TemporaryDirectory {
    fn new(name: &str) -> TemporaryDirectory {
        let path = std::env::temp_dir().join(format!("ludus-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TemporaryDirectory(path)
    }
}

impl Drop for TemporaryDirectory {
    fn drop(&mut self) {
        // Nothing to do if it is gone already.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The name of a board, as the registry writes it.
fn name(rows: usize, columns: usize) -> String {
    format!("dots-and-boxes:rows={rows},columns={columns}")
}

/// The brute force's edges of a position (its own numbering: a bit for the edge right of each dot, one for
/// the edge below it).
fn brute_force_edges(game: &DotsAndBoxes, brute_force: &BruteForce, board: &Board) -> u64 {
    (0..game.edges())
        .filter(|edge| board.edges & (1 << edge) != 0)
        .map(|edge| {
            let ((row, column), (next_row, _)) = game.dots_of(edge);
            brute_force.bit(row, column, next_row > row)
        })
        .sum()
}

/// The brute force's score of a position: the lead so far and the best margin of what is left.
fn brute_force_score(game: &DotsAndBoxes, brute_force: &mut BruteForce, board: &Board) -> i32 {
    let edges = brute_force_edges(game, brute_force, board);
    board.mover_lead() + brute_force.value(edges)
}

#[test]
fn the_start_of_every_board_up_to_2_x_3_is_the_brute_force_s_by_the_analysis() {
    for ((rows, columns), margin) in BOARDS {
        let game = DotsAndBoxes::new(rows, columns).unwrap();
        let mut brute_force = BruteForce::new(rows, columns);
        assert_eq!(brute_force.value(0), margin, "{rows} x {columns}: the brute force");
        let playable = Playable::scored(game.clone(), name(rows, columns));
        let analysis = playable.analyze(None, &AnalysisOptions::default()).unwrap();
        assert_eq!(analysis.value.score(), Some(margin), "{rows} x {columns}: the analysis");
        // Every move's score is the brute force's of the position it leads to, for the player who makes it.
        for entry in &analysis.moves {
            let edge = game.parse_move(&game.start(), &entry.mv).unwrap();
            let after = game.play(&game.start(), &edge);
            let score = brute_force_score(&game, &mut brute_force, &after);
            let for_mover = if game.turn_passes(&game.start(), &after) { -score } else { score };
            assert_eq!(entry.value.score(), Some(for_mover), "{rows} x {columns}: {}", entry.mv);
        }
    }
}

#[test]
fn every_stored_score_of_every_board_up_to_2_x_3_is_the_brute_force_s_and_alpha_beta_s() {
    for ((rows, columns), margin) in BOARDS {
        let game = DotsAndBoxes::new(rows, columns).unwrap();
        let name = name(rows, columns);
        let solvable = Solvable::new(Playable::scored(game.clone(), name.clone()), WholeGame);
        let directory = TemporaryDirectory::new(&format!("dots-and-boxes-{rows}x{columns}"));
        let budget = SolveBudget { memory_mb: 256, max_positions: u64::MAX, stop: None };
        let started = Instant::now();
        let mut solved = 0;
        solvable.solve(&directory.0, budget, &mut |report| solved = report.positions).unwrap();
        let seconds = started.elapsed().as_secs_f64();

        let mut brute_force = BruteForce::new(rows, columns);
        let mut alpha_beta = ScoredAlphaBeta::new(Mode::Exact);
        let records = ScoreDatabase::new(&game, &name, &directory.0).open().unwrap().read_all().unwrap();
        assert_eq!(records.len() as u64, solved, "{name}: one record a position solved");
        for (key, record) in &records {
            let board = u64::try_from(*key).ok().and_then(|key| game.checked_position_of_key(&key));
            let board = board.unwrap_or_else(|| panic!("{name}: the key {key:#x} is of no position"));
            let expected = brute_force_score(&game, &mut brute_force, &board);
            assert_eq!(record.score(), Some(expected), "{name}: stored against the brute force at {board:?}");
            assert_eq!(alpha_beta.search(&game, &board).unwrap(), expected, "{name}: alpha-beta at {board:?}");
        }
        let start = solvable.query(&directory.0, None, 100).unwrap();
        assert_eq!(start.value.score(), Some(margin), "{name}: the start read from the database");
        let problems = solvable.check(&directory.0, 1024, &mut |_, _, _| {}).unwrap().problems;
        assert!(problems.is_empty(), "{name}: the database's check finds {problems:?}");
        println!("{name}: {} positions solved and checked against the brute force ({seconds:.2} s)", records.len());
    }
}

#[test]
fn a_query_of_the_database_is_the_search_s_answer() {
    for (rows, columns, position) in
        [(1, 1, "a1b1"), (1, 2, "a1b1 b2c2"), (2, 2, "a1b1 a1a2 b1b2"), (2, 3, "a1b1 c2c3"), (3, 2, "a1a2 b4c4")]
    {
        let game = DotsAndBoxes::new(rows, columns).unwrap();
        let playable = Playable::scored(game, name(rows, columns));
        let solvable = Solvable::new(playable.clone(), WholeGame);
        let directory = TemporaryDirectory::new(&format!("dots-and-boxes-query-{rows}x{columns}"));
        let budget = SolveBudget { memory_mb: 64, max_positions: u64::MAX, stop: None };
        solvable.solve(&directory.0, budget, &mut |_| {}).unwrap();
        let stored = solvable.query(&directory.0, Some(position), 100).unwrap();
        let searched = playable.analyze(Some(position), &AnalysisOptions::default()).unwrap();
        assert_eq!(stored.value, searched.value, "{rows} x {columns} at `{position}`");
        assert_eq!(stored.moves, searched.moves, "{rows} x {columns} at `{position}`");
    }
}

#[test]
fn conformance_keys_under_every_symmetry_and_alpha_beta_against_minimax() {
    for (rows, columns) in [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2), (2, 3), (3, 2), (3, 3), (1, 7)] {
        let game = DotsAndBoxes::new(rows, columns).unwrap();
        let images = |board: &Board| game.images(board);
        let start = game.start();
        GameCheck::new(&game, start).playouts(30).symmetries(&images).compare_scores(20_000).run().unwrap();
    }
    // The largest boards: the keys and ranges, no search.
    for (rows, columns) in [(4, 5), (3, 7), (1, 18), (18, 1)] {
        let game = DotsAndBoxes::new(rows, columns).unwrap();
        let images = |board: &Board| game.images(board);
        GameCheck::new(&game, game.start()).playouts(10).symmetries(&images).run().unwrap();
    }
}

#[test]
fn the_images_of_a_position_are_positions_and_their_keys_rebuild_one() {
    let mut random = 7u64;
    for (rows, columns, symmetries) in [(2, 2, 8), (2, 3, 4), (3, 3, 8), (1, 4, 4), (4, 5, 4)] {
        let game = DotsAndBoxes::new(rows, columns).unwrap();
        assert_eq!(game.edge_permutations().len(), symmetries, "{rows} x {columns}");
        let mut board = game.start();
        while !game.is_over(&board) {
            for image in game.images(&board) {
                // An image's boxes are the boxes its edges close, its first player's edges among its edges.
                assert_eq!(image.boxes[0] | image.boxes[1], game.closed_boxes(image.edges), "{image:?}");
                assert_eq!(image.boxes[0] & image.boxes[1], 0, "{image:?}");
                assert_eq!(image.first_edges & !image.edges, 0, "{image:?}");
                assert_eq!(image.edges.count_ones(), board.edges.count_ones(), "{image:?}");
                assert_eq!(image.mover_lead(), board.mover_lead());
            }
            let key = game.canonical(&board);
            let rebuilt = game.checked_position_of_key(&key).unwrap();
            assert_eq!(rebuilt.mover_lead(), board.mover_lead());
            assert!(game.images(&board).iter().any(|image| image.edges == rebuilt.edges), "{board:?}");
            let moves = game.legal_moves(&board);
            random = random.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            board = game.play(&board, &moves[(random >> 33) as usize % moves.len()]);
        }
    }
    // Keys of no position: an edge off the board, a lead the boxes taken cannot make.
    let game = DotsAndBoxes::new(1, 1).unwrap();
    let lead = |lead: i32| ((lead + 128) as u64) << 56;
    assert!(game.position_of_key(&(1 << 4 | lead(0))).is_none(), "edge 4 of a board of 4");
    assert!(game.position_of_key(&(0b1111 | lead(0))).is_none(), "one box taken: the lead is odd");
    assert!(game.position_of_key(&(0b0111 | lead(1))).is_none(), "no box taken: no lead");
    assert_eq!(game.position_of_key(&(0b1111 | lead(-1))).unwrap().boxes, [0, 1]);
}

#[test]
fn closing_a_box_moves_again_and_closing_two_at_once_takes_both() {
    let game = DotsAndBoxes::new(1, 2).unwrap();
    // The middle edge b1b2 last: it closes both boxes at once.
    let board = game.parse_position("a1b1 b1c1 a2b2 b2c2 a1a2").unwrap();
    assert!(!board.first_to_move, "five edges, no box: the turn passed each time");
    let board = game.play(&board, &game.parse_move(&board, "c1c2").unwrap());
    assert!(board.first_to_move && board.boxes == [0, 0]);
    let edge = game.parse_move(&board, "b1b2").unwrap();
    let after = game.play(&board, &edge);
    assert_eq!(after.boxes, [0b11, 0], "the first player takes both boxes");
    assert!(game.is_over(&after));
    assert_eq!(game.outcome(&after), Some(2));
    assert!(!game.turn_passes(&board, &after), "a box closed: the same player would move again");
    // 1 x 1: the fourth edge closes the box for the second player, who is still to move at the end.
    let game = DotsAndBoxes::new(1, 1).unwrap();
    let end = game.parse_position("a1b1 b1b2 a2b2 a1a2").unwrap();
    assert_eq!((end.boxes, end.first_to_move, game.outcome(&end)), ([0, 1], false, Some(1)));
    assert_eq!(end.first_edges.count_ones(), 2, "each player drew two edges");
}

#[test]
fn positions_and_moves_are_read_and_written_as_dots() {
    let game = DotsAndBoxes::new(2, 3).unwrap();
    let board = game.parse_position("a1b1 c2c3 -").unwrap();
    let moves: Vec<String> = game.legal_moves(&board).iter().map(|edge| game.render_move(&board, edge)).collect();
    assert_eq!(moves.len(), 15);
    for text in &moves {
        assert_eq!(game.render_move(&board, &game.parse_move(&board, text).unwrap()), *text);
    }
    // Both orders of the dots name the same edge.
    assert_eq!(game.parse_move(&board, "b1a2").ok(), None);
    assert_eq!(game.parse_move(&board, "b2a2").unwrap(), game.parse_move(&board, "a2b2").unwrap());
    for (text, why) in [
        ("a1c1", "does not join two neighbouring dots"),
        ("a1b1 b1a1", "drawn already"),
        ("é1", "an edge as the two dots it joins"),
        ("a1b99999999999999999999", "an edge as the two dots it joins"),
        ("e1e2", "an edge as the two dots it joins"),
        ("a1b1x", "an edge as the two dots it joins"),
    ] {
        let error = game.parse_position(text).unwrap_err().to_string();
        assert!(error.contains(why), "`{text}`: {error}");
    }
    let drawing = game.draw_position(&game.parse_position("a1b1 a1a2 b1b2 a2b2").unwrap());
    assert!(drawing.contains("| 2 |"), "the second player's box: {drawing}");
    assert!(drawing.contains("boxes: first 0, second 1, of 6; second to move"), "{drawing}");
}

#[test]
fn the_registry_makes_each_board_within_its_limits() {
    let made = DOTS_AND_BOXES.make_default().unwrap();
    assert_eq!(made.capabilities(), DOTS_AND_BOXES.capabilities);
    assert!(DOTS_AND_BOXES.make("dots-and-boxes:rows=4,columns=5").is_ok(), "49 edges");
    assert!(DOTS_AND_BOXES.make("dots-and-boxes:rows=1,columns=18").is_ok(), "55 edges");
    for (spec, why) in [
        ("dots-and-boxes:rows=5,columns=5", "at most 56 edges (5 x 5 boxes have 60)"),
        ("dots-and-boxes:rows=0", "from 1 to 18"),
        ("dots-and-boxes:columns=19", "from 1 to 18"),
    ] {
        let error = DOTS_AND_BOXES.make(spec).err().unwrap().to_string();
        assert!(error.contains(why), "{spec}: {error}");
    }
}
