//! Negamax: [`PlainNegamax`] (no table; the reference for differential tests) and [`MemoNegamax`] (a
//! `hashbrown` table keyed by [`Canonicalize`] keys, early exit on a found win in [`Mode::Outcome`]).

use super::{Mode, Solver};
use crate::game::{Canonicalize, Game};
use crate::stats::Stats;
use crate::value::Value;
use hashbrown::HashMap;

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

/// The value of `position` if it needs no search: a finished game, or a shortcut the mode may use.
pub fn settled_value<Rules: Game>(game: &Rules, mode: Mode, position: &Rules::Position) -> Option<Value> {
    if let Some(value) = game.outcome(position) {
        return Some(value);
    }
    if mode == Mode::Outcome || game.shortcut_is_exact() {
        return game.shortcut(position);
    }
    None
}

/// Negamax without a table: exponential, but with nothing that can be wrong about keys. The reference engine.
#[derive(Clone, Debug, Default)]
pub struct PlainNegamax {
    mode: Mode,
    stats: Stats,
}

impl PlainNegamax {
    /// A plain negamax engine in `mode`.
    pub fn new(mode: Mode) -> Self {
        PlainNegamax { mode, stats: Stats::default() }
    }

    /// The statistics gathered so far (the same as [`Solver::stats`], without naming the game).
    pub fn stats(&self) -> Stats {
        self.stats
    }

    fn search<Rules: Game>(&mut self, game: &Rules, position: &Rules::Position) -> Value {
        if let Some(value) = settled_value(game, self.mode, position) {
            return value;
        }
        self.stats.visited += 1;
        let moves = game.legal_moves(position);
        let mode = self.mode;
        best_of_children(mode, moves.iter().map(|mv| self.search(game, &game.play(position, mv))))
    }
}

impl<Rules: Game> Solver<Rules> for PlainNegamax {
    fn value(&mut self, game: &Rules, position: &Rules::Position) -> Value {
        self.search(game, position)
    }

    fn stats(&self) -> Stats {
        PlainNegamax::stats(self)
    }

    fn mode(&self) -> Mode {
        self.mode
    }
}

/// Memoized negamax over canonical keys. The table persists across calls, so one engine can serve many
/// positions of the same game (for example every game record of an input file).
///
/// ```
/// use ludus_framework::engines::{negamax::MemoNegamax, Mode, Solver};
/// use ludus_framework::{Canonicalize, Game, Value};
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
pub struct MemoNegamax<Key> {
    mode: Mode,
    table: HashMap<Key, Value>,
    stats: Stats,
}

impl<Key: std::hash::Hash + Eq + Clone> MemoNegamax<Key> {
    /// An engine with an empty table.
    pub fn new(mode: Mode) -> Self {
        MemoNegamax { mode, table: HashMap::new(), stats: Stats::default() }
    }

    /// The statistics gathered so far (the same as [`Solver::stats`], without naming the game).
    pub fn stats(&self) -> Stats {
        Stats { table_entries: self.table.len() as u64, ..self.stats }
    }

    /// The number of table entries.
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    /// Empties the table (statistics stay).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The stored value of a key, if any.
    pub fn lookup(&self, key: &Key) -> Option<Value> {
        self.table.get(key).copied()
    }

    /// Iterates over the table (key, value).
    pub fn entries(&self) -> impl Iterator<Item = (&Key, &Value)> {
        self.table.iter()
    }

    fn search<Rules: Canonicalize<Key = Key>>(&mut self, game: &Rules, position: &Rules::Position) -> Value {
        if let Some(value) = settled_value(game, self.mode, position) {
            return value;
        }
        let key = game.canonical(position);
        if let Some(&value) = self.table.get(&key) {
            self.stats.hits += 1;
            return value;
        }
        self.stats.visited += 1;
        let moves = game.legal_moves(position);
        let mode = self.mode;
        let value = best_of_children(mode, moves.iter().map(|mv| self.search(game, &game.play(position, mv))));
        self.table.insert(key, value);
        value
    }
}

impl<Rules: Canonicalize> Solver<Rules> for MemoNegamax<Rules::Key> {
    fn value(&mut self, game: &Rules, position: &Rules::Position) -> Value {
        self.search(game, position)
    }

    fn stats(&self) -> Stats {
        MemoNegamax::stats(self)
    }

    fn mode(&self) -> Mode {
        self.mode
    }
}
