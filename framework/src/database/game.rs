//! [`StoredValues`]: an [`Engine`] that reads win/loss/draw values from a game's tier files instead of
//! searching, so that a database's query is the analysis `ludus analyze` makes, with values from disk (the
//! object the CLI holds is [`crate::playable::DatabaseGame`], above this layer).

use super::record::RecordKey;
use super::store::{Database, TierFiles};
use crate::engines::retrograde::Tiers;
use crate::engines::{Engine, Statistics, Stop};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::stats::Stats;
use crate::value::Value;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// An [`Engine`] that reads values from a database instead of searching. A missing record
/// ([`Error::NoRecord`]) or a file that cannot be read stops its search with [`Stop::Failure`].
pub struct StoredValues<'game, Ruleset: Game + Tiers> {
    database: Database<'game, Ruleset>,
    files: TierFiles,
    lookups: u64,
}

impl<'game, Ruleset: Game + Tiers> StoredValues<'game, Ruleset> {
    /// Reads from `database`.
    pub fn new(database: Database<'game, Ruleset>) -> Self {
        StoredValues { database, files: TierFiles::default(), lookups: 0 }
    }
}

impl<Ruleset: Game + Tiers> Statistics for StoredValues<'_, Ruleset> {
    /// Visited: records looked up.
    fn stats(&self) -> Stats {
        Stats { visited: self.lookups, ..Stats::default() }
    }
}

impl<Ruleset> Engine<Ruleset> for StoredValues<'_, Ruleset>
where
    Ruleset: Game + Tiers + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: RecordKey,
    Ruleset::Tier: Serialize + DeserializeOwned,
{
    type Value = Value;
    type Failure = Error;

    fn search_within(&mut self, _: &Ruleset, position: &Ruleset::Position, _: u64) -> Result<Value, Stop<Error>> {
        self.lookups += 1;
        match self.database.value(&mut self.files, position) {
            Ok(Some(value)) => Ok(value),
            Ok(None) => Err(Stop::Failure(Error::NoRecord { position: None })),
            Err(error) => Err(Stop::Failure(error)),
        }
    }

    fn budget(&self) -> u64 {
        u64::MAX
    }
}
