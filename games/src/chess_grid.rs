//! The board of a square game whose cells are named as in chess (column letters from `a` at the left, row
//! numbers from `1` at the bottom; bit `row * side + column` of a mask): the cells' names, the board drawn as
//! text, and the board as the explorer's page draws it ([`ludus_framework::playable::BoardForm`]). Dodgem,
//! Three Men's Morris, Quixo and Teeko share it.

use ludus_framework::playable::{GridStyle, Layout, Piece, Player, Shape};

/// A cell's name on a `side` x `side` board: column letter and row number (`a1` is the bottom left corner).
pub fn cell_name(side: u8, cell: u8) -> String {
    let side = side.max(1);
    format!("{}{}", char::from(b'a' + cell % side), cell / side + 1)
}

/// The cell named `text` on a `side` x `side` board, if it is one of the board.
pub fn parse_cell(side: u8, text: &str) -> Option<u8> {
    match text.as_bytes() {
        &[column @ b'a'..=b'z', row @ b'1'..=b'9'] => {
            let (column, row) = (column - b'a', row - b'1');
            (column < side && row < side).then_some(row * side + column)
        }
        _ => None,
    }
}

/// A `side` x `side` board as text, top row first, each row after its number: `marks.0` on the cells of
/// `first`, `marks.1` on those of `second`, `.` elsewhere; the column letters below.
pub fn draw_cells(side: u8, (first, second): (u64, u64), marks: (char, char)) -> String {
    let mut drawing = String::new();
    for row in (0..side).rev() {
        drawing.push(char::from(b'1' + row));
        for column in 0..side {
            let bit = 1u64 << (row * side + column);
            drawing.push(' ');
            drawing.push(if first & bit != 0 {
                marks.0
            } else if second & bit != 0 {
                marks.1
            } else {
                '.'
            });
        }
        drawing.push('\n');
    }
    drawing.push(' ');
    for column in 0..side {
        drawing.push(' ');
        drawing.push(char::from(b'a' + column));
    }
    drawing.push('\n');
    drawing
}

/// The page's cell (rows from the top) of the cell at bit `bit` of a `side` x `side` mask (rows from the bottom).
pub fn grid_cell(side: u8, bit: u8) -> u32 {
    let (row, column) = (u32::from(bit / side.max(1)), u32::from(bit % side.max(1)));
    (u32::from(side) - 1 - row) * u32::from(side) + column
}

/// The grid of a `side` x `side` board with the first player's pieces on the cells of `first` and the
/// second's on those of `second`, drawn with `shapes` (the first player's, the second's) in `style`.
pub fn chess_grid(side: u8, (first, second): (u64, u64), shapes: (Shape, Shape), style: GridStyle) -> Layout {
    let cells = u32::from(side) * u32::from(side);
    let mut grid = vec![None; cells as usize];
    for bit in 0..side.saturating_mul(side) {
        let piece = if first >> bit & 1 != 0 {
            Some(Piece { player: Player::First, shape: shapes.0 })
        } else if second >> bit & 1 != 0 {
            Some(Piece { player: Player::Second, shape: shapes.1 })
        } else {
            None
        };
        if let Some(cell) = grid.get_mut(grid_cell(side, bit) as usize) {
            *cell = piece;
        }
    }
    Layout::Grid {
        rows: u32::from(side),
        columns: u32::from(side),
        style,
        cells: grid,
        column_labels: (0..side).map(|column| char::from(b'a' + column).to_string()).collect(),
        row_labels: (0..side).rev().map(|row| (u32::from(row) + 1).to_string()).collect(),
    }
}
