//! The `generic` solver: the rules as they are written, a plain [`Game`] over sets of filled cells
//! ([`SpreadGame`], a `u128` bitmask), memoized negamax and the winning openings counted move by move
//! (mutating moves included: they end the game with a loss for their mover).

use super::grid::Grid;
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::table::{mib, KeyedTable, DEFAULT_TABLE_MB};
use ludus_framework::Rules;
use ludus_framework::Statistics;
use ludus_framework::{Budget, Canonicalize, Error, Game, Result, SearchHints, Stats, Value};

/// The number of cells the `generic` solver accepts without `--no-limit` (a 4 x 4 grid).
pub const GENERIC_CELLS: usize = 16;

/// The number of cells the `generic` solver can represent at all (its `u128` bitmask).
pub const GENERIC_HARD_CELLS: usize = 128;

/// A colony type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colony {
    /// H: spreads west and east.
    Horizontal,
    /// V: spreads north and south.
    Vertical,
}

/// A move of the generic game: a colony placed on an empty cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The cell's row.
    pub row: u8,
    /// The cell's column.
    pub column: u8,
    /// The colony type.
    pub colony: Colony,
}

/// A position of the generic game: the filled cells (bit `row * C + column`), and whether the last colony
/// mutated (which ends the game, lost for the player who placed it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The cells holding bacteria.
    pub filled: u128,
    /// Whether the last move mutated.
    pub mutated: bool,
}

/// Bacterial Tactics as a plain two-player [`Game`] over sets of filled cells, for grids of at most
/// [`GENERIC_HARD_CELLS`] cells. Every empty cell offers an H and a V move; a move whose spread would enter a
/// radioactive cell is a legal move that ends the game with a loss for its mover.
#[derive(Clone, Debug)]
pub struct SpreadGame {
    rows: usize,
    columns: usize,
    radioactive: u128,
    full: u128,
}

impl SpreadGame {
    /// The game on `grid`; an [`Error::Limit`] if the grid has more than [`GENERIC_HARD_CELLS`] cells.
    pub fn new(grid: &Grid) -> Result<Self> {
        let cells = grid.rows * grid.columns;
        if cells > GENERIC_HARD_CELLS {
            return Err(Error::limit_lifted(
                "grid cells for the generic solver (its u128 bitmask)",
                cells as u64,
                GENERIC_HARD_CELLS as u64,
                vec![ludus_framework::Remedy::Advice("use the `fast` solver".into())],
            ));
        }
        let mut radioactive = 0u128;
        for row in 0..grid.rows {
            for column in 0..grid.columns {
                if grid.is_radioactive(row, column) {
                    radioactive |= 1u128 << (row * grid.columns + column);
                }
            }
        }
        let full = if cells == 128 { u128::MAX } else { (1u128 << cells) - 1 };
        Ok(SpreadGame { rows: grid.rows, columns: grid.columns, radioactive, full })
    }

    /// The starting position: nothing filled.
    pub fn start(&self) -> Board {
        Board { filled: 0, mutated: false }
    }

    fn bit(&self, row: usize, column: usize) -> u128 {
        1u128 << (row * self.columns + column)
    }
}

impl Rules for SpreadGame {
    type Position = Board;
    type Move = Placement;
    type Outcome = Value;

    fn moves(&self, board: &Board, moves: &mut Vec<Placement>) {
        if board.mutated {
            return;
        }
        let occupied = board.filled | self.radioactive;
        for row in 0..self.rows {
            for column in 0..self.columns {
                if occupied & self.bit(row, column) == 0 {
                    for colony in [Colony::Horizontal, Colony::Vertical] {
                        moves.push(Placement { row: row as u8, column: column as u8, colony });
                    }
                }
            }
        }
    }

    fn play(&self, board: &Board, placement: &Placement) -> Board {
        let (row, column) = (usize::from(placement.row), usize::from(placement.column));
        let mut filled = board.filled | self.bit(row, column);
        // The cells the spread walks through, in both directions, from next to the placed cell outwards.
        let walks: [Vec<(usize, usize)>; 2] = match placement.colony {
            Colony::Horizontal => {
                [(0..column).rev().map(|c| (row, c)).collect(), (column + 1..self.columns).map(|c| (row, c)).collect()]
            }
            Colony::Vertical => {
                [(0..row).rev().map(|r| (r, column)).collect(), (row + 1..self.rows).map(|r| (r, column)).collect()]
            }
        };
        for walk in &walks {
            for &(r, c) in walk {
                let bit = self.bit(r, c);
                if board.filled & bit != 0 {
                    break;
                }
                if self.radioactive & bit != 0 {
                    return Board { filled: board.filled, mutated: true };
                }
                filled |= bit;
            }
        }
        Board { filled, mutated: false }
    }

    fn outcome(&self, board: &Board) -> Option<Value> {
        if board.mutated {
            // The player who placed the last colony lost: the player to move has won.
            Some(Value::Win(0))
        } else if (board.filled | self.radioactive) == self.full {
            Some(Value::LOST)
        } else {
            None
        }
    }
}

impl Game for SpreadGame {}

/// No hints: the rules as written, searched move by move.
impl SearchHints for SpreadGame {}

impl Canonicalize for SpreadGame {
    type Key = Board;

    fn canonical(&self, board: &Board) -> Board {
        *board
    }
}

/// The number of Becca's winning openings on `grid` by memoized negamax over [`SpreadGame`], counted move by
/// move as [`ludus_framework::analysis::count_winning_moves`] does, and the value of the start for Becca. No
/// size check beyond the bitmask's (see [`GENERIC_CELLS`]), no positions budget, a table of the default budget.
pub fn generic_winning_openings(grid: &Grid) -> Result<(u64, Value, Stats)> {
    generic_winning_openings_within(grid, u64::MAX, mib(DEFAULT_TABLE_MB))
}

/// [`generic_winning_openings`] expanding at most `positions` positions in all (`--max-positions`; past it an
/// [`Error::Budget`] naming that budget), over a table of `table_bytes` bytes (`--table-mb`; the table is
/// lossy, so a small one only makes the search slower).
pub fn generic_winning_openings_within(grid: &Grid, positions: u64, table_bytes: usize) -> Result<(u64, Value, Stats)> {
    let game = SpreadGame::new(grid)?;
    let budget = positions;
    let start = game.start();
    let openings: Vec<Board> = if game.is_over(&start) {
        Vec::new()
    } else {
        game.legal_moves(&start).iter().map(|placement| game.play(&start, placement)).collect()
    };
    // Each search gets what is left of the case's budget, so the case as a whole expands at most `budget`
    // positions.
    let mut engine = MemoNegamax::with_table(Mode::Outcome, KeyedTable::new(table_bytes));
    let mut winning = 0u64;
    for opening in &openings {
        let left = budget.saturating_sub(engine.stats().visited);
        engine = engine.with_budget(left);
        if within(engine.try_value(&game, opening), budget)?.backed_up().is_win() {
            winning += 1;
        }
    }
    // Every opening is in the table by now: the start's own value costs at most one expansion.
    let left = budget.saturating_sub(engine.stats().visited);
    engine = engine.with_budget(left);
    let value = within(engine.try_value(&game, &start), budget)?;
    Ok((winning, value, engine.stats()))
}

/// A search's result, where running out of what was left of the case's budget reports the whole `budget`.
fn within(found: Result<Value>, budget: u64) -> Result<Value> {
    found.map_err(|error| match error {
        Error::Budget(Budget::Positions(_)) => Error::Budget(Budget::Positions(budget)),
        error => error,
    })
}
