//! The `generic` solver: backtracking over the cells in reading order with count pruning and an early check for
//! the square a new `/` may close; it tries grids in lexicographic order, so it finds the fast solver's grid.

use super::grid::{is_square, Grid, Instance, Square};

/// The largest grid (R x C cells) the `generic` solver takes without `--no-limit`: the official small set, 6 x 6.
pub const GENERIC_MAX_CELLS: usize = 36;

/// Whether the `/` just placed at (`row`, `column`) closes a square, every cell before it in reading order being
/// placed: it can only be the bottom-right cell of a square's bottom row `\/`.
fn closes_square(grid: &Grid, row: usize, column: usize) -> bool {
    if column == 0 || grid.is_slash(row, column - 1) {
        return false;
    }
    let corner = column - 1;
    (1..)
        .take_while(|&side| 2 * side <= row + 1 && side <= corner + 1 && corner + side < grid.columns())
        .any(|side| is_square(grid, Square { top: row + 1 - 2 * side, corner, side }))
}

/// The `generic` solver: backtracking over the cells in reading order, `\` before `/`, keeping every row and
/// column count reachable and rejecting a `/` that closes a square. Returns the first square-free grid in
/// lexicographic order (the same grid as [`construct_lexicographic`](super::construct_lexicographic)), or
/// `None`. Exponential; iterative, so large grids (with `--no-limit`) cannot overflow the stack.
pub fn construct_backtracking(instance: &Instance) -> Option<Grid> {
    let (rows, columns) = (instance.rows, instance.columns);
    if instance.row_counts.len() != rows || instance.column_counts.len() != columns {
        return None;
    }
    let cells = rows * columns;
    let mut grid = Grid::new(rows, columns);
    let mut row_ones = vec![0usize; rows];
    let mut column_ones = vec![0usize; columns];
    // next[cell]: 0 = try `\` next, 1 = try `/` next, 2 = both tried.
    let mut next = vec![0u8; cells];
    let mut cell = 0;
    loop {
        if cell == cells {
            return Some(grid);
        }
        let (row, column) = (cell / columns, cell % columns);
        let (wanted_row, wanted_column) = (instance.row_counts[row], instance.column_counts[column]);
        let mut placed = false;
        while next[cell] < 2 && !placed {
            let option = next[cell];
            next[cell] += 1;
            if option == 0 {
                // `\`: the rest of the row and of the column can still reach their counts.
                if row_ones[row] + (columns - column - 1) >= wanted_row
                    && column_ones[column] + (rows - row - 1) >= wanted_column
                {
                    grid.set(row, column, false);
                    placed = true;
                }
            } else if row_ones[row] < wanted_row && column_ones[column] < wanted_column {
                grid.set(row, column, true);
                if closes_square(&grid, row, column) {
                    grid.set(row, column, false);
                } else {
                    row_ones[row] += 1;
                    column_ones[column] += 1;
                    placed = true;
                }
            }
        }
        if placed {
            cell += 1;
            continue;
        }
        next[cell] = 0;
        if cell == 0 {
            return None;
        }
        cell -= 1;
        let (row, column) = (cell / columns, cell % columns);
        if grid.is_slash(row, column) {
            grid.set(row, column, false);
            row_ones[row] -= 1;
            column_ones[column] -= 1;
        }
    }
}
