//! Hog's text forms: a move is `roll D` (or just `D`); an outcome is the points, `+7` (or `7`); a position is
//! its moves from the start (`roll 5, +12, roll 3`, moves split by commas) or its state `I J` (the mover's score,
//! the other's) with the player to move, `first` or `second`, and `rolling D` when dice are in the air:
//! `40 52 second`.

use super::rules::{HogMove, HogState};
use super::Hog;
use ludus_framework::playable::TextForm;
use ludus_framework::Rules;
use ludus_framework::{ParseError, TextPlace};

impl TextForm for Hog {
    fn start(&self) -> HogState {
        Hog::start(self)
    }

    fn parse_position(&self, text: &str) -> Result<HogState, ParseError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.len() >= 3 && words[0].parse::<u16>().is_ok() && words[1].parse::<u16>().is_ok() {
            let score =
                |word: &str| word.parse::<u16>().map_err(|_| ParseError::refused(format!("`{word}` is not a score")));
            let (mine, theirs) = (score(words[0])?, score(words[1])?);
            let first_to_move = match words[2] {
                "first" => true,
                "second" => false,
                other => {
                    return Err(ParseError::refused(format!(
                        "the player to move is `first` or `second`, not `{other}`"
                    )))
                }
            };
            let rolling = match &words[3..] {
                [] => 0,
                ["rolling", dice] => match dice.parse::<u8>() {
                    Ok(dice) if (1..=self.dice()).contains(&u32::from(dice)) => dice,
                    _ => {
                        return Err(ParseError::refused(format!(
                            "`rolling` takes 1..{} dice, not `{dice}`",
                            self.dice()
                        )))
                    }
                },
                _ => return Err(ParseError::refused("after the player only `rolling D` may follow")),
            };
            if u32::from(mine) >= self.goal() || u32::from(theirs) >= self.goal() {
                return Err(ParseError::refused(format!("scores below the goal {}", self.goal())));
            }
            return Ok(HogState { mine, theirs, rolling, first_to_move });
        }
        let mut state = Hog::start(self);
        for (index, part) in text.split(',').map(str::trim).filter(|part| !part.is_empty()).enumerate() {
            let mv = self.parse_move(&state, part).map_err(|error| error.at(TextPlace::Move(index + 1)))?;
            state = self.play(&state, &mv);
        }
        Ok(state)
    }

    fn draw_position(&self, state: &HogState) -> String {
        let (player, other) = if state.first_to_move { ("first", "second") } else { ("second", "first") };
        let mut drawing = format!(
            "goal {} (at most {} dice): the {player} player to move has {}, the {other} has {}",
            self.goal(),
            self.dice(),
            state.mine,
            state.theirs
        );
        if state.rolling > 0 {
            drawing.push_str(&format!("; {} dice are rolling", state.rolling));
        }
        if self.is_over(state) {
            drawing.push_str(&format!("; the {player} player has reached the goal and won"));
        }
        drawing.push('\n');
        drawing
    }

    fn parse_move(&self, state: &HogState, text: &str) -> Result<HogMove, ParseError> {
        if self.is_over(state) {
            return Err(ParseError::game_over());
        }
        let text = text.trim();
        let mv = if state.rolling > 0 {
            let points = text.trim_start_matches('+');
            HogMove::Points(
                points
                    .parse::<u16>()
                    .map_err(|_| ParseError::refused(format!("`{text}` is not the points of the roll, like `+7`")))?,
            )
        } else {
            let dice = text.trim_start_matches("roll").trim();
            HogMove::Roll(
                dice.parse::<u8>()
                    .map_err(|_| ParseError::refused(format!("`{text}` is not `roll D`, D 1..{}", self.dice())))?,
            )
        };
        if self.legal_moves(state).contains(&mv) {
            Ok(mv)
        } else {
            Err(ParseError::refused(format!("`{text}` is not possible here")))
        }
    }

    fn render_move(&self, _position: &Self::Position, mv: &HogMove) -> String {
        match mv {
            HogMove::Roll(dice) => format!("roll {dice}"),
            HogMove::Points(points) => format!("+{points}"),
        }
    }
}
