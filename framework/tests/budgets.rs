//! Every engine's budget: a tiny budget ends the search with the one budget error (`Error::Budget`, whose text
//! names the flag that raises it), never with a wrong answer; a budget large enough gives exactly the answer
//! of the same engine without one.

// The helpers shared by the tests unwrap too, not only the test functions.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Steps, SubsetSum, TakeAway};
use ludus_framework::engines::alpha_beta::{AlphaBeta, LazySmp};
use ludus_framework::engines::brute_force::{brute_force, brute_force_within};
use ludus_framework::engines::grundy::GrundyEngine;
use ludus_framework::engines::negamax::{MemoNegamax, PlainNegamax};
use ludus_framework::engines::one_player::OnePlayerSearch;
use ludus_framework::engines::parallel::{ParallelGrundy, ParallelNegamax};
use ludus_framework::engines::{Engine, Mode, Stop};
use ludus_framework::plugin::with_threads;
use ludus_framework::table::{KeyedTable, ShardedTable};
use ludus_framework::{Budget, Error, Impartial, Value};
use std::convert::Infallible;

/// Take 1, 2 or 3 counters: piles that are multiples of 4 are lost.
const TAKE_AWAY: TakeAway = TakeAway { largest: 3 };

/// Asserts that `result` is the positions-budget error for `positions`, with the flag in its text.
fn assert_positions_budget<Output: std::fmt::Debug>(result: ludus_framework::Result<Output>, positions: u64) {
    match result {
        Err(Error::Budget(Budget::Positions(limit))) => {
            assert_eq!(limit, positions);
            let error = Error::Budget(Budget::Positions(limit));
            assert_eq!(error.remedies(), [ludus_framework::Remedy::Raise(ludus_framework::Setting::MaxPositions)]);
            let text = error.to_string();
            assert!(text.contains("position budget") && text.contains(&positions.to_string()), "{text}");
        }
        other => panic!("expected the positions budget error, got {other:?}"),
    }
}

/// Runs a two-player engine on piles 0..=24: with 5 positions it must give up on the large piles (never answer
/// wrongly); with a large budget it must agree with its unbudgeted twin.
fn check_two_player(
    mut tiny: impl Engine<TakeAway, Value = Value>,
    mut ample: impl Engine<TakeAway, Value = Value>,
    mut free: impl Engine<TakeAway, Value = Value, Failure = Infallible>,
) {
    // The search itself tells a budget that ran out from a failure.
    assert!(matches!(tiny.search_within(&TAKE_AWAY, &24, 5), Err(Stop::Budget)));
    let mut refused = 0;
    // Largest first: a memoizing engine would otherwise need one new position per pile.
    for pile in (0..=24).rev() {
        let expected = free.value(&TAKE_AWAY, &pile);
        assert_eq!(expected.is_loss(), pile % 4 == 0, "pile {pile}");
        match tiny.try_value(&TAKE_AWAY, &pile) {
            Ok(value) => assert_eq!(value, expected, "pile {pile} within a tiny budget"),
            Err(error) => {
                assert_positions_budget::<Value>(Err(error), 5);
                refused += 1;
            }
        }
        assert_eq!(ample.try_value(&TAKE_AWAY, &pile).unwrap(), expected, "pile {pile}");
    }
    assert!(refused > 0, "a budget of 5 positions never ran out");
}

#[test]
fn two_player_engines_keep_to_their_positions_budget() {
    let exact = Mode::Exact;
    check_two_player(
        PlainNegamax::new(exact).with_budget(5),
        PlainNegamax::new(exact).with_budget(1 << 40),
        PlainNegamax::new(exact),
    );
    // Memoizing engines are cleared of what an ample search stored by using fresh engines per role.
    check_two_player(
        MemoNegamax::new(exact).with_budget(5),
        MemoNegamax::new(exact).with_budget(1 << 40),
        PlainNegamax::new(exact),
    );
    check_two_player(
        AlphaBeta::with_table(exact, KeyedTable::new(1 << 16)).with_budget(5),
        AlphaBeta::with_table(exact, KeyedTable::new(1 << 16)).with_budget(1 << 40),
        PlainNegamax::new(exact),
    );
    let lazy = |budget| LazySmp::with_table(exact, 2, ShardedTable::new(1 << 16)).unwrap().with_budget(budget);
    check_two_player(lazy(5), lazy(1 << 40), PlainNegamax::new(exact));
    let parallel = |budget| ParallelNegamax::new(exact, 2).with_budget(budget);
    with_threads(2, || check_two_player(parallel(5), parallel(1 << 40), PlainNegamax::new(exact))).unwrap();
}

/// Kayles: a row of pins; a move knocks down one pin or two adjacent ones, which may split the row in two.
struct Kayles;

impl Impartial for Kayles {
    type Component = u32;
    type Key = u32;
    fn key(&self, row: &u32) -> u32 {
        *row
    }
    fn options(&self, row: &u32, emit: &mut dyn FnMut(&[u32], u64)) {
        for knocked in 1..=2u32.min(*row) {
            for left in 0..=(row - knocked) / 2 {
                emit(&[left, row - knocked - left], 1);
            }
        }
    }
}

/// Kayles' nimbers of rows 0 to 11 (OEIS A002186).
const KAYLES: [u32; 12] = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6];

#[test]
fn grundy_engines_keep_to_their_budgets() {
    // Positions: a budget of 3 components cannot evaluate a row of 11.
    let mut engine = GrundyEngine::new().with_budget(3);
    assert_positions_budget(engine.try_nimber(&Kayles, &11), 3);
    assert_positions_budget(engine.try_sum(&Kayles, &[11, 2]), 3);
    // Nothing wrong was kept: the same engine without budget pressure answers right.
    for (row, &nimber) in KAYLES.iter().enumerate() {
        assert_eq!(engine.nimber(&Kayles, &(row as u32)), nimber);
    }
    let mut ample = GrundyEngine::new().with_budget(1 << 40);
    assert_eq!(ample.try_nimber(&Kayles, &11).unwrap(), 6);
    assert_eq!(ample.try_winning_moves(&Kayles, &[11]).unwrap(), GrundyEngine::new().winning_moves(&Kayles, &[11]));
    // Memory: a table of 16 bytes holds one or two entries.
    let mut small = GrundyEngine::new().with_memory(16);
    match small.try_nimber(&Kayles, &11) {
        Err(Error::Budget(Budget::TableBytes(16))) => {}
        other => panic!("expected the table budget error, got {other:?}"),
    }
    let table = Error::Budget(Budget::TableBytes(16 << 20));
    assert!(table.to_string().contains("16 MiB (raise the table's memory)"), "{table}");
    assert_eq!(table.remedies(), [ludus_framework::Remedy::Raise(ludus_framework::Setting::TableMb)]);

    let parallel = ParallelGrundy::new().with_budget(3);
    let waves: Vec<Vec<u32>> = (0..12).map(|row| vec![row]).collect();
    with_threads(2, || assert_positions_budget(parallel.try_precompute(&Kayles, &waves), 3)).unwrap();
    for (row, &nimber) in KAYLES.iter().enumerate() {
        assert_eq!(parallel.nimber(&Kayles, &(row as u32)), nimber);
    }
    let small = ParallelGrundy::new().with_memory(16);
    assert!(matches!(small.try_sum(&Kayles, &[11]), Err(Error::Budget(Budget::TableBytes(16)))));
    let ample = ParallelGrundy::new().with_budget(1 << 40).with_memory(1 << 20);
    with_threads(2, || ample.try_precompute(&Kayles, &waves)).unwrap().unwrap();
    assert_eq!(ample.try_sum(&Kayles, &[11, 3]).unwrap(), 6 ^ 3);
}

#[test]
fn one_player_search_keeps_to_its_budget() {
    assert_positions_budget(OnePlayerSearch::new(10).solve(&Steps { target: 1_000 }, &0), 10);
    let line = OnePlayerSearch::new(1 << 20).solve(&Steps { target: 1_000 }, &0).unwrap().unwrap();
    assert_eq!(line.iter().sum::<u32>(), 1_000);
}

#[test]
fn brute_force_keeps_to_its_budget() {
    // No subset of 1..=10 sums to 56 (the total is 55): 1,024 candidates to rule out.
    assert_positions_budget(brute_force_within(&SubsetSum, &(10, 56), 100), 100);
    assert_eq!(brute_force_within(&SubsetSum, &(10, 56), 1 << 20).unwrap().0, None);
    let (found, _) = brute_force_within(&SubsetSum, &(10, 40), 1 << 20).unwrap();
    assert_eq!(found, brute_force(&SubsetSum, &(10, 40)).0);
    assert!(found.is_some());
}
