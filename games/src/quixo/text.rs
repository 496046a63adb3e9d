//! Quixo's text form for `ludus analyze` and `ludus play`. A move is the cell taken and the cell pushed in at
//! (`a1c1`); a position is its moves from the blank board, separated by spaces (`-` or nothing: the start). The
//! board is drawn top row first, `X` and `O` for the marks, `.` for a blank.

use super::{Board, Push, Quixo};
use ludus_framework::playable::TextForm;
use ludus_framework::ParseError;
use ludus_framework::Rules;

impl Quixo {
    /// A cell's name: column letter and row number (`a1` is the bottom left corner).
    pub fn cell_name(&self, cell: u8) -> String {
        crate::chess_grid::cell_name(self.size, cell)
    }

    /// The cell named `text`, if it is one of the board.
    pub fn parse_cell(&self, text: &str) -> Option<u8> {
        crate::chess_grid::parse_cell(self.size, text)
    }
}

impl TextForm for Quixo {
    fn start(&self) -> Board {
        Board::START
    }

    fn parse_position(&self, text: &str) -> Result<Board, ParseError> {
        ludus_framework::playable::position_after_moves(self, text.split_whitespace().filter(|word| *word != "-"))
    }

    fn draw_position(&self, board: &Board) -> String {
        let mut drawing =
            crate::chess_grid::draw_cells(self.size, (u64::from(board.crosses), u64::from(board.noughts)), ('X', 'O'));
        let (mover, other) = if board.crosses_to_move { ('X', 'O') } else { ('O', 'X') };
        let state = match self.outcome(board) {
            Some(value) if value.is_win() => format!("{other} made a line of {mover}'s: {mover} wins\n"),
            Some(_) => format!("{other} made a line: {other} wins\n"),
            None => format!("{mover} to move\n"),
        };
        drawing.push_str(&state);
        drawing
    }

    fn parse_move(&self, board: &Board, text: &str) -> Result<Push, ParseError> {
        if self.is_over(board) {
            return Err(ParseError::game_over());
        }
        let text = text.trim();
        let cells = match (text.len(), text.get(..2), text.get(2..)) {
            (4, Some(from), Some(to)) => self.parse_cell(from).zip(self.parse_cell(to)),
            _ => None,
        };
        let last = self.cell_name(self.size * self.size - 1);
        let Some((from, to)) = cells else {
            return Err(ParseError::refused(format!(
                "expected the cell a cube is taken from and the cell it is pushed in at, like `a1{last}` (cells a1 to \
                 {last}), found `{}`",
                ludus_framework::input::shorten(text)
            )));
        };
        if !self.on_border(u32::from(from)) {
            return Err(ParseError::refused(format!("{} is not on the border", self.cell_name(from))));
        }
        let (_, other) = board.sides();
        if other >> from & 1 != 0 {
            return Err(ParseError::refused(format!("the cube at {} shows the opponent's mark", self.cell_name(from))));
        }
        let push = Push { from, to };
        if !self.is_push(&push) {
            return Err(ParseError::refused(format!(
                "{} is not another end of the row or column of {}",
                self.cell_name(to),
                self.cell_name(from)
            )));
        }
        Ok(push)
    }

    fn render_move(&self, _position: &Self::Position, push: &Push) -> String {
        format!("{}{}", self.cell_name(push.from), self.cell_name(push.to))
    }
}
