//! Othello's search hints: the margin's range, the last empty cell played without search, and the move order
//! (corners first, then fewest replies for the other, "fastest first"; near the end, the moves in quadrants with
//! an odd number of empty cells first, "parity"), scored in one pass over the bitboards.

use super::last_empties::SMALL_EMPTIES;
use super::rules::{Discs, OthelloMove};
use super::Othello;
use ludus_framework::hints::order_by_scores;
use ludus_framework::hints::Shortcut;
use ludus_framework::{SearchHints, SmallSearch};

/// At most this many empty cells, moves are ordered by parity and corners only: the mobility of each reply
/// costs more than the small trees it would order.
const PARITY_ONLY: u32 = 4;

/// The weights of the move order, tuned on two 6 x 6 positions of 20 and 22 empty cells (BENCHMARKS.md,
/// "Othello"): about half the positions of the first weights tried (corner 1024, risky 256, parity 64,
/// replies 16, no own moves).
const CORNER: i32 = 2048;
/// A cell next to an empty corner.
const RISKY: i32 = 64;
/// A cell in a quadrant with an odd number of empty cells.
const ODD_QUADRANT: i32 = 64;
/// Per move left to the other after the move (fewer first: "fastest first").
const PER_REPLY: i32 = 128;
/// Per move the mover would have after his move, were it his turn (more first).
const PER_OWN_MOVE: i32 = 16;

/// The estimate's weight of a move more than the other has.
const ESTIMATE_PER_MOVE: i32 = 2;
/// The estimate's weight of a corner more than the other holds.
const ESTIMATE_PER_CORNER: i32 = 6;

impl Othello {
    /// The final margin after the last empty cell `at` is played by whoever can (the mover first), for the
    /// player to move.
    pub(super) fn last_cell(&self, position: &Discs, at: u64) -> i32 {
        let flipped = self.cells.flips(position.mover, position.other, at);
        if flipped != 0 {
            let after = Discs {
                mover: position.other & !flipped,
                other: position.mover | flipped | at,
                black_to_move: !position.black_to_move,
            };
            return -self.final_margin(&after);
        }
        let flipped = self.cells.flips(position.other, position.mover, at);
        if flipped != 0 {
            let after = Discs {
                mover: position.mover & !flipped,
                other: position.other | flipped | at,
                black_to_move: position.black_to_move,
            };
            return self.final_margin(&after);
        }
        self.final_margin(position)
    }

    /// The quadrants' masks with an odd number of empty cells.
    pub(super) fn odd_quadrants(&self, empty: u64) -> u64 {
        self.quadrants.iter().filter(|&&quadrant| (empty & quadrant).count_ones() % 2 == 1).fold(0, |odd, q| odd | q)
    }
}

impl SearchHints for Othello {
    fn value_range(&self, _position: &Discs) -> (i32, i32) {
        let cells = (self.cells.size * self.cells.size) as i32;
        (-cells, cells)
    }

    fn shortcut(&self, position: &Discs) -> Option<Shortcut<i32>> {
        let empty = position.empty(self.cells.all);
        (empty.count_ones() == 1).then(|| Shortcut::Exact(self.last_cell(position, empty)))
    }

    fn small_search(&self, position: &Discs, alpha: i32, beta: i32) -> Option<SmallSearch<i32>> {
        let empty = position.empty(self.cells.all).count_ones();
        (empty <= SMALL_EMPTIES).then(|| {
            let (value, positions) = self.solve_last_empties(position, alpha, beta);
            SmallSearch { value, positions }
        })
    }

    fn estimate(&self, position: &Discs) -> Option<i32> {
        // Mobility and corners, in about discs: a midgame's disc count says little, its freedom of move much.
        let mine = self.placements(position).count_ones() as i32;
        let theirs = self.cells.moves(position.other, position.mover).count_ones() as i32;
        let corners = (position.mover & self.cells.corners).count_ones() as i32
            - (position.other & self.cells.corners).count_ones() as i32;
        Some(ESTIMATE_PER_MOVE * (mine - theirs) + ESTIMATE_PER_CORNER * corners)
    }

    fn search_moves(&self, position: &Discs, moves: &mut Vec<OthelloMove>, scores: &mut Vec<i32>) {
        moves.clear();
        scores.clear();
        let mut placements = self.placements(position);
        if placements == 0 {
            moves.push(OthelloMove::Pass);
            return;
        }
        let empty = position.empty(self.cells.all);
        let few = empty.count_ones() <= PARITY_ONLY;
        let odd = self.odd_quadrants(empty);
        // Cells next to a corner that is still empty: playing there tends to give the corner away.
        let risky = self
            .cells
            .near_corners
            .iter()
            .zip(self.corner_cells.iter())
            .filter(|(_, &corner)| empty & corner != 0)
            .fold(0, |risky, (near, _)| risky | near);
        while placements != 0 {
            let cell = placements.trailing_zeros();
            let at = 1u64 << cell;
            placements &= placements - 1;
            let mut score = 0;
            if at & self.cells.corners != 0 {
                score += CORNER;
            }
            if at & risky != 0 {
                score -= RISKY;
            }
            if at & odd != 0 {
                score += ODD_QUADRANT;
            }
            if !few {
                let after = self.place(position, at);
                // Fewest replies first (a reply-less move, a pass forced, is best), then most moves of one's own.
                score -= PER_REPLY * self.placements(&after).count_ones() as i32;
                score += PER_OWN_MOVE * self.cells.moves(after.other, after.mover).count_ones() as i32;
            }
            moves.push(OthelloMove::Place(cell as u8));
            scores.push(score);
        }
        order_by_scores(moves, scores);
    }
}
