//! Dodgem's board for the explorer's page: Blue's cars pointing right and Red's pointing up, a move a step
//! from the car's cell to the next, or off the board.

use super::{Cars, Dodgem, Drive};
use crate::chess_grid::{chess_grid, grid_cell};
use ludus_framework::playable::{Board, BoardForm, BoardMove, GridStyle, Player, Shape};

impl BoardForm for Dodgem {
    fn board(&self, cars: &Cars) -> Board {
        Board {
            layout: chess_grid(
                self.size,
                (cars.blue, cars.red),
                (Shape::ArrowRight, Shape::ArrowUp),
                GridStyle::Squares,
            ),
            to_move: Some(Player::first_if(cars.blue_to_move)),
        }
    }

    fn board_move(&self, _: &Cars, drive: &Drive) -> BoardMove {
        BoardMove::Step { from: grid_cell(self.size, drive.from), to: drive.to.map(|to| grid_cell(self.size, to)) }
    }
}
