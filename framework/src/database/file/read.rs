//! Reading a tier file ([`TierFile`]): the header and block index checked against the file's length and the
//! format's limits before anything is allocated, each block's checksum checked when it is read. Both layouts
//! (by key, format 1; by rank, format 2) are read through one interface whose "keys" are the file's keys in
//! format 1 and its ranks in format 2 (the database turns ranks into keys with the game's ranking).
//!
//! Invariant: no size read from a file reserves memory unchecked. A header is read only if it fits the file; a
//! block holds 1 to [`BLOCK_RECORDS`] records (format 1) or its share of [`DENSE_BLOCK_RANKS`] ranks (format
//! 2) in at least [`MIN_STORED_BLOCK_BYTES`] bytes (so the number of blocks is bounded by the file's length)
//! and at most zstd's bound for the largest block; records are never reserved from the header's count; a file
//! by rank is opened only with the reader's own rank space for the tier, equal to the header's, so that the
//! records by rank it reads are sized by the reader. A path that is not a regular file is refused before it
//! is opened.

use super::dense::{check_dense_index, counts, decode as decode_dense};
use super::{
    damaged, decode_block, io_error, Header, TierName, BLOCK_RECORDS, DENSE_BLOCK_RANKS, DENSE_FORMAT_VERSION,
    FORMAT_VERSION, MAGIC, MAX_GAP_BYTES, MAX_HEADER_BYTES, MAX_PLAIN_BLOCK_BYTES, MIN_STORED_BLOCK_BYTES,
};
use crate::database::record::Record;
use crate::error::{Error, Result};
use crate::error::{Remedy, Setting};
use rayon::prelude::*;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// The blocks [`TierFile::for_each_ranked_block`] holds as stored at once (at most 8 MiB of a file by rank's:
/// zstd's bound for 128 KiB each), enough for rayon's threads to share.
const BLOCKS_AT_ONCE: usize = 64;

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
    cached: Option<(usize, Block)>,
}

/// A block's records as read.
#[derive(Debug)]
enum Block {
    /// Format 1: keys and records.
    Keyed(Vec<(u128, Record)>),
    /// Format 2: the records of its ranks (0 for no position).
    Ranked(Vec<u16>),
}

/// The first keys of a header's blocks, once the block index is checked against the format's limits and the
/// `data` bytes after the header: each block holds 1 to [`BLOCK_RECORDS`] records in at least
/// [`MIN_STORED_BLOCK_BYTES`] and at most zstd's bound for the largest block, the blocks lie end to end and
/// fill the file, and their records add up to the header's count. `Err` says what is wrong.
fn check_index(header: &Header, data: u64) -> std::result::Result<Vec<u128>, String> {
    let blocks = header.blocks.len() as u64;
    if blocks.saturating_mul(MIN_STORED_BLOCK_BYTES) > data {
        return Err(format!("{blocks} blocks cannot fit in the file's {data} bytes of blocks"));
    }
    let max_stored = zstd::zstd_safe::compress_bound(MAX_PLAIN_BLOCK_BYTES) as u64;
    let mut first_keys = Vec::with_capacity(header.blocks.len());
    let (mut offset, mut records) = (0u64, 0u64);
    for (place, block) in header.blocks.iter().enumerate() {
        let key = u128::from_str_radix(&block.first_key, 16)
            .map_err(|_| format!("block {place}'s first key `{}` is not hexadecimal", block.first_key))?;
        if block.records == 0 || block.records as usize > BLOCK_RECORDS {
            return Err(format!("block {place} claims {} records, a block holds 1 to {BLOCK_RECORDS}", block.records));
        }
        let bytes = u64::from(block.bytes);
        if !(MIN_STORED_BLOCK_BYTES..=max_stored).contains(&bytes) {
            return Err(format!(
                "block {place} claims {bytes} bytes, a block takes {MIN_STORED_BLOCK_BYTES} to {max_stored}"
            ));
        }
        if first_keys.last().is_some_and(|&last| last >= key) || block.offset != offset {
            return Err("the block index is out of order".into());
        }
        first_keys.push(key);
        offset += bytes;
        records += u64::from(block.records);
        if offset > data {
            return Err(format!("block {place} ends beyond the file's {data} bytes of blocks"));
        }
    }
    if records != header.records || offset != data {
        return Err("the block index does not match the file's size or record count".into());
    }
    if header.counts.iter().try_fold(0u64, |sum, &count| sum.checked_add(count)) != Some(records) {
        return Err("the counts by value do not add up to the record count".into());
    }
    Ok(first_keys)
}

/// The ranks of positions in block `place` of a file by rank, with their records.
fn ranked_records(place: usize, records: &[u16]) -> Vec<(u128, Record)> {
    let first = place as u128 * u128::from(DENSE_BLOCK_RANKS);
    let positions = records.iter().enumerate().filter_map(|(at, &bits)| Some((at, Record::from_bits(bits)?)));
    positions.map(|(at, record)| (first + at as u128, record)).collect()
}

/// What a file with a tier's name turned out to be, for a solve that resumes from the tiers on disk.
#[derive(Debug)]
pub enum Inspected {
    /// A tier file of the tier, its header checked (its blocks are checked by [`TierFile::verify`]).
    Whole(TierFile),
    /// A file of this format whose bytes are wrong (a checksum, the block index, a size beyond the file or
    /// the format): its tier may be solved again over it. The error says what is wrong.
    Damaged(Error),
}

/// The error of a path that is not a regular file (a directory, a FIFO, a socket, a device), which is never
/// opened: opening a FIFO waits for a writer forever.
fn refuse_irregular(path: &Path, metadata: &std::fs::Metadata) -> Result<()> {
    let kind = if metadata.is_file() {
        return Ok(());
    } else if metadata.is_dir() {
        "a directory"
    } else {
        "not a regular file (a FIFO, socket or device)"
    };
    Err(damaged(path, format!("is {kind}, not a tier file: move it out of the database directory")))
}

/// The error of a file of another game, tier or format version, which a solve must not write over.
fn foreign(path: &Path, reason: String) -> Error {
    damaged(path, format!("{reason}: move it out of the database directory, or use another directory"))
}

/// A tier file's header as read by [`read_header`].
enum HeaderRead {
    /// The header, checked (magic, length, checksum, format version), with the file at the first block.
    Read {
        /// The file.
        file: File,
        /// Its header.
        header: Header,
        /// Where the blocks start.
        data_start: u64,
        /// The file's length.
        size: u64,
    },
    /// A file of this format whose header is damaged (the error says how).
    Damaged(Error),
}

/// Reads the header of the file at `path`: [`HeaderRead::Damaged`] for a damaged header of this format, an
/// error for what is not a tier file of this format version (not a regular file, unreadable, no magic).
fn read_header(path: &Path) -> Result<HeaderRead> {
    // The kind is checked before the file is opened, and again on the file opened (a FIFO swapped in
    // between would block the open until a writer comes: only a concurrent process can do that).
    refuse_irregular(path, &std::fs::metadata(path).map_err(|source| io_error(path, source))?)?;
    let mut file = File::open(path).map_err(|source| io_error(path, source))?;
    let metadata = file.metadata().map_err(|source| io_error(path, source))?;
    refuse_irregular(path, &metadata)?;
    let size = metadata.len();
    let mut magic = [0u8; 12];
    if size < 12 {
        let reason = format!(
            "{size} bytes, shorter than a tier file's start (12 bytes): delete it and run `ludus db solve` again"
        );
        return Err(damaged(path, reason));
    }
    file.read_exact(&mut magic).map_err(|source| io_error(path, source))?;
    if &magic[..8] != MAGIC {
        return Err(foreign(path, "not a Ludus database file (no LUDUS-DB at its start)".into()));
    }
    let length = u32::from_le_bytes([magic[8], magic[9], magic[10], magic[11]]);
    if length > MAX_HEADER_BYTES || u64::from(length) + 16 > size {
        let reason = format!("a header of {length} bytes does not fit the file of {size} bytes");
        return Ok(HeaderRead::Damaged(damaged(path, reason)));
    }
    // Allocated only once checked against the file's length, above.
    let mut header_bytes = vec![0u8; length as usize + 4];
    file.read_exact(&mut header_bytes).map_err(|source| io_error(path, source))?;
    let stored = header_bytes.split_off(length as usize);
    if crc32fast::hash(&header_bytes).to_le_bytes().as_slice() != stored.as_slice() {
        let reason = "the header's checksum does not match (the file is damaged)";
        return Ok(HeaderRead::Damaged(damaged(path, reason)));
    }
    let header: Header = match serde_json::from_slice(&header_bytes) {
        Ok(header) => header,
        Err(error) => return Ok(HeaderRead::Damaged(damaged(path, format!("the header is not valid: {error}")))),
    };
    if header.format != FORMAT_VERSION && header.format != DENSE_FORMAT_VERSION {
        let reason = format!(
            "format version {}, this build reads versions {FORMAT_VERSION} and {DENSE_FORMAT_VERSION}",
            header.format
        );
        return Err(foreign(path, reason));
    }
    let data_start = 16 + u64::from(length);
    Ok(HeaderRead::Read { file, header, data_start, size })
}

impl TierFile {
    /// Opens the file at `path`, checking its magic, format version, header checksum and block index, and that
    /// it is the file of `name`.
    pub fn open(path: &Path, name: &TierName) -> Result<TierFile> {
        match TierFile::inspect(path, name)? {
            Inspected::Whole(file) => Ok(file),
            Inspected::Damaged(error) => Err(error),
        }
    }

    /// [`TierFile::open`], telling a damaged file of this format ([`Inspected::Damaged`]) from what must not be
    /// written over (an error): a path that is not a regular file, a file that cannot be read, a file without
    /// this format's magic, of another format version, or of another game or tier.
    pub fn inspect(path: &Path, name: &TierName) -> Result<Inspected> {
        let (file, header, data_start, size) = match read_header(path)? {
            HeaderRead::Read { file, header, data_start, size } => (file, header, data_start, size),
            HeaderRead::Damaged(error) => return Ok(Inspected::Damaged(error)),
        };
        if header.game != name.game {
            // Another game's database: moving the file out would not make this one, for a query or a game
            // played from it as for a solve.
            let reason = format!(
                "holds tier {} of {}, not tier {} of {}: the directory holds another game's database (give a \
                 directory of {}'s own)",
                header.tier, header.game, name.tier, name.game, name.game
            );
            return Err(damaged(path, reason));
        }
        if header.tier != name.tier {
            let reason =
                format!("holds tier {} of {}, not tier {} of {}", header.tier, header.game, name.tier, name.game);
            return Err(foreign(path, reason));
        }
        let data = size - data_start;
        let checked = match (header.format, header.ranks, name.ranks) {
            (FORMAT_VERSION, None, _) => check_index(&header, data),
            (FORMAT_VERSION, Some(_), _) => Err("a file by key with a rank space".into()),
            (_, None, _) => Err("a file by rank without its rank space".into()),
            (_, Some(_), None) => {
                let reason = "laid out by rank: read it through the game's database, which ranks the tiers";
                return Err(foreign(path, reason.into()));
            }
            (_, Some(stored), Some(expected)) if stored != expected => {
                let reason = format!("a rank space of {stored} ranks, the game's tier has {expected}");
                return Err(foreign(path, reason));
            }
            (_, Some(ranks), Some(_)) => check_dense_index(&header, ranks, data, MIN_STORED_BLOCK_BYTES).map(|()| {
                (0..header.blocks.len() as u128).map(|place| place * u128::from(DENSE_BLOCK_RANKS)).collect()
            }),
        };
        match checked {
            Ok(first_keys) => Ok(Inspected::Whole(TierFile {
                path: path.to_path_buf(),
                file,
                header,
                first_keys,
                data_start,
                cached: None,
            })),
            Err(reason) => Ok(Inspected::Damaged(damaged(path, reason))),
        }
    }

    /// The game, with its parameters, that the tier file at `path` belongs to, read from its header (checked:
    /// magic, length, checksum, format version): how `ludus serve --db DIR` tells which game a directory holds.
    pub fn game_of(path: &Path) -> Result<String> {
        Ok(TierFile::header_of(path)?.game)
    }

    /// The header of the file at `path`, checked (magic, length, checksum, format version): what it holds,
    /// read before it is opened as that (an opening book's depth).
    pub fn header_of(path: &Path) -> Result<Header> {
        match read_header(path)? {
            HeaderRead::Read { header, .. } => Ok(header),
            HeaderRead::Damaged(error) => Err(error),
        }
    }

    /// Where the file is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads every block as stored, once, checking each block's checksum and the blocks' checksum (what a
    /// solve checks of a tier it resumes from, without decompressing it). An [`Error::Database`] says the file
    /// is damaged; an [`Error::Io`] that it could not be read.
    pub fn verify(&mut self) -> Result<()> {
        let mut checksum = crc32fast::Hasher::new();
        for place in 0..self.blocks() {
            checksum.update(&self.read_stored(place)?);
        }
        if checksum.finalize() != self.header.checksum {
            return Err(damaged(&self.path, "the blocks' checksum does not match the header (the file is damaged)"));
        }
        Ok(())
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The number of blocks.
    pub fn blocks(&self) -> usize {
        self.first_keys.len()
    }

    /// The rank space of a file laid out by rank (`None`: laid out by key).
    pub fn ranks(&self) -> Option<u64> {
        self.header.ranks
    }

    /// The records of block `place`, its checksum checked: keys and records (format 1), or the ranks of
    /// positions with their records (format 2).
    pub fn read_block(&mut self, place: usize) -> Result<Vec<(u128, Record)>> {
        let stored = self.read_stored(place)?;
        Ok(match self.decode(place, &stored)? {
            Block::Keyed(records) => records,
            Block::Ranked(records) => ranked_records(place, &records),
        })
    }

    /// The records of every rank of block `place` of a file laid out by rank (0 for no position), its checksum
    /// checked.
    pub fn read_ranks(&mut self, place: usize) -> Result<Vec<u16>> {
        let stored = self.read_stored(place)?;
        match self.decode(place, &stored)? {
            Block::Ranked(records) => Ok(records),
            Block::Keyed(_) => Err(damaged(&self.path, "a file laid out by key read by rank")),
        }
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
    fn decode(&self, place: usize, stored: &[u8]) -> Result<Block> {
        let path = &self.path;
        let records = self.header.blocks.get(place).map_or(0, |entry| entry.records);
        if self.header.ranks.is_some() {
            let plain = zstd::bulk::decompress(stored, records as usize * 2)
                .map_err(|error| damaged(path, format!("block {place} does not decompress: {error}")))?;
            return decode_dense(&plain, records)
                .map(Block::Ranked)
                .map_err(|reason| damaged(path, format!("block {place}: {reason}")));
        }
        let capacity = records as usize * (MAX_GAP_BYTES + 2) + 4;
        let plain = zstd::bulk::decompress(stored, capacity)
            .map_err(|error| damaged(path, format!("block {place} does not decompress: {error}")))?;
        let decoded =
            decode_block(&plain, records).map_err(|reason| damaged(path, format!("block {place}: {reason}")))?;
        if decoded.first().map(|(key, _)| *key) != self.first_keys.get(place).copied() {
            return Err(damaged(path, format!("block {place} does not start at its index's key")));
        }
        Ok(Block::Keyed(decoded))
    }

    /// The record of `key`, or `None` if the tier has no such key; reads at most one block.
    pub fn lookup(&mut self, key: u128) -> Result<Option<Record>> {
        let Some(place) = self.first_keys.partition_point(|&first| first <= key).checked_sub(1) else {
            return Ok(None);
        };
        if self.cached.as_ref().is_none_or(|(cached, _)| *cached != place) {
            let stored = self.read_stored(place)?;
            let block = self.decode(place, &stored)?;
            self.cached = Some((place, block));
        }
        Ok(match self.cached.as_ref().map(|(_, block)| block) {
            Some(Block::Keyed(block)) => block
                .binary_search_by_key(&key, |(stored, _)| *stored)
                .ok()
                .and_then(|at| block.get(at))
                .map(|(_, record)| *record),
            Some(Block::Ranked(block)) => {
                let first = self.first_keys.get(place).copied().unwrap_or(0);
                let at = usize::try_from(key - first).ok();
                at.and_then(|at| block.get(at)).and_then(|&bits| Record::from_bits(bits))
            }
            None => None,
        })
    }

    /// Every block of a file by rank, 64 at a time: read in order, each block's checksum checked, then
    /// decompressed and decoded on rayon's threads, `each(first_rank, records)` called for each (in no
    /// particular order). At most 64 blocks are held as stored at once (8 MiB), and one block's records a
    /// thread.
    pub fn for_each_ranked_block(&mut self, each: impl Fn(u64, &[u16]) -> Result<()> + Sync) -> Result<()> {
        if self.header.ranks.is_none() {
            return Err(damaged(&self.path, "a file laid out by key read by rank"));
        }
        let mut start = 0;
        while start < self.blocks() {
            let end = self.blocks().min(start + BLOCKS_AT_ONCE);
            let stored = (start..end).map(|place| self.read_stored(place)).collect::<Result<Vec<_>>>()?;
            let file = &*self;
            stored.par_iter().zip(start..end).try_for_each(|(stored, place)| match file.decode(place, stored)? {
                Block::Ranked(records) => {
                    let first = file.first_keys.get(place).and_then(|&first| u64::try_from(first).ok());
                    let first = first.ok_or_else(|| damaged(&file.path, format!("no first rank for block {place}")))?;
                    each(first, &records)
                }
                Block::Keyed(_) => Err(damaged(&file.path, "a file laid out by key read by rank")),
            })?;
            start = end;
        }
        Ok(())
    }

    /// The records of every rank, in order (0 for no position), each block checked, the blocks' checksum and
    /// the counts of the header too: 2 bytes a rank of the rank space, which the reader gave when it opened
    /// the file ([`TierName::ranks`]).
    pub fn read_all_ranks(&mut self) -> Result<Vec<u16>> {
        let ranks = self.header.ranks.ok_or_else(|| damaged(&self.path, "a file laid out by key read by rank"))?;
        let mut all = Vec::new();
        all.try_reserve_exact(ranks as usize).map_err(|_| crate::error::Error::Allocation {
            what: "a tier's records by rank",
            megabytes: (ranks * 2).div_ceil(1 << 20),
            remedies: vec![Remedy::Lower(Setting::MemoryMb), Remedy::Advice("use a larger machine".into())],
        })?;
        let mut checksum = crc32fast::Hasher::new();
        for place in 0..self.blocks() {
            let stored = self.read_stored(place)?;
            checksum.update(&stored);
            match self.decode(place, &stored)? {
                Block::Ranked(records) => all.extend_from_slice(&records),
                Block::Keyed(_) => return Err(damaged(&self.path, "a file laid out by key read by rank")),
            }
        }
        if checksum.finalize() != self.header.checksum {
            return Err(damaged(&self.path, "the blocks' checksum does not match the header (the file is damaged)"));
        }
        if counts(&all) != (self.header.counts, self.header.records) {
            return Err(damaged(&self.path, "the records do not match the header's counts"));
        }
        Ok(all)
    }

    /// Every record, in key order, each block checked, and the blocks' checksum over the whole file.
    pub fn read_all(&mut self) -> Result<Vec<(u128, Record)>> {
        // The blocks lie end to end and fill the file after the header (checked when it was opened): their
        // bytes in order are the bytes the header's checksum covers, read once. The records are not reserved
        // from the header's count: a crafted header could claim far more than its blocks hold.
        let mut all = Vec::new();
        let mut checksum = crc32fast::Hasher::new();
        for place in 0..self.blocks() {
            let stored = self.read_stored(place)?;
            checksum.update(&stored);
            match self.decode(place, &stored)? {
                Block::Keyed(records) => all.extend(records),
                Block::Ranked(records) => all.extend(ranked_records(place, &records)),
            }
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
