//! Exact alpha-beta: negamax with alpha-beta pruning over [`Value`]'s order (exact remoteness), a
//! transposition table of lower and upper bounds keyed by [`Canonicalize`] keys, and an optional move-ordering
//! hook ([`OrderMoves`], applied through the [`Ordered`] adapter). The engine knows no game.
//!
//! ## How values become scores
//!
//! Inside a search, a value is an integer score seen from the root: a position at depth `d` below the root
//! whose value is `Win(r)` scores `MATE - (d + r)` (the win comes at ply `d + r` of the root's line), `Lose(r)`
//! scores `-(MATE - (d + r))`, `Draw` scores 0. With this encoding the negamax back-up rule is plain negation,
//! so the usual alpha-beta window `(-beta, -alpha)` works unchanged, and the order of scores at one depth is
//! exactly [`Value`]'s order (a quicker win is larger, a slower loss is larger). The table stores scores
//! shifted back to depth 0, so an entry is valid wherever the position appears.
//!
//! ## What the table stores
//!
//! Each entry holds a lower and an upper bound of the position's score (seen from the position itself). A
//! search with window `(alpha, beta)` that returns `v` stores: `v <= alpha` an upper bound, `v >= beta` a lower
//! bound, anything in between the exact score (both bounds). Bounds of one key are intersected, never widened.
//!
//! ```
//! use ludus_framework::engines::{alpha_beta::AlphaBeta, negamax::MemoNegamax, Mode, Solver};
//! use ludus_framework::{Canonicalize, Game, Value};
//!
//! /// Take 1 or 2 from a pile; who cannot move loses.
//! struct TakeAway;
//! impl Game for TakeAway {
//!     type Position = u32;
//!     type Move = u32;
//!     fn moves(&self, pile: &u32, moves: &mut Vec<u32>) {
//!         moves.extend((1..=2).filter(|take| take <= pile));
//!     }
//!     fn play(&self, pile: &u32, take: &u32) -> u32 { pile - take }
//!     fn outcome(&self, pile: &u32) -> Option<Value> { (*pile == 0).then_some(Value::LOST) }
//! }
//! impl Canonicalize for TakeAway {
//!     type Key = u32;
//!     fn canonical(&self, pile: &u32) -> u32 { *pile }
//! }
//!
//! let mut alpha_beta = AlphaBeta::new(Mode::Exact);
//! let mut memo = MemoNegamax::new(Mode::Exact);
//! assert_eq!(alpha_beta.value(&TakeAway, &9), Value::Lose(6));
//! for pile in 0..30 {
//!     assert_eq!(alpha_beta.value(&TakeAway, &pile), memo.value(&TakeAway, &pile));
//! }
//! ```

use super::negamax::settled_value;
use super::{Mode, Solver};
use crate::game::{Canonicalize, Game};
use crate::stats::Stats;
use crate::value::Value;
use hashbrown::HashMap;

/// The score of a win at ply 0; wins at ply `p` score `MATE - p`. Far above any remoteness a search can reach.
const MATE: i64 = 1 << 40;
/// Above every score: the initial full window is `(-INFINITY, INFINITY)`.
const INFINITY: i64 = MATE + 1;

/// The score of `value` for a position at `depth` plies below the root.
fn score_of(value: Value, depth: u32) -> i64 {
    match value {
        Value::Win(remoteness) => MATE - i64::from(depth) - i64::from(remoteness),
        Value::Lose(remoteness) => -(MATE - i64::from(depth) - i64::from(remoteness)),
        Value::Draw => 0,
    }
}

/// The value of a score found at `depth` (the inverse of [`score_of`] on scores of real values).
fn value_of(score: i64, depth: u32) -> Value {
    let remoteness = |magnitude: i64| u32::try_from((MATE - i64::from(depth) - magnitude).max(0)).unwrap_or(u32::MAX);
    match score {
        0 => Value::Draw,
        positive if positive > 0 => Value::Win(remoteness(positive)),
        negative => Value::Lose(remoteness(-negative)),
    }
}

/// A score at `depth` moved to depth 0 (for the table): wins and losses keep their sign and move away from 0.
fn to_table(score: i64, depth: u32) -> i64 {
    if score.abs() >= INFINITY {
        return score;
    }
    score + i64::from(depth) * score.signum()
}

/// A table score moved to `depth` (the inverse of [`to_table`]); the infinite bounds stay infinite.
fn from_table(score: i64, depth: u32) -> i64 {
    if score.abs() >= INFINITY {
        return score;
    }
    score - i64::from(depth) * score.signum()
}

/// Bounds of a position's score, stored at depth 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bounds {
    lower: i64,
    upper: i64,
}

/// A move-ordering hook for [`AlphaBeta`] (and any engine), used through the [`Ordered`] adapter.
///
/// Contract: [`OrderMoves::order_moves`] only permutes `moves` (the legal moves of `position`, in the game's
/// order): it adds, drops and duplicates nothing, and it is deterministic. Moves likely to be best should come
/// first; the order changes the work done, never the value found.
pub trait OrderMoves: Game {
    /// Reorders the legal moves of `position`, best first.
    fn order_moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>);
}

/// A game whose moves come in the order of its [`OrderMoves`] hook: everything else is delegated.
///
/// ```
/// use ludus_framework::engines::alpha_beta::{AlphaBeta, OrderMoves, Ordered};
/// use ludus_framework::engines::{Mode, Solver};
/// use ludus_framework::{Canonicalize, Game, Value};
///
/// /// Take 1, 2 or 3; who cannot move loses.
/// struct Pile;
/// impl Game for Pile {
///     type Position = u32;
///     type Move = u32;
///     fn moves(&self, pile: &u32, moves: &mut Vec<u32>) {
///         moves.extend((1..=3).filter(|take| take <= pile));
///     }
///     fn play(&self, pile: &u32, take: &u32) -> u32 { pile - take }
///     fn outcome(&self, pile: &u32) -> Option<Value> { (*pile == 0).then_some(Value::LOST) }
/// }
/// impl Canonicalize for Pile {
///     type Key = u32;
///     fn canonical(&self, pile: &u32) -> u32 { *pile }
/// }
/// impl OrderMoves for Pile {
///     /// Try the move that leaves a multiple of 4 first.
///     fn order_moves(&self, pile: &u32, moves: &mut Vec<u32>) {
///         moves.sort_by_key(|take| (pile - take) % 4 != 0);
///     }
/// }
///
/// let mut engine = AlphaBeta::new(Mode::Exact);
/// assert_eq!(engine.value(&Ordered::new(&Pile), &10), Value::Win(5));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Ordered<'game, Rules> {
    game: &'game Rules,
}

impl<'game, Rules> Ordered<'game, Rules> {
    /// The game `game` with its moves ordered by its hook.
    pub fn new(game: &'game Rules) -> Self {
        Ordered { game }
    }

    /// The wrapped game.
    pub fn inner(&self) -> &'game Rules {
        self.game
    }
}

impl<Rules: OrderMoves> Game for Ordered<'_, Rules> {
    type Position = Rules::Position;
    type Move = Rules::Move;

    fn moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>) {
        self.game.moves(position, moves);
        self.game.order_moves(position, moves);
    }

    fn play(&self, position: &Self::Position, mv: &Self::Move) -> Self::Position {
        self.game.play(position, mv)
    }

    fn outcome(&self, position: &Self::Position) -> Option<Value> {
        self.game.outcome(position)
    }

    fn shortcut(&self, position: &Self::Position) -> Option<Value> {
        self.game.shortcut(position)
    }

    fn shortcut_is_exact(&self) -> bool {
        self.game.shortcut_is_exact()
    }

    fn is_legal(&self, position: &Self::Position, mv: &Self::Move) -> bool {
        self.game.is_legal(position, mv)
    }
}

impl<Rules: OrderMoves + Canonicalize> Canonicalize for Ordered<'_, Rules> {
    type Key = Rules::Key;

    fn canonical(&self, position: &Self::Position) -> Self::Key {
        self.game.canonical(position)
    }
}

/// Negamax with alpha-beta pruning and a transposition table of bounds.
///
/// - [`Mode::Exact`]: the root is searched with the full window; the value is exact, remoteness included,
///   and equal to [`super::negamax::MemoNegamax`]'s in exact mode.
/// - [`Mode::Outcome`]: the root is searched with the null window around a draw (a weak solve); the outcome
///   (win, draw or loss) is exact, the remoteness is only a bound (a win in at most `r` moves, a loss in at
///   most `r` moves), and the game's shortcuts are used even when their remoteness is not exact.
///
/// The table persists across calls (one engine can serve every position of a file) and grows without bound:
/// callers limit the size of what they search.
#[derive(Clone, Debug)]
pub struct AlphaBeta<Key> {
    mode: Mode,
    table: HashMap<Key, Bounds>,
    stats: Stats,
}

impl<Key: std::hash::Hash + Eq + Clone> AlphaBeta<Key> {
    /// An engine with an empty table.
    pub fn new(mode: Mode) -> Self {
        AlphaBeta { mode, table: HashMap::new(), stats: Stats::default() }
    }

    /// The number of table entries.
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    /// The statistics gathered so far (the same as [`Solver::stats`], callable without naming the game).
    pub fn stats(&self) -> Stats {
        Stats { table_entries: self.table.len() as u64, ..self.stats }
    }

    /// Empties the table (statistics stay).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The exact value stored for `key`, if the table has proven one (its two bounds meet).
    pub fn lookup(&self, key: &Key) -> Option<Value> {
        self.table.get(key).filter(|bounds| bounds.lower == bounds.upper).map(|bounds| value_of(bounds.lower, 0))
    }

    /// Searches `position` (at `depth` below the root) with the window `(alpha, beta)`; fail-soft: a result
    /// `<= alpha` is an upper bound of the score, `>= beta` a lower bound, anything between is exact.
    fn search<Rules: Canonicalize<Key = Key>>(
        &mut self,
        game: &Rules,
        position: &Rules::Position,
        depth: u32,
        mut alpha: i64,
        mut beta: i64,
    ) -> i64 {
        if let Some(value) = settled_value(game, self.mode, position) {
            return score_of(value, depth);
        }
        let key = game.canonical(position);
        if let Some(bounds) = self.table.get(&key) {
            let (lower, upper) = (from_table(bounds.lower, depth), from_table(bounds.upper, depth));
            if lower == upper || lower >= beta {
                self.stats.hits += 1;
                return lower;
            }
            if upper <= alpha {
                self.stats.hits += 1;
                return upper;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        self.stats.visited += 1;
        let (window_low, window_high) = (alpha, beta);
        let moves = game.legal_moves(position);
        // A position with no moves and no outcome is lost for the player to move (the normal-play rule).
        let mut best = score_of(Value::LOST, depth);
        for mv in &moves {
            let child = game.play(position, mv);
            let score = -self.search(game, &child, depth.saturating_add(1), -beta, -alpha);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        let stored = to_table(best, depth);
        let entry = self.table.entry(key).or_insert(Bounds { lower: -INFINITY, upper: INFINITY });
        if best > window_low {
            entry.lower = entry.lower.max(stored);
        }
        if best < window_high {
            entry.upper = entry.upper.min(stored);
        }
        best
    }
}

impl<Rules: Canonicalize> Solver<Rules> for AlphaBeta<Rules::Key> {
    fn value(&mut self, game: &Rules, position: &Rules::Position) -> Value {
        let (alpha, beta) = match self.mode {
            Mode::Exact => (-INFINITY, INFINITY),
            Mode::Outcome => (-1, 1),
        };
        value_of(self.search(game, position, 0, alpha, beta), 0)
    }

    fn stats(&self) -> Stats {
        AlphaBeta::stats(self)
    }

    fn mode(&self) -> Mode {
        self.mode
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_follow_the_order_of_values_at_every_depth() {
        let mut values = vec![Value::Lose(0), Value::Lose(3), Value::Draw, Value::Win(7), Value::Win(1)];
        values.sort();
        for depth in [0, 1, 5, 40] {
            let scores: Vec<i64> = values.iter().map(|&value| score_of(value, depth)).collect();
            assert!(scores.windows(2).all(|pair| pair[0] < pair[1]), "{scores:?}");
            for &value in &values {
                assert_eq!(value_of(score_of(value, depth), depth), value);
                assert_eq!(from_table(to_table(score_of(value, depth), depth), depth), score_of(value, depth));
                assert_eq!(to_table(score_of(value, depth), depth), score_of(value, 0));
            }
        }
    }

    #[test]
    fn negation_is_the_back_up_rule() {
        for value in [Value::Lose(0), Value::Lose(4), Value::Draw, Value::Win(3)] {
            assert_eq!(value_of(-score_of(value, 3), 2), value.backed_up());
        }
    }
}
