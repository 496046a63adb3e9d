//! Othello's rules as a [`ScoredGame`]: discs by bitboards, passes as moves, the margin in discs at the end,
//! keys from the mover's side.

use super::bitboard::Cells;
use super::Othello;
use ludus_framework::scored::{Deterministic, Player, ScoredGame};
use ludus_framework::Canonicalize;
use ludus_framework::Rules;

/// A position: the discs of the player to move and the other's (bit `8 * row + column`), and the colour to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Discs {
    /// The discs of the player to move.
    pub mover: u64,
    /// The other player's discs.
    pub other: u64,
    /// Whether Black (the first player) is to move.
    pub black_to_move: bool,
}

impl Discs {
    /// Black's discs and White's.
    pub fn black_and_white(&self) -> (u64, u64) {
        if self.black_to_move {
            (self.mover, self.other)
        } else {
            (self.other, self.mover)
        }
    }

    /// The position with `black` and `white` discs, `black_to_move` telling who moves.
    pub fn of_colours(black: u64, white: u64, black_to_move: bool) -> Discs {
        if black_to_move {
            Discs { mover: black, other: white, black_to_move }
        } else {
            Discs { mover: white, other: black, black_to_move }
        }
    }

    /// The cells left empty on a board of cells `all`.
    pub fn empty(&self, all: u64) -> u64 {
        all & !(self.mover | self.other)
    }

    /// The same discs with the turn passed.
    fn passed(&self) -> Discs {
        Discs { mover: self.other, other: self.mover, black_to_move: !self.black_to_move }
    }
}

/// A move: a disc on a cell (its bit index, `8 * row + column`), or a pass when the mover has no such move and
/// the other has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OthelloMove {
    /// A disc on this cell.
    Place(u8),
    /// No disc: the turn passes.
    Pass,
}

impl Othello {
    /// The start: the four middle cells, White on the diagonal from the top left (d4 and e5 on 8 x 8), Black
    /// on the other; Black to move.
    pub fn start(&self) -> Discs {
        let half = self.cells.size / 2;
        let white = Cells::cell(half - 1, half - 1) | Cells::cell(half, half);
        let black = Cells::cell(half - 1, half) | Cells::cell(half, half - 1);
        Discs::of_colours(black, white, true)
    }

    /// The cells where the player to move may place a disc.
    #[inline]
    pub fn placements(&self, position: &Discs) -> u64 {
        self.cells.moves(position.mover, position.other)
    }

    /// The position after a disc on the cell `at` (one bit) of the player to move.
    #[inline]
    pub fn place(&self, position: &Discs, at: u64) -> Discs {
        let flipped = self.cells.flips(position.mover, position.other, at);
        Discs {
            mover: position.other & !flipped,
            other: position.mover | flipped | at,
            black_to_move: !position.black_to_move,
        }
    }

    /// The final margin for the player to move (neither player can place a disc): his discs less the other's,
    /// the empty cells counted for the winner when [`Othello::empties_to_winner`] holds.
    pub fn final_margin(&self, position: &Discs) -> i32 {
        let mine = position.mover.count_ones() as i32;
        let theirs = position.other.count_ones() as i32;
        let empty = position.empty(self.cells.all).count_ones() as i32;
        let margin = mine - theirs;
        if !self.empties_to_winner || margin == 0 {
            margin
        } else if margin > 0 {
            margin + empty
        } else {
            margin - empty
        }
    }
}

impl Rules for Othello {
    type Position = Discs;
    type Move = OthelloMove;
    type Outcome = i32;

    #[inline]
    fn outcome(&self, position: &Discs) -> Option<i32> {
        if self.placements(position) != 0 || self.cells.moves(position.other, position.mover) != 0 {
            return None;
        }
        Some(self.final_margin(position))
    }

    fn moves(&self, position: &Discs, moves: &mut Vec<OthelloMove>) {
        let mut placements = self.placements(position);
        if placements == 0 {
            moves.push(OthelloMove::Pass);
        }
        while placements != 0 {
            moves.push(OthelloMove::Place(placements.trailing_zeros() as u8));
            placements &= placements - 1;
        }
    }

    #[inline]
    fn play(&self, position: &Discs, mv: &OthelloMove) -> Discs {
        match *mv {
            OthelloMove::Pass => position.passed(),
            OthelloMove::Place(cell) => self.place(position, 1 << cell),
        }
    }

    fn is_legal(&self, position: &Discs, mv: &OthelloMove) -> bool {
        if self.is_over(position) {
            return false;
        }
        let placements = self.placements(position);
        match *mv {
            OthelloMove::Pass => placements == 0,
            OthelloMove::Place(cell) => cell < 64 && placements & (1 << cell) != 0,
        }
    }

    fn turn_passes(&self, from: &Self::Position, to: &Self::Position) -> bool {
        self.mover(from) != self.mover(to)
    }
}

impl ScoredGame for Othello {}

impl Othello {
    /// The player to move (the one whose view every score of the position takes).
    pub fn mover(&self, position: &Discs) -> Player {
        if position.black_to_move {
            Player::First
        } else {
            Player::Second
        }
    }
}

impl Deterministic for Othello {}

/// Keys from the mover's side: his discs in the high 64 bits, the other's in the low ones. The rules are the
/// same for both colours, so a position and its colour swap with the other to move share a key (and a value).
impl Canonicalize for Othello {
    type Key = u128;

    #[inline]
    fn canonical(&self, position: &Discs) -> u128 {
        (u128::from(position.mover) << 64) | u128::from(position.other)
    }
}
