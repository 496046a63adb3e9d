//! Dots and Boxes' rules as a scored game whose turns do not alternate: the position ([`Board`]), [`Rules`]
//! (a move that takes a box moves again), [`ScoredGame`] (the margin in boxes) and [`Deterministic`].

use super::{DotsAndBoxes, Edge};
use ludus_framework::scored::{Deterministic, ScoredGame};
use ludus_framework::Rules;

/// A position: the edges drawn and by whom, the boxes each player took, and who is to move. What is left to
/// win depends on the edges drawn only; who drew them and which boxes are whose is there for the board shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The edges drawn, a bit each.
    pub edges: u64,
    /// The edges the first player drew (the others of `edges` the second player drew).
    pub first_edges: u64,
    /// The boxes each player took, a bit each: the first player's, then the second's.
    pub boxes: [u32; 2],
    /// Whether the first player is to move.
    pub first_to_move: bool,
}

impl Board {
    /// The empty board, the first player to move.
    pub const START: Board = Board { edges: 0, first_edges: 0, boxes: [0, 0], first_to_move: true };

    /// The first player's boxes less the second player's.
    pub fn lead(&self) -> i32 {
        self.boxes[0].count_ones() as i32 - self.boxes[1].count_ones() as i32
    }

    /// The lead seen by the player to move: the score the game gives when no edge is left.
    pub fn mover_lead(&self) -> i32 {
        if self.first_to_move {
            self.lead()
        } else {
            -self.lead()
        }
    }

    /// The boxes taken by either player.
    pub fn taken(&self) -> u32 {
        (self.boxes[0] | self.boxes[1]).count_ones()
    }
}

impl DotsAndBoxes {
    /// The boxes whose four edges are drawn in `edges`.
    pub fn closed_boxes(&self, edges: u64) -> u32 {
        self.box_edges
            .iter()
            .enumerate()
            .filter(|&(_, &mask)| edges & mask == mask)
            .map(|(square, _)| 1 << square)
            .sum()
    }

    /// The boxes that drawing `edge` closes, as a mask of boxes.
    pub(super) fn boxes_completed(&self, edges: u64, edge: usize) -> u32 {
        let after = edges | 1 << edge;
        self.edge_boxes[edge]
            .iter()
            .filter(|&&square| after & self.box_edges[square] == self.box_edges[square])
            .map(|&square| 1 << square)
            .sum()
    }
}

impl Rules for DotsAndBoxes {
    type Position = Board;
    type Move = Edge;
    type Outcome = i32;

    fn moves(&self, board: &Board, moves: &mut Vec<Edge>) {
        moves.extend((0..self.edges()).filter(|edge| board.edges & (1 << edge) == 0).map(|edge| edge as Edge));
    }

    fn play(&self, board: &Board, edge: &Edge) -> Board {
        let edge = usize::from(*edge);
        let completed = self.boxes_completed(board.edges, edge);
        let mover = usize::from(!board.first_to_move);
        let mut next = *board;
        next.edges |= 1 << edge;
        if board.first_to_move {
            next.first_edges |= 1 << edge;
        }
        next.boxes[mover] |= completed;
        // A box or two: the same player moves again; none: the turn passes.
        next.first_to_move = board.first_to_move == (completed != 0);
        next
    }

    fn is_legal(&self, board: &Board, edge: &Edge) -> bool {
        usize::from(*edge) < self.edges() && board.edges & (1 << edge) == 0
    }

    fn outcome(&self, board: &Board) -> Option<i32> {
        (board.edges == self.all_edges()).then(|| board.mover_lead())
    }

    fn turn_passes(&self, from: &Board, to: &Board) -> bool {
        from.first_to_move != to.first_to_move
    }
}

/// Scored by the margin in boxes for the player to move (the default [`ScoreKind::Margin`]).
///
/// [`ScoreKind::Margin`]: ludus_framework::scored::ScoreKind::Margin
impl ScoredGame for DotsAndBoxes {}

/// No chance: the deterministic engines (scored alpha-beta, plain minimax) and the whole-game database take it.
impl Deterministic for DotsAndBoxes {}
