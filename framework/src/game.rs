//! The rules every game shares, and the two families built on them: [`Rules`] (positions, moves, how a game
//! ends and whose turn follows), [`Outcome`] (what a finished position is worth: won/lost/drawn, or a score),
//! [`Game`] (win/loss/draw with alternating turns), [`Player`], and the keys every engine's table uses
//! ([`Canonicalize`], [`FromKey`]).
//!
//! A game is a value (it may carry parameters such as a board size or a grid). Positions and moves are plain
//! data. The engines in [`crate::engines`] search any type that implements these traits and know nothing else
//! about the game. The scored family ([`crate::scored::ScoredGame`]: scores, turns that need not alternate,
//! chance) and the impartial adapters ([`crate::SumGame`], [`crate::MisereSum`]) stand on the same [`Rules`], so
//! every layer above the engines (text and board forms, analyses, sessions, databases, the conformance checks)
//! is written once.

use crate::value::Value;
use serde::Serialize;
use std::fmt::Debug;
use std::hash::Hash;

/// Marker for position types: cloneable, comparable, hashable and printable.
pub trait Position: Clone + Eq + Hash + Debug {}
impl<Any: Clone + Eq + Hash + Debug> Position for Any {}

/// Marker for move types: cloneable, comparable, hashable and printable.
pub trait Move: Clone + Eq + Hash + Debug {}
impl<Any: Clone + Eq + Hash + Debug> Move for Any {}

/// The widest score any engine handles: a scored game's scores lie in `-SCORE_LIMIT..=SCORE_LIMIT` (a contract
/// the engines check at finished positions).
pub const SCORE_LIMIT: i32 = 1 << 24;

/// What a finished position is worth to the player to move: [`Value`] (won, lost or drawn, with the remoteness)
/// for the win/loss family, `i32` (a score: a margin of discs or seeds, or `1`/`0`/`-1`) for the scored one.
///
/// Contract: the order is the mover's preference (greater is better for the player the value is for).
pub trait Outcome: Copy + Ord + Hash + Debug + Send + Sync + 'static {
    /// The worst value a position can have for its mover: the widest range's low end.
    const WORST: Self;
    /// The best value a position can have for its mover.
    const BEST: Self;

    /// Whether the value is a draw (a draw has no remoteness and no margin, so a draw proven is exact).
    fn is_draw(self) -> bool;

    /// Whether the value is a win (`Greater`), a draw (`Equal`) or a loss (`Less`) for its player.
    fn sign(self) -> std::cmp::Ordering;
}

impl Outcome for Value {
    const WORST: Value = Value::Lose(0);
    const BEST: Value = Value::Win(0);

    fn is_draw(self) -> bool {
        self == Value::Draw
    }

    fn sign(self) -> std::cmp::Ordering {
        match self {
            Value::Win(_) => std::cmp::Ordering::Greater,
            Value::Draw => std::cmp::Ordering::Equal,
            Value::Lose(_) => std::cmp::Ordering::Less,
        }
    }
}

impl Outcome for i32 {
    const WORST: i32 = -SCORE_LIMIT;
    const BEST: i32 = SCORE_LIMIT;

    fn is_draw(self) -> bool {
        self == 0
    }

    fn sign(self) -> std::cmp::Ordering {
        self.cmp(&0)
    }
}

/// One of the two players, by turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Player {
    /// The player who moves first from the start position.
    First,
    /// The other player.
    Second,
}

impl Player {
    /// The other player.
    #[must_use]
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// The first player if `first`, else the second.
    pub fn first_if(first: bool) -> Player {
        if first {
            Player::First
        } else {
            Player::Second
        }
    }

    /// A score for `self` seen by `viewer`: the same if they are one player, its negation otherwise (the game is
    /// zero-sum).
    pub fn score_for(self, score: i32, viewer: Player) -> i32 {
        if self == viewer {
            score
        } else {
            score.saturating_neg()
        }
    }
}

/// The rules of a finite two-player game with perfect information: its positions, its moves, how it ends and
/// whose turn follows a move. Every family of games builds on it: [`Game`] (won, lost or drawn, turns that
/// alternate) and [`crate::scored::ScoredGame`] (a score at the end, turns that need not alternate, chance).
///
/// Contract:
/// - [`Rules::outcome`] is `Some` exactly for finished positions, and gives the value for the player to move
///   there (the player the rules would name next);
/// - engines call [`Rules::moves`] only at positions that are not over (what it lists at a finished position is
///   unspecified); it is deterministic: the same position always yields the same moves in the same order. It
///   may leave out moves that are provably equivalent to, or no better than, a listed one (the value of the
///   position stays the same); [`Rules::is_legal`] still accepts them;
/// - unless [`Rules::POSITIONS_REPEAT`] says so, positions form a directed acyclic graph under [`Rules::play`]
///   (no position repeats in a game), which the depth-first engines rely on to end.
pub trait Rules {
    /// A game state, including whose turn it is if that matters.
    type Position: Position;
    /// A move from one position to the next (at a chance node: an outcome of chance).
    type Move: Move;
    /// What a finished position is worth to its mover: [`Value`] for a [`Game`], `i32` for a scored game.
    type Outcome: Outcome;

    /// Whether a position can come back in a game (a loopy game, such as Dodgem or Pig). Only the retrograde
    /// engine (and value iteration, with chance) solves such a game; a depth-first search that meets a
    /// position already on its own path stops with [`crate::Error::Contract`] naming this constant. Default:
    /// `false`, positions never repeat.
    const POSITIONS_REPEAT: bool = false;

    /// Appends the legal moves of `position` to `moves` (which the caller clears).
    fn moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>);

    /// The position after `mv` is played in `position`. `mv` must be one of `moves(position)`.
    fn play(&self, position: &Self::Position, mv: &Self::Move) -> Self::Position;

    /// The value of a finished position for the player to move, or `None` while the game goes on.
    fn outcome(&self, position: &Self::Position) -> Option<Self::Outcome>;

    /// Whether the player to move at `to`, reached from `from` by one move, is the other player. Default: yes,
    /// turns alternate. A game where a player may move twice in a row (Kalah's extra move) says when it does;
    /// a [`Game`] never does (its engines back values up by negation at every ply). It must follow from the two
    /// positions alone, so such a game's position carries whose turn it is (a score margin alone would not say).
    fn turn_passes(&self, from: &Self::Position, to: &Self::Position) -> bool {
        let _ = (from, to);
        true
    }

    /// Whether `mv` may be played in `position` (the game is not over and the rules allow it), whether or not
    /// [`Rules::moves`] lists it. Default: `mv` is among `moves(position)`; games with pruned move lists or long
    /// move lists override it.
    fn is_legal(&self, position: &Self::Position, mv: &Self::Move) -> bool {
        self.legal_moves(position).contains(mv)
    }

    /// The legal moves of `position` in a new vector (none at a finished position).
    fn legal_moves(&self, position: &Self::Position) -> Vec<Self::Move> {
        let mut moves = Vec::new();
        if !self.is_over(position) {
            self.moves(position, &mut moves);
        }
        moves
    }

    /// Whether the game is over at `position`.
    fn is_over(&self, position: &Self::Position) -> bool {
        self.outcome(position).is_some()
    }

    /// Plays a line of moves from `position`, checking that each is legal; `Err(index)` names the first illegal
    /// move (a move after the game is over is illegal too).
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

/// A game won, lost or drawn, whose turns alternate: the family of the win/loss/draw engines (negamax,
/// alpha-beta, the retrograde engine), which back a child's value up by negation at every ply.
///
/// Contract, beyond [`Rules`]': [`Rules::turn_passes`] is always `true`; a position whose `outcome` is `None`
/// and that has no moves is treated as lost for the player to move (the normal-play convention); a loopy game
/// ([`Rules::POSITIONS_REPEAT`]) is solved only by the retrograde engine ([`crate::engines::retrograde`]), which
/// reports positions where play can go on forever as draws.
pub trait Game: Rules<Outcome = Value> {}

/// A canonical form of positions, the key of the engines' tables (every family's).
///
/// Contract: equal keys imply equal values for the player to move (including remoteness, when searched in
/// exact mode); for every symmetry `sym` of the game, `canonical(sym(p)) == canonical(p)`. A key may merge a
/// position with its colour-swapped twin when values are seen by the mover (Othello's keys from the mover's
/// side). The identity canonicalization, which merges nothing, is always valid: `type Key = Self::Position; fn
/// canonical(&self, p) -> Key { p.clone() }`.
pub trait Canonicalize: Rules {
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
