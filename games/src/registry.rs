//! The games of this crate that people can name on the command line (`ludus games`, `ludus analyze`,
//! `ludus play`), with their parameters: `tic-tac-toe`, `connect-four:width=7,height=6`.

use crate::classic::TicTacToe;
use crate::connect_four::ConnectFour;
use ludus_framework::playable::{GameEntry, Parameters, Playable, PlayableGame};
use ludus_framework::{Error, Result};

/// Every game of this crate's registry.
pub const GAMES: &[GameEntry] = &[
    GameEntry {
        name: "tic-tac-toe",
        summary: "three in a row on 3 x 3; a position is its moves, cells 1..9 row by row (`159`)",
        parameters: "",
        make: |_| Ok(Box::new(Playable { game: TicTacToe, name: "tic-tac-toe".to_string() })),
    },
    GameEntry {
        name: "connect-four",
        summary: "four in a row on W x H with W * (H + 1) <= 64 and W <= 9; a position is its moves, columns 1..W",
        parameters: "width=7,height=6",
        make: connect_four,
    },
];

fn connect_four(parameters: &Parameters) -> Result<Box<dyn PlayableGame>> {
    let (width, height) = (parameters.number("width", 7)?, parameters.number("height", 6)?);
    if width > 9 {
        return Err(Error::Unsupported(format!(
            "{}: the width is at most 9 (a column is one digit)",
            parameters.spec()
        )));
    }
    let game = ConnectFour::new(width, height)?;
    Ok(Box::new(Playable { game, name: format!("connect-four:width={width},height={height}") }))
}
