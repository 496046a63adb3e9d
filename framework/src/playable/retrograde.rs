//! The retrograde engine behind the [`Engine`] interface, for analysing and playing loopy games.

use crate::engines::Engine;
use crate::error::{Budget, Error};
use crate::game::Canonicalize;
use crate::hints::SearchHints;
use crate::value::Value;

/// The retrograde engine behind the [`Engine`] interface: the first position asked for is solved strongly (with
/// every position reachable from it), and later questions about those positions are answered from the solution.
/// Every solve holds at most as many positions as the memory budget allows.
pub(super) struct RetrogradeEngine<Key> {
    solver: crate::engines::retrograde::RetrogradeSolver,
    solutions: Vec<crate::engines::retrograde::TierSolution<(), Key>>,
    /// The most positions a search may expand (`--max-positions`).
    budget: u64,
    /// The memory budget, in MiB (`--memory-mb`), and the positions it holds.
    memory_mb: usize,
    memory_positions: u64,
    /// The first failure of a solve, kept for [`Engine::take_failure`].
    failure: Option<Error>,
}

impl<Key> RetrogradeEngine<Key> {
    /// An engine that expands at most `max_positions` positions a search and holds at most `memory_mb` MiB, at
    /// `bytes_per_position` a position.
    pub(super) fn new(max_positions: u64, memory_mb: usize, bytes_per_position: u64) -> Self {
        let memory_bytes = (memory_mb as u64).saturating_mul(1 << 20);
        let memory_positions = memory_bytes / bytes_per_position.max(1);
        let solver = crate::engines::retrograde::RetrogradeSolver::new().with_budget(max_positions);
        RetrogradeEngine {
            solver,
            solutions: Vec::new(),
            budget: max_positions,
            memory_mb,
            memory_positions,
            failure: None,
        }
    }
}

impl<Key> crate::engines::Statistics for RetrogradeEngine<Key> {
    fn stats(&self) -> crate::stats::Stats {
        self.solver.stats()
    }
}

impl<Rules> Engine<Rules> for RetrogradeEngine<Rules::Key>
where
    Rules: Canonicalize + SearchHints + Sync,
    Rules::Position: Send + Sync,
    Rules::Key: Send + Sync,
{
    fn search_within(&mut self, game: &Rules, position: &Rules::Position, budget: u64) -> Option<Value> {
        let key = game.canonical(position);
        if let Some(value) = self.solutions.iter().find_map(|solution| solution.value_of_key(&key)) {
            return Some(value);
        }
        // `budget` is the engine's own for `try_value`, and none for `value` (whose contract is to answer);
        // the memory budget bounds both.
        let limit = budget.min(self.memory_positions);
        let mut solver = crate::engines::retrograde::RetrogradeSolver::new().with_budget(limit);
        match solver.solve(game, position) {
            Ok(solution) => {
                let value = solution.value_of_key(&key);
                self.solver = solver;
                self.solutions.push(solution);
                value
            }
            Err(error) => {
                // Past the positions that the memory holds: the memory budget is the one to raise.
                let error = match error {
                    Error::Budget(Budget::Positions(_)) if limit < budget => {
                        Error::Budget(Budget::MemoryMb(self.memory_mb))
                    }
                    // Past the search's own budget: `try_value` reports it from the missing value.
                    Error::Budget(Budget::Positions(_)) => return None,
                    other => other,
                };
                self.failure.get_or_insert(error);
                None
            }
        }
    }

    fn budget(&self) -> u64 {
        self.budget
    }

    fn take_failure(&mut self) -> Option<Error> {
        self.failure.take()
    }
}
