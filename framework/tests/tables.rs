//! Tests of the transposition tables: stores come back, lossy tables never return another key's bounds, budgets
//! are respected, the replacement scheme keeps expensive entries, and the packed table stays consistent under
//! concurrent use (its bound codes: `table_codes.rs`).

// The helpers shared by the tests unwrap too, not only the test functions.
#![allow(clippy::unwrap_used)]

use ludus_framework::table::{
    mib, work_class, Bounds, KeyedTable, PackedTable, SharedTable, TableStorage, TranspositionTable, UnboundedTable,
    DEFAULT_TABLE_MB, INFINITY, MATE, NEAR_BYTES,
};
use ludus_framework::Error;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::Hash;

/// A win in `remoteness` plies.
fn win(remoteness: i32) -> i32 {
    MATE - remoteness
}

/// A loss in `remoteness` plies.
fn loss(remoteness: i32) -> i32 {
    -(MATE - remoteness)
}

/// A score that every table stores exactly (a quick win or loss, or a draw), chosen by `seed`.
fn score_for(seed: u64) -> i32 {
    let remoteness = (seed / 3 % 200) as i32;
    match seed % 3 {
        0 => 0,
        1 => win(remoteness),
        _ => loss(remoteness),
    }
}

/// Bounds (never unknown) that are a pure function of `seed`: exact, lower only, upper only, or both.
fn bounds_for(seed: u64) -> Bounds {
    let mixed = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (seed >> 29);
    let (first, second) = (score_for(mixed >> 8), score_for(mixed >> 36));
    match mixed % 4 {
        0 => Bounds::exact(first),
        1 => Bounds { lower: first, upper: INFINITY },
        2 => Bounds { lower: -INFINITY, upper: first },
        _ => Bounds { lower: first.min(second), upper: first.max(second) },
    }
}

/// Store, probe, miss and clear on a fresh table.
fn check_basics<Key, Table: TranspositionTable<Key>>(table: &mut Table, first: Key, second: Key) {
    let bounds = Bounds { lower: loss(4), upper: win(7) };
    assert_eq!(table.occupied(), 0);
    assert_eq!(table.probe(&first), None);
    table.store(&first, bounds, 10);
    assert_eq!(table.probe(&first), Some(bounds));
    assert_eq!(table.probe(&second), None);
    assert_eq!(table.occupied(), 1);
    table.store(&first, Bounds::exact(0), 3);
    assert_eq!(table.probe(&first), Some(Bounds::exact(0)));
    assert_eq!(table.occupied(), 1);
    table.store(&second, Bounds::exact(win(1)), 1);
    assert_eq!(table.probe(&second), Some(Bounds::exact(win(1))));
    table.store(&second, Bounds::UNKNOWN, 1);
    assert_eq!(table.probe(&second), None, "storing unknown bounds forgets the key");
    table.clear();
    assert_eq!(table.probe(&first), None);
    assert_eq!(table.occupied(), 0);
}

#[test]
fn stores_come_back_and_clear_forgets() {
    check_basics(&mut KeyedTable::<u64>::with_budget(1024).unwrap(), 17, 18);
    check_basics(&mut KeyedTable::<Vec<u8>>::with_budget(1024).unwrap(), vec![1, 2, 3], vec![1, 2]);
    check_basics(&mut KeyedTable::<String>::with_budget(0).unwrap(), "first".into(), "second".into());
    check_basics(&mut PackedTable::with_budget(1024).unwrap(), 17_u64, 18_u64);
    check_basics(&mut PackedTable::with_budget(16).unwrap(), 0_u64, 1_u64);
    check_basics(&mut PackedTable::with_budget(1024).unwrap(), 5_u32, 69_u32);
    check_basics(&mut UnboundedTable::<u64>::new(), 17, 18);
    check_basics(&mut UnboundedTable::<Vec<u8>>::default(), vec![1], vec![]);
}

/// Stores random keys of `pool` (bounds from the key and a version, sometimes unknown) and checks every probe
/// against a model of the last bounds stored per key. Returns the number of hits among the model's keys.
fn check_against_model<Key, Table>(table: &mut Table, pool: &[Key], seed: u64) -> usize
where
    Key: Clone + Eq + Hash + Debug,
    Table: TranspositionTable<Key>,
{
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut model: HashMap<Key, Bounds> = HashMap::new();
    for version in 0..6000_u64 {
        let key = &pool[rng.gen_range(0..pool.len())];
        let bounds = if rng.gen_ratio(1, 20) { Bounds::UNKNOWN } else { bounds_for(version) };
        table.store(key, bounds, rng.gen_range(0..5000));
        if bounds == Bounds::UNKNOWN {
            model.remove(key);
            assert_eq!(table.probe(key), None);
        } else {
            model.insert(key.clone(), bounds);
            assert_eq!(table.probe(key), Some(bounds), "the key just stored");
        }
        let other = &pool[rng.gen_range(0..pool.len())];
        if let Some(found) = table.probe(other) {
            assert_eq!(Some(&found), model.get(other), "a hit must be the bounds last stored for {other:?}");
        }
    }
    let mut hits = 0;
    for key in pool {
        if let Some(found) = table.probe(key) {
            assert_eq!(Some(&found), model.get(key), "a hit must be the bounds last stored for {key:?}");
            hits += 1;
        }
    }
    assert_eq!(table.occupied(), hits, "every occupied entry is the last store of a distinct key");
    hits
}

/// `count` distinct random keys below `limit`.
fn random_keys(count: usize, limit: u64, seed: u64) -> Vec<u64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut keys: Vec<u64> = (0..count).map(|_| rng.gen_range(0..limit)).collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

#[test]
fn tiny_tables_never_return_another_keys_bounds() {
    let small_keys = random_keys(3000, 1 << 24, 1);
    let wide_keys = random_keys(3000, u64::MAX, 2);
    let vector_keys: Vec<Vec<u8>> = small_keys.iter().map(|key| key.to_le_bytes()[..3].to_vec()).collect();
    for budget in [16, 1024] {
        let hits = check_against_model(&mut KeyedTable::with_budget(budget).unwrap(), &small_keys, 3);
        assert!(hits >= 1 && hits <= KeyedTable::<u64>::with_budget(budget).unwrap().capacity());
        check_against_model(&mut KeyedTable::with_budget(budget).unwrap(), &wide_keys, 4);
        check_against_model(&mut KeyedTable::with_budget(budget).unwrap(), &vector_keys, 5);
        let hits = check_against_model(&mut PackedTable::with_budget(budget).unwrap(), &small_keys, 6);
        assert!(hits >= 1 && hits <= budget / 8);
    }
    // A one-bucket packed table: every key shares the bucket and differs only by its tag.
    check_against_model(&mut PackedTable::with_budget(16).unwrap(), &random_keys(3000, 1 << 32, 7), 8);
    let hits = check_against_model(&mut UnboundedTable::new(), &small_keys, 9);
    assert!(hits > 2000, "the unbounded table forgets nothing but unknown stores, found {hits}");
}

fn is_prime(count: usize) -> bool {
    count >= 2
        && (2..count).take_while(|divisor| divisor * divisor <= count).all(|divisor| !count.is_multiple_of(divisor))
}

#[test]
fn a_table_for_threads_and_their_near_parts_fit_one_budget() {
    for budget in [mib(1), mib(8), mib(9), mib(10), mib(64)] {
        for threads in [1, 2, 4] {
            let table = PackedTable::with_budget_for_threads(budget, threads).unwrap();
            let nears: Vec<PackedTable> = (1..threads).map_while(|_| table.private_near()).collect();
            let total = table.bytes() + nears.iter().map(TableStorage::bytes).sum::<usize>();
            assert!(total <= budget, "{budget} {threads}: {total}");
            // Where the budget leaves an 8 MiB table, every thread past the first has a near part of its own,
            // empty and at most as large as the table's (`NEAR_BYTES`, less what the largest prime leaves).
            let split = budget >= mib(8) + NEAR_BYTES * (threads - 1);
            assert_eq!(nears.len(), if split { threads - 1 } else { 0 }, "{budget} {threads}");
            for near in &nears {
                assert!(near.bytes() <= NEAR_BYTES && near.bytes() > NEAR_BYTES - 16 * 100 && near.occupied() == 0);
            }
        }
    }
    // A table without a near part gives none.
    assert!(PackedTable::with_budget(mib(4)).unwrap().private_near().is_none());
    assert!(KeyedTable::<u64>::new(mib(4)).private_near().is_none());
}

#[test]
fn tables_fit_their_budget() {
    let keyed_bucket = KeyedTable::<u64>::with_budget(0).unwrap().bytes();
    let vector_bucket = KeyedTable::<Vec<u8>>::with_budget(0).unwrap().bytes();
    assert_eq!(keyed_bucket, 48, "two entries of a u64 key, two bounds and a work class");
    for budget in [0, 1, 15, 16, 17, 31, 32, 47, 48, 49, 100, 1000, 1024, 4096, 65_537, mib(1)] {
        let packed = PackedTable::with_budget(budget).unwrap();
        let fit = (budget / 16).max(1);
        // The packed table's bucket count is the largest prime that fits (or 1).
        let buckets = (1..=fit).rev().find(|&count| is_prime(count)).unwrap_or(1);
        assert_eq!((packed.capacity(), packed.bytes()), (2 * buckets, 16 * buckets));
        assert!(packed.bytes() <= budget.max(16));
        assert!(fit < 2 || fit - buckets < 200, "a prime close below {fit}");
        for bucket in [keyed_bucket, vector_bucket] {
            let buckets = (budget / bucket).max(1);
            let (capacity, bytes) = if bucket == keyed_bucket {
                let table = KeyedTable::<u64>::with_budget(budget).unwrap();
                (table.capacity(), table.bytes())
            } else {
                let table = KeyedTable::<Vec<u8>>::with_budget(budget).unwrap();
                (table.capacity(), table.bytes())
            };
            assert_eq!((capacity, bytes), (2 * buckets, bucket * buckets));
            assert!(bytes <= budget.max(bucket), "{bytes} bytes for a budget of {budget}");
            assert!(bytes + bucket > budget, "the budget is used: {bytes} bytes for {budget}");
        }
    }
    let default = PackedTable::with_budget(mib(DEFAULT_TABLE_MB)).unwrap();
    assert!(default.bytes() <= 64 << 20 && default.bytes() > (64 << 20) - 16 * 200, "{}", default.bytes());
    assert_eq!(default.occupied(), 0);
    assert_eq!(UnboundedTable::<u64>::new().capacity(), usize::MAX);
}

/// The near part of a packed table seen as a table of its own (probes and stores through the `_near` methods),
/// counting the entries of its near part alone or, where near keys also go far, of both parts.
struct NearPart<'table> {
    table: &'table mut PackedTable,
    both_parts: bool,
}

impl TableStorage for NearPart<'_> {
    fn clear(&mut self) {
        self.table.clear();
    }

    fn occupied(&self) -> usize {
        if self.both_parts {
            self.table.occupied()
        } else {
            self.table.occupied_near()
        }
    }

    fn capacity(&self) -> usize {
        self.table.capacity()
    }

    fn bytes(&self) -> usize {
        self.table.bytes()
    }
}

impl TranspositionTable<u64> for NearPart<'_> {
    fn probe(&mut self, key: &u64) -> Option<Bounds> {
        TranspositionTable::probe_near(self.table, key)
    }

    fn store(&mut self, key: &u64, bounds: Bounds, work: u64) {
        TranspositionTable::store_near(self.table, key, bounds, work);
    }
}

#[test]
fn near_and_far_parts_keep_apart_and_share_the_budget() {
    let mut table = PackedTable::with_parts(1 << 16, 1 << 10).unwrap();
    assert!(table.bytes() <= 1 << 16 && table.bytes() > (1 << 16) - 16 * 200, "{}", table.bytes());
    let bounds = Bounds { lower: loss(6), upper: win(9) };
    TranspositionTable::store_near(&mut table, &77_u64, bounds, 40);
    TranspositionTable::store(&mut table, &78_u64, Bounds::exact(0), 40);
    assert_eq!(TranspositionTable::probe_near(&mut table, &77_u64), Some(bounds));
    assert_eq!(TranspositionTable::probe(&mut table, &77_u64), None, "a key stored near is not far");
    assert_eq!(TranspositionTable::probe(&mut table, &78_u64), Some(Bounds::exact(0)));
    assert_eq!(TranspositionTable::probe_near(&mut table, &78_u64), None, "a key stored far is not near");
    assert_eq!((table.occupied(), table.occupied_near()), (2, 1));
    // A prefetch, of a key held or not, in either part and beyond the tags a part can hold, changes nothing.
    for key in [77_u64, 78, 79, u64::MAX] {
        for near in [false, true] {
            TranspositionTable::prefetch(&table, &key, near);
            SharedTable::prefetch(&table, &key, near);
        }
    }
    assert_eq!(TranspositionTable::probe_near(&mut table, &77_u64), Some(bounds));
    assert_eq!(TranspositionTable::probe(&mut table, &78_u64), Some(Bounds::exact(0)));
    assert_eq!((table.occupied(), table.occupied_near()), (2, 1));
    table.clear();
    assert_eq!(table.occupied(), 0);
    // The near part is a lossy table of its own: never another key's bounds, even when it is one bucket.
    for near_bytes in [16, 1 << 10] {
        let mut table = PackedTable::with_parts(1 << 16, near_bytes).unwrap();
        check_against_model(
            &mut NearPart { table: &mut table, both_parts: false },
            &random_keys(3000, 1 << 24, 11),
            12,
        );
        assert_eq!(table.occupied() - table.occupied_near(), 0, "nothing went to the far part");
    }
    // `with_budget` splits from 8 MiB on, with a near part of `NEAR_BYTES`; below, near is far.
    let split = PackedTable::with_budget(mib(8)).unwrap();
    assert!(split.bytes() <= mib(8));
    split.store_near(&5_u64, Bounds::exact(0), 1);
    assert_eq!((split.probe(&5_u64), split.probe_near(&5_u64)), (None, Some(Bounds::exact(0))));
    let whole = PackedTable::with_budget(mib(4)).unwrap();
    whole.store_near(&5_u64, Bounds::exact(0), 1);
    assert_eq!((whole.probe(&5_u64), whole.occupied_near()), (Some(Bounds::exact(0)), 0));
    assert!(NEAR_BYTES <= mib(2));
}

#[test]
fn a_near_key_past_the_near_parts_tags_is_kept_far() {
    // The near part has 61 buckets (keys below 61 * 2^32, about 2^37.9), the far part about 4,000 (2^43.9).
    let mut table = PackedTable::with_parts(1 << 16, 1 << 10).unwrap();
    let (small, large, huge) = (1_u64 << 30, 1_u64 << 40, 1_u64 << 60);
    assert!(table.can_hold(&large) && !table.can_hold(&huge) && SharedTable::can_hold(&table, &small));
    let bounds = Bounds { lower: loss(8), upper: 0 };
    for key in [small, large, huge] {
        TranspositionTable::store_near(&mut table, &key, bounds, 3);
    }
    assert_eq!(TranspositionTable::probe_near(&mut table, &small), Some(bounds));
    assert_eq!(TranspositionTable::probe(&mut table, &small), None, "a key the near part holds stays near");
    // The large key is found where it was stored: in the far part, through either method.
    assert_eq!(TranspositionTable::probe_near(&mut table, &large), Some(bounds));
    assert_eq!(TranspositionTable::probe(&mut table, &large), Some(bounds));
    // A key no part can hold is never stored (a miss, never another key's bounds).
    assert_eq!(TranspositionTable::probe_near(&mut table, &huge), None);
    assert_eq!((table.occupied(), table.occupied_near()), (2, 1));
    for key in [small, large, huge] {
        TranspositionTable::prefetch(&table, &key, true);
        TranspositionTable::store_near(&mut table, &key, Bounds::UNKNOWN, 3);
        assert_eq!(TranspositionTable::probe_near(&mut table, &key), None, "forgotten where it was kept");
    }
    assert_eq!(table.occupied(), 0);
    // Many keys on both sides of the near part's range: every hit is the key's last store.
    let pool = random_keys(3000, 1 << 42, 21);
    assert!(pool.iter().any(|key| *key >> 38 == 0) && pool.iter().any(|key| *key >> 38 != 0));
    check_against_model(&mut NearPart { table: &mut table, both_parts: true }, &pool, 22);
    // A thread's own near part (as large as the near part) cannot hold the large key: Lazy SMP keeps it shared.
    let own = table.private_near().unwrap();
    assert!(SharedTable::can_hold(&own, &small) && !SharedTable::can_hold(&own, &large));
}

#[test]
fn a_wide_near_part_holds_near_keys_past_standard_tags() {
    // The near part has 61 buckets: standard tags hold keys below 61 * 2^32 (about 2^37.9), wide ones below
    // 61 * 2^40 (about 2^45.9); the far part, about 4,000 buckets of standard tags, below about 2^43.9.
    let table = PackedTable::with_parts(1 << 16, 1 << 10).unwrap().with_wide_near().unwrap();
    let (large, larger, huge) = (1_u64 << 40, (1_u64 << 40) * 61 - 1, (1_u64 << 40) * 61);
    let bounds = Bounds { lower: win(9), upper: win(3) };
    for key in [large, larger, huge] {
        table.store_near(&key, bounds, 3);
    }
    // The two keys of wide tags are near (not far); the next one goes far, which cannot hold it either.
    assert_eq!((table.occupied_near(), table.occupied()), (2, 2));
    assert_eq!(
        (table.probe_near(&large), table.probe_near(&larger), table.probe(&large)),
        (Some(bounds), Some(bounds), None)
    );
    assert_eq!(table.probe_near(&huge), None);
    // Many keys on both sides of the standard tags' range: every hit is the key's last store.
    let mut table = table;
    let pool = random_keys(3000, 1 << 45, 23);
    assert!(pool.iter().any(|key| *key >> 38 == 0) && pool.iter().any(|key| *key >> 38 != 0));
    check_against_model(&mut NearPart { table: &mut table, both_parts: false }, &pool, 24);
    // A thread's own near part is wide too.
    let own = table.private_near().unwrap();
    SharedTable::store(&own, &larger, bounds, 3);
    assert_eq!(SharedTable::probe(&own, &larger), Some(bounds));
    assert!(SharedTable::can_hold(&own, &larger) && own.capacity() == 2 * 61);
    // The standard near part cannot hold them: they go far (the default) instead.
    let standard = PackedTable::with_parts(1 << 16, 1 << 10).unwrap();
    standard.store_near(&large, bounds, 3);
    assert_eq!((standard.occupied_near(), standard.probe(&large)), (0, Some(bounds)));
}

#[test]
fn impossible_budgets_are_errors_not_aborts() {
    assert_eq!(mib(usize::MAX), usize::MAX);
    assert_eq!(mib(3), 3 << 20);
    for budget in [usize::MAX, 1 << 62] {
        for result in [PackedTable::with_budget(budget).map(|_| ()), KeyedTable::<u64>::with_budget(budget).map(|_| ())]
        {
            match result {
                Err(error @ Error::Allocation { .. }) => assert!(
                    error.remedies().contains(&ludus_framework::Remedy::Lower(ludus_framework::Setting::TableMb)),
                    "{error}"
                ),
                other => panic!("a budget of {budget} bytes gave {other:?}"),
            }
        }
    }
}

#[test]
fn packed_keys_beyond_32_bit_tags_are_skipped() {
    let table = PackedTable::with_budget(1024).unwrap();
    // 1 KiB holds 64 buckets; the count is the largest prime that fits.
    let buckets = 61_u64;
    assert_eq!(table.capacity() as u64, 2 * buckets);
    let largest_storable = (1 << 32) * buckets - 1;
    // Two keys of bucket 5 (the bucket of the first unstorable key below) and one of bucket 60.
    let neighbours = [5 + buckets, (1 << 32) * buckets - buckets + 5, 60];
    for (number, key) in neighbours.iter().enumerate() {
        // Decreasing work, so the second key of bucket 5 goes to entry 1 rather than replace the first.
        table.store(key, bounds_for(number as u64), 1 << (20 - number));
    }
    for key in [(1 << 32) * buckets + 5, u64::MAX - 1, u64::MAX] {
        table.store(&key, Bounds::exact(win(3)), u64::MAX);
        assert_eq!(table.probe(&key), None);
    }
    for (number, key) in neighbours.iter().enumerate() {
        assert_eq!(table.probe(key), Some(bounds_for(number as u64)), "key {key} was disturbed");
    }
    table.store(&largest_storable, Bounds::exact(loss(2)), 1);
    assert_eq!(table.probe(&largest_storable), Some(Bounds::exact(loss(2))));
}

/// In a one-bucket table: expensive entries survive cheap stores, the latest cheap store is kept, a store for a
/// held key updates its own entry, and a more expensive store takes entry 0.
fn check_replacement<Table: TranspositionTable<u64>>(mut table: Table) {
    assert_eq!(table.capacity(), 2);
    let expensive = Bounds::exact(win(9));
    table.store(&1_000_000, expensive, 1 << 40);
    for key in 0..2000 {
        table.store(&key, bounds_for(key), key % 1000 + 1);
        assert_eq!(table.probe(&1_000_000), Some(expensive));
        assert_eq!(table.probe(&key), Some(bounds_for(key)));
        if key > 0 {
            assert_eq!(table.probe(&(key - 1)), None);
        }
    }
    // The cheap key now held updates in place, even with more work than the expensive one.
    table.store(&1999, Bounds::exact(0), 1 << 50);
    assert_eq!(table.probe(&1999), Some(Bounds::exact(0)));
    assert_eq!(table.probe(&1_000_000), Some(expensive));
    // Work in the same class counts as "at least": a new key takes entry 0.
    table.store(&5, Bounds::exact(loss(0)), (1 << 40) + 1);
    assert_eq!(table.probe(&5), Some(Bounds::exact(loss(0))));
    assert_eq!(table.probe(&1_000_000), None);
    assert_eq!(table.probe(&1999), Some(Bounds::exact(0)));
    assert_eq!(table.occupied(), 2);
}

#[test]
fn expensive_entries_survive_cheap_ones() {
    check_replacement(KeyedTable::with_budget(0).unwrap());
    check_replacement(PackedTable::with_budget(16).unwrap());
}

#[test]
fn work_classes_are_logarithmic() {
    assert_eq!(work_class(0), 1);
    assert_eq!(work_class(1), 1);
    assert_eq!(work_class(2), 2);
    assert_eq!(work_class(3), 2);
    assert_eq!(work_class(4), 3);
    assert_eq!(work_class(1 << 40), 41);
    assert_eq!(work_class((1 << 41) - 1), 41);
    assert_eq!(work_class(1 << 62), 63);
    assert_eq!(work_class(u64::MAX), 63);
}

#[test]
fn bounds_intersect() {
    let lower = Bounds { lower: loss(4), upper: INFINITY };
    let upper = Bounds { lower: -INFINITY, upper: win(5) };
    assert_eq!(lower.intersect(upper), Bounds { lower: loss(4), upper: win(5) });
    assert_eq!(Bounds::UNKNOWN.intersect(Bounds::exact(0)), Bounds::exact(0));
    assert!(Bounds::exact(win(2)).is_exact() && !lower.is_exact());
    assert!(win(1) > win(2) && win(4094) > 0 && 0 > loss(4094) && loss(2) > loss(1) && loss(0) > -INFINITY);
}

/// Stores and probes random keys from several threads; each key's bounds are a pure function of the key, so any
/// hit must equal them.
fn hammer(table: &(impl SharedTable<u64> + ?Sized), threads: u64) {
    std::thread::scope(|scope| {
        for thread in 0..threads {
            scope.spawn(move || {
                let mut rng = ChaCha8Rng::seed_from_u64(100 + thread);
                let mut hits = 0;
                for _ in 0..50_000 {
                    let key = rng.gen_range(0..4096_u64);
                    if rng.gen_bool(0.5) {
                        table.store(&key, bounds_for(key), rng.gen_range(1..1 << 20));
                    } else if let Some(found) = table.probe(&key) {
                        assert_eq!(found, bounds_for(key), "key {key}");
                        hits += 1;
                    }
                }
                assert!(hits > 0);
            });
        }
    });
    assert!(table.occupied() > 0 && table.occupied() <= table.capacity());
    assert!(table.bytes() <= 1024);
}

#[test]
fn shared_packed_table_never_mixes_entries() {
    hammer(&PackedTable::with_budget(1024).unwrap(), 4);
    hammer(&PackedTable::with_budget(16).unwrap(), 3);
    let shared: &dyn SharedTable<u64> = &PackedTable::with_budget(256).unwrap();
    hammer(shared, 2);
}

#[test]
fn a_growing_keyed_table_grows_even_when_collisions_evict() {
    // Two-entry buckets evict long before they are all full: growth must count new keys, not filled entries, or
    // it would stall at its first size (512 entries) whatever the budget.
    let mut table = KeyedTable::<u64>::new(mib(4));
    for key in 0..10_000u64 {
        table.store(&key, Bounds::exact(win(3)), 1);
    }
    assert!(table.occupied() > 3_000, "{} of 10,000 keys kept (a stalled table keeps at most 512)", table.occupied());
    assert!(table.bytes() <= mib(4));
}
