//! Constructive puzzles: the [`Puzzle`], [`Construct`], [`Verify`] and [`Enumerate`] traits.
//!
//! A constructive puzzle asks for any solution of an instance (or a proof that none exists). [`Verify`] judges a
//! proposed solution by the rules and says why it is wrong; [`Construct`] builds one; [`Enumerate`] lists the
//! candidate solutions of a small instance so that [`crate::engines::brute_force`] can serve as an oracle.

use crate::error::Error;
use std::ops::ControlFlow;

/// A rule broken by a proposed solution, in words a person can read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct Violation {
    /// What is wrong.
    pub reason: String,
}

impl Violation {
    /// A violation with this reason.
    pub fn new(reason: impl Into<String>) -> Self {
        Violation { reason: reason.into() }
    }
}

/// A reason in words is a violation (so `?` carries a reader's or a judge's message into one).
impl From<String> for Violation {
    fn from(reason: String) -> Self {
        Violation { reason }
    }
}

impl From<&str> for Violation {
    fn from(reason: &str) -> Self {
        Violation::new(reason)
    }
}

/// The instance and solution types of a constructive puzzle.
pub trait Puzzle {
    /// One instance of the puzzle (for example: rows, columns and mines).
    type Instance;
    /// A proposed solution (for example: a board).
    type Solution: Clone;
}

/// Judges a proposed solution by the rules.
///
/// Contract: `verify` accepts exactly the solutions that satisfy every rule of the puzzle.
pub trait Verify: Puzzle {
    /// `Ok(())` if `solution` solves `instance`, else the first rule it breaks.
    fn verify(&self, instance: &Self::Instance, solution: &Self::Solution) -> Result<(), Violation>;
}

/// Builds a solution.
///
/// Contract: `Ok(Some(s))` implies `verify(instance, s)` accepts; `Ok(None)` means no solution exists.
pub trait Construct: Puzzle {
    /// A solution of `instance`, or `None` when none exists.
    fn construct(&self, instance: &Self::Instance) -> Result<Option<Self::Solution>, Error>;
}

/// Lists the candidate solutions of an instance (for brute force on small instances).
///
/// Contract: every solution of the instance is among the candidates (candidates may break rules; the verifier
/// filters them).
pub trait Enumerate: Verify {
    /// Calls `visit` on each candidate until it returns `ControlFlow::Break`.
    fn candidates(&self, instance: &Self::Instance, visit: &mut dyn FnMut(&Self::Solution) -> ControlFlow<()>);
}
