//! The solve of an endgame database, tier by tier from 0, each tier's ranks in parallel by batches of
//! consecutive ranks (a batch first finds every child of its positions and prefetches its value, then values
//! its positions; a rank whose move stays in its tier solves that child first, recursively: the moves within a
//! tier form no cycle), and its check, which re-derives every rank from the stored values of its children.

use super::{
    allocate, over_budget, read_values, tables_bytes, tier_name, tier_path, tier_size, write_overhead, EndgameTables,
    Tier, UNSOLVED,
};
use crate::database::check::{CheckProgress, CheckReport, MAX_PROBLEMS};
use crate::database::file::{write_dense_tier_by_blocks, Inspected, TierFile};
use crate::database::record::Record;
use crate::database::store::{lock_directory, make_directory, TierReport};
use crate::engines::alpha_beta::ProgressHandle;
use crate::engines::support::with_stack;
use crate::error::{Error, Result};
use crate::scored::EndgameTiers;
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI8, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The longest chain of moves within one tier a solve follows before it calls the tier cyclic (the contract of
/// [`EndgameTiers`] broken): far beyond any game's (Kalah's is below twice its seeds times its pits).
const MAX_CHAIN: u32 = 1 << 16;

/// What a solve is asked for.
#[derive(Clone, Debug)]
pub struct EndgameSolve {
    /// The highest tier solved.
    pub bound: u32,
    /// The memory budget, in MiB: the tiers and the writing of the highest (the module's memory model) must fit.
    pub memory_mb: usize,
    /// Where the caller may ask the solve to stop: it ends after the tier it is solving, with
    /// [`Error::Stopped`], and a later solve resumes from the tiers on disk.
    pub stop: Option<ProgressHandle>,
}

/// The error of a breach of [`EndgameTiers`]' contract.
fn contract(detail: String) -> Error {
    Error::Contract { contract: "EndgameTiers", detail }
}

/// The value of `position` (of tier `tier`) less its banked part, from its children's values less theirs, which
/// `child` gives by tier and rank: [`push_children`] into `buffers`, then [`value_from`].
fn derive<Ruleset: EndgameTiers>(
    game: &Ruleset,
    position: &Ruleset::Position,
    tier: u32,
    buffers: &mut Batch<Ruleset::Position, Ruleset::Move>,
    child: &mut dyn FnMut((u32, u64)) -> Result<i8>,
) -> Result<i8> {
    buffers.children.clear();
    push_children(game, position, tier, buffers, |_| Ok(()))?;
    value_from(game, position, tier, &buffers.children, child)
}

/// Pushes onto `buffers.children` every child of `position` (of tier `tier`; none if it is over), telling `seen`
/// of each child's tier and rank; a move up a tier, or none from a position not over, breaks the contract.
fn push_children<Ruleset: EndgameTiers>(
    game: &Ruleset,
    position: &Ruleset::Position,
    tier: u32,
    buffers: &mut Batch<Ruleset::Position, Ruleset::Move>,
    mut seen: impl FnMut((u32, u64)) -> Result<()>,
) -> Result<()> {
    if game.outcome(position).is_some() {
        return Ok(());
    }
    buffers.moves.clear();
    game.moves(position, &mut buffers.moves);
    if buffers.moves.is_empty() {
        return Err(contract(format!("a position of tier {tier} is not over and has no move")));
    }
    for mv in &buffers.moves {
        let next = game.play(position, mv);
        let at = match game.outcome(&next) {
            Some(score) => Err(score),
            None => {
                let at = (game.endgame_tier(&next), game.endgame_rank(&next));
                if at.0 > tier {
                    return Err(contract(format!("a move from tier {tier} leads up to tier {}", at.0)));
                }
                seen(at)?;
                Ok(at)
            }
        };
        buffers.children.push(Child { next, at });
    }
    Ok(())
}

/// The value of `position` (of tier `tier`) less its banked part: its final score, or the best over
/// `children` (its own, from [`push_children`]) of their values, which `child` gives less their banked parts.
fn value_from<Ruleset: EndgameTiers>(
    game: &Ruleset,
    position: &Ruleset::Position,
    tier: u32,
    children: &[Child<Ruleset::Position>],
    mut child: impl FnMut((u32, u64)) -> Result<i8>,
) -> Result<i8> {
    let best = match game.outcome(position) {
        Some(score) => score,
        None => children.iter().try_fold(i32::MIN, |best, next| -> Result<i32> {
            let value = match next.at {
                Err(score) => score,
                Ok(at) => game.banked(&next.next).saturating_add(i32::from(child(at)?)),
            };
            Ok(best.max(game.score_seen_from(position, &next.next, value)))
        })?,
    };
    part_to_play(game, position, tier, best)
}

/// What `position` (of tier `tier`, worth `best` to its mover) has left to play for: `best` less its banked
/// part, which must fit a record.
fn part_to_play<Ruleset: EndgameTiers>(
    game: &Ruleset,
    position: &Ruleset::Position,
    tier: u32,
    best: i32,
) -> Result<i8> {
    let part = best.saturating_sub(game.banked(position));
    i8::try_from(part)
        .ok()
        .filter(|&part| part != UNSOLVED)
        .ok_or_else(|| contract(format!("a position of tier {tier} has {part} to play for, beyond -127..=127")))
}

/// The position at `rank` of `tier`, or the contract's error.
fn unrank<Ruleset: EndgameTiers>(game: &Ruleset, tier: u32, rank: u64) -> Result<Ruleset::Position> {
    game.endgame_position(tier, rank).ok_or_else(|| contract(format!("no position of tier {tier} has rank {rank}")))
}

/// The ranks a batch solves: every child's value is asked of memory (prefetched) before any is read, so that
/// the cache misses of the batch's reads of the tiers below overlap (BENCHMARKS.md, "The endgame solve's
/// reads").
const BATCH: usize = 16;

/// A child of a position of a batch: the position a move leads to, and its score if the game is over there,
/// else its tier and rank.
struct Child<Position> {
    next: Position,
    at: std::result::Result<(u32, u64), i32>,
}

/// The buffers of a thread's batches (and of one position's [`derive`]): each position not solved yet, with its
/// place and its children's range in `children`.
struct Batch<Position, Move> {
    positions: Vec<(usize, Position, std::ops::Range<usize>)>,
    children: Vec<Child<Position>>,
    moves: Vec<Move>,
}

impl<Position, Move> Default for Batch<Position, Move> {
    fn default() -> Self {
        Batch { positions: Vec::new(), children: Vec::new(), moves: Vec::new() }
    }
}

/// The solve of one tier: the game, the tiers below (solved), the tier being solved (`current`) and its number.
struct TierSolve<'tiers, Ruleset> {
    game: &'tiers Ruleset,
    below: &'tiers [Tier],
    current: &'tiers Tier,
    tier: u32,
}

/// A thread's spare buffers, lent to the positions of a chain within the tier (a chain reuses its buffers
/// instead of allocating).
type Spare<Ruleset> = Vec<Batch<<Ruleset as crate::game::Rules>::Position, <Ruleset as crate::game::Rules>::Move>>;

impl<Ruleset: EndgameTiers> TierSolve<'_, Ruleset> {
    /// Solves the ranks `places` not solved yet: first every position's children, each child's value
    /// prefetched, then each position's value from them (as [`derive`] does for one position).
    fn solve_batch(
        &self,
        places: std::ops::Range<usize>,
        batch: &mut Batch<Ruleset::Position, Ruleset::Move>,
        spare: &mut Spare<Ruleset>,
    ) -> Result<()> {
        let (game, tier) = (self.game, self.tier);
        batch.positions.clear();
        batch.children.clear();
        for place in places {
            if self.current[place].load(Ordering::Relaxed) != UNSOLVED {
                continue;
            }
            let position = unrank(game, tier, place as u64)?;
            let first = batch.children.len();
            push_children(game, &position, tier, batch, |at| {
                crate::prefetch::prefetch(self.slot(at)?);
                Ok(())
            })?;
            batch.positions.push((place, position, first..batch.children.len()));
        }
        for (place, position, children) in &batch.positions {
            let child = |at| self.child_value(at, 0, spare);
            let value = value_from(game, position, tier, &batch.children[children.clone()], child)?;
            self.current[*place].store(value, Ordering::Relaxed);
        }
        Ok(())
    }

    /// The value at `rank` of the tier, `chain` moves within the tier from the rank a batch solves, solving the
    /// children within the tier it needs first.
    fn solve_rank(&self, rank: u64, chain: u32, spare: &mut Spare<Ruleset>) -> Result<i8> {
        let tier = self.tier;
        if chain > MAX_CHAIN {
            return Err(contract(format!("the moves within tier {tier} form a cycle, or a chain beyond {MAX_CHAIN}")));
        }
        let position = unrank(self.game, tier, rank)?;
        let mut buffers = spare.pop().unwrap_or_default();
        let mut child = |at| self.child_value(at, chain, spare);
        let value = derive(self.game, &position, tier, &mut buffers, &mut child);
        spare.push(buffers);
        value
    }

    /// The place of the value of `(child_tier, child_rank)` (a tier below, or the one being solved).
    fn slot(&self, (child_tier, child_rank): (u32, u64)) -> Result<&AtomicI8> {
        let values = if child_tier < self.tier { self.below.get(child_tier as usize) } else { Some(self.current) };
        values
            .and_then(|values| values.get(usize::try_from(child_rank).ok()?))
            .ok_or_else(|| contract(format!("a position of tier {child_tier} has rank {child_rank}, past its size")))
    }

    /// The value of a child at `chain` moves within the tier from the rank a batch solves: read from a tier
    /// below, or from the tier being solved, solved first (recursively) if it is not yet.
    fn child_value(&self, (child_tier, child_rank): (u32, u64), chain: u32, spare: &mut Spare<Ruleset>) -> Result<i8> {
        let place = self.slot((child_tier, child_rank))?;
        let stored = place.load(Ordering::Relaxed);
        if child_tier < self.tier || stored != UNSOLVED {
            return Ok(stored);
        }
        let solved = with_stack(|| self.solve_rank(child_rank, chain + 1, spare))?;
        place.store(solved, Ordering::Relaxed);
        Ok(solved)
    }
}

/// Solves the tiers `0..=bound` of `game` into `directory` (made if missing), resuming from the tiers whose
/// files are there and whole, telling `report` of each tier; returns the tables, in memory.
pub fn solve_endgame<Ruleset>(
    game: &Ruleset,
    directory: &Path,
    solve: &EndgameSolve,
    report: &mut dyn FnMut(&TierReport),
) -> Result<EndgameTables>
where
    Ruleset: EndgameTiers + Sync,
    Ruleset::Position: Send,
{
    let family = game.endgame_family();
    let top = tier_size(game, solve.bound)?;
    let needed = tables_bytes(game, solve.bound).and_then(|bytes| bytes.checked_add(write_overhead(top)));
    let needed = needed.unwrap_or(u64::MAX);
    if needed > (solve.memory_mb as u64).saturating_mul(1 << 20) {
        return Err(over_budget(solve.memory_mb, needed));
    }
    make_directory(directory)?;
    // One solve a directory at a time, as every solve of a database.
    let _lock = lock_directory(directory)?;
    let mut tiers: Vec<Tier> = Vec::new();
    for tier in 0..=solve.bound {
        if solve.stop.as_ref().is_some_and(|stop| stop.0.stop_requested()) {
            return Err(Error::Stopped);
        }
        let size = tier_size(game, tier)?;
        let path = tier_path(directory, tier);
        let mut damaged = None;
        // Another game's file, or one that is no regular file, is an error, never written over; a damaged one
        // of this tier is solved again.
        let inspected = match path.exists() {
            true => Some(TierFile::inspect(&path, &tier_name(&family, tier, size))?),
            false => None,
        };
        let read = match inspected {
            Some(Inspected::Whole(file)) => Some(read_values(file, size)),
            Some(Inspected::Damaged(error)) => Some(Err(error)),
            None => None,
        };
        match read {
            Some(Ok(values)) => {
                let bytes = std::fs::metadata(&path).map(|meta| meta.len()).unwrap_or(0);
                report(&TierReport {
                    tier: tier.to_string(),
                    positions: size,
                    bytes,
                    elapsed: std::time::Duration::ZERO,
                    resumed: true,
                    damaged: None,
                    sent: 0,
                });
                tiers.push(values);
                continue;
            }
            Some(Err(error @ Error::Database { .. })) => damaged = Some(error.to_string()),
            Some(Err(error)) => return Err(error),
            None => {}
        }
        if let Some(reason) = damaged {
            report(&TierReport {
                tier: tier.to_string(),
                positions: 0,
                bytes: 0,
                elapsed: std::time::Duration::ZERO,
                resumed: false,
                damaged: Some(reason),
                sent: 0,
            });
        }
        let started = Instant::now();
        let current = allocate(size)?;
        let failed = AtomicBool::new(false);
        let batches = current.len().div_ceil(BATCH);
        let solving = TierSolve { game, below: &tiers, current: &current, tier };
        (0..batches).into_par_iter().with_min_len(1 << 8).try_for_each_init(
            Default::default,
            |(batch, spare), index| {
                if failed.load(Ordering::Relaxed) {
                    return Ok(());
                }
                let places = index * BATCH..current.len().min((index + 1) * BATCH);
                solving.solve_batch(places, batch, spare).inspect_err(|_| failed.store(true, Ordering::Relaxed))
            },
        )?;
        let name = tier_name(&family, tier, size);
        let bytes = write_dense_tier_by_blocks(&path, &name, Vec::new(), size, |first, length| {
            current[first as usize..first as usize + length]
                .iter()
                .map(|value| Record::from_score(i32::from(value.load(Ordering::Relaxed))).map_or(0, Record::bits))
                .collect()
        })?;
        report(&TierReport {
            tier: tier.to_string(),
            positions: size,
            bytes,
            elapsed: started.elapsed(),
            resumed: false,
            damaged: None,
            sent: 0,
        });
        tiers.push(current);
    }
    Ok(EndgameTables { family, tiers })
}

/// Re-derives the value at every rank of every tier of `tables` from its children's stored values, telling
/// `progress` of each tier (its number, and the tiers in all).
pub fn check_endgame<Ruleset>(game: &Ruleset, tables: &EndgameTables, progress: &mut CheckProgress) -> CheckReport
where
    Ruleset: EndgameTiers + Sync,
{
    let problems = Mutex::new(Vec::new());
    let mut positions = 0u64;
    let note = |problem: String| {
        if let Ok(mut problems) = problems.lock() {
            if problems.len() < MAX_PROBLEMS {
                problems.push(problem);
            }
        }
    };
    for (tier, values) in tables.tiers.iter().enumerate() {
        progress(&tier.to_string(), tier, tables.tiers.len());
        let tier = tier as u32;
        (0..values.len()).into_par_iter().with_min_len(1 << 12).for_each_init(Batch::default, |buffers, place| {
            let (rank, stored) = (place as u64, values[place].load(Ordering::Relaxed));
            let Some(position) = game.endgame_position(tier, rank) else {
                return note(format!("tier {tier}: no position has rank {rank}"));
            };
            let mut child = |(child_tier, child_rank): (u32, u64)| -> Result<i8> {
                tables
                    .tiers
                    .get(child_tier as usize)
                    .and_then(|values| values.get(usize::try_from(child_rank).ok()?))
                    .map(|value| value.load(Ordering::Relaxed))
                    .ok_or_else(|| contract(format!("tier {child_tier} has no rank {child_rank}")))
            };
            match derive(game, &position, tier, buffers, &mut child) {
                Ok(derived) if derived == stored => {}
                Ok(derived) => note(format!("tier {tier}, rank {rank}: stored {stored}, its children give {derived}")),
                Err(error) => note(format!("tier {tier}, rank {rank}: {error}")),
            }
        });
        positions += values.len() as u64;
    }
    CheckReport { tiers: tables.tiers.len() as u64, positions, problems: problems.into_inner().unwrap_or_default() }
}
