//! The plugin's text formats: reading an input (T games, each N and its N placements `M C`) with every error
//! placed at its file, line and column; writing records back as an input; reading one answer (`A B`, the
//! mistakes of each player).

use super::board::Placement;
use ludus_framework::input::{Reader, Source};
use ludus_framework::Result;

/// The largest number of games in one input.
pub const MAX_GAMES: u64 = 10_000;
/// The largest N (tiles, cells and turns of one game) the input may have.
pub const MAX_SIZE: u64 = 100_000;

/// One recorded game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// N.
    pub size: u32,
    /// The placements, turn by turn (A plays turns 1, 3, 5...).
    pub moves: Vec<Placement>,
}

/// A parsed input: its games, and the line where each starts (for the places in error messages).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Games {
    /// The games, in order.
    pub records: Vec<Record>,
    /// The 1-based line of each game's N.
    pub lines: Vec<usize>,
}

/// Parses an input in the official format; every placement is legal (tiles and cells in range, none used twice).
pub fn parse(input: Source<'_>) -> Result<Games> {
    let mut reader = Reader::new(&input);
    let games = reader.bounded("the number of games T", 1, MAX_GAMES, "")?;
    let mut records = Vec::new();
    let mut lines = Vec::new();
    for game in 1..=games {
        reader.set_context(format!("game {game}"));
        // Skips the whitespace before N, so that the offset is N's own (its line is the game's).
        reader.at_end();
        lines.push(reader.line_column(reader.offset()).0);
        let size = reader.bounded("N, the number of tiles", 1, MAX_SIZE, "")? as u32;
        let mut tile_turn = vec![0usize; size as usize + 1];
        let mut cell_turn = vec![0usize; size as usize + 1];
        let mut moves = Vec::with_capacity(size as usize);
        for turn in 1..=size as usize {
            reader.set_context(format!("game {game}, turn {turn}"));
            let (tile, tile_offset) = reader.number_at("the tile number M", 1, size)?;
            let (cell, cell_offset) = reader.number_at("the cell number C", 1, size)?;
            for (value, offset, turns, what) in
                [(tile, tile_offset, &mut tile_turn, "tile"), (cell, cell_offset, &mut cell_turn, "cell")]
            {
                if let Some(slot) = turns.get_mut(value as usize) {
                    if *slot != 0 {
                        let message = format!("{what} {value} was already used at turn {}", *slot);
                        return Err(reader.error_at(offset, message).into());
                    }
                    *slot = turn;
                }
            }
            moves.push(Placement { tile, cell });
        }
        records.push(Record { size, moves });
    }
    reader.finish()?;
    Ok(Games { records, lines })
}

/// Writes records in the official format.
pub fn render_input(records: &[Record]) -> String {
    let mut text = format!("{}\n", records.len());
    for record in records {
        text.push_str(&format!("{}\n", record.size));
        for placement in &record.moves {
            text.push_str(&format!("{} {}\n", placement.tile, placement.cell));
        }
    }
    text
}

/// Reads a `Case #x:` body: two non-negative integers, the mistakes of A and of B.
pub fn read_counts(text: &str) -> std::result::Result<(usize, usize), String> {
    let numbers: Vec<&str> = text.split_whitespace().collect();
    match numbers.as_slice() {
        [a, b] => match (a.parse::<usize>(), b.parse::<usize>()) {
            (Ok(a), Ok(b)) => Ok((a, b)),
            _ => Err(format!(
                "expected two non-negative integers, found `{}`",
                ludus_framework::input::shorten(text.trim())
            )),
        },
        _ => Err(format!(
            "expected two integers (mistakes of A and of B), found `{}`",
            ludus_framework::input::shorten(text.trim())
        )),
    }
}
