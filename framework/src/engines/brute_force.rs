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
    let (solutions, stats, _) = search(puzzle, instance, u64::MAX, true);
    (solutions.into_iter().next(), stats)
}

/// [`brute_force`] trying at most `candidates` candidates: past them, [`Error::Budget`] (the space was not
/// exhausted, so neither a solution nor "none exists" is known).
pub fn brute_force_within<Problem: Enumerate>(
    puzzle: &Problem,
    instance: &Problem::Instance,
    candidates: u64,
) -> Result<(Option<Problem::Solution>, Stats)> {
    match search(puzzle, instance, candidates, true) {
        (_, _, true) => Err(Error::Budget(Budget::Positions(candidates))),
        (solutions, stats, false) => Ok((solutions.into_iter().next(), stats)),
    }
}

/// Every candidate of `instance` that `puzzle` verifies, in the space's order, trying at most `candidates`
/// candidates: past them, [`Error::Budget`] (the list would be incomplete). The list is as long as the
/// candidates tried at most, so the budget bounds its memory too.
pub fn all_solutions<Problem: Enumerate>(
    puzzle: &Problem,
    instance: &Problem::Instance,
    candidates: u64,
) -> Result<Vec<Problem::Solution>> {
    match search(puzzle, instance, candidates, false) {
        (_, _, true) => Err(Error::Budget(Budget::Positions(candidates))),
        (solutions, _, false) => Ok(solutions),
    }
}

/// The verified candidates among the first `candidates` (only the first one if `first_only`), the statistics,
/// and whether the budget ran out before the space did.
fn search<Problem: Enumerate>(
    puzzle: &Problem,
    instance: &Problem::Instance,
    candidates: u64,
    first_only: bool,
) -> (Vec<Problem::Solution>, Stats, bool) {
    let mut solutions = Vec::new();
    let mut stats = Stats::default();
    let mut out_of_budget = false;
    puzzle.candidates(instance, &mut |candidate| {
        if stats.visited >= candidates {
            out_of_budget = true;
            return ControlFlow::Break(());
        }
        stats.visited += 1;
        if puzzle.verify(instance, candidate).is_ok() {
            solutions.push(candidate.clone());
            if first_only {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    });
    (solutions, stats, out_of_budget)
}
