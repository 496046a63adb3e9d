//! Pig's panel for the explorer's page ([`BoardForm`]): both players' scores, the turn total and the
//! goal; roll and hold, and at a chance node the die's faces, as buttons.

use super::rules::{PigMove, PigState};
use super::Pig;
use ludus_framework::playable::{Board, BoardForm, BoardMove, Counter, Layout, Player};

impl BoardForm for Pig {
    fn board(&self, state: &PigState) -> Board {
        let (first, second) = if state.first_to_move { (state.mine, state.theirs) } else { (state.theirs, state.mine) };
        let counter = |name: &str, value: u32, player| Counter { name: name.to_string(), value, player };
        Board {
            layout: Layout::Panel {
                counters: vec![
                    counter("first player's score", u32::from(first), Some(Player::First)),
                    counter("second player's score", u32::from(second), Some(Player::Second)),
                    counter("turn total", u32::from(state.turn), None),
                    counter("goal", self.goal(), None),
                ],
            },
            to_move: Some(Player::first_if(state.first_to_move)),
        }
    }

    fn board_move(&self, _state: &PigState, _mv: &PigMove) -> BoardMove {
        BoardMove::Choice
    }
}
