//! Engines for [`crate::scored`] games: exact scores of zero-sum games whose turns need not alternate, and
//! expected scores of games with chance.
//!
//! - `alpha_beta.rs`: [`ScoredAlphaBeta`], fail-soft alpha-beta over integer scores with a table of bounds (any
//!   of [`crate::table`]'s tables) and a null-window driver (bisection of the score range), for
//!   [`Deterministic`](crate::scored::Deterministic) games; in [`Mode::Outcome`] one search around 0 tells
//!   only who wins;
//! - `search.rs`: one search of the scored alpha-beta and the null-window narrowing of the root's score, which
//!   one thread runs alone or several share;
//! - `lazy_smp.rs`: [`ScoredLazySmp`], the same search on several threads over one shared table (with the
//!   `parallel` feature);
//! - `minimax.rs`: [`ScoredMinimax`], plain minimax over scores (no table, no pruning): the reference;
//! - `expectimax.rs`: [`Expectimax`], for games with chance nodes whose positions never repeat, with Star1
//!   pruning at chance nodes (sound since scores are bounded by the game's range);
//! - `value_iteration.rs`: [`ValueIteration`], for games with chance whose positions repeat (Pig): every
//!   reachable position's value, to a stated tolerance, with the tolerance reached and the sweeps taken;
//! - `scale.rs`: how a score's bounds are kept in the tables of [`crate::table`], made for win/loss scores.
//!
//! Invariant: a score is always seen by the mover of the position it belongs to; a child's score is negated
//! when its mover differs from its parent's, kept when the same player moves again. Every engine has a budget
//! (positions, table memory, states) and reports running out with [`crate::Error::Budget`].
//!
//! [`Mode::Outcome`]: crate::engines::Mode::Outcome

mod alpha_beta;
mod expectimax;
mod guess;
#[cfg(feature = "parallel")]
mod lazy_smp;
mod minimax;
mod scale;
mod search;
mod value_iteration;

pub use alpha_beta::{Progress, ProgressHook, ScoredAlphaBeta, GUESS_POSITIONS, PROGRESS_EVERY};
pub use expectimax::{ExpectedScore, Expectimax};
#[cfg(feature = "parallel")]
pub use lazy_smp::ScoredLazySmp;
pub use minimax::ScoredMinimax;
pub use value_iteration::{ValueIteration, ValueTable};

use crate::error::Error;

/// The error of a game that breaks the scored contract at a position.
pub(crate) fn broken(detail: impl Into<String>) -> Error {
    Error::Contract { contract: "ScoredGame", detail: detail.into() }
}
