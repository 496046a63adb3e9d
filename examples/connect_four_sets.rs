//! Generates Connect Four benchmark sets like Pascal Pons' six test sets: random legal play (no four in a row) to
//! a number of stones by stage (End: 29 to 41, Middle: 14 to 28, Begin: 1 to 13), each position scored by the
//! exact engine and rated by the positions the fast solver visits on it with a fresh table (Easy: under 10^4,
//! Medium: 10^4 to 10^7, Hard: 10^7 to 3 * 10^8, beyond which a position is left out). Pons' published means (his solver, no book: End-Easy 51, Middle-Easy
//! 450, Middle-Medium 39,900, Begin-Easy 3,298, Begin-Medium 1.2 M, Begin-Hard 65.9 M) fall in these bands.
//!
//! ```sh
//! cargo run --release --example connect_four_sets -- survey middle 200      # the distribution of a stage
//! cargo run --release --example connect_four_sets -- write benches/data/connect-four 7
//! cargo run --release --example connect_four_sets -- candidates 4 12 300 1 9 5     # 9 x 5 openings to rate
//! ```
//! `write DIR SEED [SET]` writes `DIR/<set>.txt` (one `MOVES SCORE` line per position, Pons' format) for the five sets
//! besides End-Easy (the official one is bundled in `samples/`), with the counts of [`SETS`].

use ludus_framework::engines::alpha_beta::{AlphaBeta, LazySmp};
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::plugin::{seeded_rng, SeededRng};
use ludus_framework::table::{mib, PackedTable};
use ludus_framework::Statistics;
use ludus_games::connect_four::{random_moves, solver_table, ConnectFour};
use rand::Rng;
use std::time::Instant;

/// A stage: the range of stones played.
#[derive(Clone, Copy)]
struct Stage {
    name: &'static str,
    stones: (u32, u32),
}

const END: Stage = Stage { name: "end", stones: (29, 41) };
const MIDDLE: Stage = Stage { name: "middle", stones: (14, 28) };
const BEGIN: Stage = Stage { name: "begin", stones: (1, 13) };

/// The ratings by positions visited: `[low, high)`.
const EASY: (u64, u64) = (0, 10_000);
const MEDIUM: (u64, u64) = (10_000, 10_000_000);
const HARD: (u64, u64) = (10_000_000, u64::MAX);

/// The sets written: name, stage, rating, number of positions.
const SETS: [(&str, Stage, (u64, u64), usize); 5] = [
    ("middle-easy", MIDDLE, EASY, 200),
    ("middle-medium", MIDDLE, MEDIUM, 100),
    ("begin-easy", BEGIN, EASY, 100),
    ("begin-medium", BEGIN, MEDIUM, 20),
    ("begin-hard", BEGIN, HARD, 3),
];

/// Positions that would take longer than this are left out (counted as rated beyond every set).
const BUDGET: u64 = 300_000_000;

/// A random position of `stage` with its exact score and the positions a fresh fast solver visits on it; the
/// score is `None` past `budget` positions.
fn sample(game: &ConnectFour, stage: Stage, rng: &mut SeededRng, budget: u64) -> (String, Option<i32>, u64) {
    let stones = rng.gen_range(stage.stones.0..=stage.stones.1);
    let moves = random_moves(game, stones, rng).unwrap_or_default();
    let board = game.parse_moves(&moves).unwrap_or_default();
    let table = PackedTable::new(mib(64)).unwrap_or_else(|error| panic!("{error}"));
    let mut engine = AlphaBeta::with_table(Mode::Exact, table).with_budget(budget);
    let score = engine.try_value(game, &board).ok().map(|value| game.score(&board, value));
    (moves, score, engine.stats().visited)
}

fn survey(stage: Stage, count: usize) {
    let game = ConnectFour::standard();
    let mut rng = seeded_rng(1);
    let mut visits: Vec<u64> = Vec::new();
    let start = Instant::now();
    for _ in 0..count {
        visits.push(sample(&game, stage, &mut rng, BUDGET).2);
    }
    visits.sort_unstable();
    let band = |(low, high): (u64, u64)| visits.iter().filter(|&&visited| visited >= low && visited < high).count();
    let at = |fraction: f64| visits.get(((visits.len() as f64 - 1.0) * fraction) as usize).copied().unwrap_or(0);
    println!(
        "{}: {count} positions in {:?}; visited: median {}, 90% {}, max {}; easy {}, medium {}, hard {} (beyond {BUDGET} left out)",
        stage.name,
        start.elapsed(),
        at(0.5),
        at(0.9),
        at(1.0),
        band(EASY),
        band(MEDIUM),
        band(HARD)
    );
}

/// Prints `count` random positions (their moves, one a line) with `stones.0` to `stones.1` stones on `game`'s
/// board, for rating by another solver (the Pons-style reference: `benches/reference/README.md`).
fn candidates(game: &ConnectFour, stones: (u32, u32), count: usize, seed: u64) {
    let mut rng = seeded_rng(seed);
    for _ in 0..count {
        let played = rng.gen_range(stones.0..=stones.1);
        println!("{}", random_moves(game, played, &mut rng).unwrap_or_default());
    }
}

/// Solves every position of `path` (lines `MOVES SCORE [NODES]`, as the reference prints them) with a fresh
/// fast solver (the CLI's 64 MiB table) and prints per line the moves, the score, the positions visited and
/// the given nodes; then the totals. A wrong score stops the run. With `threads` above 1 the solver is Lazy SMP.
fn rate(path: &str, threads: usize) -> std::io::Result<()> {
    let game = ConnectFour::standard();
    let text = std::fs::read_to_string(path)?;
    let (mut visited_sum, mut nodes_sum, mut count) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    for line in text.lines().filter(|line| !line.starts_with('#') && !line.is_empty()) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let moves = fields.first().copied().unwrap_or("-");
        let board = game.parse_moves(moves.trim_start_matches('-')).unwrap_or_default();
        let table = solver_table(mib(64), threads).unwrap_or_else(|error| panic!("{error}"));
        let (value, visited) = if threads > 1 {
            let mut engine = LazySmp::with_table(Mode::Exact, threads, table).unwrap_or_else(|error| panic!("{error}"));
            (engine.value(&game, &board), engine.stats().visited)
        } else {
            let mut engine = AlphaBeta::with_table(Mode::Exact, table);
            (engine.value(&game, &board), engine.stats().visited)
        };
        let score = game.score(&board, value);
        if let Some(expected) = fields.get(1).and_then(|field| field.parse::<i32>().ok()) {
            assert_eq!(score, expected, "{moves}");
        }
        let nodes: u64 = fields.get(2).and_then(|field| field.parse().ok()).unwrap_or(0);
        println!("{moves} {score} {visited} {nodes}");
        (visited_sum, nodes_sum, count) = (visited_sum + visited, nodes_sum + nodes, count + 1);
    }
    let count = count.max(1);
    println!(
        "# {count} positions in {:?}: {} visited a position, {} given nodes a position",
        start.elapsed(),
        visited_sum / count,
        nodes_sum / count
    );
    Ok(())
}

fn write(directory: &str, seed: u64, only: Option<&str>) -> std::io::Result<()> {
    let game = ConnectFour::standard();
    std::fs::create_dir_all(directory)?;
    for (name, stage, (low, high), count) in SETS {
        if only.is_some_and(|wanted| wanted != name) {
            continue;
        }
        let mut rng = seeded_rng(seed);
        let mut lines = String::new();
        let (mut found, mut tried, mut visited_sum) = (0, 0, 0u64);
        let start = Instant::now();
        while found < count {
            // A position that needs more than the set's most is not in the set: no need to finish it.
            let (moves, score, visited) = sample(&game, stage, &mut rng, high.min(BUDGET));
            tried += 1;
            if let Some(score) = score.filter(|_| visited >= low && visited < high) {
                lines.push_str(&format!("{moves} {score}\n"));
                found += 1;
                visited_sum += visited;
            }
        }
        std::fs::write(format!("{directory}/{name}.txt"), lines)?;
        println!(
            "{name}: {count} of {tried} random positions, mean {} positions visited (fresh table), {:?}",
            visited_sum / count as u64,
            start.elapsed()
        );
    }
    Ok(())
}

fn main() -> std::io::Result<()> {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let argument = |index: usize| arguments.get(index).map(String::as_str);
    match argument(0) {
        Some("survey") => {
            let stage = match argument(1) {
                Some("end") => END,
                Some("begin") => BEGIN,
                _ => MIDDLE,
            };
            survey(stage, argument(2).and_then(|count| count.parse().ok()).unwrap_or(100));
            Ok(())
        }
        Some("candidates") => {
            let number =
                |index: usize, default: u64| argument(index).and_then(|text| text.parse().ok()).unwrap_or(default);
            let (width, height) = (number(5, 7) as u32, number(6, 6) as u32);
            let game = ConnectFour::new(width, height).map_err(std::io::Error::other)?;
            candidates(&game, (number(1, 4) as u32, number(2, 14) as u32), number(3, 1000) as usize, number(4, 1));
            Ok(())
        }
        Some("rate") => {
            rate(argument(1).unwrap_or("-"), argument(2).and_then(|threads| threads.parse().ok()).unwrap_or(1))
        }
        Some("write") => write(
            argument(1).unwrap_or("benches/data/connect-four"),
            argument(2).and_then(|seed| seed.parse().ok()).unwrap_or(7),
            argument(3),
        ),
        _ => {
            eprintln!(
                "usage: connect_four_sets survey end|middle|begin [COUNT] | write [DIR] [SEED] [SET] \
                 | candidates [MIN MAX COUNT SEED [WIDTH HEIGHT]] | rate FILE [THREADS]"
            );
            Ok(())
        }
    }
}
