//! Differential tests of the alpha-beta engine: on random positions of small games (random game graphs with
//! transpositions, draws and dead ends; tic-tac-toe with its 8 symmetries; a subtraction game) it agrees
//! exactly, remoteness included, with memoized negamax in exact mode, and on outcomes in outcome mode.

mod common;

use common::mix;
use ludus_framework::engines::alpha_beta::{AlphaBeta, LazySmp, ScoreSearch};
use ludus_framework::engines::negamax::{MemoNegamax, PlainNegamax};
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::hints::{NoHints, SearchHints, Shortcut};
use ludus_framework::plugin::seeded_rng;
use ludus_framework::table::{KeyedTable, ShardedTable, UnboundedTable};
use ludus_framework::Rules;
use ludus_framework::{Canonicalize, Game, Value};
use ludus_framework::{Statistics, TableEngine};
use rand::Rng;

/// A random game graph: positions are `(level, index)`; a position of level `l > 0` has moves to positions of
/// levels below `l` (so the graph is acyclic and full of transpositions), chosen by a hash of the seed. Some
/// positions end the game (lost or drawn for the player to move) and some have no moves (lost by the
/// normal-play rule).
struct RandomGraph {
    seed: u64,
    width: u32,
}

impl RandomGraph {
    fn hash(&self, level: u32, index: u32, salt: u64) -> u64 {
        mix(self.seed ^ mix(u64::from(level) << 32 | u64::from(index)) ^ mix(salt))
    }
}

impl Rules for RandomGraph {
    type Position = (u32, u32);
    type Move = (u32, u32);
    type Outcome = Value;

    fn moves(&self, &(level, index): &(u32, u32), moves: &mut Vec<(u32, u32)>) {
        if level == 0 {
            return;
        }
        let count = self.hash(level, index, 1) % 7;
        for slot in 0..count {
            let below = self.hash(level, index, 10 + slot);
            let target_level =
                level.saturating_sub(1 + u32::from(below.is_multiple_of(4)) + u32::from(below.is_multiple_of(16)));
            let target = ((below >> 8) % u64::from(self.width)) as u32;
            if !moves.contains(&(target_level, target)) {
                moves.push((target_level, target));
            }
        }
    }

    fn play(&self, _position: &(u32, u32), mv: &(u32, u32)) -> (u32, u32) {
        *mv
    }

    fn outcome(&self, &(level, index): &(u32, u32)) -> Option<Value> {
        match self.hash(level, index, 2) % 16 {
            0 => Some(Value::LOST),
            1 => Some(Value::Draw),
            _ if level == 0 => {
                Some(if self.hash(level, index, 3).is_multiple_of(2) { Value::LOST } else { Value::Draw })
            }
            _ => None,
        }
    }
}

impl Game for RandomGraph {}

impl Canonicalize for RandomGraph {
    type Key = (u32, u32);

    fn canonical(&self, position: &(u32, u32)) -> (u32, u32) {
        *position
    }
}

/// An arbitrary move order (a hash of the move): any order must leave every value unchanged.
impl SearchHints for RandomGraph {
    fn move_score(&self, _position: &(u32, u32), &(level, index): &(u32, u32)) -> i32 {
        (self.hash(level, index, 4) % 5) as i32
    }
}

/// Tic-tac-toe, canonicalized under the 8 symmetries of the board (written here: the framework knows no game).
struct TicTacToe;

const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

fn transform(mask: u16, symmetry: usize) -> u16 {
    (0..9u16)
        .filter(|cell| mask & (1 << cell) != 0)
        .map(|cell| {
            let (row, column) = (cell / 3, cell % 3);
            let (row, column) = match symmetry {
                0 => (row, column),
                1 => (column, 2 - row),
                2 => (2 - row, 2 - column),
                3 => (2 - column, row),
                4 => (row, 2 - column),
                5 => (2 - row, column),
                6 => (column, row),
                _ => (2 - column, 2 - row),
            };
            1 << (row * 3 + column)
        })
        .fold(0, |acc, bit| acc | bit)
}

impl Rules for TicTacToe {
    /// (cells of the player to move, cells of the other player)
    type Position = (u16, u16);
    type Move = u16;
    type Outcome = Value;

    fn moves(&self, &(mine, theirs): &(u16, u16), moves: &mut Vec<u16>) {
        moves.extend((0..9).filter(|cell| (mine | theirs) & (1 << cell) == 0));
    }

    fn play(&self, &(mine, theirs): &(u16, u16), cell: &u16) -> (u16, u16) {
        (theirs, mine | 1 << cell)
    }

    fn outcome(&self, &(mine, theirs): &(u16, u16)) -> Option<Value> {
        if LINES.iter().any(|&line| line & !theirs == 0) {
            Some(Value::LOST)
        } else if mine | theirs == 0o777 {
            Some(Value::Draw)
        } else {
            None
        }
    }
}

impl Game for TicTacToe {}

impl Canonicalize for TicTacToe {
    type Key = (u16, u16);

    fn canonical(&self, &(mine, theirs): &(u16, u16)) -> (u16, u16) {
        (0..8).map(|symmetry| (transform(mine, symmetry), transform(theirs, symmetry))).min().unwrap_or((mine, theirs))
    }
}

/// The cells that would complete a line of `stones`, given all `taken` cells.
fn winning_cells(stones: u16, taken: u16) -> u16 {
    LINES
        .iter()
        .filter(|&&line| (line & stones).count_ones() == 2 && line & taken & !stones == 0)
        .fold(0, |cells, &line| cells | (line & !stones))
        & !taken
        & 0o777
}

/// Every kind of hint: a win at once wins in 1; two threats of the opponent lose in 2; one threat must be
/// parried; past those, nobody wins within two moves; centre, then corners, then edges.
impl SearchHints for TicTacToe {
    fn shortcut(&self, &(mine, theirs): &(u16, u16)) -> Option<Shortcut> {
        let taken = mine | theirs;
        if winning_cells(mine, taken) != 0 {
            return Some(Shortcut::Exact(Value::Win(1)));
        }
        (winning_cells(theirs, taken).count_ones() >= 2).then_some(Shortcut::Exact(Value::Lose(2)))
    }

    fn value_range(&self, _position: &(u16, u16)) -> (Value, Value) {
        (Value::Lose(4), Value::Win(3))
    }

    fn prune_moves(&self, &(mine, theirs): &(u16, u16), moves: &mut Vec<u16>) {
        let threats = winning_cells(theirs, mine | theirs);
        if threats != 0 {
            moves.retain(|&cell| threats & (1 << cell) != 0);
        }
    }

    fn move_score(&self, _position: &(u16, u16), &cell: &u16) -> i32 {
        match cell {
            4 => 2,
            0 | 2 | 6 | 8 => 1,
            _ => 0,
        }
    }
}

/// Random positions reachable in `game` from `start`, by random playouts stopped at a random ply.
fn random_positions<Ruleset: Game>(
    game: &Ruleset,
    start: &Ruleset::Position,
    count: usize,
    seed: u64,
) -> Vec<Ruleset::Position> {
    let mut rng = seeded_rng(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut position = start.clone();
        let stop = rng.gen_range(0..9);
        for _ in 0..stop {
            let moves = game.legal_moves(&position);
            if game.is_over(&position) || moves.is_empty() {
                break;
            }
            position = game.play(&position, &moves[rng.gen_range(0..moves.len())]);
        }
        positions.push(position);
    }
    positions
}

#[test]
fn agrees_exactly_with_memoized_negamax_on_random_game_graphs() {
    let mut compared = 0;
    let mut decisive = 0;
    for seed in 0..200 {
        let game = RandomGraph { seed, width: 8 };
        let mut memo = MemoNegamax::new(Mode::Exact);
        let mut alpha_beta = AlphaBeta::new(Mode::Exact);
        let mut bare = AlphaBeta::new(Mode::Exact);
        let mut tiny = AlphaBeta::with_table(Mode::Exact, KeyedTable::new(1024));
        let mut full_window =
            AlphaBeta::with_table(Mode::Exact, UnboundedTable::new()).with_score_search(ScoreSearch::FullWindow);
        for level in (0..20).rev() {
            for index in 0..8 {
                let position = (level, index);
                let expected = memo.value(&NoHints(&game), &position);
                assert_eq!(alpha_beta.value(&game, &position), expected, "seed {seed}, position {position:?}");
                assert_eq!(bare.value(&NoHints(&game), &position), expected, "seed {seed} (no hints)");
                assert_eq!(tiny.value(&game, &position), expected, "seed {seed} (1 KiB table)");
                assert_eq!(full_window.value(&game, &position), expected, "seed {seed} (full window)");
                compared += 1;
                decisive += usize::from(expected.remoteness().is_some_and(|r| r >= 3));
            }
        }
    }
    assert_eq!(compared, 200 * 20 * 8);
    // The graphs are not trivial: many values are decided several moves away.
    assert!(decisive > compared / 10, "only {decisive} of {compared} values are decided 3 or more moves away");
}

#[test]
fn a_fresh_engine_per_position_agrees_too() {
    // Without a warm table every search starts from the root window, which exercises other cut-offs.
    let game = RandomGraph { seed: 77, width: 9 };
    let mut memo = MemoNegamax::new(Mode::Exact);
    for level in 0..16 {
        for index in 0..9 {
            let position = (level, index);
            let mut alpha_beta = AlphaBeta::new(Mode::Exact);
            assert_eq!(alpha_beta.value(&game, &position), memo.value(&game, &position), "{position:?}");
        }
    }
}

#[test]
fn outcome_mode_finds_the_right_outcome() {
    for seed in 0..100 {
        let game = RandomGraph { seed: 1000 + seed, width: 6 };
        let mut memo = MemoNegamax::new(Mode::Exact);
        let mut weak = AlphaBeta::new(Mode::Outcome);
        for level in 0..14 {
            for index in 0..6 {
                let exact = memo.value(&game, &(level, index));
                let found = weak.value(&game, &(level, index));
                assert_eq!(found.outcome(), exact.outcome(), "seed {seed}, position {:?}", (level, index));
                // The remoteness is a bound: a win is no slower than claimed, a loss no later than claimed.
                match (found, exact) {
                    (Value::Win(bound), Value::Win(remoteness)) => assert!(remoteness <= bound),
                    (Value::Lose(bound), Value::Lose(remoteness)) => assert!(remoteness <= bound),
                    _ => {}
                }
            }
        }
    }
}

#[test]
fn tic_tac_toe_is_a_draw_and_every_position_agrees_with_both_negamax_engines() {
    let game = TicTacToe;
    let mut alpha_beta = AlphaBeta::new(Mode::Exact);
    let mut bare = AlphaBeta::new(Mode::Exact);
    assert_eq!(alpha_beta.value(&game, &(0, 0)), Value::Draw);
    assert_eq!(bare.value(&NoHints(&game), &(0, 0)), Value::Draw);
    let mut memo = MemoNegamax::new(Mode::Exact);
    let mut hinted_memo = MemoNegamax::new(Mode::Exact);
    let mut lazy = LazySmp::with_table(Mode::Exact, 2, ShardedTable::new(1 << 20)).unwrap();
    let mut weak = AlphaBeta::new(Mode::Outcome);
    let mut plain = PlainNegamax::new(Mode::Exact);
    let mut fresh_total = 0;
    for position in random_positions(&game, &(0, 0), 600, 5) {
        let expected = memo.value(&NoHints(&game), &position);
        assert_eq!(alpha_beta.value(&game, &position), expected, "{position:?}");
        assert_eq!(bare.value(&NoHints(&game), &position), expected, "{position:?}");
        assert_eq!(hinted_memo.value(&game, &position), expected, "{position:?}");
        assert_eq!(lazy.value(&game, &position), expected, "{position:?}");
        assert_eq!(weak.value(&game, &position).outcome(), expected.outcome(), "{position:?}");
        if (position.0 | position.1).count_ones() >= 3 {
            assert_eq!(plain.value(&NoHints(&game), &position), expected, "{position:?}");
            assert_eq!(plain.value(&game, &position), expected, "{position:?}");
        }
        let mut fresh = AlphaBeta::new(Mode::Exact);
        assert_eq!(fresh.value(&game, &position), expected);
        fresh_total += fresh.stats().visited;
    }
    assert!(fresh_total > 0);
    // X opens in a corner, O answers on an edge next to it: X wins (a known trap), in 5 more plies at best.
    let position = game.play(&game.play(&(0, 0), &0), &1);
    assert_eq!(AlphaBeta::new(Mode::Exact).value(&game, &position), Value::Win(5));
}

#[test]
fn alpha_beta_prunes_where_memoized_negamax_cannot() {
    // Exact mode: memoized negamax expands every reachable canonical position; alpha-beta visits fewer.
    let game = TicTacToe;
    let mut memo = MemoNegamax::new(Mode::Exact);
    let mut alpha_beta = AlphaBeta::new(Mode::Exact);
    assert_eq!(memo.value(&game, &(0, 0)), alpha_beta.value(&game, &(0, 0)));
    let (memo_stats, alpha_beta_stats) = (memo.stats(), alpha_beta.stats());
    assert!(alpha_beta_stats.visited < memo_stats.visited, "{alpha_beta_stats} vs {memo_stats}");
    assert!(alpha_beta_stats.table_entries > 0 && alpha_beta_stats.hits > 0, "{alpha_beta_stats}");
    // Every exact entry the table proved is the value memoized negamax finds for that key.
    let mut proven = 0;
    for position in random_positions(&game, &(0, 0), 300, 9) {
        let key = game.canonical(&position);
        if let Some(found) = alpha_beta.lookup(&key) {
            assert_eq!(found, memo.value(&game, &position), "{key:?}");
            proven += 1;
        }
    }
    assert!(proven > 0);
}

/// Remove 1, 3 or 4 counters; whoever cannot move loses (no outcome: the normal-play rule decides).
struct Subtraction;

impl Rules for Subtraction {
    type Position = u32;
    type Move = u32;
    type Outcome = Value;
    fn moves(&self, counters: &u32, moves: &mut Vec<u32>) {
        moves.extend([1, 3, 4].into_iter().filter(|take| take <= counters));
    }
    fn play(&self, counters: &u32, take: &u32) -> u32 {
        counters - take
    }
    fn outcome(&self, _counters: &u32) -> Option<Value> {
        None
    }
}

impl Game for Subtraction {}

impl SearchHints for Subtraction {}

impl Canonicalize for Subtraction {
    type Key = u32;
    fn canonical(&self, counters: &u32) -> u32 {
        *counters
    }
}

#[test]
fn normal_play_losses_and_long_remoteness_agree() {
    let mut memo = MemoNegamax::new(Mode::Exact);
    let mut alpha_beta = AlphaBeta::new(Mode::Exact);
    for counters in (0..300).rev() {
        let expected = memo.value(&Subtraction, &counters);
        assert_eq!(alpha_beta.value(&Subtraction, &counters), expected, "{counters}");
        assert_eq!(expected.is_loss(), counters % 7 == 0 || counters % 7 == 2, "{counters}");
    }
    assert_eq!(alpha_beta.value(&Subtraction, &0), Value::LOST);
}
