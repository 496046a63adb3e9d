//! Pig's rules as a scored game with chance.

use super::Pig;
use ludus_framework::scored::{Chance, Player, ScoreKind, ScoredGame};
use ludus_framework::Canonicalize;
use ludus_framework::Rules;
use ludus_framework::SearchHints;

/// A state: the mover's score, the other's, the turn total, whether the die is in the air, and who is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PigState {
    /// The score of the player to move (`i`).
    pub mine: u16,
    /// The other's score (`j`).
    pub theirs: u16,
    /// The turn total (`k`).
    pub turn: u16,
    /// Whether the die is rolling (a chance node).
    pub rolling: bool,
    /// Whether the first player is the one to move.
    pub first_to_move: bool,
}

/// A move: roll, hold, or (at a chance node) the face the die shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PigMove {
    /// Roll the die.
    Roll,
    /// Add the turn total to one's score and pass the turn.
    Hold,
    /// The die shows this face (1 to 6).
    Face(u8),
}

impl Pig {
    /// The start: both scores 0, the first player to roll.
    pub fn start(&self) -> PigState {
        PigState { mine: 0, theirs: 0, turn: 0, rolling: false, first_to_move: true }
    }

    /// The state `(i, j, k)` with the first player to move and the die at rest.
    pub fn state(&self, mine: u16, theirs: u16, turn: u16) -> PigState {
        PigState { mine, theirs, turn, rolling: false, first_to_move: true }
    }

    /// The state with the turn passed after the mover's score became `mine`.
    fn passed(state: &PigState, mine: u16) -> PigState {
        PigState { mine: state.theirs, theirs: mine, turn: 0, rolling: false, first_to_move: !state.first_to_move }
    }
}

impl Rules for Pig {
    type Position = PigState;
    type Move = PigMove;
    type Outcome = i32;

    const POSITIONS_REPEAT: bool = true;

    fn outcome(&self, state: &PigState) -> Option<i32> {
        (u32::from(state.mine) + u32::from(state.turn) >= self.goal()).then_some(1)
    }

    fn moves(&self, state: &PigState, moves: &mut Vec<PigMove>) {
        if state.rolling {
            moves.extend((1..=6).map(PigMove::Face));
        } else {
            moves.push(PigMove::Roll);
            if state.turn > 0 {
                moves.push(PigMove::Hold);
            }
        }
    }

    fn play(&self, state: &PigState, mv: &PigMove) -> PigState {
        match *mv {
            PigMove::Roll => PigState { rolling: true, ..*state },
            PigMove::Hold => Pig::passed(state, state.mine + state.turn),
            PigMove::Face(1) => Pig::passed(state, state.mine),
            PigMove::Face(face) => PigState { turn: state.turn + u16::from(face), rolling: false, ..*state },
        }
    }

    fn turn_passes(&self, from: &Self::Position, to: &Self::Position) -> bool {
        self.mover(from) != self.mover(to)
    }
}

impl ScoredGame for Pig {
    const SCORES: ScoreKind = ScoreKind::WinLoss;
}

impl Pig {
    /// At a finished state, the winner is the mover (the one who reached the goal).
    /// The player to move (the one whose view every score of the position takes).
    pub fn mover(&self, state: &PigState) -> Player {
        if state.first_to_move {
            Player::First
        } else {
            Player::Second
        }
    }
}

impl Chance for Pig {
    fn is_chance(&self, state: &PigState) -> bool {
        state.rolling
    }

    fn outcomes(&self, _state: &PigState, outcomes: &mut Vec<(PigMove, u64)>) {
        outcomes.extend((1..=6).map(|face| (PigMove::Face(face), 1)));
    }
}

/// Keys from the mover's side: `(i, j, k, rolling)` packed in a `u64`.
impl Canonicalize for Pig {
    type Key = u64;

    fn canonical(&self, state: &PigState) -> u64 {
        if self.is_over(state) {
            // Every finished state is a win for its mover: one key.
            return u64::MAX;
        }
        (u64::from(state.mine) << 34)
            | (u64::from(state.theirs) << 17)
            | (u64::from(state.turn) << 1)
            | u64::from(state.rolling)
    }
}

impl SearchHints for Pig {
    fn value_range(&self, _state: &PigState) -> (i32, i32) {
        (-1, 1)
    }
}
