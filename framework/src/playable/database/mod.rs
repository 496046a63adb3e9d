//! The object interface the CLI holds for a game solved into a database ([`DatabaseGame`]), and [`Solvable`],
//! the one adapter that makes one of a [`Playable`] of either family and a [`Storage`]: [`Tiered`]
//! (`tiered.rs`: a win/loss/draw game solved tier by tier by the retrograde engine, in its indexing:
//! [`crate::engines::retrograde::ByKey`] by default, [`crate::engines::retrograde::ByRank`] for a game that
//! ranks its positions) or [`WholeGame`] (`whole_game.rs`: a small scored game, every score in one file). A
//! query is the analysis `ludus analyze` makes, with the values an engine reads from the files; `play --db` is
//! the session `ludus play` runs over that engine.

use super::{Analysis, DatabaseKind, GameSession, Playable};
use crate::analysis::SearchValue;
use crate::database::plan::{PlanSettings, SolvePlan};
use crate::database::{CheckProgress, CheckReport, DatabaseSummary, SolveBudget, TierReport};
use crate::engines::Engine;
use crate::error::{shorten, Error, Result};
use crate::text::TextForm;
use crate::value::Value;
use std::path::Path;

mod tiered;
mod whole_game;

pub use tiered::Tiered;
pub use whole_game::WholeGame;

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

    /// The stored value of each key (a canonical key as its whole number, [`crate::database::RecordKey::to_wide`]), in order:
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
