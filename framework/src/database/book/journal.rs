//! The journal of a book being built: the values of the deepest plies' positions found so far, one fixed-size
//! entry each, so that a build stopped (Ctrl-C, a kill, a crash) resumes where it was.
//!
//! Layout: the magic `LUDUSJNL`; the header's length (u32, little-endian); the header as JSON (`game`,
//! `depth`); its crc32 (u32); then entries of [`ENTRY_BYTES`]: the key (u128), the record (u16) and the crc32
//! of those 18 bytes (u32), all little-endian. A last entry cut short, or whose checksum fails, is the torn
//! end of a write that was under way: it is dropped, and its position searched again. A failed checksum
//! before the last entry is damage: the journal is refused.

use crate::database::record::Record;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The first bytes of a journal.
const MAGIC: &[u8; 8] = b"LUDUSJNL";
/// The bytes of an entry.
pub const ENTRY_BYTES: u64 = 22;
/// The longest header read.
const MAX_HEADER_BYTES: u32 = 4096;
/// Entries written between two syncs to the disk.
const SYNC_EVERY: u32 = 64;

/// What a journal is of.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct JournalHeader {
    game: String,
    depth: u32,
}

/// The journal's path beside the book's.
pub fn journal_path(book: &Path) -> PathBuf {
    let mut name = book.as_os_str().to_os_string();
    name.push(".journal");
    PathBuf::from(name)
}

fn damaged(path: &Path, reason: impl Into<String>) -> Error {
    Error::Database { path: path.display().to_string(), reason: reason.into() }
}

fn io_error(path: &Path, cause: std::io::Error) -> Error {
    Error::Io { path: path.display().to_string(), cause }
}

/// A journal open for appending.
pub struct Journal {
    path: PathBuf,
    file: File,
    unsynced: u32,
}

impl Journal {
    /// Opens the journal at `path` of the book of `game` to `depth` plies, or starts it: the entries already
    /// in it, each of a key that `wanted` holds (a key it does not hold is a journal of another book).
    pub fn open(
        path: &Path,
        game: &str,
        depth: u32,
        wanted: impl Fn(u128) -> bool,
    ) -> Result<(Journal, HashMap<u128, Record>)> {
        let header = JournalHeader { game: game.to_string(), depth };
        if !path.exists() {
            let mut file = File::create(path).map_err(|cause| io_error(path, cause))?;
            let bytes = serde_json::to_vec(&header).map_err(|error| Error::internal("book", error.to_string()))?;
            let mut start = MAGIC.to_vec();
            start.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
            start.extend_from_slice(&bytes);
            start.extend_from_slice(&crc32fast::hash(&bytes).to_le_bytes());
            file.write_all(&start).and_then(|()| file.sync_all()).map_err(|cause| io_error(path, cause))?;
            return Ok((Journal { path: path.to_path_buf(), file, unsynced: 0 }, HashMap::new()));
        }
        let mut file = OpenOptions::new().read(true).write(true).open(path).map_err(|cause| io_error(path, cause))?;
        let size = file.metadata().map_err(|cause| io_error(path, cause))?.len();
        let mut start = [0u8; 12];
        if size < 16 {
            return Err(damaged(path, format!("{size} bytes, shorter than a journal's start: delete it")));
        }
        file.read_exact(&mut start).map_err(|cause| io_error(path, cause))?;
        if &start[..8] != MAGIC {
            return Err(damaged(path, "not a book's journal (no LUDUSJNL at its start): move it away"));
        }
        let length = u32::from_le_bytes([start[8], start[9], start[10], start[11]]);
        if length > MAX_HEADER_BYTES || u64::from(length) + 16 > size {
            return Err(damaged(path, format!("a header of {length} bytes does not fit: delete the journal")));
        }
        // Allocated only once checked against the file's length and the bound, above.
        let mut bytes = vec![0u8; length as usize + 4];
        file.read_exact(&mut bytes).map_err(|cause| io_error(path, cause))?;
        let stored = bytes.split_off(length as usize);
        if crc32fast::hash(&bytes).to_le_bytes().as_slice() != stored.as_slice() {
            return Err(damaged(path, "the header's checksum does not match: delete the journal"));
        }
        let found: JournalHeader = serde_json::from_slice(&bytes)
            .map_err(|error| damaged(path, format!("the header is not valid: {error}")))?;
        if found != header {
            return Err(damaged(
                path,
                format!(
                    "the journal of the book of {} to {} plies, not of {game} to {depth}: move it away",
                    found.game, found.depth
                ),
            ));
        }
        let data_start = 16 + u64::from(length);
        let whole = (size - data_start) / ENTRY_BYTES;
        let mut entries = HashMap::new();
        let mut kept = 0;
        let mut reader = std::io::BufReader::new(&mut file);
        for place in 0..whole {
            let mut entry = [0u8; ENTRY_BYTES as usize];
            reader.read_exact(&mut entry).map_err(|cause| io_error(path, cause))?;
            let checksum = u32::from_le_bytes([entry[18], entry[19], entry[20], entry[21]]);
            let torn = || place + 1 == whole;
            if crc32fast::hash(&entry[..18]) != checksum {
                if torn() {
                    break;
                }
                return Err(damaged(path, format!("entry {place}'s checksum does not match: delete the journal")));
            }
            let mut key = [0u8; 16];
            key.copy_from_slice(&entry[..16]);
            let key = u128::from_le_bytes(key);
            let bits = u16::from_le_bytes([entry[16], entry[17]]);
            let record = Record::from_bits(bits)
                .ok_or_else(|| damaged(path, format!("entry {place} holds {bits:#06x}, no record")))?;
            if !wanted(key) {
                return Err(damaged(path, format!("entry {place} is of a position the book does not search")));
            }
            entries.insert(key, record);
            kept = place + 1;
        }
        drop(reader);
        // The torn end goes: the next entry is written where the last whole one ends.
        let end = data_start + kept * ENTRY_BYTES;
        file.set_len(end).and_then(|()| file.seek(SeekFrom::Start(end))).map_err(|cause| io_error(path, cause))?;
        Ok((Journal { path: path.to_path_buf(), file, unsynced: 0 }, entries))
    }

    /// Appends the value of the position of key `key`.
    pub fn append(&mut self, key: u128, record: Record) -> Result<()> {
        let mut entry = [0u8; ENTRY_BYTES as usize];
        entry[..16].copy_from_slice(&key.to_le_bytes());
        entry[16..18].copy_from_slice(&record.bits().to_le_bytes());
        let checksum = crc32fast::hash(&entry[..18]);
        entry[18..].copy_from_slice(&checksum.to_le_bytes());
        self.file.write_all(&entry).map_err(|cause| io_error(&self.path, cause))?;
        self.unsynced += 1;
        if self.unsynced >= SYNC_EVERY {
            self.sync()?;
        }
        Ok(())
    }

    /// Makes every entry written durable.
    pub fn sync(&mut self) -> Result<()> {
        self.unsynced = 0;
        self.file.sync_data().map_err(|cause| io_error(&self.path, cause))
    }
}
