//! `ludus book`: a game's opening book built (every position up to a few plies with its exact value, resumed
//! from its journal after a stop) and checked.

use crate::cli::{books_directory, BookCommand};
use crate::progress::Interrupt;
use crate::registry::Registry;
use crate::reports::print;
use anyhow::{Context, Result};
use ludus_framework::database::book::{book_file_name, BookProgress};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How often a build says how far it is.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// Runs a `ludus book` subcommand; `Ok(false)` when a check finds a problem.
pub fn run(registry: &Registry, command: BookCommand) -> Result<bool> {
    match command {
        BookCommand::Build { game, depth, out, engine, format } => {
            let game = registry.game(&game)?;
            let path = out.unwrap_or_else(|| books_directory().join(book_file_name(&game.name())));
            if let Some(parent) = path.parent().filter(|parent| !parent.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).with_context(|| format!("cannot make {}", parent.display()))?;
            }
            let started = Instant::now();
            let mut last = started;
            let mut first_searched = None;
            let interrupt = Interrupt::install();
            let mut watch = |progress: BookProgress| {
                let first = *first_searched.get_or_insert(progress.searched);
                if progress.searched == first {
                    note!(
                        "ludus book: {} positions to {depth} plies; {} of them to search, {} known from the journal",
                        progress.positions,
                        progress.to_search,
                        first
                    );
                } else if last.elapsed() >= PROGRESS_EVERY || progress.searched == progress.to_search {
                    last = Instant::now();
                    let seconds = started.elapsed().as_secs_f64();
                    let rate = (progress.searched - first) as f64 / seconds;
                    let left = (progress.to_search - progress.searched) as f64 / rate.max(1e-9);
                    note!(
                        "ludus book: {} of {} searched ({rate:.2} a second, about {left:.0} s left)",
                        progress.searched,
                        progress.to_search
                    );
                }
                // Ctrl-C: the values found stay in the journal, and the next build resumes from them.
                if interrupt.is_set() {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            };
            let report = game.build_book(depth, &path, &engine.analysis_options(), &mut watch)?;
            print(&report, format)?;
            Ok(true)
        }
        BookCommand::Check { game, book, sample, seed, engine, format } => {
            let game = registry.game(&game)?;
            let path: PathBuf = book.unwrap_or_else(|| books_directory().join(book_file_name(&game.name())));
            let check = game.check_book(&path, sample, seed, &engine.analysis_options())?;
            print(&check, format)?;
            Ok(check.passed())
        }
    }
}
