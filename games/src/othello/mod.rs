//! Othello (Reversi with the modern start) on an `n x n` board, `n` from 4 to 8 (odd sides
//! have their four middle discs just above and left of the centre), as a scored game for the
//! framework's scored engines ([`ludus_framework::engines::scored`]).
//!
//! ## The rules implemented
//! - The start: the four middle cells hold two discs each colour, White's on the diagonal from the top left
//!   (d4 and e5 on 8 x 8), Black's on the other (d5 and e4). Black moves first.
//! - A move places a disc of the mover's colour on an empty cell such that, along at least one of the eight
//!   directions, a line of the other's discs runs from it to a disc of the mover's; every such line is flipped.
//! - A player who cannot place a disc while the other can must pass: the pass is a move (`pass`). The game
//!   ends when neither can place a disc (a full board, or no placement for either).
//! - The score is the margin in discs for the player to move at the end: his discs less the other's. With
//!   `empties=winner` (the default, the tournament rule) the empty cells left count for the winner; with
//!   `empties=none` they count for nobody. A draw scores 0.
//!
//! Cells are named by a column letter (`a` at the left) and a row number (`1` at the top), as on a printed
//! Othello board. The board is a bitboard in the top-left corner of an 8 x 8 layout (`bitboard.rs`); keys are
//! the position from the mover's side (`rules.rs`), so a position and its colour swap share a key; the hints
//! (`hints.rs`) give the margin's range, the last empty cell without search, and the move order by corners,
//! fewest replies and parity, and the estimate (mobility and corners) that aims the exact search's first test;
//! `board.rs` the board of the explorer's page. `compact.rs` gives boards up to 6 x 6 a key in a `u64` (its ternary digits), for
//! the lock-free [`ludus_framework::table::PackedTable`]. `threshold.rs` makes "does Black get at least k?" a
//! win/loss game for the alternating engines (the sweep the scored engine replaces).

mod bitboard;
mod board;
mod compact;
mod hints;
mod last_empties;
mod rules;
mod text;
mod threshold;

pub use compact::CompactOthello;
pub use rules::{Discs, OthelloMove};
pub use threshold::Threshold;

use bitboard::Cells;
use ludus_framework::{Error, Result};

/// Othello on an `n x n` board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Othello {
    cells: Cells,
    /// The corner cells one by one, in the order of `cells.near_corners`.
    corner_cells: [u64; 4],
    /// The four quadrants' cells (for parity).
    quadrants: [u64; 4],
    /// Whether the empty cells left at the end count for the winner (the tournament rule).
    pub empties_to_winner: bool,
}

impl Othello {
    /// Othello on `size x size` (4 to 8); `empties_to_winner` as the rules say.
    pub fn new(size: u32, empties_to_winner: bool) -> Result<Othello> {
        if !(4..=8).contains(&size) {
            return Err(Error::parameter("size", format!("othello: the board's side is 4 to 8, not {size}")));
        }
        let cells = Cells::new(size);
        let last = size - 1;
        let corner_cells = [Cells::cell(0, 0), Cells::cell(0, last), Cells::cell(last, 0), Cells::cell(last, last)];
        let half = size / 2;
        let quadrant = |rows: std::ops::Range<u32>, columns: std::ops::Range<u32>| {
            rows.flat_map(|row| columns.clone().map(move |column| Cells::cell(row, column)))
                .fold(0, |all, cell| all | cell)
        };
        let quadrants = [
            quadrant(0..half, 0..half),
            quadrant(0..half, half..size),
            quadrant(half..size, 0..half),
            quadrant(half..size, half..size),
        ];
        Ok(Othello { cells, corner_cells, quadrants, empties_to_winner })
    }

    /// The board's side.
    pub fn size(&self) -> u32 {
        self.cells.size
    }

    /// Every cell of the board, as a mask.
    pub fn all_cells(&self) -> u64 {
        self.cells.all
    }
}
