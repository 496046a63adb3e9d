//! One tier solved by every rank at once (the split-tier mode of [`super::distributed`]): each position is
//! owned by one rank, chosen by a hash of its key; each rank enumerates, keeps and induces its own slice, and
//! the ranks exchange, in batches, the edges that cross slices and the parent updates of each remoteness level.
//!
//! Enumeration, by rounds: a rank expands the positions of its slice not yet expanded; each distinct in-tier
//! child key goes, with the parent's place, to the child's owner, which adds the key to its slice if new
//! (rebuilding the position with [`FromKey`]) and records the parent (rank, place) as a reverse edge; exits
//! are read from the child tiers, which every rank holds whole. The rounds end when no rank added a position.
//!
//! Induction, by levels, as `engines::retrograde::induction` runs it on one machine: the lowest level any rank
//! has scheduled is claimed by every rank (the first claim of a position is its value), then each claimed
//! position's parents are sent, with its kind, to their owners, who apply the updates (a loss makes an
//! undecided parent a win at the next level; a win decrements its counter of undecided children, and a counter
//! at 0 makes it a loss at the next level or at its slowest exit, unless an exit wins or draws). A level's
//! claims are made before its updates are applied, on every rank, so the values are the one-machine values.
//! What is never claimed is a draw.
//!
//! Errors are agreed on: every collective step first tells every rank whether one failed, so that all return
//! an error together instead of one waiting forever for the others.
//!
//! Messages besides the collectives: rank 0 sends every rank each tier's assignment (as in the by-tier mode:
//! [`ASSIGN`], the tier, its inputs and every entry's key); each worker answers [`DONE`] with its slice (the
//! JSON of the tiers reached, then each record as its key, 16 bytes, and its 16-bit [`Record`]) or [`FAILED`];
//! rank 0 builds the tier's solution from every slice and writes its file. [`STOP`] ends the run.

use super::distributed::{hold, read_assignment, MpiSchedule, Tasks, ASSIGN, DONE, FAILED, STOP};
use super::record::{Record, RecordKey, MAX_STORED_REMOTENESS};
use crate::engines::retrograde::{SolvedTiers, TierSolution, TierWork, Tiers};
use crate::error::{Budget, Error, Result};
use crate::game::FromKey;
use crate::value::Value;
use hashbrown::HashMap;
use mpi::collective::{CommunicatorCollectives, SystemOperation};
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::Communicator;
use mpi::Count;
use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Collective exchanges among the ranks: the split solve's only contact with MPI.
pub trait Exchange {
    /// This rank.
    fn this_rank(&self) -> usize;

    /// The number of ranks.
    fn ranks(&self) -> usize;

    /// Sends `batches[r]` to rank `r`; returns what each rank sent this one, by rank.
    fn all_to_all(&self, batches: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>>;

    /// The sum of every rank's `value`.
    fn all_sum(&self, value: u64) -> u64;

    /// The least of every rank's `value`.
    fn all_min(&self, value: u64) -> u64;
}

/// Bytes of one enumeration edge in a batch: the child's key (16) and the parent's place (4).
const EDGE_BYTES: usize = 20;

/// Bytes of one parent update in a batch: the parent's place (4) and whether the child won (1).
const UPDATE_BYTES: usize = 5;

/// The rank that owns `wide`: a hash of the key (splitmix64 of its two halves), modulo the ranks.
pub fn owner(wide: u128, ranks: usize) -> usize {
    let mut mixed = (wide as u64) ^ ((wide >> 64) as u64).rotate_left(32);
    mixed = mixed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    mixed ^= mixed >> 31;
    (mixed % ranks.max(1) as u64) as usize
}

/// `local` on every rank if it is ok on every rank; else an error everywhere (this rank's own, if it failed).
pub fn agree<Outcome>(exchange: &dyn Exchange, local: Result<Outcome>) -> Result<Outcome> {
    let failed = exchange.all_sum(u64::from(local.is_err()));
    match local {
        Ok(_) if failed > 0 => Err(Error::Distributed(format!("{failed} other rank(s) failed on this tier"))),
        other => other,
    }
}

/// One rank's slice of a tier: the records it owns and the child tiers its moves reached.
pub struct SliceSolution<Tier, Key> {
    /// Each owned key with its value.
    pub records: Vec<(Key, Value)>,
    /// The child tiers reached from the owned positions.
    pub reached: BTreeSet<Tier>,
}

/// What one position's moves give: its value if finished, else its in-tier children's keys and its exits.
enum Expansion<Key, Tier> {
    Finished(Value),
    Open { inside: Vec<Key>, outside: Vec<(Key, Tier)> },
}

/// Solves this rank's slice of `tier`, entered at `entries` (the keys of every entry, all ranks alike), its
/// exits read from `inputs`; at most `budget` positions in the slice. Every rank must call it together.
pub fn solve_slice<Rules>(
    game: &Rules,
    tier: &Rules::Tier,
    entries: &[u128],
    inputs: &SolvedTiers<Rules::Tier, Rules::Key>,
    exchange: &dyn Exchange,
    budget: u64,
) -> Result<SliceSolution<Rules::Tier, Rules::Key>>
where
    Rules: Tiers + FromKey + Sync,
    Rules::Position: Send + Sync,
    Rules::Key: RecordKey,
{
    let (me, ranks) = (exchange.this_rank(), exchange.ranks());
    let mut positions: Vec<Rules::Position> = Vec::new();
    let mut keys: Vec<Rules::Key> = Vec::new();
    let mut index: HashMap<Rules::Key, u32> = HashMap::new();
    let mut parents: Vec<Vec<(u32, u32)>> = Vec::new();
    // A new key of the slice: its place, or the error of a key no position has.
    let mut admit = |wide: u128,
                     positions: &mut Vec<Rules::Position>,
                     keys: &mut Vec<Rules::Key>,
                     parents: &mut Vec<Vec<(u32, u32)>>|
     -> Result<u32> {
        let key = Rules::Key::from_wide(wide)
            .ok_or_else(|| Error::Distributed(format!("tier {tier:?}: {wide:x} is no key of the game")))?;
        if let Some(&place) = index.get(&key) {
            return Ok(place);
        }
        let position = game
            .position_of_key(&key)
            .filter(|position| game.canonical(position) == key)
            .ok_or_else(|| Error::Distributed(format!("tier {tier:?}: the key {wide:x} is no position's")))?;
        if positions.len() as u64 >= budget {
            return Err(Error::Budget(Budget::Positions(budget)));
        }
        let place = u32::try_from(positions.len()).map_err(|_| {
            Error::limit("the positions of a tier's slice", positions.len() as u64, u64::from(u32::MAX))
        })?;
        index.insert(key, place);
        positions.push(position);
        keys.push(key);
        parents.push(Vec::new());
        Ok(place)
    };
    let seeded = entries
        .iter()
        .filter(|&&wide| owner(wide, ranks) == me)
        .try_for_each(|&wide| admit(wide, &mut positions, &mut keys, &mut parents).map(|_| ()));
    agree(exchange, seeded)?;

    // Enumeration, by rounds.
    let mut counts: Vec<u32> = Vec::new();
    let mut setup: Vec<Option<Value>> = Vec::new();
    let mut reached: BTreeSet<Rules::Tier> = BTreeSet::new();
    loop {
        let start = counts.len();
        let expansions: Vec<Expansion<Rules::Key, Rules::Tier>> =
            positions[start..].par_iter().with_min_len(64).map(|position| expand(game, tier, position)).collect();
        let mut batches: Vec<Vec<u8>> = vec![Vec::new(); ranks];
        let expanded = expansions.into_iter().enumerate().try_for_each(|(offset, expansion)| -> Result<()> {
            let place = (start + offset) as u32;
            let (count, value) = match expansion {
                Expansion::Finished(value) => (0, Some(value)),
                Expansion::Open { inside, outside } if inside.is_empty() && outside.is_empty() => {
                    (0, Some(Value::LOST))
                }
                Expansion::Open { mut inside, outside } => {
                    inside.sort_unstable();
                    inside.dedup();
                    for key in &inside {
                        let wide = key.to_wide();
                        let batch = &mut batches[owner(wide, ranks)];
                        batch.extend_from_slice(&wide.to_le_bytes());
                        batch.extend_from_slice(&place.to_le_bytes());
                    }
                    let mut best: Option<Value> = None;
                    for (key, child_tier) in outside {
                        let value = inputs.get(&child_tier).and_then(|solution| solution.value_of_key(&key));
                        let value = value.ok_or_else(|| {
                            Error::Unsupported(format!(
                                "the game's tiers break the Tiers contract: a move from tier {tier:?} reaches a \
                                 position of tier {child_tier:?} that was not found there"
                            ))
                        })?;
                        reached.insert(child_tier);
                        let backed = value.backed_up();
                        best = Some(best.map_or(backed, |old| old.max(backed)));
                    }
                    (inside.len() as u32, best)
                }
            };
            counts.push(count);
            setup.push(value);
            Ok(())
        });
        agree(exchange, expanded)?;
        let received = exchange.all_to_all(batches)?;
        let admitted = received.iter().enumerate().try_for_each(|(source, bytes)| -> Result<()> {
            for edge in bytes.chunks_exact(EDGE_BYTES) {
                let wide = edge[..16].try_into().map(u128::from_le_bytes).unwrap_or_default();
                let parent = edge[16..].try_into().map(u32::from_le_bytes).unwrap_or_default();
                let place = admit(wide, &mut positions, &mut keys, &mut parents)?;
                parents[place as usize].push((source as u32, parent));
            }
            Ok(())
        });
        agree(exchange, admitted)?;
        if exchange.all_sum((positions.len() - counts.len()) as u64) == 0 {
            break;
        }
    }
    drop(positions);
    let records = induce_slice(&counts, &setup, &parents, exchange)?;
    Ok(SliceSolution { records: keys.into_iter().zip(records).collect(), reached })
}

/// The outcome of `position`, or its children's keys, in `tier` or out of it with their tiers.
fn expand<Rules: Tiers>(
    game: &Rules,
    tier: &Rules::Tier,
    position: &Rules::Position,
) -> Expansion<Rules::Key, Rules::Tier> {
    if let Some(value) = game.outcome(position) {
        return Expansion::Finished(value);
    }
    let (mut inside, mut outside) = (Vec::new(), Vec::new());
    for mv in game.legal_moves(position) {
        let child = game.play(position, &mv);
        let child_tier = game.tier(&child);
        if child_tier == *tier {
            inside.push(game.canonical(&child));
        } else {
            outside.push((game.canonical(&child), child_tier));
        }
    }
    Expansion::Open { inside, outside }
}

/// The backward induction of a slice, by levels agreed on by every rank (see the module's documentation).
fn induce_slice(
    counts: &[u32],
    setup: &[Option<Value>],
    parents: &[Vec<(u32, u32)>],
    exchange: &dyn Exchange,
) -> Result<Vec<Value>> {
    let ranks = exchange.ranks();
    let mut state: Vec<Option<Value>> = vec![None; counts.len()];
    let mut remaining = counts.to_vec();
    // Scheduled claims by level: (place, won).
    let mut buckets: BTreeMap<u32, Vec<(u32, bool)>> = BTreeMap::new();
    for (place, (&count, &value)) in counts.iter().zip(setup).enumerate() {
        match value {
            Some(Value::Win(remoteness)) => buckets.entry(remoteness).or_default().push((place as u32, true)),
            Some(Value::Lose(remoteness)) if count == 0 => {
                buckets.entry(remoteness).or_default().push((place as u32, false))
            }
            other if count == 0 => state[place] = Some(other.unwrap_or(Value::Draw)),
            _ => {}
        }
    }
    loop {
        let local = buckets.first_key_value().map_or(u64::MAX, |(&level, _)| u64::from(level));
        let level = exchange.all_min(local);
        if level == u64::MAX {
            break;
        }
        let level = level as u32;
        let mut batches: Vec<Vec<u8>> = vec![Vec::new(); ranks];
        if local == u64::from(level) {
            for (place, won) in buckets.remove(&level).unwrap_or_default() {
                let Some(slot) = state.get_mut(place as usize) else { continue };
                if slot.is_some() {
                    continue;
                }
                *slot = Some(if won { Value::Win(level) } else { Value::Lose(level) });
                for &(rank, parent) in parents.get(place as usize).map(Vec::as_slice).unwrap_or(&[]) {
                    let batch = &mut batches[rank as usize];
                    batch.extend_from_slice(&parent.to_le_bytes());
                    batch.push(u8::from(won));
                }
            }
        }
        let next = level.saturating_add(1);
        for bytes in exchange.all_to_all(batches)? {
            for update in bytes.chunks_exact(UPDATE_BYTES) {
                let place = update[..4].try_into().map(u32::from_le_bytes).unwrap_or_default() as usize;
                if state.get(place).is_none_or(Option::is_some) {
                    continue;
                }
                if update[4] == 0 {
                    // A lost child: this parent wins.
                    buckets.entry(next).or_default().push((place as u32, true));
                    continue;
                }
                let Some(counter) = remaining.get_mut(place) else { continue };
                *counter = counter.saturating_sub(1);
                if *counter == 0 {
                    match setup.get(place).copied().flatten() {
                        Some(Value::Win(_) | Value::Draw) => {}
                        Some(Value::Lose(exit)) => {
                            buckets.entry(next.max(exit)).or_default().push((place as u32, false))
                        }
                        None => buckets.entry(next).or_default().push((place as u32, false)),
                    }
                }
            }
        }
    }
    Ok(state.into_iter().map(|value| value.unwrap_or(Value::Draw)).collect())
}

impl Exchange for SimpleCommunicator {
    fn this_rank(&self) -> usize {
        self.rank() as usize
    }

    fn ranks(&self) -> usize {
        self.size() as usize
    }

    fn all_to_all(&self, batches: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
        let counts: Option<Vec<Count>> = batches.iter().map(|batch| Count::try_from(batch.len()).ok()).collect();
        let total: u64 = batches.iter().map(|batch| batch.len() as u64).sum();
        let fits = counts.is_some() && Count::try_from(total).is_ok();
        // Every rank learns whether a batch is too large for one message before any waits for the exchange.
        if self.all_sum(u64::from(!fits)) > 0 {
            return Err(Error::Distributed("a batch of updates past 2 GiB: run on more ranks".into()));
        }
        let counts = counts.unwrap_or_default();
        let mut incoming: Vec<Count> = vec![0; batches.len()];
        self.all_to_all_into(&counts[..], &mut incoming[..]);
        let offsets = |counts: &[Count]| -> Vec<Count> {
            counts
                .iter()
                .scan(0, |sum: &mut Count, &count| Some(std::mem::replace(sum, sum.saturating_add(count))))
                .collect()
        };
        let (sent_at, received_at) = (offsets(&counts), offsets(&incoming));
        // Never an empty buffer: an empty vector's dangling address is 1, which OpenMPI reads as MPI_IN_PLACE.
        let mut sent: Vec<u8> = batches.concat();
        sent.push(0);
        let mut received = vec![0u8; incoming.iter().map(|&count| count.max(0) as usize).sum::<usize>() + 1];
        {
            let partition = Partition::new(&sent[..], &counts[..], &sent_at[..]);
            let mut into = PartitionMut::new(&mut received[..], &incoming[..], &received_at[..]);
            self.all_to_all_varcount_into(&partition, &mut into);
        }
        let mut rest = &received[..];
        let mut by_rank = Vec::with_capacity(incoming.len());
        for &count in &incoming {
            let (head, tail) = rest.split_at((count.max(0) as usize).min(rest.len()));
            by_rank.push(head.to_vec());
            rest = tail;
        }
        Ok(by_rank)
    }

    fn all_sum(&self, value: u64) -> u64 {
        let mut total = 0u64;
        self.all_reduce_into(&value, &mut total, SystemOperation::sum());
        total
    }

    fn all_min(&self, value: u64) -> u64 {
        let mut least = 0u64;
        self.all_reduce_into(&value, &mut least, SystemOperation::min());
        least
    }
}

/// Bytes of one record sent to rank 0: the key (16) and the record (2).
const RECORD_BYTES: usize = 18;

impl<Rules> MpiSchedule<'_, Rules>
where
    Rules: Tiers + FromKey + Sync,
    Rules::Position: Send + Sync,
    Rules::Key: RecordKey,
    Rules::Tier: Serialize + DeserializeOwned,
{
    /// The split-tier mode: every tier solved by every rank at once, one tier after another, children first.
    /// Rank 0 runs the discovery, sends each tier to every rank, gathers the slices' records and writes the
    /// tier's file.
    pub(super) fn run_split(&self, work: &mut dyn TierWork<Rules::Tier, Rules::Key, Rules::Position>) -> Result<()> {
        let mut held = SolvedTiers::new();
        if self.world.rank() != 0 {
            loop {
                let message = self.receive(Some(0));
                if message.tag == STOP {
                    return Ok(());
                }
                // An error agreed on by every rank: rank 0 reports it.
                let Ok(slice) = self.solve_split(work, &message.bytes, &mut held) else { continue };
                match slice_bytes(&slice) {
                    Ok(bytes) => self.send(0, DONE, &bytes),
                    Err(error) => self.send(0, FAILED, error.to_string().as_bytes()),
                }
            }
        }
        let led = self.lead_split(work, &mut held);
        for rank in 1..self.world.size() {
            self.send(rank, STOP, &[]);
        }
        led
    }

    /// Rank 0's part of the split-tier mode.
    fn lead_split(
        &self,
        work: &mut dyn TierWork<Rules::Tier, Rules::Key, Rules::Position>,
        held: &mut SolvedTiers<Rules::Tier, Rules::Key>,
    ) -> Result<()> {
        let Tasks { tiers, inputs, mut entries, .. } = Tasks::of(work.discover()?);
        for (tier, read) in tiers.iter().zip(&inputs) {
            let bytes = self.assignment(tier, read, entries.remove(tier).unwrap_or_default())?;
            for rank in 1..self.world.size() {
                self.send(rank, ASSIGN, &bytes);
            }
            let slice = self.solve_split(work, &bytes, held)?;
            let mut records = slice.records;
            let mut reached = slice.reached;
            for rank in 1..self.world.size() {
                let message = self.receive(Some(rank));
                if message.tag != DONE {
                    let text = String::from_utf8_lossy(&message.bytes);
                    return Err(Error::Distributed(format!("rank {rank} failed on tier {tier:?}: {text}")));
                }
                read_slice(&message.bytes, &mut records, &mut reached)?;
            }
            let solution = TierSolution::from_values(tier.clone(), records, reached.into_iter().collect())?;
            work.store().save(&Arc::new(solution))?;
        }
        Ok(())
    }

    /// Every rank's part of one tier: its inputs held, its slice solved.
    fn solve_split(
        &self,
        work: &mut dyn TierWork<Rules::Tier, Rules::Key, Rules::Position>,
        assignment: &[u8],
        held: &mut SolvedTiers<Rules::Tier, Rules::Key>,
    ) -> Result<SliceSolution<Rules::Tier, Rules::Key>> {
        let prepared = read_assignment::<Rules::Tier>(assignment).and_then(|(tier, inputs, keys)| {
            let available = hold(work, &inputs, held)?;
            Ok((tier, keys, available))
        });
        let (tier, keys, available) = agree(&self.world, prepared)?;
        solve_slice(self.game, &tier, &keys, held, &self.world, available)
    }
}

/// A slice's bytes for rank 0: the JSON's length, the JSON of the tiers reached, the records.
fn slice_bytes<Tier: Serialize, Key: RecordKey>(slice: &SliceSolution<Tier, Key>) -> Result<Vec<u8>> {
    let reached = serde_json::to_vec(&slice.reached)
        .map_err(|error| Error::Distributed(format!("the tiers reached as JSON: {error}")))?;
    let length = u32::try_from(reached.len()).map_err(|_| Error::Distributed("tiers reached past 4 GiB".into()))?;
    let mut bytes = Vec::with_capacity(4 + reached.len() + RECORD_BYTES * slice.records.len());
    bytes.extend_from_slice(&length.to_le_bytes());
    bytes.extend_from_slice(&reached);
    for (key, value) in &slice.records {
        let record = Record::from_value(*value).ok_or_else(|| {
            Error::limit(
                "the remoteness of a stored position",
                u64::from(value.remoteness().unwrap_or(0)),
                u64::from(MAX_STORED_REMOTENESS),
            )
        })?;
        bytes.extend_from_slice(&key.to_wide().to_le_bytes());
        bytes.extend_from_slice(&record.bits().to_le_bytes());
    }
    Ok(bytes)
}

/// Adds a slice's records and tiers reached, read from its bytes.
fn read_slice<Tier, Key>(bytes: &[u8], records: &mut Vec<(Key, Value)>, reached: &mut BTreeSet<Tier>) -> Result<()>
where
    Tier: DeserializeOwned + Ord,
    Key: RecordKey,
{
    let broken = |what: &str| Error::Distributed(format!("a slice's records: {what}"));
    let length = bytes.get(..4).and_then(|head| head.try_into().ok()).map(u32::from_le_bytes);
    let length = length.ok_or_else(|| broken("shorter than its header"))? as usize;
    let header = bytes.get(4..4 + length).ok_or_else(|| broken("shorter than its header"))?;
    let tiers: Vec<Tier> = serde_json::from_slice(header).map_err(|error| broken(&error.to_string()))?;
    reached.extend(tiers);
    let body = bytes.get(4 + length..).unwrap_or(&[]);
    if body.len() % RECORD_BYTES != 0 {
        return Err(broken("a record cut short"));
    }
    for chunk in body.chunks_exact(RECORD_BYTES) {
        let wide = chunk[..16].try_into().map(u128::from_le_bytes).unwrap_or_default();
        let bits = chunk[16..].try_into().map(u16::from_le_bytes).unwrap_or_default();
        let key = Key::from_wide(wide).ok_or_else(|| broken("a key of another game"))?;
        let value = Record::from_bits(bits).and_then(Record::value).ok_or_else(|| broken("no value"))?;
        records.push((key, value));
    }
    Ok(())
}
