//! The discovery of one tier by shares: each process closes its share of the tier under the tier's moves by
//! rounds, [`super::CHUNK`] positions expanded between two exchanges; a child's rank owned by another process
//! is sent to it (an in-tier child joins the owner's share and its next frontier, an exit the owner's share of
//! the child tier's entries).

use super::{batches, decode, pair, rank_of, ranks_from, rounds, taken, target_of, Shares, CHUNK};
use crate::engines::retrograde::ranked::reach::RankSet;
use crate::engines::retrograde::ranked::{contract, Ranked};
use crate::engines::retrograde::schedule::{agree, Exchange};
use crate::engines::retrograde::tiers::broken;
use crate::engines::retrograde::Rank;
use crate::game::Game;
use rayon::prelude::*;
use std::sync::atomic::Ordering::Relaxed;

/// A set of one tier's share as the discovery adds to it: the tier's shares and this process's set.
struct Target<'set> {
    shares: Shares,
    set: &'set RankSet,
}

impl Target<'_> {
    /// Adds `rank` (one this process owns) to the set; its local index if it was new, `Some(None)` if it was in
    /// the set. `None`: a rank past the share.
    fn insert(&self, rank: u64) -> Option<Option<u64>> {
        let local = self.shares.local(rank);
        self.set.insert(local).map(|new| new.then_some(local))
    }
}

impl<Ruleset: Game + Rank + Send + Sync + 'static> Ranked<'_, Ruleset>
where
    Ruleset::Position: Send + Sync,
    Ruleset::Key: Send + Sync,
{
    /// Closes `seeds` (this process's share of the entries of `tier`) under the tier's moves, with every other
    /// process: this process's share of the positions of the tier reached. Each exit's rank joins its owner's
    /// set of its tier in `below` (the child tiers, their shares, this process's sets).
    pub(super) fn reach_share(
        &self,
        tier: &Ruleset::Tier,
        seeds: RankSet,
        below: &[(Ruleset::Tier, Shares, &RankSet)],
        exchange: &dyn Exchange,
    ) -> crate::Result<RankSet> {
        let (me, processes) = (exchange.this_rank(), exchange.ranks());
        let game = self.game;
        let size = game.tier_size(tier);
        let shares = Shares::new(size, processes);
        let reached = agree(exchange, RankSet::new(seeds.size()))?;
        for (from, into) in seeds.words().iter().zip(reached.words()) {
            into.store(from.load(Relaxed), Relaxed);
        }
        let mut frontier = seeds;
        loop {
            let next = agree(exchange, RankSet::new(frontier.size()))?;
            // Target 0 is this tier (into `reached`, and `next` if new), target `i + 1` the child `below[i]`.
            let targets: Vec<Target<'_>> = std::iter::once(Target { shares, set: &reached })
                .chain(below.iter().map(|(_, shares, set)| Target { shares: *shares, set }))
                .collect();
            let add = |target: u32, rank: u64| -> Option<()> {
                let into = targets.get(target as usize)?;
                if let (Some(local), 0) = (into.insert(rank)?, target) {
                    next.insert(local);
                }
                Some(())
            };
            // This process's next round: up to CHUNK positions of the frontier expanded, the children owned
            // elsewhere sorted into one batch per process (none left: empty batches).
            let expand_next = |word: &mut usize| -> crate::Result<Vec<Vec<u8>>> {
                let chunk: Vec<u64> =
                    ranks_from(&frontier, word, CHUNK).into_iter().map(|local| shares.global(me, local)).collect();
                let mut remote = self.expand_share(tier, &chunk, &targets, below, me, &add)?;
                remote.par_sort_unstable();
                Ok(batches(&remote, processes, |pair| {
                    targets.get(target_of(pair) as usize).map_or(me, |target| target.shares.owner(rank_of(pair)))
                }))
            };
            let apply = |incoming: Vec<Vec<u8>>| {
                incoming.iter().try_for_each(|batch| {
                    decode(batch, targets.len())?.into_iter().try_for_each(|pair| {
                        let (target, rank) = (target_of(pair), rank_of(pair));
                        let owned = targets.get(target as usize).is_some_and(|into| into.shares.owner(rank) == me);
                        owned.then(|| add(target, rank)).flatten().ok_or_else(|| {
                            crate::error::Error::distributed(format!("rank {rank} sent to a rank that does not own it"))
                        })
                    })
                })
            };
            // Each round's batches are exchanged and applied while the next round is expanded.
            rounds(
                exchange,
                expand_next,
                |word| !taken(&frontier, word),
                |batches| exchange.all_to_all(batches).and_then(apply),
            )?;
            if exchange.all_sum(next.len()) == 0 {
                return Ok(reached);
            }
            frontier = next;
        }
    }

    /// Expands the positions of `chunk` (ranks of this process's share of `tier`): each child's rank owned here
    /// is added at once (`add`), the others returned as `(target, rank)` pairs for their owners.
    fn expand_share(
        &self,
        tier: &Ruleset::Tier,
        chunk: &[u64],
        targets: &[Target<'_>],
        below: &[(Ruleset::Tier, Shares, &RankSet)],
        me: usize,
        add: &(dyn Fn(u32, u64) -> Option<()> + Sync),
    ) -> crate::Result<Vec<u64>> {
        let game = self.game;
        let size = targets.first().map_or(0, |target| target.shares.size);
        let batches = chunk.par_chunks(256).map_init(Vec::new, |moves: &mut Vec<Ruleset::Move>, ranks| {
            let mut remote = Vec::new();
            for &rank in ranks {
                let position = self.position(tier, rank)?;
                if game.outcome(&position).is_some() {
                    continue;
                }
                moves.clear();
                game.moves(&position, moves);
                for mv in moves.iter() {
                    let child = game.play(&position, mv);
                    let child_tier = game.tier(&child);
                    let key = game.canonical(&child);
                    let (target, child_size) = match child_tier == *tier {
                        true => (0, size),
                        false => {
                            let Some(place) = below.iter().position(|(below, _, _)| *below == child_tier) else {
                                return Err(broken(format!(
                                    "a move from tier {tier:?} reaches tier {child_tier:?}, not a child tier"
                                )));
                            };
                            (place + 1, below[place].1.size)
                        }
                    };
                    let child_rank = self.rank_in(&child_tier, &key, child_size)?;
                    if targets[target].shares.owner(child_rank) == me {
                        add(target as u32, child_rank).ok_or_else(|| contract(&child_tier, &key, child_size))?;
                    } else {
                        remote.push(pair(target as u32, child_rank));
                    }
                }
            }
            Ok(remote)
        });
        let remote: Vec<Vec<u64>> = batches.collect::<crate::Result<_>>()?;
        Ok(remote.concat())
    }
}
