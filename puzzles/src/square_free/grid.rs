//! The puzzle's objects: an [`Instance`] (the grid size and the wanted counts), a [`Grid`] of diagonals, the
//! [`Square`]s a grid can draw with the two ways of finding them (cell by cell from the definition, and by
//! diagonal run lengths), and the Gale-Ryser criterion on the counts.

/// One case: the grid size and the wanted numbers of `/` per row and per column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// R, the number of rows.
    pub rows: usize,
    /// C, the number of columns.
    pub columns: usize,
    /// S_1 .. S_R: the number of `/` in each row.
    pub row_counts: Vec<usize>,
    /// D_1 .. D_C: the number of `/` in each column.
    pub column_counts: Vec<usize>,
}

impl Instance {
    /// The number of cells, R x C.
    pub fn cells(&self) -> usize {
        self.rows * self.columns
    }
}

/// A grid of diagonals, stored row by row (`true` is `/`, `false` is `\`). `Display` writes its rows, one per
/// line, with no line break after the last.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    rows: usize,
    columns: usize,
    slashes: Vec<bool>,
}

impl Grid {
    /// An all-`\` grid of `rows` x `columns`.
    pub fn new(rows: usize, columns: usize) -> Self {
        Grid { rows, columns, slashes: vec![false; rows * columns] }
    }

    /// A grid from its text rows; `Err` names the first row or character that is not `/` or `\`, or the first
    /// row whose length differs from the first one's.
    pub fn from_lines(lines: &[&str]) -> Result<Self, String> {
        let columns = lines.first().map_or(0, |line| line.chars().count());
        let mut grid = Grid::new(lines.len(), columns);
        for (row, line) in lines.iter().enumerate() {
            let length = line.chars().count();
            if length != columns {
                return Err(format!("row {} has {length} characters, row 1 has {columns}", row + 1));
            }
            for (column, symbol) in line.chars().enumerate() {
                match symbol {
                    '/' => grid.set(row, column, true),
                    '\\' => grid.set(row, column, false),
                    other => {
                        return Err(format!(
                            "row {}, column {}: `{other}` is neither `/` nor `\\`",
                            row + 1,
                            column + 1
                        ))
                    }
                }
            }
        }
        Ok(grid)
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of columns.
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// Whether the cell holds `/` (cells outside the grid count as `\`).
    pub fn is_slash(&self, row: usize, column: usize) -> bool {
        row < self.rows && column < self.columns && self.slashes.get(row * self.columns + column) == Some(&true)
    }

    /// Sets a cell to `/` (`true`) or `\` (`false`); cells outside the grid are ignored.
    pub fn set(&mut self, row: usize, column: usize, slash: bool) {
        if row < self.rows && column < self.columns {
            if let Some(cell) = self.slashes.get_mut(row * self.columns + column) {
                *cell = slash;
            }
        }
    }

    /// The number of `/` in each row.
    pub fn row_counts(&self) -> Vec<usize> {
        (0..self.rows).map(|row| (0..self.columns).filter(|&column| self.is_slash(row, column)).count()).collect()
    }

    /// The number of `/` in each column.
    pub fn column_counts(&self) -> Vec<usize> {
        (0..self.columns).map(|column| (0..self.rows).filter(|&row| self.is_slash(row, column)).count()).collect()
    }

    /// The text of row `row` (empty outside the grid).
    pub fn line(&self, row: usize) -> String {
        if row >= self.rows {
            return String::new();
        }
        (0..self.columns).map(|column| if self.is_slash(row, column) { '/' } else { '\\' }).collect()
    }

    /// The rows as text.
    pub fn lines(&self) -> Vec<String> {
        (0..self.rows).map(|row| self.line(row)).collect()
    }
}

impl std::fmt::Display for Grid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for row in 0..self.rows {
            if row > 0 {
                f.write_str("\n")?;
            }
            f.write_str(&self.line(row))?;
        }
        Ok(())
    }
}

/// A square drawn by a grid's diagonals (0-based places).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Square {
    /// The row whose top holds the top corner.
    pub top: usize,
    /// The top corner lies between columns `corner` and `corner + 1`.
    pub corner: usize,
    /// The side, in cells.
    pub side: usize,
}

impl std::fmt::Display for Square {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a square of side {} with its top corner at the top of row {}, between columns {} and {}",
            self.side,
            self.top + 1,
            self.corner + 1,
            self.corner + 2
        )
    }
}

/// Whether `grid` draws the square of side `side` whose top corner is at the top of row `top`, between columns
/// `corner` and `corner + 1`, checked cell by cell from the definition (false if it does not fit in the grid).
pub fn is_square(grid: &Grid, square: Square) -> bool {
    let Square { top, corner, side } = square;
    if side == 0 || top + 2 * side > grid.rows || corner + side >= grid.columns || corner + 1 < side {
        return false;
    }
    (0..side).all(|i| {
        grid.is_slash(top + i, corner - i)
            && !grid.is_slash(top + i, corner + 1 + i)
            && !grid.is_slash(top + side + i, corner + 1 - side + i)
            && grid.is_slash(top + side + i, corner + side - i)
    })
}

/// The first square of `grid` (by top row, then corner column, then side), or `None` if it is square free.
///
/// Uses diagonal run lengths: `down_left` counts the `/` cells from a cell going down and left, `down_right` the
/// `\` cells going down and right; a square is four runs long enough. O(R C min(R, C)).
pub fn find_square(grid: &Grid) -> Option<Square> {
    let (rows, columns) = (grid.rows, grid.columns);
    let mut down_left = vec![0usize; rows * columns];
    let mut down_right = vec![0usize; rows * columns];
    for row in (0..rows).rev() {
        for column in 0..columns {
            let index = row * columns + column;
            if grid.is_slash(row, column) {
                let below = if row + 1 < rows && column > 0 { down_left[index + columns - 1] } else { 0 };
                down_left[index] = below + 1;
            } else {
                let below = if row + 1 < rows && column + 1 < columns { down_right[index + columns + 1] } else { 0 };
                down_right[index] = below + 1;
            }
        }
    }
    let run = |table: &[usize], row: usize, column: usize| table[row * columns + column];
    for top in 0..rows {
        for corner in 0..columns.saturating_sub(1) {
            let upper = run(&down_left, top, corner).min(run(&down_right, top, corner + 1));
            let mut side = 1;
            while side <= upper && top + 2 * side <= rows && side <= corner + 1 && corner + side < columns {
                if run(&down_right, top + side, corner + 1 - side) >= side
                    && run(&down_left, top + side, corner + side) >= side
                {
                    return Some(Square { top, corner, side });
                }
                side += 1;
            }
        }
    }
    None
}

/// The Gale-Ryser criterion: whether some 0/1 matrix has these row and column sums (an independent oracle for
/// tests and the self-check of IMPOSSIBLE answers: the sums agree, and for every k the k largest row sums fit
/// into the columns, each column giving at most min(D_j, k)).
pub fn margins_are_feasible(row_counts: &[usize], column_counts: &[usize]) -> bool {
    if row_counts.iter().sum::<usize>() != column_counts.iter().sum::<usize>() {
        return false;
    }
    let mut sorted = row_counts.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let mut prefix = 0;
    for (index, count) in sorted.iter().enumerate() {
        prefix += count;
        let capacity: usize = column_counts.iter().map(|&demand| demand.min(index + 1)).sum();
        if prefix > capacity {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_framework::plugin::{seeded_rng, SeededRng};
    use rand::Rng;

    fn random_grid(rng: &mut SeededRng, rows: usize, columns: usize) -> Grid {
        let mut grid = Grid::new(rows, columns);
        for row in 0..rows {
            for column in 0..columns {
                grid.set(row, column, rng.gen_bool(0.5));
            }
        }
        grid
    }

    fn naive_find_square(grid: &Grid) -> Option<Square> {
        for top in 0..grid.rows() {
            for corner in 0..grid.columns() {
                for side in 1..=grid.rows() {
                    let square = Square { top, corner, side };
                    if is_square(grid, square) {
                        return Some(square);
                    }
                }
            }
        }
        None
    }

    #[test]
    fn run_length_square_search_matches_the_definition() {
        let mut rng = seeded_rng(7);
        let mut squares = 0;
        for _ in 0..3000 {
            let (rows, columns) = (rng.gen_range(1..=8), rng.gen_range(1..=8));
            let grid = random_grid(&mut rng, rows, columns);
            let fast = find_square(&grid);
            assert_eq!(fast, naive_find_square(&grid), "{:?}", grid.lines());
            squares += usize::from(fast.is_some());
        }
        assert!(squares > 100 && squares < 3000);
    }

    #[test]
    fn side_one_square_is_slash_backslash_over_backslash_slash() {
        let grid = Grid::from_lines(&["/\\", "\\/"]).unwrap();
        assert_eq!(find_square(&grid), Some(Square { top: 0, corner: 0, side: 1 }));
        let flipped = Grid::from_lines(&["\\/", "/\\"]).unwrap();
        assert_eq!(find_square(&flipped), None);
    }

    #[test]
    fn display_writes_the_rows_that_from_lines_reads() {
        let mut rng = seeded_rng(3);
        for _ in 0..100 {
            let (rows, columns) = (rng.gen_range(1..=6), rng.gen_range(1..=6));
            let grid = random_grid(&mut rng, rows, columns);
            let text = grid.to_string();
            assert_eq!(text, grid.lines().join("\n"));
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(Grid::from_lines(&lines), Ok(grid));
        }
    }
}
