//! The board of Adjacent and Consecutive (a row of cells, the tiles placed in them) and its analysis helpers:
//! adjacent consecutive pairs, "live" tiles (that can still join a pair), and the runs of empty cells and of
//! unused tile numbers.

use serde::Serialize;

/// A move: put `tile` into `cell` (both 1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Placement {
    /// The tile number, 1..=N.
    pub tile: u32,
    /// The cell number, 1..=N.
    pub cell: u32,
}

/// A maximal run of consecutive empty cells or of consecutive unused tile numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Run {
    /// The first cell (or tile number) of the run, 1-based.
    pub start: u32,
    /// The number of cells (or tiles) in the run, at least 1.
    pub length: u32,
}

/// A full game state: which tile sits in which cell. The unused tiles and the side to move (A after an even
/// number of placements) follow from it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// `cells[c - 1]` is the tile in cell `c`, or 0 if the cell is empty.
    cells: Vec<u32>,
    /// `tile_cells[t - 1]` is the cell of tile `t`, or 0 if the tile is unused.
    tile_cells: Vec<u32>,
    /// The number of placed tiles.
    placed: u32,
}

impl Board {
    /// The empty board with `size` cells and tiles.
    pub fn new(size: u32) -> Self {
        let length = size as usize;
        Board { cells: vec![0; length], tile_cells: vec![0; length], placed: 0 }
    }

    /// N, the number of cells (and of tiles).
    pub fn size(&self) -> u32 {
        self.cells.len() as u32
    }

    /// The number of placed tiles.
    pub fn placed(&self) -> u32 {
        self.placed
    }

    /// The number of turns left (K).
    pub fn remaining(&self) -> u32 {
        self.size() - self.placed
    }

    /// Whether player A (who makes the odd turns) is to move.
    pub fn a_to_move(&self) -> bool {
        self.placed.is_multiple_of(2)
    }

    /// Whether every cell is filled.
    pub fn is_full(&self) -> bool {
        self.placed == self.size()
    }

    /// The tile in `cell`, if the cell exists and holds one.
    pub fn tile_at(&self, cell: u32) -> Option<u32> {
        let index = (cell as usize).checked_sub(1)?;
        self.cells.get(index).copied().filter(|&tile| tile != 0)
    }

    /// Whether `cell` exists and is empty.
    pub fn cell_empty(&self, cell: u32) -> bool {
        (cell as usize).checked_sub(1).and_then(|index| self.cells.get(index)) == Some(&0)
    }

    /// Whether `tile` exists and is unused.
    pub fn tile_unused(&self, tile: u32) -> bool {
        (tile as usize).checked_sub(1).and_then(|index| self.tile_cells.get(index)) == Some(&0)
    }

    /// Whether `placement` is legal here: the tile is unused and the cell empty.
    pub fn is_legal(&self, placement: Placement) -> bool {
        self.tile_unused(placement.tile) && self.cell_empty(placement.cell)
    }

    /// Places a tile. The placement must be legal (an illegal one leaves the board unchanged).
    pub fn place(&mut self, placement: Placement) {
        if !self.is_legal(placement) {
            return;
        }
        if let Some(slot) = self.cells.get_mut(placement.cell as usize - 1) {
            *slot = placement.tile;
        }
        if let Some(slot) = self.tile_cells.get_mut(placement.tile as usize - 1) {
            *slot = placement.cell;
        }
        self.placed += 1;
    }

    /// The board after `placement`.
    pub fn with(&self, placement: Placement) -> Board {
        let mut next = self.clone();
        next.place(placement);
        next
    }

    /// Whether two adjacent cells hold tiles whose numbers differ by one (A has won).
    pub fn has_pair(&self) -> bool {
        self.cells.windows(2).any(|pair| pair[0] != 0 && pair[1] != 0 && pair[0].abs_diff(pair[1]) == 1)
    }

    /// Whether `tile`, placed in `cell`, forms a pair with a neighbour.
    pub fn makes_pair(&self, placement: Placement) -> bool {
        let Placement { tile, cell } = placement;
        [cell.wrapping_sub(1), cell + 1]
            .into_iter()
            .any(|neighbour| self.tile_at(neighbour).is_some_and(|other| other.abs_diff(tile) == 1))
    }

    /// Whether the placed `tile` in `cell` is live: it has an empty neighbouring cell and an unused
    /// neighbouring number, so A could complete a pair with it.
    pub fn is_live(&self, tile: u32, cell: u32) -> bool {
        (self.cell_empty(cell.wrapping_sub(1)) || self.cell_empty(cell + 1))
            && (self.tile_unused(tile.wrapping_sub(1)) || self.tile_unused(tile + 1))
    }

    /// Whether some placed tile is live (no allocation: this is asked at every searched state).
    pub fn has_live_tile(&self) -> bool {
        self.cells.iter().enumerate().any(|(index, &tile)| tile != 0 && self.is_live(tile, index as u32 + 1))
    }

    /// Whether some run of empty cells has 3 or more cells.
    pub fn has_long_cell_run(&self) -> bool {
        has_long_run(&self.cells)
    }

    /// Whether some run of unused numbers has 3 or more numbers.
    pub fn has_long_tile_run(&self) -> bool {
        has_long_run(&self.tile_cells)
    }

    /// The sorted lengths of the runs of empty cells (`cells`) or of unused numbers, without the runs' starts
    /// (a memo key needs only these: one allocation).
    pub fn run_lengths(&self, cells: bool) -> Vec<u32> {
        let slots = if cells { &self.cells } else { &self.tile_cells };
        let mut lengths = Vec::with_capacity(slots.len() / 2 + 1);
        let mut length = 0;
        for &slot in slots {
            if slot == 0 {
                length += 1;
            } else if length > 0 {
                lengths.push(length);
                length = 0;
            }
        }
        if length > 0 {
            lengths.push(length);
        }
        lengths.sort_unstable();
        lengths
    }

    /// For each cell (`cells`) or number, the length of its run and its distance to the nearer end of the run.
    pub fn run_index(&self, cells: bool) -> RunIndex {
        let slots = if cells { &self.cells } else { &self.tile_cells };
        let mut classes = vec![(0, 0); slots.len() + 1];
        for run in runs_of(slots) {
            for offset in 0..run.length {
                if let Some(slot) = classes.get_mut((run.start + offset) as usize) {
                    *slot = (run.length, offset.min(run.length - 1 - offset));
                }
            }
        }
        RunIndex { classes }
    }

    /// Every live placed tile, as placements, in cell order.
    pub fn live_tiles(&self) -> Vec<Placement> {
        (1..=self.size())
            .filter_map(|cell| self.tile_at(cell).map(|tile| Placement { tile, cell }))
            .filter(|placement| self.is_live(placement.tile, placement.cell))
            .collect()
    }

    /// The maximal runs of empty cells, left to right.
    pub fn cell_runs(&self) -> Vec<Run> {
        runs_of(&self.cells)
    }

    /// The maximal runs of consecutive unused tile numbers, in increasing order.
    pub fn tile_runs(&self) -> Vec<Run> {
        runs_of(&self.tile_cells)
    }

    /// The unused tiles, in increasing order.
    pub fn unused_tiles(&self) -> impl Iterator<Item = u32> + '_ {
        (1..=self.size()).filter(|&tile| self.tile_unused(tile))
    }

    /// The empty cells, left to right.
    pub fn empty_cells(&self) -> impl Iterator<Item = u32> + '_ {
        (1..=self.size()).filter(|&cell| self.cell_empty(cell))
    }

    /// The images of the board under the game's symmetries: reversing the row, reversing the numbers, and
    /// swapping cells with numbers (tile t in cell c becomes tile c in cell t), and their combinations (the
    /// board itself first; eight boards).
    pub fn images(&self) -> Vec<Board> {
        let size = self.size();
        let mut images = Vec::with_capacity(8);
        for swap in [false, true] {
            for reverse_cells in [false, true] {
                for reverse_tiles in [false, true] {
                    let mut image = Board::new(size);
                    for cell in 1..=size {
                        let Some(tile) = self.tile_at(cell) else { continue };
                        let (tile, cell) = if swap { (cell, tile) } else { (tile, cell) };
                        let cell = if reverse_cells { size + 1 - cell } else { cell };
                        let tile = if reverse_tiles { size + 1 - tile } else { tile };
                        image.place(Placement { tile, cell });
                    }
                    images.push(image);
                }
            }
        }
        images
    }

    /// The board as text, `_` for an empty cell (for messages).
    pub fn describe(&self) -> String {
        let cells: Vec<String> =
            self.cells.iter().map(|&tile| if tile == 0 { "_".to_string() } else { tile.to_string() }).collect();
        cells.join(" ")
    }
}

/// The run class of each position of one side, from [`Board::run_index`].
#[derive(Clone, Debug)]
pub struct RunIndex {
    /// `classes[p]`: (run length, distance to the nearer end) of position `p`; (0, 0) if used.
    classes: Vec<(u32, u32)>,
}

impl RunIndex {
    /// The (run length, distance to the nearer end) of `position`; (0, 0) if it is used or out of range.
    pub fn class(&self, position: u32) -> (u32, u32) {
        self.classes.get(position as usize).copied().unwrap_or((0, 0))
    }
}

/// Whether `slots` has 3 zeros in a row.
fn has_long_run(slots: &[u32]) -> bool {
    let mut length = 0;
    for &slot in slots {
        length = if slot == 0 { length + 1 } else { 0 };
        if length >= 3 {
            return true;
        }
    }
    false
}

/// The runs of zeros in `slots` (1-based starts).
fn runs_of(slots: &[u32]) -> Vec<Run> {
    let mut runs = Vec::new();
    let mut start = None;
    for (index, &slot) in slots.iter().enumerate() {
        let position = index as u32 + 1;
        match (slot == 0, start) {
            (true, None) => start = Some(position),
            (false, Some(first)) => {
                runs.push(Run { start: first, length: position - first });
                start = None;
            }
            _ => {}
        }
    }
    if let Some(first) = start {
        runs.push(Run { start: first, length: slots.len() as u32 + 1 - first });
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_live_tiles_of_the_analysis_example() {
        // 7 2 6 _ _ 3 _ 4 _ _ 5 (N = 11): tiles 1, 8, 9, 10, 11 are left.
        let mut board = Board::new(11);
        for (cell, tile) in [(1, 7), (2, 2), (3, 6), (6, 3), (8, 4), (11, 5)] {
            board.place(Placement { tile, cell });
        }
        let lengths = |runs: Vec<Run>| runs.iter().map(|run| run.length).collect::<Vec<_>>();
        assert_eq!(lengths(board.cell_runs()), vec![2, 1, 2]);
        assert_eq!(lengths(board.tile_runs()), vec![1, 4]);
        assert!(!board.has_pair());
        assert!(board.live_tiles().is_empty());
        assert_eq!(board.describe(), "7 2 6 _ _ 3 _ 4 _ _ 5");
        // Every placed tile is dead, so no placement completes a pair.
        for tile in board.unused_tiles() {
            assert!(board.empty_cells().all(|cell| !board.makes_pair(Placement { tile, cell })));
        }
        assert_eq!(board.images().len(), 8);
    }

    #[test]
    fn a_tile_in_the_middle_is_live_and_completes_pairs() {
        let mut board = Board::new(3);
        board.place(Placement { tile: 2, cell: 2 });
        assert_eq!(board.live_tiles(), vec![Placement { tile: 2, cell: 2 }]);
        assert!(board.makes_pair(Placement { tile: 1, cell: 1 }));
        assert!(board.makes_pair(Placement { tile: 3, cell: 3 }));
        assert!(!board.is_legal(Placement { tile: 2, cell: 1 }));
        board.place(Placement { tile: 3, cell: 1 });
        assert!(board.has_pair());
        assert!(board.a_to_move());
    }
}
