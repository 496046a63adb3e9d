//! [`Layout`]: how a [`super::PackedTable`] entry word divides into the key's tag, the two bound codes and the
//! work class, and the codes of scores.

use super::{work_class, Bounds, INFINITY, MATE};

/// Which way a score without a code is rounded: a lower bound may only go down, an upper bound only up.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Round {
    Down,
    Up,
}

/// The division of an entry word, from the high bits: the tag (`tag_bits`), the lower-bound code and the
/// upper-bound code (`code_bits` each), the work class (the rest, at least one bit).
///
/// A code of `code_bits` bits orders scores: 0 is `-INFINITY`; `1 + r` is a loss in `r` plies for
/// `r <=` [`Layout::longest_loss`]; `2^(code_bits - 1)` is a draw; `2^code_bits - 2 - r` is a win in `r`
/// plies for `r <=` [`Layout::longest_win`]; `2^code_bits - 1` is `INFINITY`. A score without a code is
/// rounded so that the bound stays true: a lower bound down (a slower loss to the longest loss, a slower win to
/// a draw), an upper bound up (a slower loss to a draw, a slower win to the longest win).
///
/// Invariant: `tag_bits + 2 * code_bits < 64`, and an encoded payload is never 0 (its work class is at
/// least 1), so the word 0 marks an empty entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Layout {
    tag_bits: u32,
    code_bits: u32,
}

impl Layout {
    /// 32-bit tags, 13-bit codes (losses up to 4094 plies, wins up to 4093), work classes 1 to 63.
    pub(super) const STANDARD: Layout = Layout { tag_bits: 32, code_bits: 13 };
    /// 40-bit tags, 11-bit codes (losses up to 1022 plies, wins up to 1021), work classes 1 to 3
    /// (a larger class is stored as 3).
    pub(super) const WIDE_TAGS: Layout = Layout { tag_bits: 40, code_bits: 11 };

    /// The bits of a tag.
    #[inline]
    pub(super) fn tag_bits(self) -> u32 {
        self.tag_bits
    }

    /// Where the tag starts.
    #[inline]
    pub(super) fn tag_shift(self) -> u32 {
        64 - self.tag_bits
    }

    /// The bits of the work class, the lowest of the word.
    #[inline]
    pub(super) fn work_mask(self) -> u64 {
        (1 << (64 - self.tag_bits - 2 * self.code_bits)) - 1
    }

    #[inline]
    fn code_mask(self) -> u64 {
        (1 << self.code_bits) - 1
    }

    #[inline]
    fn upper_shift(self) -> u32 {
        64 - self.tag_bits - 2 * self.code_bits
    }

    #[inline]
    fn lower_shift(self) -> u32 {
        self.upper_shift() + self.code_bits
    }

    #[inline]
    fn draw(self) -> u64 {
        1 << (self.code_bits - 1)
    }

    #[inline]
    fn quickest_win(self) -> u64 {
        self.code_mask() - 1
    }

    /// The slowest loss stored exactly, in plies.
    pub(super) const fn longest_loss(self) -> i32 {
        (1 << (self.code_bits - 1)) - 2
    }

    /// The slowest win stored exactly, in plies.
    pub(super) const fn longest_win(self) -> i32 {
        (1 << (self.code_bits - 1)) - 3
    }

    /// The payload (the bits below the tag) of `bounds`, rounded outwards, with the work class of `work`.
    #[inline]
    pub(super) fn encode(self, bounds: Bounds, work: u64) -> u64 {
        let class = u64::from(work_class(work)).min(self.work_mask());
        self.encode_score(bounds.lower, Round::Down) << self.lower_shift()
            | self.encode_score(bounds.upper, Round::Up) << self.upper_shift()
            | class
    }

    /// The bounds of an entry word (or of its payload).
    #[inline]
    pub(super) fn decode(self, word: u64) -> Bounds {
        Bounds {
            lower: self.decode_score(word >> self.lower_shift() & self.code_mask()),
            upper: self.decode_score(word >> self.upper_shift() & self.code_mask()),
        }
    }

    /// The code of a score, rounded in the given direction if the score has no code of its own.
    fn encode_score(self, score: i32, round: Round) -> u64 {
        if score <= -INFINITY {
            0
        } else if score >= INFINITY {
            self.code_mask()
        } else if score == 0 {
            self.draw()
        } else if score < 0 {
            // A loss in `remoteness` plies, 0 <= remoteness < MATE.
            let remoteness = MATE + score;
            if remoteness <= self.longest_loss() {
                1 + remoteness as u64
            } else if round == Round::Down {
                1 + self.longest_loss() as u64
            } else {
                self.draw()
            }
        } else {
            // A win in `remoteness` plies, 0 <= remoteness < MATE.
            let remoteness = MATE - score;
            if remoteness <= self.longest_win() {
                self.quickest_win() - remoteness as u64
            } else if round == Round::Down {
                self.draw()
            } else {
                self.draw() + 1
            }
        }
    }

    /// The score of a code (any value of `code_bits` bits).
    fn decode_score(self, code: u64) -> i32 {
        let (draw, quickest_win) = (self.draw(), self.quickest_win());
        match code {
            0 => -INFINITY,
            // A loss in `code - 1` plies; the code is below the draw's, at most 2^12, so the cast is exact.
            _ if code < draw => -(MATE - (code - 1) as i32),
            _ if code == draw => 0,
            // A win in `quickest_win - code` plies.
            _ if code <= quickest_win => MATE - (quickest_win - code) as i32,
            _ => INFINITY,
        }
    }
}
