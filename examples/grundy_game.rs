//! An impartial game with the Sprague-Grundy engine: Lasker's Nim (take any number of stones from one heap, or
//! split a heap into two non-empty heaps; whoever cannot move loses). Heaps are independent components; a
//! position is a sum, lost for the player to move exactly when the XOR of the heaps' nimbers is zero.
//!
//! Run with `cargo run --release --example grundy_game`.

use ludus_framework::engines::grundy::GrundyEngine;
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::Statistics;
use ludus_framework::{Impartial, SumGame};

/// Lasker's Nim: Nim's moves (a heap of n becomes any smaller heap, possibly none), plus splitting a heap
/// into two non-empty heaps adding up to n. It needs the framework alone: copied into a crate that depends on
/// `ludus-framework` only, it builds as it is.
struct LaskersNim;

impl Impartial for LaskersNim {
    type Component = u32;
    type Key = u32;

    fn key(&self, heap: &u32) -> u32 {
        *heap
    }

    fn options(&self, heap: &u32, emit: &mut dyn FnMut(&[u32], u64)) {
        // Nim's moves: any smaller heap, the empty one included (an empty heap has no move).
        if *heap > 0 {
            emit(&[], 1);
        }
        for smaller in 1..*heap {
            emit(&[smaller], 1);
        }
        for left in 1..=heap / 2 {
            emit(&[left, heap - left], 1);
        }
    }
}

fn main() {
    let mut engine = GrundyEngine::new();
    let nimbers: Vec<u32> = (0..=24).map(|heap| engine.nimber(&LaskersNim, &heap)).collect();
    println!("nimbers of heaps 0..=24: {nimbers:?}");
    // The known closed form: G(0) = 0, G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3.
    assert_eq!(nimbers[0], 0, "an empty heap has no move");
    for (heap, &nimber) in nimbers.iter().enumerate().skip(1) {
        let expected = match heap % 4 {
            3 => heap + 1,
            0 => heap - 1,
            _ => heap,
        };
        assert_eq!(nimber as usize, expected, "heap {heap}");
    }

    let position = [3, 5, 6];
    let nimber = engine.sum(&LaskersNim, &position);
    let winning = engine.winning_moves(&LaskersNim, &position);
    let mut negamax = MemoNegamax::new(Mode::Outcome);
    let value = negamax.value(&SumGame(&LaskersNim), &position.to_vec());
    let verdict = if value.is_win() { "a win" } else { "a loss" };
    println!(
        "heaps {position:?}: nimber {nimber}, {winning} winning moves; negamax says {verdict} for the player to move"
    );
    assert_eq!(nimber == 0, value.is_loss());
    println!("grundy: {}", engine.stats());
}
