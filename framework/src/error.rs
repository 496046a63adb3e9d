//! The framework's error type, shared by engines, plugins and input reading.

use std::fmt;

/// Everything that can go wrong in the framework and in plugins.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Malformed input: names the file, line, column and what was expected.
    #[error(transparent)]
    Input(#[from] InputError),
    /// An instance beyond a limit that protects memory or time.
    #[error("{what} is {got}, above the limit of {limit}{hint}")]
    Limit {
        /// What exceeded the limit (for example "grid cells in case 3").
        what: String,
        /// The value found.
        got: u64,
        /// The largest value allowed.
        limit: u64,
        /// How to get past the limit, if one can (may be empty).
        hint: String,
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
    /// The user stopped the run (Ctrl-C) after `done` of `total` cases; the answers of those went out.
    #[error("stopped after {done} of {total} cases: the output holds those cases only")]
    Cancelled {
        /// Cases answered.
        done: usize,
        /// Cases in the input.
        total: usize,
    },
    /// A game's name, parameters or size that are not valid: the text says what was given and what was
    /// expected.
    #[error("{0}")]
    Parameter(String),
    /// A position written as text that is not a position of the game.
    #[error("{game}: not a position: {reason}")]
    Position {
        /// The game, with its parameters.
        game: String,
        /// Why the text is not a position.
        reason: String,
    },
    /// The engine asked for cannot solve this game (for example a depth-first engine on a loopy game).
    #[error("{0}")]
    Engine(String),
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
    #[error("cannot allocate {what} of {megabytes} MiB ({hint})")]
    Allocation {
        /// What was being allocated.
        what: &'static str,
        /// Its size.
        megabytes: u64,
        /// How to ask for less (the flag to lower).
        hint: &'static str,
    },
    /// Worker threads that could not be started, or that stopped without an answer.
    #[error("{0}")]
    Threads(String),
    /// Values handed to a solved tier that do not fit it (a key of no position of the tier, a key twice).
    #[error("{0}")]
    Records(String),
    /// A position that a solved database holds no value for.
    #[error("{0}")]
    NoRecord(String),
    /// A broken invariant of the framework itself: a bug, reported instead of a panic.
    #[error("internal error: {0}")]
    Internal(String),
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
    #[error("distributed solve: {0}")]
    Distributed(String),
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
    /// A limit error without a hint.
    pub fn limit(what: impl Into<String>, got: u64, limit: u64) -> Self {
        Error::Limit { what: what.into(), got, limit, hint: String::new() }
    }

    /// A limit error with a hint on how to go past it.
    pub fn limit_with_hint(what: impl Into<String>, got: u64, limit: u64, hint: impl Into<String>) -> Self {
        Error::Limit { what: what.into(), got, limit, hint: format!(" ({})", hint.into()) }
    }
}

/// A budget an engine works within, as a command-line user sets it. Every engine reports running out of one
/// budget with the same error, [`Error::Budget`], which names the flag that raises it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// The most positions (states, components, candidates) one search may expand: `--max-positions`.
    Positions(u64),
    /// The most memory an engine's table may take, in bytes: `--table-mb`.
    TableBytes(usize),
    /// The most memory a whole solve may take, in MiB: `--memory-mb`.
    MemoryMb(usize),
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::Positions(limit) => {
                write!(f, "the search reached its budget of {limit} positions (raise it with --max-positions)")
            }
            Budget::TableBytes(bytes) => {
                write!(f, "the table reached its budget of {} MiB (raise it with --table-mb)", bytes.div_ceil(1 << 20))
            }
            Budget::MemoryMb(megabytes) => {
                write!(f, "the solve reached its memory budget of {megabytes} MiB (raise it with --memory-mb)")
            }
        }
    }
}

/// The framework's result type.
pub type Result<Success, Failure = Error> = std::result::Result<Success, Failure>;

/// Malformed input: where it is and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct InputError {
    /// The file name.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// Where in the input's structure (for example "case 3"), possibly empty.
    pub context: String,
    /// What was expected and what was found.
    pub message: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        if !self.context.is_empty() {
            write!(f, "{}: ", self.context)?;
        }
        write!(f, "{}", self.message)
    }
}

/// A record that cannot be replayed: the move at `ply` is illegal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {} of the record is illegal", .ply + 1)]
pub struct IllegalMove {
    /// 0-based index of the illegal move.
    pub ply: usize,
}
