//! The `bacterial-tactics` plugin (Code Jam 2019 Round 1C): an impartial game on a grid with radioactive cells.
//!
//! A move places an H colony (spreading west and east) or a V colony (north and south) on an empty cell; the
//! spread stops at the grid edge or at cells that already hold bacteria, and a spread that would enter a
//! radioactive cell mutates: the mover loses at once. The answer is the number of Becca's winning opening moves
//! (a move is a cell and a colony type), or 0 if she loses.
//!
//! Three solvers share the parser and the verifier:
//! - `fast`: the game as an [`Impartial`] sum of sub-rectangles ([`RectangleGame`]) under the framework's
//!   [`GrundyEngine`]. A legal move fills a whole row (or column) of its rectangle and splits it into at most two
//!   rectangles; row and column legality is one table read; the nimbers of rectangles free of radioactive cells
//!   depend only on their (unordered) size, so their keys are shared by every position and every case.
//! - `parallel`: the `fast` solver on the cases of a file at once, one [`FastSolver`] per worker of a rayon pool
//!   of `SolveOptions::threads` threads. (The framework's `ParallelGrundy`, in waves of all rectangles by
//!   height + width, was measured in its place on one grid: 15 to 50 times slower than `fast` on 60 x 60 grids.)
//! - `generic`: the rules as they are written, a plain [`Game`] over sets of filled cells ([`SpreadGame`], a
//!   `u128` bitmask), memoized negamax and the framework's winning-move count, move by move (mutating moves
//!   included: they end the game with a loss for their mover).

use ludus_framework::analysis;
use ludus_framework::engines::grundy::GrundyEngine;
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::Mode;
use ludus_framework::input::{Reader, Source};
use ludus_framework::plugin::{
    judge_cases, seeded_rng, self_check, with_threads, About, CaseAnswer, CaseVerdict, Comparison, GenOptions, Kind,
    Plugin, Preset, Progress, Sample, SolveOptions, SolverInfo,
};
use ludus_framework::{Canonicalize, Error, Game, Impartial, Result, SearchHints, Stats, Value, Violation};
use rand::Rng;
use rayon::prelude::*;
use serde_json::json;

/// The largest number of rows or columns a grid may have: rectangle keys pack each coordinate in 6 bits.
pub const MAX_SIDE: usize = 64;

/// The largest number of cases in one input (the official T).
pub const MAX_CASES: usize = 100;

/// The number of cells the `generic` solver accepts without `--no-limit` (a 4 x 4 grid).
pub const GENERIC_CELLS: usize = 16;

/// The number of cells the `generic` solver can represent at all (its `u128` bitmask).
pub const GENERIC_HARD_CELLS: usize = 128;

/// One grid of the input: R rows of C cells, each empty or radioactive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    rows: usize,
    columns: usize,
    radioactive: Vec<bool>,
}

impl Grid {
    /// A grid from its rows written with `.` (empty) and `#` (radioactive). Rows must all have the same length,
    /// and both sides must be between 1 and [`MAX_SIDE`].
    pub fn from_rows(rows: &[&str]) -> Result<Grid> {
        let text = format!("1\n{} {}\n{}\n", rows.len(), rows.first().map_or(0, |row| row.len()), rows.join("\n"));
        let mut grids = parse(Source::new("grid", &text))?;
        grids.pop().ok_or_else(|| Error::Unsupported("a grid needs at least one row".to_string()))
    }

    /// The number of rows R.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of columns C.
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// Whether the cell at (`row`, `column`) is radioactive (cells outside the grid count as radioactive).
    pub fn is_radioactive(&self, row: usize, column: usize) -> bool {
        row >= self.rows || column >= self.columns || self.radioactive.get(row * self.columns + column) != Some(&false)
    }

    /// The number of empty (non-radioactive) cells.
    pub fn empty_cells(&self) -> usize {
        self.radioactive.iter().filter(|&&radioactive| !radioactive).count()
    }

    /// The grid in the official format (R C, then the rows).
    pub fn to_text(&self) -> String {
        let mut text = format!("{} {}\n", self.rows, self.columns);
        for row in 0..self.rows {
            for column in 0..self.columns {
                text.push(if self.is_radioactive(row, column) { '#' } else { '.' });
            }
            text.push('\n');
        }
        text
    }
}

/// `text`, cut after 24 characters.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(24) {
        Some((cut, _)) => format!("{}...", text.get(..cut).unwrap_or(text)),
        None => text.to_string(),
    }
}

/// Parses a whole input file: T, then for each case `R C` and R rows of C characters from `.` and `#`.
/// Errors name the file, line, column and case.
pub fn parse(source: Source<'_>) -> Result<Vec<Grid>> {
    let mut reader = Reader::new(&source);
    let cases =
        reader.bounded("the number of cases T", 1, MAX_CASES as u64, "the official limit; split the file")? as usize;
    let side_hint = "the official limit is 15; rectangle keys pack coordinates in 6 bits";
    let mut grids = Vec::with_capacity(cases);
    for case in 1..=cases {
        reader.set_context(format!("case {case}"));
        let rows = reader.bounded("R (the number of rows)", 1, MAX_SIDE as u64, side_hint)? as usize;
        let columns = reader.bounded("C (the number of columns)", 1, MAX_SIDE as u64, side_hint)? as usize;
        let mut radioactive = Vec::with_capacity(rows * columns);
        for row in 1..=rows {
            let what = format!("row {row} of {rows} of the grid ({columns} characters from `.` and `#`)");
            let line = reader.line(&what)?;
            for (index, (offset, character)) in line.text.char_indices().enumerate() {
                if index >= columns {
                    break;
                }
                match character {
                    '.' => radioactive.push(false),
                    '#' => radioactive.push(true),
                    other => {
                        return Err(reader
                            .error_at(line.offset + offset, format!("row {row}: expected `.` or `#`, found `{other}`"))
                            .into())
                    }
                }
            }
            let length = line.text.chars().count();
            if length != columns {
                return Err(reader
                    .error_at(
                        line.offset,
                        format!(
                            "row {row}: expected {columns} characters (C = {columns}), found {length}: `{}`",
                            shorten(line.text)
                        ),
                    )
                    .into());
            }
        }
        grids.push(Grid { rows, columns, radioactive });
    }
    reader.finish()?;
    Ok(grids)
}

// ---------------------------------------------------------------------------------------------------------------
// The fast game: sums of sub-rectangles.
// ---------------------------------------------------------------------------------------------------------------

/// A sub-rectangle of the grid, all of whose non-radioactive cells are empty (inclusive bounds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rectangle {
    /// First row.
    pub top: u8,
    /// First column.
    pub left: u8,
    /// Last row.
    pub bottom: u8,
    /// Last column.
    pub right: u8,
}

impl Rectangle {
    /// The number of rows.
    pub fn height(&self) -> u8 {
        self.bottom - self.top + 1
    }

    /// The number of columns.
    pub fn width(&self) -> u8 {
        self.right - self.left + 1
    }
}

/// Set in the keys of rectangles without radioactive cells: such a key holds only the sorted (height, width), so
/// it is shared across positions, grids and cases (the transpose of a free rectangle has the same nimber, with H
/// and V exchanged).
const FREE_KEY: u32 = 1 << 31;

/// Whether a key belongs to a free rectangle (and so may be kept between cases).
pub fn is_shared_key(key: &u32) -> bool {
    key & FREE_KEY != 0
}

/// The game as a sum of independent rectangles, with O(1) legality of a row or column move.
///
/// Tables (per grid): for each row and column, the 1-based position of the nearest radioactive cell at or before
/// each cell (0 if none), so a move on row `r` of columns `left..=right` is legal exactly when
/// `row_last[r][right] <= left`; and 2D prefix counts of radioactive cells for the "free rectangle" test.
#[derive(Clone, Debug)]
pub struct RectangleGame {
    rows: u8,
    columns: u8,
    row_last: Vec<u8>,
    column_last: Vec<u8>,
    prefix: Vec<u16>,
}

impl RectangleGame {
    /// The tables of `grid` (whose sides are at most [`MAX_SIDE`], as [`parse`] guarantees).
    pub fn new(grid: &Grid) -> Result<Self> {
        let (rows, columns) = (grid.rows, grid.columns);
        if rows == 0 || columns == 0 || rows > MAX_SIDE || columns > MAX_SIDE {
            return Err(Error::limit("grid side", rows.max(columns) as u64, MAX_SIDE as u64));
        }
        let mut row_last = vec![0u8; rows * columns];
        let mut column_last = vec![0u8; columns * rows];
        let mut prefix = vec![0u16; (rows + 1) * (columns + 1)];
        for row in 0..rows {
            let mut last = 0u8;
            for column in 0..columns {
                if grid.is_radioactive(row, column) {
                    last = column as u8 + 1;
                }
                if let Some(slot) = row_last.get_mut(row * columns + column) {
                    *slot = last;
                }
            }
        }
        for column in 0..columns {
            let mut last = 0u8;
            for row in 0..rows {
                if grid.is_radioactive(row, column) {
                    last = row as u8 + 1;
                }
                if let Some(slot) = column_last.get_mut(column * rows + row) {
                    *slot = last;
                }
            }
        }
        let stride = columns + 1;
        for row in 0..rows {
            for column in 0..columns {
                let here = u16::from(grid.is_radioactive(row, column));
                let above = prefix.get(row * stride + column + 1).copied().unwrap_or(0);
                let before = prefix.get((row + 1) * stride + column).copied().unwrap_or(0);
                let corner = prefix.get(row * stride + column).copied().unwrap_or(0);
                if let Some(slot) = prefix.get_mut((row + 1) * stride + column + 1) {
                    *slot = above + before + here - corner;
                }
            }
        }
        Ok(RectangleGame { rows: rows as u8, columns: columns as u8, row_last, column_last, prefix })
    }

    /// The whole grid as one rectangle.
    pub fn whole(&self) -> Rectangle {
        Rectangle { top: 0, left: 0, bottom: self.rows - 1, right: self.columns - 1 }
    }

    fn prefix_at(&self, row: u8, column: u8) -> u16 {
        self.prefix.get(usize::from(row) * (usize::from(self.columns) + 1) + usize::from(column)).copied().unwrap_or(0)
    }

    /// Whether `rectangle` holds no radioactive cell.
    pub fn is_free(&self, rectangle: &Rectangle) -> bool {
        let Rectangle { top, left, bottom, right } = *rectangle;
        let total = self.prefix_at(bottom + 1, right + 1) + self.prefix_at(top, left);
        let cut = self.prefix_at(top, right + 1) + self.prefix_at(bottom + 1, left);
        total == cut
    }

    /// Whether an H colony on `row` within columns `left..=right` spreads without meeting a radioactive cell.
    fn row_is_clear(&self, row: u8, left: u8, right: u8) -> bool {
        let index = usize::from(row) * usize::from(self.columns) + usize::from(right);
        self.row_last.get(index).is_some_and(|&last| last <= left)
    }

    /// Whether a V colony on `column` within rows `top..=bottom` spreads without meeting a radioactive cell.
    fn column_is_clear(&self, column: u8, top: u8, bottom: u8) -> bool {
        let index = usize::from(column) * usize::from(self.rows) + usize::from(bottom);
        self.column_last.get(index).is_some_and(|&last| last <= top)
    }

    /// Calls `visit(parts, count, opening)` for each legal move class of `rectangle`: a full row (`opening` =
    /// `Opening::Row`) or a full column, with the rectangles it leaves and how many cells give it.
    fn for_each_option(&self, rectangle: &Rectangle, visit: &mut dyn FnMut(&[Rectangle], u64, Opening)) {
        let Rectangle { top, left, bottom, right } = *rectangle;
        let (height, width) = (rectangle.height(), rectangle.width());
        if height == 1 && width == 1 {
            // H and V on a lone cell give the same (empty) result: one option reached by two moves.
            if self.row_is_clear(top, left, right) {
                visit(&[], 2, Opening::Cell);
            }
            return;
        }
        for row in top..=bottom {
            if self.row_is_clear(row, left, right) {
                let mut parts = [*rectangle; 2];
                let mut count = 0;
                if row > top {
                    parts[count] = Rectangle { bottom: row - 1, ..*rectangle };
                    count += 1;
                }
                if row < bottom {
                    parts[count] = Rectangle { top: row + 1, ..*rectangle };
                    count += 1;
                }
                visit(&parts[..count], u64::from(width), Opening::Row(row));
            }
        }
        for column in left..=right {
            if self.column_is_clear(column, top, bottom) {
                let mut parts = [*rectangle; 2];
                let mut count = 0;
                if column > left {
                    parts[count] = Rectangle { right: column - 1, ..*rectangle };
                    count += 1;
                }
                if column < right {
                    parts[count] = Rectangle { left: column + 1, ..*rectangle };
                    count += 1;
                }
                visit(&parts[..count], u64::from(height), Opening::Column(column));
            }
        }
    }
}

/// Which line of the whole grid a move class fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opening {
    /// A row (H colonies on any of its cells).
    Row(u8),
    /// A column (V colonies on any of its cells).
    Column(u8),
    /// A lone cell (H or V).
    Cell,
}

impl Impartial for RectangleGame {
    type Component = Rectangle;
    type Key = u32;

    fn key(&self, rectangle: &Rectangle) -> u32 {
        if self.is_free(rectangle) {
            let (height, width) = (u32::from(rectangle.height()), u32::from(rectangle.width()));
            FREE_KEY | (height.min(width) << 8) | height.max(width)
        } else {
            u32::from(rectangle.top)
                | (u32::from(rectangle.left) << 6)
                | (u32::from(rectangle.bottom) << 12)
                | (u32::from(rectangle.right) << 18)
        }
    }

    fn options(&self, rectangle: &Rectangle, emit: &mut dyn FnMut(&[Rectangle], u64)) {
        self.for_each_option(rectangle, &mut |parts, count, _| emit(parts, count));
    }
}

/// A winning opening line: `moves` colonies of type `colony` placed anywhere on `line` (1-based) all win.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct WinningLine {
    /// `H` (a row), `V` (a column), or `H or V` on a 1 x 1 grid.
    pub colony: &'static str,
    /// The line, for example `row 3`.
    pub line: String,
    /// The number of opening moves on it (its cells; 2 on a 1 x 1 grid).
    pub moves: u64,
}

/// The `fast` solver's state: one Grundy table kept across the cases of an input (free-rectangle nimbers stay,
/// per-grid entries are dropped between cases).
#[derive(Clone, Debug, Default)]
pub struct FastSolver {
    engine: GrundyEngine<u32>,
}

impl FastSolver {
    /// A solver with an empty table.
    pub fn new() -> Self {
        FastSolver { engine: GrundyEngine::new() }
    }

    /// The nimber of the whole grid (0 exactly when Becca, moving first, loses).
    pub fn nimber(&mut self, grid: &Grid) -> Result<u32> {
        self.engine.retain(is_shared_key);
        let game = RectangleGame::new(grid)?;
        Ok(self.engine.nimber(&game, &game.whole()))
    }

    /// The number of Becca's winning opening moves (cell + colony type), 0 if she loses.
    pub fn winning_openings(&mut self, grid: &Grid) -> Result<u64> {
        Ok(self.solve(grid)?.0)
    }

    /// The number of Becca's winning openings and the nimber of the whole grid.
    pub fn solve(&mut self, grid: &Grid) -> Result<(u64, u32)> {
        let (count, nimber, _) = self.solve_case(grid, false)?;
        Ok((count, nimber))
    }

    /// Becca's winning openings grouped by the line they fill (all the cells of a winning row or column win
    /// alike), in the order rows then columns; empty when she loses.
    pub fn winning_lines(&mut self, grid: &Grid) -> Result<Vec<WinningLine>> {
        Ok(self.solve_case(grid, true)?.2.unwrap_or_default())
    }

    /// The count, the nimber and (if `with_lines`) the winning lines of one grid, from one table.
    fn solve_case(&mut self, grid: &Grid, with_lines: bool) -> Result<(u64, u32, Option<Vec<WinningLine>>)> {
        self.engine.retain(is_shared_key);
        let game = RectangleGame::new(grid)?;
        let whole = game.whole();
        let count = self.engine.winning_moves(&game, &[whole]);
        let nimber = self.engine.nimber(&game, &whole);
        if !with_lines {
            return Ok((count, nimber, None));
        }
        let mut lines = Vec::new();
        let engine = &mut self.engine;
        game.for_each_option(&whole, &mut |parts, moves, opening| {
            if parts.iter().fold(0, |acc, part| acc ^ engine.nimber(&game, part)) == 0 {
                let (colony, line) = match opening {
                    Opening::Row(row) => ("H", format!("row {}", u32::from(row) + 1)),
                    Opening::Column(column) => ("V", format!("column {}", u32::from(column) + 1)),
                    Opening::Cell => ("H or V", "the only cell".to_string()),
                };
                lines.push(WinningLine { colony, line, moves });
            }
        });
        Ok((count, nimber, Some(lines)))
    }

    /// The statistics of the Grundy engine.
    pub fn stats(&self) -> ludus_framework::Stats {
        self.engine.stats()
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The generic game: the rules as written, over sets of filled cells.
// ---------------------------------------------------------------------------------------------------------------

/// A colony type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colony {
    /// H: spreads west and east.
    Horizontal,
    /// V: spreads north and south.
    Vertical,
}

/// A move of the generic game: a colony placed on an empty cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The cell's row.
    pub row: u8,
    /// The cell's column.
    pub column: u8,
    /// The colony type.
    pub colony: Colony,
}

/// A position of the generic game: the filled cells (bit `row * C + column`), and whether the last colony
/// mutated (which ends the game, lost for the player who placed it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The cells holding bacteria.
    pub filled: u128,
    /// Whether the last move mutated.
    pub mutated: bool,
}

/// Bacterial Tactics as a plain two-player [`Game`] over sets of filled cells, for grids of at most
/// [`GENERIC_HARD_CELLS`] cells. Every empty cell offers an H and a V move; a move whose spread would enter a
/// radioactive cell is a legal move that ends the game with a loss for its mover.
#[derive(Clone, Debug)]
pub struct SpreadGame {
    rows: usize,
    columns: usize,
    radioactive: u128,
    full: u128,
}

impl SpreadGame {
    /// The game on `grid`; an [`Error::Limit`] if the grid has more than [`GENERIC_HARD_CELLS`] cells.
    pub fn new(grid: &Grid) -> Result<Self> {
        let cells = grid.rows * grid.columns;
        if cells > GENERIC_HARD_CELLS {
            return Err(Error::limit_with_hint(
                "grid cells for the generic solver (its u128 bitmask)",
                cells as u64,
                GENERIC_HARD_CELLS as u64,
                "use the `fast` solver",
            ));
        }
        let mut radioactive = 0u128;
        for row in 0..grid.rows {
            for column in 0..grid.columns {
                if grid.is_radioactive(row, column) {
                    radioactive |= 1u128 << (row * grid.columns + column);
                }
            }
        }
        let full = if cells == 128 { u128::MAX } else { (1u128 << cells) - 1 };
        Ok(SpreadGame { rows: grid.rows, columns: grid.columns, radioactive, full })
    }

    /// The starting position: nothing filled.
    pub fn start(&self) -> Board {
        Board { filled: 0, mutated: false }
    }

    fn bit(&self, row: usize, column: usize) -> u128 {
        1u128 << (row * self.columns + column)
    }
}

impl Game for SpreadGame {
    type Position = Board;
    type Move = Placement;

    fn moves(&self, board: &Board, moves: &mut Vec<Placement>) {
        if board.mutated {
            return;
        }
        let occupied = board.filled | self.radioactive;
        for row in 0..self.rows {
            for column in 0..self.columns {
                if occupied & self.bit(row, column) == 0 {
                    for colony in [Colony::Horizontal, Colony::Vertical] {
                        moves.push(Placement { row: row as u8, column: column as u8, colony });
                    }
                }
            }
        }
    }

    fn play(&self, board: &Board, placement: &Placement) -> Board {
        let (row, column) = (usize::from(placement.row), usize::from(placement.column));
        let mut filled = board.filled | self.bit(row, column);
        // The cells the spread walks through, in both directions, from next to the placed cell outwards.
        let walks: [Vec<(usize, usize)>; 2] = match placement.colony {
            Colony::Horizontal => {
                [(0..column).rev().map(|c| (row, c)).collect(), (column + 1..self.columns).map(|c| (row, c)).collect()]
            }
            Colony::Vertical => {
                [(0..row).rev().map(|r| (r, column)).collect(), (row + 1..self.rows).map(|r| (r, column)).collect()]
            }
        };
        for walk in &walks {
            for &(r, c) in walk {
                let bit = self.bit(r, c);
                if board.filled & bit != 0 {
                    break;
                }
                if self.radioactive & bit != 0 {
                    return Board { filled: board.filled, mutated: true };
                }
                filled |= bit;
            }
        }
        Board { filled, mutated: false }
    }

    fn outcome(&self, board: &Board) -> Option<Value> {
        if board.mutated {
            // The player who placed the last colony lost: the player to move has won.
            Some(Value::Win(0))
        } else if (board.filled | self.radioactive) == self.full {
            Some(Value::LOST)
        } else {
            None
        }
    }
}

/// No hints: the rules as written, searched move by move.
impl SearchHints for SpreadGame {}

impl Canonicalize for SpreadGame {
    type Key = Board;

    fn canonical(&self, board: &Board) -> Board {
        *board
    }
}

/// The number of Becca's winning openings on `grid` by memoized negamax over [`SpreadGame`], counted move by
/// move with [`analysis::count_winning_moves`], and the value of the start for Becca. No size check beyond the
/// bitmask's (see [`GENERIC_CELLS`]).
pub fn generic_winning_openings(grid: &Grid) -> Result<(u64, Value, Stats)> {
    use ludus_framework::engines::Engine;
    let game = SpreadGame::new(grid)?;
    let mut engine = MemoNegamax::new(Mode::Outcome);
    let winning = analysis::count_winning_moves(&mut engine, &game, &game.start()) as u64;
    let value = engine.value(&game, &game.start());
    Ok((winning, value, engine.stats()))
}

// ---------------------------------------------------------------------------------------------------------------
// The plugin.
// ---------------------------------------------------------------------------------------------------------------

/// The `bacterial-tactics` plugin.
#[derive(Clone, Copy, Debug, Default)]
pub struct BacterialTactics;

const SOLVERS: &[SolverInfo] = &[
    SolverInfo {
        name: "fast",
        summary: "Sprague-Grundy over sub-rectangles (GrundyEngine, O(1) row/column checks, free-rectangle \
                  nimbers shared by size); grids up to 64 x 64",
    },
    SolverInfo {
        name: "generic",
        summary: "memoized negamax over sets of filled cells, winning openings counted move by move; up to 16 \
                  cells (a 4 x 4 grid), up to 128 with --no-limit",
    },
    SolverInfo {
        name: "parallel",
        summary: "the fast solver on several cases at once, one Grundy table per worker thread (--threads); \
                  grids up to 64 x 64",
    },
];

/// Parses the answer text of one case: a single non-negative integer.
fn parse_claim(text: &str) -> std::result::Result<u64, String> {
    let mut tokens = text.split_whitespace();
    let claim = match (tokens.next(), tokens.next()) {
        (Some(token), None) if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) => token,
        _ => {
            return Err(format!(
                "expected one non-negative integer (Becca's winning opening moves), found `{}`",
                text.trim()
            ))
        }
    };
    claim.parse::<u64>().map_err(|_| format!("the number `{claim}` is too large"))
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

/// The self-check of a solver's count against the same solver's value of the whole grid (computed apart, from
/// the table): within bounds, and positive exactly when Becca wins.
fn consistent(grid: &Grid, count: u64, becca_wins: bool) -> std::result::Result<(), Violation> {
    within_bounds(grid, count)?;
    if (count > 0) != becca_wins {
        return Err(Violation::new(format!(
            "{count} winning openings counted, but the position's value says Becca {}",
            if becca_wins { "wins" } else { "loses" }
        )));
    }
    Ok(())
}

/// Judges a claimed count against the right one.
fn judge(grid: &Grid, claimed: u64, expected: u64) -> std::result::Result<(), Violation> {
    within_bounds(grid, claimed)?;
    match (claimed == expected, expected) {
        (true, _) => Ok(()),
        (false, 0) => Err(Violation::new(format!("Becca loses this grid under optimal play (0), not {claimed}"))),
        (false, _) => Err(Violation::new(format!("Becca has {expected} winning opening moves, not {claimed}"))),
    }
}

fn answer(count: u64, solver: &str, lines: Option<Vec<WinningLine>>) -> CaseAnswer {
    let mut data = json!({ "becca_wins": count > 0, "winning_openings": count, "solver": solver });
    if let (Some(lines), Some(object)) = (lines, data.as_object_mut()) {
        object.insert("winning_lines".to_string(), json!(lines));
    }
    CaseAnswer::exact(format!(" {count}"), data)
}

/// Solves one grid with `solver` and checks the answer before it is returned: the count is within bounds and
/// positive exactly when the nimber is, and the winning lines (with `--witness`) hold exactly `count` moves.
fn solve_checked(
    solver: &mut FastSolver,
    grid: &Grid,
    case: usize,
    with_lines: bool,
) -> Result<(u64, Option<Vec<WinningLine>>)> {
    let (count, nimber, lines) = solver.solve_case(grid, with_lines)?;
    self_check(case, consistent(grid, count, nimber != 0))?;
    if let Some(lines) = &lines {
        let total: u64 = lines.iter().map(|line| line.moves).sum();
        if total != count {
            let reason = format!("the winning lines hold {total} moves, but {count} were counted");
            self_check(case, Err(Violation::new(reason)))?;
        }
    }
    Ok((count, lines))
}

impl BacterialTactics {
    fn solve_fast(&self, grids: &[Grid], wanted: bool, progress: &dyn Progress) -> Result<Vec<CaseAnswer>> {
        let mut solver = FastSolver::new();
        let mut answers = Vec::with_capacity(grids.len());
        for (index, grid) in grids.iter().enumerate() {
            let (count, lines) = solve_checked(&mut solver, grid, index + 1, wanted)?;
            answers.push(answer(count, "fast", lines));
            progress.advance(1);
        }
        progress.record(&solver.stats());
        Ok(answers)
    }

    fn solve_parallel(
        &self,
        grids: &[Grid],
        options: &SolveOptions,
        progress: &dyn Progress,
    ) -> Result<Vec<CaseAnswer>> {
        type Solved = Result<(u64, Option<Vec<WinningLine>>)>;
        let solved: Vec<Solved> = with_threads(options.threads, || {
            grids
                .par_iter()
                .enumerate()
                .map_init(FastSolver::new, |solver, (index, grid)| {
                    let before = solver.stats();
                    let solved = solve_checked(solver, grid, index + 1, options.witness);
                    let after = solver.stats();
                    progress.record(&Stats {
                        visited: after.visited - before.visited,
                        table_entries: after.table_entries.saturating_sub(before.table_entries),
                        hits: after.hits - before.hits,
                    });
                    progress.advance(1);
                    solved
                })
                .collect()
        })?;
        let mut answers = Vec::with_capacity(grids.len());
        for solved in solved {
            let (count, lines) = solved?;
            answers.push(answer(count, "parallel", lines));
        }
        Ok(answers)
    }

    fn solve_generic(&self, grids: &[Grid], no_limit: bool, progress: &dyn Progress) -> Result<Vec<CaseAnswer>> {
        for (index, grid) in grids.iter().enumerate() {
            let cells = grid.rows * grid.columns;
            if cells > GENERIC_CELLS && !no_limit {
                return Err(Error::limit_with_hint(
                    format!("grid cells in case {} for the generic solver", index + 1),
                    cells as u64,
                    GENERIC_CELLS as u64,
                    "use the `fast` solver, or run `generic` anyway with --no-limit (SolveOptions::no_limit)",
                ));
            }
            SpreadGame::new(grid)?;
        }
        let mut answers = Vec::with_capacity(grids.len());
        for (index, grid) in grids.iter().enumerate() {
            let (count, value, stats) = generic_winning_openings(grid)?;
            progress.record(&stats);
            self_check(index + 1, consistent(grid, count, value.is_win()))?;
            answers.push(answer(count, "generic", None));
            progress.advance(1);
        }
        Ok(answers)
    }
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

/// What the CLI shows of this plugin, and its bundled sample.
static ABOUT: About = About {
    name: "bacterial-tactics",
    kind: Kind::Impartial,
    summary:
        "Bacterial Tactics (Code Jam 2019 1C): Becca's number of winning openings on a grid with radioactive cells",
    solvers: SOLVERS,
    sample: Sample {
        input: include_str!("../../../samples/bacterial-tactics/sample.in"),
        answer: include_str!("../../../samples/bacterial-tactics/sample.ans"),
    },
    comparison: Comparison::Text,
};

impl Plugin for BacterialTactics {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn solve(&self, input: Source<'_>, options: &SolveOptions, progress: &dyn Progress) -> Result<Vec<CaseAnswer>> {
        let solver = self.solver(&options.solver)?.name;
        let grids = parse(input)?;
        progress.start(grids.len() as u64);
        match solver {
            "generic" => self.solve_generic(&grids, options.no_limit, progress),
            "parallel" => self.solve_parallel(&grids, options, progress),
            _ => self.solve_fast(&grids, options.witness, progress),
        }
    }

    fn judge(&self, input: Source<'_>, output: Source<'_>) -> Result<Vec<CaseVerdict>> {
        let grids = parse(input)?;
        let mut solver = FastSolver::new();
        Ok(judge_cases(output, &grids, |grid, block| {
            let claimed = parse_claim(block.text)?;
            let expected = solver.winning_openings(grid).map_err(|error| error.to_string())?;
            judge(grid, claimed, expected).map_err(|violation| violation.reason)
        }))
    }

    fn generate(&self, options: &GenOptions, seed: u64) -> Result<String> {
        let (default_side, default_cases) = match options.preset {
            Preset::Small => (4, 10),
            Preset::Official => (15, MAX_CASES),
        };
        let side = options.size.unwrap_or(default_side);
        if side == 0 {
            return Err(Error::Unsupported("the grid side (--size) must be at least 1".to_string()));
        }
        if side > MAX_SIDE {
            return Err(Error::limit("the grid side (--size)", side as u64, MAX_SIDE as u64));
        }
        let cases = options.cases.unwrap_or(default_cases).min(MAX_CASES);
        if cases == 0 {
            return Err(Error::Unsupported("the number of cases must be at least 1".to_string()));
        }
        let mut rng = seeded_rng(seed);
        let mut text = format!("{cases}\n");
        for _ in 0..cases {
            text.push_str(&random_grid(&mut rng, side));
        }
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_keys_merge_transposes_and_grid_keys_do_not() {
        let grid = Grid::from_rows(&["...", "..#"]).unwrap();
        let game = RectangleGame::new(&grid).unwrap();
        let tall = Rectangle { top: 0, left: 0, bottom: 1, right: 0 };
        let wide = Rectangle { top: 0, left: 0, bottom: 0, right: 1 };
        assert_eq!(game.key(&tall), game.key(&wide));
        assert!(is_shared_key(&game.key(&tall)));
        assert!(!game.is_free(&game.whole()));
        assert!(!is_shared_key(&game.key(&game.whole())));
    }

    #[test]
    fn line_checks_follow_the_radioactive_cells() {
        let grid = Grid::from_rows(&[".#..#"]).unwrap();
        let game = RectangleGame::new(&grid).unwrap();
        assert!(game.row_is_clear(0, 2, 3));
        assert!(!game.row_is_clear(0, 1, 3));
        assert!(!game.row_is_clear(0, 2, 4));
        assert!(game.column_is_clear(0, 0, 0));
        assert!(!game.column_is_clear(1, 0, 0));
    }
}
