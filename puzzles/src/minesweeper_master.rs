//! The `minesweeper-master` plugin (Code Jam 2014 Qualification Round): place M mines on an R x C grid and
//! pick a cell so that one click reveals every safe cell, or prove that no such layout exists.
//!
//! - [`MinesweeperPuzzle`]'s [`Verify`] judges a board by the rules: right size, only `*`, `.` and `c`, exactly
//!   M mines, exactly one click, and a flood fill from the click reveals every safe cell.
//! - Its [`Construct`] (the `fast` solver) is the analysis's case analysis, phrased as a "staircase" of safe
//!   cells in the top-left corner (see [`staircase`]). It is linear in the size of the board; boards up to
//!   [`MAX_CELLS`] cells are accepted.
//! - Its [`Enumerate`] lists every mine layout with every safe click cell; the `generic` solver runs the
//!   framework's brute-force constructor over it: exhaustively for boards of at most [`GENERIC_MAX_CELLS`] cells
//!   (or with `SolveOptions::no_limit`, `--no-limit`); on larger boards it tries the first
//!   [`GENERIC_LAYOUT_BUDGET`] mine layouts and returns an `Error::Limit` if none is valid (see [`generic`]).
//!
//! An `Impossible` answer is judged against the fast constructor, and also against brute force on boards of at
//! most [`VERIFY_BRUTE_FORCE_MAX_CELLS`] cells: if a valid board exists the claim is rejected.

use ludus_framework::engines::brute_force::brute_force;
use ludus_framework::input::{Reader, Source};
use ludus_framework::plugin::{
    self, About, CaseAnswer, CaseVerdict, Comparison, GenOptions, Kind, Plugin, Preset, Progress, Sample, SeededRng,
    SolveOptions, SolverInfo,
};
use ludus_framework::{Construct, Enumerate, Error, Puzzle, Result, Verify, Violation};
use rand::Rng;
use std::ops::ControlFlow;

/// The most cells (R x C) one case may have: 4,000,000 (for example 2000 x 2000). The answer is a board of
/// that many characters, so this bounds the memory a case takes.
pub const MAX_CELLS: u64 = 4_000_000;
/// The most cells all the cases of one input may have together (16,000,000): bounds the size of the answer file.
pub const MAX_TOTAL_CELLS: u64 = 16_000_000;
/// The most cases one input may have (the official inputs have at most 230).
pub const MAX_CASES: usize = 10_000;
/// The largest board (in cells) the `generic` brute-force solver searches exhaustively without `--no-limit`:
/// 25 (5 x 5).
pub const GENERIC_MAX_CELLS: u64 = 25;
/// On boards above [`GENERIC_MAX_CELLS`] cells the `generic` solver still tries this many mine layouts (each
/// with every click); it answers if it finds a valid board among them, and otherwise stops with an
/// `Error::Limit` (it never says `Impossible` without having tried every layout). This lets it solve the
/// bundled sample's 4 x 7 and 10 x 10 cases, whose valid layouts come early in the enumeration.
pub const GENERIC_LAYOUT_BUDGET: u64 = 1_000_000;
/// `Impossible` claims on boards of at most this many cells are also checked by brute force (beyond the fast
/// constructor, which the tests compare against brute force on every instance of at most 5 x 5).
pub const VERIFY_BRUTE_FORCE_MAX_CELLS: usize = 16;

/// The character of a mine.
pub const MINE: u8 = b'*';
/// The character of a safe cell.
pub const SAFE: u8 = b'.';
/// The character of the clicked (safe) cell.
pub const CLICK: u8 = b'c';

/// One case: an R x C grid with M mines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instance {
    /// R, the number of rows (at least 1).
    pub rows: usize,
    /// C, the number of columns (at least 1).
    pub columns: usize,
    /// M, the number of mines (fewer than R x C).
    pub mines: usize,
}

impl Instance {
    /// An instance of `rows` x `columns` cells with `mines` mines.
    pub fn new(rows: usize, columns: usize, mines: usize) -> Self {
        Instance { rows, columns, mines }
    }

    /// R x C.
    pub fn cells(&self) -> usize {
        self.rows.saturating_mul(self.columns)
    }

    /// The number of safe cells, R x C - M (0 if M is too large).
    pub fn safe_cells(&self) -> usize {
        self.cells().saturating_sub(self.mines)
    }
}

/// A proposed board: the rows as written (each a string of `*`, `.` and `c` when well formed). The rows are
/// kept as written so that the verifier can judge sizes and characters itself.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The rows, top to bottom, as bytes.
    pub rows: Vec<Vec<u8>>,
}

impl Board {
    /// A board from its text rows.
    pub fn from_rows<Row: AsRef<str>>(rows: &[Row]) -> Self {
        Board { rows: rows.iter().map(|row| row.as_ref().as_bytes().to_vec()).collect() }
    }

    /// The rows as strings (non-UTF-8 bytes are replaced).
    pub fn lines(&self) -> Vec<String> {
        self.rows.iter().map(|row| String::from_utf8_lossy(row).into_owned()).collect()
    }

    /// The rows joined by newlines (no trailing newline).
    pub fn to_text(&self) -> String {
        self.lines().join("\n")
    }

    /// The first click cell `c` (0-based row and column), if any.
    pub fn click(&self) -> Option<(usize, usize)> {
        self.rows
            .iter()
            .enumerate()
            .find_map(|(row, cells)| cells.iter().position(|&cell| cell == CLICK).map(|column| (row, column)))
    }
}

/// The puzzle: [`Verify`], [`Construct`] (the fast constructor) and [`Enumerate`] (for brute force).
#[derive(Clone, Copy, Debug, Default)]
pub struct MinesweeperPuzzle;

/// The `minesweeper-master` plugin (its puzzle is [`MinesweeperPuzzle`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct MinesweeperMaster;

impl Puzzle for MinesweeperPuzzle {
    type Instance = Instance;
    type Solution = Board;
}

/// `row r, column c` with 1-based numbers.
fn place(row: usize, column: usize) -> String {
    format!("row {}, column {}", row + 1, column + 1)
}

impl Verify for MinesweeperPuzzle {
    fn verify(&self, instance: &Instance, board: &Board) -> std::result::Result<(), Violation> {
        let (rows, columns) = (instance.rows, instance.columns);
        if board.rows.len() != rows {
            return Err(Violation::new(format!("the board has {} rows, expected R = {rows}", board.rows.len())));
        }
        let mut mines = 0usize;
        let mut clicks: Vec<(usize, usize)> = Vec::with_capacity(0);
        for (row, cells) in board.rows.iter().enumerate() {
            if cells.len() != columns {
                return Err(Violation::new(format!(
                    "row {} has {} characters, expected C = {columns}",
                    row + 1,
                    cells.len()
                )));
            }
            for (column, &cell) in cells.iter().enumerate() {
                match cell {
                    MINE => mines += 1,
                    SAFE => {}
                    CLICK => clicks.push((row, column)),
                    other => {
                        return Err(Violation::new(format!(
                            "{}: `{}` is not `*` (mine), `.` (safe) or `c` (click)",
                            place(row, column),
                            char::from(other).escape_default()
                        )))
                    }
                }
            }
        }
        if mines != instance.mines {
            return Err(Violation::new(format!("the board has {mines} mines, expected M = {}", instance.mines)));
        }
        let (click_row, click_column) = match clicks.as_slice() {
            [] => return Err(Violation::new("the board has no click cell `c`")),
            [single] => *single,
            [first, second, ..] => {
                return Err(Violation::new(format!(
                    "the board has {} click cells `c` (at {} and {}), expected exactly one",
                    clicks.len(),
                    place(first.0, first.1),
                    place(second.0, second.1)
                )))
            }
        };
        let (revealed, count) = reveal(&board.rows, rows, columns, click_row, click_column);
        let safe = rows * columns - mines;
        if count == safe {
            return Ok(());
        }
        let first_hidden = board.rows.iter().enumerate().find_map(|(row, cells)| {
            let column = cells.iter().enumerate().position(|(column, &cell)| {
                cell != MINE && !revealed.get(row * columns + column).copied().unwrap_or(true)
            })?;
            Some(place(row, column))
        });
        Err(Violation::new(format!(
            "clicking {} leaves {} safe cell{} hidden (the first at {})",
            place(click_row, click_column),
            safe - count,
            if safe - count == 1 { "" } else { "s" },
            first_hidden.unwrap_or_default()
        )))
    }
}

/// The cells around (`row`, `column`) on a `rows` x `columns` grid (up to 8).
fn neighbours(rows: usize, columns: usize, row: usize, column: usize) -> impl Iterator<Item = (usize, usize)> {
    let last_row = (row + 1).min(rows.saturating_sub(1));
    let last_column = (column + 1).min(columns.saturating_sub(1));
    (row.saturating_sub(1)..=last_row).flat_map(move |near_row| {
        (column.saturating_sub(1)..=last_column)
            .map(move |near_column| (near_row, near_column))
            .filter(move |&near| near != (row, column))
    })
}

/// Whether a cell next to (`row`, `column`) holds a mine.
fn touches_mine(grid: &[Vec<u8>], rows: usize, columns: usize, row: usize, column: usize) -> bool {
    neighbours(rows, columns, row, column)
        .any(|(near_row, near_column)| grid.get(near_row).and_then(|cells| cells.get(near_column)) == Some(&MINE))
}

/// The cells revealed by a click at (`click_row`, `click_column`) (flags in reading order) and how many there
/// are. `grid` must be `rows` x `columns`.
fn reveal(grid: &[Vec<u8>], rows: usize, columns: usize, click_row: usize, click_column: usize) -> (Vec<bool>, usize) {
    let mut revealed = vec![false; rows * columns];
    let mut count = 0;
    let mut stack = Vec::new();
    if let Some(flag) = revealed.get_mut(click_row * columns + click_column) {
        *flag = true;
        count += 1;
        stack.push((click_row, click_column));
    }
    while let Some((row, column)) = stack.pop() {
        if touches_mine(grid, rows, columns, row, column) {
            continue;
        }
        for (near_row, near_column) in neighbours(rows, columns, row, column) {
            if let Some(flag) = revealed.get_mut(near_row * columns + near_column) {
                if !*flag {
                    *flag = true;
                    count += 1;
                    stack.push((near_row, near_column));
                }
            }
        }
    }
    (revealed, count)
}

/// The shape of the safe region the fast constructor builds: `lengths[i]` safe cells at the left of row `i`
/// (non-increasing, summing to R x C - M), the click at the top-left corner; `None` when no valid board exists.
///
/// Why it works: with R, C >= 2, a left-aligned staircase whose first two rows are equal and whose other rows
/// are empty or hold between 2 and the row above's cells is revealed by a click at the corner: row `i`'s zeros
/// are its first `lengths[i + 1] - 1` cells (all of row `i` on the last row), they all touch column 0, so they
/// are connected, and they reveal rows `i` and `i + 1` entirely. The case analysis (from the Code Jam analysis):
/// - one safe cell: always possible; R = 1 or C = 1: always possible (a line of safe cells);
/// - R = 2 or C = 2: possible iff the safe count is even and at least 4;
/// - otherwise (R, C >= 3): impossible iff the safe count is 2, 3, 5 or 7. Full rows from the top, the rest in
///   the next row, except that a remainder of 1 takes one cell from the last full row (or, with only two full
///   rows, rows of C - 1, C - 1 and 3); below 2C safe cells: two equal rows, plus a row of 3 if the count is odd.
pub fn staircase(instance: &Instance) -> Option<Vec<usize>> {
    let (rows, columns, safe) = (instance.rows, instance.columns, instance.safe_cells());
    if rows == 0 || columns == 0 || safe == 0 || instance.mines >= instance.cells() {
        return None;
    }
    if safe == 1 {
        return Some(vec![1]);
    }
    if rows == 1 {
        return Some(vec![safe]);
    }
    if columns == 1 {
        return Some(vec![1; safe]);
    }
    if rows == 2 || columns == 2 {
        if safe % 2 == 1 || safe < 4 {
            return None;
        }
        return Some(if rows == 2 { vec![safe / 2; 2] } else { vec![2; safe / 2] });
    }
    if matches!(safe, 2 | 3 | 5 | 7) {
        return None;
    }
    if safe >= 2 * columns {
        let (full, remainder) = (safe / columns, safe % columns);
        let mut lengths = vec![columns; full];
        match remainder {
            0 => {}
            1 if full >= 3 => {
                if let Some(last) = lengths.last_mut() {
                    *last = columns - 1;
                }
                lengths.push(2);
            }
            1 => lengths = vec![columns - 1, columns - 1, 3],
            _ => lengths.push(remainder),
        }
        Some(lengths)
    } else if safe % 2 == 0 {
        Some(vec![safe / 2; 2])
    } else {
        Some(vec![(safe - 3) / 2, (safe - 3) / 2, 3])
    }
}

/// The board of a staircase shape (see [`staircase`]): safe cells at the left of each row, mines elsewhere, the
/// click at the top-left corner.
fn staircase_board(instance: &Instance, lengths: &[usize]) -> Board {
    let rows = (0..instance.rows)
        .map(|row| {
            let length = lengths.get(row).copied().unwrap_or(0).min(instance.columns);
            let mut cells = vec![MINE; instance.columns];
            cells.iter_mut().take(length).for_each(|cell| *cell = SAFE);
            if row == 0 {
                if let Some(corner) = cells.first_mut() {
                    *corner = CLICK;
                }
            }
            cells
        })
        .collect();
    Board { rows }
}

impl Construct for MinesweeperPuzzle {
    /// The fast constructor: the case analysis of [`staircase`], linear in the board size.
    fn construct(&self, instance: &Instance) -> Result<Option<Board>> {
        let cells = instance.cells() as u64;
        if cells > MAX_CELLS {
            return Err(Error::limit("grid cells R x C", cells, MAX_CELLS));
        }
        Ok(staircase(instance).map(|lengths| staircase_board(instance, &lengths)))
    }
}

impl Enumerate for MinesweeperPuzzle {
    /// Every layout of exactly M mines (subsets in lexicographic order of the cells in reading order), each with
    /// every safe cell as the click (the last cell first). Two kinds of candidates are never solutions and are
    /// not listed: a click on a mine, and (with more than one safe cell) a click next to a mine, which reveals
    /// only itself.
    fn candidates(&self, instance: &Instance, visit: &mut dyn FnMut(&Board) -> ControlFlow<()>) {
        enumerate_layouts(instance, u64::MAX, visit);
    }
}

/// The enumeration of [`Enumerate::candidates`], stopped after `layout_budget` mine layouts; returns whether
/// the budget stopped it (rather than the end of the layouts or `visit`).
fn enumerate_layouts(
    instance: &Instance,
    layout_budget: u64,
    visit: &mut dyn FnMut(&Board) -> ControlFlow<()>,
) -> bool {
    let (rows, columns, mines) = (instance.rows, instance.columns, instance.mines);
    let cells = instance.cells();
    if rows == 0 || columns == 0 || mines >= cells {
        return false;
    }
    let mut chosen: Vec<usize> = (0..mines).collect();
    let mut board = Board { rows: vec![vec![SAFE; columns]; rows] };
    let mut layouts = 0u64;
    loop {
        if layouts == layout_budget {
            return true;
        }
        layouts += 1;
        for row in board.rows.iter_mut() {
            row.iter_mut().for_each(|cell| *cell = SAFE);
        }
        for &cell in &chosen {
            set_cell(&mut board, cell / columns, cell % columns, MINE);
        }
        for cell in (0..cells).rev() {
            let (row, column) = (cell / columns, cell % columns);
            let current = board.rows.get(row).and_then(|cells| cells.get(column)).copied();
            if current != Some(SAFE) || (cells - mines > 1 && touches_mine(&board.rows, rows, columns, row, column)) {
                continue;
            }
            set_cell(&mut board, row, column, CLICK);
            let flow = visit(&board);
            set_cell(&mut board, row, column, SAFE);
            if flow.is_break() {
                return false;
            }
        }
        // The next M-subset of 0..cells in lexicographic order.
        let Some(position) = (0..mines).rev().find(|&index| chosen.get(index) < Some(&(cells - mines + index))) else {
            return false;
        };
        let first = chosen.get(position).map_or(0, |value| value + 1);
        for (next, slot) in (first..).zip(chosen.iter_mut().skip(position)) {
            *slot = next;
        }
    }
}

/// Writes `value` at (`row`, `column`) if the cell exists.
fn set_cell(board: &mut Board, row: usize, column: usize, value: u8) {
    if let Some(slot) = board.rows.get_mut(row).and_then(|cells| cells.get_mut(column)) {
        *slot = value;
    }
}

/// The `generic` solver: brute force over every mine layout and click (the framework's `brute_force` over
/// [`Enumerate`]). Boards of at most [`GENERIC_MAX_CELLS`] cells (and any board with `no_limit`) are searched
/// exhaustively; larger boards get [`GENERIC_LAYOUT_BUDGET`] mine layouts, and an `Error::Limit` naming
/// `--no-limit` if no valid board is among them.
pub fn generic(instance: &Instance, case: usize, no_limit: bool) -> Result<Option<Board>> {
    let cells = instance.cells() as u64;
    if cells <= GENERIC_MAX_CELLS || no_limit {
        return Ok(brute_force(&MinesweeperPuzzle, instance).0);
    }
    let budgeted = Budgeted { budget: GENERIC_LAYOUT_BUDGET, cut: std::cell::Cell::new(false) };
    match brute_force(&budgeted, instance).0 {
        Some(board) => Ok(Some(board)),
        None if !budgeted.cut.get() => Ok(None),
        None => Err(Error::limit_with_hint(
            format!(
                "case {case} has {cells} cells (brute force is exhaustive up to {GENERIC_MAX_CELLS}) and the generic \
                 solver found no valid board among the first mine layouts; the number of layouts it would have to try"
            ),
            binomial(cells, instance.mines as u64),
            GENERIC_LAYOUT_BUDGET,
            "use the `fast` solver, or run the exhaustive brute force with --no-limit (SolveOptions::no_limit)",
        )),
    }
}

/// `n` choose `k`, saturating at `u64::MAX`.
fn binomial(n: u64, k: u64) -> u64 {
    let k = k.min(n.saturating_sub(k));
    let mut value: u128 = 1;
    for step in 0..k {
        value = value * u128::from(n - step) / u128::from(step + 1);
        if value > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    value as u64
}

/// [`MinesweeperPuzzle`] with its enumeration cut after `budget` mine layouts; `cut` records whether it was.
/// (The framework's `brute_force` takes no budget, so this wrapper provides one.)
struct Budgeted {
    /// The most mine layouts enumerated.
    budget: u64,
    /// Set when the enumeration stopped because of the budget.
    cut: std::cell::Cell<bool>,
}

impl Puzzle for Budgeted {
    type Instance = Instance;
    type Solution = Board;
}

impl Verify for Budgeted {
    fn verify(&self, instance: &Instance, board: &Board) -> std::result::Result<(), Violation> {
        MinesweeperPuzzle.verify(instance, board)
    }
}

impl Enumerate for Budgeted {
    fn candidates(&self, instance: &Instance, visit: &mut dyn FnMut(&Board) -> ControlFlow<()>) {
        self.cut.set(enumerate_layouts(instance, self.budget, visit));
    }
}

/// The largest board (in cells) the `backtrack` solver takes: 10,000 (100 x 100); each node of its search
/// floods the whole board.
pub const BACKTRACK_MAX_CELLS: u64 = 10_000;
/// The most search nodes the `backtrack` solver visits before it gives up with `Error::Budget`.
pub const BACKTRACK_MAX_NODES: u64 = 1_000_000;

/// The analysis's simpler solver, independent of the case analysis: mines left-aligned in each row, the mine
/// counts non-increasing from top to bottom, the click at the bottom-right cell; rows are filled top-down
/// (most mines first) by backtracking. A partial layout (rows below still empty) is pruned as soon as clicking
/// the bottom-right cell leaves a safe cell of the decided rows hidden: more mines below only shrink the
/// revealed region, and the decided rows keep their safe cells. The analysis observes (and the tests confirm against brute force and the case
/// analysis) that this space holds a valid board whenever one exists.
pub fn backtrack(instance: &Instance) -> Result<Option<Board>> {
    let cells = instance.cells() as u64;
    if cells > BACKTRACK_MAX_CELLS {
        return Err(Error::limit("grid cells R x C for the backtrack solver", cells, BACKTRACK_MAX_CELLS));
    }
    if instance.rows == 0 || instance.columns == 0 || instance.mines >= instance.cells() {
        return Ok(None);
    }
    let mut search = RowSearch { instance: *instance, counts: vec![0; instance.rows], nodes: 0 };
    if search.fill(0, instance.mines, instance.columns)? {
        Ok(Some(search.board(instance.rows)))
    } else {
        Ok(None)
    }
}

/// The state of [`backtrack`]: the mine count of each row decided so far.
struct RowSearch {
    /// The instance searched.
    instance: Instance,
    /// Mines at the left of each row (rows not yet decided hold 0).
    counts: Vec<usize>,
    /// Search nodes visited.
    nodes: u64,
}

impl RowSearch {
    /// The board of the first `decided` rows' counts (the rows below without mines), clicked at the bottom right.
    fn board(&self, decided: usize) -> Board {
        let columns = self.instance.columns;
        let mut rows: Vec<Vec<u8>> = (0..self.instance.rows)
            .map(|row| {
                let mines = if row < decided { self.counts.get(row).copied().unwrap_or(0) } else { 0 };
                (0..columns).map(|column| if column < mines { MINE } else { SAFE }).collect()
            })
            .collect();
        if let Some(corner) = rows.last_mut().and_then(|cells| cells.last_mut()) {
            if *corner == SAFE {
                *corner = CLICK;
            }
        }
        Board { rows }
    }

    /// Whether the click at the bottom right of the board of the first `decided` rows (the rows below without
    /// mines) reveals every safe cell of those rows. With every row decided, whether the layout is valid.
    fn clears(&self, decided: usize) -> bool {
        let board = self.board(decided);
        let (rows, columns) = (self.instance.rows, self.instance.columns);
        let (Some(click_row), Some(click_column)) = (rows.checked_sub(1), columns.checked_sub(1)) else {
            return false;
        };
        if board.rows.get(click_row).and_then(|cells| cells.get(click_column)) != Some(&CLICK) {
            return false;
        }
        let (revealed, _) = reveal(&board.rows, rows, columns, click_row, click_column);
        self.counts.iter().take(decided).enumerate().all(|(row, &mines)| {
            (mines..columns).all(|column| revealed.get(row * columns + column).copied().unwrap_or(false))
        })
    }

    /// Decides rows `row..` with `remaining` mines, at most `most` per row; true when a valid layout is found
    /// (left in `counts`).
    fn fill(&mut self, row: usize, remaining: usize, most: usize) -> Result<bool> {
        self.nodes += 1;
        if self.nodes > BACKTRACK_MAX_NODES {
            return Err(Error::Budget(ludus_framework::Budget::Positions(BACKTRACK_MAX_NODES)));
        }
        if row == self.instance.rows {
            return Ok(remaining == 0 && self.clears(row));
        }
        let rows_left = self.instance.rows - row;
        for mines in (0..=most.min(remaining)).rev() {
            // The rows below hold at most `mines` each.
            if remaining - mines > mines * (rows_left - 1) {
                break;
            }
            if let Some(count) = self.counts.get_mut(row) {
                *count = mines;
            }
            if self.clears(row + 1) && self.fill(row + 1, remaining - mines, mines)? {
                return Ok(true);
            }
        }
        if let Some(count) = self.counts.get_mut(row) {
            *count = 0;
        }
        Ok(false)
    }
}

/// Reads and checks a whole input: T, then R C M per case.
pub fn parse_input(input: Source<'_>) -> Result<Vec<Instance>> {
    let mut reader = Reader::new(&input);
    let count = reader.bounded("the number of cases T", 1, MAX_CASES as u64, "")? as usize;
    let mut instances = Vec::with_capacity(count);
    let mut total = 0u64;
    for case in 1..=count {
        reader.set_context(format!("case {case}"));
        let rows = reader.number::<u64>("R (the number of rows)", 1, MAX_CELLS)?;
        let columns = reader.number::<u64>("C (the number of columns)", 1, MAX_CELLS)?;
        let cells = rows * columns;
        if cells > MAX_CELLS {
            let (line, _) = reader.line_column(reader.offset());
            return Err(Error::limit(
                format!("{}:{line}: case {case}: the number of grid cells R x C = {rows} x {columns}", input.name),
                cells,
                MAX_CELLS,
            ));
        }
        let mines = reader.number::<u64>("M (the number of mines, less than R x C)", 0, cells - 1)?;
        total += cells;
        if total > MAX_TOTAL_CELLS {
            let (line, _) = reader.line_column(reader.offset());
            return Err(Error::limit(
                format!("{}:{line}: case {case}: the total number of grid cells of cases 1 to {case}", input.name),
                total,
                MAX_TOTAL_CELLS,
            ));
        }
        // Both fit in usize: they are at most MAX_CELLS.
        instances.push(Instance::new(rows as usize, columns as usize, mines as usize));
    }
    reader.finish()?;
    Ok(instances)
}

/// A parsed answer to one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The `Impossible` claim.
    Impossible,
    /// A board.
    Board(Board),
}

/// Parses the text of one `Case #x:` block: a line `Impossible`, or the rows of a board (blank lines and
/// surrounding spaces ignored).
pub fn parse_answer(text: &str) -> std::result::Result<Answer, String> {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|line| !line.is_empty()).collect();
    match lines.as_slice() {
        [] => Err("the answer is empty: expected `Impossible` or the rows of a board".to_string()),
        ["Impossible"] => Ok(Answer::Impossible),
        ["Impossible", extra, ..] => Err(format!("unexpected `{extra}` after `Impossible`")),
        rows => Ok(Answer::Board(Board::from_rows(rows))),
    }
}

/// Judges one answer: a board by the rules, an `Impossible` claim against the fast constructor (and brute
/// force on small boards).
pub fn judge(instance: &Instance, answer: &Answer) -> std::result::Result<(), String> {
    let puzzle = MinesweeperPuzzle;
    match answer {
        Answer::Board(board) => puzzle.verify(instance, board).map_err(|violation| violation.reason),
        Answer::Impossible => {
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
                    "the answer says Impossible, but a valid board exists ({} safe cells at the top left, the \
                     click at {})",
                    instance.safe_cells(),
                    board.click().map_or_else(|| "row 1, column 1".to_string(), |(row, column)| place(row, column))
                )),
            }
        }
    }
}

/// The answer to one case for the official output and JSON.
fn case_answer(instance: &Instance, board: Option<&Board>) -> CaseAnswer {
    let base = serde_json::json!({
        "rows": instance.rows,
        "columns": instance.columns,
        "mines": instance.mines,
    });
    let (text, class, json) = match board {
        None => ("\nImpossible".to_string(), "IMPOSSIBLE", {
            let mut json = base;
            json["possible"] = serde_json::json!(false);
            json
        }),
        Some(board) => (format!("\n{}", board.to_text()), "POSSIBLE", {
            let mut json = base;
            json["possible"] = serde_json::json!(true);
            json["board"] = serde_json::json!(board.lines());
            json["click"] = match board.click() {
                Some((row, column)) => serde_json::json!({ "row": row + 1, "column": column + 1 }),
                None => serde_json::Value::Null,
            };
            json
        }),
    };
    CaseAnswer { text, class: class.to_string(), json }
}

/// Solves one instance with the named solver and checks the board with the verifier before returning it.
pub fn solve_instance(instance: &Instance, case: usize, options: &SolveOptions) -> Result<Option<Board>> {
    let puzzle = MinesweeperPuzzle;
    let board = match options.solver.as_str() {
        "generic" => generic(instance, case, options.no_limit)?,
        "backtrack" => backtrack(instance)?,
        _ => puzzle.construct(instance)?,
    };
    if let Some(board) = &board {
        plugin::self_check(case, puzzle.verify(instance, board))?;
    }
    Ok(board)
}

static SOLVERS: [SolverInfo; 3] = [
    SolverInfo {
        name: "fast",
        summary: "case analysis (a staircase of safe cells at the top left), linear in R x C, up to 4,000,000 cells",
    },
    SolverInfo {
        name: "generic",
        summary: "brute force over every mine layout and click (framework brute_force): exhaustive up to 25 cells \
                  (5 x 5); larger boards only if one of the first 1,000,000 mine layouts is valid (else --no-limit)",
    },
    SolverInfo {
        name: "backtrack",
        summary: "the analysis's row-by-row backtracking over left-aligned, non-increasing mine rows clicked at the \
                  bottom right; up to 10,000 cells",
    },
];

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

/// The instance recorded in an answer's JSON.
fn instance_of(answer: &CaseAnswer) -> Option<Instance> {
    let field = |name: &str| answer.json.get(name).and_then(serde_json::Value::as_u64).map(|value| value as usize);
    Some(Instance::new(field("rows")?, field("columns")?, field("mines")?))
}

/// What the CLI shows of this plugin, and its bundled sample.
static ABOUT: About = About {
    name: "minesweeper-master",
    kind: Kind::Constructive,
    summary: "place M mines on an R x C grid so that one click wins, or say Impossible (Code Jam 2014 Qual. C)",
    solvers: &SOLVERS,
    sample: Sample {
        input: include_str!("../../samples/minesweeper-master/sample.in"),
        answer: include_str!("../../samples/minesweeper-master/sample.ans"),
    },
    comparison: Comparison::Rule,
};

impl Plugin for MinesweeperMaster {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn solve(&self, input: Source<'_>, options: &SolveOptions, progress: &dyn Progress) -> Result<Vec<CaseAnswer>> {
        self.solver(&options.solver)?;
        let instances = parse_input(input)?;
        progress.start(instances.len() as u64);
        let mut answers = Vec::with_capacity(instances.len());
        for (index, instance) in instances.iter().enumerate() {
            let board = solve_instance(instance, index + 1, options)?;
            answers.push(case_answer(instance, board.as_ref()));
            progress.advance(1);
        }
        Ok(answers)
    }

    fn judge(&self, input: Source<'_>, output: Source<'_>) -> Result<Vec<CaseVerdict>> {
        let instances = parse_input(input)?;
        Ok(plugin::judge_cases(output, &instances, |instance, block| judge(instance, &parse_answer(block.text)?)))
    }

    fn generate(&self, options: &GenOptions, seed: u64) -> Result<String> {
        let (default_side, default_cases) = match options.preset {
            Preset::Small => (5, 20),
            Preset::Official => (50, 140),
        };
        let side = options.size.unwrap_or(default_side);
        if side == 0 {
            return Err(Error::Unsupported("the size (the largest R and C) must be at least 1".to_string()));
        }
        let side_cells = (side as u64).saturating_mul(side as u64);
        if side_cells > MAX_CELLS {
            return Err(Error::limit("the grid cells of the largest board (size x size)", side_cells, MAX_CELLS));
        }
        let cases = options.cases.unwrap_or(default_cases);
        if cases == 0 || cases > MAX_CASES {
            return Err(Error::limit("the number of cases", cases as u64, MAX_CASES as u64));
        }
        let total = side_cells.saturating_mul(cases as u64);
        if total > MAX_TOTAL_CELLS {
            return Err(Error::limit("the total grid cells (size x size x cases)", total, MAX_TOTAL_CELLS));
        }
        let mut rng = plugin::seeded_rng(seed);
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

    /// A surely wrong answer: `Impossible` for a possible case; a board for an impossible case; otherwise one of
    /// a flipped cell (wrong mine count), a second click, a shortened row, or a missing row.
    fn corrupt(&self, answer: &CaseAnswer, rng: &mut SeededRng) -> Option<CaseAnswer> {
        let instance = instance_of(answer)?;
        let wrong = |text: String| Some(CaseAnswer { text, class: String::new(), json: serde_json::Value::Null });
        if answer.class == "IMPOSSIBLE" {
            return wrong(format!("\n{}", any_board(&instance).to_text()));
        }
        let mut rows: Vec<Vec<u8>> = answer.text.lines().filter(|line| !line.is_empty()).map(|l| l.into()).collect();
        if rows.is_empty() {
            return wrong("\nImpossible".to_string());
        }
        match rng.gen_range(0..5) {
            0 => wrong("\nImpossible".to_string()),
            1 => wrong(plugin::corrupt_text(&answer.text, rng).unwrap_or_else(|| "\nImpossible".to_string())),
            2 => {
                let safe: Vec<(usize, usize)> = rows
                    .iter()
                    .enumerate()
                    .flat_map(|(row, cells)| {
                        cells.iter().enumerate().filter(|(_, &cell)| cell == SAFE).map(move |(column, _)| (row, column))
                    })
                    .collect();
                if safe.is_empty() {
                    return wrong("\nImpossible".to_string());
                }
                let mut board = Board { rows };
                if let Some(&(row, column)) = safe.get(rng.gen_range(0..safe.len())) {
                    set_cell(&mut board, row, column, CLICK);
                }
                wrong(format!("\n{}", board.to_text()))
            }
            3 => {
                let row = rng.gen_range(0..rows.len());
                rows.get_mut(row).and_then(Vec::pop);
                wrong(format!("\n{}", Board { rows }.to_text()))
            }
            _ => {
                rows.remove(rng.gen_range(0..rows.len()));
                if rows.is_empty() {
                    return wrong("\nImpossible".to_string());
                }
                wrong(format!("\n{}", Board { rows }.to_text()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staircase_shapes_of_the_analysis() {
        assert_eq!(staircase(&Instance::new(5, 6, 30 - 16)), Some(vec![6, 6, 4]));
        assert_eq!(staircase(&Instance::new(5, 6, 30 - 13)), Some(vec![5, 5, 3]));
        assert_eq!(staircase(&Instance::new(5, 6, 30 - 19)), Some(vec![6, 6, 5, 2]));
        assert_eq!(staircase(&Instance::new(5, 6, 30 - 11)), Some(vec![4, 4, 3]));
        assert_eq!(staircase(&Instance::new(3, 3, 9 - 7)), None);
        assert_eq!(staircase(&Instance::new(2, 7, 5)), None);
        assert_eq!(staircase(&Instance::new(2, 7, 6)), Some(vec![4, 4]));
    }

    #[test]
    fn verifier_reports_hidden_cells() {
        let board = Board::from_rows(&["c..", "..*", "***"]);
        let reason = MinesweeperPuzzle.verify(&Instance::new(3, 3, 4), &board).unwrap_err().reason;
        assert_eq!(reason, "clicking row 1, column 1 leaves 1 safe cell hidden (the first at row 1, column 3)");
    }
}
