//! Connect Four's dense numbering of each tier's positions ([`Rank`]) and its un-moves ([`Retrograde`]).
//!
//! A position of tier `n` (stones on the board) is its column heights `h_0..h_{W-1}` (each at most `H`,
//! summing to `n`) and which of its `n` stones, taken column by column from the bottom up, are the player to
//! move's: `n / 2` of them, since the first player has moved as often as the second or once more. Its rank is
//! the heights' place among the height vectors of sum `n` in lexicographic order ([`HeightTable`]: the number
//! of vectors of `c` columns summing to `s`), times `C(n, n / 2)`, plus the colex rank of the mover's stones
//! among the `n`. The rank space of a tier is `heights(n) * C(n, n / 2)`: every encoding with those counts, a
//! mirror image and positions no game reaches included (the key is the smaller of the two mirror images'
//! encodings, so about half the ranks are keys; BENCHMARKS.md gives the fraction reachable).
//!
//! Un-moves: the last mover's stone on top of a column is lifted, unless the position before was already
//! over.

use super::{Board, ConnectFour};
use ludus_framework::engines::retrograde::{Rank, Retrograde};
use ludus_framework::Rules;

/// The most columns (the plugin's limit).
const MOST_COLUMNS: usize = 9;

/// The most stones: `W * H <= 64 - W`.
const MOST_STONES: usize = 64;

/// `C(n, k)` for `n, k <= 64`, computed when compiled (Pascal's triangle; `C(64, 32)` fits 64 bits).
static BINOMIALS: [[u64; MOST_STONES + 1]; MOST_STONES + 1] = binomials();

const fn binomials() -> [[u64; MOST_STONES + 1]; MOST_STONES + 1] {
    let mut table = [[0u64; MOST_STONES + 1]; MOST_STONES + 1];
    let mut n = 0;
    while n <= MOST_STONES {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1].saturating_add(table[n - 1][k]);
            k += 1;
        }
        n += 1;
    }
    table
}

/// `C(n, k)`, 0 beyond the table.
fn binomial(n: u32, k: u32) -> u64 {
    BINOMIALS.get(n as usize).and_then(|row| row.get(k as usize)).copied().unwrap_or(0)
}

/// The numbers of height vectors of a board, summed: `below[c][s]` vectors of `c` columns, each at most `H`
/// high, summing to less than `s` (at most `(H + 1)^W`, below 2^32 for every board of the plugin). The vectors
/// summing to `s` exactly are `below[c][s + 1] - below[c][s]`; those whose first column is below `h` among the
/// vectors of sum `s`, a difference of two entries.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct HeightTable {
    below: [[u32; MOST_STONES + 2]; MOST_COLUMNS + 1],
}

impl std::fmt::Debug for HeightTable {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("HeightTable")
    }
}

impl HeightTable {
    /// The table of a `width x height` board (columns past [`MOST_COLUMNS`] and sums past [`MOST_STONES`] are
    /// left out: such boards do not rank).
    pub(crate) fn new(width: u32, height: u32) -> HeightTable {
        let mut count = [[0u64; MOST_STONES + 1]; MOST_COLUMNS + 1];
        count[0][0] = 1;
        for columns in 1..=(width as usize).min(MOST_COLUMNS) {
            for sum in 0..=MOST_STONES {
                count[columns][sum] = (0..=(height as usize).min(sum)).map(|top| count[columns - 1][sum - top]).sum();
            }
        }
        let mut below = [[0u32; MOST_STONES + 2]; MOST_COLUMNS + 1];
        for (row, counts) in below.iter_mut().zip(&count) {
            for sum in 0..=MOST_STONES {
                row[sum + 1] = u32::try_from(u64::from(row[sum]) + counts[sum]).unwrap_or(u32::MAX);
            }
        }
        HeightTable { below }
    }

    /// The number of vectors of `columns` columns summing to less than `sum`.
    #[inline]
    fn under(&self, columns: u32, sum: u32) -> u64 {
        self.below.get(columns as usize).and_then(|row| row.get(sum as usize)).map_or(0, |&count| u64::from(count))
    }

    /// The number of vectors of `columns` columns summing to `sum`.
    #[inline]
    fn vectors(&self, columns: u32, sum: u32) -> u64 {
        self.under(columns, sum + 1) - self.under(columns, sum)
    }

    /// The number of vectors of `columns` columns summing to `sum - h` for `h` from 0 to `top - 1`: those that
    /// come before a column of height `top` over them, when `sum` stones are left.
    #[inline]
    fn before(&self, columns: u32, sum: u32, top: u32) -> u64 {
        self.under(columns, sum + 1) - self.under(columns, (sum + 1).saturating_sub(top))
    }
}

impl ConnectFour {
    /// Whether this board's tiers rank (at most [`MOST_COLUMNS`] columns).
    fn ranks(&self) -> bool {
        self.width() as usize <= MOST_COLUMNS
    }

    /// The column heights and the mover's stones of an encoding (the key's form), or `None` if it is none.
    fn columns_of(&self, key: u64) -> Option<([u32; MOST_COLUMNS], u64)> {
        let stride = self.height() + 1;
        let column_bits = (1u64 << stride) - 1;
        let mut heights = [0u32; MOST_COLUMNS];
        let mut mover = 0u64;
        let mut stones = 0;
        for (column, height) in heights.iter_mut().enumerate().take(self.width() as usize) {
            // A column of `h` stones is `2^h - 1` plus the mover's stones there (see `ConnectFour::encode`).
            let bits = (key >> (column as u32 * stride)) & column_bits;
            *height = bits.checked_add(1)?.ilog2();
            if *height > self.height() {
                return None;
            }
            mover |= (bits - ((1 << *height) - 1)) << stones;
            stones += *height;
        }
        (key >> (self.width() * stride) == 0).then_some((heights, mover))
    }
}

/// The colex rank of the set bits of `mask` among the sets of as many bits.
fn colex_rank(mut mask: u64) -> u64 {
    let (mut rank, mut place) = (0, 1);
    while mask != 0 {
        rank += binomial(mask.trailing_zeros(), place);
        place += 1;
        mask &= mask - 1;
    }
    rank
}

/// The set of `count` bits among `bits` of colex rank `rank`; `None` past the last.
fn colex_unrank(mut rank: u64, count: u32, bits: u32) -> Option<u64> {
    if rank >= binomial(bits, count) {
        return None;
    }
    let (mut mask, mut bit) = (0, bits);
    for place in (1..=count).rev() {
        bit -= 1;
        while binomial(bit, place) > rank {
            bit -= 1;
        }
        mask |= 1 << bit;
        rank -= binomial(bit, place);
    }
    Some(mask)
}

impl Rank for ConnectFour {
    /// The height vectors of sum `stones` times `C(stones, stones / 2)`; 0 for a board that does not rank.
    fn tier_size(&self, &stones: &u8) -> u64 {
        let stones = u32::from(stones);
        if !self.ranks() || stones > self.cells() {
            return 0;
        }
        self.heights.vectors(self.width(), stones).saturating_mul(binomial(stones, stones / 2))
    }

    fn rank(&self, &stones: &u8, key: &u64) -> Option<u64> {
        let stones = u32::from(stones);
        if !self.ranks() || stones > self.cells() {
            return None;
        }
        let (heights, mover) = self.columns_of(*key)?;
        if mover.count_ones() != stones / 2 || heights.iter().sum::<u32>() != stones {
            return None;
        }
        let (mut place, mut left) = (0u64, stones);
        let width = self.width();
        for (column, &height) in heights.iter().enumerate().take(width as usize) {
            place += self.heights.before(width - 1 - column as u32, left, height);
            left -= height;
        }
        Some(place * binomial(stones, stones / 2) + colex_rank(mover))
    }

    fn unrank(&self, &stones: &u8, rank: u64) -> Option<u64> {
        let stones = u32::from(stones);
        if rank >= self.tier_size(&(stones as u8)) {
            return None;
        }
        let colourings = binomial(stones, stones / 2);
        let (mut place, colouring) = (rank / colourings, rank % colourings);
        let mut mover = colex_unrank(colouring, stones / 2, stones)?;
        let (width, stride) = (self.width(), self.height() + 1);
        let (mut key, mut left) = (0u64, stones);
        for column in 0..width {
            let after = width - 1 - column;
            let mut height = 0;
            while place >= self.heights.vectors(after, left - height) {
                place -= self.heights.vectors(after, left - height);
                height += 1;
                if height > self.height() || height > left {
                    return None;
                }
            }
            let own = mover & ((1 << height) - 1);
            mover >>= height;
            // The encoding of a column: its stones (`2^h - 1`) plus the mover's.
            key |= (((1 << height) - 1) + own) << (column * stride);
            left -= height;
        }
        Some(key)
    }
}

impl Retrograde for ConnectFour {
    fn parents(&self, board: &Board, parents: &mut Vec<Board>) {
        let last_mover = board.opponent();
        for column in 0..self.width() {
            let cells = board.mask & self.column_cells(column);
            if cells == 0 {
                continue;
            }
            let top = 1u64 << cells.ilog2();
            if last_mover & top == 0 {
                continue;
            }
            let parent = Board { current: last_mover ^ top, mask: board.mask ^ top };
            if self.outcome(&parent).is_none() {
                parents.push(parent);
            }
        }
    }
}
