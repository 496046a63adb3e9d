//! Connect Four's rules on a `W x H` board with `W * (H + 1) <= 64`, as bitboards: [`Board`] (a position),
//! [`ConnectFour`] (the game: [`Game`] with a move being a 0-based column, and [`Canonicalize`] with the smaller
//! of the position's and its mirror image's encodings as key), move strings and the exact score.

use super::lines::{completions, flip_columns, fours, shift_left, shift_right};
use ludus_framework::engines::retrograde::Tiers;
use ludus_framework::Rules;
use ludus_framework::{Canonicalize, Error, FromKey, Game, Result, Value, Violation};

/// The standard board width.
pub const DEFAULT_WIDTH: u32 = 7;
/// The standard board height.
pub const DEFAULT_HEIGHT: u32 = 6;

/// A Connect Four position: the stones of the player to move and the mask of all stones, as bitboards.
///
/// Bit `column * (H + 1) + row` is the cell of `column` (0-based, left to right) and `row` (0-based, bottom
/// up); the extra row `H` of each column stays empty, which keeps lines from wrapping across columns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    /// Stones of the player to move.
    pub current: u64,
    /// All stones on the board.
    pub mask: u64,
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board { current: 0, mask: 0 };

    /// The number of stones on the board.
    #[inline]
    pub fn stones(&self) -> u32 {
        self.mask.count_ones()
    }

    /// Stones of the player who just moved.
    #[inline]
    pub fn opponent(&self) -> u64 {
        self.current ^ self.mask
    }
}

/// Why a sequence of moves cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// 0-based index of the offending character in the move string.
    pub index: usize,
    /// What is wrong, in words.
    pub reason: String,
}

/// Connect Four on a `width x height` board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectFour {
    width: u32,
    height: u32,
    /// One bit at the bottom cell of each column.
    pub(super) bottom: u64,
    /// Every playable cell.
    pub(super) board: u64,
    /// Whether every shift of a line test (up to three steps of `H + 2` bits) stays below 64 bits, so that plain
    /// shifts serve (boards up to 19 rows): the hot bit tricks then need no overflow checks.
    pub(super) short_shifts: bool,
    /// The counts of column heights by sum, for the ranks of a tier (`rank.rs`).
    pub(super) heights: super::rank::HeightTable,
    /// The board's cells on odd rows (0-based).
    pub(super) odd_rows: u64,
}

impl Default for ConnectFour {
    fn default() -> Self {
        Self::standard()
    }
}

impl ConnectFour {
    /// The standard 7 x 6 game.
    pub fn standard() -> Self {
        Self::build(DEFAULT_WIDTH, DEFAULT_HEIGHT)
    }

    /// A `width x height` game: `width` from 1 to 9 (a column is one digit in the plugin's format; the library
    /// itself would allow more), `height` at least 1, and `width * (height + 1) <= 64`.
    pub fn new(width: u32, height: u32) -> Result<Self> {
        if width == 0 || height == 0 {
            return Err(Error::parameter("board", format!("a {width} x {height} board has no cells")));
        }
        if width > 9 {
            return Err(Error::limit("the board width", u64::from(width), 9));
        }
        let bits = u64::from(width) * (u64::from(height) + 1);
        if bits > 64 {
            return Err(Error::limit("the board's bitboard size W * (H + 1)", bits, 64));
        }
        Ok(Self::build(width, height))
    }

    fn build(width: u32, height: u32) -> Self {
        let column = shift_left(1, height).wrapping_sub(1);
        let mut bottom = 0;
        let mut board = 0;
        for index in 0..width {
            bottom |= shift_left(1, index * (height + 1));
            board |= shift_left(column, index * (height + 1));
        }
        let heights = super::rank::HeightTable::new(width, height);
        let mut odd_rows = 0;
        for row in (1..height).step_by(2) {
            odd_rows |= shift_left(bottom, row);
        }
        ConnectFour { width, height, bottom, board, short_shifts: 3 * (height + 2) < 64, heights, odd_rows }
    }

    /// The number of columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The number of rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The number of cells.
    #[inline]
    pub fn cells(&self) -> u32 {
        self.width * self.height
    }

    /// The number of empty cells of `board`.
    #[inline]
    pub fn empty_cells(&self, board: &Board) -> u32 {
        self.cells().saturating_sub(board.stones())
    }

    /// `C` of the first player's score (the larger of the players' on a board of an odd number of cells): a
    /// winner who wins with `s` stones scores `C - s`, where `C` is one more than his stones on a full board.
    pub fn score_base(&self) -> i32 {
        i32::try_from(self.cells().div_ceil(2) + 1).unwrap_or(i32::MAX)
    }

    /// `C` of the score of the player to move on `board` (`mover`) or of the opponent: one more than that
    /// player's stones on a full board. The players' differ by one on a board with an odd number of cells.
    fn score_base_of(&self, board: &Board, mover: bool) -> i64 {
        let first_to_move = board.stones().is_multiple_of(2);
        let stones = if first_to_move == mover { self.cells().div_ceil(2) } else { self.cells() / 2 };
        i64::from(stones) + 1
    }

    #[inline]
    fn column_bottom(&self, column: u32) -> u64 {
        shift_left(1, column * (self.height + 1))
    }

    #[inline]
    fn column_top(&self, column: u32) -> u64 {
        shift_left(1, column * (self.height + 1) + self.height - 1)
    }

    #[inline]
    pub(crate) fn column_cells(&self, column: u32) -> u64 {
        shift_left(shift_left(1, self.height).wrapping_sub(1), column * (self.height + 1))
    }

    /// Whether `column` (0-based) exists and has room.
    #[inline]
    pub fn can_play(&self, board: &Board, column: u32) -> bool {
        column < self.width && board.mask & self.column_top(column) == 0
    }

    /// The cells where a stone can be dropped now.
    #[inline]
    pub fn playable_cells(&self, board: &Board) -> u64 {
        board.mask.wrapping_add(self.bottom) & self.board
    }

    /// Whether `stones` contain four in a row (vertically, horizontally or diagonally).
    #[inline]
    pub fn has_four(&self, stones: u64) -> bool {
        if self.short_shifts {
            fours(stones, self.height, |value, amount| value >> amount)
        } else {
            fours(stones, self.height, shift_right)
        }
    }

    /// The empty cells that would complete four in a row for the owner of `stones`, given all stones `mask`.
    #[inline]
    pub fn winning_cells(&self, stones: u64, mask: u64) -> u64 {
        let cells = if self.short_shifts {
            completions(stones, self.height, |value, amount| value << amount, |value, amount| value >> amount)
        } else {
            completions(stones, self.height, shift_left, shift_right)
        };
        cells & (self.board ^ mask)
    }

    /// The position after dropping a stone in `column` (0-based; the caller checks [`Self::can_play`]).
    #[inline]
    pub fn drop_stone(&self, board: &Board, column: u32) -> Board {
        let mask = board.mask | board.mask.wrapping_add(self.column_bottom(column)) & self.column_cells(column);
        Board { current: board.current ^ board.mask, mask }
    }

    /// The position after the moves of `moves` (digits `1..=W`) from the empty board.
    pub fn parse_moves(&self, moves: &str) -> std::result::Result<Board, IllegalMove> {
        let mut board = Board::EMPTY;
        for (index, character) in moves.char_indices() {
            let illegal = |reason: String| IllegalMove { index, reason };
            let column = character
                .to_digit(10)
                .ok_or_else(|| illegal(format!("expected a column from 1 to {}, found `{character}`", self.width)))?;
            if column == 0 || column > self.width {
                return Err(illegal(format!("column {column} is out of range: columns are 1 to {}", self.width)));
            }
            let move_number = moves.get(..index).map_or(index, |before| before.chars().count()) + 1;
            if self.has_four(board.opponent()) {
                return Err(illegal(format!(
                    "move {move_number} (column {column}) comes after the game is over: move {} made four in a row",
                    move_number - 1
                )));
            }
            if !self.can_play(&board, column - 1) {
                return Err(illegal(format!("move {move_number} plays in column {column}, which is full")));
            }
            board = self.drop_stone(&board, column - 1);
        }
        Ok(board)
    }

    /// The exact score of `board` (see the module doc) from its exact value.
    pub fn score(&self, board: &Board, value: Value) -> i32 {
        let played = board.stones();
        let mover_stones = played / 2;
        let opponent_stones = played - mover_stones;
        let (mover_base, opponent_base) = (self.score_base_of(board, true), self.score_base_of(board, false));
        let score = match value {
            Value::Draw => 0,
            Value::Win(remoteness) => mover_base - i64::from(mover_stones) - i64::from(remoteness.div_ceil(2)),
            Value::Lose(remoteness) => -(opponent_base - i64::from(opponent_stones) - i64::from(remoteness / 2)),
        };
        i32::try_from(score).unwrap_or(0)
    }

    /// The image of `board` in the vertical mirror (column `c` becomes column `W - 1 - c`).
    pub fn mirror(&self, board: &Board) -> Board {
        Board { current: self.flip(board.current), mask: self.flip(board.mask) }
    }

    /// `bits` with the order of its columns reversed.
    #[inline]
    fn flip(&self, bits: u64) -> u64 {
        let stride = self.height + 1;
        // The loop over a width known at compile time unrolls: the key of every searched position takes a flip.
        match self.width {
            7 => flip_columns::<7>(bits, stride),
            6 => flip_columns::<6>(bits, stride),
            5 => flip_columns::<5>(bits, stride),
            4 => flip_columns::<4>(bits, stride),
            8 => flip_columns::<8>(bits, stride),
            9 => flip_columns::<9>(bits, stride),
            3 => flip_columns::<3>(bits, stride),
            2 => flip_columns::<2>(bits, stride),
            _ => bits,
        }
    }

    /// A unique encoding of a position (Pons' key): the stones of the player to move plus the stones. In a
    /// column of `h` stones, holding the player to move's stones `s`, it is `2^h - 1 + s`, between `2^h - 1` and
    /// `2^(h+1) - 2`: those ranges do not overlap, so the column's value tells `h` and `s`, and it stays within
    /// the column's `H + 1` bits. An empty column is 0, so that a position whose last column is empty has a
    /// key below `2^(W-1)(H+1)`, which the tables' near part can hold (see [`ludus_framework::table::PackedTable`]).
    #[inline]
    pub(crate) fn encode(&self, board: &Board) -> u64 {
        board.current.wrapping_add(board.mask)
    }

    /// The position of an encoding, if it is one: in each column, a value `v` stands for `h = log2(v + 1)`
    /// stones (at most `H`), of which the player to move's are the bits of `v - (2^h - 1)`; nothing is set
    /// outside the columns.
    pub(crate) fn decode(&self, encoding: u64) -> Option<Board> {
        let stride = self.height + 1;
        let column = shift_left(1, stride).wrapping_sub(1);
        if encoding & !(self.board | shift_left(self.bottom, self.height)) != 0 {
            return None;
        }
        let mut board = Board::EMPTY;
        for index in 0..self.width {
            let value = shift_right(encoding, index * stride) & column;
            // `value + 1` is at most `2^(H+1)`, which is more stones than the column has.
            let height = value.checked_add(1)?.ilog2();
            if height > self.height {
                return None;
            }
            let stones = shift_left(1, height).wrapping_sub(1);
            board.mask |= shift_left(stones, index * stride);
            board.current |= shift_left(value - stones, index * stride);
        }
        Some(board)
    }

    /// Whether the player to move wins by playing `column` at once.
    pub(crate) fn wins_at_once(&self, board: &Board, column: u32) -> bool {
        self.winning_cells(board.current, board.mask) & self.playable_cells(board) & self.column_cells(column) != 0
    }

    /// Checks that `score` is possible for `board`: the winner's stone count is reachable, and an immediate
    /// win scores as one. A consistency check of an answer, not a proof of it (that takes a search).
    pub fn check_score(&self, board: &Board, score: i32) -> std::result::Result<(), Violation> {
        let played = board.stones();
        let (mover_now, opponent_now) = (played / 2, played - played / 2);
        let mover_max = (self.cells() - played).div_ceil(2) + mover_now;
        let opponent_max = (self.cells() - played) / 2 + opponent_now;
        let (mover_base, opponent_base) = (self.score_base_of(board, true), self.score_base_of(board, false));
        let over = self.has_four(board.opponent());
        let immediate = (0..self.width).any(|column| self.can_play(board, column) && self.wins_at_once(board, column));
        let score = i64::from(score);
        if over {
            let expected = -(opponent_base - i64::from(opponent_now));
            return if score == expected {
                Ok(())
            } else {
                Err(Violation::new(format!("the game is over, lost for the player to move: the score is {expected}")))
            };
        }
        if immediate {
            let expected = mover_base - i64::from(mover_now) - 1;
            return if score == expected {
                Ok(())
            } else {
                Err(Violation::new(format!("the player to move wins at once: the score is {expected}, not {score}")))
            };
        }
        let reachable = match score {
            0 => true,
            positive if positive > 0 => {
                (i64::from(mover_now) + 2..=i64::from(mover_max)).contains(&(mover_base - positive))
            }
            negative => (i64::from(opponent_now) + 1..=i64::from(opponent_max)).contains(&(opponent_base + negative)),
        };
        if reachable {
            Ok(())
        } else {
            Err(Violation::new(format!("no game from this position ends with the score {score}")))
        }
    }
}

impl Rules for ConnectFour {
    type Position = Board;
    /// A 0-based column.
    type Move = u8;
    type Outcome = Value;

    fn moves(&self, board: &Board, moves: &mut Vec<u8>) {
        // The width is at most 9, so every column fits a `u8`.
        for column in 0..self.width as u8 {
            if self.can_play(board, u32::from(column)) {
                moves.push(column);
            }
        }
    }

    fn play(&self, board: &Board, column: &u8) -> Board {
        self.drop_stone(board, u32::from(*column))
    }

    fn outcome(&self, board: &Board) -> Option<Value> {
        if self.has_four(board.opponent()) {
            Some(Value::LOST)
        } else if board.mask == self.board {
            Some(Value::Draw)
        } else {
            None
        }
    }
}

impl Game for ConnectFour {}

impl Canonicalize for ConnectFour {
    type Key = u64;

    /// The smaller of the encodings of the position and of its mirror image.
    fn canonical(&self, board: &Board) -> u64 {
        // Each column's part of the encoding stays within the column (no carry), so the mirror image's encoding
        // is the encoding with its columns reversed.
        let encoding = self.encode(board);
        encoding.min(self.flip(encoding))
    }
}

impl FromKey for ConnectFour {
    /// The key is the encoding of the position or of its mirror image: decoded, it is that image, whose key is
    /// the same. A key that is no position's encoding, or not the smaller of its two images', gives `None`.
    fn position_of_key(&self, key: &u64) -> Option<Board> {
        self.decode(*key).filter(|board| self.canonical(board) == *key)
    }
}

impl Tiers for ConnectFour {
    /// The number of stones on the board: every move goes to the next tier (each tier is solved in one pass).
    type Tier = u8;

    fn tier(&self, board: &Board) -> u8 {
        // At most 64 cells: a `u8`.
        board.stones() as u8
    }

    fn child_tiers(&self, stones: &u8) -> Vec<u8> {
        (u32::from(*stones) < self.cells()).then_some(stones + 1).into_iter().collect()
    }

    // Every move drops a stone.
    fn moves_stay_in(&self, _: &u8) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_framework::hints::NoHints;
    use ludus_framework::{SearchHints, Shortcut};

    #[test]
    fn mirror_is_an_involution_and_keys_agree() {
        let game = ConnectFour::standard();
        let board = game.parse_moves("4453221").unwrap();
        let mirrored = game.mirror(&board);
        assert_eq!(mirrored, game.parse_moves("4435667").unwrap());
        assert_eq!(game.mirror(&mirrored), board);
        assert_eq!(game.canonical(&board), game.canonical(&mirrored));
        assert_ne!(game.canonical(&board), game.canonical(&game.parse_moves("4453222").unwrap()));
    }

    #[test]
    fn winning_cells_and_four_in_a_row() {
        let game = ConnectFour::standard();
        // First player: columns 1, 2, 3 on the bottom row, the second player on top; column 4 completes the line.
        let board = game.parse_moves("112233").unwrap();
        assert!(game.wins_at_once(&board, 3));
        assert!(!game.wins_at_once(&board, 4));
        assert_eq!(game.shortcut(&board), Some(Shortcut::Exact(Value::Win(1))));
        assert_eq!(NoHints(&game).shortcut(&board), None);
        let after = game.parse_moves("1122334").unwrap();
        assert!(game.has_four(after.opponent()));
        assert_eq!(game.outcome(&after), Some(Value::LOST));
    }
}
