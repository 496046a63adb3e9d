//! Impartial games people name, analyse and play ([`ImpartialPlayable`]): under normal play by the
//! Sprague-Grundy engine (the nimber of the position and of every move, the winning moves themselves, in time
//! that grows with the components' sizes, not with the number of their sums), and under misère play by
//! alpha-beta over the whole sum ([`MisereSum`]), since nimbers do not add up in misère sums.
//!
//! A position is a sum of components written with commas (`10,3`; `-` for the empty sum). A move is written
//! `H:PARTS`: component `H` (from 1) becomes `PARTS`, the components of one of its options joined by `+`, or
//! `-` for none (`1:3+5`: the first heap becomes heaps of 3 and 5).

use super::session::History;
use super::{
    position_or_start, Analysis, AnalysisEngine, AnalysisOptions, Assessment, Board, BoardMove, BoardView, Finish,
    GameSession, Layout, MoveAnalysis, PlacedMove, PlayableGame,
};
use crate::analysis::{principal_variation, try_move_values};
use crate::engines::alpha_beta::AlphaBeta;
use crate::engines::grundy::GrundyEngine;
use crate::engines::{Engine, Mode, Statistics};
use crate::error::{Error, Result};
use crate::impartial::{Impartial, MisereSum, SumGame, SumMove};
use crate::input::shorten;
use crate::table::{mib, KeyedTable};

/// The most components a position may hold.
pub const MAX_COMPONENTS: usize = 1000;

/// How an impartial game's components are written. Contract: `parse_component(render_component(c))` is `c`.
pub trait ImpartialText: Impartial {
    /// The start position: the sum analysed and played when none is given.
    fn start(&self) -> Vec<Self::Component>;

    /// A component from its text (`Err` says what was expected).
    fn parse_component(&self, text: &str) -> std::result::Result<Self::Component, String>;

    /// A component's text: no `,`, `+`, `:` or space in it.
    fn render_component(&self, component: &Self::Component) -> String;

    /// A position from its text: components separated by commas, `-` (or nothing) for the empty sum.
    fn parse_position(&self, text: &str) -> std::result::Result<Vec<Self::Component>, String> {
        let text = text.trim();
        if text.is_empty() || text == "-" {
            return Ok(Vec::new());
        }
        if text.split(',').count() > MAX_COMPONENTS {
            return Err(format!("a position has at most {MAX_COMPONENTS} components"));
        }
        text.split(',')
            .enumerate()
            .map(|(index, part)| {
                self.parse_component(part).map_err(|reason| format!("component {}: {reason}", index + 1))
            })
            .collect()
    }

    /// The component as a heap of that many tokens, for a board ([`Layout::Heaps`]); `None` (the default) for a
    /// component that is not a heap, and the position is then shown by its text only.
    fn heap(&self, component: &Self::Component) -> Option<u32> {
        let _ = component;
        None
    }

    /// A position's text.
    fn render_position(&self, position: &[Self::Component]) -> String {
        if position.is_empty() {
            return "-".to_string();
        }
        position.iter().map(|component| self.render_component(component)).collect::<Vec<_>>().join(",")
    }
}

/// Who wins when no move is left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    /// Normal play: the player who cannot move loses.
    Normal,
    /// Misère play: the player who cannot move wins (whoever makes the last move loses).
    Misere,
}

/// An impartial game with a text form, as a [`PlayableGame`].
pub struct ImpartialPlayable<Rules> {
    /// The game.
    pub game: Rules,
    /// Its name with its parameters.
    pub name: String,
    /// Normal or misère play.
    pub convention: Convention,
}

impl<Rules> PlayableGame for ImpartialPlayable<Rules>
where
    Rules: ImpartialText + Send + Sync,
    Rules::Key: Ord,
{
    fn name(&self) -> String {
        self.name.clone()
    }

    fn analyze(&self, position: Option<&str>, options: &AnalysisOptions) -> Result<Analysis> {
        self.analyze_after(position, &[], options)
    }

    fn analyze_after(&self, position: Option<&str>, moves: &[&str], options: &AnalysisOptions) -> Result<Analysis> {
        let position = self.position_after(position, moves)?;
        let mut solver = Solver::new(&self.game, self.convention, options)?;
        let value = solver.value(&position)?;
        let moves = solver.moves(&position)?;
        let line = solver.line(&position, options.max_line)?;
        Ok(Analysis {
            game: self.name.clone(),
            drawing: draw(&self.game, &position),
            value,
            moves: moves.into_iter().map(|(_, analysis)| analysis).collect(),
            line,
            stats: solver.stats(),
        })
    }

    /// The components as heaps, when each of them is one ([`ImpartialText::heap`]); every move takes from a heap.
    fn board_after(&self, position: Option<&str>, moves: &[&str]) -> Result<Option<BoardView>> {
        let game = &self.game;
        let position = self.position_after(position, moves)?;
        let heaps = |components: &[Rules::Component]| components.iter().map(|c| game.heap(c)).collect::<Option<_>>();
        let Some(board) = heaps(&position) else { return Ok(None) };
        let mut placed = Vec::new();
        for (mv, parts) in moves_with_parts(game, &position) {
            let (Some(parts_left), Ok(heap)) = (heaps(&parts), u32::try_from(mv.component)) else { return Ok(None) };
            placed.push(PlacedMove {
                mv: render_move(game, &mv, &parts),
                place: BoardMove::Take { heap, parts: parts_left },
            });
        }
        Ok(Some(BoardView { board: Board { layout: Layout::Heaps { heaps: board }, to_move: None }, moves: placed }))
    }

    fn session(&self, options: &AnalysisOptions) -> Result<Box<dyn GameSession + '_>> {
        let solver = Solver::new(&self.game, self.convention, options)?;
        Ok(Box::new(ImpartialSession { positions: History::new(self.game.start()), solver }))
    }

    fn automatic_engine(&self) -> &'static str {
        match self.convention {
            Convention::Normal => "sprague-grundy",
            Convention::Misere => "alpha-beta",
        }
    }
}

impl<Rules> ImpartialPlayable<Rules>
where
    Rules: ImpartialText,
{
    /// The position reached by `moves` (each `H:PARTS`) from the position written `position` (`None`: the start).
    fn position_after(&self, position: Option<&str>, moves: &[&str]) -> Result<Vec<Rules::Component>> {
        let game = &self.game;
        let mut position = position_or_start(&self.name, position, || game.start(), |text| game.parse_position(text))?;
        for (index, text) in moves.iter().enumerate() {
            let mv = parse_move(game, &position, text).map_err(|reason| Error::Position {
                game: self.name.clone(),
                reason: format!("move {} (`{}`): {reason}", index + 1, shorten(text)),
            })?;
            position = crate::game::Game::play(&SumGame(game), &position, &mv);
        }
        Ok(position)
    }
}

/// The position drawn: its components, or a word for the empty sum.
fn draw<Rules: ImpartialText>(game: &Rules, position: &[Rules::Component]) -> String {
    if position.is_empty() {
        return "(no component left)\n".to_string();
    }
    format!("{}\n", position.iter().map(|component| game.render_component(component)).collect::<Vec<_>>().join(" "))
}

/// Every move of `position` with the components it leaves in place of the one it is played in.
fn moves_with_parts<Rules: Impartial>(
    game: &Rules,
    position: &[Rules::Component],
) -> Vec<(SumMove, Vec<Rules::Component>)> {
    let mut moves = Vec::new();
    for (component, part) in position.iter().enumerate() {
        let mut option = 0;
        game.options(part, &mut |parts, _| {
            moves.push((SumMove { component, option }, parts.to_vec()));
            option += 1;
        });
    }
    moves
}

/// A move's text: `H:PARTS`.
fn render_move<Rules: ImpartialText>(game: &Rules, mv: &SumMove, parts: &[Rules::Component]) -> String {
    let parts = if parts.is_empty() {
        "-".to_string()
    } else {
        parts.iter().map(|part| game.render_component(part)).collect::<Vec<_>>().join("+")
    };
    format!("{}:{parts}", mv.component + 1)
}

/// The move of `position` written `text` (`H:PARTS`, the parts in any order).
fn parse_move<Rules: ImpartialText>(
    game: &Rules,
    position: &[Rules::Component],
    text: &str,
) -> std::result::Result<SumMove, String> {
    let quoted = shorten(text);
    let (component, parts) = text
        .split_once(':')
        .ok_or_else(|| format!("expected a move like `1:3+5` (component 1 becomes 3 and 5), found `{quoted}`"))?;
    let component: usize = component
        .trim()
        .parse()
        .ok()
        .filter(|&component| (1..=position.len()).contains(&component))
        .ok_or_else(|| format!("expected a component from 1 to {}, found `{quoted}`", position.len()))?;
    let sorted = |mut texts: Vec<String>| {
        texts.sort();
        texts
    };
    let wanted = match parts.trim() {
        "-" | "" => Vec::new(),
        parts => sorted(parts.split('+').map(|part| part.trim().to_string()).collect()),
    };
    moves_with_parts(game, position)
        .into_iter()
        .find(|(mv, parts)| {
            mv.component == component - 1
                && sorted(parts.iter().map(|part| game.render_component(part)).collect()) == wanted
        })
        .map(|(mv, _)| mv)
        .ok_or_else(|| format!("component {component} has no option that leaves `{}`", shorten(parts)))
}

/// The engines of an analysis or a game: the Sprague-Grundy engine for normal play, alpha-beta over the sum
/// for misère play.
struct Solver<'game, Rules: Impartial> {
    game: &'game Rules,
    convention: Convention,
    grundy: GrundyEngine<Rules::Key>,
    alpha_beta: AlphaBeta<KeyedTable<Vec<Rules::Key>>>,
}

impl<'game, Rules> Solver<'game, Rules>
where
    Rules: ImpartialText,
    Rules::Key: Ord,
{
    fn new(game: &'game Rules, convention: Convention, options: &AnalysisOptions) -> Result<Self> {
        if options.engine != AnalysisEngine::Auto {
            return Err(Error::Engine(
                "an impartial game is analysed by its own engines (`--engine auto`: Sprague-Grundy under normal play, \
                 alpha-beta over the whole sum under misère play)"
                    .to_string(),
            ));
        }
        let memory_bytes = (options.memory_mb as u64).saturating_mul(1 << 20);
        if options.table_mb > options.memory_mb && convention == Convention::Misere {
            return Err(Error::limit_with_hint(
                "the table's memory (--table-mb), in MiB,",
                options.table_mb as u64,
                options.memory_mb as u64,
                "raise --memory-mb, or lower --table-mb",
            ));
        }
        let grundy = GrundyEngine::new()
            .with_budget(options.max_positions)
            .with_memory(usize::try_from(memory_bytes).unwrap_or(usize::MAX));
        // Misère only: under normal play the table is never used, so it costs nothing (it grows when filled).
        let alpha_beta = AlphaBeta::with_table(Mode::Exact, KeyedTable::new(mib(options.table_mb)))
            .with_budget(options.max_positions);
        Ok(Solver { game, convention, grundy, alpha_beta })
    }

    /// The position's value for the player to move (`win` or `loss`, with the remoteness where the engine
    /// gives it) and, under normal play, its nimber.
    fn value(&mut self, position: &[Rules::Component]) -> Result<Assessment> {
        match self.convention {
            Convention::Normal => {
                let nimber = self.grundy.try_sum(self.game, position)?;
                let finished = moves_with_parts(self.game, position).is_empty();
                Ok(Assessment::of_position_nimber(nimber, finished))
            }
            Convention::Misere => {
                let value = self.alpha_beta.try_value(&MisereSum(self.game), &position.to_vec())?;
                Ok(Assessment::Outcome(value))
            }
        }
    }

    /// Every move with its analysis for the player who makes it, the best ones marked.
    fn moves(&mut self, position: &[Rules::Component]) -> Result<Vec<(SumMove, MoveAnalysis)>> {
        let game = self.game;
        let moves = moves_with_parts(game, position);
        match self.convention {
            Convention::Normal => {
                let total = self.grundy.try_sum(game, position)?;
                let mut analyses = Vec::with_capacity(moves.len());
                for (mv, parts) in moves {
                    let mut after = total ^ self.grundy.try_nimber(game, &position[mv.component])?;
                    for part in &parts {
                        after ^= self.grundy.try_nimber(game, part)?;
                    }
                    // A move to a sum of nimber zero wins; from a lost position every move loses alike.
                    let analysis = MoveAnalysis {
                        mv: render_move(game, &mv, &parts),
                        value: Assessment::of_move_to_nimber(after),
                        best: after == 0 || total == 0,
                    };
                    analyses.push((mv, analysis));
                }
                Ok(analyses)
            }
            Convention::Misere => {
                let sum = MisereSum(game);
                let values = try_move_values(&mut self.alpha_beta, &sum, &position.to_vec())?;
                let best = values.iter().map(|value| value.value).max();
                Ok(values
                    .into_iter()
                    .zip(moves)
                    .map(|(value, (mv, parts))| {
                        let analysis = MoveAnalysis {
                            mv: render_move(game, &mv, &parts),
                            value: Assessment::Outcome(value.value),
                            best: Some(value.value) == best,
                        };
                        (mv, analysis)
                    })
                    .collect())
            }
        }
    }

    /// The first best move of `position`, if any.
    fn best(&mut self, position: &[Rules::Component]) -> Result<Option<(SumMove, String)>> {
        Ok(self
            .moves(position)?
            .into_iter()
            .find(|(_, analysis)| analysis.best)
            .map(|(mv, analysis)| (mv, analysis.mv)))
    }

    /// The principal variation: a best move for each side in turn, at most `max_plies` long.
    fn line(&mut self, position: &[Rules::Component], max_plies: usize) -> Result<Vec<String>> {
        let sum = SumGame(self.game);
        if self.convention == Convention::Misere {
            let start = position.to_vec();
            let line = principal_variation(&mut self.alpha_beta, &MisereSum(self.game), &start, max_plies)?;
            let mut current = start;
            let mut texts = Vec::with_capacity(line.len());
            for mv in &line {
                let next = crate::game::Game::play(&sum, &current, mv);
                let parts = moves_with_parts(self.game, &current)
                    .into_iter()
                    .find(|(found, _)| found == mv)
                    .map(|(_, parts)| parts)
                    .unwrap_or_default();
                texts.push(render_move(self.game, mv, &parts));
                current = next;
            }
            return Ok(texts);
        }
        let mut current = position.to_vec();
        let mut texts = Vec::new();
        while texts.len() < max_plies {
            let Some((mv, text)) = self.best(&current)? else { break };
            current = crate::game::Game::play(&sum, &current, &mv);
            texts.push(text);
        }
        Ok(texts)
    }

    fn stats(&self) -> crate::stats::Stats {
        match self.convention {
            Convention::Normal => self.grundy.stats(),
            Convention::Misere => self.alpha_beta.stats(),
        }
    }
}

/// A game of an impartial game against the perfect player.
struct ImpartialSession<'game, Rules: Impartial> {
    positions: History<Vec<Rules::Component>>,
    solver: Solver<'game, Rules>,
}

impl<Rules> ImpartialSession<'_, Rules>
where
    Rules: ImpartialText,
    Rules::Key: Ord,
{
    fn current(&self) -> &[Rules::Component] {
        self.positions.current()
    }
}

impl<Rules> GameSession for ImpartialSession<'_, Rules>
where
    Rules: ImpartialText,
    Rules::Key: Ord,
{
    fn drawing(&self) -> String {
        let mover = if self.first_to_move() { "first" } else { "second" };
        format!("{}the {mover} player to move\n", draw(self.solver.game, self.current()))
    }

    fn first_to_move(&self) -> bool {
        self.positions.first_to_move()
    }

    fn result(&self) -> Option<Finish> {
        if !moves_with_parts(self.solver.game, self.current()).is_empty() {
            return None;
        }
        let mover_first = self.first_to_move();
        Some(Finish::won_by(match self.solver.convention {
            Convention::Normal => !mover_first,
            Convention::Misere => mover_first,
        }))
    }

    fn play(&mut self, text: &str) -> std::result::Result<String, String> {
        if self.result().is_some() {
            return Err("the game is over".to_string());
        }
        let position = self.current().to_vec();
        let game = self.solver.game;
        let mv = parse_move(game, &position, text)?;
        let parts =
            moves_with_parts(game, &position).into_iter().find(|(found, _)| *found == mv).map(|(_, parts)| parts);
        self.positions.push(crate::game::Game::play(&SumGame(game), &position, &mv));
        Ok(render_move(game, &mv, &parts.unwrap_or_default()))
    }

    fn play_best(&mut self) -> Result<String> {
        let position = self.current().to_vec();
        let (mv, text) = self.solver.best(&position)?.ok_or(Error::GameOver)?;
        self.positions.push(crate::game::Game::play(&SumGame(self.solver.game), &position, &mv));
        Ok(text)
    }

    fn hints(&mut self) -> Result<Vec<MoveAnalysis>> {
        let position = self.current().to_vec();
        Ok(self.solver.moves(&position)?.into_iter().map(|(_, analysis)| analysis).collect())
    }

    fn undo(&mut self) -> bool {
        self.positions.undo()
    }

    fn moves_played(&self) -> usize {
        self.positions.moves_played()
    }
}
