//! Pig with two dice: a game of chance whose positions repeat, written against the framework's traits and
//! analysed by value iteration. It shows [`Chance`] (chance nodes with integer weights) with [`ScoredGame`]
//! scored by win or loss ([`ScoreKind::WinLoss`]: an expected score `v` reads as the probability `(1 + v) / 2`),
//! [`Rules::POSITIONS_REPEAT`] (a turn that ends on a 1 can give back a position seen before), the conformance
//! check with chance ([`GameCheck::with_chance`]), and the analysis of [`Playable::with_chance`] (value iteration
//! here; expectimax for a game whose positions never repeat), checked against a probability worked out by hand
//! and against a value iteration of its own, written below without the framework.
//!
//! The rules: on his turn a player rolls two dice as often as he likes, adding their sum to his turn total, and
//! holds to add the turn total to his score; a single 1 ends the turn with nothing added, and two 1s end it and
//! reset his score to 0 as well. The first whose score and turn total reach the goal wins.
//!
//! A game with chance has no database: a record of the framework's databases holds an exact value in 16 bits,
//! where a probability needs a double (`ludus db` solves win/loss games and scored games without chance).
//!
//! Run with `cargo run --release --example two_dice_pig` (under a second).
//!
//! [`Chance`]: ludus_framework::scored::Chance
//! [`ScoredGame`]: ludus_framework::scored::ScoredGame
//! [`ScoreKind::WinLoss`]: ludus_framework::scored::ScoreKind::WinLoss
//! [`Rules::POSITIONS_REPEAT`]: ludus_framework::Rules::POSITIONS_REPEAT

use ludus_framework::conformance::GameCheck;
use ludus_framework::playable::{AnalysisOptions, Playable, PlayableGame, TextForm};
use ludus_framework::scored::{Chance, ScoreKind, ScoredGame};
use ludus_framework::{Canonicalize, Error, ParseError, Rules, SearchHints};

/// Pig with two dice, to a goal.
struct TwoDicePig {
    goal: u8,
}

/// A state: the mover's score, the other's, the turn total, whether the dice are in the air, and who moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct State {
    mine: u8,
    theirs: u8,
    turn: u8,
    rolling: bool,
    first_to_move: bool,
}

/// A move: roll, hold, or (at a chance node) what the dice show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum PigMove {
    Roll,
    Hold,
    /// Two 1s: the score is lost with the turn total.
    SnakeEyes,
    /// A single 1: the turn total is lost.
    One,
    /// No 1: the dice's sum, 4 to 12, goes to the turn total.
    Sum(u8),
}

/// The ways two dice without a 1 make each sum from 4 to 12 (25 of the 36 throws).
const SUMS: [(u8, u64); 9] = [(4, 1), (5, 2), (6, 3), (7, 4), (8, 5), (9, 4), (10, 3), (11, 2), (12, 1)];

impl TwoDicePig {
    /// Pig with two dice to `goal` (1 to 100).
    fn new(goal: u8) -> Result<TwoDicePig, Error> {
        match goal {
            1..=100 => Ok(TwoDicePig { goal }),
            _ => Err(Error::parameter("goal", format!("two-dice pig: the goal is 1 to 100, not {goal}"))),
        }
    }

    /// The state after the mover's turn ends with `mine` as his score: the other moves.
    fn passed(state: &State, mine: u8) -> State {
        State { mine: state.theirs, theirs: mine, turn: 0, rolling: false, first_to_move: !state.first_to_move }
    }
}

impl Rules for TwoDicePig {
    type Position = State;
    type Move = PigMove;
    type Outcome = i32;

    /// A turn that ends on a 1 can lead back to a state seen before: only value iteration solves the game.
    const POSITIONS_REPEAT: bool = true;

    fn moves(&self, state: &State, moves: &mut Vec<PigMove>) {
        if state.rolling {
            moves.extend([PigMove::SnakeEyes, PigMove::One]);
            moves.extend(SUMS.iter().map(|&(sum, _)| PigMove::Sum(sum)));
        } else {
            moves.push(PigMove::Roll);
            // Holding at 0 would only pass the turn (and let both players pass forever).
            if state.turn > 0 {
                moves.push(PigMove::Hold);
            }
        }
    }

    fn play(&self, state: &State, mv: &PigMove) -> State {
        match *mv {
            PigMove::Roll => State { rolling: true, ..*state },
            PigMove::Hold => TwoDicePig::passed(state, state.mine + state.turn),
            PigMove::SnakeEyes => TwoDicePig::passed(state, 0),
            PigMove::One => TwoDicePig::passed(state, state.mine),
            PigMove::Sum(sum) => State { turn: state.turn + sum, rolling: false, ..*state },
        }
    }

    /// Reaching the goal wins at once, for the player who reached it (still the mover).
    fn outcome(&self, state: &State) -> Option<i32> {
        (u32::from(state.mine) + u32::from(state.turn) >= u32::from(self.goal)).then_some(1)
    }

    fn turn_passes(&self, from: &State, to: &State) -> bool {
        from.first_to_move != to.first_to_move
    }
}

/// Scores 1 (won) or -1 (lost): an expected score reads as a probability of winning.
impl ScoredGame for TwoDicePig {
    const SCORES: ScoreKind = ScoreKind::WinLoss;
}

/// The dice are thrown at a state whose `rolling` is set: 36 throws, grouped by what they do.
impl Chance for TwoDicePig {
    fn is_chance(&self, state: &State) -> bool {
        state.rolling
    }

    fn outcomes(&self, _state: &State, outcomes: &mut Vec<(PigMove, u64)>) {
        outcomes.extend([(PigMove::SnakeEyes, 1), (PigMove::One, 10)]);
        outcomes.extend(SUMS.iter().map(|&(sum, ways)| (PigMove::Sum(sum), ways)));
    }
}

/// The state from the mover's side (who he is does not matter), every finished state one key.
impl Canonicalize for TwoDicePig {
    type Key = u32;

    fn canonical(&self, state: &State) -> u32 {
        if self.is_over(state) {
            return u32::MAX;
        }
        u32::from_be_bytes([state.mine, state.theirs, state.turn, u8::from(state.rolling)])
    }
}

impl SearchHints for TwoDicePig {
    fn value_range(&self, _state: &State) -> (i32, i32) {
        (-1, 1)
    }
}

/// A state is written `I J K` (the mover's score, the other's, the turn total), the mover (`first` or
/// `second`) and `rolling` if the dice are in the air: `12 30 8 first`. Moves: `roll`, `hold`, and what the dice
/// show: `1+1`, `1`, or a sum `4` to `12`.
impl TextForm for TwoDicePig {
    fn start(&self) -> State {
        State { mine: 0, theirs: 0, turn: 0, rolling: false, first_to_move: true }
    }

    fn parse_position(&self, text: &str) -> Result<State, ParseError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.len() < 4 {
            return Err(ParseError::expected("three numbers and the player to move, like `12 30 8 first`", text));
        }
        let number = |index: usize| -> Result<u8, ParseError> {
            let word = words[index];
            word.parse().map_err(|_| ParseError::expected("a score or turn total, 0 to 255", word))
        };
        let (mine, theirs, turn) = (number(0)?, number(1)?, number(2)?);
        let first_to_move = match words[3] {
            "first" => true,
            "second" => false,
            other => return Err(ParseError::expected("the player to move, `first` or `second`", other)),
        };
        let rolling = match &words[4..] {
            [] => false,
            ["rolling"] => true,
            _ => return Err(ParseError::expected("`rolling` or nothing after the player", text)),
        };
        if mine >= self.goal || theirs >= self.goal {
            return Err(ParseError::refused(format!("each score must be below the goal, {}", self.goal)));
        }
        Ok(State { mine, theirs, turn, rolling, first_to_move })
    }

    fn draw_position(&self, state: &State) -> String {
        let (mover, other) = if state.first_to_move { ("first", "second") } else { ("second", "first") };
        let dice = if state.rolling { "; the dice are rolling" } else { "" };
        format!(
            "goal {}: the {mover} player, to move, has {}, the {other} {}; turn total {}{dice}\n",
            self.goal, state.mine, state.theirs, state.turn
        )
    }

    fn parse_move(&self, state: &State, text: &str) -> Result<PigMove, ParseError> {
        let mv = match text.trim() {
            "roll" => PigMove::Roll,
            "hold" => PigMove::Hold,
            "1+1" => PigMove::SnakeEyes,
            "1" => PigMove::One,
            sum => PigMove::Sum(sum.parse().map_err(|_| ParseError::expected("roll, hold, 1+1, 1 or 4 to 12", sum))?),
        };
        if self.is_over(state) {
            return Err(ParseError::game_over());
        }
        match self.legal_moves(state).contains(&mv) {
            true => Ok(mv),
            false => Err(ParseError::refused(format!("`{}` is not a move here", text.trim()))),
        }
    }

    fn render_move(&self, _state: &State, mv: &PigMove) -> String {
        match mv {
            PigMove::Roll => "roll".to_string(),
            PigMove::Hold => "hold".to_string(),
            PigMove::SnakeEyes => "1+1".to_string(),
            PigMove::One => "1".to_string(),
            PigMove::Sum(sum) => sum.to_string(),
        }
    }
}

/// The probability that the player to move wins, by a value iteration of its own: `win[i][j][k]` for the
/// mover's score `i`, the other's `j` and the turn total `k` (dice at rest), swept until no value moves by more
/// than `1e-14`. No framework: arrays, the dice's 36 throws one by one, and the rules restated.
#[allow(clippy::needless_range_loop)] // Scores are indices here: the rules read other scores' entries.
fn independent_value_iteration(goal: usize) -> Vec<Vec<Vec<f64>>> {
    let mut win = vec![vec![vec![0.0f64; goal]; goal]; goal];
    let throws: Vec<(usize, usize)> = (1..=6).flat_map(|first| (1..=6).map(move |second| (first, second))).collect();
    loop {
        let mut change = 0.0f64;
        for mine in 0..goal {
            for theirs in 0..goal {
                for turn in 0..goal - mine {
                    let mut roll = 0.0;
                    for &(first, second) in &throws {
                        roll += match (first, second) {
                            (1, 1) => 1.0 - win[theirs][0][0],
                            (1, _) | (_, 1) => 1.0 - win[theirs][mine][0],
                            _ if mine + turn + first + second >= goal => 1.0,
                            _ => win[mine][theirs][turn + first + second],
                        } / 36.0;
                    }
                    let hold = if turn == 0 { 0.0 } else { 1.0 - win[theirs][mine + turn][0] };
                    let best = roll.max(hold);
                    change = change.max((best - win[mine][theirs][turn]).abs());
                    win[mine][theirs][turn] = best;
                }
            }
        }
        if change < 1e-14 {
            return win;
        }
    }
}

/// The probability of winning that the framework's analysis gives the player to move at `position` (`None`:
/// the start) in Pig with two dice to `goal`, after its conformance check; `print`: the analysis is printed.
fn analysed(goal: u8, position: Option<&str>, print: bool) -> Result<f64, Box<dyn std::error::Error>> {
    let game = TwoDicePig::new(goal)?;
    GameCheck::new(&game, game.start()).playouts(50).max_plies(500).with_chance().run()?;
    let playable = Playable::with_chance(game, format!("two-dice-pig:goal={goal}"));
    let analysis = playable.analyze(position, &AnalysisOptions::default())?;
    if print {
        print!("{}", analysis.drawing);
        for entry in &analysis.moves {
            println!("  {}: {}{}", entry.mv, entry.value, if entry.best { " (best)" } else { "" });
        }
    }
    let expected = analysis.value.expected().ok_or("an expected score")?;
    expected.probability().ok_or_else(|| "a probability".into())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // By hand, to a goal of 4 or less: the mover must roll, and wins at once unless a 1 shows (11 throws in 36),
    // which hands the same position to the other: p = 25/36 + 11/36 (1 - p), so p = 36/47.
    for goal in 1..=4 {
        let probability = analysed(goal, None, false)?;
        assert!((probability - 36.0 / 47.0).abs() < 1e-9, "goal {goal}: {probability}, not 36/47");
    }
    println!("goals 1 to 4: the first player wins with probability 36/47, as worked out by hand");

    // To 30, at the start and where holding is a choice: the framework against the value iteration above.
    let win = independent_value_iteration(30);
    for (position, (mine, theirs, turn)) in [(None, (0, 0, 0)), (Some("20 25 8 first"), (20, 25, 8))] {
        let probability = analysed(30, position, true)?;
        let independent = win[mine][theirs][turn];
        println!("probability of winning {probability:.10}; independently {independent:.10}");
        assert!((probability - independent).abs() < 1e-9);
    }

    // A text that is no position is an error that says why.
    let playable = Playable::with_chance(TwoDicePig::new(30)?, "two-dice-pig:goal=30".to_string());
    for text in ["30 0 0 first", "1 2 3 third", "1 2", "1 2 3 first rolling now"] {
        let refused = playable.analyze(Some(text), &AnalysisOptions::default()).err().ok_or("refused")?;
        println!("`{text}`: {refused}");
    }
    Ok(())
}
