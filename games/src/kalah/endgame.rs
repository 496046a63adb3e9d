//! Kalah's endgame tiers ([`EndgameTiers`]): a tier is the seeds left in the pits (no move adds one: a sowing
//! that passes the store leaves one there, a capture empties two pits), a rank the place of the pits' counts
//! among all the ways to lay that many seeds in `2m` pits (the combinatorial number system over the counts
//! seen from the mover's side), and the stores' difference is banked: the seeds in the stores never leave
//! them.
//!
//! Within a tier, every move sows from one of the mover's pits towards his store without reaching it, so the
//! seeds' distance to their owner's store falls: the moves within a tier form no cycle.

use super::rules::Board;
use super::{Kalah, MAX_PITS};
use ludus_framework::scored::EndgameTiers;

/// The most seeds a tier may hold and be ranked: a count of the pits fits a byte.
const MAX_TIER_SEEDS: usize = 168;

/// The places of bars and seeds: `seeds + pits - 1` at most.
const MAX_SLOTS: usize = MAX_TIER_SEEDS + 2 * MAX_PITS;

/// `BINOMIAL[n][k]`, n choose k, for the ranks of compositions of up to [`MAX_TIER_SEEDS`] seeds into up to
/// `2 * MAX_PITS` pits (k below `2 * MAX_PITS`), saturated at `u64::MAX`: a tier's size saturates where its
/// ranks would not fit a `u64` (such a tier has no size), and every term of a rank within a tier that has one
/// is below its size, so 64-bit arithmetic is exact wherever it is used.
static BINOMIAL: [[u64; 2 * MAX_PITS]; MAX_SLOTS + 1] = {
    let mut table = [[0u64; 2 * MAX_PITS]; MAX_SLOTS + 1];
    let mut n = 0;
    while n <= MAX_SLOTS {
        table[n][0] = 1;
        let mut k = 1;
        while k < 2 * MAX_PITS {
            table[n][k] = if n == 0 { 0 } else { table[n - 1][k - 1].saturating_add(table[n - 1][k]) };
            k += 1;
        }
        n += 1;
    }
    table
};

impl Kalah {
    /// The counts of the pits from the mover's side: his `m` pits, then the other's.
    fn counts_from_mover(&self, board: &Board) -> impl Iterator<Item = u8> + '_ {
        let me = board.side();
        let (mine, theirs) = (board.pits[me], board.pits[1 - me]);
        (0..2 * self.pits())
            .map(move |place| if place < self.pits() { mine[place] } else { theirs[place - self.pits()] })
    }
}

impl EndgameTiers for Kalah {
    fn endgame_family(&self) -> String {
        format!("kalah:pits={},capture={}", self.pits(), self.capture().name())
    }

    fn endgame_tier(&self, board: &Board) -> u32 {
        self.in_pits(board, 0) + self.in_pits(board, 1)
    }

    fn endgame_tier_size(&self, tier: u32) -> Option<u64> {
        let slots = tier as usize + 2 * self.pits() - 1;
        let size = BINOMIAL.get(slots)?[2 * self.pits() - 1];
        (size != u64::MAX).then_some(size)
    }

    /// The bars between the pits, at places `0..seeds + 2m - 1` (bar `i` after the seeds of pits `0..=i` and
    /// the `i` bars before it), ranked by `sum C(bar_i, i + 1)`.
    fn endgame_rank(&self, board: &Board) -> u64 {
        let mut rank = 0u64;
        let mut place = 0usize;
        for (bar, count) in self.counts_from_mover(board).take(2 * self.pits() - 1).enumerate() {
            place += usize::from(count);
            rank = rank.saturating_add(BINOMIAL[place + bar][bar + 1]);
        }
        rank
    }

    fn endgame_position(&self, tier: u32, rank: u64) -> Option<Board> {
        let size = self.endgame_tier_size(tier)?;
        if rank >= size || tier as usize > MAX_TIER_SEEDS {
            return None;
        }
        let parts = 2 * self.pits();
        let mut bars = [0usize; 2 * MAX_PITS];
        let mut rest = rank;
        let mut below = tier as usize + parts - 1;
        for bar in (0..parts - 1).rev() {
            // The highest place below the previous bar whose binomial fits what is left of the rank.
            let mut place = below - 1;
            while BINOMIAL[place][bar + 1] > rest {
                place -= 1;
            }
            rest -= BINOMIAL[place][bar + 1];
            bars[bar] = place;
            below = place;
        }
        let mut board = Board { pits: [[0; MAX_PITS]; 2], stores: [0, 0], south_to_move: true };
        let mut previous = None;
        // Each part ends at its bar, the last at the end of the places.
        let ends = bars[..parts - 1].iter().copied().chain(std::iter::once(tier as usize + parts - 1));
        for (part, end) in ends.enumerate() {
            let count = match previous {
                None => end,
                Some(bar) => end - bar - 1,
            };
            previous = Some(end);
            let (side, pit) = if part < self.pits() { (0, part) } else { (1, part - self.pits()) };
            board.pits[side][pit] = u8::try_from(count).ok()?;
        }
        Some(board)
    }

    fn banked(&self, board: &Board) -> i32 {
        let me = board.side();
        i32::from(board.stores[me]) - i32::from(board.stores[1 - me])
    }
}
