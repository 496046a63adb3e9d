//! `ludus play`: a game against the perfect player, one command a line (a move, `hint`, `undo`, `help`,
//! `quit`), from a terminal or from standard input. An illegal move is explained and asked for again.

use crate::cli::Side;
use crate::registry::Registry;
use anyhow::Result;
use ludus_framework::playable::{AnalysisOptions, GameSession};
use std::io::{BufRead, Write};
use std::path::Path;

const HELP: &str = "commands: a move (as `ludus analyze` writes them), `hint` (every move's value), `undo` (take \
                    back your last move), `help`, `quit`";

/// Prints `text` with no line break and shows it at once (a prompt).
fn prompt(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// The next line of standard input, trimmed; `None` at its end.
fn next_line(lines: &mut impl Iterator<Item = std::io::Result<String>>) -> Result<Option<String>> {
    Ok(lines.next().transpose()?.map(|line| line.trim().to_string()))
}

/// `ludus play GAME`: the perfect player's moves from an engine set up by `options`, or from the solved
/// database in `database` (`--db DIR`).
pub fn play(
    registry: &Registry,
    spec: &str,
    side: Option<Side>,
    options: &AnalysisOptions,
    database: Option<&Path>,
) -> Result<()> {
    // One of the two is made: the game to search, or the game whose database is read.
    let (searched, stored) = match database {
        None => (Some(registry.game(spec)?), None),
        Some(_) => (None, Some(registry.database(spec)?)),
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let side = match side {
        Some(side) => side,
        None => loop {
            prompt("Do you play first or second? [1/2] ")?;
            match next_line(&mut lines)?.as_deref() {
                Some("1" | "first") => break Side::First,
                Some("2" | "second") => break Side::Second,
                Some(_) => say!("Please answer 1 or 2."),
                None => return Ok(()),
            }
        },
    };
    let you_first = side == Side::First;
    let (name, mut session) = match (&searched, &stored, database) {
        (Some(game), _, _) => (game.name(), game.session(options)?),
        (_, Some(game), Some(directory)) => (game.name(), game.session(directory)?),
        _ => anyhow::bail!("no game to play"),
    };
    say!("{name}: you play {}. {HELP}", if you_first { "first" } else { "second" });
    loop {
        if let Some(winner) = session.result() {
            say_raw!("{}", session.drawing());
            match winner {
                None => say!("The game is a draw."),
                Some(first_won) if first_won == you_first => say!("You win."),
                Some(_) => say!("I win."),
            }
            return Ok(());
        }
        if session.first_to_move() != you_first {
            let mv = session.play_best()?;
            say!("I play {mv}.");
            continue;
        }
        say_raw!("{}", session.drawing());
        prompt("your move> ")?;
        let Some(command) = next_line(&mut lines)? else {
            say!("");
            return Ok(());
        };
        match command.as_str() {
            "" => {}
            "quit" | "q" => return Ok(()),
            "help" | "?" => say!("{HELP}"),
            "hint" => hint(session.as_mut())?,
            "undo" => {
                // Back to your previous turn: your move and my reply are taken back.
                let mut undone = session.undo();
                if undone && session.first_to_move() != you_first {
                    undone = session.undo();
                }
                if !undone {
                    say!("Nothing to take back.");
                }
            }
            text => {
                if let Err(reason) = session.play(text) {
                    say!("`{text}` is not a move here: {reason}. Try again (`hint` lists the moves).");
                }
            }
        }
    }
}

/// Prints every legal move with its value for the player to move.
fn hint(session: &mut dyn GameSession) -> Result<()> {
    for mv in session.hints()? {
        let plies = mv.remoteness.map_or(String::new(), |plies| format!(" in {plies} plies"));
        say!("  {:>4}  {}{}{}", mv.mv, mv.value, plies, if mv.best { "  (best)" } else { "" });
    }
    Ok(())
}
