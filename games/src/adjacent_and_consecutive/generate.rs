//! Random records for `ludus gen`: per game, N from the preset (or `size`) and a chance of careful ("quiet")
//! moves, which make the games long and interesting.

use super::board::{Board, Placement};
use super::format::{Record, MAX_GAMES, MAX_SIZE};
use super::game;
use ludus_framework::plugin::{seeded_rng, GenOptions, Preset, SeededRng};
use ludus_framework::Result;
use rand::seq::SliceRandom;
use rand::Rng;

/// Official large set: games per input and largest N.
const OFFICIAL_GAMES: usize = 100;
const OFFICIAL_SIZE: u32 = 50;
/// Largest N of [`Preset::Small`].
const SMALL_SIZE: u32 = 8;
/// Games in a generated [`Preset::Small`] input unless `cases` says otherwise.
const SMALL_GAMES: usize = 10;
/// Largest N for which generated records may use careful ("quiet") moves, which cost O(N) each.
const QUIET_GENERATION_LIMIT: u32 = 20_000;

/// A random record of `size` turns. `care` is the chance that a move is chosen among quiet ones (moves that
/// leave no pair and no live tile), which makes the game long and interesting.
fn random_record(size: u32, care: f64, rng: &mut SeededRng) -> Record {
    let mut tiles: Vec<u32> = (1..=size).collect();
    let mut cells: Vec<u32> = (1..=size).collect();
    let mut board = Board::new(size);
    let mut moves = Vec::with_capacity(size as usize);
    let careful = care > 0.0 && size <= QUIET_GENERATION_LIMIT;
    while !tiles.is_empty() {
        let mut pick = (rng.gen_range(0..tiles.len()), rng.gen_range(0..cells.len()));
        if careful && rng.gen_bool(care) {
            let live = board.live_tiles();
            for _ in 0..32 {
                let candidate = (rng.gen_range(0..tiles.len()), rng.gen_range(0..cells.len()));
                let placement = Placement { tile: tiles[candidate.0], cell: cells[candidate.1] };
                if game::is_quiet(&board, &live, placement) {
                    pick = candidate;
                    break;
                }
            }
        }
        let placement = Placement { tile: tiles.swap_remove(pick.0), cell: cells.swap_remove(pick.1) };
        board.place(placement);
        moves.push(placement);
    }
    Record { size, moves }
}

/// Random records as the plugin's `generate` makes them: per game, N from the preset (or `size`), and a chance
/// of careful moves drawn from 0, 0.5, 0.9 and 1.
pub fn random_records(options: &GenOptions, seed: u64) -> Result<Vec<Record>> {
    let mut rng = seeded_rng(seed);
    let default = match options.preset {
        Preset::Small => SMALL_GAMES,
        Preset::Official => OFFICIAL_GAMES,
    };
    let games = options.case_count(default, MAX_GAMES as usize)?;
    options.checked_size(MAX_SIZE as usize)?;
    let mut records = Vec::with_capacity(games);
    for _ in 0..games {
        let size = match (options.size, options.preset) {
            (Some(size), _) => size as u32,
            (None, Preset::Small) => rng.gen_range(1..=SMALL_SIZE),
            (None, Preset::Official) => rng.gen_range(4..=OFFICIAL_SIZE),
        };
        let care = *[0.0, 0.5, 0.9, 1.0].choose(&mut rng).unwrap_or(&0.0);
        records.push(random_record(size, care, &mut rng));
    }
    Ok(records)
}
