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
use super::{allocation_error, contract, Ranked};
use crate::engines::retrograde::solution::{
    narrow, narrow_error, Lookup, PackedValue, TierSolution, TierStatistics, Values, DRAW, LOSE, MAX_NARROW_REMOTENESS,
    WIN,
};
use crate::engines::retrograde::tiers::broken;
use crate::engines::retrograde::{Rank, SolvedTiers};
use crate::error::Error;
use crate::game::Game;
use crate::value::Value;
use hashbrown::HashMap;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

/// The kind bits of a value in 16 bits (as [`narrow`] makes it).
const KIND_SHIFT: u32 = 14;

/// The low 14 bits: a remoteness, or what an undecided position's exits leave.
const LOW: u16 = (1 << KIND_SHIFT) - 1;

/// An undecided position's exit code: an exit draws, so the position is never lost.
const EXIT_DRAWS: u16 = LOW;

/// The word of a rank that is no reachable position while the tier is induced (a draw with a remoteness: no
/// value), so that the induction needs no other mark of what is reachable.
const UNREACHED: u16 = u16::MAX;

/// Ranks of the value array handed to a thread at once in a level's scan.
const RANKS_PER_TASK: usize = 1 << 14;

/// The counter of a position with more in-tier children than a byte counts: its count is in the overflow map.
const OVERFLOW: u8 = u8::MAX;

/// Bytes a rank of the tier in work takes: its value (2), its counter (1), and its bit of the reachable set
/// (1/8), as a fraction over 8.
pub(super) const WORK_EIGHTHS_PER_RANK: u64 = 25;

/// The 16-bit word of a decided value of `kind` at `remoteness` (at most [`MAX_NARROW_REMOTENESS`]).
fn decided(kind: u32, remoteness: u32) -> u16 {
    ((kind << KIND_SHIFT) | remoteness) as u16
}

/// The kind bits of a word (0: undecided, or no position).
fn kind_of(word: u16) -> u32 {
    u32::from(word) >> KIND_SHIFT
}

/// A solved child tier as the setup reads it: the tier, its values, and whether a move of this tier reached it.
type Below<'solved, Ruleset> = (
    &'solved <Ruleset as crate::engines::retrograde::Tiers>::Tier,
    &'solved TierSolution<
        <Ruleset as crate::engines::retrograde::Tiers>::Tier,
        <Ruleset as crate::game::Canonicalize>::Key,
    >,
    AtomicBool,
);

/// What one tier's solve holds while it works: a word and a counter per rank of the tier in one process, per
/// local index of a process's share in the solve split by shares (its "ranks" are then local indices).
pub(super) struct Work<'work, Ruleset: Game + Rank> {
    tier: &'work Ruleset::Tier,
    values: Box<[AtomicU16]>,
    counters: Box<[AtomicU8]>,
    /// The counts of positions with more in-tier children than [`OVERFLOW`].
    overflow: Mutex<HashMap<u64, u32>>,
    /// A bit per remoteness level at which some position was decided (levels to scan).
    levels: Box<[AtomicU64]>,
    /// The highest level at which some position was decided.
    highest: AtomicU32,
    /// Whether a counter would fall below zero (the un-move hook listed a position that is not a parent).
    broken: AtomicBool,
}

impl<'work, Ruleset: Game + Rank> Work<'work, Ruleset> {
    /// The work on `length` ranks of `tier`, every word undecided. Errors: memory the system would not give.
    pub(super) fn new(tier: &'work Ruleset::Tier, length: u64) -> crate::Result<Self> {
        let count =
            usize::try_from(length).map_err(|_| Error::limit("the ranks of a tier", length, usize::MAX as u64))?;
        let values = bytemuck::allocation::try_zeroed_slice_box::<AtomicU16>(count)
            .map_err(|()| allocation_error("a tier's values by rank", length * 2))?;
        let counters = bytemuck::allocation::try_zeroed_slice_box::<AtomicU8>(count)
            .map_err(|()| allocation_error("a tier's counters by rank", length))?;
        let levels = (0..=MAX_NARROW_REMOTENESS.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
        Ok(Work {
            tier,
            values,
            counters,
            overflow: Mutex::new(HashMap::new()),
            levels,
            highest: AtomicU32::new(0),
            broken: AtomicBool::new(false),
        })
    }

    /// The slot of `rank`'s word, if the work holds it.
    fn value_slot(&self, rank: u64) -> Option<&AtomicU16> {
        self.values.get(usize::try_from(rank).ok()?)
    }

    /// The slot of `rank`'s counter, if the work holds it.
    fn counter_slot(&self, rank: u64) -> Option<&AtomicU8> {
        self.counters.get(usize::try_from(rank).ok()?)
    }

    /// The tier.
    pub(super) fn tier(&self) -> &'work Ruleset::Tier {
        self.tier
    }

    /// The words, one per rank held.
    pub(super) fn words(&self) -> &[AtomicU16] {
        &self.values
    }

    /// Marks the ranks whose bits are clear in `reached` (the set of the ranks held) as no position.
    pub(super) fn mark_unreached(&self, reached: &RankSet) {
        reached.words().par_iter().enumerate().with_min_len(64).for_each(|(at, word)| {
            let bits = word.load(Relaxed);
            for bit in (0..64).filter(|bit| bits >> bit & 1 == 0) {
                if let Some(slot) = self.values.get(at * 64 + bit) {
                    slot.store(UNREACHED, Relaxed);
                }
            }
        });
    }

    /// The lowest level above `after` (any, if `None`) at which some position was decided.
    pub(super) fn next_level(&self, after: Option<u32>) -> Option<u32> {
        let from = after.map_or(0, |level| level + 1);
        (from..=self.highest.load(Relaxed)).find(|&level| self.scheduled(level))
    }

    /// The error of a parent hook that listed a position that is no parent, if one did.
    pub(super) fn check_parents(&self) -> crate::Result<()> {
        if self.broken.load(Relaxed) {
            return Err(Error::Contract {
                contract: "Retrograde",
                detail: "the parents hook listed a position that is not a parent".into(),
            });
        }
        Ok(())
    }

    /// The final words: what is never decided is a draw, a rank of no position 0 (the same allocation).
    pub(super) fn into_records(self) -> Vec<u16> {
        Vec::from(self.values)
            .into_iter()
            .map(|slot| match slot.into_inner() {
                UNREACHED => 0,
                word if kind_of(word) == 0 => decided(DRAW, 0),
                word => word,
            })
            .collect()
    }

    /// Sets up the undecided position of `rank` from its exits' best value `best` (if any) and its `children`
    /// distinct in-tier children; a position without in-tier children, or with an exit to a lost child, is
    /// decided at once (see the module's documentation).
    pub(super) fn open(&self, rank: u64, best: Option<Value>, children: usize) -> crate::Result<()> {
        if children == 0 {
            self.settle(rank, word_of(best.unwrap_or(Value::LOST))?);
            return Ok(());
        }
        let word = match best {
            Some(Value::Win(remoteness)) => {
                self.settle(rank, word_of(Value::Win(remoteness))?);
                return Ok(());
            }
            Some(Value::Draw) => EXIT_DRAWS,
            Some(Value::Lose(remoteness)) if remoteness < u32::from(EXIT_DRAWS) => remoteness as u16,
            Some(Value::Lose(remoteness)) => return Err(narrow_error(remoteness)),
            None => 0,
        };
        if let Some(slot) = self.value_slot(rank) {
            slot.store(word, Relaxed);
        }
        if let Some(counter) = self.counter_slot(rank) {
            if children >= usize::from(OVERFLOW) {
                counter.store(OVERFLOW, Relaxed);
                let mut overflow = self.overflow.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                overflow.insert(rank, children as u32);
            } else {
                counter.store(children as u8, Relaxed);
            }
        }
        Ok(())
    }

    /// Passes the value of a position won or lost (`lost`) at `level` to its in-tier parent `parent`.
    pub(super) fn update(&self, parent: u64, lost: bool, level: u32) {
        match lost {
            true => self.parent_of_loss(parent, level),
            false => self.parent_of_win(parent, level),
        }
    }

    /// Whether `word` is a win or a loss at `level`, and which.
    pub(super) fn at_level(word: u16, level: u32) -> Option<bool> {
        let kind = kind_of(word);
        (matches!(kind, WIN | LOSE) && u32::from(word & LOW) == level).then_some(kind == LOSE)
    }

    /// Notes that some position was decided at `level`.
    ///
    /// Read before written: every decided position calls this, and a write to the shared words from each
    /// thread would move their cache line between the cores on every call.
    fn schedule(&self, level: u32) {
        if let Some(word) = self.levels.get((level / 64) as usize) {
            let bit = 1 << (level % 64);
            if word.load(Relaxed) & bit == 0 {
                word.fetch_or(bit, Relaxed);
            }
        }
        if self.highest.load(Relaxed) < level {
            self.highest.fetch_max(level, Relaxed);
        }
    }

    /// Whether some position was decided at `level`.
    fn scheduled(&self, level: u32) -> bool {
        self.levels.get((level / 64) as usize).is_some_and(|word| word.load(Relaxed) >> (level % 64) & 1 != 0)
    }

    /// Stores `word` at `rank`, scheduling its level if it is a win or a loss.
    pub(super) fn settle(&self, rank: u64, word: u16) {
        if let Some(slot) = self.value_slot(rank) {
            slot.store(word, Relaxed);
        }
        if matches!(kind_of(word), WIN | LOSE) {
            self.schedule(u32::from(word & LOW));
        }
    }

    /// A position of the tier lost at `level` (remoteness): each undecided parent becomes a win at `level + 1`,
    /// a parent won more slowly wins at `level + 1` instead.
    fn parent_of_loss(&self, parent: u64, level: u32) {
        let Some(slot) = self.value_slot(parent) else { return };
        let win = decided(WIN, level + 1);
        let lowered = slot.fetch_update(Relaxed, Relaxed, |word| match kind_of(word) {
            0 => Some(win),
            WIN if word & LOW > win & LOW => Some(win),
            _ => None,
        });
        if lowered.is_ok() {
            self.schedule(level + 1);
        }
    }

    /// A position of the tier won at `level`: each undecided parent counts one more child won for its mover; the
    /// last makes it lost (at `level + 1`, or its exits' slower loss), unless an exit draws.
    fn parent_of_win(&self, parent: u64, level: u32) {
        let (Some(slot), Some(counter)) = (self.value_slot(parent), self.counter_slot(parent)) else {
            return;
        };
        let word = slot.load(Relaxed);
        if kind_of(word) != 0 {
            return;
        }
        let last = match counter.load(Relaxed) {
            OVERFLOW => {
                let mut overflow = self.overflow.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                match overflow.get_mut(&parent) {
                    Some(count) if *count > 0 => {
                        *count -= 1;
                        *count == 0
                    }
                    _ => {
                        self.broken.store(true, Relaxed);
                        false
                    }
                }
            }
            _ => match counter.fetch_update(Relaxed, Relaxed, |count| count.checked_sub(1)) {
                Ok(count) => count == 1,
                Err(_) => {
                    self.broken.store(true, Relaxed);
                    false
                }
            },
        };
        if !last {
            return;
        }
        // Every in-tier child is won for its mover, so no child is lost: nothing else writes this word now.
        match word & LOW {
            EXIT_DRAWS => {}
            exit => self.settle(parent, decided(LOSE, (level + 1).max(u32::from(exit)))),
        }
    }
}

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
        let (game, tier, size) = (self.game, work.tier, reached.size());
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
        let tier = work.tier;
        if level >= u32::from(LOW) {
            return Err(narrow_error(level + 1));
        }
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
        let tasks = work.values.par_chunks(RANKS_PER_TASK).enumerate().with_max_len(1);
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

/// The 16-bit word of `value`, or the limit error of its remoteness.
pub(super) fn word_of(value: Value) -> crate::Result<u16> {
    let packed = PackedValue::pack(value).ok_or_else(|| narrow_error(value.remoteness().unwrap_or(0)))?;
    narrow(packed).ok_or_else(|| narrow_error(packed.remoteness()))
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
