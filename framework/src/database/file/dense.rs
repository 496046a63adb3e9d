//! The layout by rank (format 2): a tier's records for every rank of its rank space in order, 16 bits each
//! (0 at the ranks of no position reachable from the start), [`DENSE_BLOCK_RANKS`] ranks a block, each block
//! compressed with zstd on its own. No key is stored: a query ranks its key, reads the block of the rank and
//! takes the record at its place.
//!
//! Why it is small: the records of neighbouring ranks repeat (most positions of a tier are won or lost at a
//! few remotenesses, and the ranks of no position are runs of zeros), which zstd takes as runs and matches;
//! sorted keys with gaps cost more than the records they order (BENCHMARKS.md, "Files on disk").
//!
//! Invariant: a block holds `min(DENSE_BLOCK_RANKS, ranks - first)` ranks; the blocks' count follows from the
//! rank space, which a reader checks against its own (the game's tier size) before anything is allocated.

use super::{block_index, damaged, io_error, write_file, Header, TierName, COMPRESSION_LEVEL};
use crate::database::record::Record;
use crate::error::Result;
use crate::value::Value;
use rayon::prelude::*;
use std::path::Path;

/// The version of the layout by rank.
pub const DENSE_FORMAT_VERSION: u32 = 2;

/// Ranks per block: a query decompresses 128 KiB, about 60 us.
pub const DENSE_BLOCK_RANKS: u64 = 1 << 16;

/// The block's bytes before compression: the records, little-endian.
fn encode(records: &[u16]) -> Vec<u8> {
    records.iter().flat_map(|record| record.to_le_bytes()).collect()
}

/// A block's records from its bytes before compression, each checked to be 0 or a record; `Err` says what is
/// wrong.
pub(super) fn decode(bytes: &[u8], ranks: u32) -> std::result::Result<Vec<u16>, String> {
    if bytes.len() != ranks as usize * 2 {
        return Err(format!("a block of {} bytes, not {} ranks of 2 bytes", bytes.len(), ranks));
    }
    bytes
        .chunks_exact(2)
        .map(|pair| {
            let bits = u16::from_le_bytes([pair[0], pair[1]]);
            match bits == 0 || Record::from_bits(bits).is_some() {
                true => Ok(bits),
                false => Err(format!("{bits:#06x} is no record")),
            }
        })
        .collect()
}

/// The counts of a tier's records by value: won, lost, drawn; and the records.
pub(super) fn counts(records: &[u16]) -> ([u64; 3], u64) {
    let mut counts = [0u64; 3];
    for &bits in records {
        match Record::from_bits(bits).and_then(Record::value) {
            Some(Value::Win(_)) => counts[0] += 1,
            Some(Value::Lose(_)) => counts[1] += 1,
            Some(Value::Draw) => counts[2] += 1,
            None => {}
        }
    }
    (counts, counts.iter().sum())
}

/// Writes a tier's file at `path` in the layout by rank from its records by rank (`records.len()` must be the
/// name's rank space; 0 at the ranks of no position). Returns the file's size in bytes.
pub fn write_dense_tier(path: &Path, name: &TierName, reached: Vec<serde_json::Value>, records: &[u16]) -> Result<u64> {
    write_dense_tier_by_blocks(path, name, reached, records.len() as u64, |first, length| {
        records[first as usize..first as usize + length].to_vec()
    })
}

/// [`write_dense_tier`] from a function that gives the records of `length` ranks from `first` (a block), so
/// that the records of the whole tier are never held as 16-bit words at once: only the blocks as compressed,
/// and each block being compressed. `ranks` must be the name's rank space.
pub fn write_dense_tier_by_blocks(
    path: &Path,
    name: &TierName,
    reached: Vec<serde_json::Value>,
    ranks: u64,
    records: impl Fn(u64, usize) -> Vec<u16> + Sync,
) -> Result<u64> {
    if name.ranks != Some(ranks) {
        return Err(damaged(path, format!("{ranks} records by rank for a rank space of {:?}", name.ranks)));
    }
    let blocks: Vec<u64> = (0..ranks.div_ceil(DENSE_BLOCK_RANKS)).collect();
    let blocks =
        compress_blocks(path, ranks, &blocks, |place, length| records(blocks[place] * DENSE_BLOCK_RANKS, length))?;
    write_compressed(path, name, reached, ranks, blocks)
}

/// The blocks `blocks` (their places in the file) of a tier's file by rank of `ranks` ranks, compressed, from a
/// function that gives the records of the block at `blocks[place]`, of `length` ranks; each with its counts by
/// value. Errors: records that are none, named with `path`, the file they are for.
pub fn compress_blocks(
    path: &Path,
    ranks: u64,
    blocks: &[u64],
    records: impl Fn(usize, usize) -> Vec<u16> + Sync,
) -> Result<Vec<CompressedBlock>> {
    blocks
        .par_iter()
        .enumerate()
        .map(|(place, &block)| {
            let size = ranks.saturating_sub(block * DENSE_BLOCK_RANKS).min(DENSE_BLOCK_RANKS) as usize;
            let chunk = records(place, size);
            if chunk.len() != size || size == 0 {
                return Err(damaged(path, format!("{} records for block {block} of {size} ranks", chunk.len())));
            }
            if let Some(bits) = chunk.iter().find(|&&bits| bits != 0 && Record::from_bits(bits).is_none()) {
                return Err(damaged(path, format!("{bits:#06x} is no record")));
            }
            let mut bytes =
                zstd::bulk::compress(&encode(&chunk), COMPRESSION_LEVEL).map_err(|source| io_error(path, source))?;
            // Held until the file is written: its length, not the bound zstd reserved.
            bytes.shrink_to_fit();
            Ok(CompressedBlock { ranks: size as u32, counts: counts(&chunk).0, bytes })
        })
        .collect()
}

/// One block of a file by rank, compressed, with what its header entry says of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompressedBlock {
    /// Its ranks.
    pub ranks: u32,
    /// Its records by value: won, lost, drawn.
    pub counts: [u64; 3],
    /// Its bytes as stored.
    pub bytes: Vec<u8>,
}

/// Writes a tier's file by rank at `path` from its `blocks`, in rank order, of every rank of the rank space
/// `ranks` (the name's). Returns the file's size in bytes.
pub fn write_compressed(
    path: &Path,
    name: &TierName,
    reached: Vec<serde_json::Value>,
    ranks: u64,
    blocks: Vec<CompressedBlock>,
) -> Result<u64> {
    if name.ranks != Some(ranks) {
        return Err(damaged(path, format!("{ranks} records by rank for a rank space of {:?}", name.ranks)));
    }
    let held: u64 = blocks.iter().map(|block| u64::from(block.ranks)).sum();
    if blocks.len() as u64 != ranks.div_ceil(DENSE_BLOCK_RANKS) || held != ranks {
        return Err(damaged(path, format!("{} blocks of {held} ranks for a rank space of {ranks}", blocks.len())));
    }
    let mut counts = [0u64; 3];
    for block in &blocks {
        for (count, more) in counts.iter_mut().zip(&block.counts) {
            *count += more;
        }
    }
    let sizes: Vec<u32> = blocks.iter().map(|block| block.ranks).collect();
    let first: Vec<u128> = (0..blocks.len() as u128).map(|place| place * u128::from(DENSE_BLOCK_RANKS)).collect();
    let compressed: Vec<Vec<u8>> = blocks.into_iter().map(|block| block.bytes).collect();
    let (blocks, checksum) = block_index(&compressed, &sizes, &first);
    let header = Header {
        format: DENSE_FORMAT_VERSION,
        game: name.game.clone(),
        tier: name.tier.clone(),
        reached,
        records: counts.iter().sum(),
        counts,
        blocks,
        checksum,
        ranks: Some(ranks),
    };
    write_file(path, &header, &compressed)
}

/// The block index of a file by rank checked against its `ranks` and the `data` bytes after the header: one
/// block per [`DENSE_BLOCK_RANKS`] ranks, each holding its share of ranks in at least `min_stored` and at most
/// zstd's bound for a whole block, end to end, filling the file; the records at most the ranks. `Err` says what
/// is wrong.
pub(super) fn check_dense_index(
    header: &Header,
    ranks: u64,
    data: u64,
    min_stored: u64,
) -> std::result::Result<(), String> {
    let blocks = header.blocks.len() as u64;
    if blocks.saturating_mul(min_stored) > data {
        return Err(format!("{blocks} blocks cannot fit in the file's {data} bytes of blocks"));
    }
    if blocks != ranks.div_ceil(DENSE_BLOCK_RANKS) {
        return Err(format!("{blocks} blocks for {ranks} ranks, {DENSE_BLOCK_RANKS} a block"));
    }
    let max_stored = zstd::zstd_safe::compress_bound(DENSE_BLOCK_RANKS as usize * 2) as u64;
    let mut offset = 0u64;
    for (place, block) in header.blocks.iter().enumerate() {
        let first = place as u64 * DENSE_BLOCK_RANKS;
        if block.first_key != format!("{first:x}") || u64::from(block.records) != (ranks - first).min(DENSE_BLOCK_RANKS)
        {
            return Err(format!("block {place} does not hold the ranks of its place"));
        }
        let bytes = u64::from(block.bytes);
        if !(min_stored..=max_stored).contains(&bytes) {
            return Err(format!("block {place} claims {bytes} bytes, a block takes {min_stored} to {max_stored}"));
        }
        if block.offset != offset {
            return Err("the block index is out of order".into());
        }
        offset += bytes;
        if offset > data {
            return Err(format!("block {place} ends beyond the file's {data} bytes of blocks"));
        }
    }
    if offset != data {
        return Err("the block index does not match the file's size".into());
    }
    if header.records > ranks {
        return Err(format!("{} records in {ranks} ranks", header.records));
    }
    if header.counts.iter().try_fold(0u64, |sum, &count| sum.checked_add(count)) != Some(header.records) {
        return Err("the counts by value do not add up to the record count".into());
    }
    Ok(())
}
