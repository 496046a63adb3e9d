//! A solved database: one directory, one file per tier ([`super::file`]), written by the retrograde tier
//! engine through [`TierStore`](crate::engines::retrograde::TierStore) (so that a stopped solve resumes from its finished tiers), and read back by
//! queries and by the tier graph of the files themselves (each header lists the child tiers its moves reach).

mod disk;

use super::check::CheckReport;
use super::file::{Inspected, TierFile, TierName};
use super::record::{Record, RecordKey};
use crate::engines::retrograde::{InProcess, Rank, RetrogradeSolver, TierSchedule, TierSolution, Tiers};
use crate::error::{Budget, Error, Result};
use crate::game::FromKey;
use crate::value::Value;
use disk::DiskStore;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The extension of tier files.
pub const EXTENSION: &str = "ludb";

/// What a solve may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveBudget {
    /// The most memory, in MiB (`--memory-mb`): turned into a number of positions held at once, from the
    /// sizes of the game's positions and keys (see [`bytes_per_position`] and [`bytes_per_ranked_position`]).
    pub memory_mb: usize,
    /// The most positions held at once (`--max-positions`), if lower.
    pub max_positions: u64,
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
}

pub use crate::engines::retrograde::{bytes_per_position, bytes_per_ranked_position};

/// A game's solved database in a directory.
pub struct Database<'game, Rules> {
    game: &'game Rules,
    name: String,
    directory: PathBuf,
}

impl<'game, Rules> Database<'game, Rules>
where
    Rules: Tiers + Sync,
    Rules::Position: Send + Sync,
    Rules::Key: RecordKey,
    Rules::Tier: Serialize + DeserializeOwned,
{
    /// The database of `game`, named `name` with its parameters (written into every header), in `directory`.
    pub fn new(game: &'game Rules, name: impl Into<String>, directory: impl Into<PathBuf>) -> Self {
        Database { game, name: name.into(), directory: directory.into() }
    }

    /// The directory.
    pub fn directory(&self) -> &Path {
        &self.directory
    }

    /// The game.
    pub fn game(&self) -> &'game Rules {
        self.game
    }

    /// The header name of `tier`.
    pub fn tier_name(&self, tier: &Rules::Tier) -> Result<TierName> {
        let tier = serde_json::to_value(tier).map_err(|error| Error::Unsupported(format!("a tier's form: {error}")))?;
        Ok(TierName { game: self.name.clone(), tier })
    }

    /// The file of `tier`: `tier-` and the tier's serde form with every run of other characters than letters
    /// and digits made one `-` (tier `[4, 3]` is `tier-4-3.ludb`); the header says which tier a file holds.
    pub fn tier_path(&self, tier: &Rules::Tier) -> Result<PathBuf> {
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
    pub fn open(&self, tier: &Rules::Tier) -> Result<Option<TierFile>> {
        match self.inspect(tier)? {
            None => Ok(None),
            Some(Inspected::Whole(file)) => Ok(Some(file)),
            Some(Inspected::Damaged(error)) => Err(error),
        }
    }

    /// [`TierFile::inspect`] of the file of `tier` (`None` if there is none).
    pub fn inspect(&self, tier: &Rules::Tier) -> Result<Option<Inspected>> {
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
    pub fn reached(&self, file: &TierFile) -> Result<Vec<Rules::Tier>> {
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

    /// Solves every position reachable from `start` into the directory (made if missing), tier by tier;
    /// tiers already on disk are kept (a stopped solve resumes). `report` hears of each tier when it is done.
    pub fn solve(
        &self,
        start: &Rules::Position,
        budget: SolveBudget,
        report: &mut dyn FnMut(&TierReport),
    ) -> Result<()> {
        self.solve_scheduled(start, budget, report, &mut InProcess)
    }

    /// [`Database::solve`] with the tiers solved as `schedule` decides (for example by the ranks of an MPI run,
    /// `database::distributed`, feature `mpi`): the same files.
    pub fn solve_scheduled(
        &self,
        start: &Rules::Position,
        budget: SolveBudget,
        report: &mut dyn FnMut(&TierReport),
        schedule: &mut dyn TierSchedule<Rules::Tier, Rules::Key, Rules::Position>,
    ) -> Result<()> {
        let per_position = bytes_per_position::<Rules::Position, Rules::Key>();
        self.solve_with(budget, per_position, report, Database::load, |solver, store| {
            solver.solve_tiers_into(self.game, start, store, schedule)
        })
    }

    /// Solves into the directory with `run` (the engine's entry point) and a store on disk that loads the
    /// tiers of an earlier run with `load`; the memory budget is turned into positions of `per_position` bytes.
    fn solve_with(
        &self,
        budget: SolveBudget,
        per_position: u64,
        report: &mut dyn FnMut(&TierReport),
        load: Loader<'game, Rules>,
        run: impl FnOnce(&mut RetrogradeSolver, &mut DiskStore<'_, 'game, Rules>) -> Result<()>,
    ) -> Result<()> {
        std::fs::create_dir_all(&self.directory)
            .map_err(|cause| Error::Io { path: self.directory.display().to_string(), cause })?;
        let by_memory = (budget.memory_mb as u64).saturating_mul(1 << 20) / per_position.max(1);
        let positions = by_memory.min(budget.max_positions);
        let mut store = DiskStore {
            database: self,
            report,
            started: Instant::now(),
            load,
            positions,
            records: hashbrown::HashMap::new(),
            lock: None,
        };
        let solved = run(&mut RetrogradeSolver::new().with_budget(positions), &mut store);
        match solved {
            Err(Error::Budget(Budget::Positions(_))) if by_memory <= budget.max_positions => {
                Err(Error::Budget(Budget::MemoryMb(budget.memory_mb)))
            }
            other => other,
        }
    }

    /// The values of a tier's file, as a solution the engine can read.
    pub fn load(&self, tier: &Rules::Tier) -> Result<TierSolution<Rules::Tier, Rules::Key>> {
        let (records, reached) = self.records(tier)?;
        TierSolution::from_values(tier.clone(), records, reached)
    }

    /// [`Database::load`] of the records whose key `keep` accepts (a rank's share of a tier, in the split-tier
    /// mode): read a block at a time, each block's checksum checked, so that only those records are held.
    pub fn load_where(
        &self,
        tier: &Rules::Tier,
        keep: &dyn Fn(u128) -> bool,
    ) -> Result<TierSolution<Rules::Tier, Rules::Key>> {
        let path = self.tier_path(tier)?;
        let mut file = self.open(tier)?.ok_or_else(|| Error::Database {
            path: path.display().to_string(),
            reason: "missing: this tier is not solved".into(),
        })?;
        let reached = self.reached(&file)?;
        let mut records = Vec::new();
        for place in 0..file.blocks() {
            for (wide, record) in file.read_block(place)? {
                if !keep(wide) {
                    continue;
                }
                match (Rules::Key::from_wide(wide), record.value()) {
                    (Some(key), Some(value)) => records.push((key, value)),
                    _ => return Err(self.forged(tier, &path, wide)),
                }
            }
        }
        TierSolution::from_values(tier.clone(), records, reached)
    }

    /// A tier's records, as keys and values, and the child tiers its header says its moves reach.
    fn records(&self, tier: &Rules::Tier) -> Result<Records<Rules>> {
        let path = self.tier_path(tier)?;
        let mut file = self.open(tier)?.ok_or_else(|| Error::Database {
            path: path.display().to_string(),
            reason: "missing: this tier is not solved".into(),
        })?;
        let reached = self.reached(&file)?;
        let records = file
            .read_all()?
            .into_iter()
            .map(|(wide, record)| {
                let key = Rules::Key::from_wide(wide);
                match (key, record.value()) {
                    (Some(key), Some(value)) => Ok((key, value)),
                    _ => Err(self.forged(tier, &path, wide)),
                }
            })
            .collect::<Result<Vec<_>>>()?;
        Ok((records, reached))
    }

    /// The error of a record in the file of `tier` at `path` whose key `wide` is of no position of the tier.
    fn forged(&self, tier: &Rules::Tier, path: &Path, wide: u128) -> Error {
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
    pub fn value(&self, files: &mut TierFiles, position: &Rules::Position) -> Result<Option<Value>> {
        let tier = self.game.tier(position);
        let path = self.tier_path(&tier)?;
        if !files.open.contains_key(&path) {
            let file = self.open(&tier)?.ok_or_else(|| Error::Database {
                path: path.display().to_string(),
                reason: "missing: this tier is not solved (run `ludus db solve`)".into(),
            })?;
            files.open.insert(path.clone(), file);
        }
        let file = files.open.get_mut(&path).ok_or_else(|| Error::Unsupported("a tier file closed".into()))?;
        Ok(file.lookup(self.game.canonical(position).to_wide())?.and_then(Record::value))
    }
}

/// A tier's records and the child tiers it reaches.
type Records<Rules> = (Vec<(<Rules as crate::Canonicalize>::Key, Value)>, Vec<<Rules as Tiers>::Tier>);

/// How a tier's file is read, by a store on disk (a tier solved by an earlier run) or by a check:
/// [`Database::load`] or [`Database::load_ranked`].
pub(super) type Loader<'game, Rules> =
    fn(
        &Database<'game, Rules>,
        &<Rules as Tiers>::Tier,
    ) -> Result<TierSolution<<Rules as Tiers>::Tier, <Rules as crate::Canonicalize>::Key>>;

impl<'game, Rules> Database<'game, Rules>
where
    Rules: Rank + Clone + Send + Sync + 'static,
    Rules::Position: Send + Sync,
    Rules::Key: RecordKey,
    Rules::Tier: Serialize + DeserializeOwned,
{
    /// [`Database::solve`] by rank ([`RetrogradeSolver::solve_tiers_ranked_into`]): the same files, byte for
    /// byte, in less memory; the tiers of an earlier run are loaded by rank too. The memory budget is turned
    /// into positions by [`bytes_per_ranked_position`].
    pub fn solve_ranked(
        &self,
        start: &Rules::Position,
        budget: SolveBudget,
        report: &mut dyn FnMut(&TierReport),
    ) -> Result<()> {
        self.solve_ranked_scheduled(start, budget, report, &mut InProcess)
    }

    /// [`Database::solve_ranked`] with the tiers solved as `schedule` decides: the same files.
    pub fn solve_ranked_scheduled(
        &self,
        start: &Rules::Position,
        budget: SolveBudget,
        report: &mut dyn FnMut(&TierReport),
        schedule: &mut dyn TierSchedule<Rules::Tier, Rules::Key, Rules::Position>,
    ) -> Result<()> {
        let per_position = bytes_per_ranked_position::<Rules::Position>();
        self.solve_with(budget, per_position, report, Database::load_ranked, |solver, store| {
            solver.solve_tiers_ranked_into(self.game, start, store, schedule)
        })
    }

    /// [`Database::check`] with each tier read by rank ([`Database::load_ranked`]): the same report, with each
    /// tier's values held in a flat array by rank instead of a hash map.
    pub fn check_ranked(
        &self,
        start: &Rules::Position,
        progress: &mut dyn FnMut(&str, usize, usize),
    ) -> Result<CheckReport>
    where
        Rules: FromKey,
        Rules::Position: Debug,
    {
        self.check_with(start, progress, Database::load_ranked)
    }

    /// [`Database::load`] in the dense form: the values in a flat array by rank.
    pub fn load_ranked(&self, tier: &Rules::Tier) -> Result<TierSolution<Rules::Tier, Rules::Key>> {
        let (records, reached) = self.records(tier)?;
        TierSolution::from_values_ranked(self.game, tier.clone(), records, reached).map_err(|error| match error {
            // The records came from the file: a key without a rank in the tier is the file's fault.
            Error::Unsupported(reason) => {
                let path = self.tier_path(tier).unwrap_or_else(|_| self.directory.clone());
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
        })
    }
}

/// Open tier files, kept between queries.
#[derive(Debug, Default)]
pub struct TierFiles {
    open: hashbrown::HashMap<PathBuf, TierFile>,
}

impl<Rules> Database<'_, Rules>
where
    Rules: Tiers + FromKey + Sync,
    Rules::Position: Send + Sync,
    Rules::Key: RecordKey,
    Rules::Tier: Serialize + DeserializeOwned,
{
    /// The position of a stored key (checked to have that key).
    pub fn position_of(&self, wide: u128) -> Option<Rules::Position> {
        let key = Rules::Key::from_wide(wide)?;
        self.game.checked_position_of_key(&key)
    }
}
