//! The `bacterial-tactics` plugin (Code Jam 2019 Round 1C): an impartial game on a grid with radioactive cells.
//!
//! A move places an H colony (spreading west and east) or a V colony (north and south) on an empty cell; the
//! spread stops at the grid edge or at cells that already hold bacteria, and a spread that would enter a
//! radioactive cell mutates: the mover loses at once. The answer is the number of Becca's winning opening moves
//! (a move is a cell and a colony type), or 0 if she loses.
//!
//! ## Files
//! - `grid.rs`: [`Grid`], one grid of the input; `format.rs`: the input format ([`parse`], [`read_input`]) and
//!   the answer of one case (one integer).
//! - `rectangles.rs`: the game as an [`ludus_framework::Impartial`] sum of sub-rectangles ([`RectangleGame`]);
//!   `fast.rs`: [`FastSolver`], the framework's Grundy engine over it with a table kept between cases.
//! - `generic.rs`: the rules as written, a plain [`ludus_framework::Game`] over sets of filled cells
//!   ([`SpreadGame`]), searched by memoized negamax.
//! - `plugin.rs`: [`BacterialTactics`], the solver table, the typed answer [`OpeningsAnswer`], the self-check,
//!   the judge and the generator.
//!
//! ## Solvers
//! - `fast`: the game as a sum of sub-rectangles under the framework's Grundy engine. A legal move fills a whole
//!   row (or column) of its rectangle and splits it into at most two rectangles; row and column legality is one
//!   table read; the nimbers of rectangles free of radioactive cells depend only on their (unordered) size, so
//!   their keys are shared by every position and every case. Grids up to [`MAX_SIDE`] x [`MAX_SIDE`].
//! - `parallel`: the `fast` solver on the cases of a file at once, one [`FastSolver`] per worker of
//!   `--threads` workers (the driver's run over cases). (The framework's `ParallelGrundy`, in waves of all
//!   rectangles by height + width, was measured in its place on one grid: 15 to 50 times slower than `fast` on
//!   60 x 60 grids.)
//! - `generic`: memoized negamax over [`SpreadGame`] (a `u128` bitmask) and the winning openings counted move
//!   by move (mutating moves included: they end the game with a loss for their mover); up to [`GENERIC_CELLS`]
//!   cells unless `--no-limit`, and never past [`GENERIC_HARD_CELLS`].
//!
//! `--max-positions` bounds the positions (rectangles for `fast` and `parallel`) a solver expands for one grid,
//! and `--table-mb` the table of each engine (past it the Grundy engine gives up; negamax's lossy table only
//! slows down); running out of either is a budget error, never a wrong count.
//!
//! Every answer is checked before it is returned: the count is at most 2 per empty cell and positive exactly
//! when the solver's value of the whole grid (its nimber, or negamax value) says Becca wins, and the winning
//! lines of the `witness` option hold exactly that many moves. The judge re-solves each grid with the fast solver.

mod fast;
mod format;
mod generic;
mod grid;
mod plugin;
mod rectangles;

pub use fast::{FastSolver, WinningLine};
pub use format::{parse, read_input, Parsed, MAX_CASES, MAX_SIDE};
pub use generic::{
    generic_winning_openings, generic_winning_openings_within, Board, Colony, Placement, SpreadGame, GENERIC_CELLS,
    GENERIC_HARD_CELLS,
};
pub use grid::Grid;
pub use plugin::{BacterialTactics, OpeningsAnswer};
pub use rectangles::{is_shared_key, Rectangle, RectangleGame};
