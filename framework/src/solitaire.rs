//! The [`Solitaire`] trait: one-player games searched for a reachable goal.

use crate::game::{Move, Position};
use std::fmt::Debug;
use std::hash::Hash;

/// A one-player game: from a start state, can a goal state be reached, and by which moves?
///
/// Contract: [`Solitaire::moves`] is deterministic; equal keys imply equal answers ("a goal is reachable from
/// here"); the reachable state space is finite.
pub trait Solitaire {
    /// A state of the game.
    type State: Position;
    /// A move from one state to the next.
    type Move: Move;
    /// The canonical key of a state, the key of the visited set.
    type Key: Eq + Hash + Clone + Debug;

    /// Appends the moves available in `state` to `moves` (which the caller clears).
    fn moves(&self, state: &Self::State, moves: &mut Vec<Self::Move>);

    /// The state after `mv`.
    fn play(&self, state: &Self::State, mv: &Self::Move) -> Self::State;

    /// Whether `state` is a goal.
    fn is_goal(&self, state: &Self::State) -> bool;

    /// The canonical key of `state`.
    fn key(&self, state: &Self::State) -> Self::Key;
}
