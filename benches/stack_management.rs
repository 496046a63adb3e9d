//! Criterion bench of the `stack-management` plugin: the fast solver on a generated official-size input
//! (T = 100 cases of 60,000 to 100,000 cards, about 2.5 MB), with and without winning lines, the verifier on its
//! output, and fast vs generic (both with winning lines) on small-set inputs that both finish. Every timed
//! result is checked.
#![allow(clippy::expect_used)] // a bench stops loudly on a broken setup

use criterion::{criterion_main, Criterion};
use ludus_framework::input::Source;
use ludus_framework::plugin::{CaseAnswer, GenOptions, NoProgress, Plugin, PluginOptions, Preset, SolveOptions};
use ludus_puzzles::stack_management::{official_small_set, StackManagement};
use std::hint::black_box;

fn solve(input: &str, solver: &str, witness: bool) -> Vec<CaseAnswer> {
    let given: &[&str] = if witness { &["witness"] } else { &[] };
    let options =
        SolveOptions { plugin_options: PluginOptions::new(given.iter().copied()), ..SolveOptions::with_solver(solver) };
    StackManagement.solve(Source::new("bench.in", input), &options, &NoProgress).expect("the input is valid")
}

fn classes(answers: &[CaseAnswer]) -> Vec<&str> {
    answers.iter().map(|answer| answer.class.as_str()).collect()
}

fn all_accepted(input: &str, answers: &[CaseAnswer]) -> bool {
    let rendered = StackManagement.render(answers);
    StackManagement
        .judge(Source::new("bench.in", input), Source::new("bench.out", &rendered))
        .expect("the input is valid")
        .iter()
        .all(|verdict| verdict.problem.is_none())
}

fn official(c: &mut Criterion) {
    let input = StackManagement
        .generate(&GenOptions { preset: Preset::Official, cases: None, size: None }, 1)
        .expect("generation works");
    let plain = solve(&input, "fast", false);
    let witnessed = solve(&input, "fast", true);
    assert_eq!(classes(&plain), classes(&witnessed));
    assert!(all_accepted(&input, &witnessed), "the verifier rejects a winning line");
    let rendered = StackManagement.render(&witnessed);
    let mut group = c.benchmark_group("stack-management official preset (T=100, 60,000-100,000 cards per case)");
    group.sample_size(10);
    group.bench_function("fast", |b| {
        b.iter(|| assert_eq!(classes(&solve(black_box(&input), "fast", false)), classes(&plain)))
    });
    group.bench_function("fast --option witness", |b| {
        b.iter(|| assert_eq!(classes(&solve(black_box(&input), "fast", true)), classes(&plain)))
    });
    group.bench_function("verify (replay every winning line)", |b| {
        b.iter(|| {
            let verdicts = StackManagement
                .judge(Source::new("bench.in", black_box(&input)), Source::new("bench.out", &rendered))
                .expect("the input is valid");
            assert!(verdicts.iter().all(|verdict| verdict.problem.is_none()));
        })
    });
    group.finish();
}

fn small(c: &mut Criterion) {
    let input = official_small_set(100, 5);
    let expected = solve(&input, "fast", false);
    assert_eq!(classes(&solve(&input, "generic", false)), classes(&expected));
    assert!(
        expected.iter().any(|answer| answer.class == "POSSIBLE")
            && expected.iter().any(|answer| answer.class == "IMPOSSIBLE")
    );
    let mut group = c.benchmark_group("stack-management small set (T=100, N=4, C=9, --option witness)");
    group.sample_size(10);
    for solver in ["fast", "generic"] {
        group.bench_function(solver, |b| {
            b.iter(|| assert_eq!(classes(&solve(black_box(&input), solver, true)), classes(&expected)))
        });
    }
    group.finish();
}

/// The bench group, in a private module (the function `criterion_group!` generates has no doc comment).
mod group {
    criterion::criterion_group!(benches, super::official, super::small);
}

criterion_main!(group::benches);
