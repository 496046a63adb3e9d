//! [`Assessment`]: the value of a position or of a move as an analysis gives it, typed until the CLI prints it
//! (as a word with its remoteness or nimber, a score, a probability) or writes it as JSON.

use crate::scored::Probability;
use crate::value::Value;
use serde::ser::{Serialize, SerializeMap, Serializer};

/// The value of a position (for the player to move) or of a move (for the player who makes it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assessment {
    /// Won, drawn or lost, with the remoteness: what the two-player engines give.
    Outcome(Value),
    /// An impartial game under normal play, where the Sprague-Grundy engine gives nimbers, not remoteness.
    Nimber {
        /// The nimber: of the position itself, or, for a move, of the position it leads to.
        nimber: u32,
        /// Whether it is won for the player it is the value of: a position of nimber other than zero, a move
        /// that leaves zero.
        won: bool,
        /// Plies to the end where they are known without a search (0 at a finished position).
        remoteness: Option<u32>,
    },
    /// A scored game's exact score under perfect play (a margin: discs, seeds).
    Score(i32),
    /// A game with chance: the expected score under perfect play, with its precision; for a game whose scores
    /// are win (1) or loss (-1), the probability of winning.
    Expected(Expected),
}

/// An expected score and how precise it is.
#[derive(Clone, Copy, Debug)]
pub struct Expected {
    /// The expected score for the player it is the value of.
    pub score: f64,
    /// How far the score may be from the exact expectation: the rounding bound of expectimax, or the tolerance
    /// value iteration reached (the largest change of its last sweep).
    pub error: f64,
    /// Whether the scores are win (1) or loss (-1) only, so that the value reads as a probability of winning,
    /// `(1 + score) / 2`.
    pub win_loss: bool,
    /// At a chance node, the probability of the outcome this is the value of (a move's value only).
    pub chance: Option<Probability>,
}

impl Expected {
    /// The probability of winning, for a game scored by win or loss.
    pub fn probability(&self) -> Option<f64> {
        self.win_loss.then(|| (1.0 + self.score) / 2.0)
    }

    /// The digits after the point that the error leaves exact (at least 1, at most 15).
    pub fn digits(&self) -> usize {
        let error = if self.win_loss { self.error / 2.0 } else { self.error };
        if error <= 0.0 {
            return 15;
        }
        (-error.log10()).floor().clamp(1.0, 15.0) as usize
    }
}

/// Equal when every field is: the numbers by their bits (an assessment is compared as data, not as a number).
impl PartialEq for Expected {
    fn eq(&self, other: &Expected) -> bool {
        self.score.to_bits() == other.score.to_bits()
            && self.error.to_bits() == other.error.to_bits()
            && self.win_loss == other.win_loss
            && self.chance == other.chance
    }
}

impl Eq for Expected {}

impl std::fmt::Display for Expected {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let digits = self.digits();
        match self.probability() {
            Some(probability) => write!(formatter, "wins with probability {probability:.digits$}")?,
            None => write!(formatter, "expects {:.digits$}", self.score)?,
        }
        if let Some(chance) = self.chance {
            write!(formatter, " (outcome of probability {chance})")?;
        }
        Ok(())
    }
}

impl Assessment {
    /// The value of an impartial position of nimber `nimber` for the player to move (`finished`: no move is
    /// left, so it is lost at once).
    pub fn of_position_nimber(nimber: u32, finished: bool) -> Self {
        Assessment::Nimber { nimber, won: nimber != 0, remoteness: finished.then_some(0) }
    }

    /// The value of an impartial move that leaves a position of nimber `after`, for the player who makes it.
    pub fn of_move_to_nimber(after: u32) -> Self {
        Assessment::Nimber { nimber: after, won: after == 0, remoteness: None }
    }

    /// `win`, `loss` or `draw` (by the sign of a score); `chance` for an expected score.
    pub fn word(&self) -> &'static str {
        match self {
            Assessment::Outcome(Value::Win(_)) | Assessment::Nimber { won: true, .. } => "win",
            Assessment::Outcome(Value::Lose(_)) | Assessment::Nimber { won: false, .. } => "loss",
            Assessment::Outcome(Value::Draw) => "draw",
            Assessment::Score(score) => match score.signum() {
                1 => "win",
                -1 => "loss",
                _ => "draw",
            },
            Assessment::Expected(_) => "chance",
        }
    }

    /// The score, for a scored game without chance.
    pub fn score(&self) -> Option<i32> {
        match self {
            Assessment::Score(score) => Some(*score),
            _ => None,
        }
    }

    /// The expected score, for a game with chance.
    pub fn expected(&self) -> Option<Expected> {
        match self {
            Assessment::Expected(expected) => Some(*expected),
            _ => None,
        }
    }

    /// Plies to the end under perfect play, where known (never for a draw).
    pub fn remoteness(&self) -> Option<u32> {
        match self {
            Assessment::Outcome(value) => value.remoteness(),
            Assessment::Nimber { remoteness, .. } => *remoteness,
            Assessment::Score(_) | Assessment::Expected(_) => None,
        }
    }

    /// The nimber, for an impartial game under normal play.
    pub fn nimber(&self) -> Option<u32> {
        match self {
            Assessment::Nimber { nimber, .. } => Some(*nimber),
            _ => None,
        }
    }

    /// Whether it is won for the player it is the value of.
    pub fn is_win(&self) -> bool {
        self.word() == "win"
    }
}

/// The word (`win`); a score with its margin (`win by 4`, `draw`); an expected score with the digits its
/// precision allows (`wins with probability 0.530592725`).
impl std::fmt::Display for Assessment {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Assessment::Score(0) => formatter.write_str("draw"),
            Assessment::Score(score) => write!(formatter, "{} by {}", self.word(), score.unsigned_abs()),
            Assessment::Expected(expected) => expected.fmt(formatter),
            _ => formatter.write_str(self.word()),
        }
    }
}

/// As the entries `value` (the word), `remoteness` (a number or null) and, where there is one, `nimber`; a
/// score adds `score`; an expected score adds `expected_score`, `error`, `probability` (of winning, for a
/// game scored by win or loss) and, for an outcome of chance, `chance` (`"1/6"`). An analysis flattens them
/// into its JSON object.
impl Serialize for Assessment {
    fn serialize<Out: Serializer>(&self, serializer: Out) -> Result<Out::Ok, Out::Error> {
        let nimber = self.nimber();
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("value", self.word())?;
        map.serialize_entry("remoteness", &self.remoteness())?;
        if let Some(nimber) = nimber {
            map.serialize_entry("nimber", &nimber)?;
        }
        if let Some(score) = self.score() {
            map.serialize_entry("score", &score)?;
        }
        if let Some(expected) = self.expected() {
            map.serialize_entry("expected_score", &expected.score)?;
            map.serialize_entry("error", &expected.error)?;
            if let Some(probability) = expected.probability() {
                map.serialize_entry("probability", &probability)?;
            }
            if let Some(chance) = expected.chance {
                map.serialize_entry("chance", &chance.to_string())?;
            }
        }
        map.end()
    }
}

#[cfg(all(test, feature = "plugin"))]
mod tests {
    use super::*;

    #[test]
    fn words_remoteness_and_json_follow_the_value() {
        let win = Assessment::Outcome(Value::Win(3));
        assert_eq!((win.word(), win.remoteness(), win.nimber()), ("win", Some(3), None));
        assert_eq!(Assessment::Outcome(Value::Draw).remoteness(), None);
        assert_eq!(Assessment::Outcome(Value::Lose(0)).to_string(), "loss");
        let lost = Assessment::of_position_nimber(0, true);
        assert_eq!((lost.word(), lost.remoteness(), lost.nimber()), ("loss", Some(0), Some(0)));
        let winning_move = Assessment::of_move_to_nimber(0);
        assert!(winning_move.is_win());
        assert!(!Assessment::of_move_to_nimber(5).is_win());
        assert_eq!(
            serde_json::to_string(&win).ok().as_deref(),
            Some(r#"{"value":"win","remoteness":3}"#),
            "no nimber entry for a two-player value"
        );
        assert_eq!(
            serde_json::to_string(&Assessment::of_position_nimber(4, false)).ok().as_deref(),
            Some(r#"{"value":"win","remoteness":null,"nimber":4}"#)
        );
    }

    #[test]
    fn scores_and_expectations_print_and_serialize() {
        let score = Assessment::Score(-4);
        assert_eq!((score.word(), score.to_string(), score.score()), ("loss", "loss by 4".to_string(), Some(-4)));
        assert_eq!(Assessment::Score(0).to_string(), "draw");
        assert_eq!(
            serde_json::to_string(&score).ok().as_deref(),
            Some(r#"{"value":"loss","remoteness":null,"score":-4}"#)
        );
        let pig = Expected { score: 0.0611854506, error: 1e-12, win_loss: true, chance: None };
        assert_eq!(Assessment::Expected(pig).to_string(), "wins with probability 0.530592725300");
        let outcome = Expected { chance: Some(Probability { numerator: 1, denominator: 6 }), ..pig };
        let json = serde_json::to_value(Assessment::Expected(outcome)).unwrap_or_default();
        assert_eq!(json["chance"], "1/6");
        assert_eq!(json["value"], "chance");
        assert!((json["probability"].as_f64().unwrap_or(0.0) - 0.5305927253).abs() < 1e-12);
        let margin = Expected { score: 2.5, error: 1e-6, win_loss: false, chance: None };
        assert_eq!(margin.to_string(), "expects 2.500000");
    }
}
