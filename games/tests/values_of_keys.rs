//! A database read by keys in a batch (`DatabaseGame::values_of_keys`, what the Python module's
//! `Database.values` calls): every reachable tic-tac-toe position's key gives the value the database's query
//! gives and memoized negamax finds; Kalah(3, 2)'s keys (the registry's: `CompactKalah`'s) give the scores the
//! scored alpha-beta finds; a key of no position gives none; a directory without the database is `NotSolved`.

#![allow(clippy::unwrap_used)] // test helpers: a failed read of a scratch directory should fail the test loudly

use ludus_framework::database::{RecordKey, SolveBudget};
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::scored::ScoredAlphaBeta;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::playable::{DatabaseGame, StoredValue, TextForm};
use ludus_framework::{Canonicalize, Error};
use ludus_games::classic::TicTacToe;
use ludus_games::kalah::{CompactKalah, Kalah};
use std::collections::HashMap;
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let directory = std::env::temp_dir().join(format!("ludus-values-of-keys-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    directory
}

const AMPLE: SolveBudget = SolveBudget { memory_mb: 1024, max_positions: u64::MAX, stop: None };

/// Every position reachable from `start`, by key.
fn reachable<Ruleset: Canonicalize>(
    game: &Ruleset,
    start: Ruleset::Position,
) -> HashMap<Ruleset::Key, Ruleset::Position> {
    let mut seen = HashMap::new();
    let mut stack = vec![start];
    while let Some(position) = stack.pop() {
        if seen.insert(game.canonical(&position), position.clone()).is_none() && !game.is_over(&position) {
            stack.extend(game.legal_moves(&position).iter().map(|mv| game.play(&position, mv)));
        }
    }
    seen
}

fn database(spec: &str) -> Box<dyn DatabaseGame> {
    let registration = ludus_framework::playable::find_registration(
        &[ludus_games::registry::TIC_TAC_TOE, ludus_games::registry::KALAH],
        spec,
    )
    .unwrap();
    registration.make(spec).unwrap().database.unwrap()
}

#[test]
fn tic_tac_toe_keys_give_the_values_of_the_search() {
    let directory = scratch("tic-tac-toe");
    let stored = database("tic-tac-toe");
    assert!(matches!(stored.values_of_keys(&directory, &[0]), Err(Error::NotSolved { .. })));
    stored.solve(&directory, AMPLE, &mut |_| {}).unwrap();
    let game = TicTacToe;
    let positions = reachable(&game, TextForm::start(&game));
    let keys: Vec<u128> = positions.keys().map(|key| key.to_wide()).collect();
    let values = stored.values_of_keys(&directory, &keys).unwrap();
    assert_eq!(values.len(), positions.len());
    let mut search = MemoNegamax::new(Mode::Exact);
    for (position, value) in positions.values().zip(&values) {
        assert_eq!(*value, Some(StoredValue::Outcome(search.value(&game, position))), "{position:?}");
    }
    // A key no position has (every cell taken by the first player) holds no record.
    assert_eq!(stored.values_of_keys(&directory, &[u128::MAX >> 1]).unwrap(), vec![None]);
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn kalah_keys_give_the_scores_of_the_search() {
    let directory = scratch("kalah");
    let stored = database("kalah:pits=3,seeds=2");
    stored.solve(&directory, AMPLE, &mut |_| {}).unwrap();
    let game = CompactKalah::new(Kalah::new(3, 2).unwrap()).unwrap();
    let positions = reachable(&game, game.game.start());
    let keys: Vec<u128> = positions.keys().map(|key| key.to_wide()).collect();
    let values = stored.values_of_keys(&directory, &keys).unwrap();
    let mut search = ScoredAlphaBeta::new(Mode::Exact);
    for (position, value) in positions.values().zip(&values) {
        assert_eq!(*value, Some(StoredValue::Score(search.search(&game, position).unwrap())), "{position:?}");
    }
    std::fs::remove_dir_all(&directory).unwrap();
}
