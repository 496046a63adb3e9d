//! Adjacent and Consecutive as framework [`Game`]s over full boards: [`GenericGame`] (every legal move, no
//! shortcut, identity canonicalization) and [`FastGame`] (shortcuts, a compressed [`FastKey`], and only the moves
//! that can matter).
//!
//! [`FastGame`] rests on the analysis's observation: a placed tile that can never join a pair ("dead": no empty
//! neighbouring cell, or no unused neighbouring number) is just a wall. A state without a pair and with no live
//! tile is therefore the two multisets of run lengths (empty cells, unused numbers); a state with exactly one live
//! tile adds the lengths of the runs that touch it. Reversing the row, reversing the numbers, and swapping the
//! roles of cells and numbers are symmetries, so the key sorts each side and keeps the smaller of the two
//! orientations.

use super::board::{Board, Placement, Run};
use ludus_framework::Rules;
use ludus_framework::{Canonicalize, Game, SearchHints, Shortcut, Value};

/// The value of a finished board for the player to move.
fn final_value(board: &Board) -> Value {
    if board.has_pair() == board.a_to_move() {
        Value::Win(0)
    } else {
        Value::LOST
    }
}

/// Every legal placement, tile-major (tiles and cells increasing).
fn all_moves(board: &Board, moves: &mut Vec<Placement>) {
    let cells: Vec<u32> = board.empty_cells().collect();
    for tile in board.unused_tiles() {
        moves.extend(cells.iter().map(|&cell| Placement { tile, cell }));
    }
}

/// The game over full boards with every legal move and no shortcut: the reference.
#[derive(Clone, Copy, Debug, Default)]
pub struct GenericGame;

impl Rules for GenericGame {
    type Position = Board;
    type Move = Placement;
    type Outcome = Value;

    fn moves(&self, board: &Board, moves: &mut Vec<Placement>) {
        if !board.is_full() {
            all_moves(board, moves);
        }
    }

    fn is_legal(&self, board: &Board, placement: &Placement) -> bool {
        board.placed() < board.size() && board.is_legal(*placement)
    }

    fn play(&self, board: &Board, placement: &Placement) -> Board {
        board.with(*placement)
    }

    fn outcome(&self, board: &Board) -> Option<Value> {
        board.is_full().then(|| final_value(board))
    }
}

impl Game for GenericGame {}

/// The reference game: no hints.
impl SearchHints for GenericGame {}

impl Canonicalize for GenericGame {
    type Key = Board;

    fn canonical(&self, board: &Board) -> Board {
        board.clone()
    }
}

/// B's quiet placements, one per class of equal effect. A placement whose tile keeps an unused neighbouring
/// number and whose cell keeps an empty neighbour leaves that tile live, so a quiet placement either kills the
/// first live tile (fills its empty neighbouring cell or uses its unused neighbouring number) or, with no live
/// tile, puts a tile whose run is a single number, or goes into a cell whose run is a single cell. After a quiet
/// placement the board is a [`FastKey::Quiet`] key: the multisets of run lengths with the tile's run and the
/// cell's run split at the placement, so placements at the same (run length, distance to the nearer end) on
/// both sides are equal and one of each class is kept.
pub(crate) fn quiet_b_moves(board: &Board, live: &[Placement], moves: &mut Vec<Placement>) {
    let tile_runs = board.run_index(false);
    let cell_runs = board.run_index(true);
    let tiles: Vec<u32> = board.unused_tiles().collect();
    let cells: Vec<u32> = board.empty_cells().collect();
    let (near_tiles, near_cells): (Vec<u32>, Vec<u32>) = match live.first() {
        Some(first) => (
            [first.tile.wrapping_sub(1), first.tile + 1].into_iter().filter(|&t| board.tile_unused(t)).collect(),
            [first.cell.wrapping_sub(1), first.cell + 1].into_iter().filter(|&c| board.cell_empty(c)).collect(),
        ),
        None => (
            tiles.iter().copied().filter(|&tile| tile_runs.class(tile).0 == 1).collect(),
            cells.iter().copied().filter(|&cell| cell_runs.class(cell).0 == 1).collect(),
        ),
    };
    let mut seen: Vec<[u32; 4]> = Vec::new();
    let mut consider = |tile: u32, cell: u32| {
        let (tile_class, cell_class) = (tile_runs.class(tile), cell_runs.class(cell));
        let class = [tile_class.0, tile_class.1, cell_class.0, cell_class.1];
        if !seen.contains(&class) && is_quiet(board, live, Placement { tile, cell }) {
            seen.push(class);
            moves.push(Placement { tile, cell });
        }
    };
    for &tile in &near_tiles {
        cells.iter().for_each(|&cell| consider(tile, cell));
    }
    for &cell in &near_cells {
        tiles.iter().for_each(|&tile| consider(tile, cell));
    }
}

/// The game over full boards with the analysis's shortcuts ("already won", "can win now", "can win in two"),
/// the compressed [`FastKey`], and pruned move lists:
///
/// - A, with no pair and no live tile on the board: one move per class of equivalent moves (a tile is known by
///   the length of its run and its distance to the nearer end; a cell likewise);
/// - B: only the moves after which A has no pair and no live tile, one per class of equal effect
///   (`quiet_b_moves`), unless there is none (then all moves, which the engines cut to one by `prune_moves`).
///
/// Every pruned move is equivalent to a kept one or loses for its player, so values are those of
/// [`GenericGame`].
#[derive(Clone, Copy, Debug, Default)]
pub struct FastGame;

/// Whether A wins by a shortcut from an A-to-move board: a pair, a live tile, or "can win in two" (a run of three
/// unused numbers and a run of three empty cells).
pub fn a_shortcut_win(board: &Board) -> bool {
    board.has_pair() || board.has_live_tile() || (board.has_long_cell_run() && board.has_long_tile_run())
}

/// Whether `placement` leaves A without an immediate win: no pair, and no tile (the new one, or one of the
/// currently `live`) still live afterwards.
pub fn is_quiet(board: &Board, live: &[Placement], placement: Placement) -> bool {
    let Placement { tile, cell } = placement;
    if board.makes_pair(placement) {
        return false;
    }
    let empty_after = |at: u32| at != cell && board.cell_empty(at);
    let unused_after = |number: u32| number != tile && board.tile_unused(number);
    let live_after = |number: u32, at: u32| {
        (empty_after(at.wrapping_sub(1)) || empty_after(at + 1))
            && (unused_after(number.wrapping_sub(1)) || unused_after(number + 1))
    };
    !live_after(tile, cell) && live.iter().all(|old| !live_after(old.tile, old.cell))
}

/// One representative (start + offset) per class of run positions: per distinct run length, the offsets from 0
/// to the middle.
fn representatives(runs: &[Run]) -> Vec<u32> {
    let mut seen: Vec<u32> = Vec::new();
    let mut chosen = Vec::new();
    for run in runs {
        if seen.contains(&run.length) {
            continue;
        }
        seen.push(run.length);
        chosen.extend((0..run.length.div_ceil(2)).map(|offset| run.start + offset));
    }
    chosen
}

impl Rules for FastGame {
    type Position = Board;
    type Move = Placement;
    type Outcome = Value;

    fn moves(&self, board: &Board, moves: &mut Vec<Placement>) {
        if board.is_full() {
            return;
        }
        if board.has_pair() {
            all_moves(board, moves);
            return;
        }
        let live = board.live_tiles();
        if board.a_to_move() {
            if live.is_empty() {
                let tiles = representatives(&board.tile_runs());
                let cells = representatives(&board.cell_runs());
                for &tile in &tiles {
                    moves.extend(cells.iter().map(|&cell| Placement { tile, cell }));
                }
            } else {
                all_moves(board, moves);
            }
            return;
        }
        quiet_b_moves(board, &live, moves);
        if moves.is_empty() {
            all_moves(board, moves);
        }
    }

    fn is_legal(&self, board: &Board, placement: &Placement) -> bool {
        GenericGame.is_legal(board, placement)
    }

    fn play(&self, board: &Board, placement: &Placement) -> Board {
        GenericGame.play(board, placement)
    }

    fn outcome(&self, board: &Board) -> Option<Value> {
        GenericGame.outcome(board)
    }
}

impl Game for FastGame {}

/// The analysis's shortcuts: A to move with a pair, a live tile or "can win in two" wins; B to move with a pair
/// on the board loses.
impl SearchHints for FastGame {
    fn shortcut(&self, board: &Board) -> Option<Shortcut> {
        if board.is_full() {
            return None;
        }
        // Every game lasts exactly `remaining` more turns, so the remoteness of a decided value is known.
        let remaining = board.remaining();
        let value = if board.a_to_move() {
            a_shortcut_win(board).then_some(Value::Win(remaining))
        } else {
            board.has_pair().then_some(Value::Lose(remaining))
        };
        value.map(Shortcut::Outcome)
    }
    /// At B's turn with no quiet placement (the list then holds every placement), every placement hands A a
    /// pair or a live tile: all lose alike (every game lasts the same number of turns), so one stands for all.
    fn prune_moves(&self, board: &Board, moves: &mut Vec<Placement>) {
        if board.a_to_move() || board.has_pair() {
            return;
        }
        if moves.first().is_some_and(|&first| !is_quiet(board, &board.live_tiles(), first)) {
            moves.truncate(1);
        }
    }
}

/// The memo key of [`FastGame`]. Equal keys mean equal values: see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FastKey {
    /// A pair is on the board: A has won; only the turns left and the side to move matter.
    Decided {
        /// Whether A is to move.
        a_to_move: bool,
        /// Turns left.
        remaining: u32,
    },
    /// No pair, no live tile: the sorted run lengths of one side and of the other (cells and numbers, in the
    /// orientation that compares smaller).
    Quiet {
        /// Whether A is to move.
        a_to_move: bool,
        /// Sorted run lengths of the first side.
        first: Vec<u32>,
        /// Sorted run lengths of the second side.
        second: Vec<u32>,
    },
    /// No pair, exactly one live tile: the runs that do not touch it, and the lengths of the (up to) two runs of
    /// each side that touch it (sorted, 0 for none).
    OneLive {
        /// Whether A is to move.
        a_to_move: bool,
        /// Sorted lengths of the first side's runs not touching the live tile.
        first: Vec<u32>,
        /// Sorted lengths of the second side's runs not touching the live tile.
        second: Vec<u32>,
        /// The first side's runs touching the live tile.
        first_touching: [u32; 2],
        /// The second side's runs touching the live tile.
        second_touching: [u32; 2],
    },
    /// Anything else (several live tiles): the smallest of the board's symmetric images.
    Full(Board),
}

/// Splits `runs` into the sorted lengths of those not touching `at` and the sorted lengths of the two touching it
/// (the run ending at `at - 1` and the one starting at `at + 1`).
fn split_touching(runs: &[Run], at: u32) -> (Vec<u32>, [u32; 2]) {
    let mut touching = [0, 0];
    let mut rest = Vec::with_capacity(runs.len());
    for run in runs {
        if run.start + run.length == at {
            touching[0] = run.length;
        } else if run.start == at + 1 {
            touching[1] = run.length;
        } else {
            rest.push(run.length);
        }
    }
    rest.sort_unstable();
    touching.sort_unstable();
    (rest, touching)
}

impl Canonicalize for FastGame {
    type Key = FastKey;

    fn canonical(&self, board: &Board) -> FastKey {
        let a_to_move = board.a_to_move();
        if board.has_pair() {
            return FastKey::Decided { a_to_move, remaining: board.remaining() };
        }
        let live = board.live_tiles();
        match live.as_slice() {
            [] => {
                let cells = board.run_lengths(true);
                let tiles = board.run_lengths(false);
                let (first, second) = if cells <= tiles { (cells, tiles) } else { (tiles, cells) };
                FastKey::Quiet { a_to_move, first, second }
            }
            [only] => {
                let cells = split_touching(&board.cell_runs(), only.cell);
                let tiles = split_touching(&board.tile_runs(), only.tile);
                let ((first, first_touching), (second, second_touching)) =
                    if (&cells.0, cells.1) <= (&tiles.0, tiles.1) { (cells, tiles) } else { (tiles, cells) };
                FastKey::OneLive { a_to_move, first, second, first_touching, second_touching }
            }
            _ => FastKey::Full(board.images().into_iter().min().unwrap_or_else(|| board.clone())),
        }
    }
}
