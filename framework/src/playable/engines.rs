//! The engine each family's analyses and sessions run, made from [`AnalysisOptions`], and the constructors of
//! [`Playable`] that choose it: [`Playable::win_loss`] (alpha-beta, memoized negamax, or the retrograde
//! engine for a loopy game), [`Playable::scored`] (alpha-beta over scores), [`Playable::with_chance`]
//! (expectimax, or value iteration for a game whose positions repeat), [`Playable::impartial`] (the
//! Sprague-Grundy engine) and [`Playable::misere`] (alpha-beta over the whole sum).
//!
//! Invariant: every engine made here works within the options' budgets: positions a search
//! (`max_positions`), the table (`table_mb`, at most `memory_mb`), and what a whole solve holds (`memory_mb`).

use super::{AnalysisEngine, AnalysisOptions, Family, Playable};
use crate::engines::alpha_beta::{AlphaBeta, ProgressHandle};
use crate::engines::grundy::{GrundyEngine, Nimber};
use crate::engines::negamax::MemoNegamax;
use crate::engines::scored::{ExpectedScore, Expectimax, ScoredAlphaBeta, ValueIteration, ValueTable};
use crate::engines::{Engine, Fallible, Mode, Statistics, Stop};
use crate::error::{Error, Remedy, Result, Setting};
use crate::game::{Canonicalize, Game};
use crate::hints::SearchHints;
use crate::impartial::{Impartial, MisereSum, SumGame};
use crate::scored::{chance_outcomes, Chance, Deterministic, ScoreKind, ScoredGame};
use crate::stats::{Convergence, Stats};
use crate::table::{mib, KeyedTable, PackedTable};
use crate::text::TextForm;
use crate::value::Value;

/// A boxed engine of a game, failing with [`Error`].
type Boxed<Ruleset, Worth> = Box<dyn Engine<Ruleset, Value = Worth, Failure = Error>>;

/// The table's memory must fit the memory budget.
fn check_table(options: &AnalysisOptions) -> Result<()> {
    if options.table_mb > options.memory_mb {
        return Err(Error::Limit {
            what: "the table's memory, in MiB,".into(),
            setting: Some(Setting::TableMb),
            got: options.table_mb as u64,
            limit: options.memory_mb as u64,
            remedies: vec![Remedy::Raise(Setting::MemoryMb), Remedy::Lower(Setting::TableMb)],
        });
    }
    Ok(())
}

/// An engine asked for that does not solve this game (`name`): `reason`.
fn unsupported(name: &str, options: &AnalysisOptions, reason: impl Into<String>) -> Error {
    Error::Unsupported {
        game: name.to_string(),
        operation: format!("the engine `{}`", options.engine.name()),
        reason: reason.into(),
    }
}

/// Refuses an engine asked for that does not solve this family: `family` names it, `automatic` its engine.
fn only_automatic(name: &str, options: &AnalysisOptions, family: &str, automatic: &str) -> Result<()> {
    if options.engine == AnalysisEngine::Auto {
        return Ok(());
    }
    let reason = format!(
        "{family} is analysed by {automatic}, its automatic engine; the engine asked for solves \
                          win/loss/draw games"
    );
    Err(unsupported(name, options, reason))
}

/// The exact win/loss engine `options` ask for (for a loopy game, only the retrograde engine).
fn win_loss_engine<Ruleset>(name: &str, options: &AnalysisOptions) -> Result<Boxed<Ruleset, Value>>
where
    Ruleset: Game + Canonicalize + SearchHints + Send + Sync + 'static,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: Send + Sync,
{
    let table = || KeyedTable::new(mib(options.table_mb));
    match (options.engine, Ruleset::POSITIONS_REPEAT) {
        #[cfg(feature = "parallel")]
        (AnalysisEngine::Retrograde, _) | (AnalysisEngine::Auto, true) => {
            Ok(Box::new(super::retrograde::RetrogradeEngine::new(
                options.max_positions,
                options.memory_mb,
                crate::engines::retrograde::bytes_per_position::<Ruleset::Position, Ruleset::Key>(),
                options.progress.clone(),
            )))
        }
        _ => {
            check_table(options)?;
            match (options.engine, Ruleset::POSITIONS_REPEAT) {
                (_, true) => Err(unsupported(
                    name,
                    options,
                    "the game is loopy (its positions can repeat): only the retrograde engine analyses it",
                )),
                (AnalysisEngine::MemoNegamax, false) => Ok(Box::new(Fallible(
                    MemoNegamax::with_table(Mode::Exact, table()).with_budget(options.max_positions),
                ))),
                _ => Ok(Box::new(Fallible(
                    AlphaBeta::with_table(Mode::Exact, table())
                        .with_budget(options.max_positions)
                        .with_progress(options.progress.clone()),
                ))),
            }
        }
    }
}

/// [`win_loss_engine`] with alpha-beta over a [`PackedTable`] of `table_mb` MiB (a game's fastest solver, where
/// its keys fit 64 bits: one word an entry, where the keyed table takes several), Lazy SMP on `threads`
/// threads when asked; the other engines as [`win_loss_engine`] makes them.
fn packed_win_loss_engine<Ruleset>(name: &str, options: &AnalysisOptions) -> Result<Boxed<Ruleset, Value>>
where
    Ruleset: Game + Canonicalize + SearchHints + Send + Sync + 'static,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: Send + Sync + Copy + Into<u64>,
{
    if Ruleset::POSITIONS_REPEAT || !matches!(options.engine, AnalysisEngine::Auto | AnalysisEngine::AlphaBeta) {
        return win_loss_engine::<Ruleset>(name, options);
    }
    check_table(options)?;
    #[cfg(feature = "parallel")]
    if options.threads > 1 {
        // Lazy SMP: the threads share one table, and each has a near part of its own within the budget.
        let table = PackedTable::with_budget_for_threads(mib(options.table_mb), options.threads)?;
        let engine = crate::engines::alpha_beta::LazySmp::with_table(Mode::Exact, options.threads, table)?;
        return Ok(Box::new(Fallible(
            engine.with_budget(options.max_positions).with_progress(options.progress.clone()),
        )));
    }
    // All of it allocated now, and touched only as the search fills it: the peak is the budget at most.
    let table = PackedTable::with_budget(mib(options.table_mb))?;
    Ok(Box::new(Fallible(
        AlphaBeta::with_table(Mode::Exact, table)
            .with_budget(options.max_positions)
            .with_progress(options.progress.clone()),
    )))
}

/// Alpha-beta over scores over a keyed table; on `threads` threads when asked, the scored Lazy SMP over a
/// sharded one.
fn scored_engine<Ruleset>(name: &str, options: &AnalysisOptions) -> Result<Boxed<Ruleset, i32>>
where
    Ruleset: Deterministic + Canonicalize + SearchHints + Sync + 'static,
    Ruleset::Position: Sync,
    Ruleset::Key: Send,
{
    check_table(options)?;
    if !matches!(options.engine, AnalysisEngine::Auto | AnalysisEngine::AlphaBeta) {
        only_automatic(name, options, "this scored game", "scored alpha-beta")?;
    }
    #[cfg(feature = "parallel")]
    if options.threads > 1 {
        let table = crate::table::ShardedTable::new(mib(options.table_mb));
        return scored_threads(table, options);
    }
    let engine = ScoredAlphaBeta::with_table(Mode::Exact, KeyedTable::new(mib(options.table_mb)))
        .with_budget(options.max_positions)
        .with_guess_budget(options.guess_positions)
        .with_progress_line(options.progress.clone());
    Ok(Box::new(engine))
}

/// [`scored_engine`] over a [`PackedTable`], for a scored game whose keys fit 64 bits (Othello up to 6 x 6 by
/// its compact keys): one word an entry.
fn packed_scored_engine<Ruleset>(name: &str, options: &AnalysisOptions) -> Result<Boxed<Ruleset, i32>>
where
    Ruleset: Deterministic + Canonicalize + SearchHints + Sync + 'static,
    Ruleset::Position: Sync,
    Ruleset::Key: Send + Copy + Into<u64>,
{
    check_table(options)?;
    if !matches!(options.engine, AnalysisEngine::Auto | AnalysisEngine::AlphaBeta) {
        only_automatic(name, options, "this scored game", "scored alpha-beta")?;
    }
    // All of it allocated now, and touched only as the search fills it: the peak is the budget at most.
    let table = PackedTable::with_budget(mib(options.table_mb))?;
    #[cfg(feature = "parallel")]
    if options.threads > 1 {
        return scored_threads(table, options);
    }
    let engine = ScoredAlphaBeta::with_table(Mode::Exact, table)
        .with_budget(options.max_positions)
        .with_guess_budget(options.guess_positions)
        .with_progress_line(options.progress.clone());
    Ok(Box::new(engine))
}

/// The scored Lazy SMP on `options.threads` threads over `table`.
#[cfg(feature = "parallel")]
fn scored_threads<Ruleset, Table>(table: Table, options: &AnalysisOptions) -> Result<Boxed<Ruleset, i32>>
where
    Ruleset: Deterministic + Canonicalize + SearchHints + Sync + 'static,
    Ruleset::Position: Sync,
    Table: crate::table::SharedTable<Ruleset::Key> + crate::table::TableStorage + 'static,
{
    let engine = crate::engines::scored::ScoredLazySmp::with_table(Mode::Exact, options.threads, table)?
        .with_budget(options.max_positions)
        .with_guess_budget(options.guess_positions)
        .with_progress_line(options.progress.clone());
    Ok(Box::new(engine))
}

/// Expectimax.
fn expectimax_engine<Ruleset>(name: &str, options: &AnalysisOptions) -> Result<Boxed<Ruleset, ExpectedScore>>
where
    Ruleset: Chance + Canonicalize + SearchHints + 'static,
{
    check_table(options)?;
    only_automatic(name, options, "this game of chance", "expectimax")?;
    let engine = Expectimax::new(mib(options.table_mb)).with_budget(options.max_positions);
    Ok(Box::new(engine.with_progress_line(options.progress.clone())))
}

/// Value iteration behind the [`Engine`] interface: every position reachable from the first one asked is solved
/// at once, then looked up (a position outside that solve is solved anew).
struct Iterating<Key> {
    settings: ValueIteration,
    /// Where a solve shows its steps to a watcher on another thread (the CLI's progress line).
    line: Option<ProgressHandle>,
    solved: Option<ValueTable<Key>>,
    stats: Stats,
}

impl<Key: std::hash::Hash + Eq> Statistics for Iterating<Key> {
    fn stats(&self) -> Stats {
        self.stats
    }

    fn convergence(&self) -> Option<Convergence> {
        let solved = self.solved.as_ref()?;
        Some(Convergence {
            positions: solved.positions() as u64,
            sweeps: solved.sweeps,
            residual: solved.residual,
            converged: solved.converged,
        })
    }
}

impl<Ruleset> Engine<Ruleset> for Iterating<Ruleset::Key>
where
    Ruleset: Chance + Canonicalize,
{
    type Value = ExpectedScore;
    type Failure = Error;

    fn search_within(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        _budget: u64,
    ) -> std::result::Result<ExpectedScore, Stop<Error>> {
        if let Some(solved) = &self.solved {
            if let Some(value) = solved.value(game, position) {
                return Ok(ExpectedScore { value, error: solved.residual });
            }
        }
        // The solve before is dropped first: both at once could pass the memory budget.
        self.solved = None;
        let line = self.line.as_ref().map(|handle| &*handle.0);
        let solved = self.settings.solve_showing(game, position, line).map_err(Stop::Failure)?;
        self.stats.visited += solved.positions() as u64;
        self.stats.table_entries = solved.positions() as u64;
        let value = solved
            .value(game, position)
            .ok_or_else(|| Stop::Failure(Error::internal("playable", "a solved start without a value")))?;
        let residual = solved.residual;
        self.solved = Some(solved);
        Ok(ExpectedScore { value, error: residual })
    }

    /// Value iteration solves whole: its budget is the positions it may enumerate, set at its making.
    fn budget(&self) -> u64 {
        self.settings.max_positions
    }
}

/// Value iteration, within the memory budget.
fn iteration_engine<Ruleset>(name: &str, options: &AnalysisOptions) -> Result<Boxed<Ruleset, ExpectedScore>>
where
    Ruleset: Chance + Canonicalize + 'static,
{
    only_automatic(name, options, "this game of chance", "value iteration")?;
    let settings = ValueIteration {
        max_positions: options.max_positions,
        memory_mb: options.memory_mb,
        ..ValueIteration::default()
    };
    let line = options.progress.clone();
    Ok(Box::new(Iterating { settings, line, solved: None, stats: Stats::default() }))
}

/// The Sprague-Grundy engine, within the position budget and the memory budget.
fn grundy_engine<Inner>(name: &str, options: &AnalysisOptions) -> Result<Boxed<SumGame<Inner>, Nimber>>
where
    Inner: Impartial + 'static,
{
    impartial_engines_only(name, options)?;
    let memory_bytes = (options.memory_mb as u64).saturating_mul(1 << 20);
    Ok(Box::new(
        GrundyEngine::new()
            .with_budget(options.max_positions)
            .with_memory(usize::try_from(memory_bytes).unwrap_or(usize::MAX)),
    ))
}

/// Alpha-beta over a whole misère sum.
fn misere_engine<Inner>(name: &str, options: &AnalysisOptions) -> Result<Boxed<MisereSum<Inner>, Value>>
where
    Inner: Impartial + 'static,
    Inner::Key: Ord,
{
    impartial_engines_only(name, options)?;
    check_table(options)?;
    let table = KeyedTable::new(mib(options.table_mb));
    let engine = AlphaBeta::with_table(Mode::Exact, table).with_budget(options.max_positions);
    Ok(Box::new(Fallible(engine.with_progress(options.progress.clone()))))
}

/// An impartial game is analysed by its own engines.
fn impartial_engines_only(name: &str, options: &AnalysisOptions) -> Result<()> {
    if options.engine == AnalysisEngine::Auto {
        return Ok(());
    }
    Err(unsupported(
        name,
        options,
        "an impartial game is analysed by its own engines, its automatic ones: Sprague-Grundy under normal play, \
         alpha-beta over the whole sum under misère play",
    ))
}

impl<Ruleset> Playable<Ruleset, Value>
where
    Ruleset: Game + TextForm + Canonicalize + SearchHints + Send + Sync + 'static,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: Send + Sync,
{
    /// A win/loss/draw game, analysed by alpha-beta with exact remoteness (a loopy game by the retrograde
    /// engine); `--engine` may choose memoized negamax or the retrograde engine.
    pub fn win_loss(game: Ruleset, name: String) -> Self {
        Playable::with_engine(game, name, win_loss_engine::<Ruleset>, Family::WinLoss, ScoreKind::WinLoss, None)
    }

    /// The same game, whose alpha-beta searches over a [`PackedTable`] (one 64-bit word an entry, allocated
    /// whole at the table's budget) rather than the keyed table: for a game whose keys fit 64 bits, the fastest
    /// table (Connect Four 7 x 6: 3.5 times as fast as over the keyed table, BENCHMARKS.md).
    #[must_use]
    pub fn with_packed_table(self) -> Self
    where
        Ruleset::Key: Copy + Into<u64>,
    {
        Playable { make: packed_win_loss_engine::<Ruleset>, ..self }
    }
}

impl<Ruleset> Playable<Ruleset, i32>
where
    Ruleset: Deterministic + TextForm + Canonicalize + SearchHints + Sync + 'static,
    Ruleset::Position: Sync,
    Ruleset::Key: Send,
{
    /// A scored game without chance, analysed by alpha-beta over scores (the scored Lazy SMP when the options
    /// ask for threads).
    pub fn scored(game: Ruleset, name: String) -> Self {
        Playable::with_engine(game, name, scored_engine::<Ruleset>, Family::Scored, Ruleset::SCORES, None)
    }

    /// The same game, whose alpha-beta searches over a [`PackedTable`] rather than the keyed table: for a game
    /// whose keys fit 64 bits, the fastest table.
    #[must_use]
    pub fn with_packed_scores(self) -> Self
    where
        Ruleset::Key: Copy + Into<u64>,
    {
        Playable { make: packed_scored_engine::<Ruleset>, ..self }
    }
}

impl<Ruleset> Playable<Ruleset, ExpectedScore>
where
    Ruleset: Chance + TextForm + Canonicalize + SearchHints + 'static,
{
    /// A game with chance: by value iteration if its positions repeat, else by expectimax.
    pub fn with_chance(game: Ruleset, name: String) -> Self {
        let make: super::MakeEngine<Ruleset, ExpectedScore> =
            if Ruleset::POSITIONS_REPEAT { iteration_engine::<Ruleset> } else { expectimax_engine::<Ruleset> };
        Playable::with_engine(
            game,
            name,
            make,
            Family::Scored,
            <Ruleset as ScoredGame>::SCORES,
            Some(chance_outcomes::<Ruleset>),
        )
    }
}

impl<Inner> Playable<SumGame<Inner>, Nimber>
where
    SumGame<Inner>: TextForm,
    Inner: Impartial + 'static,
    Inner::Key: Ord,
{
    /// An impartial game under normal play, analysed by the Sprague-Grundy engine: the nimber of the position
    /// and of every move, in time that grows with the components' sizes, not with the number of their sums.
    pub fn impartial(game: Inner, name: String) -> Self {
        Playable::with_engine(SumGame(game), name, grundy_engine::<Inner>, Family::Impartial, ScoreKind::WinLoss, None)
    }
}

impl<Inner> Playable<MisereSum<Inner>, Value>
where
    MisereSum<Inner>: TextForm,
    Inner: Impartial + 'static,
    Inner::Key: Ord,
{
    /// An impartial game under misère play, analysed by alpha-beta over the whole sum (nimbers do not add up in
    /// misère sums).
    pub fn misere(game: Inner, name: String) -> Self {
        Playable::with_engine(
            MisereSum(game),
            name,
            misere_engine::<Inner>,
            Family::Impartial,
            ScoreKind::WinLoss,
            None,
        )
    }
}
