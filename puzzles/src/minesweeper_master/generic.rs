//! The `generic` solver: brute force over every mine layout and every click (the [`Enumerate`] space that the
//! framework's `brute_force` also searches), with a budget of mine layouts on boards too large to search
//! exhaustively.

use super::board::{touches_mine, Board, Instance, MinesweeperPuzzle, CLICK, MINE, SAFE};
use ludus_framework::plugin::SolveOptions;
use ludus_framework::{Budget, Enumerate, Error, Result, Stats, Verify};
use std::ops::ControlFlow;

/// The largest board (in cells) the `generic` solver searches exhaustively by default: 25 (5 x 5).
pub const GENERIC_MAX_CELLS: u64 = 25;
/// On boards above [`GENERIC_MAX_CELLS`] cells the `generic` solver tries this many mine layouts by default
/// (each with every click): it answers if it finds a valid board among them, and otherwise stops with an
/// `Error::Budget` (it never says `Impossible` without having tried every layout). This lets it solve the
/// bundled sample's 4 x 7 and 10 x 10 cases, whose valid layouts come early in the enumeration.
pub const GENERIC_LAYOUT_BUDGET: u64 = 1_000_000;

impl Enumerate for MinesweeperPuzzle {
    /// Every layout of exactly M mines (subsets in lexicographic order of the cells in reading order), each with
    /// every safe cell as the click (the last cell first). Two kinds of candidates are never solutions and are
    /// not listed: a click on a mine, and (with more than one safe cell) a click next to a mine, which reveals
    /// only itself.
    fn candidates(&self, instance: &Instance, visit: &mut dyn FnMut(&Board) -> ControlFlow<()>) {
        enumerate_layouts(instance, u64::MAX, visit);
    }
}

/// How far an enumeration of layouts went.
struct Enumeration {
    /// The mine layouts whose clicks were visited.
    layouts: u64,
    /// Whether the budget stopped it (rather than the end of the layouts or the visitor).
    cut: bool,
}

/// The enumeration of [`Enumerate::candidates`], stopped after `budget` mine layouts.
fn enumerate_layouts(
    instance: &Instance,
    budget: u64,
    visit: &mut dyn FnMut(&Board) -> ControlFlow<()>,
) -> Enumeration {
    let (rows, columns, mines) = (instance.rows, instance.columns, instance.mines);
    let cells = instance.cells();
    let mut layouts = 0u64;
    if rows == 0 || columns == 0 || mines >= cells {
        return Enumeration { layouts, cut: false };
    }
    let mut chosen: Vec<usize> = (0..mines).collect();
    let mut board = Board { rows: vec![vec![SAFE; columns]; rows] };
    loop {
        if layouts == budget {
            return Enumeration { layouts, cut: true };
        }
        layouts += 1;
        for row in board.rows.iter_mut() {
            row.iter_mut().for_each(|cell| *cell = SAFE);
        }
        for &cell in &chosen {
            board.set(cell / columns, cell % columns, MINE);
        }
        for cell in (0..cells).rev() {
            let (row, column) = (cell / columns, cell % columns);
            let current = board.rows.get(row).and_then(|cells| cells.get(column)).copied();
            if current != Some(SAFE) || (cells - mines > 1 && touches_mine(&board.rows, rows, columns, row, column)) {
                continue;
            }
            board.set(row, column, CLICK);
            let flow = visit(&board);
            board.set(row, column, SAFE);
            if flow.is_break() {
                return Enumeration { layouts, cut: false };
            }
        }
        // The next M-subset of 0..cells in lexicographic order.
        let Some(position) = (0..mines).rev().find(|&index| chosen.get(index) < Some(&(cells - mines + index))) else {
            return Enumeration { layouts, cut: false };
        };
        let first = chosen.get(position).map_or(0, |value| value + 1);
        for (next, slot) in (first..).zip(chosen.iter_mut().skip(position)) {
            *slot = next;
        }
    }
}

/// The most mine layouts the `generic` solver tries on `instance` with `options`: `--max-positions`
/// (`SolveOptions::max_positions`) when given; otherwise every layout on boards of at most [`GENERIC_MAX_CELLS`]
/// cells or with `--no-limit` (`SolveOptions::no_limit`), and [`GENERIC_LAYOUT_BUDGET`] on larger boards.
pub fn layout_budget(instance: &Instance, options: &SolveOptions) -> u64 {
    match options.max_positions {
        Some(budget) => budget,
        None if instance.cells() as u64 <= GENERIC_MAX_CELLS || options.no_limit => u64::MAX,
        None => GENERIC_LAYOUT_BUDGET,
    }
}

/// The `generic` solver: the first valid board among the first `budget` mine layouts (each with every click,
/// in the order of [`Enumerate::candidates`]), as the framework's `brute_force` would find it, which takes no
/// budget. `Ok(None)` (Impossible) only when every layout was tried; an
/// `Error::Budget(Budget::Positions(budget))` when the budget stopped the search (a position of this search is
/// a mine layout). Adds the layouts tried to `stats.visited`.
pub fn generic(instance: &Instance, budget: u64, stats: &mut Stats) -> Result<Option<Board>> {
    let mut found = None;
    let enumeration = enumerate_layouts(instance, budget, &mut |candidate| {
        if MinesweeperPuzzle.verify(instance, candidate).is_ok() {
            found = Some(candidate.clone());
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    stats.visited += enumeration.layouts;
    match found {
        Some(board) => Ok(Some(board)),
        None if enumeration.cut => Err(Error::Budget(Budget::Positions(budget))),
        None => Ok(None),
    }
}
