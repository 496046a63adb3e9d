//! A scored game against the perfect player ([`GameSession`] over a [`ScoredPlayable`]): the positions so far,
//! the evaluator whose table serves the whole game; who moves comes from the game (turns need not alternate),
//! and at a chance node the session lists the outcomes for the caller to roll or ask for.

use super::scored::{Evaluator, ScoredPlayable};
use super::session::History;
use super::{Finish, GameSession, MoveAnalysis, ScoredText};
use crate::error::{Error, Result};
use crate::scored::{Player, Probability, ScoredCanonicalize, ScoredGame, ScoredHints};

/// A game of a [`ScoredPlayable`] in progress.
pub(crate) struct ScoredSession<'game, Rules: ScoredGame> {
    playable: &'game ScoredPlayable<Rules>,
    positions: History<Rules::Position>,
    evaluator: Box<dyn Evaluator<Rules>>,
}

impl<'game, Rules> ScoredSession<'game, Rules>
where
    Rules: ScoredText + ScoredCanonicalize + ScoredHints + 'static,
{
    /// A game from the start.
    pub(crate) fn new(playable: &'game ScoredPlayable<Rules>, evaluator: Box<dyn Evaluator<Rules>>) -> Self {
        ScoredSession { playable, positions: History::new(playable.game.start()), evaluator }
    }

    fn game(&self) -> &Rules {
        &self.playable.game
    }

    fn current(&self) -> &Rules::Position {
        self.positions.current()
    }
}

impl<Rules> GameSession for ScoredSession<'_, Rules>
where
    Rules: ScoredText + ScoredCanonicalize + ScoredHints + 'static,
{
    fn drawing(&self) -> String {
        self.game().draw_position(self.current())
    }

    fn first_to_move(&self) -> bool {
        self.game().mover(self.current()) == Player::First
    }

    fn result(&self) -> Option<Finish> {
        let first = self.game().first_player_score(self.current())?;
        Some(match first.signum() {
            1 => Finish::FirstWon,
            -1 => Finish::SecondWon,
            _ => Finish::Drawn,
        })
    }

    fn play(&mut self, text: &str) -> std::result::Result<String, String> {
        if self.result().is_some() {
            return Err("the game is over".to_string());
        }
        let position = self.current();
        let mv = self.game().parse_move(position, text)?;
        let next = self.game().play(position, &mv);
        let written = self.game().render_move(&mv);
        self.positions.push(next);
        Ok(written)
    }

    fn play_best(&mut self) -> Result<String> {
        if self.result().is_some() {
            return Err(Error::GameOver);
        }
        if (self.playable.outcomes)(self.game(), self.current()).is_some() {
            return Err(Error::Engine("a chance node: the dice decide, not a player".to_string()));
        }
        let position = self.current().clone();
        let moves = self.game().legal_moves(&position);
        let analyses = self.playable.move_analyses(self.evaluator.as_mut(), &position)?;
        let best = analyses.iter().position(|entry| entry.best).ok_or(Error::GameOver)?;
        let mv = moves.get(best).ok_or_else(|| Error::Internal("a best move out of the moves".to_string()))?;
        let written = self.game().render_move(mv);
        self.positions.push(self.game().play(&position, mv));
        Ok(written)
    }

    fn hints(&mut self) -> Result<Vec<MoveAnalysis>> {
        let position = self.current().clone();
        self.playable.move_analyses(self.evaluator.as_mut(), &position)
    }

    fn undo(&mut self) -> bool {
        self.positions.undo()
    }

    fn moves_played(&self) -> usize {
        self.positions.moves_played()
    }

    fn outcomes(&self) -> Vec<(String, Probability)> {
        (self.playable.outcomes)(self.game(), self.current())
            .unwrap_or_default()
            .into_iter()
            .map(|(mv, probability)| (self.game().render_move(&mv), probability))
            .collect()
    }
}
