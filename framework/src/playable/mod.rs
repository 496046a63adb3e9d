//! Games people can name, analyse and play from the command line: a game's text form ([`TextForm`]),
//! and [`Playable`], which turns any game with a text form into an object the CLI holds ([`PlayableGame`]) and
//! analyses a position with an engine of its choice: the position drawn, its value, every move's value, the
//! best moves and the principal variation.
//!
//! Files: `assessment.rs` (a value as an analysis gives it), `board.rs` (a position as a board, for the
//! explorer's page), `scored_text.rs`, `scored.rs`, `scored_board.rs` and `scored_session.rs` (scored games,
//! with or without chance: their text form, analysis, board and play), `session.rs` (a game against the
//! perfect player), `registry.rs` (the games people name, each registered once with its typed parameters),
//! `retrograde.rs` (the retrograde engine behind [`Engine`], for loopy games), `impartial.rs` (impartial games,
//! by the Sprague-Grundy engine under normal play).

use crate::analysis::{move_values, principal_variation, MoveValue};
use crate::engines::alpha_beta::AlphaBeta;
use crate::engines::negamax::MemoNegamax;
use crate::engines::{Engine, Fallible, Mode};
use crate::error::{Error, Result};
use crate::game::{Canonicalize, Game};
use crate::hints::SearchHints;
use crate::stats::Stats;
use crate::table::{mib, KeyedTable};
use serde::Serialize;

mod assessment;
mod board;
mod impartial;
mod registry;
#[cfg(feature = "parallel")]
mod retrograde;
pub(crate) mod scored;
mod scored_board;
mod scored_session;
mod scored_text;
mod session;

pub use assessment::{Assessment, Expected};
pub use board::{
    check_board_form, check_board_view, Board, BoardForm, BoardMove, BoardView, Counter, GridStyle, Layout, Piece,
    PlacedMove, Player, Shape, WithBoard,
};
pub use impartial::{Convention, ImpartialPlayable, ImpartialText, MAX_COMPONENTS};
pub use registry::{find_registration, Arguments, Made, Parameter, ParameterKind, Registration};
#[cfg(feature = "parallel")]
use retrograde::RetrogradeEngine;
pub use scored::ScoredPlayable;
pub use scored_board::{check_scored_board_form, ScoredBoardForm};
pub use scored_text::ScoredText;
pub use session::session;

/// How positions and moves of a game are written. Contract: `parse_position(render_position(p))` is `p` where
/// `render_position` gives a parsable form (the game says which in its doc), and `parse_move(p, render_move(m))`
/// is `m` for every legal move `m` of `p`.
pub trait TextForm: Game {
    /// The start position.
    fn start(&self) -> Self::Position;

    /// A position from its text (`Err` says what was expected and where).
    fn parse_position(&self, text: &str) -> std::result::Result<Self::Position, String>;

    /// The position drawn for a person (may span several lines).
    fn draw_position(&self, position: &Self::Position) -> String;

    /// A legal move of `position` from its text (`Err` says why it is not one).
    fn parse_move(&self, position: &Self::Position, text: &str) -> std::result::Result<Self::Move, String>;

    /// A move's text.
    fn render_move(&self, mv: &Self::Move) -> String;
}

/// The position reached from `game`'s start by `moves`, each written as [`TextForm::parse_move`] reads it:
/// the one reading of a position written as its moves from the start. `Err` names the first move that is not
/// legal (`move 3: ...`).
pub fn position_after_moves<'text, Rules: TextForm>(
    game: &Rules,
    moves: impl IntoIterator<Item = &'text str>,
) -> std::result::Result<Rules::Position, String> {
    let mut position = game.start();
    for (index, text) in moves.into_iter().enumerate() {
        let mv = game.parse_move(&position, text).map_err(|reason| format!("move {}: {reason}", index + 1))?;
        position = game.play(&position, &mv);
    }
    Ok(position)
}

/// The engine an analysis runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AnalysisEngine {
    /// The game's own choice: alpha-beta, or the retrograde engine for a loopy game.
    #[default]
    Auto,
    /// Alpha-beta with exact remoteness.
    AlphaBeta,
    /// Memoized negamax in exact mode.
    MemoNegamax,
    /// The retrograde engine: every position reachable from the one analysed is solved (loopy games too).
    #[cfg(feature = "parallel")]
    Retrograde,
}

impl std::str::FromStr for AnalysisEngine {
    type Err = String;

    fn from_str(text: &str) -> std::result::Result<Self, String> {
        match text {
            "auto" => Ok(AnalysisEngine::Auto),
            "alpha-beta" => Ok(AnalysisEngine::AlphaBeta),
            "memo-negamax" => Ok(AnalysisEngine::MemoNegamax),
            #[cfg(feature = "parallel")]
            "retrograde" => Ok(AnalysisEngine::Retrograde),
            other => Err(format!("no engine `{other}` (available: auto, alpha-beta, memo-negamax, retrograde)")),
        }
    }
}

/// What an analysis may spend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisOptions {
    /// The engine.
    pub engine: AnalysisEngine,
    /// Its table's memory, in MiB (`--table-mb`): at most `memory_mb`.
    pub table_mb: usize,
    /// The memory budget of the whole analysis, in MiB (`--memory-mb`): the table of a searching engine, or
    /// every position the retrograde engine holds (estimated by
    /// [`crate::engines::retrograde::bytes_per_position`]).
    pub memory_mb: usize,
    /// The most positions one search may expand (`--max-positions`).
    pub max_positions: u64,
    /// The longest principal variation shown.
    pub max_line: usize,
    /// Where the search engines that support it show their searches as they run (the CLI's progress line).
    pub progress: Option<crate::engines::alpha_beta::ProgressHandle>,
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            engine: AnalysisEngine::default(),
            table_mb: crate::table::DEFAULT_TABLE_MB,
            memory_mb: crate::table::default_memory_mb(),
            max_positions: u64::MAX,
            max_line: 200,
            progress: None,
        }
    }
}

/// One move of an analysed position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveAnalysis {
    /// The move's text.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value for the player who makes it (the remoteness counted from the position before it; for an
    /// impartial game under normal play, the nimber of the position it leads to: zero is a winning move).
    #[serde(flatten)]
    pub value: Assessment,
    /// Whether it is among the best moves.
    pub best: bool,
}

/// The analysis of a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Analysis {
    /// The game, with its parameters.
    pub game: String,
    /// The position drawn.
    pub drawing: String,
    /// Its value for the player to move.
    #[serde(flatten)]
    pub value: Assessment,
    /// Every legal move, in the game's order, with its value.
    pub moves: Vec<MoveAnalysis>,
    /// The principal variation: a best move for each side in turn, to the end (or to the length cap).
    pub line: Vec<String>,
    /// The engine's statistics.
    pub stats: Stats,
}

/// A game the CLI can name, analyse and play, as an object.
pub trait PlayableGame: Send + Sync {
    /// The game's name with its parameters (`connect-four:width=5,height=4`).
    fn name(&self) -> String;

    /// Analyses the position written `position` (`None`: the start position).
    fn analyze(&self, position: Option<&str>, options: &AnalysisOptions) -> Result<Analysis>;

    /// [`PlayableGame::analyze`] of the position reached from the position written `position` (`None`: the start)
    /// by `moves`, each written as the game writes a move: the values `analyze` gives of that position. An illegal
    /// move is an [`Error::Position`] naming it. By default only a position without moves after it is read.
    fn analyze_after(&self, position: Option<&str>, moves: &[&str], options: &AnalysisOptions) -> Result<Analysis> {
        match moves {
            [] => self.analyze(position, options),
            _ => Err(Error::Position { game: self.name(), reason: "this game reads no moves after a position".into() }),
        }
    }

    /// The board of the position reached by `moves` from `position` (as [`PlayableGame::analyze_after`] reads
    /// them) with each legal move's place on it, for a game that shows a board ([`BoardForm`]); `None` for one
    /// shown by its text form only (the default).
    fn board_after(&self, position: Option<&str>, moves: &[&str]) -> Result<Option<BoardView>> {
        let _ = (position, moves);
        Ok(None)
    }

    /// A game against the perfect player from the start position, its engine set up by `options`.
    fn session(&self, options: &AnalysisOptions) -> Result<Box<dyn GameSession + '_>>;

    /// The engine `--engine auto` runs (`alpha-beta`, `retrograde`, `sprague-grundy`), as `ludus games` lists it.
    fn automatic_engine(&self) -> &'static str;
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// The first player won.
    FirstWon,
    /// The second player won.
    SecondWon,
    /// A draw.
    Drawn,
}

impl Finish {
    /// The player who won: `first` tells which one.
    pub fn won_by(first: bool) -> Finish {
        if first {
            Finish::FirstWon
        } else {
            Finish::SecondWon
        }
    }
}

/// A game in progress between a person and the perfect player: positions are kept, so moves can be undone.
pub trait GameSession {
    /// The position drawn.
    fn drawing(&self) -> String;

    /// Whether the first player is to move.
    fn first_to_move(&self) -> bool;

    /// `None` while the game goes on; at its end, how it ended.
    fn result(&self) -> Option<Finish>;

    /// Plays the move written `text` for the player to move; `Err` says why it is not a legal move (nothing is
    /// played then).
    fn play(&mut self, text: &str) -> std::result::Result<String, String>;

    /// Plays a best move for the player to move (the perfect player's), and returns it.
    fn play_best(&mut self) -> Result<String>;

    /// Every legal move with its value for the player to move (the `hint`).
    fn hints(&mut self) -> Result<Vec<MoveAnalysis>>;

    /// Takes back the last move; `false` at the start.
    fn undo(&mut self) -> bool;

    /// The moves played since the start.
    fn moves_played(&self) -> usize;

    /// At a chance node, its outcomes as [`GameSession::play`] reads them, with their probabilities (the
    /// caller rolls the dice, or asks for the outcome); empty at a decision, and in games without chance.
    fn outcomes(&self) -> Vec<(String, crate::scored::Probability)> {
        Vec::new()
    }
}

/// A game with a text form, as a [`PlayableGame`].
pub struct Playable<Rules> {
    /// The game.
    pub game: Rules,
    /// Its name with its parameters.
    pub name: String,
}

impl<Rules> PlayableGame for Playable<Rules>
where
    Rules: TextForm + Canonicalize + SearchHints + Send + Sync,
    Rules::Position: Send + Sync,
    Rules::Key: Send + Sync,
{
    fn name(&self) -> String {
        self.name.clone()
    }

    fn analyze(&self, position: Option<&str>, options: &AnalysisOptions) -> Result<Analysis> {
        self.analyze_after(position, &[], options)
    }

    fn analyze_after(&self, position: Option<&str>, moves: &[&str], options: &AnalysisOptions) -> Result<Analysis> {
        let position = position_after(&self.game, &self.name, position, moves)?;
        self.analyze_with(self.engine(options)?, &position, options)
    }

    fn session(&self, options: &AnalysisOptions) -> Result<Box<dyn GameSession + '_>> {
        Ok(session(&self.game, self.engine(options)?))
    }

    fn automatic_engine(&self) -> &'static str {
        if Rules::POSITIONS_REPEAT {
            "retrograde"
        } else {
            "alpha-beta"
        }
    }
}
impl<Rules> Playable<Rules>
where
    Rules: TextForm + Canonicalize + SearchHints + Sync,
    Rules::Position: Send + Sync,
    Rules::Key: Send + Sync,
{
    /// The exact engine `options` ask for (for a loopy game, only the retrograde engine).
    fn engine<'game>(&self, options: &AnalysisOptions) -> Result<Box<dyn Engine<Rules, Failure = Error> + 'game>>
    where
        Rules: 'game,
    {
        let table = || KeyedTable::new(mib(options.table_mb));
        match (options.engine, Rules::POSITIONS_REPEAT) {
            #[cfg(feature = "parallel")]
            (AnalysisEngine::Retrograde, _) | (AnalysisEngine::Auto, true) => Ok(Box::new(RetrogradeEngine::new(
                options.max_positions,
                options.memory_mb,
                crate::engines::retrograde::bytes_per_position::<Rules::Position, Rules::Key>(),
            ))),
            _ if options.table_mb > options.memory_mb => Err(Error::limit_with_hint(
                "the table's memory (--table-mb), in MiB,",
                options.table_mb as u64,
                options.memory_mb as u64,
                "raise --memory-mb, or lower --table-mb",
            )),
            (AnalysisEngine::AlphaBeta | AnalysisEngine::MemoNegamax, true) => Err(Error::Engine(format!(
                "{} is loopy (its positions can repeat): only the retrograde engine analyses it",
                self.name
            ))),
            (AnalysisEngine::MemoNegamax, false) => {
                Ok(Box::new(Fallible(MemoNegamax::with_table(Mode::Exact, table()).with_budget(options.max_positions))))
            }
            _ => Ok(Box::new(Fallible(
                AlphaBeta::with_table(Mode::Exact, table())
                    .with_budget(options.max_positions)
                    .with_progress(options.progress.clone()),
            ))),
        }
    }

    fn analyze_with(
        &self,
        mut engine: Box<dyn Engine<Rules, Failure = Error> + '_>,
        position: &Rules::Position,
        options: &AnalysisOptions,
    ) -> Result<Analysis> {
        let game = &self.game;
        // The budget bounds the first search; the move values and the line reuse its table.
        let value = engine.try_value(game, position)?;
        let moves = move_analyses(game, move_values(engine.as_mut(), game, position)?);
        let line = principal_variation(engine.as_mut(), game, position, options.max_line)?;
        Ok(Analysis {
            game: self.name.clone(),
            drawing: game.draw_position(position),
            value: Assessment::Outcome(value),
            moves,
            line: line.iter().map(|mv| game.render_move(mv)).collect(),
            stats: engine.stats(),
        })
    }
}
/// Every legal move with its value (from [`move_values`] or [`crate::analysis::try_move_values`]), the best ones
/// marked.
pub(crate) fn move_analyses<Rules: TextForm>(game: &Rules, values: Vec<MoveValue<Rules::Move>>) -> Vec<MoveAnalysis> {
    let best = values.iter().map(|m| m.value).max();
    values
        .into_iter()
        .map(|m| MoveAnalysis {
            mv: game.render_move(&m.mv),
            value: Assessment::Outcome(m.value),
            best: Some(m.value) == best,
        })
        .collect()
}

/// The position reached by `moves` (each as [`TextForm::parse_move`] reads it) from the position written
/// `position` of the game `name` (its start when no text is given). An illegal move is an [`Error::Position`]
/// naming it (`move 3 (`7`): column 7 is full`).
pub(crate) fn position_after<Rules: TextForm>(
    game: &Rules,
    name: &str,
    position: Option<&str>,
    moves: &[&str],
) -> Result<Rules::Position> {
    let start = position_or_start(name, position, || game.start(), |text| game.parse_position(text))?;
    play_written(name, start, moves, |at, text| game.parse_move(at, text).map(|mv| game.play(at, &mv)))
}

/// The position reached from `position` by `moves`, each read and played by `step` (`Err`: why the text is not
/// a legal move there): an illegal move is an [`Error::Position`] of the game `name` naming it.
pub(crate) fn play_written<Position>(
    name: &str,
    mut position: Position,
    moves: &[&str],
    step: impl Fn(&Position, &str) -> std::result::Result<Position, String>,
) -> Result<Position> {
    for (index, text) in moves.iter().enumerate() {
        position = step(&position, text).map_err(|reason| Error::Position {
            game: name.to_string(),
            reason: format!("move {} (`{}`): {reason}", index + 1, crate::input::shorten(text)),
        })?;
    }
    Ok(position)
}

/// The position written `text` of the game `name`, or its start when no text is given.
pub(crate) fn position_or_start<Position>(
    name: &str,
    text: Option<&str>,
    start: impl FnOnce() -> Position,
    parse: impl FnOnce(&str) -> std::result::Result<Position, String>,
) -> Result<Position> {
    match text {
        None => Ok(start()),
        Some(text) => parse(text).map_err(|reason| Error::Position { game: name.to_string(), reason }),
    }
}
