//! The plugin's text format: an optional `size W H` line, then one position per line (`MOVES` or
//! `MOVES SCORE`), parsed with every error placed at its file, line and column.

use super::board::{Board, ConnectFour};
use ludus_framework::input::{shorten, Reader, Source};
use ludus_framework::{Error, Result};

/// The most positions one input may hold.
pub const MAX_CASES: usize = 100_000;

/// How an input line writes the empty board (no moves played).
pub const EMPTY_BOARD: &str = "-";

/// One position of an input file.
#[derive(Clone, Debug)]
pub struct Case {
    /// The moves as written.
    pub moves: String,
    /// The position they reach.
    pub board: Board,
    /// The score claimed in the input, if any.
    pub claim: Option<i32>,
    /// The 1-based line of the input it is on.
    pub line: usize,
}

/// A parsed input: the board size and the positions.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The board size.
    pub game: ConnectFour,
    /// The positions, in order.
    pub cases: Vec<Case>,
}

fn parse_number(reader: &Reader<'_>, offset: usize, text: &str, what: &str, min: i64, max: i64) -> Result<i64> {
    match text.parse::<i64>() {
        Ok(value) if (min..=max).contains(&value) => Ok(value),
        _ => Err(reader
            .error_at(offset, format!("expected {what} (an integer from {min} to {max}), found `{}`", shorten(text)))
            .into()),
    }
}

/// Parses a whole input file.
pub fn parse(input: Source<'_>) -> Result<Parsed> {
    let mut reader = Reader::new(&input);
    let mut game = ConnectFour::standard();
    let mut cases = Vec::new();
    let mut first = true;
    while !reader.at_end() {
        let line = reader.line("a line of moves")?;
        let parts: Vec<(usize, &str)> = line.fields().map(|field| (field.offset - line.offset, field.text)).collect();
        if first && parts.first().is_some_and(|(_, word)| *word == "size") {
            first = false;
            reader.set_context("the size line");
            let width_field = parts.get(1).copied();
            let height_field = parts.get(2).copied();
            let (Some((width_at, width_text)), Some((height_at, height_text))) = (width_field, height_field) else {
                return Err(reader.error_at(line.offset, "expected `size W H`".to_string()).into());
            };
            if let Some((extra_at, extra)) = parts.get(3) {
                return Err(reader
                    .error_at(
                        line.offset + extra_at,
                        format!("expected the end of the size line, found `{}`", shorten(extra)),
                    )
                    .into());
            }
            let width = parse_number(&reader, line.offset + width_at, width_text, "the width W", 1, 9)?;
            let height = parse_number(&reader, line.offset + height_at, height_text, "the height H", 1, 63)?;
            game = ConnectFour::new(u32::try_from(width).unwrap_or(0), u32::try_from(height).unwrap_or(0))
                .map_err(|error| reader.error_at(line.offset, error.to_string()))?;
            continue;
        }
        first = false;
        if cases.len() >= MAX_CASES {
            return Err(Error::limit("the number of positions in the input", cases.len() as u64 + 1, MAX_CASES as u64));
        }
        reader.set_context(format!("case {}", cases.len() + 1));
        let Some(&(moves_at, moves)) = parts.first() else {
            return Err(reader.error_at(line.offset, "expected a line of moves".to_string()).into());
        };
        // `-` stands for no moves at all: the empty board.
        let board = game
            .parse_moves(if moves == EMPTY_BOARD { "" } else { moves })
            .map_err(|illegal| reader.error_at(line.offset + moves_at + illegal.index, illegal.reason))?;
        let base = i64::from(game.score_base());
        let claim = match parts.get(1) {
            None => None,
            Some(&(score_at, score_text)) => {
                let value =
                    parse_number(&reader, line.offset + score_at, score_text, "the claimed score", -base, base)?;
                i32::try_from(value).ok()
            }
        };
        if let Some((extra_at, extra)) = parts.get(2) {
            return Err(reader
                .error_at(
                    line.offset + extra_at,
                    format!("expected the end of the line after the score, found `{}`", shorten(extra)),
                )
                .into());
        }
        cases.push(Case { moves: moves.to_string(), board, claim, line: reader.line_column(line.offset).0 });
    }
    if cases.is_empty() {
        reader.set_context("");
        return Err(reader
            .error_at(input.text.len(), "expected a line of moves, found the end of the input".to_string())
            .into());
    }
    Ok(Parsed { game, cases })
}
