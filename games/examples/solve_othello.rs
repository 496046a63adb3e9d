//! Solves Othello on an n x n board from the start with the scored alpha-beta over a packed table, with a
//! progress line on standard error: `cargo run --release -p ludus-games --example solve_othello -- 6 2048`
//! (the side, the table's MiB; then optionally the first guess's budget of positions, and moves from the start
//! to solve the position after them, as `ludus analyze` reads them: `-- 6 256 16777216 c2 b2 a2`). Prints
//! the perfect-play margin for Black, the time, positions and table. `--threads=N` first searches on `N` threads
//! (the scored Lazy SMP over the same table).

use ludus_framework::engines::scored::{Progress, ScoredAlphaBeta, ScoredLazySmp, GUESS_POSITIONS};
use ludus_framework::engines::Mode;
use ludus_framework::playable::TextForm;
use ludus_framework::table::{mib, PackedTable, TableStorage};
use ludus_framework::Engine;
use ludus_framework::{Statistics, TableEngine};
use ludus_games::othello::{CompactOthello, Othello};
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

fn main() -> Result<(), ludus_framework::Error> {
    let mut arguments = std::env::args().skip(1).peekable();
    let threads: usize = match arguments.next_if(|argument| argument.starts_with("--threads=")) {
        Some(argument) => argument["--threads=".len()..].parse().unwrap_or(1),
        None => 1,
    };
    let size: u32 = arguments.next().and_then(|text| text.parse().ok()).unwrap_or(6);
    let table_mb: usize = arguments.next().and_then(|text| text.parse().ok()).unwrap_or(2048);
    let guess_budget: u64 = arguments.next().and_then(|text| text.parse().ok()).unwrap_or(GUESS_POSITIONS);
    let line: Vec<String> = arguments.collect();
    let game = CompactOthello::new(Othello::new(size, true)?)?;
    let root = game
        .game
        .parse_position(&line.join(" "))
        .map_err(|error| ludus_framework::Error::Position { game: "othello".into(), error })?;
    let started = Instant::now();
    let hook = Arc::new(move |progress: &Progress| {
        let mut err = std::io::stderr().lock();
        let seconds = started.elapsed().as_secs_f64();
        let what = match (progress.test, progress.finished) {
            (Some(test), true) => format!(
                "test >= {test}: {} (bound {})",
                if progress.found >= test { "yes" } else { "no" },
                progress.found
            ),
            (Some(test), false) => format!("testing >= {test}"),
            (None, _) => String::new(),
        };
        let _ = writeln!(
            err,
            "[{seconds:9.1} s] {} positions, score in [{}, {}], {what}",
            progress.visited, progress.low, progress.high
        );
    });
    let table = PackedTable::with_budget(mib(table_mb))?;
    let (score, stats, table_bytes) = if threads > 1 {
        let mut engine =
            ScoredLazySmp::with_table(Mode::Exact, threads, table)?.with_progress(hook).with_guess_budget(guess_budget);
        (engine.search(&game, &root)?, engine.stats(), TableStorage::bytes(engine.table()))
    } else {
        let mut engine =
            ScoredAlphaBeta::with_table(Mode::Exact, table).with_progress(hook).with_guess_budget(guess_budget);
        (engine.search(&game, &root)?, engine.stats(), TableStorage::bytes(engine.table()))
    };
    let score = if root.black_to_move { score } else { -score };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "othello {size}x{size} after {} moves: margin for Black {score}; {:.1} s, {} positions, {} hits, table {} MiB ({} entries held), {threads} thread(s)",
        line.len(),
        started.elapsed().as_secs_f64(),
        stats.visited,
        stats.hits,
        table_bytes >> 20,
        stats.table_entries
    );
    Ok(())
}
