//! The positions that Lazy SMP threads are searching now, so that a thread that meets one as a child defers it
//! and searches its other children first (the idea of ABDADA): the threads then split the work of a node instead
//! of searching the same subtree side by side, and by the time a deferred child comes up its bounds are often in
//! the shared table.

use std::hash::{BuildHasher, Hash};
use std::sync::atomic::{AtomicU64, Ordering};

/// A lossy, lock-free set of the hashes of the positions being searched: one word per slot, the hash of the
/// latest position entered there (0: none). A lost or stale mark only costs a thread some duplicated or
/// deferred work, never a wrong value: deferring a child changes the order of moves, not the set searched.
#[derive(Debug)]
pub(crate) struct Busy {
    slots: Vec<AtomicU64>,
    hasher: std::hash::BuildHasherDefault<std::collections::hash_map::DefaultHasher>,
}

/// The slots of a [`Busy`] set (a power of two): far more than the far-depth positions a few threads are in at
/// once, in 256 KiB.
const SLOTS: usize = 1 << 15;

impl Busy {
    /// An empty set (only Lazy SMP makes one: a search on one thread defers nothing).
    #[cfg(any(feature = "parallel", test))]
    pub(crate) fn new() -> Self {
        Busy { slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(), hasher: Default::default() }
    }

    /// The hash of `key` (never 0, which marks an empty slot).
    #[inline]
    pub(crate) fn hash<Key: Hash>(&self, key: &Key) -> u64 {
        self.hasher.hash_one(key) | 1
    }

    #[inline]
    fn slot(&self, hash: u64) -> Option<&AtomicU64> {
        // The slot count is a power of two; the high bits of the hash pick the slot.
        self.slots.get((hash >> 49) as usize % SLOTS)
    }

    /// Marks the position of `hash` as being searched.
    #[inline]
    pub(crate) fn enter(&self, hash: u64) {
        if let Some(slot) = self.slot(hash) {
            slot.store(hash, Ordering::Relaxed);
        }
    }

    /// Clears the mark of the position of `hash`, unless another position took its slot since.
    #[inline]
    pub(crate) fn leave(&self, hash: u64) {
        if let Some(slot) = self.slot(hash) {
            let _ = slot.compare_exchange(hash, 0, Ordering::Relaxed, Ordering::Relaxed);
        }
    }

    /// Whether some thread is searching the position of `hash`.
    #[inline]
    pub(crate) fn is_busy(&self, hash: u64) -> bool {
        self.slot(hash).is_some_and(|slot| slot.load(Ordering::Relaxed) == hash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_lasts_until_its_position_leaves() {
        let busy = Busy::new();
        let first = busy.hash(&17_u64);
        assert!(first != 0 && !busy.is_busy(first));
        busy.enter(first);
        assert!(busy.is_busy(first));
        busy.leave(first);
        assert!(!busy.is_busy(first));
        // A position that took the slot keeps it when an older one leaves.
        let other = first ^ 2;
        busy.enter(first);
        busy.enter(other);
        busy.leave(first);
        assert!(busy.is_busy(other) && !busy.is_busy(first));
    }
}
