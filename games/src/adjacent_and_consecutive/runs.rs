//! [`RunsEngine`], the exact engine of the `fast` solver: memoized search over the analysis's compressed state
//! space, without boards. It uses no closed form, only the game's rules and the observations the module
//! [`super::game`] documents (dead tiles are walls; a quiet board is two multisets of run lengths).
//!
//! At A's turn on a quiet board (no pair, no live tile) the state is the multisets of run lengths of empty cells
//! and of unused numbers (a `Side`: counts per length, no allocation), equal under swapping the two. A plays a
//! number at some distance from the nearer end of its run into a cell likewise; the number's two neighbouring
//! runs and the cell's are then known by length, and so is what B can do:
//!
//! - if the new tile is dead (its number run or its cell run had length 1), B must leave A a quiet board, so B's
//!   tile or B's cell comes from a run of length 1 (else B's tile is live); nothing can make a pair, since
//!   every placed tile is dead;
//! - if it is live, B must kill it: use its only unused neighbouring number (placed anywhere but next to it:
//!   that would be a pair), or fill its only empty neighbouring cell (with any number but its neighbours), and
//!   B's own tile must be dead afterwards.
//!
//! Every other B move leaves A a pair or a live tile, which A wins. A board that is not quiet (B to move, live
//! tiles, runs of 64 or more) is judged by the shortcuts, one ply of B's quiet placements
//! (`game::quiet_b_moves`), or, beyond what a `Side` holds, by the [`ExactEngine`].

use super::board::Board;
use super::game::{a_shortcut_win, quiet_b_moves, FastGame};
use super::mistakes::ExactEngine;
use hashbrown::HashMap;
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::{Engine, Mode, Stop};
use ludus_framework::{Statistics, Stats, Value};
use std::convert::Infallible;

/// Runs longer than this do not fit a [`Side`] (then the board goes to the [`ExactEngine`]). Quiet boards of
/// N <= 94 never have one: one side has only runs of 1 and 2, so K <= (2N + 2) / 3 < 64.
const LONGEST: usize = 63;

/// The most entries the table keeps from one search to the next: past this the next search starts with an empty
/// table (values are searched again, so they stay exact), which bounds its memory at about 17 MB (131,072 slots
/// of a 128-byte key) plus what one search adds (the quiet board of N = 60 with all cell runs of 2 and one run of
/// 40 numbers, K = 40 being the most for N = 60, reaches 7,700 keys). The 100 swinging games of
/// N = 50 of the benchmarks need about 4,000.
const MAX_ENTRIES: usize = 100_000;

/// One side of a quiet board: `counts[length]` runs of each length (index 0 unused).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Side([u8; LONGEST + 1]);

impl Side {
    /// The side with these run lengths, if every run fits and no count overflows.
    fn of(lengths: &[u32]) -> Option<Side> {
        let mut side = Side([0; LONGEST + 1]);
        for &length in lengths {
            let count = side.0.get_mut(length as usize)?;
            *count = count.checked_add(1)?;
        }
        Some(side)
    }

    fn count(&self, length: u32) -> u32 {
        self.0.get(length as usize).map_or(0, |&count| u32::from(count))
    }

    /// Whether a run of 3 or more is left (with one on the other side too, A wins in two moves).
    fn has_long(&self) -> bool {
        self.0.iter().skip(3).any(|&count| count > 0)
    }

    /// The lengths that have runs, increasing.
    fn lengths(&self) -> impl Iterator<Item = u32> + '_ {
        (1..=LONGEST as u32).filter(|&length| self.count(length) > 0)
    }

    /// The side after the element at `offset` of a run of `length` is used (the run splits in two).
    fn split(mut self, length: u32, offset: u32) -> Side {
        for (change, by) in [(length, u8::MAX), (offset, 1), (length - 1 - offset, 1)] {
            if change > 0 {
                if let Some(count) = self.0.get_mut(change as usize) {
                    *count = count.wrapping_add(by);
                }
            }
        }
        self
    }

    /// How many elements are at `offset` from the nearer end of a run of `length` (2 per run, 1 in the middle).
    fn class_size(&self, length: u32, offset: u32) -> u32 {
        self.count(length) * if 2 * offset + 1 == length { 1 } else { 2 }
    }
}

/// The classes of positions of a side: (run length, distance to the nearer end).
fn classes(side: &Side) -> impl Iterator<Item = (u32, u32)> + '_ {
    side.lengths().flat_map(|length| (0..length.div_ceil(2)).map(move |offset| (length, offset)))
}

/// The memoized exact search over quiet boards at A's turn; see the module documentation.
pub struct RunsEngine {
    /// Whether A wins, per (smaller side, larger side); hashbrown's default hasher is several times cheaper than
    /// the standard one on these 128-byte keys.
    table: HashMap<(Side, Side), bool>,
    /// Boards that do not fit a [`Side`].
    fallback: ExactEngine,
    stats: Stats,
    budget: u64,
    /// Positions expanded by the current search, and its limit.
    spent: u64,
    limit: u64,
}

impl Default for RunsEngine {
    fn default() -> Self {
        RunsEngine::new()
    }
}

/// The search ran out of its budget.
struct OutOfBudget;

type Searched<T> = std::result::Result<T, OutOfBudget>;

impl RunsEngine {
    /// An engine with an empty table and no budget.
    pub fn new() -> Self {
        RunsEngine {
            table: HashMap::new(),
            fallback: MemoNegamax::new(Mode::Outcome),
            stats: Stats::default(),
            budget: u64::MAX,
            spent: 0,
            limit: u64::MAX,
        }
    }

    /// The same engine giving up ([`Engine::try_value`]) when one search would expand more than `positions`
    /// positions.
    #[must_use]
    pub fn with_budget(self, positions: u64) -> Self {
        RunsEngine { budget: positions, fallback: self.fallback.with_budget(positions), ..self }
    }

    /// Counts one expanded position against the budget.
    fn expand(&mut self) -> Searched<()> {
        if self.spent >= self.limit {
            return Err(OutOfBudget);
        }
        self.spent += 1;
        self.stats.visited += 1;
        Ok(())
    }

    /// Whether A wins a quiet board at A's turn with these sides and `remaining` turns.
    fn a_wins(&mut self, cells: Side, tiles: Side, remaining: u32) -> Searched<bool> {
        if remaining == 0 {
            return Ok(false);
        }
        if cells.has_long() && tiles.has_long() {
            return Ok(true);
        }
        let key = if cells <= tiles { (cells, tiles) } else { (tiles, cells) };
        if let Some(&wins) = self.table.get(&key) {
            self.stats.hits += 1;
            return Ok(wins);
        }
        self.expand()?;
        let mut wins = false;
        'search: for (tile_run, tile_offset) in classes(&tiles) {
            for (cell_run, cell_offset) in classes(&cells) {
                let after = (cells.split(cell_run, cell_offset), tiles.split(tile_run, tile_offset));
                let escapes = if tile_run >= 2 && cell_run >= 2 {
                    let cell_sides = (cell_offset, cell_run - 1 - cell_offset);
                    let tile_sides = (tile_offset, tile_run - 1 - tile_offset);
                    self.b_kills(after, remaining - 1, cell_sides, tile_sides)?
                } else {
                    self.b_escapes_quietly(after, remaining - 1)?
                };
                if !escapes {
                    wins = true;
                    break 'search;
                }
            }
        }
        self.table.insert(key, wins);
        Ok(wins)
    }

    /// Whether B, to move on a quiet board (all tiles dead), leaves A a losing board.
    fn b_escapes_quietly(&mut self, (cells, tiles): (Side, Side), remaining: u32) -> Searched<bool> {
        if remaining == 0 {
            return Ok(true);
        }
        for (tile_run, tile_offset) in classes(&tiles) {
            for (cell_run, cell_offset) in classes(&cells) {
                // A tile from a longer run into a longer cell run would be live.
                if (tile_run == 1 || cell_run == 1)
                    && !self.a_wins(
                        cells.split(cell_run, cell_offset),
                        tiles.split(tile_run, tile_offset),
                        remaining - 1,
                    )?
                {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Whether B, to move with one live tile (the runs beside its cell `cell_sides` and beside its number
    /// `tile_sides`, 0 for none), kills it and leaves A a losing board.
    fn b_kills(
        &mut self,
        (cells, tiles): (Side, Side),
        remaining: u32,
        cell_sides: (u32, u32),
        tile_sides: (u32, u32),
    ) -> Searched<bool> {
        // Elements of class (length, 0) that sit right beside the live tile.
        let beside = |(left, right): (u32, u32), length: u32, offset: u32| {
            u32::from(offset == 0 && left == length) + u32::from(offset == 0 && right == length)
        };
        let open = |(left, right): (u32, u32)| u32::from(left > 0) + u32::from(right > 0);
        if open(tile_sides) == 1 {
            // B uses the only neighbouring number, at the end of its run, in a cell not beside the live tile.
            let run = tile_sides.0.max(tile_sides.1);
            let tiles_after = tiles.split(run, 0);
            for (cell_run, offset) in classes(&cells) {
                let free = cells.class_size(cell_run, offset) > beside(cell_sides, cell_run, offset);
                if (run == 1 || cell_run == 1)
                    && free
                    && !self.a_wins(cells.split(cell_run, offset), tiles_after, remaining - 1)?
                {
                    return Ok(true);
                }
            }
        }
        if open(cell_sides) == 1 {
            // B fills the only neighbouring cell with a number that is not beside the live tile's.
            let run = cell_sides.0.max(cell_sides.1);
            let cells_after = cells.split(run, 0);
            for (tile_run, offset) in classes(&tiles) {
                let free = tiles.class_size(tile_run, offset) > beside(tile_sides, tile_run, offset);
                if (run == 1 || tile_run == 1)
                    && free
                    && !self.a_wins(cells_after, tiles.split(tile_run, offset), remaining - 1)?
                {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// The sides of a board, if they fit.
    fn sides(board: &Board) -> Option<(Side, Side)> {
        Some((Side::of(&board.run_lengths(true))?, Side::of(&board.run_lengths(false))?))
    }

    /// Whether A wins `board` (either side to move); `None` if the board needs the fallback engine.
    fn board_a_wins(&mut self, board: &Board) -> Option<Searched<bool>> {
        if board.is_full() || board.has_pair() {
            return Some(Ok(board.has_pair()));
        }
        if board.a_to_move() {
            if a_shortcut_win(board) {
                return Some(Ok(true));
            }
            let (cells, tiles) = Self::sides(board)?;
            return Some(self.a_wins(cells, tiles, board.remaining()));
        }
        // B to move: B wins iff a quiet placement (one per class) leaves A a losing board.
        let mut moves = Vec::new();
        quiet_b_moves(board, &board.live_tiles(), &mut moves);
        if let Err(out) = self.expand() {
            return Some(Err(out));
        }
        for placement in moves {
            let (cells, tiles) = Self::sides(&board.with(placement))?;
            match self.a_wins(cells, tiles, board.remaining() - 1) {
                Ok(false) => return Some(Ok(false)),
                Ok(true) => {}
                Err(out) => return Some(Err(out)),
            }
        }
        Some(Ok(true))
    }
}

impl Engine<FastGame> for RunsEngine {
    type Value = Value;
    type Failure = Infallible;

    fn search_within(&mut self, game: &FastGame, board: &Board, budget: u64) -> Result<Value, Stop<Infallible>> {
        self.spent = 0;
        self.limit = budget;
        // Between searches only: clearing during one would search its positions again and again.
        if self.table.len() >= MAX_ENTRIES {
            self.table.clear();
        }
        match self.board_a_wins(board) {
            Some(Ok(a_wins)) => {
                let remaining = board.remaining();
                Ok(if a_wins == board.a_to_move() { Value::Win(remaining) } else { Value::Lose(remaining) })
            }
            Some(Err(OutOfBudget)) => Err(Stop::Budget),
            None => self.fallback.search_within(game, board, budget),
        }
    }

    fn budget(&self) -> u64 {
        self.budget
    }
}

impl Statistics for RunsEngine {
    fn stats(&self) -> Stats {
        let fallback = self.fallback.stats();
        Stats {
            visited: self.stats.visited + fallback.visited,
            table_entries: self.table.len() as u64 + fallback.table_entries,
            hits: self.stats.hits + fallback.hits,
        }
    }
}
