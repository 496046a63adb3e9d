//! The split by shares over MPI (`ludus db solve --mpi --split-tiers`, for a game solved by un-moves): every
//! tier solved by every rank at once, each rank owning every N-th block of 65,536 of the tier's ranks
//! ([`crate::engines::retrograde::Shares`]); the algorithm is the engine's
//! ([`crate::engines::retrograde::SharedWork`]).
//!
//! Rank 0 surveys the tiers and sends the survey to every rank (as in [`super::split_schedule`]). Every rank
//! then finds its share of each tier parents first (its reachable set waits in its own scratch file,
//! `<tier file>.reach.<rank>`), and solves its share of each tier children first, reading its share of each
//! child tier from the child's file (its blocks only), or keeping it from the tier it just solved.
//! Each rank compresses its blocks of the tier's file and sends them to rank 0 ([`DONE`]: each
//! block as its ranks (u32), its counts by value (3 u64), its length (u32) and its bytes, little-endian; or
//! [`FAILED`] with the error's text), which writes the file and reports it. So no rank holds more than its
//! share of a tier, and the traffic to rank 0 is the file's compressed size.
//!
//! Invariant: the files are those of the one-process solve, byte for byte (the records are; the blocks are
//! compressed alone, whoever compresses them). Tested on 2, 3 and 4 ranks in `tests/mpi.rs`.

use super::distributed::{MpiSchedule, DONE, FAILED};
use super::file::{compress_blocks, write_compressed, CompressedBlock, DENSE_BLOCK_RANKS};
use super::record::RecordKey;
use crate::engines::retrograde::{agree, ChildShare, Exchange, SharedPlan, Shares, TierSurvey, TierWork, Tiers};
use crate::error::{Error, Result};
use crate::game::{FromKey, Game};
use hashbrown::HashMap;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::cell::Cell;
use std::path::PathBuf;
use std::time::Instant;

// A share's blocks are whole blocks of the file.
const _: () = assert!(crate::engines::retrograde::SHARE_ALIGNMENT.is_multiple_of(DENSE_BLOCK_RANKS));

/// Bytes of a block's head in a message: its ranks (4), its counts (24), its length (4).
const BLOCK_HEAD: usize = 32;

/// The exchange of a run over MPI's world, counting the bytes this rank sends the others.
struct Counted<'world> {
    world: &'world mpi::topology::SimpleCommunicator,
    sent: Cell<u64>,
}

impl Exchange for Counted<'_> {
    fn this_rank(&self) -> usize {
        self.world.this_rank()
    }

    fn ranks(&self) -> usize {
        self.world.ranks()
    }

    fn all_to_all(&self, batches: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
        let me = self.world.this_rank();
        let out: u64 =
            batches.iter().enumerate().filter(|(rank, _)| *rank != me).map(|(_, batch)| batch.len() as u64).sum();
        self.sent.set(self.sent.get() + out);
        self.world.all_to_all(batches)
    }

    fn all_sum(&self, value: u64) -> u64 {
        self.world.all_sum(value)
    }

    fn all_min(&self, value: u64) -> u64 {
        self.world.all_min(value)
    }
}

/// The error of a work that cannot be split by shares.
fn unshared() -> Error {
    Error::internal("database", "a solve split by shares of a work that does not solve by un-moves")
}

impl<Ruleset> MpiSchedule<'_, Ruleset>
where
    Ruleset: Game + Tiers + FromKey + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: RecordKey,
    Ruleset::Tier: Serialize + DeserializeOwned,
{
    /// The split by shares (see the module's documentation).
    pub(super) fn run_shares(
        &self,
        work: &mut dyn TierWork<Ruleset::Tier, Ruleset::Key, Ruleset::Position>,
    ) -> Result<()> {
        let Some(survey) = self.share_survey(work)? else { return Ok(()) };
        let me = self.world.this_rank();
        let scratch = survey.order.iter().try_fold(HashMap::new(), |mut paths, tier| {
            if let Some(path) = work.store().scratch_path(tier)? {
                let mut name = path.into_os_string();
                name.push(format!(".{me}"));
                paths.insert(tier.clone(), PathBuf::from(name));
            }
            Ok::<_, Error>(paths)
        });
        let scratch = agree(&self.world, scratch)?;
        // The discovery's time and bytes are reported with the first tier solved, as in one process.
        let (exchange, mut clock) = (Counted { world: &self.world, sent: Cell::new(0) }, Instant::now());
        let shared = work.by_shares().ok_or_else(unshared)?;
        let SharedPlan { mut shares, reached } = shared.discover_shares(&survey, &scratch, &exchange)?;
        let TierSurvey { order, children, finished, .. } = survey;
        let mut held: Vec<ChildShare<Ruleset::Tier>> = Vec::new();
        for tier in order.iter().rev() {
            let Some(share) = shares.remove(tier) else { continue };
            let below = children.get(tier).map(Vec::as_slice).unwrap_or(&[]);
            let inputs: Vec<&Ruleset::Tier> =
                below.iter().filter(|child| reached.contains(*child) || finished.contains(*child)).collect();
            held.retain(|child| inputs.contains(&&child.tier));
            let loaded = inputs.iter().try_for_each(|&input| {
                if !held.iter().any(|child| child.tier == *input) {
                    let records = self.read_share(work, input)?;
                    held.push(ChildShare { tier: input.clone(), records });
                }
                Ok(())
            });
            agree(&self.world, loaded)?;
            let set = agree(&self.world, share.load())?;
            let shared = work.by_shares().ok_or_else(unshared)?;
            let solution = shared.solve_share(tier, set, &held, &exchange)?;
            let size = shared.tier_size(tier);
            let path = self.database.tier_path(tier);
            let blocks = path.and_then(|path| own_blocks(&path, size, self.world.ranks(), me, &solution.records));
            let compressed: u64 =
                blocks.as_ref().map_or(0, |blocks| blocks.iter().map(|block| block.bytes.len() as u64).sum());
            let sent = self.world.all_sum(exchange.sent.take() + if me == 0 { 0 } else { compressed });
            let written = match me {
                0 => self.gather_blocks(blocks, Shares::new(size, self.world.ranks())).and_then(|blocks| {
                    let path = self.database.tier_path(tier)?;
                    let name = self.database.tier_name(tier)?;
                    let reached = solution
                        .reached
                        .iter()
                        .map(|child| self.database.tier_name(child).map(|name| name.tier))
                        .collect::<Result<Vec<_>>>()?;
                    write_compressed(&path, &name, reached, size, blocks)?;
                    work.store().saved_elsewhere(tier, clock.elapsed(), sent)
                }),
                _ => self.send_blocks(blocks),
            };
            agree(&self.world, written)?;
            held.push(ChildShare { tier: tier.clone(), records: solution.records });
            clock = Instant::now();
        }
        Ok(())
    }

    /// This rank's range of the records of the solved `tier`, read from its file (only the blocks of the
    /// range, each checked). Errors: a file missing, damaged or not laid out by rank; a range past the budget.
    fn read_share(
        &self,
        work: &mut dyn TierWork<Ruleset::Tier, Ruleset::Key, Ruleset::Position>,
        tier: &Ruleset::Tier,
    ) -> Result<Vec<u16>> {
        let path = self.database.tier_path(tier)?;
        let missing = |reason: &str| Error::Database { path: path.display().to_string(), reason: reason.into() };
        let mut file = self.database.open(tier)?.ok_or_else(|| missing("missing: this tier is not solved"))?;
        let size = work.by_shares().ok_or_else(unshared)?.tier_size(tier);
        if file.ranks() != Some(size) {
            return Err(missing("not laid out by the ranks of this tier"));
        }
        let shares = Shares::new(size, self.world.ranks());
        // Counted before it is read: 16 bits a rank, as the solve counts a child tier.
        let length = shares.length(self.world.this_rank());
        if length.div_ceil(16) > work.budget() {
            return Err(Error::Budget(crate::error::Budget::Positions(work.budget())));
        }
        let mut records = Vec::with_capacity(length as usize);
        for block in shares.blocks_of(self.world.this_rank()) {
            records.extend(file.read_ranks(block as usize)?);
        }
        if records.len() as u64 != length {
            return Err(missing("its blocks do not hold the ranks of their places"));
        }
        // Checked as a whole tier read in one process is (`TierSolution::from_ranks`).
        if records.iter().any(|&bits| bits != 0 && !crate::engines::retrograde::is_narrow_value(bits)) {
            return Err(self.database.file_fault(tier, &path, Error::records("a word that is no value")));
        }
        Ok(records)
    }

    /// Rank 0: every rank's blocks (its own, `own`, and the others', received even after a failure, so that no
    /// sender waits), dealt back into the tier's order by `shares`.
    fn gather_blocks(&self, own: Result<Vec<CompressedBlock>>, shares: Shares) -> Result<Vec<CompressedBlock>> {
        let mut failure = None;
        let mut by_rank = vec![own.unwrap_or_else(|error| {
            failure = Some(error);
            Vec::new()
        })];
        for rank in 1..self.world.ranks() {
            let message = self.receive(Some(rank as i32));
            let mut blocks = Vec::new();
            let read = match message.tag {
                DONE => read_blocks(&message.bytes, &mut blocks),
                _ => {
                    Err(Error::distributed(format!("rank {rank} failed: {}", String::from_utf8_lossy(&message.bytes))))
                }
            };
            if let Err(error) = read {
                failure.get_or_insert(error);
            }
            by_rank.push(blocks);
        }
        if let Some(error) = failure {
            return Err(error);
        }
        // Block b is the (b / ranks)-th block of rank b % ranks.
        let mut dealt: Vec<std::vec::IntoIter<CompressedBlock>> = by_rank.into_iter().map(Vec::into_iter).collect();
        let mut blocks = Vec::new();
        for block in 0.. {
            let rank = shares.owner(block * DENSE_BLOCK_RANKS);
            match dealt.get_mut(rank).and_then(Iterator::next) {
                Some(next) => blocks.push(next),
                None => break,
            }
        }
        if dealt.iter_mut().any(|rest| rest.next().is_some()) {
            return Err(Error::distributed("a rank sent blocks past its share"));
        }
        Ok(blocks)
    }

    /// A worker: its blocks sent to rank 0 (or its failure).
    fn send_blocks(&self, blocks: Result<Vec<CompressedBlock>>) -> Result<()> {
        match blocks {
            Ok(blocks) => {
                let mut bytes = Vec::with_capacity(blocks.iter().map(|block| BLOCK_HEAD + block.bytes.len()).sum());
                for block in &blocks {
                    bytes.extend_from_slice(&block.ranks.to_le_bytes());
                    for count in block.counts {
                        bytes.extend_from_slice(&count.to_le_bytes());
                    }
                    let length =
                        u32::try_from(block.bytes.len()).map_err(|_| Error::distributed("a block past 4 GiB"))?;
                    bytes.extend_from_slice(&length.to_le_bytes());
                    bytes.extend_from_slice(&block.bytes);
                }
                self.send(0, DONE, &bytes);
                Ok(())
            }
            Err(error) => {
                self.send(0, FAILED, error.to_string().as_bytes());
                Err(error)
            }
        }
    }
}

/// The blocks of `records`, this rank's share of a tier of `size` ranks, compressed for the file at `path`.
fn own_blocks(
    path: &std::path::Path,
    size: u64,
    ranks: usize,
    me: usize,
    records: &[u16],
) -> Result<Vec<CompressedBlock>> {
    let blocks: Vec<u64> = Shares::new(size, ranks).blocks_of(me).collect();
    // The share holds its blocks end to end: the block at `place` starts at local index `place * A`.
    compress_blocks(path, size, &blocks, |place, length| {
        let at = place * DENSE_BLOCK_RANKS as usize;
        records.get(at..at + length).map(<[u16]>::to_vec).unwrap_or_default()
    })
}

/// Appends the blocks a worker sent. Errors: bytes that are no blocks.
fn read_blocks(bytes: &[u8], blocks: &mut Vec<CompressedBlock>) -> Result<()> {
    let broken = || Error::distributed("a rank's blocks cut short");
    let word = |at: usize| bytes.get(at..at + 4).and_then(|four| four.try_into().ok()).map(u32::from_le_bytes);
    let long = |at: usize| bytes.get(at..at + 8).and_then(|eight| eight.try_into().ok()).map(u64::from_le_bytes);
    // A message of one byte is an empty one (a rank that owns no ranks of this tier).
    if bytes.len() <= 1 {
        return Ok(());
    }
    let mut at = 0;
    while at < bytes.len() {
        let ranks = word(at).ok_or_else(broken)?;
        let counts = [long(at + 4), long(at + 12), long(at + 20)];
        let [Some(won), Some(lost), Some(drawn)] = counts else { return Err(broken()) };
        let length = word(at + 28).ok_or_else(broken)? as usize;
        let start = at + BLOCK_HEAD;
        // Checked against the message before it is copied.
        let stored = bytes.get(start..start.saturating_add(length)).ok_or_else(broken)?;
        blocks.push(CompressedBlock { ranks, counts: [won, lost, drawn], bytes: stored.to_vec() });
        at = start + length;
    }
    Ok(())
}
