//! Hog's panel for the explorer's page ([`BoardForm`]): both players' scores, the goal and, at a chance
//! node, the dice rolling; the numbers of dice to roll, and the points a roll scores, as buttons.

use super::rules::{HogMove, HogState};
use super::Hog;
use ludus_framework::playable::{Board, BoardForm, BoardMove, Counter, Layout, Player};

impl BoardForm for Hog {
    fn board(&self, state: &HogState) -> Board {
        let (first, second) = if state.first_to_move { (state.mine, state.theirs) } else { (state.theirs, state.mine) };
        let counter = |name: &str, value: u32, player| Counter { name: name.to_string(), value, player };
        let mut counters = vec![
            counter("first player's score", u32::from(first), Some(Player::First)),
            counter("second player's score", u32::from(second), Some(Player::Second)),
            counter("goal", self.goal(), None),
        ];
        if state.rolling > 0 {
            counters.push(counter("dice rolling", u32::from(state.rolling), None));
        }
        Board { layout: Layout::Panel { counters }, to_move: Some(Player::first_if(state.first_to_move)) }
    }

    fn board_move(&self, _state: &HogState, _mv: &HogMove) -> BoardMove {
        BoardMove::Choice
    }
}
