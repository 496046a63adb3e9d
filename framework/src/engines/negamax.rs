//! Negamax: [`PlainNegamax`] (no table; the reference for differential tests) and [`MemoNegamax`] (a
//! fixed-size table of exact values keyed by [`Canonicalize`] keys, early exit on a found win in
//! [`Mode::Outcome`]). Both take the game's [`SearchHints`] (shortcuts, pruned and ordered moves), reuse their
//! move lists by depth and grow their stack as deep as a game goes.

use super::support::{score_of, settled_value, stored_value, with_stack, within_budget, MoveLists};
use super::{Engine, Mode, Statistics};
use crate::game::Canonicalize;
use crate::hints::SearchHints;
use crate::stats::Stats;
use crate::table::{mib, Bounds, KeyedTable, TableStorage, TranspositionTable, DEFAULT_TABLE_MB};
use crate::value::Value;

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

    /// The search of one position within `budget` positions; `None` past it.
    fn run<Rules: SearchHints>(&mut self, game: &Rules, position: &Rules::Position, budget: u64) -> Option<Value> {
        let limit = self.stats.visited.saturating_add(budget);
        let mut search = PlainSearch {
            game,
            mode: self.mode,
            stats: &mut self.stats,
            lists: MoveLists::default(),
            limit,
            stopped: false,
        };
        let value = search.search(position, 0);
        (!search.stopped).then_some(value)
    }
}

impl Statistics for PlainNegamax {
    fn stats(&self) -> Stats {
        self.stats
    }
}

/// One plain search: the engine's counters and the move lists by depth.
struct PlainSearch<'search, Rules: SearchHints> {
    game: &'search Rules,
    mode: Mode,
    stats: &'search mut Stats,
    lists: MoveLists<Rules::Move>,
    /// The engine's visited count at which the search stops.
    limit: u64,
    /// Whether it stopped (its values are then meaningless).
    stopped: bool,
}

impl<Rules: SearchHints> PlainSearch<'_, Rules> {
    fn search(&mut self, position: &Rules::Position, depth: usize) -> Value {
        if let Some(value) = settled_value(self.game, self.mode, position) {
            return value;
        }
        if self.stats.visited >= self.limit {
            self.stopped = true;
            return Value::Draw;
        }
        self.stats.visited += 1;
        let moves = self.lists.take(self.game, position, depth);
        let mut best: Option<Value> = None;
        for mv in &moves {
            let child = self.game.play(position, mv);
            let candidate = with_stack(|| self.search(&child, depth + 1)).backed_up();
            if self.stopped {
                break;
            }
            if best.is_none_or(|known| candidate > known) {
                best = Some(candidate);
            }
            if self.mode == Mode::Outcome && candidate.is_win() {
                break;
            }
        }
        self.lists.give_back(depth, moves);
        best.unwrap_or(Value::LOST)
    }
}

impl<Rules: SearchHints> Engine<Rules> for PlainNegamax {
    fn value(&mut self, game: &Rules, position: &Rules::Position) -> Value {
        // Without a budget nothing stops the search: the value is always there.
        self.run(game, position, u64::MAX).unwrap_or(Value::Draw)
    }

    fn try_value(&mut self, game: &Rules, position: &Rules::Position) -> crate::Result<Value> {
        let found = self.run(game, position, self.budget);
        within_budget(found, self.budget)
    }

    fn mode(&self) -> Mode {
        self.mode
    }
}

/// Memoized negamax over canonical keys. The table persists across calls, so one engine can serve many
/// positions of the same game (for example every game record of an input file). The table has a fixed budget
/// and may forget values (it is lossy): a forgotten value is searched again, so the values stay exact.
///
/// ```
/// use ludus_framework::engines::{negamax::MemoNegamax, Mode, Engine};
/// use ludus_framework::{hints::SearchHints, Canonicalize, Game, Value};
///
/// /// Take 1 or 2 from a pile; who cannot move loses.
/// struct TakeAway;
/// impl Game for TakeAway {
///     type Position = u32;
///     type Move = u32;
///     fn moves(&self, pile: &u32, moves: &mut Vec<u32>) {
///         moves.extend((1..=2).filter(|take| take <= pile));
///     }
///     fn play(&self, pile: &u32, take: &u32) -> u32 { pile - take }
///     fn outcome(&self, pile: &u32) -> Option<Value> { (*pile == 0).then_some(Value::LOST) }
/// }
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

    /// The search of one position within `budget` positions; `None` past it.
    fn run<Rules>(&mut self, game: &Rules, position: &Rules::Position, budget: u64) -> Option<Value>
    where
        Rules: Canonicalize + SearchHints,
        Table: TranspositionTable<Rules::Key>,
    {
        let limit = self.stats.visited.saturating_add(budget);
        let mut search = MemoSearch {
            game,
            mode: self.mode,
            table: &mut self.table,
            stats: &mut self.stats,
            lists: MoveLists::default(),
            limit,
            stopped: false,
        };
        let value = search.search(position, 0);
        (!search.stopped).then_some(value)
    }

    /// The table.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Empties the table (statistics stay).
    pub fn clear(&mut self)
    where
        Table: TableStorage,
    {
        self.table.clear();
    }

    /// The value stored for a key, if the table still holds it.
    pub fn lookup<Key>(&mut self, key: &Key) -> Option<Value>
    where
        Table: TranspositionTable<Key>,
    {
        stored_value(&mut self.table, key)
    }
}

/// One memoized search: the engine's table and counters, and the move lists by depth.
struct MemoSearch<'search, Rules: SearchHints, Table> {
    game: &'search Rules,
    mode: Mode,
    table: &'search mut Table,
    stats: &'search mut Stats,
    lists: MoveLists<Rules::Move>,
    /// The engine's visited count at which the search stops.
    limit: u64,
    /// Whether it stopped (its values are then meaningless and nothing more is stored).
    stopped: bool,
}

impl<Rules, Table> MemoSearch<'_, Rules, Table>
where
    Rules: Canonicalize + SearchHints,
    Table: TranspositionTable<Rules::Key>,
{
    fn search(&mut self, position: &Rules::Position, depth: usize) -> Value {
        if let Some(value) = settled_value(self.game, self.mode, position) {
            return value;
        }
        let key = self.game.canonical(position);
        if let Some(value) = stored_value(self.table, &key) {
            self.stats.hits += 1;
            return value;
        }
        if self.stats.visited >= self.limit {
            self.stopped = true;
            return Value::Draw;
        }
        self.stats.visited += 1;
        let moves = self.lists.take(self.game, position, depth);
        let mut best: Option<Value> = None;
        let before = self.stats.visited;
        for mv in &moves {
            let child = self.game.play(position, mv);
            let candidate = with_stack(|| self.search(&child, depth + 1)).backed_up();
            if self.stopped {
                self.lists.give_back(depth, moves);
                return Value::Draw;
            }
            if best.is_none_or(|known| candidate > known) {
                best = Some(candidate);
            }
            if self.mode == Mode::Outcome && candidate.is_win() {
                break;
            }
        }
        self.lists.give_back(depth, moves);
        let value = best.unwrap_or(Value::LOST);
        self.table.store(&key, Bounds::exact(score_of(value, 0)), self.stats.visited - before + 1);
        value
    }
}

impl<Table: TableStorage> Statistics for MemoNegamax<Table> {
    fn stats(&self) -> Stats {
        Stats { table_entries: self.table.occupied() as u64, ..self.stats }
    }
}

impl<Rules, Table> Engine<Rules> for MemoNegamax<Table>
where
    Rules: Canonicalize + SearchHints,
    Table: TranspositionTable<Rules::Key>,
{
    fn value(&mut self, game: &Rules, position: &Rules::Position) -> Value {
        // Without a budget nothing stops the search: the value is always there.
        self.run(game, position, u64::MAX).unwrap_or(Value::Draw)
    }

    fn try_value(&mut self, game: &Rules, position: &Rules::Position) -> crate::Result<Value> {
        let found = self.run(game, position, self.budget);
        within_budget(found, self.budget)
    }

    fn mode(&self) -> Mode {
        self.mode
    }
}
