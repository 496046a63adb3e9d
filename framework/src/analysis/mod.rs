//! Analyses over any game and any engine, whatever the family: the value of every move of a position, the
//! winning and the best moves, the principal variation, and the mistakes along a game record (a move from a
//! winning position that leaves the opponent a winning position). The values are the engine's own
//! ([`Engine::Value`]: won/lost/drawn with remoteness, a score, an expected score, a nimber), read through
//! [`SearchValue`]; exact remoteness needs an engine in `Mode::Exact`.
//!
//! Each analysis returns the first error of its searches: an engine that reads its values (from a database on
//! disk) or solves within memory may fail, and a value it did not give is never used.
//!
//! Files: `value.rs` ([`SearchValue`]), `assessment.rs` ([`Assessment`]: a value as a report shows it),
//! `report.rs` ([`Analysis`] and [`MoveAnalysis`], the typed report of a position, and [`analyze_position`],
//! the one function that makes it).

mod assessment;
mod report;
mod value;

pub use crate::error::IllegalMove;
pub use assessment::{Assessment, Expected};
pub use report::{
    analyze_position, analyze_position_watched, analyze_value, Analysis, Found, MoveAnalysis, PositionText,
};
pub use value::SearchValue;

use crate::engines::Engine;
use crate::game::Rules;
use crate::value::Value;
use serde::Serialize;

/// A move with its value for the player who makes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveValue<MoveType, Worth = Value> {
    /// The move.
    pub mv: MoveType,
    /// Its value for the mover: the value of the position it leads to, seen by the player who makes it
    /// ([`SearchValue::for_move`]).
    pub value: Worth,
}

/// The value of every legal move of `position`, for the player to move, in move-generation order (none at a
/// finished position), each searched whatever it costs ([`Engine::search`]): the first failure is the error.
pub fn move_values<Ruleset: Rules, Search: Engine<Ruleset> + ?Sized>(
    engine: &mut Search,
    game: &Ruleset,
    position: &Ruleset::Position,
) -> crate::Result<Vec<MoveValue<Ruleset::Move, Search::Value>>>
where
    Search::Value: SearchValue,
{
    values_by(game, position, |child| engine.search(game, child))
}

/// [`move_values`], each move's search within the engine's budget ([`Engine::try_value`]): the first search
/// that runs past it, or fails, is the error.
pub fn try_move_values<Ruleset: Rules, Search: Engine<Ruleset> + ?Sized>(
    engine: &mut Search,
    game: &Ruleset,
    position: &Ruleset::Position,
) -> crate::Result<Vec<MoveValue<Ruleset::Move, Search::Value>>>
where
    Search::Value: SearchValue,
{
    values_by(game, position, |child| engine.try_value(game, child))
}

/// Every legal move of `position` with its value, from `value` of the position it leads to: the first error is
/// the result.
pub fn values_by<Ruleset: Rules, Worth: SearchValue, Failure>(
    game: &Ruleset,
    position: &Ruleset::Position,
    mut value: impl FnMut(&Ruleset::Position) -> Result<Worth, Failure>,
) -> Result<Vec<MoveValue<Ruleset::Move, Worth>>, Failure> {
    game.legal_moves(position)
        .into_iter()
        .map(|mv| {
            let child = game.play(position, &mv);
            let found = value(&child)?;
            Ok(MoveValue { value: found.for_move(game.turn_passes(position, &child)), mv })
        })
        .collect()
}

/// The best value among `values` (none if there are no moves).
pub fn best_value<MoveType, Worth: SearchValue>(values: &[MoveValue<MoveType, Worth>]) -> Option<Worth> {
    let mut all = values.iter().map(|entry| entry.value);
    let first = all.next()?;
    Some(all.fold(first, |best, value| if value.is_better(best) { value } else { best }))
}

/// The number of legal moves of `position` that win for the player to move.
pub fn count_winning_moves<Ruleset: Rules, Search: Engine<Ruleset> + ?Sized>(
    engine: &mut Search,
    game: &Ruleset,
    position: &Ruleset::Position,
) -> crate::Result<usize>
where
    Search::Value: SearchValue,
{
    Ok(winning_moves(engine, game, position)?.len())
}

/// The legal moves of `position` that win for the player to move, in move-generation order (none when the
/// position is drawn, lost or finished).
pub fn winning_moves<Ruleset: Rules, Search: Engine<Ruleset> + ?Sized>(
    engine: &mut Search,
    game: &Ruleset,
    position: &Ruleset::Position,
) -> crate::Result<Vec<Ruleset::Move>>
where
    Search::Value: SearchValue,
{
    Ok(move_values(engine, game, position)?.into_iter().filter(|m| m.value.is_win()).map(|m| m.mv).collect())
}

/// The best moves of `position` (for [`Value`]: the quickest win, else a draw, else the slowest loss; for a
/// score, the largest), with their value; none at a finished position.
pub fn best_moves<Ruleset: Rules, Search: Engine<Ruleset> + ?Sized>(
    engine: &mut Search,
    game: &Ruleset,
    position: &Ruleset::Position,
) -> crate::Result<Vec<MoveValue<Ruleset::Move, Search::Value>>>
where
    Search::Value: SearchValue,
{
    let values = move_values(engine, game, position)?;
    let Some(best) = best_value(&values) else { return Ok(Vec::new()) };
    Ok(values.into_iter().filter(|m| m.value.is_among_best(best)).collect())
}

/// The principal variation from `position`: the line along which both sides play a best move (the first in
/// move-generation order) until the game ends, or (in a loopy game's draw) until a position comes back, at most
/// `max_plies` long. With exact values a decided position's line is exactly its remoteness long, and a score's
/// line ends with that score.
pub fn principal_variation<Ruleset: Rules, Search: Engine<Ruleset> + ?Sized>(
    engine: &mut Search,
    game: &Ruleset,
    position: &Ruleset::Position,
    max_plies: usize,
) -> crate::Result<Vec<Ruleset::Move>>
where
    Search::Value: SearchValue,
{
    line_by(game, position, max_plies, |_| false, |child| engine.search(game, child))
}

/// The principal variation by `value` of each position (any evaluator: an engine, a table), stopping before
/// `max_plies` moves, at the end of the game, at a position where `stop_at` holds (a chance node, where no
/// player chooses), or where a position comes back.
pub fn line_by<Ruleset: Rules, Worth: SearchValue, Failure>(
    game: &Ruleset,
    position: &Ruleset::Position,
    max_plies: usize,
    stop_at: impl Fn(&Ruleset::Position) -> bool,
    mut value: impl FnMut(&Ruleset::Position) -> Result<Worth, Failure>,
) -> Result<Vec<Ruleset::Move>, Failure> {
    let mut line = Vec::new();
    let mut current = position.clone();
    let mut seen = std::collections::HashSet::from([current.clone()]);
    while line.len() < max_plies && !stop_at(&current) {
        let values = values_by(game, &current, &mut value)?;
        let Some(best) = best_value(&values) else { break };
        let Some(entry) = values.into_iter().find(|entry| entry.value.is_among_best(best)) else { break };
        current = game.play(&current, &entry.mv);
        line.push(entry.mv);
        if !seen.insert(current.clone()) {
            break;
        }
    }
    Ok(line)
}

/// [`line_by`] for values whose best move is exact ([`SearchValue::BEST_MOVE_IS_EXACT`]): at each position the
/// first move whose value equals the position's own is taken, and the moves after it are not valued. The same
/// line as [`line_by`] (its first best move in move-generation order) from an evaluator whose values are
/// consistent; where no move's value equals the position's, every move is valued as [`line_by`] does.
///
/// Where values have neighbours ([`SearchValue::neighbour`]: exact scores), a move is not valued but tested
/// by `within(child, low, high)` (as [`crate::Engine::try_value_within`]: exact within the window, beyond it
/// outside) over the window between the value the child has if the move is best and its neighbour on the side
/// the child's value cannot pass (every move's value is at most the position's), which one null-window test
/// answers; the child's value is then known for the next step.
pub fn exact_line_by<Ruleset: Rules, Worth: SearchValue, Failure>(
    game: &Ruleset,
    position: &Ruleset::Position,
    max_plies: usize,
    stop_at: impl Fn(&Ruleset::Position) -> bool,
    mut value: impl FnMut(&Ruleset::Position) -> Result<Worth, Failure>,
    mut within: impl FnMut(&Ruleset::Position, Worth, Worth) -> Result<Worth, Failure>,
) -> Result<Vec<Ruleset::Move>, Failure> {
    if !Worth::BEST_MOVE_IS_EXACT {
        return line_by(game, position, max_plies, stop_at, value);
    }
    let same = |one: Worth, other: Worth| !one.is_better(other) && !other.is_better(one);
    let mut line = Vec::new();
    let mut current = position.clone();
    let mut seen = std::collections::HashSet::from([current.clone()]);
    // The value of `current` where the step before proved it.
    let mut known = None;
    while line.len() < max_plies && !stop_at(&current) && !game.is_over(&current) {
        let own = match known.take() {
            Some(own) => own,
            None => value(&current)?,
        };
        let mut chosen = None;
        for mv in game.legal_moves(&current) {
            let child = game.play(&current, &mv);
            let passes = game.turn_passes(&current, &child);
            // The child's value if the move is best; with the turn passed, the child's value is at least it.
            let target = own.for_move(passes);
            let window = match passes {
                true => target.neighbour(true).map(|above| (target, above)),
                false => target.neighbour(false).map(|below| (below, target)),
            };
            let best = match window {
                Some((low, high)) => same(within(&child, low, high)?, target).then_some(Some(target)),
                None => same(value(&child)?.for_move(passes), own).then_some(None),
            };
            if let Some(proven) = best {
                (chosen, known) = (Some(mv), proven);
                break;
            }
        }
        let chosen = match chosen {
            Some(mv) => mv,
            None => {
                let values = values_by(game, &current, &mut value)?;
                let Some(best) = best_value(&values) else { break };
                let Some(entry) = values.into_iter().find(|entry| entry.value.is_among_best(best)) else { break };
                entry.mv
            }
        };
        current = game.play(&current, &chosen);
        line.push(chosen);
        if !seen.insert(current.clone()) {
            break;
        }
    }
    Ok(line)
}

/// A move of a record made from a winning position into a position winning for the opponent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mistake<MoveType, Worth = Value> {
    /// 0-based index of the move in the record (even: the first player's move).
    pub ply: usize,
    /// The move.
    pub mv: MoveType,
    /// The value before the move, for the mover (a win).
    pub before: Worth,
    /// The value after the move, for the opponent (a win).
    pub after: Worth,
}

/// Replays `record` from `start` and lists its mistakes, with values from `engine` (each searched whatever it
/// costs): an illegal move is [`crate::Error::IllegalMove`], and the engine's first failure is the error.
pub fn mistakes<Ruleset: Rules, Search: Engine<Ruleset> + ?Sized>(
    engine: &mut Search,
    game: &Ruleset,
    start: &Ruleset::Position,
    record: &[Ruleset::Move],
) -> crate::Result<Vec<Mistake<Ruleset::Move, Search::Value>>>
where
    Search::Value: SearchValue,
{
    try_mistakes_by(game, start, record, |position| engine.search(game, position))
}

/// Replays `record` from `start` and lists its mistakes, with `value(position)` giving the value of each
/// position met for its player to move (any evaluator: an engine, a closed form, a table). Legality is checked
/// with [`Rules::is_legal`].
pub fn mistakes_by<Ruleset: Rules, Worth: SearchValue>(
    game: &Ruleset,
    start: &Ruleset::Position,
    record: &[Ruleset::Move],
    mut value: impl FnMut(&Ruleset::Position) -> Worth,
) -> Result<Vec<Mistake<Ruleset::Move, Worth>>, IllegalMove> {
    replay(game, start, record, |position| Ok(value(position)))
}

/// [`mistakes_by`] with an evaluator that may fail (an engine within its budget): its first error ends the
/// replay and is returned; an illegal move is [`crate::Error::IllegalMove`].
pub fn try_mistakes_by<Ruleset: Rules, Worth: SearchValue>(
    game: &Ruleset,
    start: &Ruleset::Position,
    record: &[Ruleset::Move],
    value: impl FnMut(&Ruleset::Position) -> crate::Result<Worth>,
) -> crate::Result<Vec<Mistake<Ruleset::Move, Worth>>> {
    replay(game, start, record, value)
}

/// The replay behind [`mistakes_by`] and [`try_mistakes_by`]: the evaluator's failure or the illegal move,
/// whichever comes first. A mistake leaves the opponent winning where the mover was winning: with turns that
/// do not alternate, a move after which the same player is still to move is a mistake when its value is no
/// longer a win.
fn replay<Ruleset: Rules, Worth: SearchValue, Failure: From<IllegalMove>>(
    game: &Ruleset,
    start: &Ruleset::Position,
    record: &[Ruleset::Move],
    mut value: impl FnMut(&Ruleset::Position) -> Result<Worth, Failure>,
) -> Result<Vec<Mistake<Ruleset::Move, Worth>>, Failure> {
    let mut found = Vec::new();
    let mut position = start.clone();
    let mut before = value(&position)?;
    for (ply, mv) in record.iter().enumerate() {
        if !game.is_legal(&position, mv) {
            return Err(IllegalMove { ply }.into());
        }
        let next = game.play(&position, mv);
        let after = value(&next)?;
        let lost_the_win = if game.turn_passes(&position, &next) { after.is_win() } else { !after.is_win() };
        if before.is_win() && lost_the_win {
            found.push(Mistake { ply, mv: mv.clone(), before, after });
        }
        position = next;
        before = after;
    }
    Ok(found)
}
