//! What a retrograde solve returns: [`PackedValue`] (a value in 32 bits) and [`TierSolution`] (the value of every
//! position of one tier, queried by canonical key or by position), whose values are found through a hash map
//! from key to place, or, for a tier solved by rank ([`super::Rank`]), kept in a flat array by rank.

use super::index::TierRank;
use super::Rank;
use crate::error::{Remedy, Setting};
use crate::game::Canonicalize;
use crate::game::Game;
use crate::value::Value;
use hashbrown::HashMap;
use std::sync::Arc;

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

/// The largest remoteness of a value in 16 bits, as a database record holds it (14 bits).
pub const MAX_NARROW_REMOTENESS: u32 = (1 << 14) - 1;

/// The kind bits of a value in 16 bits (the two high bits, numbered as in [`PackedValue`]).
const NARROW_KIND_SHIFT: u32 = 14;

/// `packed` in 16 bits (kind in the two high bits, remoteness in the 14 low ones: a database record's bits), or
/// `None` if its remoteness is above [`MAX_NARROW_REMOTENESS`]. [`PackedValue::NONE`] is 0.
pub(super) fn narrow(packed: PackedValue) -> Option<u16> {
    let remoteness = packed.remoteness();
    (remoteness <= MAX_NARROW_REMOTENESS).then(|| (packed.kind() << NARROW_KIND_SHIFT | remoteness) as u16)
}

/// The packed value of 16 bits made by [`narrow`].
pub(super) fn widen(bits: u16) -> PackedValue {
    let bits = u32::from(bits);
    PackedValue::new(bits >> NARROW_KIND_SHIFT, bits & MAX_NARROW_REMOTENESS)
}

/// Whether `bits` is a value made by [`narrow`] (a kind, and no remoteness for a draw).
pub(crate) fn is_narrow_value(bits: u16) -> bool {
    match u32::from(bits) >> NARROW_KIND_SHIFT {
        WIN | LOSE => true,
        DRAW => u32::from(bits) & MAX_NARROW_REMOTENESS == 0,
        _ => false,
    }
}

/// The error of a remoteness that does not fit 16 bits.
pub(super) fn narrow_error(remoteness: u32) -> crate::Error {
    crate::Error::limit(
        "the remoteness of a position solved by rank",
        u64::from(remoteness),
        u64::from(MAX_NARROW_REMOTENESS),
    )
}

/// A solution's values: by place, 32 bits each (the hashed form), or by rank, 16 bits each (the dense form).
#[derive(Clone, Debug)]
pub(super) enum Values {
    /// Packed values by place.
    Wide(Vec<PackedValue>),
    /// Values in 16 bits ([`narrow`]) by rank; 0 at the ranks of no position of the tier.
    Narrow(Vec<u16>),
}

impl Values {
    /// The value at `place`.
    fn get(&self, place: usize) -> Option<PackedValue> {
        match self {
            Values::Wide(values) => values.get(place).copied(),
            Values::Narrow(values) => values.get(place).map(|&bits| widen(bits)),
        }
    }

    /// The number of places.
    fn len(&self) -> usize {
        match self {
            Values::Wide(values) => values.len(),
            Values::Narrow(values) => values.len(),
        }
    }

    /// The kind bits of every place, in order.
    fn kinds(&self) -> Box<dyn Iterator<Item = u32> + '_> {
        match self {
            Values::Wide(values) => Box::new(values.iter().map(|packed| packed.kind())),
            Values::Narrow(values) => Box::new(values.iter().map(|&bits| u32::from(bits) >> NARROW_KIND_SHIFT)),
        }
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

/// One tier's ranking as a solution holds it (its game and tier inside): a key's rank, a rank's key.
pub(super) trait TierRanking<Key>: Send + Sync {
    /// The rank of `key`, below the tier's size, or `None` if it is no key of the tier.
    fn rank(&self, key: &Key) -> Option<u64>;

    /// The key of `rank`, or `None` past the tier's size.
    fn unrank(&self, rank: u64) -> Option<Key>;
}

/// How a solution finds a key's value.
#[derive(Clone)]
pub(super) enum Lookup<Key> {
    /// A map from key to place in the values.
    Hashed(HashMap<Key, u32, Hasher>),
    /// The values are by rank; [`PackedValue::NONE`] at the ranks of no position of the tier.
    Ranked(Arc<dyn TierRanking<Key>>),
}

impl<Key> std::fmt::Debug for Lookup<Key> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Lookup::Hashed(map) => write!(formatter, "Hashed({} keys)", map.len()),
            Lookup::Ranked(_) => write!(formatter, "Ranked"),
        }
    }
}

/// The value of every position of one tier (of the whole game for an untiered solve).
///
/// Two forms with one interface: keys in a hash map (any game), or values in a flat array by rank (a tier
/// solved by rank, [`super::ByRank`]), which holds no key and finds a key's
/// value by ranking it.
///
/// Contract: for every position `p` of the tier, `value(game, p)` is `Some` and is the position's exact value
/// under [`Value`]'s rules (remoteness included; a draw for every position from which neither side can force
/// a win, loopy games included); positions with equal canonical keys share one entry.
#[derive(Clone, Debug)]
pub struct TierSolution<Tier, Key> {
    tier: Tier,
    lookup: Lookup<Key>,
    values: Values,
    positions: usize,
    statistics: TierStatistics,
    reached: Vec<Tier>,
}

/// The error of a stored remoteness too large for a packed value.
fn remoteness_error(value: Value) -> crate::Error {
    crate::Error::limit("a stored remoteness", u64::from(value.remoteness().unwrap_or(0)), u64::from(MAX_REMOTENESS))
}

impl<Tier, Key> TierSolution<Tier, Key>
where
    Tier: Clone + Eq + std::hash::Hash + Ord + std::fmt::Debug + Send + Sync + 'static,
    Key: Eq + std::hash::Hash + Clone + std::fmt::Debug + Send + Sync + 'static,
{
    /// [`TierSolution::from_values`] in the dense form: the values in a flat array by `game`'s [`Rank`] (an
    /// array of `tier_size` values, whatever the number of records); what [`super::ByRank`] loads. Errors: a
    /// rank space beyond the address space, a key without a rank in `tier`, a key listed twice.
    pub(super) fn from_values_ranked<Ruleset>(
        game: &Arc<Ruleset>,
        tier: Tier,
        records: Vec<(Key, Value)>,
        reached: Vec<Tier>,
    ) -> crate::Result<Self>
    where
        Ruleset: Game + Rank<Tier = Tier, Key = Key> + Send + Sync + 'static,
    {
        let ranking = TierRank::new(Arc::clone(game), tier.clone())?;
        let size = game.tier_size(&tier);
        let mut values = zeroed_records("a tier's values by rank", size)?;
        let positions = records.len();
        for (key, value) in records {
            let bits = PackedValue::pack(value).and_then(narrow).ok_or_else(|| remoteness_error(value))?;
            let slot = ranking.rank_of(&key).and_then(|rank| values.get_mut(rank as usize)).ok_or_else(|| {
                crate::Error::records(format!("the record of key {key:?} is of no position of the tier"))
            })?;
            if *slot != 0 {
                return Err(crate::Error::records("a tier's records list one key twice"));
            }
            *slot = bits;
        }
        let statistics = TierStatistics { positions: positions as u64, ..TierStatistics::default() };
        Ok(TierSolution::new(tier, Lookup::Ranked(Arc::new(ranking)), Values::Narrow(values), statistics, reached))
    }

    /// A solution in the dense form from its values in 16 bits by rank (a database's record bits: 0 at the ranks
    /// of no position), as a file laid out by rank holds them. Errors: a rank space beyond the address space, values
    /// of another length than the tier's rank space, a word that is no value.
    pub(crate) fn from_ranks<Ruleset>(
        game: &Arc<Ruleset>,
        tier: Tier,
        values: Vec<u16>,
        reached: Vec<Tier>,
    ) -> crate::Result<Self>
    where
        Ruleset: Game + Rank<Tier = Tier, Key = Key> + Send + Sync + 'static,
    {
        let ranking = TierRank::new(Arc::clone(game), tier.clone())?;
        if values.len() as u64 != game.tier_size(&tier) {
            return Err(crate::Error::records(format!(
                "{} values for a tier of {} ranks",
                values.len(),
                game.tier_size(&tier)
            )));
        }
        if values.iter().any(|&bits| bits != 0 && !is_narrow_value(bits)) {
            return Err(crate::Error::records("a word that is no value"));
        }
        let positions = values.iter().filter(|&&bits| bits != 0).count();
        let statistics = TierStatistics { positions: positions as u64, ..TierStatistics::default() };
        Ok(TierSolution::new(tier, Lookup::Ranked(Arc::new(ranking)), Values::Narrow(values), statistics, reached))
    }
}

impl<Tier, Key: Eq + std::hash::Hash> TierSolution<Tier, Key> {
    /// Assembles a solution: `lookup` finds each key's place in `values`; `reached` lists the child tiers that
    /// the tier's moves lead to (sorted).
    pub(super) fn new(
        tier: Tier,
        lookup: Lookup<Key>,
        values: Values,
        statistics: TierStatistics,
        reached: Vec<Tier>,
    ) -> Self {
        let positions = statistics.positions as usize;
        TierSolution { tier, lookup, values, positions, statistics, reached }
    }

    /// A solution from stored records (a solved database read back): each key once, with its value.
    /// `statistics` counts the positions only (the rest of what the solve measured is not stored).
    pub fn from_values(tier: Tier, records: Vec<(Key, Value)>, reached: Vec<Tier>) -> crate::Result<Self> {
        let mut index = HashMap::with_capacity_and_hasher(records.len(), Hasher::default());
        let mut values = Vec::with_capacity(records.len());
        for (key, value) in records {
            let packed = PackedValue::pack(value).ok_or_else(|| remoteness_error(value))?;
            let place = u32::try_from(values.len()).map_err(|_| {
                crate::Error::limit("the positions of a tier", values.len() as u64, u64::from(u32::MAX))
            })?;
            if index.insert(key, place).is_some() {
                return Err(crate::Error::records("a tier's records list one key twice"));
            }
            values.push(packed);
        }
        let statistics = TierStatistics { positions: values.len() as u64, ..TierStatistics::default() };
        Ok(TierSolution::new(tier, Lookup::Hashed(index), Values::Wide(values), statistics, reached))
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
        self.locate(key).map(|(_, value)| value)
    }

    /// The place of `key`'s value (below [`TierSolution::places`]) with the value, or `None` if the tier holds
    /// no such position. Places are the same each time a tier is built from the same records, so a caller may
    /// keep a mark per place (as `ludus db check` does).
    pub fn locate(&self, key: &Key) -> Option<(usize, Value)> {
        let place = match &self.lookup {
            Lookup::Hashed(index) => *index.get(key)? as usize,
            Lookup::Ranked(ranking) => ranking.rank(key)? as usize,
        };
        self.values.get(place).and_then(|packed| packed.unpack()).map(|value| (place, value))
    }

    /// The values in 16 bits by rank (a database record's bits; 0 at the ranks of no position), in the dense
    /// form.
    pub fn by_rank(&self) -> Option<&[u16]> {
        match &self.values {
            Values::Narrow(values) => Some(values),
            Values::Wide(_) => None,
        }
    }

    /// The key at `place` in the dense form (the key of that rank), `None` in the hashed form or past the
    /// rank space.
    pub fn key_at(&self, place: usize) -> Option<Key> {
        match &self.lookup {
            Lookup::Ranked(ranking) => ranking.unrank(place as u64),
            Lookup::Hashed(_) => None,
        }
    }

    /// The number of places (the positions in the hashed form, the rank space in the dense form).
    pub fn places(&self) -> usize {
        self.values.len()
    }

    /// The value of `position`, or `None` if it is not a position of this tier.
    pub fn value<Ruleset: Game + Canonicalize<Key = Key>>(
        &self,
        game: &Ruleset,
        position: &Ruleset::Position,
    ) -> Option<Value> {
        self.value_of_key(&game.canonical(position))
    }

    /// The number of positions (distinct canonical keys).
    pub fn len(&self) -> usize {
        self.positions
    }

    /// Whether the tier has no position.
    pub fn is_empty(&self) -> bool {
        self.positions == 0
    }

    /// Whether the values are kept by rank (the dense form).
    pub fn is_ranked(&self) -> bool {
        matches!(self.lookup, Lookup::Ranked(_))
    }

    /// What the solution counts toward a solver's budget while it is held, in positions: its positions in the
    /// hashed form, its rank space in the dense form (see the module `index`).
    pub fn budget_units(&self) -> u64 {
        match self.values {
            Values::Wide(_) => self.positions as u64,
            Values::Narrow(_) => super::index::narrow_units(self.values.len() as u64),
        }
    }

    /// Every key with its value: in no particular order in the hashed form, by rank in the dense form.
    pub fn iter(&self) -> impl Iterator<Item = (Key, Value)> + '_
    where
        Key: Clone,
    {
        // One of the two is empty: one iterator type serves both forms.
        let hashed = match &self.lookup {
            Lookup::Hashed(index) => Some(index.iter()),
            Lookup::Ranked(_) => None,
        };
        let ranked = match &self.lookup {
            Lookup::Ranked(ranking) => {
                Some((ranking, (0..self.values.len()).filter_map(|place| Some((place, self.values.get(place)?)))))
            }
            Lookup::Hashed(_) => None,
        };
        let hashed = hashed.into_iter().flatten().filter_map(|(key, &place)| {
            let value = self.values.get(place as usize)?.unpack()?;
            Some((key.clone(), value))
        });
        let ranked = ranked.into_iter().flat_map(|(ranking, values)| {
            values.filter_map(move |(rank, packed)| {
                let value = packed.unpack()?;
                Some((ranking.unrank(rank as u64)?, value))
            })
        });
        hashed.chain(ranked)
    }

    /// The numbers of won, lost and drawn positions (for the player to move).
    pub fn counts(&self) -> (u64, u64, u64) {
        let mut counts = (0, 0, 0);
        for kind in self.values.kinds() {
            match kind {
                WIN => counts.0 += 1,
                LOSE => counts.1 += 1,
                DRAW => counts.2 += 1,
                // A rank of no position.
                _ => {}
            }
        }
        counts
    }

    /// What the solve of this tier measured.
    pub fn statistics(&self) -> TierStatistics {
        self.statistics
    }
}

/// `size` zeroed 16-bit records, a tier's values by rank; memory the system will not give is the allocation
/// error, not an abort (a rank space of up to `u32::MAX` ranks is 8 GiB).
pub(crate) fn zeroed_records(what: &'static str, size: u64) -> crate::Result<Vec<u16>> {
    let failed = || crate::Error::Allocation {
        what,
        megabytes: size.saturating_mul(2).div_ceil(1 << 20),
        remedies: vec![Remedy::Lower(Setting::MemoryMb), Remedy::Advice("use a larger machine".into())],
    };
    let length = usize::try_from(size).map_err(|_| failed())?;
    let mut records = Vec::new();
    records.try_reserve_exact(length).map_err(|_| failed())?;
    records.resize(length, 0);
    Ok(records)
}
