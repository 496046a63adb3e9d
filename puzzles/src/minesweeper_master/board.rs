//! The rules: an instance (R x C with M mines), a proposed board, and the verifier that floods the board from
//! its click and checks that every safe cell is revealed.

use ludus_framework::{Puzzle, Verify, Violation};

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

    /// Writes `value` at (`row`, `column`) if the cell exists.
    pub(super) fn set(&mut self, row: usize, column: usize, value: u8) {
        if let Some(slot) = self.rows.get_mut(row).and_then(|cells| cells.get_mut(column)) {
            *slot = value;
        }
    }
}

/// The puzzle: [`Verify`] (here), [`ludus_framework::Construct`] (the fast constructor, in `fast.rs`) and
/// [`ludus_framework::Enumerate`] (every layout and click, for brute force, in `generic.rs`).
#[derive(Clone, Copy, Debug, Default)]
pub struct MinesweeperPuzzle;

impl Puzzle for MinesweeperPuzzle {
    type Instance = Instance;
    type Solution = Board;
}

/// `row r, column c` with 1-based numbers.
pub(super) fn place(row: usize, column: usize) -> String {
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
            // Rows are kept as bytes; a row is judged by its characters, so that a stray multi-byte character is
            // reported as one character, where it is.
            let characters = String::from_utf8_lossy(cells);
            if let Some((column, other)) = characters.chars().enumerate().find(|(_, c)| !matches!(c, '*' | '.' | 'c')) {
                return Err(Violation::new(format!(
                    "{}: `{}` is not `*` (mine), `.` (safe) or `c` (click)",
                    place(row, column),
                    other.escape_default()
                )));
            }
            if cells.len() != columns {
                return Err(Violation::new(format!(
                    "row {} has {} characters, expected C = {columns}",
                    row + 1,
                    characters.chars().count()
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
pub(super) fn touches_mine(grid: &[Vec<u8>], rows: usize, columns: usize, row: usize, column: usize) -> bool {
    neighbours(rows, columns, row, column)
        .any(|(near_row, near_column)| grid.get(near_row).and_then(|cells| cells.get(near_column)) == Some(&MINE))
}

/// The cells revealed by a click at (`click_row`, `click_column`) (flags in reading order) and how many there
/// are. `grid` must be `rows` x `columns`.
pub(super) fn reveal(
    grid: &[Vec<u8>],
    rows: usize,
    columns: usize,
    click_row: usize,
    click_column: usize,
) -> (Vec<bool>, usize) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verifier_reports_hidden_cells() {
        let board = Board::from_rows(&["c..", "..*", "***"]);
        let reason = MinesweeperPuzzle.verify(&Instance::new(3, 3, 4), &board).unwrap_err().reason;
        assert_eq!(reason, "clicking row 1, column 1 leaves 1 safe cell hidden (the first at row 1, column 3)");
    }
}
