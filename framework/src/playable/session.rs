//! A game against the perfect player ([`GameSession`]) over a [`Playable`] of any family: the positions so far
//! and who moved into each (turns need not alternate), and the engine whose table serves the whole game (a
//! search, or a database's stored values). At a chance node the session lists the outcomes for the caller to
//! roll or ask for.

use super::{Finish, GameSession, MoveAnalysis, Playable};
use crate::analysis::{best_value, values_by, SearchValue};
use crate::engines::Engine;
use crate::error::{Error, ParseError, Result};
use crate::game::{Outcome, Player};
use crate::scored::Probability;
use crate::text::TextForm;
use std::cmp::Ordering;

/// A game of a [`Playable`] in progress.
pub(super) struct Session<'game, Ruleset: TextForm, Worth> {
    playable: &'game Playable<Ruleset, Worth>,
    /// The start, the first player to move.
    start: Ruleset::Position,
    /// The positions after each move played, each with the player to move there.
    after: Vec<(Ruleset::Position, Player)>,
    engine: Box<dyn Engine<Ruleset, Value = Worth, Failure = Error> + 'game>,
}

impl<'game, Ruleset: TextForm, Worth: SearchValue> Session<'game, Ruleset, Worth> {
    /// A game from the start, the first player to move.
    pub(super) fn new(
        playable: &'game Playable<Ruleset, Worth>,
        engine: Box<dyn Engine<Ruleset, Value = Worth, Failure = Error> + 'game>,
    ) -> Self {
        Session { playable, start: playable.game.start(), after: Vec::new(), engine }
    }

    fn game(&self) -> &'game Ruleset {
        &self.playable.game
    }

    /// The position now, and the player to move there.
    fn current(&self) -> (&Ruleset::Position, Player) {
        match self.after.last() {
            Some((position, mover)) => (position, *mover),
            None => (&self.start, Player::First),
        }
    }

    /// Plays `mv` at the position now.
    fn push(&mut self, mv: &Ruleset::Move) {
        let (position, mover) = self.current();
        let next = self.game().play(position, mv);
        let mover = if self.game().turn_passes(position, &next) { mover.other() } else { mover };
        self.after.push((next, mover));
    }
}

impl<Ruleset: TextForm, Worth: SearchValue> GameSession for Session<'_, Ruleset, Worth> {
    fn drawing(&self) -> String {
        self.game().draw_position(self.current().0)
    }

    fn first_to_move(&self) -> bool {
        self.current().1 == Player::First
    }

    fn result(&self) -> Option<Finish> {
        let (position, mover) = self.current();
        let sign = match self.game().outcome(position) {
            Some(outcome) => outcome.sign(),
            // No move and no outcome: lost for the player to move (the normal-play convention).
            None if self.game().legal_moves(position).is_empty() => Ordering::Less,
            None => return None,
        };
        Some(match sign {
            Ordering::Equal => Finish::Drawn,
            Ordering::Greater => Finish::won_by(mover == Player::First),
            Ordering::Less => Finish::won_by(mover == Player::Second),
        })
    }

    fn play(&mut self, text: &str) -> std::result::Result<String, ParseError> {
        if self.result().is_some() {
            return Err(ParseError::game_over());
        }
        let position = self.current().0;
        let mv = self.game().parse_move(position, text)?;
        let written = self.game().render_move(position, &mv);
        self.push(&mv);
        Ok(written)
    }

    fn play_best(&mut self) -> Result<String> {
        if self.result().is_some() {
            return Err(Error::GameOver);
        }
        let position = self.current().0.clone();
        if self.playable.text().outcomes(&position).is_some() {
            return Err(Error::Unsupported {
                game: self.playable.name.clone(),
                operation: "a perfect player's move at a chance node".into(),
                reason: "the dice decide, not a player".into(),
            });
        }
        let game = self.game();
        // Each move's search within the engine's budget (`--max-positions`, the memory budget).
        let engine = &mut self.engine;
        let values = values_by(game, &position, |child| engine.try_value(game, child))?;
        let best = best_value(&values).ok_or(Error::GameOver)?;
        let chosen = values.into_iter().find(|entry| entry.value.is_among_best(best)).ok_or(Error::GameOver)?;
        let written = game.render_move(&position, &chosen.mv);
        self.push(&chosen.mv);
        Ok(written)
    }

    fn hints(&mut self) -> Result<Vec<MoveAnalysis>> {
        let position = self.current().0.clone();
        self.playable.text().move_analyses(self.engine.as_mut(), &position, &mut |_| {})
    }

    fn undo(&mut self) -> bool {
        self.after.pop().is_some()
    }

    fn moves_played(&self) -> usize {
        self.after.len()
    }

    fn outcomes(&self) -> Vec<(String, Probability)> {
        let position = self.current().0;
        self.playable
            .text()
            .outcomes(position)
            .unwrap_or_default()
            .into_iter()
            .map(|(mv, probability)| (self.game().render_move(position, &mv), probability))
            .collect()
    }
}
