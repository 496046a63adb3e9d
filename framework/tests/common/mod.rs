//! Helpers shared by the framework's test files.

/// A 64-bit mixing function (the finaliser of MurmurHash3): deterministic pseudo-random numbers from integers,
/// for random game graphs that need no generator state.
#[allow(dead_code)]
pub fn mix(mut value: u64) -> u64 {
    value ^= value >> 33;
    value = value.wrapping_mul(0xff51_afd7_ed55_8ccd);
    value ^= value >> 33;
    value = value.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    value ^ (value >> 33)
}

use ludus_framework::Rules;
use ludus_framework::{Canonicalize, Enumerate, Game, Puzzle, SearchHints, Solitaire, Value, Verify, Violation};
use std::ops::ControlFlow;

/// A pile from which a move takes 1 to `largest` counters; who cannot move loses. With `largest = 3` the lost
/// piles are the multiples of 4; with `largest = 1` the game is a chain, the deepest there is for its size.
// Each test file uses some of these helpers, not all.
#[allow(dead_code)]
pub struct TakeAway {
    pub largest: u32,
}

impl Rules for TakeAway {
    type Position = u32;
    type Move = u32;
    type Outcome = Value;
    fn moves(&self, pile: &u32, moves: &mut Vec<u32>) {
        moves.extend((1..=self.largest).filter(|take| take <= pile));
    }
    fn play(&self, pile: &u32, take: &u32) -> u32 {
        pile - take
    }
    fn outcome(&self, pile: &u32) -> Option<Value> {
        (*pile == 0).then_some(Value::LOST)
    }
}

impl Game for TakeAway {}

impl SearchHints for TakeAway {}

impl Canonicalize for TakeAway {
    type Key = u32;
    fn canonical(&self, pile: &u32) -> u32 {
        *pile
    }
}

/// Subsets of 1..=n, as bit masks, summing to a target: the instance is `(n, target)`.
#[allow(dead_code)]
pub struct SubsetSum;

impl Puzzle for SubsetSum {
    type Instance = (u32, u32);
    type Solution = u32;
}

impl Verify for SubsetSum {
    fn verify(&self, &(_, target): &(u32, u32), mask: &u32) -> Result<(), Violation> {
        let sum: u32 = (0..32).filter(|bit| mask & (1 << bit) != 0).map(|bit| bit + 1).sum();
        if sum == target {
            Ok(())
        } else {
            Err(Violation::new(format!("the sum is {sum}, not {target}")))
        }
    }
}

impl Enumerate for SubsetSum {
    fn candidates(&self, &(count, _): &(u32, u32), visit: &mut dyn FnMut(&u32) -> ControlFlow<()>) {
        for mask in 0..(1u32 << count) {
            if visit(&mask).is_break() {
                return;
            }
        }
    }
}

/// A one-player puzzle: reach exactly `target` from 0 by adding 3 or 5, never passing `target`.
#[allow(dead_code)]
pub struct Steps {
    pub target: u32,
}

impl Solitaire for Steps {
    type State = u32;
    type Move = u32;
    type Key = u32;

    fn moves(&self, state: &u32, moves: &mut Vec<u32>) {
        moves.extend([5, 3].into_iter().filter(|step| state + step <= self.target));
    }

    fn play(&self, state: &u32, step: &u32) -> u32 {
        state + step
    }

    fn is_goal(&self, state: &u32) -> bool {
        *state == self.target
    }

    fn key(&self, state: &u32) -> u32 {
        *state
    }
}
