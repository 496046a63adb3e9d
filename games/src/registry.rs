//! The games of this crate that people can name on the command line (`ludus games`, `ludus analyze`,
//! `ludus play`), with their parameters: `tic-tac-toe`, `connect-four:width=7,height=6`, `nim:heaps=3-5-7`,
//! `octal:code=0.77,play=normal`, `dodgem:n=3`, `three-mens-morris`.

use crate::classic::{NimGame, OctalGame, TicTacToe};
use crate::connect_four::ConnectFour;
use crate::dodgem::Dodgem;
use crate::three_mens_morris::ThreeMensMorris;
use ludus_framework::database::{DatabaseEntry, RankedSolvable, Solvable};
use ludus_framework::playable::{
    Convention, GameEntry, ImpartialPlayable, Parameters, Playable, PlayableGame, TextForm,
};
use ludus_framework::{Error, Result};

/// Every game of this crate's registry.
pub const GAMES: &[GameEntry] = &[
    GameEntry {
        name: "tic-tac-toe",
        summary: "three in a row on 3 x 3; a position is its moves, cells 1..9 row by row (`159`)",
        parameters: "",
        make: |_| Ok(Box::new(Playable { game: TicTacToe, name: "tic-tac-toe".to_string(), loopy: false })),
    },
    GameEntry {
        name: "connect-four",
        summary: "four in a row on W x H with W * (H + 1) <= 64 and W <= 9; a position is its moves, columns 1..W",
        parameters: "width=7,height=6",
        make: connect_four,
    },
    GameEntry {
        name: "nim",
        summary: "take counters from one heap; whoever cannot move loses; a position is its heaps (`3,5,7`), a move \
                  `HEAP:TAKEN`",
        parameters: "heaps=3-5-7",
        make: nim,
    },
    GameEntry {
        name: "octal",
        summary: "an octal game by its code (`0.77` Kayles, `0.07` Dawson's Kayles, `0.137` Dawson's chess), by the \
                  Sprague-Grundy engine (misère: alpha-beta over the whole sum); a position is its heaps (`10,3`), \
                  a move `HEAP:PARTS` (`1:3+5`)",
        parameters: "code=0.77,play=normal",
        make: octal,
    },
    GameEntry {
        name: "dodgem",
        summary: "Colin Vout's loopy car game on n x n (3 or 4; analysed by the retrograde engine); a position is \
                  its moves, like `a2b2 b1b2 c2x`",
        parameters: "n=3",
        make: dodgem,
    },
    GameEntry {
        name: "three-mens-morris",
        summary: "three in a row on 3 x 3 with 3 men each, placed then slid to an adjacent point (loopy; analysed by \
                  the retrograde engine); a position is its moves, like `b2 a1 c3 a3 a2 c2 b2b1`",
        parameters: "",
        make: |_| Ok(Box::new(Playable { game: ThreeMensMorris, name: "three-mens-morris".to_string(), loopy: true })),
    },
];

fn octal(parameters: &Parameters) -> Result<Box<dyn PlayableGame>> {
    let game = OctalGame::parse(&parameters.text("code", "0.77"))
        .map_err(|reason| Error::Unsupported(format!("{}: {reason}", parameters.spec())))?;
    let (convention, play) = match parameters.text("play", "normal").as_str() {
        "normal" => (Convention::Normal, "normal"),
        "misere" => (Convention::Misere, "misere"),
        _ => {
            return Err(Error::Unsupported(format!(
                "{}: `play` is `normal` (the last mover wins) or `misere` (the last mover loses)",
                parameters.spec()
            )))
        }
    };
    let name = format!("octal:code={},play={play}", game.code());
    Ok(Box::new(ImpartialPlayable { game, name, convention }))
}

fn dodgem(parameters: &Parameters) -> Result<Box<dyn PlayableGame>> {
    // From 5 x 5 on the positions are too many to solve at a question (tens of millions a tier): `ludus db`.
    let (game, name) = dodgem_of(parameters, 3, 4)?;
    Ok(Box::new(Playable { game, name, loopy: true }))
}

/// Dodgem on n x n (`default` if not given), n from 3 to `largest`, with its name.
fn dodgem_of(parameters: &Parameters, default: u32, largest: u32) -> Result<(Dodgem, String)> {
    let size = parameters.number("n", default)?;
    if !(3..=largest).contains(&size) {
        return Err(Error::Unsupported(format!("{}: n is from 3 to {largest}", parameters.spec())));
    }
    Ok((Dodgem::new(u8::try_from(size).unwrap_or(3))?, format!("dodgem:n={size}")))
}

fn nim(parameters: &Parameters) -> Result<Box<dyn PlayableGame>> {
    let heaps = parameters.text("heaps", "3-5-7");
    let game = NimGame { heaps: Vec::new() };
    let heaps = game
        .parse_position(&heaps.replace('-', ","))
        .map_err(|reason| Error::Unsupported(format!("{}: {reason}", parameters.spec())))?;
    let name = format!("nim:heaps={}", heaps.iter().map(u32::to_string).collect::<Vec<_>>().join("-"));
    Ok(Box::new(Playable { game: NimGame { heaps }, name, loopy: false }))
}

fn connect_four(parameters: &Parameters) -> Result<Box<dyn PlayableGame>> {
    let (game, name) = connect_four_of(parameters, (7, 6))?;
    Ok(Box::new(Playable { game, name, loopy: false }))
}

/// Connect Four with the width and height given (`default` if not), with its name.
fn connect_four_of(parameters: &Parameters, default: (u32, u32)) -> Result<(ConnectFour, String)> {
    let (width, height) = (parameters.number("width", default.0)?, parameters.number("height", default.1)?);
    if width > 9 {
        return Err(Error::Unsupported(format!(
            "{}: the width is at most 9 (a column is one digit)",
            parameters.spec()
        )));
    }
    Ok((ConnectFour::new(width, height)?, format!("connect-four:width={width},height={height}")))
}

/// The games of this crate that `ludus db` solves into databases, with their parameters. Tiers: marks or
/// stones on the board, cars on the board, men on the board.
pub const DATABASES: &[DatabaseEntry] = &[
    DatabaseEntry {
        name: "tic-tac-toe",
        summary: "three in a row on 3 x 3 (5,478 positions, 765 up to symmetry; tiers by marks)",
        parameters: "",
        make: |_| Ok(Box::new(Solvable { game: TicTacToe, name: "tic-tac-toe".to_string() })),
    },
    DatabaseEntry {
        name: "connect-four",
        summary: "four in a row on W x H (tiers by stones; 5 x 4: 2.0 million positions, 5 x 5: 35 million, 6 x 4: 47 million)",
        parameters: "width=5,height=4",
        make: |parameters| {
            let (game, name) = connect_four_of(parameters, (5, 4))?;
            Ok(Box::new(Solvable { game, name }))
        },
    },
    DatabaseEntry {
        name: "dodgem",
        summary: "Colin Vout's loopy car game on n x n, n from 3 to 5 (tiers by cars on the board)",
        parameters: "n=4",
        make: |parameters| {
            let (game, name) = dodgem_of(parameters, 4, 5)?;
            // Dodgem ranks its tiers: solved with flat arrays instead of hash maps.
            Ok(Box::new(RankedSolvable(Solvable { game, name })))
        },
    },
    DatabaseEntry {
        name: "three-mens-morris",
        summary: "three in a row with 3 men each, placed then slid (loopy; 540 positions up to symmetry; tiers by men \
                  on the board)",
        parameters: "",
        make: |_| Ok(Box::new(Solvable { game: ThreeMensMorris, name: "three-mens-morris".to_string() })),
    },
];
