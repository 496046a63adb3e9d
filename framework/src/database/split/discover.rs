//! The discovery half of the split-tier mode: every rank enumerates its slice of a tier, parents first, and
//! hands each key of a child tier it reaches to that key's owner (see the parent module's documentation).

use super::{agree, expand, owner, received_key, received_position, Exchange, Expansion, CHUNK};
use crate::database::record::RecordKey;
use crate::engines::retrograde::Tiers;
use crate::error::{Budget, Error, Result};
use crate::game::FromKey;
use crate::game::Game;
use hashbrown::HashMap;
use rayon::prelude::*;

/// Bytes of one discovery message: the tier's place among the child tiers (4; `u32::MAX` for the tier itself)
/// and the key (16).
const FOUND_BYTES: usize = 20;

/// The discovery of this rank's slice of `tier`, entered at `entries` (keys this rank owns): every position of
/// the slice enumerated, and each key of a child tier (one of `below`) reached from it added to `found` on the
/// rank that owns the key (sorted, once each). At most `budget` positions in the slice. Every rank must call it
/// together.
pub fn discover_slice<Ruleset>(
    game: &Ruleset,
    tier: &Ruleset::Tier,
    entries: &[u128],
    below: &[Ruleset::Tier],
    exchange: &dyn Exchange,
    found: &mut HashMap<Ruleset::Tier, Vec<u128>>,
    budget: u64,
) -> Result<()>
where
    Ruleset: Game + Tiers + FromKey + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: RecordKey,
{
    let ranks = exchange.ranks();
    let mut positions: Vec<Ruleset::Position> = Vec::new();
    let mut index: hashbrown::HashSet<Ruleset::Key> = hashbrown::HashSet::new();
    let mut admit = |wide: u128, positions: &mut Vec<Ruleset::Position>| -> Result<()> {
        let key = received_key::<Ruleset::Key>(tier, wide)?;
        if index.contains(&key) {
            return Ok(());
        }
        let position = received_position(game, tier, &key, wide)?;
        if positions.len() as u64 >= budget {
            return Err(Error::Budget(Budget::Positions(budget)));
        }
        index.insert(key);
        positions.push(position);
        Ok(())
    };
    let seeded = entries.iter().try_for_each(|&wide| admit(wide, &mut positions));
    agree(exchange, seeded)?;
    let mut expanded = 0;
    loop {
        let end = positions.len().min(expanded + CHUNK);
        let expansions: Vec<Expansion<Ruleset::Key, Ruleset::Tier>> =
            positions[expanded..end].par_iter().with_min_len(64).map(|position| expand(game, tier, position)).collect();
        expanded = end;
        let mut outgoing: Vec<Vec<(u32, u128)>> = vec![Vec::new(); ranks];
        let routed = expansions.into_iter().try_for_each(|expansion| -> Result<()> {
            let Expansion::Open { inside, outside } = expansion else { return Ok(()) };
            for key in inside {
                let wide = key.to_wide();
                outgoing[owner(wide, ranks)].push((u32::MAX, wide));
            }
            for (key, child_tier) in outside {
                let at = below.iter().position(|child| *child == child_tier).ok_or_else(|| Error::Contract {
                    contract: "Tiers",
                    detail: format!("a move from tier {tier:?} reaches tier {child_tier:?}, not a child tier"),
                })?;
                let wide = key.to_wide();
                outgoing[owner(wide, ranks)].push((at as u32, wide));
            }
            Ok(())
        });
        agree(exchange, routed)?;
        let batches = outgoing
            .into_iter()
            .map(|mut list| {
                list.sort_unstable();
                list.dedup();
                let mut bytes = Vec::with_capacity(FOUND_BYTES * list.len());
                for (at, wide) in list {
                    bytes.extend_from_slice(&at.to_le_bytes());
                    bytes.extend_from_slice(&wide.to_le_bytes());
                }
                bytes
            })
            .collect();
        let received = exchange.all_to_all(batches)?;
        let admitted = received.iter().flat_map(|bytes| bytes.chunks_exact(FOUND_BYTES)).try_for_each(|chunk| {
            let at = chunk[..4].try_into().map(u32::from_le_bytes).unwrap_or_default();
            let wide = chunk[4..].try_into().map(u128::from_le_bytes).unwrap_or_default();
            match below.get(at as usize) {
                Some(child) => {
                    match found.get_mut(child) {
                        Some(keys) => keys.push(wide),
                        None => {
                            found.insert(child.clone(), vec![wide]);
                        }
                    }
                    Ok(())
                }
                None => admit(wide, &mut positions),
            }
        });
        agree(exchange, admitted)?;
        if exchange.all_sum((positions.len() - expanded) as u64) == 0 {
            break;
        }
    }
    for child in below {
        if let Some(keys) = found.get_mut(child) {
            keys.sort_unstable();
            keys.dedup();
        }
    }
    Ok(())
}
