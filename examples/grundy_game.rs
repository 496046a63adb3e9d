//! An impartial game with the Sprague-Grundy engine: Grundy's game (split one heap into two unequal heaps;
//! whoever cannot move loses). Heaps are independent components; a position is a sum.
//!
//! Run with `cargo run --release --example grundy_game`.

use ludus_framework::engines::grundy::GrundyEngine;
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::{Mode, Solver};
use ludus_framework::{Impartial, SumGame};

/// Grundy's game: a heap of n splits into heaps a and n - a with a != n - a, both non-empty.
struct GrundysGame;

impl Impartial for GrundysGame {
    type Component = u32;
    type Key = u32;

    fn key(&self, heap: &u32) -> u32 {
        *heap
    }

    fn options(&self, heap: &u32, emit: &mut dyn FnMut(&[u32], u64)) {
        for smaller in 1..heap.div_ceil(2) {
            emit(&[smaller, heap - smaller], 1);
        }
    }
}

fn main() {
    let mut engine = GrundyEngine::new();
    let nimbers: Vec<u32> = (0..=30).map(|heap| engine.nimber(&GrundysGame, &heap)).collect();
    // OEIS A002188 begins 0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0.
    println!("nimbers of heaps 0..=30: {nimbers:?}");
    assert_eq!(nimbers[..21], [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]);

    let position = [5, 7, 9];
    let nimber = engine.sum(&GrundysGame, &position);
    let winning = engine.winning_moves(&GrundysGame, &position);
    let mut negamax = MemoNegamax::new(Mode::Outcome);
    let value = negamax.value(&SumGame(&GrundysGame), &position.to_vec());
    let verdict = if value.is_win() { "a win" } else { "a loss" };
    println!(
        "heaps {position:?}: nimber {nimber}, {winning} winning moves; negamax says {verdict} for the player to move"
    );
    assert_eq!(nimber == 0, value.is_loss());
    println!("grundy: {}", engine.stats());
}
