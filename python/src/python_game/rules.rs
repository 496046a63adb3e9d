//! The framework's traits for a game written in Python: [`PyWinLoss`] (won, drawn or lost, turns alternate:
//! the win/loss engines, the retrograde engine where positions repeat) and [`PyScored`] (a score, turns that
//! need not alternate, chance: the scored engines, expectimax and value iteration). What the traits make
//! constants (whether positions repeat, what scores mean) are the adapters' const parameters, chosen from the
//! class's attributes when the game is analysed.

use super::{Callbacks, PyMove, PyPosition};
use ludus_framework::error::ParseError;
use ludus_framework::playable::TextForm;
use ludus_framework::scored::{Chance, Deterministic, ScoreKind, ScoredGame};
use ludus_framework::{Canonicalize, Game, Rules, SearchHints, Value};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::sync::Arc;

/// A win/loss/draw game written in Python; `REPEAT`: whether its positions repeat.
#[derive(Clone)]
pub struct PyWinLoss<const REPEAT: bool>(pub Arc<Callbacks>);

/// A scored game written in Python (or a win/loss one whose turns need not alternate or that has chance:
/// `WIN_LOSS`, its scores are 1, 0 and -1); `REPEAT`: whether its positions repeat.
#[derive(Clone)]
pub struct PyScored<const REPEAT: bool, const WIN_LOSS: bool>(pub Arc<Callbacks>);

/// The moves of `position` (at a chance node, its outcomes), into `moves`.
fn moves_of(callbacks: &Callbacks, position: &PyPosition, moves: &mut Vec<PyMove>) {
    let read = |list: &Bound<'_, PyAny>| -> PyResult<Vec<PyMove>> {
        let mut read = Vec::new();
        for item in list.try_iter()? {
            let item = item?;
            // A chance outcome is a pair (move, weight); a move is itself.
            let mv = if callbacks.has_chance && item.is_instance_of::<PyTuple>() { item.get_item(0)? } else { item };
            read.push(PyMove { text: mv.str()?.to_string(), object: Arc::new(mv.unbind()) });
        }
        Ok(read)
    };
    let outcomes = chance_of(callbacks, position);
    if let Some(outcomes) = outcomes.filter(|outcomes| !outcomes.is_empty()) {
        moves.extend(outcomes.into_iter().map(|(mv, _)| mv));
        return;
    }
    if let Some(read) = callbacks.call("moves", &[&position.object], read) {
        moves.extend(read);
    }
}

/// The outcomes of `position` with their weights if the game has chance (empty: not a chance node).
fn chance_of(callbacks: &Callbacks, position: &PyPosition) -> Option<Vec<(PyMove, u64)>> {
    if !callbacks.has_chance {
        return None;
    }
    let read = |list: &Bound<'_, PyAny>| -> PyResult<Vec<(PyMove, u64)>> {
        if list.is_none() {
            return Ok(Vec::new());
        }
        let mut read = Vec::new();
        for pair in list.try_iter()? {
            let (mv, weight): (Bound<'_, PyAny>, u64) = pair?.extract().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(
                    "chance_outcomes() gives pairs (move, weight), each weight a whole number of at least 1",
                )
            })?;
            if weight == 0 {
                return Err(pyo3::exceptions::PyValueError::new_err("a chance outcome's weight is at least 1"));
            }
            read.push((PyMove { text: mv.str()?.to_string(), object: Arc::new(mv.unbind()) }, weight));
        }
        Ok(read)
    };
    Some(callbacks.call("chance_outcomes", &[&position.object], read).unwrap_or_default())
}

/// The position after `mv`.
fn play_of(callbacks: &Callbacks, position: &PyPosition, mv: &PyMove) -> PyPosition {
    let played = Python::attach(|py| {
        let after = callbacks.game.bind(py).call_method1("play", (position.object.bind(py), mv.object.bind(py)))?;
        callbacks.position(py, after)
    });
    played.unwrap_or_else(|error| {
        callbacks.fail(error);
        callbacks.stand_in(position)
    })
}

/// The game's `outcome` of `position`: `None` while it goes on, else a whole number for the player to move.
fn outcome_of(callbacks: &Callbacks, position: &PyPosition) -> Option<i64> {
    let read = |outcome: &Bound<'_, PyAny>| -> PyResult<Option<i64>> {
        if outcome.is_none() {
            return Ok(None);
        }
        outcome.extract::<i64>().map(Some).map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err("outcome() gives None while the game goes on, else a whole number")
        })
    };
    // A failed call ends the position (its search is stopping anyway).
    callbacks.call("outcome", &[&position.object], read).unwrap_or(Some(0))
}

/// Whether the turn passes from `from` to `to` (by the class's `turn_passes`, or always).
fn turn_passes_of(callbacks: &Callbacks, from: &PyPosition, to: &PyPosition) -> bool {
    if !callbacks.has_turn_passes {
        return true;
    }
    callbacks.call("turn_passes", &[&from.object, &to.object], |passes| passes.is_truthy()).unwrap_or(true)
}

/// The position drawn: `str(position)`.
fn draw_of(callbacks: &Callbacks, position: &PyPosition) -> String {
    Python::attach(|py| position.object.bind(py).str().map(|text| text.to_string())).unwrap_or_else(|error| {
        callbacks.fail(error);
        String::new()
    })
}

/// The start position.
fn start_of(callbacks: &Callbacks) -> PyPosition {
    let started = Python::attach(|py| {
        let start = callbacks.game.bind(py).call_method0("start")?;
        callbacks.position(py, start)
    });
    started.unwrap_or_else(|error| {
        callbacks.fail(error);
        Python::attach(|py| PyPosition { key: super::PyKey::Whole(0), object: Arc::new(py.None()) })
    })
}

/// The legal move written `text` at `position`.
fn parse_move_of(
    game: &impl Rules<Position = PyPosition, Move = PyMove>,
    position: &PyPosition,
    text: &str,
) -> Result<PyMove, ParseError> {
    let moves = game.legal_moves(position);
    if moves.is_empty() {
        return Err(ParseError::game_over());
    }
    moves.into_iter().find(|mv| mv.text == text).ok_or_else(|| ParseError::expected("a legal move", text))
}

macro_rules! common_traits {
    ($adapter:ty, [$($parameters:tt)*]) => {
        impl<$($parameters)*> Canonicalize for $adapter {
            type Key = super::PyKey;

            fn canonical(&self, position: &PyPosition) -> super::PyKey {
                position.key.clone()
            }
        }

        impl<$($parameters)*> SearchHints for $adapter {}

        impl<$($parameters)*> TextForm for $adapter {
            fn start(&self) -> PyPosition {
                start_of(&self.0)
            }

            fn parse_position(&self, _: &str) -> Result<PyPosition, ParseError> {
                Err(ParseError::refused("a position of a game written in Python is a Python object, not a text"))
            }

            fn draw_position(&self, position: &PyPosition) -> String {
                draw_of(&self.0, position)
            }

            fn parse_move(&self, position: &PyPosition, text: &str) -> Result<PyMove, ParseError> {
                parse_move_of(self, position, text)
            }

            fn render_move(&self, _: &PyPosition, mv: &PyMove) -> String {
                mv.text.clone()
            }
        }
    };
}

impl<const REPEAT: bool> Rules for PyWinLoss<REPEAT> {
    type Position = PyPosition;
    type Move = PyMove;
    type Outcome = Value;
    const POSITIONS_REPEAT: bool = REPEAT;

    fn moves(&self, position: &PyPosition, moves: &mut Vec<PyMove>) {
        moves_of(&self.0, position, moves);
    }

    fn play(&self, position: &PyPosition, mv: &PyMove) -> PyPosition {
        play_of(&self.0, position, mv)
    }

    fn outcome(&self, position: &PyPosition) -> Option<Value> {
        outcome_of(&self.0, position).map(|outcome| match outcome.signum() {
            1 => Value::Win(0),
            -1 => Value::Lose(0),
            _ => Value::Draw,
        })
    }
}

impl<const REPEAT: bool> Game for PyWinLoss<REPEAT> {}
common_traits!(PyWinLoss<REPEAT>, [const REPEAT: bool]);

impl<const REPEAT: bool, const WIN_LOSS: bool> Rules for PyScored<REPEAT, WIN_LOSS> {
    type Position = PyPosition;
    type Move = PyMove;
    type Outcome = i32;
    const POSITIONS_REPEAT: bool = REPEAT;

    fn moves(&self, position: &PyPosition, moves: &mut Vec<PyMove>) {
        moves_of(&self.0, position, moves);
    }

    fn play(&self, position: &PyPosition, mv: &PyMove) -> PyPosition {
        play_of(&self.0, position, mv)
    }

    fn outcome(&self, position: &PyPosition) -> Option<i32> {
        let limit = i64::from(ludus_framework::SCORE_LIMIT);
        outcome_of(&self.0, position).map(|score| {
            let score = if WIN_LOSS { score.signum() } else { score.clamp(-limit, limit) };
            i32::try_from(score).unwrap_or(0)
        })
    }

    fn turn_passes(&self, from: &PyPosition, to: &PyPosition) -> bool {
        turn_passes_of(&self.0, from, to)
    }
}

impl<const REPEAT: bool, const WIN_LOSS: bool> ScoredGame for PyScored<REPEAT, WIN_LOSS> {
    const SCORES: ScoreKind = if WIN_LOSS { ScoreKind::WinLoss } else { ScoreKind::Margin };
}

impl<const REPEAT: bool, const WIN_LOSS: bool> Deterministic for PyScored<REPEAT, WIN_LOSS> {}

impl<const REPEAT: bool, const WIN_LOSS: bool> Chance for PyScored<REPEAT, WIN_LOSS> {
    fn is_chance(&self, position: &PyPosition) -> bool {
        chance_of(&self.0, position).is_some_and(|outcomes| !outcomes.is_empty())
    }

    fn outcomes(&self, position: &PyPosition, outcomes: &mut Vec<(PyMove, u64)>) {
        outcomes.extend(chance_of(&self.0, position).unwrap_or_default());
    }
}

common_traits!(PyScored<REPEAT, WIN_LOSS>, [const REPEAT: bool, const WIN_LOSS: bool]);
