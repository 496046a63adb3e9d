//! Differential tests of the engines on random games: memoized vs plain vs parallel negamax (both modes),
//! the generic analyses, the one-player search's witnesses and limit, and brute-force construction.

mod common;

use common::{mix, Steps};
use ludus_framework::analysis::{self, IllegalMove};
use ludus_framework::engines::brute_force::brute_force;
use ludus_framework::engines::negamax::{MemoNegamax, PlainNegamax};
use ludus_framework::engines::one_player::OnePlayerSearch;
use ludus_framework::engines::parallel::ParallelNegamax;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::error::Budget;
use ludus_framework::plugin::with_threads;
use ludus_framework::table::KeyedTable;
use ludus_framework::Rules;
use ludus_framework::Statistics;
use ludus_framework::{Canonicalize, Enumerate, Error, Game, Puzzle, SearchHints, Value, Verify, Violation};
use std::ops::ControlFlow;

/// A random game DAG: a position is (depth, node); each node has 0..=3 moves to nodes of the next depth
/// (few nodes per depth, so transpositions are common; the first plies always branch); leaves are won, lost or
/// drawn at random, and a node without moves is lost for the player to move.
struct RandomGame {
    seed: u64,
    depth: u32,
    width: u64,
}

impl Rules for RandomGame {
    type Position = (u32, u64);
    type Move = u64;
    type Outcome = Value;

    fn moves(&self, &(depth, node): &(u32, u64), moves: &mut Vec<u64>) {
        let roll = mix(self.seed ^ u64::from(depth) << 40 ^ node);
        let count = if depth < 3 { 2 + roll % 2 } else { roll % 4 };
        for index in 0..count {
            moves.push(mix(self.seed.wrapping_add(index) ^ u64::from(depth) << 20 ^ node) % self.width);
        }
        moves.dedup();
    }

    fn play(&self, &(depth, _): &(u32, u64), next: &u64) -> (u32, u64) {
        (depth + 1, *next)
    }

    fn outcome(&self, &(depth, node): &(u32, u64)) -> Option<Value> {
        if depth < self.depth {
            return None;
        }
        Some(match mix(self.seed ^ node) % 3 {
            0 => Value::LOST,
            1 => Value::Draw,
            _ => Value::Win(0),
        })
    }
}

impl Game for RandomGame {}

/// No hints: the reference engines see the bare rules.
impl SearchHints for RandomGame {}

impl Canonicalize for RandomGame {
    type Key = (u32, u64);

    fn canonical(&self, position: &(u32, u64)) -> (u32, u64) {
        *position
    }
}

#[test]
fn memoized_plain_and_parallel_negamax_agree_on_random_games() {
    for seed in 0..200u64 {
        let game = RandomGame { seed, depth: 8, width: 6 };
        let start = (0, 0);
        let exact = PlainNegamax::new(Mode::Exact).value(&game, &start);
        let mut memo = MemoNegamax::new(Mode::Exact);
        assert_eq!(memo.value(&game, &start), exact, "seed {seed}");
        let outcome = MemoNegamax::new(Mode::Outcome).value(&game, &start);
        assert_eq!(outcome.outcome(), exact.outcome(), "seed {seed}");
        assert_eq!(PlainNegamax::new(Mode::Outcome).value(&game, &start).outcome(), exact.outcome());
        let parallel = ParallelNegamax::new(Mode::Exact, 3);
        let value = with_threads(2, || parallel.evaluate(&game, &start)).unwrap();
        assert_eq!(value, exact, "seed {seed}");
        let parallel_outcome = ParallelNegamax::new(Mode::Outcome, 3);
        let value = with_threads(2, || parallel_outcome.evaluate(&game, &start)).unwrap();
        assert_eq!(value.outcome(), exact.outcome(), "seed {seed}");
        // Tables that forget almost everything (1 KiB) cost time, never exactness.
        let tiny = ParallelNegamax::with_memory(Mode::Exact, 2, 1024);
        assert_eq!(with_threads(2, || tiny.evaluate(&game, &start)).unwrap(), exact, "seed {seed}");
        let mut tiny_memo = MemoNegamax::with_table(Mode::Exact, KeyedTable::new(1024));
        assert_eq!(tiny_memo.value(&game, &start), exact, "seed {seed}");
        // The value is the best backed-up move value; the winning-move count matches.
        let moves = analysis::move_values(&mut memo, &game, &start).unwrap();
        if let Some(best) = moves.iter().map(|m| m.value).max() {
            assert_eq!(best, exact);
        }
        let winning = moves.iter().filter(|m| m.value.is_win()).count();
        assert_eq!(analysis::count_winning_moves(&mut memo, &game, &start).unwrap(), winning);
    }
}

#[test]
fn the_table_saves_work_and_counts_hits() {
    let game = RandomGame { seed: 3, depth: 14, width: 5 };
    let mut memo = MemoNegamax::new(Mode::Exact);
    let mut plain = PlainNegamax::new(Mode::Exact);
    assert_eq!(memo.value(&game, &(0, 0)), plain.value(&game, &(0, 0)));
    let (memo_stats, plain_stats) = (memo.stats(), plain.stats());
    assert!(memo_stats.visited < plain_stats.visited, "{memo_stats} vs {plain_stats}");
    assert!(memo_stats.hits > 0);
    assert_eq!(memo_stats.table_entries, memo_stats.visited);
}

#[test]
fn mistakes_are_moves_from_a_win_into_a_win_for_the_opponent() {
    for seed in 0..100u64 {
        let game = RandomGame { seed, depth: 6, width: 4 };
        let mut memo = MemoNegamax::new(Mode::Outcome);
        // Play the first legal move each time and recount the mistakes by hand.
        let mut record = Vec::new();
        let mut position = (0, 0);
        let mut expected = 0;
        while !game.is_over(&position) {
            let moves = game.legal_moves(&position);
            let Some(first) = moves.first() else { break };
            let next = game.play(&position, first);
            if memo.value(&game, &position).is_win() && memo.value(&game, &next).is_win() {
                expected += 1;
            }
            record.push(*first);
            position = next;
        }
        let found = analysis::mistakes(&mut memo, &game, &(0, 0), &record).unwrap();
        assert_eq!(found.len(), expected, "seed {seed}");
        if let Some(&extra) = game.legal_moves(&(0, 0)).first() {
            // A move that is not legal where it is played is reported with its index.
            let bogus = [extra, 999];
            let illegal = analysis::mistakes(&mut memo, &game, &(0, 0), &bogus);
            assert!(matches!(illegal, Err(Error::IllegalMove(IllegalMove { ply: 1 }))), "{illegal:?}");
        }
    }
}

#[test]
fn one_player_search_returns_witnesses_that_replay() {
    for target in 0..60u32 {
        let game = Steps { target };
        let reachable = (0..=target / 5).any(|fives| (target - 5 * fives) % 3 == 0);
        let line = OnePlayerSearch::default().solve(&game, &0).unwrap();
        assert_eq!(line.is_some(), reachable, "target {target}");
        if let Some(line) = line {
            assert_eq!(line.iter().sum::<u32>(), target);
            assert!(line.iter().all(|step| *step == 3 || *step == 5));
        }
    }
}

#[test]
fn one_player_search_stops_at_its_limit() {
    let game = Steps { target: 1_000_001 };
    let result = OnePlayerSearch::new(100).solve(&game, &0);
    assert!(matches!(result, Err(Error::Budget(Budget::Positions(100)))), "{result:?}");
}

/// Subsets of 1..=n summing to a target (brute force finds one iff one exists).
struct SubsetSum;

impl Puzzle for SubsetSum {
    type Instance = (Vec<u32>, u32);
    type Solution = Vec<bool>;
}

impl Verify for SubsetSum {
    fn verify(&self, (items, target): &(Vec<u32>, u32), chosen: &Vec<bool>) -> Result<(), Violation> {
        if chosen.len() != items.len() {
            return Err(Violation::new("wrong length"));
        }
        let sum: u32 = items.iter().zip(chosen).filter(|(_, &take)| take).map(|(item, _)| item).sum();
        if sum == *target {
            Ok(())
        } else {
            Err(Violation::new(format!("the chosen items sum to {sum}, not {target}")))
        }
    }
}

impl Enumerate for SubsetSum {
    fn candidates(&self, (items, _): &(Vec<u32>, u32), visit: &mut dyn FnMut(&Vec<bool>) -> ControlFlow<()>) {
        for mask in 0u32..1 << items.len() {
            let chosen: Vec<bool> = (0..items.len()).map(|bit| mask >> bit & 1 == 1).collect();
            if visit(&chosen).is_break() {
                return;
            }
        }
    }
}

#[test]
fn brute_force_finds_exactly_the_solvable_instances() {
    let items = vec![3, 5, 9];
    let sums: Vec<u32> = vec![0, 3, 5, 8, 9, 12, 14, 17];
    for target in 0..20 {
        let (found, stats) = brute_force(&SubsetSum, &(items.clone(), target));
        assert_eq!(found.is_some(), sums.contains(&target), "target {target}");
        if let Some(chosen) = found {
            assert!(SubsetSum.verify(&(items.clone(), target), &chosen).is_ok());
        } else {
            assert_eq!(stats.visited, 8);
        }
    }
    assert!(SubsetSum.verify(&(items, 4), &vec![true, false, false]).is_err());
}
