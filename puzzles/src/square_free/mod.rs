//! The `square-free` plugin (Code Jam 2021 Round 3, "Square Free"): fill an R x C grid with the diagonals `/`
//! and `\` so that row i holds exactly S_i `/`, column j exactly D_j `/`, and the diagonals draw no square.
//!
//! # Ruleset
//! A square of side k has its top corner between columns c and c+1 at the top of row r: cells (r+i, c-i) are
//! `/` and (r+i, c+1+i) are `\` for i in 0..k, and the lower half closes it: (r+k+i, c-k+1+i) are `\` and
//! (r+k+i, c+k-i) are `/` for i in 0..k. Side 1 is `/\` over `\/`. [`find_square`] finds one in O(R C min(R, C))
//! time with diagonal run lengths; [`is_square`] checks one candidate cell by cell (the independent reference).
//!
//! # Solvers
//! - `fast` ([`construct_lexicographic`]): the lexicographically smallest grid with the right counts (reading `\`
//!   before `/`, row by row), which has no square: a square's top row holds `/\` in the very columns where its
//!   bottom row holds `\/`, and swapping those four cells keeps every count and makes the grid smaller. The grid is
//!   built in two steps: any grid with the counts (Ryser's greedy: each row takes the columns with the largest
//!   remaining demand, which succeeds exactly when some grid exists), then the cells are fixed in reading order by
//!   incremental max-flow: for each `/` the solver looks for an augmenting (alternating) path in the residual
//!   bipartite row/column network among the cells not fixed yet; if one exists the cell can become `\`.
//!   The network is dense and unit-capacity with at most a few hundred nodes per side, so the search is written
//!   here over bitsets (one word covers 64 neighbours) instead of taking a general flow library: a general library
//!   would store R x C edge objects and rebuild them per cell, while the bitset search costs O((R + C)^2 / 64) per
//!   cell (BENCHMARKS.md has its times). The tests check it against
//!   the framework's brute-force engine (through [`Enumerate`](ludus_framework::Enumerate)), the generic solver
//!   and the Gale-Ryser criterion.
//! - `generic` ([`construct_backtracking`]): backtracking cell by cell in reading order (`\` first), pruning on
//!   row and column counts and rejecting a `/` as soon as it closes a square. Because it also tries grids in
//!   lexicographic order, it returns exactly the grid of the fast solver. Limited to [`GENERIC_MAX_CELLS`] cells
//!   unless `SolveOptions::no_limit` (`--no-limit`) is set (a limit of its entry in the solver table).
//!
//! Both solvers work case by case: with `--threads` other than 1 the driver runs several at once over the cases.
//! Every answer passes the self-check: a grid the verifier by the rules, IMPOSSIBLE the Gale-Ryser criterion
//! (it must fail). The judge checks a grid by the rules and refutes IMPOSSIBLE with a grid of the fast solver
//! (or of the generic one on small grids).
//!
//! # Input decisions
//! Counts outside the official ranges (S_i in 0..=C, D_j in 0..=R) are input errors naming the file, line, column
//! and case, not IMPOSSIBLE: the official format promises them, so such a number is a typo to report where it is.
//! Each count list must sit on one line, so a list that is too short or too long is reported on its own line.
//! Well-formed but unsatisfiable counts (sums that differ, or equal sums with no 0/1 matrix) are IMPOSSIBLE.
//! R and C above [`MAX_SIDE`] are [`Error::Limit`](ludus_framework::Error::Limit) errors (they protect memory and
//! time).
//!
//! # Files
//! `grid.rs`: the instance, the grid, squares and the Gale-Ryser criterion. `flow.rs`: the fast solver.
//! `backtracking.rs`: the generic solver. `format.rs`: the input format and the typed answer ([`GridAnswer`]).
//! `generate.rs`: random inputs. `plugin.rs`: the framework traits, the solver table and the judge.

mod backtracking;
mod flow;
mod format;
mod generate;
mod grid;
mod plugin;

pub use backtracking::{construct_backtracking, GENERIC_MAX_CELLS};
pub use flow::construct_lexicographic;
pub use format::{format_input, parse_input, read_answer, GridAnswer, Parsed, MAX_CASES, MAX_SIDE};
pub use generate::{generate_input, OFFICIAL_CASES, OFFICIAL_MAX_SIDE, SMALL_CASES, SMALL_MAX_SIDE};
pub use grid::{find_square, is_square, margins_are_feasible, Grid, Instance, Square};
pub use plugin::SquareFree;
