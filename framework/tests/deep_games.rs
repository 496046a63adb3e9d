//! Stack safety: every recursive engine survives games 100,000 moves deep on a test thread's ordinary stack
//! (the engines grow their stack as they go), and still gets the values right.

mod common;

use common::TakeAway;
use ludus_framework::engines::alpha_beta::{AlphaBeta, LazySmp};
use ludus_framework::engines::negamax::{MemoNegamax, PlainNegamax};
use ludus_framework::engines::parallel::ParallelNegamax;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::table::{KeyedTable, PackedTable};
use ludus_framework::Value;

const DEPTH: u32 = 100_000;

/// The value of a pile of the take-1-or-2 game: multiples of 3 are lost; the loser stretches the game to one
/// counter per move, the winner takes the remainder first and then answers 1 with 2 and 2 with 1.
fn take_away_value(pile: u32) -> Value {
    match pile % 3 {
        0 => Value::Lose(2 * pile / 3),
        _ => Value::Win(2 * (pile / 3) + 1),
    }
}

#[test]
fn the_closed_form_holds_on_small_piles() {
    let mut plain = PlainNegamax::new(Mode::Exact);
    for pile in 0..16 {
        assert_eq!(plain.value(&TakeAway { largest: 2 }, &pile), take_away_value(pile), "pile {pile}");
    }
}

#[test]
fn plain_negamax_walks_a_chain_of_100_000_moves() {
    let value = PlainNegamax::new(Mode::Exact).value(&TakeAway { largest: 1 }, &DEPTH);
    assert_eq!(value, Value::Lose(DEPTH));
}

#[test]
fn memoized_negamax_solves_a_pile_of_100_000() {
    let game = TakeAway { largest: 2 };
    assert_eq!(MemoNegamax::new(Mode::Exact).value(&game, &DEPTH), take_away_value(DEPTH));
    assert_eq!(MemoNegamax::new(Mode::Outcome).value(&game, &(DEPTH + 1)).outcome(), Value::Win(0));
}

// Exact alpha-beta on a pile reached at many depths is slow (a position's window moves with its depth, so the
// table's bounds settle it less often): it is run exact on the chain and on a smaller pile, weakly on the big one.
#[test]
fn alpha_beta_walks_100_000_moves_deep_in_both_modes_and_with_small_tables() {
    let chain = TakeAway { largest: 1 };
    assert_eq!(AlphaBeta::new(Mode::Exact).value(&chain, &DEPTH), Value::Lose(DEPTH));
    let mut tiny = AlphaBeta::with_table(Mode::Exact, KeyedTable::new(1024));
    assert_eq!(tiny.value(&chain, &(DEPTH - 1)), Value::Win(DEPTH - 1));
    let pile = TakeAway { largest: 2 };
    // 99,999 is a multiple of 3.
    assert_eq!(AlphaBeta::new(Mode::Outcome).value(&pile, &(DEPTH - 1)).outcome(), Value::Lose(0));
    assert_eq!(AlphaBeta::new(Mode::Outcome).value(&pile, &DEPTH).outcome(), Value::Win(0));
    // The packed table stores remoteness up to 4,094 exactly and widens the rest: still exact values.
    let table = PackedTable::with_budget(1 << 22).unwrap_or_else(|error| panic!("{error}"));
    let mut packed = AlphaBeta::with_table(Mode::Exact, table);
    for pile_size in [4_999, 5_000, 5_001] {
        assert_eq!(packed.value(&pile, &pile_size), take_away_value(pile_size), "pile {pile_size}");
    }
}

#[test]
fn the_parallel_engines_survive_it_too() {
    let chain = TakeAway { largest: 1 };
    let table = PackedTable::with_budget(1 << 22).unwrap_or_else(|error| panic!("{error}"));
    let mut lazy = LazySmp::with_table(Mode::Exact, 2, table).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(lazy.value(&chain, &DEPTH), Value::Lose(DEPTH));
    let parallel = ParallelNegamax::new(Mode::Exact, 2);
    let pile = TakeAway { largest: 2 };
    assert_eq!(parallel.evaluate(&pile, &DEPTH), take_away_value(DEPTH));
}
