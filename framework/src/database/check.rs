//! `ludus db check`: every record re-derived from its children's records. A position's stored value must be
//! its outcome when the game is over, a loss when it has no move, and otherwise the best of its children's
//! stored values backed up one ply; every child must have a record, and every record must be of the start or
//! of a child of another record.
//!
//! Why this proves the database right (not only consistent): let `p` be a wrongly stored position whose true
//! value is a win or a loss with the least remoteness among such positions. Its children of smaller true
//! remoteness are stored right, and a position stored as a win or loss is truly one (by induction on the stored
//! remoteness: a stored loss has only stored-win children, each with a stored-loss child one ply nearer the
//! end), so the best backed-up child value is `p`'s true value, and the check fails at `p`. Positions truly
//! drawn are then the ones stored as draws.

use super::record::RecordKey;
use super::store::Database;
use crate::engines::retrograde::{TierSolution, Tiers};
use crate::error::Result;
use crate::game::FromKey;
use crate::value::Value;
use hashbrown::{HashMap, HashSet};
use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::BTreeSet;
use std::fmt::Debug;

/// The most problems a check lists before it stops.
pub const MAX_PROBLEMS: usize = 20;

/// What a check found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// Tiers checked.
    pub tiers: u64,
    /// Records re-derived.
    pub positions: u64,
    /// What is wrong (empty for a right database), at most [`MAX_PROBLEMS`].
    pub problems: Vec<String>,
}

/// What the check of a share of a tier's records found.
struct Partial<Tier, Key> {
    problems: Vec<String>,
    references: HashMap<Tier, HashSet<Key>>,
}

impl<Tier: Eq + std::hash::Hash, Key: Eq + std::hash::Hash> Partial<Tier, Key> {
    fn new() -> Self {
        Partial { problems: Vec::new(), references: HashMap::new() }
    }

    fn merge(mut self, other: Self) -> Self {
        self.problems.extend(other.problems);
        self.problems.truncate(MAX_PROBLEMS);
        for (tier, keys) in other.references {
            self.references.entry(tier).or_default().extend(keys);
        }
        self
    }
}

impl<Rules> Database<'_, Rules>
where
    Rules: Tiers + FromKey + Sync,
    Rules::Position: Send + Sync + Debug,
    Rules::Key: RecordKey,
    Rules::Tier: Serialize + DeserializeOwned,
{
    /// Re-derives every record of the database of the positions reachable from `start`, tiers parents first;
    /// `progress(tier, done, total)` hears of each tier before it is checked. Damaged or missing files are
    /// problems of the report; only a failure to list the tiers is an error.
    pub fn check(&self, start: &Rules::Position, progress: &mut dyn FnMut(&str, usize, usize)) -> Result<CheckReport> {
        let game = self.game();
        let mut report = CheckReport::default();
        let files = match self.tier_files(start) {
            Ok(files) => files,
            Err(error) => {
                report.problems.push(error.to_string());
                return Ok(report);
            }
        };
        // Parents first (Kahn's algorithm over the headers' reached tiers, the smallest ready tier first).
        let mut graph: HashMap<Rules::Tier, Vec<Rules::Tier>> = HashMap::new();
        for (tier, file) in &files {
            graph.insert(tier.clone(), self.reached(file)?);
        }
        let mut parents_left: HashMap<&Rules::Tier, usize> = graph.keys().map(|tier| (tier, 0)).collect();
        for children in graph.values() {
            for child in children {
                *parents_left.entry(child).or_default() += 1;
            }
        }
        let mut ready: BTreeSet<&Rules::Tier> =
            parents_left.iter().filter(|(_, &count)| count == 0).map(|(&tier, _)| tier).collect();
        let mut order = Vec::new();
        while let Some(tier) = ready.pop_first() {
            order.push(tier.clone());
            for child in graph.get(tier).map(Vec::as_slice).unwrap_or(&[]) {
                if let Some(count) = parents_left.get_mut(child) {
                    *count -= 1;
                    if *count == 0 {
                        ready.insert(child);
                    }
                }
            }
        }
        if order.len() != graph.len() {
            report.problems.push("the headers' reached tiers form a cycle".into());
            return Ok(report);
        }
        let mut referenced: HashMap<Rules::Tier, HashSet<Rules::Key>> = HashMap::new();
        referenced.entry(game.tier(start)).or_default().insert(game.canonical(start));
        let total = order.len();
        for (done, tier) in order.into_iter().enumerate() {
            let name = self.tier_name(&tier)?.tier.to_string();
            progress(&name, done, total);
            let loaded = self.load(&tier).and_then(|solution| {
                let children = solution
                    .reached()
                    .iter()
                    .map(|child| self.load(child).map(|loaded| (child.clone(), loaded)))
                    .collect::<Result<HashMap<_, _>>>()?;
                Ok((solution, children))
            });
            let (solution, children) = match loaded {
                Ok(loaded) => loaded,
                Err(error) => {
                    report.problems.push(error.to_string());
                    if report.problems.len() >= MAX_PROBLEMS {
                        break;
                    }
                    continue;
                }
            };
            let records: Vec<(Rules::Key, Value)> = solution.iter().collect();
            let partial = records
                .par_iter()
                .fold(Partial::new, |mut partial, (key, stored)| {
                    if partial.problems.len() < MAX_PROBLEMS {
                        if let Err(problem) =
                            self.check_record(&tier, &solution, &children, key, *stored, &mut partial.references)
                        {
                            partial.problems.push(format!("tier {name}: {problem}"));
                        }
                    }
                    partial
                })
                .reduce(Partial::new, Partial::merge);
            report.tiers += 1;
            report.positions += records.len() as u64;
            report.problems.extend(partial.problems);
            let mut references = partial.references;
            let mut mine = referenced.remove(&tier).unwrap_or_default();
            mine.extend(references.remove(&tier).unwrap_or_default());
            for (key, _) in &records {
                if !mine.contains(key) && report.problems.len() < MAX_PROBLEMS {
                    report
                        .problems
                        .push(format!("tier {name}: the record of key {key:?} is of a position no move reaches"));
                }
            }
            for (child, keys) in references {
                referenced.entry(child).or_default().extend(keys);
            }
            if report.problems.len() >= MAX_PROBLEMS {
                report.problems.truncate(MAX_PROBLEMS);
                break;
            }
        }
        Ok(report)
    }

    /// Re-derives one record; `Err` says what is wrong. The keys its moves lead to go into `references`.
    fn check_record(
        &self,
        tier: &Rules::Tier,
        solution: &TierSolution<Rules::Tier, Rules::Key>,
        children: &HashMap<Rules::Tier, TierSolution<Rules::Tier, Rules::Key>>,
        key: &Rules::Key,
        stored: Value,
        references: &mut HashMap<Rules::Tier, HashSet<Rules::Key>>,
    ) -> std::result::Result<(), String> {
        let game = self.game();
        let position =
            self.position_of(key.to_wide()).ok_or_else(|| format!("the key {key:?} is no position's key"))?;
        if game.tier(&position) != *tier {
            return Err(format!("the position of key {key:?} is of tier {:?}", game.tier(&position)));
        }
        let derived = match game.outcome(&position) {
            Some(value) => value,
            None => {
                let moves = game.legal_moves(&position);
                let mut best: Option<Value> = None;
                for mv in &moves {
                    let child = game.play(&position, mv);
                    let (child_tier, child_key) = (game.tier(&child), game.canonical(&child));
                    let value = match child_tier == *tier {
                        true => solution.value_of_key(&child_key),
                        false => children.get(&child_tier).and_then(|solved| solved.value_of_key(&child_key)),
                    };
                    let value = value.ok_or_else(|| {
                        format!("a move from key {key:?} leads to key {child_key:?} (tier {child_tier:?}), which has no record")
                    })?;
                    references.entry(child_tier).or_default().insert(child_key);
                    let backed = value.backed_up();
                    best = Some(best.map_or(backed, |old| old.max(backed)));
                }
                best.unwrap_or(Value::LOST)
            }
        };
        if derived != stored {
            return Err(format!(
                "key {key:?} ({position:?}) is stored as {stored:?}, but its children's records give {derived:?}"
            ));
        }
        Ok(())
    }
}
