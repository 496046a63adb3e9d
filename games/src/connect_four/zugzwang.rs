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
//!   follower four, the mover loses by the end of the board;
//! - the odd threat: a player with a threat (an empty cell that completes its four) that is not playable yet,
//!   such that the opponent is the one to move when only the cells from the one below it up are empty, wins if
//!   the opponent can never complete four elsewhere: each plays the other cells (the rest) until they are full,
//!   and then the opponent must play below the threat. For the mover's threats the opponent's stones and every
//!   cell but the threat's and those above it must hold no four; for the opponent's threats, the opponent (the
//!   follower) pairs the rest as above, so the mover's stones, its cells of the rest and the cell below the
//!   threat must hold no four.
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
        // The follower's rows (`row + H` odd) hold the next cell of each column with an odd number of empty cells.
        let follower_rows = self.rows_of_parity((self.height() + 1) % 2);
        let odd_columns = board.mask.wrapping_add(self.bottom) & follower_rows;
        let opponent_odd = opponent_wins & unplayable & self.rows_of_parity(1 - parity);
        if opponent_odd != 0 {
            if let Some(plies) = self.threat_with_pairs(board, empty, follower_rows, odd_columns, opponent_odd) {
                best = best.min(Value::Lose(plies));
            }
        }
        if odd_columns.count_ones().is_multiple_of(2) {
            if let Some(bound) = self.pairing_bound(board, empty, follower_rows, odd_columns) {
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
        if self.wins_with_pairs(mover, lows) {
            return None;
        }
        let follower_wins = if lows.count_ones() == 2 {
            // The opponent gets the cell of the pair that the mover does not take.
            let (first, second) = (lows & lows.wrapping_neg(), lows & (lows - 1));
            self.has_four(follower | first) && self.has_four(follower | second)
        } else {
            // More pairs: as though the opponent took none of them (a bound).
            self.has_four(follower)
        };
        Some(if follower_wins { Value::Lose(empty.count_ones()) } else { Value::Draw })
    }

    /// The plies within which the opponent wins by one of its `threats`: winning cells not playable yet, on the
    /// rows where the mover is the one to move once only the cell below the threat and those above it are left
    /// (an even number of other empty cells, the rest). The opponent answers every move into the rest within
    /// the rest, pairing it as [`ConnectFour::pairing_bound`] does (the part of the threat's column below that
    /// cell from its own next cell up, the other columns whole); once the rest is full the mover must play below
    /// the threat. So the opponent wins if the mover's stones, its cells of the rest and the cell below the
    /// threat hold no four, whichever cell of each pair the mover takes.
    #[inline(never)]
    fn threat_with_pairs(
        &self,
        board: &Board,
        empty: u64,
        follower_rows: u64,
        odd_columns: u64,
        mut threats: u64,
    ) -> Option<u32> {
        let stride = self.height() + 1;
        let playable = self.playable_cells(board);
        let mut plies = None;
        while threats != 0 {
            let threat = threats & threats.wrapping_neg();
            threats ^= threat;
            let column = self.column_cells(threat.trailing_zeros() / stride);
            let below = threat >> 1;
            // The threat's column below the cell below the threat, paired from its next cell up: in twos if it
            // has an even number of cells, else its next cell is paired with another column's.
            let part = empty & column & below.wrapping_sub(1);
            let next = playable & column;
            let next_rows = self.rows_of_parity(next.trailing_zeros() % stride % 2);
            let (own, lone) =
                if part.count_ones().is_multiple_of(2) { (part & next_rows, 0) } else { (part & !next_rows, next) };
            let mover = board.current | (empty & !column & !follower_rows) | own | below;
            let pairs = (odd_columns & !column) | lone;
            // The threat's rows make the rest even, so its columns' odd parts pair up (checked all the same).
            if pairs.count_ones().is_multiple_of(2) && !self.wins_with_pairs(mover, pairs) {
                let rest = (empty & !(column & !below.wrapping_sub(1))).count_ones();
                plies = Some(plies.map_or(rest + 2, |plies: u32| plies.min(rest + 2)));
            }
        }
        plies
    }

    /// Whether `stones` with one cell of each pair of `pairs` (the next cells of columns, an even number of them)
    /// may hold four however the follower pairs them: exactly for one or two pairs (for two, the follower takes
    /// the best of the three ways to pair four cells), and as though every cell were taken for more (a bound).
    #[inline]
    fn wins_with_pairs(&self, stones: u64, pairs: u64) -> bool {
        match pairs.count_ones() {
            2 => {
                let (first, second) = (pairs & pairs.wrapping_neg(), pairs & (pairs - 1));
                self.has_four(stones | first) || self.has_four(stones | second)
            }
            4 if self.has_four(stones | pairs) => {
                // The cells a, b, c, d: pairing a-b with c-d leaves the mover a-c, a-d, b-c or b-d, and so on.
                let mut cells = [0; 4];
                let mut rest = pairs;
                for cell in &mut cells {
                    *cell = rest & rest.wrapping_neg();
                    rest ^= *cell;
                }
                let [a, b, c, d] = cells;
                let four = |x: u64, y: u64| self.has_four(stones | x | y);
                let (ab, ac, ad, bc, bd, cd) = (four(a, b), four(a, c), four(a, d), four(b, c), four(b, d), four(c, d));
                (ac || ad || bc || bd) && (ab || ad || bc || cd) && (ab || ac || bd || cd)
            }
            _ => self.has_four(stones | pairs),
        }
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

#[cfg(test)]
mod tests {
    use super::ConnectFour;
    use rand::{Rng, SeedableRng};

    /// Whether `stones` with one cell of each pair may hold four whichever way the four `cells` are paired: for
    /// each of the three pairings, some choice of one cell a pair completes four.
    fn wins_under_every_pairing(game: &ConnectFour, stones: u64, [a, b, c, d]: [u64; 4]) -> bool {
        [[(a, b), (c, d)], [(a, c), (b, d)], [(a, d), (b, c)]]
            .into_iter()
            .all(|[(p, q), (r, t)]| [p | r, p | t, q | r, q | t].into_iter().any(|taken| game.has_four(stones | taken)))
    }

    #[test]
    fn pairs_of_next_cells_are_judged_as_every_pairing_would() {
        let game = ConnectFour::standard();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let (mut wins, mut saved) = (0, 0);
        for _ in 0..200_000 {
            // Random stones and four other cells of the board.
            let mut stones = 0;
            for _ in 0..rng.gen_range(6..14) {
                stones |= 1u64 << (7 * rng.gen_range(0..7) + rng.gen_range(0..6));
            }
            let mut cells = Vec::new();
            while cells.len() < 4 {
                let cell = 1u64 << (7 * rng.gen_range(0..7) + rng.gen_range(0..6));
                if stones & cell == 0 && !cells.contains(&cell) {
                    cells.push(cell);
                }
            }
            cells.sort_unstable();
            let pairs = cells.iter().fold(0, |all, cell| all | cell);
            let expected = wins_under_every_pairing(&game, stones, [cells[0], cells[1], cells[2], cells[3]]);
            assert_eq!(game.wins_with_pairs(stones, pairs), expected, "{stones:#x} {pairs:#x}");
            wins += u32::from(expected);
            saved += u32::from(!expected && game.has_four(stones | pairs));
            // Two cells: the mover takes either.
            let two = cells[0] | cells[1];
            let either = game.has_four(stones | cells[0]) || game.has_four(stones | cells[1]);
            assert_eq!(game.wins_with_pairs(stones, two), either);
        }
        assert!(wins > 100 && saved > 100, "{wins} {saved}");
    }
}
