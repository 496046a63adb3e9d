//! Games people can name, analyse and play from the command line: a game's text form ([`TextForm`]),
//! and [`Playable`], which turns any game with a text form into an object the CLI holds ([`PlayableGame`]) and
//! analyses a position with an engine of its choice: the position drawn, its value, every move's value, the
//! best moves and the principal variation.

use crate::analysis::{best_moves, move_values, principal_variation};
use crate::engines::alpha_beta::AlphaBeta;
use crate::engines::negamax::MemoNegamax;
use crate::engines::{Engine, Mode};
use crate::error::{Error, Result};
use crate::game::{Canonicalize, Game};
use crate::hints::SearchHints;
use crate::stats::Stats;
use crate::table::{mib, KeyedTable};
use crate::value::Value;
use serde::Serialize;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisOptions {
    /// The engine.
    pub engine: AnalysisEngine,
    /// Its table's memory, in MiB.
    pub table_mb: usize,
    /// The most positions one search may expand (`--max-positions`).
    pub max_positions: u64,
    /// The longest principal variation shown.
    pub max_line: usize,
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            engine: AnalysisEngine::default(),
            table_mb: crate::table::DEFAULT_TABLE_MB,
            max_positions: u64::MAX,
            max_line: 200,
        }
    }
}

/// One move of an analysed position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveAnalysis {
    /// The move's text.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value for the player who makes it.
    pub value: String,
    /// Plies to the end under perfect play if it is made, counted from the position before it.
    pub remoteness: Option<u32>,
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
    /// Its value for the player to move (`win`, `loss` or `draw`, with the remoteness).
    pub value: String,
    /// Plies to the end under perfect play (none for a draw).
    pub remoteness: Option<u32>,
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

    /// A game against the perfect player from the start position, its engine set up by `options`.
    fn session(&self, options: &AnalysisOptions) -> Result<Box<dyn GameSession + '_>>;
}

/// A game in progress between a person and the perfect player: positions are kept, so moves can be undone.
pub trait GameSession {
    /// The position drawn.
    fn drawing(&self) -> String;

    /// Whether the first player is to move.
    fn first_to_move(&self) -> bool;

    /// `None` while the game goes on; at its end, who won: `Some(Some(true))` the first player,
    /// `Some(Some(false))` the second, `Some(None)` a draw.
    fn result(&self) -> Option<Option<bool>>;

    /// Plays the move written `text` for the player to move; `Err` says why it is not a legal move (nothing is
    /// played then).
    fn play(&mut self, text: &str) -> std::result::Result<String, String>;

    /// Plays a best move for the player to move (the perfect player's), and returns it.
    fn play_best(&mut self) -> Result<String>;

    /// Every legal move with its value for the player to move (the `hint`).
    fn hints(&mut self) -> Result<Vec<MoveAnalysis>>;

    /// Takes back the last move; `false` at the start.
    fn undo(&mut self) -> bool;
}

/// A game with a text form, as a [`PlayableGame`].
pub struct Playable<Rules> {
    /// The game.
    pub game: Rules,
    /// Its name with its parameters.
    pub name: String,
    /// Whether its positions can repeat: then only the retrograde engine may analyse it (the others would
    /// search forever or give wrong values).
    pub loopy: bool,
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
        let position = match position {
            None => self.game.start(),
            Some(text) => self
                .game
                .parse_position(text)
                .map_err(|reason| Error::Unsupported(format!("{}: not a position: {reason}", self.name)))?,
        };
        self.analyze_with(self.engine(options)?, &position, options)
    }

    fn session(&self, options: &AnalysisOptions) -> Result<Box<dyn GameSession + '_>> {
        Ok(session(&self.game, self.engine(options)?))
    }
}

/// A game against the perfect player from `game`'s start, the perfect player's moves chosen by `engine` (an
/// exact engine, or one that reads a solved database).
pub fn session<'game, Rules: TextForm>(
    game: &'game Rules,
    engine: Box<dyn Engine<Rules> + 'game>,
) -> Box<dyn GameSession + 'game> {
    Box::new(Session { game, positions: vec![game.start()], engine })
}

/// A [`GameSession`] over a game with a text form: the positions so far, and an exact engine whose table serves
/// the whole game.
struct Session<'game, Rules: Game> {
    game: &'game Rules,
    positions: Vec<Rules::Position>,
    engine: Box<dyn Engine<Rules> + 'game>,
}

impl<Rules: TextForm> Session<'_, Rules> {
    fn current(&self) -> Option<&Rules::Position> {
        self.positions.last()
    }

    /// `Err` if the engine failed (a damaged database) while the last moves were valued: those values mean
    /// nothing then.
    fn failure(&mut self) -> Result<()> {
        self.engine.take_failure().map_or(Ok(()), Err)
    }
}

impl<Rules: TextForm> GameSession for Session<'_, Rules> {
    fn drawing(&self) -> String {
        self.current().map(|position| self.game.draw_position(position)).unwrap_or_default()
    }

    fn first_to_move(&self) -> bool {
        self.positions.len() % 2 == 1
    }

    fn result(&self) -> Option<Option<bool>> {
        let position = self.current()?;
        let outcome = match self.game.outcome(position) {
            Some(value) => value,
            // No move and no outcome: lost for the player to move.
            None if self.game.legal_moves(position).is_empty() => Value::LOST,
            None => return None,
        };
        let mover_first = self.first_to_move();
        Some(match outcome {
            Value::Draw => None,
            Value::Win(_) => Some(mover_first),
            Value::Lose(_) => Some(!mover_first),
        })
    }

    fn play(&mut self, text: &str) -> std::result::Result<String, String> {
        let position = self.current().ok_or("no position")?;
        if self.result().is_some() {
            return Err("the game is over".to_string());
        }
        let mv = self.game.parse_move(position, text)?;
        let next = self.game.play(position, &mv);
        self.positions.push(next);
        Ok(self.game.render_move(&mv))
    }

    fn play_best(&mut self) -> Result<String> {
        let position = self.current().ok_or_else(|| Error::Unsupported("no position".to_string()))?.clone();
        let best = best_moves(self.engine.as_mut(), self.game, &position).into_iter().next();
        self.failure()?;
        let mv = best.ok_or_else(|| Error::Unsupported("the game is over".to_string()))?.mv;
        self.positions.push(self.game.play(&position, &mv));
        Ok(self.game.render_move(&mv))
    }

    fn hints(&mut self) -> Result<Vec<MoveAnalysis>> {
        let position = self.current().ok_or_else(|| Error::Unsupported("no position".to_string()))?.clone();
        let hints = move_analyses(self.engine.as_mut(), self.game, &position);
        self.failure()?;
        Ok(hints)
    }

    fn undo(&mut self) -> bool {
        if self.positions.len() > 1 {
            self.positions.pop();
            true
        } else {
            false
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
    fn engine<'game>(&self, options: &AnalysisOptions) -> Result<Box<dyn Engine<Rules> + 'game>>
    where
        Rules: 'game,
    {
        let table = || KeyedTable::new(mib(options.table_mb));
        match (options.engine, self.loopy) {
            #[cfg(feature = "parallel")]
            (AnalysisEngine::Retrograde, _) | (AnalysisEngine::Auto, true) => {
                Ok(Box::new(RetrogradeEngine::new(options.max_positions)))
            }
            (AnalysisEngine::AlphaBeta | AnalysisEngine::MemoNegamax, true) => Err(Error::Unsupported(format!(
                "{} is loopy (its positions can repeat): only the retrograde engine analyses it",
                self.name
            ))),
            (AnalysisEngine::MemoNegamax, false) => {
                Ok(Box::new(MemoNegamax::with_table(Mode::Exact, table()).with_budget(options.max_positions)))
            }
            _ => Ok(Box::new(AlphaBeta::with_table(Mode::Exact, table()).with_budget(options.max_positions))),
        }
    }

    fn analyze_with(
        &self,
        mut engine: Box<dyn Engine<Rules> + '_>,
        position: &Rules::Position,
        options: &AnalysisOptions,
    ) -> Result<Analysis> {
        let game = &self.game;
        // The budget bounds the first search; the move values and the line reuse its table.
        let value = engine.try_value(game, position)?;
        let moves = move_analyses(engine.as_mut(), game, position);
        let line = principal_variation(engine.as_mut(), game, position, options.max_line);
        Ok(Analysis {
            game: self.name.clone(),
            drawing: game.draw_position(position),
            value: value_word(value),
            remoteness: value.remoteness(),
            moves,
            line: line.iter().map(|mv| game.render_move(mv)).collect(),
            stats: engine.stats(),
        })
    }
}

/// Every legal move of `position` with its value, the best ones marked (the moves' values are searched once).
pub(crate) fn move_analyses<Rules: TextForm>(
    engine: &mut (dyn Engine<Rules> + '_),
    game: &Rules,
    position: &Rules::Position,
) -> Vec<MoveAnalysis> {
    let values = move_values(engine, game, position);
    let best = values.iter().map(|m| m.value).max();
    values
        .into_iter()
        .map(|m| MoveAnalysis {
            mv: game.render_move(&m.mv),
            value: value_word(m.value),
            remoteness: m.value.remoteness(),
            best: Some(m.value) == best,
        })
        .collect()
}

/// `win`, `loss` or `draw`.
pub(crate) fn value_word(value: Value) -> String {
    match value {
        Value::Win(_) => "win",
        Value::Lose(_) => "loss",
        Value::Draw => "draw",
    }
    .to_string()
}

/// The parameters of a game named on the command line (`connect-four:width=5,height=4`), checked against the
/// ones the game declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parameters {
    spec: String,
    values: Vec<(String, String)>,
}

impl Parameters {
    /// A whole-number parameter, or `default` when it is not given.
    pub fn number(&self, key: &str, default: u32) -> Result<u32> {
        match self.values.iter().find(|(found, _)| found == key) {
            None => Ok(default),
            Some((_, value)) => value.parse().map_err(|_| {
                Error::Unsupported(format!("{}: `{key}` must be a whole number, found `{value}`", self.spec))
            }),
        }
    }

    /// A parameter as written, or `default` when it is not given.
    pub fn text(&self, key: &str, default: &str) -> String {
        self.values.iter().find(|(found, _)| found == key).map_or(default.to_string(), |(_, value)| value.clone())
    }

    /// The spec as typed, for messages.
    pub fn spec(&self) -> &str {
        &self.spec
    }
}

/// A game people can name: what the CLI lists, and how it is made from its parameters, as the object `Made`
/// ([`GameEntry`] makes a [`PlayableGame`]; a database entry makes a game that can be solved into a database).
#[derive(Debug)]
pub struct Entry<Made: ?Sized + 'static> {
    /// The name typed on the command line.
    pub name: &'static str,
    /// One line on the game and how its positions are written.
    pub summary: &'static str,
    /// Its parameters with their defaults (`width=7,height=6`), empty if none.
    pub parameters: &'static str,
    /// The game for these parameters (an error for values out of range).
    pub make: fn(&Parameters) -> Result<Box<Made>>,
}

impl<Made: ?Sized> Clone for Entry<Made> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<Made: ?Sized> Copy for Entry<Made> {}

/// A game people can name, analyse and play.
pub type GameEntry = Entry<dyn PlayableGame>;

/// The game of `entries` named by `spec` (`name` or `name:key=value,...`); unknown names and parameters are
/// errors that list the known ones.
pub fn find_game(entries: &[GameEntry], spec: &str) -> Result<Box<dyn PlayableGame>> {
    find_entry(entries, spec)
}

/// The object of `entries` named by `spec` (`name` or `name:key=value,...`); unknown names and parameters are
/// errors that list the known ones.
pub fn find_entry<Made: ?Sized>(entries: &[Entry<Made>], spec: &str) -> Result<Box<Made>> {
    let (name, given) = spec.split_once(':').unwrap_or((spec, ""));
    let entry = entries.iter().find(|entry| entry.name == name).ok_or_else(|| {
        let names: Vec<&str> = entries.iter().map(|entry| entry.name).collect();
        Error::Unsupported(format!("no game `{name}` (available: {})", names.join(", ")))
    })?;
    let known: Vec<&str> = entry.parameters.split(',').filter_map(|pair| pair.split('=').next()).collect();
    let mut values = Vec::new();
    for pair in given.split(',').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| Error::Unsupported(format!("{spec}: expected `key=value`, found `{pair}`")))?;
        if !known.contains(&key.trim()) {
            let declared = if entry.parameters.is_empty() { "none" } else { entry.parameters };
            return Err(Error::Unsupported(format!(
                "{name} has no parameter `{}` (its parameters: {declared})",
                key.trim()
            )));
        }
        if values.iter().any(|(known, _): &(String, String)| known == key.trim()) {
            return Err(Error::Unsupported(format!("{spec}: `{}` is given twice", key.trim())));
        }
        values.push((key.trim().to_string(), value.trim().to_string()));
    }
    (entry.make)(&Parameters { spec: spec.to_string(), values })
}

/// The retrograde engine behind the [`Engine`] interface: the first position asked for is solved strongly (with
/// every position reachable from it), and later questions about those positions are answered from the solution.
#[cfg(feature = "parallel")]
struct RetrogradeEngine<Key> {
    solver: crate::engines::retrograde::RetrogradeSolver,
    solutions: Vec<crate::engines::retrograde::TierSolution<(), Key>>,
    budget: u64,
}

#[cfg(feature = "parallel")]
impl<Key> RetrogradeEngine<Key> {
    fn new(budget: u64) -> Self {
        let solver = crate::engines::retrograde::RetrogradeSolver::new().with_budget(budget);
        RetrogradeEngine { solver, solutions: Vec::new(), budget }
    }
}

#[cfg(feature = "parallel")]
impl<Key> crate::engines::Statistics for RetrogradeEngine<Key> {
    fn stats(&self) -> crate::stats::Stats {
        self.solver.stats()
    }
}

#[cfg(feature = "parallel")]
impl<Rules> Engine<Rules> for RetrogradeEngine<Rules::Key>
where
    Rules: Canonicalize + SearchHints + Sync,
    Rules::Position: Send + Sync,
    Rules::Key: Send + Sync,
{
    fn search_within(&mut self, game: &Rules, position: &Rules::Position, budget: u64) -> Option<Value> {
        let key = game.canonical(position);
        if let Some(value) = self.solutions.iter().find_map(|solution| solution.value_of_key(&key)) {
            return Some(value);
        }
        // `budget` is the engine's own for `try_value`, and none for `value` (whose contract is to answer).
        let mut solver = crate::engines::retrograde::RetrogradeSolver::new().with_budget(budget);
        let solution = solver.solve(game, position).ok()?;
        let value = solution.value_of_key(&key);
        self.solver = solver;
        self.solutions.push(solution);
        value
    }

    fn budget(&self) -> u64 {
        self.budget
    }
}
