//! `ludus play`: a game against the perfect player, one command a line (a move, `hint`, `undo`, `help`,
//! `quit`), from a terminal or from standard input. An illegal move is explained and asked for again. Who moves
//! comes from the game (a player may move twice); at a chance node the dice are rolled (seeded) or, with
//! `--ask-dice`, the outcome is asked for (the commands work at that prompt too).

use crate::cli::Side;
use crate::progress::{terminal_handle, SearchWatch};
use crate::registry::Registry;
use anyhow::Result;
use ludus_framework::playable::{AnalysisOptions, Finish, GameSession};
use ludus_framework::scored::Dice;
use std::io::{BufRead, Read, Write};
use std::path::Path;

const HELP: &str = "commands: a move (as `ludus analyze` writes them), `hint` (every move's value), `undo` (take \
                    back your last move), `help`, `quit`";

/// Prints `text` with no line break and shows it at once (a prompt).
fn prompt(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).map_err(crate::output::output_error)?;
    out.flush().map_err(crate::output::output_error)?;
    Ok(())
}

/// The longest line of standard input read as a command, in bytes: a move or a command is a few bytes, so a
/// longer line is refused without being kept.
const MAX_LINE_BYTES: usize = 1024;

/// A line of standard input.
enum Line {
    /// A command, trimmed.
    Text(String),
    /// A line longer than [`MAX_LINE_BYTES`], skipped to its end without being kept.
    TooLong,
}

/// The next line of standard input; `None` at its end. At most [`MAX_LINE_BYTES`] of it are held.
fn next_line(input: &mut impl BufRead) -> Result<Option<Line>> {
    let mut bytes = Vec::new();
    let read = input.by_ref().take(MAX_LINE_BYTES as u64 + 1).read_until(b'\n', &mut bytes)?;
    if read == 0 {
        return Ok(None);
    }
    if bytes.len() <= MAX_LINE_BYTES || bytes.ends_with(b"\n") {
        return Ok(Some(Line::Text(String::from_utf8_lossy(&bytes).trim().to_string())));
    }
    // Skip the rest of the line, a buffer at a time.
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            break;
        }
        match buffer.iter().position(|&byte| byte == b'\n') {
            Some(end) => {
                input.consume(end + 1);
                break;
            }
            None => {
                let length = buffer.len();
                input.consume(length);
            }
        }
    }
    Ok(Some(Line::TooLong))
}

/// What is said of a line longer than [`MAX_LINE_BYTES`].
fn too_long() -> String {
    format!("That line is longer than {MAX_LINE_BYTES} bytes: ignored.")
}

/// How the outcomes of chance are decided.
#[derive(Clone, Copy, Debug)]
pub struct DiceOptions {
    /// The seed of the dice rolled.
    pub seed: u64,
    /// Ask for every outcome instead of rolling.
    pub ask: bool,
}

/// `ludus play GAME`: the perfect player's moves from an engine set up by `options`, or from the solved
/// database in `database` (`--db DIR`); the outcomes of chance by `dice`.
pub fn play(
    registry: &Registry,
    spec: &str,
    side: Option<Side>,
    options: &AnalysisOptions,
    database: Option<&Path>,
    dice: DiceOptions,
) -> Result<()> {
    // One of the two is made: the game to search, or the game whose database is read.
    let (searched, stored) = match database {
        None => {
            let game = registry.game(spec)?;
            crate::places::note_found_endgame("play", game.as_ref(), options.endgame.as_ref());
            (Some(game), None)
        }
        Some(_) => (None, Some(registry.database(spec)?)),
    };
    let mut lines = std::io::stdin().lock();
    let side = match side {
        Some(side) => side,
        None => loop {
            prompt("Do you play first or second? [1/2] ")?;
            match next_line(&mut lines)? {
                Some(Line::Text(answer)) if matches!(answer.as_str(), "1" | "first") => break Side::First,
                Some(Line::Text(answer)) if matches!(answer.as_str(), "2" | "second") => break Side::Second,
                Some(_) => say!("Please answer 1 or 2."),
                None => return Ok(()),
            }
        },
    };
    let you_first = side == Side::First;
    // The perfect player's searches show their progress line on a terminal, each while it runs.
    let line = searched.as_ref().and_then(|_| terminal_handle());
    let options = &AnalysisOptions { progress: line.clone(), ..options.clone() };
    let (name, mut session) = match (&searched, &stored, database) {
        (Some(game), _, _) => (game.name(), game.session(options)?),
        (_, Some(game), Some(directory)) => (game.name(), game.session(directory)?),
        _ => anyhow::bail!("no game to play"),
    };
    say!("{name}: you play {}. {HELP}", if you_first { "first" } else { "second" });
    let mut rolls = Dice::new(dice.seed);
    let mut person = Person { first: you_first, moves: 0 };
    loop {
        if let Some(winner) = session.result() {
            say_raw!("{}", session.drawing());
            match winner {
                Finish::Drawn => say!("The game is a draw."),
                Finish::FirstWon if you_first => say!("You win."),
                Finish::SecondWon if !you_first => say!("You win."),
                Finish::FirstWon | Finish::SecondWon => say!("I win."),
            }
            return Ok(());
        }
        let outcomes = session.outcomes();
        if !outcomes.is_empty() {
            let asked = dice.ask.then_some((&mut person, &mut lines));
            if !chance(session.as_mut(), &outcomes, &mut rolls, asked)? {
                return Ok(());
            }
            continue;
        }
        if session.first_to_move() != you_first {
            let watch = SearchWatch::over(line.as_ref());
            let mv = session.play_best();
            drop(watch);
            say!("I play {}.", mv?);
            continue;
        }
        say_raw!("{}", session.drawing());
        prompt("your move> ")?;
        let command = match next_line(&mut lines)? {
            Some(Line::Text(command)) => command,
            Some(Line::TooLong) => {
                say!("{}", too_long());
                continue;
            }
            None => {
                say!("");
                return Ok(());
            }
        };
        match command.as_str() {
            "" => {}
            "quit" | "q" => return Ok(()),
            "help" | "?" => say!("{HELP}"),
            "hint" => {
                let watch = SearchWatch::over(line.as_ref());
                let hints = session.hints();
                drop(watch);
                hint(hints?)?;
            }
            "undo" => person.undo(session.as_mut())?,
            text => match session.play(text) {
                Ok(_) => person.moves += 1,
                Err(reason) => {
                    let text = ludus_framework::input::shorten(text);
                    say!("`{text}` is not a move here: {reason}. Try again (`hint` lists the moves).");
                }
            },
        }
    }
}

/// The person at the board: which side, and how many of the moves played are theirs (so that `undo` knows
/// whether there is one to take back, whoever made the moves after it).
struct Person {
    /// Whether the person plays first.
    first: bool,
    /// The person's moves among those played.
    moves: usize,
}

impl Person {
    /// Back to the person's previous turn: the replies (and the outcomes of chance) since the person's last
    /// move, and that move, are taken back. Who moved comes from the game: a player may have moved twice, so
    /// the moves are taken back one at a time until the position is one where the person chose a move.
    fn undo(&mut self, session: &mut dyn GameSession) -> Result<()> {
        if self.moves == 0 {
            say!("Nothing to take back.");
            return Ok(());
        }
        while session.undo() {
            if session.first_to_move() == self.first && session.outcomes().is_empty() {
                self.moves -= 1;
                break;
            }
        }
        Ok(())
    }
}

/// Decides a chance node: rolls the dice, or, with `asked` (`--ask-dice`), asks the person for the outcome
/// (`roll` or an empty line rolls; the commands of the move prompt work here too). `false` when the game ends
/// here (`quit`, or the end of input).
fn chance(
    session: &mut dyn GameSession,
    outcomes: &[(String, ludus_framework::scored::Probability)],
    rolls: &mut Dice,
    asked: Option<(&mut Person, &mut impl BufRead)>,
) -> Result<bool> {
    let roll = |rolls: &mut Dice| {
        let probabilities: Vec<_> = outcomes.iter().map(|(_, probability)| *probability).collect();
        rolls.roll(&probabilities).and_then(|index| outcomes.get(index)).map(|(text, _)| text.clone())
    };
    let text = match asked {
        None => roll(rolls),
        Some((person, lines)) => {
            let choices: Vec<String> =
                outcomes.iter().map(|(text, probability)| format!("{text} ({probability})")).collect();
            prompt(&format!("outcome? [{}, or roll] ", choices.join(", ")))?;
            let answer = match next_line(lines)? {
                None => {
                    say!("");
                    return Ok(false);
                }
                Some(Line::TooLong) => {
                    say!("{}", too_long());
                    return Ok(true);
                }
                Some(Line::Text(answer)) => answer,
            };
            match answer.as_str() {
                "" | "roll" => roll(rolls),
                "quit" | "q" => return Ok(false),
                "help" | "?" => {
                    say!("{HELP}; here, the outcome of chance (`roll` rolls the dice)");
                    return Ok(true);
                }
                "hint" => {
                    hint(session.hints()?)?;
                    return Ok(true);
                }
                "undo" => {
                    person.undo(session)?;
                    return Ok(true);
                }
                _ => Some(answer),
            }
        }
    };
    let Some(text) = text else { anyhow::bail!("a chance node without outcomes") };
    match session.play(&text) {
        Ok(outcome) => say!("Chance: {outcome}."),
        Err(reason) => say!("`{}` is not an outcome here: {reason}.", ludus_framework::input::shorten(&text)),
    }
    Ok(true)
}

/// Prints every legal move with its value for the player to move (`hints`, the session's).
fn hint(hints: Vec<ludus_framework::playable::MoveAnalysis>) -> Result<()> {
    for mv in hints {
        let plies =
            mv.value.remoteness().map_or(String::new(), |count| format!(" in {}", crate::reports::plies(count)));
        let book = if mv.book { "  (book)" } else { "" };
        say!("  {:>4}  {}{}{}{book}", mv.mv, mv.value, plies, if mv.best { "  (best)" } else { "" });
    }
    Ok(())
}
