//! [`PackedTable`]: a compact, lock-free transposition table for `u64` keys, one 64-bit word per entry.

use super::{
    allocate, bucket_count, work_class, Bounds, SharedTable, TableStorage, TranspositionTable, INFINITY, MATE,
};
use crate::Result;
use std::sync::atomic::{AtomicU64, Ordering};

/// The bytes of a bucket: two one-word entries.
const BUCKET_BYTES: usize = 16;

/// The code of `-INFINITY` (the codes of scores follow in the order of scores).
const CODE_NO_LOWER: u64 = 0;
/// The code of a draw; loss codes lie below it, win codes above.
const CODE_DRAW: u64 = 4096;
/// The code of the slowest win stored exactly.
const CODE_SLOWEST_WIN: u64 = CODE_DRAW + 1;
/// The code of a win in 0 plies: a win in `r` plies has the code `CODE_QUICKEST_WIN - r`.
const CODE_QUICKEST_WIN: u64 = 8190;
/// The code of `INFINITY`, the largest 13-bit code.
const CODE_NO_UPPER: u64 = 8191;

/// Where the fields of an entry word start (tag: bits 32..64; lower code: 19..32; upper code: 6..19; work: 0..6).
const TAG_SHIFT: u32 = 32;
const LOWER_SHIFT: u32 = 19;
const UPPER_SHIFT: u32 = 6;
const CODE_MASK: u64 = (1 << 13) - 1;
const WORK_MASK: u64 = (1 << 6) - 1;
/// The bits below the tag.
const PAYLOAD_MASK: u64 = (1 << TAG_SHIFT) - 1;

/// Which way a score without a code is rounded: a lower bound may only go down, an upper bound only up.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Round {
    Down,
    Up,
}

/// A fixed-size, lossy, lock-free transposition table for keys that are (or convert losslessly into) a `u64`.
///
/// # Layout
///
/// The table has `buckets = max(1, budget / 16)` buckets of two 64-bit words, one entry per word. The key `k`
/// lives in bucket `k % buckets` and its entry stores only the tag `k / buckets`: the bucket index implies the
/// remainder, so tag and index together are the whole key and the comparison is exact. An entry word holds the
/// tag (high 32 bits), the lower-bound code (13 bits), the upper-bound code (13 bits) and the [`work_class`]
/// (6 bits, at least 1, so an entry is never the word 0, which marks an empty entry).
///
/// A key whose tag does not fit in 32 bits (`k >= 2^32 * buckets`) is never stored (its probes miss): correct,
/// only slower. With a 64 MiB table (2^22 buckets) every key below 2^54 is storable; Connect Four 7x6 keys are
/// below 2^49.
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
    /// Two consecutive words per bucket.
    words: Vec<AtomicU64>,
    /// The number of buckets, as the divisor of keys.
    buckets: u64,
    /// The most buckets the budget allows (a growing table doubles up to it).
    limit: usize,
    /// Entries filled through [`TranspositionTable::store`] (which alone may grow the table), plus the stores
    /// refused there because a key needs more buckets: both call for a larger table.
    filled: usize,
}

/// The buckets a growing table starts with (a prime).
const FIRST_BUCKETS: usize = 4093;

impl PackedTable {
    /// The slowest loss stored exactly, in plies (even, like the remoteness of a loss in normal play).
    pub const LONGEST_LOSS: i32 = 4094;
    /// The slowest win stored exactly, in plies (odd, like the remoteness of a win in normal play).
    pub const LONGEST_WIN: i32 = 4093;

    /// A table taking at most `budget_bytes` bytes, but at least one bucket (16 bytes), all allocated now (as
    /// threads sharing it need); the number of buckets is the largest prime that fits. Fails (rather than
    /// abort) if the memory is not available.
    pub fn with_budget(budget_bytes: usize) -> Result<Self> {
        let buckets = largest_prime_at_most(bucket_count(budget_bytes, BUCKET_BYTES));
        let words = allocate(buckets * 2, || AtomicU64::new(0))?;
        Ok(PackedTable { words, buckets: buckets as u64, limit: buckets, filled: 0 })
    }

    /// A table of the same budget that starts small and, as one engine fills it through
    /// [`TranspositionTable::store`], doubles up to the budget: a search that needs little memory takes little
    /// (and a run of many small searches does not clear a large table each time). Fails (rather than abort) if
    /// even the small table cannot be allocated; past that, a refused larger table leaves it at its size.
    pub fn new(budget_bytes: usize) -> Result<Self> {
        let limit = largest_prime_at_most(bucket_count(budget_bytes, BUCKET_BYTES));
        let buckets = largest_prime_at_most(limit.min(FIRST_BUCKETS));
        let words = allocate(buckets * 2, || AtomicU64::new(0))?;
        Ok(PackedTable { words, buckets: buckets as u64, limit, filled: 0 })
    }

    /// Doubles the table (within the budget) once three quarters of its entries are filled: every entry is
    /// placed again by its whole key, recovered from its tag and bucket.
    fn grow_if_full(&mut self) {
        let buckets = self.words.len() / 2;
        if buckets >= self.limit || self.filled * 4 < self.words.len() * 3 {
            return;
        }
        let count = largest_prime_at_most((buckets * 2).min(self.limit));
        let Ok(larger) = allocate(count * 2, || AtomicU64::new(0)) else {
            // The system has no more memory to give: stay at this size.
            self.limit = buckets;
            return;
        };
        let old = std::mem::replace(&mut self.words, larger);
        let old_buckets = std::mem::replace(&mut self.buckets, count as u64);
        self.filled = 0;
        for (position, word) in old.into_iter().enumerate() {
            let word = word.into_inner();
            if word == 0 {
                continue;
            }
            let key = (word >> TAG_SHIFT) * old_buckets + (position / 2) as u64;
            self.filled += usize::from(self.put(key, word & PAYLOAD_MASK));
        }
    }

    /// The bounds stored for `key`, if the table still holds them (possibly widened, see the type docs).
    pub fn probe<Key: Copy + Into<u64>>(&self, key: &Key) -> Option<Bounds> {
        let (index, tag) = self.locate((*key).into())?;
        let pair = &self.words[2 * index..2 * index + 2];
        pair.iter().map(|word| word.load(Ordering::Relaxed)).find(|&word| holds(word, tag)).map(decode_bounds)
    }

    /// Stores `bounds` for `key` by the replacement scheme (see the [module](super) docs); `work` is the number
    /// of positions its search visited. Storing [`Bounds::UNKNOWN`] forgets the key; a key whose tag does not
    /// fit in 32 bits is not stored.
    pub fn store<Key: Copy + Into<u64>>(&self, key: &Key, bounds: Bounds, work: u64) {
        let key = (*key).into();
        if bounds == Bounds::UNKNOWN {
            self.forget(key);
        } else {
            self.put(key, encode_payload(bounds, work_class(work)));
        }
    }

    /// Forgets `key`.
    fn forget(&self, key: u64) {
        let Some((index, tag)) = self.locate(key) else { return };
        for word in &self.words[2 * index..2 * index + 2] {
            if holds(word.load(Ordering::Relaxed), tag) {
                word.store(0, Ordering::Relaxed);
            }
        }
    }

    /// Writes the entry `payload` (bounds and work class) for `key` by the replacement scheme; whether it went
    /// into an empty entry, or found no room at all (its tag is too large for this many buckets): either way
    /// a sign that a growing table should grow.
    fn put(&self, key: u64, payload: u64) -> bool {
        let Some((index, tag)) = self.locate(key) else {
            return true;
        };
        let [first, second] = [&self.words[2 * index], &self.words[2 * index + 1]];
        let [first_word, second_word] = [first.load(Ordering::Relaxed), second.load(Ordering::Relaxed)];
        let (slot, old) = if holds(first_word, tag) {
            (first, first_word)
        } else if holds(second_word, tag) {
            (second, second_word)
        } else if first_word == 0 || payload & WORK_MASK >= first_word & WORK_MASK {
            (first, first_word)
        } else {
            (second, second_word)
        };
        slot.store(u64::from(tag) << TAG_SHIFT | payload, Ordering::Relaxed);
        old == 0
    }

    /// Forgets everything. Safe while other threads use the table (it may then keep some of their stores).
    pub fn clear(&self) {
        for word in &self.words {
            word.store(0, Ordering::Relaxed);
        }
    }

    /// The number of occupied entries (scans the whole table: call it rarely).
    pub fn occupied(&self) -> usize {
        self.words.iter().filter(|word| word.load(Ordering::Relaxed) != 0).count()
    }

    /// The number of entries the table can hold.
    pub fn capacity(&self) -> usize {
        self.words.len()
    }

    /// The memory the table's storage takes, in bytes.
    pub fn bytes(&self) -> usize {
        self.words.len() * size_of::<AtomicU64>()
    }

    /// The bucket index and tag of a key, or `None` if its tag does not fit in 32 bits.
    fn locate(&self, key: u64) -> Option<(usize, u32)> {
        let tag = u32::try_from(key / self.buckets).ok()?;
        // The remainder is below the bucket count, which is a `usize`.
        Some(((key % self.buckets) as usize, tag))
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

/// Whether `word` is a (non-empty) entry with this tag.
fn holds(word: u64, tag: u32) -> bool {
    word != 0 && word >> TAG_SHIFT == u64::from(tag)
}

/// The low half of an entry word: bounds (rounded outwards) and work class.
fn encode_payload(bounds: Bounds, class: u8) -> u64 {
    encode_score(bounds.lower, Round::Down) << LOWER_SHIFT
        | encode_score(bounds.upper, Round::Up) << UPPER_SHIFT
        | u64::from(class) & WORK_MASK
}

/// The bounds of an entry word.
fn decode_bounds(word: u64) -> Bounds {
    Bounds {
        lower: decode_score(word >> LOWER_SHIFT & CODE_MASK),
        upper: decode_score(word >> UPPER_SHIFT & CODE_MASK),
    }
}

/// The code of a score, rounded in the given direction if the score has no code of its own.
fn encode_score(score: i32, round: Round) -> u64 {
    if score <= -INFINITY {
        CODE_NO_LOWER
    } else if score >= INFINITY {
        CODE_NO_UPPER
    } else if score == 0 {
        CODE_DRAW
    } else if score < 0 {
        // A loss in `remoteness` plies, 0 <= remoteness < MATE.
        let remoteness = MATE + score;
        if remoteness <= PackedTable::LONGEST_LOSS {
            1 + remoteness as u64
        } else if round == Round::Down {
            1 + PackedTable::LONGEST_LOSS as u64
        } else {
            CODE_DRAW
        }
    } else {
        // A win in `remoteness` plies, 0 <= remoteness < MATE.
        let remoteness = MATE - score;
        if remoteness <= PackedTable::LONGEST_WIN {
            CODE_QUICKEST_WIN - remoteness as u64
        } else if round == Round::Down {
            CODE_DRAW
        } else {
            CODE_SLOWEST_WIN
        }
    }
}

/// The score of a code (any 13-bit value).
fn decode_score(code: u64) -> i32 {
    match code {
        CODE_NO_LOWER => -INFINITY,
        CODE_DRAW => 0,
        // A loss in `code - 1` plies; the code is below 4096, so the cast is exact.
        1..CODE_DRAW => -(MATE - (code - 1) as i32),
        // A win in `8190 - code` plies.
        CODE_SLOWEST_WIN..=CODE_QUICKEST_WIN => MATE - (CODE_QUICKEST_WIN - code) as i32,
        _ => INFINITY,
    }
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
}

impl<Key: Copy + Into<u64>> TranspositionTable<Key> for PackedTable {
    fn probe(&mut self, key: &Key) -> Option<Bounds> {
        PackedTable::probe(self, key)
    }

    fn store(&mut self, key: &Key, bounds: Bounds, work: u64) {
        let key = (*key).into();
        if bounds == Bounds::UNKNOWN {
            self.forget(key);
            return;
        }
        self.grow_if_full();
        self.filled += usize::from(self.put(key, encode_payload(bounds, work_class(work))));
    }
}

impl<Key: Copy + Into<u64>> SharedTable<Key> for PackedTable {
    fn probe(&self, key: &Key) -> Option<Bounds> {
        PackedTable::probe(self, key)
    }

    fn store(&self, key: &Key, bounds: Bounds, work: u64) {
        PackedTable::store(self, key, bounds, work);
    }
}
