//! How the bounds of an integer score are kept in the tables of [`crate::table`], whose scale is made for
//! win/loss values (`MATE - remoteness`): a score `m` is stored as the value whose table code is `4096 + m`, a
//! one-to-one and order-keeping map of `-4094..=4093` into the codes of [`PackedTable`], so every table (the
//! packed one too) keeps such bounds exactly. A bound beyond that range is widened (a lower bound above 4093
//! is kept as 4093, one below -4094 as none; an upper bound likewise): a table may always forget, never lie.

use crate::table::{PackedTable, INFINITY, MATE};

/// The highest score a table keeps exactly.
pub(crate) const STORED_HIGHEST: i32 = PackedTable::LONGEST_WIN;
/// The lowest score a table keeps exactly.
pub(crate) const STORED_LOWEST: i32 = -PackedTable::LONGEST_LOSS;

/// The table's form of a score within `STORED_LOWEST..=STORED_HIGHEST`.
fn encode(score: i32) -> i32 {
    match score {
        0 => 0,
        positive if positive > 0 => MATE - (PackedTable::LONGEST_WIN + 1 - positive),
        negative => -(MATE - (PackedTable::LONGEST_LOSS + 1 + negative)),
    }
}

/// A lower bound of a score in the table's form (kept true: widened downwards when out of range).
pub(crate) fn lower_to_table(score: i32) -> i32 {
    if score < STORED_LOWEST {
        -INFINITY
    } else {
        encode(score.min(STORED_HIGHEST))
    }
}

/// An upper bound of a score in the table's form (kept true: widened upwards when out of range).
pub(crate) fn upper_to_table(score: i32) -> i32 {
    if score > STORED_HIGHEST {
        INFINITY
    } else {
        encode(score.max(STORED_LOWEST))
    }
}

/// A score from the table's form; the missing bounds `±INFINITY` stay as they are.
pub(crate) fn from_table(stored: i32) -> i32 {
    match stored {
        0 => 0,
        _ if stored.abs() >= INFINITY => stored,
        positive if positive > 0 => positive - (MATE - PackedTable::LONGEST_WIN - 1),
        negative => -((-negative) - (MATE - PackedTable::LONGEST_LOSS - 1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Bounds, TranspositionTable};

    #[test]
    fn stored_scores_come_back_exact_and_in_order() {
        let mut table = PackedTable::with_budget(1 << 16).unwrap_or_else(|error| panic!("{error}"));
        let mut previous = -INFINITY;
        for score in STORED_LOWEST..=STORED_HIGHEST {
            let stored = lower_to_table(score);
            assert!(stored > previous, "the map keeps the order at {score}");
            previous = stored;
            assert_eq!(from_table(stored), score);
            let key = u64::try_from(score - STORED_LOWEST).unwrap_or(0);
            TranspositionTable::store(&mut table, &key, Bounds::exact(stored), 1);
            let back = TranspositionTable::probe(&mut table, &key).map(|bounds| from_table(bounds.lower));
            assert!(back.is_none() || back == Some(score), "{score}: {back:?}");
        }
    }

    #[test]
    fn bounds_out_of_range_are_widened() {
        assert_eq!(from_table(lower_to_table(5000)), STORED_HIGHEST);
        assert_eq!(lower_to_table(-5000), -INFINITY);
        assert_eq!(upper_to_table(5000), INFINITY);
        assert_eq!(from_table(upper_to_table(-5000)), STORED_LOWEST);
    }
}
