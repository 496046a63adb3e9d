//! Generic analyses over any [`Game`] and any [`Engine`]: the value of every move of a position, the number
//! of winning moves, and the mistakes along a game record (a move from a winning state that leaves the
//! opponent in a winning state).

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

/// The value of every legal move of `position`, for the player to move, in move-generation order.
pub fn move_values<Rules: Game, Search: Engine<Rules>>(
    engine: &mut Search,
    game: &Rules,
    position: &Rules::Position,
) -> Vec<MoveValue<Rules::Move>> {
    game.legal_moves(position)
        .into_iter()
        .map(|mv| {
            let value = engine.value(game, &game.play(position, &mv)).backed_up();
            MoveValue { mv, value }
        })
        .collect()
}

/// The number of legal moves of `position` that win for the player to move.
pub fn count_winning_moves<Rules: Game, Search: Engine<Rules>>(
    engine: &mut Search,
    game: &Rules,
    position: &Rules::Position,
) -> usize {
    if game.is_over(position) {
        return 0;
    }
    move_values(engine, game, position).iter().filter(|m| m.value.is_win()).count()
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

/// Replays `record` from `start` and lists its mistakes, with values from `engine`.
pub fn mistakes<Rules: Game, Search: Engine<Rules>>(
    engine: &mut Search,
    game: &Rules,
    start: &Rules::Position,
    record: &[Rules::Move],
) -> Result<Vec<Mistake<Rules::Move>>, IllegalMove> {
    mistakes_by(game, start, record, |position| engine.value(game, position))
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
    let mut found = Vec::new();
    let mut position = start.clone();
    let mut before = value(&position);
    for (ply, mv) in record.iter().enumerate() {
        if !game.is_legal(&position, mv) {
            return Err(IllegalMove { ply });
        }
        let next = game.play(&position, mv);
        let after = value(&next);
        if before.is_win() && after.is_win() {
            found.push(Mistake { ply, mv: mv.clone(), before, after });
        }
        position = next;
        before = after;
    }
    Ok(found)
}
