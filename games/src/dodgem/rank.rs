//! Dodgem's dense numbering of each tier's keys ([`Rank`]), by the combinatorial number system.
//!
//! A key of tier `(more, fewer)` holds the mover's cars (as Blue, low 64 bits) and the other's (as Red, high 64
//! bits), `a` and `b` of them, `{a, b} = {more, fewer}`, on `N = n * n` cells. Its rank is, from the most
//! significant digit: which side has more cars (only when the counts differ: block 0 when the mover has
//! `more`), the mover's cells as an `a`-combination of the `N` cells, and the other's cells as a
//! `b`-combination of the `N - a` cells the mover leaves free. Each combination is ranked in colexicographic
//! order (`sum C(cell_i, i)` over its cells in increasing order, `i` from 1), so the rank space of a tier is
//! exactly its number of keys: `C(N, a) * C(N - a, b)` arrangements, twice that when `a != b`. Every key is a
//! rank and every rank a key; whether its position is reachable is not asked.

use super::Dodgem;
use ludus_framework::engines::retrograde::Rank;

/// The most cars a side has: `n - 1` on the largest board.
const MOST_CARS: usize = 7;

/// The most cells of a board.
const MOST_CELLS: usize = 64;

/// `C(n, k)` for `n <= 64` and `k <= 7`, computed when compiled (Pascal's triangle).
const BINOMIALS: [[u64; MOST_CARS + 1]; MOST_CELLS + 1] = binomials();

const fn binomials() -> [[u64; MOST_CARS + 1]; MOST_CELLS + 1] {
    let mut table = [[0u64; MOST_CARS + 1]; MOST_CELLS + 1];
    let mut n = 0;
    while n <= MOST_CELLS {
        table[n][0] = 1;
        let mut k = 1;
        while k <= MOST_CARS && n > 0 {
            table[n][k] = table[n - 1][k - 1] + table[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    table
}

/// `C(n, k)`: 0 when `k > n`, and (never asked) beyond the table.
fn binomial(n: u32, k: u32) -> u64 {
    BINOMIALS.get(n as usize).and_then(|row| row.get(k as usize)).copied().unwrap_or(0)
}

/// The colexicographic rank of the cells of `mask` among the `k`-combinations, `k` its number of cells.
#[inline]
fn colex_rank(mut mask: u64) -> u64 {
    let (mut rank, mut place) = (0, 1);
    while mask != 0 {
        rank += binomial(mask.trailing_zeros(), place);
        place += 1;
        mask &= mask - 1;
    }
    rank
}

/// The `count`-combination of `cells` cells of colexicographic rank `rank`, as a mask; `None` past the last.
fn colex_unrank(mut rank: u64, count: u32, cells: u32) -> Option<u64> {
    if rank >= binomial(cells, count) || cells as usize > MOST_CELLS {
        return None;
    }
    let mut mask = 0;
    let mut cell = cells;
    for place in (1..=count).rev() {
        // The largest cell below the one chosen last with C(cell, place) <= rank; it is at least place - 1,
        // where the binomial is 0, and the one chosen last was at least place.
        cell -= 1;
        while binomial(cell, place) > rank {
            cell -= 1;
        }
        mask |= 1 << cell;
        rank -= binomial(cell, place);
    }
    Some(mask)
}

/// `mask`'s cells numbered among the cells of `free` (a cell of `free` becomes the count of `free` cells below it).
#[inline]
fn compress(mut mask: u64, free: u64) -> u64 {
    let mut out = 0;
    while mask != 0 {
        let below = (mask & mask.wrapping_neg()) - 1;
        out |= 1 << (free & below).count_ones();
        mask &= mask - 1;
    }
    out
}

/// The inverse of [`compress`]: bit `j` of `compressed` becomes the `j`-th cell of `free`.
#[inline]
fn expand(compressed: u64, mut free: u64) -> u64 {
    let (mut out, mut place) = (0, 0);
    while free != 0 {
        if compressed >> place & 1 == 1 {
            out |= free & free.wrapping_neg();
        }
        place += 1;
        free &= free - 1;
    }
    out
}

impl Dodgem {
    /// The cells of the board as a mask.
    fn board(&self) -> u64 {
        u64::MAX >> (64 - u32::from(self.size) * u32::from(self.size))
    }

    /// The number of keys with `mine` cars for the mover and `theirs` for the other, if any can be.
    fn arrangements(&self, mine: u32, theirs: u32) -> Option<u64> {
        let cells = u32::from(self.size) * u32::from(self.size);
        let most = u32::from(self.size) - 1;
        if mine > most || theirs > most {
            return None;
        }
        binomial(cells, mine).checked_mul(binomial(cells - mine, theirs))
    }
}

impl Rank for Dodgem {
    /// `C(N, more) * C(N - more, fewer)`, twice that when `more != fewer` (either side may have more); 0 for a
    /// pair of counts that is no tier.
    fn tier_size(&self, &(more, fewer): &(u8, u8)) -> u64 {
        if fewer > more {
            return 0;
        }
        let arrangements = self.arrangements(u32::from(more), u32::from(fewer)).unwrap_or(0);
        let blocks = if more == fewer { 1 } else { 2 };
        arrangements.saturating_mul(blocks)
    }

    fn rank(&self, &(more, fewer): &(u8, u8), key: &u128) -> Option<u64> {
        let (mine, theirs) = (*key as u64, (*key >> 64) as u64);
        let board = self.board();
        if (mine | theirs) & !board != 0 || mine & theirs != 0 || fewer > more {
            return None;
        }
        let counts = (mine.count_ones(), theirs.count_ones());
        let block = match counts {
            _ if counts == (u32::from(more), u32::from(fewer)) => 0,
            _ if counts == (u32::from(fewer), u32::from(more)) => 1,
            _ => return None,
        };
        let arrangements = self.arrangements(counts.0, counts.1)?;
        let cells = u32::from(self.size) * u32::from(self.size);
        let per_mover = binomial(cells - counts.0, counts.1);
        let within = colex_rank(mine) * per_mover + colex_rank(compress(theirs, board & !mine));
        Some(block * arrangements + within)
    }

    fn unrank(&self, &(more, fewer): &(u8, u8), rank: u64) -> Option<u128> {
        if fewer > more {
            return None;
        }
        let arrangements = self.arrangements(u32::from(more), u32::from(fewer)).filter(|&count| count > 0)?;
        let (mine, theirs) = match rank / arrangements {
            0 => (u32::from(more), u32::from(fewer)),
            1 if more != fewer => (u32::from(fewer), u32::from(more)),
            _ => return None,
        };
        let within = rank % arrangements;
        let cells = u32::from(self.size) * u32::from(self.size);
        let per_mover = binomial(cells - mine, theirs);
        let mover = colex_unrank(within / per_mover, mine, cells)?;
        let other = expand(colex_unrank(within % per_mover, theirs, cells - mine)?, self.board() & !mover);
        Some(u128::from(mover) | u128::from(other) << 64)
    }
}
