//! Retrograde analysis: strong solving of every position reachable from a start, loopy games included.
//!
//! [`RetrogradeSolver`] enumerates the positions reachable from a start (one per [`Canonicalize`] key), indexes
//! them densely, finds each position's parents (from reverse edges it builds, or from the game's optional
//! [`Retrograde`] un-move hook), and runs backward induction from the finished positions: win and loss frontiers
//! by remoteness, a counter of undecided children per position. What is never decided is a draw: neither player
//! can force a win, though the game may go on forever (a loopy game, whose positions can repeat).
//!
//! The values are exactly those of [`crate::Value`]'s rules (win fast, lose slow): on an acyclic game they equal
//! memoized negamax's in [`crate::engines::Mode::Exact`] (tested on tic-tac-toe and Connect Four 4 x 4).
//! Which engines accept loopy games: only this one. The negamax, alpha-beta and parallel engines require
//! positions that never repeat ([`crate::Game`]'s contract) and must not be used on a loopy game.
//!
//! With [`Tiers`], a game splits its positions into tiers (for example stones on the board); tiers are solved
//! children first ([`RetrogradeSolver::solve_tiers`]), each tier enumerated and induced on its own with its
//! exits looked up in the solved child tiers, which are kept only until every parent tier is solved. A tier
//! that no move stays in (Connect Four by stones) is solved in one pass, without frontiers.
//!
//! With [`Rank`] as well, a game numbers the positions of each tier densely, and a solve indexed by
//! [`ByRank`] ([`TierSpec::indexed`]) indexes a tier by a flat array of `tier_size` places instead of a
//! hash map, and keeps a solved tier's values in a flat array by rank: the same values, in a fraction of the
//! memory when most ranks are positions of the tier.
//!
//! Work is parallel (rayon, in the caller's pool) within a step: move generation over a chunk of positions,
//! and the visit of a frontier's parents. The result does not depend on the number of threads.
//!
//! Files: `explore.rs` (enumeration of a tier), `index.rs` (the key-to-place index: hash map or array by
//! rank), `induction.rs` (reverse edges and backward induction), `solution.rs` (packed values,
//! [`TierSolution`]), `tiers.rs` (the tier graph, the discovery and the per-tier step), `schedule.rs` (the
//! [`TierSchedule`] seam: who solves which tier when; [`InProcess`] by default), `spec.rs` (the one entry
//! point, [`RetrogradeSolver::solve_tiers`], and its [`TierSpec`]: indexing, store, schedule, parents).

mod explore;
mod index;
mod induction;
mod ranked;
mod schedule;
mod solution;
#[cfg(feature = "mpi")]
pub(crate) use solution::is_narrow_value;
#[cfg(feature = "database")]
pub(crate) use solution::zeroed_records;
mod spec;
mod tiers;
#[cfg(feature = "database")]
pub(crate) use tiers::tier_order;

pub use index::{ByKey, ByRank};
pub use ranked::{ChildShare, RankSet, Share, ShareSolution, SharedPlan, SharedWork, Shares, SHARE_ALIGNMENT};
pub use schedule::{agree, Entries, Exchange, InProcess, SolvedTiers, TierPlan, TierSchedule, TierSurvey, TierWork};
pub use solution::{PackedValue, TierSolution, TierStatistics, MAX_NARROW_REMOTENESS, MAX_REMOTENESS};
pub use spec::{OnTier, TierIndexing, TierSpec};
pub use tiers::{TierStore, TieredSolution};

use super::alpha_beta::{ProgressHandle, Test};
use super::Statistics;
use crate::game::Canonicalize;
use crate::game::Game;
use crate::stats::Stats;
use explore::{explore, Explored};
use index::{HashIndex, Index};
use induction::{induce, ReverseEdges};
use std::fmt::Debug;
use std::hash::Hash;

/// An optional un-move hook: the positions from which one move leads to a position. With it the solver keeps
/// no reverse edges (half the memory of the edges it would build).
///
/// Contract, for the positions reachable from the start, with "move" meaning a move that [`crate::Rules::moves`]
/// lists at a position that is not over: (complete) if a move from `q` leads to a position with the canonical
/// key of `p`, then some position listed by `parents(p)` has the canonical key of `q`; (sound) every listed
/// position that is reachable has a move to a position with the canonical key of `p`. Listed positions that
/// are not reachable are ignored, and duplicates are harmless. A hook that breaks the contract gives wrong
/// values (an unsound one is detected only when a counter of undecided children would fall below zero, an
/// error); test a hook against [`is_parent`] on every reachable position.
pub trait Retrograde: Canonicalize {
    /// Appends to `parents` the positions from which one move leads to `position` (or to a position with its key).
    fn parents(&self, position: &Self::Position, parents: &mut Vec<Self::Position>);
}

/// An optional split of positions into tiers, solved children first.
///
/// Contract: equal canonical keys have equal tiers; every move from a position of tier `t` leads to a position
/// of `t` itself or of one of `child_tiers(t)` (the solver reports a move to any other tier as an error); the
/// tier graph, self-loops aside, has no cycle (reported as an error) and, from the start's tier, is finite
/// (the solver stops at as many tiers as its position budget). Moves within a tier may form cycles.
pub trait Tiers: Canonicalize {
    /// A tier's name; its order breaks ties when tiers are scheduled, so that solves are deterministic.
    type Tier: Clone + Eq + Hash + Ord + Debug + Send + Sync;

    /// The tier of `position`.
    fn tier(&self, position: &Self::Position) -> Self::Tier;

    /// The tiers that a move from a position of `tier` may lead to, other than `tier` itself. Listing a tier
    /// that no move reaches costs only time.
    fn child_tiers(&self, tier: &Self::Tier) -> Vec<Self::Tier>;

    /// Whether a move from a position of `tier` may lead to a position of `tier` itself; `true` unless the game
    /// knows better. Contract: `false` only if no move stays in the tier. A hint of the planner's memory model
    /// (`ludus db plan`): the solve by un-moves never writes the counters of such a tier.
    fn moves_stay_in(&self, tier: &Self::Tier) -> bool {
        let _ = tier;
        true
    }
}

/// An optional dense numbering of each tier's positions: a rank per canonical key, so that a tier's index and
/// values live in flat arrays of `tier_size` entries instead of hash maps
/// ([`ByRank`]).
///
/// Contract, for every tier `tier` and every canonical key `key` of a position of `tier` reachable from the
/// start: `rank(tier, key)` is `Some(r)` with `r < tier_size(tier)`; distinct keys get distinct ranks; and
/// `unrank(tier, r) == Some(key)`. For other keys and ranks, `rank` and `unrank` may return `None` or any value,
/// but must not panic. A rank space need not be tight (ranks of no reachable position cost 4 bytes each by
/// reverse edges, 3 by un-moves), but it is allocated whole: a tier whose `tier_size` is beyond the solver's
/// budget (see [`RetrogradeSolver::with_budget`]), or beyond `u32` range in the solve by reverse edges, is
/// refused with an error before anything is allocated (ranks are 64-bit in the solve by un-moves, in one
/// process or split by shares). The solver
/// reports a key without a rank in its tier as an error; a `rank` that is not injective or an `unrank` that
/// does not invert it gives wrong values or files, undetected: test a ranking on every reachable position.
pub trait Rank: Tiers {
    /// The number of ranks of `tier`: every rank of its keys is below it.
    fn tier_size(&self, tier: &Self::Tier) -> u64;

    /// The rank of `key` within `tier`.
    fn rank(&self, tier: &Self::Tier, key: &Self::Key) -> Option<u64>;

    /// The key of rank `rank` within `tier`.
    fn unrank(&self, tier: &Self::Tier, rank: u64) -> Option<Self::Key>;
}

/// A game's [`Rank`] as an object: what a database holds to read and write the files of a game laid out by rank
/// (every [`Rank`] game is one).
pub trait Ranks<Tier, Key>: Send + Sync {
    /// [`Rank::tier_size`].
    fn tier_size(&self, tier: &Tier) -> u64;

    /// [`Rank::rank`], below the tier's size.
    fn rank(&self, tier: &Tier, key: &Key) -> Option<u64>;

    /// [`Rank::unrank`].
    fn unrank(&self, tier: &Tier, rank: u64) -> Option<Key>;
}

impl<Ruleset: Game + Rank + Send + Sync> Ranks<Ruleset::Tier, Ruleset::Key> for Ruleset {
    fn tier_size(&self, tier: &Ruleset::Tier) -> u64 {
        Rank::tier_size(self, tier)
    }

    fn rank(&self, tier: &Ruleset::Tier, key: &Ruleset::Key) -> Option<u64> {
        Rank::rank(self, tier, key).filter(|&rank| rank < Rank::tier_size(self, tier))
    }

    fn unrank(&self, tier: &Ruleset::Tier, rank: u64) -> Option<Ruleset::Key> {
        Rank::unrank(self, tier, rank)
    }
}

/// The memory the tier engine holds per position of a tier being solved, as estimated for the budget: the
/// position, its key twice (index and entry list), its value, counter and edge offsets, its hash slot, and
/// about eight edges each way. Measured peaks (BENCHMARKS.md) stay below it. This is the hashed solve's
/// ([`ByKey`]'s [`TierIndexing::bytes_per_position`]; the untiered solve's too).
pub fn bytes_per_position<Position, Key>() -> u64 {
    (std::mem::size_of::<Position>() + 2 * std::mem::size_of::<Key>() + 96) as u64
}

/// The retrograde engine. It holds a budget and its statistics; solutions are returned, not kept.
///
/// ```
/// use ludus_framework::engines::retrograde::RetrogradeSolver;
/// use ludus_framework::{Canonicalize, Game, Rules, Value};
///
/// /// A token on cells 0..=3; a move takes it to a listed cell. At cell 3 the player to move has lost.
/// /// From 1 the token may go on to 2 (which hands the opponent the win) or back to 0.
/// struct Shuttle;
/// impl Rules for Shuttle {
///     type Position = u8;
///     type Move = u8;
///     type Outcome = Value;
///     fn moves(&self, cell: &u8, moves: &mut Vec<u8>) {
///         moves.extend_from_slice(match cell { 0 => &[1], 1 => &[2, 0], _ => &[3] });
///     }
///     fn play(&self, _: &u8, target: &u8) -> u8 { *target }
///     fn outcome(&self, cell: &u8) -> Option<Value> { (*cell == 3).then_some(Value::LOST) }
/// }
///
/// impl Game for Shuttle {}
/// impl Canonicalize for Shuttle {
///     type Key = u8;
///     fn canonical(&self, cell: &u8) -> u8 { *cell }
/// }
///
/// let solution = RetrogradeSolver::new().solve(&Shuttle, &0)?;
/// assert_eq!(solution.value(&Shuttle, &2), Some(Value::Win(1)));
/// // Neither player leaves the loop 0 <-> 1: moving to 2 loses.
/// assert_eq!(solution.value(&Shuttle, &1), Some(Value::Draw));
/// assert_eq!(solution.value(&Shuttle, &0), Some(Value::Draw));
/// assert_eq!(solution.len(), 4);
/// # Ok::<(), ludus_framework::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct RetrogradeSolver {
    budget: u64,
    stats: Stats,
    /// Where a solve shows its steps to a watcher on another thread (the CLI's progress line).
    line: Option<ProgressHandle>,
}

impl Default for RetrogradeSolver {
    fn default() -> Self {
        RetrogradeSolver::new()
    }
}

/// An un-move hook as the solver calls it.
type Hook<'hook, Position> = &'hook (dyn Fn(&Position, &mut Vec<Position>) + Sync);

impl RetrogradeSolver {
    /// A solver without a budget.
    pub fn new() -> Self {
        RetrogradeSolver { budget: u64::MAX, stats: Stats::default(), line: None }
    }

    /// The same solver showing its steps in `line` (none: `None`): the positions enumerated, then each
    /// remoteness of the backward induction and the positions it decides, for a watcher on another thread (the
    /// CLI's progress line).
    #[must_use]
    pub fn with_progress_line(self, line: Option<ProgressHandle>) -> Self {
        RetrogradeSolver { line, ..self }
    }

    /// The same solver holding at most `positions` positions in memory at once (a tier's positions, the
    /// solved tiers still needed, and the entry positions waiting for their tier); past it a solve returns
    /// [`crate::Error::Budget`] with [`crate::Budget::Positions`], never a value. A solve by rank counts a
    /// tier's rank space too, eight ranks as one position (a rank's slot is 4 bytes), for the tier being solved
    /// and for each solved tier held: an upper bound of its memory as long as a position stands for at least 32
    /// bytes.
    #[must_use]
    pub fn with_budget(self, positions: u64) -> Self {
        RetrogradeSolver { budget: positions, ..self }
    }

    /// The value of every position reachable from `start`, with reverse edges built by the solver.
    pub fn solve<Ruleset>(
        &mut self,
        game: &Ruleset,
        start: &Ruleset::Position,
    ) -> crate::Result<TierSolution<(), Ruleset::Key>>
    where
        Ruleset: Game + Canonicalize + Sync,
        Ruleset::Position: Send + Sync,
        Ruleset::Key: Send + Sync,
    {
        self.solve_alone(game, start, None)
    }

    /// [`RetrogradeSolver::solve`] with the parents from the game's [`Retrograde`] hook (no reverse edges).
    pub fn solve_with_parents<Ruleset>(
        &mut self,
        game: &Ruleset,
        start: &Ruleset::Position,
    ) -> crate::Result<TierSolution<(), Ruleset::Key>>
    where
        Ruleset: Game + Retrograde + Sync,
        Ruleset::Position: Send + Sync,
        Ruleset::Key: Send + Sync,
    {
        let hook = |position: &Ruleset::Position, out: &mut Vec<Ruleset::Position>| game.parents(position, out);
        self.solve_alone(game, start, Some(&hook))
    }

    /// The untiered solve: one tier holding every reachable position.
    fn solve_alone<Ruleset>(
        &mut self,
        game: &Ruleset,
        start: &Ruleset::Position,
        hook: Option<Hook<'_, Ruleset::Position>>,
    ) -> crate::Result<TierSolution<(), Ruleset::Key>>
    where
        Ruleset: Game + Canonicalize + Sync,
        Ruleset::Position: Send + Sync,
        Ruleset::Key: Send + Sync,
    {
        let never_outside = |_: &Ruleset::Position| None::<()>;
        let no_exit = |_: Ruleset::Key, _: Ruleset::Position, _: ()| Ok(None);
        let index = HashIndex::new();
        let line = self.line.clone();
        let line = line.as_ref().map(|handle| &*handle.0);
        line.inspect(|line| {
            line.start();
            line.testing(Test::Enumerating);
        });
        let solved = explore(game, vec![start.clone()], index, self.budget, self.budget, never_outside, no_exit, line)
            .and_then(|explored| self.induce_tier(game, (), explored, hook, Vec::new()));
        line.inspect(|line| line.finish());
        let solution = solved?;
        self.stats.table_entries = solution.len() as u64;
        Ok(solution)
    }

    /// Backward induction over an enumerated tier, parents from `hook` or from reverse edges.
    fn induce_tier<Ruleset, Places, Tier>(
        &mut self,
        game: &Ruleset,
        tier: Tier,
        explored: Explored<Ruleset::Position, Places>,
        hook: Option<Hook<'_, Ruleset::Position>>,
        reached: Vec<Tier>,
    ) -> crate::Result<TierSolution<Tier, Ruleset::Key>>
    where
        Ruleset: Game + Canonicalize + Sync,
        Ruleset::Position: Send + Sync,
        Ruleset::Key: Send + Sync,
        Places: Index<Ruleset::Key>,
    {
        self.stats.visited += explored.expanded;
        self.stats.hits += explored.hits;
        let Explored { positions, index, offsets, children, setup, exits, .. } = explored;
        let counts: Vec<u32> = offsets.windows(2).map(|window| (window[1] - window[0]) as u32).collect();
        let edges = children.len() as u64;
        let size = positions.len() as u64;
        let induced = match hook {
            Some(hook) => {
                drop(children);
                let parents = |child: u32, out: &mut Vec<u32>| {
                    let Some(position) = positions.get(child as usize) else { return };
                    let mut found = Vec::new();
                    hook(position, &mut found);
                    out.extend(found.iter().filter_map(|parent| index.get(&game.canonical(parent))));
                    // Each parent once: the counters count distinct children.
                    out.sort_unstable();
                    out.dedup();
                };
                induce(&counts, &setup, edges, parents, self.line.as_ref().map(|handle| &*handle.0))?
            }
            None => {
                // The induction needs only indices: the positions go before the reverse edges come.
                drop(positions);
                let reverse = ReverseEdges::new(&offsets, &children);
                drop(children);
                let line = self.line.as_ref().map(|handle| &*handle.0);
                induce(&counts, &setup, edges, |child, out: &mut Vec<u32>| reverse.parents(child, out), line)?
            }
        };
        let statistics = TierStatistics { positions: size, edges, exits, levels: induced.levels };
        let (lookup, values) = index.into_lookup(induced.values)?;
        Ok(TierSolution::new(tier, lookup, values, statistics, reached))
    }
}

impl Statistics for RetrogradeSolver {
    /// Visited: positions whose moves were generated (a tiered solve generates them twice: once to find the
    /// tiers' entries, once to solve); hits: children found already indexed; table entries: positions in the
    /// last solution (all tiers of a tiered solve).
    fn stats(&self) -> Stats {
        self.stats
    }
}

/// Whether `game`'s positions `from` and `to` are one move apart, for tests of an un-move hook.
pub fn is_parent<Ruleset: Game + Canonicalize>(
    game: &Ruleset,
    from: &Ruleset::Position,
    to: &Ruleset::Position,
) -> bool {
    if game.outcome(from).is_some() {
        return false;
    }
    let key = game.canonical(to);
    game.legal_moves(from).iter().any(|mv| game.canonical(&game.play(from, mv)) == key)
}
