//! The `minesweeper-master` plugin: its solver table (the fast constructor, brute force and the row
//! backtracking), the judge of answer files, the corruption of right answers and the generator of inputs.

use super::backtrack::{backtrack_within, BACKTRACK_MAX_CELLS, BACKTRACK_MAX_NODES};
use super::board::{place, Board, Instance, MinesweeperPuzzle, CLICK, MINE, SAFE};
use super::format::{parse_answer, parse_input, Answer, Parsed, MAX_CASES, MAX_CELLS, MAX_TOTAL_CELLS};
use super::generic::{GenericSearcher, GENERIC_LAYOUT_BUDGET};
use ludus_framework::engines::brute_force::brute_force;
use ludus_framework::input::Source;
use ludus_framework::plugin::{
    seeded_rng, About, CaseBlock, Comparison, GenOptions, Kind, Limit, Parallelism, Preset, Problem, Sample, Scope,
    SeededRng, SolveOptions, Solver, Tables, Worker,
};
use ludus_framework::{Construct, Error, Result, Stats, Verify, Violation};
use rand::Rng;

/// `Impossible` claims on boards of at most this many cells are also checked by brute force (beyond the fast
/// constructor, which the tests compare against brute force on every instance of at most 5 x 5).
pub const VERIFY_BRUTE_FORCE_MAX_CELLS: usize = 16;

/// The `minesweeper-master` plugin (its puzzle is [`MinesweeperPuzzle`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct MinesweeperMaster;

/// How a solver answers one instance with the solve options, adding its work to the statistics.
type Search = fn(&Instance, &SolveOptions, &mut Stats) -> Result<Option<Board>>;

/// A solver at work: its search, the options it runs with, and the work done so far.
struct Searcher {
    search: Search,
    options: SolveOptions,
    stats: Stats,
}

impl Searcher {
    /// A worker running `search` on every case.
    fn start(options: &SolveOptions, search: Search) -> Result<Box<dyn Worker<MinesweeperMaster>>> {
        Ok(Box::new(Searcher { search, options: options.clone(), stats: Stats::default() }))
    }
}

impl Worker<MinesweeperMaster> for Searcher {
    fn solve(&mut self, _: &MinesweeperMaster, input: &Parsed, case: usize) -> Result<Answer> {
        let instance = input.cases[case];
        let board = (self.search)(&instance, &self.options, &mut self.stats)?;
        Ok(Answer { instance, board })
    }

    fn stats(&self) -> Stats {
        self.stats
    }
}

/// The cells of case `case`, which the `backtrack` solver's limit measures.
fn cells(input: &Parsed, case: usize) -> u64 {
    input.cases[case].cells() as u64
}

/// The most work units one case's whole search may take by the `generic` solver's up-front model
/// (`layout_work`): about 9 seconds (2 x 15 with 9 mines, impossible: 1,000,000 layouts x 21 x 30 = 6.3e8
/// units, 2.33 s). Every board of at most 25 cells passes (5 x 5 with 12 mines, the largest, 1.7e9); larger
/// boards pass while their layout budget's worst case fits.
pub const GENERIC_CASE_WORK: u64 = 2_500_000_000;

/// The `generic` solver's up-front model of one case, its worst case: every layout it may try (all of them, or
/// its default budget of [`GENERIC_LAYOUT_BUDGET`]) clicked at each of its safe cells, each click verified over
/// the whole board. A search that finds a board stops early, so an input is not refused by the sum of these:
/// its work is counted as it is spent instead ([`super::generic::GENERIC_WORK_BUDGET`]).
fn layout_work(input: &Parsed, case: usize) -> u64 {
    let instance = &input.cases[case];
    let (cells, mines) = (instance.cells() as u64, instance.mines as u64);
    // C(cells, mines), computed until it passes the budget (it only grows with each factor).
    let mut layouts = 1u64;
    for index in 0..mines.min(cells - mines.min(cells)) {
        layouts = layouts.saturating_mul(cells - index) / (index + 1);
        if layouts >= GENERIC_LAYOUT_BUDGET {
            break;
        }
    }
    layouts.min(GENERIC_LAYOUT_BUDGET).saturating_mul(cells - mines.min(cells)).saturating_mul(cells)
}

/// The `generic` solver's worker: its searcher keeps the work spent on the input so far.
struct GenericWorker(GenericSearcher);

impl Worker<MinesweeperMaster> for GenericWorker {
    fn solve(&mut self, _: &MinesweeperMaster, input: &Parsed, case: usize) -> Result<Answer> {
        let instance = input.cases[case];
        let board = self.0.solve(&instance, case)?;
        Ok(Answer { instance, board })
    }

    fn stats(&self) -> Stats {
        self.0.stats()
    }
}

/// Judges one answer to `instance`: a board by the rules, an `Impossible` claim against the fast constructor
/// (and brute force on boards of at most [`VERIFY_BRUTE_FORCE_MAX_CELLS`] cells).
pub fn judge(instance: &Instance, answer: &Answer) -> std::result::Result<(), String> {
    let puzzle = MinesweeperPuzzle;
    if let Some(board) = &answer.board {
        return puzzle.verify(instance, board).map_err(|violation| violation.reason);
    }
    let found = match puzzle.construct(instance).map_err(|error| error.to_string())? {
        Some(board) => Some(board),
        None if instance.cells() <= VERIFY_BRUTE_FORCE_MAX_CELLS => brute_force(&puzzle, instance).0,
        None => None,
    };
    match found {
        None => Ok(()),
        Some(board) if instance.cells() <= 100 => {
            Err(format!("the answer says Impossible, but this board is valid:\n{}", board.to_text()))
        }
        Some(board) => Err(format!(
            "the answer says Impossible, but a valid board exists ({} safe cells at the top left, the click at {})",
            instance.safe_cells(),
            board.click().map_or_else(|| "row 1, column 1".to_string(), |(row, column)| place(row, column))
        )),
    }
}

/// A wrong board of the instance's size: M mines from the top left, the click on the last cell, and (if that is
/// still valid) nothing else; used to corrupt `Impossible` answers (any board of an impossible instance is wrong).
fn any_board(instance: &Instance) -> Board {
    let mut cells = vec![SAFE; instance.cells()];
    cells.iter_mut().take(instance.mines).for_each(|cell| *cell = MINE);
    if let Some(last) = cells.last_mut() {
        *last = CLICK;
    }
    Board { rows: cells.chunks(instance.columns.max(1)).map(<[u8]>::to_vec).collect() }
}

/// The cells of `board` holding one of `kinds`, as (row, column).
fn cells_of(board: &Board, kinds: &[u8]) -> Vec<(usize, usize)> {
    board
        .rows
        .iter()
        .enumerate()
        .flat_map(|(row, cells)| {
            cells.iter().enumerate().filter(|(_, cell)| kinds.contains(cell)).map(move |(column, _)| (row, column))
        })
        .collect()
}

/// One of `cells`, at random.
fn pick(cells: &[(usize, usize)], rng: &mut SeededRng) -> Option<(usize, usize)> {
    if cells.is_empty() {
        return None;
    }
    cells.get(rng.gen_range(0..cells.len())).copied()
}

impl Problem for MinesweeperMaster {
    type Input = Parsed;
    type Answer = Answer;
    type Referee = ();

    const ABOUT: &'static About = &About {
        name: "minesweeper-master",
        kind: Kind::Constructive,
        summary: "place M mines on an R x C grid so that one click wins, or say Impossible (Code Jam 2014 Qual. C)",
        sample: Sample {
            input: include_str!("../../../samples/minesweeper-master/sample.in"),
            answer: include_str!("../../../samples/minesweeper-master/sample.ans"),
        },
        comparison: Comparison::Rule,
    };

    const SOLVERS: &'static [Solver<Self>] = &[
        Solver {
            name: "fast",
            summary: "case analysis (a staircase of safe cells at the top left), linear in R x C, up to 4,000,000 \
                      cells",
            limits: &[],
            parallelism: Parallelism::Sequential,
            tables: Tables::None,
            start: |_, options| Searcher::start(options, |instance, _, _| MinesweeperPuzzle.construct(instance)),
        },
        Solver {
            name: "generic",
            summary: "brute force over every mine layout and click: exhaustive up to 25 cells (5 x 5) or with \
                      --no-limit; on larger boards it tries the first 1,000,000 mine layouts (a budget: \
                      --max-positions) and answers only if one is valid",
            limits: &[Limit {
                scope: Scope::Case,
                unit: "work units (mine layouts tried x clicks x cells)",
                max: GENERIC_CASE_WORK,
                measure: layout_work,
            }],
            parallelism: Parallelism::Sequential,
            tables: Tables::None,
            start: |_, options| Ok(Box::new(GenericWorker(GenericSearcher::new(options)))),
        },
        Solver {
            name: "backtrack",
            summary: "the analysis's row-by-row backtracking over left-aligned, non-increasing mine rows clicked at \
                      the bottom right; up to 10,000 cells (--no-limit) and 1,000,000 search nodes (--max-positions)",
            limits: &[Limit { scope: Scope::Case, unit: "grid cells R x C", max: BACKTRACK_MAX_CELLS, measure: cells }],
            parallelism: Parallelism::Sequential,
            tables: Tables::None,
            start: |_, options| {
                Searcher::start(options, |instance, options, stats| {
                    backtrack_within(instance, options.max_positions.unwrap_or(BACKTRACK_MAX_NODES), stats)
                })
            },
        },
    ];

    fn parse_input(&self, input: Source<'_>) -> Result<Parsed> {
        parse_input(input)
    }

    /// A board must pass the rules' verifier; an `Impossible` claim is left to the cross-checks between solvers
    /// (and to the judge).
    fn verify_answer(&self, input: &Parsed, case: usize, answer: &Answer) -> std::result::Result<(), Violation> {
        match &answer.board {
            Some(board) => MinesweeperPuzzle.verify(&input.cases[case], board),
            None => Ok(()),
        }
    }

    fn read_answer(
        &self,
        input: &Parsed,
        case: usize,
        block: &CaseBlock<'_>,
    ) -> std::result::Result<Answer, Violation> {
        Ok(parse_answer(&input.cases[case], block.text)?)
    }

    fn referee(&self) -> Result<()> {
        Ok(())
    }

    fn judge_answer(
        &self,
        _: &mut (),
        input: &Parsed,
        case: usize,
        answer: &Answer,
    ) -> std::result::Result<(), Violation> {
        Ok(judge(&input.cases[case], answer)?)
    }

    /// Any valid board is right: solvers agree on whether one exists.
    fn class_of(&self, answer: &Answer) -> String {
        if answer.board.is_some() { "POSSIBLE" } else { "IMPOSSIBLE" }.to_string()
    }

    /// A surely wrong answer: a board for an impossible case; otherwise `Impossible`, or the board with one of a
    /// flipped cell (wrong mine count), a second click, a shortened row, or a missing row.
    fn corrupt_answer(&self, input: &Parsed, case: usize, answer: &Answer, rng: &mut SeededRng) -> Option<Answer> {
        let instance = input.cases[case];
        let wrong = |board: Option<Board>| Some(Answer { instance, board });
        let Some(board) = &answer.board else { return wrong(Some(any_board(&instance))) };
        if board.rows.is_empty() {
            return wrong(None);
        }
        let mut board = board.clone();
        match rng.gen_range(0..5) {
            0 => wrong(None),
            1 => {
                let Some((row, column)) = pick(&cells_of(&board, &[SAFE, MINE]), rng) else { return wrong(None) };
                let was_safe = board.rows.get(row).and_then(|cells| cells.get(column)) == Some(&SAFE);
                let flipped = if was_safe { MINE } else { SAFE };
                board.set(row, column, flipped);
                wrong(Some(board))
            }
            2 => {
                let Some((row, column)) = pick(&cells_of(&board, &[SAFE]), rng) else { return wrong(None) };
                board.set(row, column, CLICK);
                wrong(Some(board))
            }
            3 => {
                let row = rng.gen_range(0..board.rows.len());
                board.rows.get_mut(row).and_then(Vec::pop);
                wrong(Some(board))
            }
            _ => {
                board.rows.remove(rng.gen_range(0..board.rows.len()));
                if board.rows.is_empty() {
                    return wrong(None);
                }
                wrong(Some(board))
            }
        }
    }

    fn generate_input(&self, options: &GenOptions, seed: u64) -> Result<String> {
        let (default_side, default_cases) = match options.preset {
            Preset::Small => (5, 20),
            Preset::Official => (50, 140),
        };
        let side = options.size.unwrap_or(default_side);
        if side == 0 {
            return Err(Error::parameter("size", "the size (the largest R and C) must be at least 1".to_string()));
        }
        let side_cells = (side as u64).saturating_mul(side as u64);
        if side_cells > MAX_CELLS {
            return Err(Error::limit("the grid cells of the largest board (size x size)", side_cells, MAX_CELLS));
        }
        let cases = options.case_count(default_cases, MAX_CASES)?;
        let total = side_cells.saturating_mul(cases as u64);
        if total > MAX_TOTAL_CELLS {
            return Err(Error::limit("the total grid cells (size x size x cases)", total, MAX_TOTAL_CELLS));
        }
        let mut rng = seeded_rng(seed);
        let mut text = format!("{cases}\n");
        for _ in 0..cases {
            let rows = rng.gen_range(1..=side);
            let columns = rng.gen_range(1..=side);
            let cells = rows * columns;
            // Half the cases have few safe cells, where the hard cases (2, 3, 5, 7 safe cells, odd counts on
            // two-row boards) are.
            let mines =
                if rng.gen_bool(0.5) { rng.gen_range(0..cells) } else { cells - rng.gen_range(1..=cells.min(10)) };
            text.push_str(&format!("{rows} {columns} {mines}\n"));
        }
        Ok(text)
    }
}
