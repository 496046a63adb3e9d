//! Connect Four's board for the explorer's page: the stones in the upright frame (the first player's and the
//! second's), a move a drop into a column.

use super::board::{Board, ConnectFour};
use ludus_framework::playable::{Board as Shown, BoardForm, BoardMove, GridStyle, Layout, Piece, Player, Shape};

impl BoardForm for ConnectFour {
    fn board(&self, board: &Board) -> Shown {
        let first_to_move = board.stones().is_multiple_of(2);
        let first = if first_to_move { board.current } else { board.opponent() };
        let (width, height) = (self.width(), self.height());
        let mut cells = Vec::with_capacity((width * height) as usize);
        for row in (0..height).rev() {
            for column in 0..width {
                let bit = 1u64 << (column * (height + 1) + row);
                cells.push(
                    (board.mask & bit != 0)
                        .then(|| Piece { player: Player::first_if(first & bit != 0), shape: Shape::Disc }),
                );
            }
        }
        Shown {
            layout: Layout::Grid {
                rows: height,
                columns: width,
                style: GridStyle::Columns,
                cells,
                column_labels: (1..=width).map(|column| column.to_string()).collect(),
                row_labels: Vec::new(),
            },
            to_move: Some(Player::first_if(first_to_move)),
        }
    }

    fn board_move(&self, _: &Board, column: &u8) -> BoardMove {
        BoardMove::Drop { column: u32::from(*column) }
    }
}
