//! Othello's stable discs: discs that no sequence of moves can flip, so that they bound the final margin (the
//! other's stable discs are his at the end: the mover can get at most the cells left). A disc is stable when,
//! along each of the four axes (the row, the column and the two diagonals), its line is full (no move can be
//! played on it), or one of its two neighbours on the axis is off the board or a stable disc of its colour (a
//! line that flips it would have to flip that one too). The stable discs found so grow from the corners to a
//! fixed point; they are a subset of the truly stable ones, which is all a bound needs.

use super::bitboard::Cells;

/// The most lines along one axis of an 8 x 8 board (the diagonals: 15).
const MOST_LINES: usize = 15;

/// The lines of an `n x n` board along each axis, and the cells each axis leaves unflankable at the edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Stability {
    /// Per axis (as [`Cells::shift`]'s directions, two by two: rows, columns, diagonals down-right,
    /// diagonals down-left), its lines (unused ones are 0).
    lines: [[u64; MOST_LINES]; 4],
    /// Per axis, the cells with a neighbour off the board along it.
    edges: [u64; 4],
}

impl Stability {
    /// The lines and edges of `cells`' board.
    pub(super) fn new(cells: &Cells) -> Stability {
        let mut lines = [[0; MOST_LINES]; 4];
        let mut edges = [0; 4];
        for (axis, (axis_lines, edge)) in lines.iter_mut().zip(edges.iter_mut()).enumerate() {
            let (forward, backward) = (2 * axis, 2 * axis + 1);
            // The cells whose backward neighbour is off the board start the lines; each is walked forward.
            let mut starts = cells.all & !cells.shift(cells.all, forward);
            *edge = starts | (cells.all & !cells.shift(cells.all, backward));
            let mut place = 0;
            while starts != 0 {
                let start = starts & starts.wrapping_neg();
                starts ^= start;
                let mut line = 0;
                let mut cell = start;
                while cell != 0 {
                    line |= cell;
                    cell = cells.shift(cell, forward);
                }
                if let Some(slot) = axis_lines.get_mut(place) {
                    *slot = line;
                }
                place += 1;
            }
        }
        Stability { lines, edges }
    }

    /// The stable discs among `discs`, on a board where `occupied` are the cells with a disc.
    pub(super) fn stable(&self, cells: &Cells, discs: u64, occupied: u64) -> u64 {
        // Along each axis, the cells protected by a full line or the edge.
        let mut protected = self.edges;
        for (axis, lines) in self.lines.iter().enumerate() {
            for &line in lines {
                if line != 0 && line & occupied == line {
                    protected[axis] |= line;
                }
            }
        }
        let mut stable = 0;
        loop {
            let mut grown = discs;
            for (axis, &protected) in protected.iter().enumerate() {
                let beside = cells.shift(stable, 2 * axis) | cells.shift(stable, 2 * axis + 1);
                grown &= protected | beside;
            }
            if grown == stable {
                return stable;
            }
            stable = grown;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::othello::{Discs, Othello};
    use ludus_framework::game::Rules;
    use rand::seq::SliceRandom;

    /// The discs of one colour at `position`.
    fn colour(position: &Discs, black: bool) -> u64 {
        if position.black_to_move == black {
            position.mover
        } else {
            position.other
        }
    }

    /// Adds to `flipped` the discs of `tracked` (of Black's colour if `black`) that some sequence of moves from
    /// `position` flips, by walking every continuation of the game.
    fn ever_flipped(game: &Othello, position: &Discs, black: bool, tracked: u64, flipped: &mut u64) {
        if tracked == 0 || game.outcome(position).is_some() {
            return;
        }
        for mv in game.legal_moves(position) {
            let child = game.play(position, &mv);
            let kept = tracked & colour(&child, black);
            *flipped |= tracked & !kept;
            ever_flipped(game, &child, black, kept, flipped);
        }
    }

    #[test]
    fn stable_discs_are_never_flipped_and_some_are_found() {
        // Positions of random play on 4 x 4 and 5 x 5 with few empty cells left: no disc called stable is
        // flipped in any continuation, and the corners and full lines make many stable.
        let mut rng = ludus_framework::random::seeded_rng(7);
        let (mut stable_count, mut flipped_count) = (0, 0);
        for (size, empties) in [(4, 6), (5, 7)] {
            let game = Othello::new(size, true).unwrap();
            for _ in 0..150 {
                let mut position = game.start();
                while game.outcome(&position).is_none() && position.empty(game.cells.all).count_ones() > empties {
                    let moves = game.legal_moves(&position);
                    position = game.play(&position, moves.choose(&mut rng).unwrap());
                }
                let occupied = position.mover | position.other;
                for black in [true, false] {
                    let discs = colour(&position, black);
                    let stable = game.stability.stable(&game.cells, discs, occupied);
                    let mut flipped = 0;
                    ever_flipped(&game, &position, black, discs, &mut flipped);
                    assert_eq!(stable & flipped, 0, "{size} x {size}: {position:?}, stable {stable:#x}");
                    stable_count += stable.count_ones();
                    flipped_count += flipped.count_ones();
                }
            }
        }
        // Neither side of the check is empty: many discs are found stable, many others are flipped.
        assert!(stable_count > 500 && flipped_count > 500, "{stable_count} stable, {flipped_count} flipped");
    }
}
