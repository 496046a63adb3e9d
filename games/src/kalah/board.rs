//! Kalah's board for the explorer's page ([`BoardForm`]): South's pits (the first player's) along the
//! bottom, North's along the top, each row in sowing order, and the two stores; a move sows one of the mover's
//! pits.

use super::rules::{Board, Pit};
use super::Kalah;
use ludus_framework::playable::{self, BoardForm, BoardMove, Layout, Player};

impl BoardForm for Kalah {
    fn board(&self, board: &Board) -> playable::Board {
        let row = |side: usize| -> Vec<u32> {
            board.pits[side][..self.pits()].iter().map(|&seeds| u32::from(seeds)).collect()
        };
        playable::Board {
            layout: Layout::Pits {
                pits: [row(0), row(1)],
                stores: [u32::from(board.stores[0]), u32::from(board.stores[1])],
            },
            to_move: Some(Player::first_if(board.south_to_move)),
        }
    }

    fn board_move(&self, _board: &Board, pit: &Pit) -> BoardMove {
        BoardMove::Sow { pit: u32::from(*pit) }
    }
}
