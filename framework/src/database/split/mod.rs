//! One tier solved by every rank at once (the split-tier mode; its schedule is [`super::split_schedule`]):
//! each position is owned by one rank, chosen by a hash of its key ([`owner`]); each rank enumerates, keeps and
//! induces its own slice, and the ranks exchange, in batches, the keys that cross slices and the parent updates
//! of each remoteness level. [`Exchange`] is the algorithm's only contact with the ranks' transport.
//!
//! Discovery ([`discover_slice`]), parents first: a rank enumerates its slice of a tier from the entry keys it
//! owns, by rounds (up to `CHUNK` of its unexpanded positions expanded, so that a round's batches stay small;
//! each in-tier child key sent to its owner, which adds it if new, rebuilding the position with [`FromKey`]);
//! each key of a child tier reached is sent to its owner, who keeps it as an entry of that tier. So no rank
//! ever holds a whole tier.
//!
//! Solve ([`solve_slice`]), children first: the same rounds, each distinct in-tier child key sent with the
//! parent's place, so that its owner records the parent (rank, place) as a reverse edge; each exit's value is
//! asked of the rank that owns the child's key, which holds its share of each child tier (the records whose
//! keys it owns, `TierStore::load` with a key filter), and answered in the same round. Induction, by levels, as `engines::retrograde::induction`
//! runs it on one machine: the lowest level any rank has scheduled is claimed by every rank (the first claim
//! of a position is its value), then each claimed position's parents are sent, with its kind, to their owners,
//! who apply the updates (a loss makes an undecided parent a win at the next level; a win decrements its
//! counter of undecided children, and a counter at 0 makes it a loss at the next level or at its slowest exit,
//! unless an exit wins or draws). A level's claims are made before its updates are applied, on every rank, so
//! the values are the one-machine values. What is never claimed is a draw.
//!
//! Errors are agreed on ([`agree`]): every collective step first tells every rank whether one failed, so that
//! all return an error together instead of one waiting forever for the others.

use super::record::RecordKey;
use crate::engines::retrograde::{SolvedTiers, Tiers};
use crate::error::{Budget, Error, Result};
use crate::game::FromKey;
use crate::game::Game;
use crate::value::Value;
use hashbrown::HashMap;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;

mod discover;

pub use crate::engines::retrograde::{agree, Exchange};

pub use discover::discover_slice;

/// Positions a rank expands between two exchanges: bounds the batches in flight (about 24 bytes an exit and
/// 20 an in-tier child), whatever the size of the tier.
const CHUNK: usize = 1 << 16;

/// Bytes of one enumeration edge in a batch: the child's key (16) and the parent's place (4).
const EDGE_BYTES: usize = 20;

/// Bytes of one parent update in a batch: the parent's place (4) and whether the child won (1).
const UPDATE_BYTES: usize = 5;

/// The rank that owns `wide`: a hash of the key (splitmix64 of its two halves), modulo the ranks.
pub fn owner(wide: u128, ranks: usize) -> usize {
    let mut mixed = (wide as u64) ^ ((wide >> 64) as u64).rotate_left(32);
    mixed = mixed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    mixed ^= mixed >> 31;
    (mixed % ranks.max(1) as u64) as usize
}

/// One rank's slice of a tier: the records it owns and the child tiers its moves reached.
pub struct SliceSolution<Tier, Key> {
    /// Each owned key with its value.
    pub records: Vec<(Key, Value)>,
    /// The child tiers reached from the owned positions.
    pub reached: BTreeSet<Tier>,
}

/// What one position's moves give: its value if finished, else its in-tier children's keys and its exits.
enum Expansion<Key, Tier> {
    Finished(Value),
    Open { inside: Vec<Key>, outside: Vec<(Key, Tier)> },
}

/// Solves this rank's slice of `tier`, entered at `entries` (the keys of every entry, all ranks alike), its
/// exits read from `inputs`; at most `budget` positions in the slice. Every rank must call it together.
pub fn solve_slice<Ruleset>(
    game: &Ruleset,
    tier: &Ruleset::Tier,
    entries: &[u128],
    inputs: &[Ruleset::Tier],
    shares: &SolvedTiers<Ruleset::Tier, Ruleset::Key>,
    exchange: &dyn Exchange,
    budget: u64,
) -> Result<SliceSolution<Ruleset::Tier, Ruleset::Key>>
where
    Ruleset: Game + Tiers + FromKey + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: RecordKey,
{
    let (me, ranks) = (exchange.this_rank(), exchange.ranks());
    let mut positions: Vec<Ruleset::Position> = Vec::new();
    let mut keys: Vec<Ruleset::Key> = Vec::new();
    let mut index: HashMap<Ruleset::Key, u32> = HashMap::new();
    let mut parents: Vec<Vec<(u32, u32)>> = Vec::new();
    // A new key of the slice: its place, or the error of a key no position has.
    let mut admit = |wide: u128,
                     positions: &mut Vec<Ruleset::Position>,
                     keys: &mut Vec<Ruleset::Key>,
                     parents: &mut Vec<Vec<(u32, u32)>>|
     -> Result<u32> {
        let key = received_key::<Ruleset::Key>(tier, wide)?;
        if let Some(&place) = index.get(&key) {
            return Ok(place);
        }
        let position = received_position(game, tier, &key, wide)?;
        if positions.len() as u64 >= budget {
            return Err(Error::Budget(Budget::Positions(budget)));
        }
        let place = u32::try_from(positions.len()).map_err(|_| {
            Error::limit("the positions of a tier's slice", positions.len() as u64, u64::from(u32::MAX))
        })?;
        index.insert(key, place);
        positions.push(position);
        keys.push(key);
        parents.push(Vec::new());
        Ok(place)
    };
    let seeded = entries
        .iter()
        .filter(|&&wide| owner(wide, ranks) == me)
        .try_for_each(|&wide| admit(wide, &mut positions, &mut keys, &mut parents).map(|_| ()));
    agree(exchange, seeded)?;

    // Enumeration, by rounds.
    let mut counts: Vec<u32> = Vec::new();
    let mut setup: Vec<Option<Value>> = Vec::new();
    let mut reached: BTreeSet<Ruleset::Tier> = BTreeSet::new();
    loop {
        let start = counts.len();
        let end = positions.len().min(start + CHUNK);
        let expansions: Vec<Expansion<Ruleset::Key, Ruleset::Tier>> =
            positions[start..end].par_iter().with_min_len(64).map(|position| expand(game, tier, position)).collect();
        let mut batches: Vec<Vec<u8>> = vec![Vec::new(); ranks];
        let mut questions: Vec<Vec<u8>> = vec![Vec::new(); ranks];
        let expanded = expansions.into_iter().enumerate().try_for_each(|(offset, expansion)| -> Result<()> {
            let place = (start + offset) as u32;
            let (count, value) = match expansion {
                Expansion::Finished(value) => (0, Some(value)),
                Expansion::Open { inside, outside } if inside.is_empty() && outside.is_empty() => {
                    (0, Some(Value::LOST))
                }
                Expansion::Open { mut inside, outside } => {
                    inside.sort_unstable();
                    inside.dedup();
                    for key in &inside {
                        let wide = key.to_wide();
                        let batch = &mut batches[owner(wide, ranks)];
                        batch.extend_from_slice(&wide.to_le_bytes());
                        batch.extend_from_slice(&place.to_le_bytes());
                    }
                    // Each exit's value is asked of the rank that owns the child's key; it comes back below.
                    for (key, child_tier) in outside {
                        let at =
                            inputs.iter().position(|input| *input == child_tier).ok_or_else(|| Error::Contract {
                                contract: "Tiers",
                                detail: format!(
                                    "a move from tier {tier:?} reaches tier {child_tier:?}, which no position of \
                                     it reaches"
                                ),
                            })?;
                        reached.insert(child_tier);
                        let wide = key.to_wide();
                        let question = &mut questions[owner(wide, ranks)];
                        question.extend_from_slice(&(at as u32).to_le_bytes());
                        question.extend_from_slice(&wide.to_le_bytes());
                        question.extend_from_slice(&place.to_le_bytes());
                    }
                    (inside.len() as u32, None)
                }
            };
            counts.push(count);
            setup.push(value);
            Ok(())
        });
        agree(exchange, expanded)?;
        let received = exchange.all_to_all(batches)?;
        let admitted = received.iter().enumerate().try_for_each(|(source, bytes)| -> Result<()> {
            for edge in bytes.chunks_exact(EDGE_BYTES) {
                let wide = edge[..16].try_into().map(u128::from_le_bytes).unwrap_or_default();
                let parent = edge[16..].try_into().map(u32::from_le_bytes).unwrap_or_default();
                let place = admit(wide, &mut positions, &mut keys, &mut parents)?;
                parents[place as usize].push((source as u32, parent));
            }
            Ok(())
        });
        agree(exchange, admitted)?;
        answer_exits(tier, inputs, shares, exchange, questions, &mut setup)?;
        if exchange.all_sum((positions.len() - counts.len()) as u64) == 0 {
            break;
        }
    }
    drop(positions);
    let records = induce_slice(&counts, &setup, &parents, exchange)?;
    Ok(SliceSolution { records: keys.into_iter().zip(records).collect(), reached })
}

/// Bytes of a question about an exit: the child tier's place among the inputs (4), the key (16), the asking
/// position's place (4).
const QUESTION_BYTES: usize = 24;

/// Bytes of an answer: the asking position's place (4), the kind (1: 0 win, 1 loss, 2 draw), the remoteness (4).
const ANSWER_BYTES: usize = 9;

/// The exits' values: each rank answers the questions about the child keys it owns from its share of the child
/// tiers, and each asking position's setup value becomes the best of its exits' values, backed up.
fn answer_exits<Tier, Key>(
    tier: &Tier,
    inputs: &[Tier],
    shares: &SolvedTiers<Tier, Key>,
    exchange: &dyn Exchange,
    questions: Vec<Vec<u8>>,
    setup: &mut [Option<Value>],
) -> Result<()>
where
    Tier: Eq + std::hash::Hash + std::fmt::Debug,
    Key: RecordKey,
{
    let asked = exchange.all_to_all(questions)?;
    let mut answers: Vec<Vec<u8>> = vec![Vec::new(); asked.len()];
    let answered = asked.iter().zip(&mut answers).try_for_each(|(bytes, answer)| -> Result<()> {
        for question in bytes.chunks_exact(QUESTION_BYTES) {
            let at = question[..4].try_into().map(u32::from_le_bytes).unwrap_or_default() as usize;
            let wide = question[4..20].try_into().map(u128::from_le_bytes).unwrap_or_default();
            let child_tier = inputs.get(at);
            let value = child_tier
                .and_then(|child_tier| shares.get(child_tier))
                .zip(Key::from_wide(wide))
                .and_then(|(share, key)| share.value_of_key(&key))
                .ok_or_else(|| Error::Contract {
                    contract: "Tiers",
                    detail: format!(
                        "a move from tier {tier:?} reaches a position of tier {child_tier:?} that was not found \
                             there"
                    ),
                })?;
            let (kind, remoteness) = match value {
                Value::Win(remoteness) => (0u8, remoteness),
                Value::Lose(remoteness) => (1, remoteness),
                Value::Draw => (2, 0),
            };
            answer.extend_from_slice(&question[20..]);
            answer.push(kind);
            answer.extend_from_slice(&remoteness.to_le_bytes());
        }
        Ok(())
    });
    agree(exchange, answered)?;
    for bytes in exchange.all_to_all(answers)? {
        for answer in bytes.chunks_exact(ANSWER_BYTES) {
            let place = answer[..4].try_into().map(u32::from_le_bytes).unwrap_or_default() as usize;
            let remoteness = answer[5..].try_into().map(u32::from_le_bytes).unwrap_or_default();
            let value = match answer[4] {
                0 => Value::Win(remoteness),
                1 => Value::Lose(remoteness),
                _ => Value::Draw,
            };
            if let Some(slot) = setup.get_mut(place) {
                let backed = value.backed_up();
                *slot = Some(slot.map_or(backed, |old| old.max(backed)));
            }
        }
    }
    Ok(())
}

/// The outcome of `position`, or its children's keys, in `tier` or out of it with their tiers.
fn expand<Ruleset: Game + Tiers>(
    game: &Ruleset,
    tier: &Ruleset::Tier,
    position: &Ruleset::Position,
) -> Expansion<Ruleset::Key, Ruleset::Tier> {
    if let Some(value) = game.outcome(position) {
        return Expansion::Finished(value);
    }
    let (mut inside, mut outside) = (Vec::new(), Vec::new());
    for mv in game.legal_moves(position) {
        let child = game.play(position, &mv);
        let child_tier = game.tier(&child);
        if child_tier == *tier {
            inside.push(game.canonical(&child));
        } else {
            outside.push((game.canonical(&child), child_tier));
        }
    }
    Expansion::Open { inside, outside }
}

/// The backward induction of a slice, by levels agreed on by every rank (see the module's documentation).
fn induce_slice(
    counts: &[u32],
    setup: &[Option<Value>],
    parents: &[Vec<(u32, u32)>],
    exchange: &dyn Exchange,
) -> Result<Vec<Value>> {
    let ranks = exchange.ranks();
    let mut state: Vec<Option<Value>> = vec![None; counts.len()];
    let mut remaining = counts.to_vec();
    // Scheduled claims by level: (place, won).
    let mut buckets: BTreeMap<u32, Vec<(u32, bool)>> = BTreeMap::new();
    for (place, (&count, &value)) in counts.iter().zip(setup).enumerate() {
        match value {
            Some(Value::Win(remoteness)) => buckets.entry(remoteness).or_default().push((place as u32, true)),
            Some(Value::Lose(remoteness)) if count == 0 => {
                buckets.entry(remoteness).or_default().push((place as u32, false))
            }
            other if count == 0 => state[place] = Some(other.unwrap_or(Value::Draw)),
            _ => {}
        }
    }
    loop {
        let local = buckets.first_key_value().map_or(u64::MAX, |(&level, _)| u64::from(level));
        let level = exchange.all_min(local);
        if level == u64::MAX {
            break;
        }
        let level = level as u32;
        let mut batches: Vec<Vec<u8>> = vec![Vec::new(); ranks];
        if local == u64::from(level) {
            for (place, won) in buckets.remove(&level).unwrap_or_default() {
                let Some(slot) = state.get_mut(place as usize) else { continue };
                if slot.is_some() {
                    continue;
                }
                *slot = Some(if won { Value::Win(level) } else { Value::Lose(level) });
                for &(rank, parent) in parents.get(place as usize).map(Vec::as_slice).unwrap_or(&[]) {
                    let batch = &mut batches[rank as usize];
                    batch.extend_from_slice(&parent.to_le_bytes());
                    batch.push(u8::from(won));
                }
            }
        }
        let next = level.saturating_add(1);
        for bytes in exchange.all_to_all(batches)? {
            for update in bytes.chunks_exact(UPDATE_BYTES) {
                let place = update[..4].try_into().map(u32::from_le_bytes).unwrap_or_default() as usize;
                if state.get(place).is_none_or(Option::is_some) {
                    continue;
                }
                if update[4] == 0 {
                    // A lost child: this parent wins.
                    buckets.entry(next).or_default().push((place as u32, true));
                    continue;
                }
                let Some(counter) = remaining.get_mut(place) else { continue };
                *counter = counter.saturating_sub(1);
                if *counter == 0 {
                    match setup.get(place).copied().flatten() {
                        Some(Value::Win(_) | Value::Draw) => {}
                        Some(Value::Lose(exit)) => {
                            buckets.entry(next.max(exit)).or_default().push((place as u32, false))
                        }
                        None => buckets.entry(next).or_default().push((place as u32, false)),
                    }
                }
            }
        }
    }
    Ok(state.into_iter().map(|value| value.unwrap_or(Value::Draw)).collect())
}

/// The key of `wide`, a key of `tier` received from another rank, or the error that it is no key of the game.
fn received_key<Key: RecordKey>(tier: &impl Debug, wide: u128) -> Result<Key> {
    Key::from_wide(wide).ok_or_else(|| Error::distributed(format!("tier {tier:?}: {wide:x} is no key of the game")))
}

/// The position of `key` (received as `wide`), or the error that no position has it.
fn received_position<Ruleset: Game + FromKey>(
    game: &Ruleset,
    tier: &impl Debug,
    key: &Ruleset::Key,
    wide: u128,
) -> Result<Ruleset::Position> {
    game.checked_position_of_key(key)
        .ok_or_else(|| Error::distributed(format!("tier {tier:?}: the key {wide:x} is no position's")))
}
