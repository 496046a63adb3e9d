//! [`ScoredMinimax`]: plain minimax over scores, no table, no pruning, no hints: exponential, but with nothing
//! that can be wrong about keys, windows or bounds. The reference of the differential tests.

use super::broken;
use crate::engines::support::{with_stack, PathGuard};
use crate::engines::{Engine, Statistics, Stop};
use crate::error::Error;
use crate::scored::{Deterministic, SCORE_LIMIT};
use crate::stats::Stats;

/// Plain minimax over the scores of a deterministic scored game.
#[derive(Clone, Debug, Default)]
pub struct ScoredMinimax {
    budget: u64,
    stats: Stats,
}

impl ScoredMinimax {
    /// An engine without a budget.
    pub fn new() -> Self {
        ScoredMinimax { budget: u64::MAX, stats: Stats::default() }
    }

    /// The same engine giving up when one search would expand more than `positions` positions.
    #[must_use]
    pub fn with_budget(self, positions: u64) -> Self {
        ScoredMinimax { budget: positions, ..self }
    }

    fn search<Ruleset: Deterministic>(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        depth: u32,
        limit: u64,
        guard: &mut PathGuard<Ruleset::Position>,
    ) -> Result<i32, Stop<Error>> {
        if guard.repeats(depth, position) {
            return Err(Stop::Repeated);
        }
        if let Some(score) = game.outcome(position) {
            if score.abs() > SCORE_LIMIT {
                return Err(Stop::Failure(broken(format!("a final score of {score}, beyond ±{SCORE_LIMIT}"))));
            }
            return Ok(score);
        }
        if self.stats.visited >= limit {
            return Err(Stop::Budget);
        }
        self.stats.visited += 1;
        let moves = game.legal_moves(position);
        let mut best: Option<i32> = None;
        for mv in &moves {
            let child = game.play(position, mv);
            let score = with_stack(|| self.search(game, &child, depth.saturating_add(1), limit, guard))?;
            let seen = game.score_seen_from(position, &child, score);
            best = Some(best.map_or(seen, |best| best.max(seen)));
        }
        best.ok_or_else(|| Stop::Failure(broken(format!("a position that is not over has no move: {position:?}"))))
    }
}

impl Statistics for ScoredMinimax {
    fn stats(&self) -> Stats {
        self.stats
    }
}

impl<Ruleset: Deterministic> Engine<Ruleset> for ScoredMinimax {
    type Value = i32;
    type Failure = Error;

    fn search_within(&mut self, game: &Ruleset, position: &Ruleset::Position, budget: u64) -> Result<i32, Stop<Error>> {
        let limit = self.stats.visited.saturating_add(budget);
        self.search(game, position, 0, limit, &mut PathGuard::default())
    }

    fn budget(&self) -> u64 {
        self.budget
    }
}
