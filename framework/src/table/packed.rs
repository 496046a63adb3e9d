//! [`PackedTable`]: a compact, lock-free transposition table for `u64` keys, one 64-bit word per entry.

use super::layout::Layout;
use super::region::{Region, BUCKET_BYTES};
use super::{bucket_count, mib, Bounds, SharedTable, TableStorage, TranspositionTable};
use crate::Result;

/// The size of the near part of a table made by [`PackedTable::with_budget`]: a core's second-level cache on the
/// machines measured (BENCHMARKS.md: 1 MiB searched Connect Four 6-11% faster than 2 MiB). Its tags fit for keys
/// below about 2^48.
pub const NEAR_BYTES: usize = mib(1);
/// The smallest budget that [`PackedTable::with_budget`] splits into a near and a far part: below it the whole
/// table is near enough.
const SPLIT_BUDGET: usize = mib(8);

/// A fixed-size, lossy, lock-free transposition table for keys that are (or convert losslessly into) a `u64`.
///
/// # Layout
///
/// The table has one or two parts (a near and a far part, see [`PackedTable::with_parts`]), each of
/// `buckets = max(1, its bytes / 16)` buckets (the largest prime that fits) of two 64-bit words, one entry per
/// word. Within a part, the key `k`
/// lives in bucket `k % buckets` and its entry stores only the tag `k / buckets`: the bucket index implies the
/// remainder, so tag and index together are the whole key and the comparison is exact. An entry word holds the
/// tag (high 32 bits), the lower-bound code (13 bits), the upper-bound code (13 bits) and the
/// [`work_class`](super::work_class) (6 bits, at least 1, so an entry is never the word 0, which marks an empty
/// entry).
///
/// A key whose tag does not fit in 32 bits (`k >= 2^32 * buckets`) is never stored (its probes miss): correct,
/// only slower. With a 64 MiB table (2^22 buckets) every key below 2^54 is storable, and with the 1 MiB near
/// part (2^16 buckets) nearly every key below 2^48; a near key past the near part's tags goes to the far part
/// (the part is a function of the key, so it is found where it was stored). A near part of wide entries
/// ([`PackedTable::with_wide_near`]) divides its words otherwise: a 40-bit tag, 11-bit bound codes and a 2-bit
/// work class, so that its range reaches `2^40` times its buckets. Connect Four 7x6 keys are below
/// 2^49, and one of 2^48 or more has both outer columns full (the key is the smaller of a position's and its
/// mirror image's encodings), which few positions of a search have; on 9 x 5 (keys below 2^54) every
/// position with stones in both outer columns is such a key.
///
/// # Bound codes
///
/// A 13-bit code per bound, in the order of scores: 0 is `-INFINITY`; `1 + r` is a loss in `r` plies for
/// `r <= LONGEST_LOSS` (4094); 4096 is a draw; `8190 - r` is a win in `r` plies for `r <= LONGEST_WIN` (4093);
/// 8191 is `INFINITY`. A score without a code is rounded so that the bound stays true: a lower bound down (a
/// slower loss to a loss in [`LONGEST_LOSS`](Self::LONGEST_LOSS), a slower win to a draw), an upper bound up (a
/// slower loss to a draw, a slower win to a win in [`LONGEST_WIN`](Self::LONGEST_WIN)). So a probe may return
/// wider bounds than were stored, never narrower ones; and as rounding only widens, unequal or unrepresentable
/// bounds never come back exact.
///
/// # Concurrency
///
/// Every access is a relaxed atomic load or store of one whole word: a reader sees an entry as it was before or
/// after a write, never a mix. Two threads storing into the same bucket at once may lose one of their entries,
/// which the lossy contract allows.
///
/// The type implements both [`TranspositionTable`] and [`SharedTable`]; its inherent methods (the same names)
/// spare callers the choice.
#[derive(Debug)]
pub struct PackedTable {
    /// The far part: most of the budget, for the positions whose searches cost the most.
    far: Region,
    /// The near part, if the table has one: a small region that stays in the cache, for positions whose
    /// searches are cheap (see [`TranspositionTable::probe_near`]).
    near: Option<Region>,
    /// The most buckets the budget allows the far part (a growing table doubles up to it).
    limit: usize,
    /// Entries filled through [`TranspositionTable::store`] (which alone may grow the table), plus the stores
    /// refused there because a key needs more buckets: both call for a larger table.
    filled: usize,
}

/// The buckets a growing table starts with (a prime).
const FIRST_BUCKETS: usize = 4093;

impl PackedTable {
    /// The slowest loss stored exactly, in plies (even, like the remoteness of a loss in normal play).
    pub const LONGEST_LOSS: i32 = Layout::STANDARD.longest_loss();
    /// The slowest win stored exactly, in plies (odd, like the remoteness of a win in normal play).
    pub const LONGEST_WIN: i32 = Layout::STANDARD.longest_win();
    /// The slowest loss a wide near part ([`PackedTable::with_wide_near`]) stores exactly, in plies.
    pub const LONGEST_WIDE_LOSS: i32 = Layout::WIDE_TAGS.longest_loss();
    /// The slowest win a wide near part stores exactly, in plies.
    pub const LONGEST_WIDE_WIN: i32 = Layout::WIDE_TAGS.longest_win();

    /// A table taking at most `budget_bytes` bytes, but at least one bucket (16 bytes), all allocated now (as
    /// threads sharing it need). A budget of at least 8 MiB is split into a near part of [`NEAR_BYTES`] and a
    /// far part of the rest (see [`PackedTable::with_parts`]); a smaller one is one part. Fails (rather than
    /// abort) if the memory is not available.
    pub fn with_budget(budget_bytes: usize) -> Result<Self> {
        let near_bytes = if budget_bytes >= SPLIT_BUDGET { NEAR_BYTES } else { 0 };
        Self::with_parts(budget_bytes, near_bytes)
    }

    /// A table taking at most `budget_bytes` bytes, all allocated now, of which `near_bytes` (at most half the
    /// budget; 0 for none) form the near part: a small part that stays in the processor's caches, which the
    /// engines use for positions whose searches are cheap ([`TranspositionTable::probe_near`]), so that the
    /// many probes near the leaves do not each wait for main memory while the far part keeps the costly results.
    /// Each part has the largest prime number of buckets that fits. Fails (rather than abort) if the memory is
    /// not available.
    pub fn with_parts(budget_bytes: usize, near_bytes: usize) -> Result<Self> {
        let near_bytes = near_bytes.min(budget_bytes / 2);
        let near = if near_bytes >= BUCKET_BYTES {
            Some(Region::new(largest_prime_at_most(bucket_count(near_bytes, BUCKET_BYTES)), Layout::STANDARD)?)
        } else {
            None
        };
        let far_bytes = budget_bytes - near.as_ref().map_or(0, Region::bytes);
        let buckets = largest_prime_at_most(bucket_count(far_bytes, BUCKET_BYTES));
        Ok(PackedTable { far: Region::new(buckets, Layout::STANDARD)?, near, limit: buckets, filled: 0 })
    }

    /// A table for a search on `threads` threads that keeps, with the near parts of its own that each thread
    /// past the first gets ([`TableStorage::private_near`]), within `budget_bytes` in all: the table of
    /// [`PackedTable::with_budget`] for the budget less those near parts, or one part of the whole budget where
    /// that leaves too little to split (the threads then have no near parts of their own).
    pub fn with_budget_for_threads(budget_bytes: usize, threads: usize) -> Result<Self> {
        let shared = budget_bytes.saturating_sub(NEAR_BYTES.saturating_mul(threads.saturating_sub(1)));
        if shared >= SPLIT_BUDGET {
            Self::with_budget(shared)
        } else {
            Self::with_parts(budget_bytes, 0)
        }
    }

    /// A table of the same budget, in one part, that starts small and, as one engine fills it through
    /// [`TranspositionTable::store`], doubles up to the budget: a search that needs little memory takes little
    /// (and a run of many small searches does not clear a large table each time). Fails (rather than abort) if
    /// even the small table cannot be allocated; past that, a refused larger table leaves it at its size.
    pub fn new(budget_bytes: usize) -> Result<Self> {
        let limit = largest_prime_at_most(bucket_count(budget_bytes, BUCKET_BYTES));
        let buckets = largest_prime_at_most(limit.min(FIRST_BUCKETS));
        Ok(PackedTable { far: Region::new(buckets, Layout::STANDARD)?, near: None, limit, filled: 0 })
    }

    /// The same table with a near part of wide entries (if it has a near part): 40-bit tags, so that it holds
    /// every key below `2^40` times its buckets (`2^56` for [`NEAR_BYTES`], against about `2^48` with the
    /// standard 32-bit tags), at the price of 11-bit bound codes (wins of up to 1,021 plies and losses of up to
    /// 1,022 exact, longer ones rounded outwards like any score without a code) and work classes of 1 to 3 for
    /// its replacement. For win/loss/draw searches whose keys pass the standard near part's range and whose
    /// positions near the leaves end within those plies (Connect Four 9 x 5: keys below `2^54`, at most 45
    /// plies); not for [`crate::engines::scored`], whose stored scores lie past them. The threads' own near
    /// parts ([`TableStorage::private_near`]) take the same layout. Fails if the new near part cannot be
    /// allocated.
    pub fn with_wide_near(mut self) -> Result<Self> {
        // The old near part goes before the new one is made: memory stays within the budget.
        if let Some(buckets) = self.near.take().map(|near| near.buckets()) {
            self.near = Some(Region::new(buckets, Layout::WIDE_TAGS)?);
        }
        Ok(self)
    }

    /// Doubles the far part (within the budget) once three quarters of its entries are filled: every entry is
    /// placed again by its whole key, recovered from its tag and bucket.
    fn grow_if_full(&mut self) {
        let buckets = self.far.buckets();
        if buckets >= self.limit || self.filled * 4 < self.far.capacity() * 3 {
            return;
        }
        let count = largest_prime_at_most((buckets * 2).min(self.limit));
        let Ok(larger) = Region::new(count, self.far.layout()) else {
            // The system has no more memory to give: stay at this size.
            self.limit = buckets;
            return;
        };
        let old = std::mem::replace(&mut self.far, larger);
        self.filled = old.drain().map(|(key, payload)| usize::from(self.far.put(key, payload))).sum();
    }

    /// The bounds stored for `key` in the far part, if the table still holds them (possibly widened, see the
    /// type docs).
    #[inline]
    pub fn probe<Key: Copy + Into<u64>>(&self, key: &Key) -> Option<Bounds> {
        self.far.find_bounds((*key).into())
    }

    /// The bounds stored for `key` in the near part (the far part if there is none, or if the near part's tags
    /// cannot hold the key).
    #[inline]
    pub fn probe_near<Key: Copy + Into<u64>>(&self, key: &Key) -> Option<Bounds> {
        let key = (*key).into();
        self.near_part(key).find_bounds(key)
    }

    /// The part that keeps `key`'s near entries: the near part if there is one and it can hold the key, else
    /// the far part, whose larger range of keys holds a key past the near part's tags (on a board of more
    /// cells, say).
    #[inline]
    fn near_part(&self, key: u64) -> &Region {
        match &self.near {
            Some(near) if near.can_hold(key) => near,
            _ => &self.far,
        }
    }

    /// Whether the far part's tags can hold `key` (see the type docs): only then are its entries kept.
    #[inline]
    pub fn can_hold<Key: Copy + Into<u64>>(&self, key: &Key) -> bool {
        self.far.can_hold((*key).into())
    }

    /// Brings `key`'s bucket of the near part (if `near` and there is one) or of the far part towards the
    /// processor's caches, ahead of a probe or a store (see [`TranspositionTable::prefetch`]).
    #[inline]
    pub fn prefetch_at<Key: Copy + Into<u64>>(&self, key: &Key, near: bool) {
        let key = (*key).into();
        let region = if near { self.near_part(key) } else { &self.far };
        region.prefetch(key);
    }

    /// Stores `bounds` for `key` in the far part by the replacement scheme (see the [module](super) docs);
    /// `work` is the number of positions its search visited. Storing [`Bounds::UNKNOWN`] forgets the key; a key
    /// whose tag does not fit in 32 bits is not stored.
    pub fn store<Key: Copy + Into<u64>>(&self, key: &Key, bounds: Bounds, work: u64) {
        Self::store_in(&self.far, (*key).into(), bounds, work);
    }

    /// Stores `bounds` for `key` in the near part (the far part if there is none, or if the near part's tags
    /// cannot hold the key).
    pub fn store_near<Key: Copy + Into<u64>>(&self, key: &Key, bounds: Bounds, work: u64) {
        let key = (*key).into();
        Self::store_in(self.near_part(key), key, bounds, work);
    }

    /// Stores (or forgets, for [`Bounds::UNKNOWN`]) `bounds` for `key` in `region`.
    fn store_in(region: &Region, key: u64, bounds: Bounds, work: u64) {
        if bounds == Bounds::UNKNOWN {
            region.forget(key);
        } else {
            region.put(key, region.layout().encode(bounds, work));
        }
    }

    /// Forgets everything. Safe while other threads use the table (it may then keep some of their stores).
    pub fn clear(&self) {
        self.far.clear();
        if let Some(near) = &self.near {
            near.clear();
        }
    }

    /// The number of occupied entries (scans the whole table: call it rarely).
    pub fn occupied(&self) -> usize {
        self.far.occupied() + self.near.as_ref().map_or(0, Region::occupied)
    }

    /// The number of occupied entries of the near part (0 if there is none; scans it).
    pub fn occupied_near(&self) -> usize {
        self.near.as_ref().map_or(0, Region::occupied)
    }

    /// The number of entries the table can hold.
    pub fn capacity(&self) -> usize {
        self.far.capacity() + self.near.as_ref().map_or(0, Region::capacity)
    }

    /// The memory the table's storage takes, in bytes.
    pub fn bytes(&self) -> usize {
        self.far.bytes() + self.near.as_ref().map_or(0, Region::bytes)
    }
}

/// The largest prime at most `count` (or `count` itself below 2). Keys of board games are far from uniform in
/// their low bits (a Connect Four key's low bits are its first columns), so the bucket index `key % buckets`
/// spreads them only when the bucket count shares no factor with the patterns: a prime, as in Pons' solver.
fn largest_prime_at_most(count: usize) -> usize {
    let is_prime = |candidate: usize| {
        candidate >= 2
            && (2..)
                .take_while(|divisor| divisor * divisor <= candidate)
                .all(|divisor| !candidate.is_multiple_of(divisor))
    };
    (2..=count).rev().find(|&candidate| is_prime(candidate)).unwrap_or(count)
}

impl TableStorage for PackedTable {
    fn clear(&mut self) {
        PackedTable::clear(self);
        self.filled = 0;
    }

    fn occupied(&self) -> usize {
        PackedTable::occupied(self)
    }

    fn capacity(&self) -> usize {
        PackedTable::capacity(self)
    }

    fn bytes(&self) -> usize {
        PackedTable::bytes(self)
    }

    /// A table of one part as large as the near part, with its layout of entries.
    fn private_near(&self) -> Option<Self> {
        let near = self.near.as_ref()?;
        let buckets = near.buckets();
        let far = Region::new(buckets, near.layout()).ok()?;
        Some(PackedTable { far, near: None, limit: buckets, filled: 0 })
    }
}

impl<Key: Copy + Into<u64>> TranspositionTable<Key> for PackedTable {
    fn probe(&mut self, key: &Key) -> Option<Bounds> {
        PackedTable::probe(self, key)
    }

    fn store(&mut self, key: &Key, bounds: Bounds, work: u64) {
        let key = (*key).into();
        if bounds == Bounds::UNKNOWN {
            self.far.forget(key);
            return;
        }
        self.grow_if_full();
        self.filled += usize::from(self.far.put(key, self.far.layout().encode(bounds, work)));
    }

    fn probe_near(&mut self, key: &Key) -> Option<Bounds> {
        PackedTable::probe_near(self, key)
    }

    fn store_near(&mut self, key: &Key, bounds: Bounds, work: u64) {
        if self.near.is_some() {
            PackedTable::store_near(self, key, bounds, work);
        } else {
            TranspositionTable::store(self, key, bounds, work);
        }
    }

    #[inline]
    fn prefetch(&self, key: &Key, near: bool) {
        PackedTable::prefetch_at(self, key, near);
    }
}

impl<Key: Copy + Into<u64>> SharedTable<Key> for PackedTable {
    fn probe(&self, key: &Key) -> Option<Bounds> {
        PackedTable::probe(self, key)
    }

    fn store(&self, key: &Key, bounds: Bounds, work: u64) {
        PackedTable::store(self, key, bounds, work);
    }

    fn probe_near(&self, key: &Key) -> Option<Bounds> {
        PackedTable::probe_near(self, key)
    }

    fn store_near(&self, key: &Key, bounds: Bounds, work: u64) {
        PackedTable::store_near(self, key, bounds, work);
    }

    #[inline]
    fn prefetch(&self, key: &Key, near: bool) {
        PackedTable::prefetch_at(self, key, near);
    }

    #[inline]
    fn can_hold(&self, key: &Key) -> bool {
        PackedTable::can_hold(self, key)
    }
}
