//! Dots and Boxes on `m` x `n` boxes: a scored game whose turns do not alternate (it implements only
//! [`ludus_framework::scored::ScoredGame`], so the win/loss engines, which assume alternation, refuse it at
//! compile time).
//!
//! ## The rules implemented
//! - The board is `m + 1` rows of `n + 1` dots. A move draws the edge between two neighbouring dots that is not
//!   drawn yet. The first player moves first.
//! - A move that draws the fourth side of a box (or of two) takes it (them), and the same player moves again;
//!   a move that takes no box passes the turn. Moving is compulsory.
//! - The game ends when every edge is drawn: the score is, for the player to move then, the boxes he took less
//!   those the other took.
//!
//! A dot is written as its column's letter and its row's number (`a1` at the top left), an edge as the two
//! dots it joins (`a1b1`, `b1b2`), a position as its edges in the order they were drawn from the start
//! (`text.rs`). The edges are numbered as [`ludus_framework::playable::Layout::Edges`] numbers them: the
//! horizontal ones row by row, then the vertical ones row by row.
//!
//! The files: `rules.rs` (the position, [`Rules`](ludus_framework::Rules) with its extra moves, the score),
//! `keys.rs` (the board's symmetries, the canonical key and the position of a key, which the whole-game
//! database needs), `hints.rs` (the range of scores still possible and the move order), `text.rs` and
//! `board.rs` (the explorer's board: the dots, who drew each edge, who took each box).

mod board;
mod hints;
mod keys;
mod rules;
mod text;

pub use rules::Board;

use keys::Symmetry;
use ludus_framework::{Error, Result};

/// The most edges a board may have: a key holds the edges in 56 bits and the lead in the 8 above them
/// (4 x 5 boxes have 49 edges, 3 x 7 have 52, 1 x 18 have 55).
pub const MAX_EDGES: usize = 56;

/// The most rows (or columns) of boxes a board may have: 18 x 1 has 55 edges.
pub const MAX_SIDE: usize = 18;

/// A dot: its row (0 at the top) and column (0 at the left).
pub type Dot = (usize, usize);

/// A move: the edge drawn, by its number (horizontal edges row by row, then vertical edges row by row).
pub type Edge = u8;

/// Dots and Boxes on `rows` x `columns` boxes, with what its moves and keys need precomputed.
#[derive(Clone)]
pub struct DotsAndBoxes {
    rows: usize,
    columns: usize,
    /// Each box's four edges, as a mask of edges.
    box_edges: Vec<u64>,
    /// Each edge's boxes (one on the border, two inside).
    edge_boxes: Vec<Vec<usize>>,
    /// The board's symmetries (the identity among them).
    symmetries: Vec<Symmetry>,
}

/// The board's size only: the symmetries' tables would fill a screen.
impl std::fmt::Debug for DotsAndBoxes {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("DotsAndBoxes").field("rows", &self.rows).field("columns", &self.columns).finish()
    }
}

impl DotsAndBoxes {
    /// The game on `rows` x `columns` boxes: at least one of each, at most [`MAX_EDGES`] edges in all.
    pub fn new(rows: usize, columns: usize) -> Result<DotsAndBoxes> {
        let edges = (rows + 1).saturating_mul(columns).saturating_add(rows.saturating_mul(columns.saturating_add(1)));
        if rows == 0 || columns == 0 || edges > MAX_EDGES {
            return Err(Error::parameter(
                "dots-and-boxes",
                format!(
                    "dots-and-boxes: at least one row and one column of boxes, at most {MAX_EDGES} edges ({rows} x \
                     {columns} boxes have {edges})"
                ),
            ));
        }
        let mut game = DotsAndBoxes {
            rows,
            columns,
            box_edges: Vec::new(),
            edge_boxes: vec![Vec::new(); edges],
            symmetries: Vec::new(),
        };
        for row in 0..rows {
            for column in 0..columns {
                let corners = [(row, column), (row, column + 1), (row + 1, column + 1), (row + 1, column)];
                let mut mask = 0;
                for side in 0..4 {
                    if let Some(edge) = game.edge_between(corners[side], corners[(side + 1) % 4]) {
                        mask |= 1 << edge;
                        game.edge_boxes[edge].push(game.box_edges.len());
                    }
                }
                game.box_edges.push(mask);
            }
        }
        game.symmetries = game.symmetries_of_board();
        Ok(game)
    }

    /// Rows of boxes.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns of boxes.
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// The number of edges.
    pub fn edges(&self) -> usize {
        self.edge_boxes.len()
    }

    /// The number of boxes.
    pub fn boxes(&self) -> usize {
        self.box_edges.len()
    }

    /// The edge joining two dots, if they are neighbours on the board.
    pub fn edge_between(&self, first: Dot, second: Dot) -> Option<usize> {
        let ((top, left), (bottom, right)) = (first.min(second), first.max(second));
        if bottom > self.rows || right > self.columns {
            return None;
        }
        let horizontal = (self.rows + 1) * self.columns;
        if top == bottom && right == left + 1 {
            Some(top * self.columns + left)
        } else if left == right && bottom == top + 1 {
            Some(horizontal + top * (self.columns + 1) + left)
        } else {
            None
        }
    }

    /// The two dots an edge joins, top or left first.
    pub fn dots_of(&self, edge: usize) -> (Dot, Dot) {
        let horizontal = (self.rows + 1) * self.columns;
        if edge < horizontal {
            let (row, column) = (edge / self.columns, edge % self.columns);
            ((row, column), (row, column + 1))
        } else {
            let (row, column) = ((edge - horizontal) / (self.columns + 1), (edge - horizontal) % (self.columns + 1));
            ((row, column), (row + 1, column))
        }
    }

    /// Every edge drawn: the mask of the finished board.
    fn all_edges(&self) -> u64 {
        (1u64 << self.edges()) - 1
    }
}
