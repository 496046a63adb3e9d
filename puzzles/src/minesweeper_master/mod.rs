//! # Minesweeper Master (Code Jam 2014 Qualification Round C)
//!
//! Place M mines on an R x C grid and pick a cell so that one click reveals every safe cell, or prove that no
//! such layout exists. Any valid board is a right answer: solvers agree on whether one exists
//! (`POSSIBLE`/`IMPOSSIBLE`, [`ludus_framework::plugin::Problem::class_of`]), not on the board.
//!
//! - `board.rs`: the [`Instance`], the proposed [`Board`] and [`MinesweeperPuzzle`]'s [`Verify`]: right size,
//!   only `*`, `.` and `c`, exactly M mines, exactly one click, and a flood fill from the click reveals every
//!   safe cell.
//! - `fast.rs`: its [`Construct`] (the `fast` solver), the analysis's case analysis phrased as a "staircase" of
//!   safe cells in the top-left corner (see [`staircase`]); linear in the size of the board, up to
//!   [`MAX_CELLS`] cells.
//! - `generic.rs`: its [`Enumerate`] (every mine layout with every safe click) and the `generic` solver, brute
//!   force over it: exhaustive on boards of at most [`GENERIC_MAX_CELLS`] cells (or with `--no-limit`); on
//!   larger boards it tries the first [`GENERIC_LAYOUT_BUDGET`] mine layouts and reports an
//!   `Error::Budget(Budget::Positions(..))` if none is valid (see [`layout_budget`]; `--max-positions` sets
//!   the budget for every board). Its cost, unless `--no-limit`: up front, a case whose worst case (every
//!   layout it may try, each click verified over the board) passes [`GENERIC_CASE_WORK`] work units is refused;
//!   during the search, the work actually spent on the input (`cells` per layout and per click verified) is
//!   counted, and the input stops with a limit error once it passes [`GENERIC_WORK_BUDGET`] (a found board
//!   ends a case early, so the sum of worst cases would refuse inputs that take a fraction of a second).
//! - `backtrack.rs`: the `backtrack` solver, the analysis's row-by-row search over left-aligned mine rows (see
//!   [`backtrack_within`]), up to [`BACKTRACK_MAX_CELLS`] cells unless `--no-limit` and
//!   [`BACKTRACK_MAX_NODES`] search nodes unless `--max-positions` says otherwise.
//! - `format.rs`: the input (T, then R C M per case; [`parse_input`]) and the typed [`Answer`] (printed as
//!   `Impossible` or the board's rows, JSON with the case's size, `possible`, `board` and `click`).
//! - `plugin.rs`: [`MinesweeperMaster`], the [`ludus_framework::plugin::Problem`]: the solver table, the
//!   judge, the corruption of right answers and the generator.
//!
//! An `Impossible` answer is judged against the fast constructor, and also against brute force on boards of
//! at most [`VERIFY_BRUTE_FORCE_MAX_CELLS`] cells: if a valid board exists the claim is rejected.
//!
//! [`Verify`]: ludus_framework::Verify
//! [`Construct`]: ludus_framework::Construct
//! [`Enumerate`]: ludus_framework::Enumerate

mod backtrack;
mod board;
mod fast;
mod format;
mod generic;
mod plugin;

pub use backtrack::{backtrack, backtrack_within, BACKTRACK_MAX_CELLS, BACKTRACK_MAX_NODES};
pub use board::{Board, Instance, MinesweeperPuzzle, CLICK, MINE, SAFE};
pub use fast::staircase;
pub use format::{parse_answer, parse_input, Answer, Parsed, MAX_CASES, MAX_CELLS, MAX_TOTAL_CELLS};
pub use generic::{
    generic, layout_budget, GenericSearcher, GENERIC_LAYOUT_BUDGET, GENERIC_MAX_CELLS, GENERIC_WORK_BUDGET,
};
pub use plugin::{judge, MinesweeperMaster, GENERIC_CASE_WORK, VERIFY_BRUTE_FORCE_MAX_CELLS};
