//! The boards of tic-tac-toe and Nim for the explorer's page ([`BoardForm`]): tic-tac-toe's 3 x 3 squares
//! with crosses and noughts (cells numbered as its moves, row by row from the top left), Nim's heaps.

use super::nim_game::NimGame;
use super::tic_tac_toe::{Board as Marks, TicTacToe};
use ludus_framework::playable::{Board, BoardForm, BoardMove, GridStyle, Layout, Piece, Player, Shape};

impl BoardForm for TicTacToe {
    fn board(&self, marks: &Marks) -> Board {
        let cells = (0..9)
            .map(|cell| {
                let bit = 1u16 << cell;
                if marks.crosses & bit != 0 {
                    Some(Piece { player: Player::First, shape: Shape::Cross })
                } else if marks.noughts & bit != 0 {
                    Some(Piece { player: Player::Second, shape: Shape::Nought })
                } else {
                    None
                }
            })
            .collect();
        Board {
            layout: Layout::Grid {
                rows: 3,
                columns: 3,
                style: GridStyle::Squares,
                cells,
                column_labels: Vec::new(),
                row_labels: Vec::new(),
            },
            to_move: Some(Player::first_if(marks.crosses_to_move())),
        }
    }

    fn board_move(&self, _: &Marks, cell: &u8) -> BoardMove {
        BoardMove::Place { cell: u32::from(*cell) }
    }
}

impl BoardForm for NimGame {
    fn board(&self, heaps: &Vec<u32>) -> Board {
        Board { layout: Layout::Heaps { heaps: heaps.clone() }, to_move: None }
    }

    /// Taking `taken` from a heap of `size` leaves one heap of `size - taken`, or none.
    fn board_move(&self, heaps: &Vec<u32>, &(heap, taken): &(usize, u32)) -> BoardMove {
        let left = heaps.get(heap).map_or(0, |size| size.saturating_sub(taken));
        let parts = if left == 0 { Vec::new() } else { vec![left] };
        BoardMove::Take { heap: u32::try_from(heap).unwrap_or(u32::MAX), parts }
    }
}
