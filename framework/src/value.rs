//! Game values: win, loss or draw for the player to move, with remoteness.
//!
//! Remoteness is the number of moves to the end of the game under optimal play, where the winner hurries
//! and the loser delays. Negamax backs values up with [`Value::backed_up`] and picks the child value that is
//! best for the mover under the total order of [`Value`]'s `Ord` implementation.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// The value of a position for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Value {
    /// The player to move wins in this many moves (counting both players' moves).
    Win(u32),
    /// The player to move loses; the game lasts this many more moves.
    Lose(u32),
    /// Neither player can force a win.
    Draw,
}

impl Value {
    /// The value of a finished game that the player to move has lost.
    pub const LOST: Value = Value::Lose(0);

    /// The value of this position seen from the player who just moved into it, one move earlier:
    /// `Win(r)` becomes `Lose(r + 1)`, `Lose(r)` becomes `Win(r + 1)`, `Draw` stays `Draw`.
    #[must_use]
    pub fn backed_up(self) -> Value {
        match self {
            Value::Win(r) => Value::Lose(r.saturating_add(1)),
            Value::Lose(r) => Value::Win(r.saturating_add(1)),
            Value::Draw => Value::Draw,
        }
    }

    /// True for `Win(_)`.
    pub fn is_win(self) -> bool {
        matches!(self, Value::Win(_))
    }

    /// True for `Lose(_)`.
    pub fn is_loss(self) -> bool {
        matches!(self, Value::Lose(_))
    }

    /// Remoteness, `None` for a draw.
    pub fn remoteness(self) -> Option<u32> {
        match self {
            Value::Win(r) | Value::Lose(r) => Some(r),
            Value::Draw => None,
        }
    }

    /// The value with its remoteness dropped, for comparing outcomes only (`Win(0)`, `Lose(0)`, `Draw`).
    pub fn outcome(self) -> Value {
        match self {
            Value::Win(_) => Value::Win(0),
            Value::Lose(_) => Value::Lose(0),
            Value::Draw => Value::Draw,
        }
    }

    /// A sort key that is larger for values better for the player to move: wins above 2^32, losses below
    /// -2^32 (remoteness fits 32 bits), the draw 0.
    #[inline]
    fn rank(self) -> i64 {
        const SIDE: i64 = 1 << 33;
        match self {
            Value::Win(r) => SIDE - i64::from(r),
            Value::Draw => 0,
            Value::Lose(r) => i64::from(r) - SIDE,
        }
    }
}

/// The order negamax relies on: greater is better for the player to move.
/// Any win beats a draw, which beats any loss; a quicker win beats a slower one; a slower loss beats a quicker one.
impl Ord for Value {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for Value {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Win(r) => write!(f, "win in {r}"),
            Value::Lose(r) => write!(f, "loss in {r}"),
            Value::Draw => write!(f, "draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Value;

    #[test]
    fn order_prefers_quick_wins_and_slow_losses() {
        let mut values = vec![Value::Lose(1), Value::Win(5), Value::Draw, Value::Win(1), Value::Lose(7)];
        values.sort();
        assert_eq!(values, vec![Value::Lose(1), Value::Lose(7), Value::Draw, Value::Win(5), Value::Win(1)]);
        // The extremes of remoteness keep to their side of the draw.
        assert!(Value::Lose(0) < Value::Lose(u32::MAX) && Value::Lose(u32::MAX) < Value::Draw);
        assert!(Value::Draw < Value::Win(u32::MAX) && Value::Win(u32::MAX) < Value::Win(0));
    }

    #[test]
    fn backing_up_swaps_sides_and_adds_a_move() {
        assert_eq!(Value::Lose(0).backed_up(), Value::Win(1));
        assert_eq!(Value::Win(3).backed_up(), Value::Lose(4));
        assert_eq!(Value::Draw.backed_up(), Value::Draw);
    }
}
