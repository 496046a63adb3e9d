//! Othello's bit tricks on an `n x n` board (`n <= 8`) laid in a `u64` as the top-left corner of an 8 x 8 one:
//! the cell in row `r` and column `c` is bit `8 * r + c`. Shifts in the eight directions drop what leaves the
//! board; moves (mobility) by a fill per direction; the discs a move flips, from each cell's rays.

/// The eight directions as (shift left by, shift right by): one of the two is 0.
const DIRECTIONS: [(u32, u32); 8] = [(1, 0), (0, 1), (8, 0), (0, 8), (9, 0), (0, 9), (7, 0), (0, 7)];

/// Column 0 of the 8 x 8 layout.
const COLUMN_FIRST: u64 = 0x0101_0101_0101_0101;
/// Column 7 of the 8 x 8 layout.
const COLUMN_LAST: u64 = COLUMN_FIRST << 7;

/// The cells of an `n x n` board and the masks of its shifts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cells {
    /// The board's side.
    pub size: u32,
    /// Every cell of the board.
    pub all: u64,
    /// Per direction, the cells a shift may land on: on the board, and not wrapped around a row's end.
    landing: [u64; 8],
    /// The four corners.
    pub corners: u64,
    /// The cells next to a corner (the "C" and "X" squares), risky while that corner is empty.
    pub near_corners: [u64; 4],
    /// Per cell (bit index), the cells around it: a move there flips only if one of them is the other's.
    pub neighbours: [u64; 64],
    /// Per cell (bit index) and direction (as in `DIRECTIONS`), the cells of the board beyond it in that
    /// direction: a move's flips are found from them without walking the lines.
    rays: [[u64; 8]; 64],
}

impl Cells {
    /// The cells of an `size x size` board (`2 <= size <= 8`).
    pub fn new(size: u32) -> Cells {
        let mut all = 0u64;
        for row in 0..size {
            for column in 0..size {
                all |= 1 << (8 * row + column);
            }
        }
        let landing = DIRECTIONS.map(|(left, right)| {
            // A shift that moves one column right lands never on column 0, one that moves left never on column 7.
            let column_step = match (left, right) {
                (1 | 9, _) | (_, 7) => !COLUMN_FIRST,
                (7, _) | (_, 1 | 9) => !COLUMN_LAST,
                _ => !0,
            };
            all & column_step
        });
        let last = size - 1;
        let cell = |row: u32, column: u32| 1u64 << (8 * row + column);
        let corners = cell(0, 0) | cell(0, last) | cell(last, 0) | cell(last, last);
        let around = |row: u32, column: u32| {
            let mut near = 0;
            for (dr, dc) in [(0i32, 1i32), (1, 0), (1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1), (-1, 1)] {
                let (r, c) = (row as i32 + dr, column as i32 + dc);
                if (0..size as i32).contains(&r) && (0..size as i32).contains(&c) {
                    near |= cell(r as u32, c as u32);
                }
            }
            near
        };
        let near_corners = [around(0, 0), around(0, last), around(last, 0), around(last, last)];
        let mut neighbours = [0; 64];
        for row in 0..size {
            for column in 0..size {
                neighbours[(8 * row + column) as usize] = around(row, column);
            }
        }
        let mut cells = Cells { size, all, landing, corners, near_corners, neighbours, rays: [[0; 8]; 64] };
        for cell in 0..64 {
            if all & (1 << cell) == 0 {
                continue;
            }
            for direction in 0..8 {
                let mut ray = 0;
                let mut beyond = cells.shift(1 << cell, direction);
                while beyond != 0 {
                    ray |= beyond;
                    beyond = cells.shift(beyond, direction);
                }
                cells.rays[cell][direction] = ray;
            }
        }
        cells
    }

    /// `discs` moved one step in direction `direction`, dropping what leaves the board.
    #[inline]
    fn shift(&self, discs: u64, direction: usize) -> u64 {
        let (left, right) = DIRECTIONS[direction];
        ((discs << left) >> right) & self.landing[direction]
    }

    /// The cells where `mover` may play: empty, and closing a line of the other's discs with one of his own.
    #[inline]
    pub fn moves(&self, mover: u64, other: u64) -> u64 {
        let empty = self.all & !(mover | other);
        let mut moves = 0;
        for direction in 0..8 {
            let mut line = self.shift(mover, direction) & other;
            // A line of the other's discs between two cells of a row of `size` is at most `size - 2` long.
            for _ in 3..self.size {
                line |= self.shift(line, direction) & other;
            }
            moves |= self.shift(line, direction) & empty;
        }
        moves
    }

    /// The other's discs that `mover` flips by playing on the cell `at` (a single bit on the board). Along
    /// each ray from `at`, the nearest cell that is not the other's closes the line if it is the mover's:
    /// the lowest such bit where the ray goes up the bits, the highest where it goes down.
    #[inline]
    pub fn flips(&self, mover: u64, other: u64, at: u64) -> u64 {
        let rays = &self.rays[(at.trailing_zeros() & 63) as usize];
        let mut flipped = 0;
        for (direction, &ray) in rays.iter().enumerate() {
            let closing = ray & !other;
            if DIRECTIONS[direction].0 != 0 {
                // Up the bits: everything below the nearest closing cell lies between it and `at`.
                let nearest = closing & closing.wrapping_neg();
                if nearest & mover != 0 {
                    flipped |= ray & (nearest - 1);
                }
            } else if closing != 0 {
                // Down the bits: everything above the nearest closing cell.
                let index = 63 - closing.leading_zeros();
                let nearest = 1u64 << index;
                if nearest & mover != 0 {
                    flipped |= ray & (u64::MAX << index) & !nearest;
                }
            }
        }
        flipped
    }

    /// The cell of row `row`, column `column`.
    pub fn cell(row: u32, column: u32) -> u64 {
        1 << (8 * row + column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn shifts_stay_on_the_board() {
        for size in 2..=8 {
            let cells = Cells::new(size);
            for direction in 0..8 {
                assert_eq!(cells.shift(cells.all, direction) & !cells.all, 0);
            }
            // A line along the last column does not wrap to the first one.
            let last_column: u64 = (0..size).map(|row| Cells::cell(row, size - 1)).sum();
            assert_eq!(cells.shift(last_column, 0), 0, "size {size}");
        }
    }

    /// The flips by walking each line cell by cell, as the rule says.
    fn flips_walked(cells: &Cells, mover: u64, other: u64, at: u64) -> u64 {
        let mut flipped = 0;
        for direction in 0..8 {
            let mut line = 0;
            let mut cell = cells.shift(at, direction);
            while cell & other != 0 {
                line |= cell;
                cell = cells.shift(cell, direction);
            }
            if cell & mover != 0 {
                flipped |= line;
            }
        }
        flipped
    }

    #[test]
    fn flips_by_rays_are_the_flips_of_the_walked_lines() {
        // Random boards of every size, every empty cell: the rays agree with the walk.
        let mut rng = ludus_framework::random::seeded_rng(1);
        let mut flipping = 0;
        for size in 2..=8 {
            let cells = Cells::new(size);
            for _ in 0..2000 {
                let (first, second): (u64, u64) = (rng.gen(), rng.gen());
                let mover = first & second & cells.all;
                let other = first & !second & cells.all;
                let mut empty = cells.all & !(mover | other);
                while empty != 0 {
                    let at = empty & empty.wrapping_neg();
                    empty ^= at;
                    let walked = flips_walked(&cells, mover, other, at);
                    assert_eq!(cells.flips(mover, other, at), walked, "size {size}, {mover:#x} {other:#x} {at:#x}");
                    flipping += u64::from(walked != 0);
                }
            }
        }
        // The boards are not all trivial: many moves flip something.
        assert!(flipping > 10_000, "{flipping}");
    }
}
