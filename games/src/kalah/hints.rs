//! Kalah's search hints: the margin's range (the stores' difference, give or take every seed still in play),
//! and the move order: extra moves first (the pit nearest the store among them first), then captures by size.

use super::rules::{Board, Pit};
use super::{Capture, Kalah};
use ludus_framework::SearchHints;

impl SearchHints for Kalah {
    fn value_range(&self, board: &Board) -> (i32, i32) {
        let me = board.side();
        let difference = i32::from(board.stores[me]) - i32::from(board.stores[1 - me]);
        let in_play = (self.in_pits(board, 0) + self.in_pits(board, 1)) as i32;
        (difference - in_play, difference + in_play)
    }

    fn estimate(&self, board: &Board) -> Option<i32> {
        let me = board.side();
        Some(i32::from(board.stores[me]) - i32::from(board.stores[1 - me]))
    }

    /// The pit and the side that sows it: the same sowing wherever it recurs.
    fn history_slot(&self, board: &Board, pit: &Pit) -> Option<usize> {
        Some(board.side() * super::MAX_PITS + usize::from(*pit))
    }

    fn move_score(&self, board: &Board, pit: &Pit) -> i32 {
        let me = board.side();
        let pit = usize::from(*pit);
        let seeds = usize::from(board.pits[me][pit]);
        let cycle = 2 * self.pits() + 1;
        let last = (pit + seeds) % cycle;
        if last == self.pits() {
            // An extra move: the pit nearest the store first, so that the others stay playable.
            return 1000 + pit as i32;
        }
        if last < self.pits() && seeds < cycle && board.pits[me][last] == 0 {
            let opposite = usize::from(board.pits[1 - me][self.pits() - 1 - last]);
            return 10 * opposite as i32 + i32::from(self.capture() == Capture::Always);
        }
        0
    }
}
