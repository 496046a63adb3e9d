//! Generated records for `ludus gen`, in two modes:
//!
//! - swinging (the `official` preset, N <= [`SWING_LIMIT`]): per move, a player in a winning state keeps the win
//!   with a move that wins, except that with the game's slip chance it plays a losing move instead (a mistake),
//!   when there is one; a player in a losing state has only losing moves. Players play carefully: of random
//!   candidates with the wanted value, the one that leaves the fewest live tiles (see `find_move`), else the
//!   loser would hand over a pair at once and nobody could slip again. The slip chance is drawn per game from
//!   [`SLIPS`]: perfect games and games where the win is thrown back and forth, mixed like the official large
//!   set (BENCHMARKS.md compares the two);
//! - random (the `small` preset, at any `--size`: `--preset small --size 50` is the random-move counterpart of
//!   the official size; also `official` games above [`SWING_LIMIT`], whose moves cost too much to judge one by
//!   one): random moves, with per game a chance of careful ("quiet") moves that leave no pair and no live tile.
//!
//! The swinging mode judges moves by the closed form ([`closed_form::a_wins`]); the answers of a generated file
//! are still computed and checked by the solvers, so a wrong judgement would only skew the mix of mistakes.

use super::board::{Board, Placement, Run};
use super::closed_form;
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
/// Largest N of a swinging game (the `fast` solver's limit): each move weighs [`SAMPLED_CANDIDATES`] candidates
/// at O(N) or more each, about 0.1 s per game of N = 60 and seconds per game of N = 200; beyond this the
/// `official` preset falls back to random moves.
pub const SWING_LIMIT: u32 = 60;
/// Random candidates a player weighs per move (the best of them is played); only if none has the wanted value
/// is every legal move tried, in a shuffled order.
const SAMPLED_CANDIDATES: usize = 160;
/// The slip chances of swinging games, one drawn per game: one game in six is played without slips, the others
/// throw the win back on most or all of their chances. Tuned so that generated files have the official large
/// set's mix of mistakes (BENCHMARKS.md).
pub const SLIPS: [f64; 6] = [0.0, 0.7, 1.0, 1.0, 1.0, 1.0];

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

/// A move of `board` after which `closed_form::a_wins` is `want` (`None`: any value), if there is one. Players
/// play carefully: of [`SAMPLED_CANDIDATES`] random candidates with that value, the one that leaves the fewest
/// live tiles, then the least length in long runs; if no candidate has that value, the first legal move that
/// has it, in a shuffled order, preferring quiet ones.
fn find_move(
    board: &Board,
    tiles: &[u32],
    cells: &[u32],
    want: Option<bool>,
    rng: &mut SeededRng,
) -> Option<Placement> {
    let fits = |placement: Placement| want.is_none_or(|want| closed_form::a_wins(&board.with(placement)) == want);
    // Careful play: fewest live tiles after the move (a pair is worst), then the least length in runs of 3 or
    // more on the side that has less of it, so that "can win in two" soon goes and the game stays open.
    let loudness = |placement: Placement| {
        let after = board.with(placement);
        if after.has_pair() {
            return (usize::MAX, u32::MAX);
        }
        let long = |runs: Vec<Run>| runs.iter().filter(|run| run.length >= 3).map(|run| run.length).sum::<u32>();
        (after.live_tiles().len(), long(after.cell_runs()).min(long(after.tile_runs())))
    };
    let mut best: Option<((usize, u32), Placement)> = None;
    for _ in 0..SAMPLED_CANDIDATES {
        let placement =
            Placement { tile: tiles[rng.gen_range(0..tiles.len())], cell: cells[rng.gen_range(0..cells.len())] };
        let loud = loudness(placement);
        if best.is_none_or(|(least, _)| loud < least) && fits(placement) {
            best = Some((loud, placement));
        }
    }
    if best.is_some() || want.is_none() {
        return best.map(|(_, placement)| placement);
    }
    let live = board.live_tiles();
    let mut order: Vec<Placement> =
        tiles.iter().flat_map(|&tile| cells.iter().map(move |&cell| Placement { tile, cell })).collect();
    order.shuffle(rng);
    let quiet_fit = order.iter().copied().find(|&placement| game::is_quiet(board, &live, placement) && fits(placement));
    quiet_fit.or_else(|| order.into_iter().find(|&placement| fits(placement)))
}

/// A swinging record of `size` turns: see the module documentation; `slip` is the chance that a player in a
/// winning state plays a losing move when there is one.
fn swinging_record(size: u32, slip: f64, rng: &mut SeededRng) -> Record {
    let mut tiles: Vec<u32> = (1..=size).collect();
    let mut cells: Vec<u32> = (1..=size).collect();
    let mut board = Board::new(size);
    let mut moves = Vec::with_capacity(size as usize);
    let mut a_wins = closed_form::a_wins(&board);
    while !tiles.is_empty() {
        let mover_wins = a_wins == board.a_to_move();
        // Once a pair is down A has won for good: nobody can slip any more.
        let chosen = if mover_wins && !board.has_pair() {
            // The mover keeps the win (A wins after the move iff the mover is A), or slips.
            let keep = a_wins;
            let slipped = if rng.gen_bool(slip) { find_move(&board, &tiles, &cells, Some(!keep), rng) } else { None };
            slipped.or_else(|| find_move(&board, &tiles, &cells, Some(keep), rng))
        } else {
            // Every move loses (or the game is decided): a careful one, if one is found.
            find_move(&board, &tiles, &cells, None, rng)
        };
        let placement = chosen.unwrap_or_else(|| Placement {
            tile: tiles[rng.gen_range(0..tiles.len())],
            cell: cells[rng.gen_range(0..cells.len())],
        });
        tiles.retain(|&tile| tile != placement.tile);
        cells.retain(|&cell| cell != placement.cell);
        board.place(placement);
        moves.push(placement);
        a_wins = closed_form::a_wins(&board);
    }
    Record { size, moves }
}

/// Records as the plugin's `generate` makes them: per game, N from the preset (or `size`); the `official`
/// preset plays swinging games (random ones above `SWING_LIMIT`), the `small` preset random ones with a chance
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
        let record = if options.preset == Preset::Official && size <= SWING_LIMIT {
            let slip = *SLIPS.choose(&mut rng).unwrap_or(&0.0);
            swinging_record(size, slip, &mut rng)
        } else {
            let care = *[0.0, 0.5, 0.9, 1.0].choose(&mut rng).unwrap_or(&0.0);
            random_record(size, care, &mut rng)
        };
        records.push(record);
    }
    Ok(records)
}
