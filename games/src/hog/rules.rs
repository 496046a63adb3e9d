//! Hog's rules as a scored game with chance: the distribution of a roll of `d` dice, the moves and outcomes.

use super::Hog;
use ludus_framework::scored::{Chance, Player, ScoreKind, ScoredGame};
use ludus_framework::Canonicalize;
use ludus_framework::Rules;
use ludus_framework::SearchHints;

/// A state: the mover's score, the other's, the dice in the air (0 while the mover chooses), who is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HogState {
    /// The score of the player to move.
    pub mine: u16,
    /// The other's score.
    pub theirs: u16,
    /// The dice rolling (a chance node), or 0.
    pub rolling: u8,
    /// Whether the first player is the one to move.
    pub first_to_move: bool,
}

/// A move: roll this many dice; or, at a chance node, the points the roll scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HogMove {
    /// Roll this many dice.
    Roll(u8),
    /// The roll scores this many points.
    Points(u16),
}

/// The points a roll of `dice` dice scores, with the number of the `6^dice` sequences giving each: 1 for
/// every sequence with a 1 (`6^d - 5^d`), else the sum of faces 2..6 (counted by convolution).
pub(crate) fn roll_outcomes(dice: u32) -> Vec<(u32, u64)> {
    // Ways of each sum with faces 2..=6 only.
    let mut ways = vec![1u64];
    for _ in 0..dice {
        let mut next = vec![0u64; ways.len() + 6];
        for (sum, &count) in ways.iter().enumerate() {
            for face in 2..=6 {
                next[sum + face] += count;
            }
        }
        ways = next;
    }
    let pig_out = 6u64.pow(dice) - 5u64.pow(dice);
    let mut outcomes = vec![(1, pig_out)];
    outcomes.extend(ways.iter().enumerate().filter(|(_, &count)| count > 0).map(|(sum, &count)| (sum as u32, count)));
    outcomes
}

impl Hog {
    /// The start: both scores 0, the first player to choose.
    pub fn start(&self) -> HogState {
        HogState { mine: 0, theirs: 0, rolling: 0, first_to_move: true }
    }
}

impl Rules for Hog {
    type Position = HogState;
    type Move = HogMove;
    type Outcome = i32;

    fn outcome(&self, state: &HogState) -> Option<i32> {
        (u32::from(state.mine) >= self.goal()).then_some(1)
    }

    fn moves(&self, state: &HogState, moves: &mut Vec<HogMove>) {
        if state.rolling == 0 {
            moves.extend((1..=self.dice() as u8).map(HogMove::Roll));
        } else if let Some(outcomes) = self.outcomes.get(usize::from(state.rolling) - 1) {
            moves.extend(outcomes.iter().map(|&(points, _)| HogMove::Points(points as u16)));
        }
    }

    fn play(&self, state: &HogState, mv: &HogMove) -> HogState {
        match *mv {
            HogMove::Roll(dice) => HogState { rolling: dice, ..*state },
            HogMove::Points(points) => {
                let mine = state.mine + points;
                if u32::from(mine) >= self.goal() {
                    HogState { mine, rolling: 0, ..*state }
                } else {
                    HogState { mine: state.theirs, theirs: mine, rolling: 0, first_to_move: !state.first_to_move }
                }
            }
        }
    }

    fn turn_passes(&self, from: &Self::Position, to: &Self::Position) -> bool {
        self.mover(from) != self.mover(to)
    }
}

impl ScoredGame for Hog {
    const SCORES: ScoreKind = ScoreKind::WinLoss;
}

impl Hog {
    /// At a finished state the mover is the winner (the one who reached the goal).
    /// The player to move (the one whose view every score of the position takes).
    pub fn mover(&self, state: &HogState) -> Player {
        if state.first_to_move {
            Player::First
        } else {
            Player::Second
        }
    }
}

impl Chance for Hog {
    fn is_chance(&self, state: &HogState) -> bool {
        state.rolling > 0
    }

    fn outcomes(&self, state: &HogState, outcomes: &mut Vec<(HogMove, u64)>) {
        if let Some(roll) = self.outcomes.get(usize::from(state.rolling).wrapping_sub(1)) {
            outcomes.extend(roll.iter().map(|&(points, weight)| (HogMove::Points(points as u16), weight)));
        }
    }
}

/// Keys from the mover's side: `(mine, theirs, rolling)` packed in a `u64`; every finished state one key.
impl Canonicalize for Hog {
    type Key = u64;

    fn canonical(&self, state: &HogState) -> u64 {
        if self.is_over(state) {
            return u64::MAX;
        }
        (u64::from(state.mine) << 24) | (u64::from(state.theirs) << 8) | u64::from(state.rolling)
    }
}

impl SearchHints for Hog {
    fn value_range(&self, _state: &HogState) -> (i32, i32) {
        (-1, 1)
    }

    /// Rolls of about five dice first (they score the most on average).
    fn move_score(&self, _state: &HogState, mv: &HogMove) -> i32 {
        match *mv {
            HogMove::Roll(dice) => -(i32::from(dice) - 5).abs(),
            HogMove::Points(points) => i32::from(points),
        }
    }
}
