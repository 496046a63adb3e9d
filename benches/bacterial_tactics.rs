//! Criterion bench of the `bacterial-tactics` plugin: the `fast` (GrundyEngine), `parallel` (cases spread over
//! threads) and `generic` (memoized negamax) solvers on the official large set (100 grids up to 15 x 15), on
//! 60 x 60 grids (free, and with random radioactive cells; `fast` only, as `parallel` spreads cases, not one
//! grid), and on small 4 x 4 grids. Each timed input is first solved by two solvers, which must agree, and the
//! answers must pass the plugin's verifier.

use criterion::{criterion_main, Criterion};
use ludus_framework::input::Source;
use ludus_framework::plugin::{GenOptions, NoProgress, Plugin, Preset, SolveOptions};
use ludus_games::bacterial_tactics::BacterialTactics;
use rand::{Rng, SeedableRng};

/// One input file of `cases` grids of `rows` x `columns` cells, each radioactive with probability `density`.
fn grids(cases: usize, rows: usize, columns: usize, density: f64, seed: u64) -> String {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut text = format!("{cases}\n");
    for _ in 0..cases {
        text.push_str(&format!("{rows} {columns}\n"));
        for _ in 0..rows {
            text.extend((0..columns).map(|_| if rng.gen_bool(density) { '#' } else { '.' }));
            text.push('\n');
        }
    }
    text
}

fn solve(input: &str, solver: &str) -> Vec<String> {
    let options = SolveOptions { threads: 2, ..SolveOptions::with_solver(solver) };
    match BacterialTactics.solve(Source::new("bench", input), &options, &NoProgress) {
        Ok(answers) => answers.into_iter().map(|answer| answer.text).collect(),
        Err(error) => panic!("solver {solver} failed: {error}"),
    }
}

/// Checks that `first` and `second` agree on `input` and that the answers verify.
fn assert_agree(input: &str, first: &str, second: &str) {
    let answers = solve(input, first);
    assert_eq!(answers, solve(input, second), "{first} and {second} disagree");
    let rendered: String =
        answers.iter().enumerate().map(|(index, text)| format!("Case #{}:{text}\n", index + 1)).collect();
    let verdicts = BacterialTactics.judge(Source::new("bench", input), Source::new("answers", &rendered));
    assert!(verdicts.is_ok_and(|verdicts| verdicts.iter().all(|verdict| verdict.problem.is_none())));
}

fn bench(criterion: &mut Criterion) {
    let official = BacterialTactics
        .generate(&GenOptions { preset: Preset::Official, ..GenOptions::default() }, 2019)
        .unwrap_or_default();
    let inputs = [
        ("official 100 x (up to 15 x 15)", official),
        ("15 x 15 free x 100", grids(100, 15, 15, 0.0, 1)),
        ("60 x 60 free", grids(1, 60, 60, 0.0, 2)),
        ("60 x 60 with 1% radioactive", grids(1, 60, 60, 0.01, 3)),
        ("60 x 60 with 0.1% radioactive", grids(1, 60, 60, 0.001, 4)),
        ("30 x 30 with 1% radioactive x 20", grids(20, 30, 30, 0.01, 6)),
    ];
    let mut group = criterion.benchmark_group("bacterial-tactics");
    group.sample_size(10);
    for (name, input) in &inputs {
        assert_agree(input, "fast", "parallel");
        // On one case `parallel` is `fast` plus a thread pool: only files of many cases are timed with both.
        let solvers: &[&str] = if name.starts_with("60") { &["fast"] } else { &["fast", "parallel"] };
        for solver in solvers {
            group.bench_function(format!("{solver}: {name}"), |bencher| bencher.iter(|| solve(input, solver)));
        }
    }
    let small = grids(100, 4, 4, 0.2, 5);
    assert_agree(&small, "fast", "generic");
    for solver in ["fast", "generic"] {
        group.bench_function(format!("{solver}: 4 x 4 x 100"), |bencher| bencher.iter(|| solve(&small, solver)));
    }
    group.finish();
}

/// Criterion's generated runner, in a private module (its `pub fn` needs no documentation there).
mod runner {
    criterion::criterion_group!(benches, super::bench);
}

criterion_main!(runner::benches);
