//! Pig, the dice game analysed by Neller and Presser ("Optimal Play of the Dice Game Pig", 2004), as a scored
//! game with chance whose positions repeat (a turn that ends on a 1 gives the scores back to the other player
//! unchanged), for value iteration ([`ludus_framework::engines::scored::ValueIteration`]).
//!
//! ## The rules implemented
//! - Two players, one die, a goal (100 in the classic game). At the start of a turn the turn total is 0.
//! - The player to move rolls (`roll`) or, once his turn total is above 0, holds (`hold`): the turn total is
//!   added to his score and the turn passes. (Holding at 0 would only pass the turn, never better than rolling,
//!   and would let both players pass forever.)
//! - A roll of 1 ends the turn with nothing added; a roll of 2 to 6 adds to the turn total.
//! - The first player whose score and turn total reach the goal wins at once (Neller and Presser's `P(i, j, k)
//!   = 1` when `i + k >= goal`: holding then wins, so the game is over).
//! - The value is the probability that the player to move wins; as a score, a win is 1 and a loss -1, so the
//!   expected score `v` is the probability `(1 + v) / 2` ([`ludus_framework::scored::ScoreKind::WinLoss`]).
//!
//! A state is `(i, j, k)`: the mover's score, the other's, the turn total, and after `roll` the die in the air
//! (a chance node whose outcomes `1` to `6` have weight 1 each). Keys are the state from the mover's side.
//! `policy.rs` reads the optimal hold rule from the solved values; `board.rs` is the explorer's panel.

mod board;
mod policy;
mod rules;
mod text;

pub use policy::HoldRule;
pub use rules::{PigMove, PigState};

use ludus_framework::{Error, Result};

/// The largest goal (so that a key fits and the states stay within memory: about `goal^3` of them).
pub const MAX_GOAL: u32 = 200;

/// Pig to a goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pig {
    goal: u32,
}

impl Pig {
    /// Pig to `goal` (1 to [`MAX_GOAL`]).
    pub fn new(goal: u32) -> Result<Pig> {
        if !(1..=MAX_GOAL).contains(&goal) {
            return Err(Error::parameter("goal", format!("pig: the goal is 1 to {MAX_GOAL}, not {goal}")));
        }
        Ok(Pig { goal })
    }

    /// The goal.
    pub fn goal(&self) -> u32 {
        self.goal
    }
}
