//! The `adjacent-and-consecutive` plugin: its solver table with each solver's size limit, its typed answer, the
//! engines one input's solvers share with the self-check, and the judge.

use super::format::{parse, read_counts, render_input, Games, Record};
use super::game::FastKey;
use super::generate::random_records;
use super::mistakes::{closed_form_mistakes, fast_mistakes, generic_mistakes, parallel_mistakes, Mistakes, Reference};
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::parallel::ParallelNegamax;
use ludus_framework::engines::Mode;
use ludus_framework::input::Source;
use ludus_framework::plugin::{
    About, CaseBlock, CaseList, Comparison, EachCase, GenOptions, Kind, Limit, Parallelism, Problem, Sample, Scope,
    SeededRng, SolveOptions, Solver, Tables, Worker,
};
use ludus_framework::Statistics;
use ludus_framework::{Result, Stats, Violation};
use rand::Rng;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

/// The largest N the `generic` solver takes without `no_limit`.
pub const GENERIC_LIMIT: u32 = 10;
/// The largest N the `fast` and `parallel` solvers take without `no_limit` (and the largest the verifier checks
/// exactly).
pub const FAST_LIMIT: u32 = 60;
/// The largest N the `closed-form` solver takes without `no_limit`.
pub const CLOSED_FORM_LIMIT: u32 = 20_000;

/// The `adjacent-and-consecutive` plugin.
#[derive(Clone, Copy, Debug, Default)]
pub struct AdjacentAndConsecutive;

/// The answer to one game: the mistakes of each player and, for a game just solved, every mistake.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MistakesAnswer {
    /// A's mistakes.
    pub a: usize,
    /// B's mistakes.
    pub b: usize,
    /// Each mistake in the order played (empty for an answer read from a file).
    pub mistakes: Vec<MistakeMove>,
}

/// One mistake of a game, for the JSON output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MistakeMove {
    /// The 1-based turn.
    pub turn: usize,
    /// `A` or `B`.
    pub player: &'static str,
    /// The tile placed.
    pub tile: u32,
    /// The cell it went into.
    pub cell: u32,
}

impl MistakesAnswer {
    /// The answer for `mistakes` found in `record`.
    pub fn new(mistakes: &Mistakes, record: &Record) -> Self {
        let details = mistakes
            .plies
            .iter()
            .filter_map(|&ply| {
                record.moves.get(ply).map(|placement| MistakeMove {
                    turn: ply + 1,
                    player: if ply % 2 == 0 { "A" } else { "B" },
                    tile: placement.tile,
                    cell: placement.cell,
                })
            })
            .collect();
        MistakesAnswer { a: mistakes.by_a, b: mistakes.by_b, mistakes: details }
    }
}

impl std::fmt::Display for MistakesAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, " {} {}", self.a, self.b)
    }
}

/// A parsed input and the engines its solvers share with the self-check of their answers.
pub struct Parsed {
    /// The games.
    pub games: Games,
    shared: Arc<Shared>,
}

/// The engines of one input, shared by the workers and the self-check: a worker holds them (an [`Arc`]) to
/// report their statistics.
#[derive(Default)]
struct Shared {
    /// The reference that checks answers, made by its first user. The `fast` solver makes it with its budget and
    /// solves with its engine.
    reference: Mutex<Option<Reference>>,
    /// Set by the `fast` solver: its answers come from the reference's engine, so the closed form checks them
    /// (a check by the same engine would only read back its own table).
    fast_solved: AtomicBool,
    /// The `parallel` solver's engine: one table for all its workers.
    parallel: OnceLock<ParallelNegamax<FastKey>>,
    /// The part of the parallel engine's statistics already reported by a worker.
    parallel_reported: Mutex<Stats>,
}

/// A lock that a panicking thread left poisoned still guards a consistent engine (a search stores only the
/// values it completed), so it is taken anyway.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Shared {
    /// The parallel engine's work not yet reported by another worker: the driver records each worker's
    /// statistics once, after its last case, so the sum of these shares is the engine's whole work.
    fn unreported_parallel_stats(&self) -> Stats {
        let Some(engine) = self.parallel.get() else { return Stats::default() };
        let mut reported = lock(&self.parallel_reported);
        let now = engine.stats();
        let share = Stats {
            visited: now.visited.saturating_sub(reported.visited),
            table_entries: now.table_entries.saturating_sub(reported.table_entries),
            hits: now.hits.saturating_sub(reported.hits),
        };
        *reported = now;
        share
    }
}

/// N of game `case`, the size every solver's limit measures.
fn game_size(input: &Parsed, case: usize) -> u64 {
    input.games.records.get(case).map_or(0, |record| u64::from(record.size))
}

/// The closed form's cost model: N moves, each weighed in about N steps (a game of N = 10,000 is 1e8 units). The
/// limit is set to about 8 seconds of work per input (calibration: BENCHMARKS.md, "Cost models").
fn game_work(input: &Parsed, case: usize) -> u64 {
    game_size(input, case).pow(2)
}

/// The positions budget of each search (`--max-positions`; none by default).
fn positions(options: &SolveOptions) -> u64 {
    options.max_positions.unwrap_or(u64::MAX)
}

/// The `fast` solver at work: the input's reference engine, one table for every game.
struct Fast {
    positions: u64,
    shared: Option<Arc<Shared>>,
}

impl Worker<AdjacentAndConsecutive> for Fast {
    fn solve(&mut self, _: &AdjacentAndConsecutive, input: &Parsed, case: usize) -> Result<MistakesAnswer> {
        let record = &input.games.records[case];
        let shared = self.shared.get_or_insert_with(|| Arc::clone(&input.shared));
        shared.fast_solved.store(true, Ordering::Relaxed);
        let mut reference = lock(&shared.reference);
        let reference = reference.get_or_insert_with(|| Reference::with_budget(self.positions));
        Ok(MistakesAnswer::new(&fast_mistakes(reference.engine(), record)?, record))
    }

    fn stats(&self) -> Stats {
        self.shared
            .as_ref()
            .and_then(|shared| lock(&shared.reference).as_ref().map(Reference::stats))
            .unwrap_or_default()
    }
}

/// The `generic` solver at work: a fresh engine per game, so that each game is searched on its own (its
/// statistics add up).
struct Generic {
    positions: u64,
    stats: Stats,
}

impl Worker<AdjacentAndConsecutive> for Generic {
    fn solve(&mut self, _: &AdjacentAndConsecutive, input: &Parsed, case: usize) -> Result<MistakesAnswer> {
        let record = &input.games.records[case];
        let mut engine = MemoNegamax::new(Mode::Outcome).with_budget(self.positions);
        let found = generic_mistakes(&mut engine, record);
        self.stats.add(&engine.stats());
        Ok(MistakesAnswer::new(&found?, record))
    }

    fn stats(&self) -> Stats {
        self.stats
    }
}

/// A worker of the `parallel` solver: games on several threads over the input's one shared table.
struct Parallel {
    /// The positions budget of each search (`--max-positions`).
    positions: u64,
    shared: Option<Arc<Shared>>,
}

impl Worker<AdjacentAndConsecutive> for Parallel {
    fn solve(&mut self, _: &AdjacentAndConsecutive, input: &Parsed, case: usize) -> Result<MistakesAnswer> {
        let record = &input.games.records[case];
        let shared = self.shared.get_or_insert_with(|| Arc::clone(&input.shared));
        // Split depth 0: each game is searched on its worker's thread, the games in parallel.
        let positions = self.positions;
        let engine = shared.parallel.get_or_init(|| ParallelNegamax::new(Mode::Outcome, 0).with_budget(positions));
        Ok(MistakesAnswer::new(&parallel_mistakes(engine, record)?, record))
    }

    fn stats(&self) -> Stats {
        self.shared.as_ref().map(|shared| shared.unreported_parallel_stats()).unwrap_or_default()
    }
}

fn solve_closed_form(
    _: &AdjacentAndConsecutive,
    input: &Parsed,
    case: usize,
    _: &SolveOptions,
) -> Result<MistakesAnswer> {
    let record = &input.games.records[case];
    Ok(MistakesAnswer::new(&closed_form_mistakes(record)?, record))
}

impl CaseList for Parsed {
    fn case_count(&self) -> usize {
        self.games.records.len()
    }

    fn case_line(&self, case: usize) -> Option<usize> {
        self.games.lines.get(case).copied()
    }
}

impl Problem for AdjacentAndConsecutive {
    type Input = Parsed;
    type Answer = MistakesAnswer;
    type Referee = Reference;

    const ABOUT: &'static About = &About {
        name: "adjacent-and-consecutive",
        kind: Kind::TwoPlayer,
        summary: "tiles into a row of cells; count each player's mistakes along recorded games (GCJ 2020 Finals)",
        sample: Sample {
            input: include_str!("../../../samples/adjacent-and-consecutive/sample.in"),
            answer: include_str!("../../../samples/adjacent-and-consecutive/sample.ans"),
        },
        comparison: Comparison::Text,
    };

    const SOLVERS: &'static [Solver<Self>] = &[
        Solver {
            name: "fast",
            summary: "memoized search over the multisets of run lengths (the analysis's compressed states), one table \
                      for all games (N <= 60)",
            limits: &[Limit { scope: Scope::Case, unit: "tiles (N)", max: FAST_LIMIT as u64, measure: game_size }],
            parallelism: Parallelism::Sequential,
            tables: Tables::PerWorker,
            start: |_, options| Ok(Box::new(Fast { positions: positions(options), shared: None })),
        },
        Solver {
            name: "generic",
            summary: "memoized negamax over full boards, every move, generic mistake analysis (N <= 10)",
            limits: &[Limit { scope: Scope::Case, unit: "tiles (N)", max: GENERIC_LIMIT as u64, measure: game_size }],
            parallelism: Parallelism::Sequential,
            tables: Tables::PerWorker,
            start: |_, options| Ok(Box::new(Generic { positions: positions(options), stats: Stats::default() })),
        },
        Solver {
            name: "parallel",
            summary: "the fast solver's game and keys on the parallel negamax engine: games in parallel over one \
                      shared table (--threads; N <= 60)",
            limits: &[Limit { scope: Scope::Case, unit: "tiles (N)", max: FAST_LIMIT as u64, measure: game_size }],
            parallelism: Parallelism::Cases,
            tables: Tables::Shared,
            start: |_, options| Ok(Box::new(Parallel { positions: positions(options), shared: None })),
        },
        Solver {
            name: "closed-form",
            summary: "the analysis's closed-form rule at A's turn, one ply of search at B's turn (N <= 20,000)",
            limits: &[
                Limit { scope: Scope::Case, unit: "tiles (N)", max: CLOSED_FORM_LIMIT as u64, measure: game_size },
                Limit {
                    scope: Scope::Input,
                    unit: "work units (N^2 per game)",
                    max: 1_600_000_000,
                    measure: game_work,
                },
            ],
            parallelism: Parallelism::Sequential,
            tables: Tables::None,
            start: |_, options| EachCase::start(options, solve_closed_form),
        },
    ];

    fn parse_input(&self, input: Source<'_>) -> Result<Parsed> {
        Ok(Parsed { games: parse(input)?, shared: Arc::default() })
    }

    /// Recomputes the counts by a method independent of the solver's: the closed form for a `fast` answer (up to
    /// [`CLOSED_FORM_LIMIT`]), else the input's reference (the exact [`super::runs::RunsEngine`] for N <=
    /// [`FAST_LIMIT`]).
    fn verify_answer(&self, input: &Parsed, case: usize, answer: &MistakesAnswer) -> Result<(), Violation> {
        let record = &input.games.records[case];
        if input.shared.fast_solved.load(Ordering::Relaxed) && record.size <= CLOSED_FORM_LIMIT {
            let right = closed_form_mistakes(record).map_err(|error| Violation::new(error.to_string()))?;
            return if (answer.a, answer.b) == (right.by_a, right.by_b) {
                Ok(())
            } else {
                Err(Violation::new(format!(
                    "A made {} mistakes and B made {}, not {} and {} (by the closed form)",
                    right.by_a, right.by_b, answer.a, answer.b
                )))
            };
        }
        let mut reference = lock(&input.shared.reference);
        reference.get_or_insert_with(Reference::new).judge(record, (answer.a, answer.b))
    }

    fn read_answer(
        &self,
        _: &Parsed,
        _: usize,
        block: &CaseBlock<'_>,
    ) -> std::result::Result<MistakesAnswer, Violation> {
        let (a, b) = read_counts(block.text)?;
        Ok(MistakesAnswer { a, b, mistakes: Vec::new() })
    }

    fn referee(&self) -> Result<Reference> {
        Ok(Reference::new())
    }

    fn judge_answer(
        &self,
        reference: &mut Reference,
        input: &Parsed,
        case: usize,
        answer: &MistakesAnswer,
    ) -> std::result::Result<(), Violation> {
        reference.judge(&input.games.records[case], (answer.a, answer.b))
    }

    /// A wrong count: A's or B's moved by 1 to 3, up or (if it stays non-negative) down.
    fn corrupt_answer(
        &self,
        _: &Parsed,
        _: usize,
        answer: &MistakesAnswer,
        rng: &mut SeededRng,
    ) -> Option<MistakesAnswer> {
        let mut wrong = MistakesAnswer { a: answer.a, b: answer.b, mistakes: Vec::new() };
        let count = if rng.gen_bool(0.5) { &mut wrong.a } else { &mut wrong.b };
        let delta = rng.gen_range(1..=3);
        *count = if *count >= delta && rng.gen_bool(0.5) { *count - delta } else { *count + delta };
        Some(wrong)
    }

    fn generate_input(&self, options: &GenOptions, seed: u64) -> Result<String> {
        Ok(render_input(&random_records(options, seed)?))
    }
}
