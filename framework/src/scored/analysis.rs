//! Analyses of a scored game, for any evaluator of positions (an engine's search, a solved table): every move's
//! value, the best moves, and the principal variation, a line of best moves that keeps the value.

use super::game::ScoredGame;
use std::ops::Neg;

/// A move with its value for the player who makes it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveScore<MoveType, Score> {
    /// The move.
    pub mv: MoveType,
    /// Its value for the mover of the position it is played in: the value of the position it leads to, seen by
    /// that mover (negated when the turn passes, as it is when the same player moves again).
    pub value: Score,
}

/// The value of every move of `position` (none at a finished one), in the game's order, from `value` of the
/// position each leads to: the first error is the result.
pub fn move_scores<Rules, Score, Failure>(
    game: &Rules,
    position: &Rules::Position,
    mut value: impl FnMut(&Rules::Position) -> Result<Score, Failure>,
) -> Result<Vec<MoveScore<Rules::Move, Score>>, Failure>
where
    Rules: ScoredGame,
    Score: Copy + Neg<Output = Score>,
{
    let mover = game.mover(position);
    game.legal_moves(position)
        .into_iter()
        .map(|mv| {
            let child = game.play(position, &mv);
            let found = value(&child)?;
            Ok(MoveScore { value: if game.mover(&child) == mover { found } else { -found }, mv })
        })
        .collect()
}

/// The moves whose value is the largest (every one of them, in the game's order).
pub fn best_scored_moves<MoveType: Clone, Score: Copy + PartialOrd>(
    scores: &[MoveScore<MoveType, Score>],
) -> Vec<MoveType> {
    let Some(best) = best_value(scores) else { return Vec::new() };
    scores.iter().filter(|entry| entry.value >= best).map(|entry| entry.mv.clone()).collect()
}

/// The largest value among `scores`.
fn best_value<MoveType, Score: Copy + PartialOrd>(scores: &[MoveScore<MoveType, Score>]) -> Option<Score> {
    let mut values = scores.iter().map(|entry| entry.value);
    let first = values.next()?;
    Some(values.fold(first, |best, value| if value > best { value } else { best }))
}

/// The principal variation from `position`: at each position a first best move (by [`move_scores`] of `value`),
/// up to `max_length` moves, to the end of the game, or to a position where `stop_at` holds (a chance node,
/// where no player chooses). With an exact evaluator the line keeps the value: its final score, seen by the
/// mover of `position`, is the value of `position`.
pub fn scored_line<Rules, Score, Failure>(
    game: &Rules,
    position: &Rules::Position,
    max_length: usize,
    stop_at: impl Fn(&Rules::Position) -> bool,
    mut value: impl FnMut(&Rules::Position) -> Result<Score, Failure>,
) -> Result<Vec<Rules::Move>, Failure>
where
    Rules: ScoredGame,
    Score: Copy + PartialOrd + Neg<Output = Score>,
{
    let mut line = Vec::new();
    let mut current = position.clone();
    while line.len() < max_length && !game.is_over(&current) && !stop_at(&current) {
        let scores = move_scores(game, &current, &mut value)?;
        let Some(best) = best_value(&scores) else { break };
        let Some(entry) = scores.into_iter().find(|entry| entry.value >= best) else { break };
        current = game.play(&current, &entry.mv);
        line.push(entry.mv);
    }
    Ok(line)
}
