//! Quixo's board for the explorer's page: the cubes' marks on the square, a move a step from the cube taken to
//! the end it is pushed in at.

use super::{Board, Push, Quixo};
use crate::chess_grid::{chess_grid, grid_cell};
use ludus_framework::playable::{Board as Shown, BoardForm, BoardMove, GridStyle, Player, Shape};

impl BoardForm for Quixo {
    fn board(&self, board: &Board) -> Shown {
        let marks = (u64::from(board.crosses), u64::from(board.noughts));
        Shown {
            layout: chess_grid(self.size, marks, (Shape::Cross, Shape::Nought), GridStyle::Squares),
            to_move: Some(Player::first_if(board.crosses_to_move)),
        }
    }

    fn board_move(&self, _: &Board, push: &Push) -> BoardMove {
        BoardMove::Step { from: grid_cell(self.size, push.from), to: Some(grid_cell(self.size, push.to)) }
    }
}
