//! Teeko's text form for `ludus analyze` and `ludus play`. A drop is written as its cell (`c3`), a move as the
//! two cells (`c3d4`). A position is its moves from the empty board, separated by spaces (`-` or nothing: the
//! start). The board is drawn top row first, `B` and `W` for the pieces.

use super::{Board, Step, Teeko};
use ludus_framework::playable::TextForm;
use ludus_framework::ParseError;
use ludus_framework::Rules;

impl Teeko {
    /// A cell's name: column letter and row number (`a1` is the bottom left corner).
    pub fn cell_name(&self, cell: u8) -> String {
        crate::chess_grid::cell_name(self.side, cell)
    }

    /// The cell named `text`, if it is one of the board.
    pub fn parse_cell(&self, text: &str) -> Option<u8> {
        crate::chess_grid::parse_cell(self.side, text)
    }
}

impl TextForm for Teeko {
    fn start(&self) -> Board {
        Board::START
    }

    fn parse_position(&self, text: &str) -> Result<Board, ParseError> {
        ludus_framework::playable::position_after_moves(self, text.split_whitespace().filter(|word| *word != "-"))
    }

    fn draw_position(&self, board: &Board) -> String {
        let mut drawing =
            crate::chess_grid::draw_cells(self.side, (u64::from(board.black), u64::from(board.white)), ('B', 'W'));
        let (mover, other) = if board.black_to_move { ("Black", "White") } else { ("White", "Black") };
        let state = if self.has_win(board.sides().1) {
            format!("{other} has four in a line or a square: {other} wins\n")
        } else if self.is_over(board) {
            format!("{mover} cannot move: {other} wins\n")
        } else if board.dropping() {
            format!("{mover} to move (dropping a piece)\n")
        } else {
            format!("{mover} to move (moving a piece)\n")
        };
        drawing.push_str(&state);
        drawing
    }

    fn parse_move(&self, board: &Board, text: &str) -> Result<Step, ParseError> {
        if self.is_over(board) {
            return Err(ParseError::game_over());
        }
        let text = text.trim();
        let (drop, slide) = match (text.len(), text.get(..2), text.get(2..)) {
            (2, _, _) => (self.parse_cell(text), None),
            (4, Some(from), Some(to)) => (None, self.parse_cell(from).zip(self.parse_cell(to))),
            _ => (None, None),
        };
        let last = self.cell_name(self.side * self.side - 1);
        let (mover, other) = board.sides();
        let step = match (board.dropping(), drop, slide) {
            (true, Some(to), _) => Step { from: None, to },
            (true, _, _) => {
                return Err(ParseError::refused(format!(
                    "pieces are still being dropped: expected an empty cell like `c3` (a1 to {last}), found `{}`",
                    ludus_framework::input::shorten(text)
                )))
            }
            (false, _, Some((from, to))) => {
                if mover >> from & 1 == 0 {
                    let colour = if board.black_to_move { "Black" } else { "White" };
                    return Err(ParseError::refused(format!("there is no {colour} piece on {}", self.cell_name(from))));
                }
                if self.neighbours(u32::from(from)) >> to & 1 == 0 {
                    return Err(ParseError::refused(format!(
                        "{} is not next to {}",
                        self.cell_name(to),
                        self.cell_name(from)
                    )));
                }
                Step { from: Some(from), to }
            }
            (false, _, _) => {
                return Err(ParseError::refused(format!(
                    "every piece is down: expected a piece's cell and the adjacent empty cell it moves to, like \
                     `c3d4`, found `{}`",
                    ludus_framework::input::shorten(text)
                )))
            }
        };
        if (mover | other) >> step.to & 1 != 0 {
            return Err(ParseError::refused(format!("cell {} is taken", self.cell_name(step.to))));
        }
        Ok(step)
    }

    fn render_move(&self, _position: &Self::Position, step: &Step) -> String {
        match step.from {
            Some(from) => format!("{}{}", self.cell_name(from), self.cell_name(step.to)),
            None => self.cell_name(step.to),
        }
    }
}
