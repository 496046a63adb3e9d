//! Games people can name, analyse and play from the command line, for every family: [`Playable`] turns a game
//! with a text form into the object the CLI holds ([`PlayableGame`]), analysed with the engine its family calls
//! for (or one the person chooses), played against the perfect player ([`GameSession`]), and drawn on the
//! explorer's board when the game has a [`BoardForm`].
//!
//! Files: `database.rs` (a game with a database: [`DatabaseGame`], one adapter for both families),
//! `engines.rs` (the engine each family's analyses and sessions run, made from [`AnalysisOptions`]),
//! `session.rs` (a game against the perfect player), `impartial.rs` (impartial games: the text and board of a
//! sum of components), `registry.rs` (the games people name, each registered once with its typed parameters),
//! `retrograde.rs` (the retrograde engine behind [`Engine`], for loopy games).
//!
//! Invariant: one path for every family: an analysis is [`analyze_position`] (the value alone:
//! [`analyze_value`]) over the engine the playable makes,
//! a session is `session::Session` over the same engine, a board is [`board_view`]; every value is seen by
//! the player to move at its position, a move's by the player who makes it.

use crate::analysis::{analyze_position, analyze_value, PositionText, SearchValue};
use crate::board::board_view;
use crate::engines::Engine;
use crate::error::{Error, Result};
use crate::game::Rules;
use crate::scored::{Outcomes, Probability, ScoreKind};
use crate::text::position_after;

mod analyst;
#[cfg(feature = "database")]
mod books;
#[cfg(feature = "database")]
mod database;
#[cfg(feature = "database")]
mod endgame;
mod engines;
mod impartial;
mod inspect;
mod options;
mod registry;
#[cfg(feature = "parallel")]
mod retrograde;
mod session;

pub use crate::analysis::{Analysis, Assessment, Expected, Found, MoveAnalysis};
pub use crate::board::{
    check_board_form, check_board_view, Board, BoardForm, BoardMove, BoardView, Counter, GridStyle, Layout, Piece,
    PlacedMove, Player, Shape,
};
pub use crate::text::{position_after_moves, TextForm};
pub use analyst::Analyst;
#[cfg(feature = "database")]
pub use database::{DatabaseGame, Solvable, Storage, StoredEngine, StoredValue, Tiered, WholeGame};
pub use impartial::{Heaps, ImpartialText, MAX_COMPONENTS};
pub use inspect::PositionView;
pub use options::{AnalysisEngine, AnalysisOptions};
pub use registry::{
    find_registration, Arguments, BoardKind, Capabilities, DatabaseKind, Family, Made, Parameter, ParameterKind,
    Registration,
};

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
            _ => Err(Error::Position {
                game: self.name(),
                error: crate::error::ParseError::refused("this game reads no moves after a position"),
            }),
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

    /// Analyses one after the other over one engine made from `options`, its table kept from each to the next
    /// (the explorer's, which keeps one per game). By default each is [`PlayableGame::analyze_after`] anew.
    fn analyst(&self, options: &AnalysisOptions) -> Result<Box<dyn Analyst + '_>> {
        Ok(Box::new(analyst::EachAnew { game: self, options: options.clone() }))
    }

    /// The position written `position` (`None`: the start) after `moves`, seen from outside: its drawing, key,
    /// moves or chance outcomes, whose turn, how it ended. By default [`Error::Unsupported`].
    fn inspect(&self, position: Option<&str>, moves: &[&str]) -> Result<PositionView> {
        let _ = (position, moves);
        Err(Error::Unsupported {
            game: self.name(),
            operation: "inspecting a position".into(),
            reason: "this game object does not show its positions".into(),
        })
    }

    /// Builds the game's opening book of `depth` plies at `path` with the engine `options` ask for (its table
    /// kept from one position to the next), telling `watch` of each position searched (a `Break` stops it,
    /// [`Error::Stopped`]); resumes a build that stopped. By default [`Error::Unsupported`].
    #[cfg(feature = "database")]
    fn build_book(
        &self,
        depth: u32,
        path: &std::path::Path,
        options: &AnalysisOptions,
        watch: &mut dyn FnMut(crate::database::book::BookProgress) -> std::ops::ControlFlow<()>,
    ) -> Result<crate::database::book::BookReport> {
        let _ = (depth, path, options, watch);
        Err(no_books(&self.name()))
    }

    /// Checks the game's opening book at `path`: every position of its plies, each value above the deepest
    /// ply against its moves', and `sample` positions drawn with `seed` searched again with the engine
    /// `options` ask for. By default [`Error::Unsupported`].
    #[cfg(feature = "database")]
    fn check_book(
        &self,
        path: &std::path::Path,
        sample: usize,
        seed: u64,
        options: &AnalysisOptions,
    ) -> Result<crate::database::book::BookCheck> {
        let _ = (path, sample, seed, options);
        Err(no_books(&self.name()))
    }

    /// Solves the game's endgame database ([`crate::scored::EndgameTiers`]) into `directory`, its tiers up to
    /// `solve.bound`, resuming from the tiers there. By default [`Error::Unsupported`].
    #[cfg(feature = "database")]
    fn solve_endgame(
        &self,
        directory: &std::path::Path,
        solve: &crate::database::endgame::EndgameSolve,
        report: &mut dyn FnMut(&crate::database::TierReport),
    ) -> Result<()> {
        let _ = (directory, solve, report);
        Err(endgame::no_endgame(&self.name()))
    }

    /// Checks the endgame database in `directory` (loaded within `memory_mb` MiB): every rank re-derived from
    /// its children's values. By default [`Error::Unsupported`].
    #[cfg(feature = "database")]
    fn check_endgame(
        &self,
        directory: &std::path::Path,
        memory_mb: usize,
        progress: &mut crate::database::CheckProgress,
    ) -> Result<crate::database::CheckReport> {
        let _ = (directory, memory_mb, progress);
        Err(endgame::no_endgame(&self.name()))
    }

    /// The family of the game's endgame database ([`crate::scored::EndgameTiers::endgame_family`]: the games
    /// one database serves, and the folder it is found in, [`crate::database::endgame::EndgamePlace`]);
    /// `None` for a game without one (the default).
    #[cfg(feature = "database")]
    fn endgame_family(&self) -> Option<String> {
        None
    }

    /// What the game is and what can be done with it: its family, chance, whether its positions repeat, and
    /// the kind of board it is drawn on (with no database: [`Made::capabilities`] adds it). What a
    /// registration declares is checked against it ([`Registration::check`]).
    fn capabilities(&self) -> Capabilities;
}

/// The error of a game that reads no opening books.
#[cfg(feature = "database")]
fn no_books(game: &str) -> Error {
    Error::Unsupported {
        game: game.to_string(),
        operation: "an opening book".into(),
        reason: "this game stores no values in books (its keys or values do not fit a database record)".into(),
    }
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
    fn play(&mut self, text: &str) -> std::result::Result<String, crate::error::ParseError>;

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
    fn outcomes(&self) -> Vec<(String, Probability)> {
        Vec::new()
    }
}

#[cfg(not(feature = "database"))]
impl<Ruleset: Rules, Worth> Playable<Ruleset, Worth> {
    /// The engine that searches as `options` ask: the game's own (without databases there is no endgame).
    fn searching_engine(
        &self,
        options: &AnalysisOptions,
    ) -> Result<Box<dyn Engine<Ruleset, Value = Worth, Failure = Error>>> {
        (self.make)(&self.name, options)
    }
}

/// Makes the engine of an analysis or a session from the options: the family's choice.
pub type MakeEngine<Ruleset, Worth> =
    fn(&str, &AnalysisOptions) -> Result<Box<dyn Engine<Ruleset, Value = Worth, Failure = Error>>>;

/// A game with a text form as a [`PlayableGame`], whatever its family: the game, its name, and how its values
/// are found and read (made by the family's constructor: [`Playable::win_loss`], [`Playable::scored`],
/// [`Playable::with_chance`], [`Playable::impartial`], [`Playable::misere`]).
pub struct Playable<Ruleset: Rules, Worth> {
    /// The game.
    pub game: Ruleset,
    /// Its name with its parameters.
    pub name: String,
    make: MakeEngine<Ruleset, Worth>,
    family: Family,
    scores: ScoreKind,
    chance: Option<Outcomes<Ruleset>>,
    board: Option<fn(&Ruleset, &Ruleset::Position) -> BoardView>,
    key: fn(&Ruleset, &Ruleset::Position) -> String,
    #[cfg(feature = "database")]
    books: Option<books::BookHooks<Ruleset, Worth>>,
    #[cfg(feature = "database")]
    endgame: Option<endgame::EndgameHooks<Ruleset, Worth>>,
}

impl<Ruleset: Rules + Clone, Worth> Clone for Playable<Ruleset, Worth> {
    fn clone(&self) -> Self {
        Playable { game: self.game.clone(), name: self.name.clone(), ..*self }
    }
}

impl<Ruleset: TextForm, Worth> Playable<Ruleset, Worth> {
    /// A game of family `family` whose engine `make` makes, whose scores mean `scores`, and whose chance nodes
    /// `chance` lists: what each family's constructor fills in.
    pub fn with_engine(
        game: Ruleset,
        name: String,
        make: MakeEngine<Ruleset, Worth>,
        family: Family,
        scores: ScoreKind,
        chance: Option<Outcomes<Ruleset>>,
    ) -> Self
    where
        Ruleset: crate::game::Canonicalize,
    {
        Playable {
            game,
            name,
            make,
            family,
            scores,
            chance,
            board: None,
            key: inspect::key_text::<Ruleset>,
            #[cfg(feature = "database")]
            books: None,
            #[cfg(feature = "database")]
            endgame: None,
        }
    }

    /// The same game, whose positions the explorer's page draws as boards ([`BoardForm`]).
    #[must_use]
    pub fn with_board(self) -> Self
    where
        Ruleset: BoardForm,
    {
        Playable { board: Some(board_view::<Ruleset>), ..self }
    }

    /// The engine `options` ask for.
    pub fn engine(
        &self,
        options: &AnalysisOptions,
    ) -> Result<Box<dyn Engine<Ruleset, Value = Worth, Failure = Error>>> {
        let engine = self.searching_engine(options)?;
        #[cfg(feature = "database")]
        if let Some(place) = &options.book {
            return self.booked(engine, place);
        }
        Ok(engine)
    }

    /// How an analysis reads this game's text, scores and chance nodes.
    pub fn text(&self) -> PositionText<'_, Ruleset> {
        PositionText { game: &self.game, name: &self.name, scores: self.scores, chance: self.chance }
    }

    /// The position written `position` (`None`: the start) after `moves` (an [`Error::Position`] names a text
    /// that is not a position, or the first illegal move).
    pub fn position_after(&self, position: Option<&str>, moves: &[&str]) -> Result<Ruleset::Position> {
        position_after(&self.game, &self.name, position, moves)
    }

    /// The analysis of `position` by `engine` (a search, or a database's stored values).
    pub fn analysis_with(
        &self,
        engine: &mut (dyn Engine<Ruleset, Value = Worth, Failure = Error> + '_),
        position: &Ruleset::Position,
        max_line: usize,
    ) -> Result<Analysis>
    where
        Worth: SearchValue,
    {
        analyze_position(&self.text(), engine, position, max_line)
    }

    /// The analysis of `position` by `engine` as `options` ask for it: the value alone ([`analyze_value`],
    /// `value_only`) or the whole report with a line of at most `max_line` moves.
    pub fn analysis_for(
        &self,
        engine: &mut (dyn Engine<Ruleset, Value = Worth, Failure = Error> + '_),
        position: &Ruleset::Position,
        options: &AnalysisOptions,
    ) -> Result<Analysis>
    where
        Worth: SearchValue,
    {
        if options.value_only {
            return analyze_value(&self.text(), engine, position);
        }
        self.analysis_with(engine, position, options.max_line)
    }

    /// A game from the start whose perfect player's moves come from `engine` (a search, or a database).
    pub fn session_with<'game>(
        &'game self,
        engine: Box<dyn Engine<Ruleset, Value = Worth, Failure = Error> + 'game>,
    ) -> Box<dyn GameSession + 'game>
    where
        Worth: SearchValue + 'game,
    {
        Box::new(session::Session::new(self, engine))
    }
}

impl<Ruleset, Worth> PlayableGame for Playable<Ruleset, Worth>
where
    Ruleset: TextForm + Send + Sync,
    Ruleset::Position: Send + Sync,
    Worth: SearchValue,
{
    fn name(&self) -> String {
        self.name.clone()
    }

    fn analyze(&self, position: Option<&str>, options: &AnalysisOptions) -> Result<Analysis> {
        self.analyze_after(position, &[], options)
    }

    fn analyze_after(&self, position: Option<&str>, moves: &[&str], options: &AnalysisOptions) -> Result<Analysis> {
        let position = self.position_after(position, moves)?;
        let mut engine = self.engine(options)?;
        self.analysis_for(engine.as_mut(), &position, options)
    }

    fn board_after(&self, position: Option<&str>, moves: &[&str]) -> Result<Option<BoardView>> {
        let Some(view) = self.board else { return Ok(None) };
        let position = self.position_after(position, moves)?;
        Ok(Some(view(&self.game, &position)))
    }

    fn session(&self, options: &AnalysisOptions) -> Result<Box<dyn GameSession + '_>> {
        Ok(self.session_with(self.engine(options)?))
    }

    fn analyst(&self, options: &AnalysisOptions) -> Result<Box<dyn Analyst + '_>> {
        let engine = self.engine(options)?;
        let (max_line, value_only) = (options.max_line, options.value_only);
        Ok(Box::new(analyst::Kept { playable: self, engine, max_line, value_only }))
    }

    fn inspect(&self, position: Option<&str>, moves: &[&str]) -> Result<PositionView> {
        self.view_after(position, moves)
    }

    #[cfg(feature = "database")]
    fn build_book(
        &self,
        depth: u32,
        path: &std::path::Path,
        options: &AnalysisOptions,
        watch: &mut dyn FnMut(crate::database::book::BookProgress) -> std::ops::ControlFlow<()>,
    ) -> Result<crate::database::book::BookReport> {
        let hooks = self.books.as_ref().ok_or_else(|| no_books(&self.name))?;
        // The book is built by searching, not from itself.
        let mut engine = self.searching_engine(options)?;
        let start = self.position_after(None, &[])?;
        (hooks.build)(&self.game, &self.name, &start, depth, path, engine.as_mut(), options.memory_mb, watch)
    }

    #[cfg(feature = "database")]
    fn check_book(
        &self,
        path: &std::path::Path,
        sample: usize,
        seed: u64,
        options: &AnalysisOptions,
    ) -> Result<crate::database::book::BookCheck> {
        let hooks = self.books.as_ref().ok_or_else(|| no_books(&self.name))?;
        let mut book = crate::database::book::Book::open(path, &self.name)?;
        let mut engine = self.searching_engine(options)?;
        let start = self.position_after(None, &[])?;
        (hooks.check)(&self.game, &start, &mut book, engine.as_mut(), sample, seed, options.memory_mb)
    }

    #[cfg(feature = "database")]
    fn solve_endgame(
        &self,
        directory: &std::path::Path,
        solve: &crate::database::endgame::EndgameSolve,
        report: &mut dyn FnMut(&crate::database::TierReport),
    ) -> Result<()> {
        let hooks = self.endgame.as_ref().ok_or_else(|| endgame::no_endgame(&self.name))?;
        (hooks.solve)(&self.game, directory, solve, report)
    }

    #[cfg(feature = "database")]
    fn check_endgame(
        &self,
        directory: &std::path::Path,
        memory_mb: usize,
        progress: &mut crate::database::CheckProgress,
    ) -> Result<crate::database::CheckReport> {
        let hooks = self.endgame.as_ref().ok_or_else(|| endgame::no_endgame(&self.name))?;
        (hooks.check)(&self.game, directory, memory_mb, progress)
    }

    #[cfg(feature = "database")]
    fn endgame_family(&self) -> Option<String> {
        self.endgame.as_ref().map(|hooks| (hooks.family)(&self.game))
    }

    fn capabilities(&self) -> Capabilities {
        let board = self.board_after(None, &[]).ok().flatten().map(|view| view.board.layout.kind());
        Capabilities {
            family: self.family,
            chance: self.chance.is_some(),
            positions_repeat: Ruleset::POSITIONS_REPEAT,
            database: None,
            board,
        }
    }
}

#[cfg(test)]
mod tests;
