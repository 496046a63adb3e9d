//! [`BoardForm`]: how a game shows a position as a board (cells in rows and columns holding pieces, heaps of
//! tokens, a mancala's pits, the edges between dots, a panel of numbers) and where each move is made on it (or a button beside it),
//! for a page that draws the board and takes moves by clicks (`ludus serve`). Optional, for every family: a
//! game without it is shown by its text form, and its moves are chosen from a list. [`check_board_form`] checks
//! a game's board against the trait's contract ([`check_board_view`] any board with its moves).

use crate::error::{Error, Result};
pub use crate::game::Player;
use crate::game::Rules;
use crate::text::TextForm;
use serde::Serialize;

/// What a piece looks like on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    /// A stone or disc in the player's colour.
    Disc,
    /// A cross (`X`).
    Cross,
    /// A nought (`O`).
    Nought,
    /// A piece that moves towards the top of the board (a Dodgem car).
    ArrowUp,
    /// A piece that moves towards the right edge.
    ArrowRight,
}

/// A piece on a cell: whose it is and what it looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Piece {
    /// Its owner.
    pub player: Player,
    /// Its look.
    pub shape: Shape,
}

/// How the cells of a grid are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GridStyle {
    /// Square cells side by side (tic-tac-toe, Quixo, Teeko, Dodgem).
    Squares,
    /// Holes in an upright frame that pieces are dropped into from the top, a column at a time (Connect Four).
    Columns,
    /// Points where lines cross, joined along the rows, the columns and the two long diagonals (Three Men's
    /// Morris).
    Points,
}

/// What a board is made of.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Layout {
    /// Cells in rows and columns, each empty or holding a piece.
    Grid {
        /// Rows of cells.
        rows: u32,
        /// Columns of cells.
        columns: u32,
        /// How the cells are drawn.
        style: GridStyle,
        /// Row by row from the top, each row from the left: `rows * columns` cells. Cell `row * columns +
        /// column` is the one a [`BoardMove`] names.
        cells: Vec<Option<Piece>>,
        /// The columns' names as the game's moves write them, from the left (`a`, `b`, ... or `1`, `2`, ...),
        /// or none.
        column_labels: Vec<String>,
        /// The rows' names, from the top, or none.
        row_labels: Vec<String>,
    },
    /// Heaps of tokens, in the order a move numbers them (Nim, octal games).
    Heaps {
        /// The tokens in each heap.
        heaps: Vec<u32>,
    },
    /// A mancala board (Kalah): two rows of pits, one a player, and a store each. The first player's row is
    /// drawn along the bottom from the left, the second's along the top from the right (the way the seeds go
    /// round), the first player's store at the right end, the second's at the left.
    Pits {
        /// The seeds in each pit: the first player's row, then the second's, each in sowing order (the pit a
        /// [`BoardMove::Sow`] numbers first).
        pits: [Vec<u32>; 2],
        /// The seeds in the first player's store and in the second's.
        stores: [u32; 2],
    },
    /// A game played on the edges between dots (Dots and Boxes): `rows + 1` by `columns + 1` dots, the edge
    /// between each two neighbouring dots drawn by a player or not yet, and the `rows` x `columns` boxes they
    /// enclose, each taken by a player or not yet.
    Edges {
        /// Rows of boxes.
        rows: u32,
        /// Columns of boxes.
        columns: u32,
        /// Who drew each edge, or none while it is not drawn. The numbering a [`BoardMove::Edge`] names: the
        /// horizontal edges first, row by row from the top and each row from the left (`(rows + 1) *
        /// columns`: edge `row * columns + column` joins dot (`row`, `column`) to the one at its right), then
        /// the vertical edges, row by row from the top and each row from the left (`rows * (columns + 1)`:
        /// edge `(rows + 1) * columns + row * (columns + 1) + column` joins dot (`row`, `column`) to the one
        /// below it).
        edges: Vec<Option<Player>>,
        /// Who took each box, or none while it is open: row by row from the top, each row from the left
        /// (`rows * columns`).
        boxes: Vec<Option<Player>>,
    },
    /// A small panel of named numbers (the scores of a dice game), the moves chosen by buttons below it.
    Panel {
        /// The numbers, each with its name, in the order shown.
        counters: Vec<Counter>,
    },
}

impl Layout {
    /// Which kind of layout it is, without its contents (what a registration declares).
    pub fn kind(&self) -> BoardKind {
        match self {
            Layout::Grid { .. } => BoardKind::Grid,
            Layout::Heaps { .. } => BoardKind::Heaps,
            Layout::Pits { .. } => BoardKind::Pits,
            Layout::Edges { .. } => BoardKind::Edges,
            Layout::Panel { .. } => BoardKind::Panel,
        }
    }
}

/// The kind of a board's [`Layout`], without its contents: what a game's registration declares it shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BoardKind {
    /// Cells in rows and columns ([`Layout::Grid`]).
    Grid,
    /// Heaps of tokens ([`Layout::Heaps`]).
    Heaps,
    /// A mancala's pits and stores ([`Layout::Pits`]).
    Pits,
    /// The edges between dots and the boxes they enclose ([`Layout::Edges`]).
    Edges,
    /// A panel of named numbers ([`Layout::Panel`]).
    Panel,
}

/// A named number of a [`Layout::Panel`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Counter {
    /// What it counts (`score`, `turn total`).
    pub name: String,
    /// Its value.
    pub value: u32,
    /// The player it belongs to (a player's score), or none (the goal).
    pub player: Option<Player>,
}

/// A position as a board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Board {
    /// The cells or heaps.
    #[serde(flatten)]
    pub layout: Layout,
    /// Whose turn it is, where the position says (an impartial game's heaps do not).
    pub to_move: Option<Player>,
}

/// Where a move is made on the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum BoardMove {
    /// A piece put on an empty cell.
    Place {
        /// The cell.
        cell: u32,
    },
    /// A piece dropped into a column from the top ([`GridStyle::Columns`]).
    Drop {
        /// The column, from 0 at the left.
        column: u32,
    },
    /// A piece taken from one cell to another, or off the board.
    Step {
        /// The cell it leaves.
        from: u32,
        /// The cell it reaches; `None` when it leaves the board.
        to: Option<u32>,
    },
    /// Tokens taken from a heap, which leaves `parts` in its place (none, one smaller heap, or a split).
    Take {
        /// The heap, from 0.
        heap: u32,
        /// The heaps left in its place.
        parts: Vec<u32>,
    },
    /// The seeds of one of the mover's pits sown ([`Layout::Pits`]).
    Sow {
        /// The pit, from 0, in the mover's sowing order.
        pit: u32,
    },
    /// An edge drawn between two neighbouring dots ([`Layout::Edges`]).
    Edge {
        /// The edge, in the layout's numbering (the horizontal edges, then the vertical ones).
        edge: u32,
    },
    /// A button beside the board, labelled by the move's text: every move of a [`Layout::Panel`] (an outcome
    /// of chance too), a move that is made nowhere on a board (Othello's pass).
    Choice,
}

/// How a game shows its positions and moves on a board.
///
/// Contract: a [`Layout::Grid`] has `rows * columns` cells and labels either none or one per column (row), a
/// [`Layout::Pits`] two rows of one length, a [`Layout::Edges`] `(rows + 1) * columns + rows * (columns + 1)`
/// edges and `rows * columns` boxes; every legal move of a position has a [`BoardMove`] within the board
/// (cells below `rows * columns`, columns below `columns`, heaps below the number of heaps, pits below the
/// length of a row, edges below the number of edges and not drawn yet; every move of a [`Layout::Panel`] a
/// [`BoardMove::Choice`]), and two legal moves of one
/// position never have the same place other than a choice, nor the same text, so that a click names one move.
/// Checked by [`check_board_form`].
pub trait BoardForm: Rules {
    /// The position as a board.
    fn board(&self, position: &Self::Position) -> Board;

    /// Where the legal move `mv` of `position` is made on the board.
    fn board_move(&self, position: &Self::Position, mv: &Self::Move) -> BoardMove;
}

/// A position's board with the place of each legal move on it: what the explorer's page draws.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardView {
    /// The board.
    #[serde(flatten)]
    pub board: Board,
    /// Every legal move, in the game's order, with its place on the board.
    pub moves: Vec<PlacedMove>,
}

/// A legal move and where it is made on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlacedMove {
    /// The move's text.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its place.
    pub place: BoardMove,
}

/// The board of `position` in `game` (with a text form) and the places of its legal moves.
pub fn board_view<Ruleset: BoardForm + TextForm>(game: &Ruleset, position: &Ruleset::Position) -> BoardView {
    let moves = game
        .legal_moves(position)
        .iter()
        .map(|mv| PlacedMove { mv: game.render_move(position, mv), place: game.board_move(position, mv) })
        .collect();
    BoardView { board: game.board(position), moves }
}

/// Checks [`BoardForm`]'s contract at `position`: the grid's size and labels, every legal move's place within
/// the board, no two moves at one place, and (on any board but heaps) whose turn it is. `Err` says what is
/// wrong (a bug in the game).
pub fn check_board_form<Ruleset: BoardForm + TextForm>(game: &Ruleset, position: &Ruleset::Position) -> Result<()> {
    let view = board_view(game, position);
    if view.board.to_move.is_none() && !matches!(view.board.layout, Layout::Heaps { .. }) {
        return Err(Error::Contract {
            contract: "BoardForm",
            detail: "a board that does not say who is to move".into(),
        });
    }
    check_board_view(&view)
}

/// Checks a board and its moves against [`BoardForm`]'s contract: the grid's size and labels, the rows of pits,
/// the counts of edges and boxes, every move's place within the board (an edge's among those not drawn yet), no
/// two moves at one place (a [`BoardMove::Choice`] is told apart by the move's text) and no two
/// moves of one text.
pub fn check_board_view(view: &BoardView) -> Result<()> {
    let broken = |detail: String| Error::Contract { contract: "BoardForm", detail };
    // What a place may name: the cells, columns, heaps, pits and undrawn edges of the board (none of those it
    // does not have).
    let mut open_edges: &[Option<Player>] = &[];
    let (cells, columns, heaps, pits) = match &view.board.layout {
        Layout::Grid { rows, columns, cells, column_labels, row_labels, .. } => {
            if cells.len() as u64 != u64::from(*rows) * u64::from(*columns) {
                return Err(broken(format!("{} cells on a grid of {rows} x {columns}", cells.len())));
            }
            if !(column_labels.is_empty() || column_labels.len() == *columns as usize)
                || !(row_labels.is_empty() || row_labels.len() == *rows as usize)
            {
                return Err(broken("labels that are neither none nor one per row or column".into()));
            }
            (cells.len() as u64, u64::from(*columns), 0, 0)
        }
        Layout::Heaps { heaps } => (0, 0, heaps.len() as u64, 0),
        Layout::Pits { pits, .. } => {
            if pits[0].len() != pits[1].len() {
                return Err(broken(format!("rows of {} and {} pits", pits[0].len(), pits[1].len())));
            }
            (0, 0, 0, pits[0].len() as u64)
        }
        Layout::Edges { rows, columns, edges, boxes } => {
            let (rows, columns) = (u64::from(*rows), u64::from(*columns));
            let expected = (rows + 1) * columns + rows * (columns + 1);
            if edges.len() as u64 != expected || boxes.len() as u64 != rows * columns {
                return Err(broken(format!(
                    "{} edges and {} boxes on a board of {rows} x {columns} boxes ({expected} edges)",
                    edges.len(),
                    boxes.len()
                )));
            }
            open_edges = edges;
            (0, 0, 0, 0)
        }
        Layout::Panel { .. } => (0, 0, 0, 0),
    };
    let (mut places, mut texts) = (Vec::new(), Vec::new());
    for PlacedMove { mv, place } in &view.moves {
        let within = match place {
            BoardMove::Place { cell } => u64::from(*cell) < cells,
            BoardMove::Drop { column } => u64::from(*column) < columns,
            BoardMove::Step { from, to } => u64::from(*from) < cells && to.is_none_or(|to| u64::from(to) < cells),
            BoardMove::Take { heap, .. } => u64::from(*heap) < heaps,
            BoardMove::Sow { pit } => u64::from(*pit) < pits,
            BoardMove::Edge { edge } => open_edges.get(*edge as usize).is_some_and(Option::is_none),
            BoardMove::Choice => true,
        };
        if !within {
            return Err(broken(format!("move {mv} is made at {place:?}, outside the board")));
        }
        if *place != BoardMove::Choice && places.contains(&place) {
            return Err(broken(format!("two moves are made at {place:?}")));
        }
        if texts.contains(&mv) {
            return Err(broken(format!("two moves are written `{mv}`")));
        }
        places.push(place);
        texts.push(mv);
    }
    Ok(())
}
