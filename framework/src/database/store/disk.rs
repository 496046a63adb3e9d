//! The tier engine's store on disk ([`DiskStore`]): a solve writes each tier's file through it, and resumes from
//! the files of an earlier run.
//!
//! Invariant: a tier counts as finished only once its file is verified (header, every block's checksum and the
//! blocks' checksum, read once); a damaged file is reported and its tier solved again, over it. The directory
//! is locked (flock on the directory itself) from the survey to the end of the solve, so that two solves never
//! write into one directory; the lock goes with the process.

use super::{Database, TierReport};
use crate::database::file::{partial_path, write_dense_tier, write_tier, Inspected, TierFile};
use crate::database::record::{Record, RecordKey, MAX_STORED_REMOTENESS};
use crate::engines::retrograde::{ByKey, TierIndexing, TierSolution, TierStore, Tiers};
use crate::error::{Budget, Error, Result};
use crate::game::Game;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fs::File;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The tier engine's store on disk; the tiers of an earlier run are loaded in the solve's indexing.
pub(super) struct DiskStore<'store, 'game, Ruleset: Game + Tiers, Indexing> {
    pub(super) database: &'store Database<'game, Ruleset>,
    pub(super) report: &'store mut dyn FnMut(&TierReport),
    pub(super) started: Instant,
    pub(super) indexing: Indexing,
    /// The most positions the solve holds at once: a finished tier that counts more is not loaded.
    pub(super) positions: u64,
    /// What each finished tier counts toward the budget once loaded, from its header: its records, or for a
    /// file by rank its records by rank (2 bytes a rank, 16 ranks a position of 32 bytes).
    pub(super) records: hashbrown::HashMap<Ruleset::Tier, u64>,
    /// The directory, opened and locked while the solve writes into it ([`TierStore::claim`]).
    pub(super) lock: Option<File>,
    /// Where the caller may ask the solve to stop, after the tier it is writing.
    pub(super) stop: Option<crate::engines::alpha_beta::ProgressHandle>,
}

impl<Ruleset, Indexing> DiskStore<'_, '_, Ruleset, Indexing>
where
    Ruleset: Game + Tiers + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: RecordKey,
    Ruleset::Tier: Serialize + DeserializeOwned,
{
    /// The tier's file, if it is there, whole and every block's checksum right; a damaged file is reported and
    /// its tier left unfinished, so that it is solved again and its file written anew.
    fn verified(&mut self, tier: &Ruleset::Tier) -> Result<Option<TierFile>> {
        let damage = match self.database.inspect(tier)? {
            None => return Ok(None),
            Some(Inspected::Damaged(error)) => error,
            Some(Inspected::Whole(mut file)) => match file.verify() {
                Ok(()) => return Ok(Some(file)),
                Err(error @ Error::Database { .. }) => error,
                Err(other) => return Err(other),
            },
        };
        (self.report)(&TierReport {
            tier: self.database.tier_name(tier)?.tier.to_string(),
            positions: 0,
            bytes: 0,
            elapsed: Duration::ZERO,
            resumed: false,
            damaged: Some(damage.to_string()),
            sent: 0,
        });
        Ok(None)
    }
}

/// A damaged file met by a resumed solve, with what to do about it.
fn resume_hint(error: Error) -> Error {
    match error {
        Error::Database { path, reason } => {
            Error::Database { path, reason: format!("{reason}; delete the file to solve its tier again") }
        }
        other => other,
    }
}

/// Makes the directory a solve writes into (and its parents); a path that is there but no directory (a file,
/// a device) is refused by name rather than with the system's "file exists".
pub(crate) fn make_directory(directory: &std::path::Path) -> Result<()> {
    if directory.exists() && !directory.is_dir() {
        return Err(Error::Database {
            path: directory.display().to_string(),
            reason: "is not a directory: a database is a directory of files (give a directory, new or a database's)"
                .into(),
        });
    }
    std::fs::create_dir_all(directory).map_err(|cause| Error::Io { path: directory.display().to_string(), cause })
}

/// Locks `directory` itself (flock) for one solve: no lock file is left behind, and the lock goes with the
/// process, however it ends. An error names the other solve that holds it. The lock lasts as long as the file.
pub(crate) fn lock_directory(directory: &std::path::Path) -> Result<File> {
    let io_error = |source| Error::Io { path: directory.display().to_string(), cause: source };
    let handle = File::open(directory).map_err(io_error)?;
    match handle.try_lock() {
        Ok(()) => Ok(handle),
        Err(std::fs::TryLockError::WouldBlock) => Err(Error::Database {
            path: directory.display().to_string(),
            reason: "another `ludus db solve` is writing into this directory (it holds the directory's lock): wait \
                     for it to end, or solve into another directory"
                .into(),
        }),
        Err(std::fs::TryLockError::Error(source)) => Err(io_error(source)),
    }
}

impl<Ruleset, Indexing> TierStore<Ruleset::Tier, Ruleset::Key> for DiskStore<'_, '_, Ruleset, Indexing>
where
    Ruleset: Game + Tiers + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: RecordKey,
    Ruleset::Tier: Serialize + DeserializeOwned,
    Indexing: TierIndexing<Ruleset>,
{
    fn claim(&mut self) -> Result<()> {
        self.lock = Some(lock_directory(self.database.directory())?);
        Ok(())
    }

    fn scratch_path(&self, tier: &Ruleset::Tier) -> Result<Option<std::path::PathBuf>> {
        let mut name = self.database.tier_path(tier)?.into_os_string();
        name.push(".reach");
        Ok(Some(std::path::PathBuf::from(name)))
    }

    fn finished(&mut self, tier: &Ruleset::Tier) -> Result<Option<Vec<Ruleset::Tier>>> {
        // A file left half-written by a stopped run is no tier, and the reachable set it kept for a tier it did
        // not solve is stale (a solve that needs one writes it anew): both go.
        let partial = partial_path(&self.database.tier_path(tier)?);
        let scratch = self.scratch_path(tier)?;
        // The split by shares keeps each rank's set beside it, `<scratch>.<rank>`.
        let shares = scratch.as_ref().map(|scratch| scratch_shares(scratch)).transpose()?.unwrap_or_default();
        for leftover in std::iter::once(partial).chain(scratch).chain(shares) {
            match std::fs::symlink_metadata(&leftover) {
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                _ => std::fs::remove_file(&leftover)
                    .map_err(|cause| Error::Io { path: leftover.display().to_string(), cause })?,
            }
        }
        let Some(file) = self.verified(tier)? else { return Ok(None) };
        let reached = self.database.reached(&file)?;
        let units = file.ranks().map_or(file.header().records, |ranks| ranks.div_ceil(16));
        self.records.insert(tier.clone(), units);
        (self.report)(&TierReport {
            tier: self.database.tier_name(tier)?.tier.to_string(),
            positions: file.header().records,
            bytes: std::fs::metadata(self.database.tier_path(tier)?).map(|meta| meta.len()).unwrap_or(0),
            elapsed: Duration::ZERO,
            resumed: true,
            damaged: None,
            sent: 0,
        });
        self.started = Instant::now();
        Ok(Some(reached))
    }

    fn load(
        &mut self,
        tier: &Ruleset::Tier,
        keep: Option<&dyn Fn(&Ruleset::Key) -> bool>,
    ) -> Result<TierSolution<Ruleset::Tier, Ruleset::Key>> {
        match keep {
            None => {
                // Refused before its records are read: a tier the budget cannot hold.
                if self.records.get(tier).is_some_and(|&records| records > self.positions) {
                    return Err(Error::Budget(Budget::Positions(self.positions)));
                }
                self.database.load(tier, &self.indexing, None)
            }
            // A share of a tier is a small part of its rank space: held by key, whatever the solve's indexing.
            Some(keep) => {
                let keep_wide = |wide: u128| Ruleset::Key::from_wide(wide).is_none_or(|key| keep(&key));
                self.database.load(tier, &ByKey, Some(&keep_wide))
            }
        }
        .map_err(resume_hint)
    }

    // Reported from the file's header, as a tier solved here would be.
    fn saved_elsewhere(&mut self, tier: &Ruleset::Tier, elapsed: Duration, sent: u64) -> Result<()> {
        let path = self.database.tier_path(tier)?;
        let file = self.database.open(tier)?.ok_or_else(|| Error::Database {
            path: path.display().to_string(),
            reason: "missing: another process said it solved this tier".into(),
        })?;
        (self.report)(&TierReport {
            tier: self.database.tier_name(tier)?.tier.to_string(),
            positions: file.header().records,
            bytes: std::fs::metadata(&path).map(|meta| meta.len()).unwrap_or(0),
            elapsed,
            resumed: false,
            damaged: None,
            sent,
        });
        self.started = Instant::now();
        Ok(())
    }

    fn save(&mut self, solution: &Arc<TierSolution<Ruleset::Tier, Ruleset::Key>>) -> Result<()> {
        let tier = solution.tier();
        let reached = solution
            .reached()
            .iter()
            .map(|child| self.database.tier_name(child).map(|name| name.tier))
            .collect::<Result<Vec<_>>>()?;
        let path = self.database.tier_path(tier)?;
        let name = self.database.tier_name(tier)?;
        let bytes = match (self.database.ranks(), solution.by_rank()) {
            (Some(_), Some(by_rank)) => write_dense_tier(&path, &name, reached, by_rank)?,
            (Some(ranks), None) => {
                // A solution by key (a tier gathered from the slices of a split solve) laid out by rank.
                let size = ranks.tier_size(tier);
                let mut by_rank = crate::engines::retrograde::zeroed_records("a tier's records by rank", size)?;
                for (key, value) in solution.iter() {
                    let record = stored(value)?;
                    let slot = ranks.rank(tier, &key).and_then(|rank| by_rank.get_mut(rank as usize));
                    let slot = slot.ok_or_else(|| Error::Contract {
                        contract: "Rank",
                        detail: format!("the key {key:?} of tier {tier:?} has no rank below {size}"),
                    })?;
                    *slot = record.bits();
                }
                write_dense_tier(&path, &name, reached, &by_rank)?
            }
            (None, _) => self.write_by_key(solution, &path, &name, reached)?,
        };
        (self.report)(&TierReport {
            tier: name.tier.to_string(),
            positions: solution.len() as u64,
            bytes,
            elapsed: self.started.elapsed(),
            resumed: false,
            damaged: None,
            sent: 0,
        });
        self.started = Instant::now();
        // A stop asked for by the caller ends the solve here, between tiers: every tier written stays.
        if self.stop.as_ref().is_some_and(|stop| stop.0.stop_requested()) {
            return Err(Error::Stopped);
        }
        Ok(())
    }
}

/// The files `<scratch>.<rank>` beside `scratch` (the sets of the ranks of a split by shares).
fn scratch_shares(scratch: &std::path::Path) -> Result<Vec<std::path::PathBuf>> {
    let (Some(directory), Some(name)) = (scratch.parent(), scratch.file_name().and_then(|name| name.to_str())) else {
        return Ok(Vec::new());
    };
    let listed =
        std::fs::read_dir(directory).map_err(|cause| Error::Io { path: directory.display().to_string(), cause })?;
    let prefix = format!("{name}.");
    Ok(listed
        .filter_map(std::result::Result::ok)
        .filter(|entry| {
            entry
                .file_name()
                .to_str()
                .and_then(|file| file.strip_prefix(&prefix))
                .is_some_and(|rank| !rank.is_empty() && rank.bytes().all(|byte| byte.is_ascii_digit()))
        })
        .map(|entry| entry.path())
        .collect())
}

/// The record of a value, or the limit error of its remoteness.
fn stored(value: crate::value::Value) -> Result<Record> {
    Record::from_value(value).ok_or_else(|| {
        Error::limit(
            "the remoteness of a stored position",
            u64::from(value.remoteness().unwrap_or(0)),
            u64::from(MAX_STORED_REMOTENESS),
        )
    })
}

impl<Ruleset, Indexing> DiskStore<'_, '_, Ruleset, Indexing>
where
    Ruleset: Game + Tiers + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: RecordKey,
    Ruleset::Tier: Serialize + DeserializeOwned,
{
    /// Writes `solution`'s file laid out by key; its size.
    fn write_by_key(
        &self,
        solution: &TierSolution<Ruleset::Tier, Ruleset::Key>,
        path: &std::path::Path,
        name: &crate::database::file::TierName,
        reached: Vec<serde_json::Value>,
    ) -> Result<u64> {
        let tier = solution.tier();
        let records = solution
            .iter()
            .map(|(key, value)| stored(value).map(|record| (key, record)))
            .collect::<Result<Vec<_>>>()?;
        if records.len() != solution.len() {
            // Only a ranking whose unrank fails on a rank of the tier loses records on the way.
            return Err(Error::Contract {
                contract: "Rank",
                detail: format!(
                    "tier {tier:?}: {} positions solved, {} keys listed (unrank fails on a rank of the tier)",
                    solution.len(),
                    records.len()
                ),
            });
        }
        write_tier(path, name, reached, records)
    }
}
