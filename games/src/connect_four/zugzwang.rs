//! Connect Four's values proven without search from the parity of the empty cells (Allis' zugzwang rules in
//! the forms that a few bit operations decide), as the range that [`ludus_framework::SearchHints::value_range`]
//! gives:
//!
//! - no four left: a player whose stones and every empty cell hold no four can never win;
//! - the follow-up (Allis' claimeven): a player who answers each move directly above it gets, in a column with
//!   an even number of empty cells, every other cell from the second empty one up. When every column is even
//!   and the player to move's stones and cells hold no four, the player to move cannot win, and loses by the
//!   end of the board if the follower's hold four. When exactly one column is odd and the follower has a
//!   threat there on a cell that falls to it by following up from the bottom, and the mover's stones and cells
//!   below that threat hold no four, the follower wins: once the rest is full, the mover must play under it;
//! - the odd threat: a player with a threat (an empty cell that completes its four) that is not playable yet,
//!   such that the opponent is the one to move when only the cells from the one below it up are empty, wins if
//!   the opponent can never complete four without the threat's cell and those above it: it never has to
//!   play below the threat itself (when it is to move with only that column left, the parity says the column's
//!   next cell is not the one below the threat), so the opponent eventually must.
//!
//! Each rule is a strategy for one side that is followed to the end, so the bounds hold for the exact value:
//! a win at the latest when the deciding cell is played, a loss at the latest on the last cell.

use super::board::{Board, ConnectFour};
use ludus_framework::Value;

impl ConnectFour {
    /// The worst and the best value of `board` for the player to move, at a position no shortcut settles
    /// (nobody wins within the next two moves: at worst a loss in 4, at best a win in 3), narrowed by the
    /// zugzwang rules of the module doc; `mover_wins` and `opponent_wins` are each side's winning cells.
    pub fn zugzwang_range(&self, board: &Board, mover_wins: u64, opponent_wins: u64) -> (Value, Value) {
        let mut worst = Value::Lose(4);
        let mut best = Value::Win(3);
        // While more than four sevenths of the board is empty the rules almost never decide anything (a side
        // that can no longer make four, a threat the other side can never answer with one of its own): there
        // they would only cost time.
        let cells = self.empty_cells(board);
        if 7 * cells > 4 * self.cells() {
            return (worst, best);
        }
        let empty = self.board & !board.mask;
        let (mover, opponent) = (board.current, board.opponent());
        let mover_can_win = self.has_four(mover | empty);
        let opponent_can_win = self.has_four(opponent | empty);
        if !mover_can_win {
            best = best.min(Value::Draw);
        }
        if !opponent_can_win {
            worst = worst.max(Value::Draw);
        }
        // The rows of an odd threat: `row + H - cells` even for the mover's, odd for the opponent's.
        let parity = (self.height() + cells) % 2;
        let unplayable = empty & !self.playable_cells(board);
        // Most positions have no threat of the right parity and two odd columns or more: no call then.
        let mover_odd = mover_wins & unplayable & self.rows_of_parity(parity);
        if mover_odd != 0 {
            if let Some(plies) = self.odd_threat(opponent, empty, mover_odd, cells) {
                worst = worst.max(Value::Win(plies));
            }
        }
        let opponent_odd = opponent_wins & unplayable & self.rows_of_parity(1 - parity);
        if opponent_odd != 0 {
            if let Some(plies) = self.odd_threat(mover, empty, opponent_odd, cells) {
                best = best.min(Value::Lose(plies));
            }
        }
        // The follower's rows (`row + H` odd) hold the next cell of each column with an odd number of empty cells.
        let follower_rows = self.rows_of_parity((self.height() + 1) % 2);
        let odd_columns = board.mask.wrapping_add(self.bottom) & follower_rows;
        if odd_columns & odd_columns.wrapping_sub(1) == 0 {
            if let Some(bound) = self.follow_up_bound(board, empty, follower_rows, odd_columns, opponent_wins) {
                best = best.min(bound);
            }
        }
        (worst, best.max(worst))
    }

    /// The plies within which a player wins by an odd threat among `threats` (its winning cells on rows of the
    /// right parity, not yet playable), against the stones `other`, or `None`.
    #[inline(never)]
    fn odd_threat(&self, other: u64, empty: u64, mut threats: u64, cells: u32) -> Option<u32> {
        let mut plies = None;
        while threats != 0 {
            let threat = threats & threats.wrapping_neg();
            threats ^= threat;
            let column = self.column_cells(threat.trailing_zeros() / (self.height() + 1));
            // The threat's cell and those above it are never played by the other side.
            let kept = column & !threat.wrapping_sub(1);
            if !self.has_four(other | (empty & !kept)) {
                let above = (kept & !threat).count_ones();
                plies = Some(plies.map_or(cells - above, |plies: u32| plies.min(cells - above)));
            }
        }
        plies
    }

    /// What the opponent's follow-up proves (see the module doc), as a best value for the player to move;
    /// `odd` holds the next cell of each column with an odd number of empty cells (none or one).
    #[inline]
    fn follow_up_bound(
        &self,
        board: &Board,
        empty: u64,
        follower_rows: u64,
        odd: u64,
        opponent_wins: u64,
    ) -> Option<Value> {
        if odd == 0 {
            if self.has_four(board.current | (empty & !follower_rows)) {
                return None;
            }
            return Some(if self.has_four(board.opponent() | (empty & follower_rows)) {
                Value::Lose(empty.count_ones())
            } else {
                Value::Draw
            });
        }
        if odd & (odd - 1) != 0 {
            return None;
        }
        // The one odd column: the mover gets its cells on the follower's rows, the opponent the others.
        let column = self.column_cells(odd.trailing_zeros() / (self.height() + 1));
        let threats = opponent_wins & column & !follower_rows;
        if threats == 0 {
            return None;
        }
        let threat = threats & threats.wrapping_neg();
        let below = threat - 1;
        let mover = board.current | (empty & !column & !follower_rows) | (empty & column & below & follower_rows);
        if self.has_four(mover) {
            return None;
        }
        let played = (empty & !column).count_ones() + (empty & column & (below | threat)).count_ones();
        Some(Value::Lose(played))
    }

    /// The board's cells on rows `r` with `r % 2 == parity`.
    #[inline]
    fn rows_of_parity(&self, parity: u32) -> u64 {
        if parity == 0 {
            self.board & !self.odd_rows
        } else {
            self.odd_rows
        }
    }
}
