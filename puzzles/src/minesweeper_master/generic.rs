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
        enumerate_layouts(instance, u64::MAX, u64::MAX, visit);
    }
}

/// How far an enumeration of layouts went.
struct Enumeration {
    /// The mine layouts whose clicks were visited.
    layouts: u64,
    /// The work units spent: `cells` for each layout laid out and for each click verified.
    work: u64,
    /// What stopped it before the end of the layouts or the visitor, if anything.
    cut: Option<Cut>,
}

/// Which budget stopped an enumeration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cut {
    /// The budget of mine layouts.
    Layouts,
    /// The budget of work units.
    Work,
}

/// The enumeration of [`Enumerate::candidates`], stopped after `budget` mine layouts or once the work passes
/// `work_budget` units.
fn enumerate_layouts(
    instance: &Instance,
    budget: u64,
    work_budget: u64,
    visit: &mut dyn FnMut(&Board) -> ControlFlow<()>,
) -> Enumeration {
    let (rows, columns, mines) = (instance.rows, instance.columns, instance.mines);
    let cells = instance.cells();
    let mut enumeration = Enumeration { layouts: 0, work: 0, cut: None };
    if rows == 0 || columns == 0 || mines >= cells {
        return enumeration;
    }
    let mut chosen: Vec<usize> = (0..mines).collect();
    let mut board = Board { rows: vec![vec![SAFE; columns]; rows] };
    let spend = |enumeration: &mut Enumeration| {
        enumeration.work = enumeration.work.saturating_add(cells as u64);
        enumeration.work > work_budget
    };
    loop {
        if enumeration.layouts == budget {
            enumeration.cut = Some(Cut::Layouts);
            return enumeration;
        }
        enumeration.layouts += 1;
        if spend(&mut enumeration) {
            enumeration.cut = Some(Cut::Work);
            return enumeration;
        }
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
            if spend(&mut enumeration) {
                enumeration.cut = Some(Cut::Work);
                return enumeration;
            }
            board.set(row, column, CLICK);
            let flow = visit(&board);
            board.set(row, column, SAFE);
            if flow.is_break() {
                return enumeration;
            }
        }
        // The next M-subset of 0..cells in lexicographic order.
        let Some(position) = (0..mines).rev().find(|&index| chosen.get(index) < Some(&(cells - mines + index))) else {
            return enumeration;
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

/// The `generic` solver's default budget of work for a whole input, in work units (`cells` for each mine layout
/// laid out and for each click verified, the two steps whose cost grows with the board), unless `--no-limit`:
/// about 10 seconds at the slowest rate measured (2 x 15 with 9 mines: 1.4e8 units in 2.3 to 3.2 s; other
/// shapes run 7e7 to 1.4e8 units a second; BENCHMARKS.md, "Cost models"). The work is counted as it is spent,
/// so an input is refused only once it has really spent that much; the answers before stand.
pub const GENERIC_WORK_BUDGET: u64 = 500_000_000;

/// The `generic` solver at work on an input: its options, statistics and the work spent on the cases so far.
pub struct GenericSearcher {
    options: SolveOptions,
    stats: Stats,
    work: u64,
    work_budget: u64,
}

impl GenericSearcher {
    /// A searcher that has spent nothing yet.
    pub fn new(options: &SolveOptions) -> Self {
        GenericSearcher::with_work_budget(options, GENERIC_WORK_BUDGET)
    }

    /// A searcher with another input budget than [`GENERIC_WORK_BUDGET`] (ignored with `--no-limit`).
    pub fn with_work_budget(options: &SolveOptions, work_budget: u64) -> Self {
        GenericSearcher { options: options.clone(), stats: Stats::default(), work: 0, work_budget }
    }

    /// The answer to `instance`, the input's case `case` (0-based): [`generic`] within the layout budget and
    /// what is left of the input's work budget ([`GENERIC_WORK_BUDGET`], none with `--no-limit`); past the
    /// work budget an `Error::Limit` naming `--no-limit`, as soon as the work passes it.
    pub fn solve(&mut self, instance: &Instance, case: usize) -> Result<Option<Board>> {
        let work_left = if self.options.no_limit { u64::MAX } else { self.work_budget.saturating_sub(self.work) };
        let (found, work) =
            generic_within(instance, layout_budget(instance, &self.options), work_left, &mut self.stats);
        self.work = self.work.saturating_add(work);
        match found {
            Err(Cut::Work) => Err(Error::limit_lifted(
                format!(
                    "the work units (mine layouts and clicks tried x cells) of cases 1 to {} together for solver \
                     `generic`",
                    case + 1
                ),
                self.work,
                self.work_budget,
                vec![
                    ludus_framework::Remedy::Set(ludus_framework::Setting::NoLimit),
                    ludus_framework::Remedy::Set(ludus_framework::Setting::Solver),
                ],
            )),
            Err(Cut::Layouts) => Err(Error::Budget(Budget::Positions(layout_budget(instance, &self.options)))),
            Ok(found) => Ok(found),
        }
    }

    /// The statistics so far (`visited`: the mine layouts tried).
    pub fn stats(&self) -> Stats {
        self.stats
    }
}

/// The `generic` solver: the first valid board among the first `budget` mine layouts (each with every click,
/// in the order of [`Enumerate::candidates`]), as the framework's `brute_force` would find it, which takes no
/// budget. `Ok(None)` (Impossible) only when every layout was tried; an
/// `Error::Budget(Budget::Positions(budget))` when the budget stopped the search (a position of this search is
/// a mine layout). Adds the layouts tried to `stats.visited`.
pub fn generic(instance: &Instance, budget: u64, stats: &mut Stats) -> Result<Option<Board>> {
    match generic_within(instance, budget, u64::MAX, stats).0 {
        Ok(found) => Ok(found),
        Err(_) => Err(Error::Budget(Budget::Positions(budget))),
    }
}

/// [`generic`] within `work_budget` work units too: the board found, `None` after every layout, or the budget
/// that stopped it; and the work spent.
fn generic_within(
    instance: &Instance,
    budget: u64,
    work_budget: u64,
    stats: &mut Stats,
) -> (std::result::Result<Option<Board>, Cut>, u64) {
    let mut found = None;
    let enumeration = enumerate_layouts(instance, budget, work_budget, &mut |candidate| {
        if MinesweeperPuzzle.verify(instance, candidate).is_ok() {
            found = Some(candidate.clone());
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    stats.visited += enumeration.layouts;
    let outcome = match (found, enumeration.cut) {
        (Some(board), _) => Ok(Some(board)),
        (None, Some(cut)) => Err(cut),
        (None, None) => Ok(None),
    };
    (outcome, enumeration.work)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instance(rows: usize, columns: usize, mines: usize) -> Instance {
        Instance { rows, columns, mines }
    }

    #[test]
    fn the_work_is_counted_as_spent_and_the_input_stops_at_its_budget() {
        // 2 x 2 with 1 mine: 4 layouts, none valid (each of the 3 safe cells touches the mine): 4 x 4 units.
        let (found, work) = generic_within(&instance(2, 2, 1), u64::MAX, u64::MAX, &mut Stats::default());
        assert_eq!((found, work), (Ok(None), 16));
        // 5 x 5 with 12 mines: the first layout is valid at its first click.
        let (found, work) = generic_within(&instance(5, 5, 12), u64::MAX, u64::MAX, &mut Stats::default());
        assert!(matches!(found, Ok(Some(_))) && work == 50, "{work}");
        // An input of three such 2 x 2 cases within 40 units: the third passes the budget at its third layout
        // (32 + 3 x 4 = 44 units), at once.
        let mut searcher = GenericSearcher::with_work_budget(&SolveOptions::default(), 40);
        for case in 0..2 {
            assert_eq!(searcher.solve(&instance(2, 2, 1), case).unwrap(), None);
        }
        let error = searcher.solve(&instance(2, 2, 1), 2).unwrap_err();
        assert!(matches!(error, Error::Limit { got: 44, limit: 40, .. }), "{error:?}");
        let message = error.to_string();
        assert!(
            message.contains("cases 1 to 3 together")
                && error.remedies().contains(&ludus_framework::Remedy::Set(ludus_framework::Setting::NoLimit)),
            "{message}"
        );
        // With --no-limit the budget does not apply.
        let options = SolveOptions { no_limit: true, ..SolveOptions::default() };
        let mut searcher = GenericSearcher::with_work_budget(&options, 40);
        for case in 0..3 {
            assert_eq!(searcher.solve(&instance(2, 2, 1), case).unwrap(), None);
        }
    }
}
