//! [`ScoredCheck`]: the conformance checks of a scored game, by random playouts from a start position: moves
//! are deterministic and legal, the hints' move lists are the legal moves, playouts end, final scores lie in
//! the engines' range and within the hints' score range, chance nodes give outcomes of positive weight that are
//! their moves; for a deterministic game, optionally, alpha-beta agrees with plain minimax on the positions met
//! (those minimax solves within a budget).

use super::{Chance, Deterministic, ScoredGame, SCORE_LIMIT};
use crate::engines::scored::{ScoredAlphaBeta, ScoredMinimax};
use crate::engines::Engine;
use crate::engines::Mode;
use crate::plugin::seeded_rng;
use crate::{Canonicalize, SearchHints};
use rand::Rng;

/// The checks of a scored game (see the module documentation). Each `run` returns the first failure found.
pub struct ScoredCheck<'check, Ruleset: ScoredGame> {
    game: &'check Ruleset,
    start: Ruleset::Position,
    playouts: usize,
    max_plies: usize,
    seed: u64,
    /// The budget of plain minimax per position compared (0: no comparison).
    compare_budget: u64,
}

impl<'check, Ruleset: ScoredGame + Canonicalize + SearchHints> ScoredCheck<'check, Ruleset> {
    /// 20 playouts of at most 1,000 plies from `start`, seed 0, no engine comparison.
    pub fn new(game: &'check Ruleset, start: Ruleset::Position) -> Self {
        ScoredCheck { game, start, playouts: 20, max_plies: 1000, seed: 0, compare_budget: 0 }
    }

    /// The number of random playouts.
    #[must_use]
    pub fn playouts(self, playouts: usize) -> Self {
        ScoredCheck { playouts, ..self }
    }

    /// The most plies a playout may last (a longer one fails: the game may not end).
    #[must_use]
    pub fn max_plies(self, max_plies: usize) -> Self {
        ScoredCheck { max_plies, ..self }
    }

    /// The seed of the playouts.
    #[must_use]
    pub fn seed(self, seed: u64) -> Self {
        ScoredCheck { seed, ..self }
    }

    /// Compare alpha-beta with plain minimax at every position met that minimax solves within `budget`
    /// positions (deterministic games, [`ScoredCheck::run_deterministic`]).
    #[must_use]
    pub fn compare_engines(self, budget: u64) -> Self {
        ScoredCheck { compare_budget: budget, ..self }
    }

    /// The checks of a game without chance nodes.
    pub fn run_deterministic(&self) -> Result<(), String>
    where
        Ruleset: Deterministic,
    {
        let mut alpha_beta = ScoredAlphaBeta::new(Mode::Exact);
        self.playouts_by(|_| false, |position, _| self.compare(&mut alpha_beta, position))
    }

    /// The checks of a game with chance nodes (their outcomes and weights too).
    pub fn run_with_chance(&self) -> Result<(), String>
    where
        Ruleset: Chance,
    {
        self.playouts_by(
            |position| self.game.is_chance(position),
            |position, chance| {
                if !chance {
                    return Ok(());
                }
                let mut outcomes = Vec::new();
                self.game.outcomes(position, &mut outcomes);
                let listed: Vec<_> = outcomes.iter().map(|(mv, _)| mv.clone()).collect();
                if listed != self.game.legal_moves(position) {
                    return Err(format!("the outcomes of {position:?} are not its moves, in order"));
                }
                if outcomes.iter().any(|(_, weight)| *weight == 0)
                    || outcomes.iter().map(|(_, weight)| *weight).sum::<u64>() > 1 << 53
                {
                    return Err(format!("the weights of {position:?} are not positive with a sum of at most 2^53"));
                }
                Ok(())
            },
        )
    }

    /// Alpha-beta's score against plain minimax's at `position`, when minimax solves it within the budget.
    fn compare(
        &self,
        alpha_beta: &mut ScoredAlphaBeta<crate::table::KeyedTable<Ruleset::Key>>,
        position: &Ruleset::Position,
    ) -> Result<(), String>
    where
        Ruleset: Deterministic,
    {
        if self.compare_budget == 0 {
            return Ok(());
        }
        let Ok(reference) = ScoredMinimax::new().with_budget(self.compare_budget).try_value(self.game, position) else {
            return Ok(());
        };
        let found = alpha_beta.search(self.game, position).map_err(|error| error.to_string())?;
        if found != reference {
            return Err(format!("alpha-beta scores {position:?} {found}, plain minimax {reference}"));
        }
        Ok(())
    }

    /// Random playouts, checking every position met; `extra` checks more (told whether it is a chance node).
    fn playouts_by(
        &self,
        is_chance: impl Fn(&Ruleset::Position) -> bool,
        mut extra: impl FnMut(&Ruleset::Position, bool) -> Result<(), String>,
    ) -> Result<(), String> {
        let mut rng = seeded_rng(self.seed);
        let game = self.game;
        for playout in 0..self.playouts {
            let mut position = self.start.clone();
            let mut plies = 0;
            loop {
                if game.canonical(&position) != game.canonical(&position.clone()) {
                    return Err(format!("the key of {position:?} is not stable"));
                }
                let chance = !game.is_over(&position) && is_chance(&position);
                extra(&position, chance)?;
                if let Some(score) = game.outcome(&position) {
                    if score.abs() > SCORE_LIMIT {
                        return Err(format!("the final score {score} of {position:?} is beyond ±{SCORE_LIMIT}"));
                    }
                    break;
                }
                let (low, high) = game.value_range(&position);
                if low > high || low < -SCORE_LIMIT || high > SCORE_LIMIT {
                    return Err(format!("the score range ({low}, {high}) of {position:?} is not a range of scores"));
                }
                let moves = game.legal_moves(&position);
                if moves.is_empty() || moves != game.legal_moves(&position) {
                    return Err(format!("the moves of {position:?} are none, or not deterministic"));
                }
                if let Some(mv) = moves.iter().find(|mv| !game.is_legal(&position, mv)) {
                    return Err(format!("{mv:?} is listed at {position:?} but not legal"));
                }
                if !chance {
                    let mut searched = Vec::new();
                    game.search_moves(&position, &mut searched, &mut Vec::new());
                    let (mut sorted, mut legal) = (searched.clone(), moves.clone());
                    sorted.sort_by_key(|mv| format!("{mv:?}"));
                    legal.sort_by_key(|mv| format!("{mv:?}"));
                    if sorted != legal {
                        return Err(format!(
                            "the searched moves {searched:?} of {position:?} are not its moves {moves:?}"
                        ));
                    }
                }
                if plies >= self.max_plies {
                    return Err(format!("playout {playout} lasted more than {} plies", self.max_plies));
                }
                let mv = &moves[rng.gen_range(0..moves.len())];
                position = game.play(&position, mv);
                plies += 1;
            }
        }
        Ok(())
    }
}
