//! Othello's board for the explorer's page ([`BoardForm`]): a grid of squares, Black's discs the first
//! player's, White's the second's; a placement on its cell, the pass as a button beside the board.

use super::rules::{Discs, OthelloMove};
use super::Othello;
use ludus_framework::playable::{Board, BoardForm, BoardMove, GridStyle, Layout, Piece, Player, Shape};

impl BoardForm for Othello {
    fn board(&self, position: &Discs) -> Board {
        let size = self.size();
        let (black, white) = position.black_and_white();
        let cells = (0..size * size)
            .map(|index| {
                let bit = 1u64 << (8 * (index / size) + index % size);
                let player = if black & bit != 0 {
                    Some(Player::First)
                } else if white & bit != 0 {
                    Some(Player::Second)
                } else {
                    None
                };
                player.map(|player| Piece { player, shape: Shape::Disc })
            })
            .collect();
        Board {
            layout: Layout::Grid {
                rows: size,
                columns: size,
                style: GridStyle::Squares,
                cells,
                column_labels: (0..size).map(|column| char::from(b'a' + column as u8).to_string()).collect(),
                row_labels: (1..=size).map(|row| row.to_string()).collect(),
            },
            to_move: Some(Player::first_if(position.black_to_move)),
        }
    }

    fn board_move(&self, _position: &Discs, mv: &OthelloMove) -> BoardMove {
        match *mv {
            OthelloMove::Pass => BoardMove::Choice,
            OthelloMove::Place(bit) => {
                let (row, column) = (u32::from(bit) / 8, u32::from(bit) % 8);
                BoardMove::Place { cell: row * self.size() + column }
            }
        }
    }
}
