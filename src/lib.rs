//! The `ludus` command-line program as a library: [`run`] is the whole CLI over a [`Registry`] of plugins and
//! games, so a crate of your own can add its plugins and games and keep everything else (`examples/custom_cli.rs`
//! is a complete one). It holds no game logic; see the `ludus-framework`, `ludus-games` and `ludus-puzzles`
//! crates.
//!
//! ```no_run
//! fn main() -> std::process::ExitCode {
//!     // Every built-in plugin and game; add yours with `with_entry` (an `Entry` of a game, a plugin or both).
//!     ludus::run(ludus::Registry::builtin())
//! }
//! ```

#[macro_use]
mod output;
mod places;

mod bench;
mod book;
mod cli;
mod commands;
mod database;
pub mod flags;
mod play;
mod progress;
mod registry;
pub mod reports;
mod serve;

pub use registry::Registry;

use clap::Parser;
use cli::{Cli, Command, Format};
use ludus_framework::plugin::{PluginOptions, SolveOptions};
use std::process::ExitCode;

/// Deep searches recurse once per move; run on a thread with a generous stack.
const STACK_BYTES: usize = 512 * 1024 * 1024;

/// Runs the command, then flushes standard output: a command has succeeded only once all it said is written.
fn dispatch(registry: &Registry, cli: Cli) -> anyhow::Result<bool> {
    let outcome = dispatch_command(registry, cli);
    // What was written before an error still goes out; the command's own error comes first.
    let flushed = output::finish();
    let outcome = outcome?;
    flushed?;
    Ok(outcome)
}

fn dispatch_command(registry: &Registry, cli: Cli) -> anyhow::Result<bool> {
    match cli.command.unwrap_or(Command::Samples { plugin: None, format: Format::Text }) {
        Command::List { format } => commands::list(registry, format).map(|()| true),
        Command::Samples { plugin, format } => commands::samples(registry, plugin.as_deref(), format),
        Command::Solve {
            plugin,
            file,
            solver,
            threads,
            format,
            no_limit,
            table_mb,
            memory_mb,
            option,
            max_positions,
            stats,
            max_input_mb,
        } => {
            let plugin_options = PluginOptions::new(option);
            let options = SolveOptions {
                solver,
                threads,
                no_limit,
                table_mb,
                memory_mb,
                plugin_options,
                max_positions,
                progress: None,
            };
            let interrupt = progress::Interrupt::install();
            let report = commands::Report { format, stats, max_input_bytes: max_input_mb << 20 };
            commands::solve(registry, &plugin, file.as_deref(), &options, report, &interrupt).map(|()| true)
        }
        Command::Verify { plugin, input, output, format, max_input_mb } => {
            commands::verify(registry, &plugin, &input, &output, format, max_input_mb << 20)
        }
        Command::Check { plugin, cases, seed, option, format } => {
            commands::check(registry, &plugin, cases, seed, &PluginOptions::new(option), format)
        }
        Command::Gen { plugin, seed, preset, cases, size, output } => {
            commands::generate(registry, &plugin, seed, preset, cases, size, output.as_ref()).map(|()| true)
        }
        Command::Games { format } => commands::games(registry, format).map(|()| true),
        Command::Analyze { game, position, engine, line, value_only, format } => {
            let _interrupt = progress::Interrupt::install_ending_at_once();
            let options =
                ludus_framework::playable::AnalysisOptions { max_line: line, value_only, ..engine.analysis_options() };
            commands::analyze(registry, &game, position.as_deref(), &options, format).map(|()| true)
        }
        Command::Play { game, side, engine, db, seed, ask_dice } => {
            let _interrupt = progress::Interrupt::install_ending_at_once();
            let dice = play::DiceOptions { seed, ask: ask_dice };
            play::play(registry, &game, side, &engine.analysis_options(), db.as_deref(), dice).map(|()| true)
        }
        Command::Db { command } => database::run(registry, command),
        Command::Book { command } => book::run(registry, command),
        Command::Serve { options } => serve::run(registry, &options).map(|()| true),
        Command::Bench { filter, threads, format } => {
            bench::run(registry, filter.as_deref(), threads, format).map(|()| true)
        }
    }
}

/// Runs the `ludus` command line (arguments from the process) over `registry`, and returns the exit status:
/// 0 success, 1 a rejected answer or failed check, 2 an error, 130 stopped by Ctrl-C.
pub fn run(registry: Registry) -> ExitCode {
    let cli = Cli::parse();
    file_size_limit_as_error();
    let worker = std::thread::Builder::new().stack_size(STACK_BYTES).spawn(move || dispatch(&registry, cli));
    let outcome = match worker {
        Ok(handle) => {
            handle.join().unwrap_or_else(|_| Err(anyhow::anyhow!("internal error: the solver thread panicked")))
        }
        Err(error) => Err(anyhow::anyhow!("cannot start the solver thread: {error}")),
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        // The reader of our output went away (`ludus bench | head`): nothing more to say.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        // Stopped by Ctrl-C: the status a shell gives an interrupted program.
        Err(error) if is_cancelled(&error) => {
            note!("{}", flags::describe_any(&error));
            ExitCode::from(130)
        }
        Ok(false) => ExitCode::from(1),
        Err(error) => {
            note!("error: {}", flags::describe_any(&error));
            ExitCode::from(2)
        }
    }
}

/// Past a file-size limit (`ulimit -f`), the system stops a process with SIGXFSZ unless the signal is
/// caught; caught, the write fails with "File too large" instead, and that error names the file being written.
fn file_size_limit_as_error() {
    #[cfg(unix)]
    {
        let caught = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        if let Err(error) = signal_hook::flag::register(signal_hook::consts::SIGXFSZ, caught) {
            note!("warning: cannot catch SIGXFSZ ({error}): a file-size limit will stop ludus without a message");
        }
    }
}

fn is_cancelled(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        matches!(cause.downcast_ref::<ludus_framework::Error>(), Some(ludus_framework::Error::Cancelled { .. }))
    })
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    let broken = |io: &std::io::Error| io.kind() == std::io::ErrorKind::BrokenPipe;
    error.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(broken)
            || matches!(cause.downcast_ref(), Some(ludus_framework::Error::Io { cause, .. }) if broken(cause))
    })
}
