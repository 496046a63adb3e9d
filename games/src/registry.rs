//! The games of this crate that people can name on the command line (`ludus games`, `ludus analyze`,
//! `ludus play`, `ludus db`), each registered once with its typed parameters: `tic-tac-toe`,
//! `connect-four:width=7,height=6`, `nim:heaps=3-5-7`, `octal:code=0.77,play=normal`, `dodgem:n=3`,
//! `three-mens-morris`, `quixo:size=3`, `teeko`, and the scored games `othello:size=6`, `kalah:pits=6,seeds=4`,
//! `dots-and-boxes:rows=2,columns=3`, `pig:goal=100`, `hog:goal=100,dice=10`, each with the capabilities it declares. A game with tiers and keys a
//! position can be rebuilt from is given its database. The crate's catalog ([`crate::CATALOG`]) hangs them with
//! their plugins and workloads.

use crate::classic::{NimGame, OctalGame, TicTacToe};
use crate::connect_four::ConnectFour;
use crate::dodgem::Dodgem;
use crate::dots_and_boxes::{DotsAndBoxes, MAX_SIDE};
use crate::hog::Hog;
use crate::kalah::{Capture, CompactKalah, Kalah};
use crate::othello::{CompactOthello, Othello};
use crate::pig::Pig;
use crate::quixo::Quixo;
use crate::teeko::Teeko;
use crate::three_mens_morris::ThreeMensMorris;
use ludus_framework::engines::retrograde::{ByKey, ByRank};
use ludus_framework::playable::{
    Arguments, BoardKind, Capabilities, DatabaseKind, Made, Parameter, ParameterKind, Playable, Registration, Tiered,
    WholeGame,
};
use ludus_framework::text::TextForm;
use ludus_framework::{Error, Result};

/// Tic-tac-toe.
pub const TIC_TAC_TOE: Registration = Registration {
    name: "tic-tac-toe",
    summary: "three in a row on 3 x 3 (5,478 positions, 765 up to symmetry; tiers by marks); a position is its \
              moves, cells 1..9 row by row (`159`)",
    parameters: &[],
    capabilities: Capabilities::win_loss().with_database(DatabaseKind::Tiered).with_board(BoardKind::Grid),
    make: tic_tac_toe,
};

/// Connect Four on W x H.
pub const CONNECT_FOUR: Registration = Registration {
    name: "connect-four",
    summary: "four in a row on W x H with W * (H + 1) <= 64 (tiers by stones; 5 x 4: 2.0 million positions, 6 x \
              4: 47 million); a position is its moves, columns 1..W",
    parameters: &[
        Parameter {
            name: "width",
            help: "columns (one digit each in a position)",
            kind: ParameterKind::Whole { default: 7, min: 1, max: 9 },
        },
        Parameter { name: "height", help: "rows", kind: ParameterKind::Whole { default: 6, min: 1, max: 63 } },
    ],
    capabilities: Capabilities::win_loss().with_database(DatabaseKind::Tiered).with_board(BoardKind::Grid),
    make: connect_four,
};

/// Nim, as a win/loss game of whole positions.
pub const NIM: Registration = Registration {
    name: "nim",
    summary: "take counters from one heap; whoever cannot move loses; a position is its heaps (`3,5,7`), a move \
              `HEAP:TAKEN`",
    parameters: &[Parameter {
        name: "heaps",
        help: "the heaps at the start, joined by `-` (at most 5 of at most 20)",
        kind: ParameterKind::Text { default: "3-5-7" },
    }],
    capabilities: Capabilities::win_loss().with_board(BoardKind::Heaps),
    make: nim,
};

/// An octal game by its code, under normal or misère play.
pub const OCTAL: Registration = Registration {
    name: "octal",
    summary: "an octal game by its code (`0.77` Kayles, `0.07` Dawson's Kayles, `0.137` Dawson's chess); a \
              position is its heaps (`10,3`), a move `HEAP:PARTS` (`1:3+5`)",
    parameters: &[
        Parameter {
            name: "code",
            help: "`0.` and a digit 0..7 per number of tokens removed",
            kind: ParameterKind::Text { default: "0.77" },
        },
        Parameter {
            name: "play",
            help: "normal: the last mover wins (nimbers, Sprague-Grundy); misere: the last mover loses (alpha-beta over the \
                   whole sum)",
            kind: ParameterKind::Choice { default: "normal", choices: &["normal", "misere"] },
        },
    ],
    capabilities: Capabilities::impartial().with_board(BoardKind::Heaps),
    make: octal,
};

/// Dodgem on n x n.
pub const DODGEM: Registration = Registration {
    name: "dodgem",
    summary: "Colin Vout's loopy car game on n x n (tiers by cars on the board; 5 x 5: 120 million positions); a \
              position is its moves, like `a2b2 b1a1 b2c2 a1a2 c2x`",
    parameters: &[Parameter {
        name: "n",
        help: "the board's side",
        kind: ParameterKind::Whole { default: 3, min: 3, max: 5 },
    }],
    capabilities: Capabilities::win_loss().repeating().with_database(DatabaseKind::Tiered).with_board(BoardKind::Grid),
    make: dodgem,
};

/// Three Men's Morris.
pub const THREE_MENS_MORRIS: Registration = Registration {
    name: "three-mens-morris",
    summary: "three in a row on 3 x 3 with 3 men each, placed then slid to an adjacent point (loopy; 540 \
              positions up to symmetry; tiers by men on the board); a position is its moves, like `b2 a1 c3 a3 a2 \
              c2 b2b1`",
    parameters: &[],
    capabilities: Capabilities::win_loss().repeating().with_database(DatabaseKind::Tiered).with_board(BoardKind::Grid),
    make: three_mens_morris,
};

/// Quixo on n x n.
pub const QUIXO: Registration = Registration {
    name: "quixo",
    summary: "Quixo on n x n: take a blank or own cube from the border, push it in at an end of its row or column \
              (loopy; tiers by counts of marks; making the opponent's line loses); a position is its moves, like \
              `a1c1 b3b1`",
    parameters: &[Parameter {
        name: "size",
        help: "the board's side (5 x 5 tiers are too large to solve)",
        kind: ParameterKind::Whole { default: 3, min: 3, max: 5 },
    }],
    capabilities: Capabilities::win_loss().repeating().with_database(DatabaseKind::Tiered).with_board(BoardKind::Grid),
    make: quixo,
};

/// Teeko.
pub const TEEKO: Registration = Registration {
    name: "teeko",
    summary: "John Scarne's Teeko on 5 x 5: 4 pieces each, dropped then moved to an adjacent cell; four in a line \
              or a 2 x 2 square wins (loopy; tiers by pieces on the board); a position is its moves, like `c3 \
              b2 ... c3d4`",
    parameters: &[],
    capabilities: Capabilities::win_loss().repeating().with_database(DatabaseKind::Tiered).with_board(BoardKind::Grid),
    make: teeko,
};

/// Othello on n x n.
pub const OTHELLO: Registration = Registration {
    name: "othello",
    summary: "Othello on n x n, scored by the margin in discs (alpha-beta over scores); a position is its moves \
              (`c2 b2`, cells a1 at the top left, `pass`) or its board (`..../.ox./.xo./.... b`)",
    parameters: &[
        Parameter { name: "size", help: "the board's side", kind: ParameterKind::Whole { default: 6, min: 4, max: 8 } },
        Parameter {
            name: "empties",
            help: "the empty cells left at the end: winner (counted for the winner, the tournament rule) or none",
            kind: ParameterKind::Choice { default: "winner", choices: &["winner", "none"] },
        },
    ],
    capabilities: Capabilities::scored().with_board(BoardKind::Grid),
    make: othello,
};

/// Kalah(m, n).
pub const KALAH: Registration = Registration {
    name: "kalah",
    summary: "Kalah(m, n): sowing with captures and extra moves (turns do not alternate), scored by the margin \
              in seeds; a position is its moves (pits 1..m from the mover's left) or its board",
    parameters: &[
        Parameter { name: "pits", help: "pits a side", kind: ParameterKind::Whole { default: 6, min: 1, max: 7 } },
        Parameter {
            name: "seeds",
            help: "seeds a pit at the start",
            kind: ParameterKind::Whole { default: 4, min: 1, max: 12 },
        },
        Parameter {
            name: "capture",
            help: "when a last seed sown into an empty pit of one's own is captured, with the seeds opposite: \
                   opposite (only if the pit opposite holds seeds) or always (even if it is empty: the last seed \
                   alone goes to the store; the rule of the published solutions)",
            kind: ParameterKind::Choice { default: "opposite", choices: &["opposite", "always"] },
        },
    ],
    capabilities: Capabilities::scored().with_database(DatabaseKind::WholeGame).with_board(BoardKind::Pits),
    make: kalah,
};

/// Dots and Boxes on m x n boxes.
pub const DOTS_AND_BOXES: Registration = Registration {
    name: "dots-and-boxes",
    summary: "Dots and Boxes on m x n boxes: draw an edge between two neighbouring dots; closing a box takes it and \
              moves again (turns do not alternate), scored by the margin in boxes; a position is its edges as the \
              dots they join, like `a1b1 b1b2` (dot a1 at the top left)",
    parameters: &[
        Parameter {
            name: "rows",
            help: "rows of boxes (at most 56 edges in all: 3 x 3 has 24, 4 x 5 has 49)",
            kind: ParameterKind::Whole { default: 2, min: 1, max: MAX_SIDE as u32 },
        },
        Parameter {
            name: "columns",
            help: "columns of boxes",
            kind: ParameterKind::Whole { default: 3, min: 1, max: MAX_SIDE as u32 },
        },
    ],
    capabilities: Capabilities::scored().with_database(DatabaseKind::WholeGame).with_board(BoardKind::Edges),
    make: dots_and_boxes,
};

/// Pig.
pub const PIG: Registration = Registration {
    name: "pig",
    summary: "Pig: roll a die until you hold or roll a 1; first to the goal wins (chance, loopy: value \
              iteration; the value is the probability of winning); a position is `I J K first|second`",
    parameters: &[Parameter {
        name: "goal",
        help: "the score that wins",
        kind: ParameterKind::Whole { default: 100, min: 1, max: 200 },
    }],
    capabilities: Capabilities::scored().with_chance().repeating().with_board(BoardKind::Panel),
    make: pig,
};

/// Hog.
pub const HOG: Registration = Registration {
    name: "hog",
    summary: "Hog: choose how many dice to roll at once, score their sum or 1 if any shows a 1 (chance, never \
              loops: expectimax); a position is `I J first|second`",
    parameters: &[
        Parameter {
            name: "goal",
            help: "the score that wins",
            kind: ParameterKind::Whole { default: 100, min: 1, max: 1000 },
        },
        Parameter {
            name: "dice",
            help: "the most dice a roll",
            kind: ParameterKind::Whole { default: 10, min: 1, max: 20 },
        },
    ],
    capabilities: Capabilities::scored().with_chance().with_board(BoardKind::Panel),
    make: hog,
};

fn othello(arguments: &Arguments) -> Result<Made> {
    let game = Othello::new(arguments.whole("size")?, arguments.text("empties")? == "winner")?;
    let name = arguments.canonical_name();
    // Up to 6 x 6 a key fits 64 bits: the packed table, the fastest.
    if game.size() <= CompactOthello::LARGEST_SIZE {
        let compact = CompactOthello::new(game)?;
        return Ok(Made::playable(Playable::scored(compact, name).with_packed_scores().with_board().with_book()));
    }
    Ok(Made::playable(Playable::scored(game, name).with_board().with_book()))
}

fn kalah(arguments: &Arguments) -> Result<Made> {
    let capture = arguments.text("capture")?;
    let capture = Capture::named(capture)
        .ok_or_else(|| Error::parameter("capture", format!("kalah: capture is opposite or always, not {capture}")))?;
    let game = Kalah::new(arguments.whole("pits")? as usize, arguments.whole("seeds")?)?.with_capture(capture);
    let name = arguments.canonical_name();
    // The small variants' databases: every position's score in one file; and endgame databases of the tiers
    // of few seeds, which the search probes.
    // Up to Kalah(6, 6) a key fits 64 bits: the packed table, lock-free on several threads.
    if let Ok(compact) = CompactKalah::new(game) {
        let playable =
            Playable::scored(compact, name).with_packed_scores().with_board().with_book().with_packed_endgame();
        return Ok(Made::solvable(playable, WholeGame));
    }
    let playable = Playable::scored(game, name).with_board().with_book().with_endgame();
    Ok(Made::solvable(playable, WholeGame))
}

fn dots_and_boxes(arguments: &Arguments) -> Result<Made> {
    let game = DotsAndBoxes::new(arguments.whole("rows")? as usize, arguments.whole("columns")? as usize)?;
    // The small boards' databases (up to 3 x 3 boxes, 24 edges): every position's score in one file.
    let playable = Playable::scored(game, arguments.canonical_name()).with_board().with_book();
    Ok(Made::solvable(playable, WholeGame))
}

fn pig(arguments: &Arguments) -> Result<Made> {
    let game = Pig::new(arguments.whole("goal")?)?;
    Ok(Made::playable(Playable::with_chance(game, arguments.canonical_name()).with_board()))
}

fn hog(arguments: &Arguments) -> Result<Made> {
    let game = Hog::new(arguments.whole("goal")?, arguments.whole("dice")?)?;
    Ok(Made::playable(Playable::with_chance(game, arguments.canonical_name()).with_board()))
}

fn tic_tac_toe(arguments: &Arguments) -> Result<Made> {
    let name = arguments.canonical_name();
    let playable = Playable::win_loss(TicTacToe, name).with_packed_table().with_board().with_book();
    Ok(Made::solvable(playable, Tiered(ByKey)))
}

fn connect_four(arguments: &Arguments) -> Result<Made> {
    let (width, height) = (arguments.whole("width")?, arguments.whole("height")?);
    let game = ConnectFour::new(width, height)?;
    let name = arguments.canonical_name();
    // Connect Four ranks its tiers (column heights, then colours) and un-moves: solved over flat arrays by rank.
    let indexing = ByRank::of(&game).with_unmoves();
    let playable = Playable::win_loss(game, name).with_packed_table().with_board().with_book();
    Ok(Made::solvable(playable, Tiered(indexing)))
}

fn nim(arguments: &Arguments) -> Result<Made> {
    let heaps = NimGame { heaps: Vec::new() }
        .parse_position(&arguments.text("heaps")?.replace('-', ","))
        .map_err(|reason| Error::parameter(arguments.spec(), format!("{}: {reason}", arguments.spec())))?;
    // The heaps as the game reads them, so that equal games have equal names.
    let name = format!("nim:heaps={}", heaps.iter().map(u32::to_string).collect::<Vec<_>>().join("-"));
    Ok(Made::playable(Playable::win_loss(NimGame { heaps }, name).with_board()))
}

fn octal(arguments: &Arguments) -> Result<Made> {
    let game = OctalGame::parse(arguments.text("code")?)
        .map_err(|reason| Error::parameter(arguments.spec(), format!("{}: {reason}", arguments.spec())))?;
    // The code as the game reads it (`.77` is `0.77`).
    let code = game.code();
    Ok(match arguments.text("play")? {
        "misere" => Made::playable(Playable::misere(game, format!("octal:code={code},play=misere")).with_board()),
        _ => Made::playable(Playable::impartial(game, format!("octal:code={code},play=normal")).with_board()),
    })
}

fn dodgem(arguments: &Arguments) -> Result<Made> {
    let side = u8::try_from(arguments.whole("n")?)
        .map_err(|_| Error::parameter(arguments.spec(), format!("{}: n is from 3 to 5", arguments.spec())))?;
    let game = Dodgem::new(side)?;
    let name = arguments.canonical_name();
    // Dodgem ranks its tiers and un-moves: solved by un-moves over flat arrays by rank.
    let indexing = ByRank::of(&game).with_unmoves();
    let playable = Playable::win_loss(game, name).with_board();
    Ok(Made::solvable(playable, Tiered(indexing)))
}

fn three_mens_morris(arguments: &Arguments) -> Result<Made> {
    let name = arguments.canonical_name();
    let playable = Playable::win_loss(ThreeMensMorris, name).with_board();
    Ok(Made::solvable(playable, Tiered(ByKey)))
}

fn quixo(arguments: &Arguments) -> Result<Made> {
    let size = u8::try_from(arguments.whole("size")?)
        .map_err(|_| Error::parameter(arguments.spec(), format!("{}: size is from 3 to 5", arguments.spec())))?;
    let game = Quixo::new(size)?;
    let name = arguments.canonical_name();
    // Quixo ranks its tiers and un-moves: solved by un-moves over flat arrays by rank.
    let indexing = ByRank::of(&game).with_unmoves();
    let playable = Playable::win_loss(game, name).with_board();
    Ok(Made::solvable(playable, Tiered(indexing)))
}

fn teeko(arguments: &Arguments) -> Result<Made> {
    let name = arguments.canonical_name();
    let game = Teeko::new();
    let indexing = ByRank::of(&game).with_unmoves();
    let playable = Playable::win_loss(game, name).with_board();
    Ok(Made::solvable(playable, Tiered(indexing)))
}
