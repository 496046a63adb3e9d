//! The retrograde engine behind the [`Engine`] interface, for analysing and playing loopy games.

use crate::engines::Engine;
use crate::game::Canonicalize;
use crate::hints::SearchHints;
use crate::value::Value;

/// The retrograde engine behind the [`Engine`] interface: the first position asked for is solved strongly (with
/// every position reachable from it), and later questions about those positions are answered from the solution.
pub(super) struct RetrogradeEngine<Key> {
    solver: crate::engines::retrograde::RetrogradeSolver,
    solutions: Vec<crate::engines::retrograde::TierSolution<(), Key>>,
    budget: u64,
}

impl<Key> RetrogradeEngine<Key> {
    pub(super) fn new(budget: u64) -> Self {
        let solver = crate::engines::retrograde::RetrogradeSolver::new().with_budget(budget);
        RetrogradeEngine { solver, solutions: Vec::new(), budget }
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
        // `budget` is the engine's own for `try_value`, and none for `value` (whose contract is to answer).
        let mut solver = crate::engines::retrograde::RetrogradeSolver::new().with_budget(budget);
        let solution = solver.solve(game, position).ok()?;
        let value = solution.value_of_key(&key);
        self.solver = solver;
        self.solutions.push(solution);
        value
    }

    fn budget(&self) -> u64 {
        self.budget
    }
}
