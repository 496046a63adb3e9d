//! [`WholeGame`]: the [`Storage`] of a small deterministic scored game, every position's score in one file.

use super::{Storage, StoredEngine, StoredValue};
use crate::database::record::Record;
use crate::database::{
    CheckProgress, CheckReport, DatabaseSummary, RecordKey, ScoreDatabase, ScoreReport, SolveBudget, TierReport,
};
use crate::error::Result;
use crate::game::FromKey;
use crate::playable::{DatabaseKind, Playable};
use crate::scored::Deterministic;
use crate::text::TextForm;
use std::path::Path;

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
        Err(crate::error::Error::Unsupported {
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
