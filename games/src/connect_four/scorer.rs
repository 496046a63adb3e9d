//! Connect Four's solvers at work: one engine whose table serves every position of an input, made again when
//! the input's board calls for another policy on near keys (see [`NearOverflow`]), and the error of a case
//! past the default budget.

use super::board::ConnectFour;
use super::format::Parsed;
use super::plugin::{case_budget, weak, ConnectFourPlugin, ScoreAnswer};
use ludus_framework::engines::Engine;
use ludus_framework::plugin::{SolveOptions, Worker};
use ludus_framework::table::NearOverflow;
use ludus_framework::{Budget, Error, Result, Stats};
use std::convert::Infallible;

/// The engine of a solver, boxed.
pub(super) type BoxedEngine = Box<dyn Engine<ConnectFour, Failure = Infallible> + Send>;

/// How a solver makes its engine, for the table's policy on near keys past the near part's tags.
pub(super) type BuildEngine = Box<dyn Fn(NearOverflow) -> Result<BoxedEngine> + Send>;

/// A solver at work: one engine whose table serves every position of the input.
pub(super) struct Scorer {
    /// `None` only after making it again failed.
    engine: Option<BoxedEngine>,
    /// The policy its table was made with, and how to make it with another.
    overflow: NearOverflow,
    build: BuildEngine,
    weak: bool,
    /// The solver's name, for the error of a case past the default budget.
    solver: &'static str,
    /// The default per-case budget in force (`None` when `--max-positions` or `--no-limit` was given).
    default_budget: Option<u64>,
}

impl Scorer {
    /// A worker over the engine `build` makes, for the standard board's policy at first (so that a table the
    /// budget cannot give fails at the start).
    pub(super) fn start(
        build: BuildEngine,
        solver: &'static str,
        options: &SolveOptions,
    ) -> Result<Box<dyn Worker<ConnectFourPlugin>>> {
        let default_budget = case_budget(options).default_limit();
        let overflow = NearOverflow::Unstored;
        let engine = Some(build(overflow)?);
        Ok(Box::new(Scorer { engine, overflow, build, weak: weak(options)?, solver, default_budget }))
    }
}

/// The table's policy for near keys past the near part's tags on `game`'s board: on 7 x 6 (keys below 2^49)
/// they are positions with both outer columns full, cheap enough to leave unstored; on larger boards (9 x 5:
/// keys below 2^54) they are most positions with stones in both outer columns, whose near entries go far
/// (BENCHMARKS.md, issue 22's seventh session). Boards of at most 48 key bits have none.
fn overflow_for(game: &ConnectFour) -> NearOverflow {
    if game.width() * (game.height() + 1) <= 49 {
        NearOverflow::Unstored
    } else {
        NearOverflow::Far
    }
}

impl Worker<ConnectFourPlugin> for Scorer {
    fn solve(&mut self, _: &ConnectFourPlugin, input: &Parsed, case: usize) -> Result<ScoreAnswer> {
        let overflow = overflow_for(&input.game);
        let engine = match &mut self.engine {
            Some(engine) if self.overflow == overflow => engine,
            slot => {
                // The old table goes before the new one is made: memory stays within the budget.
                *slot = None;
                self.overflow = overflow;
                slot.insert((self.build)(overflow)?)
            }
        };
        let position = &input.cases[case];
        let value = engine.try_value(&input.game, &position.board).map_err(|error| match error {
            Error::Budget(Budget::Positions(searched)) => match self.default_budget {
                Some(limit) => past_default_budget(self.solver, searched, limit),
                None => Error::Budget(Budget::Positions(searched)),
            },
            error => error,
        })?;
        Ok(ScoreAnswer::solved(&input.game, position, value, self.weak))
    }

    fn stats(&self) -> Stats {
        self.engine.as_ref().map(|engine| engine.stats()).unwrap_or_default()
    }
}

/// The error of a case whose search passed the default budget of `limit` positions (the engine stopped after
/// `searched`, one more than the limit): the limit, and the flags that lift it.
fn past_default_budget(solver: &str, searched: u64, limit: u64) -> Error {
    Error::limit_with_hint(
        format!("the positions searched for solver `{solver}`"),
        searched,
        limit,
        "pass --no-limit to run it anyway, or set another budget with --max-positions",
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
    use ludus_framework::table::{mib, PackedTable, UnboundedTable};

    /// A scorer as the fast solver starts it by default, with a default budget of `limit` positions (the real
    /// default takes minutes to reach).
    fn scorer_with_default(limit: u64) -> Scorer {
        let budget = CaseBudget::Default(limit);
        let build = move |overflow| -> Result<BoxedEngine> {
            let table = PackedTable::with_budget(mib(8))?.with_overflow(overflow);
            Ok(Box::new(AlphaBeta::with_table(Mode::Exact, table).with_budget(budget.engine_budget())))
        };
        let (overflow, build): (_, BuildEngine) = (NearOverflow::Unstored, Box::new(build));
        let engine = Some(build(overflow).unwrap());
        Scorer { engine, overflow, build, weak: false, solver: "fast", default_budget: budget.default_limit() }
    }

    #[test]
    fn boards_whose_keys_pass_the_near_part_keep_their_near_entries_far() {
        assert_eq!(overflow_for(&ConnectFour::standard()), NearOverflow::Unstored);
        assert_eq!(overflow_for(&ConnectFour::new(8, 5).unwrap()), NearOverflow::Unstored);
        assert_eq!(overflow_for(&ConnectFour::new(9, 5).unwrap()), NearOverflow::Far);
        // The scorer makes its engine again for a 9 x 5 input and scores it as alpha-beta over a table that
        // never forgets does; then again for the standard board.
        let mut scorer = scorer_with_default(u64::MAX - 1);
        let input = parse(Source::new("in", "size 9 5\n556456465564\n")).unwrap();
        let answer = scorer.solve(&ConnectFourPlugin, &input, 0).unwrap();
        assert_eq!(scorer.overflow, NearOverflow::Far);
        let mut reference = AlphaBeta::with_table(Mode::Exact, UnboundedTable::new());
        let expected = reference.value(&input.game, &input.cases[0].board);
        assert_eq!(answer, ScoreAnswer::solved(&input.game, &input.cases[0], expected, false));
        let standard = parse(Source::new("in", "4444\n")).unwrap();
        scorer.solve(&ConnectFourPlugin, &standard, 0).unwrap();
        assert_eq!(scorer.overflow, NearOverflow::Unstored);
    }

    #[test]
    fn a_case_past_the_default_budget_stops_there_with_a_limit_naming_both_flags() {
        let input = parse(Source::new("in", "-\n44\n")).unwrap();
        let mut scorer = scorer_with_default(10_000);
        let error = scorer.solve(&ConnectFourPlugin, &input, 0).unwrap_err();
        assert!(matches!(error, Error::Limit { got: 10_001, limit: 10_000, .. }), "{error:?}");
        let message = error.to_string();
        assert!(message.contains("solver `fast`"), "{message}");
        assert!(message.contains("--no-limit") && message.contains("--max-positions"), "{message}");
        // Promptly: the search stopped at the budget, not at the end of the search.
        assert_eq!(scorer.stats().visited, 10_001);
    }
}
