//! What an analysis runs and may spend: [`AnalysisEngine`] (the engine asked for) and [`AnalysisOptions`] (its
//! budgets, threads, progress line, and the opening book and endgame database it consults).

use crate::error::{Error, Result};
use serde::Serialize;

/// The engine an analysis runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AnalysisEngine {
    /// The game's own choice: alpha-beta, or the retrograde engine for a loopy game; the scored, chance and
    /// impartial games' own engines.
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

impl AnalysisEngine {
    /// Its name, as `--engine` takes it.
    pub fn name(self) -> &'static str {
        match self {
            AnalysisEngine::Auto => "auto",
            AnalysisEngine::AlphaBeta => "alpha-beta",
            AnalysisEngine::MemoNegamax => "memo-negamax",
            #[cfg(feature = "parallel")]
            AnalysisEngine::Retrograde => "retrograde",
        }
    }
}

impl std::str::FromStr for AnalysisEngine {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self> {
        match text {
            "auto" => Ok(AnalysisEngine::Auto),
            "alpha-beta" => Ok(AnalysisEngine::AlphaBeta),
            "memo-negamax" => Ok(AnalysisEngine::MemoNegamax),
            #[cfg(feature = "parallel")]
            "retrograde" => Ok(AnalysisEngine::Retrograde),
            other => Err(Error::parameter(
                "engine",
                format!("no engine `{other}` (available: auto, alpha-beta, memo-negamax, retrograde)"),
            )),
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
    /// every position the retrograde engine or value iteration holds.
    pub memory_mb: usize,
    /// The most positions one search may expand (`--max-positions`).
    pub max_positions: u64,
    /// The longest principal variation shown.
    pub max_line: usize,
    /// The position's value alone (`--value-only`): one search, no move's value and no line.
    pub value_only: bool,
    /// The positions the first guess of a scored search may expand before its null-window tests
    /// (`--guess-positions`; 0: no guess): an exact score whose search lasts minutes gains from a deeper guess
    /// (BENCHMARKS.md, Othello 6 x 6). A position the table bounds already gets at most the default.
    pub guess_positions: u64,
    /// Threads of a search, for an engine that searches on several (a game's fastest solver: Lazy SMP over
    /// the packed table, [`super::Playable::with_packed_table`]); others search on one.
    pub threads: usize,
    /// Where the engines show their searches as they run (the CLI's progress line): every engine made here but
    /// memoized negamax and the Sprague-Grundy engine.
    pub progress: Option<crate::engines::alpha_beta::ProgressHandle>,
    /// Where the game's opening book is looked for (`None`: no book): the values of the positions it holds
    /// are read from it rather than searched, for a game that reads books ([`super::Playable::with_book`]).
    #[cfg(feature = "database")]
    pub book: Option<crate::database::book::BookPlace>,
    /// Where the game's endgame database is looked for (`None`: none): its tiers are loaded at the first
    /// search, within `memory_mb` less `table_mb`, and probed at every position inside them, for a game that
    /// has one ([`super::Playable::with_endgame`]; another game, or a directory of databases without one of
    /// the game's family, searches without).
    #[cfg(feature = "database")]
    pub endgame: Option<crate::database::endgame::EndgamePlace>,
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            engine: AnalysisEngine::default(),
            table_mb: crate::table::DEFAULT_TABLE_MB,
            memory_mb: crate::table::default_memory_mb(),
            max_positions: u64::MAX,
            max_line: 200,
            value_only: false,
            guess_positions: crate::engines::scored::GUESS_POSITIONS,
            threads: 1,
            progress: None,
            #[cfg(feature = "database")]
            book: None,
            #[cfg(feature = "database")]
            endgame: None,
        }
    }
}
