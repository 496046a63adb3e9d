//! Generic analyses over any [`Game`] and any [`Engine`]: the value of every move of a position, the winning
//! and the best moves, the principal variation, and the mistakes along a game record (a move from a winning
//! state that leaves the opponent in a winning state). Exact remoteness needs an engine in `Mode::Exact`.
//!
//! Each analysis returns the first error of its searches: an engine that reads its values (from a database on
//! disk) or solves within memory may fail, and a value it did not give is never used.

use crate::engines::Engine;
use crate::game::Game;
use crate::value::Value;
use serde::Serialize;

/// A move with its value for the player who makes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveValue<MoveType> {
    /// The move.
    pub mv: MoveType,
    /// Its value for the mover (the child's value backed up).
    pub value: Value,
}

/// The value of every legal move of `position`, for the player to move, in move-generation order (none at a
/// finished position), each searched whatever it costs ([`Engine::search`]): the first failure is the error.
pub fn move_values<Rules: Game, Search: Engine<Rules> + ?Sized>(
    engine: &mut Search,
    game: &Rules,
    position: &Rules::Position,
) -> crate::Result<Vec<MoveValue<Rules::Move>>> {
    values_by(game, position, |child| engine.search(game, child))
}

/// [`move_values`], each move's search within the engine's budget ([`Engine::try_value`]): the first search
/// that runs past it, or fails, is the error.
pub fn try_move_values<Rules: Game, Search: Engine<Rules> + ?Sized>(
    engine: &mut Search,
    game: &Rules,
    position: &Rules::Position,
) -> crate::Result<Vec<MoveValue<Rules::Move>>> {
    values_by(game, position, |child| engine.try_value(game, child))
}

/// Every legal move of `position` with its value, from `value` of the position it leads to.
fn values_by<Rules: Game, Failure>(
    game: &Rules,
    position: &Rules::Position,
    mut value: impl FnMut(&Rules::Position) -> Result<Value, Failure>,
) -> Result<Vec<MoveValue<Rules::Move>>, Failure> {
    if game.is_over(position) {
        return Ok(Vec::new());
    }
    game.legal_moves(position)
        .into_iter()
        .map(|mv| Ok(MoveValue { value: value(&game.play(position, &mv))?.backed_up(), mv }))
        .collect()
}

/// The number of legal moves of `position` that win for the player to move.
pub fn count_winning_moves<Rules: Game, Search: Engine<Rules> + ?Sized>(
    engine: &mut Search,
    game: &Rules,
    position: &Rules::Position,
) -> crate::Result<usize> {
    Ok(winning_moves(engine, game, position)?.len())
}

/// The legal moves of `position` that win for the player to move, in move-generation order (none when the
/// position is drawn, lost or finished).
pub fn winning_moves<Rules: Game, Search: Engine<Rules> + ?Sized>(
    engine: &mut Search,
    game: &Rules,
    position: &Rules::Position,
) -> crate::Result<Vec<Rules::Move>> {
    Ok(move_values(engine, game, position)?.into_iter().filter(|m| m.value.is_win()).map(|m| m.mv).collect())
}

/// The best moves of `position`: those whose value is the highest under [`Value`]'s order (the quickest win,
/// else a draw, else the slowest loss), with that value; none at a finished position.
pub fn best_moves<Rules: Game, Search: Engine<Rules> + ?Sized>(
    engine: &mut Search,
    game: &Rules,
    position: &Rules::Position,
) -> crate::Result<Vec<MoveValue<Rules::Move>>> {
    let values = move_values(engine, game, position)?;
    let Some(best) = values.iter().map(|m| m.value).max() else { return Ok(Vec::new()) };
    Ok(values.into_iter().filter(|m| m.value == best).collect())
}

/// The principal variation from `position`: the line along which both sides play a best move (the first in
/// move-generation order) until the game ends, or (in a loopy game's draw) until a position comes back, at most
/// `max_plies` long. With exact remoteness (an engine in `Mode::Exact`) a decided position's line is exactly its
/// remoteness long.
pub fn principal_variation<Rules: Game, Search: Engine<Rules> + ?Sized>(
    engine: &mut Search,
    game: &Rules,
    position: &Rules::Position,
    max_plies: usize,
) -> crate::Result<Vec<Rules::Move>> {
    let mut line = Vec::new();
    let mut current = position.clone();
    let mut seen = std::collections::HashSet::from([current.clone()]);
    while line.len() < max_plies {
        let Some(best) = best_moves(engine, game, &current)?.into_iter().next() else { break };
        current = game.play(&current, &best.mv);
        line.push(best.mv);
        if !seen.insert(current.clone()) {
            break;
        }
    }
    Ok(line)
}

/// A move of a record made from a winning position into a position winning for the opponent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mistake<MoveType> {
    /// 0-based index of the move in the record (even: the first player's move).
    pub ply: usize,
    /// The move.
    pub mv: MoveType,
    /// The value before the move, for the mover (a win).
    pub before: Value,
    /// The value after the move, for the opponent (a win).
    pub after: Value,
}

/// A record that cannot be replayed: the move at `ply` is illegal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {} of the record is illegal", .ply + 1)]
pub struct IllegalMove {
    /// 0-based index of the illegal move.
    pub ply: usize,
}

/// Replays `record` from `start` and lists its mistakes, with values from `engine` (each searched whatever it
/// costs): an illegal move is [`crate::Error::IllegalMove`], and the engine's first failure is the error.
pub fn mistakes<Rules: Game, Search: Engine<Rules> + ?Sized>(
    engine: &mut Search,
    game: &Rules,
    start: &Rules::Position,
    record: &[Rules::Move],
) -> crate::Result<Vec<Mistake<Rules::Move>>> {
    try_mistakes_by(game, start, record, |position| engine.search(game, position))
}

/// Replays `record` from `start` and lists its mistakes, with `value(position)` giving the value of each
/// position met for its player to move (any evaluator: an engine, a closed form, a table). Legality is checked
/// with [`Game::is_legal`].
pub fn mistakes_by<Rules: Game>(
    game: &Rules,
    start: &Rules::Position,
    record: &[Rules::Move],
    mut value: impl FnMut(&Rules::Position) -> Value,
) -> Result<Vec<Mistake<Rules::Move>>, IllegalMove> {
    replay(game, start, record, |position| Ok(value(position)))
}

/// [`mistakes_by`] with an evaluator that may fail (an engine within its budget): its first error ends the
/// replay and is returned; an illegal move is [`crate::Error::IllegalMove`].
pub fn try_mistakes_by<Rules: Game>(
    game: &Rules,
    start: &Rules::Position,
    record: &[Rules::Move],
    value: impl FnMut(&Rules::Position) -> crate::Result<Value>,
) -> crate::Result<Vec<Mistake<Rules::Move>>> {
    replay(game, start, record, value)
}

/// The replay behind [`mistakes_by`] and [`try_mistakes_by`]: the evaluator's failure or the illegal move,
/// whichever comes first.
fn replay<Rules: Game, Failure: From<IllegalMove>>(
    game: &Rules,
    start: &Rules::Position,
    record: &[Rules::Move],
    mut value: impl FnMut(&Rules::Position) -> Result<Value, Failure>,
) -> Result<Vec<Mistake<Rules::Move>>, Failure> {
    let mut found = Vec::new();
    let mut position = start.clone();
    let mut before = value(&position)?;
    for (ply, mv) in record.iter().enumerate() {
        if !game.is_legal(&position, mv) {
            return Err(IllegalMove { ply }.into());
        }
        let next = game.play(&position, mv);
        let after = value(&next)?;
        if before.is_win() && after.is_win() {
            found.push(Mistake { ply, mv: mv.clone(), before, after });
        }
        position = next;
        before = after;
    }
    Ok(found)
}
