//! The solve of one tier by un-moves, over flat arrays by rank: a value in 16 bits and a counter of undecided
//! in-tier children in 8 bits per rank (the tier's reachable ranks as a bit each during the setup, then marked in
//! the value words), the child tiers' values in 16 bits a rank.
//!
//! Setup, in parallel over the reachable ranks: each position's moves are generated once; a finished position
//! gets its outcome, a position without moves is lost, an exit's value is read from its child tier and backed
//! up, and the distinct in-tier children are counted. A position with an exit to a lost child is a win at once
//! (its remoteness may still fall while the tier is induced); one whose children all leave the tier gets the
//! best of its exits. Any other position is undecided: its value word holds, instead of a value, what its exits
//! leave (nothing, a loss of some remoteness, or a draw that forbids the loss), and its counter the number of
//! in-tier children not yet known to be won for their mover.
//!
//! Induction, by levels of remoteness, each level a parallel scan of the values in rank order (sequential
//! reads; the levels at which nothing was decided are skipped): every position won or lost at
//! remoteness `r` is un-moved (the game's [`crate::engines::retrograde::Retrograde`] hook) to its in-tier
//! parents; a loss makes each undecided parent a win at `r + 1` (or lowers a win of greater remoteness to it),
//! a win takes one from each undecided parent's counter, and the parent whose counter reaches 0 is lost at
//! `r + 1`, or at its exits' loss if that is slower, or stays undecided if an exit draws. What is never decided
//! is a draw. Every update only lowers a win or settles a value once its last child is known, so the values do
//! not depend on the order of the threads: a level's scan decides only higher levels.

use super::reach::{each_rank, RankSet};
use super::work::{word_of, Work};
use super::{contract, Ranked};
use crate::engines::retrograde::solution::{Lookup, TierSolution, TierStatistics, Values};
use crate::engines::retrograde::tiers::broken;
use crate::engines::retrograde::{Rank, SolvedTiers};
use crate::game::Game;
use crate::value::Value;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

/// Ranks of the value array handed to a thread at once in a level's scan.
const RANKS_PER_TASK: usize = 1 << 14;

/// Bytes a rank of the tier in work takes: its value (2), its counter (1), and its bit of the reachable set
/// (1/8), as a fraction over 8.
pub(super) const WORK_EIGHTHS_PER_RANK: u64 = 25;

/// A solved child tier as the setup reads it: the tier, its values, and whether a move of this tier reached it.
type Below<'solved, Ruleset> = (
    &'solved <Ruleset as crate::engines::retrograde::Tiers>::Tier,
    &'solved TierSolution<
        <Ruleset as crate::engines::retrograde::Tiers>::Tier,
        <Ruleset as crate::game::Canonicalize>::Key,
    >,
    AtomicBool,
);

impl<Ruleset: Game + Rank + Send + Sync + 'static> Ranked<'_, Ruleset>
where
    Ruleset::Position: Send + Sync,
    Ruleset::Key: Send + Sync,
{
    /// Solves `tier`, whose reachable positions are `reached`, its exits read from `solved`. The set is dropped
    /// once the positions are set up (the words of the ranks of no position say so from then on).
    pub(super) fn induce(
        &self,
        tier: &Ruleset::Tier,
        reached: RankSet,
        solved: &SolvedTiers<Ruleset::Tier, Ruleset::Key>,
    ) -> crate::Result<TierSolution<Ruleset::Tier, Ruleset::Key>> {
        let size = reached.size();
        let work = Work::<Ruleset>::new(tier, size)?;
        let below: Vec<Below<'_, Ruleset>> =
            solved.iter().map(|(child, solution)| (child, solution.as_ref(), AtomicBool::new(false))).collect();
        let (edges, exits) = (AtomicU64::new(0), AtomicU64::new(0));
        self.setup(&work, &reached, &below, &edges, &exits)?;
        let positions = reached.len();
        // The ranks of no position, marked in their words: the set goes.
        work.mark_unreached(&reached);
        drop(reached);
        let mut levels = 0;
        let mut level = None;
        while edges.load(Relaxed) > 0 {
            let Some(next) = work.next_level(level) else { break };
            levels += 1;
            self.level(&work, next)?;
            work.check_parents()?;
            level = Some(next);
        }
        let statistics = TierStatistics { positions, edges: edges.into_inner(), exits: exits.into_inner(), levels };
        let mut reached_tiers: Vec<Ruleset::Tier> =
            below.iter().filter(|(_, _, used)| used.load(Relaxed)).map(|(child, _, _)| (*child).clone()).collect();
        reached_tiers.sort();
        drop(below);
        let values = work.into_records();
        let ranking = self.ranking(tier)?;
        Ok(TierSolution::new(
            tier.clone(),
            Lookup::Ranked(Arc::new(ranking)),
            Values::Narrow(values),
            statistics,
            reached_tiers,
        ))
    }

    /// The setup pass (see the module's documentation).
    fn setup(
        &self,
        work: &Work<'_, Ruleset>,
        reached: &RankSet,
        below: &[Below<'_, Ruleset>],
        edges: &AtomicU64,
        exits: &AtomicU64,
    ) -> crate::Result<()> {
        let (game, tier, size) = (self.game, work.tier(), reached.size());
        // Each task counts its edges and exits on its own and adds them once (`Tally`): shared counters written
        // at every position would move their cache line between the cores.
        let scratch = || (Vec::new(), Vec::new(), Tally::new(edges), Tally::new(exits));
        type Scratch<'tally, Move> = (Vec<Move>, Vec<u64>, Tally<'tally>, Tally<'tally>);
        each_rank(reached, scratch, |(moves, children, edges, exits): &mut Scratch<'_, Ruleset::Move>, rank| {
            let position = self.position(tier, rank)?;
            if let Some(value) = game.outcome(&position) {
                work.settle(rank, word_of(value)?);
                return Ok(());
            }
            moves.clear();
            game.moves(&position, moves);
            if moves.is_empty() {
                work.settle(rank, word_of(Value::LOST)?);
                return Ok(());
            }
            children.clear();
            let mut best: Option<Value> = None;
            for mv in moves.iter() {
                let child = game.play(&position, mv);
                let child_tier = game.tier(&child);
                let key = game.canonical(&child);
                if child_tier == *tier {
                    children.push(self.rank_in(tier, &key, size)?);
                    continue;
                }
                exits.count += 1;
                let Some((_, solution, used)) = below.iter().find(|(below, _, _)| **below == child_tier) else {
                    return Err(broken(format!(
                        "a move from tier {tier:?} reaches tier {child_tier:?}, which is not solved before it"
                    )));
                };
                if !used.load(Relaxed) {
                    used.store(true, Relaxed);
                }
                let value = child_value(self, &child_tier, solution, &key)?;
                let backed = value.backed_up();
                best = Some(best.map_or(backed, |old| old.max(backed)));
            }
            children.sort_unstable();
            children.dedup();
            edges.count += children.len() as u64;
            work.open(rank, best, children.len())
        })
    }

    /// One level's scan: every position won or lost at remoteness `level` passes its value to its parents.
    fn level(&self, work: &Work<'_, Ruleset>, level: u32) -> crate::Result<()> {
        let tier = work.tier();
        Work::<Ruleset>::check_level(level)?;
        let scratch = || (Vec::new(), Vec::new());
        let visit =
            |(parents, ranks): &mut (Vec<Ruleset::Position>, Vec<u64>), rank: u64, lost: bool| -> crate::Result<()> {
                self.parent_ranks(tier, rank, parents, ranks)?;
                for &parent in ranks.iter() {
                    work.update(parent, lost, level);
                }
                Ok(())
            };
        // A scan of the words in order: the positions of the level are found without another mark.
        // One task a leaf, as in `each_rank`: the positions of a level cluster in the rank space.
        let tasks = work.words().par_chunks(RANKS_PER_TASK).enumerate().with_max_len(1);
        tasks.try_for_each_init(scratch, |state, (task, words)| {
            let first = task * RANKS_PER_TASK;
            for (at, slot) in words.iter().enumerate() {
                if let Some(lost) = Work::<Ruleset>::at_level(slot.load(Relaxed), level) {
                    visit(state, (first + at) as u64, lost)?;
                }
            }
            Ok(())
        })
    }

    /// The distinct ranks of the in-tier parents of the position of `rank` into `ranks` (`parents` scratch).
    pub(super) fn parent_ranks(
        &self,
        tier: &Ruleset::Tier,
        rank: u64,
        parents: &mut Vec<Ruleset::Position>,
        ranks: &mut Vec<u64>,
    ) -> crate::Result<()> {
        let game = self.game;
        let position = self.position(tier, rank)?;
        parents.clear();
        (self.unmoves.parents)(game, &position, parents);
        ranks.clear();
        for parent in parents.iter() {
            if game.tier(parent) != *tier {
                continue;
            }
            // A parent that does not rank is no position of this solve (one not reachable is marked so).
            if let Some(rank) = game.rank(tier, &game.canonical(parent)) {
                ranks.push(rank);
            }
        }
        // Each parent once: the counters count distinct children.
        ranks.sort_unstable();
        ranks.dedup();
        Ok(())
    }
}

/// A count kept by one task and added to the shared total once, when the task drops it.
struct Tally<'total> {
    count: u64,
    total: &'total AtomicU64,
}

impl<'total> Tally<'total> {
    fn new(total: &'total AtomicU64) -> Self {
        Tally { count: 0, total }
    }
}

impl Drop for Tally<'_> {
    fn drop(&mut self) {
        self.total.fetch_add(self.count, Relaxed);
    }
}

/// The value of the child of key `key` in the solved `child_tier`: by rank in the dense form, by key otherwise.
fn child_value<Ruleset: Game + Rank>(
    ranked: &Ranked<'_, Ruleset>,
    child_tier: &Ruleset::Tier,
    solution: &TierSolution<Ruleset::Tier, Ruleset::Key>,
    key: &Ruleset::Key,
) -> crate::Result<Value> {
    let missing =
        || broken(format!("a move reaches a position of tier {child_tier:?} that was not found there (key {key:?})"));
    match solution.by_rank() {
        Some(values) => {
            let rank =
                ranked.game.rank(child_tier, key).ok_or_else(|| contract(child_tier, key, values.len() as u64))?;
            let bits =
                values.get(rank as usize).copied().ok_or_else(|| contract(child_tier, key, values.len() as u64))?;
            crate::engines::retrograde::solution::widen(bits).unpack().ok_or_else(missing)
        }
        None => solution.value_of_key(key).ok_or_else(missing),
    }
}
