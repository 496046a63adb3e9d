//! What a retrograde solve returns: [`PackedValue`] (a value in 32 bits) and [`TierSolution`] (the value of every
//! position of one tier, queried by canonical key or by position).

use crate::game::Canonicalize;
use crate::value::Value;
use hashbrown::HashMap;

/// The hasher of the engine's indexes: foldhash with a fixed seed, so that a solve does the same work each run.
pub(super) type Hasher = foldhash::fast::FixedState;

/// The largest remoteness a [`PackedValue`] holds (30 bits); a solve that would need more is refused.
pub const MAX_REMOTENESS: u32 = (1 << 30) - 1;

/// The kind bits of a packed value (the two high bits).
const KIND_SHIFT: u32 = 30;
pub(super) const WIN: u32 = 1;
pub(super) const LOSE: u32 = 2;
pub(super) const DRAW: u32 = 3;

/// A [`Value`] in 32 bits: the kind (win, loss, draw) in the two high bits, the remoteness in the 30 low bits.
/// The word 0 means "no value yet" (an undecided position during a solve).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct PackedValue(pub(super) u32);

impl PackedValue {
    /// No value yet.
    pub(super) const NONE: PackedValue = PackedValue(0);

    /// A value of `kind` ([`WIN`], [`LOSE`], [`DRAW`]) with `remoteness` (at most [`MAX_REMOTENESS`]).
    pub(super) fn new(kind: u32, remoteness: u32) -> PackedValue {
        PackedValue(kind << KIND_SHIFT | (remoteness & MAX_REMOTENESS))
    }

    /// `value` packed, or `None` if its remoteness is above [`MAX_REMOTENESS`].
    pub fn pack(value: Value) -> Option<PackedValue> {
        match value {
            Value::Win(r) => (r <= MAX_REMOTENESS).then(|| PackedValue::new(WIN, r)),
            Value::Lose(r) => (r <= MAX_REMOTENESS).then(|| PackedValue::new(LOSE, r)),
            Value::Draw => Some(PackedValue::new(DRAW, 0)),
        }
    }

    /// The value, or `None` for the word 0.
    pub fn unpack(self) -> Option<Value> {
        let remoteness = self.0 & MAX_REMOTENESS;
        match self.0 >> KIND_SHIFT {
            WIN => Some(Value::Win(remoteness)),
            LOSE => Some(Value::Lose(remoteness)),
            DRAW => Some(Value::Draw),
            _ => None,
        }
    }

    /// The kind bits (0 for no value).
    pub(super) fn kind(self) -> u32 {
        self.0 >> KIND_SHIFT
    }

    /// The remoteness bits.
    pub(super) fn remoteness(self) -> u32 {
        self.0 & MAX_REMOTENESS
    }
}

/// What the solve of one tier measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TierStatistics {
    /// Positions of the tier (distinct canonical keys).
    pub positions: u64,
    /// Moves that stay within the tier, counted once per (position, child key) pair.
    pub edges: u64,
    /// Moves that lead to a child tier's positions.
    pub exits: u64,
    /// Remoteness levels the backward induction went through (0 for a loop-free tier, solved in one pass).
    pub levels: u64,
}

/// The value of every position of one tier (of the whole game for an untiered solve).
///
/// Contract: for every position `p` of the tier, `value(game, p)` is `Some` and is the position's exact value
/// under [`Value`]'s rules (remoteness included; a draw for every position from which neither side can force
/// a win, loopy games included); positions with equal canonical keys share one entry.
#[derive(Clone, Debug)]
pub struct TierSolution<Tier, Key> {
    tier: Tier,
    index: HashMap<Key, u32, Hasher>,
    values: Vec<PackedValue>,
    statistics: TierStatistics,
    reached: Vec<Tier>,
}

impl<Tier, Key: Eq + std::hash::Hash> TierSolution<Tier, Key> {
    /// Assembles a solution: `index` maps each key to its place in `values`; `reached` lists the child tiers
    /// that the tier's moves lead to (sorted).
    pub(super) fn new(
        tier: Tier,
        index: HashMap<Key, u32, Hasher>,
        values: Vec<PackedValue>,
        statistics: TierStatistics,
        reached: Vec<Tier>,
    ) -> Self {
        TierSolution { tier, index, values, statistics, reached }
    }

    /// A solution from stored records (a solved database read back): each key once, with its value.
    /// `statistics` counts the positions only (the rest of what the solve measured is not stored).
    pub fn from_values(tier: Tier, records: Vec<(Key, Value)>, reached: Vec<Tier>) -> crate::Result<Self> {
        let mut index = HashMap::with_capacity_and_hasher(records.len(), Hasher::default());
        let mut values = Vec::with_capacity(records.len());
        for (key, value) in records {
            let packed = PackedValue::pack(value).ok_or_else(|| {
                crate::Error::limit(
                    "a stored remoteness",
                    u64::from(value.remoteness().unwrap_or(0)),
                    u64::from(MAX_REMOTENESS),
                )
            })?;
            let place = u32::try_from(values.len()).map_err(|_| {
                crate::Error::limit("the positions of a tier", values.len() as u64, u64::from(u32::MAX))
            })?;
            if index.insert(key, place).is_some() {
                return Err(crate::Error::Unsupported("a tier's records list one key twice".into()));
            }
            values.push(packed);
        }
        let statistics = TierStatistics { positions: values.len() as u64, ..TierStatistics::default() };
        Ok(TierSolution { tier, index, values, statistics, reached })
    }

    /// The child tiers that this tier's moves lead to, sorted (what a resumed solve needs to know of a tier
    /// without reading its values).
    pub fn reached(&self) -> &[Tier] {
        &self.reached
    }

    /// The tier.
    pub fn tier(&self) -> &Tier {
        &self.tier
    }

    /// The value of the position whose canonical key is `key`, or `None` if the tier holds no such position.
    pub fn value_of_key(&self, key: &Key) -> Option<Value> {
        let place = *self.index.get(key)?;
        self.values.get(place as usize).and_then(|packed| packed.unpack())
    }

    /// The value of `position`, or `None` if it is not a position of this tier.
    pub fn value<Rules: Canonicalize<Key = Key>>(&self, game: &Rules, position: &Rules::Position) -> Option<Value> {
        self.value_of_key(&game.canonical(position))
    }

    /// The number of positions (distinct canonical keys).
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the tier has no position.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Every key with its value, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&Key, Value)> + '_ {
        self.index.iter().filter_map(|(key, &place)| {
            let value = self.values.get(place as usize)?.unpack()?;
            Some((key, value))
        })
    }

    /// The numbers of won, lost and drawn positions (for the player to move).
    pub fn counts(&self) -> (u64, u64, u64) {
        let mut counts = (0, 0, 0);
        for packed in &self.values {
            match packed.kind() {
                WIN => counts.0 += 1,
                LOSE => counts.1 += 1,
                _ => counts.2 += 1,
            }
        }
        counts
    }

    /// What the solve of this tier measured.
    pub fn statistics(&self) -> TierStatistics {
        self.statistics
    }
}
