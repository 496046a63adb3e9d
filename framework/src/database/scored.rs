//! Databases of small scored games ([`ScoreDatabase`]): every position reachable from the start of a
//! deterministic scored game solved by a memoized depth-first search (children first), each position's score
//! written as a score record ([`Record::from_score`]) into one file of the tier format (`scores.ludb`, tier
//! `"all"`), read back by [`StoredScores`] (an [`Engine`] that reads scores instead of searching), counted by
//! score ([`ScoreSummary`]) and checked record by record. A scored game has no tiers to solve apart, so the
//! whole game is one tier, held in memory while it is solved (within `--memory-mb`): the smallest games.
//!
//! Invariant: `check` re-derives every record from the file's records of its children (the best child seen by
//! the mover, the final score at the end), rebuilding each position from its key ([`FromKey`]); the start's
//! record must be there.

use super::check::CheckReport;
use super::file::{write_tier, TierFile, TierName};
use super::record::{Record, RecordKey};
use super::store::{SolveBudget, TierReport};
use crate::engines::support::with_stack;
use crate::engines::{Engine, Statistics, Stop};
use crate::error::{Budget, Error, Result};
use crate::scored::{Deterministic, ScoredGame};
use crate::stats::Stats;
use crate::{Canonicalize, FromKey};
use hashbrown::HashMap;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The one file of a scored game's database.
const FILE_NAME: &str = "scores.ludb";

/// The bytes a solve is counted as holding per position (its key, score and the map's overhead).
fn bytes_per_position<Key>() -> usize {
    size_of::<Key>() + size_of::<i32>() + 16
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
            return Err(Error::NoRecord(format!(
                "{}: not solved (run `ludus db solve {}` first)",
                path.display(),
                self.name
            )));
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
        if let Ok(mut file) = TierFile::open(&path, &self.tier_name()) {
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
                });
                return Ok(());
            }
        }
        std::fs::create_dir_all(self.directory)
            .map_err(|cause| Error::Io { path: self.directory.display().to_string(), cause })?;
        let started = Instant::now();
        let by_memory = (crate::table::mib(budget.memory_mb) / bytes_per_position::<Ruleset::Key>()) as u64;
        let mut walk =
            Walk { game: self.game, scores: HashMap::new(), limit: budget.max_positions.min(by_memory), budget };
        walk.score(start)?;
        let records = walk
            .scores
            .iter()
            .map(|(key, &score)| {
                Record::from_score(score)
                    .map(|record| (*key, record))
                    .ok_or_else(|| Error::Records(format!("the score {score} does not fit a record")))
            })
            .collect::<Result<Vec<_>>>()?;
        let positions = records.len() as u64;
        let bytes = write_tier(&path, &self.tier_name(), Vec::new(), records)?;
        report(&TierReport { tier, positions, bytes, elapsed: started.elapsed(), resumed: false, damaged: None });
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

    /// Re-derives every record from its children's records.
    pub fn check(
        &self,
        start: &Ruleset::Position,
        progress: &mut dyn FnMut(&str, usize, usize),
    ) -> Result<CheckReport> {
        let mut file = self.open()?;
        file.verify()?;
        let records = file.read_all()?;
        let mut scores: HashMap<u128, Option<i32>> = HashMap::with_capacity(records.len());
        scores.extend(records.iter().map(|(key, record)| (*key, record.score())));
        let game = self.game;
        let mut problems = Vec::new();
        let mut complain = |problem: String| {
            if problems.len() < super::check::MAX_PROBLEMS {
                problems.push(problem);
            }
        };
        if !scores.contains_key(&game.canonical(start).to_wide()) {
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
                        let score = scores.get(&game.canonical(&child).to_wide()).copied().flatten()?;
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
struct Walk<'game, Ruleset: ScoredGame + Canonicalize> {
    game: &'game Ruleset,
    scores: HashMap<Ruleset::Key, i32>,
    limit: u64,
    budget: SolveBudget,
}

impl<Ruleset: Deterministic + Canonicalize> Walk<'_, Ruleset> {
    fn score(&mut self, position: &Ruleset::Position) -> Result<i32> {
        let key = self.game.canonical(position);
        if let Some(&score) = self.scores.get(&key) {
            return Ok(score);
        }
        if self.scores.len() as u64 >= self.limit {
            return Err(Error::Budget(if self.limit == self.budget.max_positions {
                Budget::Positions(self.limit)
            } else {
                Budget::MemoryMb(self.budget.memory_mb)
            }));
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
        self.scores.insert(key, score);
        Ok(score)
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
            None => Err(Stop::Failure(Error::NoRecord("the database holds no score for this position".into()))),
        }
    }

    fn budget(&self) -> u64 {
        u64::MAX
    }
}
