//! Connect Four's search hints, from the bitboards (the ideas of Pascal Pons' solver, stated as hints that any
//! engine may use):
//!
//! - shortcuts, all exact: the player to move who can complete four wins in 1; a player facing two immediate
//!   threats, or whose every move hands the opponent a win at once, loses in 2; with two empty cells or fewer
//!   left and a move that loses nothing, the game is drawn;
//! - the value range: once no shortcut applies, nobody wins within the next two moves, so the value lies
//!   between a loss in 4 and a win in 3, narrowed by the zugzwang rules of `zugzwang.rs`; no game lasts longer
//!   than the empty cells;
//! - pruning: when the opponent threatens to win at once, only the parry remains; moves right below a cell
//!   where the opponent would complete four are dropped (the opponent would win at once);
//! - move order: moves that make the most cells where the mover would complete four first, then central
//!   columns first; among equals, the engine's history of the (cell, player) slot.

use super::board::{Board, ConnectFour};
use ludus_framework::{Proven, SearchHints, Shortcut, Value};

impl ConnectFour {
    /// The cells where the player to move may play without handing the opponent a win at once, or 0 if there
    /// are none; call it only when the player to move cannot win at once.
    #[inline]
    pub fn non_losing_cells(&self, board: &Board) -> u64 {
        self.non_losing_among(self.playable_cells(board), self.winning_cells(board.opponent(), board.mask))
    }

    /// The cells of `playable` that do not hand the opponent, whose winning cells are `opponent_wins`, a win at
    /// once (see [`ConnectFour::non_losing_cells`]).
    #[inline]
    fn non_losing_among(&self, playable: u64, opponent_wins: u64) -> u64 {
        let forced = playable & opponent_wins;
        let candidates = match forced.count_ones() {
            0 => playable,
            1 => forced,
            // Two threats cannot both be parried.
            _ => return 0,
        };
        // A stone right below an opponent's winning cell lets the opponent complete four there.
        candidates & !(opponent_wins >> 1)
    }

    /// The cell a stone dropped in `column` lands on (0 if the column is full or does not exist).
    #[inline]
    fn landing_cell(&self, board: &Board, column: u32) -> u64 {
        self.playable_cells(board) & self.column_cells(column)
    }
}

impl SearchHints for ConnectFour {
    /// The shortcuts of [`SearchHints::proven`], which the engines ask (it finds the threats once for the
    /// shortcuts and the range).
    fn shortcut(&self, board: &Board) -> Option<Shortcut> {
        match self.proven(board) {
            Proven::Shortcut(shortcut) => Some(shortcut),
            Proven::Range(..) => None,
        }
    }

    fn value_range(&self, board: &Board) -> (Value, Value) {
        let (mover_wins, opponent_wins) =
            (self.winning_cells(board.current, board.mask), self.winning_cells(board.opponent(), board.mask));
        self.zugzwang_range(board, mover_wins, opponent_wins)
    }

    /// The shortcut, else the range, with each side's winning cells found once for both.
    fn proven(&self, board: &Board) -> Proven {
        let playable = self.playable_cells(board);
        let mover_wins = self.winning_cells(board.current, board.mask);
        if mover_wins & playable != 0 {
            return Proven::Shortcut(Shortcut::Exact(Value::Win(1)));
        }
        let opponent_wins = self.winning_cells(board.opponent(), board.mask);
        if self.non_losing_among(playable, opponent_wins) == 0 {
            return Proven::Shortcut(Shortcut::Exact(Value::Lose(2)));
        }
        // With two cells left, the mover plays a safe one and the opponent the last: neither can complete four.
        if self.empty_cells(board) <= 2 {
            return Proven::Shortcut(Shortcut::Exact(Value::Draw));
        }
        let (worst, best) = self.zugzwang_range(board, mover_wins, opponent_wins);
        Proven::Range(worst, best)
    }

    /// `proven` settles every position where the player to move can complete four (a win in 1) or that has two
    /// empty cells or fewer (a draw, or the loss in 2 of a player with no safe move).
    fn shortcuts_catch_game_ends(&self) -> bool {
        true
    }

    /// A game ends when the board is full at the latest.
    fn max_remoteness(&self, board: &Board) -> Option<u32> {
        Some(self.empty_cells(board))
    }

    fn prune_moves(&self, board: &Board, moves: &mut Vec<u8>) {
        let safe = self.non_losing_cells(board);
        moves.retain(|&column| self.landing_cell(board, u32::from(column)) & safe != 0);
    }

    /// The cell the stone lands on, and whose stone it is: the moves of equal scores (a column and its mirror
    /// with as many threats) go in the order of the work their cells have cut off.
    fn history_slot(&self, board: &Board, column: &u8) -> Option<usize> {
        let cell = self.landing_cell(board, u32::from(*column)).trailing_zeros() as usize;
        Some(cell + 64 * (board.stones() as usize % 2))
    }

    fn move_score(&self, board: &Board, column: &u8) -> i32 {
        self.score_of_stone(board, u32::from(*column), self.landing_cell(board, u32::from(*column)))
    }

    /// The default's list (the safe moves by score, ties left to right) in one pass over the columns: the safe
    /// cells are found once, and each move is scored and placed as it is found.
    fn search_moves(&self, board: &Board, moves: &mut Vec<u8>, scores: &mut Vec<i32>) {
        moves.clear();
        scores.clear();
        let playable = self.playable_cells(board);
        let safe = match self.non_losing_cells(board) {
            // Only where a shortcut applies (the engines do not ask then): every move, as the rules give them.
            0 => playable,
            safe => safe,
        };
        for column in 0..self.width() {
            let stone = playable & safe & self.column_cells(column);
            if stone == 0 {
                continue;
            }
            // The width is at most 9, so a column fits a `u8`.
            moves.push(column as u8);
            scores.push(self.score_of_stone(board, column, stone));
            // Down past every move scored lower: a stable order, highest first.
            let mut at = moves.len() - 1;
            while at > 0 && scores[at - 1] < scores[at] {
                scores.swap(at - 1, at);
                moves.swap(at - 1, at);
                at -= 1;
            }
        }
    }
}

impl ConnectFour {
    /// The score of the move that drops `stone` (its cell) in `column`: the cells where the mover would then
    /// complete four, then central columns first.
    #[inline]
    fn score_of_stone(&self, board: &Board, column: u32, stone: u64) -> i32 {
        let threats = self.winning_cells(board.current | stone, board.mask | stone).count_ones();
        let off_centre = (2 * i64::from(column) - (i64::from(self.width()) - 1)).unsigned_abs();
        i32::try_from(threats * 32).unwrap_or(i32::MAX) - i32::try_from(off_centre).unwrap_or(0)
    }
}
