//! The combinatorial number system over the cells of a board, shared by the games that rank their tiers by
//! where each side's pieces stand (Quixo, Teeko): a set of `k` cells among `n` is numbered in colexicographic
//! order (`sum C(cell_i, i)` over its cells in increasing order, `i` from 1), so the `C(n, k)` sets get the
//! ranks `0..C(n, k)` exactly, and a pair of disjoint sets is numbered by the first among all cells and the
//! second among the cells the first leaves free.

/// The most cells of a board this numbering handles (a 5 x 5 board).
pub const MOST_CELLS: u32 = 25;

/// `C(n, k)` for `n, k <= 25`, computed when compiled (Pascal's triangle).
const BINOMIALS: [[u64; MOST_CELLS as usize + 1]; MOST_CELLS as usize + 1] = binomials();

/// `C(n, k)` at `[k][n]`: the binomials of one place `k` side by side, for the unranking's scans down the cells.
const BINOMIALS_BY_PLACE: [[u64; MOST_CELLS as usize + 1]; MOST_CELLS as usize + 1] = transposed(BINOMIALS);

const fn transposed(
    table: [[u64; MOST_CELLS as usize + 1]; MOST_CELLS as usize + 1],
) -> [[u64; MOST_CELLS as usize + 1]; MOST_CELLS as usize + 1] {
    let size = MOST_CELLS as usize + 1;
    let mut out = [[0u64; MOST_CELLS as usize + 1]; MOST_CELLS as usize + 1];
    let mut n = 0;
    while n < size {
        let mut k = 0;
        while k < size {
            out[k][n] = table[n][k];
            k += 1;
        }
        n += 1;
    }
    out
}

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

/// The bytes of a mask of the board read by [`COLEX_BY_BYTE`] (a 25-cell mask spans 4 of them).
const CHUNKS: usize = 4;

/// The places a byte's cells may follow (0 to [`MOST_CELLS`] - 1 cells below it on the board).
const PLACES: usize = MOST_CELLS as usize;

/// For each byte of a mask (`chunk`), each count of cells of the mask below that byte (`below`) and each value
/// of the byte, what its cells add to the colexicographic rank: `sum C(8 * chunk + bit, below + i)` over its set
/// bits, `i` from 1 in increasing order. A rank is then one lookup a byte instead of one a cell.
static COLEX_BY_BYTE: [[[u32; 256]; PLACES]; CHUNKS] = colex_by_byte();

/// The number of set bits of each byte (the targets need not count bits in one instruction).
static BYTE_POPULATION: [u8; 256] = byte_population();

const fn byte_population() -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = (byte as u32).count_ones() as u8;
        byte += 1;
    }
    table
}

const fn colex_by_byte() -> [[[u32; 256]; PLACES]; CHUNKS] {
    let mut table = [[[0u32; 256]; PLACES]; CHUNKS];
    let mut chunk = 0;
    while chunk < CHUNKS {
        let mut below = 0;
        while below < PLACES {
            // Built from the byte without its highest bit, which is the last of the byte's cells in the order.
            let mut byte = 1;
            while byte < 256 {
                let highest = 7 - (byte as u8).leading_zeros() as usize;
                let place = below + (byte as u32).count_ones() as usize;
                let cell = 8 * chunk + highest;
                let term = if cell <= MOST_CELLS as usize && place <= MOST_CELLS as usize {
                    BINOMIALS[cell][place]
                } else {
                    0
                };
                table[chunk][below][byte] = table[chunk][below][byte & !(1 << highest)] + term as u32;
                byte += 1;
            }
            below += 1;
        }
        chunk += 1;
    }
    table
}

/// The colexicographic rank of the cells of `mask` (on the board: below [`MOST_CELLS`]) among the sets of as
/// many cells. The hot loop of a solve by rank: one lookup per byte of the mask.
#[inline]
fn colex_rank(mask: u32) -> u64 {
    let mut rank = 0;
    let mut below = 0;
    let mut rest = mask;
    let mut chunk = 0;
    while rest != 0 {
        let byte = usize::from(rest as u8);
        let row = COLEX_BY_BYTE.get(chunk).and_then(|chunk| chunk.get(below));
        rank += u64::from(row.map_or(0, |row| row[byte]));
        below += usize::from(BYTE_POPULATION[byte]);
        rest >>= 8;
        chunk += 1;
    }
    rank
}

/// The set of `count` cells among `cells` of colexicographic rank `rank`, as a mask; `None` past the last.
fn colex_unrank(mut rank: u64, count: u32, cells: u32) -> Option<u32> {
    if cells > MOST_CELLS || rank >= binomial(cells, count) {
        return None;
    }
    let mut mask = 0;
    let mut cell = cells as usize;
    for place in (1..=count as usize).rev() {
        // `C(cell, place)` for every cell: one row of the transposed table, read down without a lookup by two
        // indices a step.
        let row = BINOMIALS_BY_PLACE.get(place)?;
        // The largest cell below the one chosen last with C(cell, place) <= rank: at least place - 1, where
        // the binomial is 0, since the one chosen last was at least place.
        cell -= 1;
        while row.get(cell).is_some_and(|&binomial| binomial > rank) {
            cell -= 1;
        }
        mask |= 1 << cell;
        rank -= row.get(cell).copied().unwrap_or(0);
    }
    Some(mask)
}

/// `mask`'s cells numbered among the cells not in `taken` (a cell becomes the count of cells below it that are
/// not taken), `mask` and `taken` disjoint: each taken cell, lowest first, is squeezed out of the mask by a
/// shift of the bits above it (no count of bits a cell, which the targets do in software).
#[inline]
fn compress(mask: u32, taken: u32) -> u32 {
    let mut out = mask;
    let mut rest = taken;
    // The taken cells already squeezed out, by which the next one has moved down.
    let mut gone = 0;
    while rest != 0 {
        let below = (1u32 << (rest.trailing_zeros() - gone)) - 1;
        out = out & below | out >> 1 & !below;
        gone += 1;
        rest &= rest - 1;
    }
    out
}

/// The inverse of [`compress`]: bit `j` of `compressed` becomes the `j`-th cell not in `taken`. Each taken
/// cell, lowest first, opens a gap by a shift of the bits from it up.
#[inline]
fn expand(compressed: u32, taken: u32) -> u32 {
    let mut out = compressed;
    let mut rest = taken;
    while rest != 0 {
        let below = (1u32 << rest.trailing_zeros()) - 1;
        out = out & below | (out & !below) << 1;
        rest &= rest - 1;
    }
    out
}

/// The numbers of cells of `high` and of `low`, counted together in one 64-bit word (the targets count bits in
/// software: one count for both instead of one each).
#[inline]
pub fn populations(high: u32, low: u32) -> (u32, u32) {
    let mut word = u64::from(high) << 32 | u64::from(low);
    word -= word >> 1 & 0x5555_5555_5555_5555;
    word = (word & 0x3333_3333_3333_3333) + (word >> 2 & 0x3333_3333_3333_3333);
    word = (word + (word >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    // Byte 3 of the product sums bytes 0 to 3 (the low word's counts), byte 7 bytes 4 to 7 (the high word's);
    // no sum exceeds 32, so none carries into the next byte.
    let sums = word.wrapping_mul(0x0101_0101);
    ((sums >> 56) as u32, (sums >> 24 & 0xff) as u32)
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
    pair_rank_counted(cells, first, second, (first.count_ones(), second.count_ones()))
}

/// [`pair_rank`] for a caller who has counted the cells of each mask (`counts`), which it does not count again.
#[inline]
pub fn pair_rank_counted(cells: u32, first: u32, second: u32, counts: (u32, u32)) -> Option<u64> {
    let board = u32::MAX.checked_shr(32 - cells.min(MOST_CELLS)).unwrap_or(0);
    if cells > MOST_CELLS || (first | second) & !board != 0 || first & second != 0 {
        return None;
    }
    debug_assert_eq!(counts, (first.count_ones(), second.count_ones()));
    let per_first = binomial(cells.saturating_sub(counts.0), counts.1);
    Some(colex_rank(first) * per_first + colex_rank(compress(second, first)))
}

/// The inverse of [`pair_rank`] for sets of `first` and `second` cells; `None` past the last pair.
pub fn pair_unrank(cells: u32, first: u32, second: u32, rank: u64) -> Option<(u32, u32)> {
    if rank >= pairs(cells, first, second) {
        return None;
    }
    let per_first = binomial(cells - first, second);
    let first_mask = colex_unrank(rank / per_first, first, cells)?;
    let second_mask = expand(colex_unrank(rank % per_first, second, cells - first)?, first_mask);
    Some((first_mask, second_mask))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_numbered_one_to_one() {
        for (cells, first, second) in
            [(9, 3, 2), (9, 0, 4), (9, 9, 0), (16, 2, 3), (16, 4, 4), (16, 9, 7), (4, 1, 1), (25, 1, 0), (25, 4, 1)]
        {
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

    #[test]
    fn ranks_by_byte_and_squeezes_agree_with_the_sums_a_cell_at_a_time() {
        // A cell at a time, as defined: C(cell, place) over the cells in increasing order.
        let by_cells = |mask: u32| cells(mask).enumerate().map(|(at, cell)| binomial(cell, at as u32 + 1)).sum::<u64>();
        let numbered_among = |mask: u32, free: u32| {
            cells(mask).fold(0u32, |out, cell| out | 1 << (free & ((1 << cell) - 1)).count_ones())
        };
        let mut mask = 0x1234_5678u32;
        for _ in 0..20_000 {
            // A xorshift walk over masks of the 5 x 5 board.
            mask ^= mask << 13;
            mask ^= mask >> 17;
            mask ^= mask << 5;
            let (first, second) = (mask & 0x1ff_ffff, mask.rotate_left(7) & 0x1ff_ffff);
            assert_eq!(colex_rank(first), by_cells(first), "{first:#x}");
            assert_eq!(populations(mask, !mask), (mask.count_ones(), (!mask).count_ones()));
            let second = second & !first;
            let compressed = numbered_among(second, 0x1ff_ffff & !first);
            assert_eq!(compress(second, first), compressed, "{first:#x} {second:#x}");
            assert_eq!(expand(compressed, first), second, "{first:#x} {second:#x}");
        }
    }
}
