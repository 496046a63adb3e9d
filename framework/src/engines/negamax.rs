//! Negamax: [`PlainNegamax`] (no table; the reference for differential tests) and [`MemoNegamax`] (a
//! fixed-size table of exact values keyed by [`Canonicalize`] keys, early exit on a found win in
//! [`Mode::Outcome`]). Both take the game's [`SearchHints`] (shortcuts, pruned and ordered moves), reuse their
//! move lists by depth and grow their stack as deep as a game goes.

use super::support::{score_of, settled_value, stored_value, with_stack, MoveLists, PathGuard};
use super::{Engine, Mode, Statistics, Stop, TableEngine};
use crate::game::Canonicalize;
use crate::game::Game;
use crate::hints::SearchHints;
use crate::stats::Stats;
use crate::table::{mib, Bounds, KeyedTable, TableStorage, TranspositionTable, DEFAULT_TABLE_MB};
use crate::value::Value;
use std::convert::Infallible;

/// The value of a position whose moves have been generated, from the values of its children: the shared
/// back-up rule of every negamax engine. `children` yields child values (from the child's mover's view);
/// in `Mode::Outcome` it stops at the first child lost for its mover.
pub fn best_of_children(mode: Mode, children: impl IntoIterator<Item = Value>) -> Value {
    let mut best: Option<Value> = None;
    for child in children {
        let candidate = child.backed_up();
        if best.is_none_or(|b| candidate > b) {
            best = Some(candidate);
        }
        if mode == Mode::Outcome && candidate.is_win() {
            break;
        }
    }
    best.unwrap_or(Value::LOST)
}

/// Negamax without a table: exponential, but with nothing that can be wrong about keys. The reference engine.
#[derive(Clone, Debug)]
pub struct PlainNegamax {
    mode: Mode,
    budget: u64,
    stats: Stats,
}

impl Default for PlainNegamax {
    fn default() -> Self {
        PlainNegamax::new(Mode::default())
    }
}

impl PlainNegamax {
    /// A plain negamax engine in `mode`.
    pub fn new(mode: Mode) -> Self {
        PlainNegamax { mode, budget: u64::MAX, stats: Stats::default() }
    }

    /// The same engine giving up ([`Engine::try_value`] returns [`crate::Error::Budget`]) when the search of
    /// one position would expand more than `positions` positions. [`Engine::value`] ignores the budget.
    #[must_use]
    pub fn with_budget(self, positions: u64) -> Self {
        PlainNegamax { budget: positions, ..self }
    }
}

impl Statistics for PlainNegamax {
    fn stats(&self) -> Stats {
        self.stats
    }
}

/// A search's budget: the engine's visited count at which it stops, and whether it has (its values are then
/// meaningless, and nothing more is stored).
struct Gate {
    limit: u64,
    stopped: bool,
    /// Whether it stopped because a position came back on its path (a game whose positions repeat).
    repeated: bool,
}

impl Gate {
    /// A gate allowing `budget` more positions to an engine that has visited `visited`.
    fn new(visited: u64, budget: u64) -> Self {
        Gate { limit: visited.saturating_add(budget), stopped: false, repeated: false }
    }

    /// Whether a search that has visited `visited` positions may expand one more (it stops for good if not).
    fn admits(&mut self, visited: u64) -> bool {
        self.stopped |= visited >= self.limit;
        !self.stopped
    }

    /// The search's value, unless it stopped (then why).
    fn value(&self, value: Value) -> Result<Value, Stop<Infallible>> {
        match (self.stopped, self.repeated) {
            (false, _) => Ok(value),
            (true, true) => Err(Stop::Repeated),
            (true, false) => Err(Stop::Budget),
        }
    }
}

/// What every negamax search carries: the game, the mode, the engine's counters, the move lists by depth and
/// the budget.
struct Walk<'search, Ruleset: Game + SearchHints> {
    game: &'search Ruleset,
    mode: Mode,
    stats: &'search mut Stats,
    lists: MoveLists<Ruleset::Move>,
    gate: Gate,
    guard: PathGuard<Ruleset::Position>,
}

impl<'search, Ruleset: Game + SearchHints> Walk<'search, Ruleset> {
    /// A walk of `game` in `mode` counting into `stats`, within `budget` more positions.
    fn new(game: &'search Ruleset, mode: Mode, stats: &'search mut Stats, budget: u64) -> Self {
        let gate = Gate::new(stats.visited, budget);
        Walk { game, mode, stats, lists: MoveLists::default(), gate, guard: PathGuard::default() }
    }

    /// The moves of `position` (at `depth`), counted as one more position visited; `None` once the budget
    /// is spent. Give the list back to `lists` when done.
    fn expand(&mut self, position: &Ruleset::Position, depth: usize) -> Option<Vec<Ruleset::Move>> {
        if !self.gate.admits(self.stats.visited) {
            return None;
        }
        if self.guard.repeats(u32::try_from(depth).unwrap_or(u32::MAX), position) {
            (self.gate.stopped, self.gate.repeated) = (true, true);
            return None;
        }
        self.stats.visited += 1;
        Some(self.lists.take(self.game, position, depth))
    }
}

/// One plain search.
struct PlainSearch<'search, Ruleset: Game + SearchHints> {
    walk: Walk<'search, Ruleset>,
}

impl<Ruleset: Game + SearchHints> PlainSearch<'_, Ruleset> {
    fn search(&mut self, position: &Ruleset::Position, depth: usize) -> Value {
        if let Some(value) = settled_value(self.walk.game, self.walk.mode, position) {
            return value;
        }
        let Some(moves) = self.walk.expand(position, depth) else { return Value::Draw };
        let value = best_of_children(self.walk.mode, moves.iter().map_while(|mv| self.child(position, mv, depth)));
        self.walk.lists.give_back(depth, moves);
        value
    }

    /// The value of the child after `mv`, unless the budget ran out during its search.
    fn child(&mut self, position: &Ruleset::Position, mv: &Ruleset::Move, depth: usize) -> Option<Value> {
        let child = self.walk.game.play(position, mv);
        let value = with_stack(|| self.search(&child, depth + 1));
        (!self.walk.gate.stopped).then_some(value)
    }
}

impl<Ruleset: Game + SearchHints> Engine<Ruleset> for PlainNegamax {
    type Value = Value;
    type Failure = Infallible;

    fn search_within(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        budget: u64,
    ) -> Result<Value, Stop<Infallible>> {
        let walk = Walk::new(game, self.mode, &mut self.stats, budget);
        let mut search = PlainSearch { walk };
        let value = search.search(position, 0);
        search.walk.gate.value(value)
    }

    fn budget(&self) -> u64 {
        self.budget
    }
}

/// Memoized negamax over canonical keys. The table persists across calls, so one engine can serve many
/// positions of the same game (for example every game record of an input file). The table has a fixed budget
/// and may forget values (it is lossy): a forgotten value is searched again, so the values stay exact.
///
/// ```
/// use ludus_framework::engines::{negamax::MemoNegamax, Mode, Engine};
/// use ludus_framework::{Canonicalize, Game, Rules, Value, hints::SearchHints};
///
/// /// Take 1 or 2 from a pile; who cannot move loses.
/// struct TakeAway;
/// impl Rules for TakeAway {
///     type Position = u32;
///     type Move = u32;
///     type Outcome = Value;
///     fn moves(&self, pile: &u32, moves: &mut Vec<u32>) {
///         moves.extend((1..=2).filter(|take| take <= pile));
///     }
///     fn play(&self, pile: &u32, take: &u32) -> u32 { pile - take }
///     fn outcome(&self, pile: &u32) -> Option<Value> { (*pile == 0).then_some(Value::LOST) }
/// }
///
/// impl Game for TakeAway {}
/// impl SearchHints for TakeAway {}
/// impl Canonicalize for TakeAway {
///     type Key = u32;
///     fn canonical(&self, pile: &u32) -> u32 { *pile }
/// }
///
/// let mut engine = MemoNegamax::new(Mode::Exact);
/// assert_eq!(engine.value(&TakeAway, &9), Value::Lose(6)); // multiples of 3 are lost
/// assert_eq!(engine.value(&TakeAway, &10), Value::Win(7));
/// ```
#[derive(Clone, Debug)]
pub struct MemoNegamax<Table> {
    mode: Mode,
    budget: u64,
    table: Table,
    stats: Stats,
}

impl<Key: std::hash::Hash + Eq + Clone> MemoNegamax<KeyedTable<Key>> {
    /// An engine with an empty table of the default budget ([`DEFAULT_TABLE_MB`] MiB; the table grows up to it).
    pub fn new(mode: Mode) -> Self {
        Self::with_table(mode, KeyedTable::new(mib(DEFAULT_TABLE_MB)))
    }
}

impl<Table> MemoNegamax<Table> {
    /// An engine over `table` (any [`TranspositionTable`]: a [`KeyedTable`] of another budget, a packed table
    /// for `u64` keys, or an unbounded map).
    pub fn with_table(mode: Mode, table: Table) -> Self {
        MemoNegamax { mode, budget: u64::MAX, table, stats: Stats::default() }
    }

    /// The same engine giving up ([`Engine::try_value`] returns [`crate::Error::Budget`]) when the search
    /// of one position would expand more than `positions` positions. [`Engine::value`] ignores the budget.
    #[must_use]
    pub fn with_budget(self, positions: u64) -> Self {
        MemoNegamax { budget: positions, ..self }
    }
}

impl<Table> TableEngine for MemoNegamax<Table> {
    type Table = Table;

    fn table(&self) -> &Table {
        &self.table
    }

    fn table_mut(&mut self) -> &mut Table {
        &mut self.table
    }
}

/// One memoized search: a walk and the engine's table.
struct MemoSearch<'search, Ruleset: Game + SearchHints, Table> {
    walk: Walk<'search, Ruleset>,
    table: &'search mut Table,
}

impl<Ruleset, Table> MemoSearch<'_, Ruleset, Table>
where
    Ruleset: Game + Canonicalize + SearchHints,
    Table: TranspositionTable<Ruleset::Key>,
{
    fn search(&mut self, position: &Ruleset::Position, depth: usize) -> Value {
        if let Some(value) = settled_value(self.walk.game, self.walk.mode, position) {
            return value;
        }
        let key = self.walk.game.canonical(position);
        if let Some(value) = stored_value(self.table, &key) {
            self.walk.stats.hits += 1;
            return value;
        }
        let before = self.walk.stats.visited;
        let Some(moves) = self.walk.expand(position, depth) else { return Value::Draw };
        let value = best_of_children(self.walk.mode, moves.iter().map_while(|mv| self.child(position, mv, depth)));
        self.walk.lists.give_back(depth, moves);
        // A stopped search's values are meaningless: none is stored.
        if self.walk.gate.stopped {
            return Value::Draw;
        }
        self.table.store(&key, Bounds::exact(score_of(value, 0)), self.walk.stats.visited - before);
        value
    }

    /// The value of the child after `mv`, unless the budget ran out during its search.
    fn child(&mut self, position: &Ruleset::Position, mv: &Ruleset::Move, depth: usize) -> Option<Value> {
        let child = self.walk.game.play(position, mv);
        let value = with_stack(|| self.search(&child, depth + 1));
        (!self.walk.gate.stopped).then_some(value)
    }
}

impl<Table: TableStorage> Statistics for MemoNegamax<Table> {
    fn stats(&self) -> Stats {
        Stats { table_entries: self.table.occupied() as u64, ..self.stats }
    }
}

impl<Ruleset, Table> Engine<Ruleset> for MemoNegamax<Table>
where
    Ruleset: Game + Canonicalize + SearchHints,
    Table: TranspositionTable<Ruleset::Key>,
{
    type Value = Value;
    type Failure = Infallible;

    fn search_within(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        budget: u64,
    ) -> Result<Value, Stop<Infallible>> {
        let walk = Walk::new(game, self.mode, &mut self.stats, budget);
        let mut search = MemoSearch { walk, table: &mut self.table };
        let value = search.search(position, 0);
        search.walk.gate.value(value)
    }

    fn budget(&self) -> u64 {
        self.budget
    }
}
