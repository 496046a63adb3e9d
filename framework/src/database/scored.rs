//! Databases of small scored games ([`ScoreDatabase`]): every position reachable from the start of a
//! deterministic scored game solved by a memoized depth-first search (children first), each position's score
//! written as a score record ([`Record::from_score`]) into one file of the tier format (`scores.ludb`, tier
//! `"all"`), read back by [`StoredScores`] (an [`Engine`] that reads scores instead of searching), counted by
//! score ([`ScoreSummary`]) and checked record by record. A scored game has no tiers to solve apart, so the
//! whole game is one tier, held in memory while it is solved (within `--memory-mb`): the smallest games.
//!
//! The solve keeps each position's key and record once, in the vector the file is written from (in the order
//! the positions are solved; sorted by key at the end), and finds them again through a table of their places
//! (4 bytes a bucket): so no copy is made to write the file, and a position costs about 40 bytes with a `u128`
//! key, where a map of keys to scores and the copy cost twice that. The memory budget counts what the solve
//! really holds: the vector's capacity (grown by a quarter at a time) and the table's buckets, filled or not,
//! with its old and new tables together while it doubles. A solve stops at the first position for which these
//! would pass the budget.
//!
//! Invariant: `check` re-derives every record from the file's records of its children (the best child seen by
//! the mover, the final score at the end), rebuilding each position from its key ([`FromKey`]); the start's
//! record must be there.

use super::check::{CheckProgress, CheckReport};
use super::file::{write_tier, Inspected, TierFile, TierName};
use super::record::{Record, RecordKey};
use super::store::{make_directory, SolveBudget, TierReport};
use crate::engines::support::with_stack;
use crate::engines::{Engine, Statistics, Stop};
use crate::error::{Budget, Error, Remedy, Result, Setting};
use crate::scored::{Deterministic, ScoredGame};
use crate::stats::Stats;
use crate::table::{map_growth, mib};
use crate::{Canonicalize, FromKey};
use foldhash::fast::FixedState;
use hashbrown::HashTable;
use serde::Serialize;
use std::collections::BTreeMap;
use std::hash::BuildHasher;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The one file of a scored game's database.
const FILE_NAME: &str = "scores.ludb";

/// The capacity a vector of `len` items and room for `capacity` needs to take one more: unchanged if it has the
/// room, else a quarter more (a vector's own doubling would leave up to half of what the budget counts unused).
fn room_for_one(len: usize, capacity: usize) -> usize {
    if len < capacity {
        capacity
    } else {
        capacity.saturating_add(capacity / 4).max(1024)
    }
}

/// A deterministic scored game's database in a directory (see the module documentation).
pub struct ScoreDatabase<'game, Ruleset> {
    game: &'game Ruleset,
    name: &'game str,
    directory: &'game Path,
}

/// Positions of one score, in a [`ScoreSummary`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScoreCount {
    /// The score, for the player to move.
    pub score: i32,
    /// Positions of that score.
    pub positions: u64,
}

/// What a scored game's database holds: its positions by score (a margin for the player to move).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScoreSummary {
    /// The start's score.
    pub start: i32,
    /// Positions by score, lowest first.
    pub by_score: Vec<ScoreCount>,
    /// All positions.
    pub positions: u64,
    /// Bytes on disk.
    pub bytes: u64,
}

impl<'game, Ruleset> ScoreDatabase<'game, Ruleset>
where
    Ruleset: Deterministic + FromKey,
    Ruleset::Key: RecordKey,
{
    /// The database of `game` (named `name` with its parameters, written into the file's header) in
    /// `directory`.
    pub fn new(game: &'game Ruleset, name: &'game str, directory: &'game Path) -> Self {
        ScoreDatabase { game, name, directory }
    }

    fn tier_name(&self) -> TierName {
        TierName { game: self.name.to_string(), tier: serde_json::json!("all"), ranks: None }
    }

    /// The file's path.
    pub fn path(&self) -> PathBuf {
        self.directory.join(FILE_NAME)
    }

    /// The file, opened and checked (its header; `verify` its blocks).
    pub fn open(&self) -> Result<TierFile> {
        let path = self.path();
        if !path.exists() {
            return Err(Error::NotSolved {
                game: self.name.to_string(),
                directory: self.directory.display().to_string(),
                path: path.display().to_string(),
            });
        }
        TierFile::open(&path, &self.tier_name())
    }

    /// Solves every position reachable from `start` into the directory (a whole file already there is kept).
    pub fn solve(
        &self,
        start: &Ruleset::Position,
        budget: SolveBudget,
        report: &mut dyn FnMut(&TierReport),
    ) -> Result<()> {
        let path = self.path();
        let tier = "\"all\"".to_string();
        // A whole file of this game is kept; a damaged one is solved again over; anything else (another game's
        // database, a directory, a file of another format) is never written over.
        let found = if path.exists() { Some(TierFile::inspect(&path, &self.tier_name())?) } else { None };
        if let Some(Inspected::Whole(mut file)) = found {
            if file.verify().is_ok() {
                let positions = file.header().records;
                let bytes = std::fs::metadata(&path).map(|metadata| metadata.len()).unwrap_or(0);
                report(&TierReport {
                    tier,
                    positions,
                    bytes,
                    elapsed: Default::default(),
                    resumed: true,
                    damaged: None,
                    sent: 0,
                });
                return Ok(());
            }
        }
        make_directory(self.directory)?;
        let started = Instant::now();
        let mut walk = Walk {
            game: self.game,
            records: Vec::new(),
            places: HashTable::new(),
            hasher: FixedState::default(),
            bytes: mib(budget.memory_mb),
            budget,
        };
        walk.score(start)?;
        let Walk { records, places, .. } = walk;
        // The table of places is freed before the file is written: the writer's buffers take its room.
        drop(places);
        let positions = records.len() as u64;
        let bytes = write_tier(&path, &self.tier_name(), Vec::new(), records)?;
        report(&TierReport {
            tier,
            positions,
            bytes,
            elapsed: started.elapsed(),
            resumed: false,
            damaged: None,
            sent: 0,
        });
        Ok(())
    }

    /// The engine that reads the file's scores.
    pub fn stored(&self) -> Result<StoredScores> {
        Ok(StoredScores { file: self.open()?, stats: Stats::default() })
    }

    /// The positions by score, with the start's score.
    pub fn summary(&self, start: &Ruleset::Position) -> Result<ScoreSummary> {
        let mut file = self.open()?;
        file.verify()?;
        let records = file.read_all()?;
        let mut by_score: BTreeMap<i32, u64> = BTreeMap::new();
        for (_, record) in &records {
            if let Some(score) = record.score() {
                *by_score.entry(score).or_default() += 1;
            }
        }
        let start_key = self.game.canonical(start).to_wide();
        let start =
            records.iter().find(|(key, _)| *key == start_key).and_then(|(_, record)| record.score()).ok_or_else(
                || Error::Database { path: self.path().display().to_string(), reason: "no record of the start".into() },
            )?;
        let bytes = std::fs::metadata(self.path()).map(|metadata| metadata.len()).unwrap_or(0);
        Ok(ScoreSummary {
            start,
            by_score: by_score.into_iter().map(|(score, positions)| ScoreCount { score, positions }).collect(),
            positions: records.len() as u64,
            bytes,
        })
    }

    /// Re-derives every record from its children's records, holding at most `memory_mb` MiB: the records as
    /// read (in a vector that may double as it fills), counted from the file's header before any is read
    /// ([`Error::Limit`] of `--memory-mb` past it). The file keeps its records in key order, so a child's record
    /// is found by a binary search of them: no map of the keys is held beside them.
    pub fn check(
        &self,
        start: &Ruleset::Position,
        memory_mb: usize,
        progress: &mut CheckProgress,
    ) -> Result<CheckReport> {
        let mut file = self.open()?;
        let records = usize::try_from(file.header().records).unwrap_or(usize::MAX);
        let needed = records.saturating_mul(2 * size_of::<(u128, Record)>());
        if needed > mib(memory_mb) {
            return Err(Error::over_memory("the check of a scored game's database", needed as u64, memory_mb, None));
        }
        file.verify()?;
        let records = file.read_all()?;
        if let Some(pair) = records.windows(2).find(|pair| pair[0].0 >= pair[1].0) {
            let problem = format!("key {:#x}: listed after key {:#x}, out of key order", pair[1].0, pair[0].0);
            return Ok(CheckReport { tiers: 1, positions: 0, problems: vec![problem] });
        }
        let find = |wide: u128| {
            let place = records.binary_search_by_key(&wide, |(key, _)| *key).ok()?;
            records.get(place).map(|(_, record)| record)
        };
        let game = self.game;
        let mut problems = Vec::new();
        let mut complain = |problem: String| {
            if problems.len() < super::check::MAX_PROBLEMS {
                problems.push(problem);
            }
        };
        if find(game.canonical(start).to_wide()).is_none() {
            complain("no record of the start".to_string());
        }
        progress("all", 0, 1);
        for (wide, record) in &records {
            let Some(position) = Ruleset::Key::from_wide(*wide).and_then(|key| game.checked_position_of_key(&key))
            else {
                complain(format!("key {wide:#x}: the key of no position"));
                continue;
            };
            let Some(stored) = record.score() else {
                complain(format!("key {wide:#x}: not a score record"));
                continue;
            };
            let derived = match game.outcome(&position) {
                Some(score) => Some(score),
                None => game
                    .legal_moves(&position)
                    .iter()
                    .map(|mv| {
                        let child = game.play(&position, mv);
                        let score = find(game.canonical(&child).to_wide())?.score()?;
                        Some(game.score_seen_from(&position, &child, score))
                    })
                    .collect::<Option<Vec<i32>>>()
                    .and_then(|children| children.into_iter().max()),
            };
            match derived {
                Some(derived) if derived == stored => {}
                Some(derived) => complain(format!("key {wide:#x}: {stored} stored, {derived} from its children")),
                None => complain(format!("key {wide:#x}: a child has no record")),
            }
        }
        Ok(CheckReport { tiers: 1, positions: records.len() as u64, problems })
    }
}

/// The depth-first solve.
struct Walk<'game, Ruleset: Canonicalize> {
    game: &'game Ruleset,
    /// Every position solved, with its record, in the order solved.
    records: Vec<(Ruleset::Key, Record)>,
    /// The place in `records` of each key, found by the key's hash.
    places: HashTable<u32>,
    hasher: FixedState,
    /// The memory budget in bytes.
    bytes: usize,
    budget: SolveBudget,
}

impl<Ruleset: Deterministic + Canonicalize> Walk<'_, Ruleset> {
    fn score(&mut self, position: &Ruleset::Position) -> Result<i32> {
        let key = self.game.canonical(position);
        let hash = self.hasher.hash_one(&key);
        let records = &self.records;
        if let Some(&place) = self.places.find(hash, |&place| records[place as usize].0 == key) {
            return records[place as usize]
                .1
                .score()
                .ok_or_else(|| Error::internal("database", "a solved position without a score"));
        }
        if self.records.len() as u64 >= self.budget.max_positions {
            return Err(Error::Budget(Budget::Positions(self.budget.max_positions)));
        }
        let score = match self.game.outcome(position) {
            Some(score) => score,
            None => {
                let mut best: Option<i32> = None;
                for mv in self.game.legal_moves(position) {
                    let child = self.game.play(position, &mv);
                    let found = with_stack(|| self.score(&child))?;
                    let seen = self.game.score_seen_from(position, &child, found);
                    best = Some(best.map_or(seen, |best| best.max(seen)));
                }
                best.ok_or_else(|| Error::Contract {
                    contract: "ScoredGame",
                    detail: "a position that is not over has no move".to_string(),
                })?
            }
        };
        let record = Record::from_score(score)
            .ok_or_else(|| Error::records(format!("the score {score} does not fit a record")))?;
        self.make_room()?;
        let place = u32::try_from(self.records.len())
            .map_err(|_| Error::limit("the positions of a scored game's database", 1 << 32, u64::from(u32::MAX)))?;
        self.records.push((key, record));
        let (records, hasher) = (&self.records, &self.hasher);
        self.places.insert_unique(hash, place, |&place| hasher.hash_one(&records[place as usize].0));
        Ok(score)
    }

    /// Room for one more position, or [`Error::Budget`] of `--memory-mb` if the solve would then hold more than
    /// its budget (counted before anything grows).
    fn make_room(&mut self) -> Result<()> {
        let places = map_growth::<u32>(self.places.len(), self.places.capacity(), 1);
        let room = room_for_one(self.records.len(), self.records.capacity());
        let needed = places.peak.saturating_add(room.saturating_mul(size_of::<(Ruleset::Key, Record)>()));
        if needed > self.bytes {
            return Err(Error::Budget(Budget::MemoryMb(self.budget.memory_mb)));
        }
        let refused = || Error::Allocation {
            what: "the records of a database solve",
            megabytes: needed.div_ceil(1 << 20) as u64,
            remedies: vec![Remedy::Lower(Setting::MemoryMb)],
        };
        self.records.try_reserve_exact(room - self.records.len()).map_err(|_| refused())?;
        let (records, hasher) = (&self.records, &self.hasher);
        self.places.try_reserve(1, |&place| hasher.hash_one(&records[place as usize].0)).map_err(|_| refused())
    }
}

/// An [`Engine`] that reads scores from a scored game's database file. A missing record ([`Error::NoRecord`])
/// or a file that cannot be read stops its search with [`Stop::Failure`].
pub struct StoredScores {
    file: TierFile,
    stats: Stats,
}

impl Statistics for StoredScores {
    /// Visited: records looked up.
    fn stats(&self) -> Stats {
        self.stats
    }
}

impl<Ruleset: ScoredGame + Canonicalize> Engine<Ruleset> for StoredScores
where
    Ruleset::Key: RecordKey,
{
    type Value = i32;
    type Failure = Error;

    fn search_within(&mut self, game: &Ruleset, position: &Ruleset::Position, _: u64) -> Result<i32, Stop<Error>> {
        self.stats.visited += 1;
        let record = self.file.lookup(game.canonical(position).to_wide()).map_err(Stop::Failure)?;
        match record.and_then(Record::score) {
            Some(score) => Ok(score),
            None => Err(Stop::Failure(Error::NoRecord { position: None })),
        }
    }

    fn budget(&self) -> u64 {
        u64::MAX
    }
}
