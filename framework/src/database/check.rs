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

use super::file::{Header, TierFile};
use super::record::{Record, RecordKey};
use super::store::Database;
use crate::engines::retrograde::{TierIndexing, TierSolution, Tiers};
use crate::error::{Error, Result};
use crate::game::FromKey;
use crate::game::Game;
use crate::value::Value;
use hashbrown::HashMap;
use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::BTreeSet;
use std::fmt::Debug;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

/// The most problems a check lists before it stops.
pub const MAX_PROBLEMS: usize = 20;

/// What a check tells as it goes: `(tier, done, total)` before each tier is checked.
pub type CheckProgress<'hearer> = dyn FnMut(&str, usize, usize) + 'hearer;

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

/// Which records of a tier some move reaches: one bit per place of the tier's solution (see
/// [`TierSolution::locate`]), marked in parallel while the parent tiers (and the tier itself) are checked, read
/// when the tier is checked.
struct Marks {
    seen: Vec<AtomicU64>,
}

impl Marks {
    /// No mark yet, for a solution of `places` places.
    fn new(places: usize) -> Self {
        Marks { seen: (0..places.div_ceil(64)).map(|_| AtomicU64::new(0)).collect() }
    }

    /// Marks the record at `place`.
    fn mark(&self, place: usize) {
        if let Some(word) = self.seen.get(place / 64) {
            word.fetch_or(1 << (place % 64), Relaxed);
        }
    }

    /// Whether the record at `place` is marked.
    fn marked(&self, place: usize) -> bool {
        self.seen.get(place / 64).is_some_and(|word| word.load(Relaxed) & (1 << (place % 64)) != 0)
    }

    /// The bytes the marks hold.
    fn bytes(&self) -> u64 {
        (self.seen.len() * size_of::<AtomicU64>()) as u64
    }
}

/// The memory a check's process holds for each byte of the tiers it reads: the allocator keeps pages of the
/// tiers checked before, freed but not given back (glibc's adaptive threshold puts buffers of up to 32 MiB on
/// its heap once a larger one was freed). Measured: the peak of `ludus db check connect-four:width=6,height=4`
/// is 1.56 times the tiers held (153 MiB, and 101 MiB with that threshold fixed, for 95 MiB held).
const ALLOCATOR_SLACK: u64 = 2;

/// What the check holds of one tier file while it checks a tier, from the file's header before any record is
/// read: a file by rank read into an indexing by rank, 2 bytes a rank; else, a record, what reading it holds
/// (its 128-bit key and record, in a vector that may double as it fills), its key and value (as collected, which
/// may double too, and in the check's own list) and the indexing's map of them (its old and new buckets while it
/// grows), with 2 bytes a rank of a file by rank read by key; and the marks of the tier's places, a bit each.
/// An upper bound of what is held, so that a check within its budget never passes it.
fn held_bytes<Key>(header: &Header, by_rank: bool) -> u64 {
    let ranks = header.ranks.unwrap_or(0);
    let marks = header.ranks.unwrap_or(header.records).div_ceil(8);
    if header.ranks.is_some() && by_rank {
        return ranks.saturating_mul(2).saturating_add(marks);
    }
    let pair = size_of::<(Key, Value)>();
    let read = 2 * size_of::<(u128, Record)>();
    let records = usize::try_from(header.records).unwrap_or(usize::MAX);
    let map = crate::table::map_bytes::<(Key, Value)>(records).saturating_mul(2);
    header
        .records
        .saturating_mul((read + 3 * pair) as u64)
        .saturating_add(map as u64)
        .saturating_add(ranks.saturating_mul(2))
        .saturating_add(marks)
}

/// A tier's file and its child tiers' files, opened but not loaded.
type Family<Tier> = (TierFile, Vec<(Tier, TierFile)>);

/// What the check of one tier reads: the tier's solution, its child tiers' and the marks of both.
struct Checked<'check, Tier, Key> {
    tier: &'check Tier,
    solution: &'check TierSolution<Tier, Key>,
    children: &'check HashMap<Tier, TierSolution<Tier, Key>>,
    mine: &'check Marks,
    marks: &'check HashMap<Tier, Marks>,
}

impl<'game, Ruleset> Database<'game, Ruleset>
where
    Ruleset: Game + Tiers + FromKey + Sync,
    Ruleset::Position: Send + Sync + Debug,
    Ruleset::Key: RecordKey,
    Ruleset::Tier: Serialize + DeserializeOwned,
{
    /// [`Database::check_within`] within half the machine's memory ([`crate::table::default_memory_mb`]).
    pub fn check<Indexing: TierIndexing<Ruleset>>(
        &self,
        start: &Ruleset::Position,
        indexing: &Indexing,
        progress: &mut CheckProgress,
    ) -> Result<CheckReport> {
        self.check_within(start, indexing, crate::table::default_memory_mb(), progress)
    }

    /// Re-derives every record of the database of the positions reachable from `start`, tiers parents first,
    /// each tier read in `indexing`'s form (the same report whatever the indexing: [`crate::engines::retrograde::ByRank`]
    /// holds a tier's values in a flat array by rank instead of a hash map); `progress(tier, done, total)`
    /// hears of each tier before it is checked. Damaged or missing files are problems of the report; only a
    /// failure to list the tiers is an error, and a tier whose check with its child tiers would hold more than
    /// `memory_mb` MiB (estimated from their headers before they are read; [`Error::Limit`] of `--memory-mb`).
    pub fn check_within<Indexing: TierIndexing<Ruleset>>(
        &self,
        start: &Ruleset::Position,
        indexing: &Indexing,
        memory_mb: usize,
        progress: &mut CheckProgress,
    ) -> Result<CheckReport> {
        let game = self.game();
        let mut report = CheckReport::default();
        let files = match self.tier_files(start) {
            Ok(files) => files,
            Err(error) => {
                report.problems.push(error.to_string());
                return Ok(report);
            }
        };
        let Some(order) = parents_first(self, &files)? else {
            report.problems.push("the headers' reached tiers form a cycle".into());
            return Ok(report);
        };
        drop(files);
        let (start_tier, start_key) = (game.tier(start), game.canonical(start));
        let mut marks: HashMap<Ruleset::Tier, Marks> = HashMap::new();
        let total = order.len();
        for (done, tier) in order.into_iter().enumerate() {
            let name = self.tier_name(&tier)?.tier.to_string();
            // Each problem of a record names the file it is in, and the tier.
            let file = self.tier_path(&tier)?.display().to_string();
            progress(&name, done, total);
            let family = self.open_family(&tier);
            if let Ok((own, children)) = &family {
                let by_rank = indexing.ranks().is_some();
                let files = std::iter::once(own).chain(children.iter().map(|(_, file)| file));
                let held = files.map(|file| held_bytes::<Ruleset::Key>(file.header(), by_rank));
                let marked: u64 = marks.values().map(Marks::bytes).sum();
                let needed = marked.saturating_add(held.fold(0, u64::saturating_add).saturating_mul(ALLOCATOR_SLACK));
                if needed > crate::table::mib(memory_mb) as u64 {
                    let what = format!("the check of tier {name} and its child tiers");
                    return Err(Error::over_memory(what, needed, memory_mb, None));
                }
            }
            let loaded = family.and_then(|(own, children)| {
                let solution = self.load_file(&tier, own, indexing, None)?;
                let children = children.into_iter().map(|(child, file)| {
                    self.load_file(&child, file, indexing, None).map(|solution| (child, solution))
                });
                Ok((solution, children.collect::<Result<HashMap<_, _>>>()?))
            });
            let (solution, children) = match loaded {
                Ok(loaded) => loaded,
                Err(error) => {
                    // A damaged child tier fails each parent's load and its own: it is one problem.
                    let problem = error.to_string();
                    if !report.problems.contains(&problem) {
                        report.problems.push(problem);
                    }
                    if report.problems.len() >= MAX_PROBLEMS {
                        break;
                    }
                    continue;
                }
            };
            let mine = marks.remove(&tier).unwrap_or_else(|| Marks::new(solution.places()));
            if tier == start_tier {
                if let Some((place, _)) = solution.locate(&start_key) {
                    mine.mark(place);
                }
            }
            for (child, loaded) in &children {
                marks.entry(child.clone()).or_insert_with(|| Marks::new(loaded.places()));
            }
            let found = AtomicUsize::new(report.problems.len());
            let checked = Checked { tier: &tier, solution: &solution, children: &children, mine: &mine, marks: &marks };
            let check = |key: &Ruleset::Key, stored: Value| {
                if found.load(Relaxed) >= MAX_PROBLEMS {
                    return None;
                }
                let problem = self.check_record(&checked, key, stored).err()?;
                found.fetch_add(1, Relaxed);
                Some(format!("{file}: tier {name}: {problem}"))
            };
            // A tier by rank is walked rank by rank (its keys are never all held: a billion of them would take
            // 16 GB); a tier by key through its records.
            let (mut problems, positions): (Vec<String>, u64) = match solution.by_rank() {
                Some(by_rank) => {
                    let keyed = |rank: usize| {
                        let value = Record::from_bits(*by_rank.get(rank)?)?.value()?;
                        Some((solution.key_at(rank), value))
                    };
                    let problems = (0..by_rank.len())
                        .into_par_iter()
                        .with_min_len(1 << 12)
                        .filter_map(|rank| match keyed(rank)? {
                            (Some(key), value) => check(&key, value),
                            (None, _) => Some(format!("{file}: tier {name}: rank {rank} has a record but no key")),
                        })
                        .collect();
                    (problems, solution.len() as u64)
                }
                None => {
                    let records: Vec<(Ruleset::Key, Value)> = solution.iter().collect();
                    (records.par_iter().filter_map(|(key, stored)| check(key, *stored)).collect(), records.len() as u64)
                }
            };
            problems.sort();
            report.tiers += 1;
            report.positions += positions;
            report.problems.extend(problems);
            // Every parent tier is checked by now (parents first): a record no move reached is of no position
            // the game reaches.
            if report.problems.is_empty() {
                let unreached: Vec<String> = match solution.by_rank() {
                    Some(by_rank) => (0..by_rank.len())
                        .filter(|&rank| by_rank.get(rank).is_some_and(|&bits| bits != 0) && !mine.marked(rank))
                        .take(MAX_PROBLEMS)
                        .map(|rank| match solution.key_at(rank) {
                            Some(key) => format!("key {key:?}"),
                            None => format!("rank {rank}"),
                        })
                        .collect(),
                    None => solution
                        .iter()
                        .filter(|(key, _)| solution.locate(key).is_some_and(|(place, _)| !mine.marked(place)))
                        .take(MAX_PROBLEMS)
                        .map(|(key, _)| format!("key {key:?}"))
                        .collect(),
                };
                for record in unreached {
                    report
                        .problems
                        .push(format!("{file}: tier {name}: the record of {record} is of a position no move reaches"));
                }
            }
            if report.problems.len() >= MAX_PROBLEMS {
                report.problems.truncate(MAX_PROBLEMS);
                break;
            }
        }
        Ok(report)
    }

    /// The file of `tier` and those of its child tiers, opened (headers and block indexes read, no record
    /// yet): what the check's budget is counted from, then what it reads.
    fn open_family(&self, tier: &Ruleset::Tier) -> Result<Family<Ruleset::Tier>> {
        let file = self.open_solved(tier)?;
        let children = self.reached(&file)?;
        let children = children.into_iter().map(|child| self.open_solved(&child).map(|file| (child, file)));
        Ok((file, children.collect::<Result<_>>()?))
    }

    /// Re-derives one record; `Err` says what is wrong. The keys its moves lead to are marked as reached.
    fn check_record(
        &self,
        checked: &Checked<'_, Ruleset::Tier, Ruleset::Key>,
        key: &Ruleset::Key,
        stored: Value,
    ) -> std::result::Result<(), String> {
        let Checked { tier, solution, children, mine, marks } = *checked;
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
                    let (found, child_marks) = match child_tier == *tier {
                        true => (solution.locate(&child_key), Some(mine)),
                        false => (
                            children.get(&child_tier).and_then(|solved| solved.locate(&child_key)),
                            marks.get(&child_tier),
                        ),
                    };
                    let (place, value) = found.ok_or_else(|| {
                        format!(
                            "a move from key {key:?} leads to key {child_key:?} (tier {child_tier:?}), which has no \
                             record"
                        )
                    })?;
                    if let Some(child_marks) = child_marks {
                        child_marks.mark(place);
                    }
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

/// The tiers of `files` with every tier before the tiers its header says it reaches (Kahn's algorithm, the
/// smallest ready tier first); `None` if they form a cycle.
fn parents_first<Ruleset>(
    database: &Database<'_, Ruleset>,
    files: &[(Ruleset::Tier, super::file::TierFile)],
) -> Result<Option<Vec<Ruleset::Tier>>>
where
    Ruleset: Game + Tiers + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: RecordKey,
    Ruleset::Tier: Serialize + DeserializeOwned,
{
    let mut graph: HashMap<Ruleset::Tier, Vec<Ruleset::Tier>> = HashMap::new();
    for (tier, file) in files {
        graph.insert(tier.clone(), database.reached(file)?);
    }
    let mut parents_left: HashMap<&Ruleset::Tier, usize> = graph.keys().map(|tier| (tier, 0)).collect();
    for children in graph.values() {
        for child in children {
            *parents_left.entry(child).or_default() += 1;
        }
    }
    let mut ready: BTreeSet<&Ruleset::Tier> =
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
    Ok((order.len() == graph.len()).then_some(order))
}
