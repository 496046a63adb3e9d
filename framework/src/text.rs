//! [`TextForm`]: how a game writes its positions and moves, for every family (what `ludus analyze`, `play`,
//! `serve` and `db query` read and print), and the one reading of a position written as a text and moves after
//! it ([`position_after`]).

use crate::error::{Error, ParseError, Result, TextPlace};
use crate::game::Rules;

/// How positions and moves of a game are written.
///
/// Contract: `parse_position` reads what the game's doc says (the drawing need not be parsable);
/// `parse_move(p, render_move(p, m))` is `m` for every legal move `m` of `p` (at a chance node, every outcome);
/// a move's text holds no whitespace, so that a line of moves can be written with spaces.
pub trait TextForm: Rules {
    /// The start position.
    fn start(&self) -> Self::Position;

    /// A position from its text (`Err` says where and what was expected there).
    fn parse_position(&self, text: &str) -> std::result::Result<Self::Position, ParseError>;

    /// The position drawn for a person (may span several lines).
    fn draw_position(&self, position: &Self::Position) -> String;

    /// A legal move (or outcome, at a chance node) of `position` from its text (`Err` says why it is not one).
    fn parse_move(&self, position: &Self::Position, text: &str) -> std::result::Result<Self::Move, ParseError>;

    /// The text of `mv`, a legal move of `position` (most games need only the move; a move that names what it
    /// leaves, as an impartial game's `1:3+5` does, needs the position too).
    fn render_move(&self, position: &Self::Position, mv: &Self::Move) -> String;

    /// The texts of a line of moves played from `position`, in order.
    fn render_line(&self, position: &Self::Position, line: &[Self::Move]) -> Vec<String> {
        let mut current = position.clone();
        line.iter()
            .map(|mv| {
                let text = self.render_move(&current, mv);
                current = self.play(&current, mv);
                text
            })
            .collect()
    }
}

/// The position reached from `game`'s start by `moves`, each written as [`TextForm::parse_move`] reads it:
/// the one reading of a position written as its moves from the start. `Err` names the first move that is not
/// legal ([`TextPlace::Move`]: `move 3: ...`).
pub fn position_after_moves<'text, Ruleset: TextForm>(
    game: &Ruleset,
    moves: impl IntoIterator<Item = &'text str>,
) -> std::result::Result<Ruleset::Position, ParseError> {
    let mut position = game.start();
    for (index, text) in moves.into_iter().enumerate() {
        let mv = game.parse_move(&position, text).map_err(|error| error.at(TextPlace::Move(index + 1)))?;
        position = game.play(&position, &mv);
    }
    Ok(position)
}

/// The position reached by `moves` (each as [`TextForm::parse_move`] reads it, outcomes of chance too) from the
/// position written `position` of the game `name` (its start when no text is given). A text that is not a
/// position, or an illegal move, is an [`Error::Position`] naming it (`move 3: column 7 is full`).
pub fn position_after<Ruleset: TextForm>(
    game: &Ruleset,
    name: &str,
    position: Option<&str>,
    moves: &[&str],
) -> Result<Ruleset::Position> {
    position_after_each(game, name, position, moves, |_, _| {})
}

/// [`position_after`], calling `each(before, after)` at every move played (to follow whose turn it is).
pub fn position_after_each<Ruleset: TextForm>(
    game: &Ruleset,
    name: &str,
    position: Option<&str>,
    moves: &[&str],
    mut each: impl FnMut(&Ruleset::Position, &Ruleset::Position),
) -> Result<Ruleset::Position> {
    let mut current = match position {
        None => game.start(),
        Some(text) => game.parse_position(text).map_err(|error| Error::Position { game: name.to_string(), error })?,
    };
    for (index, text) in moves.iter().enumerate() {
        let mv = game.parse_move(&current, text).map_err(|error| Error::Position {
            game: name.to_string(),
            error: error.at(TextPlace::Quoted(index + 1, text.to_string())),
        })?;
        let next = game.play(&current, &mv);
        each(&current, &next);
        current = next;
    }
    Ok(current)
}
