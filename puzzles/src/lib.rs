//! # Ludus puzzles
//!
//! One-player and constructive puzzle plugins.
