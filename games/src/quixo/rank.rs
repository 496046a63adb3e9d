//! Quixo's numbering of each tier's keys ([`Rank`]), by the combinatorial number system
//! ([`crate::combinations`]).
//!
//! A key of tier `(more, fewer)` holds the player to move's marks (high bits) and the other's (low bits), `a` and
//! `b` of them, `{a, b} = {more, fewer}`, on `N = n * n` cells. Its rank is, from the most significant digit:
//! which side has more marks (only when the counts differ: block 0 when the player to move has `more`), then the
//! pair of sets (the mover's cells among all, the other's among the free ones). The rank space of a tier is the
//! number of such encodings, `C(N, a) * C(N - a, b)`, twice that when `a != b`: about 8 times the canonical keys
//! (only the smallest encoding over the symmetries is a key). On 5 x 5 the middle tiers exceed `u32` ranks, which
//! the solver refuses.

use super::Quixo;
use crate::combinations::{pair_rank_counted, pair_unrank, pairs, populations};
use ludus_framework::engines::retrograde::Rank;

impl Quixo {
    /// The encodings with `mine` marks for the player to move and `theirs` for the other (0 if there are none).
    fn arrangements(&self, mine: u32, theirs: u32) -> u64 {
        pairs(self.cells(), mine, theirs)
    }
}

impl Rank for Quixo {
    /// `C(N, more) * C(N - more, fewer)`, twice that when `more != fewer`; 0 for a pair of counts that is no tier.
    fn tier_size(&self, &(more, fewer): &(u8, u8)) -> u64 {
        if fewer > more {
            return 0;
        }
        let blocks = if more == fewer { 1 } else { 2 };
        self.arrangements(u32::from(more), u32::from(fewer)).saturating_mul(blocks)
    }

    fn rank(&self, &(more, fewer): &(u8, u8), key: &u64) -> Option<u64> {
        let cells = self.cells();
        if key >> (2 * cells) != 0 || fewer > more {
            return None;
        }
        let mask = u64::from(self.board_mask());
        let (mine, theirs) = ((key >> cells & mask) as u32, (key & mask) as u32);
        let counts = populations(mine, theirs);
        let block = match counts {
            _ if counts == (u32::from(more), u32::from(fewer)) => 0,
            _ if counts == (u32::from(fewer), u32::from(more)) => 1,
            _ => return None,
        };
        // The same count for either block (`N! / (a! b! (N - a - b)!)`): read from the tier, not after the counts.
        let arrangements = self.arrangements(u32::from(more), u32::from(fewer));
        Some(block * arrangements + pair_rank_counted(cells, mine, theirs, counts)?)
    }

    fn unrank(&self, &(more, fewer): &(u8, u8), rank: u64) -> Option<u64> {
        if fewer > more {
            return None;
        }
        let arrangements = self.arrangements(u32::from(more), u32::from(fewer));
        if arrangements == 0 {
            return None;
        }
        let (mine, theirs) = match rank / arrangements {
            0 => (u32::from(more), u32::from(fewer)),
            1 if more != fewer => (u32::from(fewer), u32::from(more)),
            _ => return None,
        };
        let (mover, other) = pair_unrank(self.cells(), mine, theirs, rank % arrangements)?;
        Some(u64::from(mover) << self.cells() | u64::from(other))
    }
}
