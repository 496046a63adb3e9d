//! The tiered solve on several processes, over MPI (feature `mpi`; rsmpi on OpenMPI): [`MpiSchedule`], a
//! [`TierSchedule`] after GamesmanOne's, and [`Mpi`], the MPI environment of a run.
//!
//! Rank 0 is the manager: it runs the discovery (the tier graph, the tiers on disk, every unsolved tier's entry
//! positions) and hands each tier whose child tiers are all solved to an idle worker rank, with the tier (its
//! serde JSON), the child tiers to read, and its entry positions as keys ([`RecordKey`], 128 bits each). A
//! worker rebuilds the positions from the keys ([`FromKey`]), reads the child tiers from the database directory
//! (a file system all ranks share), solves the tier ([`TierWork::solve_tier`]), writes its file through the
//! store, and says so; the manager then reports it as solved. With one rank, rank 0 solves every tier itself
//! ([`InProcess`]).
//!
//! Messages (bytes, tagged): an assignment ([`ASSIGN`]: the JSON's length as a little-endian u32, the JSON,
//! then the keys, 16 little-endian bytes each), a stop ([`STOP`]), a tier done ([`DONE`]: the microseconds
//! it took, a little-endian u64) and a failure ([`FAILED`]: the error's text). A worker's error goes to the
//! manager, which ends the run with it after telling every worker to stop; a rank that dies ends the whole run
//! (mpirun's default), and a rerun resumes from the tier files on disk, since a file is written under a
//! temporary name and renamed.
//!
//! Invariant: the files are those of the in-process solve, byte for byte: a tier is solved from the same keys,
//! and its values, hence its records, depend only on the keys and on its child tiers' values.

use super::record::RecordKey;
use super::store::Database;
use crate::engines::retrograde::{Entries, InProcess, RankSet, SolvedTiers, TierPlan, TierSchedule, TierWork, Tiers};
use crate::error::{Budget, Error, Result};
use crate::game::FromKey;
use crate::game::Game;
use hashbrown::HashMap;
use mpi::point_to_point::MatchedReceiveVec;
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, Destination, Source};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The tag of an assignment (manager to worker).
pub const ASSIGN: i32 = 1;
/// The tag of the end of the run (manager to worker).
pub const STOP: i32 = 2;
/// The tag of a tier solved and written (worker to manager).
pub const DONE: i32 = 3;
/// The tag of a worker's error (worker to manager).
pub const FAILED: i32 = 4;

/// How long a rank waiting for a message sleeps between two looks: MPI's blocking receive spins, which would
/// take a core from the ranks at work on a machine with few cores.
const POLL: Duration = Duration::from_millis(1);

/// The MPI environment of a run, from `MPI_Init` (made) to `MPI_Finalize` (dropped). One per process.
pub struct Mpi {
    universe: mpi::environment::Universe,
}

impl Mpi {
    /// Initializes MPI (calls from one thread at a time: the solve's rayon workers make none).
    pub fn initialize() -> Result<Mpi> {
        let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Serialized)
            .ok_or_else(|| Error::distributed("MPI is initialized already in this process"))?;
        Ok(Mpi { universe })
    }

    /// This process's rank (0: the manager).
    pub fn rank(&self) -> i32 {
        self.universe.world().rank()
    }

    /// The number of ranks.
    pub fn size(&self) -> i32 {
        self.universe.world().size()
    }

    /// The schedule of a solve of `game` over every rank: each tier solved by one worker rank, or, if `split`,
    /// by every rank at once ([`super::split`]).
    pub fn schedule<'run, Ruleset>(
        &self,
        database: &'run Database<'run, Ruleset>,
        split: bool,
    ) -> MpiSchedule<'run, Ruleset>
    where
        Ruleset: Game + Tiers + Sync,
        Ruleset::Position: Send + Sync,
        Ruleset::Key: RecordKey,
        Ruleset::Tier: Serialize + DeserializeOwned,
    {
        MpiSchedule { game: database.game(), database, world: self.universe.world(), split }
    }
}

/// The schedule of a solve over the ranks of MPI's world (see the module's documentation). Every rank runs the
/// same solve with it; rank 0 schedules, the others solve the tiers they are handed.
pub struct MpiSchedule<'run, Ruleset: Game + Tiers> {
    pub(super) game: &'run Ruleset,
    /// The database the solve writes: the split by shares reads and writes its files itself.
    pub(super) database: &'run Database<'run, Ruleset>,
    pub(super) world: SimpleCommunicator,
    /// Whether every tier is solved by every rank at once ([`super::split`]).
    split: bool,
}

/// What an assignment says besides the keys.
#[derive(Serialize, Deserialize)]
struct Assignment<Tier> {
    /// The tier to solve.
    tier: Tier,
    /// The child tiers whose values it reads (solved or on disk).
    inputs: Vec<Tier>,
    /// For entries as a set of ranks (the solve by un-moves), the tier's rank space: the bytes after the JSON
    /// are then the set's bits, not keys.
    #[serde(default)]
    ranks: Option<u64>,
}

/// A message: its tag, its sender and its bytes.
pub(super) struct Received {
    pub(super) tag: i32,
    pub(super) source: i32,
    pub(super) bytes: Vec<u8>,
}

/// The error of a message that breaks the protocol.
fn protocol(what: impl Into<String>) -> Error {
    Error::distributed(what.into())
}

impl<Ruleset> MpiSchedule<'_, Ruleset>
where
    Ruleset: Game + Tiers + FromKey,
    Ruleset::Key: RecordKey,
    Ruleset::Tier: Serialize + DeserializeOwned,
{
    /// The next message, from `from` or from any rank.
    pub(super) fn receive(&self, from: Option<i32>) -> Received {
        loop {
            let probed = match from {
                Some(rank) => self.world.process_at_rank(rank).immediate_matched_probe(),
                None => self.world.any_process().immediate_matched_probe(),
            };
            if let Some(probed) = probed {
                let (bytes, status) = probed.matched_receive_vec::<u8>();
                return Received { tag: status.tag(), source: status.source_rank(), bytes };
            }
            std::thread::sleep(POLL);
        }
    }

    /// Sends `bytes` to `rank` (never empty: a message has at least one byte).
    pub(super) fn send(&self, rank: i32, tag: i32, bytes: &[u8]) {
        let bytes = if bytes.is_empty() { &[0u8][..] } else { bytes };
        self.world.process_at_rank(rank).send_with_tag(bytes, tag);
    }

    /// Rank 0: the discovery, then every tier handed out once its inputs are solved.
    fn manage(&self, work: &mut dyn TierWork<Ruleset::Tier, Ruleset::Key, Ruleset::Position>) -> Result<()> {
        let Tasks { tiers, inputs, mut waiting, parents, mut entries } = Tasks::of(work.discover()?);
        let mut ready: BTreeSet<usize> = (0..tiers.len()).filter(|&at| waiting[at] == 0).collect();
        let mut idle: Vec<i32> = (1..self.world.size()).rev().collect();
        let mut busy: HashMap<i32, usize> = HashMap::new();
        let mut done = 0;
        while done < tiers.len() {
            while let (Some(&next), Some(&rank)) = (ready.first(), idle.last()) {
                ready.remove(&next);
                idle.pop();
                let tier = &tiers[next];
                let bytes = self.assignment(tier, &inputs[next], entries.remove(tier).unwrap_or_default())?;
                self.send(rank, ASSIGN, &bytes);
                busy.insert(rank, next);
            }
            if busy.is_empty() {
                return Err(protocol("no tier is ready and none is being solved: the tier graph has a cycle"));
            }
            let message = self.receive(None);
            let at = busy
                .remove(&message.source)
                .ok_or_else(|| protocol(format!("rank {} spoke while it had no tier", message.source)))?;
            let tier = &tiers[at];
            match message.tag {
                DONE => {
                    let micros = message.bytes.get(..8).and_then(|bytes| bytes.try_into().ok()).map(u64::from_le_bytes);
                    let elapsed = Duration::from_micros(micros.unwrap_or(0));
                    work.store().saved_elsewhere(tier, elapsed, 0)?;
                    done += 1;
                    idle.push(message.source);
                    for &parent in &parents[at] {
                        waiting[parent] -= 1;
                        if waiting[parent] == 0 {
                            ready.insert(parent);
                        }
                    }
                }
                FAILED => {
                    let text = String::from_utf8_lossy(&message.bytes);
                    return Err(protocol(format!("rank {} failed on tier {tier:?}: {text}", message.source)));
                }
                tag => return Err(protocol(format!("rank {} sent a message of tag {tag}", message.source))),
            }
        }
        Ok(())
    }

    /// An assignment's bytes: the JSON's length, the JSON (the tier and its inputs), the entries' keys.
    pub(super) fn assignment(
        &self,
        tier: &Ruleset::Tier,
        inputs: &[Ruleset::Tier],
        entries: Entries<Ruleset::Position>,
    ) -> Result<Vec<u8>> {
        let entries = entries.load()?;
        let ranks = match &entries {
            Entries::Ranks(set) => Some(set.size()),
            Entries::Positions(_) | Entries::Spilled { .. } => None,
        };
        let header = serde_json::to_vec(&Assignment { tier: tier.clone(), inputs: inputs.to_vec(), ranks })
            .map_err(|error| protocol(format!("tier {tier:?} as JSON: {error}")))?;
        let length = u32::try_from(header.len()).map_err(|_| protocol("an assignment's JSON past 4 GiB"))?;
        let mut bytes = Vec::with_capacity(4 + header.len());
        bytes.extend_from_slice(&length.to_le_bytes());
        bytes.extend_from_slice(&header);
        match &entries {
            Entries::Positions(positions) => {
                for position in positions {
                    bytes.extend_from_slice(&self.game.canonical(position).to_wide().to_le_bytes());
                }
            }
            Entries::Ranks(set) => bytes.extend_from_slice(&set.to_bytes()),
            Entries::Spilled { .. } => return Err(Error::internal("database", "a spilled set of ranks not read back")),
        }
        Ok(bytes)
    }

    /// A worker: solves each tier it is handed until told to stop.
    fn serve(&self, work: &mut dyn TierWork<Ruleset::Tier, Ruleset::Key, Ruleset::Position>) -> Result<()> {
        let mut held = SolvedTiers::new();
        loop {
            let message = self.receive(Some(0));
            if message.tag == STOP {
                return Ok(());
            }
            let clock = Instant::now();
            match self.solve_assigned(work, &message, &mut held) {
                Ok(()) => {
                    let micros = u64::try_from(clock.elapsed().as_micros()).unwrap_or(u64::MAX);
                    self.send(0, DONE, &micros.to_le_bytes());
                }
                Err(error) => {
                    // The solutions held may be half-updated: read them anew for the next tier.
                    held.clear();
                    self.send(0, FAILED, error.to_string().as_bytes());
                }
            }
        }
    }

    /// Solves the tier of an assignment and writes it; keeps its solution and those of its inputs that the next
    /// tier reads too.
    fn solve_assigned(
        &self,
        work: &mut dyn TierWork<Ruleset::Tier, Ruleset::Key, Ruleset::Position>,
        message: &Received,
        held: &mut SolvedTiers<Ruleset::Tier, Ruleset::Key>,
    ) -> Result<()> {
        if message.tag != ASSIGN {
            return Err(protocol(format!("rank 0 sent a message of tag {}", message.tag)));
        }
        let (tier, inputs, entries) = read_assignment::<Ruleset::Tier>(&message.bytes)?;
        let entries = match entries {
            Assigned::Ranks(set) => Entries::Ranks(set),
            Assigned::Keys(keys) => Entries::Positions(
                keys.into_iter()
                    .map(|wide| {
                        Ruleset::Key::from_wide(wide)
                            .and_then(|key| self.game.checked_position_of_key(&key))
                            .ok_or_else(|| protocol(format!("tier {tier:?}: the key {wide:x} is no position's")))
                    })
                    .collect::<Result<Vec<_>>>()?,
            ),
        };
        let available = hold(work, &inputs, held)?;
        let solution = Arc::new(work.solve_tier(&tier, entries, held, available)?);
        work.store().save(&solution)?;
        held.insert(tier, solution);
        Ok(())
    }
}

/// An assignment's entries as read: keys, or a set of ranks.
pub(super) enum Assigned {
    /// The entries' keys.
    Keys(Vec<u128>),
    /// The reachable ranks.
    Ranks(RankSet),
}

/// An assignment read back: the tier, its inputs and its entries.
pub(super) fn read_assignment<Tier: DeserializeOwned>(bytes: &[u8]) -> Result<(Tier, Vec<Tier>, Assigned)> {
    let length = bytes.get(..4).and_then(|head| head.try_into().ok()).map(u32::from_le_bytes);
    let length = length.ok_or_else(|| protocol("an assignment shorter than its header"))? as usize;
    let header = bytes.get(4..4 + length).ok_or_else(|| protocol("an assignment shorter than its header"))?;
    let Assignment { tier, inputs, ranks } = serde_json::from_slice::<Assignment<Tier>>(header)
        .map_err(|error| protocol(format!("an assignment's JSON: {error}")))?;
    let keys = bytes.get(4 + length..).unwrap_or(&[]);
    if let Some(ranks) = ranks {
        // The set is sized by the bytes that came, which its rank space must match.
        let set = RankSet::from_bytes(ranks, keys).map_err(|error| protocol(error.to_string()))?;
        return Ok((tier, inputs, Assigned::Ranks(set)));
    }
    if keys.len() % 16 != 0 {
        return Err(protocol(format!("an assignment's keys of {} bytes", keys.len())));
    }
    let keys = keys.chunks_exact(16).map(|chunk| chunk.try_into().map(u128::from_le_bytes).unwrap_or_default());
    Ok((tier, inputs, Assigned::Keys(keys.collect())))
}

/// Makes `held` the solutions of `inputs` (keeping those already held, loading the others from the store);
/// what is left of the budget for a tier that reads them.
pub(super) fn hold<Tier, Key, Position>(
    work: &mut dyn TierWork<Tier, Key, Position>,
    inputs: &[Tier],
    held: &mut SolvedTiers<Tier, Key>,
) -> Result<u64>
where
    Tier: Clone + Eq + std::hash::Hash,
    Key: Eq + std::hash::Hash,
{
    held.retain(|solved, _| inputs.contains(solved));
    for input in inputs {
        if !held.contains_key(input) {
            let solution = Arc::new(work.store().load(input, None)?);
            held.insert(input.clone(), solution);
        }
    }
    let budget = work.budget();
    let units: u64 = held.values().map(|solution| solution.budget_units()).sum();
    if units > budget {
        return Err(Error::Budget(Budget::Positions(budget)));
    }
    Ok(budget - units)
}

/// The tiers to solve, children first, with what scheduling them needs.
pub(super) struct Tasks<Tier, Position> {
    /// The tiers to solve, children first.
    pub(super) tiers: Vec<Tier>,
    /// The child tiers each one reads (solved in this run or on disk).
    pub(super) inputs: Vec<Vec<Tier>>,
    /// How many of its inputs each one waits for (those solved in this run).
    pub(super) waiting: Vec<usize>,
    /// The tiers (by place) that read each one.
    pub(super) parents: Vec<Vec<usize>>,
    /// The entry positions of each.
    pub(super) entries: HashMap<Tier, Entries<Position>>,
}

impl<Tier: Clone + Eq + std::hash::Hash, Position> Tasks<Tier, Position> {
    /// The tasks of a discovery's plan.
    pub(super) fn of(plan: TierPlan<Tier, Position>) -> Self {
        let tiers: Vec<Tier> = plan.to_solve().into_iter().cloned().collect();
        let place: HashMap<&Tier, usize> = tiers.iter().enumerate().map(|(at, tier)| (tier, at)).collect();
        let mut inputs = Vec::with_capacity(tiers.len());
        let mut waiting = vec![0; tiers.len()];
        let mut parents = vec![Vec::new(); tiers.len()];
        for (at, tier) in tiers.iter().enumerate() {
            let read: Vec<Tier> = plan.inputs(tier).into_iter().cloned().collect();
            for child in &read {
                if let Some(&child_at) = place.get(child) {
                    waiting[at] += 1;
                    parents[child_at].push(at);
                }
            }
            inputs.push(read);
        }
        drop(place);
        let mut entries = plan.entries;
        entries.retain(|tier, _| !plan.finished.contains(tier));
        Tasks { tiers, inputs, waiting, parents, entries }
    }
}

impl<Ruleset> TierSchedule<Ruleset::Tier, Ruleset::Key, Ruleset::Position> for MpiSchedule<'_, Ruleset>
where
    Ruleset: Game + Tiers + FromKey + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: RecordKey,
    Ruleset::Tier: Serialize + DeserializeOwned,
{
    fn run(&mut self, work: &mut dyn TierWork<Ruleset::Tier, Ruleset::Key, Ruleset::Position>) -> Result<()> {
        if self.world.size() == 1 {
            return InProcess.run(work);
        }
        if self.split {
            // By ranges of ranks where the game is solved by un-moves, else by a hash of the keys.
            return match work.by_shares().is_some() {
                true => self.run_shares(work),
                false => self.run_split(work),
            };
        }
        if self.world.rank() != 0 {
            return self.serve(work);
        }
        let managed = self.manage(work);
        for rank in 1..self.world.size() {
            self.send(rank, STOP, &[]);
        }
        managed
    }
}
