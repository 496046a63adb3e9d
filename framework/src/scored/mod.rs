//! The wider game model: zero-sum games scored by an integer at their end, whose turns need not alternate, and
//! whose positions may be chance nodes.
//!
//! - `game.rs`: [`ScoredGame`] (a [`crate::Rules`] whose outcome is a score: `i32`), [`ScoreKind`],
//!   [`Deterministic`] (no chance nodes); keys and hints are every family's ([`crate::Canonicalize`],
//!   [`crate::SearchHints`]);
//! - `chance.rs`: [`Chance`] (chance nodes, outcomes with integer weights), [`Probability`];
//! - `endgame.rs`: [`EndgameTiers`] (tiers that close downward, ranked, and a banked part of the score: what an
//!   endgame database solves and the scored search probes);
//!
//! Scores are always for the player to move at the position they belong to (see [`ScoredGame`]). The engines
//! are in [`crate::engines::scored`].

mod chance;
mod endgame;
mod game;

pub use crate::game::{Player, SCORE_LIMIT};
pub use crate::random::Dice;
pub use chance::{chance_outcomes, Chance, Outcomes, Probability};
pub use endgame::EndgameTiers;
pub use game::{Deterministic, ScoreKind, ScoredGame};
