//! The tiered solve: the tier graph from the start's tier, a discovery pass parents first (each tier enumerated
//! once to find the entry positions of its child tiers), then the solve children first, each tier's exits read
//! from its solved child tiers, which are dropped once every parent tier is solved. Written once for both
//! indexings ([`Layout`]: hash maps or arrays by rank); the entry point that chooses one is in `spec.rs`.

use super::explore::explore;
use super::index::{KeySet, Layout};
use super::schedule::{Entries, SolvedTiers, TierPlan, TierSchedule, TierSurvey, TierWork};
use super::solution::TierSolution;
use super::{Hook, RetrogradeSolver, Tiers};
use crate::error::{Budget, Error};
use crate::game::Game;
use crate::value::Value;
use hashbrown::hash_map::Entry;
use hashbrown::{HashMap, HashSet};
use std::collections::BTreeSet;
use std::sync::Arc;

/// The solutions of every reachable tier, kept in memory: the default store of a [`super::TierSpec`], which
/// [`RetrogradeSolver::solve_tiers`] then returns.
#[derive(Debug)]
pub struct TieredSolution<Tier, Key> {
    /// The solved tiers, children first (the order in which they were solved).
    pub tiers: Vec<Arc<TierSolution<Tier, Key>>>,
}

impl<Tier: Eq, Key: Eq + std::hash::Hash> TieredSolution<Tier, Key> {
    /// The value of `position`, or `None` if it was not reachable.
    pub fn value<Ruleset>(&self, game: &Ruleset, position: &Ruleset::Position) -> Option<Value>
    where
        Ruleset: Game + Tiers<Tier = Tier, Key = Key>,
    {
        let tier = game.tier(position);
        let key = game.canonical(position);
        self.tiers.iter().find(|solved| *solved.tier() == tier).and_then(|solved| solved.value_of_key(&key))
    }

    /// The number of positions over all tiers.
    pub fn len(&self) -> usize {
        self.tiers.iter().map(|solved| solved.len()).sum()
    }

    /// Whether no position was solved.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Where a tiered solve keeps the tiers it solves, and finds those solved by an earlier run (a solve that was
/// stopped resumes from them): in memory, or a database on disk.
///
/// Contract: a tier is `finished` only if `save` was given its solution, for this game and start, in this or
/// an earlier run; `load` returns that solution; `finished` returns its [`TierSolution::reached`].
pub trait TierStore<Tier, Key> {
    /// Takes the store for this solve before anything is read or written (the process that surveys the tiers
    /// calls it once; a store on disk locks its directory); by default nothing is done.
    fn claim(&mut self) -> crate::Result<()> {
        Ok(())
    }

    /// If `tier` was solved already, the child tiers that its moves reach (read without loading its values).
    fn finished(&mut self, tier: &Tier) -> crate::Result<Option<Vec<Tier>>>;

    /// The solution of a finished tier, or with `keep` only its records whose key `keep` accepts (a process's
    /// share of a tier split over several).
    fn load(&mut self, tier: &Tier, keep: Option<&dyn Fn(&Key) -> bool>) -> crate::Result<TierSolution<Tier, Key>>;

    /// Keeps the solution of a tier just solved.
    fn save(&mut self, solution: &Arc<TierSolution<Tier, Key>>) -> crate::Result<()>;

    /// Hears that another process solved `tier` into the store (its schedule says so), in `elapsed`, the
    /// processes sending one another `sent` bytes for it; by default nothing is done.
    fn saved_elsewhere(&mut self, tier: &Tier, elapsed: std::time::Duration, sent: u64) -> crate::Result<()> {
        let _ = (tier, elapsed, sent);
        Ok(())
    }

    /// A file where the solve may keep what it found of `tier` until the tier is solved (the solve by
    /// un-moves: its reachable set), so that it is not held in memory meanwhile; by default none. The solve
    /// removes the file once read; a stopped solve leaves it, and the next one writes it anew.
    fn scratch_path(&self, tier: &Tier) -> crate::Result<Option<std::path::PathBuf>> {
        let _ = tier;
        Ok(None)
    }
}

impl<Tier, Key> TierStore<Tier, Key> for TieredSolution<Tier, Key>
where
    Tier: Clone + Eq + std::hash::Hash,
    Key: Clone + Eq + std::hash::Hash,
{
    fn finished(&mut self, tier: &Tier) -> crate::Result<Option<Vec<Tier>>> {
        Ok(self.solved(tier).map(|solved| solved.reached().to_vec()))
    }

    fn load(&mut self, tier: &Tier, keep: Option<&dyn Fn(&Key) -> bool>) -> crate::Result<TierSolution<Tier, Key>> {
        let solved =
            self.solved(tier).ok_or_else(|| Error::internal("retrograde", "a tier loaded before it was saved"))?;
        match keep {
            None => Ok(solved.as_ref().clone()),
            Some(keep) => {
                let records = solved.iter().filter(|(key, _)| keep(key)).collect();
                TierSolution::from_values(tier.clone(), records, solved.reached().to_vec())
            }
        }
    }

    fn save(&mut self, solution: &Arc<TierSolution<Tier, Key>>) -> crate::Result<()> {
        self.tiers.push(Arc::clone(solution));
        Ok(())
    }
}

impl<Tier: Eq, Key: Eq + std::hash::Hash> TieredSolution<Tier, Key> {
    /// The solution of `tier`, if it is held.
    fn solved(&self, tier: &Tier) -> Option<&Arc<TierSolution<Tier, Key>>> {
        self.tiers.iter().find(|solved| *solved.tier() == *tier)
    }
}

impl<Tier, Key, Store: TierStore<Tier, Key> + ?Sized> TierStore<Tier, Key> for &mut Store {
    fn claim(&mut self) -> crate::Result<()> {
        (**self).claim()
    }

    fn finished(&mut self, tier: &Tier) -> crate::Result<Option<Vec<Tier>>> {
        (**self).finished(tier)
    }

    fn load(&mut self, tier: &Tier, keep: Option<&dyn Fn(&Key) -> bool>) -> crate::Result<TierSolution<Tier, Key>> {
        (**self).load(tier, keep)
    }

    fn save(&mut self, solution: &Arc<TierSolution<Tier, Key>>) -> crate::Result<()> {
        (**self).save(solution)
    }

    fn scratch_path(&self, tier: &Tier) -> crate::Result<Option<std::path::PathBuf>> {
        (**self).scratch_path(tier)
    }

    fn saved_elsewhere(&mut self, tier: &Tier, elapsed: std::time::Duration, sent: u64) -> crate::Result<()> {
        (**self).saved_elsewhere(tier, elapsed, sent)
    }
}

/// Each tier's child tiers (sorted, without the tier itself).
type TierGraph<Tier> = HashMap<Tier, Vec<Tier>>;

/// The reachable tiers, parents first, and the tier graph.
type Ordered<Tier> = (Vec<Tier>, TierGraph<Tier>);

/// The entry positions found for a tier not yet enumerated, one per key (of the set).
type Found<Seen, Position> = (Seen, Vec<Position>);

/// The error of a game whose tiers break the [`Tiers`] contract.
pub(super) fn broken(what: String) -> Error {
    Error::Contract { contract: "Tiers", detail: what }
}

/// The tiers reachable from `start` in the tier graph, each with its child tiers, in an order where every tier
/// comes before its children (ties broken by the tiers' order). At most `budget` tiers.
pub(crate) fn tier_order<Ruleset: Game + Tiers>(
    game: &Ruleset,
    start: Ruleset::Tier,
    budget: u64,
) -> crate::Result<Ordered<Ruleset::Tier>> {
    let mut children: HashMap<Ruleset::Tier, Vec<Ruleset::Tier>> = HashMap::new();
    let mut stack = vec![start.clone()];
    while let Some(tier) = stack.pop() {
        if children.contains_key(&tier) {
            continue;
        }
        if children.len() as u64 >= budget {
            return Err(Error::Budget(Budget::Positions(budget)));
        }
        let mut below: Vec<Ruleset::Tier> =
            game.child_tiers(&tier).into_iter().filter(|child| *child != tier).collect();
        below.sort();
        below.dedup();
        stack.extend(below.iter().filter(|child| !children.contains_key(*child)).cloned());
        children.insert(tier, below);
    }
    // Kahn's algorithm; the smallest ready tier first, so that the order is deterministic.
    let order = {
        let mut parents_left: HashMap<&Ruleset::Tier, usize> = children.keys().map(|tier| (tier, 0)).collect();
        for below in children.values() {
            for child in below {
                if let Some(count) = parents_left.get_mut(child) {
                    *count += 1;
                }
            }
        }
        let mut ready: BTreeSet<&Ruleset::Tier> =
            parents_left.iter().filter(|(_, &count)| count == 0).map(|(&tier, _)| tier).collect();
        let mut order = Vec::with_capacity(children.len());
        while let Some(tier) = ready.pop_first() {
            order.push(tier.clone());
            for child in children.get(tier).map(Vec::as_slice).unwrap_or(&[]) {
                if let Some(count) = parents_left.get_mut(child) {
                    *count -= 1;
                    if *count == 0 {
                        ready.insert(child);
                    }
                }
            }
        }
        order
    };
    if order.len() != children.len() {
        return Err(broken("the tier graph has a cycle".into()));
    }
    Ok((order, children))
}

/// The tier graph from `start`'s tier and the tiers `store` finished before (see [`TierSurvey`]); the store is
/// claimed first.
pub(super) fn survey<Ruleset: Game + Tiers>(
    game: &Ruleset,
    start: &Ruleset::Position,
    store: &mut dyn TierStore<Ruleset::Tier, Ruleset::Key>,
    budget: u64,
) -> crate::Result<TierSurvey<Ruleset::Tier>> {
    store.claim()?;
    let (order, children) = tier_order(game, game.tier(start), budget)?;
    // The tiers an earlier run finished; those whose reached tiers are all finished too ("closed") need no
    // enumeration, since nothing below them is left to find entries for.
    let mut finished: HashSet<Ruleset::Tier> = HashSet::new();
    let mut closed: HashSet<Ruleset::Tier> = HashSet::new();
    for tier in order.iter().rev() {
        if let Some(reached) = store.finished(tier)? {
            if reached.iter().all(|child| closed.contains(child)) {
                closed.insert(tier.clone());
            }
            finished.insert(tier.clone());
        }
    }
    Ok(TierSurvey { order, children, finished, closed })
}

impl RetrogradeSolver {
    /// The tiered solve, each tier indexed as `how` indexes it, the tiers solved as `schedule` decides.
    pub(super) fn solve_tiered<Ruleset, How>(
        &mut self,
        game: &Ruleset,
        start: &Ruleset::Position,
        hook: Option<Hook<'_, Ruleset::Position>>,
        store: &mut dyn TierStore<Ruleset::Tier, Ruleset::Key>,
        how: &How,
        schedule: &mut dyn TierSchedule<Ruleset::Tier, Ruleset::Key, Ruleset::Position>,
    ) -> crate::Result<()>
    where
        Ruleset: Game + Tiers + Sync,
        Ruleset::Position: Send + Sync,
        Ruleset::Key: Send + Sync,
        How: Layout<Ruleset::Tier, Ruleset::Key>,
    {
        self.stats.table_entries = 0;
        let mut run = TieredRun { solver: self, game, start, hook, store, how };
        schedule.run(&mut run)
    }
}

/// One tiered solve (a game, its start, an indexing and a store) as a schedule drives it.
struct TieredRun<'run, 'hook, Ruleset: Game + Tiers, How> {
    solver: &'run mut RetrogradeSolver,
    game: &'run Ruleset,
    start: &'run Ruleset::Position,
    hook: Option<Hook<'hook, Ruleset::Position>>,
    store: &'run mut dyn TierStore<Ruleset::Tier, Ruleset::Key>,
    how: &'run How,
}

impl<Ruleset, How> TieredRun<'_, '_, Ruleset, How>
where
    Ruleset: Game + Tiers + Sync,
    Ruleset::Key: Send + Sync,
    How: Layout<Ruleset::Tier, Ruleset::Key>,
{
    /// An empty index of `tier` with the positions it may take when `available` are left, refused before its
    /// array is allocated if its rank space alone is over the budget.
    fn index_within(&self, tier: &Ruleset::Tier, available: u64) -> crate::Result<(How::Index, u64)> {
        let units = self.how.index_units(tier)?;
        if units > available {
            return Err(Error::Budget(Budget::Positions(self.solver.budget)));
        }
        Ok((self.how.index(tier)?, available - units))
    }
}

impl<Ruleset, How> TierWork<Ruleset::Tier, Ruleset::Key, Ruleset::Position> for TieredRun<'_, '_, Ruleset, How>
where
    Ruleset: Game + Tiers + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: Send + Sync,
    How: Layout<Ruleset::Tier, Ruleset::Key>,
{
    fn survey(&mut self) -> crate::Result<TierSurvey<Ruleset::Tier>> {
        survey(self.game, self.start, self.store, self.solver.budget)
    }

    fn discover(&mut self) -> crate::Result<TierPlan<Ruleset::Tier, Ruleset::Position>> {
        let TierSurvey { order, children, finished, closed } = self.survey()?;
        let (game, start, how) = (self.game, self.start, self.how);
        let budget = self.solver.budget;
        let over_budget = || Error::Budget(Budget::Positions(budget));

        // Discovery, parents first: each tier's entry positions, deduplicated by key. `held` counts the entry
        // positions and the sets of their keys.
        let mut pending: HashMap<Ruleset::Tier, Found<How::Seen, Ruleset::Position>> = HashMap::new();
        let start_tier = game.tier(start);
        let mut held: u64 = 1 + how.seen_units(&start_tier)?;
        let mut seen = how.seen(&start_tier)?;
        seen.insert(game.canonical(start))?;
        pending.insert(start_tier, (seen, vec![start.clone()]));
        let mut entries: HashMap<Ruleset::Tier, Entries<Ruleset::Position>> = HashMap::new();
        for tier in &order {
            let Some((_, seeds)) = pending.remove(tier) else { continue };
            held = held.saturating_sub(how.seen_units(tier)?);
            let count = seeds.len();
            if closed.contains(tier) {
                held = held.saturating_sub(count as u64);
                continue;
            }
            let below = children.get(tier).map(Vec::as_slice).unwrap_or(&[]);
            let (index, limit) = self.index_within(tier, budget.saturating_sub(held).saturating_add(count as u64))?;
            let outside = |child: &Ruleset::Position| Some(game.tier(child)).filter(|child_tier| child_tier != tier);
            let route = |key: Ruleset::Key, child: Ruleset::Position, child_tier: Ruleset::Tier| {
                if !below.contains(&child_tier) {
                    return Err(broken(format!(
                        "a move from tier {tier:?} reaches tier {child_tier:?}, not a child tier"
                    )));
                }
                let (keys, positions) = match pending.entry(child_tier) {
                    Entry::Occupied(entry) => entry.into_mut(),
                    Entry::Vacant(entry) => {
                        held += how.seen_units(entry.key())?;
                        let keys = how.seen(entry.key())?;
                        entry.insert((keys, Vec::new()))
                    }
                };
                if keys.insert(key)? {
                    held += 1;
                    positions.push(child);
                }
                if held > budget {
                    return Err(over_budget());
                }
                Ok(None)
            };
            let line = self.solver.line.as_ref().map(|handle| &*handle.0);
            let mut explored = explore(game, seeds, index, limit, budget, outside, route, line)?;
            self.solver.stats.visited += explored.expanded;
            explored.positions.truncate(count);
            entries.insert(tier.clone(), Entries::Positions(explored.positions));
        }
        Ok(TierPlan { order, children, finished, entries, held })
    }

    fn solve_tier(
        &mut self,
        tier: &Ruleset::Tier,
        entries: Entries<Ruleset::Position>,
        solved: &SolvedTiers<Ruleset::Tier, Ruleset::Key>,
        available: u64,
    ) -> crate::Result<TierSolution<Ruleset::Tier, Ruleset::Key>> {
        let Entries::Positions(entries) = entries else {
            return Err(Error::internal("retrograde", "a tier enumerated from its entries was handed a set of ranks"));
        };
        let game = self.game;
        let mut reached = BTreeSet::new();
        let outside = |child: &Ruleset::Position| Some(game.tier(child)).filter(|child_tier| child_tier != tier);
        let route = |key: Ruleset::Key, _: Ruleset::Position, child_tier: Ruleset::Tier| {
            let value = solved.get(&child_tier).and_then(|solution| solution.value_of_key(&key));
            reached.insert(child_tier.clone());
            value.map(Some).ok_or_else(|| {
                broken(format!(
                    "a move from tier {tier:?} reaches a position of tier {child_tier:?} that was not found there"
                ))
            })
        };
        let (index, limit) = self.index_within(tier, available)?;
        let line = self.solver.line.as_ref().map(|handle| &*handle.0);
        let explored = explore(game, entries, index, limit, self.solver.budget, outside, route, line)?;
        let reached = reached.into_iter().collect();
        let solution = self.solver.induce_tier(game, tier.clone(), explored, self.hook, reached)?;
        self.solver.stats.table_entries += solution.len() as u64;
        Ok(solution)
    }

    fn store(&mut self) -> &mut dyn TierStore<Ruleset::Tier, Ruleset::Key> {
        self.store
    }

    fn budget(&self) -> u64 {
        self.solver.budget
    }

    fn start(&self) -> Ruleset::Position {
        self.start.clone()
    }
}
