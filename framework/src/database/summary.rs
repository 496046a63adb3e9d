//! What a solved database holds, as GamesmanOne's analyzer prints it: positions won, lost and drawn for the
//! player to move, by remoteness and by tier, and the longest win and loss with an example position. The files
//! are read a block at a time, each block's checksum checked; the tiers are found from the start's tier through
//! the headers' lists of reached tiers.

use super::file::TierFile;
use super::record::RecordKey;
use super::store::Database;
use crate::engines::retrograde::Tiers;
use crate::error::{Error, Result};
use crate::game::Game;
use crate::value::Value;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// One tier's counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TierCounts {
    /// The tier, in its serde form.
    pub tier: String,
    /// Positions won for the player to move.
    pub wins: u64,
    /// Positions lost.
    pub losses: u64,
    /// Positions drawn.
    pub draws: u64,
    /// The file's size.
    pub bytes: u64,
}

/// Positions won and lost at one remoteness.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RemotenessCounts {
    /// Plies to the end under perfect play.
    pub remoteness: u32,
    /// Positions won in that many plies.
    pub wins: u64,
    /// Positions lost in that many plies.
    pub losses: u64,
}

/// The longest win or loss, with the key of the first position found with it (in tier order, then key order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Longest {
    /// The value.
    pub value: Value,
    /// The example's canonical key (in JSON as hexadecimal text, `"0x1f"`: keys pass 64 bits).
    #[serde(serialize_with = "serialize_hex")]
    pub key: u128,
}

/// A key written as hexadecimal text.
fn serialize_hex<Out: serde::Serializer>(key: &u128, serializer: Out) -> std::result::Result<Out::Ok, Out::Error> {
    serializer.collect_str(&format_args!("{key:#x}"))
}

/// A database's summary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Every tier, in the order found from the start's tier.
    pub tiers: Vec<TierCounts>,
    /// Wins and losses by remoteness (remotenesses with neither are left out).
    pub by_remoteness: Vec<RemotenessCounts>,
    /// Drawn positions.
    pub draws: u64,
    /// All positions.
    pub positions: u64,
    /// Bytes on disk.
    pub bytes: u64,
    /// The longest win.
    pub longest_win: Option<Longest>,
    /// The longest loss.
    pub longest_loss: Option<Longest>,
}

impl<Ruleset> Database<'_, Ruleset>
where
    Ruleset: Game + Tiers + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: RecordKey,
    Ruleset::Tier: Serialize + DeserializeOwned,
{
    /// The tiers reachable from `start`'s tier through the headers, in a deterministic order (each tier's
    /// reached tiers sorted), with their open files. A tier that is reached but has no file is an error.
    pub fn tier_files(&self, start: &Ruleset::Position) -> Result<Vec<(Ruleset::Tier, TierFile)>> {
        let first = self.game().tier(start);
        let mut seen = BTreeSet::from([first.clone()]);
        let mut queue = std::collections::VecDeque::from([first]);
        let mut files = Vec::new();
        while let Some(tier) = queue.pop_front() {
            let path = self.tier_path(&tier)?;
            let name = self.tier_name(&tier)?.tier;
            let file = self.open(&tier)?.ok_or_else(|| Error::Database {
                path: path.display().to_string(),
                reason: format!("missing: tier {name} is not solved (run `ludus db solve`)"),
            })?;
            let mut reached = self.reached(&file)?;
            reached.sort();
            for child in reached {
                if seen.insert(child.clone()) {
                    queue.push_back(child);
                }
            }
            files.push((tier, file));
        }
        Ok(files)
    }

    /// Counts every record of the database of the positions reachable from `start`.
    pub fn summary(&self, start: &Ruleset::Position) -> Result<Summary> {
        let mut summary = Summary {
            tiers: Vec::new(),
            by_remoteness: Vec::new(),
            draws: 0,
            positions: 0,
            bytes: 0,
            longest_win: None,
            longest_loss: None,
        };
        let mut by_remoteness: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
        for (tier, mut file) in self.tier_files(start)? {
            let bytes = std::fs::metadata(self.tier_path(&tier)?).map(|meta| meta.len()).unwrap_or(0);
            let mut counts =
                TierCounts { tier: self.tier_name(&tier)?.tier.to_string(), wins: 0, losses: 0, draws: 0, bytes };
            let by_rank = file.ranks().is_some();
            for place in 0..file.blocks() {
                for (stored, record) in file.read_block(place)? {
                    let Some(value) = record.value() else { continue };
                    let (longest, count) = match value {
                        Value::Draw => {
                            counts.draws += 1;
                            continue;
                        }
                        Value::Win(remoteness) => {
                            counts.wins += 1;
                            (&mut summary.longest_win, &mut by_remoteness.entry(remoteness).or_default().0)
                        }
                        Value::Lose(remoteness) => {
                            counts.losses += 1;
                            (&mut summary.longest_loss, &mut by_remoteness.entry(remoteness).or_default().1)
                        }
                    };
                    *count += 1;
                    if longest.as_ref().is_none_or(|old| old.value.remoteness() < value.remoteness()) {
                        let key = match by_rank {
                            true => self.key_of_rank(&tier, stored).ok_or_else(|| Error::Database {
                                path: self.tier_path(&tier).map(|path| path.display().to_string()).unwrap_or_default(),
                                reason: format!("rank {stored} has a record but no key"),
                            })?,
                            false => stored,
                        };
                        *longest = Some(Longest { value, key });
                    }
                }
            }
            summary.draws += counts.draws;
            summary.positions += counts.wins + counts.losses + counts.draws;
            summary.bytes += bytes;
            summary.tiers.push(counts);
        }
        summary.by_remoteness = by_remoteness
            .into_iter()
            .map(|(remoteness, (wins, losses))| RemotenessCounts { remoteness, wins, losses })
            .collect();
        Ok(summary)
    }
}

/// What `ludus db analyze` reports of a database, for either family.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum DatabaseSummary {
    /// A win/loss/draw game's counts by remoteness and tier.
    Outcomes(OutcomeSummary),
    /// A scored game's positions by score.
    Scores(ScoreReport),
}

/// A win/loss/draw database's summary with the example positions drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutcomeSummary {
    /// The game with its parameters.
    pub game: String,
    /// The start position's value (in JSON as its text: `win in 9`).
    #[serde(serialize_with = "serialize_with_display")]
    pub start: Value,
    /// The counts.
    #[serde(flatten)]
    pub summary: Summary,
    /// The longest win's example, drawn.
    pub longest_win_drawing: Option<String>,
    /// The longest loss's example, drawn.
    pub longest_loss_drawing: Option<String>,
}

/// A scored game's database summary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScoreReport {
    /// The game with its parameters.
    pub game: String,
    /// The counts by score.
    #[serde(flatten)]
    pub summary: super::scored::ScoreSummary,
}

/// A value written as its text.
fn serialize_with_display<Out: serde::Serializer>(
    value: &Value,
    serializer: Out,
) -> std::result::Result<Out::Ok, Out::Error> {
    serializer.collect_str(value)
}
