//! The typed report of a position ([`Analysis`]: its value, every move's value, the principal variation, the
//! engine's statistics) and [`analyze_position`], the one function that makes it for every family and every
//! engine, a search's or a database's: `ludus analyze`, `db query`, `play`'s hints, the explorer and the Python
//! module all show what it gives.

use super::{best_value, line_by, values_by, Assessment, SearchValue};
use crate::engines::Engine;
use crate::error::Result;
use crate::scored::{Outcomes, ScoreKind};
use crate::stats::{Convergence, Stats};
use crate::text::TextForm;
use serde::Serialize;

/// One move of an analysed position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveAnalysis {
    /// The move's text.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value for the player who makes it (the remoteness counted from the position before it; for an
    /// impartial game under normal play, the nimber of the position it leads to: zero is a winning move; at a
    /// chance node, the outcome's value with its probability).
    #[serde(flatten)]
    pub value: Assessment,
    /// Whether it is among the best moves (never at a chance node, where no one chooses).
    pub best: bool,
}

/// The analysis of a position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// The game, with its parameters.
    pub game: String,
    /// The position drawn.
    pub drawing: String,
    /// Its value for the player to move.
    #[serde(flatten)]
    pub value: Assessment,
    /// Every legal move, in the game's order, with its value (at a chance node, every outcome).
    pub moves: Vec<MoveAnalysis>,
    /// The principal variation: a best move for each side in turn, to the end (or to the length cap, or to the
    /// first chance node).
    pub line: Vec<String>,
    /// The engine's statistics.
    pub stats: Stats,
    /// How far the solve went, for a value exact only to a tolerance (value iteration).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub convergence: Option<Convergence>,
}

/// How an analysis reads a game's values besides its engine: what its scores mean, and its chance nodes.
pub struct PositionText<'game, Ruleset: TextForm> {
    /// The game.
    pub game: &'game Ruleset,
    /// Its name with its parameters.
    pub name: &'game str,
    /// What its scores mean (an expected score of a game scored by win or loss reads as a probability).
    pub scores: ScoreKind,
    /// Its chance nodes' outcomes, for a game with chance.
    pub chance: Option<Outcomes<Ruleset>>,
}

impl<Ruleset: TextForm> PositionText<'_, Ruleset> {
    /// The outcomes of `position` if it is a chance node.
    pub fn outcomes(&self, position: &Ruleset::Position) -> Option<Vec<(Ruleset::Move, crate::scored::Probability)>> {
        self.chance.and_then(|outcomes| outcomes(self.game, position))
    }

    /// Every legal move of `position` with its value for the player who makes it (at a chance node, every
    /// outcome with its probability), the best ones marked, each searched within the engine's budget.
    pub fn move_analyses<Search: Engine<Ruleset> + ?Sized>(
        &self,
        engine: &mut Search,
        position: &Ruleset::Position,
    ) -> Result<Vec<MoveAnalysis>>
    where
        Search::Value: SearchValue,
    {
        let game = self.game;
        let values = values_by(game, position, |child| engine.try_value(game, child))?;
        let outcomes = self.outcomes(position);
        let best = best_value(&values);
        Ok(values
            .into_iter()
            .map(|entry| {
                let mut value = entry.value.assessment(self.scores);
                let chance =
                    outcomes.as_ref().and_then(|all| all.iter().find(|(mv, _)| *mv == entry.mv)).map(|(_, p)| *p);
                if let Assessment::Expected(expected) = &mut value {
                    expected.chance = chance;
                }
                let best = outcomes.is_none() && best.is_some_and(|best| entry.value.is_among_best(best));
                MoveAnalysis { mv: game.render_move(position, &entry.mv), value, best }
            })
            .collect())
    }
}

/// The analysis of `position` by `engine`: its value, every move's, and the principal variation (at most
/// `max_line` moves; it stops at the first chance node), each search within the engine's budget.
pub fn analyze_position<Ruleset: TextForm, Search: Engine<Ruleset> + ?Sized>(
    text: &PositionText<'_, Ruleset>,
    engine: &mut Search,
    position: &Ruleset::Position,
    max_line: usize,
) -> Result<Analysis>
where
    Search::Value: SearchValue,
{
    let game = text.game;
    let value = engine.try_value(game, position)?;
    let moves = text.move_analyses(engine, position)?;
    let line =
        line_by(game, position, max_line, |at| text.outcomes(at).is_some(), |child| engine.try_value(game, child))?;
    let convergence = engine.convergence();
    let mut drawing = game.draw_position(position);
    if let Some(convergence) = &convergence {
        drawing.push_str(&format!("{convergence}\n"));
    }
    Ok(Analysis {
        game: text.name.to_string(),
        drawing,
        value: value.assessment(text.scores),
        moves,
        line: game.render_line(position, &line),
        stats: engine.stats(),
        convergence,
    })
}
