//! The solve by un-moves split by shares of ranks over several processes (MPI's ranks; here "process", so that
//! "rank" keeps meaning a position's number in its tier): each process owns every N-th block of
//! [`SHARE_ALIGNMENT`] ranks of each tier ([`Shares`]) and holds the bits, values and counters of its share
//! only, at the bytes a rank of the one-process solve (`super`'s memory model, divided by the processes), and
//! its share of each child tier's values.
//!
//! - Discovery, parents first (`reach.rs`): each process closes its share of a tier under the tier's moves by
//!   rounds, a round expanding at most [`CHUNK`] of its positions; a child's rank owned by another process goes
//!   to it in a batch (the in-tier children to be added to its share, the exits to its share of the child
//!   tier's entries).
//! - Solve, children first (`induce.rs`): the setup asks each exit's value of the process that owns the child's
//!   rank, and induction runs by levels of remoteness as in one process: the lowest level any process has
//!   scheduled is scanned by every process, each won or lost position of the level un-moved to its parents,
//!   whose updates go to their owners in batches.
//!
//! Batches are the ranks sent, sorted, each as its difference from the one before in LEB128 (a few bytes a
//! rank). Every collective step is taken by every process: a loop of rounds ends when no process has anything
//! left, and errors are agreed on ([`agree`]) before each step. Each round's exchange overlaps the next round's
//! work ([`overlapped`]), so a process that finished its round early goes on instead of waiting.
//!
//! Invariant: the records of every tier are those of the one-process solve by un-moves, whatever the number of
//! processes: the reachable sets are the same sets (a set only gains bits), and a level's updates decide only
//! higher levels, so the order in which processes apply them does not matter (`super::induce`'s argument).

mod batch;
mod induce;
mod reach;

use batch::{batches, check_size, decode, pair, rank_of, target_of};

use super::reach::RankSet;
use super::RankedRun;
use crate::engines::retrograde::schedule::{agree, failure, Exchange, TierSurvey};
use crate::engines::retrograde::{Rank, TierStatistics};
use crate::error::{Budget, Error};
use crate::game::Game;
use hashbrown::{HashMap, HashSet};
use std::path::PathBuf;

/// Ranks a share is made of whole blocks of: the blocks of a tier's file by rank, so that each process
/// compresses whole blocks of the file; a multiple of 64, so that a share's set of ranks is whole words.
pub const SHARE_ALIGNMENT: u64 = 1 << 16;

/// Positions a process expands between two exchanges: bounds the batches in flight (a few bytes a child).
const CHUNK: usize = 1 << 17;

/// How the ranks of one tier are shared among the processes: block `b` of [`SHARE_ALIGNMENT`] ranks belongs to
/// process `b % processes` (block-cyclic, as ScaLAPACK lays out a matrix). A process holds its blocks end to
/// end, in rank order: its local index `i` is rank `((i / A) * processes + p) * A + i % A` (`A` the alignment).
///
/// Why not one contiguous range each: the reachable positions of a tier crowd into parts of its rank space
/// (Connect Four 5 x 5 on two processes: one range held about twice the other's positions, and its process did
/// the work while the other waited); blocks dealt in turn share the positions evenly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shares {
    size: u64,
    processes: u64,
}

impl Shares {
    /// The shares of a tier of `size` ranks among `processes` processes (at least one).
    pub fn new(size: u64, processes: usize) -> Shares {
        Shares { size, processes: processes.max(1) as u64 }
    }

    /// The blocks of the tier.
    fn blocks(&self) -> u64 {
        self.size.div_ceil(SHARE_ALIGNMENT)
    }

    /// The blocks `process` owns, in rank order.
    pub fn blocks_of(&self, process: usize) -> impl Iterator<Item = u64> {
        (process as u64..self.blocks()).step_by(self.processes as usize)
    }

    /// The ranks `process` owns.
    pub fn length(&self, process: usize) -> u64 {
        let process = process as u64;
        let blocks = self.blocks();
        if process >= blocks {
            return 0;
        }
        let owned = (blocks - process).div_ceil(self.processes);
        let short = match (blocks - 1) % self.processes == process {
            true => blocks * SHARE_ALIGNMENT - self.size,
            false => 0,
        };
        owned * SHARE_ALIGNMENT - short
    }

    /// The process that owns `rank`.
    pub fn owner(&self, rank: u64) -> usize {
        ((rank / SHARE_ALIGNMENT) % self.processes) as usize
    }

    /// The local index of `rank` at its owner.
    pub fn local(&self, rank: u64) -> u64 {
        (rank / SHARE_ALIGNMENT / self.processes) * SHARE_ALIGNMENT + rank % SHARE_ALIGNMENT
    }

    /// The rank of `process`'s local index `local`.
    pub fn global(&self, process: usize, local: u64) -> u64 {
        ((local / SHARE_ALIGNMENT) * self.processes + process as u64) * SHARE_ALIGNMENT + local % SHARE_ALIGNMENT
    }
}

/// A process's share of a tier's reachable positions, waiting for its solve: held, or in a scratch file.
#[derive(Debug)]
pub enum Share {
    /// The set of the share's ranks, by local index ([`Shares::global`]).
    Held(RankSet),
    /// In a file, of the share's size in ranks.
    Spilled {
        /// The file.
        path: PathBuf,
        /// The share's ranks.
        size: u64,
    },
}

impl Share {
    /// The set, read back from its file (which is removed) if it was spilled.
    pub fn load(self) -> crate::Result<RankSet> {
        match self {
            Share::Held(set) => Ok(set),
            Share::Spilled { path, size } => {
                let set = RankSet::read_from(&path, size)?;
                std::fs::remove_file(&path).map_err(|cause| Error::Io { path: path.display().to_string(), cause })?;
                Ok(set)
            }
        }
    }
}

/// What the discovery by shares found: this process's share of each tier to solve, and the tiers any move
/// reached.
#[derive(Debug)]
pub struct SharedPlan<Tier> {
    /// This process's share of each tier to solve.
    pub shares: HashMap<Tier, Share>,
    /// The tiers reached from the start (by any process).
    pub reached: HashSet<Tier>,
}

/// This process's share of a solved child tier: its records by local index (16 bits each, 0 at no position).
#[derive(Debug)]
pub struct ChildShare<Tier> {
    /// The child tier.
    pub tier: Tier,
    /// The records of this process's share of its ranks, by local index.
    pub records: Vec<u16>,
}

/// This process's share of a solved tier.
#[derive(Debug)]
pub struct ShareSolution<Tier> {
    /// The records of this process's share of the tier's ranks, by local index (16 bits each, 0 at no position).
    pub records: Vec<u16>,
    /// The tier's statistics, summed over every process.
    pub statistics: TierStatistics,
    /// The child tiers any process's moves reached, sorted.
    pub reached: Vec<Tier>,
}

/// The solve by un-moves split by shares, as a schedule over several processes drives it. Every process calls
/// each method together with the others (they exchange through `exchange`).
pub trait SharedWork<Tier> {
    /// The ranks of `tier`.
    fn tier_size(&self, tier: &Tier) -> u64;

    /// The discovery, parents first, of this process's share of every tier of `survey` to solve; a share
    /// waiting for its solve goes to its `scratch` file if it has one.
    fn discover_shares(
        &mut self,
        survey: &TierSurvey<Tier>,
        scratch: &HashMap<Tier, PathBuf>,
        exchange: &dyn Exchange,
    ) -> crate::Result<SharedPlan<Tier>>;

    /// Solves this process's `share` of `tier`, its exits read from `children` (this process's share of each
    /// solved child tier a move may reach).
    fn solve_share(
        &mut self,
        tier: &Tier,
        share: RankSet,
        children: &[ChildShare<Tier>],
        exchange: &dyn Exchange,
    ) -> crate::Result<ShareSolution<Tier>>;
}

/// The positions of the budget a process's share of a tier in work takes (see `super`'s model).
fn work_units(length: u64) -> u64 {
    super::work_units(length)
}

/// `local` on every process if it is ok on all of them (else an error everywhere), and whether any process
/// has more to do (`more`): one collective sum for both.
fn step<Outcome>(exchange: &dyn Exchange, local: crate::Result<Outcome>, more: bool) -> crate::Result<(Outcome, bool)> {
    let status = exchange.all_sum((u64::from(local.is_err()) << 32) | u64::from(more));
    let (failed, busy) = (status >> 32, status & u64::from(u32::MAX));
    if failed > 0 {
        return Err(failure(exchange, local.err()));
    }
    local.map(|outcome| (outcome, busy > 0))
}

/// Runs `compute` (the next round's work) on the thread pool while this thread runs `communicate` (this round's
/// exchange), and returns both: the work of a round overlaps the exchange of the round before, so a process that
/// finished its round early computes instead of waiting for the slowest. The exchange stays on this thread (MPI
/// is initialized for calls from one thread at a time); with one thread in the pool, `compute` runs after
/// `communicate`, as without overlap.
fn overlapped<Computed: Send, Communicated>(
    compute: impl FnOnce() -> crate::Result<Computed> + Send,
    communicate: impl FnOnce() -> crate::Result<Communicated>,
) -> (crate::Result<Computed>, crate::Result<Communicated>) {
    let mut computed = None;
    let communicated = rayon::in_place_scope(|scope| {
        scope.spawn(|_| computed = Some(compute()));
        communicate()
    });
    // The scope ends only when `compute` has run (a panic in it is raised again by the scope).
    let computed = computed.unwrap_or_else(|| Err(Error::internal("retrograde", "a round's work did not run")));
    (computed, communicated)
}

/// Rounds until no process has any left, each round's exchange overlapping the next round's work: `compute`
/// makes this process's next round from a cursor (0 at first; a cursor past the work makes an empty round),
/// `left` says whether the cursor has work left, `communicate` exchanges a round with every process and applies
/// what came. A round's errors (its work, or the communication of the round before) are agreed on with its
/// step, the last round's after it.
fn rounds<Round: Send + Default>(
    exchange: &dyn Exchange,
    compute: impl Fn(&mut usize) -> crate::Result<Round> + Sync,
    left: impl Fn(usize) -> bool,
    mut communicate: impl FnMut(Round) -> crate::Result<()>,
) -> crate::Result<()> {
    let mut cursor = 0;
    let mut computed = compute(&mut cursor);
    loop {
        let (round, more) = step(exchange, computed, left(cursor))?;
        let (next, communicated) = overlapped(
            || match more {
                true => compute(&mut cursor),
                false => Ok(Round::default()),
            },
            || communicate(round),
        );
        if !more {
            return agree(exchange, communicated);
        }
        computed = communicated.and(next);
    }
}

/// Up to `limit` local indices of `set` from word `word` on (moved past the words taken).
fn ranks_from(set: &RankSet, word: &mut usize, limit: usize) -> Vec<u64> {
    use std::sync::atomic::Ordering::Relaxed;
    let words = set.words();
    let mut ranks = Vec::new();
    while ranks.len() < limit {
        let Some(bits) = words.get(*word).map(|bits| bits.load(Relaxed)) else { break };
        let base = (*word as u64) * 64;
        let mut bits = bits;
        while bits != 0 {
            ranks.push(base + u64::from(bits.trailing_zeros()));
            bits &= bits - 1;
        }
        *word += 1;
    }
    ranks
}

/// Whether `ranks_from` has taken every word of `set`.
fn taken(set: &RankSet, word: usize) -> bool {
    word >= set.words().len()
}

impl<Ruleset> SharedWork<Ruleset::Tier> for RankedRun<'_, Ruleset>
where
    Ruleset: Game + Rank + Send + Sync + 'static,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: Send + Sync,
{
    fn tier_size(&self, tier: &Ruleset::Tier) -> u64 {
        self.ranked.game.tier_size(tier)
    }

    fn discover_shares(
        &mut self,
        survey: &TierSurvey<Ruleset::Tier>,
        scratch: &HashMap<Ruleset::Tier, PathBuf>,
        exchange: &dyn Exchange,
    ) -> crate::Result<SharedPlan<Ruleset::Tier>> {
        let TierSurvey { order, children, finished, closed } = survey;
        let (game, budget) = (self.ranked.game, self.solver.budget);
        let (me, processes) = (exchange.this_rank(), exchange.ranks());
        let shares_of = |tier: &Ruleset::Tier| Shares::new(game.tier_size(tier), processes);
        let share_set = |tier: &Ruleset::Tier| RankSet::new(shares_of(tier).length(me));
        let start_tier = game.tier(self.start);
        let start_shares = shares_of(&start_tier);
        let start_set = agree(exchange, share_set(&start_tier))?;
        let start_rank = self.ranked.rank_in(&start_tier, &game.canonical(self.start), game.tier_size(&start_tier))?;
        if start_shares.owner(start_rank) == me {
            start_set.insert(start_shares.local(start_rank));
        }
        let mut held = start_set.units();
        let mut pending: HashMap<Ruleset::Tier, RankSet> = HashMap::new();
        pending.insert(start_tier, start_set);
        let mut plan = SharedPlan { shares: HashMap::new(), reached: HashSet::new() };
        for tier in order {
            let Some(seeds) = pending.remove(tier) else { continue };
            let found = exchange.all_sum(seeds.len());
            if found == 0 || closed.contains(tier) {
                held = held.saturating_sub(seeds.units());
                if found > 0 {
                    plan.reached.insert(tier.clone());
                }
                continue;
            }
            plan.reached.insert(tier.clone());
            let below = children.get(tier).map(Vec::as_slice).unwrap_or(&[]);
            let sizes = std::iter::once(tier).chain(below).try_for_each(|tier| check_size(tier, game.tier_size(tier)));
            agree(exchange, sizes)?;
            // The child tiers' new sets, the round's frontier and the next one, besides the sets held: checked
            // before any of them is made.
            let new: Vec<&Ruleset::Tier> = below.iter().filter(|child| !pending.contains_key(*child)).collect();
            let new_units = new
                .iter()
                .fold(0u64, |sum, child| sum.saturating_add(super::reach::units(shares_of(child).length(me))));
            let fits = match held.saturating_add(new_units).saturating_add(2 * seeds.units()) > budget {
                true => Err(Error::Budget(Budget::Positions(budget))),
                false => Ok(()),
            };
            let made = fits.and_then(|()| {
                new.into_iter().try_for_each(|child| {
                    let set = share_set(child)?;
                    held = held.saturating_add(set.units());
                    pending.insert(child.clone(), set);
                    Ok(())
                })
            });
            agree(exchange, made)?;
            let sets: Vec<(Ruleset::Tier, Shares, &RankSet)> = below
                .iter()
                .filter_map(|child| pending.get(child).map(|set| (child.clone(), shares_of(child), set)))
                .collect();
            let reached = self.ranked.reach_share(tier, seeds, &sets, exchange)?;
            self.solver.stats.visited += reached.len();
            if finished.contains(tier) {
                held = held.saturating_sub(reached.units());
                continue;
            }
            let share = match scratch.get(tier) {
                Some(path) => reached.write_to(path).map(|()| {
                    held = held.saturating_sub(reached.units());
                    Share::Spilled { path: path.clone(), size: reached.size() }
                }),
                None => Ok(Share::Held(reached)),
            };
            plan.shares.insert(tier.clone(), agree(exchange, share)?);
        }
        Ok(plan)
    }

    fn solve_share(
        &mut self,
        tier: &Ruleset::Tier,
        share: RankSet,
        children: &[ChildShare<Ruleset::Tier>],
        exchange: &dyn Exchange,
    ) -> crate::Result<ShareSolution<Ruleset::Tier>> {
        let budget = self.solver.budget;
        let child_units: u64 = children.iter().map(|child| (child.records.len() as u64).div_ceil(16)).sum();
        let fits = match work_units(share.size()).saturating_add(child_units) > budget {
            true => Err(Error::Budget(Budget::Positions(budget))),
            false => Ok(()),
        };
        agree(exchange, fits)?;
        let solution = self.ranked.induce_share(tier, share, children, exchange)?;
        self.solver.stats.table_entries += solution.statistics.positions;
        Ok(solution)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rank_has_one_owner_and_one_local_index_there() {
        for size in [0, 1, 65_535, 65_536, 65_537, 3 * 65_536 + 5, 10 * 65_536] {
            for processes in 1..=5 {
                let shares = Shares::new(size, processes);
                let lengths: Vec<u64> = (0..processes).map(|process| shares.length(process)).collect();
                assert_eq!(lengths.iter().sum::<u64>(), size, "size {size}, {processes} processes");
                for process in 0..processes {
                    let blocks: Vec<u64> = shares.blocks_of(process).collect();
                    assert!(blocks.iter().all(|&block| block % processes as u64 == process as u64));
                }
                for rank in (0..size).step_by(997).chain(size.checked_sub(1)) {
                    let (owner, local) = (shares.owner(rank), shares.local(rank));
                    assert!(local < lengths[owner], "size {size}, {processes} processes, rank {rank}");
                    assert_eq!(shares.global(owner, local), rank);
                }
            }
        }
        // Ranks past 32 bits.
        let shares = Shares::new(7 << 32, 3);
        for rank in [0, (1 << 32) + 17, (7 << 32) - 1] {
            let owner = shares.owner(rank);
            assert!(shares.local(rank) < shares.length(owner));
            assert_eq!(shares.global(owner, shares.local(rank)), rank);
        }
    }
}
