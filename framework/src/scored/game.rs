//! [`ScoredGame`]: a zero-sum game whose end gives an integer score, whose turns need not alternate; the
//! [`Player`] to move at each position, [`ScoreKind`], and the [`Deterministic`] marker of games without chance.

use crate::game::{Move, Position};
use std::fmt::Debug;
use std::hash::Hash;

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

/// What a game's final scores mean, which tells how the CLI shows a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoreKind {
    /// A margin (discs, seeds, points): the value is the score under perfect play.
    Margin,
    /// Only `1` (won), `0` (drawn) and `-1` (lost): with chance, the value `v` is an expected score, and the
    /// probability of winning is `(1 + v) / 2` when no draw is possible.
    WinLoss,
}

/// A finite zero-sum game for two players with perfect information, whose end gives an integer score, and
/// whose turns need not alternate: the game says who moves at each position ([`ScoredGame::mover`]), so a
/// player may move twice in a row (Kalah's extra move).
///
/// The convention, everywhere (traits, engines, analyses, the CLI): a score is seen by the player to move,
/// `mover(position)`; at a finished position too, whose `mover` is whoever the rules name there (the player
/// who would move next). The other player's score is its negation.
///
/// Contract:
/// - positions form a directed acyclic graph under [`ScoredGame::play`] for the depth-first engines (a game
///   whose positions can repeat sets [`ScoredGame::POSITIONS_REPEAT`] and is solved by value iteration);
/// - [`ScoredGame::score`] is `Some` exactly at finished positions; a position that is not over has at least
///   one move (a player with no move but a pass has the pass as a move: Othello);
/// - [`ScoredGame::moves`] is deterministic, called only at positions that are not over.
///
/// Turns that do not alternate are why this is a trait apart from [`crate::Game`]: the win/loss/draw engines
/// back values up by negation at every ply and take only `Game`s, so a game that implements only this trait
/// (Kalah) is refused by them at compile time. A game with chance nodes implements [`crate::scored::Chance`]
/// as well; the deterministic engines take only [`Deterministic`] games.
pub trait ScoredGame {
    /// A game state, including who is to move.
    type Position: Position;
    /// A move (at a chance node: an outcome of chance).
    type Move: Move;

    /// Whether positions can repeat (Pig: a turn that scores nothing gives the same scores back). Only value
    /// iteration solves such a game. Default: `false`.
    const POSITIONS_REPEAT: bool = false;

    /// What the scores mean. Default: [`ScoreKind::Margin`].
    const SCORES: ScoreKind = ScoreKind::Margin;

    /// The player to move at `position`, whose view every score of the position takes (at a finished position,
    /// the player the rules name there; at a chance node, the player whose turn the chance decides).
    fn mover(&self, position: &Self::Position) -> Player;

    /// The final score for `mover(position)` at a finished position, `None` while the game goes on.
    fn score(&self, position: &Self::Position) -> Option<i32>;

    /// Appends the moves of `position` (not over) to `moves` (which the caller clears).
    fn moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>);

    /// The position after `mv`, one of `moves(position)`.
    fn play(&self, position: &Self::Position, mv: &Self::Move) -> Self::Position;

    /// Whether the game is over at `position`.
    fn is_over(&self, position: &Self::Position) -> bool {
        self.score(position).is_some()
    }

    /// The moves of `position` in a new vector (none at a finished position).
    fn legal_moves(&self, position: &Self::Position) -> Vec<Self::Move> {
        let mut moves = Vec::new();
        if !self.is_over(position) {
            self.moves(position, &mut moves);
        }
        moves
    }

    /// Whether `mv` may be played at `position`. Default: it is among `legal_moves(position)`.
    fn is_legal(&self, position: &Self::Position, mv: &Self::Move) -> bool {
        self.legal_moves(position).contains(mv)
    }

    /// A score `score` of `child` (seen by its mover) seen by the mover of `parent`.
    fn score_seen_from(&self, parent: &Self::Position, child: &Self::Position, score: i32) -> i32 {
        self.mover(child).score_for(score, self.mover(parent))
    }

    /// The final score at a finished position for the first player.
    fn first_player_score(&self, position: &Self::Position) -> Option<i32> {
        self.score(position).map(|score| self.mover(position).score_for(score, Player::First))
    }

    /// Plays a line of moves from `position`, checking each; `Err(index)` names the first illegal one.
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

/// A scored game without chance nodes: every position that is not over is a decision of its mover. The
/// deterministic engines (scored alpha-beta, plain minimax) take only these, so a game with chance nodes
/// (which implements [`crate::scored::Chance`] and not this marker) is refused by them at compile time.
pub trait Deterministic: ScoredGame {}

/// The canonical form of a scored game's positions, the key of the engines' tables.
///
/// Contract: equal keys imply equal values for the player to move (so a key may merge a position with its
/// colour-swapped twin, as Othello's keys from the mover's side do, or with its images under the board's
/// symmetries); the identity is always valid.
pub trait ScoredCanonicalize: ScoredGame {
    /// The key type.
    type Key: Eq + Hash + Clone + Debug;

    /// The key of `position`.
    fn canonical(&self, position: &Self::Position) -> Self::Key;
}
