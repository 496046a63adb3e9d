//! The `square-free` plugin (Code Jam 2021 Round 3, "Square Free"): fill an R x C grid with the diagonals `/`
//! and `\` so that row i holds exactly S_i `/`, column j exactly D_j `/`, and the diagonals draw no square.
//!
//! # Rules
//! A square of side k has its top corner between columns c and c+1 at the top of row r: cells (r+i, c-i) are
//! `/` and (r+i, c+1+i) are `\` for i in 0..k, and the lower half closes it: (r+k+i, c-k+1+i) are `\` and
//! (r+k+i, c+k-i) are `/` for i in 0..k. Side 1 is `/\` over `\/`. [`find_square`] finds one in O(R C min(R, C))
//! time with diagonal run lengths; [`is_square`] checks one candidate cell by cell (the independent reference).
//!
//! # Solvers
//! - `fast` ([`construct_lexicographic`]): the lexicographically smallest grid with the right counts (reading `\`
//!   before `/`, row by row), which has no square: a square's top row holds `/\` in the very columns where its
//!   bottom row holds `\/`, and swapping those four cells keeps every count and makes the grid smaller. The grid is
//!   built in two steps: any grid with the counts (Ryser's greedy: each row takes the columns with the largest
//!   remaining demand, which succeeds exactly when some grid exists), then the cells are fixed in reading order by
//!   incremental max-flow: for each `/` the solver looks for an augmenting (alternating) path in the residual
//!   bipartite row/column network among the cells not fixed yet; if one exists the cell can become `\`.
//!   The network is dense and unit-capacity with at most a few hundred nodes per side, so the search is written
//!   here over bitsets (one word covers 64 neighbours) instead of taking a general flow library: a general library
//!   would store R x C edge objects and rebuild them per cell, while the bitset search costs O((R + C)^2 / 64) per
//!   cell: about 50 ms for a 200 x 200 grid and 1 s for 500 x 500 in a release build. The tests check it against
//!   the framework's brute-force engine (through [`Enumerate`]), the generic solver and the Gale-Ryser criterion.
//! - `generic` ([`construct_backtracking`]): backtracking cell by cell in reading order (`\` first), pruning on
//!   row and column counts and rejecting a `/` as soon as it closes a square. Because it also tries grids in
//!   lexicographic order, it returns exactly the grid of the fast solver. Limited to [`GENERIC_MAX_CELLS`] cells
//!   unless `SolveOptions::no_limit` (`--no-limit`) is set.
//!
//! # Input decisions
//! Counts outside the official ranges (S_i in 0..=C, D_j in 0..=R) are input errors naming the file, line, column
//! and case, not IMPOSSIBLE: the official format promises them, so such a number is a typo to report where it is.
//! Each count list must sit on one line, so a list that is too short or too long is reported on its own line.
//! Well-formed but unsatisfiable counts (sums that differ, or equal sums with no 0/1 matrix) are IMPOSSIBLE.
//! R and C above [`MAX_SIDE`] are [`Error::Limit`] errors (they protect memory and time).

use ludus_framework::input::{InputError, Reader, Source};
use ludus_framework::plugin::{
    self, About, CaseAnswer, CaseVerdict, Comparison, GenOptions, Kind, Plugin, Preset, Progress, Sample, SolveOptions,
    SolverInfo,
};
use ludus_framework::{Construct, Enumerate, Error, Puzzle, Result, Verify, Violation};
use rand::Rng;
use rayon::prelude::*;
use std::ops::ControlFlow;

/// The largest R or C accepted (a limit that protects memory and time).
pub const MAX_SIDE: usize = 500;
/// The largest number of cases T accepted.
pub const MAX_CASES: usize = 10_000;
/// The largest grid (R x C cells) the `generic` solver takes without `--no-limit`: the official small set, 6 x 6.
pub const GENERIC_MAX_CELLS: usize = 36;
/// The official number of cases of the large set.
pub const OFFICIAL_CASES: usize = 100;
/// The official largest R and C of the large set.
pub const OFFICIAL_MAX_SIDE: usize = 20;
/// The largest R and C of [`Preset::Small`] instances.
pub const SMALL_MAX_SIDE: usize = 5;
/// The default number of cases of [`Preset::Small`] inputs.
pub const SMALL_CASES: usize = 10;

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

/// A grid of diagonals, stored row by row (`true` is `/`, `false` is `\`).
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
    pub fn from_lines(lines: &[&str]) -> std::result::Result<Self, String> {
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

    /// The rows as text.
    pub fn lines(&self) -> Vec<String> {
        (0..self.rows)
            .map(|row| (0..self.columns).map(|column| if self.is_slash(row, column) { '/' } else { '\\' }).collect())
            .collect()
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
/// tests: the sums agree, and for every k the k largest row sums fit into the columns, each column giving at most
/// min(D_j, k)).
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
/// which is square free, or `None` if no grid has these counts. See the module documentation.
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

/// Whether the `/` just placed at (`row`, `column`) closes a square, every cell before it in reading order being
/// placed: it can only be the bottom-right cell of a square's bottom row `\/`.
fn closes_square(grid: &Grid, row: usize, column: usize) -> bool {
    if column == 0 || grid.is_slash(row, column - 1) {
        return false;
    }
    let corner = column - 1;
    (1..)
        .take_while(|&side| 2 * side <= row + 1 && side <= corner + 1 && corner + side < grid.columns)
        .any(|side| is_square(grid, Square { top: row + 1 - 2 * side, corner, side }))
}

/// The `generic` solver: backtracking over the cells in reading order, `\` before `/`, keeping every row and
/// column count reachable and rejecting a `/` that closes a square. Returns the first square-free grid in
/// lexicographic order (the same grid as [`construct_lexicographic`]), or `None`. Exponential; iterative, so
/// large grids (with `--no-limit`) cannot overflow the stack.
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

/// The `square-free` plugin.
#[derive(Clone, Copy, Debug, Default)]
pub struct SquareFree;

impl Puzzle for SquareFree {
    type Instance = Instance;
    type Solution = Grid;
}

impl Verify for SquareFree {
    fn verify(&self, instance: &Instance, grid: &Grid) -> std::result::Result<(), Violation> {
        if grid.rows != instance.rows || grid.columns != instance.columns {
            return Err(Violation::new(format!(
                "the grid is {} x {}, expected {} x {}",
                grid.rows, grid.columns, instance.rows, instance.columns
            )));
        }
        for (row, (&found, &wanted)) in grid.row_counts().iter().zip(&instance.row_counts).enumerate() {
            if found != wanted {
                return Err(Violation::new(format!("row {} holds {found} `/`, expected {wanted}", row + 1)));
            }
        }
        for (column, (&found, &wanted)) in grid.column_counts().iter().zip(&instance.column_counts).enumerate() {
            if found != wanted {
                return Err(Violation::new(format!("column {} holds {found} `/`, expected {wanted}", column + 1)));
            }
        }
        match find_square(grid) {
            Some(square) => Err(Violation::new(format!("the grid draws {square}"))),
            None => Ok(()),
        }
    }
}

impl Construct for SquareFree {
    fn construct(&self, instance: &Instance) -> Result<Option<Grid>> {
        Ok(construct_lexicographic(instance))
    }
}

impl Enumerate for SquareFree {
    /// Every R x C grid, in lexicographic order (`\` before `/`, reading order): the brute-force engine then
    /// returns the same grid as both solvers.
    fn candidates(&self, instance: &Instance, visit: &mut dyn FnMut(&Grid) -> ControlFlow<()>) {
        let mut grid = Grid::new(instance.rows, instance.columns);
        let cells = instance.cells();
        loop {
            if visit(&grid).is_break() {
                return;
            }
            // Odometer: the last cell changes fastest.
            let mut cell = cells;
            loop {
                if cell == 0 {
                    return;
                }
                cell -= 1;
                let (row, column) = (cell / instance.columns, cell % instance.columns);
                if grid.is_slash(row, column) {
                    grid.set(row, column, false);
                } else {
                    grid.set(row, column, true);
                    break;
                }
            }
        }
    }
}

const SOLVERS: &[SolverInfo] = &[
    SolverInfo {
        name: "fast",
        summary: "lexicographically smallest grid by Ryser's greedy plus incremental max-flow (bitset augmenting \
                  paths); 200 x 200 in about 50 ms",
    },
    SolverInfo {
        name: "generic",
        summary: "backtracking in reading order with count pruning and early square checks; up to 36 cells (6 x 6) \
                  unless --no-limit",
    },
];

/// Reads a list of `length` (at least 1) counts in `0..=max`, all on one line. Line breaks are found by looking
/// at the gaps between tokens, so reading stays linear in the input's size.
fn read_counts(
    reader: &mut Reader<'_>,
    length: usize,
    max: usize,
    symbol: &str,
    unit: &str,
) -> std::result::Result<Vec<usize>, InputError> {
    let text = reader.source().text;
    let breaks_line = |from: usize, to: usize| text.get(from..to).is_some_and(|gap| gap.contains('\n'));
    let mut counts = Vec::with_capacity(length);
    let mut first_offset = 0;
    let mut previous_end = None;
    for index in 1..=length {
        let what = format!("{symbol}_{index} (the number of `/` in {unit} {index})");
        let token = reader.clone().token(&what)?;
        match previous_end {
            None => first_offset = token.offset,
            Some(end) if breaks_line(end, token.offset) => {
                let line = reader.line_column(first_offset).0;
                let message = format!(
                    "expected {length} {unit} counts {symbol}_1 .. {symbol}_{length} on line {line}, found only {}",
                    index - 1
                );
                return Err(reader.error_at(token.offset, message));
            }
            Some(_) => {}
        }
        counts.push(reader.number::<usize>(&what, 0, max)?);
        previous_end = Some(token.offset + token.text.len());
    }
    if let (Some(end), Ok(extra)) = (previous_end, reader.clone().token("")) {
        if !breaks_line(end, extra.offset) {
            let line = reader.line_column(first_offset).0;
            let message = format!(
                "expected {length} {unit} counts {symbol}_1 .. {symbol}_{length} on line {line}, found more: `{}`",
                extra.text
            );
            return Err(reader.error_at(extra.offset, message));
        }
    }
    Ok(counts)
}

/// Parses a whole input file in the official format.
pub fn parse_input(input: Source<'_>) -> Result<Vec<Instance>> {
    let mut reader = Reader::new(&input);
    let count = reader.bounded("the number of cases T", 1, MAX_CASES as u64, "")? as usize;
    let mut instances = Vec::with_capacity(count.min(1024));
    for case in 1..=count {
        reader.set_context(format!("case {case}"));
        let rows = reader.bounded("the number of rows R", 1, MAX_SIDE as u64, "")? as usize;
        let columns = reader.bounded("the number of columns C", 1, MAX_SIDE as u64, "")? as usize;
        let row_counts = read_counts(&mut reader, rows, columns, "S", "row")?;
        let column_counts = read_counts(&mut reader, columns, rows, "D", "column")?;
        instances.push(Instance { rows, columns, row_counts, column_counts });
    }
    reader.finish()?;
    Ok(instances)
}

/// The official input text of `instances`.
pub fn format_input(instances: &[Instance]) -> String {
    let join = |counts: &[usize]| counts.iter().map(usize::to_string).collect::<Vec<_>>().join(" ");
    let mut text = format!("{}\n", instances.len());
    for instance in instances {
        text.push_str(&format!(
            "{} {}\n{}\n{}\n",
            instance.rows,
            instance.columns,
            join(&instance.row_counts),
            join(&instance.column_counts)
        ));
    }
    text
}

/// The answer to one case.
fn answer(grid: Option<&Grid>) -> CaseAnswer {
    match grid {
        Some(grid) => {
            let lines = grid.lines();
            CaseAnswer {
                text: format!(" POSSIBLE\n{}", lines.join("\n")),
                class: "POSSIBLE".to_string(),
                json: serde_json::json!({ "possible": true, "grid": lines }),
            }
        }
        None => CaseAnswer {
            text: " IMPOSSIBLE".to_string(),
            class: "IMPOSSIBLE".to_string(),
            json: serde_json::json!({ "possible": false }),
        },
    }
}

/// Judges one answer block against its instance.
fn judge(instance: &Instance, block: &str) -> std::result::Result<(), String> {
    let mut lines = block.lines().map(str::trim).filter(|line| !line.is_empty());
    match lines.next() {
        Some("IMPOSSIBLE") => {
            if let Some(extra) = lines.next() {
                return Err(format!("unexpected text after IMPOSSIBLE: `{extra}`"));
            }
            let witness = construct_lexicographic(instance).or_else(|| {
                if instance.cells() <= GENERIC_MAX_CELLS {
                    construct_backtracking(instance)
                } else {
                    None
                }
            });
            match witness {
                Some(grid) if grid.rows * grid.columns <= 64 => {
                    Err(format!("the answer says IMPOSSIBLE, but this grid fits: {}", grid.lines().join(" ")))
                }
                Some(_) => Err("the answer says IMPOSSIBLE, but the fast solver finds a square-free grid".to_string()),
                None => Ok(()),
            }
        }
        Some("POSSIBLE") => {
            let rows: Vec<&str> = lines.collect();
            if rows.len() != instance.rows {
                return Err(format!("expected {} grid rows after POSSIBLE, found {}", instance.rows, rows.len()));
            }
            for (index, row) in rows.iter().enumerate() {
                let length = row.chars().count();
                if length != instance.columns {
                    return Err(format!(
                        "grid row {} has {length} characters, expected {}",
                        index + 1,
                        instance.columns
                    ));
                }
            }
            let grid = Grid::from_lines(&rows)?;
            Verify::verify(&SquareFree, instance, &grid).map_err(|violation| violation.reason)
        }
        Some(other) => Err(format!("expected POSSIBLE or IMPOSSIBLE, found `{other}`")),
        None => Err("expected POSSIBLE or IMPOSSIBLE, found nothing".to_string()),
    }
}

/// Counts for `rows` x `columns`: from a random grid (always satisfiable), fully random (mostly not), or random
/// with equal sums (satisfiable or not).
fn random_instance(rng: &mut plugin::SeededRng, rows: usize, columns: usize) -> Instance {
    match rng.gen_range(0..4) {
        0 | 1 => {
            let density: f64 = rng.gen();
            let mut grid = Grid::new(rows, columns);
            for row in 0..rows {
                for column in 0..columns {
                    grid.set(row, column, rng.gen_bool(density));
                }
            }
            Instance { rows, columns, row_counts: grid.row_counts(), column_counts: grid.column_counts() }
        }
        2 => Instance {
            rows,
            columns,
            row_counts: (0..rows).map(|_| rng.gen_range(0..=columns)).collect(),
            column_counts: (0..columns).map(|_| rng.gen_range(0..=rows)).collect(),
        },
        _ => {
            let row_counts: Vec<usize> = (0..rows).map(|_| rng.gen_range(0..=columns)).collect();
            let mut column_counts = vec![0usize; columns];
            let mut open: Vec<usize> = (0..columns).collect();
            for _ in 0..row_counts.iter().sum::<usize>() {
                let pick = rng.gen_range(0..open.len());
                let column = open[pick];
                column_counts[column] += 1;
                if column_counts[column] == rows {
                    open.swap_remove(pick);
                }
            }
            Instance { rows, columns, row_counts, column_counts }
        }
    }
}

/// What the CLI shows of this plugin, and its bundled sample.
static ABOUT: About = About {
    name: "square-free",
    kind: Kind::Constructive,
    summary: "fill a grid with / and \\ matching row and column counts of / without drawing a square",
    solvers: SOLVERS,
    sample: Sample {
        input: include_str!("../../samples/square-free/sample.in"),
        answer: include_str!("../../samples/square-free/sample.ans"),
    },
    comparison: Comparison::Rule,
};

impl Plugin for SquareFree {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn solve(&self, input: Source<'_>, options: &SolveOptions, progress: &dyn Progress) -> Result<Vec<CaseAnswer>> {
        let solver = self.solver(&options.solver)?.name;
        let instances = parse_input(input)?;
        let generic = solver == "generic";
        if generic && !options.no_limit {
            for (index, instance) in instances.iter().enumerate() {
                if instance.cells() > GENERIC_MAX_CELLS {
                    return Err(Error::limit_with_hint(
                        format!(
                            "the number of cells of case {} ({} x {}) for the generic solver",
                            index + 1,
                            instance.rows,
                            instance.columns
                        ),
                        instance.cells() as u64,
                        GENERIC_MAX_CELLS as u64,
                        "use the fast solver, or --no-limit (SolveOptions::no_limit) to run the backtracking anyway",
                    ));
                }
            }
        }
        progress.start(instances.len() as u64);
        let solve_case = |(index, instance): (usize, &Instance)| -> Result<CaseAnswer> {
            let grid = if generic { construct_backtracking(instance) } else { construct_lexicographic(instance) };
            if let Some(grid) = &grid {
                plugin::self_check(index + 1, Verify::verify(self, instance, grid))?;
            }
            progress.advance(1);
            Ok(answer(grid.as_ref()))
        };
        if instances.len() > 1 && options.threads != 1 {
            plugin::with_threads(options.threads, || instances.par_iter().enumerate().map(solve_case).collect())?
        } else {
            instances.iter().enumerate().map(solve_case).collect()
        }
    }

    fn judge(&self, input: Source<'_>, output: Source<'_>) -> Result<Vec<CaseVerdict>> {
        let instances = parse_input(input)?;
        Ok(plugin::judge_cases(output, &instances, |instance, block| judge(instance, block.text)))
    }

    fn generate(&self, options: &GenOptions, seed: u64) -> Result<String> {
        let mut rng = plugin::seeded_rng(seed);
        let cases = options.cases.unwrap_or(match options.preset {
            Preset::Small => SMALL_CASES,
            Preset::Official => OFFICIAL_CASES,
        });
        if cases == 0 {
            return Err(Error::Unsupported("an input needs at least one case".to_string()));
        }
        if cases > MAX_CASES {
            return Err(Error::limit("the number of cases", cases as u64, MAX_CASES as u64));
        }
        let (low, high) = match (options.size, options.preset) {
            (Some(0), _) => return Err(Error::Unsupported("the grid side must be at least 1".to_string())),
            (Some(size), _) if size > MAX_SIDE => {
                return Err(Error::limit("the grid side", size as u64, MAX_SIDE as u64))
            }
            (Some(size), _) => (size, size),
            (None, Preset::Small) => (1, SMALL_MAX_SIDE),
            (None, Preset::Official) => (1, OFFICIAL_MAX_SIDE),
        };
        let instances: Vec<Instance> = (0..cases)
            .map(|_| {
                let rows = rng.gen_range(low..=high);
                let columns = rng.gen_range(low..=high);
                random_instance(&mut rng, rows, columns)
            })
            .collect();
        Ok(format_input(&instances))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_grid(rng: &mut plugin::SeededRng, rows: usize, columns: usize) -> Grid {
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
        let mut rng = plugin::seeded_rng(7);
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
        let mut rng = plugin::seeded_rng(11);
        for _ in 0..300 {
            let (rows, columns) = (rng.gen_range(1..=3), rng.gen_range(1..=4));
            let grid = random_grid(&mut rng, rows, columns);
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
