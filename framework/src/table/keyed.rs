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
    ///
    /// The room for the whole budget is reserved now but not touched, so the system gives it pages only as the
    /// table grows into it: a small game pays for the buckets it fills, and a growth moves entries within the
    /// one allocation instead of holding an old and a new table at once (which took up to twice the budget).
    /// If the system refuses the room, a smaller one is asked for; the table then stays within what it got (it
    /// is lossy, so it only gets slower).
    pub fn new(budget_bytes: usize) -> Self {
        let mut limit = bucket_count(budget_bytes, size_of::<Bucket<Key>>());
        let mut buckets = Vec::new();
        while buckets.try_reserve_exact(limit).is_err() {
            if limit <= FIRST_BUCKETS {
                limit = 0;
                break;
            }
            limit /= 2;
        }
        crate::huge_pages::advise(buckets.spare_capacity_mut());
        buckets.extend(std::iter::repeat_with(|| [None, None]).take(limit.min(FIRST_BUCKETS)));
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
    ///
    /// The table grows in place, within the room [`KeyedTable::new`] reserved: a key's bucket in the larger
    /// table is at or after its bucket now (multiply-shift keeps the order of hashes), so the buckets are
    /// emptied from the last one down, each into places already emptied. The entries meet in each new bucket
    /// in the order of their old buckets, as if they were copied one by one into a new table.
    fn grow_if_full(&mut self) {
        let capacity = self.buckets.len() * 2;
        if self.buckets.len() >= self.limit || self.filled * 4 < capacity * 3 {
            return;
        }
        let old = self.buckets.len();
        let count = (old * 2).min(self.limit);
        // Only a clone (whose vector has no spare room) reallocates here.
        if self.buckets.try_reserve_exact(count - old).is_err() {
            // The system has no more memory to give: stay at this size.
            self.limit = old;
            return;
        }
        self.buckets.resize_with(count, || [None, None]);
        self.filled = 0;
        // The entries of the bucket after the one being emptied that go to its first place in the larger table,
        // held back until the bucket being emptied has put its own there first.
        let mut waiting: Option<(usize, Bucket<Key>)> = None;
        for source in (0..old).rev() {
            let entries = std::mem::take(&mut self.buckets[source]);
            // The lowest bucket of the larger table that a key of this bucket can go to, the only one it may share
            // with the bucket before.
            let first_place = (source as u128 * count as u128 / old as u128) as usize;
            let mut held: Bucket<Key> = [None, None];
            for (slot, entry) in entries.into_iter().enumerate() {
                let Some(entry) = entry else { continue };
                let index = self.bucket_index(&entry.key);
                if index == first_place && source > 0 {
                    held[slot] = Some(entry);
                } else {
                    self.place(index, entry);
                }
            }
            if let Some((index, entries)) = waiting.take() {
                for entry in entries.into_iter().flatten() {
                    self.place(index, entry);
                }
            }
            if held.iter().any(Option::is_some) {
                waiting = Some((first_place, held));
            }
        }
    }

    /// Puts `entry` into bucket `index` of a table being grown: entry 0 unless it holds more work.
    fn place(&mut self, index: usize, entry: Entry<Key>) {
        let Some(bucket) = self.buckets.get_mut(index) else { return };
        let slot = match &bucket[0] {
            None => 0,
            Some(first) if entry.work >= first.work => 0,
            Some(_) => 1,
        };
        self.filled += usize::from(bucket[slot].is_none());
        bucket[slot] = Some(entry);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What a table holds, bucket by bucket: keys with their bounds and work classes.
    type Contents = Vec<[Option<(u64, Bounds, u8)>; 2]>;

    fn contents(table: &KeyedTable<u64>) -> Contents {
        let view = |slot: &Option<Entry<u64>>| slot.as_ref().map(|entry| (entry.key, entry.bounds, entry.work.get()));
        table.buckets.iter().map(|bucket| [view(&bucket[0]), view(&bucket[1])]).collect()
    }

    /// The growth by copy into a new table, which the growth in place must equal entry for entry.
    fn grown_by_copy(table: &KeyedTable<u64>, count: usize) -> (Contents, usize) {
        let mut copy = KeyedTable { buckets: vec![[None, None]; count], limit: count, filled: 0, ..table.clone() };
        for entry in table.buckets.iter().flatten().flatten() {
            copy.place(copy.bucket_index(&entry.key), entry.clone());
        }
        (contents(&copy), copy.filled)
    }

    #[test]
    fn growing_in_place_places_every_entry_as_a_copy_would() {
        // A simple generator, so that the test needs no crate.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for (old, limit) in [(256, 512), (256, 300), (256, 257), (1000, 1999), (4096, 8192), (512, 777)] {
            let bucket = size_of::<Bucket<u64>>();
            let mut table = KeyedTable::<u64>::new(limit * bucket);
            table.buckets.resize_with(old, || [None, None]);
            for index in 0..old * 3 {
                let key = next();
                let bounds = Bounds::exact((index % 100) as i32);
                let place = table.bucket_index(&key);
                table.place(place, Entry { key, bounds, work: NonZeroU8::new((next() % 5 + 1) as u8).unwrap() });
            }
            let (expected, filled) = grown_by_copy(&table, (old * 2).min(limit));
            table.filled = old * 2;
            table.grow_if_full();
            assert_eq!(table.buckets.len(), (old * 2).min(limit));
            assert_eq!(contents(&table), expected, "{old} buckets grown to at most {limit}");
            assert_eq!(table.filled, filled);
        }
    }
}
