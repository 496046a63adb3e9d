//! [`ScoredAlphaBeta`]: exact alpha-beta over integer scores for deterministic scored games, whose turns need
//! not alternate, with a table of bounds and a null-window driver.
//!
//! The search is fail-soft negamax in which a child's score is negated only when its mover differs from its
//! parent's (a player who moves again keeps the window as it is). The window is clamped to the game's
//! [`SearchHints::value_range`] before the table is probed; the table keeps a lower and an upper bound per key
//! (in its own scale, see `scale.rs`), intersected with what was known before; a table with a near part gets
//! there the depths whose searches are cheap, as the win/loss alpha-beta does. At the costly depths (the far
//! ones) the children's stored bounds are probed before any child is searched (enhanced transposition
//! cutoffs): a child already known to refute the window ends the search at once.
//!
//! The exact score comes from null-window searches ([`ScoreSearch::NullWindow`], the default): first "above
//! 0?", then "at least 0?" (which settle who wins), then bisection of the range left, each search reusing the
//! bounds the previous ones stored. A search starts from the range the table holds for its root: a position
//! whose score is stored needs no search (the moves of a line an analysis follows), and the tests earlier searches
//! answered are not asked again. [`ScoreSearch::FullWindow`] searches once with the whole range. In
//! [`Mode::Outcome`] a single search with the window `(-1, 1)` gives only the sign of the score (`-1`, `0` or
//! `1`): the win/loss/draw solve of a scored game, faster than its score.

use super::guess::{first_guess, root_guess_budget, Guess, InTurn};
use super::search::{within, Search};
use crate::engines::alpha_beta::{ProgressHandle, ScoreSearch};
use crate::engines::{stopped, Engine, Mode, Statistics, Stop, TableEngine};
use crate::error::Error;
use crate::scored::{Deterministic, SCORE_LIMIT};
use crate::stats::Stats;
use crate::table::{mib, KeyedTable, TableStorage, TranspositionTable, DEFAULT_TABLE_MB};
use crate::{Canonicalize, SearchHints};

/// Where a long search stands, as a progress hook sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Positions expanded by this search so far.
    pub visited: u64,
    /// The range the score is known to lie in (the root's, narrowed by the null-window searches done).
    pub low: i32,
    /// See `low`.
    pub high: i32,
    /// The null-window test under way ("is the score at least `test`?"), `None` between tests.
    pub test: Option<i32>,
    /// Whether this report ends a test (`found` then holds its result).
    pub finished: bool,
    /// The score bound the last finished test found.
    pub found: i32,
}

/// A hook called with the [`Progress`] of a search: at each null-window test's start and end, and every
/// [`PROGRESS_EVERY`] positions.
pub type ProgressHook = std::sync::Arc<dyn Fn(&Progress) + Send + Sync>;

/// The positions the first guess of an exact score may expand by default: small beside a search worth
/// guessing for, and enough to solve a small game outright.
pub const GUESS_POSITIONS: u64 = 1 << 16;

/// How many positions pass between two progress reports within a test.
pub const PROGRESS_EVERY: u64 = 1 << 26;

/// Alpha-beta over scores with a transposition table of bounds (see the module documentation).
///
/// The table persists between searches (one engine serves every position of an analysis) and keeps to its
/// budget; a forgotten entry costs time, never a wrong score.
#[derive(Clone)]
pub struct ScoredAlphaBeta<Table> {
    mode: Mode,
    score_search: ScoreSearch,
    budget: u64,
    /// The positions the first guess may expand (see `guess.rs`).
    guess_budget: u64,
    table: Table,
    stats: Stats,
    progress: Option<ProgressHook>,
    /// Where the searches show themselves to a watcher on another thread (the CLI's progress line).
    line: Option<ProgressHandle>,
}

impl<Table> std::fmt::Debug for ScoredAlphaBeta<Table> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("ScoredAlphaBeta")
            .field("mode", &self.mode)
            .field("score_search", &self.score_search)
            .field("budget", &self.budget)
            .field("guess_budget", &self.guess_budget)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl<Key: std::hash::Hash + Eq + Clone> ScoredAlphaBeta<KeyedTable<Key>> {
    /// An engine with an empty [`KeyedTable`] of the default budget.
    pub fn new(mode: Mode) -> Self {
        Self::with_table(mode, KeyedTable::new(mib(DEFAULT_TABLE_MB)))
    }
}

impl<Table> ScoredAlphaBeta<Table> {
    /// An engine over `table` (a [`KeyedTable`], a [`crate::table::PackedTable`] for keys that fit a `u64`, an
    /// [`crate::table::UnboundedTable`]). [`Mode::Exact`] gives scores, [`Mode::Outcome`] their signs.
    pub fn with_table(mode: Mode, table: Table) -> Self {
        ScoredAlphaBeta {
            mode,
            score_search: ScoreSearch::default(),
            budget: u64::MAX,
            guess_budget: GUESS_POSITIONS,
            table,
            stats: Stats::default(),
            progress: None,
            line: None,
        }
    }

    /// The same engine reporting its progress to `hook` (for a search of hours: a log of its tests).
    #[must_use]
    pub fn with_progress(self, hook: ProgressHook) -> Self {
        ScoredAlphaBeta { progress: Some(hook), ..self }
    }

    /// The same engine showing its searches in `line` (none: `None`): the positions searched and the test under
    /// way, for a watcher on another thread (the CLI's progress line).
    #[must_use]
    pub fn with_progress_line(self, line: Option<ProgressHandle>) -> Self {
        ScoredAlphaBeta { line, ..self }
    }

    /// The same engine giving up ([`crate::Error::Budget`]) when one search would expand more than `positions`.
    #[must_use]
    pub fn with_budget(self, positions: u64) -> Self {
        ScoredAlphaBeta { budget: positions, ..self }
    }

    /// The same engine spending at most `positions` on the first guess of each exact score (the default:
    /// [`GUESS_POSITIONS`]; 0: no guess). A search of hours gains from a deeper guess.
    #[must_use]
    pub fn with_guess_budget(self, positions: u64) -> Self {
        ScoredAlphaBeta { guess_budget: positions, ..self }
    }

    /// The same engine finding exact scores by `score_search`.
    #[must_use]
    pub fn with_score_search(self, score_search: ScoreSearch) -> Self {
        ScoredAlphaBeta { score_search, ..self }
    }
}

impl<Table> ScoredAlphaBeta<Table> {
    /// Whether the score of `position` is at least `threshold`: one null-window search (the win/loss question
    /// "does the mover get `threshold` or more?"), within `budget` positions.
    pub fn at_least<Ruleset>(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        threshold: i32,
        budget: u64,
    ) -> Result<bool, Stop<Error>>
    where
        Ruleset: Deterministic + Canonicalize + SearchHints,
        Table: TranspositionTable<Ruleset::Key>,
    {
        let threshold = threshold.clamp(-SCORE_LIMIT, SCORE_LIMIT);
        let found = self.run(game, budget, |search| search.search(position, 0, threshold - 1, threshold))?;
        Ok(found >= threshold)
    }

    /// Runs `work` in a search of this engine within `budget`, then adds its counters to the engine's.
    fn run<Ruleset>(
        &mut self,
        game: &Ruleset,
        budget: u64,
        work: impl FnOnce(&mut Search<'_, Ruleset, &mut Table>) -> i32,
    ) -> Result<i32, Stop<Error>>
    where
        Ruleset: Deterministic + Canonicalize + SearchHints,
        Table: TranspositionTable<Ruleset::Key>,
    {
        let mut search = Search::new(game, &mut self.table, budget);
        search.progress = self.progress.clone();
        search.line = self.line.clone();
        let line = self.line.as_ref().map(|handle| &*handle.0);
        line.inspect(|line| line.start());
        let score = work(&mut search);
        line.inspect(|line| line.finish());
        self.stats.visited += search.visited;
        self.stats.hits += search.hits;
        if let Some(error) = search.broken.take() {
            return Err(Stop::Failure(error));
        }
        if search.stopped {
            return Err(Stop::Budget);
        }
        Ok(score)
    }
}

impl<Table> TableEngine for ScoredAlphaBeta<Table> {
    type Table = Table;

    fn table(&self) -> &Table {
        &self.table
    }

    fn table_mut(&mut self) -> &mut Table {
        &mut self.table
    }
}

impl<Table: TableStorage> Statistics for ScoredAlphaBeta<Table> {
    fn stats(&self) -> Stats {
        Stats { table_entries: self.table.occupied() as u64, ..self.stats }
    }
}

impl<Ruleset, Table> Engine<Ruleset> for ScoredAlphaBeta<Table>
where
    Ruleset: Deterministic + Canonicalize + SearchHints,
    Table: TranspositionTable<Ruleset::Key>,
{
    type Value = i32;
    type Failure = Error;

    fn search_within(&mut self, game: &Ruleset, position: &Ruleset::Position, budget: u64) -> Result<i32, Stop<Error>> {
        let (mode, strategy, guess_budget) = (self.mode, self.score_search, self.guess_budget);
        self.run(game, budget, |search| match (mode, strategy) {
            (Mode::Outcome, _) => search.search(position, 0, -1, 1).signum(),
            (Mode::Exact, ScoreSearch::FullWindow) => search.search(position, 0, -SCORE_LIMIT - 1, SCORE_LIMIT + 1),
            (Mode::Exact, ScoreSearch::NullWindow) => {
                let range = search.known_range(position);
                if range.0 == range.1 {
                    return range.0;
                }
                let guess_budget = root_guess_budget(guess_budget, range != game.value_range(position));
                let (guess, visited) = first_guess(game, position, guess_budget.min(budget), &InTurn);
                search.visited = visited;
                match guess {
                    Guess::Exact(score) => score,
                    Guess::Estimate(score) => search.narrow(position, range, Some(score)),
                    Guess::None => search.narrow(position, range, None),
                }
            }
        })
    }

    fn budget(&self) -> u64 {
        self.budget
    }

    /// Null-window tests within `[low, high]` only, with no first guess (the window aims them).
    fn try_value_within(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        low: i32,
        high: i32,
    ) -> crate::Result<i32> {
        if (self.mode, self.score_search) != (Mode::Exact, ScoreSearch::NullWindow) {
            return self.try_value(game, position);
        }
        let budget = self.budget;
        let score = self.run(game, budget, |search| {
            let range = within(search.known_range(position), (low, high));
            search.narrow(position, range, None)
        });
        score.map(|score| score.max(low).min(high)).map_err(|stop| stopped(stop, budget))
    }
}
