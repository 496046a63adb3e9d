//! Dots and Boxes on small boards: a scored game whose turns do not alternate (a player who completes a box
//! moves again), scored by the margin in boxes for the player to move, written against the framework's traits
//! and checked end to end. What it shows, file by file:
//!
//! - `game.rs`: [`Rules`] with `turn_passes` (the extra move), [`ScoredGame`], [`Deterministic`], the keys
//!   ([`Canonicalize`] over the board's symmetries, and [`FromKey`], which a database needs), [`SearchHints`]
//!   (the range of scores still possible, and a move order);
//! - `text.rs`: [`TextForm`] (edges written as the dots they join: `a1b1`);
//! - `brute_force.rs`: an independent solver, without the framework, to check it against;
//! - this file: the conformance check ([`GameCheck::compare_scores`]: alpha-beta against plain minimax), the
//!   analysis of the start ([`Playable::scored`]), the whole-game database ([`Solvable`] with [`WholeGame`]:
//!   every reachable position's score in one file) solved into a temporary directory, queried, and read
//!   back record by record against the brute force.
//!
//! Run with `cargo run --release --example dots_and_boxes` (about a second).
//!
//! [`Rules`]: ludus_framework::Rules
//! [`ScoredGame`]: ludus_framework::scored::ScoredGame
//! [`Deterministic`]: ludus_framework::scored::Deterministic
//! [`Canonicalize`]: ludus_framework::Canonicalize
//! [`FromKey`]: ludus_framework::FromKey
//! [`SearchHints`]: ludus_framework::SearchHints
//! [`TextForm`]: ludus_framework::playable::TextForm

mod brute_force;
mod game;
mod text;

use brute_force::BruteForce;
use game::{Board, DotsAndBoxes};
use ludus_framework::conformance::GameCheck;
use ludus_framework::database::{ScoreDatabase, SolveBudget};
use ludus_framework::engines::scored::ScoredAlphaBeta;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::playable::{
    Analysis, AnalysisOptions, DatabaseGame, Playable, PlayableGame, Solvable, TextForm, WholeGame,
};
use ludus_framework::FromKey;
use std::error::Error;
use std::path::PathBuf;

/// A directory of its own under the system's temporary directory, removed when dropped.
struct TemporaryDirectory(PathBuf);

impl TemporaryDirectory {
    fn new(name: &str) -> std::io::Result<TemporaryDirectory> {
        let path = std::env::temp_dir().join(format!("ludus-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&path)?;
        Ok(TemporaryDirectory(path))
    }
}

impl Drop for TemporaryDirectory {
    fn drop(&mut self) {
        // Nothing to do if it is gone already.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The name of a board, as the database's header records it.
fn name(rows: usize, columns: usize) -> String {
    format!("dots-and-boxes:rows={rows},columns={columns}")
}

/// Prints an analysis: the position, its value, every move's value and the best line.
fn print_analysis(analysis: &Analysis) {
    print!("{}", analysis.drawing);
    println!("value for the player to move: {}", analysis.value);
    let moves: Vec<String> = analysis
        .moves
        .iter()
        .map(|entry| format!("{} {}{}", entry.mv, entry.value, if entry.best { " (best)" } else { "" }))
        .collect();
    println!("moves: {}", moves.join(", "));
    println!("best line: {}", analysis.line.join(" "));
}

/// The brute force's edges of a position.
fn brute_force_edges(game: &DotsAndBoxes, brute_force: &BruteForce, board: &Board) -> u64 {
    (0..game.edges())
        .filter(|edge| board.edges & (1 << edge) != 0)
        .map(|edge| {
            let ((row, column), (next_row, _)) = game.dots_of(edge);
            brute_force.bit(row, column, next_row > row)
        })
        .sum()
}

/// Solves a board's database, checks a query against a search, and every stored score against the brute
/// force and against alpha-beta: the start's score.
fn check_board(rows: usize, columns: usize, query: &str) -> Result<i32, Box<dyn Error>> {
    let game = DotsAndBoxes::new(rows, columns)?;
    let name = name(rows, columns);
    let playable = Playable::scored(game.clone(), name.clone());
    let solvable = Solvable::new(playable.clone(), WholeGame);
    let directory = TemporaryDirectory::new(&format!("dots-and-boxes-{rows}x{columns}"))?;
    let budget = SolveBudget { memory_mb: 256, max_positions: u64::MAX, stop: None };
    solvable.solve(&directory.0, budget, &mut |report| {
        println!("{rows} x {columns}: {} positions solved into {} bytes", report.positions, report.bytes);
    })?;

    // A position read from the database, and the same position searched: the same values.
    let stored = solvable.query(&directory.0, Some(query), 100)?;
    let searched = playable.analyze(Some(query), &AnalysisOptions::default())?;
    assert_eq!(stored.value, searched.value, "{name}: the database and the search disagree at `{query}`");
    assert_eq!(stored.moves, searched.moves, "{name}: the database and the search disagree on the moves");
    let problems = solvable.check(&directory.0, &mut |_, _, _| {})?.problems;
    assert!(problems.is_empty(), "{name}: the database's check finds {problems:?}");

    // Every stored score = the brute force's = alpha-beta's.
    let mut brute_force = BruteForce::new(rows, columns);
    let mut alpha_beta = ScoredAlphaBeta::new(Mode::Exact);
    let records = ScoreDatabase::new(&game, &name, &directory.0).open()?.read_all()?;
    for (key, record) in &records {
        let board = u32::try_from(*key).ok().and_then(|key| game.checked_position_of_key(&key));
        let (Some(board), Some(score)) = (board, record.score()) else {
            return Err(format!("{name}: the record of key {key:#x} is of no position").into());
        };
        let expected = board.mover_lead() + brute_force.value(brute_force_edges(&game, &brute_force, &board));
        assert_eq!(score, expected, "{name}: stored {score}, brute force {expected}, at {board:?}");
        assert_eq!(alpha_beta.search(&game, &board)?, expected, "{name}: alpha-beta at {board:?}");
    }
    let start = solvable.query(&directory.0, None, 100)?.value.score().ok_or("a score")?;
    println!("{rows} x {columns}: all {} stored scores agree with the brute force and alpha-beta", records.len());
    Ok(start)
}

fn main() -> Result<(), Box<dyn Error>> {
    // The conformance check: moves, keys under every symmetry, ranges, playouts, and alpha-beta against plain
    // minimax at every position met that minimax solves within 20,000 positions.
    for (rows, columns) in [(1, 2), (2, 2), (2, 3)] {
        let game = DotsAndBoxes::new(rows, columns)?;
        let images = |board: &Board| game.images(board);
        GameCheck::new(&game, game.start()).playouts(30).symmetries(&images).compare_scores(20_000).run()?;
    }
    println!("conformance: 1 x 2, 2 x 2 and 2 x 3 pass");

    // The analysis of the start of 2 x 3, by a search.
    let playable = Playable::scored(DotsAndBoxes::new(2, 3)?, name(2, 3));
    print_analysis(&playable.analyze(None, &AnalysisOptions::default())?);
    // A text that is no position is an error that says why.
    for text in ["a1c1", "a1b1 b1a1", "é1", "a1b99999999999999999999"] {
        let refused = playable.analyze(Some(text), &AnalysisOptions::default()).err().ok_or("refused")?;
        println!("`{text}`: {refused}");
    }

    // Every board's database against the search and the brute force.
    let mut starts = Vec::new();
    for (rows, columns, query) in [(1, 1, "a1b1"), (1, 2, "a1b1 b2c2"), (2, 2, "a1b1 a1a2 b1b2"), (2, 3, "a1b1 c2c3")] {
        starts.push(((rows, columns), check_board(rows, columns, query)?));
    }
    for ((rows, columns), start) in &starts {
        println!("{rows} x {columns} boxes: the first player's margin under perfect play is {start}");
    }
    // One box by hand: the first three edges take nothing and the fourth takes the box, so the second player
    // draws it and wins by 1. The others as the framework (database, alpha-beta) and the brute force found
    // them above, which `check_board` asserts are equal: 2 x 2 is the first player's by 3 boxes to 1.
    assert_eq!(starts, [((1, 1), -1), ((1, 2), 0), ((2, 2), 2), ((2, 3), -2)]);
    Ok(())
}
