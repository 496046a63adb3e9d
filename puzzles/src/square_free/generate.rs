//! Random inputs: the counts of a random grid (always satisfiable), fully random counts (mostly not), or random
//! counts with equal sums (satisfiable or not), on grids of the preset's sizes.

use super::format::{format_input, MAX_CASES, MAX_SIDE};
use super::grid::{Grid, Instance};
use ludus_framework::plugin::{seeded_rng, GenOptions, Preset, SeededRng};
use ludus_framework::Result;
use rand::Rng;

/// The official number of cases of the large set.
pub const OFFICIAL_CASES: usize = 100;
/// The official largest R and C of the large set.
pub const OFFICIAL_MAX_SIDE: usize = 20;
/// The largest R and C of [`Preset::Small`] instances.
pub const SMALL_MAX_SIDE: usize = 5;
/// The default number of cases of [`Preset::Small`] inputs.
pub const SMALL_CASES: usize = 10;

/// Counts for `rows` x `columns`: from a random grid (always satisfiable), fully random (mostly not), or random
/// with equal sums (satisfiable or not).
fn random_instance(rng: &mut SeededRng, rows: usize, columns: usize) -> Instance {
    match rng.gen_range(0..4) {
        0 | 1 => {
            let density: f64 = rng.gen();
            let mut grid = Grid::new(rows, columns);
            for row in 0..rows {
                for column in 0..columns {
                    grid.set(row, column, rng.gen_bool(density));
                }
            }
            Instance { rows, columns, row_counts: grid.row_counts(), column_counts: grid.column_counts() }
        }
        2 => Instance {
            rows,
            columns,
            row_counts: (0..rows).map(|_| rng.gen_range(0..=columns)).collect(),
            column_counts: (0..columns).map(|_| rng.gen_range(0..=rows)).collect(),
        },
        _ => {
            let row_counts: Vec<usize> = (0..rows).map(|_| rng.gen_range(0..=columns)).collect();
            let mut column_counts = vec![0usize; columns];
            let mut open: Vec<usize> = (0..columns).collect();
            for _ in 0..row_counts.iter().sum::<usize>() {
                let pick = rng.gen_range(0..open.len());
                let column = open[pick];
                column_counts[column] += 1;
                if column_counts[column] == rows {
                    open.swap_remove(pick);
                }
            }
            Instance { rows, columns, row_counts, column_counts }
        }
    }
}

/// A random input in the official format: `options.cases` cases (default: the preset's) of R x C grids with R
/// and C drawn up to the preset's side, or both equal to `options.size`.
pub fn generate_input(options: &GenOptions, seed: u64) -> Result<String> {
    let mut rng = seeded_rng(seed);
    let default = match options.preset {
        Preset::Small => SMALL_CASES,
        Preset::Official => OFFICIAL_CASES,
    };
    let cases = options.case_count(default, MAX_CASES)?;
    let (low, high) = match (options.checked_size(MAX_SIDE)?, options.preset) {
        (Some(size), _) => (size, size),
        (None, Preset::Small) => (1, SMALL_MAX_SIDE),
        (None, Preset::Official) => (1, OFFICIAL_MAX_SIDE),
    };
    let instances: Vec<Instance> = (0..cases)
        .map(|_| {
            let rows = rng.gen_range(low..=high);
            let columns = rng.gen_range(low..=high);
            random_instance(&mut rng, rows, columns)
        })
        .collect();
    Ok(format_input(&instances))
}
