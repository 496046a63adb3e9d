//! Tests of the packed table's bound codes, in both layouts of its entries (the standard one and a wide near
//! part's): every representable score comes back exact, and any other rounds outwards, never inwards.

// The helpers shared by the tests unwrap too, not only the test functions.
#![allow(clippy::unwrap_used)]

use ludus_framework::table::{Bounds, PackedTable, INFINITY, MATE};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A win in `remoteness` plies.
fn win(remoteness: i32) -> i32 {
    MATE - remoteness
}

/// A loss in `remoteness` plies.
fn loss(remoteness: i32) -> i32 {
    -(MATE - remoteness)
}

/// The entries of a packed table: the standard ones, or those of a wide near part.
#[derive(Clone, Copy, Debug)]
enum Entries {
    Standard,
    WideNear,
}

impl Entries {
    /// The slowest loss and the slowest win its codes hold.
    fn longest(self) -> (i32, i32) {
        match self {
            Entries::Standard => (PackedTable::LONGEST_LOSS, PackedTable::LONGEST_WIN),
            Entries::WideNear => (PackedTable::LONGEST_WIDE_LOSS, PackedTable::LONGEST_WIDE_WIN),
        }
    }
}

/// The bounds a packed table's `entries` give back for `bounds`.
fn packed_round_trip(entries: Entries, bounds: Bounds) -> Bounds {
    match entries {
        Entries::Standard => {
            let table = PackedTable::with_budget(16).unwrap();
            table.store(&7_u64, bounds, 1);
            table.probe(&7_u64).unwrap()
        }
        Entries::WideNear => {
            let table = PackedTable::with_parts(64, 16).unwrap().with_wide_near().unwrap();
            table.store_near(&7_u64, bounds, 1);
            assert_eq!(table.occupied_near(), 1);
            table.probe_near(&7_u64).unwrap()
        }
    }
}

#[test]
fn packed_codes_are_exact_where_representable() {
    assert_eq!(PackedTable::LONGEST_LOSS + PackedTable::LONGEST_WIN + 5, 8192, "every 13-bit code is used");
    assert_eq!(PackedTable::LONGEST_WIDE_LOSS + PackedTable::LONGEST_WIDE_WIN + 5, 2048, "every 11-bit code");
    for entries in [Entries::Standard, Entries::WideNear] {
        let (slowest_loss, slowest_win) = entries.longest();
        let mut representable = vec![-INFINITY, 0, INFINITY];
        representable.extend((0..=slowest_loss).map(loss));
        representable.extend((0..=slowest_win).map(win));
        for &score in &representable {
            assert_eq!(packed_round_trip(entries, Bounds::exact(score)), Bounds::exact(score), "{entries:?}");
            if score != -INFINITY {
                let lower = Bounds { lower: score, upper: INFINITY };
                assert_eq!(packed_round_trip(entries, lower), lower);
            }
            if score != INFINITY {
                let upper = Bounds { lower: -INFINITY, upper: score };
                assert_eq!(packed_round_trip(entries, upper), upper);
            }
        }
    }
}

#[test]
fn packed_codes_round_outwards() {
    for entries in [Entries::Standard, Entries::WideNear] {
        check_rounding(entries);
    }
}

fn check_rounding(entries: Entries) {
    let (slowest_loss, slowest_win) = entries.longest();
    let packed_round_trip = |bounds| packed_round_trip(entries, bounds);
    // Unrepresentable scores round to the nearest representable one in the safe direction.
    for remoteness in [slowest_loss + 1, slowest_loss + 2, 100_000, MATE - 1] {
        let rounded = packed_round_trip(Bounds::exact(loss(remoteness)));
        assert_eq!(rounded, Bounds { lower: loss(slowest_loss), upper: 0 });
    }
    for remoteness in [slowest_win + 1, slowest_win + 2, 100_000, MATE - 1] {
        let rounded = packed_round_trip(Bounds::exact(win(remoteness)));
        assert_eq!(rounded, Bounds { lower: 0, upper: win(slowest_win) });
    }
    // Random bounds, representable or not: the result contains the original, and is exact only if it was.
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let random_score = |rng: &mut ChaCha8Rng| match rng.gen_range(0..6) {
        0 => 0,
        1 => win(rng.gen_range(0..5000)),
        2 => loss(rng.gen_range(0..5000)),
        3 => win(rng.gen_range(0..MATE)),
        4 => loss(rng.gen_range(0..MATE)),
        _ => [-INFINITY, INFINITY][rng.gen_range(0..2)],
    };
    for _ in 0..20_000 {
        let (first, second) = (random_score(&mut rng), random_score(&mut rng));
        let original = Bounds { lower: first.min(second), upper: first.max(second) };
        if original == Bounds::UNKNOWN {
            continue;
        }
        let rounded = packed_round_trip(original);
        assert!(rounded.lower <= original.lower && rounded.upper >= original.upper, "{original:?} -> {rounded:?}");
        if rounded.is_exact() {
            assert_eq!(rounded, original, "exactness is never invented");
        }
        let representable = |score: i32| {
            score.abs() >= INFINITY
                || score == 0
                || (score < 0 && MATE + score <= slowest_loss)
                || (score > 0 && MATE - score <= slowest_win)
        };
        if representable(original.lower) && representable(original.upper) {
            assert_eq!(rounded, original);
        }
    }
}
