//! [`Assessment`]: the value of a position or of a move as an analysis gives it, typed until the CLI prints it
//! (as a word with its remoteness or nimber) or writes it as JSON.

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

    /// `win`, `loss` or `draw`.
    pub fn word(&self) -> &'static str {
        match self {
            Assessment::Outcome(Value::Win(_)) | Assessment::Nimber { won: true, .. } => "win",
            Assessment::Outcome(Value::Lose(_)) | Assessment::Nimber { won: false, .. } => "loss",
            Assessment::Outcome(Value::Draw) => "draw",
        }
    }

    /// Plies to the end under perfect play, where known (never for a draw).
    pub fn remoteness(&self) -> Option<u32> {
        match self {
            Assessment::Outcome(value) => value.remoteness(),
            Assessment::Nimber { remoteness, .. } => *remoteness,
        }
    }

    /// The nimber, for an impartial game under normal play.
    pub fn nimber(&self) -> Option<u32> {
        match self {
            Assessment::Outcome(_) => None,
            Assessment::Nimber { nimber, .. } => Some(*nimber),
        }
    }

    /// Whether it is won for the player it is the value of.
    pub fn is_win(&self) -> bool {
        self.word() == "win"
    }
}

impl std::fmt::Display for Assessment {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.word())
    }
}

/// As the entries `value` (the word), `remoteness` (a number or null) and, where there is one, `nimber`: an
/// analysis flattens them into its JSON object.
impl Serialize for Assessment {
    fn serialize<Out: Serializer>(&self, serializer: Out) -> Result<Out::Ok, Out::Error> {
        let nimber = self.nimber();
        let mut map = serializer.serialize_map(Some(2 + usize::from(nimber.is_some())))?;
        map.serialize_entry("value", self.word())?;
        map.serialize_entry("remoteness", &self.remoteness())?;
        if let Some(nimber) = nimber {
            map.serialize_entry("nimber", &nimber)?;
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
}
