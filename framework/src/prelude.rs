//! The names a game author needs most, in one import: `use ludus_framework::prelude::*;` brings the traits a
//! game implements, the common engines, their traits, and the analyses.

pub use crate::analysis::{
    best_moves, count_winning_moves, move_values, principal_variation, winning_moves, MoveValue,
};
pub use crate::engines::alpha_beta::AlphaBeta;
pub use crate::engines::brute_force::{all_solutions, brute_force};
pub use crate::engines::grundy::GrundyEngine;
pub use crate::engines::negamax::{MemoNegamax, PlainNegamax};
pub use crate::engines::one_player::OnePlayerSearch;
pub use crate::engines::{Engine, Mode, Statistics, Stop, TableEngine};
pub use crate::{
    Canonicalize, Construct, Enumerate, Error, Game, Impartial, MisereSum, Puzzle, Result, SearchHints, Shortcut,
    Solitaire, SumGame, Value, Verify, Violation,
};
