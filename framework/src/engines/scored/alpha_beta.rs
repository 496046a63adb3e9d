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
//! bounds the previous ones stored. [`ScoreSearch::FullWindow`] searches once with the whole range. In
//! [`Mode::Outcome`] a single search with the window `(-1, 1)` gives only the sign of the score (`-1`, `0` or
//! `1`): the win/loss/draw solve of a scored game, faster than its score.

use super::broken;
use super::guess::{first_guess, Guess};
use super::scale::{from_table, lower_to_table, upper_to_table};
use crate::engines::alpha_beta::search::{NearDepths, TableAccess};
use crate::engines::alpha_beta::{ProgressHandle, ScoreSearch, Test, PROGRESS_STEP};
use crate::engines::support::{with_stack_every, History, MoveLists, PathGuard};
use crate::engines::{Engine, Mode, Statistics, Stop, TableEngine};
use crate::error::Error;
use crate::hints::Shortcut;
use crate::scored::ScoredGame;
use crate::scored::{Deterministic, SCORE_LIMIT};
use crate::stats::Stats;
use crate::table::{mib, Bounds, KeyedTable, TableStorage, TranspositionTable, DEFAULT_TABLE_MB};
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
                let (guess, visited) = first_guess(game, position, guess_budget.min(budget));
                search.visited = visited;
                match guess {
                    Guess::Exact(score) => score,
                    Guess::Estimate(score) => search.narrow(position, Some(score)),
                    Guess::None => search.narrow(position, None),
                }
            }
        })
    }

    fn budget(&self) -> u64 {
        self.budget
    }
}

/// One search of one root.
struct Search<'search, Ruleset: ScoredGame + Canonicalize + SearchHints, Access> {
    game: &'search Ruleset,
    table: Access,
    lists: MoveLists<Ruleset::Move>,
    near: NearDepths,
    visited: u64,
    hits: u64,
    budget: u64,
    stopped: bool,
    /// The first breach of the game's contract met (the search then unwinds).
    broken: Option<Error>,
    /// Finds a position that comes back on the path.
    guard: PathGuard<Ruleset::Position>,
    progress: Option<ProgressHook>,
    /// The last progress reported (its range and test).
    report: Progress,
    /// Where the search shows itself to a watcher (the CLI's progress line).
    line: Option<ProgressHandle>,
    /// The history heuristic, kept across the null-window tests of the root.
    history: History,
}

impl<'search, Ruleset, Access> Search<'search, Ruleset, Access>
where
    Ruleset: ScoredGame + Canonicalize + SearchHints,
    Access: TableAccess<Ruleset::Key>,
{
    fn new(game: &'search Ruleset, table: Access, budget: u64) -> Self {
        Search {
            game,
            table,
            lists: MoveLists::default(),
            near: NearDepths::default(),
            visited: 0,
            hits: 0,
            budget,
            stopped: false,
            broken: None,
            guard: PathGuard::default(),
            progress: None,
            report: Progress {
                visited: 0,
                low: -SCORE_LIMIT,
                high: SCORE_LIMIT,
                test: None,
                finished: false,
                found: 0,
            },
            line: None,
            history: History::default(),
        }
    }

    /// Reports where the search stands, if a hook listens.
    fn tell(&mut self) {
        if let Some(hook) = &self.progress {
            self.report.visited = self.visited;
            hook(&self.report);
        }
    }

    /// Whether the search must unwind (budget spent, or the game broke its contract).
    fn halted(&self) -> bool {
        self.stopped || self.broken.is_some()
    }

    /// The exact score of `root` by null-window searches that narrow its range, aimed by `guess`.
    ///
    /// The first test is "at least `guess`?" (with no guess: "above 0?", then "at least 0?", which settle who
    /// wins). Each later test starts from the bound the last one moved, one step beyond it; the step doubles
    /// while the tests keep failing the same way (galloping), and starts again at one when they turn, so a
    /// guess `d` off costs about `2 log2 d` tests, and a right one two.
    fn narrow(&mut self, root: &Ruleset::Position, guess: Option<i32>) -> i32 {
        let (mut low, mut high) = match self.game.outcome(root) {
            Some(score) => return score,
            None => self.game.value_range(root),
        };
        let mut test = guess.unwrap_or(1);
        let (mut step, mut last_up): (i32, Option<bool>) = (1, None);
        while low < high && !self.halted() {
            test = test.clamp(low + 1, high);
            self.report = Progress { visited: self.visited, low, high, test: Some(test), finished: false, found: 0 };
            self.tell();
            if let Some(line) = &self.line {
                line.0.testing(Test::ScoreAtLeast(test));
            }
            let found = self.search(root, 0, test - 1, test);
            self.report.finished = true;
            self.report.found = found;
            if !self.halted() {
                self.tell();
            }
            let up = found >= test;
            if up {
                low = found.max(test);
            } else {
                high = found.min(test - 1);
            }
            step = if last_up == Some(up) { step.saturating_mul(2) } else { 1 };
            last_up = Some(up);
            test = if up { low.saturating_add(step) } else { high.saturating_sub(step - 1) };
        }
        low
    }

    /// A score of at least `beta` that a child's stored bound proves for `position`, if one does.
    fn transposition_cutoff(
        &mut self,
        position: &Ruleset::Position,
        moves: &[Ruleset::Move],
        depth: u32,
        beta: i32,
    ) -> Option<i32> {
        let near = self.near.is_near(depth.saturating_add(1));
        for mv in moves {
            let child = self.game.play(position, mv);
            if self.game.is_over(&child) {
                continue;
            }
            let passes = self.game.turn_passes(position, &child);
            // A child settled by a shortcut (an endgame database's value) refutes the window as surely.
            if let Some(value) = self.game.shortcut(&child).and_then(Shortcut::exact) {
                let seen = if passes { -value } else { value };
                if seen >= beta {
                    self.hits += 1;
                    return Some(seen);
                }
                continue;
            }
            let Some(bounds) = self.table.probe(&self.game.canonical(&child), near) else { continue };
            let seen = if passes { -from_table(bounds.upper) } else { from_table(bounds.lower) };
            if seen >= beta {
                self.hits += 1;
                return Some(seen);
            }
        }
        None
    }

    /// Fail-soft alpha-beta: the score of `position` (for its mover) if it lies in `(alpha, beta)`, else a bound
    /// on the side where it falls.
    fn search(&mut self, position: &Ruleset::Position, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        if self.halted() {
            return 0;
        }
        if self.guard.repeats(depth, position) {
            self.broken = Some(crate::engines::repeated());
            return 0;
        }
        if let Some(score) = self.game.outcome(position) {
            if score.abs() > SCORE_LIMIT {
                self.broken = Some(broken(format!("a final score of {score}, beyond ±{SCORE_LIMIT}")));
            }
            return score;
        }
        if let Some(score) = self.game.shortcut(position).and_then(Shortcut::exact) {
            return score;
        }
        if self.visited >= self.budget {
            self.stopped = true;
            return 0;
        }
        if let Some(small) = self.game.small_search(position, alpha, beta) {
            self.visited = self.visited.saturating_add(small.positions);
            return small.value;
        }
        let (mut low, mut high) = self.game.value_range(position);
        if high <= alpha {
            return high;
        }
        if low >= beta {
            return low;
        }
        let key = self.game.canonical(position);
        let near = self.near.is_near(depth);
        if let Some(bounds) = self.table.probe(&key, near) {
            low = low.max(from_table(bounds.lower));
            high = high.min(from_table(bounds.upper));
            if low >= high || high <= alpha || low >= beta {
                self.hits += 1;
                return if low >= beta || low >= high { low } else { high };
            }
        }
        alpha = alpha.max(low - 1);
        beta = beta.min(high + 1);
        let (window_low, window_high) = (alpha, beta);
        self.visited += 1;
        if self.visited.is_multiple_of(PROGRESS_STEP) {
            // A stop asked for by the caller ends the search as its budget would.
            if self.line.as_ref().is_some_and(|line| line.0.add(PROGRESS_STEP)) {
                self.budget = self.visited;
            }
            if self.visited.is_multiple_of(PROGRESS_EVERY) {
                self.tell();
            }
        }
        let before = self.visited;
        let level = usize::try_from(depth).unwrap_or(usize::MAX);
        let game = self.game;
        let mut moves = self.lists.take_filled(level, |moves, scores| game.search_moves(position, moves, scores));
        // At near depths a search costs less than ordering it by history would save.
        if !near && moves.len() > 1 {
            self.history.order(game, position, &mut moves, self.lists.scores());
        }
        if moves.is_empty() {
            self.broken = Some(broken(format!("a position that is not over has no move: {position:?}")));
            return 0;
        }
        // Enhanced transposition cutoffs, at the costly depths only: a child whose stored bound already refutes
        // the window ends the search before any child is searched.
        if !near {
            if let Some(cutoff) = self.transposition_cutoff(position, &moves, depth, beta) {
                self.lists.give_back(level, moves);
                let bounds = Bounds { lower: lower_to_table(cutoff.max(low)), upper: upper_to_table(high) };
                self.table.store(&key, bounds, 1, near);
                return cutoff;
            }
        }
        let mut best = -SCORE_LIMIT - 1;
        for mv in &moves {
            let before_child = self.visited;
            let child = game.play(position, mv);
            let next = depth.saturating_add(1);
            let score = if game.turn_passes(position, &child) {
                -with_stack_every(depth, || self.search(&child, next, -beta, -alpha))
            } else {
                with_stack_every(depth, || self.search(&child, next, alpha, beta))
            };
            if self.halted() {
                self.lists.give_back(level, moves);
                return 0;
            }
            best = best.max(score);
            if best > alpha {
                alpha = best;
                if alpha >= beta {
                    if !near {
                        self.history.credit(game, position, mv, self.visited - before_child + 1);
                    }
                    break;
                }
            }
        }
        self.lists.give_back(level, moves);
        let lower = if best > window_low { best.max(low) } else { low };
        let upper = if best < window_high { best.min(high) } else { high };
        let bounds = Bounds { lower: lower_to_table(lower), upper: upper_to_table(upper) };
        let work = self.visited - before + 1;
        if bounds != Bounds::UNKNOWN {
            self.table.store(&key, bounds, work, near);
        }
        self.near.record(level, work);
        best
    }
}
