//! Dots and Boxes' board for the explorer's page ([`BoardForm`]): the dots, who drew each edge, who took each
//! box ([`Layout::Edges`]); a move is the edge it draws.

use super::rules::Board;
use super::{DotsAndBoxes, Edge};
use ludus_framework::playable::{self, BoardForm, BoardMove, Layout, Player};

impl BoardForm for DotsAndBoxes {
    fn board(&self, board: &Board) -> playable::Board {
        let edges = (0..self.edges())
            .map(|edge| {
                let bit = 1u64 << edge;
                (board.edges & bit != 0).then(|| Player::first_if(board.first_edges & bit != 0))
            })
            .collect();
        let boxes = (0..self.boxes())
            .map(|square| {
                let bit = 1u32 << square;
                (board.boxes[0] & bit != 0)
                    .then_some(Player::First)
                    .or_else(|| (board.boxes[1] & bit != 0).then_some(Player::Second))
            })
            .collect();
        playable::Board {
            layout: Layout::Edges { rows: self.rows() as u32, columns: self.columns() as u32, edges, boxes },
            to_move: Some(Player::first_if(board.first_to_move)),
        }
    }

    fn board_move(&self, _board: &Board, edge: &Edge) -> BoardMove {
        BoardMove::Edge { edge: u32::from(*edge) }
    }
}
