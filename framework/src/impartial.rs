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
/// - [`Impartial::options`] calls `emit` for the options, with the resulting components and the
///   number of distinct moves that lead to that result (at least 1; equal results may be emitted once with their
///   total count or several times); the order is deterministic;
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

/// A reference to an impartial game is the game (so that the sums below may hold either).
impl<Inner: Impartial + ?Sized> Impartial for &Inner {
    type Component = Inner::Component;
    type Key = Inner::Key;

    fn key(&self, component: &Self::Component) -> Self::Key {
        (**self).key(component)
    }

    fn options(&self, component: &Self::Component, emit: &mut dyn FnMut(&[Self::Component], u64)) {
        (**self).options(component, emit);
    }
}

/// Any [`Impartial`] game seen as a two-player [`Game`](crate::Game): a position is a list of components, a move replaces
/// one component by the parts of one of its options. Lets negamax cross-check the Grundy engine (a sum is lost
/// exactly when its nimber is zero). The canonical key is the sorted list of component keys.
#[derive(Clone, Copy, Debug)]
pub struct SumGame<Inner>(pub Inner);

/// A move of a [`SumGame`]: which component, and which of its options (in `options` order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SumMove {
    /// Index of the component played in.
    pub component: usize,
    /// Index of the option taken, in the order `options` emits them.
    pub option: usize,
}

impl<Ruleset: Impartial> crate::game::Rules for SumGame<Ruleset> {
    type Position = Vec<Ruleset::Component>;
    type Move = SumMove;
    type Outcome = crate::Value;

    fn moves(&self, position: &Self::Position, moves: &mut Vec<SumMove>) {
        for (component, part) in position.iter().enumerate() {
            let mut option = 0;
            self.0.options(part, &mut |_, _| {
                moves.push(SumMove { component, option });
                option += 1;
            });
        }
    }

    fn play(&self, position: &Self::Position, mv: &SumMove) -> Self::Position {
        let mut next: Vec<Ruleset::Component> = Vec::with_capacity(position.len() + 1);
        for (index, part) in position.iter().enumerate() {
            if index != mv.component {
                next.push(part.clone());
                continue;
            }
            let mut option = 0;
            self.0.options(part, &mut |parts, _| {
                if option == mv.option {
                    next.extend_from_slice(parts);
                }
                option += 1;
            });
        }
        next
    }

    fn outcome(&self, _position: &Self::Position) -> Option<crate::value::Value> {
        None
    }
}

impl<Ruleset: Impartial> crate::game::Game for SumGame<Ruleset> {}

/// No hints: the engines search every move of a sum.
impl<Ruleset: Impartial> crate::hints::SearchHints for SumGame<Ruleset> {}

impl<Ruleset: Impartial> crate::game::Canonicalize for SumGame<Ruleset>
where
    Ruleset::Key: Ord,
{
    type Key = Vec<Ruleset::Key>;

    fn canonical(&self, position: &Self::Position) -> Vec<Ruleset::Key> {
        let mut keys: Vec<Ruleset::Key> = position.iter().map(|part| self.0.key(part)).collect();
        keys.sort();
        keys
    }
}

/// An [`Impartial`] game under the misère convention (whoever makes the last move loses) as a two-player
/// [`Game`](crate::Game), for the negamax and alpha-beta engines. The Sprague-Grundy theory does not carry over to
/// misère sums: a misère sum's value is not given by XORing values of its components, except in special classes
/// (misère Nim, where Bouton's rule holds while some heap has two counters or more, is the best known; the
/// general theory, Conway's genus and Plambeck's misère quotients, is beyond this crate). So a misère position is
/// solved whole, as this game. Moves and keys are those of [`SumGame`]; a position with no move is won for the
/// player to move (`Value::Win(0)`: the opponent made the last move).
#[derive(Clone, Copy, Debug)]
pub struct MisereSum<Inner>(pub Inner);

impl<Ruleset: Impartial> crate::game::Rules for MisereSum<Ruleset> {
    type Position = Vec<Ruleset::Component>;
    type Move = SumMove;
    type Outcome = crate::Value;

    fn moves(&self, position: &Self::Position, moves: &mut Vec<SumMove>) {
        SumGame(&self.0).moves(position, moves);
    }

    fn play(&self, position: &Self::Position, mv: &SumMove) -> Self::Position {
        SumGame(&self.0).play(position, mv)
    }

    fn outcome(&self, position: &Self::Position) -> Option<crate::value::Value> {
        let mut any_option = false;
        for part in position {
            self.0.options(part, &mut |_, _| any_option = true);
            if any_option {
                return None;
            }
        }
        Some(crate::value::Value::Win(0))
    }
}

impl<Ruleset: Impartial> crate::game::Game for MisereSum<Ruleset> {}

/// No hints: the engines search every move of a sum.
impl<Ruleset: Impartial> crate::hints::SearchHints for MisereSum<Ruleset> {}

impl<Ruleset: Impartial> crate::game::Canonicalize for MisereSum<Ruleset>
where
    Ruleset::Key: Ord,
{
    type Key = Vec<Ruleset::Key>;

    fn canonical(&self, position: &Self::Position) -> Vec<Ruleset::Key> {
        SumGame(&self.0).canonical(position)
    }
}
