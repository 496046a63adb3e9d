//! Othello's text forms: a cell is a column letter and a row number (`c4`; row 1 at the top), a pass is `pass`;
//! a position is either its moves from the start (`d3 c5 pass`) or its board, rows from the top joined by `/`
//! (`x` Black, `o` White, `.` empty) and the colour to move (`b` or `w`): `..../.ox./.xo./.... b`.

use super::rules::{Discs, OthelloMove};
use super::Othello;
use ludus_framework::playable::TextForm;
use ludus_framework::Rules;
use ludus_framework::{ParseError, TextPlace};

impl Othello {
    /// The text of the cell of bit `cell`.
    fn cell_name(cell: u8) -> String {
        let (row, column) = (u32::from(cell) / 8, u32::from(cell) % 8);
        format!("{}{}", char::from(b'a' + column as u8), row + 1)
    }

    /// The board form of a position (see the module documentation).
    pub fn board_text(&self, position: &Discs) -> String {
        let (black, white) = position.black_and_white();
        let size = self.size();
        let rows: Vec<String> = (0..size)
            .map(|row| {
                (0..size)
                    .map(|column| {
                        let cell = 1u64 << (8 * row + column);
                        if black & cell != 0 {
                            'x'
                        } else if white & cell != 0 {
                            'o'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect();
        format!("{} {}", rows.join("/"), if position.black_to_move { 'b' } else { 'w' })
    }

    /// A position from its board form.
    fn parse_board(&self, text: &str) -> Result<Discs, ParseError> {
        let size = self.size() as usize;
        let (board, side) = text
            .trim()
            .rsplit_once(' ')
            .ok_or_else(|| ParseError::expected("a board and the colour to move (`b` or `w`)", text))?;
        let black_to_move = match side.trim() {
            "b" => true,
            "w" => false,
            other => return Err(ParseError::expected("the colour to move, `b` or `w`", other)),
        };
        let rows: Vec<&str> = board.trim().split('/').collect();
        if rows.len() != size {
            return Err(ParseError::expected(format!("{size} rows joined by `/`"), board));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (row, cells) in rows.iter().enumerate() {
            if cells.chars().count() != size {
                return Err(ParseError::expected(format!("{size} cells"), cells).at(TextPlace::Row(row + 1)));
            }
            for (column, mark) in cells.chars().enumerate() {
                let cell = 1u64 << (8 * row + column);
                match mark {
                    'x' | 'X' => black |= cell,
                    'o' | 'O' => white |= cell,
                    '.' | '-' => {}
                    other => {
                        let found = other.to_string();
                        return Err(ParseError::expected("`x`, `o` or `.`", &found).at(TextPlace::Row(row + 1)));
                    }
                }
            }
        }
        Ok(Discs::of_colours(black, white, black_to_move))
    }
}

impl TextForm for Othello {
    fn start(&self) -> Discs {
        Othello::start(self)
    }

    fn parse_position(&self, text: &str) -> Result<Discs, ParseError> {
        if text.contains('/') {
            return self.parse_board(text);
        }
        let mut position = Othello::start(self);
        for (index, word) in text.split_whitespace().enumerate() {
            let mv = self.parse_move(&position, word).map_err(|error| error.at(TextPlace::Move(index + 1)))?;
            position = self.play(&position, &mv);
        }
        Ok(position)
    }

    fn draw_position(&self, position: &Discs) -> String {
        let (black, white) = position.black_and_white();
        let size = self.size();
        let mut drawing = String::from("  ");
        drawing.extend((0..size).map(|column| char::from(b'a' + column as u8)));
        drawing.push('\n');
        for row in 0..size {
            drawing.push_str(&format!("{:<2}", row + 1));
            for column in 0..size {
                let cell = 1u64 << (8 * row + column);
                drawing.push(if black & cell != 0 {
                    'x'
                } else if white & cell != 0 {
                    'o'
                } else {
                    '.'
                });
            }
            drawing.push('\n');
        }
        let (discs_black, discs_white) = (black.count_ones(), white.count_ones());
        drawing.push_str(&format!(
            "{} to move; x (Black) {discs_black}, o (White) {discs_white}; board: {}\n",
            if position.black_to_move { "x (Black)" } else { "o (White)" },
            self.board_text(position)
        ));
        drawing
    }

    fn parse_move(&self, position: &Discs, text: &str) -> Result<OthelloMove, ParseError> {
        let text = text.trim().to_ascii_lowercase();
        let mv = if text == "pass" {
            OthelloMove::Pass
        } else {
            let mut chars = text.chars();
            let column = chars
                .next()
                .filter(char::is_ascii_lowercase)
                .ok_or_else(|| ParseError::expected("a cell like `c4`, or `pass`", &text))?;
            let row: u32 =
                chars.as_str().parse().map_err(|_| ParseError::expected("a cell like `c4`, or `pass`", &text))?;
            let column = u32::from(column) - u32::from('a');
            if row == 0 || row > self.size() || column >= self.size() {
                return Err(ParseError::refused(format!("`{text}` is off the {0} x {0} board", self.size())));
            }
            OthelloMove::Place(((row - 1) * 8 + column) as u8)
        };
        if self.is_legal(position, &mv) {
            Ok(mv)
        } else if self.is_over(position) {
            Err(ParseError::game_over())
        } else {
            Err(ParseError::refused(format!("`{text}` is not a legal move here")))
        }
    }

    fn render_move(&self, _position: &Self::Position, mv: &OthelloMove) -> String {
        match *mv {
            OthelloMove::Pass => "pass".to_string(),
            OthelloMove::Place(cell) => Othello::cell_name(cell),
        }
    }
}
