//! Endgame databases: every position of the tiers `0..=bound` of an [`EndgameTiers`] game, solved by rank
//! from the smallest tier up (`solve.rs`), one file per tier in the layout by rank (format 2, score records:
//! the part of the value still to play for, [`EndgameTiers::banked`] apart), loaded whole into memory
//! ([`EndgameTables`], a byte a rank) and probed by the scored search at every position inside the bound
//! (`probe.rs`: [`WithEndgame`], the game whose shortcut is the probe, and [`Probing`], any scored engine over
//! it).
//!
//! A value is stored less its banked part, so one database serves every game of the same
//! [`EndgameTiers::endgame_family`]: Kalah's tiers (the seeds left in the pits) are the same whatever the seeds
//! at the start, and the stores are banked.
//!
//! The memory model, in bytes, while tier `t` is solved: `sum(size(u), u <= t)` for the tiers (one byte a
//! rank: every lower tier stays in memory, since a move may fall to any of them), and, while its file is
//! written, its blocks as compressed (allowed `5/8 * size(t)`, [`write_overhead`]). A probe holds the tiers it
//! loaded: `sum(size(u), u <= bound)`.
//!
//! A database is found by its family: [`EndgamePlace::Databases`] looks in a directory of databases for the
//! folder named after the family ([`endgame_folder_name`]), where `ludus db solve GAME --up-to N` writes by
//! default.
//!
//! Invariant: a tier's value at every rank is the best over its moves of the child's value, read from the tier
//! below it or solved first within the tier, or the final score at the end, less the banked part; a loaded tier
//! file has its family, tier and rank space checked before anything is allocated, and every block's checksum
//! when it is read.

mod probe;
mod solve;

pub use probe::{Probing, WithEndgame};
pub use solve::{check_endgame, solve_endgame, EndgameSolve};

use super::file::{TierFile, TierName};
use super::record::Record;
use crate::error::{Error, Remedy, Result, Setting};
use crate::scored::EndgameTiers;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI8, AtomicU64, Ordering};

/// A rank not solved yet (no value reaches it: values lie within `-127..=127`).
const UNSOLVED: i8 = i8::MIN;

/// One tier's values by rank (less the banked parts); atomic so that the solve fills it from several threads.
type Tier = Box<[AtomicI8]>;

/// The file of `tier` in `directory`.
pub fn tier_path(directory: &Path, tier: u32) -> PathBuf {
    directory.join(format!("endgame-{tier:03}.ludb"))
}

/// The tiers whose files are in `directory`, from `first` up: a database's are 0 up to its bound, and any other
/// is the damage [`EndgameTables::open`] names.
fn tiers_held(directory: &Path, first: u32) -> impl Iterator<Item = u32> + '_ {
    (first..=u32::from(u8::MAX)).filter(move |&tier| tier_path(directory, tier).is_file())
}

/// Whether `directory` holds an endgame database, whole or damaged (a tier file of one, tier 0 or not): opening
/// it says which.
pub fn holds_endgame(directory: &Path) -> bool {
    tiers_held(directory, 0).next().is_some()
}

/// Where an endgame database is looked for (`analyze --endgame DIR`, or the databases directory by default).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndgamePlace {
    /// This directory, which must hold a database of the game's family.
    Directory(PathBuf),
    /// The database of the game's family in this directory of databases ([`endgame_folder_name`]), if there
    /// is one.
    Databases(PathBuf),
}

impl EndgamePlace {
    /// The directory of the database of `family` this place names: a directory given, as it is (opening it
    /// says what is wrong with it); in a directory of databases, the family's folder if it holds a database
    /// ([`holds_endgame`]: a damaged one too, which opening names), else `None`.
    pub fn directory(&self, family: &str) -> Option<PathBuf> {
        match self {
            EndgamePlace::Directory(directory) => Some(directory.clone()),
            EndgamePlace::Databases(databases) => {
                let directory = databases.join(endgame_folder_name(family));
                holds_endgame(&directory).then_some(directory)
            }
        }
    }
}

/// The folder of the endgame database of `family` in a directory of databases: the family with `:` and `,`
/// written `_`, and `.endgame` (`kalah_pits=6_capture=opposite.endgame`), as a book's file is named after its
/// game.
pub fn endgame_folder_name(family: &str) -> String {
    format!("{}.endgame", family.replace([':', ','], "_"))
}

/// The name a tier's file carries: the game's family, the tier and its rank space.
fn tier_name(family: &str, tier: u32, size: u64) -> TierName {
    TierName { game: format!("endgame of {family}"), tier: serde_json::json!(tier), ranks: Some(size) }
}

/// The bytes the compressed blocks of a tier of `size` ranks may take while its file is written: the memory
/// model's allowance, five eighths of a byte a rank (Kalah's tiers compress to 0.46 to 0.52, BENCHMARKS.md).
pub fn write_overhead(size: u64) -> u64 {
    size / 8 * 5
}

/// The size of `tier` as the memory it takes, or an error if the game cannot count it.
fn tier_size<Ruleset: EndgameTiers>(game: &Ruleset, tier: u32) -> Result<u64> {
    game.endgame_tier_size(tier).ok_or_else(|| Error::Limit {
        what: format!("the ranks of endgame tier {tier}"),
        setting: None,
        got: u64::MAX,
        limit: u64::MAX - 1,
        remedies: vec![Remedy::Advice("solve fewer tiers".into())],
    })
}

/// The bytes the tiers `0..=bound` take in memory, or `None` past `u64`.
pub fn tables_bytes<Ruleset: EndgameTiers>(game: &Ruleset, bound: u32) -> Option<u64> {
    (0..=bound).try_fold(0u64, |sum, tier| sum.checked_add(game.endgame_tier_size(tier)?))
}

/// Memory for a tier of `size` ranks, every rank unsolved; an error rather than an abort if the system refuses.
fn allocate(size: u64) -> Result<Tier> {
    let length = usize::try_from(size).map_err(|_| allocation_error(size))?;
    let mut tier = Vec::new();
    tier.try_reserve_exact(length).map_err(|_| allocation_error(size))?;
    crate::huge_pages::advise(tier.spare_capacity_mut());
    tier.extend((0..length).map(|_| AtomicI8::new(UNSOLVED)));
    Ok(tier.into_boxed_slice())
}

/// The error of a tier's memory that the system would not give.
fn allocation_error(size: u64) -> Error {
    Error::Allocation {
        what: "an endgame tier",
        megabytes: size.div_ceil(1 << 20),
        remedies: vec![Remedy::Lower(Setting::MemoryMb), Remedy::Advice("solve fewer tiers".into())],
    }
}

/// The error of tiers that need `bytes` where `memory_mb` MiB are allowed.
fn over_budget(memory_mb: usize, bytes: u64) -> Error {
    Error::over_memory("the endgame tiers", bytes, memory_mb, Some("solve or load fewer tiers"))
}

/// The tiers of an endgame database in memory: each tier's values by rank, less the banked parts.
pub struct EndgameTables {
    family: String,
    tiers: Vec<Tier>,
}

impl EndgameTables {
    /// The tiers `0..=bound` found in `directory`, or all the consecutive tiers from 0 found there if `bound`
    /// is `None`: each file checked to be of `game`'s family, tier and rank space before its values are read,
    /// every block's checksum when it is read. At most `memory_mb` MiB in all, checked before anything is read
    /// (else [`Error::Limit`] naming the memory setting).
    pub fn open<Ruleset: EndgameTiers>(
        game: &Ruleset,
        directory: &Path,
        bound: Option<u32>,
        memory_mb: usize,
    ) -> Result<EndgameTables> {
        let family = game.endgame_family();
        let top = match bound {
            Some(bound) => bound,
            None => {
                let held = (0..=u8::MAX as u32).take_while(|&tier| tier_path(directory, tier).is_file()).last();
                // A database is the tiers from 0 up: a tier missing below one that is here is damage, not a
                // lower bound (a check that stopped at the gap would pass the tiers it never read).
                let gap = held.map_or(0, |top| top + 1);
                if let Some(above) = tiers_held(directory, gap + 1).next() {
                    return Err(Error::Database {
                        path: tier_path(directory, gap).display().to_string(),
                        reason: format!(
                            "missing, yet tier {above} is here: the database of {family} is damaged (solve it again \
                             with `ludus db solve --up-to` into this directory)"
                        ),
                    });
                }
                held.ok_or_else(|| Error::Database {
                    path: directory.display().to_string(),
                    reason: format!(
                        "no endgame database of {family} here (no file {})",
                        tier_path(directory, 0).display()
                    ),
                })?
            }
        };
        let needed = tables_bytes(game, top).unwrap_or(u64::MAX);
        if needed > (memory_mb as u64).saturating_mul(1 << 20) {
            return Err(over_budget(memory_mb, needed));
        }
        let mut tiers = Vec::new();
        for tier in 0..=top {
            tiers.push(read_tier(game, &family, directory, tier)?);
        }
        Ok(EndgameTables { family, tiers })
    }

    /// The highest tier held, or `None` if there is none.
    pub fn bound(&self) -> Option<u32> {
        (self.tiers.len() as u32).checked_sub(1)
    }

    /// The family the tables are of.
    pub fn family(&self) -> &str {
        &self.family
    }

    /// The bytes the tables hold.
    pub fn bytes(&self) -> u64 {
        self.tiers.iter().map(|tier| tier.len() as u64).sum()
    }

    /// The value of `position` for its mover if its tier is held (its banked part and the stored part).
    pub fn value<Ruleset: EndgameTiers>(&self, game: &Ruleset, position: &Ruleset::Position) -> Option<i32> {
        let tier = self.tiers.get(game.endgame_tier(position) as usize)?;
        let stored = tier.get(usize::try_from(game.endgame_rank(position)).ok()?)?.load(Ordering::Relaxed);
        (stored != UNSOLVED).then(|| game.banked(position) + i32::from(stored))
    }
}

/// Tier `tier`'s values read from its file in `directory`.
fn read_tier<Ruleset: EndgameTiers>(game: &Ruleset, family: &str, directory: &Path, tier: u32) -> Result<Tier> {
    let size = tier_size(game, tier)?;
    read_values(TierFile::open(&tier_path(directory, tier), &tier_name(family, tier, size))?, size)
}

/// The values of an opened tier file of `size` ranks (its header already checked against the tier), every
/// block's checksum checked as it is read; the blocks decompressed and stored on rayon's threads.
fn read_values(mut file: TierFile, size: u64) -> Result<Tier> {
    let values = allocate(size)?;
    let path = file.path().to_path_buf();
    let damaged = |reason: String| Error::Database { path: path.display().to_string(), reason };
    let read = AtomicU64::new(0);
    file.for_each_ranked_block(|first, records| {
        let places = usize::try_from(first).ok().and_then(|first| values.get(first..first.checked_add(records.len())?));
        let places = places.ok_or_else(|| damaged(format!("a block of ranks {first}.. past the tier's {size}")))?;
        for (offset, (&bits, place)) in records.iter().zip(places).enumerate() {
            let stored = Record::from_bits(bits)
                .and_then(Record::score)
                .and_then(|score| i8::try_from(score).ok())
                .filter(|&score| score != UNSOLVED);
            let rank = first + offset as u64;
            let stored = stored
                .ok_or_else(|| damaged(format!("rank {rank} holds {bits:#06x}, not a score within -127..=127")))?;
            place.store(stored, Ordering::Relaxed);
        }
        read.fetch_add(records.len() as u64, Ordering::Relaxed);
        Ok(())
    })?;
    let read = read.into_inner();
    if read != size {
        return Err(damaged(format!("{read} ranks, not {size}")));
    }
    Ok(values)
}
