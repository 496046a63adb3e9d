//! The typed report of a position ([`Analysis`]: its value, every move's value, the principal variation, the
//! engine's statistics) and [`analyze_position`], the one function that makes it for every family and every
//! engine, a search's or a database's ([`analyze_value`]: the value alone): `ludus analyze`, `db query`, `play`'s hints, the explorer and the Python
//! module all show what it gives.

use super::{best_value, exact_line_by, Assessment, SearchValue};
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
    /// Whether its value came from an opening book rather than a search.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub book: bool,
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
    /// Values read from an opening book rather than searched, the position's own and its moves' included.
    #[serde(skip_serializing_if = "is_zero")]
    pub book_values: u64,
    /// Whether the line is the book's: the position's value came from an opening book, and the line ends
    /// where the book does.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub line_from_book: bool,
    /// How far the solve went, for a value exact only to a tolerance (value iteration).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub convergence: Option<Convergence>,
    /// Whether only the position's value was asked for ([`analyze_value`]): no move was valued and no line
    /// followed, so `moves` and `line` are empty by request.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub value_only: bool,
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
    /// outcome with its probability), the best ones marked, each searched within the engine's budget; `watch`
    /// is told of each search as it starts and of each value as it is found (its `best` not yet known).
    pub fn move_analyses<Search: Engine<Ruleset> + ?Sized>(
        &self,
        engine: &mut Search,
        position: &Ruleset::Position,
        watch: &mut dyn FnMut(Found<'_>),
    ) -> Result<Vec<MoveAnalysis>>
    where
        Search::Value: SearchValue,
    {
        let game = self.game;
        let outcomes = self.outcomes(position);
        let mut values = Vec::new();
        let mut analyses = Vec::new();
        for mv in game.legal_moves(position) {
            let text = game.render_move(position, &mv);
            watch(Found::Searching(&text));
            let child = game.play(position, &mv);
            let read = engine.book_values();
            let found = engine.try_value(game, &child)?.for_move(game.turn_passes(position, &child));
            let mut value = found.assessment(self.scores);
            let chance =
                outcomes.as_ref().and_then(|all| all.iter().find(|(outcome, _)| *outcome == mv)).map(|(_, p)| *p);
            if let Assessment::Expected(expected) = &mut value {
                expected.chance = chance;
            }
            let analysis = MoveAnalysis { mv: text, value, best: false, book: engine.book_values() > read };
            watch(Found::Move(&analysis));
            analyses.push(analysis);
            values.push(super::MoveValue { mv, value: found });
        }
        if outcomes.is_none() {
            if let Some(best) = best_value(&values) {
                for (analysis, entry) in analyses.iter_mut().zip(&values) {
                    analysis.best = entry.value.is_among_best(best);
                }
            }
        }
        Ok(analyses)
    }
}

/// Whether a count is zero (a field left out of the JSON).
fn is_zero(count: &u64) -> bool {
    *count == 0
}

/// What an analysis has found so far, told as it finds it ([`analyze_position_watched`]): for a page that shows
/// values as they arrive.
#[derive(Clone, Copy, Debug)]
pub enum Found<'analysis> {
    /// The position's value.
    Value(&'analysis Assessment),
    /// The search of the move written so begins.
    Searching(&'analysis str),
    /// A move's value (whether it is among the best is known only when every move has its value).
    Move(&'analysis MoveAnalysis),
    /// The principal variation is being searched.
    Line,
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
    analyze_position_watched(text, engine, position, max_line, &mut |_| {})
}

/// [`analyze_position`], telling `watch` what it finds as it finds it: the position's value first (so that a
/// best move is known as soon as its own value is), then each move's search and value, then the line.
pub fn analyze_position_watched<Ruleset: TextForm, Search: Engine<Ruleset> + ?Sized>(
    text: &PositionText<'_, Ruleset>,
    engine: &mut Search,
    position: &Ruleset::Position,
    max_line: usize,
    watch: &mut dyn FnMut(Found<'_>),
) -> Result<Analysis>
where
    Search::Value: SearchValue,
{
    let game = text.game;
    let book_before = engine.book_values();
    let value = engine.try_value(game, position)?;
    let assessment = value.assessment(text.scores);
    watch(Found::Value(&assessment));
    let moves = text.move_analyses(engine, position, watch)?;
    watch(Found::Line);
    // A position valued by a book: its line is followed through the book's positions only (searching it past
    // the book would cost what the book spares).
    let from_book = engine.book_values() > book_before;
    let engine = std::cell::RefCell::new(engine);
    let stop_at = |at: &Ruleset::Position| {
        text.outcomes(at).is_some()
            || (from_book && {
                let mut engine = engine.borrow_mut();
                !engine.holds(game, at) || game.legal_moves(at).iter().any(|mv| !engine.holds(game, &game.play(at, mv)))
            })
    };
    let line = exact_line_by(
        game,
        position,
        max_line,
        stop_at,
        |child| engine.borrow_mut().try_value(game, child),
        |child, low, high| engine.borrow_mut().try_value_within(game, child, low, high),
    )?;
    let engine = engine.into_inner();
    let convergence = engine.convergence();
    Ok(Analysis {
        game: text.name.to_string(),
        drawing: drawing(game, position, convergence.as_ref()),
        value: assessment,
        moves,
        line: game.render_line(position, &line),
        stats: engine.stats(),
        book_values: engine.book_values() - book_before,
        line_from_book: from_book,
        convergence,
        value_only: false,
    })
}

/// The value of `position` alone, by `engine`: one search, no move's value and no line (`ludus analyze
/// --value-only`), for a position each of whose moves would be a search of hours (Kalah(6, 5) from the start).
pub fn analyze_value<Ruleset: TextForm, Search: Engine<Ruleset> + ?Sized>(
    text: &PositionText<'_, Ruleset>,
    engine: &mut Search,
    position: &Ruleset::Position,
) -> Result<Analysis>
where
    Search::Value: SearchValue,
{
    let book_before = engine.book_values();
    let value = engine.try_value(text.game, position)?;
    let convergence = engine.convergence();
    Ok(Analysis {
        game: text.name.to_string(),
        drawing: drawing(text.game, position, convergence.as_ref()),
        value: value.assessment(text.scores),
        moves: Vec::new(),
        line: Vec::new(),
        stats: engine.stats(),
        book_values: engine.book_values() - book_before,
        line_from_book: false,
        convergence,
        value_only: true,
    })
}

/// The drawing of `position`, with how far the solve went for a value exact only to a tolerance.
fn drawing<Ruleset: TextForm>(
    game: &Ruleset,
    position: &Ruleset::Position,
    convergence: Option<&Convergence>,
) -> String {
    let mut drawing = game.draw_position(position);
    if let Some(convergence) = convergence {
        drawing.push_str(&format!("{convergence}\n"));
    }
    drawing
}
