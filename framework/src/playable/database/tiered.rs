//! [`Tiered`]: the [`Storage`] of a win/loss/draw game solved tier by tier by the retrograde engine, one file
//! per tier in the tier's indexing.

use super::{unplanned, Storage, StoredEngine, StoredValue};
use crate::database::plan::{PlanSettings, Rates, SolvePlan, TierShape};
use crate::database::{
    CheckProgress, CheckReport, Database, DatabaseSummary, OutcomeSummary, RecordKey, SolveBudget, StoredValues,
    TierFiles, TierReport,
};
use crate::engines::retrograde::{ByKey, TierIndexing, TierSpec, Tiers};
use crate::error::{Error, Result};
use crate::game::{FromKey, Game};
use crate::playable::{DatabaseKind, Playable};
use crate::text::TextForm;
use crate::value::Value;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;
use std::path::Path;

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
