//! Teeko's numbering of each tier's keys ([`Rank`]), by the combinatorial number system
//! ([`crate::combinations`]).
//!
//! In tier `k` (pieces on the board) the player to move has `k / 2` pieces and the other `k - k / 2`: Black
//! drops first, so the other has one more after Black's drop and as many after White's. A key's rank is the
//! pair of sets (the mover's cells among all `N` cells, the other's among the free ones), so a tier has
//! `C(N, k / 2) * C(N - k / 2, k - k / 2)` ranks, about 8 times its canonical keys (only the smallest encoding
//! over the symmetries is a key). The largest, the move phase on 5 x 5, has 75,710,250 ranks.

use super::{Teeko, PIECES};
use crate::combinations::{pair_rank, pair_unrank, pairs};
use ludus_framework::engines::retrograde::Rank;

/// The counts of pieces of the player to move and of the other in tier `pieces`; `None` for no tier.
fn counts(pieces: u8) -> Option<(u32, u32)> {
    let pieces = u32::from(pieces);
    (pieces <= 2 * PIECES).then_some((pieces / 2, pieces - pieces / 2))
}

impl Rank for Teeko {
    fn tier_size(&self, pieces: &u8) -> u64 {
        counts(*pieces).map_or(0, |(mine, theirs)| pairs(self.cells(), mine, theirs))
    }

    fn rank(&self, pieces: &u8, key: &u64) -> Option<u64> {
        let cells = self.cells();
        let (mine, theirs) = counts(*pieces)?;
        if key >> (2 * cells) != 0 {
            return None;
        }
        let mask = u64::from(self.board_mask());
        let (mover, other) = ((key >> cells & mask) as u32, (key & mask) as u32);
        if (mover.count_ones(), other.count_ones()) != (mine, theirs) {
            return None;
        }
        pair_rank(cells, mover, other)
    }

    fn unrank(&self, pieces: &u8, rank: u64) -> Option<u64> {
        let (mine, theirs) = counts(*pieces)?;
        let (mover, other) = pair_unrank(self.cells(), mine, theirs, rank)?;
        Some(u64::from(mover) << self.cells() | u64::from(other))
    }
}
