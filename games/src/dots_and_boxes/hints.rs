//! Dots and Boxes' search hints: the score lies within the mover's lead give or take every box not yet taken;
//! moves that take a box are searched first, and those that give one away (a box's third side) last.

use super::rules::Board;
use super::{DotsAndBoxes, Edge};
use ludus_framework::SearchHints;

impl SearchHints for DotsAndBoxes {
    fn value_range(&self, board: &Board) -> (i32, i32) {
        let open = self.boxes() as i32 - board.taken() as i32;
        (board.mover_lead() - open, board.mover_lead() + open)
    }

    fn move_score(&self, board: &Board, edge: &Edge) -> i32 {
        let edge = usize::from(*edge);
        let completed = self.boxes_completed(board.edges, edge).count_ones() as i32;
        let given = self.edge_boxes[edge]
            .iter()
            .filter(|&&square| (board.edges & self.box_edges[square]).count_ones() == 2)
            .count() as i32;
        100 * completed - 10 * given
    }
}
