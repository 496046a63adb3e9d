//! The two-player game traits: [`Position`], [`Move`], [`Game`] and [`Canonicalize`].
//!
//! A game is a value (it may carry parameters such as a board size or a grid). Positions and moves are plain
//! data. The engines in [`crate::engines`] search any type that implements these traits and know nothing else
//! about the game.

use crate::value::Value;
use std::fmt::Debug;
use std::hash::Hash;

/// Marker for position types: cloneable, comparable, hashable and printable.
pub trait Position: Clone + Eq + Hash + Debug {}
impl<Any: Clone + Eq + Hash + Debug> Position for Any {}

/// Marker for move types: cloneable, comparable, hashable and printable.
pub trait Move: Clone + Eq + Hash + Debug {}
impl<Any: Clone + Eq + Hash + Debug> Move for Any {}

/// A finite two-player game with perfect information and alternating moves.
///
/// Contract:
/// - positions form a directed acyclic graph under [`Game::play`] (no position repeats in a game), so every
///   search terminates; a loopy game, whose positions can repeat, may be solved only by the retrograde engine
///   ([`crate::engines::retrograde`]), which reports positions where play can go on forever as draws;
/// - [`Game::outcome`] is `Some` exactly for finished positions, and gives the value for the player to move
///   (usually `Value::Lose(0)`: the opponent just won, or `Value::Draw`);
/// - a position whose `outcome` is `None` and that has no moves is treated as lost for the player to move
///   (the normal-play convention);
/// - engines call [`Game::moves`] only at positions that are not over (what it lists at a finished position is
///   unspecified); it is deterministic: the same position always yields the same moves in the same order. It
///   may leave out moves that are provably equivalent to, or no better than, a listed one (the value of the
///   position stays the same); [`Game::is_legal`] still accepts them.
pub trait Game {
    /// A game state, including whose turn it is if that matters.
    type Position: Position;
    /// A move from one position to the next.
    type Move: Move;

    /// Whether a position can come back in a game (a loopy game, such as Dodgem). Only the retrograde engine
    /// solves such a game; the depth-first engines would search forever or give wrong values, so the CLI's
    /// automatic choice and its checks of `--engine` read this. Default: `false`, positions never repeat.
    const POSITIONS_REPEAT: bool = false;

    /// Appends the legal moves of `position` to `moves` (which the caller clears).
    fn moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>);

    /// The position after `mv` is played in `position`. `mv` must be one of `moves(position)`.
    fn play(&self, position: &Self::Position, mv: &Self::Move) -> Self::Position;

    /// The value of a finished position for the player to move, or `None` while the game goes on.
    fn outcome(&self, position: &Self::Position) -> Option<Value>;

    /// Whether `mv` may be played in `position` (the game is not over and the rules allow it), whether or not
    /// [`Game::moves`] lists it. Default: `mv` is among `moves(position)`; games with pruned move lists or long
    /// move lists override it.
    fn is_legal(&self, position: &Self::Position, mv: &Self::Move) -> bool {
        !self.is_over(position) && self.legal_moves(position).contains(mv)
    }

    /// The legal moves of `position` in a new vector.
    fn legal_moves(&self, position: &Self::Position) -> Vec<Self::Move> {
        let mut moves = Vec::new();
        self.moves(position, &mut moves);
        moves
    }

    /// Whether the game is over at `position`.
    fn is_over(&self, position: &Self::Position) -> bool {
        self.outcome(position).is_some()
    }

    /// Plays a line of moves from `position`, checking that each is legal; `Err(index)` names the first illegal move
    /// (a move after the game is over is illegal too).
    fn play_line(&self, position: &Self::Position, line: &[Self::Move]) -> Result<Self::Position, usize> {
        let mut current = position.clone();
        for (index, mv) in line.iter().enumerate() {
            if !self.is_legal(&current, mv) {
                return Err(index);
            }
            current = self.play(&current, mv);
        }
        Ok(current)
    }
}

/// A canonical form of positions, the key of the memo tables.
///
/// Contract: equal keys imply equal values (including remoteness, when searched in exact mode); for every
/// symmetry `sym` of the game, `canonical(sym(p)) == canonical(p)`. The identity canonicalization, which
/// merges nothing, is always valid: `type Key = Self::Position; fn canonical(&self, p) -> Key { p.clone() }`.
pub trait Canonicalize: Game {
    /// The canonical key type.
    type Key: Eq + Hash + Clone + Debug;

    /// The canonical key of `position`.
    fn canonical(&self, position: &Self::Position) -> Self::Key;
}

/// An optional inverse of [`Canonicalize`]: a position from its canonical key. A solved database stores keys;
/// with this hook it can show a stored position, and re-derive every record from its children's records
/// (`ludus db check`).
///
/// Contract: for the key `key` of every reachable position, `position_of_key(key)` is `Some(p)` with
/// `canonical(p) == key` (so `p` has the value of every position with that key); for any other key it may be
/// `None` or a position with another key (the caller checks).
pub trait FromKey: Canonicalize {
    /// A position whose canonical key is `key`.
    fn position_of_key(&self, key: &Self::Key) -> Option<Self::Position>;

    /// [`FromKey::position_of_key`], checked: the position only if its canonical key is `key` (`None` for a key
    /// no position has, whatever `position_of_key` makes of it). For keys read from outside (files, messages).
    fn checked_position_of_key(&self, key: &Self::Key) -> Option<Self::Position> {
        self.position_of_key(key).filter(|position| self.canonical(position) == *key)
    }
}
