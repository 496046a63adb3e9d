//! Connect Four benches: the plugin's two solvers on generated official-size positions (End-Easy-like: 29 to 41
//! moves played), the End-Easy file itself, and weak solves (win/draw/loss) of small boards from the empty
//! position by alpha-beta with a null window and by memoized negamax in outcome mode.
//!
//! Before timing, each weak solve is run once and its value and positions visited are printed; every timed
//! run asserts the value it computes.

use criterion::{criterion_main, Criterion};
use ludus_framework::engines::alpha_beta::AlphaBeta;
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::{Mode, Solver};
use ludus_framework::input::Source;
use ludus_framework::plugin::{GenOptions, NoProgress, Plugin, Preset, SolveOptions};
use ludus_framework::Value;
use ludus_games::connect_four::{Board, ConnectFour, ConnectFourPlugin};
use std::time::Instant;

const END_EASY: &str = include_str!("../samples/connect-four/end-easy.txt");

/// Small boards solved from the empty position, with the outcome both engines find (for the first player).
const WEAK_SOLVES: [(u32, u32, Value); 4] =
    [(4, 4, Value::Draw), (5, 4, Value::Draw), (6, 4, Value::Lose(0)), (5, 5, Value::Draw)];

fn weak_solve_alpha_beta(game: &ConnectFour) -> (Value, u64) {
    let mut engine = AlphaBeta::new(Mode::Outcome);
    let value = engine.value(game, &Board::EMPTY);
    (value.outcome(), engine.stats().visited)
}

fn weak_solve_memo(game: &ConnectFour) -> (Value, u64) {
    let mut engine = MemoNegamax::new(Mode::Outcome);
    let value = engine.value(game, &Board::EMPTY);
    (value.outcome(), engine.stats().visited)
}

fn solvers_on_official_inputs(criterion: &mut Criterion) {
    let plugin = ConnectFourPlugin;
    let input = plugin
        .generate(&GenOptions { preset: Preset::Official, cases: Some(200), size: None }, 2026)
        .unwrap_or_default();
    let source = Source::new("generated", &input);
    let solve = |solver: &str| {
        let answers = plugin.solve(source, &SolveOptions::with_solver(solver), &NoProgress).unwrap_or_default();
        answers.into_iter().map(|answer| answer.class).collect::<Vec<_>>()
    };
    let reference = solve("fast");
    assert_eq!(reference.len(), 200);
    assert_eq!(solve("generic"), reference, "the two solvers disagree");
    let mut group = criterion.benchmark_group("connect-four 200 official positions");
    group.sample_size(10);
    for solver in ["fast", "generic"] {
        group.bench_function(solver, |bencher| bencher.iter(|| assert_eq!(solve(solver), reference)));
    }
    group.finish();

    let end_easy = Source::new("end-easy.txt", END_EASY);
    let expected: Vec<&str> = END_EASY.lines().collect();
    let mut group = criterion.benchmark_group("connect-four end-easy (1000 positions)");
    group.sample_size(10);
    for solver in ["fast", "generic"] {
        group.bench_function(solver, |bencher| {
            bencher.iter(|| {
                let answers =
                    plugin.solve(end_easy, &SolveOptions::with_solver(solver), &NoProgress).unwrap_or_default();
                assert!(answers.iter().map(|answer| answer.text.as_str()).eq(expected.iter().copied()));
            })
        });
    }
    group.finish();
}

fn weak_solves(criterion: &mut Criterion) {
    let mut group = criterion.benchmark_group("connect-four weak solve from the empty board");
    group.sample_size(10);
    for (width, height, expected) in WEAK_SOLVES {
        let Ok(game) = ConnectFour::new(width, height) else { continue };
        let start = Instant::now();
        let (value, visited) = weak_solve_alpha_beta(&game);
        println!(
            "{width} x {height}: alpha-beta (null window) says {value}, {visited} positions visited, {:?}",
            start.elapsed()
        );
        assert_eq!(value, expected, "{width} x {height}");
        group.bench_function(format!("{width}x{height} alpha-beta"), |bencher| {
            bencher.iter(|| assert_eq!(weak_solve_alpha_beta(&game).0, expected))
        });
        // The second engine confirms every value asserted here; it is timed on the boards it solves quickly.
        let start = Instant::now();
        let (value, visited) = weak_solve_memo(&game);
        println!(
            "{width} x {height}: memoized negamax says {value}, {visited} positions visited, {:?}",
            start.elapsed()
        );
        assert_eq!(value, expected, "{width} x {height}");
        if width * height <= 20 {
            group.bench_function(format!("{width}x{height} memoized negamax"), |bencher| {
                bencher.iter(|| assert_eq!(weak_solve_memo(&game).0, expected))
            });
        }
    }
    group.finish();
}

/// The bench group, in a private module (the function `criterion_group!` generates has no doc comment).
mod group {
    criterion::criterion_group!(benches, super::solvers_on_official_inputs, super::weak_solves);
}

criterion_main!(group::benches);
