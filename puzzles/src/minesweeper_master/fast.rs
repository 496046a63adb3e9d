//! The `fast` solver: the analysis's case analysis, phrased as a "staircase" of safe cells in the top-left
//! corner clicked at the corner; linear in the size of the board.

use super::board::{Board, Instance, MinesweeperPuzzle, CLICK, MINE, SAFE};
use super::format::MAX_CELLS;
use ludus_framework::{Construct, Error, Result};

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
    /// The fast constructor: the case analysis of [`staircase`], linear in the board size. Boards above
    /// [`MAX_CELLS`] are a limit error (the parsed input never holds one; this guards direct calls).
    fn construct(&self, instance: &Instance) -> Result<Option<Board>> {
        let cells = instance.cells() as u64;
        if cells > MAX_CELLS {
            return Err(Error::limit("grid cells R x C", cells, MAX_CELLS));
        }
        Ok(staircase(instance).map(|lengths| staircase_board(instance, &lengths)))
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
}
