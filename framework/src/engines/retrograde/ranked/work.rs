//! One tier's work in the solve by un-moves ([`Work`]): a value word (16 bits) and a counter of undecided in-tier
//! children (8 bits) per rank, the levels of remoteness at which something was decided, and the updates of the
//! induction (`induce.rs` drives it in one process, `shares/induce.rs` on a process's share). While a position
//! is undecided, its word holds what its exits leave instead of a value; a rank of no position is marked
//! [`UNREACHED`] once the setup is done.

use super::allocation_error;
use super::reach::RankSet;
use crate::engines::retrograde::solution::{narrow, narrow_error, PackedValue, DRAW, LOSE, MAX_NARROW_REMOTENESS, WIN};
use crate::engines::retrograde::Rank;
use crate::error::Error;
use crate::game::Game;
use crate::value::Value;
use hashbrown::HashMap;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::Mutex;

/// The kind bits of a value in 16 bits (as [`narrow`] makes it).
const KIND_SHIFT: u32 = 14;

/// The low 14 bits: a remoteness, or what an undecided position's exits leave.
const LOW: u16 = (1 << KIND_SHIFT) - 1;

/// An undecided position's exit code: an exit draws, so the position is never lost.
const EXIT_DRAWS: u16 = LOW;

/// The word of a rank that is no reachable position while the tier is induced (a draw with a remoteness: no
/// value), so that the induction needs no other mark of what is reachable.
const UNREACHED: u16 = u16::MAX;

/// The counter of a position with more in-tier children than a byte counts: its count is in the overflow map.
const OVERFLOW: u8 = u8::MAX;

/// The 16-bit word of a decided value of `kind` at `remoteness` (at most [`MAX_NARROW_REMOTENESS`]).
fn decided(kind: u32, remoteness: u32) -> u16 {
    ((kind << KIND_SHIFT) | remoteness) as u16
}

/// The kind bits of a word (0: undecided, or no position).
fn kind_of(word: u16) -> u32 {
    u32::from(word) >> KIND_SHIFT
}

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

    /// The error of a level whose parents' remoteness would not fit the 14 bits of a word.
    pub(super) fn check_level(level: u32) -> crate::Result<()> {
        match level >= u32::from(LOW) {
            true => Err(narrow_error(level + 1)),
            false => Ok(()),
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

/// The 16-bit word of `value`, or the limit error of its remoteness.
pub(super) fn word_of(value: Value) -> crate::Result<u16> {
    let packed = PackedValue::pack(value).ok_or_else(|| narrow_error(value.remoteness().unwrap_or(0)))?;
    narrow(packed).ok_or_else(|| narrow_error(packed.remoteness()))
}
