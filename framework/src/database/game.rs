//! The object interface the CLI holds for a game that can be solved into a database ([`DatabaseGame`]), and
//! [`Solvable`], which makes one of any game with tiers, a text form and stored keys, solved and checked in
//! its indexing ([`ByKey`] by default, [`crate::engines::retrograde::ByRank`] for a game that ranks its
//! positions: the same files in less memory); a game's registration gives it one
//! ([`crate::playable::Made::with_database`]). A query is an analysis whose values come from the files ([`StoredValues`], an
//! [`Engine`] that reads records instead of searching), so it shows what `ludus analyze` shows.

use super::check::CheckReport;
use super::record::RecordKey;
use super::store::{Database, SolveBudget, TierFiles, TierReport};
use super::summary::Summary;
use crate::analysis::{move_values, principal_variation};
use crate::engines::retrograde::{ByKey, TierIndexing, TierSpec, Tiers};
use crate::engines::{Engine, Statistics, Stop};
use crate::error::{Error, Result};
use crate::game::FromKey;
use crate::playable::{move_analyses, position_after, session, Analysis, Assessment, GameSession, TextForm};
use crate::stats::Stats;
use crate::value::Value;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;
use std::path::Path;

/// A database's summary with the example positions drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DatabaseSummary {
    /// The game with its parameters.
    pub game: String,
    /// The start position's value (in JSON as its text: `win in 9`).
    #[serde(serialize_with = "serde_with_display")]
    pub start: Value,
    /// The counts.
    #[serde(flatten)]
    pub summary: Summary,
    /// The longest win's example, drawn.
    pub longest_win_drawing: Option<String>,
    /// The longest loss's example, drawn.
    pub longest_loss_drawing: Option<String>,
}

/// A value written as its text.
fn serde_with_display<Out: serde::Serializer>(
    value: &Value,
    serializer: Out,
) -> std::result::Result<Out::Ok, Out::Error> {
    serializer.collect_str(value)
}

/// A game that can be solved into a database and read back, as an object.
pub trait DatabaseGame: Send + Sync {
    /// The game's name with its parameters (`connect-four:width=5,height=4`).
    fn name(&self) -> String;

    /// Solves every position reachable from the start into `directory`, resuming from the tiers already there.
    fn solve(&self, directory: &Path, budget: SolveBudget, report: &mut dyn FnMut(&TierReport)) -> Result<()>;

    /// [`DatabaseGame::solve`] over the ranks of an MPI run: every rank calls it; rank 0 schedules and reports
    /// every tier, the others solve the tiers they are handed ([`super::distributed`]), or, if `split`, every
    /// rank solves a slice of every tier ([`super::split`]). The same files.
    #[cfg(feature = "mpi")]
    fn solve_mpi(
        &self,
        directory: &Path,
        budget: SolveBudget,
        report: &mut dyn FnMut(&TierReport),
        mpi: &super::distributed::Mpi,
        split: bool,
    ) -> Result<()>;

    /// The position written `position` (`None`: the start), its value, every move's value and the principal
    /// variation, all read from the database.
    fn query(&self, directory: &Path, position: Option<&str>, max_line: usize) -> Result<Analysis> {
        self.query_after(directory, position, &[], max_line)
    }

    /// [`DatabaseGame::query`] of the position reached from the position written `position` by `moves`, each
    /// written as the game writes a move (what [`crate::playable::PlayableGame::analyze_after`] analyses by a
    /// search).
    fn query_after(
        &self,
        directory: &Path,
        position: Option<&str>,
        moves: &[&str],
        max_line: usize,
    ) -> Result<Analysis>;

    /// Counts by value, remoteness and tier, with the longest win and loss drawn.
    fn summary(&self, directory: &Path) -> Result<DatabaseSummary>;

    /// Re-derives every record from its children's records.
    fn check(&self, directory: &Path, progress: &mut dyn FnMut(&str, usize, usize)) -> Result<CheckReport>;

    /// A game against the perfect player whose moves come from the database (`ludus play GAME --db DIR`);
    /// an error if the database has no record of the start.
    fn session(&self, directory: &Path) -> Result<Box<dyn GameSession + '_>>;
}

/// A game with tiers, a text form and keys a file can store, as a [`DatabaseGame`]: solved and checked with
/// each tier indexed by `indexing`; queried and summarised from the files, whatever the indexing.
pub struct Solvable<Rules, Indexing = ByKey> {
    /// The game.
    pub game: Rules,
    /// Its name with its parameters (written into every file's header).
    pub name: String,
    /// How a solve and a check index each tier.
    pub indexing: Indexing,
}

impl<Rules> Solvable<Rules> {
    /// `game`, named `name` with its parameters, indexed by key.
    pub fn new(game: Rules, name: String) -> Self {
        Solvable { game, name, indexing: ByKey }
    }
}

/// An [`Engine`] that reads values from a database instead of searching. A missing record
/// ([`Error::NoRecord`]) or a file that cannot be read stops its search with [`Stop::Failure`].
pub struct StoredValues<'game, Rules: Tiers> {
    database: Database<'game, Rules>,
    files: TierFiles,
    lookups: u64,
}

impl<'game, Rules: Tiers> StoredValues<'game, Rules> {
    /// Reads from `database`.
    pub fn new(database: Database<'game, Rules>) -> Self {
        StoredValues { database, files: TierFiles::default(), lookups: 0 }
    }
}

impl<Rules: Tiers> Statistics for StoredValues<'_, Rules> {
    /// Visited: records looked up.
    fn stats(&self) -> Stats {
        Stats { visited: self.lookups, ..Stats::default() }
    }
}

impl<Rules> Engine<Rules> for StoredValues<'_, Rules>
where
    Rules: Tiers + Sync,
    Rules::Position: Send + Sync,
    Rules::Key: RecordKey,
    Rules::Tier: Serialize + DeserializeOwned,
{
    type Failure = Error;

    fn search_within(&mut self, _: &Rules, position: &Rules::Position, _: u64) -> Result<Value, Stop<Error>> {
        self.lookups += 1;
        match self.database.value(&mut self.files, position) {
            Ok(Some(value)) => Ok(value),
            Ok(None) => Err(Stop::Failure(Error::NoRecord("a position without a record".into()))),
            Err(error) => Err(Stop::Failure(error)),
        }
    }

    fn budget(&self) -> u64 {
        u64::MAX
    }
}

impl<Rules, Indexing> Solvable<Rules, Indexing>
where
    Rules: TextForm + Tiers + FromKey + Sync,
    Rules::Position: Send + Sync + Debug,
    Rules::Key: RecordKey,
    Rules::Tier: Serialize + DeserializeOwned,
    Indexing: TierIndexing<Rules>,
{
    fn database<'game>(&'game self, directory: &Path) -> Database<'game, Rules> {
        Database::new(&self.game, self.name.clone(), directory).ranked_by(self.indexing.ranks())
    }

    fn drawing_of(&self, database: &Database<'_, Rules>, key: u128) -> Option<String> {
        database.position_of(key).map(|position| self.game.draw_position(&position))
    }
}

impl<Rules, Indexing> DatabaseGame for Solvable<Rules, Indexing>
where
    Rules: TextForm + Tiers + FromKey + Send + Sync,
    Rules::Position: Send + Sync + Debug,
    Rules::Key: RecordKey,
    Rules::Tier: Serialize + DeserializeOwned,
    Indexing: TierIndexing<Rules> + Clone + Send,
{
    fn name(&self) -> String {
        self.name.clone()
    }

    fn solve(&self, directory: &Path, budget: SolveBudget, report: &mut dyn FnMut(&TierReport)) -> Result<()> {
        let spec = TierSpec::new().indexed(self.indexing.clone());
        self.database(directory).solve(&self.game.start(), budget, report, spec)
    }

    #[cfg(feature = "mpi")]
    fn solve_mpi(
        &self,
        directory: &Path,
        budget: SolveBudget,
        report: &mut dyn FnMut(&TierReport),
        mpi: &super::distributed::Mpi,
        split: bool,
    ) -> Result<()> {
        let mut schedule = mpi.schedule(&self.game, split);
        let spec = TierSpec::new().indexed(self.indexing.clone()).schedule(&mut schedule);
        self.database(directory).solve(&self.game.start(), budget, report, spec)
    }

    fn query_after(
        &self,
        directory: &Path,
        position: Option<&str>,
        moves: &[&str],
        max_line: usize,
    ) -> Result<Analysis> {
        let game = &self.game;
        let position = position_after(game, &self.name, position, moves)?;
        let mut engine = StoredValues::new(self.database(directory));
        let value = engine.database.value(&mut engine.files, &position)?.ok_or_else(|| {
            Error::NoRecord(format!(
                "{}: the database in {} has no record of this position (it is not reachable from the start)",
                self.name,
                directory.display()
            ))
        })?;
        let moves = move_analyses(game, move_values(&mut engine, game, &position)?);
        let line = principal_variation(&mut engine, game, &position, max_line)?;
        Ok(Analysis {
            game: self.name.clone(),
            drawing: game.draw_position(&position),
            value: Assessment::Outcome(value),
            moves,
            line: line.iter().map(|mv| game.render_move(mv)).collect(),
            stats: engine.stats(),
        })
    }

    fn summary(&self, directory: &Path) -> Result<DatabaseSummary> {
        let database = self.database(directory);
        let start = self.game.start();
        let summary = database.summary(&start)?;
        let value = database.value(&mut TierFiles::default(), &start)?.ok_or_else(|| Error::Database {
            path: directory.display().to_string(),
            reason: "the start position has no record".into(),
        })?;
        let draw = |longest: &Option<super::summary::Longest>| {
            longest.as_ref().and_then(|longest| self.drawing_of(&database, longest.key))
        };
        Ok(DatabaseSummary {
            game: self.name.clone(),
            start: value,
            longest_win_drawing: draw(&summary.longest_win),
            longest_loss_drawing: draw(&summary.longest_loss),
            summary,
        })
    }

    fn check(&self, directory: &Path, progress: &mut dyn FnMut(&str, usize, usize)) -> Result<CheckReport> {
        self.database(directory).check(&self.game.start(), &self.indexing, progress)
    }

    fn session(&self, directory: &Path) -> Result<Box<dyn GameSession + '_>> {
        let mut engine = StoredValues::new(self.database(directory));
        engine.try_value(&self.game, &self.game.start())?;
        Ok(session(&self.game, Box::new(engine)))
    }
}
