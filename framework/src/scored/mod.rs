//! The wider game model: zero-sum games scored by an integer at their end, whose turns need not alternate, and
//! whose positions may be chance nodes.
//!
//! - `game.rs`: [`ScoredGame`] (the required core: `mover`, `score`, `moves`, `play`), [`Player`],
//!   [`ScoreKind`], [`Deterministic`] (no chance nodes), [`ScoredCanonicalize`] (the tables' keys);
//! - `hints.rs`: [`ScoredHints`] (the score range, move order), [`SCORE_LIMIT`];
//! - `chance.rs`: [`Chance`] (chance nodes, outcomes with integer weights), [`Probability`];
//! - `check.rs`: [`ScoredCheck`], the conformance checks every scored game's tests call;
//! - `analysis.rs`: every move's score, the best moves, the principal variation that keeps the score.
//!
//! Scores are always for the player to move at the position they belong to (see [`ScoredGame`]). The engines
//! are in [`crate::engines::scored`].

mod analysis;
mod chance;
#[cfg(feature = "plugin")]
mod check;
mod game;
mod hints;

pub use analysis::{best_scored_moves, move_scores, scored_line, MoveScore};
#[cfg(feature = "plugin")]
pub use chance::Dice;
pub use chance::{Chance, Probability};
#[cfg(feature = "plugin")]
pub use check::ScoredCheck;
pub use game::{Deterministic, Player, ScoreKind, ScoredCanonicalize, ScoredGame};
pub use hints::{ScoredHints, SCORE_LIMIT};
