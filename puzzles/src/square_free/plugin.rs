//! The `square-free` plugin: the puzzle's framework traits (the verifier by the rules, the constructor, and the
//! enumeration of every grid for the brute-force engine), its solver table, and the judge of answer files.

use super::backtracking::{construct_backtracking, GENERIC_MAX_CELLS};
use super::flow::construct_lexicographic;
use super::format::{parse_input, read_answer, GridAnswer, Parsed};
use super::generate::generate_input;
use super::grid::{find_square, margins_are_feasible, Grid, Instance};
use ludus_framework::input::Source;
use ludus_framework::plugin::{
    About, CaseBlock, Comparison, EachCase, GenOptions, Kind, Limit, Parallelism, Problem, Sample, Scope, SeededRng,
    SolveOptions, Solver, Tables,
};
use ludus_framework::{Construct, Enumerate, Puzzle, Result, Verify, Violation};
use rand::Rng;
use std::ops::ControlFlow;

/// The largest witness grid (in cells) a rejected IMPOSSIBLE answer shows in full.
const SHOWN_WITNESS_CELLS: usize = 64;

/// The `square-free` plugin.
#[derive(Clone, Copy, Debug, Default)]
pub struct SquareFree;

impl Puzzle for SquareFree {
    type Instance = Instance;
    type Solution = Grid;
}

impl Verify for SquareFree {
    fn verify(&self, instance: &Instance, grid: &Grid) -> std::result::Result<(), Violation> {
        if grid.rows() != instance.rows || grid.columns() != instance.columns {
            return Err(Violation::new(format!(
                "the grid is {} x {}, expected {} x {}",
                grid.rows(),
                grid.columns(),
                instance.rows,
                instance.columns
            )));
        }
        for (row, (&found, &wanted)) in grid.row_counts().iter().zip(&instance.row_counts).enumerate() {
            if found != wanted {
                return Err(Violation::new(format!("row {} holds {found} `/`, expected {wanted}", row + 1)));
            }
        }
        for (column, (&found, &wanted)) in grid.column_counts().iter().zip(&instance.column_counts).enumerate() {
            if found != wanted {
                return Err(Violation::new(format!("column {} holds {found} `/`, expected {wanted}", column + 1)));
            }
        }
        match find_square(grid) {
            Some(square) => Err(Violation::new(format!("the grid draws {square}"))),
            None => Ok(()),
        }
    }
}

impl Construct for SquareFree {
    fn construct(&self, instance: &Instance) -> Result<Option<Grid>> {
        Ok(construct_lexicographic(instance))
    }
}

impl Enumerate for SquareFree {
    /// Every R x C grid, in lexicographic order (`\` before `/`, reading order): the brute-force engine then
    /// returns the same grid as both solvers.
    fn candidates(&self, instance: &Instance, visit: &mut dyn FnMut(&Grid) -> ControlFlow<()>) {
        let mut grid = Grid::new(instance.rows, instance.columns);
        let cells = instance.cells();
        loop {
            if visit(&grid).is_break() {
                return;
            }
            // Odometer: the last cell changes fastest.
            let mut cell = cells;
            loop {
                if cell == 0 {
                    return;
                }
                cell -= 1;
                let (row, column) = (cell / instance.columns, cell % instance.columns);
                if grid.is_slash(row, column) {
                    grid.set(row, column, false);
                } else {
                    grid.set(row, column, true);
                    break;
                }
            }
        }
    }
}

/// The `fast` solver on one case.
fn solve_fast(_: &SquareFree, input: &Parsed, case: usize, _: &SolveOptions) -> Result<GridAnswer> {
    Ok(GridAnswer::from_grid(construct_lexicographic(&input.cases[case])))
}

/// The `generic` solver on one case.
fn solve_generic(_: &SquareFree, input: &Parsed, case: usize, _: &SolveOptions) -> Result<GridAnswer> {
    Ok(GridAnswer::from_grid(construct_backtracking(&input.cases[case])))
}

/// The most work units ([`flow_work`]) the `fast` solver takes for one input (a 500 x 500 grid is 3.9e9 units):
/// about 8 seconds of work (calibration: BENCHMARKS.md, "Cost models").
pub const FAST_MAX_WORK: u64 = 30_000_000_000;

/// The `fast` solver's cost model: each of the R x C cells fixed by an augmenting-path search over bitsets of
/// R + C nodes, (R + C)^2 / 64 words.
fn flow_work(input: &Parsed, case: usize) -> u64 {
    input.cases.get(case).map_or(0, |instance| {
        let side = (instance.rows + instance.columns) as u64;
        (instance.cells() as u64).saturating_mul(side * side) / 64
    })
}

/// The size the `generic` solver's limit measures: the cells of a case.
fn cells(input: &Parsed, case: usize) -> u64 {
    input.cases.get(case).map_or(0, |instance| instance.cells() as u64)
}

impl Problem for SquareFree {
    type Input = Parsed;
    type Answer = GridAnswer;
    type Referee = ();

    const ABOUT: &'static About = &About {
        name: "square-free",
        kind: Kind::Constructive,
        summary: "fill a grid with / and \\ matching row and column counts of / without drawing a square",
        sample: Sample {
            input: include_str!("../../../samples/square-free/sample.in"),
            answer: include_str!("../../../samples/square-free/sample.ans"),
        },
        comparison: Comparison::Rule,
    };

    const SOLVERS: &'static [Solver<Self>] = &[
        Solver {
            name: "fast",
            summary: "lexicographically smallest grid by Ryser's greedy plus incremental max-flow (bitset augmenting \
                      paths); its work grows as R x C x (R + C)^2",
            limits: &[Limit {
                scope: Scope::Input,
                unit: "work units (R x C x (R + C)^2 / 64)",
                max: FAST_MAX_WORK,
                measure: flow_work,
            }],
            parallelism: Parallelism::Cases,
            tables: Tables::None,
            start: |_, options| EachCase::start(options, solve_fast),
        },
        Solver {
            name: "generic",
            summary: "backtracking in reading order with count pruning and early square checks; up to 36 cells \
                      (6 x 6) unless --no-limit",
            limits: &[Limit { scope: Scope::Case, unit: "cells", max: GENERIC_MAX_CELLS as u64, measure: cells }],
            parallelism: Parallelism::Cases,
            tables: Tables::None,
            start: |_, options| EachCase::start(options, solve_generic),
        },
    ];

    fn parse_input(&self, input: Source<'_>) -> Result<Parsed> {
        parse_input(input)
    }

    /// A grid must pass the verifier by the rules; IMPOSSIBLE must fail the Gale-Ryser criterion (an
    /// independent oracle: when some grid has the counts, the smallest one is square free).
    fn verify_answer(&self, input: &Parsed, case: usize, answer: &GridAnswer) -> std::result::Result<(), Violation> {
        let instance = &input.cases[case];
        match answer {
            GridAnswer::Possible(grid) => Verify::verify(self, instance, grid),
            GridAnswer::Impossible if margins_are_feasible(&instance.row_counts, &instance.column_counts) => {
                Err(Violation::new(
                    "IMPOSSIBLE, but the counts meet the Gale-Ryser criterion: some grid has them, and the smallest \
                     one is square free",
                ))
            }
            GridAnswer::Impossible => Ok(()),
        }
    }

    fn read_answer(
        &self,
        input: &Parsed,
        case: usize,
        block: &CaseBlock<'_>,
    ) -> std::result::Result<GridAnswer, Violation> {
        Ok(read_answer(&input.cases[case], block.text)?)
    }

    fn referee(&self) -> Result<()> {
        Ok(())
    }

    /// A grid is checked by the rules; IMPOSSIBLE is refuted by a grid of the fast solver or, on a grid small
    /// enough for it, of the generic one.
    fn judge_answer(
        &self,
        _: &mut (),
        input: &Parsed,
        case: usize,
        answer: &GridAnswer,
    ) -> std::result::Result<(), Violation> {
        let instance = &input.cases[case];
        match answer {
            GridAnswer::Possible(grid) => Verify::verify(self, instance, grid),
            GridAnswer::Impossible => {
                let witness = construct_lexicographic(instance).or_else(|| {
                    if instance.cells() <= GENERIC_MAX_CELLS {
                        construct_backtracking(instance)
                    } else {
                        None
                    }
                });
                match witness {
                    Some(grid) if grid.rows() * grid.columns() <= SHOWN_WITNESS_CELLS => {
                        Err(format!("the answer says IMPOSSIBLE, but this grid fits: {}", grid.lines().join(" "))
                            .into())
                    }
                    Some(_) => Err("the answer says IMPOSSIBLE, but the fast solver finds a square-free grid".into()),
                    None => Ok(()),
                }
            }
        }
    }

    fn class_of(&self, answer: &GridAnswer) -> String {
        answer.class().to_string()
    }

    /// IMPOSSIBLE becomes a random grid of the right size (no grid has the counts, so it is wrong); a grid
    /// becomes IMPOSSIBLE half the time, else one of its cells is flipped (which breaks a row count).
    fn corrupt_answer(
        &self,
        input: &Parsed,
        case: usize,
        answer: &GridAnswer,
        rng: &mut SeededRng,
    ) -> Option<GridAnswer> {
        match answer {
            GridAnswer::Impossible => {
                let instance = input.cases.get(case)?;
                let mut grid = Grid::new(instance.rows, instance.columns);
                for row in 0..instance.rows {
                    for column in 0..instance.columns {
                        grid.set(row, column, rng.gen_bool(0.5));
                    }
                }
                Some(GridAnswer::Possible(grid))
            }
            GridAnswer::Possible(_) if rng.gen_bool(0.5) => Some(GridAnswer::Impossible),
            GridAnswer::Possible(grid) => {
                let cells = grid.rows() * grid.columns();
                if cells == 0 {
                    return None;
                }
                let cell = rng.gen_range(0..cells);
                let (row, column) = (cell / grid.columns(), cell % grid.columns());
                let mut flipped = grid.clone();
                flipped.set(row, column, !grid.is_slash(row, column));
                Some(GridAnswer::Possible(flipped))
            }
        }
    }

    fn generate_input(&self, options: &GenOptions, seed: u64) -> Result<String> {
        generate_input(options, seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Parsed {
        match parse_input(Source::new("test.in", text)) {
            Ok(parsed) => parsed,
            Err(error) => panic!("{error}"),
        }
    }

    #[test]
    fn self_check_refutes_impossible_when_the_counts_meet_gale_ryser() {
        // 2 x 2 with one `/` per row and column: `\/` over `/\` fits.
        let input = parsed("2\n2 2\n1 1\n1 1\n2 2\n2 0\n1 0\n");
        assert!(SquareFree.verify_answer(&input, 0, &GridAnswer::Impossible).is_err());
        // Sums 2 and 1: no grid at all.
        assert_eq!(SquareFree.verify_answer(&input, 1, &GridAnswer::Impossible), Ok(()));
        let answer = solve_fast(&SquareFree, &input, 0, &SolveOptions::default());
        assert!(matches!(&answer, Ok(answer) if SquareFree.verify_answer(&input, 0, answer).is_ok()));
    }

    #[test]
    fn corruptions_are_always_rejected_by_the_judge() {
        let input = parsed("3\n2 2\n1 1\n1 1\n2 2\n2 0\n1 0\n3 3\n0 0 0\n0 0 0\n");
        let mut rng = ludus_framework::plugin::seeded_rng(5);
        for case in 0..3 {
            let answer = solve_fast(&SquareFree, &input, case, &SolveOptions::default())
                .unwrap_or_else(|error| panic!("{error}"));
            assert_eq!(SquareFree.judge_answer(&mut (), &input, case, &answer), Ok(()));
            for _ in 0..20 {
                let wrong = SquareFree.corrupt_answer(&input, case, &answer, &mut rng);
                let wrong = wrong.unwrap_or_else(|| panic!("case {case} has no corruption"));
                assert!(SquareFree.judge_answer(&mut (), &input, case, &wrong).is_err(), "{wrong}");
            }
        }
    }
}
