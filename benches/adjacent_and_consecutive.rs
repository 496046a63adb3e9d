//! Criterion bench of the `adjacent-and-consecutive` plugin: `fast`, `closed-form` and `generic` on generated
//! inputs of official size (small games, N <= 8, for `generic`), and `closed-form` on single games of
//! N = 1,000 and 10,000. Each timed answer is checked before timing: against another solver's answer, or (the
//! single large games, beyond any exact solver) by the plugin's verifier.

use criterion::{criterion_main, Criterion};
use ludus_framework::input::Source;
use ludus_framework::plugin::{GenOptions, NoProgress, Plugin, Preset, SolveOptions};
use ludus_games::adjacent_and_consecutive::AdjacentAndConsecutive;

fn solve(input: &str, solver: &str) -> String {
    let plugin = AdjacentAndConsecutive;
    match plugin.solve(Source::new("bench.in", input), &SolveOptions::with_solver(solver), &NoProgress) {
        Ok(answers) => plugin.render(&answers),
        Err(error) => panic!("solver {solver} failed: {error}"),
    }
}

fn generate(cases: Option<usize>, size: Option<usize>, seed: u64) -> String {
    let options = GenOptions { preset: Preset::Official, cases, size };
    AdjacentAndConsecutive.generate(&options, seed).unwrap_or_else(|error| panic!("generation failed: {error}"))
}

fn bench(criterion: &mut Criterion) {
    let mut group = criterion.benchmark_group("adjacent_and_consecutive");
    group.sample_size(10);

    let large = generate(None, None, 1);
    let fast = solve(&large, "fast");
    assert_eq!(fast, solve(&large, "closed-form"), "fast and closed-form disagree on the large set");
    group.bench_function("fast, large set (T=100, N<=50)", |bench| bench.iter(|| solve(&large, "fast")));
    group.bench_function("closed-form, large set (T=100, N<=50)", |bench| bench.iter(|| solve(&large, "closed-form")));

    // The generic solver takes about a second per game of N = 10, so its set is 20 games of N from 4 to 8.
    let games = (0..20).map(|seed| generate(Some(1), Some(4 + seed % 5), seed as u64)).collect::<Vec<_>>();
    let small = format!("20\n{}", games.iter().map(|input| input.trim_start_matches("1\n")).collect::<String>());
    assert_eq!(solve(&small, "generic"), solve(&small, "fast"), "generic and fast disagree on the small set");
    group.bench_function("generic, small set (T=20, 4<=N<=8)", |bench| bench.iter(|| solve(&small, "generic")));
    group.bench_function("fast, small set (T=20, 4<=N<=8)", |bench| bench.iter(|| solve(&small, "fast")));

    for size in [1_000, 10_000] {
        let input = generate(Some(1), Some(size), 7);
        let answer = solve(&input, "closed-form");
        let verdicts = AdjacentAndConsecutive
            .judge(Source::new("bench.in", &input), Source::new("bench.out", &answer))
            .unwrap_or_else(|error| panic!("verification failed: {error}"));
        assert!(verdicts.iter().all(|verdict| verdict.problem.is_none()), "{verdicts:?}");
        group.bench_function(format!("closed-form, one careful game of N={size}"), |bench| {
            bench.iter(|| solve(&input, "closed-form"))
        });
    }
    group.finish();
}

/// Criterion's generated runner, in a private module (its `pub fn` needs no documentation there).
mod runner {
    criterion::criterion_group!(benches, super::bench);
}

criterion_main!(runner::benches);
