//! Tic-tac-toe's text form for `ludus analyze`: a position is its moves from the empty board (cells `1..=9`,
//! row by row from the top left; `-` or nothing for the empty board), a move a cell number; the board is drawn
//! with `X`, `O` and `.`.

use super::tic_tac_toe::{Board, TicTacToe};
use ludus_framework::playable::TextForm;
use ludus_framework::ParseError;
use ludus_framework::Rules;

impl TextForm for TicTacToe {
    fn start(&self) -> Board {
        Board::EMPTY
    }

    fn parse_position(&self, text: &str) -> Result<Board, ParseError> {
        let moves = text.trim();
        let moves = if moves == "-" { "" } else { moves };
        // One character a move.
        let characters = moves.char_indices().map(|(at, character)| &moves[at..at + character.len_utf8()]);
        ludus_framework::playable::position_after_moves(self, characters)
    }

    fn draw_position(&self, board: &Board) -> String {
        let mut drawing = String::new();
        for cell in 0..9 {
            let bit = 1u16 << cell;
            drawing.push(if board.crosses & bit != 0 {
                'X'
            } else if board.noughts & bit != 0 {
                'O'
            } else {
                '.'
            });
            if cell % 3 == 2 {
                drawing.push('\n');
            }
        }
        if !self.is_over(board) {
            drawing.push_str(if board.crosses_to_move() { "X to move\n" } else { "O to move\n" });
        }
        drawing
    }

    fn parse_move(&self, board: &Board, text: &str) -> Result<u8, ParseError> {
        let cell: u8 = text.trim().parse().map_err(|_| ParseError::expected("a cell from 1 to 9", text))?;
        if !(1..=9).contains(&cell) {
            return Err(ParseError::refused(format!("cell {cell} is out of range: cells are 1 to 9")));
        }
        if self.is_over(board) {
            return Err(ParseError::game_over());
        }
        if (board.crosses | board.noughts) & (1 << (cell - 1)) != 0 {
            return Err(ParseError::refused(format!("cell {cell} is taken")));
        }
        Ok(cell - 1)
    }

    fn render_move(&self, _position: &Self::Position, cell: &u8) -> String {
        (cell + 1).to_string()
    }
}
