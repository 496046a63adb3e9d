//! # Ludus games
//!
//! Two-player and impartial game plugins, and the classic games used by tests, examples and benches.
