//! The closed-form evaluation sketched by the analysis ("Test Set 3"). The analysis states it without proof, so
//! it is checked against the exact engine ([`super::game::FastGame`] under memoized negamax): the tests compare
//! every quiet A-to-move key (any two run multisets, one side only 1s and 2s) with K <= 18 turns left, every key
//! reachable from the empty board for N <= 8, and whole records; a one-off run (an ignored test) agreed on every
//! quiet key with K <= 39 (1,247,400 keys at K = 39 alone; the official N <= 50 needs K <= 34).
//!
//! At A's turn, on a board without a pair, a live tile, or "can win in two", with K turns left, let Z be the sum
//! of `floor(length / 2)` over all runs of both sides (one side has only runs of 1 and 2, so this is the count of
//! 2s of that side plus the Z of the analysis for the other). Then:
//! K = 1: A loses; K = 2: A wins iff each side is the single run {2}; K > 2: A wins iff K is odd and 2 Z > K.
//!
//! At B's turn the value comes from one ply of search: B wins iff some placement leaves A a losing board. A
//! placement whose tile still has an unused neighbouring number and whose cell still has an empty neighbour
//! leaves a live tile, so only placements of a tile whose run is a single number, or into a cell whose run is a
//! single cell, need to be tried, and those fall into O(N) classes of equal effect (see `b_to_move_a_wins`);
//! each is judged in O(1) from run statistics updated for the two split runs. A board costs O(N), a record
//! O(N^2).

use super::board::{Board, Placement, Run};
use super::game::{a_shortcut_win, is_quiet};
use std::collections::HashMap;

/// Run statistics of one side (cells or numbers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct SideStats {
    /// Sum of `floor(length / 2)`.
    halves: u32,
    /// Number of runs of length 2.
    twos: u32,
    /// Number of runs of length at least 3.
    long: u32,
}

impl SideStats {
    fn of(runs: &[Run]) -> Self {
        let mut stats = SideStats::default();
        for run in runs {
            stats.add(run.length, 1);
        }
        stats
    }

    /// Adds (`sign` = 1) or removes (`sign` = -1 as wrapping) a run of `length`; 0 is no run.
    fn add(&mut self, length: u32, sign: u32) {
        if length == 0 {
            return;
        }
        self.halves = self.halves.wrapping_add(sign.wrapping_mul(length / 2));
        self.twos = self.twos.wrapping_add(sign.wrapping_mul(u32::from(length == 2)));
        self.long = self.long.wrapping_add(sign.wrapping_mul(u32::from(length >= 3)));
    }

    /// The statistics after the run of `length` loses its element at `offset`.
    fn split(mut self, length: u32, offset: u32) -> Self {
        self.add(length, u32::MAX);
        self.add(offset, 1);
        self.add(length - 1 - offset, 1);
        self
    }
}

/// The closed-form value of an A-to-move quiet board (no pair, no live tile, not "can win in two") with
/// `remaining` turns left: whether A wins.
fn quiet_a_wins(remaining: u32, cells: SideStats, tiles: SideStats) -> bool {
    match remaining {
        0 | 1 => false,
        2 => cells.twos == 1 && tiles.twos == 1,
        _ => remaining % 2 == 1 && 2 * (cells.halves + tiles.halves) > remaining,
    }
}

/// Whether A wins from an A-to-move board, by the shortcuts and the closed form.
fn a_to_move_wins(board: &Board) -> bool {
    if a_shortcut_win(board) {
        return true;
    }
    quiet_a_wins(board.remaining(), SideStats::of(&board.cell_runs()), SideStats::of(&board.tile_runs()))
}

/// For each element of the side, the run (start, length) containing it, or `None` if used.
fn run_table(runs: &[Run], size: u32) -> Vec<Option<Run>> {
    let mut table = vec![None; size as usize + 1];
    for run in runs {
        for position in run.start..run.start + run.length {
            if let Some(slot) = table.get_mut(position as usize) {
                *slot = Some(*run);
            }
        }
    }
    table
}

/// Up to [`CLASS_MEMBERS`] members of each class of positions of a side: positions in runs of the same length at
/// the same distance from the nearer end of their run. Keyed by (run length, distance), in first-seen order.
fn classes(runs: &[Run]) -> Vec<((u32, u32), Vec<u32>)> {
    let mut index: HashMap<(u32, u32), usize> = HashMap::new();
    let mut classes: Vec<((u32, u32), Vec<u32>)> = Vec::new();
    for run in runs {
        for offset in 0..run.length {
            let class = (run.length, offset.min(run.length - 1 - offset));
            let slot = *index.entry(class).or_insert_with(|| {
                classes.push((class, Vec::new()));
                classes.len() - 1
            });
            if let Some((_, members)) = classes.get_mut(slot) {
                if members.len() < CLASS_MEMBERS {
                    members.push(run.start + offset);
                }
            }
        }
    }
    classes
}

/// More members than the placements a position can be barred from by pairs (a tile has two neighbouring numbers,
/// each placed in a cell with two neighbours; likewise for a cell).
const CLASS_MEMBERS: usize = 5;

/// Whether A wins from a B-to-move board without a pair: B wins iff a quiet placement leaves A a losing board.
///
/// With a live tile on the board, every quiet placement kills it (fills its only empty neighbouring cell or uses
/// its only unused neighbouring number), so O(N) placements are tried; with more than four live tiles no single
/// placement kills them all. Without one, a quiet placement puts a single-number tile anywhere (or any tile into a
/// single cell); the value of the result depends only on the class of the other coordinate, and at most four
/// members of a class are barred by pairs, so each class is tried with at most [`CLASS_MEMBERS`] members.
fn b_to_move_a_wins(board: &Board) -> bool {
    let live = board.live_tiles();
    if live.len() > 4 {
        return true;
    }
    let cell_runs = board.cell_runs();
    let tile_runs = board.tile_runs();
    let cell_table = run_table(&cell_runs, board.size());
    let tile_table = run_table(&tile_runs, board.size());
    let (cell_stats, tile_stats) = (SideStats::of(&cell_runs), SideStats::of(&tile_runs));
    let after = board.remaining() - 1;
    // Whether the split runs leave A a losing quiet board (or A cannot win: the board is full).
    let a_loses = |cells: SideStats, tiles: SideStats| -> bool {
        let two_step = tiles.long > 0 && cells.long > 0;
        !two_step && !quiet_a_wins(after, cells, tiles)
    };
    let b_escapes = |tile: u32, cell: u32| -> bool {
        let (Some(Some(tile_run)), Some(Some(cell_run))) =
            (tile_table.get(tile as usize), cell_table.get(cell as usize))
        else {
            return false;
        };
        is_quiet(board, &live, Placement { tile, cell })
            && a_loses(
                cell_stats.split(cell_run.length, cell - cell_run.start),
                tile_stats.split(tile_run.length, tile - tile_run.start),
            )
    };
    if let Some(first) = live.first() {
        let cells: Vec<u32> = board.empty_cells().collect();
        let tiles: Vec<u32> = board.unused_tiles().collect();
        let near_cells = [first.cell.wrapping_sub(1), first.cell + 1].into_iter().filter(|&at| board.cell_empty(at));
        let near_tiles = [first.tile.wrapping_sub(1), first.tile + 1].into_iter().filter(|&t| board.tile_unused(t));
        for cell in near_cells {
            if tiles.iter().any(|&tile| b_escapes(tile, cell)) {
                return false;
            }
        }
        for tile in near_tiles {
            if cells.iter().any(|&cell| b_escapes(tile, cell)) {
                return false;
            }
        }
        return true;
    }
    let singles =
        |runs: &[Run]| -> Vec<u32> { runs.iter().filter(|run| run.length == 1).map(|run| run.start).collect() };
    let (single_tiles, single_cells) = (singles(&tile_runs), singles(&cell_runs));
    if !single_tiles.is_empty() {
        let tiles = tile_stats.split(1, 0);
        for ((length, offset), members) in classes(&cell_runs) {
            if a_loses(cell_stats.split(length, offset), tiles)
                && single_tiles.iter().any(|&tile| members.iter().any(|&cell| b_escapes(tile, cell)))
            {
                return false;
            }
        }
    }
    if !single_cells.is_empty() {
        let cells = cell_stats.split(1, 0);
        for ((length, offset), members) in classes(&tile_runs) {
            if a_loses(cells, tile_stats.split(length, offset))
                && single_cells.iter().any(|&cell| members.iter().any(|&tile| b_escapes(tile, cell)))
            {
                return false;
            }
        }
    }
    true
}

/// Whether A wins from `board` (either side to move), by the closed form.
pub fn a_wins(board: &Board) -> bool {
    if board.is_full() || board.has_pair() {
        return board.has_pair();
    }
    if board.a_to_move() {
        a_to_move_wins(board)
    } else {
        b_to_move_a_wins(board)
    }
}

/// Whether A wins from an A-to-move quiet board with these run lengths, by the closed form (for tests that
/// compare it with the exact engine key by key).
pub fn quiet_key_a_wins(cells: &[u32], tiles: &[u32]) -> bool {
    let runs = |lengths: &[u32]| -> Vec<Run> { lengths.iter().map(|&length| Run { start: 0, length }).collect() };
    let (cell_stats, tile_stats) = (SideStats::of(&runs(cells)), SideStats::of(&runs(tiles)));
    if cell_stats.long > 0 && tile_stats.long > 0 {
        return true;
    }
    quiet_a_wins(cells.iter().sum(), cell_stats, tile_stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_keys_follow_the_rules() {
        assert!(!quiet_key_a_wins(&[1], &[1]));
        assert!(quiet_key_a_wins(&[2], &[2]));
        assert!(!quiet_key_a_wins(&[1, 1], &[2]));
        // K = 3, Z = 2: 4 > 3.
        assert!(quiet_key_a_wins(&[2, 1], &[3]));
        // K = 4 is even: lost.
        assert!(!quiet_key_a_wins(&[2, 2], &[2, 2]));
    }
}
