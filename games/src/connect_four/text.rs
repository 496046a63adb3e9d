//! Connect Four's text form for `ludus analyze`: a position is its moves from the empty board (columns
//! `1..=W`, `-` or nothing for the empty board), a move a column number; the board is drawn with `X` for the
//! first player's stones and `O` for the second's, the top row first.

use super::board::{Board, ConnectFour};
use ludus_framework::playable::TextForm;
use ludus_framework::Rules;
use ludus_framework::{ParseError, TextPlace};

impl TextForm for ConnectFour {
    fn start(&self) -> Board {
        Board::EMPTY
    }

    fn parse_position(&self, text: &str) -> Result<Board, ParseError> {
        let moves = text.trim();
        let moves = if moves == super::EMPTY_BOARD { "" } else { moves };
        self.parse_moves(moves)
            .map_err(|illegal| ParseError::refused(illegal.reason).at(TextPlace::Character(illegal.index + 1)))
    }

    fn draw_position(&self, board: &Board) -> String {
        let first_to_move = board.stones().is_multiple_of(2);
        let first = if first_to_move { board.current } else { board.opponent() };
        let mut drawing = String::new();
        for row in (0..self.height()).rev() {
            for column in 0..self.width() {
                let bit = 1u64 << (column * (self.height() + 1) + row);
                drawing.push(match (board.mask & bit != 0, first & bit != 0) {
                    (false, _) => '.',
                    (true, true) => 'X',
                    (true, false) => 'O',
                });
            }
            drawing.push('\n');
        }
        drawing.extend((1..=self.width()).filter_map(|column| char::from_digit(column, 10)));
        drawing.push('\n');
        if !self.is_over(board) {
            drawing.push_str(if first_to_move { "X to move\n" } else { "O to move\n" });
        }
        drawing
    }

    fn parse_move(&self, board: &Board, text: &str) -> Result<u8, ParseError> {
        let column: u32 = text
            .trim()
            .parse()
            .map_err(|_| ParseError::expected(format!("a column from 1 to {}", self.width()), text))?;
        if column == 0 || column > self.width() {
            return Err(ParseError::refused(format!(
                "column {column} is out of range: columns are 1 to {}",
                self.width()
            )));
        }
        if self.is_over(board) {
            return Err(ParseError::game_over());
        }
        if !self.can_play(board, column - 1) {
            return Err(ParseError::refused(format!("column {column} is full")));
        }
        u8::try_from(column - 1).map_err(|_| ParseError::refused(format!("column {column} is out of range")))
    }

    fn render_move(&self, _position: &Self::Position, column: &u8) -> String {
        (u32::from(*column) + 1).to_string()
    }
}
