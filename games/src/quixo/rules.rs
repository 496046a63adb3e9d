//! Quixo's rules as the framework's traits: moves and outcomes ([`Game`]), the key seen from the player to move
//! ([`Canonicalize`], [`FromKey`]), tiers by counts of marks ([`Tiers`]) and un-moves ([`Retrograde`]).

use super::{Board, Push, Quixo};
use crate::combinations::populations;
use ludus_framework::engines::retrograde::{Retrograde, Tiers};
use ludus_framework::Rules;
use ludus_framework::{Canonicalize, FromKey, Game, SearchHints, Value};

impl Rules for Quixo {
    type Position = Board;
    type Move = Push;
    type Outcome = Value;
    const POSITIONS_REPEAT: bool = true;

    fn moves(&self, board: &Board, moves: &mut Vec<Push>) {
        let (_, other) = board.sides();
        moves.extend(self.pushes.iter().filter(|push| other >> push.from & 1 == 0));
    }

    fn play(&self, board: &Board, push: &Push) -> Board {
        let (mover, other) = board.sides();
        let moved = self.slid(mover, push) | 1u32.wrapping_shl(u32::from(push.to));
        // The player who just moved is the other one now.
        Board::from_sides(self.slid(other, push), moved, !board.crosses_to_move)
    }

    fn is_legal(&self, board: &Board, push: &Push) -> bool {
        self.is_push(push) && board.sides().1 >> push.from & 1 == 0
    }

    fn outcome(&self, board: &Board) -> Option<Value> {
        let (mover, other) = board.sides();
        // A line of the player to move's marks: the last mover made it, and lost, whatever else he made.
        if self.has_line(mover) {
            Some(Value::Win(0))
        } else if self.has_line(other) {
            Some(Value::LOST)
        } else {
            None
        }
    }
}

impl Game for Quixo {}

/// No hints: Quixo is solved by the retrograde engine, which needs none.
impl SearchHints for Quixo {}

impl Canonicalize for Quixo {
    /// The player to move's marks in bits `N..2N`, the other's in bits `0..N`, smallest over the 8 symmetries.
    type Key = u64;

    fn canonical(&self, board: &Board) -> u64 {
        let (mover, other) = board.sides();
        self.symmetries.smallest_pair(mover, other, self.cells())
    }
}

impl FromKey for Quixo {
    /// The key read back with X to move (the colour swap, O to move, shares the key). A key of no position, or
    /// not the smallest encoding of its images, gives `None`.
    fn position_of_key(&self, key: &u64) -> Option<Board> {
        let cells = self.cells();
        if key >> (2 * cells) != 0 {
            return None;
        }
        let mask = u64::from(self.board_mask());
        let (mover, other) = ((key >> cells & mask) as u32, (key & mask) as u32);
        if mover & other != 0 {
            return None;
        }
        let board = Board::from_sides(mover, other, true);
        (self.canonical(&board) == *key).then_some(board)
    }
}

impl Tiers for Quixo {
    /// The larger and the smaller of the two players' counts of marks.
    type Tier = (u8, u8);

    fn tier(&self, board: &Board) -> (u8, u8) {
        let (crosses, noughts) = populations(board.crosses, board.noughts);
        let (crosses, noughts) = (crosses as u8, noughts as u8);
        (crosses.max(noughts), crosses.min(noughts))
    }

    fn child_tiers(&self, &(more, fewer): &(u8, u8)) -> Vec<(u8, u8)> {
        // A blank taken adds a mark to either side.
        if u32::from(more) + u32::from(fewer) >= self.cells() {
            return Vec::new();
        }
        let mut children = vec![(more + 1, fewer)];
        if fewer < more {
            children.push((more, fewer + 1));
        }
        children
    }
}

impl Retrograde for Quixo {
    /// The last mover (the other player now) pulls his cube back out of the end it was pushed in at, the cubes
    /// slide back, and the cube returns where it was taken as a blank or as his own mark; positions that would
    /// already be over are left out.
    fn parents(&self, board: &Board, parents: &mut Vec<Board>) {
        let (mover, other) = board.sides();
        for push in self.pushes.iter().filter(|push| other >> push.to & 1 != 0) {
            let before_mover = self.slid_back(other, push);
            let before_other = self.slid_back(mover, push);
            for taken in [0, 1u32 << push.from] {
                let (parent_mover, parent_other) = (before_mover | taken, before_other);
                if !self.has_line(parent_mover) && !self.has_line(parent_other) {
                    parents.push(Board::from_sides(parent_mover, parent_other, !board.crosses_to_move));
                }
            }
        }
    }
}
