//! The tiered solve by rank ([`Rank`]): the entry points of [`RetrogradeSolver::solve_tiers`] and its kin for a
//! game that ranks its positions. Each tier is indexed by a flat array of places by rank, each solved tier keeps
//! its values in a flat array by rank, and the keys of the entry positions found for a tier are a bit per rank;
//! the values are those of the hashed solve, position for position (tested).
//!
//! The game is cloned once into an `Arc`, since a solved tier answers `value_of_key` without the caller's game
//! at hand: hence `Rules: Clone + 'static`.

use super::index::Ranked;
use super::schedule::{InProcess, TierSchedule};
use super::tiers::{Handed, TierStore, TieredSolution};
use super::{Rank, Retrograde, RetrogradeSolver, TierSolution};
use std::sync::Arc;

impl RetrogradeSolver {
    /// [`RetrogradeSolver::solve_tiers`] by rank: the same values, with each tier's index and values in flat
    /// arrays of [`Rank::tier_size`] entries instead of hash maps.
    ///
    /// Errors: those of [`RetrogradeSolver::solve_tiers`], a tier whose rank space is beyond `u32` range or the
    /// budget ([`RetrogradeSolver::with_budget`]), and a key without a rank in its tier.
    pub fn solve_tiers_ranked<Rules, OnTier>(
        &mut self,
        game: &Rules,
        start: &Rules::Position,
        on_tier: OnTier,
    ) -> crate::Result<()>
    where
        Rules: Rank + Clone + Send + Sync + 'static,
        Rules::Position: Send + Sync,
        Rules::Key: Send + Sync,
        OnTier: FnMut(Arc<TierSolution<Rules::Tier, Rules::Key>>) -> crate::Result<()>,
    {
        let ranked = Ranked::new(Arc::new(game.clone()));
        self.solve_tiered(game, start, None, &mut Handed(on_tier), &ranked, &mut InProcess)
    }

    /// [`RetrogradeSolver::solve_tiers_ranked`] with the parents from the game's [`Retrograde`] hook.
    pub fn solve_tiers_ranked_with_parents<Rules, OnTier>(
        &mut self,
        game: &Rules,
        start: &Rules::Position,
        on_tier: OnTier,
    ) -> crate::Result<()>
    where
        Rules: Rank + Retrograde + Clone + Send + Sync + 'static,
        Rules::Position: Send + Sync,
        Rules::Key: Send + Sync,
        OnTier: FnMut(Arc<TierSolution<Rules::Tier, Rules::Key>>) -> crate::Result<()>,
    {
        let hook = |position: &Rules::Position, out: &mut Vec<Rules::Position>| game.parents(position, out);
        let ranked = Ranked::new(Arc::new(game.clone()));
        self.solve_tiered(game, start, Some(&hook), &mut Handed(on_tier), &ranked, &mut InProcess)
    }

    /// [`RetrogradeSolver::solve_tiers_into`] by rank. The store's loaded tiers may be of either form; a store
    /// that loads them by rank ([`TierSolution::from_values_ranked`]) keeps the memory of a resumed solve low.
    pub fn solve_tiers_ranked_into<Rules, Store>(
        &mut self,
        game: &Rules,
        start: &Rules::Position,
        store: &mut Store,
        schedule: &mut dyn TierSchedule<Rules::Tier, Rules::Key, Rules::Position>,
    ) -> crate::Result<()>
    where
        Rules: Rank + Clone + Send + Sync + 'static,
        Rules::Position: Send + Sync,
        Rules::Key: Send + Sync,
        Store: TierStore<Rules::Tier, Rules::Key>,
    {
        let ranked = Ranked::new(Arc::new(game.clone()));
        self.solve_tiered(game, start, None, store, &ranked, schedule)
    }

    /// [`RetrogradeSolver::solve_tiers_ranked`], keeping every tier in memory.
    pub fn solve_tiers_ranked_in_memory<Rules>(
        &mut self,
        game: &Rules,
        start: &Rules::Position,
    ) -> crate::Result<TieredSolution<Rules::Tier, Rules::Key>>
    where
        Rules: Rank + Clone + Send + Sync + 'static,
        Rules::Position: Send + Sync,
        Rules::Key: Send + Sync,
    {
        let mut tiers = Vec::new();
        self.solve_tiers_ranked(game, start, |solved| {
            tiers.push(solved);
            Ok(())
        })?;
        Ok(TieredSolution { tiers })
    }
}
