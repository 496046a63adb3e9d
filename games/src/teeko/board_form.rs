//! Teeko's board for the explorer's page: Black's and White's pieces on the square, a drop a placement and a
//! move a step.

use super::{Board, Step, Teeko};
use crate::chess_grid::{chess_grid, grid_cell};
use ludus_framework::playable::{Board as Shown, BoardForm, BoardMove, GridStyle, Player, Shape};

impl BoardForm for Teeko {
    fn board(&self, board: &Board) -> Shown {
        let pieces = (u64::from(board.black), u64::from(board.white));
        Shown {
            layout: chess_grid(self.side, pieces, (Shape::Disc, Shape::Disc), GridStyle::Squares),
            to_move: Some(Player::first_if(board.black_to_move)),
        }
    }

    fn board_move(&self, _: &Board, step: &Step) -> BoardMove {
        let to = grid_cell(self.side, step.to);
        match step.from {
            None => BoardMove::Place { cell: to },
            Some(from) => BoardMove::Step { from: grid_cell(self.side, from), to: Some(to) },
        }
    }
}
