//! Criterion bench of the `minesweeper-master` plugin: the fast constructor on the official large set (T = 140,
//! R, C <= 50) and on 1000 x 1000 boards, the analysis's row backtracking on the large set, the generic brute
//! force against the fast constructor on the official small set (T = 230, R, C <= 5), and the verifier on a
//! large answer file. Every timed result is checked.

// `criterion_group!` defines a public function without a doc comment.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};
use ludus_framework::input::Source;
use ludus_framework::plugin::{CaseAnswer, GenOptions, NoProgress, Plugin, Preset, SolveOptions};
use ludus_framework::{Construct, Verify};
use ludus_puzzles::minesweeper_master::{Instance, MinesweeperMaster, MinesweeperPuzzle};
use std::hint::black_box;

fn generated(preset: Preset, cases: usize, seed: u64) -> String {
    let options = GenOptions { preset, cases: Some(cases), size: None };
    MinesweeperMaster.generate(&options, seed).unwrap_or_default()
}

fn solve(input: &str, solver: &str) -> Vec<CaseAnswer> {
    MinesweeperMaster
        .solve(Source::new("bench.in", input), &SolveOptions::with_solver(solver), &NoProgress)
        .unwrap_or_default()
}

fn all_accepted(input: &str, answers: &[CaseAnswer]) -> bool {
    let rendered = MinesweeperMaster.render(answers);
    MinesweeperMaster
        .judge(Source::new("bench.in", input), Source::new("bench.out", &rendered))
        .is_ok_and(|verdicts| verdicts.len() == answers.len() && verdicts.iter().all(|v| v.problem.is_none()))
}

fn classes(answers: &[CaseAnswer]) -> Vec<String> {
    answers.iter().map(|answer| answer.class.clone()).collect()
}

fn bench(criterion: &mut Criterion) {
    let large = generated(Preset::Official, 140, 2014);
    let small = generated(Preset::Small, 230, 2014);
    let mut group = criterion.benchmark_group("minesweeper-master");
    group.sample_size(10);

    group.bench_function("fast/official large set (140 cases, R, C <= 50)", |bencher| {
        bencher.iter(|| {
            let answers = solve(black_box(&large), "fast");
            assert_eq!(answers.len(), 140);
            answers
        })
    });
    let answers = solve(&large, "fast");
    assert!(all_accepted(&large, &answers), "the fast answers to the large set verify");

    group.bench_function("backtrack/official large set (140 cases, R, C <= 50)", |bencher| {
        bencher.iter(|| {
            let searched = solve(black_box(&large), "backtrack");
            assert_eq!(classes(&searched), classes(&answers), "backtrack agrees with fast");
            searched
        })
    });

    group.bench_function("verify/official large set answer file", |bencher| {
        bencher.iter(|| assert!(all_accepted(black_box(&large), &answers)))
    });

    for (mines, label) in [(0, "no mines"), (500_000, "half mines"), (999_990, "10 safe cells")] {
        let instance = Instance::new(1000, 1000, mines);
        group.bench_function(format!("fast/1000 x 1000, {label} (construct + verify)"), |bencher| {
            bencher.iter(|| {
                let board = MinesweeperPuzzle.construct(black_box(&instance)).ok().flatten();
                assert!(board.is_some_and(|board| MinesweeperPuzzle.verify(&instance, &board).is_ok()));
            })
        });
    }

    let fast_small = classes(&solve(&small, "fast"));
    for solver in ["fast", "generic"] {
        group.bench_function(format!("{solver}/official small set (230 cases, R, C <= 5)"), |bencher| {
            bencher.iter(|| {
                let answers = solve(black_box(&small), solver);
                assert_eq!(classes(&answers), fast_small, "{solver} agrees with fast");
                answers
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
