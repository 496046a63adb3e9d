//! The `fast` solver's engine: the framework's [`GrundyEngine`] over [`RectangleGame`], with one table kept
//! across the cases of an input (free-rectangle nimbers stay, per-grid entries are dropped between cases), and
//! the winning opening lines for the `witness` option.

use super::grid::Grid;
use super::rectangles::{is_shared_key, Opening, RectangleGame};
use ludus_framework::engines::grundy::GrundyEngine;
use ludus_framework::Statistics;
use ludus_framework::{Result, Stats};

/// A winning opening line: `moves` colonies of type `colony` placed anywhere on `line` (1-based) all win.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct WinningLine {
    /// `H` (a row), `V` (a column), or `H or V` on a 1 x 1 grid.
    pub colony: &'static str,
    /// The line, for example `row 3`.
    pub line: String,
    /// The number of opening moves on it (its cells; 2 on a 1 x 1 grid).
    pub moves: u64,
}

/// What the `fast` solver finds on one grid: the count and the nimber come from one table but are computed
/// apart (the self-check compares them).
pub(super) struct Solution {
    /// Becca's winning openings.
    pub(super) count: u64,
    /// The nimber of the whole grid: 0 exactly when Becca loses.
    pub(super) nimber: u32,
    /// The winning lines, when asked for.
    pub(super) lines: Option<Vec<WinningLine>>,
}

/// The `fast` solver's state: one Grundy table kept across the cases of an input (free-rectangle nimbers stay,
/// per-grid entries are dropped between cases).
#[derive(Clone, Debug, Default)]
pub struct FastSolver {
    engine: GrundyEngine<u32>,
}

impl FastSolver {
    /// A solver with an empty table and no budget.
    pub fn new() -> Self {
        FastSolver { engine: GrundyEngine::new() }
    }

    /// A solver that gives up on a grid with an [`ludus_framework::Error::Budget`] when solving it would expand
    /// more than `positions` rectangles (`--max-positions`) or its table would take more than `bytes` bytes
    /// (`--table-mb`).
    pub fn with_budgets(positions: u64, bytes: usize) -> Self {
        FastSolver { engine: GrundyEngine::new().with_budget(positions).with_memory(bytes) }
    }

    /// The nimber of the whole grid (0 exactly when Becca, moving first, loses).
    pub fn nimber(&mut self, grid: &Grid) -> Result<u32> {
        self.engine.retain(is_shared_key);
        let game = RectangleGame::new(grid)?;
        self.engine.try_nimber(&game, &game.whole())
    }

    /// The number of Becca's winning opening moves (cell + colony type), 0 if she loses.
    pub fn winning_openings(&mut self, grid: &Grid) -> Result<u64> {
        Ok(self.solve(grid)?.0)
    }

    /// The number of Becca's winning openings and the nimber of the whole grid.
    pub fn solve(&mut self, grid: &Grid) -> Result<(u64, u32)> {
        let solution = self.solve_case(grid, false)?;
        Ok((solution.count, solution.nimber))
    }

    /// Becca's winning openings grouped by the line they fill (all the cells of a winning row or column win
    /// alike), in the order rows then columns; empty when she loses.
    pub fn winning_lines(&mut self, grid: &Grid) -> Result<Vec<WinningLine>> {
        Ok(self.solve_case(grid, true)?.lines.unwrap_or_default())
    }

    /// The count, the nimber and (if `with_lines`) the winning lines of one grid, from one table.
    pub(super) fn solve_case(&mut self, grid: &Grid, with_lines: bool) -> Result<Solution> {
        self.engine.retain(is_shared_key);
        let game = RectangleGame::new(grid)?;
        let whole = game.whole();
        // The count computes the nimbers of the whole grid and of every part an opening leaves: the nimber and
        // the lines below only read the table, so the budgets of this one call are the grid's.
        let count = self.engine.try_winning_moves(&game, &[whole])?;
        let nimber = self.engine.try_nimber(&game, &whole)?;
        if !with_lines {
            return Ok(Solution { count, nimber, lines: None });
        }
        let mut lines = Vec::new();
        let engine = &mut self.engine;
        game.for_each_option(&whole, &mut |parts, moves, opening| {
            if parts.iter().fold(0, |acc, part| acc ^ engine.nimber(&game, part)) == 0 {
                let (colony, line) = match opening {
                    Opening::Row(row) => ("H", format!("row {}", u32::from(row) + 1)),
                    Opening::Column(column) => ("V", format!("column {}", u32::from(column) + 1)),
                    Opening::Cell => ("H or V", "the only cell".to_string()),
                };
                lines.push(WinningLine { colony, line, moves });
            }
        });
        Ok(Solution { count, nimber, lines: Some(lines) })
    }

    /// The statistics of the Grundy engine.
    pub fn stats(&self) -> Stats {
        self.engine.stats()
    }
}
