//! [`UnboundedTable`]: a hash map that never forgets, for tests and games small enough to memoize in full.

use super::{Bounds, TableStorage, TranspositionTable};
use hashbrown::HashMap;
use std::hash::Hash;

/// A transposition table that keeps every key stored (until [`clear`](super::TableStorage::clear)), so its
/// memory grows with the search. Its probes return the bounds exactly as stored.
#[derive(Clone, Debug)]
pub struct UnboundedTable<Key> {
    entries: HashMap<Key, Bounds>,
}

impl<Key> UnboundedTable<Key> {
    /// An empty table.
    pub fn new() -> Self {
        UnboundedTable { entries: HashMap::new() }
    }
}

impl<Key> Default for UnboundedTable<Key> {
    fn default() -> Self {
        Self::new()
    }
}

impl<Key: Eq + Hash + Clone> TranspositionTable<Key> for UnboundedTable<Key> {
    fn probe(&mut self, key: &Key) -> Option<Bounds> {
        self.entries.get(key).copied()
    }

    fn store(&mut self, key: &Key, bounds: Bounds, _work: u64) {
        if bounds == Bounds::UNKNOWN {
            self.entries.remove(key);
        } else if let Some(held) = self.entries.get_mut(key) {
            // Replaced in place: no need to clone the key again.
            *held = bounds;
        } else {
            self.entries.insert(key.clone(), bounds);
        }
    }
}

impl<Key> TableStorage for UnboundedTable<Key> {
    fn clear(&mut self) {
        self.entries.clear();
    }

    fn occupied(&self) -> usize {
        self.entries.len()
    }

    /// Unbounded: `usize::MAX`.
    fn capacity(&self) -> usize {
        usize::MAX
    }

    /// The inline size of the allocated entries (the map's capacity, not counting its control bytes nor the
    /// heap memory keys own).
    fn bytes(&self) -> usize {
        self.entries.capacity() * size_of::<(Key, Bounds)>()
    }
}
