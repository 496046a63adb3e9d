//! Dots and Boxes' keys: the board's symmetries (the mirror images across both axes and the half turn, and on
//! a square board the quarter turns and the diagonal mirrors too), [`Canonicalize`] (the least image of the
//! edges drawn, with the lead of the player to move) and [`FromKey`] (a position of a key, which the whole-game
//! database needs).

use super::rules::Board;
use super::{Dot, DotsAndBoxes, MAX_EDGES};
use ludus_framework::{Canonicalize, FromKey};

/// The offset of the lead in a key: a lead of `-128..=127` is stored as `0..=255` above the edges.
const LEAD_OFFSET: i32 = 128;

/// A symmetry of the board: where it takes each edge and each box, and the image of a set of edges by a table
/// for each byte of the set (a key is made at every node of a search, so eight lookups rather than a loop over
/// the edges).
#[derive(Clone)]
pub(super) struct Symmetry {
    /// `edges[edge]`: the edge's image.
    edges: Vec<usize>,
    /// `boxes[square]`: the box's image.
    boxes: Vec<usize>,
    /// `bytes[index][byte]`: the image of the edges `byte << (8 * index)`.
    bytes: Vec<[u64; 256]>,
}

impl Symmetry {
    /// The symmetry taking edge `edge` to `edges[edge]` and box `square` to `boxes[square]`.
    fn new(edges: Vec<usize>, boxes: Vec<usize>) -> Symmetry {
        let bytes = (0..edges.len().div_ceil(8))
            .map(|index| {
                let mut table = [0u64; 256];
                for (byte, image) in table.iter_mut().enumerate() {
                    for bit in 0..8 {
                        if let Some(&to) = edges.get(8 * index + bit).filter(|_| byte & (1 << bit) != 0) {
                            *image |= 1 << to;
                        }
                    }
                }
                table
            })
            .collect();
        Symmetry { edges, boxes, bytes }
    }

    /// The image of a set of edges.
    fn edges_image(&self, edges: u64) -> u64 {
        self.bytes
            .iter()
            .enumerate()
            .map(|(index, table)| table[(edges >> (8 * index)) as usize & 0xff])
            .fold(0, |all, image| all | image)
    }

    /// The image of a set of boxes.
    fn boxes_image(&self, boxes: u32) -> u32 {
        self.boxes.iter().enumerate().filter(|&(square, _)| boxes & (1 << square) != 0).map(|(_, &to)| 1 << to).sum()
    }
}

impl DotsAndBoxes {
    /// The symmetries of the board (the identity first).
    pub(super) fn symmetries_of_board(&self) -> Vec<Symmetry> {
        let (rows, columns) = (self.rows, self.columns);
        let transposes: &[bool] = if rows == columns { &[false, true] } else { &[false] };
        let mut symmetries = Vec::new();
        for &transpose in transposes {
            for (flip_rows, flip_columns) in [(false, false), (false, true), (true, false), (true, true)] {
                let image = |(row, column): Dot| {
                    let row = if flip_rows { rows - row } else { row };
                    let column = if flip_columns { columns - column } else { column };
                    if transpose {
                        (column, row)
                    } else {
                        (row, column)
                    }
                };
                let edges: Option<Vec<usize>> = (0..self.edges())
                    .map(|edge| {
                        let (first, second) = self.dots_of(edge);
                        self.edge_between(image(first), image(second))
                    })
                    .collect();
                // A box's image is the box of its edges' images.
                let boxes = edges.as_ref().and_then(|edges| {
                    self.box_edges
                        .iter()
                        .map(|&mask| {
                            let image: u64 = (0..self.edges())
                                .filter(|edge| mask & (1 << edge) != 0)
                                .map(|edge| 1 << edges[edge])
                                .sum();
                            self.box_edges.iter().position(|&other| other == image)
                        })
                        .collect::<Option<Vec<usize>>>()
                });
                if let (Some(edges), Some(boxes)) = (edges, boxes) {
                    symmetries.push(Symmetry::new(edges, boxes));
                }
            }
        }
        symmetries
    }

    /// Every image of a position under the board's symmetries, the position itself first (what the conformance
    /// check compares the keys of).
    pub fn images(&self, board: &Board) -> Vec<Board> {
        self.symmetries
            .iter()
            .map(|symmetry| Board {
                edges: symmetry.edges_image(board.edges),
                first_edges: symmetry.edges_image(board.first_edges),
                boxes: [symmetry.boxes_image(board.boxes[0]), symmetry.boxes_image(board.boxes[1])],
                first_to_move: board.first_to_move,
            })
            .collect()
    }

    /// Where a symmetry takes each edge, for each symmetry of the board (for tests that check the images).
    pub fn edge_permutations(&self) -> Vec<Vec<usize>> {
        self.symmetries.iter().map(|symmetry| symmetry.edges.clone()).collect()
    }
}

/// The key: the least image of the edges drawn under the board's symmetries, and above them the lead seen by
/// the player to move (what is left to win depends on the edges only, so equal keys have equal scores; who
/// drew which edge does not matter).
impl Canonicalize for DotsAndBoxes {
    type Key = u64;

    fn canonical(&self, board: &Board) -> u64 {
        let edges = self.symmetries.iter().map(|symmetry| symmetry.edges_image(board.edges)).min();
        // At most 21 boxes on a board of 56 edges: the lead is within a byte.
        let lead = (board.mover_lead() + LEAD_OFFSET) as u64;
        edges.unwrap_or(board.edges) | lead << MAX_EDGES
    }
}

/// A position from its key, with the first player to move (the database stores keys only). The key says
/// the mover's lead but not which boxes are whose nor who drew which edge: the mover is given the first of the
/// boxes taken (in the order of the boxes) that the lead gives him, and every edge is the second player's.
impl FromKey for DotsAndBoxes {
    fn position_of_key(&self, key: &u64) -> Option<Board> {
        let edges = key & ((1 << MAX_EDGES) - 1);
        let lead = i32::try_from(key >> MAX_EDGES).ok()? - LEAD_OFFSET;
        if edges & !self.all_edges() != 0 {
            return None;
        }
        let closed = self.closed_boxes(edges);
        let taken = closed.count_ones() as i32;
        if lead.abs() > taken || (taken - lead) % 2 != 0 {
            return None;
        }
        // The mover's boxes: the first `(taken + lead) / 2` closed ones.
        let mut first = 0u32;
        let mut left = (taken + lead) / 2;
        for square in 0..self.boxes() {
            if left > 0 && closed & (1 << square) != 0 {
                first |= 1 << square;
                left -= 1;
            }
        }
        Some(Board { edges, first_edges: 0, boxes: [first, closed & !first], first_to_move: true })
    }
}
