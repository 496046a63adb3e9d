//! Dots and Boxes' text form: a dot is its column's letter and its row's number (`a1` at the top left), an
//! edge the two dots it joins (`a1b1`, `b1b2`), a position its edges in the order they were drawn from the
//! start (`a1b1 a1a2`), or `-` for the start. The drawing shows each box's owner: `1` the first player's, `2`
//! the second's.

use super::rules::Board;
use super::{Dot, DotsAndBoxes, Edge};
use ludus_framework::playable::TextForm;
use ludus_framework::{ParseError, Rules, TextPlace};

impl DotsAndBoxes {
    /// The text of a dot.
    fn dot_text(&self, (row, column): Dot) -> String {
        format!("{}{}", char::from(b'a' + column as u8), row + 1)
    }

    /// A dot from the start of `text`, and the rest of the text.
    fn parse_dot<'text>(&self, text: &'text str) -> Option<(Dot, &'text str)> {
        let letter = *text.as_bytes().first().filter(|letter| letter.is_ascii_lowercase())?;
        let digits = text[1..].bytes().take_while(u8::is_ascii_digit).count();
        let row: usize = text[1..=digits].parse().ok()?;
        let column = usize::from(letter.checked_sub(b'a')?);
        (row >= 1 && row <= self.rows() + 1 && column <= self.columns())
            .then_some(((row - 1, column), &text[1 + digits..]))
    }
}

impl TextForm for DotsAndBoxes {
    fn start(&self) -> Board {
        Board::START
    }

    fn parse_position(&self, text: &str) -> Result<Board, ParseError> {
        let mut board = self.start();
        for (index, word) in text.split_whitespace().filter(|&word| word != "-").enumerate() {
            let edge = self.parse_move(&board, word).map_err(|error| error.at(TextPlace::Move(index + 1)))?;
            board = self.play(&board, &edge);
        }
        Ok(board)
    }

    fn draw_position(&self, board: &Board) -> String {
        let drawn = |first: Dot, second: Dot| {
            self.edge_between(first, second).is_some_and(|edge| board.edges & (1 << edge) != 0)
        };
        let letters: Vec<String> =
            (0..=self.columns()).map(|column| self.dot_text((0, column))[..1].to_string()).collect();
        let mut drawing = format!("   {}\n", letters.join("   "));
        for row in 0..=self.rows() {
            drawing.push_str(&format!("{:>2} +", row + 1));
            for column in 0..self.columns() {
                drawing.push_str(if drawn((row, column), (row, column + 1)) { "---+" } else { "   +" });
            }
            drawing.push('\n');
            if row < self.rows() {
                drawing.push_str("   ");
                for column in 0..=self.columns() {
                    drawing.push(if drawn((row, column), (row + 1, column)) { '|' } else { ' ' });
                    if column < self.columns() {
                        let bit = 1 << (row * self.columns() + column);
                        let owner = if board.boxes[0] & bit != 0 {
                            " 1 "
                        } else if board.boxes[1] & bit != 0 {
                            " 2 "
                        } else {
                            "   "
                        };
                        drawing.push_str(owner);
                    }
                }
                drawing.push('\n');
            }
        }
        let player = if board.first_to_move { "first" } else { "second" };
        drawing.push_str(&format!(
            "boxes: first {}, second {}, of {}; {player} to move\n",
            board.boxes[0].count_ones(),
            board.boxes[1].count_ones(),
            self.boxes()
        ));
        drawing
    }

    fn parse_move(&self, board: &Board, text: &str) -> Result<Edge, ParseError> {
        let text = text.trim();
        let expected = || ParseError::expected("an edge as the two dots it joins, like `a1b1` or `a1a2`", text);
        let (first, rest) = self.parse_dot(text).ok_or_else(expected)?;
        let (second, rest) = self.parse_dot(rest).ok_or_else(expected)?;
        if !rest.is_empty() {
            return Err(expected());
        }
        let edge = self
            .edge_between(first, second)
            .ok_or_else(|| ParseError::refused(format!("`{text}` does not join two neighbouring dots")))?;
        if self.is_over(board) {
            return Err(ParseError::game_over());
        }
        if board.edges & (1 << edge) != 0 {
            return Err(ParseError::refused(format!("`{text}` is drawn already")));
        }
        Ok(edge as Edge)
    }

    fn render_move(&self, _board: &Board, edge: &Edge) -> String {
        let (first, second) = self.dots_of(usize::from(*edge));
        format!("{}{}", self.dot_text(first), self.dot_text(second))
    }
}
