//! The seam of the tiered solve: which tier is solved when, and by whom.
//!
//! A tiered solve is two kinds of work ([`TierWork`]): the discovery ([`TierWork::discover`]: the tier graph,
//! the tiers an earlier run finished, and the entry positions of every tier still to solve, found by
//! enumerating the tiers parents first) and the per-tier step ([`TierWork::solve_tier`]: one tier enumerated
//! from its entry positions and induced, its exits read from its solved child tiers; a pure function of
//! those). A [`TierSchedule`] drives them: [`InProcess`] solves every tier in this process, children first,
//! dropping a solved tier once its last parent is solved; the database's MPI schedule
//! (`crate::database::distributed`, feature `mpi`) hands tiers to other processes.
//!
//! Invariant: whatever the schedule, a tier is solved only once its child tiers are solved (or finished on
//! disk), from the same entry positions (as keys), so its values, and its file, are the same.

use super::ranked::RankSet;
use super::solution::TierSolution;
use super::tiers::TierStore;
use crate::error::{Budget, Error};
use hashbrown::{HashMap, HashSet};
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Arc;

/// Solved tiers, by tier, shared with the caller.
pub type SolvedTiers<Tier, Key> = HashMap<Tier, Arc<TierSolution<Tier, Key>>>;

/// The positions a tier's solve starts from, as the discovery found them.
#[derive(Debug)]
pub enum Entries<Position> {
    /// The entry positions, one per key: the solve enumerates the tier from them.
    Positions(Vec<Position>),
    /// A bit per rank: every position of the tier reachable from the start (the solve by un-moves of
    /// [`super::ByRank::with_unmoves`], which enumerates nothing).
    Ranks(RankSet),
    /// A set of ranks kept in a file until its tier is solved ([`super::TierStore::scratch_path`]).
    Spilled {
        /// The file: the set's words, little-endian.
        path: std::path::PathBuf,
        /// The size of the tier's rank space.
        size: u64,
    },
}

impl<Position> Entries<Position> {
    /// What the entries count toward the budget, in positions (a set of ranks: 256 bits as one, a position
    /// standing for at least 32 bytes).
    pub fn units(&self) -> u64 {
        match self {
            Entries::Positions(positions) => positions.len() as u64,
            Entries::Ranks(ranks) => ranks.units(),
            Entries::Spilled { .. } => 0,
        }
    }

    /// The entries in memory: a spilled set read back (and its file removed), the others as they are.
    pub fn load(self) -> crate::Result<Self> {
        match self {
            Entries::Spilled { path, size } => {
                let set = RankSet::read_from(&path, size)?;
                std::fs::remove_file(&path)
                    .map_err(|cause| crate::Error::Io { path: path.display().to_string(), cause })?;
                Ok(Entries::Ranks(set))
            }
            other => Ok(other),
        }
    }
}

impl<Position> Default for Entries<Position> {
    fn default() -> Self {
        Entries::Positions(Vec::new())
    }
}

/// What the discovery found: the plan of a tiered solve.
#[derive(Debug)]
pub struct TierPlan<Tier, Position> {
    /// The reachable tiers, each before its child tiers (ties broken by the tiers' order).
    pub order: Vec<Tier>,
    /// Each tier's child tiers (sorted, without the tier itself).
    pub children: HashMap<Tier, Vec<Tier>>,
    /// The tiers an earlier run finished (in the store).
    pub finished: HashSet<Tier>,
    /// The entry positions (one per key) of each tier that was reached and enumerated: every tier to solve, and
    /// the finished tiers that had to be enumerated to find the entries of their unfinished child tiers.
    pub entries: HashMap<Tier, Entries<Position>>,
    /// What the entries count toward the budget, in positions.
    pub held: u64,
}

impl<Tier: Eq + Hash, Position> TierPlan<Tier, Position> {
    /// The tiers to solve (reached and not finished), children first.
    pub fn to_solve(&self) -> Vec<&Tier> {
        let to_solve = |tier: &&Tier| self.entries.contains_key(*tier) && !self.finished.contains(*tier);
        self.order.iter().rev().filter(to_solve).collect()
    }

    /// The child tiers whose solutions `tier`'s solve reads: those solved in this run or finished before.
    pub fn inputs(&self, tier: &Tier) -> Vec<&Tier> {
        let below = self.children.get(tier).map(Vec::as_slice).unwrap_or(&[]);
        below.iter().filter(|child| self.entries.contains_key(*child) || self.finished.contains(*child)).collect()
    }
}

/// The tier graph and what an earlier run finished: the first half of the discovery, for a schedule that finds
/// the entry positions itself.
#[derive(Debug)]
pub struct TierSurvey<Tier> {
    /// The reachable tiers, each before its child tiers (ties broken by the tiers' order).
    pub order: Vec<Tier>,
    /// Each tier's child tiers (sorted, without the tier itself).
    pub children: HashMap<Tier, Vec<Tier>>,
    /// The tiers an earlier run finished (in the store).
    pub finished: HashSet<Tier>,
    /// The finished tiers whose reached tiers are all finished too ("closed"): they need no enumeration, since
    /// nothing below them is left to find entries for.
    pub closed: HashSet<Tier>,
}

/// The work of one tiered solve (one game, start, indexing and store), as a schedule drives it.
pub trait TierWork<Tier, Key, Position> {
    /// The tier graph and the tiers finished before (the store's `finished`, which also clears what a stopped
    /// run left half-written: to be called by one process only).
    fn survey(&mut self) -> crate::Result<TierSurvey<Tier>>;

    /// The discovery: tier graph, finished tiers, entry positions (see [`TierPlan`]).
    fn discover(&mut self) -> crate::Result<TierPlan<Tier, Position>>;

    /// Solves `tier` from its entry positions, its exits read from `solved` (which must hold each of its child
    /// tiers that a move reaches), with at most `available` positions of the budget for the tier itself.
    fn solve_tier(
        &mut self,
        tier: &Tier,
        entries: Entries<Position>,
        solved: &SolvedTiers<Tier, Key>,
        available: u64,
    ) -> crate::Result<TierSolution<Tier, Key>>;

    /// Where solved tiers go and finished tiers are read.
    fn store(&mut self) -> &mut dyn TierStore<Tier, Key>;

    /// The most positions held at once.
    fn budget(&self) -> u64;

    /// The start position.
    fn start(&self) -> Position;

    /// The solve split by shares of each tier's ranks over several processes ([`super::SharedWork`]), if this
    /// work can do it (the solve by un-moves); `None` by default.
    fn by_shares(&mut self) -> Option<&mut dyn super::SharedWork<Tier>> {
        None
    }
}

/// Which tier is solved when, and by whom.
pub trait TierSchedule<Tier, Key, Position> {
    /// Solves every tier of `work` not finished, each after its child tiers, and saves each to the store.
    fn run(&mut self, work: &mut dyn TierWork<Tier, Key, Position>) -> crate::Result<()>;
}

/// Every tier solved in this process, children first, one at a time; a solved tier is held until its last
/// parent tier is solved (the default schedule).
#[derive(Clone, Copy, Debug, Default)]
pub struct InProcess;

impl<Tier, Key, Position> TierSchedule<Tier, Key, Position> for InProcess
where
    Tier: Clone + Eq + Hash + Debug,
    Key: Eq + Hash,
{
    fn run(&mut self, work: &mut dyn TierWork<Tier, Key, Position>) -> crate::Result<()> {
        let budget = work.budget();
        let over_budget = || Error::Budget(Budget::Positions(budget));
        let TierPlan { order, children, finished, mut entries, mut held } = work.discover()?;

        // How many parent tiers still to solve each tier waits for before its solution may be dropped.
        let mut parents_left: HashMap<&Tier, usize> = HashMap::new();
        for tier in entries.keys().filter(|tier| !finished.contains(*tier)) {
            for child in children.get(tier).map(Vec::as_slice).unwrap_or(&[]) {
                *parents_left.entry(child).or_default() += 1;
            }
        }

        let mut solved: SolvedTiers<Tier, Key> = HashMap::new();
        let mut held_solved: u64 = 0;
        for tier in order.iter().rev() {
            if finished.contains(tier) {
                if let Some(seeds) = entries.remove(tier) {
                    held = held.saturating_sub(seeds.units());
                }
                if parents_left.get(tier).is_some_and(|&count| count > 0) {
                    let solution = Arc::new(work.store().load(tier, None)?);
                    held_solved += solution.budget_units();
                    if held.saturating_add(held_solved) > budget {
                        return Err(over_budget());
                    }
                    solved.insert(tier.clone(), solution);
                }
                continue;
            }
            let Some(seeds) = entries.remove(tier) else { continue };
            held = held.saturating_sub(seeds.units());
            let available = budget.saturating_sub(held.saturating_add(held_solved));
            let solution = Arc::new(work.solve_tier(tier, seeds, &solved, available)?);
            held_solved += solution.budget_units();
            work.store().save(&solution)?;
            solved.insert(tier.clone(), solution);
            for child in children.get(tier).map(Vec::as_slice).unwrap_or(&[]) {
                if let Some(count) = parents_left.get_mut(child) {
                    *count -= 1;
                    if *count == 0 {
                        if let Some(dropped) = solved.remove(child) {
                            held_solved = held_solved.saturating_sub(dropped.budget_units());
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// Collective exchanges among the ranks: the only contact of a solve split over processes (by
/// ranges of ranks, or by a hash of the keys) with their transport (MPI).
pub trait Exchange {
    /// This rank.
    fn this_rank(&self) -> usize;

    /// The number of ranks.
    fn ranks(&self) -> usize;

    /// Sends `batches[r]` to rank `r`; returns what each rank sent this one, by rank.
    fn all_to_all(&self, batches: Vec<Vec<u8>>) -> crate::Result<Vec<Vec<u8>>>;

    /// The sum of every rank's `value`.
    fn all_sum(&self, value: u64) -> u64;

    /// The least of every rank's `value`.
    fn all_min(&self, value: u64) -> u64;
}

/// `local` on every rank if it is ok on every rank; else an error everywhere (this rank's own, if it failed):
/// called before each collective step, so that no rank waits forever in a step another one left.
pub fn agree<Outcome>(exchange: &dyn Exchange, local: crate::Result<Outcome>) -> crate::Result<Outcome> {
    let failed = exchange.all_sum(u64::from(local.is_err()));
    if failed == 0 {
        return local;
    }
    Err(failure(exchange, local.err()))
}

/// The longest part of a rank's error message another rank repeats.
const MESSAGE_BYTES: usize = 2048;

/// The error every rank ends with once the ranks agreed that some failed (every rank calls this, in the same
/// step): a rank that failed keeps its own error; the others end with the messages of the ranks that failed.
/// The messages travel to every rank because the launcher ends the job when the first rank exits, which may be
/// one that did not fail: the reason must be in what that rank prints.
pub(crate) fn failure(exchange: &dyn Exchange, local: Option<crate::error::Error>) -> crate::error::Error {
    let mut message = local.as_ref().map(|error| error.to_string()).unwrap_or_default();
    if message.len() > MESSAGE_BYTES {
        let mut end = MESSAGE_BYTES;
        while !message.is_char_boundary(end) {
            end -= 1;
        }
        message.truncate(end);
    }
    let received = exchange.all_to_all(vec![message.into_bytes(); exchange.ranks()]);
    if let Some(error) = local {
        return error;
    }
    let reasons: Vec<String> = match received {
        Ok(messages) => messages
            .iter()
            .enumerate()
            .filter(|(_, bytes)| !bytes.is_empty())
            .map(|(rank, bytes)| {
                let bytes = &bytes[..bytes.len().min(MESSAGE_BYTES)];
                format!("rank {rank}: {}", String::from_utf8_lossy(bytes))
            })
            .collect(),
        Err(error) => vec![format!("their messages did not arrive: {error}")],
    };
    crate::error::Error::distributed(format!("another rank failed on this tier ({})", reasons.join("; ")))
}
