//! The analyses on a game whose values are known by hand: take 1, 2 or 3 counters, who cannot move loses, so
//! a pile is lost exactly when it is a multiple of 4 and its remoteness is known. Winning moves, best moves and
//! the principal variation agree with that, with plain negamax, and with each other; every solution of a small
//! puzzle is listed, within a budget.

// The helpers shared by the tests unwrap too, not only the test functions.
#![allow(clippy::unwrap_used)]

mod common;

use common::{SubsetSum, TakeAway};
use ludus_framework::prelude::*;
use ludus_framework::Budget;

/// Take 1, 2 or 3 counters.
const TAKE_AWAY: TakeAway = TakeAway { largest: 3 };

#[test]
fn winning_and_best_moves_and_the_principal_variation() {
    let mut engine = MemoNegamax::new(Mode::Exact);
    let mut reference = PlainNegamax::new(Mode::Exact);
    for pile in 0..=20u32 {
        let winning = winning_moves(&mut engine, &TAKE_AWAY, &pile).unwrap();
        // The only winning move leaves a multiple of 4.
        let expected: Vec<u32> = if pile % 4 == 0 { Vec::new() } else { vec![pile % 4] };
        assert_eq!(winning, expected, "pile {pile}");
        assert_eq!(count_winning_moves(&mut reference, &TAKE_AWAY, &pile).unwrap(), winning.len());
        let value = engine.value(&TAKE_AWAY, &pile);
        let best = best_moves(&mut engine, &TAKE_AWAY, &pile).unwrap();
        assert!(best.iter().all(|m| m.value == value), "pile {pile}: {best:?} for {value}");
        if pile % 4 != 0 {
            assert_eq!(best.iter().map(|m| m.mv).collect::<Vec<_>>(), winning);
        }
        // The line is as long as the remoteness, every move in it is best, and it ends the game.
        let line = principal_variation(&mut engine, &TAKE_AWAY, &pile, 100).unwrap();
        assert_eq!(Some(line.len() as u32), value.remoteness(), "pile {pile}: {line:?}");
        let mut current = pile;
        for mv in &line {
            let best: Vec<u32> =
                best_moves(&mut reference, &TAKE_AWAY, &current).unwrap().into_iter().map(|m| m.mv).collect();
            assert!(best.contains(mv), "pile {current}: {mv} is not among the best {best:?}");
            current -= mv;
        }
        assert_eq!(current, 0);
        // A cap on its length is kept.
        assert_eq!(principal_variation(&mut engine, &TAKE_AWAY, &pile, 2).unwrap().len(), line.len().min(2));
    }
    assert!(best_moves(&mut engine, &TAKE_AWAY, &0).unwrap().is_empty());
}

#[test]
fn every_solution_is_listed_within_a_budget() {
    // Subsets of 1..=6 summing to 10: {4,6} {1,3,6} {1,4,5} {2,3,5} {1,2,3,4}, five of them (counted by hand).
    let solutions = all_solutions(&SubsetSum, &(6, 10), 1 << 20).unwrap();
    assert_eq!(solutions.len(), 5);
    assert!(solutions.iter().all(|mask| SubsetSum.verify(&(6, 10), mask).is_ok()));
    assert_eq!(solutions.first().copied(), brute_force(&SubsetSum, &(6, 10)).0);
    assert!(matches!(all_solutions(&SubsetSum, &(6, 10), 10), Err(Error::Budget(Budget::Positions(10)))));
}
