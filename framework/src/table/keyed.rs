//! [`KeyedTable`]: a fixed-size, lossy transposition table for any key type, keys compared in full.

use super::{allocate, bucket_count, work_class, Bounds, TableStorage, TranspositionTable};
use crate::Result;
use foldhash::fast::FixedState;
use std::hash::{BuildHasher, Hash};
use std::num::NonZeroU8;

/// The hash seed: fixed, so that bucket placement (and so what a lossy table forgets) is the same every run.
const SEED: u64 = 0x1d0c_5eed;

/// One stored key with its bounds.
#[derive(Clone, Debug)]
struct Entry<Key> {
    key: Key,
    bounds: Bounds,
    /// The [`work_class`] of the search that produced the bounds; never 0, which lets `Option<Entry>` use the
    /// zero as its `None` and keeps entries small.
    work: NonZeroU8,
}

/// Two entries: entry 0 is kept by work done, entry 1 is always replaced (see the [module](super) docs).
type Bucket<Key> = [Option<Entry<Key>>; 2];

/// A fixed-size, lossy transposition table for any key type that can be hashed and compared.
///
/// The bucket of a key comes from a deterministic hash ([`foldhash`] with a fixed seed), reduced to the bucket
/// count by a multiply-shift; keys are then compared in full, so a probe never returns another key's bounds.
/// The budget counts the inline size of the entries only: a key that owns heap memory (a `Vec` key, say)
/// counts for its handle, not for its contents, which the table also keeps alive.
#[derive(Clone, Debug)]
pub struct KeyedTable<Key> {
    buckets: Vec<Bucket<Key>>,
    hasher: FixedState,
    /// The most buckets the budget allows.
    limit: usize,
    /// New keys stored since the last growth (into empty entries or evicting others), kept while the table may
    /// still grow: it grows when they reach three quarters of its entries.
    filled: usize,
}

/// The buckets a growing table starts with.
const FIRST_BUCKETS: usize = 256;

impl<Key: Eq + Hash + Clone> KeyedTable<Key> {
    /// A table that starts small and doubles as it fills, up to `budget_bytes` bytes (but at least one bucket).
    /// If the system refuses memory for a larger table, the table stays at the size it has (it is lossy, so it
    /// only gets slower).
    pub fn new(budget_bytes: usize) -> Self {
        let limit = bucket_count(budget_bytes, size_of::<Bucket<Key>>());
        let first = limit.min(FIRST_BUCKETS);
        let buckets = allocate(first, || [None, None]).unwrap_or_default();
        let limit = if buckets.is_empty() { 0 } else { limit };
        KeyedTable { buckets, hasher: FixedState::with_seed(SEED), limit, filled: 0 }
    }

    /// A table taking at most `budget_bytes` bytes, but at least one bucket, all allocated now. Fails (rather
    /// than abort) if the memory is not available.
    pub fn with_budget(budget_bytes: usize) -> Result<Self> {
        let count = bucket_count(budget_bytes, size_of::<Bucket<Key>>());
        Ok(KeyedTable {
            buckets: allocate(count, || [None, None])?,
            hasher: FixedState::with_seed(SEED),
            limit: count,
            filled: 0,
        })
    }

    /// Doubles the table (within the budget) once three quarters of its entries are filled; keys are placed
    /// again, and a collision in the larger table drops one of them, as any store may.
    fn grow_if_full(&mut self) {
        let capacity = self.buckets.len() * 2;
        if self.buckets.len() >= self.limit || self.filled * 4 < capacity * 3 {
            return;
        }
        let count = (self.buckets.len() * 2).min(self.limit);
        let Ok(larger) = allocate(count, || [None, None]) else {
            // The system has no more memory to give: stay at this size.
            self.limit = self.buckets.len();
            return;
        };
        let old = std::mem::replace(&mut self.buckets, larger);
        self.filled = 0;
        for entry in old.into_iter().flatten().flatten() {
            let index = self.bucket_index(&entry.key);
            let bucket = &mut self.buckets[index];
            let slot = match &bucket[0] {
                None => 0,
                Some(first) if entry.work >= first.work => 0,
                Some(_) => 1,
            };
            self.filled += usize::from(bucket[slot].is_none());
            bucket[slot] = Some(entry);
        }
    }

    /// The index of `key`'s bucket.
    fn bucket_index(&self, key: &Key) -> usize {
        let hash = self.hasher.hash_one(key);
        // Multiply-shift maps the hash onto 0..buckets without a division; the result is below the count.
        ((u128::from(hash) * self.buckets.len() as u128) >> 64) as usize
    }

    /// The slot of `bucket` that holds `key`, if any.
    fn find(bucket: &Bucket<Key>, key: &Key) -> Option<usize> {
        bucket.iter().position(|slot| slot.as_ref().is_some_and(|entry| entry.key == *key))
    }
}

impl<Key: Eq + Hash + Clone> TranspositionTable<Key> for KeyedTable<Key> {
    fn probe(&mut self, key: &Key) -> Option<Bounds> {
        let bucket = self.buckets.get(self.bucket_index(key))?;
        bucket.iter().flatten().find(|entry| entry.key == *key).map(|entry| entry.bounds)
    }

    fn store(&mut self, key: &Key, bounds: Bounds, work: u64) {
        self.grow_if_full();
        let index = self.bucket_index(key);
        let Some(bucket) = self.buckets.get_mut(index) else { return };
        let held = Self::find(bucket, key);
        if bounds == Bounds::UNKNOWN {
            if let Some(slot) = held {
                self.filled = self.filled.saturating_sub(usize::from(bucket[slot].is_some()));
                bucket[slot] = None;
            }
            return;
        }
        let work = NonZeroU8::new(work_class(work)).unwrap_or(NonZeroU8::MIN);
        if let Some(Some(entry)) = held.map(|slot| &mut bucket[slot]) {
            // Updated in place: no need to clone the key again.
            entry.bounds = bounds;
            entry.work = work;
            return;
        }
        let slot = match &bucket[0] {
            Some(first) if work < first.work => 1,
            _ => 0,
        };
        // A new key counts whether it fills an empty entry or evicts another key: either way the table is short
        // of room, and a count of filled entries alone would stall while collisions evict.
        self.filled += 1;
        bucket[slot] = Some(Entry { key: key.clone(), bounds, work });
    }
}

impl<Key> TableStorage for KeyedTable<Key> {
    fn clear(&mut self) {
        self.buckets.fill_with(|| [None, None]);
        self.filled = 0;
    }

    fn occupied(&self) -> usize {
        self.buckets.iter().flatten().filter(|slot| slot.is_some()).count()
    }

    fn capacity(&self) -> usize {
        self.buckets.len() * 2
    }

    fn bytes(&self) -> usize {
        self.buckets.len() * size_of::<Bucket<Key>>()
    }
}
