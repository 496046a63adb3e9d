//! One grid of the input: R rows of C cells, each empty or radioactive.

use super::format::parse;
use ludus_framework::input::Source;
use ludus_framework::{Error, Result};

/// One grid of the input: R rows of C cells, each empty or radioactive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// The number of rows R.
    pub(super) rows: usize,
    /// The number of columns C.
    pub(super) columns: usize,
    /// Whether each cell is radioactive, row by row.
    pub(super) radioactive: Vec<bool>,
}

impl Grid {
    /// A grid from its rows written with `.` (empty) and `#` (radioactive). Rows must all have the same length,
    /// and both sides must be between 1 and [`super::MAX_SIDE`].
    pub fn from_rows(rows: &[&str]) -> Result<Grid> {
        let text = format!("1\n{} {}\n{}\n", rows.len(), rows.first().map_or(0, |row| row.len()), rows.join("\n"));
        let mut grids = parse(Source::new("grid", &text))?;
        grids.pop().ok_or_else(|| Error::parameter("grid", "a grid needs at least one row".to_string()))
    }

    /// The number of rows R.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of columns C.
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// The number of cells, R x C (radioactive ones included).
    pub fn cells(&self) -> usize {
        self.rows * self.columns
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
