//! The brute-force constructor: tries every candidate of an [`Enumerate`] space and keeps the first that the
//! verifier accepts. Exponential; the oracle that exposes false "impossible" answers of clever constructors.

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
