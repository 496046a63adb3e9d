//! The `fast` solver: the lexicographically smallest grid with the counts, built by Ryser's greedy and then fixed
//! cell by cell in reading order by incremental max-flow (augmenting paths over bitsets). Why that grid is square
//! free, and why bitsets rather than a flow library, is in the module documentation of [`super`].

use super::grid::{Grid, Instance};

/// A 0/1 matrix kept twice as bitsets, by rows and by columns, for the augmenting-path search.
struct BitMatrix {
    rows: usize,
    columns: usize,
    row_words: usize,
    column_words: usize,
    /// Row r's bits (one per column) at `by_row[r * column_words ..]`.
    by_row: Vec<u64>,
    /// Column c's bits (one per row) at `by_column[c * row_words ..]`.
    by_column: Vec<u64>,
}

impl BitMatrix {
    fn new(rows: usize, columns: usize) -> Self {
        let row_words = rows.div_ceil(64);
        let column_words = columns.div_ceil(64);
        BitMatrix {
            rows,
            columns,
            row_words,
            column_words,
            by_row: vec![0; rows * column_words],
            by_column: vec![0; columns * row_words],
        }
    }

    fn get(&self, row: usize, column: usize) -> bool {
        self.by_row[row * self.column_words + column / 64] >> (column % 64) & 1 == 1
    }

    fn set(&mut self, row: usize, column: usize, value: bool) {
        let (row_word, row_bit) = (row * self.column_words + column / 64, 1u64 << (column % 64));
        let (column_word, column_bit) = (column * self.row_words + row / 64, 1u64 << (row % 64));
        if value {
            self.by_row[row_word] |= row_bit;
            self.by_column[column_word] |= column_bit;
        } else {
            self.by_row[row_word] &= !row_bit;
            self.by_column[column_word] &= !column_bit;
        }
    }

    fn to_grid(&self) -> Grid {
        let mut grid = Grid::new(self.rows, self.columns);
        for row in 0..self.rows {
            for column in 0..self.columns {
                grid.set(row, column, self.get(row, column));
            }
        }
        grid
    }
}

/// A mask of the bits `from..to` of word `word` (bit b of word w stands for index 64 w + b).
fn word_mask(word: usize, from: usize, to: usize) -> u64 {
    let (start, end) = (word * 64, word * 64 + 64);
    let (low, high) = (from.clamp(start, end) - start, to.clamp(start, end) - start);
    if low >= high {
        0
    } else {
        let upper = if high == 64 { u64::MAX } else { (1u64 << high) - 1 };
        upper & !((1u64 << low) - 1)
    }
}

/// The augmenting-path search of the lexicographic phase, with its reusable buffers.
struct PathSearch {
    visited_rows: Vec<u64>,
    visited_columns: Vec<u64>,
    parent_of_column: Vec<usize>,
    parent_of_row: Vec<usize>,
    queue: Vec<usize>,
}

impl PathSearch {
    fn new(matrix: &BitMatrix) -> Self {
        PathSearch {
            visited_rows: vec![0; matrix.row_words],
            visited_columns: vec![0; matrix.column_words],
            parent_of_column: vec![0; matrix.columns],
            parent_of_row: vec![0; matrix.rows],
            queue: Vec::with_capacity(matrix.rows),
        }
    }

    /// Tries to turn the `/` at (`start_row`, `target`) into `\` while keeping every count and every cell before
    /// it in reading order: a breadth-first search for an alternating path from row `start_row` to column
    /// `target` through cells after it (a `\` cell leads from its row to its column, a `/` cell from its column
    /// to its row). On success the path's cells and the cell itself are flipped.
    fn try_clear(&mut self, matrix: &mut BitMatrix, start_row: usize, target: usize) -> bool {
        let (row_words, column_words) = (matrix.row_words, matrix.column_words);
        for (word, visited) in self.visited_rows.iter_mut().enumerate() {
            // Rows up to `start_row` are fixed (or the start itself).
            *visited = !word_mask(word, start_row + 1, matrix.rows);
        }
        for (word, visited) in self.visited_columns.iter_mut().enumerate() {
            *visited = !word_mask(word, 0, matrix.columns);
        }
        self.queue.clear();
        self.queue.push(start_row);
        let mut head = 0;
        let mut found = false;
        'search: while let Some(&row) = self.queue.get(head) {
            head += 1;
            for word in 0..column_words {
                let mut open = !matrix.by_row[row * column_words + word] & !self.visited_columns[word];
                if row == start_row {
                    open &= word_mask(word, target + 1, matrix.columns);
                }
                while open != 0 {
                    let column = word * 64 + open.trailing_zeros() as usize;
                    open &= open - 1;
                    self.visited_columns[word] |= 1u64 << (column % 64);
                    self.parent_of_column[column] = row;
                    if column == target {
                        found = true;
                        break 'search;
                    }
                    for row_word in 0..row_words {
                        let mut next = matrix.by_column[column * row_words + row_word] & !self.visited_rows[row_word];
                        self.visited_rows[row_word] |= next;
                        while next != 0 {
                            let next_row = row_word * 64 + next.trailing_zeros() as usize;
                            next &= next - 1;
                            self.parent_of_row[next_row] = column;
                            self.queue.push(next_row);
                        }
                    }
                }
            }
        }
        if !found {
            return false;
        }
        let mut column = target;
        loop {
            let row = self.parent_of_column[column];
            matrix.set(row, column, true);
            if row == start_row {
                break;
            }
            column = self.parent_of_row[row];
            matrix.set(row, column, false);
        }
        matrix.set(start_row, target, false);
        true
    }
}

/// The `fast` solver: the lexicographically smallest grid with the instance's counts (`\` before `/`, row by row),
/// which is square free, or `None` if no grid has these counts. See the documentation of [`super`].
pub fn construct_lexicographic(instance: &Instance) -> Option<Grid> {
    let (rows, columns) = (instance.rows, instance.columns);
    if instance.row_counts.len() != rows
        || instance.column_counts.len() != columns
        || instance.row_counts.iter().any(|&count| count > columns)
        || instance.column_counts.iter().any(|&count| count > rows)
        || instance.row_counts.iter().sum::<usize>() != instance.column_counts.iter().sum::<usize>()
    {
        return None;
    }
    // Ryser's greedy: each row takes the columns with the largest remaining demand.
    let mut matrix = BitMatrix::new(rows, columns);
    let mut demand = instance.column_counts.clone();
    let mut order: Vec<usize> = (0..columns).collect();
    for (row, &count) in instance.row_counts.iter().enumerate() {
        order.sort_by(|&a, &b| demand[b].cmp(&demand[a]).then(a.cmp(&b)));
        for &column in order.iter().take(count) {
            if demand[column] == 0 {
                return None;
            }
            demand[column] -= 1;
            matrix.set(row, column, true);
        }
    }
    // Equal sums and every row served: every demand is met. Now fix the cells in reading order.
    let mut search = PathSearch::new(&matrix);
    for row in 0..rows {
        for column in 0..columns {
            if matrix.get(row, column) {
                search.try_clear(&mut matrix, row, column);
            }
        }
    }
    Some(matrix.to_grid())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square_free::SquareFree;
    use ludus_framework::plugin::seeded_rng;
    use ludus_framework::Enumerate;
    use rand::Rng;
    use std::ops::ControlFlow;

    #[test]
    fn word_masks_cover_exactly_the_range() {
        for from in 0..130 {
            for to in from..130 {
                for word in 0..3 {
                    let mask = word_mask(word, from, to);
                    for bit in 0..64 {
                        let index = word * 64 + bit;
                        assert_eq!(mask >> bit & 1 == 1, index >= from && index < to);
                    }
                }
            }
        }
    }

    #[test]
    fn lexicographic_grid_is_the_smallest_among_all_grids_with_the_counts() {
        let mut rng = seeded_rng(11);
        for _ in 0..300 {
            let (rows, columns) = (rng.gen_range(1..=3), rng.gen_range(1..=4));
            let mut grid = Grid::new(rows, columns);
            for row in 0..rows {
                for column in 0..columns {
                    grid.set(row, column, rng.gen_bool(0.5));
                }
            }
            let instance =
                Instance { rows, columns, row_counts: grid.row_counts(), column_counts: grid.column_counts() };
            let mut smallest = None;
            SquareFree.candidates(&instance, &mut |candidate| {
                if candidate.row_counts() == instance.row_counts && candidate.column_counts() == instance.column_counts
                {
                    smallest = Some(candidate.clone());
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            assert_eq!(construct_lexicographic(&instance), smallest);
        }
    }
}
