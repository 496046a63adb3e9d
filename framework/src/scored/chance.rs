//! [`Chance`]: the optional capability of a scored game whose positions may be chance nodes, with exact
//! probabilities (integer weights over their sum), and [`Probability`], one such probability.

use super::game::ScoredGame;

/// A probability as an exact fraction `numerator / denominator` (`0 < numerator <= denominator`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Probability {
    /// The outcome's weight.
    pub numerator: u64,
    /// The sum of the weights of the chance node's outcomes.
    pub denominator: u64,
}

impl Probability {
    /// As a floating-point number (rounded once).
    pub fn as_f64(self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }
}

impl std::fmt::Display for Probability {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "{}/{}", self.numerator, self.denominator)
    }
}

/// A scored game with chance nodes: positions where no player chooses, and the next position is drawn at random
/// (a die is rolled). The mover of a chance node is the player whose view its value takes
/// (the one who rolls).
///
/// Contract: at a chance node, [`Rules::moves`](crate::Rules::moves) lists the outcomes, in the order of
/// [`Chance::outcomes`], which gives each its weight: a positive integer, the probability of an outcome being its
/// weight over the sum of the node's weights (at most `2^53`, so that every probability is exact in a double as
/// well as a fraction). A chance node is never over and has at least one outcome.
///
/// Games with chance are searched by expectimax (positions never repeat) or value iteration (they may:
/// [`Rules::POSITIONS_REPEAT`](crate::Rules::POSITIONS_REPEAT)); they do not implement [`super::Deterministic`].
pub trait Chance: ScoredGame {
    /// Whether `position` (not over) is a chance node.
    fn is_chance(&self, position: &Self::Position) -> bool;

    /// The outcomes of the chance node `position` with their weights, appended to `outcomes` (which the caller
    /// clears).
    fn outcomes(&self, position: &Self::Position, outcomes: &mut Vec<(Self::Move, u64)>);

    /// The probability of the outcome `mv` at the chance node `position`, `None` if it is none of its outcomes.
    fn probability(&self, position: &Self::Position, mv: &Self::Move) -> Option<Probability> {
        let mut outcomes = Vec::new();
        self.outcomes(position, &mut outcomes);
        let denominator = outcomes.iter().map(|(_, weight)| *weight).sum();
        outcomes
            .iter()
            .find(|(outcome, _)| outcome == mv)
            .map(|(_, weight)| Probability { numerator: *weight, denominator })
    }
}

/// The outcomes of a chance node with their probabilities, `None` at a decision (or in a game without chance):
/// what an analysis and a session ask of a game whose chance they were given at construction
/// ([`chance_outcomes`]).
pub type Outcomes<Ruleset> = fn(
    &Ruleset,
    &<Ruleset as crate::game::Rules>::Position,
) -> Option<Vec<(<Ruleset as crate::game::Rules>::Move, Probability)>>;

/// The outcomes of `position` with their probabilities if it is a chance node (not over), else `None`.
pub fn chance_outcomes<Ruleset: Chance>(
    game: &Ruleset,
    position: &Ruleset::Position,
) -> Option<Vec<(Ruleset::Move, Probability)>> {
    if game.is_over(position) || !game.is_chance(position) {
        return None;
    }
    let mut outcomes = Vec::new();
    game.outcomes(position, &mut outcomes);
    let denominator = outcomes.iter().map(|(_, weight)| *weight).sum();
    Some(outcomes.into_iter().map(|(mv, numerator)| (mv, Probability { numerator, denominator })).collect())
}
