//! What a database stores: [`Record`], a value in 16 bits, and [`RecordKey`], a canonical key as a fixed-width
//! unsigned integer (sorted in the files, delta-coded within a block).

use crate::value::Value;
use std::fmt::Debug;
use std::hash::Hash;

/// The largest remoteness a [`Record`] holds (14 bits); a solve that needs more cannot be stored.
pub const MAX_STORED_REMOTENESS: u32 = (1 << 14) - 1;

/// The kind bits (the two high bits of a record).
const KIND_SHIFT: u32 = 14;
const WIN: u16 = 1;
const LOSE: u16 = 2;
const DRAW: u16 = 3;

/// The largest magnitude of a score a [`Record`] holds.
pub const MAX_STORED_SCORE: i32 = (1 << 13) - 1;

/// A value in 16 bits: the kind (win, loss, draw) in the two high bits, the remoteness in the 14 low ones.
/// The word 0 is no value (it never appears in a valid file). Kind 0 with other low bits is a scored game's
/// score `s` (`|s| <= MAX_STORED_SCORE`), stored as `s + 2^13` in the 14 low bits (from 1 up, so never 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record(u16);

impl Record {
    /// `value` as a record, or `None` if its remoteness is above [`MAX_STORED_REMOTENESS`].
    pub fn from_value(value: Value) -> Option<Record> {
        let (kind, remoteness) = match value {
            Value::Win(remoteness) => (WIN, remoteness),
            Value::Lose(remoteness) => (LOSE, remoteness),
            Value::Draw => (DRAW, 0),
        };
        let remoteness = u16::try_from(remoteness).ok().filter(|&r| u32::from(r) <= MAX_STORED_REMOTENESS)?;
        Some(Record(kind << KIND_SHIFT | remoteness))
    }

    /// A scored game's score as a record, or `None` if its magnitude is above [`MAX_STORED_SCORE`].
    pub fn from_score(score: i32) -> Option<Record> {
        (score.abs() <= MAX_STORED_SCORE).then(|| Record((score + (1 << 13)) as u16))
    }

    /// The score, for a record of a scored game (kind 0); `None` for a win/loss/draw record.
    pub fn score(self) -> Option<i32> {
        (self.0 >> KIND_SHIFT == 0 && self.0 != 0).then(|| i32::from(self.0) - (1 << 13))
    }

    /// The value, or `None` for a word that is no record (0, or a draw with a remoteness), and for a score.
    pub fn value(self) -> Option<Value> {
        let remoteness = u32::from(self.0) & MAX_STORED_REMOTENESS;
        match self.0 >> KIND_SHIFT {
            WIN => Some(Value::Win(remoteness)),
            LOSE => Some(Value::Lose(remoteness)),
            DRAW if remoteness == 0 => Some(Value::Draw),
            _ => None,
        }
    }

    /// The 16 bits as stored.
    pub fn bits(self) -> u16 {
        self.0
    }

    /// A record from its stored bits (`None` if they are no record): a value or a score.
    pub fn from_bits(bits: u16) -> Option<Record> {
        let record = Record(bits);
        (record.value().is_some() || record.score().is_some()).then_some(record)
    }
}

/// A canonical key that a database can store: an unsigned integer of at most 128 bits.
///
/// Why an integer: a tier file sorts its keys and writes each block's keys as the gaps between neighbours
/// (LEB128), and a query finds a block by its first key; that needs a total order and a difference, which a
/// fixed-width integer gives at no cost. A game whose natural key is wider than 128 bits ranks its positions
/// within each tier ([`crate::engines::retrograde::Rank`]), or encodes its key in 128 bits without collisions
/// (a hash would not do: a database must rebuild the position from its key).
///
/// Contract: `from_wide(to_wide(key)) == Some(key)`, and the order of keys is the order of their wide forms.
pub trait RecordKey: Copy + Ord + Eq + Hash + Debug + Send + Sync + 'static {
    /// The key widened to 128 bits.
    fn to_wide(self) -> u128;

    /// The key of a wide form, or `None` if it does not fit.
    fn from_wide(wide: u128) -> Option<Self>;
}

macro_rules! record_key {
    ($($integer:ty),*) => {$(
        impl RecordKey for $integer {
            fn to_wide(self) -> u128 {
                u128::from(self)
            }

            fn from_wide(wide: u128) -> Option<Self> {
                <$integer>::try_from(wide).ok()
            }
        }
    )*};
}

record_key!(u8, u16, u32, u64, u128);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_that_fits_round_trips_and_the_rest_is_refused() {
        for remoteness in [0, 1, 2, 100, MAX_STORED_REMOTENESS] {
            for value in [Value::Win(remoteness), Value::Lose(remoteness), Value::Draw] {
                let record = Record::from_value(value).unwrap();
                assert_eq!(record.value(), Some(value));
                assert_eq!(Record::from_bits(record.bits()), Some(record));
            }
        }
        assert_eq!(Record::from_value(Value::Win(MAX_STORED_REMOTENESS + 1)), None);
        assert_eq!(Record::from_bits(0), None);
        // A draw with a remoteness is no record.
        assert_eq!(Record::from_bits(3 << 14 | 5), None);
    }

    #[test]
    fn scores_round_trip_and_are_no_values() {
        for score in [-MAX_STORED_SCORE, -36, -1, 0, 1, 72, MAX_STORED_SCORE] {
            let record = Record::from_score(score).unwrap();
            assert_eq!((record.score(), record.value()), (Some(score), None));
            assert_eq!(Record::from_bits(record.bits()), Some(record));
        }
        assert_eq!(Record::from_score(MAX_STORED_SCORE + 1), None);
        assert_eq!(Record::from_value(Value::Win(3)).unwrap().score(), None);
    }

    #[test]
    fn keys_widen_and_narrow() {
        assert_eq!(u32::from_wide(7u32.to_wide()), Some(7));
        assert_eq!(u32::from_wide(1 << 40), None);
        assert_eq!(u128::from_wide(u128::MAX), Some(u128::MAX));
    }
}
