//! A game against the perfect player ([`GameSession`] over a game with a text form): the positions so far, and
//! the engine that chooses the perfect player's moves (an exact search, or a solved database).

use super::{move_analyses, Finish, GameSession, MoveAnalysis, TextForm};
use crate::analysis::try_move_values;
use crate::engines::Engine;
use crate::error::{Error, Result};
use crate::game::Game;
use crate::value::Value;

/// A game against the perfect player from `game`'s start, the perfect player's moves chosen by `engine` (an
/// exact engine, or one that reads a solved database).
pub fn session<'game, Rules: TextForm>(
    game: &'game Rules,
    engine: Box<dyn Engine<Rules, Failure = Error> + 'game>,
) -> Box<dyn GameSession + 'game> {
    Box::new(Session { game, positions: History::new(game.start()), engine })
}

/// A [`GameSession`] over a game with a text form: the positions so far, and an exact engine whose table serves
/// the whole game.
struct Session<'game, Rules: Game> {
    game: &'game Rules,
    positions: History<Rules::Position>,
    engine: Box<dyn Engine<Rules, Failure = Error> + 'game>,
}

impl<Rules: TextForm> Session<'_, Rules> {
    fn current(&self) -> &Rules::Position {
        self.positions.current()
    }
}

impl<Rules: TextForm> GameSession for Session<'_, Rules> {
    fn drawing(&self) -> String {
        self.game.draw_position(self.current())
    }

    fn first_to_move(&self) -> bool {
        self.positions.first_to_move()
    }

    fn result(&self) -> Option<Finish> {
        let position = self.current();
        let outcome = match self.game.outcome(position) {
            Some(value) => value,
            // No move and no outcome: lost for the player to move.
            None if self.game.legal_moves(position).is_empty() => Value::LOST,
            None => return None,
        };
        let mover_first = self.first_to_move();
        Some(match outcome {
            Value::Draw => Finish::Drawn,
            Value::Win(_) => Finish::won_by(mover_first),
            Value::Lose(_) => Finish::won_by(!mover_first),
        })
    }

    fn play(&mut self, text: &str) -> std::result::Result<String, String> {
        let position = self.current();
        if self.result().is_some() {
            return Err("the game is over".to_string());
        }
        let mv = self.game.parse_move(position, text)?;
        let next = self.game.play(position, &mv);
        self.positions.push(next);
        Ok(self.game.render_move(&mv))
    }

    fn play_best(&mut self) -> Result<String> {
        let position = self.current().clone();
        // Each move's search within the engine's budget (`--max-positions`, the memory budget).
        let values = try_move_values(self.engine.as_mut(), self.game, &position)?;
        let best = values.into_iter().reduce(|best, next| if next.value > best.value { next } else { best });
        let mv = best.ok_or(Error::GameOver)?.mv;
        self.positions.push(self.game.play(&position, &mv));
        Ok(self.game.render_move(&mv))
    }

    fn hints(&mut self) -> Result<Vec<MoveAnalysis>> {
        let position = self.current().clone();
        let values = try_move_values(self.engine.as_mut(), self.game, &position)?;
        Ok(move_analyses(self.game, values))
    }

    fn undo(&mut self) -> bool {
        self.positions.undo()
    }

    fn moves_played(&self) -> usize {
        self.positions.moves_played()
    }
}

/// The positions of a game so far, from its start: what the moves played and taken back act on.
pub(super) struct History<Position> {
    start: Position,
    /// The positions after each move.
    after: Vec<Position>,
}

impl<Position> History<Position> {
    /// A game at `start`.
    pub(super) fn new(start: Position) -> Self {
        History { start, after: Vec::new() }
    }

    /// The position now.
    pub(super) fn current(&self) -> &Position {
        self.after.last().unwrap_or(&self.start)
    }

    /// Plays to `next`.
    pub(super) fn push(&mut self, next: Position) {
        self.after.push(next);
    }

    /// Takes back the last move; `false` at the start.
    pub(super) fn undo(&mut self) -> bool {
        self.after.pop().is_some()
    }

    /// The moves played since the start.
    pub(super) fn moves_played(&self) -> usize {
        self.after.len()
    }

    /// Whether the first player is to move (moves alternate).
    pub(super) fn first_to_move(&self) -> bool {
        self.after.len().is_multiple_of(2)
    }
}
