//! The plugin's text formats: the input (T, then R C M per case, with its size limits) and the answer to a case
//! (`Impossible` or the rows of a board), as printed, as JSON, and as read back from an answer file.

use super::board::{Board, Instance};
use ludus_framework::input::{shorten, Reader, Source};
use ludus_framework::{Error, Result};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use std::fmt;

/// The most cells (R x C) one case may have: 4,000,000 (for example 2000 x 2000). The answer is a board of
/// that many characters, so this bounds the memory a case takes.
pub const MAX_CELLS: u64 = 4_000_000;
/// The most cells all the cases of one input may have together (16,000,000): bounds the size of the answer file.
pub const MAX_TOTAL_CELLS: u64 = 16_000_000;
/// The most cases one input may have (the official inputs have at most 230).
pub const MAX_CASES: usize = 10_000;

/// A parsed input: the cases and the line each starts on.
pub type Parsed = ludus_framework::plugin::Cases<Instance>;

/// Reads and checks a whole input: T, then R C M per case.
pub fn parse_input(input: Source<'_>) -> Result<Parsed> {
    let mut reader = Reader::new(&input);
    let count = reader.bounded("the number of cases T", 1, MAX_CASES as u64, "")? as usize;
    let mut parsed = Parsed { cases: Vec::with_capacity(count), lines: Vec::with_capacity(count) };
    let mut total = 0u64;
    for case in 1..=count {
        reader.set_context(format!("case {case}"));
        let (rows, start) = reader.number_at::<u64>("R (the number of rows)", 1, MAX_CELLS)?;
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
        parsed.cases.push(Instance::new(rows as usize, columns as usize, mines as usize));
        parsed.lines.push(reader.line_column(start).0);
    }
    reader.finish()?;
    Ok(parsed)
}

/// The answer to one case: a board, or `None` for the `Impossible` claim; with the case's instance, whose size
/// the JSON carries.
///
/// Printed (`Display`) as the official output does after `Case #x:`: a line break, then `Impossible` or the
/// board's rows. As JSON: `rows`, `columns`, `mines`, `possible`, and for a board also `board` (its rows) and
/// `click` (`{"row", "column"}`, 1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The case answered.
    pub instance: Instance,
    /// The board; `None` claims that no valid board exists.
    pub board: Option<Board>,
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(board) = &self.board else { return f.write_str("\nImpossible") };
        for row in &board.rows {
            write!(f, "\n{}", String::from_utf8_lossy(row))?;
        }
        Ok(())
    }
}

/// The click of a board in the JSON, 1-based.
#[derive(Serialize)]
struct Click {
    row: usize,
    column: usize,
}

impl Serialize for Answer {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("rows", &self.instance.rows)?;
        map.serialize_entry("columns", &self.instance.columns)?;
        map.serialize_entry("mines", &self.instance.mines)?;
        map.serialize_entry("possible", &self.board.is_some())?;
        if let Some(board) = &self.board {
            map.serialize_entry("board", &board.lines())?;
            let click = board.click().map(|(row, column)| Click { row: row + 1, column: column + 1 });
            map.serialize_entry("click", &click)?;
        }
        map.end()
    }
}

/// Reads the text of one `Case #x:` block as the answer to `instance`: a line `Impossible`, or the rows of a
/// board (blank lines and surrounding spaces ignored).
pub fn parse_answer(instance: &Instance, text: &str) -> std::result::Result<Answer, String> {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|line| !line.is_empty()).collect();
    let board = match lines.as_slice() {
        [] => return Err("the answer is empty: expected `Impossible` or the rows of a board".to_string()),
        ["Impossible"] => None,
        ["Impossible", extra, ..] => return Err(format!("unexpected `{}` after `Impossible`", shorten(extra))),
        rows => Some(Board::from_rows(rows)),
    };
    Ok(Answer { instance: *instance, board })
}
