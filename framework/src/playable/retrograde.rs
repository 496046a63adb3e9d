//! The retrograde engine behind the [`Engine`] interface, for analysing and playing loopy games.

use crate::engines::alpha_beta::ProgressHandle;
use crate::engines::{Engine, Stop};
use crate::error::{Budget, Error};
use crate::game::Canonicalize;
use crate::game::Game;
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
    /// Where a solve shows its steps to a watcher on another thread (the CLI's progress line).
    line: Option<ProgressHandle>,
}

impl<Key> RetrogradeEngine<Key> {
    /// An engine that expands at most `max_positions` positions a search and holds at most `memory_mb` MiB, at
    /// `bytes_per_position` a position, showing its solves in `line` (none: `None`).
    pub(super) fn new(
        max_positions: u64,
        memory_mb: usize,
        bytes_per_position: u64,
        line: Option<ProgressHandle>,
    ) -> Self {
        let memory_bytes = (memory_mb as u64).saturating_mul(1 << 20);
        let memory_positions = memory_bytes / bytes_per_position.max(1);
        let solver = crate::engines::retrograde::RetrogradeSolver::new().with_budget(max_positions);
        RetrogradeEngine { solver, solutions: Vec::new(), budget: max_positions, memory_mb, memory_positions, line }
    }
}

impl<Key> crate::engines::Statistics for RetrogradeEngine<Key> {
    fn stats(&self) -> crate::stats::Stats {
        self.solver.stats()
    }
}

impl<Ruleset> Engine<Ruleset> for RetrogradeEngine<Ruleset::Key>
where
    Ruleset: Game + Canonicalize + SearchHints + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: Send + Sync,
{
    type Value = Value;
    type Failure = Error;

    fn search_within(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        budget: u64,
    ) -> Result<Value, Stop<Error>> {
        let key = game.canonical(position);
        if let Some(value) = self.solutions.iter().find_map(|solution| solution.value_of_key(&key)) {
            return Ok(value);
        }
        // `budget` is the engine's own for `try_value`, and none for `search`; the memory budget bounds both.
        let limit = budget.min(self.memory_positions);
        let mut solver = crate::engines::retrograde::RetrogradeSolver::new()
            .with_budget(limit)
            .with_progress_line(self.line.clone());
        match solver.solve(game, position) {
            Ok(solution) => {
                let value = solution.value_of_key(&key);
                self.solver = solver;
                self.solutions.push(solution);
                // A solve from `position` holds it: a missing value would be a bug of the solver.
                value.ok_or_else(|| {
                    Stop::Failure(Error::internal("playable", "a retrograde solve without its own start position"))
                })
            }
            // Stopped by the caller (`SearchProgress::request_stop`): as the search's own budget.
            Err(Error::Budget(Budget::Positions(_)))
                if self.line.as_ref().is_some_and(|line| line.0.stop_requested()) =>
            {
                Err(Stop::Budget)
            }
            // Past the positions that the memory holds: the memory budget is the one to raise.
            Err(Error::Budget(Budget::Positions(_))) if limit < budget => {
                Err(Stop::Failure(Error::Budget(Budget::MemoryMb(self.memory_mb))))
            }
            // Past the search's own budget.
            Err(Error::Budget(Budget::Positions(_))) => Err(Stop::Budget),
            Err(other) => Err(Stop::Failure(other)),
        }
    }

    fn budget(&self) -> u64 {
        self.budget
    }
}
