//! The `backtrack` solver: the analysis's simpler search, independent of the case analysis, over left-aligned
//! mine rows with non-increasing counts, clicked at the bottom-right cell.

use super::board::{reveal, Board, Instance, CLICK, MINE, SAFE};
use ludus_framework::{Budget, Error, Result, Stats};

/// The largest board (in cells) the `backtrack` solver takes without `--no-limit`: 10,000 (100 x 100); each
/// node of its search floods the whole board.
pub const BACKTRACK_MAX_CELLS: u64 = 10_000;
/// The most search nodes the `backtrack` solver visits by default (`--max-positions` sets another budget)
/// before it gives up with `Error::Budget`.
pub const BACKTRACK_MAX_NODES: u64 = 1_000_000;

/// [`backtrack_within`] with the default budget of [`BACKTRACK_MAX_NODES`] nodes.
pub fn backtrack(instance: &Instance) -> Result<Option<Board>> {
    backtrack_within(instance, BACKTRACK_MAX_NODES, &mut Stats::default())
}

/// The analysis's simpler solver: mines left-aligned in each row, the mine counts non-increasing from top to
/// bottom, the click at the bottom-right cell; rows are filled top-down (most mines first) by backtracking. A
/// partial layout (rows below still empty) is pruned as soon as clicking the bottom-right cell leaves a safe
/// cell of the decided rows hidden: more mines below only shrink the revealed region, and the decided rows keep
/// their safe cells. The analysis observes (and the tests confirm against brute force and the case analysis)
/// that this space holds a valid board whenever one exists.
///
/// Visits at most `max_nodes` search nodes (an `Error::Budget(Budget::Positions(max_nodes))` past them) and
/// adds the nodes visited to `stats.visited`.
pub fn backtrack_within(instance: &Instance, max_nodes: u64, stats: &mut Stats) -> Result<Option<Board>> {
    if instance.rows == 0 || instance.columns == 0 || instance.mines >= instance.cells() {
        return Ok(None);
    }
    let mut search = RowSearch { instance: *instance, counts: vec![0; instance.rows], nodes: 0, max_nodes };
    let found = search.fill(0, instance.mines, instance.columns);
    stats.visited += search.nodes;
    Ok(found?.then(|| search.board(instance.rows)))
}

/// The state of [`backtrack_within`]: the mine count of each row decided so far.
struct RowSearch {
    /// The instance searched.
    instance: Instance,
    /// Mines at the left of each row (rows not yet decided hold 0).
    counts: Vec<usize>,
    /// Search nodes visited.
    nodes: u64,
    /// The most nodes the search may visit.
    max_nodes: u64,
}

impl RowSearch {
    /// The board of the first `decided` rows' counts (the rows below without mines), clicked at the bottom right.
    fn board(&self, decided: usize) -> Board {
        let columns = self.instance.columns;
        let mut rows: Vec<Vec<u8>> = (0..self.instance.rows)
            .map(|row| {
                let mines = if row < decided { self.counts.get(row).copied().unwrap_or(0) } else { 0 };
                (0..columns).map(|column| if column < mines { MINE } else { SAFE }).collect()
            })
            .collect();
        if let Some(corner) = rows.last_mut().and_then(|cells| cells.last_mut()) {
            if *corner == SAFE {
                *corner = CLICK;
            }
        }
        Board { rows }
    }

    /// Whether the click at the bottom right of the board of the first `decided` rows (the rows below without
    /// mines) reveals every safe cell of those rows. With every row decided, whether the layout is valid.
    fn clears(&self, decided: usize) -> bool {
        let board = self.board(decided);
        let (rows, columns) = (self.instance.rows, self.instance.columns);
        let (Some(click_row), Some(click_column)) = (rows.checked_sub(1), columns.checked_sub(1)) else {
            return false;
        };
        if board.rows.get(click_row).and_then(|cells| cells.get(click_column)) != Some(&CLICK) {
            return false;
        }
        let (revealed, _) = reveal(&board.rows, rows, columns, click_row, click_column);
        self.counts.iter().take(decided).enumerate().all(|(row, &mines)| {
            (mines..columns).all(|column| revealed.get(row * columns + column).copied().unwrap_or(false))
        })
    }

    /// Decides rows `row..` with `remaining` mines, at most `most` per row; true when a valid layout is found
    /// (left in `counts`).
    fn fill(&mut self, row: usize, remaining: usize, most: usize) -> Result<bool> {
        if self.nodes == self.max_nodes {
            return Err(Error::Budget(Budget::Positions(self.max_nodes)));
        }
        self.nodes += 1;
        if row == self.instance.rows {
            return Ok(remaining == 0 && self.clears(row));
        }
        let rows_left = self.instance.rows - row;
        for mines in (0..=most.min(remaining)).rev() {
            // The rows below hold at most `mines` each.
            if remaining - mines > mines * (rows_left - 1) {
                break;
            }
            if let Some(count) = self.counts.get_mut(row) {
                *count = mines;
            }
            if self.clears(row + 1) && self.fill(row + 1, remaining - mines, mines)? {
                return Ok(true);
            }
        }
        if let Some(count) = self.counts.get_mut(row) {
            *count = 0;
        }
        Ok(false)
    }
}
