//! [`CompactOthello`]: Othello up to 6 x 6 with keys in a `u64`, for the lock-free
//! [`ludus_framework::table::PackedTable`]. A key is the board from the mover's side in base 3 (a cell's digit:
//! 0 empty, 1 the mover's, 2 the other's; cell `row * n + column` the digit of weight `3^(row * n + column)`),
//! below `3^36 < 2^58`: one-to-one, so the packed table's exact comparison of keys holds.
//!
//! In the opening (the first [`SYMMETRIC_PLIES`] plies' worth of empty cells, see
//! [`CompactOthello::symmetric_from`]) the key is the smallest over the square's 8 symmetries, so that symmetric
//! openings share their entries (the four first moves of the start are symmetric); later, the plain key (the
//! symmetries would cost more than they find). Mixing the two is sound: every key is the plain key of exactly
//! one position, and a position whose key it is as a smallest image is symmetric to it, so equal keys still
//! mean equal values.

use super::rules::{Discs, OthelloMove};
use super::Othello;
use ludus_framework::hints::Shortcut;
use ludus_framework::playable::{Board, BoardForm, BoardMove, TextForm};
use ludus_framework::scored::{Deterministic, Player, ScoredGame};
use ludus_framework::Canonicalize;
use ludus_framework::Rules;
use ludus_framework::{Error, ParseError, Result};
use ludus_framework::{SearchHints, SmallSearch};

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

/// How many plies from the start the keys take the smallest image over the symmetries.
pub const SYMMETRIC_PLIES: u32 = 10;

/// Othello of a side at most 6, with `u64` keys (the rules, scores and hints are [`Othello`]'s).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompactOthello {
    /// The game.
    pub game: Othello,
    /// `3^size`, the weight of a row.
    row_weight: u64,
    /// Positions with at least this many empty cells get the smallest key over the symmetries.
    symmetric_from: u32,
}

impl CompactOthello {
    /// The largest side whose keys fit a `u64` (`3^36 < 2^64 < 3^49`).
    pub const LARGEST_SIZE: u32 = 6;

    /// `game` with compact keys, for sides up to [`CompactOthello::LARGEST_SIZE`] (a larger board's keys do not
    /// fit a `u64`).
    pub fn new(game: Othello) -> Result<CompactOthello> {
        if game.size() > Self::LARGEST_SIZE {
            return Err(Error::parameter(
                "othello",
                format!("compact Othello keys fit boards up to 6 x 6, not {0} x {0}", game.size()),
            ));
        }
        let symmetric_from = (game.size() * game.size()).saturating_sub(4 + SYMMETRIC_PLIES);
        Ok(CompactOthello { row_weight: 3u64.pow(game.size()), symmetric_from, game })
    }

    /// Positions with at least this many empty cells have keys over the symmetries.
    pub fn symmetric_from(&self) -> u32 {
        self.symmetric_from
    }

    /// The plain key of the discs `mover` and `other`.
    #[inline]
    fn plain_key(&self, mover: u64, other: u64) -> u64 {
        let mut key = 0;
        for row in (0..self.game.size()).rev() {
            let shift = 8 * row;
            let mine = ((mover >> shift) & 0x3f) as usize;
            let theirs = ((other >> shift) & 0x3f) as usize;
            key = key * self.row_weight + TERNARY[mine] + 2 * TERNARY[theirs];
        }
        key
    }

    /// `discs` under the symmetry `symmetry` (bit 0: rows upside down, bit 1: columns mirrored, bit 2: the
    /// board transposed first).
    fn image(&self, discs: u64, symmetry: u32) -> u64 {
        let gap = 8 - self.game.size();
        let mut image = if symmetry & 4 != 0 { transpose(discs) } else { discs };
        if symmetry & 1 != 0 {
            image = image.swap_bytes() >> (8 * gap);
        }
        if symmetry & 2 != 0 {
            image = image.reverse_bits().swap_bytes() >> gap;
        }
        image
    }
}

/// The 8 x 8 layout transposed (row and column swapped), by the three delta swaps of the chess programmers'
/// diagonal flip.
fn transpose(mut discs: u64) -> u64 {
    let swap = |discs: u64, mask: u64, shift: u32| {
        let moved = mask & (discs ^ (discs << shift));
        discs ^ moved ^ (moved >> shift)
    };
    discs = swap(discs, 0x0f0f_0f0f_0000_0000, 28);
    discs = swap(discs, 0x3333_0000_3333_0000, 14);
    swap(discs, 0x5500_5500_5500_5500, 7)
}

impl Rules for CompactOthello {
    type Position = Discs;
    type Move = OthelloMove;
    type Outcome = i32;

    #[inline]
    fn outcome(&self, position: &Discs) -> Option<i32> {
        self.game.outcome(position)
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

    fn turn_passes(&self, from: &Self::Position, to: &Self::Position) -> bool {
        self.mover(from) != self.mover(to)
    }
}

impl ScoredGame for CompactOthello {}

impl CompactOthello {
    /// The player to move (the one whose view every score of the position takes).
    pub fn mover(&self, position: &Discs) -> Player {
        self.game.mover(position)
    }
}

impl Deterministic for CompactOthello {}

impl SearchHints for CompactOthello {
    fn value_range(&self, position: &Discs) -> (i32, i32) {
        self.game.value_range(position)
    }

    #[inline]
    fn shortcut(&self, position: &Discs) -> Option<Shortcut<i32>> {
        self.game.shortcut(position)
    }

    #[inline]
    fn small_search(&self, position: &Discs, alpha: i32, beta: i32) -> Option<SmallSearch<i32>> {
        self.game.small_search(position, alpha, beta)
    }

    fn estimate(&self, position: &Discs) -> Option<i32> {
        self.game.estimate(position)
    }

    #[inline]
    fn search_moves(&self, position: &Discs, moves: &mut Vec<OthelloMove>, scores: &mut Vec<i32>) {
        self.game.search_moves(position, moves, scores);
    }
}

impl Canonicalize for CompactOthello {
    type Key = u64;

    #[inline]
    fn canonical(&self, position: &Discs) -> u64 {
        if position.empty(self.game.all_cells()).count_ones() < self.symmetric_from {
            return self.plain_key(position.mover, position.other);
        }
        (0..8)
            .map(|symmetry| self.plain_key(self.image(position.mover, symmetry), self.image(position.other, symmetry)))
            .min()
            .unwrap_or(0)
    }
}

/// The text of Othello's positions and moves.
impl TextForm for CompactOthello {
    fn start(&self) -> Discs {
        self.game.start()
    }

    fn parse_position(&self, text: &str) -> std::result::Result<Discs, ParseError> {
        self.game.parse_position(text)
    }

    fn draw_position(&self, position: &Discs) -> String {
        self.game.draw_position(position)
    }

    fn parse_move(&self, position: &Discs, text: &str) -> std::result::Result<OthelloMove, ParseError> {
        self.game.parse_move(position, text)
    }

    fn render_move(&self, position: &Discs, mv: &OthelloMove) -> String {
        self.game.render_move(position, mv)
    }
}

/// Othello's board on the explorer's page.
impl BoardForm for CompactOthello {
    fn board(&self, position: &Discs) -> Board {
        self.game.board(position)
    }

    fn board_move(&self, position: &Discs, mv: &OthelloMove) -> BoardMove {
        self.game.board_move(position, mv)
    }
}
