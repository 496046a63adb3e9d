//! Kalah's text forms: a move is a pit number, `1` to `m` from the mover's left; a position is its moves from
//! the start (`3 1 6`) or its board: South's pits left to right, South's store, North's pits left to right (as
//! North sees them), North's store, and the side to move (`s` or `n`), as numbers: `3 3 3 0 / 3 3 3 0 s`.

use super::rules::{Board, Pit};
use super::{Kalah, MAX_PITS};
use ludus_framework::playable::TextForm;
use ludus_framework::Rules;
use ludus_framework::{ParseError, TextPlace};

impl Kalah {
    /// The board form of a position.
    pub fn board_text(&self, board: &Board) -> String {
        let side = |index: usize| {
            let pits: Vec<String> = board.pits[index][..self.pits()].iter().map(u8::to_string).collect();
            format!("{} {}", pits.join(" "), board.stores[index])
        };
        format!("{} / {} {}", side(0), side(1), if board.south_to_move { 's' } else { 'n' })
    }

    fn parse_board(&self, text: &str) -> Result<Board, ParseError> {
        let (sides, turn) = text
            .trim()
            .rsplit_once(' ')
            .ok_or_else(|| ParseError::expected("two sides joined by `/` and the side to move", text))?;
        let south_to_move = match turn {
            "s" => true,
            "n" => false,
            other => return Err(ParseError::expected("the side to move, `s` or `n`", other)),
        };
        let halves: Vec<&str> = sides.split('/').collect();
        if halves.len() != 2 {
            return Err(ParseError::expected("two sides joined by `/`", sides));
        }
        let mut board = Board { pits: [[0; MAX_PITS]; 2], stores: [0, 0], south_to_move };
        let mut total = 0u32;
        for (index, half) in halves.iter().enumerate() {
            let counts: Vec<u8> = half
                .split_whitespace()
                .map(|word| word.parse::<u8>().map_err(|_| ParseError::expected("a count of seeds", word)))
                .collect::<Result<_, _>>()?;
            if counts.len() != self.pits() + 1 {
                let what = format!("{} pits and a store on a side", self.pits());
                return Err(ParseError::expected(what, half));
            }
            board.pits[index][..self.pits()].copy_from_slice(&counts[..self.pits()]);
            board.stores[index] = counts[self.pits()];
            total += counts.iter().map(|&count| u32::from(count)).sum::<u32>();
        }
        if total != self.total() {
            return Err(ParseError::refused(format!("the board holds {total} seeds, not the game's {}", self.total())));
        }
        Ok(board)
    }
}

impl TextForm for Kalah {
    fn start(&self) -> Board {
        Kalah::start(self)
    }

    fn parse_position(&self, text: &str) -> Result<Board, ParseError> {
        if text.contains('/') {
            return self.parse_board(text);
        }
        let mut board = Kalah::start(self);
        for (index, word) in text.split_whitespace().enumerate() {
            let pit = self.parse_move(&board, word).map_err(|error| error.at(TextPlace::Move(index + 1)))?;
            board = self.play(&board, &pit);
        }
        Ok(board)
    }

    fn draw_position(&self, board: &Board) -> String {
        let pits = self.pits();
        let north: Vec<String> = board.pits[1][..pits].iter().rev().map(|seeds| format!("{seeds:>3}")).collect();
        let south: Vec<String> = board.pits[0][..pits].iter().map(|seeds| format!("{seeds:>3}")).collect();
        format!(
            "     {}\n{:>3} {}{:>3}\n     {}\n{} to move; board: {}\n",
            north.join(""),
            board.stores[1],
            " ".repeat(3 * pits + 2),
            board.stores[0],
            south.join(""),
            if board.south_to_move { "South" } else { "North" },
            self.board_text(board)
        )
    }

    fn parse_move(&self, board: &Board, text: &str) -> Result<Pit, ParseError> {
        let number: usize =
            text.trim().parse().map_err(|_| ParseError::expected(format!("a pit number 1..{}", self.pits()), text))?;
        if number == 0 || number > self.pits() {
            return Err(ParseError::refused(format!("pit {number} is not among 1..{}", self.pits())));
        }
        let pit = (number - 1) as Pit;
        if self.is_over(board) {
            Err(ParseError::game_over())
        } else if self.is_legal(board, &pit) {
            Ok(pit)
        } else {
            Err(ParseError::refused(format!("pit {number} is empty")))
        }
    }

    fn render_move(&self, _position: &Self::Position, pit: &Pit) -> String {
        (pit + 1).to_string()
    }
}
