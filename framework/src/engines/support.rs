//! What every two-player search shares: settled values (outcome and shortcuts), move lists reused by depth
//! (filtered and ordered by the game's hints), the score encoding of values, and stack growth for deep games.

use super::Mode;
use crate::game::Game;
use crate::hints::{Proven, SearchHints, Shortcut, HISTORY_SLOTS};
use crate::table::{TranspositionTable, INFINITY, MATE};
use crate::value::Value;

/// How much stack must be left before a recursive step; below it the stack grows by [`STACK_GROWTH`].
const STACK_RED_ZONE: usize = 256 * 1024;
/// The size of each new stack segment.
const STACK_GROWTH: usize = 8 * 1024 * 1024;

/// Runs `step` on a stack with room for it: recursive engines call this at every level so that a game as deep
/// as its positions allow (a pile of 100,000 counters) never overflows the thread's stack.
#[inline]
pub(crate) fn with_stack<Output>(step: impl FnOnce() -> Output) -> Output {
    stacker::maybe_grow(STACK_RED_ZONE, STACK_GROWTH, step)
}

/// How many levels of recursion may pass between two stack checks of [`with_stack_every`]: far fewer frames
/// than fill the red zone (a search frame takes a few hundred bytes).
const STACK_CHECK_LEVELS: u32 = 8;

/// [`with_stack`] at one level in [`STACK_CHECK_LEVELS`] (by `depth`), `step` directly at the others: for hot
/// recursions, where asking for the stack pointer at every level costs a call.
#[inline]
pub(crate) fn with_stack_every<Output>(depth: u32, step: impl FnOnce() -> Output) -> Output {
    if depth.is_multiple_of(STACK_CHECK_LEVELS) {
        with_stack(step)
    } else {
        step()
    }
}

/// The value of `position` if it needs no search: a finished game, or a shortcut the mode may use (exact-mode
/// searches take only exact shortcuts).
pub fn settled_value<Ruleset: Game + SearchHints>(
    game: &Ruleset,
    mode: Mode,
    position: &Ruleset::Position,
) -> Option<Value> {
    game.outcome(position).or_else(|| game.shortcut(position).and_then(|shortcut| usable(mode, shortcut)))
}

/// The value a search in `mode` may take from `shortcut`: any in outcome mode, only an exact one in exact mode.
fn usable(mode: Mode, shortcut: Shortcut) -> Option<Value> {
    match mode {
        Mode::Outcome => Some(shortcut.value()),
        Mode::Exact => shortcut.exact(),
    }
}

/// What a search knows of a position before it searches it.
pub(crate) enum Known {
    /// Its value.
    Value(Value),
    /// The worst and best value it can have.
    Range(Value, Value),
}

/// The outcome, shortcut or value range of a position, as far as `mode` may use them.
#[inline]
pub(crate) fn known<Ruleset: Game + SearchHints>(game: &Ruleset, mode: Mode, position: &Ruleset::Position) -> Known {
    match game.outcome(position) {
        Some(value) => Known::Value(value),
        None => known_unfinished(game, mode, position),
    }
}

/// [`known`] of a position whose game is not over.
#[inline]
pub(crate) fn known_unfinished<Ruleset: Game + SearchHints>(
    game: &Ruleset,
    mode: Mode,
    position: &Ruleset::Position,
) -> Known {
    match game.proven(position) {
        Proven::Shortcut(shortcut) => match usable(mode, shortcut) {
            Some(value) => Known::Value(value),
            // Only the outcome is known (a draw is always exact): it still narrows the range.
            None => match shortcut.value() {
                Value::Win(_) => Known::Range(Value::Win(u32::MAX), Value::Win(1)),
                _ => Known::Range(Value::Lose(0), Value::Lose(u32::MAX)),
            },
        },
        Proven::Range(worst, best) => Known::Range(worst, best),
    }
}

/// Move lists reused by depth: once a search has reached a depth, its nodes there allocate nothing.
#[derive(Debug)]
pub(crate) struct MoveLists<Move> {
    by_depth: Vec<Vec<Move>>,
    scores: Vec<i32>,
}

impl<Move> Default for MoveLists<Move> {
    fn default() -> Self {
        MoveLists { by_depth: Vec::new(), scores: Vec::new() }
    }
}

impl<Move: Clone> MoveLists<Move> {
    /// The moves of `position` to search, pruned and ordered by the game's hints
    /// ([`SearchHints::search_moves`]), in the buffer of `depth` (hand it back with [`MoveLists::give_back`]).
    #[inline]
    pub(crate) fn take<Ruleset>(&mut self, game: &Ruleset, position: &Ruleset::Position, depth: usize) -> Vec<Move>
    where
        Ruleset: Game + SearchHints<Move = Move>,
    {
        let mut moves = self.by_depth.get_mut(depth).map(std::mem::take).unwrap_or_default();
        // The default `search_moves` keeps every move when a pruning hint would drop them all; an empty list here
        // is a position without moves (asking the game again would double the work at every such leaf).
        game.search_moves(position, &mut moves, &mut self.scores);
        moves
    }

    /// The buffer of `depth` (hand it back with [`MoveLists::give_back`]), filled by `fill` with the moves to
    /// search (the scratch scores are `fill`'s too): for engines over other game traits than [`SearchHints`].
    #[inline]
    pub(crate) fn take_filled(&mut self, depth: usize, fill: impl FnOnce(&mut Vec<Move>, &mut Vec<i32>)) -> Vec<Move> {
        let mut moves = self.by_depth.get_mut(depth).map(std::mem::take).unwrap_or_default();
        fill(&mut moves, &mut self.scores);
        moves
    }

    /// The scores the last [`MoveLists::take`] left (see [`SearchHints::history_slot`] for when they are the
    /// moves' scores).
    #[inline]
    pub(crate) fn scores(&self) -> &[i32] {
        &self.scores
    }

    /// Returns the buffer of `depth` for reuse.
    #[inline]
    pub(crate) fn give_back(&mut self, depth: usize, moves: Vec<Move>) {
        if let Some(slot) = self.by_depth.get_mut(depth) {
            *slot = moves;
            return;
        }
        while self.by_depth.len() < depth {
            self.by_depth.push(Vec::new());
        }
        self.by_depth.push(moves);
    }
}

/// The exact value `table` holds for `key`, if its two bounds meet.
pub(crate) fn stored_value<Key>(table: &mut impl TranspositionTable<Key>, key: &Key) -> Option<Value> {
    table.probe(key).filter(|bounds| bounds.is_exact()).map(|bounds| value_of(bounds.lower, 0))
}

/// The score of `value` for a position `depth` plies below the root (see [`crate::table`] for the scale): a win
/// at ply `p` of the root's line scores `MATE - p`, a loss `-(MATE - p)`, a draw 0. Remoteness too large for the
/// scale saturates at the slowest win or loss it can express.
#[inline]
pub(crate) fn score_of(value: Value, depth: u32) -> i32 {
    let ply = |remoteness: u32| {
        let total = u64::from(depth) + u64::from(remoteness);
        i32::try_from(total.min(MATE as u64 - 1)).unwrap_or(MATE - 1)
    };
    match value {
        Value::Win(remoteness) => MATE - ply(remoteness),
        Value::Lose(remoteness) => -(MATE - ply(remoteness)),
        Value::Draw => 0,
    }
}

/// The value of a score found at `depth` (the inverse of [`score_of`] on scores of real values).
#[inline]
pub(crate) fn value_of(score: i32, depth: u32) -> Value {
    let remoteness = |magnitude: i32| {
        let ply = i64::from(MATE) - i64::from(magnitude) - i64::from(depth);
        u32::try_from(ply.max(0)).unwrap_or(u32::MAX)
    };
    match score {
        0 => Value::Draw,
        positive if positive > 0 => Value::Win(remoteness(positive.min(MATE))),
        negative => Value::Lose(remoteness((-negative).min(MATE))),
    }
}

/// A score found at `depth` moved to the position's own scale (depth 0), as tables store it; the infinite
/// bounds stay infinite.
#[inline]
pub(crate) fn to_table(score: i32, depth: u32) -> i32 {
    if score == 0 || score.abs() >= INFINITY {
        return score;
    }
    let depth = i32::try_from(depth).unwrap_or(MATE);
    (score.saturating_add(depth * score.signum())).clamp(-MATE, MATE)
}

/// A table score moved to `depth` (the inverse of [`to_table`]).
#[inline]
pub(crate) fn from_table(score: i32, depth: u32) -> i32 {
    if score == 0 || score.abs() >= INFINITY {
        return score;
    }
    let depth = i32::try_from(depth).unwrap_or(MATE);
    let moved = score - depth * score.signum();
    // A win or loss stays one however deep it is seen (its ply saturates at the scale's end).
    if score > 0 {
        moved.max(1)
    } else {
        moved.min(-1)
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
            let scores: Vec<i32> = values.iter().map(|&value| score_of(value, depth)).collect();
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

    #[test]
    fn huge_remoteness_saturates_without_changing_the_outcome() {
        assert!(score_of(Value::Win(u32::MAX), 10) > 0);
        assert!(score_of(Value::Lose(u32::MAX), 10) < 0);
        assert!(value_of(score_of(Value::Win(u32::MAX), 0), 0).is_win());
    }
}

/// The depth from which a search looks for a position met again on its own path: no game that ends this
/// soon pays for the look, and a loop is found a few times its length deeper.
pub(crate) const GUARD_DEPTH: u32 = 512;

/// Finds a position that comes back on a depth-first search's own path (a game whose positions repeat
/// although it does not set [`Rules::POSITIONS_REPEAT`](crate::Rules::POSITIONS_REPEAT), which would otherwise
/// search forever while its stack grows), by Brent's method over the path: the position at each depth `2^k`
/// (from [`GUARD_DEPTH`] on) is kept, and every position deeper than it, up to depth `2^(k+1)`, is compared
/// with it. In a depth-first search the position kept at `2^k` is an ancestor of every deeper position on the
/// path, so a match is a real repetition; a loop of length `L` entered by depth `s` is met again by depth
/// `2 * max(s, L, GUARD_DEPTH)` or so. Above [`GUARD_DEPTH`] it costs one comparison of the depth.
#[derive(Clone, Debug)]
pub(crate) struct PathGuard<Position> {
    /// The position kept at depth `2^k`, by `k`.
    kept: Vec<Option<Position>>,
}

impl<Position> Default for PathGuard<Position> {
    fn default() -> Self {
        PathGuard { kept: Vec::new() }
    }
}

impl<Position: Clone + Eq> PathGuard<Position> {
    /// Whether `position`, entered at `depth`, is the position kept at a shallower depth of the path: a
    /// repetition.
    #[inline]
    pub(crate) fn repeats(&mut self, depth: u32, position: &Position) -> bool {
        depth >= GUARD_DEPTH && self.meets(depth, position)
    }

    #[cold]
    #[inline(never)]
    fn meets(&mut self, depth: u32, position: &Position) -> bool {
        let level = depth.ilog2() as usize;
        if depth.is_power_of_two() {
            if self.kept.len() <= level {
                self.kept.resize(level + 1, None);
            }
            if let Some(slot) = self.kept.get_mut(level) {
                *slot = Some(position.clone());
            }
            return false;
        }
        self.kept.get(level).is_some_and(|kept| kept.as_ref() == Some(position))
    }
}

/// The history heuristic, by slot ([`SearchHints::history_slot`]): what the cutoffs of each slot's moves were
/// worth, as the engine credits them (the win/loss search: the positions of the node cut off; the scored
/// search: their order of magnitude), and the scratch of ordering a node's moves by it. One per search.
#[derive(Debug, Default)]
pub(crate) struct History {
    slots: Vec<u64>,
    order: Vec<(i32, u64)>,
}

impl History {
    /// Reorders the moves of equal scores (`scores`, one per move, as the hints left them) by their slots'
    /// history, most work cut off first; the order stays stable among equals. A game without slots keeps its
    /// order.
    pub(crate) fn order<Ruleset: SearchHints>(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        moves: &mut [Ruleset::Move],
        scores: &[i32],
    ) {
        // Only moves of equal scores change places: most lists have none.
        if scores.len() != moves.len() || !scores.windows(2).any(|pair| pair[0] == pair[1]) {
            return;
        }
        self.order.clear();
        for (mv, &score) in moves.iter().zip(scores) {
            match game.history_slot(position, mv) {
                Some(slot) => self.order.push((score, self.slots.get(slot).copied().unwrap_or(0))),
                // A game without history slots.
                None => break,
            }
        }
        for index in 1..self.order.len() {
            let mut at = index;
            while at > 0 && self.order[at - 1] < self.order[at] {
                self.order.swap(at - 1, at);
                moves.swap(at - 1, at);
                at -= 1;
            }
        }
    }

    /// Credits `mv`'s slot with `work`, what its cutoff was worth.
    #[inline]
    pub(crate) fn credit<Ruleset: SearchHints>(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        mv: &Ruleset::Move,
        work: u64,
    ) {
        if let Some(slot) = game.history_slot(position, mv).filter(|&slot| slot < HISTORY_SLOTS) {
            if self.slots.len() <= slot {
                self.slots.resize(slot + 1, 0);
            }
            if let Some(history) = self.slots.get_mut(slot) {
                *history = history.saturating_add(work);
            }
        }
    }
}
