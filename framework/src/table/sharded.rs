//! [`ShardedTable`]: a [`SharedTable`] for any key type: keyed tables behind one lock each, a key's shard
//! chosen by its hash, so that threads rarely wait on the same lock.

use super::{Bounds, KeyedTable, SharedTable, TableStorage, TranspositionTable};
use foldhash::fast::FixedState;
use std::hash::{BuildHasher, Hash};
use std::sync::Mutex;

/// Shards: many more than threads.
const SHARDS: usize = 64;

/// The hash seed of the shard choice (another than the keyed table's, so that the two choices are independent).
const SEED: u64 = 0x5ead_ed00;

/// A lossy table shared by threads, for any key type that can be hashed and compared: 64 growing
/// [`KeyedTable`]s whose budgets add up to the table's budget, each behind its own lock. Keys that fit a `u64`
/// are better served by the lock-free [`super::PackedTable`].
#[derive(Debug)]
pub struct ShardedTable<Key> {
    shards: Vec<Mutex<KeyedTable<Key>>>,
    hasher: FixedState,
}

impl<Key: Eq + Hash + Clone> ShardedTable<Key> {
    /// A table of at most `budget_bytes` bytes (at least one bucket per shard), growing as it fills.
    pub fn new(budget_bytes: usize) -> Self {
        let shards = (0..SHARDS).map(|_| Mutex::new(KeyedTable::new(budget_bytes / SHARDS))).collect();
        ShardedTable { shards, hasher: FixedState::with_seed(SEED) }
    }

    fn shard(&self, key: &Key) -> Option<&Mutex<KeyedTable<Key>>> {
        let index = ((u128::from(self.hasher.hash_one(key)) * SHARDS as u128) >> 64) as usize;
        self.shards.get(index)
    }
}

impl<Key> ShardedTable<Key> {
    /// The sum of `measure` over the shards (a poisoned shard counts as empty).
    fn total(&self, measure: impl Fn(&KeyedTable<Key>) -> usize) -> usize {
        self.shards.iter().filter_map(|shard| shard.lock().ok().map(|table| measure(&table))).sum()
    }
}

impl<Key: Eq + Hash + Clone + Send> SharedTable<Key> for ShardedTable<Key> {
    fn probe(&self, key: &Key) -> Option<Bounds> {
        // A shard whose lock was poisoned by a panicking thread answers nothing: a miss is always safe.
        self.shard(key)?.lock().ok()?.probe(key)
    }

    fn store(&self, key: &Key, bounds: Bounds, work: u64) {
        if let Some(mut table) = self.shard(key).and_then(|shard| shard.lock().ok()) {
            table.store(key, bounds, work);
        }
    }
}

impl<Key> TableStorage for ShardedTable<Key> {
    fn clear(&mut self) {
        for shard in &mut self.shards {
            if let Ok(table) = shard.get_mut() {
                table.clear();
            }
        }
    }

    fn occupied(&self) -> usize {
        self.total(TableStorage::occupied)
    }

    fn capacity(&self) -> usize {
        self.total(TableStorage::capacity)
    }

    fn bytes(&self) -> usize {
        self.total(TableStorage::bytes)
    }
}
