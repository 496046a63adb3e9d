//! How a tier's positions are indexed: by a hash map from key to place (any game), or, for a game that ranks
//! its positions ([`Rank`]), by a flat array of places indexed by rank.
//!
//! The enumeration ([`super::explore`]) and the tiered solve ([`super::tiers`]) are written once, over the
//! [`Layout`] trait: [`ByKey`] gives hash maps, [`ByRank`] flat arrays. Both give every position the same
//! place (the order in which the enumeration meets its key), so both paths do the same work in the same order
//! and give the same values.
//!
//! Why a flat array: a hash map entry holds the key, the place and the table's slack (about 40 bytes for a
//! 128-bit key), a rank slot holds a place (4 bytes). A solved dense tier keeps its values by rank and finds a
//! key's value by ranking it, so it holds no keys at all.
//!
//! The budget, in positions: a rank space of `size` slots counts as `size / RANK_SLOTS_PER_POSITION` positions
//! ([`rank_units`]), whether the tier is being solved (its index, then its values) or held solved for its parent
//! tiers (its values). That is an upper bound, never an underestimate, as long as a position of the budget
//! stands for at least 32 bytes; the database's estimates
//! ([`super::TierIndexing::bytes_per_position`]) are above 96. The positions of a tier being solved
//! count as well, as on the hash path.

use super::solution::{narrow, narrow_error, Hasher, Lookup, PackedValue, TierRanking, Values};
use super::{Rank, Retrograde};
use crate::error::Error;
use crate::game::{Canonicalize, FromKey, Game};
use hashbrown::hash_map::Entry;
use hashbrown::{HashMap, HashSet};
use rayon::prelude::*;
use std::hash::Hash;
use std::sync::Arc;

/// The slot of a rank that no position of the tier has.
const VACANT: u32 = u32::MAX;

/// Rank slots counted as one position of the budget: a slot is 4 bytes, a position at least 32.
pub(super) const RANK_SLOTS_PER_POSITION: u64 = 8;

/// Bits of a set of seen keys counted as one position of the budget (a position being at least 32 bytes).
const SEEN_BITS_PER_POSITION: u64 = 256;

/// What a rank space of `size` slots counts toward the budget, in positions.
pub(super) fn rank_units(size: u64) -> u64 {
    size.div_ceil(RANK_SLOTS_PER_POSITION)
}

/// What `size` values of 16 bits by rank (a solved tier in the dense form) count toward the budget, in
/// positions of 32 bytes.
pub(super) fn narrow_units(size: u64) -> u64 {
    size.div_ceil(2 * RANK_SLOTS_PER_POSITION)
}

/// A tier's map from key to place, filled in one thread by the enumeration.
pub(super) trait Index<Key>: Sync {
    /// The place of `key` if it has one; otherwise `key` gets place `next` and the answer is `None`. Errors: a
    /// key that the index cannot hold (one without a rank: the [`Rank`] contract broken).
    fn place_or_insert(&mut self, key: Key, next: u32) -> crate::Result<Option<u32>>;

    /// The place of `key`, if it has one.
    fn get(&self, key: &Key) -> Option<u32>;

    /// The index as a solution reads it, with `values` (by place) rearranged to its order. Errors: a
    /// remoteness that the index's form of the values cannot hold.
    fn into_lookup(self, values: Vec<PackedValue>) -> crate::Result<(Lookup<Key>, Values)>;
}

/// A set of keys of one tier (the keys of the entry positions found for it so far).
pub(super) trait KeySet<Key> {
    /// Adds `key`; whether it was not in the set. Errors as [`Index::place_or_insert`].
    fn insert(&mut self, key: Key) -> crate::Result<bool>;
}

/// How the positions of each tier are indexed, as the enumeration and the tiered solve use it.
pub(super) trait Layout<Tier, Key>: Sync {
    /// The index of one tier.
    type Index: Index<Key>;
    /// A set of keys of one tier.
    type Seen: KeySet<Key>;

    /// An empty index of `tier`'s positions. Errors: a rank space beyond `u32` range.
    fn index(&self, tier: &Tier) -> crate::Result<Self::Index>;

    /// An empty set of `tier`'s keys. Errors as [`Layout::index`].
    fn seen(&self, tier: &Tier) -> crate::Result<Self::Seen>;

    /// What an index of `tier` (and the values a solution keeps by rank) counts toward the budget before any
    /// position is indexed, in positions: asked before [`Layout::index`], so that a tier too large is refused
    /// before its array is allocated. Errors as [`Layout::index`].
    fn index_units(&self, tier: &Tier) -> crate::Result<u64>;

    /// What a set of `tier`'s keys counts toward the budget before any key is added, in positions. Errors as
    /// [`Indexing::index`].
    fn seen_units(&self, tier: &Tier) -> crate::Result<u64>;
}

/// Indexing by hash maps from key to place: any game (the default of a [`super::TierSpec`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct ByKey;

/// A hash map from key to place.
pub(super) struct HashIndex<Key>(HashMap<Key, u32, Hasher>);

impl<Key> HashIndex<Key> {
    /// An empty index.
    pub(super) fn new() -> Self {
        HashIndex(HashMap::with_hasher(Hasher::default()))
    }
}

impl<Key: Eq + Hash + Sync> Index<Key> for HashIndex<Key> {
    fn place_or_insert(&mut self, key: Key, next: u32) -> crate::Result<Option<u32>> {
        Ok(match self.0.entry(key) {
            Entry::Occupied(entry) => Some(*entry.get()),
            Entry::Vacant(entry) => {
                entry.insert(next);
                None
            }
        })
    }

    fn get(&self, key: &Key) -> Option<u32> {
        self.0.get(key).copied()
    }

    fn into_lookup(self, values: Vec<PackedValue>) -> crate::Result<(Lookup<Key>, Values)> {
        Ok((Lookup::Hashed(self.0), Values::Wide(values)))
    }
}

impl<Key: Eq + Hash> KeySet<Key> for HashSet<Key, Hasher> {
    fn insert(&mut self, key: Key) -> crate::Result<bool> {
        Ok(HashSet::insert(self, key))
    }
}

impl<Tier, Key: Eq + Hash + Sync> Layout<Tier, Key> for ByKey {
    type Index = HashIndex<Key>;
    type Seen = HashSet<Key, Hasher>;

    fn index(&self, _: &Tier) -> crate::Result<Self::Index> {
        Ok(HashIndex::new())
    }

    fn seen(&self, _: &Tier) -> crate::Result<Self::Seen> {
        Ok(HashSet::with_hasher(Hasher::default()))
    }

    // A hash map grows with its keys, which the positions' count covers.
    fn index_units(&self, _: &Tier) -> crate::Result<u64> {
        Ok(0)
    }

    fn seen_units(&self, _: &Tier) -> crate::Result<u64> {
        Ok(0)
    }
}

/// Indexing by rank, for a game that implements [`Rank`]: each tier's values in a flat array of
/// [`Rank::tier_size`] entries. It holds the game (shared: a solved tier answers `value_of_key` by ranking the
/// key, without the caller's game at hand).
///
/// Two solves: [`ByRank::of`] enumerates each tier into an index of places by rank and builds reverse edges
/// (the reference); [`ByRank::with_unmoves`], for a game with the [`Retrograde`] hook and [`FromKey`], holds
/// only a bit per rank of the reachable positions, a value (2 bytes) and a counter of undecided children
/// (1 byte) per rank of the tier being solved, and its child tiers' values (2 bytes a rank), and finds parents
/// by un-moves (the module `ranked`). Both give the same values and files.
pub struct ByRank<Ruleset: Game + Canonicalize> {
    game: Arc<Ruleset>,
    unmoves: Option<UnMoves<Ruleset>>,
}

/// What the solve by un-moves asks of a game besides [`Rank`]: its [`Retrograde`] hook and [`FromKey`], as
/// function pointers, so that [`ByRank`] needs the bounds only where the un-moves are chosen.
pub(super) struct UnMoves<Ruleset: Game + Canonicalize> {
    /// [`Retrograde::parents`].
    pub(super) parents:
        fn(&Ruleset, &<Ruleset as crate::Rules>::Position, &mut Vec<<Ruleset as crate::Rules>::Position>),
    /// [`FromKey::position_of_key`].
    pub(super) position: fn(&Ruleset, &<Ruleset as Canonicalize>::Key) -> Option<<Ruleset as crate::Rules>::Position>,
}

impl<Ruleset: Game + Canonicalize> Clone for UnMoves<Ruleset> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<Ruleset: Game + Canonicalize> Copy for UnMoves<Ruleset> {}

impl<Ruleset: Game + Canonicalize> std::fmt::Debug for ByRank<Ruleset> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("ByRank").field("unmoves", &self.unmoves.is_some()).finish_non_exhaustive()
    }
}

impl<Ruleset: Game + Canonicalize> Clone for ByRank<Ruleset> {
    fn clone(&self) -> Self {
        ByRank { game: Arc::clone(&self.game), unmoves: self.unmoves }
    }
}

impl<Ruleset: Game + Rank + Clone> ByRank<Ruleset> {
    /// Ranks with `game`'s [`Rank`] (the game cloned once).
    pub fn of(game: &Ruleset) -> Self {
        ByRank::shared(Arc::new(game.clone()))
    }
}

impl<Ruleset: Game + Rank> ByRank<Ruleset> {
    /// Ranks with the shared `game`'s [`Rank`].
    pub fn shared(game: Arc<Ruleset>) -> Self {
        ByRank { game, unmoves: None }
    }

    /// The same indexing solved by un-moves (see [`ByRank`]): the production path of a game with the hook.
    #[must_use]
    pub fn with_unmoves(self) -> Self
    where
        Ruleset: Game + Retrograde + FromKey,
    {
        let unmoves =
            UnMoves { parents: <Ruleset as Retrograde>::parents, position: <Ruleset as FromKey>::position_of_key };
        ByRank { unmoves: Some(unmoves), ..self }
    }

    /// The game it ranks with.
    pub(super) fn game(&self) -> &Arc<Ruleset> {
        &self.game
    }

    /// The un-move hook, when the solve is by un-moves.
    pub(super) fn unmoves(&self) -> Option<UnMoves<Ruleset>> {
        self.unmoves
    }

    /// The ranking of `tier` for the solve by reverse edges. Errors: a rank space beyond `u32` range (its
    /// places by rank are 32-bit).
    fn ranking(&self, tier: &Ruleset::Tier) -> crate::Result<TierRank<Ruleset>> {
        let ranking = TierRank::new(Arc::clone(&self.game), tier.clone())?;
        if ranking.size > u64::from(u32::MAX) {
            return Err(Error::limit(
                format!("the rank space of tier {tier:?} in the solve by reverse edges (Rank::tier_size)"),
                ranking.size,
                u64::from(u32::MAX),
            ));
        }
        Ok(ranking)
    }
}

/// One tier's ranking, as a solution keeps it: the game, the tier and the size of its rank space.
pub(super) struct TierRank<Ruleset: Game + Rank> {
    game: Arc<Ruleset>,
    tier: Ruleset::Tier,
    pub(super) size: u64,
}

impl<Ruleset: Game + Rank> TierRank<Ruleset> {
    /// The ranking of `tier`: ranks are 64-bit (a tier of Connect Four 7 x 5 has 7.2e10). Errors: a rank space
    /// beyond the address space (its arrays are indexed by rank).
    pub(super) fn new(game: Arc<Ruleset>, tier: Ruleset::Tier) -> crate::Result<Self> {
        let size = game.tier_size(&tier);
        if usize::try_from(size).is_err() {
            return Err(Error::limit(
                format!("the rank space of tier {tier:?} (Rank::tier_size)"),
                size,
                usize::MAX as u64,
            ));
        }
        Ok(TierRank { game, tier, size })
    }

    /// The rank of `key`, below the tier's size, or `None` if it has none.
    pub(super) fn rank_of(&self, key: &Ruleset::Key) -> Option<u64> {
        self.game.rank(&self.tier, key).filter(|&rank| rank < self.size)
    }

    /// The rank of `key` as a place in an array of the tier's size, or the error of a broken contract.
    pub(super) fn slot(&self, key: &Ruleset::Key) -> crate::Result<usize> {
        self.rank_of(key).map(|rank| rank as usize).ok_or_else(|| Error::Contract {
            contract: "Rank",
            detail: format!("the key {key:?} of a position of tier {:?} has no rank below {}", self.tier, self.size),
        })
    }
}

impl<Ruleset> TierRanking<Ruleset::Key> for TierRank<Ruleset>
where
    Ruleset: Game + Rank + Send + Sync,
    Ruleset::Key: Send + Sync,
{
    fn rank(&self, key: &Ruleset::Key) -> Option<u64> {
        self.rank_of(key)
    }

    fn unrank(&self, rank: u64) -> Option<Ruleset::Key> {
        (rank < self.size).then(|| self.game.unrank(&self.tier, rank)).flatten()
    }
}

/// A flat array of places by rank.
pub(super) struct DenseIndex<Ruleset: Game + Rank> {
    places: Vec<u32>,
    ranking: TierRank<Ruleset>,
}

impl<Ruleset> Index<Ruleset::Key> for DenseIndex<Ruleset>
where
    Ruleset: Game + Rank + Send + Sync + 'static,
    Ruleset::Key: Send + Sync,
{
    fn place_or_insert(&mut self, key: Ruleset::Key, next: u32) -> crate::Result<Option<u32>> {
        let slot = self.ranking.slot(&key)?;
        let place = self.places.get_mut(slot).ok_or_else(|| Error::internal("retrograde", "a rank past its tier"))?;
        if *place == VACANT {
            *place = next;
            return Ok(None);
        }
        Ok(Some(*place))
    }

    fn get(&self, key: &Ruleset::Key) -> Option<u32> {
        let rank = self.ranking.rank_of(key)?;
        self.places.get(rank as usize).copied().filter(|&place| place != VACANT)
    }

    fn into_lookup(self, values: Vec<PackedValue>) -> crate::Result<(Lookup<Ruleset::Key>, Values)> {
        // A vacant slot (u32::MAX) is past every place, so it reads no value.
        let by_rank = self
            .places
            .par_iter()
            .with_min_len(1 << 12)
            .map(|&place| {
                let packed = values.get(place as usize).copied().unwrap_or(PackedValue::NONE);
                narrow(packed).ok_or_else(|| narrow_error(packed.remoteness()))
            })
            .collect::<crate::Result<Vec<u16>>>()?;
        Ok((Lookup::Ranked(Arc::new(self.ranking)), Values::Narrow(by_rank)))
    }
}

/// A set of keys of one tier as a bit per rank.
pub(super) struct DenseSet<Ruleset: Game + Rank> {
    bits: Vec<u64>,
    ranking: TierRank<Ruleset>,
}

impl<Ruleset: Game + Rank> KeySet<Ruleset::Key> for DenseSet<Ruleset> {
    fn insert(&mut self, key: Ruleset::Key) -> crate::Result<bool> {
        let slot = self.ranking.slot(&key)?;
        let word = self.bits.get_mut(slot / 64).ok_or_else(|| Error::internal("retrograde", "a rank past its tier"))?;
        let bit = 1u64 << (slot % 64);
        let new = *word & bit == 0;
        *word |= bit;
        Ok(new)
    }
}

impl<Ruleset> Layout<Ruleset::Tier, Ruleset::Key> for ByRank<Ruleset>
where
    Ruleset: Game + Rank + Send + Sync + 'static,
    Ruleset::Key: Send + Sync,
{
    type Index = DenseIndex<Ruleset>;
    type Seen = DenseSet<Ruleset>;

    fn index(&self, tier: &Ruleset::Tier) -> crate::Result<Self::Index> {
        let ranking = self.ranking(tier)?;
        Ok(DenseIndex { places: vec![VACANT; ranking.size as usize], ranking })
    }

    fn seen(&self, tier: &Ruleset::Tier) -> crate::Result<Self::Seen> {
        let ranking = self.ranking(tier)?;
        Ok(DenseSet { bits: vec![0; ranking.size.div_ceil(64) as usize], ranking })
    }

    fn index_units(&self, tier: &Ruleset::Tier) -> crate::Result<u64> {
        Ok(rank_units(self.ranking(tier)?.size))
    }

    fn seen_units(&self, tier: &Ruleset::Tier) -> crate::Result<u64> {
        Ok(self.ranking(tier)?.size.div_ceil(SEEN_BITS_PER_POSITION))
    }
}
