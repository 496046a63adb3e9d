//! A solved database: one directory, one file per tier ([`super::file`]), written by the retrograde tier
//! engine through [`TierStore`](crate::engines::retrograde::TierStore) (so that a stopped solve resumes from its finished tiers), and read back by
//! queries and by the tier graph of the files themselves (each header lists the child tiers its moves reach).

mod disk;

pub(crate) use disk::{lock_directory, make_directory};

use super::file::{Inspected, TierFile, TierName};
use super::record::{Record, RecordKey};
use crate::engines::retrograde::{Ranks, RetrogradeSolver, TierIndexing, TierSolution, TierSpec, Tiers};
use crate::error::{Budget, Error, Result};
use crate::game::FromKey;
use crate::game::Game;
use crate::value::Value;
use disk::DiskStore;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The extension of tier files.
pub const EXTENSION: &str = "ludb";

/// What a solve may spend, and how its caller may stop it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveBudget {
    /// The most memory, in MiB (`--memory-mb`): turned into a number of positions held at once, from the
    /// sizes of the game's positions and keys (see [`TierIndexing::bytes_per_position`]).
    pub memory_mb: usize,
    /// The most positions held at once (`--max-positions`), if lower.
    pub max_positions: u64,
    /// Where the caller may ask the solve to stop ([`crate::engines::alpha_beta::SearchProgress::request_stop`],
    /// the Python module's Ctrl-C): the solve ends after the tier it is writing, with [`Error::Stopped`], and a
    /// later solve resumes from the tiers on disk.
    pub stop: Option<crate::engines::alpha_beta::ProgressHandle>,
}

impl SolveBudget {
    /// A budget of `memory_mb` and at most `max_positions` held at once, that no caller stops.
    pub fn new(memory_mb: usize, max_positions: u64) -> SolveBudget {
        SolveBudget { memory_mb, max_positions, stop: None }
    }
}

/// What the solve of one tier did, as reported to the caller while the solve goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TierReport {
    /// The tier, in its serde form.
    pub tier: String,
    /// Its positions.
    pub positions: u64,
    /// Its file's size.
    pub bytes: u64,
    /// The time it took (zero for a tier found on disk).
    pub elapsed: Duration,
    /// Whether it was found on disk, solved by an earlier run.
    pub resumed: bool,
    /// Set when the tier's file on disk was found damaged: the file and what is wrong with it. The tier is
    /// solved again (a later report says so) and its file written anew; the counts of this report are zero.
    pub damaged: Option<String>,
    /// The bytes the ranks of a solve split by shares sent one another for the tier (its batches, and the
    /// blocks of its file sent to rank 0); 0 for any other solve.
    pub sent: u64,
}

/// The ranking a database lays its files out by.
type RanksOf<Ruleset> = std::sync::Arc<dyn Ranks<<Ruleset as Tiers>::Tier, <Ruleset as crate::Canonicalize>::Key>>;

/// A game's solved database in a directory.
pub struct Database<'game, Ruleset: Game + Tiers> {
    game: &'game Ruleset,
    name: String,
    directory: PathBuf,
    /// The game's ranking, for a database laid out by rank (its files in format 2).
    ranks: Option<RanksOf<Ruleset>>,
}

impl<'game, Ruleset> Database<'game, Ruleset>
where
    Ruleset: Game + Tiers + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: RecordKey,
    Ruleset::Tier: Serialize + DeserializeOwned,
{
    /// The database of `game`, named `name` with its parameters (written into every header), in `directory`.
    pub fn new(game: &'game Ruleset, name: impl Into<String>, directory: impl Into<PathBuf>) -> Self {
        Database { game, name: name.into(), directory: directory.into(), ranks: None }
    }

    /// The same database laid out by `ranks` (the files it writes hold records by rank, format 2; it reads
    /// both layouts), or by key for `None`: what [`TierIndexing::ranks`] gives.
    #[must_use]
    pub fn ranked_by(self, ranks: Option<RanksOf<Ruleset>>) -> Self {
        Database { ranks, ..self }
    }

    /// The key (widened) of rank `rank` of `tier`, by the ranking its files are laid out by.
    pub fn key_of_rank(&self, tier: &Ruleset::Tier, rank: u128) -> Option<u128> {
        let ranks = self.ranks.as_ref()?;
        ranks.unrank(tier, u64::try_from(rank).ok()?).map(RecordKey::to_wide)
    }

    /// The ranking its files are laid out by, if any.
    pub fn ranks(&self) -> Option<&RanksOf<Ruleset>> {
        self.ranks.as_ref()
    }

    /// The directory.
    pub fn directory(&self) -> &Path {
        &self.directory
    }

    /// The game.
    pub fn game(&self) -> &'game Ruleset {
        self.game
    }

    /// The header name of `tier`.
    pub fn tier_name(&self, tier: &Ruleset::Tier) -> Result<TierName> {
        let tier_form = serde_json::to_value(tier)
            .map_err(|error| Error::internal("database", format!("a tier's serde form: {error}")))?;
        let ranks = self.ranks.as_ref().map(|ranks| ranks.tier_size(tier));
        Ok(TierName { game: self.name.clone(), tier: tier_form, ranks })
    }

    /// The file of `tier`: `tier-` and the tier's serde form with every run of other characters than letters
    /// and digits made one `-` (tier `[4, 3]` is `tier-4-3.ludb`); the header says which tier a file holds.
    pub fn tier_path(&self, tier: &Ruleset::Tier) -> Result<PathBuf> {
        let name = self.tier_name(tier)?;
        let mut stem = String::from("tier-");
        for character in name.tier.to_string().chars() {
            if character.is_ascii_alphanumeric() {
                stem.push(character);
            } else if !stem.ends_with('-') {
                stem.push('-');
            }
        }
        let stem = stem.trim_end_matches('-');

        Ok(self.directory.join(format!("{stem}.{EXTENSION}")))
    }

    /// Opens the file of `tier` (`None` if there is none).
    pub fn open(&self, tier: &Ruleset::Tier) -> Result<Option<TierFile>> {
        match self.inspect(tier)? {
            None => Ok(None),
            Some(Inspected::Whole(file)) => Ok(Some(file)),
            Some(Inspected::Damaged(error)) => Err(error),
        }
    }

    /// [`TierFile::inspect`] of the file of `tier` (`None` if there is none).
    pub fn inspect(&self, tier: &Ruleset::Tier) -> Result<Option<Inspected>> {
        let path = self.tier_path(tier)?;
        // Only a path that is not there means an unsolved tier; any other failure (a directory that cannot
        // be read, a path through a file) is the system's error, with the path.
        match std::fs::metadata(&path) {
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(Error::Io { path: path.display().to_string(), cause: source }),
            Ok(_) => {}
        }
        TierFile::inspect(&path, &self.tier_name(tier)?).map(Some)
    }

    /// The tiers a file's header says its moves reach.
    pub fn reached(&self, file: &TierFile) -> Result<Vec<Ruleset::Tier>> {
        file.header()
            .reached
            .iter()
            .map(|tier| {
                serde_json::from_value(tier.clone()).map_err(|error| Error::Database {
                    path: self.directory.display().to_string(),
                    reason: format!("a header names the tier {tier}, not a tier of {}: {error}", self.name),
                })
            })
            .collect()
    }

    /// Solves every position reachable from `start` into the directory (made if missing), tier by tier, as
    /// `spec` says (its indexing, schedule and parents; the store is this directory); tiers already on disk are
    /// kept (a stopped solve resumes, its tiers loaded in the spec's indexing). `report` hears of each tier when
    /// it is done. The memory budget is turned into positions by the indexing's
    /// [`TierIndexing::bytes_per_position`]. Every indexing and schedule writes the same files, byte for byte.
    pub fn solve<Indexing: TierIndexing<Ruleset>>(
        &self,
        start: &Ruleset::Position,
        budget: SolveBudget,
        report: &mut dyn FnMut(&TierReport),
        spec: TierSpec<'_, Ruleset, Indexing>,
    ) -> Result<()> {
        make_directory(&self.directory)?;
        let by_memory = (budget.memory_mb as u64).saturating_mul(1 << 20) / spec.indexing().bytes_per_position().max(1);
        let positions = by_memory.min(budget.max_positions);
        let mut store = DiskStore {
            database: self,
            report,
            started: Instant::now(),
            indexing: spec.indexing().clone(),
            positions,
            records: hashbrown::HashMap::new(),
            lock: None,
            stop: budget.stop.clone(),
        };
        let spec = spec.store(&mut store);
        let solved = RetrogradeSolver::new()
            .with_budget(positions)
            .with_progress_line(budget.stop.clone())
            .solve_tiers(self.game, start, spec);
        let stopped = budget.stop.as_ref().is_some_and(|stop| stop.0.stop_requested());
        match solved {
            // The caller's stop, met within a tier's enumeration, ends it as a position budget would.
            Err(Error::Budget(Budget::Positions(_))) if stopped => Err(Error::Stopped),
            Err(Error::Budget(Budget::Positions(_))) if by_memory <= budget.max_positions => {
                Err(Error::Budget(Budget::MemoryMb(budget.memory_mb)))
            }
            other => other.map(|_| ()),
        }
    }

    /// The values of a tier's file, as a solution the engine can read, in `indexing`'s form; with `keep`, only
    /// the records whose key `keep` accepts (a rank's share of a tier, in the split-tier mode), read a block at a
    /// time, each block's checksum checked, so that only those records are held.
    pub fn load<Indexing: TierIndexing<Ruleset>>(
        &self,
        tier: &Ruleset::Tier,
        indexing: &Indexing,
        keep: Option<&dyn Fn(u128) -> bool>,
    ) -> Result<TierSolution<Ruleset::Tier, Ruleset::Key>> {
        self.load_file(tier, self.open_solved(tier)?, indexing, keep)
    }

    /// The file of `tier`, opened (its header and block index read); a missing file is an error.
    pub(crate) fn open_solved(&self, tier: &Ruleset::Tier) -> Result<TierFile> {
        self.open(tier)?.ok_or_else(|| Error::Database {
            path: self.tier_path(tier).map_or_else(|_| format!("{tier:?}"), |path| path.display().to_string()),
            reason: "missing: this tier is not solved".into(),
        })
    }

    /// [`Database::load`] of `file`, the file of `tier` already opened.
    pub(crate) fn load_file<Indexing: TierIndexing<Ruleset>>(
        &self,
        tier: &Ruleset::Tier,
        mut file: TierFile,
        indexing: &Indexing,
        keep: Option<&dyn Fn(u128) -> bool>,
    ) -> Result<TierSolution<Ruleset::Tier, Ruleset::Key>> {
        let path = self.tier_path(tier)?;
        let reached = self.reached(&file)?;
        let file_ranks = file.ranks();
        let key_of = |wide: u128| match (&self.ranks, file_ranks) {
            (Some(ranks), Some(_)) => u64::try_from(wide).ok().and_then(|rank| ranks.unrank(tier, rank)),
            _ => Ruleset::Key::from_wide(wide),
        };
        let record = |(wide, record): (u128, Record)| match (key_of(wide), record.value()) {
            (Some(key), Some(value)) => Ok((key, value)),
            _ => Err(self.forged(tier, &path, wide)),
        };
        if file.ranks().is_some() && keep.is_none() {
            let by_rank = file.read_all_ranks()?;
            let solved = match indexing.ranks() {
                Some(_) => indexing.solution_by_rank(tier.clone(), by_rank, reached),
                None => {
                    let records = by_rank
                        .iter()
                        .enumerate()
                        .filter_map(|(rank, &bits)| Some((rank as u128, Record::from_bits(bits)?)))
                        .map(record)
                        .collect::<Result<Vec<_>>>()?;
                    indexing.solution(tier.clone(), records, reached)
                }
            };
            return solved.map_err(|error| self.file_fault(tier, &path, error));
        }
        let records = match keep {
            None => file.read_all()?.into_iter().map(record).collect::<Result<Vec<_>>>()?,
            Some(keep) => {
                let mut records = Vec::new();
                for place in 0..file.blocks() {
                    for (wide, stored) in file.read_block(place)? {
                        let (key, value) = record((wide, stored))?;
                        if keep(key.to_wide()) {
                            records.push((key, value));
                        }
                    }
                }
                records
            }
        };
        indexing.solution(tier.clone(), records, reached).map_err(|error| self.file_fault(tier, &path, error))
    }

    /// An error of records read from the file of `tier` at `path`: a key or value that does not fit the tier is
    /// the file's fault.
    pub(crate) fn file_fault(&self, tier: &Ruleset::Tier, path: &Path, error: Error) -> Error {
        match error {
            Error::Records { problem: reason } => {
                let name = self.tier_name(tier).map_or_else(|_| format!("{tier:?}"), |name| name.tier.to_string());
                Error::Database {
                    path: path.display().to_string(),
                    reason: format!(
                        "tier {name}: {reason} (the file is damaged or forged): delete it and run `ludus db solve` \
                         again"
                    ),
                }
            }
            other => other,
        }
    }

    /// The error of a record in the file of `tier` at `path` whose key `wide` is of no position of the tier.
    fn forged(&self, tier: &Ruleset::Tier, path: &Path, wide: u128) -> Error {
        let tier = self.tier_name(tier).map_or_else(|_| format!("{tier:?}"), |name| name.tier.to_string());
        Error::Database {
            path: path.display().to_string(),
            reason: format!(
                "tier {tier}: the record of key {wide:x} is of no position of this tier of {} (the file is damaged \
                 or forged): delete it and run `ludus db solve` again",
                self.name
            ),
        }
    }

    /// The stored value of `position`: `Ok(None)` if its tier's file has no such position.
    pub fn value(&self, files: &mut TierFiles, position: &Ruleset::Position) -> Result<Option<Value>> {
        let tier = self.game.tier(position);
        let key = self.game.canonical(position);
        let path = self.tier_path(&tier)?;
        self.value_at(files, &tier, &path, &key)
    }

    /// The stored values of `positions`, in order, read tier by tier and in the order of their places within
    /// each file, so that each file is opened and each of its blocks read and decoded once for the whole batch
    /// (a file keeps the last block it decoded).
    pub fn values(&self, files: &mut TierFiles, positions: &[Ruleset::Position]) -> Result<Vec<Option<Value>>> {
        let mut tiers: Vec<(Ruleset::Tier, PathBuf)> = Vec::new();
        let mut tier_places: hashbrown::HashMap<Ruleset::Tier, usize> = hashbrown::HashMap::new();
        // (tier's place in `tiers`, the key's place in its file were it laid out as this database ranks, the
        // position's index, its key)
        let mut located = Vec::with_capacity(positions.len());
        for (index, position) in positions.iter().enumerate() {
            let tier = self.game.tier(position);
            let key = self.game.canonical(position);
            let place = match &self.ranks {
                Some(ranks) => ranks.rank(&tier, &key).map_or(u128::MAX, u128::from),
                None => key.to_wide(),
            };
            let tier_place = match tier_places.get(&tier) {
                Some(&known) => known,
                None => {
                    let path = self.tier_path(&tier)?;
                    tiers.push((tier.clone(), path));
                    tier_places.insert(tier, tiers.len() - 1);
                    tiers.len() - 1
                }
            };
            located.push((tier_place, place, index, key));
        }
        located.sort_unstable_by_key(|&(tier, place, index, _)| (tier, place, index));
        let mut values = vec![None; positions.len()];
        for (tier_place, _, index, key) in &located {
            let (tier, path) = &tiers[*tier_place];
            values[*index] = self.value_at(files, tier, path, key)?;
        }
        Ok(values)
    }

    /// The stored value of the position of `key` in `tier`, whose file is at `path`.
    fn value_at(
        &self,
        files: &mut TierFiles,
        tier: &Ruleset::Tier,
        path: &Path,
        key: &Ruleset::Key,
    ) -> Result<Option<Value>> {
        if !files.open.contains_key(path) {
            let file = self.open(tier)?.ok_or_else(|| Error::NotSolved {
                game: self.name.clone(),
                directory: self.directory.display().to_string(),
                path: path.display().to_string(),
            })?;
            files.open.insert(path.to_path_buf(), file);
        }
        let file = files.open.get_mut(path).ok_or_else(|| Error::internal("database", "a tier file closed"))?;
        let place = match (&self.ranks, file.ranks()) {
            (Some(ranks), Some(_)) => match ranks.rank(tier, key) {
                Some(rank) => u128::from(rank),
                None => return Ok(None),
            },
            _ => key.to_wide(),
        };
        Ok(file.lookup(place)?.and_then(Record::value))
    }
}

/// Open tier files, kept between queries.
#[derive(Debug, Default)]
pub struct TierFiles {
    open: hashbrown::HashMap<PathBuf, TierFile>,
}

impl<Ruleset> Database<'_, Ruleset>
where
    Ruleset: Game + Tiers + FromKey + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: RecordKey,
    Ruleset::Tier: Serialize + DeserializeOwned,
{
    /// The position of a stored key (checked to have that key).
    pub fn position_of(&self, wide: u128) -> Option<Ruleset::Position> {
        let key = Ruleset::Key::from_wide(wide)?;
        self.game.checked_position_of_key(&key)
    }
}
