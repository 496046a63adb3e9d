//! The object interface the CLI holds for a game solved into a database ([`DatabaseGame`]), and [`Solvable`],
//! the one adapter that makes one of a [`Playable`] of either family and a [`Storage`]: [`Tiered`] (a
//! win/loss/draw game solved tier by tier by the retrograde engine, in its indexing: [`ByKey`] by default,
//! [`crate::engines::retrograde::ByRank`] for a game that ranks its positions) or [`WholeGame`] (a small
//! scored game, every score in one file). A query is the analysis `ludus analyze` makes, with the values an
//! engine reads from the files; `play --db` is the session `ludus play` runs over that engine.

use super::{Analysis, DatabaseKind, GameSession, Playable};
use crate::analysis::SearchValue;
use crate::database::plan::{PlanSettings, Rates, SolvePlan, TierShape};
use crate::database::record::Record;
use crate::database::{
    CheckProgress, CheckReport, Database, DatabaseSummary, OutcomeSummary, RecordKey, ScoreDatabase, ScoreReport,
    SolveBudget, StoredValues, TierFiles, TierReport,
};
use crate::engines::retrograde::{ByKey, TierIndexing, TierSpec, Tiers};
use crate::engines::Engine;
use crate::error::{shorten, Error, Result};
use crate::game::{FromKey, Game};
use crate::scored::Deterministic;
use crate::text::TextForm;
use crate::value::Value;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;
use std::path::Path;

/// A value read from a database by its key ([`DatabaseGame::values_of_keys`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoredValue {
    /// A win/loss game's value with its remoteness, for the player to move.
    Outcome(Value),
    /// A scored game's exact score, for the player to move.
    Score(i32),
}

/// A game that can be solved into a database and read back, as an object.
pub trait DatabaseGame: Send + Sync {
    /// The game's name with its parameters (`connect-four:width=5,height=4`).
    fn name(&self) -> String;

    /// How its database is laid out.
    fn kind(&self) -> DatabaseKind;

    /// Solves every position reachable from the start into `directory`, resuming from what is already there.
    fn solve(&self, directory: &Path, budget: SolveBudget, report: &mut dyn FnMut(&TierReport)) -> Result<()>;

    /// [`DatabaseGame::solve`] over the ranks of an MPI run: every rank calls it; rank 0 schedules and reports
    /// every tier, the others solve the tiers they are handed ([`crate::database::distributed`]), or, if
    /// `split`, every rank solves a slice of every tier ([`crate::database::split`]). The same files.
    #[cfg(feature = "mpi")]
    fn solve_mpi(
        &self,
        directory: &Path,
        budget: SolveBudget,
        report: &mut dyn FnMut(&TierReport),
        mpi: &crate::database::distributed::Mpi,
        split: bool,
    ) -> Result<()>;

    /// The position written `position` (`None`: the start), its value, every move's value and the principal
    /// variation, all read from the database.
    fn query(&self, directory: &Path, position: Option<&str>, max_line: usize) -> Result<Analysis> {
        self.query_after(directory, position, &[], max_line)
    }

    /// [`DatabaseGame::query`] of the position reached from the position written `position` by `moves`, each
    /// written as the game writes a move (what [`super::PlayableGame::analyze_after`] analyses by a search).
    fn query_after(
        &self,
        directory: &Path,
        position: Option<&str>,
        moves: &[&str],
        max_line: usize,
    ) -> Result<Analysis>;

    /// What the database holds: a win/loss game's counts by value, remoteness and tier with the longest win and
    /// loss drawn; a scored game's positions by score.
    fn summary(&self, directory: &Path) -> Result<DatabaseSummary>;

    /// Re-derives every record from its children's records, holding at most `memory_mb` MiB (past it, an
    /// [`Error::Limit`] of `--memory-mb` before the records are read).
    fn check(&self, directory: &Path, memory_mb: usize, progress: &mut CheckProgress) -> Result<CheckReport>;

    /// The stored value of each key (a canonical key as its whole number, [`RecordKey::to_wide`]), in order:
    /// `None` for a key of no position the database holds. Files are opened once for the whole batch.
    fn values_of_keys(&self, directory: &Path, keys: &[u128]) -> Result<Vec<Option<StoredValue>>>;

    /// A game against the perfect player whose moves come from the database (`ludus play GAME --db DIR`); an
    /// error if the database has no record of the start.
    fn session(&self, directory: &Path) -> Result<Box<dyn GameSession + '_>>;

    /// The plan of its solve split by shares over `settings`' ranks ([`crate::database::plan`]), telling
    /// `progress` of each tier before its ranks are sampled (its name, the tiers done, the tiers in all; the
    /// samples of a large game take minutes); an error for a database not laid out by rank.
    fn plan(&self, settings: PlanSettings, progress: &mut CheckProgress) -> Result<SolvePlan>;
}

/// A boxed engine reading a database, for as long as `'game` (its game) lives.
pub type StoredEngine<'game, Ruleset, Worth> = Box<dyn Engine<Ruleset, Value = Worth, Failure = Error> + 'game>;

/// How a game's database is solved, read, summarised and checked: the part of a [`Solvable`] that differs by
/// family.
pub trait Storage<Ruleset: TextForm, Worth>: Send + Sync {
    /// How the database is laid out.
    const KIND: DatabaseKind;

    /// Solves every position reachable from `game`'s start (named `name`) into `directory`.
    fn solve(
        &self,
        playable: &Playable<Ruleset, Worth>,
        directory: &Path,
        budget: SolveBudget,
        report: &mut dyn FnMut(&TierReport),
    ) -> Result<()>;

    /// [`Storage::solve`] over MPI ranks.
    #[cfg(feature = "mpi")]
    fn solve_mpi(
        &self,
        playable: &Playable<Ruleset, Worth>,
        directory: &Path,
        budget: SolveBudget,
        report: &mut dyn FnMut(&TierReport),
        mpi: &crate::database::distributed::Mpi,
        split: bool,
    ) -> Result<()>;

    /// The engine that reads the database's values.
    fn stored<'game>(
        &self,
        playable: &'game Playable<Ruleset, Worth>,
        directory: &Path,
    ) -> Result<StoredEngine<'game, Ruleset, Worth>>;

    /// What the database holds.
    fn summary(&self, playable: &Playable<Ruleset, Worth>, directory: &Path) -> Result<DatabaseSummary>;

    /// The stored value of each key, `None` for a key of no position held ([`DatabaseGame::values_of_keys`]).
    fn values_of_keys(
        &self,
        playable: &Playable<Ruleset, Worth>,
        directory: &Path,
        keys: &[u128],
    ) -> Result<Vec<Option<StoredValue>>>;

    /// Re-derives every record from its children's records, within `memory_mb` MiB.
    fn check(
        &self,
        playable: &Playable<Ruleset, Worth>,
        directory: &Path,
        memory_mb: usize,
        progress: &mut CheckProgress,
    ) -> Result<CheckReport>;

    /// The plan of a solve split by shares ([`DatabaseGame::plan`]); by default the error of a database that is
    /// not tiered by rank.
    fn plan(
        &self,
        playable: &Playable<Ruleset, Worth>,
        settings: PlanSettings,
        progress: &mut CheckProgress,
    ) -> Result<SolvePlan> {
        let _ = (settings, progress);
        Err(unplanned(&playable.name))
    }
}

/// The error of a plan asked of a database not laid out by rank.
fn unplanned(name: &str) -> Error {
    Error::Unsupported {
        game: name.to_string(),
        operation: "a plan of its solve (`ludus db plan`)".into(),
        reason: "the plan is of the solve split by shares of each tier's ranks, of a game solved by un-moves \
                 (Connect Four, Quixo, Teeko, Dodgem)"
            .into(),
    }
}

/// A playable game with a database, as a [`DatabaseGame`]: solved and checked by its [`Storage`], queried and
/// played through the same analysis and session as a search.
pub struct Solvable<Ruleset: TextForm, Worth, Kind> {
    playable: Playable<Ruleset, Worth>,
    storage: Kind,
}

impl<Ruleset: TextForm, Worth, Kind> Solvable<Ruleset, Worth, Kind> {
    /// `playable`, whose database `storage` solves and reads.
    pub fn new(playable: Playable<Ruleset, Worth>, storage: Kind) -> Self {
        Solvable { playable, storage }
    }

    /// The game.
    pub fn game(&self) -> &Ruleset {
        &self.playable.game
    }
}

impl<Ruleset, Worth, Kind> DatabaseGame for Solvable<Ruleset, Worth, Kind>
where
    Ruleset: TextForm + Send + Sync,
    Ruleset::Position: Send + Sync,
    Worth: SearchValue + Send + Sync,
    Kind: Storage<Ruleset, Worth>,
{
    fn name(&self) -> String {
        self.playable.name.clone()
    }

    fn plan(&self, settings: PlanSettings, progress: &mut CheckProgress) -> Result<SolvePlan> {
        self.storage.plan(&self.playable, settings, progress)
    }

    fn kind(&self) -> DatabaseKind {
        Kind::KIND
    }

    fn solve(&self, directory: &Path, budget: SolveBudget, report: &mut dyn FnMut(&TierReport)) -> Result<()> {
        self.storage.solve(&self.playable, directory, budget, report)
    }

    #[cfg(feature = "mpi")]
    fn solve_mpi(
        &self,
        directory: &Path,
        budget: SolveBudget,
        report: &mut dyn FnMut(&TierReport),
        mpi: &crate::database::distributed::Mpi,
        split: bool,
    ) -> Result<()> {
        self.storage.solve_mpi(&self.playable, directory, budget, report, mpi, split)
    }

    fn query_after(
        &self,
        directory: &Path,
        position: Option<&str>,
        moves: &[&str],
        max_line: usize,
    ) -> Result<Analysis> {
        let game = &self.playable.game;
        let written = match (position, moves) {
            (None, []) => "the start".to_string(),
            (text, moves) => {
                let text = text.map_or("the start".to_string(), |text| format!("`{}`", shorten(text)));
                let moves = moves.iter().map(|mv| shorten(mv)).collect::<Vec<_>>().join(" ");
                if moves.is_empty() {
                    text
                } else {
                    format!("{text} then `{moves}`")
                }
            }
        };
        let position = self.playable.position_after(position, moves)?;
        let mut engine = self.storage.stored(&self.playable, directory)?;
        engine.try_value(game, &position).map_err(|error| match error {
            Error::NoRecord { .. } => Error::NoRecord { position: Some(written) },
            other => other,
        })?;
        self.playable.analysis_with(engine.as_mut(), &position, max_line)
    }

    fn summary(&self, directory: &Path) -> Result<DatabaseSummary> {
        self.storage.summary(&self.playable, directory)
    }

    fn check(&self, directory: &Path, memory_mb: usize, progress: &mut CheckProgress) -> Result<CheckReport> {
        self.storage.check(&self.playable, directory, memory_mb, progress)
    }

    fn values_of_keys(&self, directory: &Path, keys: &[u128]) -> Result<Vec<Option<StoredValue>>> {
        self.storage.values_of_keys(&self.playable, directory, keys)
    }

    fn session(&self, directory: &Path) -> Result<Box<dyn GameSession + '_>> {
        let game = &self.playable.game;
        let mut engine = self.storage.stored(&self.playable, directory)?;
        engine.try_value(game, &game.start())?;
        Ok(self.playable.session_with(engine))
    }
}

/// A win/loss/draw game's database: one file per tier, solved by the retrograde engine with each tier indexed
/// by `Indexing`; read, summarised and checked whatever the indexing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tiered<Indexing = ByKey>(pub Indexing);

/// The tier files of `game` in `directory`, laid out as `indexing` ranks them.
fn tier_database<'game, Ruleset, Indexing>(
    indexing: &Indexing,
    game: &'game Ruleset,
    name: &str,
    directory: &Path,
) -> Database<'game, Ruleset>
where
    Ruleset: Game + Tiers + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: RecordKey,
    Ruleset::Tier: Serialize + DeserializeOwned,
    Indexing: TierIndexing<Ruleset>,
{
    Database::new(game, name.to_string(), directory).ranked_by(indexing.ranks())
}

impl<Ruleset, Indexing> Storage<Ruleset, Value> for Tiered<Indexing>
where
    Ruleset: Game + TextForm + Tiers + FromKey + Send + Sync,
    Ruleset::Position: Send + Sync + Debug,
    Ruleset::Key: RecordKey,
    Ruleset::Tier: Serialize + DeserializeOwned,
    Indexing: TierIndexing<Ruleset> + Clone + Send + Sync,
{
    const KIND: DatabaseKind = DatabaseKind::Tiered;

    fn solve(
        &self,
        playable: &Playable<Ruleset, Value>,
        directory: &Path,
        budget: SolveBudget,
        report: &mut dyn FnMut(&TierReport),
    ) -> Result<()> {
        let (game, name) = (&playable.game, playable.name.as_str());
        let spec = TierSpec::new().indexed(self.0.clone());
        tier_database(&self.0, game, name, directory).solve(&game.start(), budget, report, spec)
    }

    #[cfg(feature = "mpi")]
    fn solve_mpi(
        &self,
        playable: &Playable<Ruleset, Value>,
        directory: &Path,
        budget: SolveBudget,
        report: &mut dyn FnMut(&TierReport),
        mpi: &crate::database::distributed::Mpi,
        split: bool,
    ) -> Result<()> {
        let (game, name) = (&playable.game, playable.name.as_str());
        let database = tier_database(&self.0, game, name, directory);
        let mut schedule = mpi.schedule(&database, split);
        let spec = TierSpec::new().indexed(self.0.clone()).schedule(&mut schedule);
        database.solve(&game.start(), budget, report, spec)
    }

    fn stored<'game>(
        &self,
        playable: &'game Playable<Ruleset, Value>,
        directory: &Path,
    ) -> Result<StoredEngine<'game, Ruleset, Value>> {
        let (game, name) = (&playable.game, playable.name.as_str());
        Ok(Box::new(StoredValues::new(tier_database(&self.0, game, name, directory))))
    }

    fn plan(
        &self,
        playable: &Playable<Ruleset, Value>,
        settings: PlanSettings,
        progress: &mut CheckProgress,
    ) -> Result<SolvePlan> {
        let ranks = self.0.ranks().ok_or_else(|| unplanned(&playable.name))?;
        let (game, start) = (&playable.game, playable.game.start());
        let (order, children) = crate::engines::retrograde::tier_order(game, game.tier(&start), u64::MAX)?;
        let mut shapes = hashbrown::HashMap::new();
        for (place, tier) in order.iter().enumerate() {
            progress(&format!("{tier:?}"), place, order.len());
            let size = ranks.tier_size(tier);
            let share = self.0.reachable_share(&start, tier, settings.samples, place as u64);
            let share = share.ok_or_else(|| unplanned(&playable.name))?;
            let shape = TierShape { ranks: size, positions: share * size as f64, stays: game.moves_stay_in(tier) };
            shapes.insert(tier.clone(), shape);
        }
        let unknown = TierShape { ranks: 0, positions: 0.0, stays: true };
        let shape = |tier: &Ruleset::Tier| shapes.get(tier).copied().unwrap_or(unknown);
        crate::database::plan::plan(&playable.name, &order, &children, shape, settings, Rates::CONNECT_FOUR)
    }

    fn summary(&self, playable: &Playable<Ruleset, Value>, directory: &Path) -> Result<DatabaseSummary> {
        let (game, name) = (&playable.game, playable.name.as_str());
        let database = tier_database(&self.0, game, name, directory);
        let start = game.start();
        let summary = database.summary(&start)?;
        let value = database.value(&mut TierFiles::default(), &start)?.ok_or_else(|| Error::Database {
            path: directory.display().to_string(),
            reason: "the start position has no record".into(),
        })?;
        let draw = |longest: &Option<crate::database::summary::Longest>| {
            longest
                .as_ref()
                .and_then(|longest| database.position_of(longest.key))
                .map(|position| game.draw_position(&position))
        };
        Ok(DatabaseSummary::Outcomes(OutcomeSummary {
            game: name.to_string(),
            start: value,
            longest_win_drawing: draw(&summary.longest_win),
            longest_loss_drawing: draw(&summary.longest_loss),
            summary,
        }))
    }

    fn values_of_keys(
        &self,
        playable: &Playable<Ruleset, Value>,
        directory: &Path,
        keys: &[u128],
    ) -> Result<Vec<Option<StoredValue>>> {
        let (game, name) = (&playable.game, playable.name.as_str());
        let database = tier_database(&self.0, game, name, directory);
        // A key's tier is its position's: a key no position has (checked by `position_of`) has no record.
        let positions: Vec<Option<Ruleset::Position>> = keys.iter().map(|&wide| database.position_of(wide)).collect();
        let held: Vec<Ruleset::Position> = positions.iter().flatten().cloned().collect();
        let mut values = database.values(&mut TierFiles::default(), &held)?.into_iter();
        Ok(positions
            .iter()
            .map(|position| position.as_ref().and_then(|_| values.next().flatten()).map(StoredValue::Outcome))
            .collect())
    }

    fn check(
        &self,
        playable: &Playable<Ruleset, Value>,
        directory: &Path,
        memory_mb: usize,
        progress: &mut CheckProgress,
    ) -> Result<CheckReport> {
        let (game, name) = (&playable.game, playable.name.as_str());
        tier_database(&self.0, game, name, directory).check_within(&game.start(), &self.0, memory_mb, progress)
    }
}

/// A small deterministic scored game's database: every position's score in one file.
#[derive(Clone, Copy, Debug, Default)]
pub struct WholeGame;

impl<Ruleset> Storage<Ruleset, i32> for WholeGame
where
    Ruleset: Deterministic + TextForm + FromKey + Send + Sync,
    Ruleset::Key: RecordKey,
{
    const KIND: DatabaseKind = DatabaseKind::WholeGame;

    fn solve(
        &self,
        playable: &Playable<Ruleset, i32>,
        directory: &Path,
        budget: SolveBudget,
        report: &mut dyn FnMut(&TierReport),
    ) -> Result<()> {
        let (game, name) = (&playable.game, playable.name.as_str());
        ScoreDatabase::new(game, name, directory).solve(&game.start(), budget, report)
    }

    #[cfg(feature = "mpi")]
    fn solve_mpi(
        &self,
        playable: &Playable<Ruleset, i32>,
        _directory: &Path,
        _budget: SolveBudget,
        _report: &mut dyn FnMut(&TierReport),
        _mpi: &crate::database::distributed::Mpi,
        _split: bool,
    ) -> Result<()> {
        Err(Error::Unsupported {
            game: playable.name.clone(),
            operation: "a solve over MPI".into(),
            reason: "a scored game's database is one tier, solved in one process".into(),
        })
    }

    fn stored<'game>(
        &self,
        playable: &'game Playable<Ruleset, i32>,
        directory: &Path,
    ) -> Result<StoredEngine<'game, Ruleset, i32>> {
        let (game, name) = (&playable.game, playable.name.as_str());
        Ok(Box::new(ScoreDatabase::new(game, name, directory).stored()?))
    }

    fn summary(&self, playable: &Playable<Ruleset, i32>, directory: &Path) -> Result<DatabaseSummary> {
        let (game, name) = (&playable.game, playable.name.as_str());
        let summary = ScoreDatabase::new(game, name, directory).summary(&game.start())?;
        Ok(DatabaseSummary::Scores(ScoreReport { game: name.to_string(), summary }))
    }

    fn values_of_keys(
        &self,
        playable: &Playable<Ruleset, i32>,
        directory: &Path,
        keys: &[u128],
    ) -> Result<Vec<Option<StoredValue>>> {
        let (game, name) = (&playable.game, playable.name.as_str());
        let mut file = ScoreDatabase::new(game, name, directory).open()?;
        keys.iter().map(|&wide| Ok(file.lookup(wide)?.and_then(Record::score).map(StoredValue::Score))).collect()
    }

    fn check(
        &self,
        playable: &Playable<Ruleset, i32>,
        directory: &Path,
        memory_mb: usize,
        progress: &mut CheckProgress,
    ) -> Result<CheckReport> {
        let (game, name) = (&playable.game, playable.name.as_str());
        ScoreDatabase::new(game, name, directory).check(&game.start(), memory_mb, progress)
    }
}
