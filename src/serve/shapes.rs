//! The API's JSON shapes (documented in `docs/serve.md`): the position asked for ([`PositionRequest`]), the
//! answer ([`PositionAnswer`]: the analysis as `ludus analyze --format json` prints it, the board, where the
//! values come from) and errors ([`ApiError`]: a status, a kind, a message). Values are written through the
//! framework's own `Serialize` (the analysis flattens each [`ludus_framework::playable::Assessment`]), so a new
//! kind of value reaches the page without a change here.

use super::budget::Limits;
use ludus_framework::playable::{Analysis, BoardView};
use serde::{Deserialize, Serialize};

/// `POST /api/position`: a game, a position and moves played from it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// The game with its parameters (`connect-four:width=5,height=4`).
    pub game: String,
    /// The position as the game writes it (`ludus analyze`'s position); the start when absent or null.
    #[serde(default)]
    pub position: Option<String>,
    /// Moves played from it, each as the game writes a move.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Whether to be told how far the search is while it runs (an answer with `"complete": false` after at
    /// most 0.4 s, the board and the values found so far; ask again for more) rather than wait for its end.
    #[serde(default)]
    pub stream: bool,
}

/// Where the values of an answer come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// A search within the server's budgets.
    Search,
    /// A solved database given with `--db`.
    Database,
}

/// The answer to a [`PositionRequest`] that streams, while its search runs.
#[derive(Debug, Serialize)]
pub struct PartialAnswer<'answer> {
    /// Always `false`: ask again for more.
    pub complete: bool,
    /// The game's canonical name.
    pub game: &'answer str,
    /// The position as asked for.
    pub position: Option<&'answer str>,
    /// The moves as asked for.
    pub moves: &'answer [String],
    /// The board and each legal move's place on it; `null` for a game shown by its text only.
    pub board: Option<&'answer BoardView>,
    /// What the search found so far, and how far it is.
    pub progress: &'answer super::partial::Progress,
}

/// The answer to a [`PositionRequest`].
#[derive(Debug, Serialize)]
pub struct PositionAnswer<'analysis> {
    /// Always `true` (a streaming request's last answer).
    pub complete: bool,
    /// The game's canonical name (every parameter, in declared order).
    pub game: &'analysis str,
    /// The position as asked for.
    pub position: Option<&'analysis str>,
    /// The moves as asked for.
    pub moves: &'analysis [String],
    /// Where the values come from.
    pub source: Source,
    /// The analysis: what `ludus analyze --format json` (or `ludus db query`) prints for the position reached.
    pub analysis: &'analysis Analysis,
    /// Its board and each legal move's place on it; `null` for a game shown by its text only.
    pub board: Option<&'analysis BoardView>,
}

/// A game of `GET /api/games`: as `ludus games --format json` lists it, with the databases served for it.
#[derive(Debug, Serialize)]
pub struct ServedGame {
    /// The game as `ludus games` lists it.
    #[serde(flatten)]
    pub listing: crate::reports::GameListing,
    /// The canonical names of the databases served for it.
    pub served: Vec<String>,
}

/// `GET /api/games`.
#[derive(Debug, Serialize)]
pub struct GamesAnswer {
    /// Every registered game, with the databases served for it.
    pub games: Vec<ServedGame>,
    /// The game the page opens with.
    pub start_game: String,
    /// The server's budgets.
    pub limits: Limits,
}

/// A request that gets no answer: its HTTP status, a word for the kind of error, and a message for a person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: u16,
    /// `game`, `position`, `budget`, `busy`, `time`, `body`, `target`, `headers`, `json`, `host`, `route`,
    /// `method`, `database`, `internal`, ...
    pub kind: &'static str,
    /// What went wrong, and what would lift a budget.
    pub message: String,
}

impl ApiError {
    /// An error of `status` and `kind`.
    pub fn new(status: u16, kind: &'static str, message: impl Into<String>) -> ApiError {
        ApiError { status, kind, message: message.into() }
    }

    /// The error as the JSON body `{"error": {"status": ..., "kind": ..., "message": ...}}`.
    pub fn to_json(&self) -> Vec<u8> {
        let body = serde_json::json!({"error": {"status": self.status, "kind": self.kind, "message": self.message}});
        serde_json::to_vec(&body).unwrap_or_default()
    }

    /// The error of a framework error met answering a request: bad input is the client's (400), a budget the
    /// search's (422), a database's failure or a bug the server's (500).
    pub fn from_framework(error: &ludus_framework::Error) -> ApiError {
        use ludus_framework::Error;
        let (status, kind) = match error {
            Error::Parameter { .. } => (400, "game"),
            Error::Position { .. } | Error::IllegalMove(_) | Error::GameOver => (400, "position"),
            Error::Unsupported { .. } => (400, "unsupported"),
            Error::Budget(_) | Error::Limit { .. } | Error::Allocation { .. } => (422, "budget"),
            Error::NoRecord { .. } => (422, "no-record"),
            Error::NotSolved { .. } | Error::Database { .. } | Error::Io { .. } | Error::Records { .. } => {
                (500, "database")
            }
            Error::InCase { error, .. } => return ApiError::from_framework(error),
            _ => (500, "internal"),
        };
        ApiError::new(status, kind, crate::flags::describe(error))
    }
}
