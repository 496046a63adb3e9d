//! The specification of a tiered solve ([`TierSpec`]): how each tier's positions are indexed ([`ByKey`], or
//! [`ByRank`] for a game that ranks them), where the solved tiers go (a [`TierStore`]: [`TieredSolution`] in
//! memory by default, a callback [`OnTier`], a database), which [`TierSchedule`] decides who solves which tier
//! when ([`InProcess`] by default), and how a position's parents are found (reverse edges built by the solver
//! by default, or the game's [`Retrograde`] un-move hook). [`RetrogradeSolver::solve_tiers`] takes one.
//!
//! ```
//! # use ludus_framework::engines::retrograde::{RetrogradeSolver, TierSpec, Tiers};
//! # fn solve<Ruleset: ludus_framework::Game + Tiers + Sync>(game: &Ruleset, start: &Ruleset::Position) -> ludus_framework::Result<usize>
//! # where Ruleset::Position: Send + Sync, Ruleset::Key: Send + Sync {
//! // Every tier kept in memory, hashed, solved here, parents from reverse edges:
//! let solution = RetrogradeSolver::new().solve_tiers(game, start, TierSpec::new())?;
//! # Ok(solution.len())
//! # }
//! ```

use super::index::{ByKey, ByRank};
use super::schedule::{InProcess, TierSchedule};
use super::solution::TierSolution;
use super::tiers::{TierStore, TieredSolution};
use super::{bytes_per_position, Hook, Rank, Ranks, Retrograde, RetrogradeSolver, Tiers};
use crate::game::Game;
use crate::value::Value;
use std::sync::Arc;

/// How a tiered solve indexes each tier's positions: [`ByKey`] (hash maps, any game) or [`ByRank`] (flat
/// arrays by [`Rank`]). Both give the same values, and the same database files byte for byte; they differ in
/// memory, which is why the memory model and the loading of a stored tier come from the indexing.
pub trait TierIndexing<Ruleset: Game + Tiers>: Clone + Sync + sealed::Solve<Ruleset> {
    /// The memory a solve holds per position of a tier being solved, as estimated for the budget: the
    /// position, what the index holds of its key, its value, counter and edge offsets, and about eight edges
    /// each way. Measured peaks (BENCHMARKS.md) stay below it.
    fn bytes_per_position(&self) -> u64;

    /// A solution of `tier` from stored records (a solved database read back), in this indexing's form: each
    /// key once, with its value; `reached` lists the child tiers its moves lead to. Errors: a key listed twice,
    /// and for [`ByRank`] a key without a rank in `tier` or a rank space beyond `u32` range.
    fn solution(
        &self,
        tier: Ruleset::Tier,
        records: Vec<(Ruleset::Key, Value)>,
        reached: Vec<Ruleset::Tier>,
    ) -> crate::Result<TierSolution<Ruleset::Tier, Ruleset::Key>>;

    /// The game's ranking, for an indexing by rank ([`ByRank`]; `None` for [`ByKey`]): a database solved or
    /// read in this indexing lays its files out by rank.
    fn ranks(&self) -> Option<Arc<dyn Ranks<Ruleset::Tier, Ruleset::Key>>>;

    /// The share of `tier`'s ranks whose positions are reachable from `start`, estimated from `samples` ranks
    /// drawn with `seed`, each followed back to the start by un-moves (what `ludus db plan` scales by); `None`
    /// for an indexing that does not rank or a solve without un-moves.
    fn reachable_share(
        &self,
        start: &Ruleset::Position,
        tier: &Ruleset::Tier,
        samples: usize,
        seed: u64,
    ) -> Option<f64> {
        let _ = (start, tier, samples, seed);
        None
    }

    /// A solution of `tier` from its records by rank in 16 bits (a database record's bits, 0 at the ranks of
    /// no position: a file laid out by rank read back). Errors: an indexing that does not rank, a length other
    /// than the tier's rank space, a word that is no record.
    fn solution_by_rank(
        &self,
        tier: Ruleset::Tier,
        records: Vec<u16>,
        reached: Vec<Ruleset::Tier>,
    ) -> crate::Result<TierSolution<Ruleset::Tier, Ruleset::Key>>;
}

/// The part of [`TierIndexing`] only this crate implements: the solve itself, over the private index types.
mod sealed {
    use super::{Hook, RetrogradeSolver, TierSchedule, TierStore, Tiers};

    /// Runs a tiered solve with this indexing.
    pub trait Solve<Ruleset: crate::game::Game + Tiers> {
        /// The tiered solve of `game` from `start`, parents from `hook` (or reverse edges), solved tiers to
        /// `store`, the tiers solved as `schedule` decides.
        fn solve(
            &self,
            solver: &mut RetrogradeSolver,
            game: &Ruleset,
            start: &Ruleset::Position,
            hook: Option<Hook<'_, Ruleset::Position>>,
            store: &mut dyn TierStore<Ruleset::Tier, Ruleset::Key>,
            schedule: &mut dyn TierSchedule<Ruleset::Tier, Ruleset::Key, Ruleset::Position>,
        ) -> crate::Result<()>;
    }
}

impl<Ruleset> sealed::Solve<Ruleset> for ByKey
where
    Ruleset: Game + Tiers + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: Send + Sync,
{
    fn solve(
        &self,
        solver: &mut RetrogradeSolver,
        game: &Ruleset,
        start: &Ruleset::Position,
        hook: Option<Hook<'_, Ruleset::Position>>,
        store: &mut dyn TierStore<Ruleset::Tier, Ruleset::Key>,
        schedule: &mut dyn TierSchedule<Ruleset::Tier, Ruleset::Key, Ruleset::Position>,
    ) -> crate::Result<()> {
        solver.solve_tiered(game, start, hook, store, self, schedule)
    }
}

impl<Ruleset> TierIndexing<Ruleset> for ByKey
where
    Ruleset: Game + Tiers + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: Send + Sync,
{
    fn bytes_per_position(&self) -> u64 {
        bytes_per_position::<Ruleset::Position, Ruleset::Key>()
    }

    fn solution(
        &self,
        tier: Ruleset::Tier,
        records: Vec<(Ruleset::Key, Value)>,
        reached: Vec<Ruleset::Tier>,
    ) -> crate::Result<TierSolution<Ruleset::Tier, Ruleset::Key>> {
        TierSolution::from_values(tier, records, reached)
    }

    fn ranks(&self) -> Option<Arc<dyn Ranks<Ruleset::Tier, Ruleset::Key>>> {
        None
    }

    fn solution_by_rank(
        &self,
        _: Ruleset::Tier,
        _: Vec<u16>,
        _: Vec<Ruleset::Tier>,
    ) -> crate::Result<TierSolution<Ruleset::Tier, Ruleset::Key>> {
        Err(crate::Error::internal("retrograde", "records by rank handed to a solve indexed by key"))
    }
}

impl<Ruleset> sealed::Solve<Ruleset> for ByRank<Ruleset>
where
    Ruleset: Game + Rank + Send + Sync + 'static,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: Send + Sync,
{
    fn solve(
        &self,
        solver: &mut RetrogradeSolver,
        game: &Ruleset,
        start: &Ruleset::Position,
        hook: Option<Hook<'_, Ruleset::Position>>,
        store: &mut dyn TierStore<Ruleset::Tier, Ruleset::Key>,
        schedule: &mut dyn TierSchedule<Ruleset::Tier, Ruleset::Key, Ruleset::Position>,
    ) -> crate::Result<()> {
        match self.unmoves() {
            Some(unmoves) => solver.solve_by_unmoves(game, start, self, unmoves, store, schedule),
            None => solver.solve_tiered(game, start, hook, store, self, schedule),
        }
    }
}

impl<Ruleset> TierIndexing<Ruleset> for ByRank<Ruleset>
where
    Ruleset: Game + Rank + Send + Sync + 'static,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: Send + Sync,
{
    /// No key is held, neither in the index (a place per rank) nor in the list of a tier's entries (a bit per
    /// rank). The engine counts each tier's rank space on top, eight ranks (4 bytes each) as one position:
    /// more than they take, since a position is estimated at more than 96 bytes. The solve by un-moves holds
    /// no position at all: its memory is counted by rank, in units of 32 bytes.
    fn bytes_per_position(&self) -> u64 {
        match self.unmoves() {
            Some(_) => super::ranked::UNIT_BYTES,
            None => (std::mem::size_of::<Ruleset::Position>() + 96) as u64,
        }
    }

    fn solution(
        &self,
        tier: Ruleset::Tier,
        records: Vec<(Ruleset::Key, Value)>,
        reached: Vec<Ruleset::Tier>,
    ) -> crate::Result<TierSolution<Ruleset::Tier, Ruleset::Key>> {
        TierSolution::from_values_ranked(self.game(), tier, records, reached)
    }

    fn ranks(&self) -> Option<Arc<dyn Ranks<Ruleset::Tier, Ruleset::Key>>> {
        let game: Arc<dyn Ranks<Ruleset::Tier, Ruleset::Key>> = Arc::clone(self.game()) as _;
        Some(game)
    }

    fn reachable_share(
        &self,
        start: &Ruleset::Position,
        tier: &Ruleset::Tier,
        samples: usize,
        seed: u64,
    ) -> Option<f64> {
        let unmoves = self.unmoves()?;
        Some(super::ranked::reachable_share(self.game().as_ref(), unmoves, start, tier, samples, seed))
    }

    fn solution_by_rank(
        &self,
        tier: Ruleset::Tier,
        records: Vec<u16>,
        reached: Vec<Ruleset::Tier>,
    ) -> crate::Result<TierSolution<Ruleset::Tier, Ruleset::Key>> {
        TierSolution::from_ranks(self.game(), tier, records, reached)
    }
}

/// A store that keeps nothing itself: each solved tier goes to the callback; nothing is finished beforehand.
pub struct OnTier<Callback>(pub Callback);

impl<Callback> std::fmt::Debug for OnTier<Callback> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("OnTier")
    }
}

impl<Tier, Key, Callback> TierStore<Tier, Key> for OnTier<Callback>
where
    Callback: FnMut(Arc<TierSolution<Tier, Key>>) -> crate::Result<()>,
{
    fn finished(&mut self, _: &Tier) -> crate::Result<Option<Vec<Tier>>> {
        Ok(None)
    }

    fn load(&mut self, _: &Tier, _: Option<&dyn Fn(&Key) -> bool>) -> crate::Result<TierSolution<Tier, Key>> {
        Err(crate::Error::internal("retrograde", "a callback store was asked for a tier it never finished"))
    }

    fn save(&mut self, solution: &Arc<TierSolution<Tier, Key>>) -> crate::Result<()> {
        (self.0)(Arc::clone(solution))
    }
}

/// The un-move hook of a game, as a [`TierSpec`] keeps it until the solve has the game at hand.
type Parents<Ruleset> =
    fn(&Ruleset, &<Ruleset as crate::Rules>::Position, &mut Vec<<Ruleset as crate::Rules>::Position>);

/// The specification of a tiered solve (see the module's documentation). [`TierSpec::new`] is the common case;
/// each builder method changes one part.
pub struct TierSpec<
    'spec,
    Ruleset: Game + Tiers,
    Indexing = ByKey,
    Store = TieredSolution<<Ruleset as Tiers>::Tier, <Ruleset as crate::Canonicalize>::Key>,
> {
    indexing: Indexing,
    store: Store,
    schedule: Option<&'spec mut dyn TierSchedule<Ruleset::Tier, Ruleset::Key, Ruleset::Position>>,
    parents: Option<Parents<Ruleset>>,
}

impl<Ruleset: Game + Tiers> TierSpec<'_, Ruleset> {
    /// Hash maps, every tier kept in memory ([`TieredSolution`]), every tier solved here ([`InProcess`]),
    /// parents from reverse edges.
    pub fn new() -> Self {
        TierSpec { indexing: ByKey, store: TieredSolution { tiers: Vec::new() }, schedule: None, parents: None }
    }
}

impl<Ruleset: Game + Tiers> Default for TierSpec<'_, Ruleset> {
    fn default() -> Self {
        TierSpec::new()
    }
}

impl<'spec, Ruleset: Game + Tiers, Indexing, Store> TierSpec<'spec, Ruleset, Indexing, Store> {
    /// The same solve with each tier indexed by `indexing` (for example [`ByRank::of`]).
    pub fn indexed<Other: TierIndexing<Ruleset>>(self, indexing: Other) -> TierSpec<'spec, Ruleset, Other, Store> {
        TierSpec { indexing, store: self.store, schedule: self.schedule, parents: self.parents }
    }

    /// The same solve with the solved tiers kept by `store` (given back by the solve): [`OnTier`] for a
    /// callback, `&mut` a store that outlives the solve. A store that finished tiers in an earlier run has them
    /// loaded only when an unsolved parent tier needs them, never solved again, and not even enumerated when
    /// every tier below them is finished too.
    pub fn store<Other: TierStore<Ruleset::Tier, Ruleset::Key>>(
        self,
        store: Other,
    ) -> TierSpec<'spec, Ruleset, Indexing, Other> {
        TierSpec { indexing: self.indexing, store, schedule: self.schedule, parents: self.parents }
    }

    /// The same solve with each solved tier handed to `callback` at once (to write it out, or keep it) instead
    /// of kept: the store [`OnTier`].
    pub fn on_tier<Callback>(self, callback: Callback) -> TierSpec<'spec, Ruleset, Indexing, OnTier<Callback>>
    where
        Callback: FnMut(Arc<TierSolution<Ruleset::Tier, Ruleset::Key>>) -> crate::Result<()>,
    {
        self.store(OnTier(callback))
    }

    /// The same solve with the tiers solved as `schedule` decides (another schedule may hand them to other
    /// processes); the same values.
    #[must_use]
    pub fn schedule(
        self,
        schedule: &'spec mut dyn TierSchedule<Ruleset::Tier, Ruleset::Key, Ruleset::Position>,
    ) -> Self {
        TierSpec { schedule: Some(schedule), ..self }
    }

    /// The same solve with each position's parents from the game's [`Retrograde`] hook instead of reverse
    /// edges (half the memory of the edges); the same values for a hook that keeps its contract.
    #[must_use]
    pub fn parents_from_game(self) -> Self
    where
        Ruleset: Game + Retrograde,
    {
        TierSpec { parents: Some(<Ruleset as Retrograde>::parents), ..self }
    }

    /// The indexing.
    pub fn indexing(&self) -> &Indexing {
        &self.indexing
    }
}

impl RetrogradeSolver {
    /// Solves every position reachable from `start`, tier by tier, children first, as `spec` says (see
    /// [`TierSpec`]), and gives back the spec's store ([`TieredSolution`] by default: every tier's values).
    /// Only the tier being solved, the solved tiers that an unsolved tier still exits to, and the entry
    /// positions of unsolved tiers are held.
    ///
    /// Errors: the budget ([`crate::Error::Budget`]), a broken [`Tiers`] contract, the store's errors, and for
    /// [`ByRank`] a tier whose rank space is beyond `u32` range or the budget, and a key without a rank in its
    /// tier.
    pub fn solve_tiers<Ruleset, Indexing, Store>(
        &mut self,
        game: &Ruleset,
        start: &Ruleset::Position,
        spec: TierSpec<'_, Ruleset, Indexing, Store>,
    ) -> crate::Result<Store>
    where
        Ruleset: Game + Tiers + Sync,
        Indexing: TierIndexing<Ruleset>,
        Store: TierStore<Ruleset::Tier, Ruleset::Key>,
    {
        let TierSpec { indexing, mut store, schedule, parents } = spec;
        let hook = parents.map(|parents| {
            move |position: &Ruleset::Position, out: &mut Vec<Ruleset::Position>| parents(game, position, out)
        });
        let hook: Option<Hook<'_, Ruleset::Position>> = match &hook {
            Some(hook) => Some(hook),
            None => None,
        };
        match schedule {
            Some(schedule) => indexing.solve(self, game, start, hook, &mut store, schedule)?,
            None => indexing.solve(self, game, start, hook, &mut store, &mut InProcess)?,
        }
        Ok(store)
    }
}
