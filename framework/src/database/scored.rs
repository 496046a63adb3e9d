//! Databases of small scored games: [`ScoredSolvable`] solves every position reachable from the start of a
//! deterministic scored game (memoized depth-first search, children first), writes each position's score as a
//! score record ([`Record::from_score`]) into one file of the tier format (`scores.ludb`, tier `"all"`), and
//! answers `ludus db query`, `play --db` and `check` from it. A scored game has no tiers to solve apart, so the
//! whole game is one tier, held in memory while it is solved (within `--memory-mb`): the smallest games.
//!
//! Invariant: `check` re-derives every record from the file's records of its children (the best child seen by
//! the mover, the final score at the end), rebuilding each position from its key ([`ScoredFromKey`]); the
//! start's record must be there.

use super::check::CheckReport;
use super::file::{write_tier, TierFile, TierName};
use super::game::{DatabaseGame, DatabaseSummary};
use super::record::{Record, RecordKey};
use super::store::{SolveBudget, TierReport};
use crate::engines::support::with_stack;
use crate::error::{Budget, Error, Result};
use crate::playable::scored::{Evaluator, Worth};
use crate::playable::{Analysis, GameSession, ScoredPlayable, ScoredText};
use crate::scored::{Deterministic, ScoredCanonicalize, ScoredGame, ScoredHints};
use crate::stats::Stats;
use hashbrown::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The inverse of a scored game's key, for its database: a position from its key.
///
/// Contract: for the key `key` of every reachable position, `position_of_key(key)` is a position whose key is
/// `key` (so of the same value); for other keys, `None` or any position (the caller checks).
pub trait ScoredFromKey: ScoredCanonicalize {
    /// A position whose key is `key`.
    fn position_of_key(&self, key: &Self::Key) -> Option<Self::Position>;

    /// [`ScoredFromKey::position_of_key`], checked: only a position whose key is `key`.
    fn checked_position_of_key(&self, key: &Self::Key) -> Option<Self::Position> {
        self.position_of_key(key).filter(|position| self.canonical(position) == *key)
    }
}

/// A deterministic scored game as a [`DatabaseGame`] (see the module documentation).
pub struct ScoredSolvable<Rules: ScoredGame> {
    playable: ScoredPlayable<Rules>,
}

/// The bytes a solve is counted as holding per position (its key, score and the map's overhead).
fn bytes_per_position<Key>() -> usize {
    size_of::<Key>() + size_of::<i32>() + 16
}

impl<Rules> ScoredSolvable<Rules>
where
    Rules: ScoredText + ScoredFromKey + ScoredHints + Deterministic + 'static,
    Rules::Key: RecordKey,
{
    /// `game`, named `name` with its parameters (written into the file's header).
    pub fn new(game: Rules, name: String) -> Self {
        ScoredSolvable { playable: ScoredPlayable::deterministic(game, name) }
    }

    fn game(&self) -> &Rules {
        &self.playable.game
    }

    fn tier_name(&self) -> TierName {
        TierName { game: self.playable.name.clone(), tier: serde_json::json!("all"), ranks: None }
    }

    fn path(directory: &Path) -> PathBuf {
        directory.join("scores.ludb")
    }

    /// The file, opened and checked (its header; `verify` its blocks).
    fn open(&self, directory: &Path) -> Result<TierFile> {
        let path = Self::path(directory);
        if !path.exists() {
            return Err(Error::NoRecord(format!(
                "{}: not solved (run `ludus db solve {}` first)",
                path.display(),
                self.playable.name
            )));
        }
        TierFile::open(&path, &self.tier_name())
    }

    /// Every position's score, reachable from the start, within `budget`.
    fn solve_scores(&self, budget: SolveBudget) -> Result<HashMap<Rules::Key, i32>> {
        let by_memory = (crate::table::mib(budget.memory_mb) / bytes_per_position::<Rules::Key>()) as u64;
        let mut walk =
            Walk { game: self.game(), scores: HashMap::new(), limit: budget.max_positions.min(by_memory), budget };
        walk.score(&self.game().start())?;
        Ok(walk.scores)
    }
}

/// The depth-first solve.
struct Walk<'game, Rules: ScoredCanonicalize> {
    game: &'game Rules,
    scores: HashMap<Rules::Key, i32>,
    limit: u64,
    budget: SolveBudget,
}

impl<Rules: Deterministic + ScoredCanonicalize> Walk<'_, Rules> {
    fn score(&mut self, position: &Rules::Position) -> Result<i32> {
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
        let score = match self.game.score(position) {
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
                    detail: format!("no move at {position:?}"),
                })?
            }
        };
        self.scores.insert(key, score);
        Ok(score)
    }
}

/// Scores read from the database's file.
struct StoredScores {
    file: TierFile,
    stats: Stats,
}

impl<Rules: ScoredCanonicalize> Evaluator<Rules> for StoredScores
where
    Rules::Key: RecordKey,
{
    fn value(&mut self, game: &Rules, position: &Rules::Position) -> Result<Worth> {
        self.stats.visited += 1;
        let record = self.file.lookup(game.canonical(position).to_wide())?;
        match record.and_then(Record::score) {
            Some(score) => Ok(Worth::Exact(score)),
            None => Err(Error::NoRecord(format!("no score stored for {position:?}"))),
        }
    }

    fn stats(&self) -> Stats {
        self.stats
    }
}

impl<Rules> DatabaseGame for ScoredSolvable<Rules>
where
    Rules: ScoredText + ScoredFromKey + ScoredHints + Deterministic + Send + Sync + 'static,
    Rules::Key: RecordKey,
{
    fn name(&self) -> String {
        self.playable.name.clone()
    }

    fn solve(&self, directory: &Path, budget: SolveBudget, report: &mut dyn FnMut(&TierReport)) -> Result<()> {
        let path = Self::path(directory);
        if let Ok(mut file) = TierFile::open(&path, &self.tier_name()) {
            if file.verify().is_ok() {
                let positions = file.header().records;
                let bytes = std::fs::metadata(&path).map(|metadata| metadata.len()).unwrap_or(0);
                let tier = "\"all\"".to_string();
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
        std::fs::create_dir_all(directory)
            .map_err(|cause| Error::Io { path: directory.display().to_string(), cause })?;
        let started = Instant::now();
        let scores = self.solve_scores(budget)?;
        let records = scores
            .iter()
            .map(|(key, &score)| {
                Record::from_score(score)
                    .map(|record| (*key, record))
                    .ok_or_else(|| Error::Records(format!("the score {score} does not fit a record")))
            })
            .collect::<Result<Vec<_>>>()?;
        let positions = records.len() as u64;
        let bytes = write_tier(&path, &self.tier_name(), Vec::new(), records)?;
        let (tier, elapsed) = ("\"all\"".to_string(), started.elapsed());
        report(&TierReport { tier, positions, bytes, elapsed, resumed: false, damaged: None });
        Ok(())
    }

    #[cfg(feature = "mpi")]
    fn solve_mpi(
        &self,
        _directory: &Path,
        _budget: SolveBudget,
        _report: &mut dyn FnMut(&TierReport),
        _mpi: &super::distributed::Mpi,
        _split: bool,
    ) -> Result<()> {
        Err(Error::Engine(format!(
            "{}: a scored game's database is one tier, solved in one process",
            self.playable.name
        )))
    }

    fn query_after(
        &self,
        directory: &Path,
        position: Option<&str>,
        moves: &[&str],
        max_line: usize,
    ) -> Result<Analysis> {
        let position = self.playable.position_after(position, moves)?;
        let mut stored = StoredScores { file: self.open(directory)?, stats: Stats::default() };
        self.playable.analysis_with(&mut stored, &position, max_line)
    }

    fn summary(&self, _directory: &Path) -> Result<DatabaseSummary> {
        Err(Error::Engine(format!(
            "{}: `ludus db analyze` counts wins and losses by remoteness; a scored game's database holds scores \
             (see `ludus db query` and `ludus db check`)",
            self.playable.name
        )))
    }

    fn check(&self, directory: &Path, progress: &mut dyn FnMut(&str, usize, usize)) -> Result<CheckReport> {
        let mut file = self.open(directory)?;
        file.verify()?;
        let records = file.read_all()?;
        let mut scores: HashMap<u128, Option<i32>> = HashMap::with_capacity(records.len());
        scores.extend(records.iter().map(|(key, record)| (*key, record.score())));
        let game = self.game();
        let mut problems = Vec::new();
        let mut complain = |problem: String| {
            if problems.len() < super::check::MAX_PROBLEMS {
                problems.push(problem);
            }
        };
        if !scores.contains_key(&game.canonical(&game.start()).to_wide()) {
            complain("no record of the start".to_string());
        }
        progress("all", 0, 1);
        for (wide, record) in &records {
            let Some(position) = Rules::Key::from_wide(*wide).and_then(|key| game.checked_position_of_key(&key)) else {
                complain(format!("key {wide:x}: the key of no position"));
                continue;
            };
            let Some(stored) = record.score() else {
                complain(format!("key {wide:x}: not a score record"));
                continue;
            };
            let derived = match game.score(&position) {
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
                Some(derived) => complain(format!("key {wide:x}: {stored} stored, {derived} from its children")),
                None => complain(format!("key {wide:x}: a child has no record")),
            }
        }
        Ok(CheckReport { tiers: 1, positions: records.len() as u64, problems })
    }

    fn session(&self, directory: &Path) -> Result<Box<dyn GameSession + '_>> {
        let mut stored = StoredScores { file: self.open(directory)?, stats: Stats::default() };
        Evaluator::<Rules>::value(&mut stored, self.game(), &self.game().start())?;
        Ok(self.playable.session_with(Box::new(stored)))
    }
}
