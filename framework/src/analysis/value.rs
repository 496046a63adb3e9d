//! [`SearchValue`]: what the analyses need of the value an engine gives a position, whatever its family: how a
//! child's value becomes the value of the move that leads to it, which moves are best, which win, and how the
//! value reads in a report ([`Assessment`]). Implemented for [`Value`] (won, lost or drawn with remoteness),
//! `i32` (an exact score), [`ExpectedScore`] (with chance) and [`Nimber`] (impartial games under normal play).

use super::assessment::{Assessment, Expected};
use crate::engines::grundy::Nimber;
use crate::engines::scored::ExpectedScore;
use crate::scored::ScoreKind;
use crate::value::Value;

/// A value an engine gives a position for its player to move, as the analyses use it.
///
/// Contract: `is_better` is a strict preference of the player the values are for (irreflexive and transitive);
/// `for_move` turns the value of the position a move leads to into the value of the move for the player who
/// makes it.
pub trait SearchValue: Copy + std::fmt::Debug {
    /// Whether a position's value is exactly its best move's value ([`SearchValue::for_move`] of it), as with
    /// exact values of games without chance: a best move is then the first whose value equals the position's,
    /// found without valuing the moves after it. `false` (the default) for values known within a rounding
    /// error, and for nimbers.
    const BEST_MOVE_IS_EXACT: bool = false;

    /// The value of a move for the player who makes it, given `self`, the value of the position it leads to
    /// (for that position's mover), and whether the turn passes with the move.
    #[must_use]
    fn for_move(self, turn_passes: bool) -> Self;

    /// Whether `self` is strictly better than `other` for the player they are the values of.
    fn is_better(self, other: Self) -> bool;

    /// Whether a move of value `self` is among the best when the best move's value is `best`: no worse (for a
    /// value known only within a rounding error, within that error).
    fn is_among_best(self, best: Self) -> bool {
        !best.is_better(self)
    }

    /// Whether the value is a win for its player (a positive score; a position of nimber other than zero, a
    /// move to nimber zero).
    fn is_win(self) -> bool;

    /// The value next to `self` on the side `better` says, where values are a ladder of neighbouring steps
    /// with no value between two of them (an exact score: one point apart); `None` (the default) where they
    /// are not. An analysis's line then confirms a best move by one test of its value against a neighbour.
    ///
    /// Contract: where it gives `Some`, `for_move` is its own inverse (`v.for_move(p).for_move(p) == v`).
    fn neighbour(self, better: bool) -> Option<Self> {
        let _ = better;
        None
    }

    /// The value as a report shows it; `scores` says what a game's scores mean (an expected score of a game
    /// scored by win or loss reads as a probability of winning).
    fn assessment(self, scores: ScoreKind) -> Assessment;
}

impl SearchValue for Value {
    const BEST_MOVE_IS_EXACT: bool = true;

    fn for_move(self, turn_passes: bool) -> Value {
        match (turn_passes, self) {
            (true, value) => value.backed_up(),
            (false, Value::Win(remoteness)) => Value::Win(remoteness.saturating_add(1)),
            (false, Value::Lose(remoteness)) => Value::Lose(remoteness.saturating_add(1)),
            (false, Value::Draw) => Value::Draw,
        }
    }

    fn is_better(self, other: Value) -> bool {
        self > other
    }

    fn is_win(self) -> bool {
        Value::is_win(self)
    }

    fn assessment(self, _scores: ScoreKind) -> Assessment {
        Assessment::Outcome(self)
    }
}

impl SearchValue for i32 {
    const BEST_MOVE_IS_EXACT: bool = true;

    fn for_move(self, turn_passes: bool) -> i32 {
        if turn_passes {
            self.saturating_neg()
        } else {
            self
        }
    }

    fn is_better(self, other: i32) -> bool {
        self > other
    }

    fn is_win(self) -> bool {
        self > 0
    }

    fn neighbour(self, better: bool) -> Option<i32> {
        if better {
            self.checked_add(1)
        } else {
            self.checked_sub(1)
        }
    }

    fn assessment(self, _scores: ScoreKind) -> Assessment {
        Assessment::Score(self)
    }
}

impl SearchValue for ExpectedScore {
    fn for_move(self, turn_passes: bool) -> ExpectedScore {
        if turn_passes {
            ExpectedScore { value: -self.value, ..self }
        } else {
            self
        }
    }

    fn is_better(self, other: ExpectedScore) -> bool {
        self.value > other.value
    }

    /// Values within their error of the best are best too (rounding must not hide a tie).
    fn is_among_best(self, best: ExpectedScore) -> bool {
        self.value + 2.0 * self.error >= best.value
    }

    fn is_win(self) -> bool {
        self.value > 0.0
    }

    fn assessment(self, scores: ScoreKind) -> Assessment {
        Assessment::Expected(Expected {
            score: self.value,
            error: self.error,
            win_loss: scores == ScoreKind::WinLoss,
            chance: None,
        })
    }
}

impl SearchValue for Nimber {
    /// A move's value is the nimber it leaves, won when that is zero (the turn passes in an impartial game);
    /// its remoteness is not known without a search.
    fn for_move(self, _turn_passes: bool) -> Nimber {
        Nimber { nimber: self.nimber, won: self.nimber == 0, remoteness: None }
    }

    /// A won value beats a lost one; among won (or lost) values none is preferred (nimbers carry no
    /// remoteness: from a lost position every move loses alike).
    fn is_better(self, other: Nimber) -> bool {
        self.won && !other.won
    }

    fn is_win(self) -> bool {
        self.won
    }

    fn assessment(self, _scores: ScoreKind) -> Assessment {
        Assessment::Nimber { nimber: self.nimber, won: self.won, remoteness: self.remoteness }
    }
}
