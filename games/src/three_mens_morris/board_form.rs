//! Three Men's Morris's board for the explorer's page: the men on the nine points joined by lines, a
//! placement on a point and a slide a step.

use super::{Board, Step, ThreeMensMorris};
use crate::chess_grid::{chess_grid, grid_cell};
use ludus_framework::playable::{Board as Shown, BoardForm, BoardMove, GridStyle, Player, Shape};

impl BoardForm for ThreeMensMorris {
    fn board(&self, board: &Board) -> Shown {
        let men = (u64::from(board.crosses), u64::from(board.noughts));
        Shown {
            layout: chess_grid(3, men, (Shape::Disc, Shape::Disc), GridStyle::Points),
            to_move: Some(Player::first_if(board.crosses_to_move)),
        }
    }

    fn board_move(&self, _: &Board, step: &Step) -> BoardMove {
        let to = grid_cell(3, step.to);
        match step.from {
            None => BoardMove::Place { cell: to },
            Some(from) => BoardMove::Step { from: grid_cell(3, from), to: Some(to) },
        }
    }
}
