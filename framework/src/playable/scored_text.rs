//! [`ScoredText`]: how a scored game writes its positions and moves, the twin of [`super::TextForm`] for the
//! games of [`crate::scored`] (which are not [`crate::Game`]s).

use crate::scored::ScoredGame;

/// How positions and moves of a scored game are written. Contract: `parse_position` reads what the game's doc
/// says; `parse_move(p, render_move(m))` is `m` for every move `m` of `p` (at a chance node, every outcome).
pub trait ScoredText: ScoredGame {
    /// The start position.
    fn start(&self) -> Self::Position;

    /// A position from its text (`Err` says what was expected).
    fn parse_position(&self, text: &str) -> Result<Self::Position, String>;

    /// The position drawn for a person (may span several lines).
    fn draw_position(&self, position: &Self::Position) -> String;

    /// A legal move (or outcome, at a chance node) of `position` from its text (`Err` says why it is not one).
    fn parse_move(&self, position: &Self::Position, text: &str) -> Result<Self::Move, String>;

    /// A move's text.
    fn render_move(&self, mv: &Self::Move) -> String;
}
