//! Search hints: what a game may tell the engines to search faster, apart from its rules (one trait for every
//! family: its values are the game's [`Rules::Outcome`], won/lost/drawn or a score).
//!
//! [`SearchHints`] is optional knowledge: every method has a default that does nothing, and every engine gives
//! the same values with or without hints (the differential tests run both, through [`NoHints`]). A game with no
//! hints writes one line, `impl SearchHints for MyGame {}`.
//!
//! The engines consult the hints in this order at a position that is not over: the [`SearchHints::shortcut`];
//! then (the scored alpha-beta) the game's own [`SearchHints::small_search`]; then the
//! [`SearchHints::value_range`], which clamps the search window before the table is probed; then the moves,
//! filtered by [`SearchHints::prune_moves`] and ordered by [`SearchHints::move_score`], best first (both
//! through [`SearchHints::search_moves`], which a game may override to do the two in one pass).

use crate::game::{Canonicalize, Game, Outcome, Rules};
use crate::value::Value;

/// The most history slots an engine keeps ([`SearchHints::history_slot`]); a slot beyond is ignored.
pub const HISTORY_SLOTS: usize = 4096;

/// What [`SearchHints::proven`] knows of a position before any search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Proven<Worth = Value> {
    /// A shortcut's value.
    Shortcut(Shortcut<Worth>),
    /// No shortcut: the worst and the best value the position can have, as [`SearchHints::value_range`] gives.
    Range(Worth, Worth),
}

/// A value proven without search, and how much of it is proven.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shortcut<Worth = Value> {
    /// The value, remoteness (or margin) included: usable by every engine in every mode.
    Exact(Worth),
    /// Only the outcome (win, loss or draw: the sign of a score) is proven; the remoteness or margin is any.
    /// Engines that compute exact values use it only to narrow their search (a draw is exact anyway).
    Outcome(Worth),
}

impl<Worth: Outcome> Shortcut<Worth> {
    /// The value (exact or not).
    pub fn value(self) -> Worth {
        match self {
            Shortcut::Exact(value) | Shortcut::Outcome(value) => value,
        }
    }

    /// The value if it is exact (a draw always is).
    pub fn exact(self) -> Option<Worth> {
        match self {
            Shortcut::Exact(value) => Some(value),
            Shortcut::Outcome(value) if value.is_draw() => Some(value),
            Shortcut::Outcome(_) => None,
        }
    }
}

/// What a game's own search of a small position found ([`SearchHints::small_search`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SmallSearch<Worth = Value> {
    /// The value, fail-soft within the window asked for (see [`SearchHints::small_search`]).
    pub value: Worth,
    /// The positions the search expanded, counted by the engine against its budget and in its statistics.
    pub positions: u64,
}

/// Knowledge that only speeds a search up. Every method is optional; see the module documentation for the order
/// in which engines consult them. Each method's contract is what the engines rely on for exact values.
pub trait SearchHints: Rules {
    /// A value proven without search at a position that is not over, or `None`.
    ///
    /// Contract: the value is right (its remoteness or margin too when [`Shortcut::Exact`]).
    fn shortcut(&self, position: &Self::Position) -> Option<Shortcut<Self::Outcome>> {
        let _ = position;
        None
    }

    /// The game's own search of `position` within the window `(alpha, beta)`, if `position` is small enough
    /// for one: near the end of a game, where the engine's work at each position (its table, move lists and
    /// history) costs more than the tree below it. Othello's solver of the last empty cells, for example,
    /// plays on bitboards with no table and no list. Default: `None` (the engine searches).
    ///
    /// The scored alpha-beta asks it after [`SearchHints::shortcut`] and before its table, and stores nothing
    /// for a position it answers. Contract: called only at positions that are not over and for which the
    /// shortcut gave no exact value, with `alpha < beta`; the value is fail-soft and right: at most `alpha`
    /// means the true value is at most it, at least `beta` that the true value is at least it, and between
    /// the two that it is the true value. Deterministic.
    fn small_search(
        &self,
        position: &Self::Position,
        alpha: Self::Outcome,
        beta: Self::Outcome,
    ) -> Option<SmallSearch<Self::Outcome>> {
        let _ = (position, alpha, beta);
        None
    }

    /// The worst and the best value (under the outcome's order, for the player to move) that `position` can
    /// still have, used to clamp a search window (and, for scores, bisected by the null-window driver).
    /// Default: every value, `(Outcome::WORST, Outcome::BEST)`: `(Value::Lose(0), Value::Win(0))`, or
    /// `(-SCORE_LIMIT, SCORE_LIMIT)`.
    ///
    /// Contract: called only at positions that are not over and for which [`SearchHints::shortcut`] gave no
    /// exact value; the position's true value lies within the range, ends included.
    fn value_range(&self, position: &Self::Position) -> (Self::Outcome, Self::Outcome) {
        let _ = position;
        (Self::Outcome::WORST, Self::Outcome::BEST)
    }

    /// What is proven at `position` before any search: the [`SearchHints::shortcut`] if there is one, else the
    /// [`SearchHints::value_range`]. The engines ask this, once per position.
    ///
    /// Override it only to compute the same faster, for example when the shortcut and the range share their work
    /// (Connect Four's threats). Contract: called only at positions that are not over; the result is what the
    /// default gives, or at least something the contracts of `shortcut` and `value_range` allow.
    fn proven(&self, position: &Self::Position) -> Proven<Self::Outcome> {
        match self.shortcut(position) {
            Some(shortcut) => Proven::Shortcut(shortcut),
            None => {
                let (worst, best) = self.value_range(position);
                Proven::Range(worst, best)
            }
        }
    }

    /// The longest any game from `position` can still last, in plies (a bound on the remoteness of its value), if
    /// the game knows one: Connect Four's empty cells, for example. Default: `None`.
    ///
    /// Engines that search for the exact score use it to aim their tests: with every value between a loss in 0
    /// and a win in 0 known to have a remoteness of at most this, the possible values form one short, gapless
    /// scale around the draw, and tests of quick wins and losses (cheap searches, as they look only a few moves
    /// ahead) can come before the test of the outcome (the costly one).
    ///
    /// Contract: called only at positions that are not over; the position's true value has a remoteness of at
    /// most the bound.
    fn max_remoteness(&self, position: &Self::Position) -> Option<u32> {
        let _ = position;
        None
    }

    /// Whether the shortcuts catch every move that ends the game: at a position where [`SearchHints::proven`]
    /// gives a range, or a shortcut that is not exact, no move leads to a position that is over. The alpha-beta
    /// engines then ask [`Rules::outcome`] only at the root (below it, every position they reach is a move from
    /// one they expanded), which saves a test for the end of the game at every position. Default: `false`.
    ///
    /// Connect Four's shortcuts, for example, settle every position where the player to move can complete four
    /// or that has two empty cells or fewer, so no move from any other position completes four or fills the
    /// board. Contract: when `true`, it holds at every position that is not over ([`crate::conformance::GameCheck`]
    /// tests it on the positions of its playouts).
    fn shortcuts_catch_game_ends(&self) -> bool {
        false
    }

    /// A guess at the value of `position` (not over) for its mover, without search (an evaluation: Kalah's
    /// difference of the stores). The scored alpha-beta aims its first null-window test by a shallow search
    /// that scores its horizon by it. Contract: deterministic, within [`SearchHints::value_range`] (clamped to
    /// it otherwise); its accuracy changes the work, never a value. Default: `None` (no guess: the driver asks
    /// who wins first).
    fn estimate(&self, position: &Self::Position) -> Option<Self::Outcome> {
        let _ = position;
        None
    }

    /// Removes moves from the legal moves of `position` (in `moves`) that need no search. Default: none.
    ///
    /// Contract: called only where [`SearchHints::shortcut`] returned `None`; every removed move is no better
    /// for the player to move than some move that stays (so the best value is unchanged), at least one move
    /// stays, and the result is deterministic. Typical use: when the opponent threatens to win at once, keep only
    /// the moves that parry; drop moves that hand the opponent an immediate win.
    fn prune_moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>) {
        let _ = (position, moves);
    }

    /// How promising `mv` looks in `position`: engines search moves with higher scores first, ties in the order
    /// of [`Rules::moves`]. Default: 0 for every move (the game's order).
    ///
    /// Contract: deterministic. The order changes the work done, never the value found.
    fn move_score(&self, position: &Self::Position, mv: &Self::Move) -> i32 {
        let _ = (position, mv);
        0
    }

    /// The history heuristic's slot of `mv` at `position`, if the game takes part: a small number (below
    /// [`HISTORY_SLOTS`]) that names the move the same way wherever it recurs, such as the cell and the player.
    /// An engine with a history orders moves of equal scores by how much work the moves of their slot have cut
    /// off before. Default: `None` (no history).
    ///
    /// Contract: deterministic; a game that gives slots leaves in `scores`, after its
    /// [`SearchHints::search_moves`], the score of each move of the list in its order (as the default does).
    /// The order changes the work done, never the value found.
    fn history_slot(&self, position: &Self::Position, mv: &Self::Move) -> Option<usize> {
        let _ = (position, mv);
        None
    }

    /// The moves the engines search at `position`, in `moves` (cleared first), best first: the legal moves
    /// filtered by [`SearchHints::prune_moves`] (when there are two or more) and sorted by
    /// [`SearchHints::move_score`], highest first, ties in the order of [`Rules::moves`]. `scores` is scratch
    /// space for the scores (its contents on return are unspecified).
    ///
    /// Override it only to compute the same list faster, for example in one pass over a bitboard where
    /// pruning and scoring share their work. Contract: called only where [`SearchHints::shortcut`] returned
    /// `None`; the list is what the default computes, or at least a list the contracts of `prune_moves` and
    /// `move_score` allow (legal moves, none repeated, a best one kept, at least one when there are legal
    /// moves), and deterministic. The default leaves each move's score in `scores` when it sorts (two moves or
    /// more), which [`SearchHints::history_slot`] relies on.
    fn search_moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>, scores: &mut Vec<i32>) {
        moves.clear();
        self.moves(position, moves);
        if moves.len() < 2 {
            return;
        }
        self.prune_moves(position, moves);
        if moves.is_empty() {
            // A hint broke its contract (it must keep a move): search every move rather than misjudge.
            self.moves(position, moves);
        }
        scores.clear();
        scores.extend(moves.iter().map(|mv| self.move_score(position, mv)));
        order_by_scores(moves, scores);
    }
}

/// Sorts `moves` by `scores` (one per move), highest first, ties in their order: a stable insertion sort, as
/// move lists are short. For the default and the overridden `search_moves` of every kind of game.
#[inline]
pub fn order_by_scores<Move>(moves: &mut [Move], scores: &mut [i32]) {
    for index in 1..moves.len().min(scores.len()) {
        let mut at = index;
        while at > 0 && scores[at - 1] < scores[at] {
            scores.swap(at - 1, at);
            moves.swap(at - 1, at);
            at -= 1;
        }
    }
}

/// A game with its hints turned off: the rules and canonical keys of the game it holds, the default (empty)
/// hints. For testing that hints change the speed of a search, never its values.
///
/// ```
/// use ludus_framework::hints::{NoHints, SearchHints, Shortcut};
/// use ludus_framework::{Game, Rules, Value};
///
/// struct Pile;
/// impl Rules for Pile {
///     type Position = u32;
///     type Move = u32;
///     type Outcome = Value;
///     fn moves(&self, pile: &u32, moves: &mut Vec<u32>) { moves.extend((1..=2).filter(|take| take <= pile)); }
///     fn play(&self, pile: &u32, take: &u32) -> u32 { pile - take }
///     fn outcome(&self, pile: &u32) -> Option<Value> { (*pile == 0).then_some(Value::LOST) }
/// }
/// impl Game for Pile {}
/// impl SearchHints for Pile {
///     fn shortcut(&self, pile: &u32) -> Option<Shortcut> { (*pile <= 2).then_some(Shortcut::Exact(Value::Win(1))) }
/// }
/// assert_eq!(Pile.shortcut(&2), Some(Shortcut::Exact(Value::Win(1))));
/// assert_eq!(NoHints(&Pile).shortcut(&2), None);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct NoHints<'game, Inner>(pub &'game Inner);

impl<Inner: Rules> Rules for NoHints<'_, Inner> {
    type Position = Inner::Position;
    type Move = Inner::Move;
    type Outcome = Inner::Outcome;

    const POSITIONS_REPEAT: bool = Inner::POSITIONS_REPEAT;

    fn moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>) {
        self.0.moves(position, moves);
    }

    fn play(&self, position: &Self::Position, mv: &Self::Move) -> Self::Position {
        self.0.play(position, mv)
    }

    fn outcome(&self, position: &Self::Position) -> Option<Self::Outcome> {
        self.0.outcome(position)
    }

    fn turn_passes(&self, from: &Self::Position, to: &Self::Position) -> bool {
        self.0.turn_passes(from, to)
    }

    fn is_legal(&self, position: &Self::Position, mv: &Self::Move) -> bool {
        self.0.is_legal(position, mv)
    }
}

impl<Inner: Game> Game for NoHints<'_, Inner> {}

impl<Inner: crate::scored::ScoredGame> crate::scored::ScoredGame for NoHints<'_, Inner> {
    const SCORES: crate::scored::ScoreKind = Inner::SCORES;
}

impl<Inner: crate::scored::Deterministic> crate::scored::Deterministic for NoHints<'_, Inner> {}

impl<Inner: Canonicalize> Canonicalize for NoHints<'_, Inner> {
    type Key = Inner::Key;

    fn canonical(&self, position: &Self::Position) -> Self::Key {
        self.0.canonical(position)
    }
}

impl<Inner: Rules> SearchHints for NoHints<'_, Inner> {}
