//! The combinatorial number system over the cells of a board, shared by the games that rank their tiers by
//! where each side's pieces stand (Quixo, Teeko): a set of `k` cells among `n` is numbered in colexicographic
//! order (`sum C(cell_i, i)` over its cells in increasing order, `i` from 1), so the `C(n, k)` sets get the
//! ranks `0..C(n, k)` exactly, and a pair of disjoint sets is numbered by the first among all cells and the
//! second among the cells the first leaves free.

/// The most cells of a board this numbering handles (a 5 x 5 board).
pub const MOST_CELLS: u32 = 25;

/// `C(n, k)` for `n, k <= 25`, computed when compiled (Pascal's triangle).
const BINOMIALS: [[u64; MOST_CELLS as usize + 1]; MOST_CELLS as usize + 1] = binomials();

const fn binomials() -> [[u64; MOST_CELLS as usize + 1]; MOST_CELLS as usize + 1] {
    let size = MOST_CELLS as usize + 1;
    let mut table = [[0u64; MOST_CELLS as usize + 1]; MOST_CELLS as usize + 1];
    let mut n = 0;
    while n < size {
        table[n][0] = 1;
        let mut k = 1;
        while k < size && n > 0 {
            table[n][k] = table[n - 1][k - 1] + table[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    table
}

/// `C(n, k)`: 0 when `k > n` or beyond the table.
pub fn binomial(n: u32, k: u32) -> u64 {
    BINOMIALS.get(n as usize).and_then(|row| row.get(k as usize)).copied().unwrap_or(0)
}

/// The cells of `mask`, lowest first.
pub fn cells(mask: u32) -> impl Iterator<Item = u32> {
    (0..32).filter(move |cell| mask >> cell & 1 != 0)
}

/// The colexicographic rank of the cells of `mask` (on the board: below [`MOST_CELLS`]) among the sets of as
/// many cells. The hot loop of a solve by rank: one step per set bit.
#[inline]
fn colex_rank(mut mask: u32) -> u64 {
    let mut rank = 0;
    let mut place = 1;
    while mask != 0 {
        let cell = mask.trailing_zeros() as usize;
        rank += BINOMIALS.get(cell).and_then(|row| row.get(place)).copied().unwrap_or(0);
        place += 1;
        mask &= mask - 1;
    }
    rank
}

/// The set of `count` cells among `cells` of colexicographic rank `rank`, as a mask; `None` past the last.
fn colex_unrank(mut rank: u64, count: u32, cells: u32) -> Option<u32> {
    if cells > MOST_CELLS || rank >= binomial(cells, count) {
        return None;
    }
    let mut mask = 0;
    let mut cell = cells;
    for place in (1..=count).rev() {
        // The largest cell below the one chosen last with C(cell, place) <= rank: at least place - 1, where
        // the binomial is 0, since the one chosen last was at least place.
        cell -= 1;
        while binomial(cell, place) > rank {
            cell -= 1;
        }
        mask |= 1 << cell;
        rank -= binomial(cell, place);
    }
    Some(mask)
}

/// `mask`'s cells numbered among the cells of `free` (a cell of `free` becomes the count of `free` cells below
/// it).
#[inline]
fn compress(mut mask: u32, free: u32) -> u32 {
    let mut out = 0;
    while mask != 0 {
        let below = (mask & mask.wrapping_neg()) - 1;
        out |= 1 << (free & below).count_ones();
        mask &= mask - 1;
    }
    out
}

/// The inverse of [`compress`]: bit `j` of `compressed` becomes the `j`-th cell of `free`.
fn expand(compressed: u32, free: u32) -> u32 {
    cells(free).enumerate().filter(|&(place, _)| compressed >> place & 1 == 1).fold(0, |out, (_, cell)| out | 1 << cell)
}

/// The number of pairs of disjoint sets of `first` and `second` cells among `cells`.
pub fn pairs(cells: u32, first: u32, second: u32) -> u64 {
    match cells.checked_sub(first) {
        Some(left) if cells <= MOST_CELLS => binomial(cells, first).saturating_mul(binomial(left, second)),
        _ => 0,
    }
}

/// The rank of the disjoint pair `(first, second)` of masks of the board of `cells` cells among the pairs of
/// as many cells each: below [`pairs`]; `None` if the masks overlap or leave the board.
#[inline]
pub fn pair_rank(cells: u32, first: u32, second: u32) -> Option<u64> {
    let board = u32::MAX.checked_shr(32 - cells.min(MOST_CELLS)).unwrap_or(0);
    if cells > MOST_CELLS || (first | second) & !board != 0 || first & second != 0 {
        return None;
    }
    let per_first = binomial(cells - first.count_ones(), second.count_ones());
    Some(colex_rank(first) * per_first + colex_rank(compress(second, board & !first)))
}

/// The inverse of [`pair_rank`] for sets of `first` and `second` cells; `None` past the last pair.
pub fn pair_unrank(cells: u32, first: u32, second: u32, rank: u64) -> Option<(u32, u32)> {
    if rank >= pairs(cells, first, second) {
        return None;
    }
    let board = u32::MAX.checked_shr(32 - cells).unwrap_or(0);
    let per_first = binomial(cells - first, second);
    let first_mask = colex_unrank(rank / per_first, first, cells)?;
    let second_mask = expand(colex_unrank(rank % per_first, second, cells - first)?, board & !first_mask);
    Some((first_mask, second_mask))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_numbered_one_to_one() {
        for (cells, first, second) in [(9, 3, 2), (9, 0, 4), (9, 9, 0), (16, 2, 3), (4, 1, 1), (25, 1, 0)] {
            let count = pairs(cells, first, second);
            let mut seen = std::collections::HashSet::new();
            for rank in 0..count {
                let (a, b) = pair_unrank(cells, first, second, rank).unwrap();
                assert_eq!((a.count_ones(), b.count_ones(), a & b), (first, second, 0));
                assert_eq!(pair_rank(cells, a, b), Some(rank));
                assert!(seen.insert((a, b)));
            }
            assert_eq!(pair_unrank(cells, first, second, count), None);
        }
        assert_eq!(pairs(9, 3, 3), 84 * 20);
        assert_eq!(pairs(25, 4, 4), 12_650 * 5_985);
        assert_eq!(pair_rank(9, 1, 1), None);
        assert_eq!(pair_rank(9, 1 << 9, 0), None);
        assert_eq!(pairs(9, 10, 0), 0);
    }
}
