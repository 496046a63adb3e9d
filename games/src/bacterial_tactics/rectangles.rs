//! The game as `fast` sees it: an [`Impartial`] sum of sub-rectangles ([`RectangleGame`]). A legal move fills a
//! whole row (or column) of its rectangle and splits it into at most two rectangles; row and column legality is
//! one table read; the nimbers of rectangles free of radioactive cells depend only on their (unordered) size, so
//! their keys are shared by every position and every case.

use super::format::MAX_SIDE;
use super::grid::Grid;
use ludus_framework::{Error, Impartial, Result};

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
    /// The tables of `grid` (whose sides are at most [`MAX_SIDE`], as [`super::parse`] guarantees).
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
    pub(super) fn for_each_option(&self, rectangle: &Rectangle, visit: &mut dyn FnMut(&[Rectangle], u64, Opening)) {
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
pub(super) enum Opening {
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
