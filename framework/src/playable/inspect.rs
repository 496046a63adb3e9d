//! A position as a caller outside Rust sees it (the Python module's `Position`): its drawing, its canonical
//! key, its legal moves (at a chance node, its outcomes with their probabilities), and who is to move, counted
//! from the position the caller started from. Made by [`super::PlayableGame::inspect`] from a position text and
//! moves, the one reading every caller shares ([`crate::text::position_after`]).

use super::{Finish, Playable};
use crate::error::Result;
use crate::game::{Canonicalize, Outcome, Player};
use crate::scored::Probability;
use crate::text::{position_after_each, TextForm};
use std::cmp::Ordering;

/// A position, seen from outside: what [`super::PlayableGame::inspect`] gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionView {
    /// The position drawn, as `ludus analyze` draws it.
    pub drawing: String,
    /// Its canonical key, written as the game's key type writes itself (a whole number for every built-in
    /// game). Equal keys imply equal values.
    pub key: String,
    /// Its legal moves, as the game writes them; at a chance node, its outcomes (see `outcomes`); none once the
    /// game is over.
    pub moves: Vec<String>,
    /// At a chance node, each outcome with its probability (exact, as a fraction); else empty.
    pub outcomes: Vec<(String, Probability)>,
    /// Who is to move: [`Player::First`] for the player to move at the position the moves start from, whatever
    /// the rules do with turns on the way (a move into Kalah's store leaves the same player to move).
    pub mover: Player,
    /// How the game ended, if it has (the first player is the one to move where the moves start); `None` while
    /// it goes on.
    pub finish: Option<Finish>,
}

/// The key of `position` as text (its key type's `Debug` form: the digits of a whole number).
pub(super) fn key_text<Ruleset: Canonicalize>(game: &Ruleset, position: &Ruleset::Position) -> String {
    format!("{:?}", game.canonical(position))
}

impl<Ruleset: TextForm, Worth> Playable<Ruleset, Worth> {
    /// The position written `position` (`None`: the start) after `moves`, seen from outside.
    pub fn view_after(&self, position: Option<&str>, moves: &[&str]) -> Result<PositionView> {
        let mut mover = Player::First;
        let current = position_after_each(&self.game, &self.name, position, moves, |before, after| {
            if self.game.turn_passes(before, after) {
                mover = mover.other();
            }
        })?;
        let game = &self.game;
        let outcomes: Vec<(String, Probability)> = self
            .text()
            .outcomes(&current)
            .unwrap_or_default()
            .into_iter()
            .map(|(mv, probability)| (game.render_move(&current, &mv), probability))
            .collect();
        let moves = if game.is_over(&current) {
            Vec::new()
        } else {
            game.legal_moves(&current).iter().map(|mv| game.render_move(&current, mv)).collect()
        };
        let sign = match game.outcome(&current) {
            Some(outcome) => Some(outcome.sign()),
            // No move and no outcome: lost for the player to move (the normal-play convention).
            None if moves.is_empty() => Some(Ordering::Less),
            None => None,
        };
        let finish = sign.map(|sign| match sign {
            Ordering::Equal => Finish::Drawn,
            Ordering::Greater => Finish::won_by(mover == Player::First),
            Ordering::Less => Finish::won_by(mover == Player::Second),
        });
        Ok(PositionView {
            drawing: game.draw_position(&current),
            key: (self.key)(game, &current),
            moves,
            outcomes,
            mover,
            finish,
        })
    }
}
