//! Kalah's rules as a [`ScoredGame`]: sowing, extra moves, captures, the end and its score; keys from the
//! mover's side.

use super::{Capture, Kalah, MAX_PITS};
use ludus_framework::scored::{Deterministic, Player, ScoredGame};
use ludus_framework::Canonicalize;
use ludus_framework::Rules;

/// A position: the pits and stores of South (the first player) and North, and who is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// Each side's pits, left to right as its owner sees them (`pits[0]` South's, `pits[1]` North's); only the
    /// first `m` are used.
    pub pits: [[u8; MAX_PITS]; 2],
    /// Each side's store.
    pub stores: [u8; 2],
    /// Whether South is to move.
    pub south_to_move: bool,
}

impl Board {
    /// The index of the side to move (0 South, 1 North).
    pub fn side(&self) -> usize {
        usize::from(!self.south_to_move)
    }
}

/// A move: the pit the mover empties, `0` to `m - 1` from his left.
pub type Pit = u8;

impl Kalah {
    /// The start: `n` seeds in every pit, empty stores, South to move.
    pub fn start(&self) -> Board {
        let mut pits = [[0u8; MAX_PITS]; 2];
        for side in &mut pits {
            for pit in side.iter_mut().take(self.pits) {
                *pit = self.seeds as u8;
            }
        }
        Board { pits, stores: [0, 0], south_to_move: true }
    }

    /// Whether a side's pits are all empty.
    fn side_empty(&self, board: &Board, side: usize) -> bool {
        board.pits[side][..self.pits].iter().all(|&seeds| seeds == 0)
    }

    /// Seeds left in a side's pits.
    pub fn in_pits(&self, board: &Board, side: usize) -> u32 {
        board.pits[side][..self.pits].iter().map(|&seeds| u32::from(seeds)).sum()
    }

    /// Whether the game is over: one side's pits are all empty.
    pub fn finished(&self, board: &Board) -> bool {
        self.side_empty(board, 0) || self.side_empty(board, 1)
    }

    /// The position after the mover sows from `pit`, and whether the last seed fell in his store.
    pub fn sow(&self, board: &Board, pit: usize) -> (Board, bool) {
        let mut next = *board;
        let me = board.side();
        let mut seeds = u32::from(next.pits[me][pit]);
        next.pits[me][pit] = 0;
        // The places in sowing order from the mover's view: his pits 0..m, his store (m), the other's pits
        // (m + 1 .. 2m + 1); the other's store is skipped.
        let cycle = 2 * self.pits + 1;
        let mut place = pit;
        while seeds > 0 {
            place = (place + 1) % cycle;
            if place < self.pits {
                next.pits[me][place] += 1;
            } else if place == self.pits {
                next.stores[me] += 1;
            } else {
                next.pits[1 - me][place - self.pits - 1] += 1;
            }
            seeds -= 1;
        }
        let again = place == self.pits;
        if place < self.pits && next.pits[me][place] == 1 {
            let opposite = self.pits - 1 - place;
            let captured = next.pits[1 - me][opposite];
            if captured > 0 || self.capture() == Capture::Always {
                next.stores[me] += captured + 1;
                next.pits[me][place] = 0;
                next.pits[1 - me][opposite] = 0;
            }
        }
        if !again {
            next.south_to_move = !next.south_to_move;
        }
        if self.finished(&next) {
            for side in 0..2 {
                let left = self.in_pits(&next, side) as u8;
                next.stores[side] += left;
                next.pits[side] = [0; MAX_PITS];
            }
        }
        (next, again)
    }
}

impl Rules for Kalah {
    type Position = Board;
    type Move = Pit;
    type Outcome = i32;

    fn outcome(&self, board: &Board) -> Option<i32> {
        self.finished(board).then(|| {
            let me = board.side();
            i32::from(board.stores[me]) - i32::from(board.stores[1 - me])
        })
    }

    fn moves(&self, board: &Board, moves: &mut Vec<Pit>) {
        let me = board.side();
        moves.extend((0..self.pits).filter(|&pit| board.pits[me][pit] > 0).map(|pit| pit as Pit));
    }

    fn play(&self, board: &Board, pit: &Pit) -> Board {
        self.sow(board, usize::from(*pit)).0
    }

    fn is_legal(&self, board: &Board, pit: &Pit) -> bool {
        let pit = usize::from(*pit);
        !self.finished(board) && pit < self.pits && board.pits[board.side()][pit] > 0
    }

    fn turn_passes(&self, from: &Self::Position, to: &Self::Position) -> bool {
        self.mover(from) != self.mover(to)
    }
}

impl ScoredGame for Kalah {}

impl Kalah {
    /// The player to move (the one whose view every score of the position takes).
    pub fn mover(&self, board: &Board) -> Player {
        if board.south_to_move {
            Player::First
        } else {
            Player::Second
        }
    }
}

impl Deterministic for Kalah {}

/// The board from the mover's side: his pits, the other's, then his store, 8 bits each (no count reaches 256:
/// at most `2 * 7 * 12 = 168` seeds in all). The other's store is implied, since the seeds in all are fixed:
/// `2m + 1 <= 15` counts, 120 bits.
impl Canonicalize for Kalah {
    type Key = u128;

    fn canonical(&self, board: &Board) -> u128 {
        let me = board.side();
        let mut key = 0u128;
        for side in [me, 1 - me] {
            for &seeds in &board.pits[side][..self.pits] {
                key = (key << 8) | u128::from(seeds);
            }
        }
        (key << 8) | u128::from(board.stores[me])
    }
}

/// A board from its key: the mover as South (keys are from the mover's side, so every board with that key has
/// this one's value), the other's store what the seeds in all leave.
impl ludus_framework::FromKey for Kalah {
    fn position_of_key(&self, key: &u128) -> Option<Board> {
        let mut rest = *key;
        let mut board = Board { pits: [[0; MAX_PITS]; 2], stores: [0, 0], south_to_move: true };
        board.stores[0] = (rest & 0xff) as u8;
        rest >>= 8;
        for side in [1, 0] {
            for pit in (0..self.pits).rev() {
                board.pits[side][pit] = (rest & 0xff) as u8;
                rest >>= 8;
            }
        }
        let held = self.in_pits(&board, 0) + self.in_pits(&board, 1) + u32::from(board.stores[0]);
        board.stores[1] = u8::try_from(self.total().checked_sub(held)?).ok()?;
        (rest == 0).then_some(board)
    }
}
