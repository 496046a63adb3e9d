//! Criterion bench of the `square-free` plugin: the fast solver on the official large set (T = 100, R, C <= 20)
//! and on 200 x 200 grids; fast against generic on the official small set (T = 100, 6 x 6). Every timed result is
//! checked: the answers verify by rule, and the two solvers agree case by case.

use criterion::{criterion_group, criterion_main, Criterion};
use ludus_framework::input::Source;
use ludus_framework::plugin::{CaseAnswer, GenOptions, NoProgress, Plugin, Preset, SolveOptions};
use ludus_puzzles::square_free::SquareFree;
use std::hint::black_box;

fn generate(cases: usize, size: Option<usize>, seed: u64) -> String {
    match SquareFree.generate(&GenOptions { preset: Preset::Official, cases: Some(cases), size }, seed) {
        Ok(input) => input,
        Err(error) => panic!("cannot generate: {error}"),
    }
}

fn solve(input: &str, solver: &str) -> Vec<CaseAnswer> {
    let mut options = SolveOptions::with_solver(solver);
    options.threads = 1;
    match SquareFree.solve(Source::new("bench.in", input), &options, &NoProgress) {
        Ok(answers) => answers,
        Err(error) => panic!("solver {solver} failed: {error}"),
    }
}

fn assert_verified(input: &str, answers: &[CaseAnswer]) {
    let rendered = SquareFree.render(answers);
    match SquareFree.judge(Source::new("bench.in", input), Source::new("bench.out", &rendered)) {
        Ok(verdicts) => assert!(verdicts.iter().all(|verdict| verdict.problem.is_none()), "{verdicts:?}"),
        Err(error) => panic!("cannot verify: {error}"),
    }
}

fn bench_square_free(criterion: &mut Criterion) {
    let mut group = criterion.benchmark_group("square_free");
    group.sample_size(10);

    let official = generate(100, None, 1);
    assert_verified(&official, &solve(&official, "fast"));
    group.bench_function("fast/official large set (T=100, R,C<=20)", |bencher| {
        bencher.iter(|| solve(black_box(&official), "fast"))
    });

    let big = generate(5, Some(200), 2);
    assert_verified(&big, &solve(&big, "fast"));
    group.bench_function("fast/5 grids of 200x200", |bencher| bencher.iter(|| solve(black_box(&big), "fast")));

    let small = generate(100, Some(6), 3);
    let (fast, generic) = (solve(&small, "fast"), solve(&small, "generic"));
    // Both return the lexicographically smallest grid: the answers agree to the character.
    assert_eq!(fast, generic);
    assert_verified(&small, &fast);
    group.bench_function("fast/official small set (T=100, 6x6)", |bencher| {
        bencher.iter(|| solve(black_box(&small), "fast"))
    });
    group.bench_function("generic/official small set (T=100, 6x6)", |bencher| {
        bencher.iter(|| solve(black_box(&small), "generic"))
    });
    group.finish();
}

/// The bench group (in a module: the function `criterion_group!` generates carries no doc comment).
mod group {
    use super::{bench_square_free, criterion_group};
    criterion_group!(benches, bench_square_free);
}

criterion_main!(group::benches);
