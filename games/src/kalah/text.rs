//! Kalah's text forms: a move is a pit number, `1` to `m` from the mover's left; a position is its moves from
//! the start (`3 1 6`) or its board: South's pits left to right, South's store, North's pits left to right (as
//! North sees them), North's store, and the side to move (`s` or `n`), as numbers: `3 3 3 0 / 3 3 3 0 s`.

use super::rules::{Board, Pit};
use super::{Kalah, MAX_PITS};
use ludus_framework::playable::TextForm;
use ludus_framework::Rules;

impl Kalah {
    /// The board form of a position.
    pub fn board_text(&self, board: &Board) -> String {
        let side = |index: usize| {
            let pits: Vec<String> = board.pits[index][..self.pits()].iter().map(u8::to_string).collect();
            format!("{} {}", pits.join(" "), board.stores[index])
        };
        format!("{} / {} {}", side(0), side(1), if board.south_to_move { 's' } else { 'n' })
    }

    fn parse_board(&self, text: &str) -> Result<Board, String> {
        let (sides, turn) = text.trim().rsplit_once(' ').ok_or("two sides joined by `/` and the side to move")?;
        let south_to_move = match turn {
            "s" => true,
            "n" => false,
            other => return Err(format!("the side to move is `s` or `n`, not `{other}`")),
        };
        let halves: Vec<&str> = sides.split('/').collect();
        if halves.len() != 2 {
            return Err("two sides joined by `/`".to_string());
        }
        let mut board = Board { pits: [[0; MAX_PITS]; 2], stores: [0, 0], south_to_move };
        let mut total = 0u32;
        for (index, half) in halves.iter().enumerate() {
            let counts: Vec<u8> = half
                .split_whitespace()
                .map(|word| word.parse::<u8>().map_err(|_| format!("`{word}` is not a count of seeds")))
                .collect::<Result<_, _>>()?;
            if counts.len() != self.pits() + 1 {
                return Err(format!("a side has {} pits and a store, not {} numbers", self.pits(), counts.len()));
            }
            board.pits[index][..self.pits()].copy_from_slice(&counts[..self.pits()]);
            board.stores[index] = counts[self.pits()];
            total += counts.iter().map(|&count| u32::from(count)).sum::<u32>();
        }
        if total != self.total() {
            return Err(format!("the board holds {total} seeds, not the game's {}", self.total()));
        }
        Ok(board)
    }
}

impl TextForm for Kalah {
    fn start(&self) -> Board {
        Kalah::start(self)
    }

    fn parse_position(&self, text: &str) -> Result<Board, String> {
        if text.contains('/') {
            return self.parse_board(text);
        }
        let mut board = Kalah::start(self);
        for (index, word) in text.split_whitespace().enumerate() {
            let pit = self.parse_move(&board, word).map_err(|reason| format!("move {}: {reason}", index + 1))?;
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

    fn parse_move(&self, board: &Board, text: &str) -> Result<Pit, String> {
        let number: usize =
            text.trim().parse().map_err(|_| format!("`{text}` is not a pit number 1..{}", self.pits()))?;
        if number == 0 || number > self.pits() {
            return Err(format!("pit {number} is not among 1..{}", self.pits()));
        }
        let pit = (number - 1) as Pit;
        if self.is_over(board) {
            Err("the game is over".to_string())
        } else if self.is_legal(board, &pit) {
            Ok(pit)
        } else {
            Err(format!("pit {number} is empty"))
        }
    }

    fn render_move(&self, _position: &Self::Position, pit: &Pit) -> String {
        (pit + 1).to_string()
    }
}
