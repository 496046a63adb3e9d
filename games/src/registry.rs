//! The games people can name on the command line (`ludus games`, `ludus analyze`), with their parameters:
//! `tic-tac-toe`, `connect-four:width=7,height=6`.

use crate::classic::TicTacToe;
use crate::connect_four::ConnectFour;
use ludus_framework::playable::{Playable, PlayableGame};
use ludus_framework::{Error, Result};

/// A game of the registry: its name, what it is, its parameters with their defaults.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// The name typed on the command line.
    pub name: &'static str,
    /// One line on the game and how its positions are written.
    pub summary: &'static str,
    /// Its parameters and their defaults (`width=7,height=6`), empty if none.
    pub parameters: &'static str,
}

/// Every game of the registry.
pub const GAMES: &[GameInfo] = &[
    GameInfo {
        name: "tic-tac-toe",
        summary: "three in a row on 3 x 3; a position is its moves, cells 1..9 row by row (`159`)",
        parameters: "",
    },
    GameInfo {
        name: "connect-four",
        summary: "four in a row on W x H with W * (H + 1) <= 64 and W <= 9; a position is its moves, columns 1..W",
        parameters: "width=7,height=6",
    },
];

/// The game named by `spec` (`name` or `name:key=value,key=value`), with its parameters checked.
pub fn game(spec: &str) -> Result<Box<dyn PlayableGame>> {
    let (name, parameters) = spec.split_once(':').unwrap_or((spec, ""));
    let mut values: Vec<(&str, &str)> = Vec::new();
    for pair in parameters.split(',').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| Error::Unsupported(format!("{spec}: expected `key=value`, found `{pair}`")))?;
        values.push((key.trim(), value.trim()));
    }
    let number = |key: &str, default: u32| -> Result<u32> {
        match values.iter().find(|(found, _)| *found == key) {
            None => Ok(default),
            Some((_, value)) => value
                .parse()
                .map_err(|_| Error::Unsupported(format!("{spec}: `{key}` must be a whole number, found `{value}`"))),
        }
    };
    let info = GAMES.iter().find(|info| info.name == name).ok_or_else(|| {
        let names: Vec<&str> = GAMES.iter().map(|info| info.name).collect();
        Error::Unsupported(format!("no game `{name}` (available: {})", names.join(", ")))
    })?;
    let known: Vec<&str> = info.parameters.split(',').filter_map(|pair| pair.split('=').next()).collect();
    if let Some((unknown, _)) = values.iter().find(|(key, _)| !known.contains(key)) {
        return Err(Error::Unsupported(format!(
            "{name} has no parameter `{unknown}` (its parameters: {})",
            if info.parameters.is_empty() { "none" } else { info.parameters }
        )));
    }
    match name {
        "tic-tac-toe" => Ok(Box::new(Playable { game: TicTacToe, name: name.to_string() })),
        _ => {
            let (width, height) = (number("width", 7)?, number("height", 6)?);
            if width > 9 {
                return Err(Error::Unsupported(format!("{spec}: the width is at most 9 (a column is one digit)")));
            }
            let game = ConnectFour::new(width, height)?;
            Ok(Box::new(Playable { game, name: format!("connect-four:width={width},height={height}") }))
        }
    }
}
