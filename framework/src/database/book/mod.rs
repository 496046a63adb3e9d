//! Opening books: every position up to a number of plies from the start, up to symmetry, with its exact value,
//! in one file of the database format ([`super::file`]: a checked header, zstd blocks with checksums, bounds
//! checked before any allocation), so that an analysis, a game against the perfect player or the explorer
//! answers the first plies at once, where a search would take longest.
//!
//! Files: `build.rs` ([`build_book`]: the positions enumerated, the deepest ones searched by the game's engine
//! and every shallower one backed up from its moves; resumable through `journal.rs`, the values found so far),
//! `check.rs` ([`check_book`]: every position of the book's plies present, and a random sample searched again),
//! `engine.rs` ([`Booked`]: any engine, consulting a book before it searches).
//!
//! Invariant: a book's values are the values its game's exact engine gives: the deepest plies searched, the
//! others backed up from their moves' values exactly as an analysis reads them ([`SearchValue::for_move`] and
//! the best of them), so a book never tells an analysis what a search would not.

mod build;
mod check;
mod engine;
mod journal;

pub use build::{build_book, BookProgress, BookReport};
pub use check::{check_book, BookCheck};
pub use engine::Booked;

use super::file::{Header, TierFile, TierName};
use super::record::{Record, RecordKey};
use crate::analysis::SearchValue;
use crate::error::{Error, Result};
use crate::value::Value;
use std::path::{Path, PathBuf};

/// The file name extension of a book.
pub const BOOK_EXTENSION: &str = "book";

/// A value a book stores: one that a [`Record`] holds.
pub trait BookValue: SearchValue {
    /// The value as a record; `None` if a record cannot hold it (a remoteness or a score too large).
    fn to_record(self) -> Option<Record>;

    /// The value of a record; `None` for a record of another family.
    fn from_record(record: Record) -> Option<Self>;
}

impl BookValue for Value {
    fn to_record(self) -> Option<Record> {
        Record::from_value(self)
    }

    fn from_record(record: Record) -> Option<Value> {
        record.value()
    }
}

impl BookValue for i32 {
    fn to_record(self) -> Option<Record> {
        Record::from_score(self)
    }

    fn from_record(record: Record) -> Option<i32> {
        record.score()
    }
}

/// The file name of `game`'s book (its canonical name with `:` and `,` written `_`, which every file system
/// takes): `connect-four_width=7_height=6.book`.
pub fn book_file_name(game: &str) -> String {
    format!("{}.{BOOK_EXTENSION}", game.replace([':', ','], "_"))
}

/// The header's tier of a book of `depth` plies.
fn book_tier(depth: u32) -> serde_json::Value {
    serde_json::json!({ "opening-book": { "depth": depth } })
}

/// The depth of a book whose header's tier is `tier`, or `None` if it is no book's.
fn depth_of(tier: &serde_json::Value) -> Option<u32> {
    tier.get("opening-book")?.get("depth")?.as_u64().and_then(|depth| u32::try_from(depth).ok())
}

/// An opening book opened for reading: its file (header and block index checked), the game it is of and its
/// depth. A lookup reads at most one block.
#[derive(Debug)]
pub struct Book {
    file: TierFile,
    depth: u32,
}

impl Book {
    /// Opens the book at `path`, which must be a book of `game` (its canonical name): the file's magic, format,
    /// header checksum and block index are checked, and its header must name the game and a depth.
    pub fn open(path: &Path, game: &str) -> Result<Book> {
        let refused = |reason: String| Error::Database { path: path.display().to_string(), reason };
        // The errors of the database files (a directory's tiers) would say to move the file out of its
        // directory or to give another directory: a book is one file, given by its path.
        if let Ok(metadata) = std::fs::metadata(path) {
            if !metadata.is_file() {
                let kind =
                    if metadata.is_dir() { "a directory" } else { "not a regular file (a FIFO, socket or device)" };
                return Err(refused(format!("is {kind}, not an opening book (the file `ludus book build` writes)")));
            }
        }
        let header: Header = TierFile::header_of(path)?;
        let Some(depth) = depth_of(&header.tier) else {
            return Err(refused(format!("a file of tier {} of {}, not an opening book", header.tier, header.game)));
        };
        if header.game != game {
            return Err(refused(format!(
                "is an opening book of {}, not of {game} (`ludus book build {game}` writes one)",
                header.game
            )));
        }
        let name = TierName { game: game.to_string(), tier: book_tier(depth), ranks: None };
        Ok(Book { file: TierFile::open(path, &name)?, depth })
    }

    /// The plies from the start it holds every position of.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The positions it holds.
    pub fn positions(&self) -> u64 {
        self.file.header().records
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// The value of the position of canonical key `key`, or `None` if the book does not hold it. A record of
    /// another family is an error: the book is not of this game's values.
    pub fn lookup<Key: RecordKey, Worth: BookValue>(&mut self, key: Key) -> Result<Option<Worth>> {
        let Some(record) = self.file.lookup(key.to_wide())? else { return Ok(None) };
        match Worth::from_record(record) {
            Some(value) => Ok(Some(value)),
            None => Err(Error::Database {
                path: self.path().display().to_string(),
                reason: format!("the record {:#06x} is not a value of this game's family", record.bits()),
            }),
        }
    }

    /// Every record, in key order, each block's checksum and the blocks' checksum checked (the count bounded
    /// by the blocks the file holds, never by what its header claims).
    pub fn records(&mut self) -> Result<Vec<(u128, Record)>> {
        self.file.read_all()
    }
}

/// Where a book is looked for: a file given, or the book of the game in a directory of books.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookPlace {
    /// This file, which must be the game's book.
    File(PathBuf),
    /// The game's book in this directory ([`book_file_name`]), if there is one.
    Directory(PathBuf),
}

impl BookPlace {
    /// The book of `game` this place holds: `Ok(None)` for a directory without one; an error for a file that
    /// is not the game's book, or cannot be read.
    pub fn open(&self, game: &str) -> Result<Option<Book>> {
        match self {
            BookPlace::File(path) => Book::open(path, game).map(Some),
            BookPlace::Directory(directory) => {
                let path = directory.join(book_file_name(game));
                if path.exists() {
                    Book::open(&path, game).map(Some)
                } else {
                    Ok(None)
                }
            }
        }
    }
}
