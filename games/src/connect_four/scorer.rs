//! Connect Four's solvers at work: the table they search over, one engine whose table serves every position of
//! an input, and the error of a case past the default budget.

use super::board::ConnectFour;
use super::format::Parsed;
use super::plugin::{case_budget, weak, ConnectFourPlugin, ScoreAnswer};
use ludus_framework::engines::Engine;
use ludus_framework::plugin::{SolveOptions, Worker};
use ludus_framework::table::PackedTable;
use ludus_framework::{Budget, Error, Remedy, Result, Setting, Stats, Value};
use std::convert::Infallible;

/// The engine of a solver, boxed.
pub(super) type BoxedEngine = Box<dyn Engine<ConnectFour, Value = Value, Failure = Infallible> + Send>;

/// The table of Connect Four's fast and parallel solvers, `bytes` in all for a search on `threads` threads
/// ([`PackedTable::with_budget_for_threads`]): its near part has wide tags ([`PackedTable::with_wide_near`]),
/// so that it holds the keys of every board of up to 56 key bits (`W * (H + 1)`; 9 x 5's reach `2^54`, past
/// the standard near part's `2^48`); its 11-bit bound codes keep every remoteness of a board of at most 64
/// cells exact. On 9 x 5 this took a quarter off the solving time of the openings sets, on 7 x 6 it changed
/// little (BENCHMARKS.md).
pub fn solver_table(bytes: usize, threads: usize) -> Result<PackedTable> {
    PackedTable::with_budget_for_threads(bytes, threads)?.with_wide_near()
}

/// A solver at work: one engine whose table serves every position of the input.
pub(super) struct Scorer {
    engine: BoxedEngine,
    weak: bool,
    /// The solver's name, for the error of a case past the default budget.
    solver: &'static str,
    /// The default per-case budget in force (`None` when `--max-positions` or `--no-limit` was given).
    default_budget: Option<u64>,
}

impl Scorer {
    /// A worker over `engine`.
    pub(super) fn start(
        engine: BoxedEngine,
        solver: &'static str,
        options: &SolveOptions,
    ) -> Result<Box<dyn Worker<ConnectFourPlugin>>> {
        let default_budget = case_budget(options).default_limit();
        Ok(Box::new(Scorer { engine, weak: weak(options)?, solver, default_budget }))
    }
}

impl Worker<ConnectFourPlugin> for Scorer {
    fn solve(&mut self, _: &ConnectFourPlugin, input: &Parsed, case: usize) -> Result<ScoreAnswer> {
        let position = &input.cases[case];
        let value = self.engine.try_value(&input.game, &position.board).map_err(|error| match error {
            Error::Budget(Budget::Positions(searched)) => match self.default_budget {
                Some(limit) => past_default_budget(self.solver, searched, limit),
                None => Error::Budget(Budget::Positions(searched)),
            },
            error => error,
        })?;
        Ok(ScoreAnswer::solved(&input.game, position, value, self.weak))
    }

    fn stats(&self) -> Stats {
        self.engine.stats()
    }
}

/// The error of a case whose search passed the default budget of `limit` positions (the engine stopped after
/// `searched`, one more than the limit): the limit, and the flags that lift it.
fn past_default_budget(solver: &str, searched: u64, limit: u64) -> Error {
    Error::limit_lifted(
        format!("the positions searched for solver `{solver}`"),
        searched,
        limit,
        vec![Remedy::Set(Setting::NoLimit), Remedy::Set(Setting::MaxPositions)],
    )
}

#[cfg(test)]
mod tests {
    use super::super::format::parse;
    use super::super::plugin::CaseBudget;
    use super::*;
    use ludus_framework::engines::alpha_beta::AlphaBeta;
    use ludus_framework::engines::Mode;
    use ludus_framework::input::Source;
    use ludus_framework::table::{mib, Bounds, UnboundedTable};
    use ludus_framework::Canonicalize;

    /// A scorer as the fast solver starts it by default, with a default budget of `limit` positions (the real
    /// default takes minutes to reach).
    fn scorer_with_default(limit: u64) -> Scorer {
        let budget = CaseBudget::Default(limit);
        let table = solver_table(mib(8), 1).unwrap();
        let engine = Box::new(AlphaBeta::with_table(Mode::Exact, table).with_budget(budget.engine_budget()));
        Scorer { engine, weak: false, solver: "fast", default_budget: budget.default_limit() }
    }

    #[test]
    fn a_nine_by_five_input_is_scored_over_the_wide_near_part() {
        // 9 x 5 keys with stones in both outer columns pass the standard near part's tags; the solver's table
        // holds them near, and scores as alpha-beta over a table that never forgets does.
        let mut scorer = scorer_with_default(u64::MAX - 1);
        let input = parse(Source::new("in", "size 9 5\n19556456465564\n")).unwrap();
        let answer = scorer.solve(&ConnectFourPlugin, &input, 0).unwrap();
        let mut reference = AlphaBeta::with_table(Mode::Exact, UnboundedTable::new());
        let expected = reference.value(&input.game, &input.cases[0].board);
        assert_eq!(answer, ScoreAnswer::solved(&input.game, &input.cases[0], expected, false));
        let table = solver_table(mib(8), 1).unwrap();
        let key = input.game.canonical(&input.cases[0].board);
        assert!(key >= 1 << 48, "{key}");
        table.store_near(&key, Bounds::exact(0), 1);
        assert_eq!((table.occupied_near(), table.probe_near(&key)), (1, Some(Bounds::exact(0))));
    }

    #[test]
    fn a_case_past_the_default_budget_stops_there_with_a_limit_naming_both_flags() {
        let input = parse(Source::new("in", "-\n44\n")).unwrap();
        let mut scorer = scorer_with_default(10_000);
        let error = scorer.solve(&ConnectFourPlugin, &input, 0).unwrap_err();
        assert!(matches!(error, Error::Limit { got: 10_001, limit: 10_000, .. }), "{error:?}");
        let message = error.to_string();
        assert!(message.contains("solver `fast`"), "{message}");
        let remedies = error.remedies();
        assert!(remedies.contains(&Remedy::Set(Setting::NoLimit)), "{remedies:?}");
        assert!(remedies.contains(&Remedy::Set(Setting::MaxPositions)), "{remedies:?}");
        // Promptly: the search stopped at the budget, not at the end of the search.
        assert_eq!(scorer.stats().visited, 10_001);
    }
}
