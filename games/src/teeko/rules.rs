//! Teeko's rules as the framework's traits: drops and moves ([`Game`]), the key seen from the player to move
//! ([`Canonicalize`], [`FromKey`]), tiers by pieces on the board ([`Tiers`]) and un-moves ([`Retrograde`]).

use super::{Board, Step, Teeko, PIECES};
use ludus_framework::engines::retrograde::{Retrograde, Tiers};
use ludus_framework::Rules;
use ludus_framework::{Canonicalize, FromKey, Game, SearchHints, Value};

impl Rules for Teeko {
    type Position = Board;
    type Move = Step;
    type Outcome = Value;
    const POSITIONS_REPEAT: bool = true;

    fn moves(&self, board: &Board, moves: &mut Vec<Step>) {
        let (mover, other) = board.sides();
        let empty = self.board_mask() & !(mover | other);
        if board.dropping() {
            moves.extend(Self::cells_of(empty).map(|to| Step { from: None, to: to as u8 }));
        } else {
            for from in Self::cells_of(mover) {
                let targets = self.neighbours(from) & empty;
                moves.extend(Self::cells_of(targets).map(|to| Step { from: Some(from as u8), to: to as u8 }));
            }
        }
    }

    fn play(&self, board: &Board, step: &Step) -> Board {
        let (mover, other) = board.sides();
        let cells = self.cells();
        let left = step.from.map_or(0, |from| 1u32 << (u32::from(from) % cells));
        let moved = mover & !left | 1 << (u32::from(step.to) % cells);
        // The player who just moved is the other one now.
        Board::from_sides(other, moved, !board.black_to_move)
    }

    fn outcome(&self, board: &Board) -> Option<Value> {
        let (_, other) = board.sides();
        // A line or square for the player who just moved: lost for the player to move.
        self.has_win(other).then_some(Value::LOST)
    }
}

impl Game for Teeko {}

/// No hints: Teeko is solved by the retrograde engine, which needs none.
impl SearchHints for Teeko {}

impl Canonicalize for Teeko {
    /// The player to move's pieces in bits `N..2N`, the other's in bits `0..N` (`N` cells), smallest over the
    /// 8 symmetries.
    type Key = u64;

    fn canonical(&self, board: &Board) -> u64 {
        let (mover, other) = board.sides();
        self.symmetries.smallest_pair(mover, other, self.cells())
    }
}

impl FromKey for Teeko {
    /// The key read back: the player to move is Black when both have as many pieces (in the move phase the
    /// colour swap shares the key), White when the other has one more. A key of no position, or not the
    /// smallest encoding of its images, gives `None`.
    fn position_of_key(&self, key: &u64) -> Option<Board> {
        let cells = self.cells();
        if key >> (2 * cells) != 0 {
            return None;
        }
        let mask = u64::from(self.board_mask());
        let (mover, other) = ((key >> cells & mask) as u32, (key & mask) as u32);
        let (mover_pieces, other_pieces) = (mover.count_ones(), other.count_ones());
        let counts_fit = other_pieces <= PIECES && (mover_pieces == other_pieces || mover_pieces + 1 == other_pieces);
        if mover & other != 0 || !counts_fit {
            return None;
        }
        let board = Board::from_sides(mover, other, mover_pieces == other_pieces);
        (self.canonical(&board) == *key).then_some(board)
    }
}

impl Tiers for Teeko {
    /// The pieces on the board, 0 to 8.
    type Tier = u8;

    fn tier(&self, board: &Board) -> u8 {
        board.pieces() as u8
    }

    fn child_tiers(&self, pieces: &u8) -> Vec<u8> {
        // A drop adds a piece; tier 8, the move phase, has no child tier.
        (u32::from(*pieces) < 2 * PIECES).then_some(pieces + 1).into_iter().collect()
    }
}

impl Retrograde for Teeko {
    /// The last mover (the other player now) takes back a piece he dropped, or moves one back; positions that
    /// would already be over are left out.
    fn parents(&self, board: &Board, parents: &mut Vec<Board>) {
        let (mover, other) = board.sides();
        // With a win for the player to move, the game was over before the last move.
        if self.has_win(mover) || other == 0 {
            return;
        }
        let empty = self.board_mask() & !(mover | other);
        // The last piece dropped: the last mover had as many pieces as the other before, or one fewer.
        if other.count_ones() == mover.count_ones() || other.count_ones() == mover.count_ones() + 1 {
            for dropped in Self::cells_of(other) {
                let before = other & !(1 << dropped);
                // In the drop phase Black is to move exactly when both have as many pieces.
                if !self.has_win(before) {
                    parents.push(Board::from_sides(before, mover, before.count_ones() == mover.count_ones()));
                }
            }
        }
        // A move, in the move phase: a piece back to an empty neighbour.
        if !board.dropping() {
            for to in Self::cells_of(other) {
                for from in Self::cells_of(self.neighbours(to) & empty) {
                    let before = other & !(1 << to) | 1 << from;
                    if !self.has_win(before) {
                        parents.push(Board::from_sides(before, mover, !board.black_to_move));
                    }
                }
            }
        }
    }
}
