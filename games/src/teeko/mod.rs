//! Teeko (John Scarne, 1937) on its 5 x 5 board: a loopy game of four pieces each, solved by the framework's
//! retrograde engine ([`ludus_framework::engines::retrograde`]); the negamax engines must not be used on it,
//! since pieces move to and fro and positions repeat.
//!
//! ## The rules implemented
//! - The board has 5 x 5 cells, empty at the start; a cell is named by its column letter (`a` at the left) and
//!   its row number (`1` at the bottom). Each player, Black (first to move) and White, has 4 pieces.
//! - The drop phase: while the player to move has placed fewer than his 4 pieces, his move drops one on an
//!   empty cell (`c3`). Black drops first, so the players alternate until all 8 pieces are down.
//! - The move phase: the player to move moves one of his pieces to an adjacent empty cell, one of its 8
//!   neighbours, orthogonal or diagonal (`c3d4`).
//! - A player whose 4 pieces form a straight line of 4 adjacent cells (in a row, a column or a diagonal) or a
//!   2 x 2 square wins at once: the position after his move is `Value::LOST` for his opponent, to move. A
//!   player to move without a legal move has lost too (the framework's convention).
//! - Positions repeat in the move phase; what neither side can force is a draw (endless play).
//!
//! The rules are the same for both players once the pieces are down, so the canonical key sees the position
//! from the player to move: his pieces in bits 25..50, the other's in bits 0..25, the smallest encoding over
//! the square's 8 symmetries (which map lines and squares to lines and squares, and neighbours to neighbours).
//! A position and its colour swap, with the other player to move, share a key in the move phase; in the drop
//! phase the counts tell whose turn it is. Tiers ([`ludus_framework::engines::retrograde::Tiers`]) are the
//! pieces on the board, 0 to 8: each drop goes to the next tier, and tier 8, the move phase, loops within
//! itself. The un-move hook ([`ludus_framework::engines::retrograde::Retrograde`]) takes back the last piece
//! dropped, or moves one back. Each tier's keys are numbered
//! ([`ludus_framework::engines::retrograde::Rank`], in `rank.rs`) by the combinatorial number system: the
//! mover's cells among the 25, the other's among those left.
//!
//! The same rules on a 4 x 4 board ([`Teeko::with_side`]) are small enough for a value iteration without
//! symmetry, which the tests compare with the engine: a draw from the start (189,317 keys, 2,400,087
//! positions). Teeko itself is a draw with perfect play, as Guy Steele (1998) found: `ludus db solve teeko`
//! agrees (12,063,947 keys in 9 tiers, 9,436,883 of them in the move phase).

mod board_form;
mod rank;
mod rules;
mod text;

use crate::combinations::cells;
use crate::square::Symmetries;
use ludus_framework::{Error, Result};

/// The pieces each player has.
pub const PIECES: u32 = 4;

/// A position: the cells of Black's pieces and of White's (bit `row * side + column`, row 0 at the bottom), and
/// who is to move (which the counts tell only while pieces are being dropped).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// Cells of Black's pieces (the first player).
    pub black: u32,
    /// Cells of White's pieces.
    pub white: u32,
    /// Whether Black is to move.
    pub black_to_move: bool,
}

impl Board {
    /// The empty board, Black to drop the first piece.
    pub const START: Board = Board { black: 0, white: 0, black_to_move: true };

    /// The pieces of the player to move, and the other's.
    pub fn sides(&self) -> (u32, u32) {
        if self.black_to_move {
            (self.black, self.white)
        } else {
            (self.white, self.black)
        }
    }

    /// The board with the player to move's pieces `mover` and the other's `other`.
    pub fn from_sides(mover: u32, other: u32, black_to_move: bool) -> Board {
        if black_to_move {
            Board { black: mover, white: other, black_to_move }
        } else {
            Board { black: other, white: mover, black_to_move }
        }
    }

    /// The number of pieces on the board.
    pub fn pieces(&self) -> u32 {
        (self.black | self.white).count_ones()
    }

    /// Whether pieces are still to be dropped.
    pub fn dropping(&self) -> bool {
        self.pieces() < 2 * PIECES
    }
}

/// A move: a piece dropped on `to` (`from` is `None`), or moved from `from` to the adjacent cell `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Step {
    /// The cell the piece leaves, `None` for a drop.
    pub from: Option<u8>,
    /// The cell it reaches.
    pub to: u8,
}

/// Teeko on a square board (5 x 5, or 4 x 4 for tests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Teeko {
    /// The board's side.
    side: u8,
    /// The winning sets of 4 cells: straight lines and 2 x 2 squares.
    wins: Vec<u32>,
    /// For each cell, its neighbours (8 at most).
    neighbours: Vec<u32>,
    /// The square's symmetries.
    symmetries: Symmetries,
}

impl Default for Teeko {
    fn default() -> Teeko {
        Teeko::new()
    }
}

impl Teeko {
    /// The sides this implementation plays: 5 is Teeko, 4 its small variant for tests.
    pub const SIDES: std::ops::RangeInclusive<u8> = 4..=5;

    /// Teeko on its 5 x 5 board.
    pub fn new() -> Teeko {
        Teeko::build(5)
    }

    /// The same rules on a `side x side` board, `side` within [`Teeko::SIDES`].
    pub fn with_side(side: u8) -> Result<Teeko> {
        if !Self::SIDES.contains(&side) {
            return Err(Error::limit("the Teeko board side", u64::from(side), u64::from(*Self::SIDES.end())));
        }
        Ok(Teeko::build(side))
    }

    /// The game on a board of a side within [`Teeko::SIDES`].
    fn build(side: u8) -> Teeko {
        let size = i32::from(side);
        let bit = |row: i32, column: i32| -> Option<u32> {
            (0..size).contains(&row).then_some(())?;
            (0..size).contains(&column).then_some(())?;
            Some(1u32 << (row * size + column))
        };
        let mut wins = Vec::new();
        let mut neighbours = Vec::new();
        for row in 0..size {
            for column in 0..size {
                // Lines of 4 starting here: right, up, up-right, up-left; and the square up-right.
                for (row_step, column_step) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let line: Option<u32> =
                        (0..4).map(|step| bit(row + step * row_step, column + step * column_step)).sum();
                    wins.extend(line);
                }
                let square: Option<u32> =
                    [(0, 0), (0, 1), (1, 0), (1, 1)].into_iter().map(|(up, right)| bit(row + up, column + right)).sum();
                wins.extend(square);
                let around = (-1..=1)
                    .flat_map(|up| (-1..=1).map(move |right| (up, right)))
                    .filter(|&step| step != (0, 0))
                    .filter_map(|(up, right)| bit(row + up, column + right))
                    .fold(0, |mask, cell| mask | cell);
                neighbours.push(around);
            }
        }
        Teeko { side, wins, neighbours, symmetries: Symmetries::new(u32::from(side)) }
    }

    /// The side of the board.
    pub fn side(&self) -> u8 {
        self.side
    }

    /// The number of cells.
    pub fn cells(&self) -> u32 {
        u32::from(self.side) * u32::from(self.side)
    }

    /// Every cell, as a mask.
    fn board_mask(&self) -> u32 {
        (1u32 << self.cells()) - 1
    }

    /// The starting position: the empty board, Black to move.
    pub fn start(&self) -> Board {
        Board::START
    }

    /// Whether `pieces` hold a line of 4 or a 2 x 2 square.
    pub fn has_win(&self, pieces: u32) -> bool {
        self.wins.iter().any(|win| win & !pieces == 0)
    }

    /// The winning sets: straight lines of 4 and 2 x 2 squares.
    pub fn winning_sets(&self) -> &[u32] {
        &self.wins
    }

    /// The neighbours of `cell`, as a mask (none for a cell off the board).
    pub fn neighbours(&self, cell: u32) -> u32 {
        self.neighbours.get(cell as usize).copied().unwrap_or(0)
    }

    /// The cells of `mask`, lowest first.
    fn cells_of(mask: u32) -> impl Iterator<Item = u32> {
        cells(mask)
    }
}
