//! The [`Impartial`] trait: games whose positions split into independent components (sums of games).
//!
//! Both players have the same moves, the player who cannot move loses (normal play), and a move changes one
//! component into zero, one or more new components. The Sprague-Grundy engine
//! ([`crate::engines::grundy::GrundyEngine`]) gives each component a nimber; a sum is lost for the player to
//! move exactly when the XOR of its nimbers is zero.

use std::fmt::Debug;
use std::hash::Hash;

/// An impartial game under normal play whose positions are sums of independent components.
///
/// Contract:
/// - every option of a component is strictly "smaller" (the options graph is acyclic);
/// - [`Impartial::options`] calls `emit` once per distinct result, with the resulting components and the
///   number of distinct moves that lead to it (at least 1); the order is deterministic;
/// - equal keys imply equal nimbers, and [`Impartial::key`] is the same for symmetric components.
pub trait Impartial {
    /// One independent part of a position.
    type Component: Clone + Eq + Hash + Debug;
    /// The canonical key of a component, the key of the nimber table.
    type Key: Eq + Hash + Clone + Debug;

    /// The canonical key of `component`.
    fn key(&self, component: &Self::Component) -> Self::Key;

    /// Calls `emit(parts, count)` for each option of `component`: the components it splits into (possibly
    /// none) and how many distinct moves give that result.
    fn options(&self, component: &Self::Component, emit: &mut dyn FnMut(&[Self::Component], u64));

    /// All options of `component` collected in a vector (convenience for tests and small games).
    fn option_list(&self, component: &Self::Component) -> Vec<(Vec<Self::Component>, u64)> {
        let mut list = Vec::new();
        self.options(component, &mut |parts, count| list.push((parts.to_vec(), count)));
        list
    }
}
