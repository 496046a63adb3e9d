//! The routes: the page's files (`/`, `/app.js`, `/style.css`, `/favicon.svg`, embedded in the binary), the
//! games (`GET /api/games`) and a position's analysis and board (`POST /api/position`). Every route is a fixed
//! name: no part of a request becomes a path. The values are the framework's: the game's analyst at its desk
//! (`desks.rs`: one engine kept per game, within the server's budgets, its opening book consulted) or, where
//! the game's database is served, `DatabaseGame::query_after`. A request that streams is answered after at
//! most 0.4 s with the board and the values found so far, and asks again.

use super::answers::{AnswerKey, Answers, Reply};
use super::budget::{Limits, SearchSlots, MAX_GAME_BYTES, MAX_MOVES, MAX_MOVE_BYTES, MAX_POSITION_BYTES};
use super::databases::Served;
use super::desks::Desks;
use super::http::{Request, Response};
use super::page;
use super::shapes::{ApiError, GamesAnswer, PartialAnswer, PositionAnswer, PositionRequest, ServedGame, Source};
use crate::reports::GameListing;
use ludus_framework::database::book::BookPlace;
use ludus_framework::database::endgame::EndgamePlace;
use ludus_framework::playable::{find_registration, AnalysisOptions, Registration};
use std::sync::Arc;

/// What every request is answered from.
pub struct State {
    /// The registered games.
    pub games: Vec<Registration>,
    /// The databases served.
    pub databases: Vec<Served>,
    /// The budgets.
    pub limits: Limits,
    /// The search slots.
    pub slots: Arc<SearchSlots>,
    /// The last answers, and the searches under way.
    pub answers: Arc<Answers>,
    /// `GET /api/games`'s answer, made at start.
    pub games_answer: Vec<u8>,
    /// The engine kept for each game explored.
    pub desks: Desks,
}

impl State {
    /// `GET /api/games`'s body: every game as `ludus games --format json` lists it, and the databases served
    /// for it (their canonical names).
    pub fn games_answer(
        games: &[Registration],
        databases: &[Served],
        start_game: &str,
        limits: Limits,
    ) -> anyhow::Result<Vec<u8>> {
        let games = games
            .iter()
            .map(|registration| ServedGame {
                listing: GameListing::of(registration),
                served: databases
                    .iter()
                    .map(|served| served.game.name())
                    .filter(|name| name.split(':').next() == Some(registration.name))
                    .collect(),
            })
            .collect();
        let answer = GamesAnswer { games, start_game: start_game.to_string(), limits };
        Ok(serde_json::to_vec(&answer)?)
    }
}

/// The response to `request`.
pub fn respond(state: &Arc<State>, request: &Request) -> Response {
    let answer = match (request.method.as_str(), request.path.as_str()) {
        ("GET", path) if page::asset(path).is_some() => return page::response(path),
        ("GET", "/api/games") => Ok(Response::json(200, state.games_answer.clone())),
        ("POST", "/api/position") => position(state, &request.body),
        (_, "/api/games" | "/api/position") => Err(ApiError::new(
            405,
            "method",
            format!("{} is not taken here: GET /api/games, POST /api/position", request.method),
        )),
        (_, path) if page::asset(path).is_some() => {
            Err(ApiError::new(405, "method", "the page's files are read with GET"))
        }
        _ => {
            Err(ApiError::new(404, "route", "no such route: the page is at /, the API at /api/games and /api/position"))
        }
    };
    answer.unwrap_or_else(|error| Response::error(&error))
}

/// `POST /api/position`: the request checked against its bounds and its game made, then answered as kept, or
/// by the search under way for the same request, or from a database or a search of its own.
fn position(state: &Arc<State>, body: &[u8]) -> Result<Response, ApiError> {
    let request: PositionRequest = serde_json::from_slice(body).map_err(|error| {
        ApiError::new(
            400,
            "json",
            format!("expected {{\"game\": \"...\", \"position\": \"...\" or null, \"moves\": [\"...\"]}}: {error}"),
        )
    })?;
    check_bounds(&request)?;
    let registration =
        find_registration(&state.games, &request.game).map_err(|error| ApiError::from_framework(&error))?;
    let game = registration.make(&request.game).map_err(|error| ApiError::from_framework(&error))?.playable;
    let moves: Vec<&str> = request.moves.iter().map(String::as_str).collect();
    // The board first: it is drawn while the values are searched, and a move that is not legal is answered
    // at once.
    let board =
        game.board_after(request.position.as_deref(), &moves).map_err(|error| ApiError::from_framework(&error))?;
    let key = AnswerKey { game: game.name(), position: request.position, moves: request.moves };
    let searched = (Arc::clone(state), key.clone(), board.clone());
    let reply =
        state.answers.answer(key.clone(), &state.slots, state.limits.max_seconds, request.stream, move |watched| {
            let (state, key, board) = searched;
            let position = key.position.as_deref();
            let served = state.databases.iter().find(|served| served.game.name() == key.game);
            let (analysis, source) = match served {
                Some(served) => {
                    let moves: Vec<&str> = key.moves.iter().map(String::as_str).collect();
                    let analysis = served.game.query_after(&served.directory, position, &moves, 200);
                    (analysis.map_err(|error| ApiError::from_framework(&error)), Source::Database)
                }
                None => (state.desks.analyze(game, key.position.clone(), key.moves.clone(), &watched), Source::Search),
            };
            let analysis = analysis?;
            let answer = PositionAnswer {
                complete: true,
                game: &key.game,
                position,
                moves: &key.moves,
                source,
                analysis: &analysis,
                board: board.as_ref(),
            };
            let bytes = serde_json::to_vec(&answer)
                .map_err(|error| ApiError::new(500, "internal", format!("cannot write the answer: {error}")))?;
            Ok(Arc::new(bytes))
        });
    match reply {
        Reply::Done(answer) => Ok(Response::json(200, answer?.to_vec())),
        Reply::Partial(watched) => {
            let progress = watched.progress();
            let answer = PartialAnswer {
                complete: false,
                game: &key.game,
                position: key.position.as_deref(),
                moves: &key.moves,
                board: board.as_ref(),
                progress: &progress,
            };
            let bytes = serde_json::to_vec(&answer)
                .map_err(|error| ApiError::new(500, "internal", format!("cannot write the answer: {error}")))?;
            Ok(Response::json(200, bytes))
        }
    }
}

/// The options of a search within the server's budgets, consulting the games' books where `book` says and the
/// endgame databases where `endgame` says.
pub fn analysis_options(limits: &Limits, book: Option<BookPlace>, endgame: Option<EndgamePlace>) -> AnalysisOptions {
    AnalysisOptions {
        table_mb: limits.table_mb,
        memory_mb: limits.memory_mb,
        max_positions: limits.max_positions,
        threads: limits.threads,
        book,
        endgame,
        ..AnalysisOptions::default()
    }
}

/// The error of a request whose game, position or moves are longer than their bounds.
fn check_bounds(request: &PositionRequest) -> Result<(), ApiError> {
    let too_long = |what: &str, limit: usize| ApiError::new(413, "too-long", format!("{what} is at most {limit}"));
    if request.game.len() > MAX_GAME_BYTES {
        return Err(too_long("a game's name with its parameters, in bytes,", MAX_GAME_BYTES));
    }
    if request.position.as_ref().is_some_and(|position| position.len() > MAX_POSITION_BYTES) {
        return Err(too_long("a position, in bytes,", MAX_POSITION_BYTES));
    }
    if request.moves.len() > MAX_MOVES {
        return Err(too_long("the number of moves after a position", MAX_MOVES));
    }
    if request.moves.iter().any(|mv| mv.len() > MAX_MOVE_BYTES) {
        return Err(too_long("a move, in bytes,", MAX_MOVE_BYTES));
    }
    Ok(())
}
