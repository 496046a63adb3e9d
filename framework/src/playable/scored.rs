//! [`ScoredPlayable`]: a scored game with a text form ([`ScoredText`]) as a [`PlayableGame`]: analysed by the
//! scored engine its kind calls for (alpha-beta over scores for a deterministic game, expectimax for a game
//! with chance whose positions never repeat, value iteration for one whose positions do), played
//! ([`super::scored_session`]), and drawn on the explorer's board when the game has a [`ScoredBoardForm`]
//! ([`ScoredPlayable::with_board`]).
//!
//! Invariant: every value an analysis shows is seen by the player to move at its position, a move's by the
//! player who makes it; the principal variation keeps the value (for a game with chance it stops at the first
//! chance node).

use super::assessment::Expected;
use super::scored_board::{scored_board_view, ScoredBoardForm};
use super::{play_written, position_or_start, Analysis, AnalysisEngine, AnalysisOptions, Assessment, BoardView};
use super::{GameSession, MoveAnalysis, PlayableGame, ScoredText};
use crate::engines::scored::{Expectimax, ScoredAlphaBeta, ScoredEngine, ValueIteration, ValueTable};
use crate::engines::{Mode, Statistics};
use crate::error::{Error, Result};
use crate::scored::{move_scores, scored_line, Chance, Deterministic, ScoreKind, ScoredCanonicalize, ScoredGame};
use crate::scored::{MoveScore, Probability, ScoredHints};
use crate::stats::Stats;
use crate::table::{mib, KeyedTable};
use std::ops::Neg;

/// A value as the scored engines give it: an exact score, or an expected one with its error.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub(crate) enum Worth {
    /// An exact score.
    Exact(i32),
    /// An expected score and how far it may be from the exact expectation.
    Expected(f64, f64),
}

impl Neg for Worth {
    type Output = Worth;

    fn neg(self) -> Worth {
        match self {
            Worth::Exact(score) => Worth::Exact(-score),
            Worth::Expected(score, error) => Worth::Expected(-score, error),
        }
    }
}

impl Worth {
    /// As an analysis shows it.
    fn assessment(self, kind: ScoreKind) -> Assessment {
        match self {
            Worth::Exact(score) => Assessment::Score(score),
            Worth::Expected(score, error) => {
                Assessment::Expected(Expected { score, error, win_loss: kind == ScoreKind::WinLoss, chance: None })
            }
        }
    }

    fn number(self) -> f64 {
        match self {
            Worth::Exact(score) => f64::from(score),
            Worth::Expected(score, _) => score,
        }
    }

    fn error(self) -> f64 {
        match self {
            Worth::Exact(_) => 0.0,
            Worth::Expected(_, error) => error,
        }
    }
}

/// How a scored game is solved for an analysis or a session: the value of a position for its mover.
pub(crate) trait Evaluator<Rules: ScoredGame> {
    /// The value of `position` for its mover, within the budgets the evaluator was made with.
    fn value(&mut self, game: &Rules, position: &Rules::Position) -> Result<Worth>;

    /// The work done so far.
    fn stats(&self) -> Stats;

    /// What the analysis adds to the drawing about the solve (value iteration's sweeps), if anything.
    fn note(&self) -> Option<String> {
        None
    }
}

/// Alpha-beta over scores.
struct Exact<Key>(ScoredAlphaBeta<KeyedTable<Key>>);

impl<Rules> Evaluator<Rules> for Exact<Rules::Key>
where
    Rules: Deterministic + ScoredCanonicalize + ScoredHints,
{
    fn value(&mut self, game: &Rules, position: &Rules::Position) -> Result<Worth> {
        self.0.try_score(game, position).map(Worth::Exact)
    }

    fn stats(&self) -> Stats {
        self.0.stats()
    }
}

/// Expectimax.
struct Expecting<Key>(Expectimax<Key>);

impl<Rules> Evaluator<Rules> for Expecting<Rules::Key>
where
    Rules: Chance + ScoredCanonicalize + ScoredHints,
{
    fn value(&mut self, game: &Rules, position: &Rules::Position) -> Result<Worth> {
        self.0.try_score(game, position).map(|found| Worth::Expected(found.value, found.error))
    }

    fn stats(&self) -> Stats {
        self.0.stats()
    }
}

/// Value iteration: every position reachable from the first one asked is solved at once, then looked up (a
/// position outside that solve is solved anew).
struct Iterating<Key> {
    settings: ValueIteration,
    solved: Option<ValueTable<Key>>,
    stats: Stats,
}

impl<Rules> Evaluator<Rules> for Iterating<Rules::Key>
where
    Rules: Chance + ScoredCanonicalize,
{
    fn value(&mut self, game: &Rules, position: &Rules::Position) -> Result<Worth> {
        if let Some(solved) = &self.solved {
            if let Some(value) = solved.value(game, position) {
                return Ok(Worth::Expected(value, solved.residual));
            }
        }
        let solved = self.settings.solve(game, position)?;
        self.stats.visited += solved.positions() as u64;
        self.stats.table_entries = solved.positions() as u64;
        let value =
            solved.value(game, position).ok_or_else(|| Error::Internal("a solved start without a value".into()))?;
        let residual = solved.residual;
        self.solved = Some(solved);
        Ok(Worth::Expected(value, residual))
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn note(&self) -> Option<String> {
        let solved = self.solved.as_ref()?;
        Some(format!(
            "value iteration: {} positions, {} sweeps, largest change of the last sweep {:.1e}{}",
            solved.positions(),
            solved.sweeps,
            solved.residual,
            if solved.converged { "" } else { " (stopped by the cap on sweeps before the tolerance)" }
        ))
    }
}

/// Makes the evaluator an analysis runs.
type MakeEvaluator<Rules> = fn(&AnalysisOptions) -> Result<Box<dyn Evaluator<Rules>>>;

/// The outcomes of a chance node with their probabilities (`None` at a decision, or in a game without chance).
pub(crate) type Outcomes<Rules> =
    fn(&Rules, &<Rules as ScoredGame>::Position) -> Option<Vec<(<Rules as ScoredGame>::Move, Probability)>>;

/// A scored game with a text form, as a [`PlayableGame`].
pub struct ScoredPlayable<Rules: ScoredGame> {
    /// The game.
    pub game: Rules,
    /// Its name with its parameters.
    pub name: String,
    make: MakeEvaluator<Rules>,
    pub(crate) outcomes: Outcomes<Rules>,
    engine: &'static str,
    /// The board of a position with its moves' places, for a game with a [`ScoredBoardForm`].
    board: Option<fn(&Rules, &Rules::Position) -> BoardView>,
}

fn no_chance<Rules: ScoredGame>(_game: &Rules, _position: &Rules::Position) -> Option<Vec<(Rules::Move, Probability)>> {
    None
}

fn chance_outcomes<Rules: Chance>(game: &Rules, position: &Rules::Position) -> Option<Vec<(Rules::Move, Probability)>> {
    if game.is_over(position) || !game.is_chance(position) {
        return None;
    }
    let mut outcomes = Vec::new();
    game.outcomes(position, &mut outcomes);
    let denominator = outcomes.iter().map(|(_, weight)| *weight).sum();
    Some(outcomes.into_iter().map(|(mv, numerator)| (mv, Probability { numerator, denominator })).collect())
}

/// The table memory must fit the memory budget.
fn check_table(options: &AnalysisOptions) -> Result<()> {
    if options.table_mb > options.memory_mb {
        return Err(Error::limit_with_hint(
            "the table's memory (--table-mb), in MiB,",
            options.table_mb as u64,
            options.memory_mb as u64,
            "raise --memory-mb, or lower --table-mb",
        ));
    }
    Ok(())
}

/// Refuses an engine asked for that does not solve this kind of game.
fn only_engines(options: &AnalysisOptions, allowed: &[AnalysisEngine], automatic: &str) -> Result<()> {
    if options.engine == AnalysisEngine::Auto || allowed.contains(&options.engine) {
        return Ok(());
    }
    Err(Error::Engine(format!(
        "this scored game is analysed by {automatic} (`--engine auto`); the engine asked for solves win/loss/draw games"
    )))
}

fn exact_evaluator<Rules>(options: &AnalysisOptions) -> Result<Box<dyn Evaluator<Rules>>>
where
    Rules: Deterministic + ScoredCanonicalize + ScoredHints + 'static,
{
    check_table(options)?;
    only_engines(options, &[AnalysisEngine::AlphaBeta], "scored alpha-beta")?;
    let engine = ScoredAlphaBeta::with_table(Mode::Exact, KeyedTable::new(mib(options.table_mb)))
        .with_budget(options.max_positions);
    Ok(Box::new(Exact(engine)))
}

fn expectimax_evaluator<Rules>(options: &AnalysisOptions) -> Result<Box<dyn Evaluator<Rules>>>
where
    Rules: Chance + ScoredCanonicalize + ScoredHints + 'static,
{
    check_table(options)?;
    only_engines(options, &[], "expectimax")?;
    Ok(Box::new(Expecting(Expectimax::new(mib(options.table_mb)).with_budget(options.max_positions))))
}

/// The bytes value iteration is counted as holding per position: its key, index entry, position, value and
/// about four edges.
fn iteration_bytes<Rules: ScoredCanonicalize>() -> usize {
    2 * size_of::<Rules::Key>() + size_of::<Rules::Position>() + 16 + 4 * 16 + 16
}

fn iteration_evaluator<Rules>(options: &AnalysisOptions) -> Result<Box<dyn Evaluator<Rules>>>
where
    Rules: Chance + ScoredCanonicalize + 'static,
{
    only_engines(options, &[], "value iteration")?;
    let by_memory = (mib(options.memory_mb) / iteration_bytes::<Rules>()) as u64;
    let settings = ValueIteration { max_positions: options.max_positions.min(by_memory), ..ValueIteration::default() };
    Ok(Box::new(Iterating { settings, solved: None, stats: Stats::default() }))
}

impl<Rules> ScoredPlayable<Rules>
where
    Rules: ScoredText + ScoredCanonicalize + ScoredHints + 'static,
{
    /// A game without chance, analysed by alpha-beta over scores.
    pub fn deterministic(game: Rules, name: String) -> Self
    where
        Rules: Deterministic,
    {
        ScoredPlayable {
            game,
            name,
            make: exact_evaluator::<Rules>,
            outcomes: no_chance::<Rules>,
            engine: "scored-alpha-beta",
            board: None,
        }
    }

    /// A game with chance: by value iteration if its positions repeat, else by expectimax.
    pub fn with_chance(game: Rules, name: String) -> Self
    where
        Rules: Chance,
    {
        let (make, engine): (MakeEvaluator<Rules>, _) = if Rules::POSITIONS_REPEAT {
            (iteration_evaluator::<Rules>, "value-iteration")
        } else {
            (expectimax_evaluator::<Rules>, "expectimax")
        };
        ScoredPlayable { game, name, make, outcomes: chance_outcomes::<Rules>, engine, board: None }
    }

    /// The same game, whose positions the explorer's page draws as boards ([`ScoredBoardForm`]).
    #[must_use]
    pub fn with_board(self) -> Self
    where
        Rules: ScoredBoardForm,
    {
        ScoredPlayable { board: Some(scored_board_view::<Rules>), ..self }
    }

    /// The position reached by `moves` (each as [`ScoredText::parse_move`] reads it, outcomes of chance too)
    /// from the position written `text` (`None`: the start). An illegal move is an [`Error::Position`] naming
    /// it.
    pub(crate) fn position_after(&self, text: Option<&str>, moves: &[&str]) -> Result<Rules::Position> {
        let game = &self.game;
        play_written(&self.name, self.position(text)?, moves, |at, text| {
            game.parse_move(at, text).map(|mv| game.play(at, &mv))
        })
    }

    /// A game from the start whose perfect player's moves come from `evaluator`.
    pub(crate) fn session_with(&self, evaluator: Box<dyn Evaluator<Rules>>) -> Box<dyn GameSession + '_> {
        Box::new(super::scored_session::ScoredSession::new(self, evaluator))
    }

    /// The position written `text` (`None`: the start).
    pub(crate) fn position(&self, text: Option<&str>) -> Result<Rules::Position> {
        position_or_start(&self.name, text, || self.game.start(), |text| self.game.parse_position(text))
    }

    /// The evaluator `options` ask for.
    pub(crate) fn evaluator(&self, options: &AnalysisOptions) -> Result<Box<dyn Evaluator<Rules>>> {
        (self.make)(options)
    }

    /// Every move of `position` with its value for its mover, the best ones marked (none at a chance node,
    /// whose moves are outcomes, each with its probability).
    pub(crate) fn move_analyses(
        &self,
        evaluator: &mut dyn Evaluator<Rules>,
        position: &Rules::Position,
    ) -> Result<Vec<MoveAnalysis>> {
        let scores: Vec<MoveScore<Rules::Move, Worth>> =
            move_scores(&self.game, position, |child| evaluator.value(&self.game, child))?;
        let outcomes = (self.outcomes)(&self.game, position);
        let best = scores.iter().map(|entry| entry.value.number()).fold(f64::NEG_INFINITY, f64::max);
        Ok(scores
            .into_iter()
            .map(|entry| {
                let mut value = entry.value.assessment(Rules::SCORES);
                let chance =
                    outcomes.as_ref().and_then(|all| all.iter().find(|(mv, _)| *mv == entry.mv)).map(|(_, p)| *p);
                if let Assessment::Expected(expected) = &mut value {
                    expected.chance = chance;
                }
                // Values within their error of the best are best too (rounding must not hide a tie).
                let close = entry.value.number() + 2.0 * entry.value.error() >= best;
                MoveAnalysis { mv: self.game.render_move(&entry.mv), value, best: outcomes.is_none() && close }
            })
            .collect())
    }

    /// The analysis of `position` by `evaluator`: its value, every move's, the principal variation (at most
    /// `max_line` moves).
    pub(crate) fn analysis_with(
        &self,
        evaluator: &mut dyn Evaluator<Rules>,
        position: &Rules::Position,
        max_line: usize,
    ) -> Result<Analysis> {
        let value = evaluator.value(&self.game, position)?;
        let moves = self.move_analyses(evaluator, position)?;
        let line = scored_line(
            &self.game,
            position,
            max_line,
            |at| (self.outcomes)(&self.game, at).is_some(),
            |child| evaluator.value(&self.game, child),
        )?;
        let mut drawing = self.game.draw_position(position);
        if let Some(note) = evaluator.note() {
            drawing.push_str(&note);
            drawing.push('\n');
        }
        Ok(Analysis {
            game: self.name.clone(),
            drawing,
            value: value.assessment(Rules::SCORES),
            moves,
            line: line.iter().map(|mv| self.game.render_move(mv)).collect(),
            stats: evaluator.stats(),
        })
    }
}

impl<Rules> PlayableGame for ScoredPlayable<Rules>
where
    Rules: ScoredText + ScoredCanonicalize + ScoredHints + Send + Sync + 'static,
{
    fn name(&self) -> String {
        self.name.clone()
    }

    fn analyze(&self, position: Option<&str>, options: &AnalysisOptions) -> Result<Analysis> {
        self.analyze_after(position, &[], options)
    }

    fn analyze_after(&self, position: Option<&str>, moves: &[&str], options: &AnalysisOptions) -> Result<Analysis> {
        let position = self.position_after(position, moves)?;
        self.analysis_with(self.evaluator(options)?.as_mut(), &position, options.max_line)
    }

    fn board_after(&self, position: Option<&str>, moves: &[&str]) -> Result<Option<BoardView>> {
        let Some(view) = self.board else { return Ok(None) };
        let position = self.position_after(position, moves)?;
        Ok(Some(view(&self.game, &position)))
    }

    fn session(&self, options: &AnalysisOptions) -> Result<Box<dyn GameSession + '_>> {
        Ok(self.session_with(self.evaluator(options)?))
    }

    fn automatic_engine(&self) -> &'static str {
        self.engine
    }
}
