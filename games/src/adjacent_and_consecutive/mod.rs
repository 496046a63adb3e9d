//! The `adjacent-and-consecutive` plugin (Code Jam 2020 World Finals): count the mistakes of each player along
//! recorded games of "Adjacent and Consecutive".
//!
//! N tiles numbered 1..N go one per turn into a row of N cells, A first; A wins if at the end two adjacent cells
//! hold consecutive numbers. A mistake is a move from a winning state into a state winning for the opponent.
//!
//! Solvers:
//! - `fast` (default): [`game::FastGame`] (shortcuts, compressed keys, pruned moves) under memoized negamax with
//!   one table for every game of the input, mistakes by the framework's [`analysis::mistakes_by`]; N <= 60
//!   unless `no_limit`;
//! - `generic`: [`game::GenericGame`] (full boards, every move, identity keys) under memoized negamax and the
//!   framework's [`analysis::mistakes`]; N <= 10 unless `no_limit`;
//! - `parallel`: [`game::FastGame`] under the framework's parallel negamax, the games of the input spread over
//!   `--threads` workers that share one `dashmap` table; N <= 60 unless `no_limit`;
//! - `closed-form`: the analysis's closed-form rule at A's turn and one ply of search at B's turn
//!   ([`closed_form`]); N <= 20,000 unless `no_limit`.
//!
//! The verifier recomputes the answer with the exact engine of `fast` for N <= 60 and with the closed form
//! beyond.

pub mod board;
pub mod closed_form;
pub mod game;

use board::{Board, Placement};
use game::{FastGame, FastKey, GenericGame};
use ludus_framework::analysis::{IllegalMove, Mistake};
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::parallel::ParallelNegamax;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::input::{Reader, Source};
use ludus_framework::plugin::{
    self, About, CaseAnswer, CaseVerdict, Comparison, GenOptions, Kind, Preset, Progress, Sample, SolveOptions,
    SolverInfo,
};
use ludus_framework::table::KeyedTable;
use ludus_framework::{analysis, Error, Result, Value, Violation};
use rand::seq::SliceRandom;
use rand::Rng;
use rayon::prelude::*;
use serde_json::json;

/// The largest number of games in one input.
pub const MAX_GAMES: u64 = 10_000;
/// The largest N (tiles, cells and turns of one game) the input may have.
pub const MAX_SIZE: u64 = 100_000;
/// The largest N the `generic` solver takes without `no_limit`.
pub const GENERIC_LIMIT: u32 = 10;
/// The largest N the `fast` solver takes without `no_limit` (and the largest the verifier checks exactly).
pub const FAST_LIMIT: u32 = 60;
/// The largest N the `closed-form` solver takes without `no_limit`.
pub const CLOSED_FORM_LIMIT: u32 = 20_000;

/// Official large set: games per input and largest N.
const OFFICIAL_GAMES: usize = 100;
const OFFICIAL_SIZE: u32 = 50;
/// Largest N of [`Preset::Small`].
const SMALL_SIZE: u32 = 8;
/// Games in a generated [`Preset::Small`] input unless `cases` says otherwise.
const SMALL_GAMES: usize = 10;
/// Largest N for which generated records may use careful ("quiet") moves, which cost O(N) each.
const QUIET_GENERATION_LIMIT: u32 = 20_000;

const NO_LIMIT_HINT: &str = "use SolveOptions::no_limit, flag --no-limit, to run it anyway";

static SOLVERS: [SolverInfo; 4] = [
    SolverInfo {
        name: "fast",
        summary:
            "memoized negamax over compressed keys with the analysis's shortcuts, one table for all games (N <= 60)",
    },
    SolverInfo {
        name: "generic",
        summary: "memoized negamax over full boards, every move, generic mistake analysis (N <= 10)",
    },
    SolverInfo {
        name: "parallel",
        summary: "the fast solver's game and keys on the parallel negamax engine: games in parallel over one shared \
                  table (--threads; N <= 60)",
    },
    SolverInfo {
        name: "closed-form",
        summary: "the analysis's closed-form rule at A's turn, one ply of search at B's turn (N <= 20,000)",
    },
];

/// One recorded game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// N.
    pub size: u32,
    /// The placements, turn by turn (A plays turns 1, 3, 5...).
    pub moves: Vec<Placement>,
}

/// The answer to one game: mistakes of A and of B, and the 0-based plies of all mistakes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mistakes {
    /// A's mistakes.
    pub by_a: usize,
    /// B's mistakes.
    pub by_b: usize,
    /// The 0-based plies of the mistakes, increasing.
    pub plies: Vec<usize>,
}

impl Mistakes {
    fn record(&mut self, ply: usize) {
        if ply.is_multiple_of(2) {
            self.by_a += 1;
        } else {
            self.by_b += 1;
        }
        self.plies.push(ply);
    }
}

/// Counts the mistakes of `record` with the framework's [`analysis::mistakes_by`], given `a_wins(board)`:
/// whether A wins from a board (either side to move).
pub fn count_mistakes(
    record: &Record,
    mut a_wins: impl FnMut(&Board) -> bool,
) -> std::result::Result<Mistakes, IllegalMove> {
    let value = |board: &Board| if a_wins(board) == board.a_to_move() { Value::Win(0) } else { Value::LOST };
    Ok(tally(analysis::mistakes_by(&FastGame, &Board::new(record.size), &record.moves, value)?))
}

/// The per-player counts of a list of mistakes.
fn tally(found: Vec<Mistake<Placement>>) -> Mistakes {
    let mut mistakes = Mistakes::default();
    for mistake in found {
        mistakes.record(mistake.ply);
    }
    mistakes
}

/// The exact evaluator of the `fast` solver: whether A wins from `board`, with a table shared across calls.
pub fn fast_a_wins(engine: &mut MemoNegamax<KeyedTable<FastKey>>, board: &Board) -> bool {
    engine.value(&FastGame, board).is_win() == board.a_to_move()
}

/// The mistakes of every record by the `parallel` solver: [`FastGame`] on the parallel negamax engine, with
/// the records spread over `threads` workers that share one table (split depth 0: each game is searched
/// sequentially, the games in parallel).
fn parallel_mistakes(
    records: &[Record],
    threads: usize,
    progress: &dyn Progress,
) -> Result<Vec<std::result::Result<Mistakes, IllegalMove>>> {
    let engine = ParallelNegamax::new(Mode::Outcome, 0);
    let results = plugin::with_threads(threads, || {
        records
            .par_iter()
            .map(|record| {
                let found =
                    count_mistakes(record, |board| engine.evaluate(&FastGame, board).is_win() == board.a_to_move());
                progress.advance(1);
                found
            })
            .collect()
    })?;
    progress.record(&engine.stats());
    Ok(results)
}

/// The mistakes of `record` by the `generic` solver: [`GenericGame`] under memoized negamax and
/// [`analysis::mistakes`].
pub fn generic_mistakes(record: &Record, case: usize) -> Result<Mistakes> {
    let mut engine = MemoNegamax::new(Mode::Outcome);
    let found = analysis::mistakes(&mut engine, &GenericGame, &Board::new(record.size), &record.moves)
        .map_err(|illegal| Error::SelfCheck { case, reason: illegal.to_string() })?;
    Ok(tally(found))
}

/// The verifier's reference: the exact engine for N <= [`FAST_LIMIT`], the closed form beyond.
struct Reference {
    engine: MemoNegamax<KeyedTable<FastKey>>,
}

impl Reference {
    fn new() -> Self {
        Reference { engine: MemoNegamax::new(Mode::Outcome) }
    }

    fn mistakes(&mut self, record: &Record) -> std::result::Result<Mistakes, IllegalMove> {
        if record.size <= FAST_LIMIT {
            count_mistakes(record, |board| fast_a_wins(&mut self.engine, board))
        } else {
            count_mistakes(record, closed_form::a_wins)
        }
    }

    /// Judges a claimed answer `(a, b)` for `record`.
    fn judge(&mut self, record: &Record, claimed: (usize, usize)) -> std::result::Result<(), Violation> {
        let right = self.mistakes(record).map_err(|illegal| Violation::new(illegal.to_string()))?;
        if claimed == (right.by_a, right.by_b) {
            Ok(())
        } else {
            Err(Violation::new(format!(
                "A made {} mistakes and B made {}, not {} and {}",
                right.by_a, right.by_b, claimed.0, claimed.1
            )))
        }
    }
}

/// Parses an input in the official format.
pub fn parse(input: Source<'_>) -> Result<Vec<Record>> {
    let mut reader = Reader::new(&input);
    let games = reader.bounded("the number of games T", 1, MAX_GAMES, "")?;
    let mut records = Vec::new();
    for game in 1..=games {
        reader.set_context(format!("game {game}"));
        let size = reader.bounded("N, the number of tiles", 1, MAX_SIZE, "")? as u32;
        let mut tile_turn = vec![0usize; size as usize + 1];
        let mut cell_turn = vec![0usize; size as usize + 1];
        let mut moves = Vec::with_capacity(size as usize);
        for turn in 1..=size as usize {
            reader.set_context(format!("game {game}, turn {turn}"));
            let (tile, tile_offset) = reader.number_at("the tile number M", 1, size)?;
            let (cell, cell_offset) = reader.number_at("the cell number C", 1, size)?;
            for (value, offset, turns, what) in
                [(tile, tile_offset, &mut tile_turn, "tile"), (cell, cell_offset, &mut cell_turn, "cell")]
            {
                if let Some(slot) = turns.get_mut(value as usize) {
                    if *slot != 0 {
                        let message = format!("{what} {value} was already used at turn {}", *slot);
                        return Err(reader.error_at(offset, message).into());
                    }
                    *slot = turn;
                }
            }
            moves.push(Placement { tile, cell });
        }
        records.push(Record { size, moves });
    }
    reader.finish()?;
    Ok(records)
}

fn answer(mistakes: &Mistakes, record: &Record) -> CaseAnswer {
    let details: Vec<serde_json::Value> = mistakes
        .plies
        .iter()
        .filter_map(|&ply| {
            record.moves.get(ply).map(|placement| {
                json!({
                    "turn": ply + 1,
                    "player": if ply % 2 == 0 { "A" } else { "B" },
                    "tile": placement.tile,
                    "cell": placement.cell,
                })
            })
        })
        .collect();
    CaseAnswer::exact(
        format!(" {} {}", mistakes.by_a, mistakes.by_b),
        json!({ "a": mistakes.by_a, "b": mistakes.by_b, "mistakes": details }),
    )
}

/// Reads a `Case #x:` body: two non-negative integers.
fn read_claim(text: &str) -> std::result::Result<(usize, usize), String> {
    let numbers: Vec<&str> = text.split_whitespace().collect();
    match numbers.as_slice() {
        [a, b] => match (a.parse::<usize>(), b.parse::<usize>()) {
            (Ok(a), Ok(b)) => Ok((a, b)),
            _ => Err(format!("expected two non-negative integers, found `{}`", text.trim())),
        },
        _ => Err(format!("expected two integers (mistakes of A and of B), found `{}`", text.trim())),
    }
}

/// A random record of `size` turns. `care` is the chance that a move is chosen among quiet ones (moves that
/// leave no pair and no live tile), which makes the game long and interesting.
fn random_record(size: u32, care: f64, rng: &mut plugin::SeededRng) -> Record {
    let mut tiles: Vec<u32> = (1..=size).collect();
    let mut cells: Vec<u32> = (1..=size).collect();
    let mut board = Board::new(size);
    let mut moves = Vec::with_capacity(size as usize);
    let careful = care > 0.0 && size <= QUIET_GENERATION_LIMIT;
    while !tiles.is_empty() {
        let mut pick = (rng.gen_range(0..tiles.len()), rng.gen_range(0..cells.len()));
        if careful && rng.gen_bool(care) {
            let live = board.live_tiles();
            for _ in 0..32 {
                let candidate = (rng.gen_range(0..tiles.len()), rng.gen_range(0..cells.len()));
                let placement = Placement { tile: tiles[candidate.0], cell: cells[candidate.1] };
                if game::is_quiet(&board, &live, placement) {
                    pick = candidate;
                    break;
                }
            }
        }
        let placement = Placement { tile: tiles.swap_remove(pick.0), cell: cells.swap_remove(pick.1) };
        board.place(placement);
        moves.push(placement);
    }
    Record { size, moves }
}

/// Writes records in the official format.
pub fn render_input(records: &[Record]) -> String {
    let mut text = format!("{}\n", records.len());
    for record in records {
        text.push_str(&format!("{}\n", record.size));
        for placement in &record.moves {
            text.push_str(&format!("{} {}\n", placement.tile, placement.cell));
        }
    }
    text
}

/// Random records as the plugin's `generate` makes them: per game, N from the preset (or `size`), and a chance
/// of careful moves drawn from 0, 0.5, 0.9 and 1.
pub fn random_records(options: &GenOptions, seed: u64) -> Result<Vec<Record>> {
    let mut rng = plugin::seeded_rng(seed);
    let games = match (options.cases, options.preset) {
        (Some(cases), _) => cases,
        (None, Preset::Small) => SMALL_GAMES,
        (None, Preset::Official) => OFFICIAL_GAMES,
    };
    if games == 0 || options.size == Some(0) {
        return Err(Error::Unsupported("a generated input needs at least one game of at least one tile".to_string()));
    }
    if games as u64 > MAX_GAMES {
        return Err(Error::limit("the number of games to generate", games as u64, MAX_GAMES));
    }
    if let Some(size) = options.size.filter(|&size| size as u64 > MAX_SIZE) {
        return Err(Error::limit("the generated N", size as u64, MAX_SIZE));
    }
    let mut records = Vec::with_capacity(games);
    for _ in 0..games {
        let size = match (options.size, options.preset) {
            (Some(size), _) => size as u32,
            (None, Preset::Small) => rng.gen_range(1..=SMALL_SIZE),
            (None, Preset::Official) => rng.gen_range(4..=OFFICIAL_SIZE),
        };
        let care = *[0.0, 0.5, 0.9, 1.0].choose(&mut rng).unwrap_or(&0.0);
        records.push(random_record(size, care, &mut rng));
    }
    Ok(records)
}

/// The `adjacent-and-consecutive` plugin.
#[derive(Clone, Copy, Debug, Default)]
pub struct AdjacentAndConsecutive;

impl AdjacentAndConsecutive {
    fn check_limits(records: &[Record], options: &SolveOptions, limit: u32) -> Result<()> {
        if options.no_limit {
            return Ok(());
        }
        for (index, record) in records.iter().enumerate() {
            if record.size > limit {
                return Err(Error::limit_with_hint(
                    format!("N of game {} for the `{}` solver", index + 1, options.solver),
                    u64::from(record.size),
                    u64::from(limit),
                    NO_LIMIT_HINT,
                ));
            }
        }
        Ok(())
    }
}

/// What the CLI shows of this plugin, and its bundled sample.
static ABOUT: About = About {
    name: "adjacent-and-consecutive",
    kind: Kind::TwoPlayer,
    summary: "tiles into a row of cells; count each player's mistakes along recorded games (GCJ 2020 Finals)",
    solvers: &SOLVERS,
    sample: Sample {
        input: include_str!("../../../samples/adjacent-and-consecutive/sample.in"),
        answer: include_str!("../../../samples/adjacent-and-consecutive/sample.ans"),
    },
    comparison: Comparison::Text,
};

impl plugin::Plugin for AdjacentAndConsecutive {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn solve(&self, input: Source<'_>, options: &SolveOptions, progress: &dyn Progress) -> Result<Vec<CaseAnswer>> {
        let solver = self.solver(&options.solver)?.name;
        let records = parse(input)?;
        let limit = match solver {
            "generic" => GENERIC_LIMIT,
            "closed-form" => CLOSED_FORM_LIMIT,
            _ => FAST_LIMIT,
        };
        Self::check_limits(&records, options, limit)?;
        progress.start(records.len() as u64);
        let parallel =
            if solver == "parallel" { parallel_mistakes(&records, options.threads, progress)? } else { Vec::new() };
        // The fast solver's table doubles as the verifier's (the check then costs table hits only).
        let mut reference = Reference::new();
        let mut answers = Vec::with_capacity(records.len());
        for (index, record) in records.iter().enumerate() {
            let case = index + 1;
            let mistakes = match solver {
                "generic" => Ok(generic_mistakes(record, case)?),
                "closed-form" => count_mistakes(record, closed_form::a_wins),
                "parallel" => parallel.get(index).cloned().unwrap_or(Err(IllegalMove { ply: 0 })),
                _ => count_mistakes(record, |board| fast_a_wins(&mut reference.engine, board)),
            }
            .map_err(|illegal| Error::SelfCheck { case, reason: illegal.to_string() })?;
            plugin::self_check(case, reference.judge(record, (mistakes.by_a, mistakes.by_b)))?;
            answers.push(answer(&mistakes, record));
            if solver != "parallel" {
                progress.advance(1);
            }
        }
        progress.record(&reference.engine.stats());
        Ok(answers)
    }

    fn judge(&self, input: Source<'_>, output: Source<'_>) -> Result<Vec<CaseVerdict>> {
        let records = parse(input)?;
        let mut reference = Reference::new();
        Ok(plugin::judge_cases(output, &records, |record, block| {
            let claimed = read_claim(block.text)?;
            reference.judge(record, claimed).map_err(|violation| violation.reason)
        }))
    }

    fn generate(&self, options: &GenOptions, seed: u64) -> Result<String> {
        Ok(render_input(&random_records(options, seed)?))
    }
}
