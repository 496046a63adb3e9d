//! Measures the parallel negamax engine against the sequential one on Connect Four weak and strong solves,
//! for several split depths and thread counts, and checks that every run gives the same value.
//!
//! Run with `cargo run --release --example parallel_speedup [WIDTH HEIGHT]` (default 5 x 4).

use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::parallel::ParallelNegamax;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::plugin::with_threads;
use ludus_framework::Statistics;
use ludus_games::connect_four::{Board, ConnectFour};
use std::time::Instant;

fn main() -> Result<(), ludus_framework::Error> {
    let arguments: Vec<u32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let (width, height) = match arguments[..] {
        [width, height] => (width, height),
        _ => (5, 4),
    };
    let game = ConnectFour::new(width, height)?;
    let start = Board::default();
    for mode in [Mode::Outcome, Mode::Exact] {
        let mut sequential = MemoNegamax::new(mode);
        let started = Instant::now();
        let expected = sequential.value(&game, &start);
        let base = started.elapsed().as_secs_f64();
        println!("{width}x{height} {mode:?}: {expected}; memo negamax {:.1} ms, {}", base * 1e3, sequential.stats());
        for split_depth in [2, 4, 6, 8] {
            for threads in [1, 2] {
                let parallel = ParallelNegamax::new(mode, split_depth);
                let started = Instant::now();
                let value = with_threads(threads, || parallel.evaluate(&game, &start))?;
                let seconds = started.elapsed().as_secs_f64();
                assert_eq!(value.outcome(), expected.outcome());
                if mode == Mode::Exact {
                    assert_eq!(value, expected);
                }
                println!(
                    "  split depth {split_depth}, {threads} thread(s): {:.1} ms ({:.2}x of sequential), {}",
                    seconds * 1e3,
                    base / seconds,
                    parallel.stats()
                );
            }
        }
    }
    Ok(())
}
