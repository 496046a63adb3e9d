//! The names a game author needs most, in one import: `use ludus_framework::prelude::*;` brings the traits a
//! game of any family implements (`Rules` and its family, keys, hints, text and board forms), the common
//! engines, their traits, the analyses, the conformance check, and the adapter that makes a game playable.

pub use crate::analysis::{
    analyze_position, best_moves, count_winning_moves, move_values, principal_variation, winning_moves, Analysis,
    Assessment, MoveValue, SearchValue,
};
pub use crate::board::{Board, BoardForm, BoardMove, Layout};
#[cfg(feature = "plugin")]
pub use crate::conformance::GameCheck;
pub use crate::engines::alpha_beta::AlphaBeta;
pub use crate::engines::brute_force::{all_solutions, brute_force};
pub use crate::engines::grundy::GrundyEngine;
pub use crate::engines::negamax::{MemoNegamax, PlainNegamax};
pub use crate::engines::one_player::OnePlayerSearch;
pub use crate::engines::scored::{Expectimax, ScoredAlphaBeta, ScoredMinimax, ValueIteration};
pub use crate::engines::{Engine, Mode, Statistics, Stop, TableEngine};
pub use crate::playable::{AnalysisOptions, GameSession, Playable, PlayableGame};
pub use crate::scored::{Chance, Deterministic, ScoreKind, ScoredGame};
pub use crate::text::TextForm;
pub use crate::{
    Canonicalize, Construct, Enumerate, Error, FromKey, Game, Impartial, MisereSum, ParseError, Player, Puzzle, Result,
    Rules, SearchHints, Shortcut, Solitaire, SumGame, Value, Verify, Violation,
};
