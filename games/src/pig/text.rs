//! Pig's text forms: a move is `roll`, `hold` or (when the die is rolling) a face `1` to `6`; a position is
//! its moves from the start (`roll 4 hold`) or its state `I J K` (the mover's score, the other's, the turn
//! total) with the player to move, `first` or `second`, and `rolling` when the die is in the air:
//! `12 30 4 first`.

use super::rules::{PigMove, PigState};
use super::Pig;
use ludus_framework::playable::TextForm;
use ludus_framework::Rules;
use ludus_framework::{ParseError, TextPlace};

impl TextForm for Pig {
    fn start(&self) -> PigState {
        Pig::start(self)
    }

    fn parse_position(&self, text: &str) -> Result<PigState, ParseError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.first().is_some_and(|word| word.parse::<u16>().is_ok()) && words.len() >= 4 {
            let number = |index: usize| -> Result<u16, ParseError> {
                words[index]
                    .parse::<u16>()
                    .map_err(|_| ParseError::refused(format!("`{}` is not a score", words[index])))
            };
            let (mine, theirs, turn) = (number(0)?, number(1)?, number(2)?);
            let first_to_move = match words[3] {
                "first" => true,
                "second" => false,
                other => {
                    return Err(ParseError::refused(format!(
                        "the player to move is `first` or `second`, not `{other}`"
                    )))
                }
            };
            let rolling = match words.get(4) {
                None => false,
                Some(&"rolling") if words.len() == 5 => true,
                Some(other) => {
                    return Err(ParseError::refused(format!(
                        "after the player only `rolling` may follow, not `{other}`"
                    )))
                }
            };
            let goal = self.goal();
            if u32::from(mine) >= goal || u32::from(theirs) >= goal || u32::from(mine) + u32::from(turn) > goal + 5 {
                return Err(ParseError::refused(format!(
                    "scores below the goal {goal}, and a turn total within a roll of it"
                )));
            }
            return Ok(PigState { mine, theirs, turn, rolling, first_to_move });
        }
        let mut state = Pig::start(self);
        for (index, word) in words.iter().enumerate() {
            let mv = self.parse_move(&state, word).map_err(|error| error.at(TextPlace::Move(index + 1)))?;
            state = self.play(&state, &mv);
        }
        Ok(state)
    }

    fn draw_position(&self, state: &PigState) -> String {
        let (player, other) = if state.first_to_move { ("first", "second") } else { ("second", "first") };
        let mut drawing = format!(
            "goal {}: the {player} player to move has {}, the {other} has {}; turn total {}",
            self.goal(),
            state.mine,
            state.theirs,
            state.turn
        );
        if state.rolling {
            drawing.push_str("; the die is rolling");
        }
        if self.is_over(state) {
            drawing.push_str(&format!("; the {player} player has reached the goal and won"));
        }
        drawing.push('\n');
        drawing
    }

    fn parse_move(&self, state: &PigState, text: &str) -> Result<PigMove, ParseError> {
        let mv = match text.trim() {
            "roll" => PigMove::Roll,
            "hold" => PigMove::Hold,
            face => match face.parse::<u8>() {
                Ok(face @ 1..=6) => PigMove::Face(face),
                _ => return Err(ParseError::refused(format!("`{face}` is not `roll`, `hold` or a face 1..6"))),
            },
        };
        if self.is_over(state) {
            return Err(ParseError::game_over());
        }
        if self.legal_moves(state).contains(&mv) {
            Ok(mv)
        } else if state.rolling {
            Err(ParseError::refused("the die is rolling: give the face it shows, 1..6"))
        } else {
            Err(ParseError::refused(format!(
                "`{}` is not a move here (roll, or hold with a turn total above 0)",
                text.trim()
            )))
        }
    }

    fn render_move(&self, _position: &Self::Position, mv: &PigMove) -> String {
        match mv {
            PigMove::Roll => "roll".to_string(),
            PigMove::Hold => "hold".to_string(),
            PigMove::Face(face) => face.to_string(),
        }
    }
}
