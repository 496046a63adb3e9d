//! The discovery of the solve by un-moves: a bit per rank ([`RankSet`]) of every position of a tier reachable
//! from the start, found parents first, each tier closed under its own moves by rounds, its moves out of the
//! tier marking the entries of its child tiers.
//!
//! Work is parallel over words of the frontier (64 ranks each); a set only gains bits, so the sets found do
//! not depend on the number of threads or on the order of their work.

use super::{allocation_error, contract, Ranked};
use crate::engines::retrograde::tiers::broken;
use crate::engines::retrograde::Rank;
use crate::error::Error;
use crate::game::Game;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Words of a set handed to a thread at once (each word is 64 ranks).
pub(super) const WORDS_PER_TASK: usize = 256;

/// Bits of a set counted as one position of the budget (a position standing for 32 bytes).
const BITS_PER_UNIT: u64 = 256;

/// A set of ranks of one tier: a bit per rank, set through `&self` from any thread.
#[derive(Debug)]
pub struct RankSet {
    words: Box<[AtomicU64]>,
    size: u64,
}

impl RankSet {
    /// The empty set of a rank space of `size` ranks. Errors: memory the system would not give.
    pub(crate) fn new(size: u64) -> crate::Result<RankSet> {
        let words = usize::try_from(size.div_ceil(64))
            .map_err(|_| Error::limit("the ranks of a tier", size, usize::MAX as u64))?;
        let words = bytemuck::allocation::try_zeroed_slice_box::<AtomicU64>(words)
            .map_err(|()| allocation_error("a tier's set of reachable ranks", size / 8))?;
        Ok(RankSet { words, size })
    }

    /// The set of a rank space of `size` ranks whose bits are `words` (little-endian, as [`RankSet::to_bytes`]
    /// writes them). Errors: a length that is not the rank space's, a bit past it.
    #[cfg(feature = "mpi")]
    pub(crate) fn from_bytes(size: u64, bytes: &[u8]) -> crate::Result<RankSet> {
        // Checked before the set is made: the size comes with the bytes (a message), which bound it.
        if bytes.len() as u64 != size.div_ceil(64).saturating_mul(8) {
            return Err(Error::records(format!("{} bytes of ranks for a tier of {size} ranks", bytes.len())));
        }
        let set = RankSet::new(size)?;
        for (word, chunk) in set.words.iter().zip(bytes.chunks_exact(8)) {
            let mut eight = [0u8; 8];
            eight.copy_from_slice(chunk);
            word.store(u64::from_le_bytes(eight), Relaxed);
        }
        if !size.is_multiple_of(64) && set.words.last().is_some_and(|last| last.load(Relaxed) >> (size % 64) != 0) {
            return Err(Error::records(format!("a rank past the tier's {size} ranks")));
        }
        Ok(set)
    }

    /// The bits, little-endian words.
    #[cfg(feature = "mpi")]
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        self.words.iter().flat_map(|word| word.load(Relaxed).to_le_bytes()).collect()
    }

    /// Writes the set to a new file at `path` (its words, little-endian). Errors: the file's, named.
    pub(crate) fn write_to(&self, path: &std::path::Path) -> crate::Result<()> {
        use std::io::Write;
        let failed = |cause| Error::Io { path: path.display().to_string(), cause };
        let mut file = std::io::BufWriter::new(std::fs::File::create(path).map_err(failed)?);
        for word in self.words.iter() {
            file.write_all(&word.load(Relaxed).to_le_bytes()).map_err(failed)?;
        }
        // Not synced: a stopped solve writes the file anew.
        file.flush().map_err(failed)
    }

    /// The set of `size` ranks [`RankSet::write_to`] wrote at `path`. Errors: the file's, or a length that is
    /// not the rank space's (checked before the set is made).
    pub(crate) fn read_from(path: &std::path::Path, size: u64) -> crate::Result<RankSet> {
        use std::io::Read;
        let failed = |cause| Error::Io { path: path.display().to_string(), cause };
        let file = std::fs::File::open(path).map_err(failed)?;
        let length = file.metadata().map_err(failed)?.len();
        if length != size.div_ceil(64).saturating_mul(8) {
            return Err(Error::records(format!(
                "{}: {length} bytes of reachable ranks for a tier of {size} ranks",
                path.display()
            )));
        }
        let set = RankSet::new(size)?;
        let mut reader = std::io::BufReader::new(file);
        let mut eight = [0u8; 8];
        for word in set.words.iter() {
            reader.read_exact(&mut eight).map_err(failed)?;
            word.store(u64::from_le_bytes(eight), Relaxed);
        }
        Ok(set)
    }

    /// The size of the rank space.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The number of ranks in the set.
    pub fn len(&self) -> u64 {
        self.words.par_iter().map(|word| u64::from(word.load(Relaxed).count_ones())).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.par_iter().all(|word| word.load(Relaxed) == 0)
    }

    /// What the set counts toward the budget, in positions.
    pub fn units(&self) -> u64 {
        units(self.size)
    }

    /// Adds `rank`; whether it was not in the set. A rank past the space is refused (`None`).
    pub(super) fn insert(&self, rank: u64) -> Option<bool> {
        if rank >= self.size {
            return None;
        }
        let bit = 1u64 << (rank % 64);
        let word = self.words.get((rank / 64) as usize)?;
        // Most ranks met are in the set already: a read leaves the cache line shared between the cores.
        if word.load(Relaxed) & bit != 0 {
            return Some(false);
        }
        Some(word.fetch_or(bit, Relaxed) & bit == 0)
    }

    /// The words, for a parallel walk.
    pub(super) fn words(&self) -> &[AtomicU64] {
        &self.words
    }
}

/// What a set of `size` ranks counts toward the budget, in positions.
pub(super) fn units(size: u64) -> u64 {
    size.div_ceil(BITS_PER_UNIT)
}

/// Calls `visit(rank)` for every rank of `set`, in parallel; the first error stops the walk.
pub(super) fn each_rank<Visit, State>(
    set: &RankSet,
    init: impl Fn() -> State + Sync + Send,
    visit: Visit,
) -> crate::Result<()>
where
    Visit: Fn(&mut State, u64) -> crate::Result<()> + Sync + Send,
{
    // One task a leaf: the ranks of a set cluster (a round's frontier may lie in a few tasks' words), and
    // rayon's adaptive split, which assumes even work, would leave them to one thread.
    set.words().par_chunks(WORDS_PER_TASK).enumerate().with_max_len(1).try_for_each_init(
        init,
        |state, (task, words)| {
            for (offset, word) in words.iter().enumerate() {
                let mut bits = word.load(Relaxed);
                let base = ((task * WORDS_PER_TASK + offset) * 64) as u64;
                while bits != 0 {
                    visit(state, base + u64::from(bits.trailing_zeros()))?;
                    bits &= bits - 1;
                }
            }
            Ok(())
        },
    )
}

impl<Ruleset: Game + Rank + Send + Sync + 'static> Ranked<'_, Ruleset>
where
    Ruleset::Position: Send + Sync,
    Ruleset::Key: Send + Sync,
{
    /// Closes `entries` (ranks of `tier`) under the tier's moves: the set of every position of the tier reached
    /// from them. Each move out of the tier adds its position's rank to the set of its tier in `below` (the
    /// child tiers, with their sets of entries); a move to another tier is the broken contract's error.
    pub(super) fn reach(
        &self,
        tier: &Ruleset::Tier,
        entries: RankSet,
        below: &[(Ruleset::Tier, &RankSet)],
    ) -> crate::Result<RankSet> {
        let game = self.game;
        let size = entries.size();
        let reached = RankSet::new(size)?;
        let mut frontier = entries;
        for word in frontier.words().iter().zip(reached.words()) {
            word.1.store(word.0.load(Relaxed), Relaxed);
        }
        loop {
            let next = RankSet::new(size)?;
            each_rank(&frontier, Vec::new, |moves: &mut Vec<Ruleset::Move>, rank| {
                let position = self.position(tier, rank)?;
                if game.outcome(&position).is_some() {
                    return Ok(());
                }
                moves.clear();
                game.moves(&position, moves);
                for mv in moves.iter() {
                    let child = game.play(&position, mv);
                    let child_tier = game.tier(&child);
                    let key = game.canonical(&child);
                    if child_tier == *tier {
                        let rank = self.rank_in(tier, &key, size)?;
                        if reached.insert(rank) == Some(true) {
                            next.insert(rank);
                        }
                        continue;
                    }
                    let Some((_, set)) = below.iter().find(|(below, _)| *below == child_tier) else {
                        return Err(broken(format!(
                            "a move from tier {tier:?} reaches tier {child_tier:?}, not a child tier"
                        )));
                    };
                    let rank = self.rank_in(&child_tier, &key, set.size())?;
                    set.insert(rank).ok_or_else(|| contract(&child_tier, &key, set.size()))?;
                }
                Ok(())
            })?;
            if next.is_empty() {
                return Ok(reached);
            }
            frontier = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_written_to_a_file_reads_back_and_a_file_of_another_length_is_refused() {
        let directory = std::env::temp_dir().join(format!("ludus-rank-set-{}", std::process::id()));
        std::fs::create_dir_all(&directory).unwrap();
        let path = directory.join("tier.reach");
        let set = RankSet::new(1000).unwrap();
        for rank in [0, 63, 64, 500, 999] {
            set.insert(rank);
        }
        set.write_to(&path).unwrap();
        let read = RankSet::read_from(&path, 1000).unwrap();
        let ranks = |set: &RankSet| {
            let has = |rank: u64| set.words()[(rank / 64) as usize].load(Relaxed) >> (rank % 64) & 1 == 1;
            (0..set.size()).filter(|&rank| has(rank)).collect::<Vec<_>>()
        };
        assert_eq!(ranks(&read), vec![0, 63, 64, 500, 999]);
        let error = RankSet::read_from(&path, 2000).unwrap_err().to_string();
        assert!(error.contains("bytes of reachable ranks for a tier of 2000 ranks"), "{error}");
        std::fs::remove_dir_all(&directory).unwrap();
    }
}
