//! Nim, Kayles, Dawson's Kayles and Grundy's game as [`Impartial`] games over heaps / rows of pins.
//!
//! Published facts (asserted in tests): a Nim heap of n has nimber n; Kayles nimbers satisfy G(n) = G(n + 12)
//! for every n >= 71 (the last exception is n = 70); Dawson's Kayles, where a move removes two adjacent pins from
//! a row of n, satisfies G(n) = G(n + 34) for every n >= 53 (Berlekamp, Conway and Guy, *Winning Ways*, ch. 4).

use ludus_framework::Impartial;

/// Nim: a move takes any positive number of stones from one heap.
#[derive(Clone, Copy, Debug, Default)]
pub struct Nim;

impl Impartial for Nim {
    type Component = u32;
    type Key = u32;

    fn key(&self, heap: &u32) -> u32 {
        *heap
    }

    fn options(&self, heap: &u32, emit: &mut dyn FnMut(&[u32], u64)) {
        if *heap > 0 {
            emit(&[], 1);
        }
        for smaller in 1..*heap {
            emit(&[smaller], 1);
        }
    }
}

/// Emits every split of a row of `pins` after removing `removed` adjacent pins, merging mirror-image moves
/// (a row of 0 pins is dropped).
fn emit_splits(pins: u32, removed: u32, emit: &mut dyn FnMut(&[u32], u64)) {
    if pins < removed {
        return;
    }
    let rest = pins - removed;
    for left in 0..=rest / 2 {
        let right = rest - left;
        let count = if left == right { 1 } else { 2 };
        match (left, right) {
            (0, 0) => emit(&[], count),
            (0, part) | (part, 0) => emit(&[part], count),
            (left, right) => emit(&[left, right], count),
        }
    }
}

/// Kayles: a row of pins; a move knocks down one pin or two adjacent pins.
#[derive(Clone, Copy, Debug, Default)]
pub struct Kayles;

impl Impartial for Kayles {
    type Component = u32;
    type Key = u32;

    fn key(&self, pins: &u32) -> u32 {
        *pins
    }

    fn options(&self, pins: &u32, emit: &mut dyn FnMut(&[u32], u64)) {
        emit_splits(*pins, 1, emit);
        emit_splits(*pins, 2, emit);
    }
}

/// Dawson's Kayles: a row of pins; a move knocks down exactly two adjacent pins.
#[derive(Clone, Copy, Debug, Default)]
pub struct DawsonsKayles;

impl Impartial for DawsonsKayles {
    type Component = u32;
    type Key = u32;

    fn key(&self, pins: &u32) -> u32 {
        *pins
    }

    fn options(&self, pins: &u32, emit: &mut dyn FnMut(&[u32], u64)) {
        emit_splits(*pins, 2, emit);
    }
}

/// Grundy's game: a heap of n splits into two unequal non-empty heaps (OEIS A002188 lists its nimbers).
#[derive(Clone, Copy, Debug, Default)]
pub struct GrundysGame;

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
