//! Transposition tables: fixed-size, lossy stores of score bounds for search engines.
//!
//! # Scores
//!
//! A position's score is seen from the player to move and is an `i32`: a win in `r` plies scores
//! `MATE - r`, a loss in `r` plies scores `-(MATE - r)`, a draw scores 0, and `±INFINITY` mark a missing
//! bound. The order of scores is the order of values: quick wins, slow wins, draw, slow losses, quick losses.
//! A table stores [`Bounds`] (`lower <= true score <= upper`) for a canonical position key.
//!
//! # The tables
//!
//! - [`KeyedTable`] holds any key type (`Eq + Hash + Clone`) and compares keys in full. Its buckets are
//!   found by a deterministic hash, so a run is reproducible.
//! - [`PackedTable`] is the compact path for keys that are (or convert losslessly into) a `u64`: one 64-bit
//!   word per entry, lock-free, shareable by several search threads ([`SharedTable`]). The bucket of a key
//!   `k` is `k % buckets` and its entry stores only the quotient `k / buckets` (the tag): the slot index
//!   already implies the remainder, so the tag plus the index give back the whole key and the comparison is
//!   still exact. This is what makes an entry fit in one word, which is what lets readers and writers race
//!   without locks (a reader sees the old word or the new one, never a mix).
//! - [`ShardedTable`] is the shared table for any key type: keyed tables behind one lock each.
//! - [`UnboundedTable`] is a hash map that never forgets, for tests and small games.
//!
//! # Budget
//!
//! The fixed-size tables take a budget in bytes ([`mib`] converts from MiB; the default is
//! [`DEFAULT_TABLE_MB`]): as many buckets as fit in the budget, but at least one bucket, so a budget smaller than
//! one bucket still gives a working (tiny) table. [`PackedTable`] and [`KeyedTable::with_budget`] allocate all of
//! it at construction (the packed table as zeroed memory from the system, whose pages are paid for only when
//! first touched: a large table costs a small search nothing); [`KeyedTable::new`] reserves the budget's room untouched and doubles within it while it fills up, so
//! that a small game (or a test that makes thousands of engines) does not pay for a table it never fills, and a
//! growth never holds an old and a new table at once (the whole process stays within the budget). Allocation never aborts the process: a budget the system cannot provide is an
//! [`Error::Allocation`] that suggests a lower `--table-mb`.
//!
//! # Near and far parts
//!
//! A [`PackedTable`] of 8 MiB or more has two parts: a near part of [`NEAR_BYTES`], small enough to stay in a
//! core's caches, and a far part of the rest. The engines put positions whose searches are cheap (deep in the
//! tree) in the near part and the rest in the far part: near the leaves, where most probes happen, a probe that
//! waits for main memory costs more than searching the small subtree again, so those probes should find the
//! cache; the costly results near the root keep the far part to themselves. The other tables have one part
//! ([`TranspositionTable::probe_near`] is then [`TranspositionTable::probe`]).
//!
//! # Replacement scheme
//!
//! A bucket has two entries. Each entry records the work spent on its key (the number of positions its search
//! visited) as a small logarithmic class ([`work_class`]). A store for a key goes to the entry that already
//! holds that key, if any; otherwise to entry 0 if that is empty or the new work class is at least entry 0's;
//! otherwise to entry 1, which is always replaced. So entry 0 keeps the most expensive result seen in the
//! bucket, which is the one most costly to recompute, while entry 1 keeps the most recent one, which is the
//! one most likely to be needed again soon.
//!
//! # Contract
//!
//! A table may forget anything at any time, but [`probe`](TranspositionTable::probe) never returns bounds
//! that were not stored for that very key: keys are compared exactly, never by a hash alone. Storing
//! [`Bounds::UNKNOWN`] forgets the key (there is nothing to remember). The packed table may widen the bounds
//! it returns (rounding them in the safe direction, see [`PackedTable`]); the other tables return them as
//! stored.

mod footprint;
mod keyed;
mod layout;
mod packed;
mod region;
mod sharded;
mod unbounded;

#[cfg(feature = "database")]
pub(crate) use footprint::map_bytes;
pub(crate) use footprint::map_growth;
pub use keyed::KeyedTable;
pub use packed::{PackedTable, NEAR_BYTES};
pub use sharded::ShardedTable;
pub use unbounded::UnboundedTable;

use crate::error::{Remedy, Setting};
use crate::{Error, Result};

/// The score of a win in 0 plies; a win in `r` plies scores `MATE - r`, a loss in `r` plies `-(MATE - r)`.
pub const MATE: i32 = 1 << 30;

/// Above every score: `-INFINITY` is "no lower bound" and `INFINITY` "no upper bound".
pub const INFINITY: i32 = MATE + 1;

/// The default budget of a table, in MiB.
pub const DEFAULT_TABLE_MB: usize = 64;

/// The default memory budget of a solve (`--memory-mb`): half the machine's memory (from `/proc/meminfo`), or
/// 4 GiB where that cannot be read.
pub fn default_memory_mb() -> usize {
    let total_kib = std::fs::read_to_string("/proc/meminfo").ok().and_then(|info| {
        let line = info.lines().find(|line| line.starts_with("MemTotal:"))?;
        line.split_whitespace().nth(1)?.parse::<usize>().ok()
    });
    total_kib.map_or(4096, |kib| (kib / 1024 / 2).max(64))
}

/// Bounds of a position's score: `lower <= true score <= upper`. Exact when they meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The score is at least this (`-INFINITY` if nothing is known).
    pub lower: i32,
    /// The score is at most this (`INFINITY` if nothing is known).
    pub upper: i32,
}

impl Bounds {
    /// Nothing known about the score.
    pub const UNKNOWN: Bounds = Bounds { lower: -INFINITY, upper: INFINITY };

    /// The bounds of a score known exactly.
    pub const fn exact(score: i32) -> Bounds {
        Bounds { lower: score, upper: score }
    }

    /// Whether the bounds pin the score down.
    pub const fn is_exact(self) -> bool {
        self.lower == self.upper
    }

    /// The intersection: the bounds implied by both `self` and `other` holding. Consistent bounds (both true of
    /// the same position) never give `lower > upper`.
    pub fn intersect(self, other: Bounds) -> Bounds {
        Bounds { lower: self.lower.max(other.lower), upper: self.upper.min(other.upper) }
    }
}

/// What every table tells about its storage, whatever its key type.
pub trait TableStorage {
    /// Forgets everything.
    fn clear(&mut self);

    /// The number of occupied entries (may scan the whole table: call it rarely).
    fn occupied(&self) -> usize;

    /// The number of entries the table can hold now.
    fn capacity(&self) -> usize;

    /// The memory the table's storage takes now, in bytes (the inline size of its entries).
    fn bytes(&self) -> usize;

    /// An empty table, the size of this table's near part, for one thread of a search that shares this table
    /// (Lazy SMP) to keep its near positions in: so that each thread's cheap results stay in its own core's
    /// caches instead of crowding and invalidating the others'. `None` (the default, and for a table without a
    /// near part, or when the memory is not available): the threads share the near part.
    fn private_near(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }
}

/// A table of score bounds keyed by canonical position keys, used by one search thread at a time.
///
/// The table is lossy: it may forget anything at any time. But [`probe`](Self::probe) never returns bounds that
/// were not stored for that very key (no false hits: keys are compared exactly, never by a hash alone). Its
/// memory use never exceeds its budget (except for [`UnboundedTable`], which never forgets).
pub trait TranspositionTable<Key>: TableStorage {
    /// The bounds stored for `key`, if the table still holds them.
    fn probe(&mut self, key: &Key) -> Option<Bounds>;

    /// Stores `bounds` for `key`, replacing what the table held for it. `work` is the number of positions the
    /// search of this key visited, used by the replacement scheme. Storing [`Bounds::UNKNOWN`] forgets the key.
    fn store(&mut self, key: &Key, bounds: Bounds, work: u64);

    /// The bounds stored for `key` in the table's near part: a small part that stays in the processor's caches,
    /// for positions whose searches are cheap (engines choose which; see [`crate::engines::alpha_beta`]). Same
    /// contract as [`Self::probe`]; a key stored near is found near, one stored far is found far. Default (a
    /// table with no near part): [`Self::probe`].
    fn probe_near(&mut self, key: &Key) -> Option<Bounds> {
        self.probe(key)
    }

    /// Stores `bounds` for `key` in the table's near part. Default (no near part): [`Self::store`].
    fn store_near(&mut self, key: &Key, bounds: Bounds, work: u64) {
        self.store(key, bounds, work);
    }

    /// A hint that `key` will be probed soon, in the near part if `near`: a table whose entry for it may be far
    /// from the processor starts bringing it closer, so that the work done in between overlaps the wait. It
    /// changes nothing the table holds. Default: nothing.
    fn prefetch(&self, _key: &Key, _near: bool) {}
}

/// A table of score bounds shared by several search threads at once (Lazy SMP).
///
/// Same contract as [`TranspositionTable`]: lossy, but never a false hit, and fixed memory. Concurrent stores
/// to the same bucket may lose one of the entries, never mix them.
pub trait SharedTable<Key>: Sync + TableStorage {
    /// The bounds stored for `key`, if the table still holds them.
    fn probe(&self, key: &Key) -> Option<Bounds>;

    /// Stores `bounds` for `key`, replacing what the table held for it. `work` is the number of positions the
    /// search of this key visited, used by the replacement scheme. Storing [`Bounds::UNKNOWN`] forgets the key.
    fn store(&self, key: &Key, bounds: Bounds, work: u64);

    /// The bounds stored for `key` in the table's near part (see [`TranspositionTable::probe_near`]). Default:
    /// [`Self::probe`].
    fn probe_near(&self, key: &Key) -> Option<Bounds> {
        self.probe(key)
    }

    /// Stores `bounds` for `key` in the table's near part. Default: [`Self::store`].
    fn store_near(&self, key: &Key, bounds: Bounds, work: u64) {
        self.store(key, bounds, work);
    }

    /// A hint that `key` will be probed soon (see [`TranspositionTable::prefetch`]). Default: nothing.
    fn prefetch(&self, _key: &Key, _near: bool) {}

    /// Whether `key`'s entries belong in this table: a table of partial keys may have no room for some keys (it
    /// drops their stores, and their probes miss), and a thread that keeps its near positions in a table of its
    /// own sends the keys it answers `false` for to the shared table instead. Default: every key.
    fn can_hold(&self, _key: &Key) -> bool {
        true
    }
}

/// A number of MiB in bytes (saturating at `usize::MAX`).
pub const fn mib(megabytes: usize) -> usize {
    megabytes.saturating_mul(1 << 20)
}

/// The class of an amount of work, recorded by the replacement scheme: `floor(log2(work)) + 1`, capped at 63
/// (so it fits in 6 bits). Work 0 counts as 1, so a class is always at least 1.
pub const fn work_class(work: u64) -> u8 {
    let class = 64 - (if work == 0 { 1 } else { work }).leading_zeros();
    if class > 63 {
        63
    } else {
        class as u8
    }
}

/// A vector of `count` slots made by `fill`, or an error (instead of an abort) if the memory is not available.
pub(crate) fn allocate<Slot>(count: usize, fill: impl FnMut() -> Slot) -> Result<Vec<Slot>> {
    let mut slots = Vec::new();
    if slots.try_reserve_exact(count).is_err() {
        let megabytes = count.saturating_mul(size_of::<Slot>()).div_ceil(1 << 20);
        return Err(Error::Allocation {
            what: "a transposition table",
            megabytes: megabytes as u64,
            remedies: vec![Remedy::Lower(Setting::TableMb)],
        });
    }
    crate::huge_pages::advise(slots.spare_capacity_mut());
    slots.extend(std::iter::repeat_with(fill).take(count));
    Ok(slots)
}

/// The number of buckets of `bucket_bytes` bytes that a budget gives: as many as fit, but at least one.
pub(crate) fn bucket_count(budget_bytes: usize, bucket_bytes: usize) -> usize {
    (budget_bytes / bucket_bytes.max(1)).max(1)
}
