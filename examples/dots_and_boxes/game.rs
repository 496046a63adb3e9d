//! Dots and Boxes' rules as a scored game whose turns do not alternate: [`Rules`], [`ScoredGame`],
//! [`Deterministic`], the keys ([`Canonicalize`], [`FromKey`]) and the search hints.

use ludus_framework::scored::{Deterministic, ScoredGame};
use ludus_framework::{Canonicalize, Error, FromKey, Rules, SearchHints};

/// The most edges a board may have: a key holds the edges in 24 bits (3 x 3 boxes have 24 edges).
pub const MAX_EDGES: usize = 24;

/// A dot: its row (0 at the top) and column (0 at the left).
pub type Dot = (usize, usize);

/// A move: the edge drawn, by its number (horizontal edges row by row, then vertical edges row by row).
pub type Edge = u8;

/// Dots and Boxes on `rows` x `columns` boxes, with what its moves need precomputed.
#[derive(Clone, Debug)]
pub struct DotsAndBoxes {
    rows: usize,
    columns: usize,
    /// Each box's four edges, as a mask of edges.
    box_edges: Vec<u32>,
    /// Each edge's boxes (one on the border, two inside).
    edge_boxes: Vec<Vec<usize>>,
    /// The board's symmetries, each a permutation of the edges: `symmetry[edge]` is the edge's image.
    symmetries: Vec<Vec<Edge>>,
}

/// A position: the edges drawn, the first player's boxes less the second player's, and who is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The edges drawn, a bit each.
    pub edges: u32,
    /// The first player's boxes less the second player's.
    pub lead: i8,
    /// Whether the first player is to move.
    pub first_to_move: bool,
}

impl Board {
    /// The lead seen by the player to move: the score the game gives when no edge is left.
    pub fn mover_lead(&self) -> i32 {
        if self.first_to_move {
            i32::from(self.lead)
        } else {
            -i32::from(self.lead)
        }
    }
}

impl DotsAndBoxes {
    /// The game on `rows` x `columns` boxes, at most [`MAX_EDGES`] edges.
    pub fn new(rows: usize, columns: usize) -> Result<DotsAndBoxes, Error> {
        let edges = (rows + 1) * columns + rows * (columns + 1);
        if rows == 0 || columns == 0 || edges > MAX_EDGES {
            return Err(Error::parameter(
                "board",
                format!(
                    "dots and boxes: at least one row and one column of boxes, at most {MAX_EDGES} edges \
                 ({rows} x {columns} has {edges})"
                ),
            ));
        }
        let mut game = DotsAndBoxes {
            rows,
            columns,
            box_edges: Vec::new(),
            edge_boxes: vec![Vec::new(); edges],
            symmetries: vec![],
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

    /// The edge joining two dots, if they are neighbours.
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

    /// The symmetries of the board as permutations of its edges: the mirror images across both axes and the
    /// half turn, and on a square board the quarter turns and diagonal mirrors too.
    fn symmetries_of_board(&self) -> Vec<Vec<Edge>> {
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
                let permutation: Option<Vec<Edge>> = (0..self.edges())
                    .map(|edge| {
                        let (first, second) = self.dots_of(edge);
                        self.edge_between(image(first), image(second)).map(|image| image as Edge)
                    })
                    .collect();
                symmetries.extend(permutation);
            }
        }
        symmetries
    }

    /// The image of a set of edges under a symmetry.
    fn image(&self, edges: u32, symmetry: &[Edge]) -> u32 {
        symmetry.iter().enumerate().filter(|&(edge, _)| edges & (1 << edge) != 0).map(|(_, &image)| 1 << image).sum()
    }

    /// Every image of a position under the board's symmetries (what the conformance check compares keys of).
    pub fn images(&self, board: &Board) -> Vec<Board> {
        self.symmetries.iter().map(|symmetry| Board { edges: self.image(board.edges, symmetry), ..*board }).collect()
    }

    /// The boxes whose four edges are drawn.
    pub fn boxes_taken(&self, edges: u32) -> i32 {
        self.box_edges.iter().filter(|&&mask| edges & mask == mask).count() as i32
    }

    /// The boxes that drawing `edge` completes.
    fn boxes_completed(&self, edges: u32, edge: usize) -> i32 {
        let after = edges | 1 << edge;
        self.edge_boxes[edge].iter().filter(|&&square| after & self.box_edges[square] == self.box_edges[square]).count()
            as i32
    }

    /// Every edge drawn.
    fn all_edges(&self) -> u32 {
        (1u32 << self.edges()) - 1
    }
}

impl Rules for DotsAndBoxes {
    type Position = Board;
    type Move = Edge;
    type Outcome = i32;

    fn moves(&self, board: &Board, moves: &mut Vec<Edge>) {
        moves.extend((0..self.edges()).filter(|edge| board.edges & (1 << edge) == 0).map(|edge| edge as Edge));
    }

    fn play(&self, board: &Board, edge: &Edge) -> Board {
        let completed = self.boxes_completed(board.edges, usize::from(*edge)) as i8;
        let edges = board.edges | 1 << edge;
        match (completed, board.first_to_move) {
            // No box: the turn passes.
            (0, first_to_move) => Board { edges, lead: board.lead, first_to_move: !first_to_move },
            // A box or two: the same player moves again.
            (_, true) => Board { edges, lead: board.lead + completed, first_to_move: true },
            (_, false) => Board { edges, lead: board.lead - completed, first_to_move: false },
        }
    }

    fn outcome(&self, board: &Board) -> Option<i32> {
        (board.edges == self.all_edges()).then(|| board.mover_lead())
    }

    fn turn_passes(&self, from: &Board, to: &Board) -> bool {
        from.first_to_move != to.first_to_move
    }
}

/// Scored by the margin in boxes for the player to move (the default [`ScoreKind::Margin`]).
///
/// [`ScoreKind::Margin`]: ludus_framework::scored::ScoreKind::Margin
impl ScoredGame for DotsAndBoxes {}

/// No chance: the deterministic engines (scored alpha-beta, plain minimax) and the whole-game database take it.
impl Deterministic for DotsAndBoxes {}

/// The key: the least image of the edges under the board's symmetries, and the lead seen by the player to move
/// (what is left to win depends on the edges only, so equal keys have equal scores), in 32 bits.
impl Canonicalize for DotsAndBoxes {
    type Key = u32;

    fn canonical(&self, board: &Board) -> u32 {
        let edges = self.symmetries.iter().map(|symmetry| self.image(board.edges, symmetry)).min();
        let lead = (board.mover_lead() + 128) as u32;
        edges.unwrap_or(board.edges) | lead << MAX_EDGES
    }
}

/// A position from its key: the first player to move, with the mover's lead (the database stores keys only).
impl FromKey for DotsAndBoxes {
    fn position_of_key(&self, key: &u32) -> Option<Board> {
        let edges = key & ((1 << MAX_EDGES) - 1);
        let lead = i32::try_from(key >> MAX_EDGES).ok()? - 128;
        let taken = self.boxes_taken(edges);
        let possible = edges <= self.all_edges() && lead.abs() <= taken && (taken - lead) % 2 == 0;
        possible.then_some(Board { edges, lead: i8::try_from(lead).ok()?, first_to_move: true })
    }
}

/// The score lies within the lead give or take every box not yet taken; moves that take a box are searched
/// first, and those that give one (a box's third edge) last.
impl SearchHints for DotsAndBoxes {
    fn value_range(&self, board: &Board) -> (i32, i32) {
        let open = self.box_edges.len() as i32 - self.boxes_taken(board.edges);
        (board.mover_lead() - open, board.mover_lead() + open)
    }

    fn move_score(&self, board: &Board, edge: &Edge) -> i32 {
        let edge = usize::from(*edge);
        let completed = self.boxes_completed(board.edges, edge);
        let given = self.edge_boxes[edge]
            .iter()
            .filter(|&&square| (board.edges & self.box_edges[square]).count_ones() == 2)
            .count() as i32;
        100 * completed - 10 * given
    }
}
