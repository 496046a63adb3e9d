//! Criterion bench of the `adjacent-and-consecutive` plugin: `fast` and `closed-form` on generated inputs of
//! official size (the `official` preset's swinging games, N from 4 to 50 and all N = 50; the `small` preset's
//! random moves at N = 50), `generic` on small games (N <= 8), and `closed-form` on single games of N = 1,000
//! and 10,000. Each timed answer is checked before timing: against another solver's answer, or (the
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

fn generate_with(preset: Preset, cases: Option<usize>, size: Option<usize>, seed: u64) -> String {
    let options = GenOptions { preset, cases, size };
    AdjacentAndConsecutive.generate(&options, seed).unwrap_or_else(|error| panic!("generation failed: {error}"))
}

fn generate(cases: Option<usize>, size: Option<usize>, seed: u64) -> String {
    generate_with(Preset::Official, cases, size, seed)
}

fn bench(criterion: &mut Criterion) {
    let mut group = criterion.benchmark_group("adjacent_and_consecutive");
    group.sample_size(10);

    let inputs = [
        ("large set (T=100, N<=50)", generate(None, None, 1)),
        ("swinging (T=100, N=50)", generate(None, Some(50), 1)),
        ("random moves (T=100, N=50)", generate_with(Preset::Small, Some(100), Some(50), 1)),
    ];
    for (name, input) in &inputs {
        let fast = solve(input, "fast");
        assert_eq!(fast, solve(input, "closed-form"), "fast and closed-form disagree on the {name}");
        group.bench_function(format!("fast, {name}"), |bench| bench.iter(|| solve(input, "fast")));
        group.bench_function(format!("closed-form, {name}"), |bench| bench.iter(|| solve(input, "closed-form")));
    }

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
