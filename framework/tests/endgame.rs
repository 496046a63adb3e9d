//! The endgame database's solve and check on random tiered games (any game, not only Kalah): every stored value,
//! its banked part added back, against plain minimax over the same game, with chains of moves within a tier that
//! the solve must follow before it can value a rank; and games that break [`EndgameTiers`]' contract (a move
//! that climbs a tier, moves within a tier that loop) refused with an error, never a value.

#![cfg(feature = "database")]
#![allow(clippy::unwrap_used)]

mod common;

use common::mix;
use ludus_framework::database::endgame::{check_endgame, solve_endgame, EndgameSolve};
use ludus_framework::engines::scored::ScoredMinimax;
use ludus_framework::scored::{Deterministic, EndgameTiers, ScoredGame};
use ludus_framework::{Engine, Error, Rules};
use std::path::PathBuf;

/// How a [`TierGraph`] may break the contract.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Breach {
    None,
    /// Rank 0 of the top tier moves to rank 0 of a tier above.
    Climbs,
    /// Every rank of tier 1 but the last moves to the next, and the last moves back to rank 0.
    Loops,
}

/// A random game over `tiers` tiers of `size` ranks each: a move from rank `r` of tier `t` goes to a lower tier,
/// or to a higher rank of the same tier (so the moves within a tier form chains the solve follows up the
/// ranks); it banks a random gain of `-2..=2` for its mover and passes the turn, or not, at random. A position
/// whose draw says so is over (in a game without a breach), worth its banked part plus a random `-3..=3`; tier 0 is over everywhere.
#[derive(Clone, Copy)]
struct TierGraph {
    seed: u64,
    tiers: u32,
    size: u64,
    breach: Breach,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Place {
    tier: u32,
    rank: u64,
    /// The mover's banked gain, seen by the mover.
    banked: i32,
    /// Which player moves (the dynamics ignore it: only turn passing reads it).
    south: bool,
}

/// A move: the place it leads to, the gain it banks, and whether the turn passes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Step {
    tier: u32,
    rank: u64,
    gain: i32,
    passes: bool,
}

impl TierGraph {
    fn draw(&self, tier: u32, rank: u64, salt: u64) -> u64 {
        mix(self.seed ^ mix(u64::from(tier) << 40 ^ rank.wrapping_mul(0x9e37_79b9) ^ salt))
    }

    fn over_part(&self, tier: u32, rank: u64) -> Option<i32> {
        // A game that breaches the contract ends in tier 0 only, so that nothing hides the breach.
        let over = tier == 0 || (self.breach == Breach::None && self.draw(tier, rank, 1).is_multiple_of(7));
        over.then(|| (self.draw(tier, rank, 2) % 7) as i32 - 3)
    }

    fn steps(&self, tier: u32, rank: u64) -> Vec<Step> {
        let step = |tier, rank, index| Step {
            tier,
            rank,
            gain: (self.draw(tier, rank, 30 + index) % 5) as i32 - 2,
            passes: self.draw(tier, rank, 40 + index).is_multiple_of(2),
        };
        match self.breach {
            Breach::Climbs if tier + 1 == self.tiers && rank == 0 => return vec![step(tier + 1, 0, 0)],
            Breach::Loops if tier == 1 => return vec![step(1, (rank + 1) % self.size, 0)],
            _ => {}
        }
        let count = 1 + self.draw(tier, rank, 3) % 4;
        (0..count)
            .map(|index| {
                let within = rank + 1 < self.size && self.draw(tier, rank, 10 + index).is_multiple_of(2);
                let (to_tier, to_rank) = match within {
                    true => (tier, rank + 1 + self.draw(tier, rank, 20 + index) % (self.size - rank - 1).min(5)),
                    false => (
                        (self.draw(tier, rank, 20 + index) % u64::from(tier)) as u32,
                        self.draw(tier, rank, 25 + index) % self.size,
                    ),
                };
                step(to_tier, to_rank, index)
            })
            .collect()
    }
}

impl Rules for TierGraph {
    type Position = Place;
    type Move = Step;
    type Outcome = i32;

    fn outcome(&self, place: &Place) -> Option<i32> {
        self.over_part(place.tier, place.rank).map(|part| place.banked + part)
    }

    fn moves(&self, place: &Place, moves: &mut Vec<Step>) {
        moves.extend(self.steps(place.tier, place.rank));
    }

    fn play(&self, place: &Place, step: &Step) -> Place {
        let banked = place.banked + step.gain;
        Place {
            tier: step.tier,
            rank: step.rank,
            banked: if step.passes { -banked } else { banked },
            south: place.south != step.passes,
        }
    }

    fn turn_passes(&self, from: &Place, to: &Place) -> bool {
        from.south != to.south
    }
}

impl ScoredGame for TierGraph {}
impl Deterministic for TierGraph {}

impl EndgameTiers for TierGraph {
    fn endgame_family(&self) -> String {
        format!("tier-graph:seed={},size={},breach={:?}", self.seed, self.size, self.breach)
    }

    fn endgame_tier(&self, place: &Place) -> u32 {
        place.tier
    }

    fn endgame_tier_size(&self, _tier: u32) -> Option<u64> {
        Some(self.size)
    }

    fn endgame_rank(&self, place: &Place) -> u64 {
        place.rank
    }

    fn endgame_position(&self, tier: u32, rank: u64) -> Option<Place> {
        (rank < self.size).then_some(Place { tier, rank, banked: 0, south: true })
    }

    fn banked(&self, place: &Place) -> i32 {
        place.banked
    }
}

fn scratch(name: &str) -> PathBuf {
    let directory = std::env::temp_dir().join(format!("ludus-endgame-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&directory).ok();
    directory
}

fn solve(
    game: &TierGraph,
    directory: &std::path::Path,
) -> Result<ludus_framework::database::endgame::EndgameTables, Error> {
    let solve = EndgameSolve { bound: game.tiers - 1, memory_mb: 64, stop: None };
    solve_endgame(game, directory, &solve, &mut |_| {})
}

#[test]
fn every_stored_value_is_the_value_plain_minimax_finds() {
    for seed in 0..6 {
        // Sizes below and above a solve's batch of ranks, so that chains cross batches.
        let game = TierGraph { seed, tiers: 5, size: [3, 40, 300][seed as usize % 3], breach: Breach::None };
        let directory = scratch(&format!("values-{seed}"));
        let tables = solve(&game, &directory).unwrap();
        let mut compared = 0;
        for tier in 0..game.tiers {
            for rank in 0..game.size {
                for (banked, south) in [(0, true), (5, false), (-3, true)] {
                    let place = Place { tier, rank, banked, south };
                    let searched = ScoredMinimax::new().search(&game, &place).unwrap();
                    assert_eq!(tables.value(&game, &place), Some(searched), "seed {seed}, {place:?}");
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 3 * game.size * u64::from(game.tiers));
        assert!(check_endgame(&game, &tables, &mut |_, _, _| {}).problems.is_empty(), "seed {seed}");
        std::fs::remove_dir_all(&directory).ok();
    }
}

#[test]
fn a_move_that_climbs_a_tier_or_moves_that_loop_are_refused() {
    for (breach, expected) in [(Breach::Climbs, "leads up to tier"), (Breach::Loops, "form a cycle")] {
        let game = TierGraph { seed: 1, tiers: 4, size: 50, breach };
        let directory = scratch(&format!("{breach:?}"));
        match solve(&game, &directory) {
            Err(Error::Contract { detail, .. }) => assert!(detail.contains(expected), "{breach:?}: {detail}"),
            Err(other) => panic!("{breach:?}: {other}"),
            Ok(_) => panic!("{breach:?}: solved"),
        }
        std::fs::remove_dir_all(&directory).ok();
    }
}
