//! [`ScoredHints`]: what a scored game may tell the engines to search faster, apart from its rules. Every
//! method has a default that does nothing; every engine gives the same values with or without hints.

use super::game::ScoredGame;
use crate::hints::order_by_scores;

/// The widest score any engine handles: a game's scores lie in `-SCORE_LIMIT..=SCORE_LIMIT` (a contract the
/// engines check at finished positions).
pub const SCORE_LIMIT: i32 = 1 << 24;

/// Search knowledge of a scored game (optional: `impl ScoredHints for MyGame {}` turns every hint off).
pub trait ScoredHints: ScoredGame {
    /// The lowest and the highest score `position` (not over) can still have, for its mover: the engines clamp
    /// their window to it before the table is probed, and the null-window driver bisects it.
    ///
    /// Contract: the position's true score lies within the range, ends included, and the range within
    /// `-SCORE_LIMIT..=SCORE_LIMIT`. Default: the whole range.
    fn score_range(&self, position: &Self::Position) -> (i32, i32) {
        let _ = position;
        (-SCORE_LIMIT, SCORE_LIMIT)
    }

    /// The exact score of `position` (not over) when it is known without search (Othello's last empty cell),
    /// else `None`. Contract: the score is right. Default: `None`.
    fn exact(&self, position: &Self::Position) -> Option<i32> {
        let _ = position;
        None
    }

    /// A guess at the score of `position` (not over) for its mover, without search (an evaluation: Kalah's
    /// difference of the stores). The exact alpha-beta aims its first null-window test by a shallow search
    /// that scores its horizon by it. Contract: deterministic, within [`ScoredHints::score_range`] (clamped
    /// to it otherwise); its accuracy changes the work, never a value. Default: `None` (no guess: the driver
    /// asks who wins first).
    fn estimate(&self, position: &Self::Position) -> Option<i32> {
        let _ = position;
        None
    }

    /// How promising `mv` looks at `position`: higher first, ties in the order of [`ScoredGame::moves`].
    /// Contract: deterministic; it changes the work, never a value. Default: 0.
    fn move_score(&self, position: &Self::Position, mv: &Self::Move) -> i32 {
        let _ = (position, mv);
        0
    }

    /// The moves the engines search at `position` (not over), in `moves` (cleared first), best first: the moves
    /// sorted by [`ScoredHints::move_score`], highest first, ties in the order of [`ScoredGame::moves`].
    /// `scores` is scratch space. Override it only to compute the same moves faster (a bitboard game scores them
    /// in one pass). Contract: every move of `position`, each once, deterministic.
    fn search_moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>, scores: &mut Vec<i32>) {
        moves.clear();
        self.moves(position, moves);
        if moves.len() < 2 {
            return;
        }
        scores.clear();
        scores.extend(moves.iter().map(|mv| self.move_score(position, mv)));
        order_by_scores(moves, scores);
    }
}
