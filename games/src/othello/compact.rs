//! [`CompactOthello`]: Othello up to 6 x 6 with keys in a `u64`, for the lock-free
//! [`ludus_framework::table::PackedTable`]. A key is the board from the mover's side in base 3 (a cell's digit:
//! 0 empty, 1 the mover's, 2 the other's; cell `row * n + column` the digit of weight `3^(row * n + column)`),
//! below `3^36 < 2^58`: one-to-one, so the packed table's exact comparison of keys holds.

use super::rules::{Discs, OthelloMove};
use super::Othello;
use ludus_framework::scored::{Deterministic, Player, ScoredCanonicalize, ScoredGame, ScoredHints};
use ludus_framework::{Error, Result};

/// Per 6-bit row of one player's discs, the row's base-3 value with digit 1 for each disc.
const TERNARY: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut bits = 0;
    while bits < 64 {
        let (mut value, mut weight, mut bit) = (0, 1, 0);
        while bit < 6 {
            if bits & (1 << bit) != 0 {
                value += weight;
            }
            weight *= 3;
            bit += 1;
        }
        table[bits] = value;
        bits += 1;
    }
    table
};

/// Othello of a side at most 6, with `u64` keys (the rules, scores and hints are [`Othello`]'s).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompactOthello {
    /// The game.
    pub game: Othello,
    /// `3^size`, the weight of a row.
    row_weight: u64,
}

impl CompactOthello {
    /// `game` with compact keys, for sides up to 6 (a larger board's keys do not fit a `u64`).
    pub fn new(game: Othello) -> Result<CompactOthello> {
        if game.size() > 6 {
            return Err(Error::Parameter(format!("compact Othello keys fit boards up to 6 x 6, not {0} x {0}", game.size())));
        }
        Ok(CompactOthello { row_weight: 3u64.pow(game.size()), game })
    }
}

impl ScoredGame for CompactOthello {
    type Position = Discs;
    type Move = OthelloMove;

    fn mover(&self, position: &Discs) -> Player {
        self.game.mover(position)
    }

    #[inline]
    fn score(&self, position: &Discs) -> Option<i32> {
        self.game.score(position)
    }

    fn moves(&self, position: &Discs, moves: &mut Vec<OthelloMove>) {
        self.game.moves(position, moves);
    }

    #[inline]
    fn play(&self, position: &Discs, mv: &OthelloMove) -> Discs {
        self.game.play(position, mv)
    }

    fn is_legal(&self, position: &Discs, mv: &OthelloMove) -> bool {
        self.game.is_legal(position, mv)
    }
}

impl Deterministic for CompactOthello {}

impl ScoredHints for CompactOthello {
    fn score_range(&self, position: &Discs) -> (i32, i32) {
        self.game.score_range(position)
    }

    #[inline]
    fn exact(&self, position: &Discs) -> Option<i32> {
        self.game.exact(position)
    }

    #[inline]
    fn search_moves(&self, position: &Discs, moves: &mut Vec<OthelloMove>, scores: &mut Vec<i32>) {
        self.game.search_moves(position, moves, scores);
    }
}

impl ScoredCanonicalize for CompactOthello {
    type Key = u64;

    #[inline]
    fn canonical(&self, position: &Discs) -> u64 {
        let mut key = 0;
        for row in (0..self.game.size()).rev() {
            let shift = 8 * row;
            let mine = ((position.mover >> shift) & 0x3f) as usize;
            let theirs = ((position.other >> shift) & 0x3f) as usize;
            key = key * self.row_weight + TERNARY[mine] + 2 * TERNARY[theirs];
        }
        key
    }
}
