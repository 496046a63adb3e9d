//! Hog, Pig's one-roll cousin (Neller and Presser's "Pig, Hog and Piglet" family; taught as a project in
//! Berkeley's CS 61A): each turn the player chooses how many dice to roll at once, and scores their sum, or 1 if
//! any die shows a 1. Scores only go up, so positions never repeat: a stochastic game for expectimax
//! ([`ludus_framework::engines::scored::Expectimax`]).
//!
//! ## The rules implemented
//! - Two players, a goal (parameter `goal`, 100 by default) and at most `dice` dice a roll (10 by default).
//! - The player to move chooses `d`, 1 to `dice`, and rolls `d` dice at once (a chance node): if any die shows
//!   1 he scores 1 ("pig out"), else the sum of the dice. Then the turn passes.
//! - The first player to reach the goal wins; the value is the probability that the player to move wins (a win
//!   scores 1, a loss -1, as in Pig).
//!
//! A chance node's outcomes are the points scored, each weighted by the number of the `6^d` sequences of dice
//! that give it (so the probabilities are exact). Moves are written `roll D`; outcomes as the points, `+7`.
//! `board.rs` is the explorer's panel (the scores, the goal, the dice rolling).

mod board;
mod rules;
mod text;

pub use rules::{HogMove, HogState};

use ludus_framework::{Error, Result};

/// The largest goal.
pub const MAX_GOAL: u32 = 1000;
/// The most dice a roll (`6^20 < 2^53`, so that weights are exact in a double).
pub const MAX_DICE: u32 = 20;

/// Hog to a goal with at most `dice` dice a roll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hog {
    goal: u32,
    dice: u32,
    /// Per number of dice `d` (index `d - 1`), the points a roll scores with their weights (out of `6^d`).
    outcomes: Vec<Vec<(u32, u64)>>,
}

impl Hog {
    /// Hog to `goal` (1 to [`MAX_GOAL`]) with 1 to [`MAX_DICE`] dice a roll.
    pub fn new(goal: u32, dice: u32) -> Result<Hog> {
        if !(1..=MAX_GOAL).contains(&goal) || !(1..=MAX_DICE).contains(&dice) {
            return Err(Error::parameter(
                "hog",
                format!("hog: a goal of 1 to {MAX_GOAL} and 1 to {MAX_DICE} dice, not {goal} and {dice}"),
            ));
        }
        let outcomes = (1..=dice).map(rules::roll_outcomes).collect();
        Ok(Hog { goal, dice, outcomes })
    }

    /// The goal.
    pub fn goal(&self) -> u32 {
        self.goal
    }

    /// The most dice a roll.
    pub fn dice(&self) -> u32 {
        self.dice
    }
}
