//! The brute-force constructor: tries every candidate of an [`Enumerate`] space and keeps the first that the
//! verifier accepts. Exponential; the oracle that exposes false "impossible" answers of clever constructors.

use crate::error::{Budget, Error, Result};
use crate::puzzle::Enumerate;
use crate::stats::Stats;
use std::ops::ControlFlow;

/// The first candidate solution of `instance` that `puzzle` verifies, or `None` if no candidate does, with
/// statistics (`visited` = candidates tried).
pub fn brute_force<Problem: Enumerate>(
    puzzle: &Problem,
    instance: &Problem::Instance,
) -> (Option<Problem::Solution>, Stats) {
    let mut found = None;
    let mut stats = Stats::default();
    puzzle.candidates(instance, &mut |candidate| {
        stats.visited += 1;
        if puzzle.verify(instance, candidate).is_ok() {
            found = Some(candidate.clone());
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    (found, stats)
}

/// [`brute_force`] trying at most `candidates` candidates: past them, [`Error::Budget`] (the space was not
/// exhausted, so neither a solution nor "none exists" is known).
pub fn brute_force_within<Problem: Enumerate>(
    puzzle: &Problem,
    instance: &Problem::Instance,
    candidates: u64,
) -> Result<(Option<Problem::Solution>, Stats)> {
    let mut found = None;
    let mut stats = Stats::default();
    let mut exhausted_budget = false;
    puzzle.candidates(instance, &mut |candidate| {
        if stats.visited >= candidates {
            exhausted_budget = true;
            return ControlFlow::Break(());
        }
        stats.visited += 1;
        if puzzle.verify(instance, candidate).is_ok() {
            found = Some(candidate.clone());
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    if exhausted_budget {
        return Err(Error::Budget(Budget::Positions(candidates)));
    }
    Ok((found, stats))
}
