//! One tier's file: a header, then the records in compressed blocks.
//!
//! Layout: the magic `LUDUS-DB`; the header's length (u32, little-endian); the header as JSON ([`Header`]:
//! format version, game, tier, the child tiers reached, record count, counts by value, the block index, the
//! checksum of the blocks); the header's crc32 (u32); then the blocks. A block holds up to [`BLOCK_RECORDS`]
//! records sorted by key: the count (u32), the first key and then the gaps between keys (LEB128), the records
//! (u16 each, little-endian), the whole compressed with zstd. The block index gives each block's first key,
//! place, length and crc32, so that a query reads one block.
//!
//! Invariant: a file is written under a temporary name, synced, then renamed, so a file with the final name is
//! always whole; the bytes depend only on the records (no time stamp), so equal solves give equal files.

use super::record::{Record, RecordKey};
use crate::error::{Error, Result};
use crate::value::Value;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The first bytes of every tier file.
pub const MAGIC: &[u8; 8] = b"LUDUS-DB";

/// The version of the file format this code writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// Records per block: a query decompresses one block (at most about 90 KiB).
pub const BLOCK_RECORDS: usize = 4096;

/// The zstd level: 3 compresses these blocks within a few percent of level 19, many times faster.
const COMPRESSION_LEVEL: i32 = 3;

/// The largest header read (the block index of about 20 billion records).
const MAX_HEADER_BYTES: u32 = 1 << 30;

/// The longest LEB128 form of a 128-bit gap.
const MAX_GAP_BYTES: usize = 19;

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
        match record.value() {
            Some(Value::Win(_)) => counts[0] += 1,
            Some(Value::Lose(_)) => counts[1] += 1,
            _ => counts[2] += 1,
        }
    }
    let mut checksum = crc32fast::Hasher::new();
    let mut offset = 0u64;
    let mut blocks = Vec::with_capacity(compressed.len());
    for (bytes, block) in compressed.iter().zip(records.chunks(BLOCK_RECORDS)) {
        checksum.update(bytes);
        let first_key = block.first().map(|(key, _)| key.to_wide()).unwrap_or(0);
        blocks.push(BlockEntry {
            first_key: format!("{first_key:x}"),
            records: block.len() as u32,
            offset,
            bytes: bytes.len() as u32,
            checksum: crc32fast::hash(bytes),
        });
        offset += bytes.len() as u64;
    }
    let header = Header {
        format: FORMAT_VERSION,
        game: name.game.clone(),
        tier: name.tier.clone(),
        reached,
        records: records.len() as u64,
        counts,
        blocks,
        checksum: checksum.finalize(),
    };
    let header_bytes = serde_json::to_vec(&header).map_err(|error| damaged(path, error.to_string()))?;
    let partial = partial_path(path);
    let written = (|| {
        let mut file = std::io::BufWriter::new(File::create(&partial)?);
        file.write_all(MAGIC)?;
        file.write_all(&(header_bytes.len() as u32).to_le_bytes())?;
        file.write_all(&header_bytes)?;
        file.write_all(&crc32fast::hash(&header_bytes).to_le_bytes())?;
        for bytes in &compressed {
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

/// The temporary name a tier file is written under.
pub fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// An open tier file: its header read and checked, its blocks read on demand.
#[derive(Debug)]
pub struct TierFile {
    path: PathBuf,
    file: File,
    header: Header,
    first_keys: Vec<u128>,
    /// Where the blocks start.
    data_start: u64,
    /// The block read last, with its place.
    cached: Option<(usize, Vec<(u128, Record)>)>,
}

impl TierFile {
    /// Opens the file at `path`, checking its magic, format version, header checksum and block index, and that
    /// it is the file of `name`.
    pub fn open(path: &Path, name: &TierName) -> Result<TierFile> {
        let mut file = File::open(path).map_err(|source| io_error(path, source))?;
        let size = file.metadata().map_err(|source| io_error(path, source))?.len();
        let mut magic = [0u8; 12];
        file.read_exact(&mut magic).map_err(|_| damaged(path, "shorter than a tier file's start"))?;
        if &magic[..8] != MAGIC {
            return Err(damaged(path, "not a Ludus database file (no LUDUS-DB at its start)"));
        }
        let length = u32::from_le_bytes([magic[8], magic[9], magic[10], magic[11]]);
        if length > MAX_HEADER_BYTES || u64::from(length) + 16 > size {
            return Err(damaged(path, format!("a header of {length} bytes does not fit the file")));
        }
        let mut header_bytes = vec![0u8; length as usize + 4];
        file.read_exact(&mut header_bytes).map_err(|source| io_error(path, source))?;
        let stored = header_bytes.split_off(length as usize);
        if crc32fast::hash(&header_bytes).to_le_bytes().as_slice() != stored.as_slice() {
            return Err(damaged(path, "the header's checksum does not match (the file is damaged)"));
        }
        let header: Header = serde_json::from_slice(&header_bytes)
            .map_err(|error| damaged(path, format!("the header is not valid: {error}")))?;
        if header.format != FORMAT_VERSION {
            return Err(damaged(
                path,
                format!("format version {}, this build reads version {FORMAT_VERSION}", header.format),
            ));
        }
        if header.game != name.game || header.tier != name.tier {
            return Err(damaged(
                path,
                format!("holds tier {} of {}, not tier {} of {}", header.tier, header.game, name.tier, name.game),
            ));
        }
        let data_start = 16 + u64::from(length);
        let mut first_keys = Vec::with_capacity(header.blocks.len());
        let (mut offset, mut records) = (0u64, 0u64);
        for block in &header.blocks {
            let key = u128::from_str_radix(&block.first_key, 16)
                .map_err(|_| damaged(path, format!("a block's first key `{}` is not hexadecimal", block.first_key)))?;
            if first_keys.last().is_some_and(|&last| last >= key) || block.offset != offset || block.records == 0 {
                return Err(damaged(path, "the block index is out of order"));
            }
            first_keys.push(key);
            offset += u64::from(block.bytes);
            records += u64::from(block.records);
        }
        if records != header.records || data_start + offset != size {
            return Err(damaged(path, "the block index does not match the file's size or record count"));
        }
        Ok(TierFile { path: path.to_path_buf(), file, header, first_keys, data_start, cached: None })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The number of blocks.
    pub fn blocks(&self) -> usize {
        self.first_keys.len()
    }

    /// The records of block `place`, its checksum checked.
    pub fn read_block(&mut self, place: usize) -> Result<Vec<(u128, Record)>> {
        let stored = self.read_stored(place)?;
        self.decode(place, &stored)
    }

    /// Block `place`'s bytes as stored, its checksum checked.
    fn read_stored(&mut self, place: usize) -> Result<Vec<u8>> {
        let entry = self.header.blocks.get(place).ok_or_else(|| damaged(&self.path, format!("no block {place}")))?;
        let (offset, checksum) = (self.data_start + entry.offset, entry.checksum);
        let mut bytes = vec![0u8; entry.bytes as usize];
        self.file.seek(SeekFrom::Start(offset)).map_err(|source| io_error(&self.path, source))?;
        self.file.read_exact(&mut bytes).map_err(|source| io_error(&self.path, source))?;
        if crc32fast::hash(&bytes) != checksum {
            return Err(damaged(&self.path, format!("block {place}'s checksum does not match (the file is damaged)")));
        }
        Ok(bytes)
    }

    /// The records of block `place` from its stored bytes.
    fn decode(&self, place: usize, stored: &[u8]) -> Result<Vec<(u128, Record)>> {
        let path = &self.path;
        let records = self.header.blocks.get(place).map_or(0, |entry| entry.records);
        let capacity = records as usize * (MAX_GAP_BYTES + 2) + 4;
        let plain = zstd::bulk::decompress(stored, capacity)
            .map_err(|error| damaged(path, format!("block {place} does not decompress: {error}")))?;
        let decoded =
            decode_block(&plain, records).map_err(|reason| damaged(path, format!("block {place}: {reason}")))?;
        if decoded.first().map(|(key, _)| *key) != self.first_keys.get(place).copied() {
            return Err(damaged(path, format!("block {place} does not start at its index's key")));
        }
        Ok(decoded)
    }

    /// The record of `key`, or `None` if the tier has no such key; reads at most one block.
    pub fn lookup(&mut self, key: u128) -> Result<Option<Record>> {
        let Some(place) = self.first_keys.partition_point(|&first| first <= key).checked_sub(1) else {
            return Ok(None);
        };
        if self.cached.as_ref().is_none_or(|(cached, _)| *cached != place) {
            let block = self.read_block(place)?;
            self.cached = Some((place, block));
        }
        let block = self.cached.as_ref().map(|(_, block)| block.as_slice()).unwrap_or(&[]);
        Ok(block
            .binary_search_by_key(&key, |(stored, _)| *stored)
            .ok()
            .and_then(|at| block.get(at))
            .map(|(_, record)| *record))
    }

    /// Every record, in key order, each block checked, and the blocks' checksum over the whole file.
    pub fn read_all(&mut self) -> Result<Vec<(u128, Record)>> {
        // The blocks lie end to end and fill the file after the header (checked when it was opened): their
        // bytes in order are the bytes the header's checksum covers, read once.
        let mut all = Vec::with_capacity(self.header.records as usize);
        let mut checksum = crc32fast::Hasher::new();
        for place in 0..self.blocks() {
            let stored = self.read_stored(place)?;
            checksum.update(&stored);
            all.extend(self.decode(place, &stored)?);
        }
        if checksum.finalize() != self.header.checksum {
            return Err(damaged(&self.path, "the blocks' checksum does not match the header (the file is damaged)"));
        }
        if all.windows(2).any(|pair| pair[0].0 >= pair[1].0) {
            return Err(damaged(&self.path, "the blocks' keys are out of order"));
        }
        Ok(all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name() -> TierName {
        TierName { game: "test".into(), tier: serde_json::json!([2, 1]) }
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
