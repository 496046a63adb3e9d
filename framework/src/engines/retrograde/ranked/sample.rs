//! The share of a tier's ranks whose positions are reachable from the start, estimated before any solve (what
//! `ludus db plan` scales time, traffic and disk by): ranks drawn at random, each unranked and followed back by
//! un-moves (the game's [`crate::engines::retrograde::Retrograde`] hook) through positions that are not
//! finished, depth first, until the start is met (reachable), every way back is spent (not), or
//! [`BACKWARD_BUDGET`] positions were looked at (counted as half, since it is not known).

use crate::engines::retrograde::index::UnMoves;
use crate::engines::retrograde::Rank;
use crate::game::Game;
use hashbrown::HashSet;
use rand::Rng;

/// Positions a walk back from one sampled rank may look at.
pub(crate) const BACKWARD_BUDGET: usize = 20_000;

/// The share of `tier`'s ranks reachable from `start`, from `samples` ranks drawn with `seed`.
pub(crate) fn reachable_share<Ruleset: Game + Rank>(
    game: &Ruleset,
    unmoves: UnMoves<Ruleset>,
    start: &Ruleset::Position,
    tier: &Ruleset::Tier,
    samples: usize,
    seed: u64,
) -> f64 {
    let size = game.tier_size(tier);
    if size == 0 || samples == 0 {
        return 0.0;
    }
    let start_key = game.canonical(start);
    let mut random = crate::random::seeded_rng(seed);
    let mut reached = 0.0;
    for _ in 0..samples {
        let rank = random.gen_range(0..size);
        let Some(key) = game.unrank(tier, rank) else { continue };
        let Some(position) = (unmoves.position)(game, &key) else { continue };
        // A rank of a key that is not the canonical one of its position is no position of the solve.
        if game.canonical(&position) != key || game.tier(&position) != *tier {
            continue;
        }
        reached += match walk_back(game, unmoves, &start_key, position) {
            Some(true) => 1.0,
            Some(false) => 0.0,
            None => 0.5,
        };
    }
    reached / samples as f64
}

/// Whether the start (its key `start`) is met walking back from `position` through unfinished positions;
/// `None` past the budget.
fn walk_back<Ruleset: Game + Rank>(
    game: &Ruleset,
    unmoves: UnMoves<Ruleset>,
    start: &Ruleset::Key,
    position: Ruleset::Position,
) -> Option<bool> {
    if game.canonical(&position) == *start {
        return Some(true);
    }
    let mut seen: HashSet<Ruleset::Key> = HashSet::new();
    let mut stack = vec![position];
    let mut parents = Vec::new();
    let mut looked = 0;
    while let Some(position) = stack.pop() {
        looked += 1;
        if looked > BACKWARD_BUDGET {
            return None;
        }
        parents.clear();
        (unmoves.parents)(game, &position, &mut parents);
        for parent in parents.drain(..) {
            // A move is made only from a position that is not finished.
            if game.outcome(&parent).is_some() {
                continue;
            }
            let key = game.canonical(&parent);
            if key == *start {
                return Some(true);
            }
            if seen.insert(key) {
                stack.push(parent);
            }
        }
    }
    Some(false)
}
