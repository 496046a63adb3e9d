//! The `connect-four` plugin: its solver table (each solver an engine of the framework over the game's hints),
//! its typed answer, the judge that re-solves each position, and the generator of positions still in play.

use super::board::{Board, ConnectFour};
use super::format::{parse, Parsed, MAX_CASES};
use super::growing_engine;
use super::scorer::{solver_table, Scorer};
use ludus_framework::engines::alpha_beta::{AlphaBeta, LazySmp};
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::input::{shorten, Source};
use ludus_framework::playable::{Parameter, ParameterKind};
use ludus_framework::plugin::driver::option_arguments;
use ludus_framework::plugin::{
    seeded_rng, thread_count, About, CaseBlock, CaseList, Comparison, GenOptions, Kind, Layout, Limit, Parallelism,
    Preset, Problem, Sample, Scope, SeededRng, SolveOptions, Solver, Tables,
};
use ludus_framework::table::{mib, KeyedTable, PackedTable};
use ludus_framework::Rules;
use ludus_framework::{Error, Result, SearchHints, Value, Violation};
use rand::Rng;
use serde::Serialize;

/// The `generic` solver (memoized negamax, exact mode) refuses positions with more empty cells than this
/// unless `--no-limit` is given: without cut-offs its time grows about threefold with each empty cell. Measured
/// (BENCHMARKS.md, "Cost models"): at 22 empty cells at most 2.1 million positions, 1.6 s; so about 5 s at 23 and
/// 15 s at 24.
pub const GENERIC_EMPTY_CELLS_LIMIT: u32 = 22;

/// The `connect-four` plugin: exact scores of Connect Four positions.
#[derive(Clone, Copy, Debug, Default)]
pub struct ConnectFourPlugin;

/// The answer for one position: its moves and score and, for a position just solved (not one read from an
/// answer file), what the score was derived from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScoreAnswer {
    /// The moves as written in the input.
    pub moves: String,
    /// The exact score, or 1, 0 or -1 in a weak solve.
    pub score: i32,
    /// The value found by the engine (`None` when read from a file).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub solved: Option<Solved>,
}

/// What a solve knows beyond the score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Solved {
    /// The value for the player to move (only win, draw or loss in a weak solve).
    pub value: String,
    /// Plies to the end under perfect play (`None` in a weak solve).
    pub remoteness: Option<u32>,
    /// Whether the solve was weak.
    pub weak: bool,
    /// `first`, `second` or `none`.
    pub winner: &'static str,
    /// The board's width.
    pub width: u32,
    /// The board's height.
    pub height: u32,
}

impl std::fmt::Display for ScoreAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.moves, self.score)
    }
}

impl ScoreAnswer {
    pub(super) fn solved(game: &ConnectFour, case: &super::format::Case, value: Value, weak: bool) -> Self {
        let score = if weak {
            match value {
                Value::Win(_) => 1,
                Value::Draw => 0,
                Value::Lose(_) => -1,
            }
        } else {
            game.score(&case.board, value)
        };
        let first_to_move = case.board.stones().is_multiple_of(2);
        let winner = match value {
            Value::Draw => "none",
            Value::Win(_) if first_to_move => "first",
            Value::Lose(_) if !first_to_move => "first",
            _ => "second",
        };
        ScoreAnswer {
            moves: case.moves.clone(),
            score,
            solved: Some(Solved {
                value: if weak { value.outcome().to_string() } else { value.to_string() },
                remoteness: if weak { None } else { value.remoteness() },
                weak,
                winner,
                width: game.width(),
                height: game.height(),
            }),
        }
    }
}

/// The plugin's options: `weak`, win, draw or loss only.
const OPTIONS: &[Parameter] = &[Parameter {
    name: "weak",
    help: "win, draw or loss only (a score of 1, 0 or -1), not how fast: a weak solve, often much faster",
    kind: ParameterKind::Switch { default: false },
}];

/// Whether the solve is weak (the `weak` option).
pub(super) fn weak(options: &SolveOptions) -> Result<bool> {
    option_arguments::<ConnectFourPlugin>(options)?.switch("weak")
}

fn mode(options: &SolveOptions) -> Result<Mode> {
    Ok(if weak(options)? { Mode::Outcome } else { Mode::Exact })
}

/// The fast and generic solvers' default budget: the most positions one case's search may expand when neither
/// `--max-positions` nor `--no-limit` is given. The search stops there, and the case is refused with an
/// [`Error::Limit`] naming both flags; the answers printed before it stand. About two to three minutes at the
/// engine's 5 to 7 million positions a second (one thread), four times the costliest case of the benchmark sets
/// (Begin-Hard's `265`, 252 million positions); the exact solve of the empty 7 x 6 board (775 million) fits,
/// the empty 8 x 7 board's does not. The calibration is in BENCHMARKS.md, "Cost models".
pub const DEFAULT_CASE_POSITIONS: u64 = 1_000_000_000;

/// The positions budget of one case's search (every solver's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CaseBudget {
    /// `--max-positions` given: that many, and past it the engine's own budget error.
    Given(u64),
    /// `--no-limit` given: no budget.
    Unlimited,
    /// Neither: [`DEFAULT_CASE_POSITIONS`], and past it a limit error naming both flags.
    Default(u64),
}

impl CaseBudget {
    /// The positions the engine may expand: one past a default limit, so that a search stopped by it has
    /// really searched more than the limit.
    pub(super) fn engine_budget(self) -> u64 {
        match self {
            CaseBudget::Given(positions) => positions,
            CaseBudget::Unlimited => u64::MAX,
            CaseBudget::Default(limit) => limit.saturating_add(1),
        }
    }

    /// The default limit in force, if it is the default.
    pub(super) fn default_limit(self) -> Option<u64> {
        match self {
            CaseBudget::Default(limit) => Some(limit),
            CaseBudget::Given(_) | CaseBudget::Unlimited => None,
        }
    }
}

pub(super) fn case_budget(options: &SolveOptions) -> CaseBudget {
    match options.max_positions {
        Some(positions) => CaseBudget::Given(positions),
        None if options.no_limit => CaseBudget::Unlimited,
        None => CaseBudget::Default(DEFAULT_CASE_POSITIONS),
    }
}

fn positions(options: &SolveOptions) -> u64 {
    case_budget(options).engine_budget()
}

/// The empty cells of a position the generic engine would search (none if the game is over or a shortcut
/// settles it).
fn searched_cells(input: &Parsed, case: usize) -> u64 {
    let (game, board) = (&input.game, &input.cases[case].board);
    if game.outcome(board).is_some() || game.shortcut(board).is_some() {
        0
    } else {
        u64::from(game.empty_cells(board))
    }
}

impl CaseList for Parsed {
    fn case_count(&self) -> usize {
        self.cases.len()
    }

    fn case_line(&self, case: usize) -> Option<usize> {
        self.cases.get(case).map(|case| case.line)
    }
}

impl Problem for ConnectFourPlugin {
    type Input = Parsed;
    type Answer = ScoreAnswer;
    type Referee = AlphaBeta<PackedTable>;

    const ABOUT: &'static About = &About {
        name: "connect-four",
        kind: Kind::TwoPlayer,
        summary: "Connect Four: the exact score (win speed) of positions given as moves from the empty board",
        sample: Sample {
            input: include_str!("../../../samples/connect-four/sample.in"),
            answer: include_str!("../../../samples/connect-four/sample.ans"),
        },
        comparison: Comparison::Text,
    };

    const SOLVERS: &'static [Solver<Self>] = &[
        Solver {
            name: "fast",
            summary: "alpha-beta, null-window score search, threat hints, a fixed table (--table-mb); any position \
                      (a case past 1,000,000,000 positions, two to three minutes, stops unless --no-limit)",
            limits: &[],
            parallelism: Parallelism::Sequential,
            tables: Tables::PerWorker,
            // Allocated whole: memory stays at the budget (a growing table would briefly hold two sizes at once).
            start: |_, options| {
                let mode = mode(options)?;
                let engine = AlphaBeta::with_table(mode, solver_table(mib(options.table_mb), 1)?)
                    .with_budget(positions(options))
                    .with_progress(options.progress.clone());
                Scorer::start(Box::new(engine), "fast", options)
            },
        },
        Solver {
            name: "parallel",
            summary: "the fast solver on several threads (Lazy SMP over one table, --threads)",
            limits: &[],
            parallelism: Parallelism::WithinCase,
            tables: Tables::PerWorker,
            start: |_, options| {
                let mode = mode(options)?;
                // The threads' own near parts come out of the same budget.
                let table = solver_table(mib(options.table_mb), thread_count(options.threads))?;
                let engine = LazySmp::with_table(mode, options.threads, table)?
                    .with_budget(positions(options))
                    .with_progress(options.progress.clone());
                Scorer::start(Box::new(engine), "parallel", options)
            },
        },
        Solver {
            name: "generic",
            summary: "memoized negamax in exact mode (up to 22 empty cells; --no-limit)",
            limits: &[Limit {
                scope: Scope::Case,
                unit: "empty cells",
                max: GENERIC_EMPTY_CELLS_LIMIT as u64,
                measure: searched_cells,
            }],
            parallelism: Parallelism::Sequential,
            tables: Tables::PerWorker,
            start: |_, options| {
                let engine = MemoNegamax::with_table(mode(options)?, KeyedTable::new(mib(options.table_mb)))
                    .with_budget(positions(options));
                Scorer::start(Box::new(engine), "generic", options)
            },
        },
    ];

    const LAYOUT: Layout = Layout::Lines;
    const OPTIONS: &'static [Parameter] = OPTIONS;

    fn parse_input(&self, input: Source<'_>) -> Result<Parsed> {
        parse(input)
    }

    /// An exact score must be consistent with the position (the game over, a win at once, the stones each
    /// side has left); a weak one has nothing to check.
    fn verify_answer(&self, input: &Parsed, case: usize, answer: &ScoreAnswer) -> Result<(), Violation> {
        match &answer.solved {
            Some(solved) if solved.weak => Ok(()),
            _ => input.game.check_score(&input.cases[case].board, answer.score),
        }
    }

    fn read_answer(&self, _: &Parsed, _: usize, block: &CaseBlock<'_>) -> std::result::Result<ScoreAnswer, Violation> {
        let line = block.text.trim();
        let parts: Vec<&str> = line.split_whitespace().collect();
        let [moves, score] = parts.as_slice() else {
            return Err(format!("expected `MOVES SCORE`, found `{}`", shorten(line)).into());
        };
        let score = score.parse().map_err(|_| {
            format!("expected a score (an integer), found `{}`", ludus_framework::input::shorten(score))
        })?;
        Ok(ScoreAnswer { moves: moves.to_string(), score, solved: None })
    }

    fn referee(&self) -> Result<AlphaBeta<PackedTable>> {
        growing_engine()
    }

    /// Re-solves the position with the fast engine (a growing table of the default budget, kept across cases);
    /// a score claimed in the input is checked too.
    fn judge_answer(
        &self,
        engine: &mut AlphaBeta<PackedTable>,
        input: &Parsed,
        case: usize,
        answer: &ScoreAnswer,
    ) -> std::result::Result<(), Violation> {
        let position = &input.cases[case];
        let expected = input.game.score(&position.board, engine.value(&input.game, &position.board));
        if let Some(claim) = position.claim.filter(|&claim| claim != expected) {
            return Err(format!("the input claims the score {claim}, but the exact score is {expected}").into());
        }
        if answer.moves != position.moves {
            let about =
                format!("the answer is about the moves `{}`, the input about `{}`", answer.moves, position.moves);
            return Err(about.into());
        }
        if answer.score != expected {
            return Err(format!("the score {} is wrong: the exact score is {expected}", answer.score).into());
        }
        Ok(())
    }

    /// A wrong score: the right one moved by a random amount from 1 to 3, up or down.
    fn corrupt_answer(&self, _: &Parsed, _: usize, answer: &ScoreAnswer, rng: &mut SeededRng) -> Option<ScoreAnswer> {
        let delta = rng.gen_range(1..=3) * if rng.gen_bool(0.5) { 1 } else { -1 };
        Some(ScoreAnswer { moves: answer.moves.clone(), score: answer.score + delta, solved: None })
    }

    fn generate_input(&self, options: &GenOptions, seed: u64) -> Result<String> {
        let game = ConnectFour::standard();
        let mut rng = seeded_rng(seed);
        let (default_cases, empty_range) = match options.preset {
            Preset::Small => (10, 2..=10),
            Preset::Official => (1000, 1..=13),
        };
        let cases = options.case_count(default_cases, MAX_CASES)?;
        // `--size` is the number of empty cells: at least one, so that the position is still in play.
        options.checked_size(game.cells() as usize - 1)?;
        let mut out = String::new();
        for _ in 0..cases {
            let empty = match options.size {
                Some(size) => u32::try_from(size).unwrap_or(1),
                None => rng.gen_range(empty_range.clone()),
            };
            out.push_str(&random_moves(&game, game.cells() - empty, &mut rng)?);
            out.push('\n');
        }
        Ok(out)
    }
}

/// A random sequence of `played` moves from the empty board that never makes four in a row (so the position is
/// still being played), as digits.
pub fn random_moves(game: &ConnectFour, played: u32, rng: &mut SeededRng) -> Result<String> {
    for _attempt in 0..1000 {
        let mut board = Board::EMPTY;
        let mut moves = String::new();
        for _ in 0..played {
            let safe: Vec<u32> = (0..game.width())
                .filter(|&column| game.can_play(&board, column) && !game.wins_at_once(&board, column))
                .collect();
            if safe.is_empty() {
                break;
            }
            let Some(&column) = safe.get(rng.gen_range(0..safe.len())) else { break };
            board = game.drop_stone(&board, column);
            moves.push(char::from_digit(column + 1, 10).unwrap_or('?'));
        }
        if board.stones() == played {
            return Ok(moves);
        }
    }
    Err(Error::parameter("size", format!("could not generate a position with {played} moves played without a win")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_flag_chooses_the_budget_and_its_error() {
        let default = SolveOptions::with_solver("fast");
        assert_eq!(case_budget(&default), CaseBudget::Default(DEFAULT_CASE_POSITIONS));
        assert_eq!(positions(&default), DEFAULT_CASE_POSITIONS + 1);
        let unlimited = SolveOptions { no_limit: true, ..default.clone() };
        assert_eq!(positions(&unlimited), u64::MAX);
        let given = SolveOptions { max_positions: Some(500), no_limit: true, ..default.clone() };
        assert_eq!((positions(&given), case_budget(&given).default_limit()), (500, None));
        let given = SolveOptions { max_positions: Some(500), ..default };
        assert_eq!(case_budget(&given), CaseBudget::Given(500));
    }
}
