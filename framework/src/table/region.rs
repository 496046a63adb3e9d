//! [`Region`]: the storage of a [`super::PackedTable`] part: buckets of two one-word entries, the key's bucket and
//! tag by division by a prime, and the two-entry replacement scheme, on words that threads may share.

use super::layout::Layout;
use super::Bounds;
use crate::error::{Remedy, Setting};
use crate::{Error, Result};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The bytes of a bucket: two one-word entries.
pub(super) const BUCKET_BYTES: usize = 16;

/// Buckets of two entry words. An entry word is the key's tag (the quotient of the key by the bucket count) in
/// its high bits and a payload (bounds and work class, never 0 as a whole) below, as its [`Layout`] divides
/// them; the word 0 is an empty entry.
#[derive(Debug)]
pub(super) struct Region {
    /// Two consecutive words per bucket.
    words: Box<[AtomicU64]>,
    /// The number of buckets, as the divisor of keys.
    buckets: u64,
    /// The keys below this one have tags that fit in the layout's tag bits (`u64::MAX`: every key).
    storable: u64,
    /// The division of its words.
    layout: Layout,
    /// Whether anything was ever stored since the region was made or cleared: counting the entries of a region
    /// never written is then free (a scan would touch, page by page, memory the search never used).
    written: AtomicBool,
}

impl Region {
    /// `buckets` empty buckets (at least one) of words divided by `layout`, or an error if the memory is not
    /// available.
    pub(super) fn new(buckets: usize, layout: Layout) -> Result<Self> {
        let buckets = buckets.max(1);
        // Zeroed memory straight from the allocator: the system hands out zero pages as they are first touched,
        // so a large table costs nothing until it is used (no page is written to clear it).
        let words =
            bytemuck::allocation::try_zeroed_slice_box::<AtomicU64>(buckets * 2).map_err(|()| Error::Allocation {
                what: "a transposition table",
                megabytes: (buckets * 2 * size_of::<AtomicU64>()).div_ceil(1 << 20) as u64,
                remedies: vec![Remedy::Lower(Setting::TableMb)],
            })?;
        crate::huge_pages::advise(&words);
        let storable = (buckets as u64).saturating_mul(1 << layout.tag_bits());
        Ok(Region { words, buckets: buckets as u64, storable, layout, written: AtomicBool::new(false) })
    }

    /// The division of its words.
    #[inline]
    pub(super) fn layout(&self) -> Layout {
        self.layout
    }

    /// The number of buckets.
    pub(super) fn buckets(&self) -> usize {
        self.words.len() / 2
    }

    /// The number of entries.
    pub(super) fn capacity(&self) -> usize {
        self.words.len()
    }

    /// The bytes of its words.
    pub(super) fn bytes(&self) -> usize {
        self.words.len() * size_of::<AtomicU64>()
    }

    /// Whether `key`'s tag fits in the layout's tag bits: only then can the region hold it.
    #[inline]
    pub(super) fn can_hold(&self, key: u64) -> bool {
        key < self.storable || self.storable == u64::MAX
    }

    /// The bucket index and tag of a key, or `None` if its tag does not fit in the layout's tag bits.
    #[inline]
    fn locate(&self, key: u64) -> Option<(usize, u64)> {
        if !self.can_hold(key) {
            return None;
        }
        // The remainder is below the bucket count, which is a `usize`.
        Some(((key % self.buckets) as usize, key / self.buckets))
    }

    /// Whether `word` is a (non-empty) entry with this tag.
    #[inline]
    fn holds(&self, word: u64, tag: u64) -> bool {
        word != 0 && word >> self.layout.tag_shift() == tag
    }

    /// The entry word held for `key`, if any.
    #[inline]
    pub(super) fn find(&self, key: u64) -> Option<u64> {
        let (index, tag) = self.locate(key)?;
        let pair = &self.words[2 * index..2 * index + 2];
        pair.iter().map(|word| word.load(Ordering::Relaxed)).find(|&word| self.holds(word, tag))
    }

    /// The bounds held for `key`, if any.
    #[inline]
    pub(super) fn find_bounds(&self, key: u64) -> Option<Bounds> {
        self.find(key).map(|word| self.layout.decode(word))
    }

    /// Asks the processor to bring `key`'s bucket into its caches, so that a probe soon after does not wait for
    /// main memory (a hint: it changes no entry and has no effect where the processor has no such hint).
    #[inline]
    pub(super) fn prefetch(&self, key: u64) {
        // The remainder is below the bucket count, which is a `usize`.
        let index = (key % self.buckets) as usize;
        if let Some(word) = self.words.get(2 * index) {
            crate::prefetch::prefetch(word);
        }
    }

    /// Forgets `key`.
    pub(super) fn forget(&self, key: u64) {
        let Some((index, tag)) = self.locate(key) else { return };
        for word in &self.words[2 * index..2 * index + 2] {
            if self.holds(word.load(Ordering::Relaxed), tag) {
                word.store(0, Ordering::Relaxed);
            }
        }
    }

    /// Writes the entry `payload` (bounds and work class) for `key` by the replacement scheme (see the
    /// [module](super) docs); whether it went into an empty entry, or found no room at all (its tag is too
    /// large for this many buckets): either way a sign that a growing table should grow.
    pub(super) fn put(&self, key: u64, payload: u64) -> bool {
        let Some((index, tag)) = self.locate(key) else {
            return true;
        };
        let [first, second] = [&self.words[2 * index], &self.words[2 * index + 1]];
        let [first_word, second_word] = [first.load(Ordering::Relaxed), second.load(Ordering::Relaxed)];
        let work = self.layout.work_mask();
        let (slot, old) = if self.holds(first_word, tag) {
            (first, first_word)
        } else if self.holds(second_word, tag) {
            (second, second_word)
        } else if first_word == 0 || payload & work >= first_word & work {
            (first, first_word)
        } else {
            (second, second_word)
        };
        slot.store(tag << self.layout.tag_shift() | payload, Ordering::Relaxed);
        // Read first: once it is set, a store writes no shared flag.
        if !self.written.load(Ordering::Relaxed) {
            self.written.store(true, Ordering::Relaxed);
        }
        old == 0
    }

    /// Forgets everything. Safe while other threads use the region (it may then keep some of their stores).
    pub(super) fn clear(&self) {
        for word in &self.words {
            word.store(0, Ordering::Relaxed);
        }
        // After the words: a store racing with the clearing can only make `occupied` count too few (it is a
        // statistic), never leave an entry that a later clear skips.
        self.written.store(false, Ordering::Relaxed);
    }

    /// The number of occupied entries (scans the whole region, unless nothing was ever stored in it).
    pub(super) fn occupied(&self) -> usize {
        if !self.written.load(Ordering::Relaxed) {
            return 0;
        }
        self.words.iter().filter(|word| word.load(Ordering::Relaxed) != 0).count()
    }

    /// Every entry, by whole key and payload, emptying the region (for moving them into a larger one).
    pub(super) fn drain(self) -> impl Iterator<Item = (u64, u64)> {
        let (buckets, shift) = (self.buckets, self.layout.tag_shift());
        let payload = (1 << shift) - 1;
        self.words.into_vec().into_iter().enumerate().filter_map(move |(position, word)| {
            let word = word.into_inner();
            (word != 0).then(|| ((word >> shift) * buckets + (position / 2) as u64, word & payload))
        })
    }
}
