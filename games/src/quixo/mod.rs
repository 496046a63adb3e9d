//! Quixo (Thierry Chapeau, 1995) on an `n x n` board, `n` from 3 to 5: a loopy game of lines, solved by the
//! framework's retrograde engine ([`ludus_framework::engines::retrograde`]); the negamax engines must not be
//! used on it, since positions repeat.
//!
//! ## The rules implemented
//! - The board has `n x n` cubes, all blank at the start. A cell is named by its column letter (`a` at the
//!   left) and its row number (`1` at the bottom). X moves first, then the players alternate.
//! - A move: the player to move takes a cube from the border of the board, a blank one or one showing his own
//!   mark (never one showing the opponent's), and pushes it back in at one end of its row or of its column,
//!   other than the place it was taken from, sliding the cubes between one step along to close the gap; the
//!   cube now shows his mark. A corner cube has two such ends, another border cube three. A move is written as
//!   the cell taken and the cell pushed in at: `a1c1` takes the cube at `a1` and pushes it in at `c1`, sliding
//!   `b1` and `c1` one step left.
//! - A line is a whole row, a whole column or either main diagonal. After a move, if the board has a line of
//!   the opponent's marks, the mover has lost, even if he made a line of his own too (the official rule, and
//!   GamesmanOne's); otherwise, if it has a line of his own marks, he has won. So at a position the player to
//!   move faces, a line of his own marks is `Win(0)` and otherwise a line of the other's is `Value::LOST`.
//! - A player who cannot move has lost (it never happens: the border then holds only the opponent's marks,
//!   which make lines, and the game is already over).
//! - Positions repeat (a cube taken and pushed back changes nothing in the counts); what neither side can force
//!   is a draw (endless play).
//!
//! The rules are the same for both players, so the canonical key sees the position from the player to move:
//! his marks in the high bits (bits `N..2N`, `N = n * n`), the other's in the low bits, the smallest encoding
//! over the square's 8 symmetries. A position and its colour swap, with the other player to move, share a key.
//! The counts of marks never go down: tiers ([`ludus_framework::engines::retrograde::Tiers`]) are the pair
//! (more, fewer) of the two players' counts, and a move stays in its tier (a cube of one's own taken) or goes to
//! a tier with one mark more (a blank taken). The un-move hook
//! ([`ludus_framework::engines::retrograde::Retrograde`]) pulls the last mover's cube back out and slides the
//! others back, putting back a blank or his own cube where it was taken. Each tier's keys are numbered
//! ([`ludus_framework::engines::retrograde::Rank`], in `rank.rs`) by the combinatorial number system.
//!
//! Solved here: 3 x 3 is a win for X, the first player, in 7 plies (asserted in `games/tests/quixo.rs`, with a
//! value iteration over every position without symmetry: 2,219 keys, 32,027 positions, no draw); 4 x 4 is a
//! win for X in 21 plies (`ludus db solve quixo:size=4`: 5,170,021 keys in 60 tiers).

mod board_form;
mod rank;
mod rules;
mod text;

use crate::square::Symmetries;
use ludus_framework::{Error, Result};

/// A position: the cells showing X's marks and O's (bit `row * n + column`, row 0 at the bottom), and who is to
/// move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// Cells showing X (the first player).
    pub crosses: u32,
    /// Cells showing O.
    pub noughts: u32,
    /// Whether X is to move.
    pub crosses_to_move: bool,
}

impl Board {
    /// The blank board, X to move.
    pub const START: Board = Board { crosses: 0, noughts: 0, crosses_to_move: true };

    /// The marks of the player to move, and the other's.
    pub fn sides(&self) -> (u32, u32) {
        if self.crosses_to_move {
            (self.crosses, self.noughts)
        } else {
            (self.noughts, self.crosses)
        }
    }

    /// The board with the player to move's marks `mover` and the other's `other`.
    pub fn from_sides(mover: u32, other: u32, crosses_to_move: bool) -> Board {
        if crosses_to_move {
            Board { crosses: mover, noughts: other, crosses_to_move }
        } else {
            Board { crosses: other, noughts: mover, crosses_to_move }
        }
    }
}

/// A move: the border cell whose cube is taken, and the end of its row or column where it is pushed back in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Push {
    /// The cell the cube is taken from.
    pub from: u8,
    /// The cell it is pushed in at.
    pub to: u8,
}

/// Quixo on an `n x n` board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quixo {
    /// The board's side.
    size: u8,
    /// Every legal push on an empty board's geometry, by cell taken then cell pushed in at.
    pushes: Vec<Push>,
    /// The rows, columns and two diagonals, as masks.
    lines: Vec<u32>,
    /// The square's symmetries.
    symmetries: Symmetries,
    /// The slide of every pair of cells below 32 (`from * 32 + to`), as [`Quixo::path_mask`] computes it:
    /// read by a push instead of recomputed with divisions by the side at every move and un-move.
    slides: Vec<Slide>,
}

/// Whether `marks` (of the 4 x 4 board) hold a whole line, by shifts instead of a test a line (called twice for
/// every parent an un-move finds): a row is full where the cell and the next three are set, a column where the
/// cell and the three above are, each read at the first cell of the row or column.
#[inline]
fn has_line_of_four(marks: u32) -> bool {
    let pairs_in_rows = marks & marks >> 1;
    let rows = pairs_in_rows & pairs_in_rows >> 2 & 0x1111;
    let pairs_in_columns = marks & marks >> 4;
    let columns = pairs_in_columns & pairs_in_columns >> 8 & 0x000f;
    rows | columns != 0 || marks & 0x8421 == 0x8421 || marks & 0x1248 == 0x1248
}

/// What a push slides: the cells from `to` to `from` (both included), the step between neighbours (1 along a
/// row, `n` along a column), and whether `to` is below `from` (the cubes then slide up by the step).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slide {
    path: u32,
    step: u32,
    up: bool,
}

/// The cells a table of slides covers for each of the two ends of a push (any board cell of a 5 x 5 board).
const SLIDE_CELLS: usize = 32;

impl Quixo {
    /// The board sizes this implementation plays.
    pub const SIZES: std::ops::RangeInclusive<u8> = 3..=5;

    /// Quixo on a `size x size` board, `size` within [`Quixo::SIZES`].
    pub fn new(size: u8) -> Result<Quixo> {
        if !Self::SIZES.contains(&size) {
            return Err(Error::limit("the Quixo board size", u64::from(size), u64::from(*Self::SIZES.end())));
        }
        let side = u32::from(size);
        let full_row = (1u32 << side) - 1;
        let mut lines: Vec<u32> = (0..side).map(|row| full_row << (row * side)).collect();
        lines.extend((0..side).map(|column| (0..side).fold(0, |mask, row| mask | 1 << (row * side + column))));
        lines.push((0..side).fold(0, |mask, step| mask | 1 << (step * side + step)));
        lines.push((0..side).fold(0, |mask, step| mask | 1 << (step * side + side - 1 - step)));
        let mut game = Quixo { size, pushes: Vec::new(), lines, symmetries: Symmetries::new(side), slides: Vec::new() };
        game.slides = (0..SLIDE_CELLS * SLIDE_CELLS)
            .map(|pair| {
                let push = Push { from: (pair / SLIDE_CELLS) as u8, to: (pair % SLIDE_CELLS) as u8 };
                let (path, step, up) = game.path_mask(&push);
                Slide { path, step, up }
            })
            .collect();
        let cells = side * side;
        let border: Vec<u32> = (0..cells).filter(|&cell| game.on_border(cell)).collect();
        for from in border {
            let (row, column) = (from / side, from % side);
            let ends = [row * side, row * side + side - 1, column, (side - 1) * side + column];
            let mut targets: Vec<u32> = ends.into_iter().filter(|&end| end != from).collect();
            targets.sort_unstable();
            targets.dedup();
            game.pushes.extend(targets.into_iter().map(|to| Push { from: from as u8, to: to as u8 }));
        }
        Ok(game)
    }

    /// The side of the board.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The number of cells.
    pub fn cells(&self) -> u32 {
        u32::from(self.size) * u32::from(self.size)
    }

    /// Every cell, as a mask.
    fn board_mask(&self) -> u32 {
        (1u32 << self.cells()) - 1
    }

    /// The starting position: the blank board, X to move.
    pub fn start(&self) -> Board {
        Board::START
    }

    /// Whether `cell` is on the border of the board.
    pub fn on_border(&self, cell: u32) -> bool {
        let side = u32::from(self.size);
        let (row, column) = (cell / side, cell % side);
        cell < side * side && (row == 0 || column == 0 || row == side - 1 || column == side - 1)
    }

    /// Whether `push` takes a border cube and pushes it in at another end of its row or column.
    pub fn is_push(&self, push: &Push) -> bool {
        self.pushes.binary_search(push).is_ok()
    }

    /// Whether `marks` hold a whole line.
    #[inline]
    pub fn has_line(&self, marks: u32) -> bool {
        if self.size == 4 {
            return has_line_of_four(marks);
        }
        self.lines.iter().any(|line| line & !marks == 0)
    }

    /// The cells from `push.to` to `push.from`, both included, as a mask, the step between neighbours (1 along
    /// a row, `n` along a column) and whether `to` is below `from` (the cubes then slide up by the step).
    fn path_mask(&self, push: &Push) -> (u32, u32, bool) {
        let side = u32::from(self.size);
        let (from, to) = (u32::from(push.from), u32::from(push.to));
        let (low, high) = (from.min(to), from.max(to));
        let between = (2u32 << high).wrapping_sub(1 << low);
        match from / side == to / side {
            true => (between, 1, to < from),
            // A column's cells: the line of index `side + column` (rows, then columns).
            false => (between & self.lines.get((side + from % side) as usize).copied().unwrap_or(0), side, to < from),
        }
    }

    /// The slide of `push`: from the table, or computed for cells past it.
    #[inline]
    fn slide(&self, push: &Push) -> (u32, u32, bool) {
        let pair = usize::from(push.from) * SLIDE_CELLS + usize::from(push.to);
        match self.slides.get(pair) {
            Some(slide) if usize::from(push.to) < SLIDE_CELLS => (slide.path, slide.step, slide.up),
            _ => self.path_mask(push),
        }
    }

    /// `marks` after the cubes of the path from `push.to` to `push.from` slid one step toward `from` (the cube
    /// at `from` leaves; `to` is left without a mark).
    #[inline]
    fn slid(&self, marks: u32, push: &Push) -> u32 {
        let (path, step, up) = self.slide(push);
        let moving = marks & path & !(1 << push.from);
        let moved = if up { moving << step } else { moving >> step };
        marks & !path | moved
    }

    /// `marks` after the cubes of the path slid back one step toward `push.to` (the inverse of [`Quixo::slid`]
    /// but for the cells at both ends: `from` is left without a mark, the mark at `to` leaves).
    #[inline]
    fn slid_back(&self, marks: u32, push: &Push) -> u32 {
        let (path, step, up) = self.slide(push);
        let moving = marks & path & !(1 << push.to);
        let moved = if up { moving >> step } else { moving << step };
        marks & !path | moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lines_of_four_by_shifts_are_the_lines_by_masks() {
        let game = Quixo::new(4).unwrap();
        for marks in 0..1u32 << 16 {
            assert_eq!(has_line_of_four(marks), game.lines.iter().any(|line| line & !marks == 0), "{marks:#06x}");
        }
    }

    #[test]
    fn the_table_of_slides_holds_the_computed_slides() {
        for size in Quixo::SIZES {
            let game = Quixo::new(size).unwrap();
            for push in &game.pushes {
                assert_eq!(game.slide(push), game.path_mask(push), "{push:?}");
            }
        }
    }
}
