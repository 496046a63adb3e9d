//! The split-tier mode over MPI (`ludus db solve --mpi --split-tiers`): every tier solved by every rank at
//! once ([`super::split`]), one tier after another, the discovery parents first and the solve children first.
//!
//! Rank 0 surveys the tiers ([`TierWork::survey`]: the tier graph and the tiers on disk) and sends the survey to
//! every rank ([`ASSIGN`], JSON), or [`STOP`] if it failed. Every rank then finds its slice of each tier's
//! entries ([`discover_slice`]), and solves its slice of each tier ([`solve_slice`]) with its share of the
//! child tiers read from the database directory (the records whose keys it owns); each worker sends its records to rank 0 ([`DONE`]: the JSON's length, the
//! JSON of the tiers reached, then each record as its key, 16 bytes, and its 16-bit [`Record`]; or
//! [`FAILED`]), which writes the tier's file. Which tiers are solved is decided from sums over every rank, so
//! every rank takes the same steps; every error is agreed on.

use super::distributed::{MpiSchedule, ASSIGN, DONE, FAILED, STOP};
use super::record::{Record, RecordKey, MAX_STORED_REMOTENESS};
use super::split::{agree, discover_slice, owner, solve_slice, Exchange, SliceSolution};
use crate::engines::retrograde::{SolvedTiers, TierSolution, TierSurvey, TierWork, Tiers};
use crate::error::{Error, Result};
use crate::game::FromKey;
use crate::game::Game;
use crate::value::Value;
use hashbrown::{HashMap, HashSet};
use mpi::collective::{CommunicatorCollectives, SystemOperation};
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::Communicator;
use mpi::Count;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::sync::Arc;

/// Bytes of one record sent to rank 0: the key (16) and the record (2).
const RECORD_BYTES: usize = 18;

/// A survey as sent to the workers.
#[derive(Serialize, Deserialize)]
struct SurveyMessage<Tier> {
    /// The tiers, parents first.
    order: Vec<Tier>,
    /// Each tier's child tiers, in the order of `order`.
    children: Vec<Vec<Tier>>,
    /// The tiers finished before.
    finished: Vec<Tier>,
    /// The finished tiers that need no enumeration.
    closed: Vec<Tier>,
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
            return Err(Error::distributed("a batch of updates past 2 GiB: run on more ranks"));
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

impl<Ruleset> MpiSchedule<'_, Ruleset>
where
    Ruleset: Game + Tiers + FromKey + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: RecordKey,
    Ruleset::Tier: Serialize + DeserializeOwned,
{
    /// The split-tier mode (see the module's documentation).
    pub(super) fn run_split(
        &self,
        work: &mut dyn TierWork<Ruleset::Tier, Ruleset::Key, Ruleset::Position>,
    ) -> Result<()> {
        let Some(survey) = self.share_survey(work)? else { return Ok(()) };
        let TierSurvey { order, children, finished, closed } = survey;
        let (me, ranks) = (self.world.this_rank(), self.world.ranks());
        let budget = work.budget();
        let start = work.start();
        let start_key = self.game.canonical(&start).to_wide();
        let mut found: HashMap<Ruleset::Tier, Vec<u128>> = HashMap::new();
        if owner(start_key, ranks) == me {
            found.insert(self.game.tier(&start), vec![start_key]);
        }
        drop(start);
        let none: &[Ruleset::Tier] = &[];

        // Discovery, parents first: this rank's entries of every tier to solve.
        let mut reached: HashSet<Ruleset::Tier> = HashSet::new();
        let mut to_solve: HashMap<Ruleset::Tier, Vec<u128>> = HashMap::new();
        for tier in &order {
            let mut entries = found.remove(tier).unwrap_or_default();
            entries.sort_unstable();
            entries.dedup();
            if self.world.all_sum(entries.len() as u64) == 0 {
                continue;
            }
            reached.insert(tier.clone());
            if closed.contains(tier) {
                continue;
            }
            let below = children.get(tier).map_or(none, Vec::as_slice);
            discover_slice(self.game, tier, &entries, below, &self.world, &mut found, budget)?;
            if !finished.contains(tier) {
                to_solve.insert(tier.clone(), entries);
            }
        }

        // The solve, children first.
        let mut held = SolvedTiers::new();
        for tier in order.iter().rev() {
            let Some(entries) = to_solve.remove(tier) else { continue };
            let below = children.get(tier).map_or(none, Vec::as_slice);
            let inputs: Vec<Ruleset::Tier> =
                below.iter().filter(|child| reached.contains(*child) || finished.contains(*child)).cloned().collect();
            let available = agree(&self.world, hold_shares(work, &inputs, &mut held, me, ranks))?;
            let slice = solve_slice(self.game, tier, &entries, &inputs, &held, &self.world, available)?;
            let written = if me == 0 { self.gather_and_write(work, tier, slice) } else { self.send_slice(&slice) };
            agree(&self.world, written)?;
        }
        Ok(())
    }

    /// The survey, made by rank 0 and sent to the others; `None` on a worker told to stop (rank 0 failed).
    pub(super) fn share_survey(
        &self,
        work: &mut dyn TierWork<Ruleset::Tier, Ruleset::Key, Ruleset::Position>,
    ) -> Result<Option<TierSurvey<Ruleset::Tier>>> {
        let ranks = self.world.size();
        if self.world.rank() != 0 {
            let message = self.receive(Some(0));
            if message.tag == STOP {
                return Ok(None);
            }
            let read = serde_json::from_slice::<SurveyMessage<Ruleset::Tier>>(&message.bytes)
                .map_err(|error| Error::distributed(format!("a survey's JSON: {error}")))
                .and_then(|message| {
                    let SurveyMessage { order, children, finished, closed } = message;
                    if children.len() != order.len() {
                        return Err(Error::distributed("a survey's tiers without their children"));
                    }
                    let children = order.iter().cloned().zip(children).collect();
                    let (finished, closed) = (finished.into_iter().collect(), closed.into_iter().collect());
                    Ok(TierSurvey { order, children, finished, closed })
                });
            return agree(&self.world, read).map(Some);
        }
        let surveyed = work.survey().and_then(|survey| {
            let message = SurveyMessage {
                order: survey.order.clone(),
                children: survey
                    .order
                    .iter()
                    .map(|tier| survey.children.get(tier).cloned().unwrap_or_default())
                    .collect(),
                finished: survey.finished.iter().cloned().collect(),
                closed: survey.closed.iter().cloned().collect(),
            };
            let bytes = serde_json::to_vec(&message)
                .map_err(|error| Error::distributed(format!("the survey as JSON: {error}")))?;
            Ok((survey, bytes))
        });
        match surveyed {
            Ok((survey, bytes)) => {
                for rank in 1..ranks {
                    self.send(rank, ASSIGN, &bytes);
                }
                agree(&self.world, Ok(survey)).map(Some)
            }
            Err(error) => {
                for rank in 1..ranks {
                    self.send(rank, STOP, &[]);
                }
                Err(error)
            }
        }
    }

    /// Rank 0: every worker's slice received (all of them, even after a failure, so that no sender waits), the
    /// tier's solution assembled with this rank's slice and written.
    fn gather_and_write(
        &self,
        work: &mut dyn TierWork<Ruleset::Tier, Ruleset::Key, Ruleset::Position>,
        tier: &Ruleset::Tier,
        slice: SliceSolution<Ruleset::Tier, Ruleset::Key>,
    ) -> Result<()> {
        let SliceSolution { mut records, mut reached } = slice;
        let mut failure = None;
        for rank in 1..self.world.size() {
            let message = self.receive(Some(rank));
            let read = match message.tag {
                DONE => read_slice(&message.bytes, &mut records, &mut reached),
                _ => Err(Error::distributed(format!(
                    "rank {rank} failed on tier {tier:?}: {}",
                    String::from_utf8_lossy(&message.bytes)
                ))),
            };
            if let Err(error) = read {
                failure.get_or_insert(error);
            }
        }
        if let Some(error) = failure {
            return Err(error);
        }
        let solution = TierSolution::from_values(tier.clone(), records, reached.into_iter().collect())?;
        work.store().save(&Arc::new(solution))
    }

    /// A worker: its slice sent to rank 0 (or its failure).
    fn send_slice(&self, slice: &SliceSolution<Ruleset::Tier, Ruleset::Key>) -> Result<()> {
        match slice_bytes(slice) {
            Ok(bytes) => {
                self.send(0, DONE, &bytes);
                Ok(())
            }
            Err(error) => {
                self.send(0, FAILED, error.to_string().as_bytes());
                Err(error)
            }
        }
    }
}

/// Makes `held` this rank's shares of `inputs` (the records whose keys it owns; those held already kept, the
/// others read from the store); what is left of the budget for a tier that reads them.
fn hold_shares<Tier, Key, Position>(
    work: &mut dyn TierWork<Tier, Key, Position>,
    inputs: &[Tier],
    held: &mut SolvedTiers<Tier, Key>,
    me: usize,
    ranks: usize,
) -> Result<u64>
where
    Tier: Clone + Eq + std::hash::Hash,
    Key: RecordKey,
{
    held.retain(|solved, _| inputs.contains(solved));
    let mine = |key: &Key| owner(key.to_wide(), ranks) == me;
    for input in inputs {
        if !held.contains_key(input) {
            let share = Arc::new(work.store().load(input, Some(&mine))?);
            held.insert(input.clone(), share);
        }
    }
    let budget = work.budget();
    let units: u64 = held.values().map(|share| share.budget_units()).sum();
    if units > budget {
        return Err(Error::Budget(crate::error::Budget::Positions(budget)));
    }
    Ok(budget - units)
}

/// A slice's bytes for rank 0: the JSON's length, the JSON of the tiers reached, the records.
fn slice_bytes<Tier: Serialize, Key: RecordKey>(slice: &SliceSolution<Tier, Key>) -> Result<Vec<u8>> {
    let reached = serde_json::to_vec(&slice.reached)
        .map_err(|error| Error::distributed(format!("the tiers reached as JSON: {error}")))?;
    let length = u32::try_from(reached.len()).map_err(|_| Error::distributed("tiers reached past 4 GiB"))?;
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
    let broken = |what: &str| Error::distributed(format!("a slice's records: {what}"));
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
