//! Classic games with published reference facts, used by tests, examples and benches: tic-tac-toe (a
//! two-player game with the board's 8 symmetries as its canonicalization), Nim, Kayles, Dawson's Kayles,
//! Grundy's game and every octal game by its code (impartial games for the Sprague-Grundy engine).

mod board_form;
mod nim_game;
pub mod octal;
mod text;
pub mod tic_tac_toe;

pub use nim_game::NimGame;
pub use octal::{DawsonsKayles, GrundysGame, Kayles, Nim, OctalGame};
pub use tic_tac_toe::{Board, TicTacToe};
