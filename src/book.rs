//! `ludus book`: a game's opening book built (every position up to a few plies with its exact value, resumed
//! from its journal after a stop) and checked, and its arguments.

use crate::cli::{mib_parser, thread_count_parser, Format};
use crate::places::{books_directory, EndgameOptions};
use crate::progress::Interrupt;
use crate::registry::Registry;
use crate::reports::print;
use anyhow::{Context, Result};
use clap::Subcommand;
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

/// The `ludus book` subcommands.
#[derive(Debug, Subcommand)]
pub enum BookCommand {
    /// Build a game's opening book: every position up to `--depth` plies from the start, up to symmetry, with
    /// its exact value; the deepest ply searched by the game's engine, the others backed up from their
    /// moves. A build that stops resumes from its journal.
    Build {
        /// The game, with its parameters.
        game: String,
        /// The plies from the start.
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=64))]
        depth: u32,
        /// The book's file (default: the game's book in the books directory, `$LUDUS_BOOKS` or `books/`).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// The engine and its budgets (one table kept from one position to the next).
        #[command(flatten)]
        engine: SearchOptions,
        /// Output format of the closing summary.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Check a game's opening book: every position of its plies in it, every value above the deepest ply
    /// against its moves', and a random sample searched again: exit status 1 if any is wrong.
    Check {
        /// The game, with its parameters.
        game: String,
        /// The book's file (default: the game's book in the books directory).
        #[arg(long, value_name = "FILE")]
        book: Option<PathBuf>,
        /// Positions searched again.
        #[arg(long, default_value_t = 20)]
        sample: usize,
        /// The seed of the sample.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The engine and its budgets.
        #[command(flatten)]
        engine: SearchOptions,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
}

/// The engine's budgets of a book's build or check (no book is consulted: it is built by searching).
#[derive(Debug, clap::Args)]
pub struct SearchOptions {
    /// The memory budget of the engine's table, in MiB (at most `--memory-mb`).
    #[arg(long, default_value_t = 1024, value_parser = mib_parser())]
    pub table_mb: usize,
    /// The memory budget of the whole build, in MiB: the table, and the positions of the book's plies.
    #[arg(long, default_value_t = ludus_framework::plugin::default_memory_mb(), value_parser = mib_parser())]
    pub memory_mb: usize,
    /// The most positions one search may expand (past it, a budget error).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_positions: Option<u64>,
    /// Threads of each search (0: all cores; at most 256), for a game whose fastest solver searches on several
    /// (Lazy SMP: Connect Four, tic-tac-toe, the scored games); the others search on one.
    #[arg(long, default_value_t = 1, value_parser = thread_count_parser())]
    pub threads: usize,
    /// The endgame database probed by the searches.
    #[command(flatten)]
    pub endgame: EndgameOptions,
}

impl SearchOptions {
    /// The options of the searches.
    pub fn analysis_options(&self) -> ludus_framework::playable::AnalysisOptions {
        ludus_framework::playable::AnalysisOptions {
            threads: ludus_framework::plugin::thread_count(self.threads),
            table_mb: self.table_mb,
            memory_mb: self.memory_mb,
            max_positions: self.max_positions.unwrap_or(u64::MAX),
            endgame: self.endgame.place(),
            ..Default::default()
        }
    }
}
