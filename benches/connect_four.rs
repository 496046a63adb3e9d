//! Connect Four benches on sets like Pascal Pons' six benchmark sets: his End-Easy file
//! (`samples/connect-four/end-easy.txt`) and the generated Middle-Easy, Middle-Medium, Begin-Easy, Begin-Medium and
//! Begin-Hard sets (`benches/data/connect-four/`, one `MOVES SCORE` line per position, rated by
//! `examples/connect_four_sets.rs`). Each iteration solves every position of a set with one fast engine
//! (alpha-beta in exact mode over a growing 64 MiB packed table that persists across the positions, as in the
//! plugin) and asserts each exact score equals the file's; Middle-Medium is also solved by Lazy SMP on 2 threads,
//! so the speed-up of the second thread can be read off. Begin-Medium is timed on its first 5 positions only and
//! Begin-Hard (about 30 s a position) on its first position only, and only with `LUDUS_BENCH_HARD=1`.
//!
//! Before timing, each set is solved once and the time and positions visited per position are printed beside
//! Pons' mean nodes per position for that set (his solver, no opening book). The weak solves (win/draw/loss) of
//! small boards from the empty position by alpha-beta with a null window and by memoized negamax in outcome mode
//! follow; with `LUDUS_BENCH_HARD=1` the standard 7 x 6 board is also weakly solved once (about 3 minutes, the
//! first player wins) and its time and positions visited are printed. Every timed run asserts the scores or
//! values it computes.
//!
//! ```sh
//! cargo bench --bench connect_four                       # the default run (under about 10 minutes)
//! LUDUS_BENCH_HARD=1 cargo bench --bench connect_four    # also Begin-Hard and the 7 x 6 weak solve
//! ```

use criterion::{criterion_main, BatchSize, Criterion};
use ludus_framework::engines::alpha_beta::{AlphaBeta, LazySmp};
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::table::{mib, PackedTable};
use ludus_framework::Statistics;
use ludus_framework::Value;
use ludus_games::connect_four::{solver_table, Board, ConnectFour};
use std::convert::Infallible;
use std::time::{Duration, Instant};

/// The environment variable that enables the long runs (Begin-Hard and the 7 x 6 weak solve) when set to `1`.
const HARD: &str = "LUDUS_BENCH_HARD";

/// Samples per timed set.
const SAMPLES: usize = 10;

/// Criterion's default measurement time, kept for the sets that solve quickly.
const MEASUREMENT: Duration = Duration::from_secs(5);

/// A benchmark set.
struct Set {
    /// The set's name, as in Pons' list.
    name: &'static str,
    /// Its file: one `MOVES SCORE` line per position.
    text: &'static str,
    /// Pons' mean nodes per position on his set of the same name.
    pons_nodes: u64,
    /// How many of the first positions are timed (`None`: all of them).
    prefix: Option<usize>,
    /// Whether the set runs only with `LUDUS_BENCH_HARD=1`.
    hard: bool,
    /// Whether the set is also solved by Lazy SMP on 2 threads.
    lazy_smp: bool,
}

const SETS: [Set; 6] = [
    Set {
        name: "end-easy",
        text: include_str!("../samples/connect-four/end-easy.txt"),
        pons_nodes: 51,
        prefix: None,
        hard: false,
        lazy_smp: false,
    },
    Set {
        name: "middle-easy",
        text: include_str!("../benches/data/connect-four/middle-easy.txt"),
        pons_nodes: 450,
        prefix: None,
        hard: false,
        lazy_smp: false,
    },
    Set {
        name: "middle-medium",
        text: include_str!("../benches/data/connect-four/middle-medium.txt"),
        pons_nodes: 39_900,
        prefix: None,
        hard: false,
        lazy_smp: true,
    },
    Set {
        name: "begin-easy",
        text: include_str!("../benches/data/connect-four/begin-easy.txt"),
        pons_nodes: 3_298,
        prefix: None,
        hard: false,
        lazy_smp: false,
    },
    Set {
        name: "begin-medium",
        text: include_str!("../benches/data/connect-four/begin-medium.txt"),
        pons_nodes: 1_200_000,
        prefix: Some(5),
        hard: false,
        lazy_smp: false,
    },
    Set {
        name: "begin-hard",
        text: include_str!("../benches/data/connect-four/begin-hard.txt"),
        pons_nodes: 65_900_000,
        prefix: Some(1),
        hard: true,
        lazy_smp: false,
    },
];

/// Small boards solved from the empty position, with the outcome both engines find (for the first player).
const WEAK_SOLVES: [(u32, u32, Value); 4] =
    [(4, 4, Value::Draw), (5, 4, Value::Draw), (6, 4, Value::Lose(0)), (5, 5, Value::Draw)];

/// A position of a set with its score from the file.
struct Position {
    moves: &'static str,
    board: Board,
    score: i32,
}

/// An engine solving a set: its name and how to make a fresh one (empty table).
struct Contender {
    name: &'static str,
    make: fn() -> Box<dyn Engine<ConnectFour, Value = Value, Failure = Infallible>>,
}

/// The fast engine: alpha-beta, exact scores, over a growing 64 MiB packed table.
fn alpha_beta() -> Box<dyn Engine<ConnectFour, Value = Value, Failure = Infallible>> {
    let table = PackedTable::new(mib(64)).unwrap_or_else(|error| panic!("cannot make the table: {error}"));
    Box::new(AlphaBeta::with_table(Mode::Exact, table))
}

/// Lazy SMP on 2 threads, exact scores, over the parallel solver's 64 MiB table (allocated at once).
fn lazy_smp() -> Box<dyn Engine<ConnectFour, Value = Value, Failure = Infallible>> {
    let table = solver_table(mib(64), 2).unwrap_or_else(|error| panic!("cannot make the table: {error}"));
    let engine = LazySmp::with_table(Mode::Exact, 2, table);
    Box::new(engine.unwrap_or_else(|error| panic!("cannot start Lazy SMP: {error}")))
}

const ALPHA_BETA: Contender = Contender { name: "alpha-beta", make: alpha_beta };
const LAZY_SMP: Contender = Contender { name: "lazy-smp 2 threads", make: lazy_smp };

fn hard_enabled() -> bool {
    std::env::var(HARD).is_ok_and(|value| value == "1")
}

/// The positions of a set file; a bench stops loudly on bad data.
fn positions(game: &ConnectFour, name: &str, text: &'static str) -> Vec<Position> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| {
            let mut fields = line.split_whitespace();
            let (Some(moves), Some(score), None) = (fields.next(), fields.next(), fields.next()) else {
                panic!("{name}: line {}: expected `MOVES SCORE`, found `{line}`", index + 1)
            };
            let board = game.parse_moves(moves).unwrap_or_else(|illegal| {
                panic!("{name}: line {}: `{moves}`: {} (character {})", index + 1, illegal.reason, illegal.index + 1)
            });
            let score = score
                .parse()
                .unwrap_or_else(|error| panic!("{name}: line {}: bad score `{score}`: {error}", index + 1));
            Position { moves, board, score }
        })
        .collect()
}

/// Solves every position with `engine` (its table persists across them), asserting each score.
fn solve_all(
    engine: &mut dyn Engine<ConnectFour, Value = Value, Failure = Infallible>,
    game: &ConnectFour,
    positions: &[Position],
) {
    for position in positions {
        let value = engine.search(game, &position.board).unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(game.score(&position.board, value), position.score, "the score of {}", position.moves);
    }
}

/// One untimed solve of `positions` by a fresh `engine`: its time and positions visited.
fn solve_once(engine: &Contender, game: &ConnectFour, positions: &[Position]) -> (Duration, u64) {
    let mut solver = (engine.make)();
    let start = Instant::now();
    solve_all(solver.as_mut(), game, positions);
    (start.elapsed(), solver.stats().visited)
}

fn connect_four_sets(criterion: &mut Criterion) {
    let game = ConnectFour::standard();
    let hard = hard_enabled();
    for set in &SETS {
        if set.hard && !hard {
            println!("connect-four {}: skipped (about 30 s a position); run with {HARD}=1 to enable it", set.name);
            continue;
        }
        let all = positions(&game, set.name, set.text);
        let timed = &all[..set.prefix.unwrap_or(all.len()).min(all.len())];
        let count = timed.len().max(1) as f64;
        let which = if timed.len() == all.len() {
            format!("{} positions", all.len())
        } else {
            format!("the first {} of {} positions", timed.len(), all.len())
        };
        let engines: &[Contender] = if set.lazy_smp { &[ALPHA_BETA, LAZY_SMP] } else { &[ALPHA_BETA] };
        let mut group = criterion.benchmark_group(format!("connect-four {}", set.name));
        group.sample_size(SAMPLES).warm_up_time(Duration::from_secs(1));
        let mut first: Option<Duration> = None;
        for engine in engines {
            let (elapsed, visited) = solve_once(engine, &game, timed);
            let speed_up = first.map_or(String::new(), |reference| {
                format!(", {:.2}x the speed of {}", reference.as_secs_f64() / elapsed.as_secs_f64(), ALPHA_BETA.name)
            });
            first.get_or_insert(elapsed);
            println!(
                "connect-four {}: {which}, {}: {:.3} ms and {:.0} positions visited per position{speed_up} \
                 (Pons: {} nodes per position)",
                set.name,
                engine.name,
                elapsed.as_secs_f64() * 1000.0 / count,
                visited as f64 / count,
                set.pons_nodes,
            );
            // Long sets get about one iteration per sample (a little under, so that a faster warm-up does not
            // double the iterations); quick ones keep criterion's default.
            group.measurement_time(MEASUREMENT.max(elapsed.mul_f64(SAMPLES as f64 * 0.9)));
            group.bench_function(engine.name, |bencher| {
                bencher.iter_batched(
                    engine.make,
                    |mut solver| {
                        solve_all(solver.as_mut(), &game, timed);
                        solver
                    },
                    BatchSize::PerIteration,
                )
            });
        }
        group.finish();
    }
}

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

/// The standard 7 x 6 board weakly solved once by the fast engine in outcome mode, with `LUDUS_BENCH_HARD=1` only.
fn standard_weak_solve(_criterion: &mut Criterion) {
    if !hard_enabled() {
        println!("connect-four 7 x 6 weak solve: skipped (about 3 minutes); run with {HARD}=1 to enable it");
        return;
    }
    let game = ConnectFour::standard();
    let table = PackedTable::new(mib(64)).unwrap_or_else(|error| panic!("cannot make the table: {error}"));
    let mut engine = AlphaBeta::with_table(Mode::Outcome, table);
    let start = Instant::now();
    let value = engine.value(&game, &Board::EMPTY).outcome();
    println!(
        "7 x 6: alpha-beta (null window, packed table) says {value}, {} positions visited, {:?}",
        engine.stats().visited,
        start.elapsed()
    );
    assert!(matches!(value, Value::Win(_)), "the first player wins 7 x 6 Connect Four, not {value}");
}

/// The bench group, in a private module (the function `criterion_group!` generates has no doc comment).
mod group {
    criterion::criterion_group!(benches, super::connect_four_sets, super::weak_solves, super::standard_weak_solve);
}

criterion_main!(group::benches);
