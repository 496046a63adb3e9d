//! [`CompactKalah`]: Kalah with keys in a `u64`, for the lock-free [`ludus_framework::table::PackedTable`]
//! (one word an entry, shared by threads without locks) wherever they fit: Kalah(6, n) up to n = 6.
//!
//! A key is the board from the mover's side as three numbers: the mover's store `s`, the seeds in the pits `t`
//! (the endgame tier), and the rank `r` of the pits' counts among every way to lay `t` seeds in `2m` pits (the
//! endgame rank, `endgame.rs`), as `(s * (T + 1) + t) * S + r`, where `T` is every seed of the game and `S` the
//! size of the largest tier (`T` seeds in the pits). The other's store is what is left, so the key is
//! one-to-one, which the packed table's exact comparison of keys needs; it is below `(T + 1)^2 * S`, which
//! [`CompactKalah::new`] checks against `2^63`.

use super::rules::{Board, Pit};
use super::Kalah;
use ludus_framework::playable::{self, BoardForm, BoardMove, TextForm};
use ludus_framework::scored::{Deterministic, EndgameTiers, ScoredGame};
use ludus_framework::{Canonicalize, FromKey, Rules, SearchHints};
use ludus_framework::{Error, ParseError, Result};

/// Kalah with `u64` keys (the rules, scores, hints and endgame tiers are [`Kalah`]'s).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompactKalah {
    /// The game.
    pub game: Kalah,
    /// `T + 1`: the values a store or a tier may take.
    counts: u64,
    /// `S`: the size of the largest tier, the radix of the rank.
    largest_tier: u64,
}

impl CompactKalah {
    /// `game` with compact keys, if its keys fit (`(T + 1)^2 * S < 2^63`, see the module's documentation).
    pub fn new(game: Kalah) -> Result<CompactKalah> {
        let counts = u64::from(game.total()) + 1;
        let largest_tier = game.endgame_tier_size(game.total());
        let fits =
            largest_tier.and_then(|size| size.checked_mul(counts)?.checked_mul(counts)).filter(|&end| end < 1 << 63);
        match (fits, largest_tier) {
            (Some(_), Some(largest_tier)) => Ok(CompactKalah { game, counts, largest_tier }),
            _ => Err(Error::parameter(
                "kalah",
                format!("compact Kalah keys do not fit 64 bits for {} pits and {} seeds", game.pits(), game.seeds()),
            )),
        }
    }

    /// Whether `game`'s keys fit a `u64`.
    pub fn fits(game: Kalah) -> bool {
        CompactKalah::new(game).is_ok()
    }
}

impl Rules for CompactKalah {
    type Position = Board;
    type Move = Pit;
    type Outcome = i32;

    #[inline]
    fn outcome(&self, board: &Board) -> Option<i32> {
        self.game.outcome(board)
    }

    fn moves(&self, board: &Board, moves: &mut Vec<Pit>) {
        self.game.moves(board, moves);
    }

    #[inline]
    fn play(&self, board: &Board, pit: &Pit) -> Board {
        self.game.play(board, pit)
    }

    fn is_legal(&self, board: &Board, pit: &Pit) -> bool {
        self.game.is_legal(board, pit)
    }

    fn turn_passes(&self, from: &Board, to: &Board) -> bool {
        self.game.turn_passes(from, to)
    }
}

impl ScoredGame for CompactKalah {}

impl Deterministic for CompactKalah {}

impl Canonicalize for CompactKalah {
    type Key = u64;

    #[inline]
    fn canonical(&self, board: &Board) -> u64 {
        let store = u64::from(board.stores[board.side()]);
        let tier = u64::from(self.game.endgame_tier(board));
        (store * self.counts + tier) * self.largest_tier + self.game.endgame_rank(board)
    }
}

/// A board from its key: the mover as South, as [`Kalah`]'s own keys give it.
impl FromKey for CompactKalah {
    fn position_of_key(&self, key: &u64) -> Option<Board> {
        let rank = key % self.largest_tier;
        let rest = key / self.largest_tier;
        let (tier, store) = (rest % self.counts, rest / self.counts);
        let mut board = self.game.endgame_position(u32::try_from(tier).ok()?, rank)?;
        let other = u64::from(self.game.total()).checked_sub(tier + store)?;
        board.stores = [u8::try_from(store).ok()?, u8::try_from(other).ok()?];
        Some(board)
    }
}

impl SearchHints for CompactKalah {
    fn value_range(&self, board: &Board) -> (i32, i32) {
        self.game.value_range(board)
    }

    fn estimate(&self, board: &Board) -> Option<i32> {
        self.game.estimate(board)
    }

    fn history_slot(&self, board: &Board, pit: &Pit) -> Option<usize> {
        self.game.history_slot(board, pit)
    }

    fn move_score(&self, board: &Board, pit: &Pit) -> i32 {
        self.game.move_score(board, pit)
    }
}

impl EndgameTiers for CompactKalah {
    fn endgame_family(&self) -> String {
        self.game.endgame_family()
    }

    fn endgame_tier(&self, board: &Board) -> u32 {
        self.game.endgame_tier(board)
    }

    fn endgame_tier_size(&self, tier: u32) -> Option<u64> {
        self.game.endgame_tier_size(tier)
    }

    fn endgame_rank(&self, board: &Board) -> u64 {
        self.game.endgame_rank(board)
    }

    fn endgame_position(&self, tier: u32, rank: u64) -> Option<Board> {
        self.game.endgame_position(tier, rank)
    }

    fn banked(&self, board: &Board) -> i32 {
        self.game.banked(board)
    }
}

/// Kalah's text of positions and moves.
impl TextForm for CompactKalah {
    fn start(&self) -> Board {
        self.game.start()
    }

    fn parse_position(&self, text: &str) -> std::result::Result<Board, ParseError> {
        self.game.parse_position(text)
    }

    fn draw_position(&self, board: &Board) -> String {
        self.game.draw_position(board)
    }

    fn parse_move(&self, board: &Board, text: &str) -> std::result::Result<Pit, ParseError> {
        self.game.parse_move(board, text)
    }

    fn render_move(&self, board: &Board, pit: &Pit) -> String {
        self.game.render_move(board, pit)
    }
}

/// Kalah's board on the explorer's page.
impl BoardForm for CompactKalah {
    fn board(&self, board: &Board) -> playable::Board {
        self.game.board(board)
    }

    fn board_move(&self, board: &Board, pit: &Pit) -> BoardMove {
        self.game.board_move(board, pit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kalah::Capture;

    /// Every position of a line of play keys one-to-one, back to the same board from the mover's side.
    #[test]
    fn keys_round_trip_and_separate_boards() {
        for (pits, seeds) in [(3, 2), (4, 3), (6, 4), (6, 6)] {
            let game = CompactKalah::new(Kalah::new(pits, seeds).unwrap().with_capture(Capture::Always)).unwrap();
            let mut seen = std::collections::HashMap::new();
            let mut board = game.start();
            let mut moves = Vec::new();
            let mut step = 0usize;
            while game.outcome(&board).is_none() {
                let key = game.canonical(&board);
                let back = game.checked_position_of_key(&key).unwrap();
                assert_eq!(game.game.canonical(&back), game.game.canonical(&board), "{pits} {seeds}: {board:?}");
                if let Some(other) = seen.insert(key, game.game.canonical(&board)) {
                    assert_eq!(other, game.game.canonical(&board), "two boards, one key");
                }
                moves.clear();
                game.moves(&board, &mut moves);
                board = game.play(&board, &moves[(step * 7 + 3) % moves.len()]);
                step += 1;
            }
        }
    }

    #[test]
    fn the_largest_boards_are_refused() {
        assert!(CompactKalah::fits(Kalah::new(6, 6).unwrap()));
        assert!(!CompactKalah::fits(Kalah::new(7, 12).unwrap()));
    }
}
