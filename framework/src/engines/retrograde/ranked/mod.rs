//! The solve by rank with un-moves ([`super::ByRank::with_unmoves`]): no position, key, index or edge is held,
//! only flat arrays by rank.
//!
//! - Discovery, parents first (`reach.rs`): a bit per rank ([`RankSet`]) of every position of each tier
//!   reachable from the start, the tier closed under its own moves by rounds, its exits marking the entries of
//!   its child tiers. The sets of the tiers not yet solved wait in files beside the tier files
//!   ([`super::TierStore::scratch_path`]), or in memory (1 bit a rank) for a store without a directory.
//! - Solve, children first (`induce.rs`): a value (2 bytes) and a counter (1 byte) per rank of the tier, set up
//!   from each reachable position's moves (the exits read from the child tiers' values by rank), then the
//!   backward induction by levels of remoteness, parents found by the game's un-move hook.
//!
//! The memory model, in bytes, while tier `t` is solved: `3.125 * ranks(t)` for the tier (value, counter and
//! reachable bit), `2 * ranks(c)` for each child tier `c` it reads (its values by rank), and, with a store
//! without a directory, `ranks(u) / 8` for every other tier `u` whose reachable set waits for its solve; the
//! budget counts them in positions of 32 bytes ([`super::ByRank`]'s [`super::TierIndexing::bytes_per_position`]).

mod induce;
mod reach;
mod sample;
mod shares;
mod work;

pub(crate) use sample::reachable_share;

pub use reach::RankSet;
pub use shares::{ChildShare, Share, ShareSolution, SharedPlan, SharedWork, Shares, SHARE_ALIGNMENT};

use super::index::{ByRank, TierRank, UnMoves};
use super::schedule::{Entries, SolvedTiers, TierPlan, TierSurvey, TierWork};
use super::solution::TierSolution;
use super::tiers::{survey, TierStore};
use super::{Rank, RetrogradeSolver};
use crate::error::{Budget, Error};
use crate::error::{Remedy, Setting};
use crate::game::Game;
use hashbrown::HashMap;

/// The bytes of a position of the budget in the solve by un-moves: the unit its memory model counts in.
pub(super) const UNIT_BYTES: u64 = 32;

/// The error of memory the system would not give.
fn allocation_error(what: &'static str, bytes: u64) -> Error {
    Error::Allocation {
        what,
        megabytes: bytes.div_ceil(1 << 20),
        remedies: vec![Remedy::Lower(Setting::MemoryMb), Remedy::Advice("use a larger machine".into())],
    }
}

/// The error of a key without a rank in its tier (the [`Rank`] contract broken).
fn contract<Tier: std::fmt::Debug, Key: std::fmt::Debug>(tier: &Tier, key: &Key, size: u64) -> Error {
    Error::Contract {
        contract: "Rank",
        detail: format!("the key {key:?} of a position of tier {tier:?} has no rank below {size}"),
    }
}

/// What a tier being solved counts toward the budget, in positions (see the module's documentation).
fn work_units(size: u64) -> u64 {
    (size.saturating_mul(induce::WORK_EIGHTHS_PER_RANK)).div_ceil(8 * UNIT_BYTES)
}

/// The game, its ranking and its un-moves, as the discovery and the solve use them.
pub(super) struct Ranked<'run, Ruleset: Game + Rank> {
    game: &'run Ruleset,
    indexing: &'run ByRank<Ruleset>,
    unmoves: UnMoves<Ruleset>,
}

impl<Ruleset: Game + Rank> Ranked<'_, Ruleset> {
    /// The position of rank `rank` of `tier` (a rank of a reachable position: one the solve set).
    fn position(&self, tier: &Ruleset::Tier, rank: u64) -> crate::Result<Ruleset::Position> {
        self.game.unrank(tier, rank).and_then(|key| (self.unmoves.position)(self.game, &key)).ok_or_else(|| {
            Error::Contract {
                contract: "Rank",
                detail: format!("rank {rank} of tier {tier:?} unranks to no position (Rank::unrank or FromKey)"),
            }
        })
    }

    /// The rank of `key` in `tier`, below the tier's `size`.
    fn rank_in(&self, tier: &Ruleset::Tier, key: &Ruleset::Key, size: u64) -> crate::Result<u64> {
        self.game.rank(tier, key).filter(|&rank| rank < size).ok_or_else(|| contract(tier, key, size))
    }

    /// The ranking of `tier`, as a solution keeps it.
    fn ranking(&self, tier: &Ruleset::Tier) -> crate::Result<TierRank<Ruleset>> {
        TierRank::new(std::sync::Arc::clone(self.indexing.game()), tier.clone())
    }
}

/// One tiered solve by un-moves as a schedule drives it.
pub(super) struct RankedRun<'run, Ruleset: Game + Rank> {
    pub(super) solver: &'run mut RetrogradeSolver,
    pub(super) ranked: Ranked<'run, Ruleset>,
    pub(super) start: &'run Ruleset::Position,
    pub(super) store: &'run mut dyn TierStore<Ruleset::Tier, Ruleset::Key>,
}

impl<'run, Ruleset: Game + Rank> RankedRun<'run, Ruleset> {
    /// The run of `game` from `start` with `indexing`'s un-moves into `store`.
    pub(super) fn new(
        solver: &'run mut RetrogradeSolver,
        game: &'run Ruleset,
        start: &'run Ruleset::Position,
        indexing: &'run ByRank<Ruleset>,
        unmoves: UnMoves<Ruleset>,
        store: &'run mut dyn TierStore<Ruleset::Tier, Ruleset::Key>,
    ) -> Self {
        RankedRun { solver, ranked: Ranked { game, indexing, unmoves }, start, store }
    }
}

impl<Ruleset> TierWork<Ruleset::Tier, Ruleset::Key, Ruleset::Position> for RankedRun<'_, Ruleset>
where
    Ruleset: Game + Rank + Send + Sync + 'static,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: Send + Sync,
{
    fn survey(&mut self) -> crate::Result<TierSurvey<Ruleset::Tier>> {
        survey(self.ranked.game, self.start, self.store, self.solver.budget)
    }

    fn discover(&mut self) -> crate::Result<TierPlan<Ruleset::Tier, Ruleset::Position>> {
        let TierSurvey { order, children, finished, closed } = self.survey()?;
        let game = self.ranked.game;
        let budget = self.solver.budget;
        let over_budget = || Error::Budget(Budget::Positions(budget));
        let start_tier = game.tier(self.start);
        // The sets of entries found so far, and what they and the reachable sets kept count.
        let mut pending: HashMap<Ruleset::Tier, RankSet> = HashMap::new();
        let start_set = RankSet::new(game.tier_size(&start_tier))?;
        let start_rank = self.ranked.rank_in(&start_tier, &game.canonical(self.start), start_set.size())?;
        start_set.insert(start_rank);
        let mut held = start_set.units();
        pending.insert(start_tier, start_set);
        let mut entries = HashMap::new();
        for tier in &order {
            let Some(seeds) = pending.remove(tier) else { continue };
            // A tier every parent of which is done: no move reached it if its set is empty.
            if closed.contains(tier) || seeds.is_empty() {
                held = held.saturating_sub(seeds.units());
                continue;
            }
            let below = children.get(tier).map(Vec::as_slice).unwrap_or(&[]);
            // The child tiers' new sets, the round's frontier and the next one, besides the sets held: checked
            // before any of them is made.
            let new: Vec<&Ruleset::Tier> = below.iter().filter(|child| !pending.contains_key(*child)).collect();
            let new_units = new.iter().fold(0u64, |sum, child| sum.saturating_add(reach::units(game.tier_size(child))));
            if held.saturating_add(new_units).saturating_add(2 * seeds.units()) > budget {
                return Err(over_budget());
            }
            for child in new {
                let set = RankSet::new(game.tier_size(child))?;
                held = held.saturating_add(set.units());
                pending.insert(child.clone(), set);
            }
            let sets: Vec<(Ruleset::Tier, &RankSet)> =
                below.iter().filter_map(|child| pending.get(child).map(|set| (child.clone(), set))).collect();
            let reached = self.ranked.reach(tier, seeds, &sets)?;
            self.solver.stats.visited += reached.len();
            // A finished tier was enumerated only for its children's entries.
            if finished.contains(tier) {
                held = held.saturating_sub(reached.units());
            } else if let Some(path) = self.store.scratch_path(tier)? {
                // Waiting for its solve in a file, the set takes no memory while the tiers below are solved.
                reached.write_to(&path)?;
                held = held.saturating_sub(reached.units());
                entries.insert(tier.clone(), Entries::Spilled { path, size: reached.size() });
            } else {
                entries.insert(tier.clone(), Entries::Ranks(reached));
            }
        }
        Ok(TierPlan { order, children, finished, entries, held })
    }

    fn solve_tier(
        &mut self,
        tier: &Ruleset::Tier,
        entries: Entries<Ruleset::Position>,
        solved: &SolvedTiers<Ruleset::Tier, Ruleset::Key>,
        available: u64,
    ) -> crate::Result<TierSolution<Ruleset::Tier, Ruleset::Key>> {
        let Entries::Ranks(reached) = entries.load()? else {
            return Err(Error::internal("retrograde", "a tier solved by un-moves was handed entry positions"));
        };
        if work_units(reached.size()) > available {
            return Err(Error::Budget(Budget::Positions(self.solver.budget)));
        }
        let children = self.ranked.game.child_tiers(tier);
        let below: SolvedTiers<Ruleset::Tier, Ruleset::Key> = solved
            .iter()
            .filter(|(child, _)| children.contains(child))
            .map(|(child, solution)| (child.clone(), std::sync::Arc::clone(solution)))
            .collect();
        let solution = self.ranked.induce(tier, reached, &below)?;
        self.solver.stats.table_entries += solution.len() as u64;
        Ok(solution)
    }

    fn store(&mut self) -> &mut dyn TierStore<Ruleset::Tier, Ruleset::Key> {
        self.store
    }

    fn budget(&self) -> u64 {
        self.solver.budget
    }

    fn start(&self) -> Ruleset::Position {
        self.start.clone()
    }

    fn by_shares(&mut self) -> Option<&mut dyn SharedWork<Ruleset::Tier>> {
        Some(self)
    }
}

impl RetrogradeSolver {
    /// The tiered solve by un-moves, the tiers solved as `schedule` decides.
    pub(super) fn solve_by_unmoves<Ruleset>(
        &mut self,
        game: &Ruleset,
        start: &Ruleset::Position,
        indexing: &ByRank<Ruleset>,
        unmoves: UnMoves<Ruleset>,
        store: &mut dyn TierStore<Ruleset::Tier, Ruleset::Key>,
        schedule: &mut dyn super::TierSchedule<Ruleset::Tier, Ruleset::Key, Ruleset::Position>,
    ) -> crate::Result<()>
    where
        Ruleset: Game + Rank + Send + Sync + 'static,
        Ruleset::Position: Send + Sync,
        Ruleset::Key: Send + Sync,
    {
        self.stats.table_entries = 0;
        let mut run = RankedRun::new(self, game, start, indexing, unmoves, store);
        schedule.run(&mut run)
    }
}
