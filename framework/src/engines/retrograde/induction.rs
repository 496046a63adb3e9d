//! Backward induction over one enumerated tier: win and loss frontiers by remoteness, a counter of undecided
//! children per position; what is never decided is a draw.
//!
//! Levels are processed in increasing remoteness. At level `r` the positions scheduled there are claimed (the
//! first claim of a position is its value, so a win keeps its quickest line); then, in parallel over the
//! claimed positions: a loss makes every undecided parent a win at `r + 1`; a win decrements each undecided
//! parent's counter, and the parent whose counter reaches 0 (all its children won for their mover, the last at
//! level `r`) is lost at `max(r + 1, its slowest exit)`. Moves out of the tier enter as setup values: an exit
//! to a lost position schedules a win at its remoteness; an exit to a draw or a loss forbids the loss. The
//! values do not depend on the order of threads: a level's claims finish before its parents are visited.

use super::explore::pack;
use super::solution::{PackedValue, DRAW, LOSE, MAX_REMOTENESS, WIN};
use crate::engines::alpha_beta::{SearchProgress, Test};
use crate::error::Error;
use crate::value::Value;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::Relaxed};

/// The parents of each position as one array: the parents of `i` are `parents[offsets[i]..offsets[i + 1]]`.
pub(super) struct ReverseEdges {
    offsets: Vec<usize>,
    parents: Vec<u32>,
}

impl ReverseEdges {
    /// The reverse of the forward edges (`children[offsets[i]..offsets[i + 1]]` are the children of `i`, each
    /// once); each parent is listed once per child.
    pub(super) fn new(offsets: &[usize], children: &[u32]) -> ReverseEdges {
        let positions = offsets.len().saturating_sub(1);
        let mut starts = vec![0usize; positions + 1];
        for &child in children {
            if let Some(count) = starts.get_mut(child as usize + 1) {
                *count += 1;
            }
        }
        for place in 1..starts.len() {
            starts[place] += starts[place - 1];
        }
        let mut fill = starts.clone();
        let mut parents = vec![0u32; children.len()];
        for (parent, window) in offsets.windows(2).enumerate() {
            for &child in children.get(window[0]..window[1]).unwrap_or(&[]) {
                if let (Some(at), true) = (fill.get_mut(child as usize), (child as usize) < positions) {
                    if let Some(slot) = parents.get_mut(*at) {
                        *slot = parent as u32;
                    }
                    *at += 1;
                }
            }
        }
        ReverseEdges { offsets: starts, parents }
    }

    /// Appends the parents of `position` to `out`.
    pub(super) fn parents(&self, position: u32, out: &mut Vec<u32>) {
        let place = position as usize;
        if let (Some(&start), Some(&end)) = (self.offsets.get(place), self.offsets.get(place + 1)) {
            out.extend_from_slice(self.parents.get(start..end).unwrap_or(&[]));
        }
    }
}

/// The values of one tier and the number of levels it took.
pub(super) struct Induced {
    pub(super) values: Vec<PackedValue>,
    pub(super) levels: u64,
}

/// Solves a tier: `counts[i]` is the number of distinct in-tier children of position `i`, `setup[i]` its
/// value when finished or without in-tier children, else the best value its exits give (or none), and
/// `parents(i, out)` appends each distinct in-tier parent of `i` once. With no in-tier edge at all the setup
/// values are the values (the loop-free pass). Each level's remoteness and the positions it decides are shown
/// in `line` (none: `None`), for a watcher on another thread.
pub(super) fn induce<Parents>(
    counts: &[u32],
    setup: &[PackedValue],
    edges: u64,
    parents: Parents,
    line: Option<&SearchProgress>,
) -> crate::Result<Induced>
where
    Parents: Fn(u32, &mut Vec<u32>) + Sync,
{
    let draw = PackedValue::new(DRAW, 0);
    // Every position has a setup value here: a position without in-tier children is finished, has no moves, or
    // has exits whose values are known.
    let settled = |packed: PackedValue| if packed == PackedValue::NONE { draw } else { packed };
    if edges == 0 {
        return Ok(Induced { values: setup.iter().map(|&packed| settled(packed)).collect(), levels: 0 });
    }
    let state: Vec<AtomicU32> = (0..setup.len()).map(|_| AtomicU32::new(0)).collect();
    let remaining: Vec<AtomicU32> = counts.iter().map(|&count| AtomicU32::new(count)).collect();
    let mut buckets: BTreeMap<u32, Vec<(u32, u32)>> = BTreeMap::new();
    for (position, (&count, &packed)) in counts.iter().zip(setup).enumerate() {
        let kind = packed.kind();
        if count == 0 && kind != WIN && kind != LOSE {
            if let Some(slot) = state.get(position) {
                slot.store(settled(packed).0, Relaxed);
            }
        } else if count == 0 || kind == WIN {
            buckets.entry(packed.remoteness()).or_default().push((position as u32, kind));
        }
    }
    let broken = AtomicBool::new(false);
    let mut levels = 0;
    while let Some((level, entries)) = buckets.pop_first() {
        levels += 1;
        let frontier: Vec<(u32, u32)> = entries
            .into_par_iter()
            .with_min_len(1024)
            .filter(|&(position, kind)| {
                state.get(position as usize).is_some_and(|slot| {
                    slot.compare_exchange(0, PackedValue::new(kind, level).0, Relaxed, Relaxed).is_ok()
                })
            })
            .collect();
        if frontier.is_empty() {
            continue;
        }
        line.inspect(|line| {
            line.testing(Test::Induction(level));
            line.add(frontier.len() as u64);
        });
        if level >= MAX_REMOTENESS {
            pack(Value::Lose(level.saturating_add(1)))?;
        }
        let next = level + 1;
        let scheduled: Vec<(u32, u32, u32)> = frontier
            .par_iter()
            .with_min_len(256)
            .fold(
                || (Vec::new(), Vec::new()),
                |(mut out, mut buffer): (Vec<(u32, u32, u32)>, Vec<u32>), &(child, kind)| {
                    buffer.clear();
                    parents(child, &mut buffer);
                    for &parent in &buffer {
                        let place = parent as usize;
                        if state.get(place).is_none_or(|slot| slot.load(Relaxed) != 0) {
                            continue;
                        }
                        if kind == LOSE {
                            out.push((next, parent, WIN));
                            continue;
                        }
                        let Some(counter) = remaining.get(place) else { continue };
                        match counter.fetch_update(Relaxed, Relaxed, |count| count.checked_sub(1)) {
                            Ok(1) => {
                                let exit = setup.get(place).copied().unwrap_or(PackedValue::NONE);
                                match exit.kind() {
                                    // An exit wins or draws: this position is no loss.
                                    WIN | DRAW => {}
                                    LOSE => out.push((next.max(exit.remoteness()), parent, LOSE)),
                                    _ => out.push((next, parent, LOSE)),
                                }
                            }
                            Ok(_) => {}
                            Err(_) => broken.store(true, Relaxed),
                        }
                    }
                    (out, buffer)
                },
            )
            .map(|(out, _)| out)
            .reduce(Vec::new, |mut left, mut right| {
                left.append(&mut right);
                left
            });
        for (at, position, kind) in scheduled {
            buckets.entry(at).or_default().push((position, kind));
        }
    }
    if broken.load(Relaxed) {
        return Err(Error::Contract {
            contract: "Retrograde",
            detail: "the parents hook listed a position that is not a parent".into(),
        });
    }
    let values = state.into_iter().map(|slot| settled(PackedValue(slot.into_inner()))).collect();
    Ok(Induced { values, levels })
}
