//! Tic-tac-toe on a 3 x 3 board, canonicalized under the board's 8 symmetries (rotations and reflections).
//!
//! Reference facts (asserted in tests): 5,478 positions are reachable from the empty board (a game stops at a
//! win), 765 of them up to symmetry, and the game is a draw.
//!
//! For the retrograde engine and stored databases: tiers are the marks on the board
//! ([`ludus_framework::engines::retrograde::Tiers`]), and a key decodes back to a board
//! ([`ludus_framework::FromKey`]).

use ludus_framework::engines::retrograde::Tiers;
use ludus_framework::Rules;
use ludus_framework::{Canonicalize, FromKey, Game, SearchHints, Value};

/// The 8 winning lines, as cell masks (cells 0..9 row by row).
const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

/// For each of the 8 symmetries, the image cell of each cell.
const SYMMETRIES: [[u8; 9]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8], // identity
    [6, 3, 0, 7, 4, 1, 8, 5, 2], // rotate 90
    [8, 7, 6, 5, 4, 3, 2, 1, 0], // rotate 180
    [2, 5, 8, 1, 4, 7, 0, 3, 6], // rotate 270
    [2, 1, 0, 5, 4, 3, 8, 7, 6], // mirror left-right
    [6, 7, 8, 3, 4, 5, 0, 1, 2], // mirror top-bottom
    [0, 3, 6, 1, 4, 7, 2, 5, 8], // transpose
    [8, 5, 2, 7, 4, 1, 6, 3, 0], // anti-transpose
];

/// A position: the cells of the first player (X) and of the second (O), as 9-bit masks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// Cells holding X (the first player).
    pub crosses: u16,
    /// Cells holding O.
    pub noughts: u16,
}

impl Board {
    /// The empty board, X to move.
    pub const EMPTY: Board = Board { crosses: 0, noughts: 0 };

    /// Whether X is to move (equal numbers of marks).
    pub fn crosses_to_move(&self) -> bool {
        self.crosses.count_ones() == self.noughts.count_ones()
    }

    /// The board under symmetry `index` (0..8).
    pub fn transformed(&self, index: usize) -> Board {
        let map = |mask: u16| {
            (0..9).filter(|cell| mask & (1 << cell) != 0).fold(0u16, |acc, cell| acc | 1 << SYMMETRIES[index % 8][cell])
        };
        Board { crosses: map(self.crosses), noughts: map(self.noughts) }
    }

    /// The 8 symmetric images of this board (including itself).
    pub fn symmetric_images(&self) -> Vec<Board> {
        (0..8).map(|index| self.transformed(index)).collect()
    }

    /// X's cells in bits 9..18, O's in bits 0..9.
    fn encode(&self) -> u32 {
        u32::from(self.crosses) << 9 | u32::from(self.noughts)
    }

    /// The board of an encoding, if it is one: 18 bits, no cell taken twice, and X with as many marks as O
    /// or one more.
    fn decode(encoding: u32) -> Option<Board> {
        if encoding >> 18 != 0 {
            return None;
        }
        let crosses = (encoding >> 9) as u16 & 0o777;
        let noughts = encoding as u16 & 0o777;
        let (placed_crosses, placed_noughts) = (crosses.count_ones(), noughts.count_ones());
        let counts_fit = placed_crosses == placed_noughts || placed_crosses == placed_noughts + 1;
        (crosses & noughts == 0 && counts_fit).then_some(Board { crosses, noughts })
    }
}

fn has_line(mask: u16) -> bool {
    LINES.iter().any(|line| line & !mask == 0)
}

/// Tic-tac-toe: a move is a cell index 0..9 (row by row).
#[derive(Clone, Copy, Debug, Default)]
pub struct TicTacToe;

impl Rules for TicTacToe {
    type Position = Board;
    type Move = u8;
    type Outcome = Value;

    fn moves(&self, board: &Board, moves: &mut Vec<u8>) {
        let filled = board.crosses | board.noughts;
        moves.extend((0..9).filter(|cell| filled & (1 << cell) == 0));
    }

    fn play(&self, board: &Board, cell: &u8) -> Board {
        let bit = 1u16 << (cell % 9);
        if board.crosses_to_move() {
            Board { crosses: board.crosses | bit, ..*board }
        } else {
            Board { noughts: board.noughts | bit, ..*board }
        }
    }

    fn outcome(&self, board: &Board) -> Option<Value> {
        if has_line(board.crosses) || has_line(board.noughts) {
            Some(Value::LOST)
        } else if (board.crosses | board.noughts) == 0o777 {
            Some(Value::Draw)
        } else {
            None
        }
    }
}

impl Game for TicTacToe {}

/// No hints: the board is small enough to search every move.
impl SearchHints for TicTacToe {}

impl Canonicalize for TicTacToe {
    type Key = u32;

    /// The smallest encoding among the 8 symmetric images.
    fn canonical(&self, board: &Board) -> u32 {
        (0..8).map(|index| board.transformed(index).encode()).min().unwrap_or(0)
    }
}

impl FromKey for TicTacToe {
    /// The key is the encoding of one of the board's images: decoded, it is that image, whose key is the same.
    /// A key that is no board's, or not the smallest encoding of its board's images, gives `None`.
    fn position_of_key(&self, key: &u32) -> Option<Board> {
        Board::decode(*key).filter(|board| self.canonical(board) == *key)
    }
}

impl Tiers for TicTacToe {
    /// The number of marks on the board: every move goes to the next tier.
    type Tier = u8;

    fn tier(&self, board: &Board) -> u8 {
        (board.crosses | board.noughts).count_ones() as u8
    }

    fn child_tiers(&self, marks: &u8) -> Vec<u8> {
        (*marks < 9).then_some(marks + 1).into_iter().collect()
    }
}
