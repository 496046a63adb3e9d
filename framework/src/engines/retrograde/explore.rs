//! Enumeration of one tier: every position reachable from the tier's entry positions by moves that stay in the
//! tier, indexed densely in a deterministic order, with each position's distinct in-tier children and what its
//! moves out of the tier already decide.
//!
//! Moves are generated in parallel, a chunk of positions at a time; keys are indexed in one thread in the
//! order of the chunk, so that the index of every position is the same whatever the number of threads, and
//! whatever the [`Index`] (a hash map or an array by rank): it sees the same keys in the same order.

use super::index::Index;
use super::solution::{PackedValue, MAX_REMOTENESS};
use crate::engines::alpha_beta::SearchProgress;
use crate::error::{Budget, Error};
use crate::game::Canonicalize;
use crate::game::Game;
use crate::value::Value;
use rayon::prelude::*;

/// Positions expanded in parallel before their children are indexed: bounds the memory of the moves in flight.
const CHUNK: usize = 1 << 15;

/// One tier, enumerated.
pub(super) struct Explored<Position, Places> {
    /// The positions, by index (each the first representative of its key met).
    pub(super) positions: Vec<Position>,
    /// Key to index.
    pub(super) index: Places,
    /// The distinct in-tier children of position `i` are `children[offsets[i]..offsets[i + 1]]`.
    pub(super) offsets: Vec<usize>,
    /// In-tier children, by index, sorted within each position.
    pub(super) children: Vec<u32>,
    /// Per position: the value of a finished position (or of one without moves), else the best value that its
    /// moves out of the tier give it (backed up), else [`PackedValue::NONE`].
    pub(super) setup: Vec<PackedValue>,
    /// Moves out of the tier.
    pub(super) exits: u64,
    /// Positions whose moves were generated.
    pub(super) expanded: u64,
    /// Children found already indexed.
    pub(super) hits: u64,
}

/// What one position's moves give, computed in parallel.
enum Expansion<Position, Key, Tier> {
    /// A finished position and its value.
    Finished(Value),
    /// The children: key, position, and their tier when it is not the one being explored.
    Open(Vec<(Key, Position, Option<Tier>)>),
}

/// The packed form of `value`, or the limit error when its remoteness does not fit.
pub(super) fn pack(value: Value) -> crate::Result<PackedValue> {
    PackedValue::pack(value).ok_or_else(|| {
        Error::limit(
            "the remoteness of a position",
            u64::from(value.remoteness().unwrap_or(0)),
            u64::from(MAX_REMOTENESS),
        )
    })
}

/// Enumerates the tier entered at `seeds`.
///
/// `outside(child)` is `None` for a child in the tier and its tier otherwise (called in parallel). `route` is
/// called, in one thread and in a deterministic order, for each move out of the tier with the child's key,
/// position and tier; it returns the child's value if known (it is then backed up into the setup value).
/// `index` is empty; `limit` is the most positions the tier may hold; past it the budget error names `budget`.
/// The positions expanded are counted in `line` (none: `None`), for a watcher on another thread.
#[allow(clippy::too_many_arguments)] // one call a solve: the tier's seeds and bounds, two callbacks, the line
pub(super) fn explore<Ruleset, Places, Tier, Outside, Route>(
    game: &Ruleset,
    seeds: Vec<Ruleset::Position>,
    index: Places,
    limit: u64,
    budget: u64,
    outside: Outside,
    mut route: Route,
    line: Option<&SearchProgress>,
) -> crate::Result<Explored<Ruleset::Position, Places>>
where
    Ruleset: Game + Canonicalize + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: Send + Sync,
    Places: Index<Ruleset::Key>,
    Tier: Send,
    Outside: Fn(&Ruleset::Position) -> Option<Tier> + Sync,
    Route: FnMut(Ruleset::Key, Ruleset::Position, Tier) -> crate::Result<Option<Value>>,
{
    let mut explored = Explored {
        positions: Vec::new(),
        index,
        offsets: vec![0],
        children: Vec::new(),
        setup: Vec::new(),
        exits: 0,
        expanded: 0,
        hits: 0,
    };
    // A new key's place is the number of positions so far; the check comes after the index took it, which is
    // harmless since an error ends the solve.
    let room = |positions: usize| -> crate::Result<u32> {
        if positions as u64 >= limit {
            return Err(Error::Budget(Budget::Positions(budget)));
        }
        // Places are 32-bit, and u32::MAX marks an empty slot of an index by rank.
        u32::try_from(positions)
            .ok()
            .filter(|&place| place < u32::MAX)
            .ok_or_else(|| Error::limit("the positions of a tier", positions as u64, u64::from(u32::MAX) - 1))
    };
    for seed in seeds {
        let key = game.canonical(&seed);
        let next = explored.positions.len() as u32;
        if explored.index.place_or_insert(key, next)?.is_none() {
            room(explored.positions.len())?;
            explored.positions.push(seed);
        }
    }
    let mut local: Vec<u32> = Vec::new();
    let mut next = 0;
    while next < explored.positions.len() {
        let end = explored.positions.len().min(next + CHUNK);
        let expansions: Vec<Expansion<Ruleset::Position, Ruleset::Key, Tier>> = explored.positions[next..end]
            .par_iter()
            .with_min_len(64)
            .map(|position| expand(game, position, &outside))
            .collect();
        // A stop asked for by the caller ends the enumeration as its budget would.
        if line.is_some_and(|line| line.add((end - next) as u64)) {
            return Err(Error::Budget(Budget::Positions(budget)));
        }
        next = end;
        for expansion in expansions {
            let setup = match expansion {
                Expansion::Finished(value) => pack(value)?,
                // A position without moves and without an outcome is lost (the normal-play convention).
                Expansion::Open(list) if list.is_empty() => {
                    explored.expanded += 1;
                    pack(Value::LOST)?
                }
                Expansion::Open(list) => {
                    explored.expanded += 1;
                    local.clear();
                    let mut best: Option<Value> = None;
                    for (key, child, tier) in list {
                        match tier {
                            None => {
                                let next = explored.positions.len() as u32;
                                let place = match explored.index.place_or_insert(key, next)? {
                                    Some(place) => {
                                        explored.hits += 1;
                                        place
                                    }
                                    None => {
                                        let place = room(explored.positions.len())?;
                                        explored.positions.push(child);
                                        place
                                    }
                                };
                                local.push(place);
                            }
                            Some(tier) => {
                                explored.exits += 1;
                                if let Some(value) = route(key, child, tier)? {
                                    let backed = value.backed_up();
                                    best = Some(best.map_or(backed, |old| old.max(backed)));
                                }
                            }
                        }
                    }
                    // Several moves to one key are one child: the counter of undecided children counts keys.
                    local.sort_unstable();
                    local.dedup();
                    explored.children.extend_from_slice(&local);
                    match best {
                        Some(value) => pack(value)?,
                        None => PackedValue::NONE,
                    }
                }
            };
            explored.setup.push(setup);
            explored.offsets.push(explored.children.len());
        }
    }
    Ok(explored)
}

/// The outcome of `position`, or its children with their keys and (outside) tiers.
fn expand<Ruleset, Tier, Outside>(
    game: &Ruleset,
    position: &Ruleset::Position,
    outside: &Outside,
) -> Expansion<Ruleset::Position, Ruleset::Key, Tier>
where
    Ruleset: Game + Canonicalize,
    Outside: Fn(&Ruleset::Position) -> Option<Tier>,
{
    if let Some(value) = game.outcome(position) {
        return Expansion::Finished(value);
    }
    let moves = game.legal_moves(position);
    Expansion::Open(
        moves
            .iter()
            .map(|mv| {
                let child = game.play(position, mv);
                let tier = outside(&child);
                (game.canonical(&child), child, tier)
            })
            .collect(),
    )
}
