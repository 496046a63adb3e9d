//! Connect Four's values proven without search from the parity of the empty cells (Allis' zugzwang rules in
//! the forms that a few bit operations decide), as the range that [`ludus_framework::SearchHints::value_range`]
//! gives:
//!
//! - no four left: a player whose stones and every empty cell hold no four can never win;
//! - the follow-up (Allis' claimeven) and the pairs (Allis' baseinverse): the player who is not to move (the
//!   follower) answers each move directly above it, and a move into the next cell of a column with an odd
//!   number of empty cells with the next cell of another such column (the pairs are fixed from the left; each
//!   stays playable until one of its cells is taken). With an even number of odd columns (none included), that
//!   answers every move: the follower gets the empty cells on its rows (every other cell from the second empty
//!   one of an even column up, from the third of an odd one) and one cell of each pair, the mover the rest. If
//!   none of the mover's choices completes four, the mover cannot win; if moreover every choice leaves the
//!   follower four, the mover loses by the end of the board. With an odd number of odd columns, the follower
//!   follows up from the bottom in one of them that holds its threat on a cell that falls to it so, and pairs
//!   the others: if the mover's stones and cells (those of that column below the threat) hold no four, the
//!   follower wins, since once the rest is full the mover must play under the threat;
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
        let bound = if odd_columns.count_ones() % 2 == 0 {
            self.pairing_bound(board, empty, follower_rows, odd_columns)
        } else {
            self.follow_up_bound(board, empty, follower_rows, odd_columns, opponent_wins)
        };
        if let Some(bound) = bound {
            best = best.min(bound);
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

    /// What the opponent's pairing proves, as a best value for the player to move, when an even number of columns
    /// (perhaps none) have an odd number of empty cells; `lows` holds the next cell of each of those columns. The
    /// opponent answers a move into one of those cells with another of them (Allis' baseinverse: the pairs are
    /// the cells in turn from the left, all playable until one of a pair is taken) and any other move with the
    /// cell right above it (claimeven): the mover gets the empty cells off the follower's rows and one cell of
    /// each pair, the opponent the rest. So the mover cannot win if none of its choices completes four, and
    /// loses if moreover every choice leaves the opponent four.
    #[inline]
    fn pairing_bound(&self, board: &Board, empty: u64, follower_rows: u64, lows: u64) -> Option<Value> {
        let mover = board.current | (empty & !follower_rows);
        let follower = board.opponent() | (empty & follower_rows & !lows);
        let (mover_wins, follower_wins) = if lows == 0 {
            (self.has_four(mover), self.has_four(follower))
        } else if lows.count_ones() == 2 {
            // The mover takes one of the pair, the opponent the other.
            let (first, second) = (lows & lows.wrapping_neg(), lows & (lows - 1));
            (
                self.has_four(mover | first) || self.has_four(mover | second),
                self.has_four(follower | first) && self.has_four(follower | second),
            )
        } else {
            // More pairs: as though the mover took every one of them and the opponent none (a bound).
            (self.has_four(mover | lows), self.has_four(follower))
        };
        if mover_wins {
            return None;
        }
        Some(if follower_wins { Value::Lose(empty.count_ones()) } else { Value::Draw })
    }

    /// What the opponent's follow-up proves (see the module doc) when an odd number of columns have an odd
    /// number of empty cells, as a best value for the player to move; `odd` holds the next cell of each of those
    /// columns. The opponent follows up in one of them that holds its threat, and pairs the next cells of the
    /// others as [`ConnectFour::pairing_bound`] does; the first such column from the left that proves a loss
    /// gives the bound.
    #[inline]
    fn follow_up_bound(
        &self,
        board: &Board,
        empty: u64,
        follower_rows: u64,
        odd: u64,
        opponent_wins: u64,
    ) -> Option<Value> {
        let mut columns = odd;
        while columns != 0 {
            let low = columns & columns.wrapping_neg();
            columns ^= low;
            let column = self.column_cells(low.trailing_zeros() / (self.height() + 1));
            let threats = opponent_wins & column & !follower_rows;
            if threats == 0 {
                continue;
            }
            // The follow-up column: the mover gets its cells on the follower's rows up to the threat, the opponent
            // the others; the other odd columns' next cells are paired, the rest claimed even.
            let threat = threats & threats.wrapping_neg();
            let below = threat - 1;
            let mover = board.current | (empty & !column & !follower_rows) | (empty & column & below & follower_rows);
            let pairs = odd & !low;
            let mover_wins = match pairs.count_ones() {
                0 => self.has_four(mover),
                2 => {
                    let (first, second) = (pairs & pairs.wrapping_neg(), pairs & (pairs - 1));
                    self.has_four(mover | first) || self.has_four(mover | second)
                }
                _ => self.has_four(mover | pairs),
            };
            if !mover_wins {
                let played = (empty & !column).count_ones() + (empty & column & (below | threat)).count_ones();
                return Some(Value::Lose(played));
            }
        }
        None
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
