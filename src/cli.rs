//! The command line: clap definitions of every `ludus` subcommand and its flags.

use crate::book::BookCommand;
pub use crate::places::{BookOptions, EndgameOptions};
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Ludus: exact solvers for games and puzzles. Without a command, runs every plugin on its bundled sample.
#[derive(Debug, Parser)]
#[command(name = "ludus", version, about, long_about = None)]
pub struct Cli {
    /// What to do (default: `samples`).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Output format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The official output format (or a readable table).
    #[default]
    Text,
    /// JSON on standard output.
    Json,
}

/// Generated size class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum PresetArg {
    /// Tiny instances that every solver, brute force included, finishes.
    #[default]
    Small,
    /// The official large limits.
    Official,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the plugins with their kind, solvers and summary.
    List {
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Run every plugin (or one) on its bundled sample and say whether the answer is right, with the time.
    Samples {
        /// Only this plugin.
        plugin: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Solve an input file in the plugin's official format.
    Solve {
        /// The plugin (see `ludus list`).
        plugin: String,
        /// The input file; `-` or nothing for standard input.
        file: Option<PathBuf>,
        /// The solver (`fast`, `generic`, ...; see `ludus list`). `--engine` is an older name for it.
        #[arg(long, visible_alias = "engine", default_value = "fast")]
        solver: String,
        /// Threads (0: all cores; at most 256): a solver that works case by case solves this many cases at
        /// once; a `parallel` solver uses them inside each case.
        #[arg(long, default_value_t = 0, value_parser = thread_count_parser())]
        threads: usize,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// Let a size-limited solver run past its limit (it may take very long).
        #[arg(long)]
        no_limit: bool,
        /// The memory budget of the search engine's table, in MiB.
        #[arg(long, default_value_t = ludus_framework::table::DEFAULT_TABLE_MB, value_parser = mib_parser())]
        table_mb: usize,
        /// The memory budget of the whole solve, in MiB (default: half the machine's memory): the tables of all
        /// worker threads must fit in it.
        #[arg(long, default_value_t = ludus_framework::plugin::default_memory_mb(), value_parser = mib_parser())]
        memory_mb: usize,
        /// An option of the plugin's own, `NAME` (a switch turned on) or `NAME=VALUE`; repeatable. `ludus list`
        /// shows each plugin's options (connect-four: `weak`; stack-management, bacterial-tactics: `witness`).
        #[arg(long = "option", value_name = "NAME[=VALUE]")]
        option: Vec<String>,
        /// The most positions (states, components, candidates) a search engine may expand for one case; past it
        /// the case ends with a budget error.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        max_positions: Option<u64>,
        /// Print engine statistics and the time on standard error.
        #[arg(long)]
        stats: bool,
        /// The most input read, in MiB: a larger input is refused before it is parsed.
        #[arg(long, default_value_t = crate::commands::DEFAULT_MAX_INPUT_MB, value_parser = clap::value_parser!(u64).range(1..=MAX_MB))]
        max_input_mb: u64,
    },
    /// Judge an answer file against an input file, case by case, by the plugin's rules.
    Verify {
        /// The plugin.
        plugin: String,
        /// The input file.
        input: PathBuf,
        /// The answer file.
        output: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// The most read of each file, in MiB: a larger file is refused before it is parsed.
        #[arg(long, default_value_t = crate::commands::DEFAULT_MAX_INPUT_MB, value_parser = clap::value_parser!(u64).range(1..=MAX_MB))]
        max_input_mb: u64,
    },
    /// Cross-check every solver of a plugin (or `all`) on random small instances; every answer must verify.
    Check {
        /// The plugin, or `all`.
        plugin: String,
        /// Number of random instances (1 to 1,000,000).
        #[arg(long, default_value_t = 1000, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
        cases: usize,
        /// First seed (instance i uses seed + i).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// An option of the plugin's own, `NAME` or `NAME=VALUE`, repeatable (`witness`: ask for winning lines
        /// too, so the judge replays them). With `all`, each plugin gets the options it declares, and one that
        /// no plugin declares is an error.
        #[arg(long = "option", value_name = "NAME[=VALUE]")]
        option: Vec<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Write a random input in the plugin's official format.
    Gen {
        /// The plugin.
        plugin: String,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Size class.
        #[arg(long, value_enum, default_value_t)]
        preset: PresetArg,
        /// Number of cases.
        #[arg(long)]
        cases: Option<usize>,
        /// The main size parameter (tiles, grid side, stacks...), overriding the preset's.
        #[arg(long)]
        size: Option<usize>,
        /// Write to this file instead of standard output.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// List the games that `analyze`, `play` and `db` take, with their parameters.
    Games {
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Analyse a position of a game: its value, every move's value, the best moves and the principal variation.
    Analyze {
        /// The game, with its parameters (`tic-tac-toe`, `connect-four:width=5,height=4`; see `ludus games`).
        game: String,
        /// The position, as the game writes it (its moves from the start); the start position if left out.
        position: Option<String>,
        /// The engine and its budgets (the move values and the line that follow the position's own search
        /// reuse its table).
        #[command(flatten)]
        engine: EngineOptions,
        /// The most moves of the principal variation (each ply of it is a search; 0: no line).
        #[arg(long, value_name = "PLIES", default_value_t = ludus_framework::playable::AnalysisOptions::default().max_line)]
        line: usize,
        /// The position's value alone: one search, no move's value and no line (for a position whose every
        /// move would be a long search of its own).
        #[arg(long, conflicts_with = "line")]
        value_only: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Play a game against the perfect player in the terminal (or from standard input: one command a line).
    Play {
        /// The game, with its parameters (see `ludus games`).
        game: String,
        /// Your side: `first` or `second` (asked if left out).
        #[arg(long)]
        side: Option<Side>,
        /// The perfect player's engine and its budgets (each of its searches within them).
        #[command(flatten)]
        engine: EngineOptions,
        /// Read the perfect player's moves from this solved database (`ludus db solve`) instead of searching:
        /// the games of `ludus db`, such as `dodgem:n=5`.
        #[arg(long, conflicts_with = "engine")]
        db: Option<PathBuf>,
        /// In a game with chance, the seed of the dice rolled (the same seed, the same rolls).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// In a game with chance, ask for every outcome (type what your own dice show) instead of rolling.
        #[arg(long)]
        ask_dice: bool,
    },
    /// Strong solving into databases on disk: solve, query, analyze, check (see `ludus db --help`).
    Db {
        /// What to do with the database.
        #[command(subcommand)]
        command: DbCommand,
    },
    /// Opening books: every position up to a few plies with its exact value, consulted before a search (see
    /// `ludus book --help`).
    Book {
        /// What to do with the book.
        #[command(subcommand)]
        command: BookCommand,
    },
    /// Open the game explorer: a local web server with a page (pick a game, see every move's value on the
    /// board, play the perfect player, follow the value history) and its JSON API (docs/serve.md).
    Serve {
        /// The databases, address, game and budgets.
        #[command(flatten)]
        options: ServeArgs,
    },
    /// Time every solver of every plugin on generated official-size inputs, and the engines on classic games.
    Bench {
        /// Only workloads whose name contains this text.
        #[arg(long)]
        filter: Option<String>,
        /// Worker threads for parallel engines (0: all cores; at most 256).
        #[arg(long, default_value_t = 0, value_parser = thread_count_parser())]
        threads: usize,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
}

/// The `ludus db` subcommands. A game is named with its parameters (`connect-four:width=5,height=4`; `ludus
/// games` lists them); its database is a directory, by default `db/` and the game's name.
#[derive(Debug, Subcommand)]
pub enum DbCommand {
    /// Solve every position reachable from the start, tier by tier, into one file per tier (a stopped solve
    /// resumes from the tiers on disk).
    Solve {
        /// The game, with its parameters.
        game: String,
        /// The database directory (made if missing).
        #[arg(long, visible_alias = "out")]
        db: Option<PathBuf>,
        /// The memory budget of the solve, in MiB (past it, a clear error; the tiers solved stay on disk).
        #[arg(long, default_value_t = ludus_framework::plugin::default_memory_mb(), value_parser = mib_parser())]
        memory_mb: usize,
        /// The most positions held in memory at once, if fewer than the memory budget allows.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        max_positions: Option<u64>,
        /// Worker threads (0: all cores; at most 256).
        #[arg(long, default_value_t = 0, value_parser = thread_count_parser())]
        threads: usize,
        /// Output format of the closing summary.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// Solve over the ranks of an MPI run (`mpirun -np N ludus db solve GAME --db DIR --mpi`): rank 0 hands
        /// out the tiers, the others solve them into DIR, which every rank must see. Needs a build with the
        /// `mpi` feature.
        #[arg(long)]
        mpi: bool,
        /// With `--mpi`: every tier solved by every rank at once, instead of each tier by one rank: for tiers
        /// too large for one machine. A game solved by un-moves is split by shares of each tier's ranks (a few
        /// bytes a rank on each rank); any other by a hash of the keys.
        #[arg(long, requires = "mpi")]
        split_tiers: bool,
        /// Solve the game's endgame database instead (Kalah): every position of the tiers 0 to N (the seeds left
        /// in the pits), whatever the start, in memory at a byte a position, one file per tier; by default into
        /// `db/` and the folder of the game's family (`db/kalah_pits=6_capture=opposite.endgame`), where
        /// `analyze`, `play`, `serve` and `book` find it (else `--endgame DIR`). One database serves every game
        /// of the same family (Kalah: the same pits and capture rule, any seeds).
        #[arg(long, value_name = "N", conflicts_with = "mpi", value_parser = clap::value_parser!(u32).range(0..=127))]
        up_to: Option<u32>,
    },
    /// A position's value, every move's value and the principal variation, read from the database.
    Query {
        /// The game, with its parameters.
        game: String,
        /// The position, as the game writes it (its moves from the start); the start position if left out.
        position: Option<String>,
        /// The database directory.
        #[arg(long)]
        db: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Counts of won, lost and drawn positions by remoteness and by tier, and the longest win and loss.
    Analyze {
        /// The game, with its parameters.
        game: String,
        /// The database directory.
        #[arg(long)]
        db: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Plan a solve split by shares over MPI ranks (`db solve --mpi --split-tiers`), before it runs: each
    /// tier's ranks, the memory a rank holds for it, the bytes each rank sends and the time, from the solve's
    /// memory model and rates measured on a 2-core machine; the tiers that do not fit the memory given.
    Plan {
        /// The game, with its parameters.
        game: String,
        /// The MPI ranks (processes).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        ranks: u32,
        /// The memory each rank may hold, in GB (GiB).
        #[arg(long, default_value_t = 16.0)]
        memory_gb: f64,
        /// The threads of each rank.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: u32,
        /// The cores working in all (default: ranks times threads; fewer when local ranks share a machine).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        cores: Option<u32>,
        /// Each rank's network link, in Gbit/s, whose transfers add to the time (default: local ranks).
        #[arg(long)]
        network_gbit: Option<f64>,
        /// Ranks drawn at random from each tier to estimate its positions (each followed back to the start).
        #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
        samples: u32,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Re-derive every record from its children's records: exit status 1 if any is wrong, damaged or missing.
    Check {
        /// The game, with its parameters.
        game: String,
        /// The database directory.
        #[arg(long)]
        db: Option<PathBuf>,
        /// The memory budget of the check, in MiB: a tier and its child tiers as read, or an endgame
        /// database's tiers (past it, a clear error before they are read).
        #[arg(long, default_value_t = ludus_framework::plugin::default_memory_mb(), value_parser = mib_parser())]
        memory_mb: usize,
        /// Worker threads (0: all cores; at most 256).
        #[arg(long, default_value_t = 0, value_parser = thread_count_parser())]
        threads: usize,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
}

/// What `ludus serve` is given: the databases, the address, the page's game and the budgets.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// A database directory to serve (`ludus db solve`), repeatable: its game's values are read from it
    /// instead of searched. Its game is read from its tier files.
    #[arg(long = "db", value_name = "DIR")]
    pub databases: Vec<PathBuf>,
    /// The port to listen on (0: one the system picks; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on: the loopback address unless told otherwise (`0.0.0.0` serves every
    /// network the machine is on).
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// The game the page opens with, with its parameters (default: the first one `ludus games` lists).
    #[arg(long)]
    pub game: Option<String>,
    /// The most positions one search may expand (past it, the request gets a budget error).
    #[arg(long, default_value_t = 20_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_positions: u64,
    /// The most seconds a request waits for its search.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub max_seconds: u64,
    /// The memory budget of a search's table, in MiB (at most `--memory-mb`).
    #[arg(long, default_value_t = ludus_framework::table::DEFAULT_TABLE_MB, value_parser = mib_parser())]
    pub table_mb: usize,
    /// The memory budget of one search, in MiB: its table, or every position the retrograde engine holds.
    #[arg(long, default_value_t = 1024, value_parser = mib_parser())]
    pub memory_mb: usize,
    /// Searches at once (each within `--memory-mb`).
    #[arg(long, default_value_t = 2, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=64))]
    pub searches: usize,
    /// Threads of each search (0: all cores; at most 256), for a game whose fastest solver searches on several
    /// (Lazy SMP: Connect Four, tic-tac-toe, the scored games; the others search on one). The threads of a
    /// search share its table, so its memory stays within `--memory-mb`; up to `--searches` times this many
    /// threads run at once.
    #[arg(long, default_value_t = 1, value_parser = thread_count_parser())]
    pub threads: usize,
    /// Connections served at once.
    #[arg(long, default_value_t = 16, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub connections: usize,
    /// The most seconds one response may take to be sent: a client reading it slower is dropped.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub response_seconds: u64,
    /// The most seconds a connection is served: the response under way then is its last.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86400))]
    pub connection_seconds: u64,
    /// The opening books consulted before a search.
    #[command(flatten)]
    pub book: BookOptions,
    /// The endgame databases probed by the searches (loaded by each search desk, within `--memory-mb` less
    /// `--table-mb`).
    #[command(flatten)]
    pub endgame: EndgameOptions,
}

/// An exact engine and its budgets, for `analyze` and `play`.
#[derive(Debug, clap::Args)]
pub struct EngineOptions {
    /// The engine: `auto` (alpha-beta, retrograde for a loopy game, Sprague-Grundy for an impartial one),
    /// `alpha-beta`, `memo-negamax` or `retrograde` (all exact).
    #[arg(long, default_value = "auto")]
    engine: ludus_framework::playable::AnalysisEngine,
    /// The memory budget of the engine's table, in MiB (at most `--memory-mb`).
    #[arg(long, default_value_t = ludus_framework::table::DEFAULT_TABLE_MB, value_parser = mib_parser())]
    table_mb: usize,
    /// The memory budget of the search, in MiB (default: half the machine's memory): the table, or every
    /// position the retrograde engine holds.
    #[arg(long, default_value_t = ludus_framework::plugin::default_memory_mb(), value_parser = mib_parser())]
    memory_mb: usize,
    /// The most positions one search may expand (past it, a budget error).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    max_positions: Option<u64>,
    /// The positions a scored game's first guess may expand before the exact search's null-window tests (0: no
    /// guess; a position the table bounds already: at most the default). A search of minutes gains from more:
    /// Othello 6 x 6 from the start, 67108864.
    #[arg(long, default_value_t = ludus_framework::engines::scored::GUESS_POSITIONS)]
    guess_positions: u64,
    /// Threads of each search (0: all cores; at most 256), for a game whose fastest solver searches on several
    /// (Lazy SMP: Connect Four, tic-tac-toe, the scored games); the others search on one.
    #[arg(long, default_value_t = 1, value_parser = thread_count_parser())]
    threads: usize,
    /// The opening book: where the game's book is looked for before a search.
    #[command(flatten)]
    book: BookOptions,
    /// The endgame database probed at every position inside its tiers (loaded whole, within `--memory-mb` less
    /// `--table-mb`).
    #[command(flatten)]
    endgame: EndgameOptions,
}

impl EngineOptions {
    /// The options of an analysis.
    pub fn analysis_options(&self) -> ludus_framework::playable::AnalysisOptions {
        ludus_framework::playable::AnalysisOptions {
            engine: self.engine,
            threads: ludus_framework::plugin::thread_count(self.threads),
            table_mb: self.table_mb,
            memory_mb: self.memory_mb,
            max_positions: self.max_positions.unwrap_or(u64::MAX),
            guess_positions: self.guess_positions,
            book: self.book.place(),
            endgame: self.endgame.place(),
            ..Default::default()
        }
    }
}

/// The largest memory budget a flag takes, in MiB (1 TiB): far above any machine this runs on, and small
/// enough that budgets in bytes never overflow.
pub const MAX_MB: u64 = 1 << 20;

/// `--table-mb`, `--memory-mb`: from 1 to [`MAX_MB`] MiB, the same range for every command.
pub fn mib_parser() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_MB)
}

/// `--threads`: from 0 (all cores) to [`ludus_framework::plugin::MAX_THREADS`].
pub fn thread_count_parser() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(0..=ludus_framework::plugin::MAX_THREADS as u64)
}

/// A side in `ludus play`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    /// The player who moves first.
    First,
    /// The player who moves second.
    Second,
}
