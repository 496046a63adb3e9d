//! The framework's error type, shared by engines, plugins and input reading: [`Error`], the [`Setting`] that
//! lifts a limit and the [`Remedy`] an error suggests, the [`Budget`] a search ran out of; the errors of input
//! text (`input.rs`).

mod input;

pub use input::{shorten, shorten_to, IllegalMove, InputError, ParseError, ParseProblem, TextPlace};

/// Everything that can go wrong in the framework and in plugins. Each variant is a kind a caller can act on
/// (the server maps them to HTTP statuses, the Python module to exception classes); a limit or a budget carries
/// the [`Setting`] that lifts it, which the CLI names by its flag: the framework names no flag.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Malformed input: names the file, line, column and what was expected.
    #[error(transparent)]
    Input(#[from] InputError),
    /// An instance beyond a limit that protects memory or time.
    #[error("{what}{} is {got}, above the limit of {limit}{}", setting_words(*setting), remedy_words(remedies))]
    Limit {
        /// What exceeded the limit (for example "grid cells in case 3").
        what: String,
        /// The setting whose value this is, if it is one (the number of threads).
        setting: Option<Setting>,
        /// The value found.
        got: u64,
        /// The largest value allowed.
        limit: u64,
        /// How to get past the limit, if one can.
        remedies: Vec<Remedy>,
    },
    /// A solver name the plugin does not have.
    #[error("plugin `{plugin}` has no solver `{solver}` (available: {available})")]
    UnknownSolver {
        /// The plugin asked.
        plugin: String,
        /// The solver asked for.
        solver: String,
        /// The solvers the plugin has, comma separated.
        available: String,
    },
    /// An engine reached its budget (positions searched for one case, or table memory) and gave up: the answer
    /// is unknown, never wrong.
    #[error("{0}")]
    Budget(Budget),
    /// An error while solving one case of an input, with the case's place.
    #[error("{place}: {error}")]
    InCase {
        /// Where: `file:line: case N` when the case's line is known, else `case N`.
        place: String,
        /// What went wrong. (Not a `source` in the `std::error::Error` sense: this error's text already holds
        /// it, and a chain printed whole would say it twice.)
        error: Box<Error>,
    },
    /// A solver produced an answer that the plugin's own verifier rejects: a bug, never printed as an answer.
    #[error("internal check failed in case {case}: {reason}")]
    SelfCheck {
        /// The case number (1-based).
        case: usize,
        /// The verifier's reason.
        reason: String,
    },
    /// The caller stopped a database's solve (the Python module's Ctrl-C) after the tier it was writing; a
    /// later solve resumes from the tiers on disk.
    #[error("the solve was stopped; the tiers written stay, and a solve of the same directory resumes from them")]
    Stopped,
    /// The user stopped the run (Ctrl-C) after `done` of `total` cases; the answers of those went out.
    #[error("stopped after {done} of {total} cases: the output holds those cases only")]
    Cancelled {
        /// Cases answered.
        done: usize,
        /// Cases in the input.
        total: usize,
    },
    /// A game's name, a parameter or an option that is not valid.
    #[error("{reason}")]
    Parameter {
        /// The game's name, parameter or option given.
        name: String,
        /// What is wrong and what is taken, naming what was given.
        reason: String,
    },
    /// A position written as text (with moves after it) that is not a position of the game.
    #[error("{game}: not a position: {error}")]
    Position {
        /// The game, with its parameters.
        game: String,
        /// Where, and what was expected there.
        error: ParseError,
    },
    /// An operation this game does not support: an engine that cannot solve it, a database it cannot have.
    #[error("{game}: {operation} is not supported: {reason}")]
    Unsupported {
        /// The game, with its parameters (or its family: `a scored game`).
        game: String,
        /// What was asked (`the engine memo-negamax`, `a solve over MPI`).
        operation: String,
        /// Why not, and what does it instead.
        reason: String,
    },
    /// A game record with an illegal move.
    #[error(transparent)]
    IllegalMove(#[from] IllegalMove),
    /// A move was asked for at a finished position.
    #[error("the game is over")]
    GameOver,
    /// A game's implementation breaks the contract of one of the framework's traits (a bug in the game).
    #[error("the game breaks the {contract} contract: {detail}")]
    Contract {
        /// The trait whose contract is broken (`Tiers`, `Rank`, `Retrograde`).
        contract: &'static str,
        /// What was found.
        detail: String,
    },
    /// Memory that the system would not give: the solve stops with this error instead of an abort.
    #[error("cannot allocate {what} of {megabytes} MiB{}", remedy_words(remedies))]
    Allocation {
        /// What was being allocated.
        what: &'static str,
        /// Its size.
        megabytes: u64,
        /// How to ask for less.
        remedies: Vec<Remedy>,
    },
    /// Worker threads that could not be started, or that stopped without an answer.
    #[error("{threads} thread(s): {cause}")]
    Threads {
        /// The threads asked for.
        threads: usize,
        /// What happened: the system's refusal, or a thread that panicked.
        cause: String,
    },
    /// Values handed to a solved tier that do not fit it (a key of no position of the tier, a key twice).
    #[error("records that do not fit their tier: {problem}")]
    Records {
        /// What does not fit.
        problem: String,
    },
    /// A database that was never solved in the directory given (no file where its tier or scores would be).
    #[error("{path}: missing: the database of {game} is not solved in {directory}")]
    NotSolved {
        /// The game, with its parameters.
        game: String,
        /// The database's directory.
        directory: String,
        /// Where the missing file would be.
        path: String,
    },
    /// A position that a solved database holds no value for (it is not reachable from the start).
    #[error("the database holds no record of {} (it is not reachable from the start)", position.as_deref().unwrap_or("this position"))]
    NoRecord {
        /// The position as written, where known.
        position: Option<String>,
    },
    /// A broken invariant of the framework itself: a bug, reported instead of a panic.
    #[error("internal error in {module}: {detail}")]
    Internal {
        /// The module whose invariant broke.
        module: &'static str,
        /// What was found.
        detail: String,
    },
    /// A solved database file that is damaged, of another game or tier, or of another format.
    #[error("{path}: {reason}")]
    Database {
        /// The file.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A solve spread over several processes failed: another rank's error, or a message that is not the
    /// protocol's.
    #[error("distributed solve: {problem}")]
    Distributed {
        /// What failed, and on which rank where it is known.
        problem: String,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {cause}")]
    Io {
        /// The file.
        path: String,
        /// The operating system's error. (Not a `source` in the `std::error::Error` sense: this error's text
        /// already holds it, and a chain printed whole would say it twice.)
        cause: std::io::Error,
    },
}

/// A failure that cannot happen (an engine that only searches), as an error: so that every engine's failure
/// is an [`Error`].
impl From<std::convert::Infallible> for Error {
    fn from(never: std::convert::Infallible) -> Self {
        match never {}
    }
}

impl Error {
    /// A limit error without a remedy.
    pub fn limit(what: impl Into<String>, got: u64, limit: u64) -> Self {
        Error::Limit { what: what.into(), setting: None, got, limit, remedies: Vec::new() }
    }

    /// A limit error with the ways past it.
    pub fn limit_lifted(what: impl Into<String>, got: u64, limit: u64, remedies: Vec<Remedy>) -> Self {
        Error::Limit { what: what.into(), setting: None, got, limit, remedies }
    }

    /// Memory that `what` needs (`bytes`) beyond the `memory_mb` MiB allowed, in MiB against the setting
    /// `--memory-mb`, raising which is the first remedy and `advice` (if any) the second.
    pub fn over_memory(what: impl Into<String>, bytes: u64, memory_mb: usize, advice: Option<&str>) -> Self {
        let mut remedies = vec![Remedy::Raise(Setting::MemoryMb)];
        remedies.extend(advice.map(|advice| Remedy::Advice(advice.into())));
        Error::Limit {
            what: format!("the memory {} needs, in MiB,", what.into()),
            setting: Some(Setting::MemoryMb),
            got: bytes.div_ceil(1 << 20),
            limit: memory_mb as u64,
            remedies,
        }
    }

    /// A broken invariant of `module`.
    pub fn internal(module: &'static str, detail: impl Into<String>) -> Self {
        Error::Internal { module, detail: detail.into() }
    }

    /// Records that do not fit their tier: `problem`.
    pub fn records(problem: impl Into<String>) -> Self {
        Error::Records { problem: problem.into() }
    }

    /// A distributed solve's failure: `problem`.
    pub fn distributed(problem: impl Into<String>) -> Self {
        Error::Distributed { problem: problem.into() }
    }

    /// A parameter `name` that is not valid: `reason`.
    pub fn parameter(name: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::Parameter { name: name.into(), reason: reason.into() }
    }

    /// The ways past this error, where a setting lifts it: a budget's, a limit's, an allocation's.
    pub fn remedies(&self) -> Vec<Remedy> {
        match self {
            Error::Budget(budget) => vec![Remedy::Raise(budget.setting())],
            Error::Limit { remedies, .. } | Error::Allocation { remedies, .. } => remedies.clone(),
            Error::InCase { error, .. } => error.remedies(),
            _ => Vec::new(),
        }
    }
}

/// A setting a person changes to get past a limit or a budget. The framework names it in words; the CLI by its
/// flag (`--max-positions`), the Python module by its keyword argument (`max_positions`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Setting {
    /// The most positions one search may expand.
    MaxPositions,
    /// The memory of one table.
    TableMb,
    /// The memory of a whole solve or analysis.
    MemoryMb,
    /// The size of an input read.
    MaxInputMb,
    /// The number of threads.
    Threads,
    /// A solver's size limits turned off.
    NoLimit,
    /// The solver of a plugin.
    Solver,
    /// The number of cases to generate.
    Cases,
    /// The size of the cases to generate.
    Size,
    /// The engine of an analysis.
    Engine,
}

impl Setting {
    /// The setting in words, as a library's message names it.
    pub fn words(self) -> &'static str {
        match self {
            Setting::MaxPositions => "the position budget",
            Setting::TableMb => "the table's memory",
            Setting::MemoryMb => "the memory budget",
            Setting::MaxInputMb => "the input limit",
            Setting::Threads => "the threads",
            Setting::NoLimit => "the size limits off",
            Setting::Solver => "another solver",
            Setting::Cases => "the cases",
            Setting::Size => "the size",
            Setting::Engine => "the engine",
        }
    }
}

/// A way past a limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Remedy {
    /// Raise a setting.
    Raise(Setting),
    /// Lower a setting.
    Lower(Setting),
    /// Set a setting: turn the size limits off, choose another solver or engine.
    Set(Setting),
    /// What to do where no setting helps (`use the fast solver`, `split the file`).
    Advice(String),
}

/// The setting a limited value is, in words: ` (the threads)`.
fn setting_words(setting: Option<Setting>) -> String {
    setting.map_or(String::new(), |setting| format!(" ({})", setting.words()))
}

/// The remedies in words: ` (raise the memory budget, or lower the table's memory)`.
fn remedy_words(remedies: &[Remedy]) -> String {
    if remedies.is_empty() {
        return String::new();
    }
    let words: Vec<String> = remedies
        .iter()
        .map(|remedy| match remedy {
            Remedy::Raise(setting) => format!("raise {}", setting.words()),
            Remedy::Lower(setting) => format!("lower {}", setting.words()),
            Remedy::Set(Setting::NoLimit) => "turn the size limits off".to_string(),
            Remedy::Set(Setting::Solver) => "choose another solver".to_string(),
            Remedy::Set(Setting::MaxPositions) => "set another position budget".to_string(),
            Remedy::Set(setting) => format!("set {}", setting.words()),
            Remedy::Advice(advice) => advice.clone(),
        })
        .collect();
    format!(" ({})", words.join(", or "))
}

/// A budget an engine works within. Every engine reports running out of one budget with the same error,
/// [`Error::Budget`], which names the setting that raises it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// The most positions (states, components, candidates) one search may expand.
    Positions(u64),
    /// The most memory an engine's table may take, in bytes.
    TableBytes(usize),
    /// The most memory a whole solve may take, in MiB.
    MemoryMb(usize),
}

impl Budget {
    /// The setting that raises it.
    pub fn setting(self) -> Setting {
        match self {
            Budget::Positions(_) => Setting::MaxPositions,
            Budget::TableBytes(_) => Setting::TableMb,
            Budget::MemoryMb(_) => Setting::MemoryMb,
        }
    }

    /// What ran out, without the remedy: `the search reached its budget of 1000 positions`.
    pub fn reached(self) -> String {
        match self {
            Budget::Positions(limit) => format!("the search reached its budget of {limit} positions"),
            Budget::TableBytes(bytes) => format!("the table reached its budget of {} MiB", bytes.div_ceil(1 << 20)),
            Budget::MemoryMb(megabytes) => format!("the solve reached its memory budget of {megabytes} MiB"),
        }
    }
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (raise {})", self.reached(), self.setting().words())
    }
}

/// The framework's result type.
pub type Result<Success, Failure = Error> = std::result::Result<Success, Failure>;
