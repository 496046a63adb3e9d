//! Connect Four on a `W x H` board with `W * (H + 1) <= 64` (bitboards), canonicalized under the mirror
//! symmetry, and the `connect-four` plugin that gives the exact score of positions.
//!
//! ## The game
//! `board.rs`: [`ConnectFour`] implements [`Game`] (a move is a 0-based column) and
//! [`ludus_framework::Canonicalize`] (key: the smaller of the position's and its mirror image's encodings).
//! `hints.rs`: its [`SearchHints`] (exact shortcuts, the value range, pruning to the moves that lose nothing,
//! threats and centre first); the search itself is the framework's.
//!
//! ## The plugin's format
//! `format.rs`. Input: one position per line, `MOVES` or `MOVES SCORE`: the columns played from the empty board
//! (digits 1..W, first player first; `-` for the empty board itself) and optionally a claimed score. An optional first line `size W H` sets the
//! board (default 7 x 6; `W` at most 9, since a column is one digit). Output: one line `MOVES SCORE` per position
//! (no `Case #x:`), with the exact score of `samples/README.md`: 0 for a draw under perfect play; if a player
//! wins, `C` minus the number of stones the winner has placed when the winning line is made, where
//! `C = W*H/2 + 1` for an even number of cells (22 on 7 x 6); positive if the player to move wins, negative if the
//! opponent does. For an odd number of cells `C = (W*H + 1)/2 + 1`, as in Pascal Pons' solver, so that a win on
//! the last cell still scores 1 (and never 0, the draw). The score is derived from the engine's exact
//! remoteness. With `weak` (`--weak`) the score is only 1, 0 or -1: win, draw or loss for the player to move.
//!
//! `judge` re-solves each position with the fast solver and checks the answer's moves and score; a claimed
//! score in the input is checked too (a wrong claim rejects that case).
//!
//! Solvers: `fast` (the framework's [`AlphaBeta`] with its null-window score search over a [`PackedTable`] of
//! `table_mb` MiB; any position, the empty board included), `parallel` (the same on several threads:
//! [`LazySmp`]) and `generic` ([`MemoNegamax`] in exact mode, up to [`GENERIC_EMPTY_CELLS_LIMIT`] empty cells
//! unless `no_limit`). `max_positions` bounds the positions any of them searches per case.
//!
//! `generate` makes random 7 x 6 positions still in play (no four in a row yet): `Preset::Small` leaves 2 to 10
//! empty cells (both solvers finish at once), `Preset::Official` 1 to 13 like End-Easy (29 to 41 moves played);
//! `size` sets the number of empty cells.

mod board;
mod format;
mod hints;

pub use board::{Board, ConnectFour, IllegalMove, DEFAULT_HEIGHT, DEFAULT_WIDTH};
pub use format::{EMPTY_BOARD, MAX_CASES};

use format::{judge_line, parse, Case};
use ludus_framework::engines::alpha_beta::{AlphaBeta, LazySmp};
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::input::Source;
use ludus_framework::plugin::{
    seeded_rng, self_check, About, CaseAnswer, CaseVerdict, Comparison, GenOptions, Kind, Plugin, Preset, Progress,
    Sample, SeededRng, SolveOptions, SolverInfo,
};
use ludus_framework::table::{mib, KeyedTable, PackedTable, DEFAULT_TABLE_MB};
use ludus_framework::{Error, Game, Result, SearchHints, Value};
use rand::Rng;

/// The `generic` solver (memoized negamax, exact mode) refuses positions with more empty cells than this
/// unless `SolveOptions::no_limit` is set: without cut-offs its time grows too fast past it.
pub const GENERIC_EMPTY_CELLS_LIMIT: u32 = 16;

/// The engine of a solver, for `options` (table budget, weak or exact, threads).
fn engine(solver: &str, options: &SolveOptions) -> Result<Box<dyn Engine<ConnectFour>>> {
    let mode = if options.weak { Mode::Outcome } else { Mode::Exact };
    let memory = mib(options.table_mb);
    let positions = options.max_positions.unwrap_or(u64::MAX);
    Ok(match solver {
        "generic" => Box::new(MemoNegamax::with_table(mode, KeyedTable::new(memory)).with_budget(positions)),
        "parallel" => {
            let table = PackedTable::with_budget(memory)?;
            Box::new(LazySmp::with_table(mode, options.threads, table)?.with_budget(positions))
        }
        // Allocated whole: memory stays at the budget (a growing table would briefly hold two sizes at once).
        _ => Box::new(AlphaBeta::with_table(mode, PackedTable::with_budget(memory)?).with_budget(positions)),
    })
}

/// The fast engine in exact mode over a table of the default budget that grows as it fills (a judge or a
/// library call often needs little of it; growing briefly holds two sizes of the table at once).
fn growing_engine() -> Result<AlphaBeta<PackedTable>> {
    Ok(AlphaBeta::with_table(Mode::Exact, PackedTable::new(mib(DEFAULT_TABLE_MB))?))
}

/// The exact value of `board` by the fast engine (alpha-beta with the game's hints and a table of the default
/// budget), for the library API.
pub fn exact_value(game: &ConnectFour, board: &Board) -> Result<Value> {
    Ok(growing_engine()?.value(game, board))
}

/// The exact score of `board` (see the module doc), for the library API.
pub fn exact_score(game: &ConnectFour, board: &Board) -> Result<i32> {
    Ok(game.score(board, exact_value(game, board)?))
}

/// Refuses a position with more than `limit` empty cells unless the game is over or decided by a shortcut.
fn check_limit(game: &ConnectFour, board: &Board, index: usize, solver: &str, limit: u32) -> Result<()> {
    let empty = game.empty_cells(board);
    let settled = game.outcome(board).is_some() || game.shortcut(board).is_some();
    if empty > limit && !settled {
        return Err(Error::limit_with_hint(
            format!("the number of empty cells in case {} for the `{solver}` solver", index + 1),
            u64::from(empty),
            u64::from(limit),
            "pass --no-limit to search anyway, or use the `fast` solver",
        ));
    }
    Ok(())
}

const SOLVERS: &[SolverInfo] = &[
    SolverInfo {
        name: "fast",
        summary: "alpha-beta, null-window score search, threat hints, a fixed table (--table-mb); any position",
    },
    SolverInfo { name: "parallel", summary: "the fast solver on several threads (Lazy SMP over one table, --threads)" },
    SolverInfo { name: "generic", summary: "memoized negamax in exact mode (up to 16 empty cells; --no-limit)" },
];

/// The score printed for a value: the exact score, or in a weak solve 1, 0 or -1 (win, draw, loss).
fn printed_score(game: &ConnectFour, board: &Board, value: Value, weak: bool) -> i32 {
    if !weak {
        return game.score(board, value);
    }
    match value {
        Value::Win(_) => 1,
        Value::Draw => 0,
        Value::Lose(_) => -1,
    }
}

/// The `connect-four` plugin: exact scores of Connect Four positions.
#[derive(Clone, Copy, Debug, Default)]
pub struct ConnectFourPlugin;

impl ConnectFourPlugin {
    fn answer(game: &ConnectFour, case: &Case, value: Value, score: i32, weak: bool) -> CaseAnswer {
        let winner = match value {
            Value::Draw => "none",
            Value::Win(_) if case.board.stones().is_multiple_of(2) => "first",
            Value::Lose(_) if case.board.stones() % 2 == 1 => "first",
            _ => "second",
        };
        CaseAnswer::exact(
            format!("{} {score}", case.moves),
            serde_json::json!({
                "moves": case.moves,
                "score": score,
                "value": if weak { value.outcome().to_string() } else { value.to_string() },
                "remoteness": if weak { None } else { value.remoteness() },
                "weak": weak,
                "winner": winner,
                "width": game.width(),
                "height": game.height(),
            }),
        )
    }
}

/// What the CLI shows of this plugin, and its bundled sample.
static ABOUT: About = About {
    name: "connect-four",
    kind: Kind::TwoPlayer,
    summary: "Connect Four: the exact score (win speed) of positions given as moves from the empty board",
    solvers: SOLVERS,
    sample: Sample {
        input: include_str!("../../../samples/connect-four/sample.in"),
        answer: include_str!("../../../samples/connect-four/sample.ans"),
    },
    comparison: Comparison::Text,
};

impl Plugin for ConnectFourPlugin {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn solve(&self, input: Source<'_>, options: &SolveOptions, progress: &dyn Progress) -> Result<Vec<CaseAnswer>> {
        let solver = self.solver(&options.solver)?;
        let parsed = parse(input)?;
        let game = parsed.game;
        let mut engine = engine(solver.name, options)?;
        progress.start(parsed.cases.len() as u64);
        let mut answers = Vec::with_capacity(parsed.cases.len());
        for (index, case) in parsed.cases.iter().enumerate() {
            if solver.name == "generic" && !options.no_limit {
                check_limit(&game, &case.board, index, solver.name, GENERIC_EMPTY_CELLS_LIMIT)?;
            }
            let value = engine.try_value(&game, &case.board).map_err(|error| match error {
                Error::SearchLimit(visited) => Error::limit_with_hint(
                    format!("the positions searched in case {}", index + 1),
                    visited,
                    options.max_positions.unwrap_or(u64::MAX),
                    "raise --max-positions",
                ),
                other => other,
            })?;
            let score = printed_score(&game, &case.board, value, options.weak);
            if !options.weak {
                self_check(index + 1, game.check_score(&case.board, score))?;
            }
            answers.push(Self::answer(&game, case, value, score, options.weak));
            progress.advance(1);
        }
        progress.record(&engine.stats());
        Ok(answers)
    }

    /// Re-solves every position with the fast engine (a growing table of the default budget) and compares scores.
    fn judge(&self, input: Source<'_>, output: Source<'_>) -> Result<Vec<CaseVerdict>> {
        let parsed = parse(input)?;
        let lines: Vec<&str> = output.text.lines().map(str::trim).filter(|line| !line.is_empty()).collect();
        let mut engine = growing_engine()?;
        let mut verdicts: Vec<CaseVerdict> = parsed
            .cases
            .iter()
            .enumerate()
            .map(|(index, case)| {
                let expected = parsed.game.score(&case.board, engine.value(&parsed.game, &case.board));
                CaseVerdict { case: index + 1, problem: judge_line(case, expected, lines.get(index).copied()).err() }
            })
            .collect();
        for (index, line) in lines.iter().enumerate().skip(parsed.cases.len()) {
            verdicts.push(CaseVerdict {
                case: index + 1,
                problem: Some(format!("extra answer `{line}`: the input has only {} positions", parsed.cases.len())),
            });
        }
        Ok(verdicts)
    }

    fn generate(&self, options: &GenOptions, seed: u64) -> Result<String> {
        let game = ConnectFour::standard();
        let mut rng = seeded_rng(seed);
        let (default_cases, empty_range) = match options.preset {
            Preset::Small => (10, 2..=10),
            Preset::Official => (1000, 1..=13),
        };
        let cases = options.cases.unwrap_or(default_cases);
        if cases > MAX_CASES {
            return Err(Error::limit("the number of positions to generate", cases as u64, MAX_CASES as u64));
        }
        if let Some(size) = options.size {
            if size == 0 || size >= game.cells() as usize {
                return Err(Error::limit(
                    "the number of empty cells (--size)",
                    size as u64,
                    u64::from(game.cells() - 1),
                ));
            }
        }
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

    fn render(&self, answers: &[CaseAnswer]) -> String {
        answers.iter().map(|answer| format!("{}\n", answer.text)).collect()
    }

    /// A wrong score: the right one moved by a random amount from 1 to 3, up or down.
    fn corrupt(&self, answer: &CaseAnswer, rng: &mut SeededRng) -> Option<CaseAnswer> {
        let (moves, score) = answer.text.rsplit_once(' ')?;
        let score: i32 = score.parse().ok()?;
        let delta = rng.gen_range(1..=3) * if rng.gen_bool(0.5) { 1 } else { -1 };
        Some(CaseAnswer {
            text: format!("{moves} {}", score + delta),
            class: String::new(),
            json: serde_json::Value::Null,
        })
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
    Err(Error::Unsupported(format!("could not generate a position with {played} moves played without a win")))
}
