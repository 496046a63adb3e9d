//! One tier's file: a header, then the records in compressed blocks.
//!
//! Layout: the magic `LUDUS-DB`; the header's length (u32, little-endian); the header as JSON ([`Header`]:
//! format version, game, tier, the child tiers reached, record count, counts by value, the block index, the
//! checksum of the blocks, and for format 2 the rank space); the header's crc32 (u32); then the blocks, each
//! compressed with zstd, whose place, length and crc32 the block index gives, so that a query reads one block.
//! Two layouts of the blocks:
//! - format 1, by key (any game): a block holds up to [`BLOCK_RECORDS`] records sorted by key: the count
//!   (u32), the first key and then the gaps between keys (LEB128), the records (u16 each, little-endian);
//! - format 2, by rank (a game that ranks its tiers, `dense.rs`): the records of every rank of the tier in
//!   order, [`DENSE_BLOCK_RANKS`] a block, u16 each, 0 at the ranks of no position: no key is stored.
//!
//! Invariant: a file is written under a temporary name, synced, then renamed, so a file with the final name is
//! always whole; the bytes depend only on the records (no time stamp), so equal solves give equal files.

mod dense;
mod read;

pub use dense::{
    compress_blocks, write_compressed, write_dense_tier, write_dense_tier_by_blocks, CompressedBlock,
    DENSE_BLOCK_RANKS, DENSE_FORMAT_VERSION,
};
pub use read::{Inspected, TierFile};

use super::record::{Record, RecordKey};
use crate::error::{Error, Result};
use crate::value::Value;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first bytes of every tier file.
pub const MAGIC: &[u8; 8] = b"LUDUS-DB";

/// The version of the file format laid out by key (format 2, by rank, is [`DENSE_FORMAT_VERSION`]).
pub const FORMAT_VERSION: u32 = 1;

/// Records per block: a query decompresses one block (at most about 90 KiB).
pub const BLOCK_RECORDS: usize = 4096;

/// The zstd level: 3 compresses these blocks within a few percent of level 19 (sorted keys) or 40% of it
/// (records by rank), many times faster (BENCHMARKS.md, "Files on disk").
const COMPRESSION_LEVEL: i32 = 3;

/// The largest header read (the block index of about 20 billion records).
const MAX_HEADER_BYTES: u32 = 1 << 30;

/// The longest LEB128 form of a 128-bit gap.
const MAX_GAP_BYTES: usize = 19;

/// The most bytes a block takes before compression: its count, [`BLOCK_RECORDS`] keys and records.
const MAX_PLAIN_BLOCK_BYTES: usize = 4 + BLOCK_RECORDS * (MAX_GAP_BYTES + 2);

/// The fewest bytes a stored block takes: a zstd frame is at least its magic number (4 bytes), its frame
/// header (at least 1) and a block header (3). Bounds the number of blocks by the file's length.
const MIN_STORED_BLOCK_BYTES: u64 = 8;

/// A tier file's header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// [`FORMAT_VERSION`] when written.
    pub format: u32,
    /// The game with its parameters (`connect-four:width=5,height=4`).
    pub game: String,
    /// The tier, in the game's serde form.
    pub tier: serde_json::Value,
    /// The child tiers that the tier's moves reach.
    pub reached: Vec<serde_json::Value>,
    /// Records in the file.
    pub records: u64,
    /// Records by value for the player to move: won, lost, drawn.
    pub counts: [u64; 3],
    /// The blocks, in key order.
    pub blocks: Vec<BlockEntry>,
    /// The crc32 of every block's bytes as stored, in order.
    pub checksum: u32,
    /// Format 2 only: the tier's rank space; the blocks hold the records of ranks `0..ranks` in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ranks: Option<u64>,
}

/// Where a block is and what it holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockEntry {
    /// Its first key, in hexadecimal (JSON numbers stop short of 128 bits).
    pub first_key: String,
    /// Its records.
    pub records: u32,
    /// Its place after the header.
    pub offset: u64,
    /// Its length as stored.
    pub bytes: u32,
    /// The crc32 of its bytes as stored.
    pub checksum: u32,
}

/// What a header says besides the records: written by the solve, checked when a file is opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TierName {
    /// The game with its parameters.
    pub game: String,
    /// The tier, in the game's serde form.
    pub tier: serde_json::Value,
    /// The tier's rank space, for a reader that ranks the game's tiers: a file laid out by rank must have it
    /// (a file laid out by key is read by key either way). `None`: the reader does not rank, and refuses
    /// files laid out by rank.
    pub ranks: Option<u64>,
}

/// The error of a file that is not a valid tier file.
fn damaged(path: &Path, reason: impl Into<String>) -> Error {
    Error::Database { path: path.display().to_string(), reason: reason.into() }
}

/// The error of a failed read or write.
fn io_error(path: &Path, source: std::io::Error) -> Error {
    Error::Io { path: path.display().to_string(), cause: source }
}

/// The block's bytes before compression.
fn encode_block<Key: RecordKey>(records: &[(Key, Record)]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(4 + records.len() * 6);
    bytes.extend_from_slice(&(records.len() as u32).to_le_bytes());
    let mut previous = 0u128;
    for (place, (key, _)) in records.iter().enumerate() {
        let wide = key.to_wide();
        let mut gap = if place == 0 { wide } else { wide - previous };
        previous = wide;
        loop {
            let byte = (gap & 0x7f) as u8;
            gap >>= 7;
            if gap == 0 {
                bytes.push(byte);
                break;
            }
            bytes.push(byte | 0x80);
        }
    }
    for (_, record) in records {
        bytes.extend_from_slice(&record.bits().to_le_bytes());
    }
    bytes
}

/// A block's records from its bytes before compression; `Err` says what is wrong.
fn decode_block(bytes: &[u8], expected: u32) -> std::result::Result<Vec<(u128, Record)>, String> {
    let count_bytes: [u8; 4] =
        bytes.get(..4).and_then(|head| head.try_into().ok()).ok_or("a block without its count")?;
    let count = u32::from_le_bytes(count_bytes);
    if count != expected {
        return Err(format!("a block holds {count} records, its index says {expected}"));
    }
    let mut at = 4;
    let mut keys = Vec::with_capacity(count as usize);
    let mut previous = 0u128;
    for place in 0..count {
        let mut gap = 0u128;
        let mut shift = 0;
        loop {
            let byte = *bytes.get(at).ok_or("a block ends inside its keys")?;
            at += 1;
            if shift >= 128 || (shift == 126 && byte > 0x03) {
                return Err("a key gap beyond 128 bits".into());
            }
            gap |= u128::from(byte & 0x7f) << shift;
            shift += 7;
            if byte & 0x80 == 0 {
                break;
            }
        }
        if place > 0 && gap == 0 {
            return Err("a block lists a key twice or out of order".into());
        }
        previous = previous.checked_add(gap).ok_or("a key beyond 128 bits")?;
        keys.push(previous);
    }
    let records = bytes.get(at..).ok_or("a block ends before its records")?;
    if records.len() != count as usize * 2 {
        return Err(format!("a block's records take {} bytes, not {}", records.len(), count as usize * 2));
    }
    keys.into_iter()
        .zip(records.chunks_exact(2))
        .map(|(key, pair)| {
            let bits = u16::from_le_bytes([pair[0], pair[1]]);
            Record::from_bits(bits).map(|record| (key, record)).ok_or_else(|| format!("{bits:#06x} is no record"))
        })
        .collect()
}

/// Writes a tier's file at `path` (through a temporary file renamed at the end) from its records, each key
/// once, in any order. Returns the file's size in bytes.
pub fn write_tier<Key: RecordKey>(
    path: &Path,
    name: &TierName,
    reached: Vec<serde_json::Value>,
    mut records: Vec<(Key, Record)>,
) -> Result<u64> {
    records.par_sort_unstable_by_key(|(key, _)| *key);
    if let Some(pair) = records.windows(2).find(|pair| pair[0].0 == pair[1].0) {
        return Err(damaged(path, format!("the records list the key {:?} twice", pair[0].0)));
    }
    let compressed: Vec<Vec<u8>> = records
        .par_chunks(BLOCK_RECORDS)
        .map(|block| zstd::bulk::compress(&encode_block(block), COMPRESSION_LEVEL))
        .collect::<std::io::Result<_>>()
        .map_err(|source| io_error(path, source))?;
    let mut counts = [0u64; 3];
    for (_, record) in &records {
        // A scored game's records count by the sign of their score.
        match (record.value(), record.score().map(i32::signum)) {
            (Some(Value::Win(_)), _) | (_, Some(1)) => counts[0] += 1,
            (Some(Value::Lose(_)), _) | (_, Some(-1)) => counts[1] += 1,
            _ => counts[2] += 1,
        }
    }
    let sizes: Vec<u32> = records.chunks(BLOCK_RECORDS).map(|block| block.len() as u32).collect();
    let first: Vec<u128> =
        records.chunks(BLOCK_RECORDS).map(|block| block.first().map_or(0, |(key, _)| key.to_wide())).collect();
    let (blocks, checksum) = block_index(&compressed, &sizes, &first);
    let header = Header {
        format: FORMAT_VERSION,
        game: name.game.clone(),
        tier: name.tier.clone(),
        reached,
        records: records.len() as u64,
        counts,
        blocks,
        checksum,
        ranks: None,
    };
    write_file(path, &header, &compressed)
}

/// Writes a file of `header` and its `compressed` blocks at `path`, through a temporary file synced and
/// renamed at the end. Returns the file's size in bytes.
fn write_file(path: &Path, header: &Header, compressed: &[Vec<u8>]) -> Result<u64> {
    let header_bytes = serde_json::to_vec(header).map_err(|error| damaged(path, error.to_string()))?;
    let partial = partial_path(path);
    let written = (|| {
        let mut file = std::io::BufWriter::new(File::create(&partial)?);
        file.write_all(MAGIC)?;
        file.write_all(&(header_bytes.len() as u32).to_le_bytes())?;
        file.write_all(&header_bytes)?;
        file.write_all(&crc32fast::hash(&header_bytes).to_le_bytes())?;
        for bytes in compressed {
            file.write_all(bytes)?;
        }
        let file = file.into_inner().map_err(|error| error.into_error())?;
        file.sync_all()?;
        let size = file.metadata()?.len();
        std::fs::rename(&partial, path)?;
        Ok(size)
    })();
    written.map_err(|source| io_error(path, source))
}

/// The block index of `compressed` blocks holding `records[place]` records each, starting at the keys (or
/// ranks) `first[place]`, with the crc32 of all their bytes.
fn block_index(compressed: &[Vec<u8>], records: &[u32], first: &[u128]) -> (Vec<BlockEntry>, u32) {
    let mut checksum = crc32fast::Hasher::new();
    let mut offset = 0u64;
    let mut blocks = Vec::with_capacity(compressed.len());
    for ((bytes, &count), &first_key) in compressed.iter().zip(records).zip(first) {
        checksum.update(bytes);
        blocks.push(BlockEntry {
            first_key: format!("{first_key:x}"),
            records: count,
            offset,
            bytes: bytes.len() as u32,
            checksum: crc32fast::hash(bytes),
        });
        offset += bytes.len() as u64;
    }
    (blocks, checksum.finalize())
}

/// The temporary name a tier file is written under.
pub fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name() -> TierName {
        TierName { game: "test".into(), tier: serde_json::json!([2, 1]), ranks: None }
    }

    fn records(count: u64) -> Vec<(u64, Record)> {
        (0..count)
            .map(|index| {
                let value = match index % 3 {
                    0 => Value::Win((index % 50) as u32),
                    1 => Value::Lose((index % 40) as u32),
                    _ => Value::Draw,
                };
                (index * index * 7 + 3, Record::from_value(value).unwrap())
            })
            .collect()
    }

    #[test]
    fn a_tier_by_rank_reads_back_block_by_block_on_several_threads() {
        use std::sync::atomic::{AtomicU16, Ordering};
        let dir = std::env::temp_dir().join(format!("ludus-file-test-ranks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tier.ludb");
        // More blocks than are read at once, the last one short.
        let ranks = DENSE_BLOCK_RANKS * 150 + 1234;
        let name = TierName { ranks: Some(ranks), ..name() };
        let record = |rank: u64| Record::from_score((rank.wrapping_mul(2_654_435_761) % 61) as i32 - 30).unwrap();
        let written: Vec<u16> = (0..ranks).map(|rank| if rank % 7 == 0 { 0 } else { record(rank).bits() }).collect();
        write_dense_tier(&path, &name, Vec::new(), &written).unwrap();
        let mut file = TierFile::open(&path, &name).unwrap();
        assert_eq!(file.blocks(), 151);
        let read: Vec<AtomicU16> = (0..ranks).map(|_| AtomicU16::new(u16::MAX)).collect();
        file.for_each_ranked_block(|first, records| {
            for (offset, &bits) in records.iter().enumerate() {
                read[first as usize + offset].store(bits, Ordering::Relaxed);
            }
            Ok(())
        })
        .unwrap();
        assert!(read.iter().map(|bits| bits.load(Ordering::Relaxed)).eq(written.iter().copied()));
        // A flipped byte in a block of the third batch is found by its checksum.
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 100;
        bytes[last] ^= 0x10;
        std::fs::write(&path, &bytes).unwrap();
        let mut file = TierFile::open(&path, &name).unwrap();
        let error = file.for_each_ranked_block(|_, _| Ok(())).unwrap_err();
        assert!(error.to_string().contains("checksum"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_written_tier_reads_back_by_key_and_whole() {
        let dir = std::env::temp_dir().join(format!("ludus-file-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tier.ludb");
        let mut written = records(10_000);
        written.reverse();
        write_tier(&path, &name(), vec![serde_json::json!([1, 1])], written.clone()).unwrap();
        let mut file = TierFile::open(&path, &name()).unwrap();
        assert_eq!(file.header().records, 10_000);
        assert_eq!(file.blocks(), 3);
        for (key, record) in written.iter().step_by(97) {
            assert_eq!(file.lookup(u128::from(*key)).unwrap(), Some(*record));
            assert_eq!(file.lookup(u128::from(*key) + 1).unwrap(), None);
        }
        assert_eq!(file.lookup(0).unwrap(), None);
        let mut sorted = written;
        sorted.sort_by_key(|(key, _)| *key);
        let all = file.read_all().unwrap();
        assert_eq!(all, sorted.iter().map(|(key, record)| (u128::from(*key), *record)).collect::<Vec<_>>());
        // Another game's name, and a flipped byte anywhere in the blocks, are refused.
        let other = TierName { game: "other".into(), ..name() };
        assert!(matches!(TierFile::open(&path, &other), Err(Error::Database { .. })));
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 100;
        bytes[last] ^= 0x10;
        std::fs::write(&path, &bytes).unwrap();
        let mut file = TierFile::open(&path, &name()).unwrap();
        assert!(matches!(file.read_all(), Err(Error::Database { .. })));
        // A flipped byte in the header is refused at once.
        bytes[20] ^= 0x01;
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(TierFile::open(&path, &name()), Err(Error::Database { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Rewrites the header of the file at `path` with `change`, its checksum recomputed so that it passes.
    fn craft(path: &Path, original: &[u8], change: impl FnOnce(&mut Header)) {
        let length = u32::from_le_bytes(original[8..12].try_into().unwrap()) as usize;
        let mut header: Header = serde_json::from_slice(&original[12..12 + length]).unwrap();
        change(&mut header);
        let header_bytes = serde_json::to_vec(&header).unwrap();
        let mut crafted = MAGIC.to_vec();
        crafted.extend_from_slice(&(header_bytes.len() as u32).to_le_bytes());
        crafted.extend_from_slice(&header_bytes);
        crafted.extend_from_slice(&crc32fast::hash(&header_bytes).to_le_bytes());
        crafted.extend_from_slice(&original[16 + length..]);
        std::fs::write(path, crafted).unwrap();
    }

    #[test]
    fn crafted_block_indexes_are_refused_before_anything_is_allocated() {
        let dir = std::env::temp_dir().join(format!("ludus-file-crafted-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tier.ludb");
        write_tier(&path, &name(), vec![], records(10_000)).unwrap();
        let original = std::fs::read(&path).unwrap();
        let huge = |header: &mut Header| {
            header.records += u64::from(u32::MAX - header.blocks[0].records);
            header.blocks[0].records = u32::MAX;
        };
        let empty = |header: &mut Header| {
            header.blocks = (0..200_000u64)
                .map(|place| BlockEntry {
                    first_key: format!("{place:x}"),
                    records: BLOCK_RECORDS as u32,
                    offset: 0,
                    bytes: 0,
                    checksum: 0,
                })
                .collect();
            header.records = 200_000 * BLOCK_RECORDS as u64;
            header.counts = [header.records, 0, 0];
        };
        let wide = |header: &mut Header| header.blocks[0].bytes = u32::MAX;
        let counts = |header: &mut Header| header.counts[0] += 1;
        type Change<'change> = &'change dyn Fn(&mut Header);
        let cases: [(&str, Change); 4] = [
            ("block 0 claims 4294967295 records, a block holds 1 to 4096", &huge),
            ("200000 blocks cannot fit", &empty),
            ("block 0 claims 4294967295 bytes", &wide),
            ("the counts by value do not add up", &counts),
        ];
        for (expected, change) in cases {
            craft(&path, &original, change);
            match TierFile::open(&path, &name()) {
                Err(Error::Database { reason, .. }) => assert!(reason.contains(expected), "{expected}: {reason}"),
                other => panic!("{expected}: {other:?}"),
            }
            assert!(matches!(TierFile::inspect(&path, &name()), Ok(Inspected::Damaged(_))), "{expected}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_damaged_block_fails_the_verification_and_what_is_no_file_is_refused_by_name() {
        let dir = std::env::temp_dir().join(format!("ludus-file-verify-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tier.ludb");
        write_tier(&path, &name(), vec![], records(10_000)).unwrap();
        TierFile::open(&path, &name()).unwrap().verify().unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff;
        std::fs::write(&path, &bytes).unwrap();
        let mut file = TierFile::open(&path, &name()).unwrap();
        assert!(matches!(file.verify(), Err(Error::Database { .. })));
        // A directory in place of the file: refused (not damaged: a solve must not write over it).
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        match TierFile::inspect(&path, &name()) {
            Err(Error::Database { reason, .. }) => assert!(reason.starts_with("is a directory, not a tier file")),
            other => panic!("{other:?}"),
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn blocks_with_bad_contents_are_refused() {
        let block = encode_block(&records(10));
        assert_eq!(decode_block(&block, 10).unwrap().len(), 10);
        assert!(decode_block(&block, 11).is_err());
        assert!(decode_block(&block[..block.len() - 1], 10).is_err());
        let twice = [(5u64, Record::from_value(Value::Draw).unwrap()); 2];
        assert!(decode_block(&encode_block(&twice), 2).is_err());
        assert!(decode_block(&[], 0).is_err());
    }
}
