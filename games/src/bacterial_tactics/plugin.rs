//! The `bacterial-tactics` plugin: its typed answer (the count of Becca's winning openings), its solver table
//! (`fast`, `generic`, `parallel`), the self-check every answer passes, the judge that re-solves each grid with
//! the fast solver, and the generator of random grids.

use super::fast::{FastSolver, WinningLine};
use super::format::{read_count, read_input, Parsed, MAX_CASES, MAX_SIDE};
use super::generic::{generic_winning_openings_within, GENERIC_CELLS};
use super::grid::Grid;
use ludus_framework::input::Source;
use ludus_framework::parameters::{Parameter, ParameterKind};
use ludus_framework::plugin::driver::option_arguments;
use ludus_framework::plugin::{
    seeded_rng, About, CaseBlock, CaseList, Comparison, GenOptions, Kind, Limit, Parallelism, Preset, Problem, Sample,
    Scope, SeededRng, SolveOptions, Solver, Tables, Worker,
};
use ludus_framework::table::mib;
use ludus_framework::{Result, Stats, Violation};
use rand::Rng;
use serde::Serialize;

/// The `bacterial-tactics` plugin.
#[derive(Clone, Copy, Debug, Default)]
pub struct BacterialTactics;

/// The plugin's own options: `witness`.
const OPTIONS: &[Parameter] = &[Parameter {
    name: "witness",
    help: "list the lines Becca's winning openings fill (`fast` and `parallel`; the JSON answer shows them)",
    kind: ParameterKind::Switch { default: false },
}];

/// Whether a solve lists the winning lines (the `witness` option).
fn witness(options: &SolveOptions) -> Result<bool> {
    option_arguments::<BacterialTactics>(options)?.switch("witness")
}

/// The answer to one grid: the number of Becca's winning opening moves (0 if she loses). Its text is that
/// number; its JSON also says whether Becca wins, which solver found it and (with `--option witness`) the lines her
/// winning openings fill.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OpeningsAnswer {
    /// Whether Becca wins: for a solved grid, from the solver's value of the whole grid, found apart from the
    /// count (the self-check compares them); for an answer read from a file, whether the count is positive.
    pub becca_wins: bool,
    /// The number of Becca's winning opening moves (a move is a cell and a colony type).
    pub winning_openings: u64,
    /// The solver that found the answer (`None` when read from a file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solver: Option<&'static str>,
    /// With the `witness` option (`fast` and `parallel`): the winning openings grouped by the line they fill.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winning_lines: Option<Vec<WinningLine>>,
}

impl OpeningsAnswer {
    /// An answer that is only a count (read from a file, or corrupted).
    fn count(winning_openings: u64) -> Self {
        OpeningsAnswer { becca_wins: winning_openings > 0, winning_openings, solver: None, winning_lines: None }
    }
}

impl std::fmt::Display for OpeningsAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, " {}", self.winning_openings)
    }
}

/// A worker of `fast` or `parallel`: one Grundy table kept across the cases it solves.
struct FastWorker {
    solver: FastSolver,
    /// The solver's name, for the answer's JSON.
    name: &'static str,
    /// Whether to list the winning lines (the `witness` option).
    with_lines: bool,
}

impl FastWorker {
    fn start(name: &'static str, options: &SolveOptions) -> Result<Box<dyn Worker<BacterialTactics>>> {
        let solver = FastSolver::with_budgets(options.max_positions.unwrap_or(u64::MAX), mib(options.table_mb));
        Ok(Box::new(FastWorker { solver, name, with_lines: witness(options)? }))
    }
}

impl Worker<BacterialTactics> for FastWorker {
    fn solve(&mut self, _: &BacterialTactics, input: &Parsed, case: usize) -> Result<OpeningsAnswer> {
        let solution = self.solver.solve_case(&input.grids[case], self.with_lines)?;
        Ok(OpeningsAnswer {
            becca_wins: solution.nimber != 0,
            winning_openings: solution.count,
            solver: Some(self.name),
            winning_lines: solution.lines,
        })
    }

    fn stats(&self) -> Stats {
        self.solver.stats()
    }
}

/// A worker of `generic`: a fresh engine per grid (its positions are sets of a grid's cells, of no use on
/// another grid), within the positions budget; it adds up the engines' statistics.
struct GenericWorker {
    /// The positions budget of each grid (`--max-positions`).
    positions: u64,
    /// The table budget of each grid's engine (`--table-mb`).
    table_bytes: usize,
    /// The engines' statistics, added up.
    stats: Stats,
}

impl Worker<BacterialTactics> for GenericWorker {
    fn solve(&mut self, _: &BacterialTactics, input: &Parsed, case: usize) -> Result<OpeningsAnswer> {
        let (count, value, stats) =
            generic_winning_openings_within(&input.grids[case], self.positions, self.table_bytes)?;
        self.stats.add(&stats);
        Ok(OpeningsAnswer {
            becca_wins: value.is_win(),
            winning_openings: count,
            solver: Some("generic"),
            winning_lines: None,
        })
    }

    fn stats(&self) -> Stats {
        self.stats
    }
}

/// The cost model of `fast` and `parallel`: every sub-rectangle of a grid is a component whose options are
/// about its cells, (R(R+1)/2) (C(C+1)/2) components of (R C)/9 cells on average (a 64 x 64 grid is 2.0e9
/// units). The limit is set to about 8 seconds of work per input (calibration: BENCHMARKS.md, "Cost models").
const GRUNDY_WORK_LIMIT: Limit<BacterialTactics> = Limit {
    scope: Scope::Input,
    unit: "work units (sub-rectangles x cells / 9)",
    max: 5_000_000_000,
    measure: grundy_work,
};

fn grundy_work(input: &Parsed, case: usize) -> u64 {
    input.grids.get(case).map_or(0, |grid| {
        let (rows, columns) = (grid.rows as u64, grid.columns as u64);
        let rectangles = rows * (rows + 1) / 2 * (columns * (columns + 1) / 2);
        rectangles.saturating_mul(rows * columns) / 9
    })
}

/// The number of cells of case `case`, the size the `generic` solver is limited by.
fn cells(input: &Parsed, case: usize) -> u64 {
    input.grids.get(case).map_or(0, |grid| grid.cells() as u64)
}

/// The rule every answer obeys: at most the 2 opening moves per empty cell.
fn within_bounds(grid: &Grid, claimed: u64) -> std::result::Result<(), Violation> {
    let possible = 2 * grid.empty_cells() as u64;
    if claimed > possible {
        return Err(Violation::new(format!(
            "{claimed} winning openings claimed, but the grid has only {possible} opening moves (2 per empty cell)"
        )));
    }
    Ok(())
}

/// A random grid: sides in `1..=side`, each cell radioactive with a density drawn per grid (a quarter of the
/// grids have none).
fn random_grid(rng: &mut impl Rng, side: usize) -> String {
    let rows = rng.gen_range(1..=side);
    let columns = rng.gen_range(1..=side);
    let density = if rng.gen_bool(0.25) { 0.0 } else { rng.gen_range(0.0..0.5) };
    let mut text = format!("{rows} {columns}\n");
    for _ in 0..rows {
        for _ in 0..columns {
            text.push(if rng.gen_bool(density) { '#' } else { '.' });
        }
        text.push('\n');
    }
    text
}

impl CaseList for Parsed {
    fn case_count(&self) -> usize {
        self.grids.len()
    }

    fn case_line(&self, case: usize) -> Option<usize> {
        self.lines.get(case).copied()
    }
}

impl Problem for BacterialTactics {
    type Input = Parsed;
    type Answer = OpeningsAnswer;
    /// The fast solver: its table of free-rectangle nimbers serves every case of the answer file.
    type Referee = FastSolver;

    const ABOUT: &'static About = &About {
        name: "bacterial-tactics",
        kind: Kind::Impartial,
        summary: "Bacterial Tactics (Code Jam 2019 1C): Becca's number of winning openings on a grid with \
                  radioactive cells",
        sample: Sample {
            input: include_str!("../../../samples/bacterial-tactics/sample.in"),
            answer: include_str!("../../../samples/bacterial-tactics/sample.ans"),
        },
        comparison: Comparison::Text,
    };

    const OPTIONS: &'static [Parameter] = OPTIONS;

    const SOLVERS: &'static [Solver<Self>] = &[
        Solver {
            name: "fast",
            summary: "Sprague-Grundy over sub-rectangles (GrundyEngine, O(1) row/column checks, free-rectangle \
                      nimbers shared by size); grids up to 64 x 64",
            limits: &[GRUNDY_WORK_LIMIT],
            parallelism: Parallelism::Sequential,
            tables: Tables::PerWorker,
            start: |_, options| FastWorker::start("fast", options),
        },
        Solver {
            name: "generic",
            summary: "memoized negamax over sets of filled cells, winning openings counted move by move; up to 16 \
                      cells (a 4 x 4 grid), up to 128 with --no-limit",
            limits: &[Limit { scope: Scope::Case, unit: "cells", max: GENERIC_CELLS as u64, measure: cells }],
            parallelism: Parallelism::Sequential,
            tables: Tables::PerWorker,
            start: |_, options| {
                Ok(Box::new(GenericWorker {
                    positions: options.max_positions.unwrap_or(u64::MAX),
                    table_bytes: mib(options.table_mb),
                    stats: Stats::default(),
                }))
            },
        },
        Solver {
            name: "parallel",
            summary: "the fast solver on several cases at once, one Grundy table per worker thread (--threads); \
                      grids up to 64 x 64",
            limits: &[GRUNDY_WORK_LIMIT],
            parallelism: Parallelism::Cases,
            tables: Tables::PerWorker,
            start: |_, options| FastWorker::start("parallel", options),
        },
    ];

    fn parse_input(&self, input: Source<'_>) -> Result<Parsed> {
        read_input(input)
    }

    /// The count is within bounds and positive exactly when the solver's value of the whole grid says Becca
    /// wins, and the winning lines (with the `witness` option) hold exactly that many moves.
    fn verify_answer(
        &self,
        input: &Parsed,
        case: usize,
        answer: &OpeningsAnswer,
    ) -> std::result::Result<(), Violation> {
        let count = answer.winning_openings;
        within_bounds(&input.grids[case], count)?;
        if (count > 0) != answer.becca_wins {
            return Err(Violation::new(format!(
                "{count} winning openings counted, but the position's value says Becca {}",
                if answer.becca_wins { "wins" } else { "loses" }
            )));
        }
        if let Some(lines) = &answer.winning_lines {
            let total: u64 = lines.iter().map(|line| line.moves).sum();
            if total != count {
                return Err(Violation::new(format!("the winning lines hold {total} moves, but {count} were counted")));
            }
        }
        Ok(())
    }

    fn read_answer(
        &self,
        _: &Parsed,
        _: usize,
        block: &CaseBlock<'_>,
    ) -> std::result::Result<OpeningsAnswer, Violation> {
        Ok(OpeningsAnswer::count(read_count(block.text)?))
    }

    fn referee(&self) -> Result<FastSolver> {
        Ok(FastSolver::new())
    }

    /// Re-solves the grid with the fast solver and compares the counts.
    fn judge_answer(
        &self,
        referee: &mut FastSolver,
        input: &Parsed,
        case: usize,
        answer: &OpeningsAnswer,
    ) -> std::result::Result<(), Violation> {
        let grid = &input.grids[case];
        let claimed = answer.winning_openings;
        let expected = referee.winning_openings(grid).map_err(|error| error.to_string())?;
        within_bounds(grid, claimed)?;
        match (claimed == expected, expected) {
            (true, _) => Ok(()),
            (false, 0) => Err(format!("Becca loses this grid under optimal play (0), not {claimed}").into()),
            (false, _) => Err(format!("Becca has {expected} winning opening moves, not {claimed}").into()),
        }
    }

    /// A wrong count: the right one moved by 1 to 3, up, or down when it can be.
    fn corrupt_answer(
        &self,
        _: &Parsed,
        _: usize,
        answer: &OpeningsAnswer,
        rng: &mut SeededRng,
    ) -> Option<OpeningsAnswer> {
        let delta = rng.gen_range(1..=3);
        let right = answer.winning_openings;
        let wrong = if right >= delta && rng.gen_bool(0.5) { right - delta } else { right + delta };
        Some(OpeningsAnswer::count(wrong))
    }

    fn generate_input(&self, options: &GenOptions, seed: u64) -> Result<String> {
        let (default_side, default_cases) = match options.preset {
            Preset::Small => (4, 10),
            Preset::Official => (15, MAX_CASES),
        };
        let side = options.checked_size(MAX_SIDE)?.unwrap_or(default_side);
        let cases = options.case_count(default_cases, MAX_CASES)?;
        let mut rng = seeded_rng(seed);
        let mut text = format!("{cases}\n");
        for _ in 0..cases {
            text.push_str(&random_grid(&mut rng, side));
        }
        Ok(text)
    }
}
