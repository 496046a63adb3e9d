//! Othello's solver of the last empty cells ([`SearchHints::small_search`]): fail-soft alpha-beta on the
//! bitboards alone, with no table, no move list and no mobility count. Near the end most of a search's
//! positions lie here, and each costs the engine's table probe and move ordering more than its subtree.
//!
//! Moves are found by trying each empty cell next to an opponent's disc (few are left). Above
//! [`PARITY_ONLY`] empty cells they are tried fastest first (the fewest replies for the other); below, in the
//! quadrants with an odd number of empty cells first (parity: the last move of a region is worth having). The
//! last empty cell is played without search. Recursion is at most [`SMALL_EMPTIES`] deep, plus a pass a level.
//!
//! [`SearchHints::small_search`]: ludus_framework::SearchHints::small_search

use super::rules::Discs;
use super::Othello;

/// Positions with at most this many empty cells are solved here rather than by the engine (tuned on 6 x 6
/// positions of 22 and 24 empty cells: BENCHMARKS.md, "Othello's last empty cells").
pub(super) const SMALL_EMPTIES: u32 = 10;

/// At most this many empty cells, the moves are tried in parity order alone: counting the replies to each costs
/// more than the small trees it would order.
const PARITY_ONLY: u32 = 6;

impl Othello {
    /// The score of `position` (not over, with at most [`SMALL_EMPTIES`] empty cells) for its mover, fail-soft
    /// within `(alpha, beta)`, and the positions expanded.
    pub(super) fn solve_last_empties(&self, position: &Discs, alpha: i32, beta: i32) -> (i32, u64) {
        let mut positions = 0;
        let score = self.last_empties(position.mover, position.other, alpha, beta, false, &mut positions);
        (score, positions)
    }

    /// The margin when neither player can move, for the player with discs `mover`.
    fn margin_at_end(&self, mover: u64, other: u64) -> i32 {
        let position = Discs { mover, other, black_to_move: true };
        self.final_margin(&position)
    }

    /// The discs of the other and of `mover` after `mover` plays on the empty cell `at`, if that is a move: a
    /// cell with no opponent's disc around it flips nothing, so it is ruled out before its lines are walked.
    #[inline]
    fn placed(&self, mover: u64, other: u64, at: u64) -> Option<(u64, u64)> {
        if self.cells.neighbours[at.trailing_zeros() as usize] & other == 0 {
            return None;
        }
        let flipped = self.cells.flips(mover, other, at);
        (flipped != 0).then_some((other & !flipped, mover | flipped | at))
    }

    /// Fail-soft alpha-beta over the empty cells left; `passed` tells that the other player just passed (so
    /// a pass of this one ends the game).
    fn last_empties(
        &self,
        mover: u64,
        other: u64,
        mut alpha: i32,
        beta: i32,
        passed: bool,
        positions: &mut u64,
    ) -> i32 {
        *positions += 1;
        let empty = self.cells.all & !(mover | other);
        match empty.count_ones() {
            0 => return self.margin_at_end(mover, other),
            1 => return self.last_cell(&Discs { mover, other, black_to_move: true }, empty),
            _ => {}
        }
        let odd = self.odd_quadrants(empty);
        let mut best = i32::MIN;
        if empty.count_ones() > PARITY_ONLY {
            // Fastest first: the replies fewest for the other, parity breaking ties.
            let mut children = [(0i32, 0u64, 0u64); 64];
            let mut count = 0;
            let mut cells = empty;
            while cells != 0 {
                let at = cells & cells.wrapping_neg();
                cells ^= at;
                let Some((next_mover, next_other)) = self.placed(mover, other, at) else { continue };
                let replies = self.cells.moves(next_mover, next_other).count_ones() as i32;
                let rank = 2 * replies - i32::from(at & odd != 0);
                children[count] = (rank, next_mover, next_other);
                count += 1;
            }
            let children = &mut children[..count];
            children.sort_unstable_by_key(|child| child.0);
            for &(_, next_mover, next_other) in children.iter() {
                let score = -self.last_empties(next_mover, next_other, -beta, -alpha, false, positions);
                if raise(&mut best, &mut alpha, beta, score) {
                    return best;
                }
            }
        } else {
            for cells in [empty & odd, empty & !odd] {
                let mut cells = cells;
                while cells != 0 {
                    let at = cells & cells.wrapping_neg();
                    cells ^= at;
                    let Some((next_mover, next_other)) = self.placed(mover, other, at) else { continue };
                    let score = -self.last_empties(next_mover, next_other, -beta, -alpha, false, positions);
                    if raise(&mut best, &mut alpha, beta, score) {
                        return best;
                    }
                }
            }
        }
        if best != i32::MIN {
            return best;
        }
        if passed {
            return self.margin_at_end(mover, other);
        }
        -self.last_empties(other, mover, -beta, -alpha, true, positions)
    }
}

/// Takes a child's `score` into the `best` so far and the window's `alpha`; `true` when it reaches `beta` (a
/// cutoff).
#[inline]
fn raise(best: &mut i32, alpha: &mut i32, beta: i32, score: i32) -> bool {
    if score > *best {
        *best = score;
        *alpha = (*alpha).max(score);
    }
    *alpha >= beta
}
