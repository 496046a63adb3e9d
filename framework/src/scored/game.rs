//! [`ScoredGame`]: the family of [`Rules`] whose end gives an integer score and whose turns need not alternate;
//! [`ScoreKind`], and the [`Deterministic`] marker of games without chance.

use crate::game::Rules;

/// What a game's final scores mean, which tells how a value is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoreKind {
    /// A margin (discs, seeds, points): the value is the score under perfect play.
    Margin,
    /// Only `1` (won), `0` (drawn) and `-1` (lost): with chance, the value `v` is an expected score, and the
    /// probability of winning is `(1 + v) / 2` when no draw is possible.
    WinLoss,
}

/// A finite zero-sum game for two players with perfect information whose end gives an integer score (its
/// [`Rules::Outcome`] is `i32`), and whose turns need not alternate: [`Rules::turn_passes`] says when the same
/// player moves again (Kalah's extra move).
///
/// The convention, everywhere (traits, engines, analyses, the CLI): a score is seen by the player to move at
/// its position; at a finished position too, whose mover is whoever the rules name there (the player who would
/// move next). The other player's score is its negation. An engine negates a child's score exactly when the
/// turn passes.
///
/// Contract, beyond [`Rules`]':
/// - a position that is not over has at least one move (a player with no move but a pass has the pass as a
///   move: Othello);
/// - scores lie within `-SCORE_LIMIT..=SCORE_LIMIT` ([`crate::game::SCORE_LIMIT`]);
/// - positions form a directed acyclic graph for the depth-first engines (a game whose positions can repeat
///   sets [`Rules::POSITIONS_REPEAT`] and is solved by value iteration).
///
/// The win/loss/draw engines take only [`crate::Game`]s, which back values up by negation at every ply, so a
/// game that implements this family (Kalah) is refused by them at compile time. A game with chance nodes
/// implements [`crate::scored::Chance`] as well; the deterministic engines take only [`Deterministic`] games.
pub trait ScoredGame: Rules<Outcome = i32> {
    /// What the scores mean. Default: [`ScoreKind::Margin`].
    const SCORES: ScoreKind = ScoreKind::Margin;

    /// A score `score` of `child` (seen by its mover), reached from `parent` by one move, seen by the mover of
    /// `parent`.
    fn score_seen_from(&self, parent: &Self::Position, child: &Self::Position, score: i32) -> i32 {
        if self.turn_passes(parent, child) {
            score.saturating_neg()
        } else {
            score
        }
    }
}

/// A scored game without chance nodes: every position that is not over is a decision of its mover. The
/// deterministic engines (scored alpha-beta, plain minimax) take only these, so a game with chance nodes
/// (which implements [`crate::scored::Chance`] and not this marker) is refused by them at compile time.
pub trait Deterministic: ScoredGame {}
