//! The scored engines against independent references on random game graphs: alpha-beta (every table, both
//! drivers, with and without hints) against plain minimax on graphs whose movers are random (extra turns);
//! expectimax against exact rational expectations computed by plain recursion; value iteration against a
//! linear system solved by Gaussian elimination on loopy chance graphs; and every budget.

#![allow(clippy::unwrap_used)]

mod common;

use common::mix;
use ludus_framework::engines::alpha_beta::ScoreSearch;
use ludus_framework::engines::scored::{Expectimax, ScoredAlphaBeta, ScoredLazySmp, ScoredMinimax, ValueIteration};
use ludus_framework::engines::{Mode, Statistics, Stop};
use ludus_framework::scored::{Chance, Deterministic, Player, ScoredGame, SCORE_LIMIT};
use ludus_framework::table::{mib, KeyedTable, PackedTable, UnboundedTable};
use ludus_framework::Canonicalize;
use ludus_framework::Engine;
use ludus_framework::Rules;
use ludus_framework::SearchHints;
use ludus_framework::{Budget, Error};

/// A random graph of `nodes` nodes: node `i`'s children are later nodes (so it never loops, unless `loops`);
/// its mover is random (so a player often moves twice); a node without children is a leaf with a random score
/// in `-20..=20`; with `chance`, some inner nodes are chance nodes with weights 1..5.
#[derive(Clone, Copy)]
struct RandomGraph {
    seed: u64,
    nodes: u64,
    chance: bool,
    /// Hints: a true score range from `reference`, and a random move order.
    hinted: bool,
}

impl RandomGraph {
    fn draw(&self, node: u64, salt: u64) -> u64 {
        mix(self.seed ^ mix(node.wrapping_mul(0x9e37_79b9) ^ salt))
    }

    fn children(&self, node: u64) -> Vec<u64> {
        if node + 1 >= self.nodes || self.draw(node, 1).is_multiple_of(5) {
            return Vec::new();
        }
        let count = 1 + self.draw(node, 2) % 4;
        let mut children: Vec<u64> =
            (0..count).map(|index| node + 1 + self.draw(node, 10 + index) % (self.nodes - node - 1).min(12)).collect();
        children.dedup();
        children
    }

    fn is_chance_node(&self, node: u64) -> bool {
        self.chance && self.draw(node, 3).is_multiple_of(3)
    }
}

impl Rules for RandomGraph {
    type Position = u64;
    type Move = u64;
    type Outcome = i32;

    fn outcome(&self, node: &u64) -> Option<i32> {
        self.children(*node).is_empty().then(|| (self.draw(*node, 5) % 41) as i32 - 20)
    }

    fn moves(&self, node: &u64, moves: &mut Vec<u64>) {
        moves.extend(self.children(*node));
    }

    fn play(&self, _node: &u64, child: &u64) -> u64 {
        *child
    }

    fn turn_passes(&self, from: &Self::Position, to: &Self::Position) -> bool {
        self.mover(from) != self.mover(to)
    }
}

impl ScoredGame for RandomGraph {}

impl RandomGraph {
    /// The player to move (the one whose view every score of the position takes).
    pub fn mover(&self, node: &u64) -> Player {
        if self.draw(*node, 4).is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }
}

impl Deterministic for RandomGraph {}

impl Canonicalize for RandomGraph {
    type Key = u64;

    fn canonical(&self, node: &u64) -> u64 {
        *node
    }
}

impl SearchHints for RandomGraph {
    fn value_range(&self, node: &u64) -> (i32, i32) {
        if !self.hinted {
            return (-SCORE_LIMIT, SCORE_LIMIT);
        }
        if self.chance {
            // Every score lies in -20..=20: Star1's bounds.
            return (-20, 20);
        }
        // A true range, one wider than the value on a random side (or exact).
        let value = minimax(self, *node);
        match self.draw(*node, 6) % 4 {
            0 => (value, value),
            1 => (value - 1, value + 3),
            2 => (-20, 20),
            _ => (value - 5, value),
        }
    }

    fn estimate(&self, node: &u64) -> Option<i32> {
        // A guess as poor as can be (any score of the scale), or the true value: the driver must be right
        // either way.
        let guess = if self.draw(*node, 9).is_multiple_of(3) {
            minimax(self, *node)
        } else {
            (self.draw(*node, 11) % 41) as i32 - 20
        };
        (self.hinted && !self.chance).then_some(guess)
    }

    fn move_score(&self, node: &u64, child: &u64) -> i32 {
        if self.hinted {
            (self.draw(*node ^ *child, 7) % 100) as i32
        } else {
            0
        }
    }
}

impl Chance for RandomGraph {
    fn is_chance(&self, node: &u64) -> bool {
        self.is_chance_node(*node)
    }

    fn outcomes(&self, node: &u64, outcomes: &mut Vec<(u64, u64)>) {
        outcomes.extend(self.children(*node).into_iter().map(|child| (child, 1 + self.draw(child ^ *node, 8) % 5)));
    }
}

/// The minimax value of a node by plain recursion (the graphs are small).
fn minimax(game: &RandomGraph, node: u64) -> i32 {
    if let Some(score) = game.outcome(&node) {
        return score;
    }
    game.children(node).iter().map(|&child| game.score_seen_from(&node, &child, minimax(game, child))).max().unwrap()
}

#[test]
fn alpha_beta_agrees_with_plain_minimax_on_random_graphs_with_extra_turns() {
    let mut extra_turns = 0;
    for seed in 0..60 {
        for hinted in [false, true] {
            let game = RandomGraph { seed, nodes: 60, chance: false, hinted };
            let mut keyed = ScoredAlphaBeta::new(Mode::Exact);
            let mut packed = ScoredAlphaBeta::with_table(Mode::Exact, PackedTable::with_budget(mib(1)).unwrap());
            let mut full = ScoredAlphaBeta::with_table(Mode::Exact, UnboundedTable::default())
                .with_score_search(ScoreSearch::FullWindow);
            let mut tiny = ScoredAlphaBeta::with_table(Mode::Exact, KeyedTable::new(64));
            let mut signs = ScoredAlphaBeta::new(Mode::Outcome);
            // A first guess cut short (its estimate aims the tests), and none at all.
            let mut shallow = ScoredAlphaBeta::new(Mode::Exact).with_guess_budget(4);
            let mut unguessed = ScoredAlphaBeta::new(Mode::Exact).with_guess_budget(0);
            for node in (0..game.nodes).rev() {
                let reference = ScoredMinimax::new().search(&game, &node).unwrap();
                assert_eq!(reference, minimax(&game, node));
                for engine in [
                    &mut keyed as &mut dyn Engine<RandomGraph, Value = i32, Failure = ludus_framework::Error>,
                    &mut packed,
                    &mut full,
                    &mut tiny,
                    &mut shallow,
                    &mut unguessed,
                ] {
                    assert_eq!(engine.search(&game, &node).unwrap(), reference, "seed {seed} node {node}");
                }
                assert_eq!(signs.search(&game, &node).unwrap(), reference.signum());
                for threshold in [reference - 1, reference, reference + 1] {
                    assert_eq!(keyed.at_least(&game, &node, threshold, u64::MAX).unwrap(), reference >= threshold);
                }
                extra_turns +=
                    game.children(node).iter().filter(|child| game.mover(child) == game.mover(&node)).count();
            }
        }
    }
    assert!(extra_turns > 1000, "the graphs have extra turns");
}

/// The table's bounds are where a search starts: a position already solved is answered again without a search,
/// and engines that keep their tables from position to position (an analysis: a position, then each move's)
/// still give minimax's scores and signs, on one thread and on two.
#[test]
fn a_search_starts_from_the_bounds_its_table_holds() {
    let (mut searched, mut free) = (0, 0);
    for seed in 0..30 {
        let game = RandomGraph { seed, nodes: 60, chance: false, hinted: true };
        // A first guess of a few positions: an estimate aims the tests, whose score is then stored at the root.
        let mut shallow = ScoredAlphaBeta::new(Mode::Exact).with_guess_budget(4);
        let mut two = ScoredLazySmp::with_table(Mode::Exact, 2, PackedTable::with_budget(mib(1)).unwrap()).unwrap();
        let mut signs = ScoredLazySmp::with_table(Mode::Outcome, 2, PackedTable::with_budget(mib(1)).unwrap()).unwrap();
        for node in 0..game.nodes {
            let reference = minimax(&game, node);
            assert_eq!(shallow.search(&game, &node).unwrap(), reference, "seed {seed} node {node}");
            let visited = shallow.stats().visited;
            assert_eq!(shallow.search(&game, &node).unwrap(), reference, "seed {seed} node {node}, again");
            if game.outcome(&node).is_none() {
                searched += 1;
                free += usize::from(shallow.stats().visited == visited);
            }
            assert_eq!(two.search(&game, &node).unwrap(), reference, "seed {seed} node {node}, two threads");
            assert_eq!(signs.search(&game, &node).unwrap(), reference.signum(), "seed {seed} node {node}, signs");
        }
    }
    // Only a score the guess found exact is not stored (its second search guesses again).
    assert!(free * 3 >= searched * 2, "{free} of {searched} positions answered again without a search");
}

/// An exact fraction, for expectations computed without rounding.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Fraction {
    numerator: i128,
    denominator: i128,
}

impl Fraction {
    fn whole(value: i32) -> Fraction {
        Fraction { numerator: i128::from(value), denominator: 1 }
    }

    fn reduced(numerator: i128, denominator: i128) -> Fraction {
        let (mut a, mut b) = (numerator.abs(), denominator);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        let divisor = a.max(1);
        Fraction { numerator: numerator / divisor, denominator: denominator / divisor }
    }

    fn value(self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }

    fn neg(self) -> Fraction {
        Fraction { numerator: -self.numerator, ..self }
    }

    fn greater(self, other: Fraction) -> bool {
        self.numerator * other.denominator > other.numerator * self.denominator
    }
}

/// The expectimax value of a node by plain recursion over every outcome, in exact fractions.
fn expectation(game: &RandomGraph, node: u64) -> Fraction {
    if let Some(score) = game.outcome(&node) {
        return Fraction::whole(score);
    }
    let seen = |child: u64| {
        let value = expectation(game, child);
        if game.mover(&child) == game.mover(&node) {
            value
        } else {
            value.neg()
        }
    };
    if game.is_chance(&node) {
        let mut outcomes = Vec::new();
        game.outcomes(&node, &mut outcomes);
        let total: u64 = outcomes.iter().map(|(_, weight)| weight).sum();
        let (mut numerator, mut denominator) = (0i128, 1i128);
        for (child, weight) in outcomes {
            let value = seen(child);
            // numerator/denominator + weight * value / total
            let term_denominator = value.denominator * i128::from(total);
            numerator = numerator * term_denominator + i128::from(weight) * value.numerator * denominator;
            denominator *= term_denominator;
            let reduced = Fraction::reduced(numerator, denominator);
            (numerator, denominator) = (reduced.numerator, reduced.denominator);
        }
        Fraction::reduced(numerator, denominator)
    } else {
        game.children(node)
            .into_iter()
            .map(seen)
            .reduce(|best, value| if value.greater(best) { value } else { best })
            .unwrap()
    }
}

#[test]
fn expectimax_agrees_with_exact_expectations_on_random_chance_graphs() {
    let (mut chance_nodes, mut pruned, mut unpruned) = (0, 0, 0);
    for seed in 0..60 {
        for hinted in [false, true] {
            let game = RandomGraph { seed, nodes: 40, chance: true, hinted };
            let mut engine = Expectimax::default();
            for node in (0..game.nodes).rev() {
                let exact = expectation(&game, node);
                let found = engine.try_value(&game, &node).unwrap();
                assert!(found.error < 1e-12);
                assert!(
                    (found.value - exact.value()).abs() <= found.error.max(1e-15) * 4.0,
                    "seed {seed} node {node}: {found:?} {exact:?}"
                );
                chance_nodes += usize::from(game.is_chance(&node) && !game.is_over(&node));
            }
            // From the root alone, with bounds Star1 expands fewer positions.
            let mut fresh = Expectimax::default();
            fresh.try_value(&game, &0).unwrap();
            let visited = fresh.stats().visited;
            if hinted {
                pruned += visited;
            } else {
                unpruned += visited;
            }
        }
    }
    assert!(chance_nodes > 300);
    assert!(pruned < unpruned, "Star1 pruned nothing: {pruned} against {unpruned}");
}

/// A loopy chance game on `nodes` nodes: every inner node is a chance node with 2 or 3 outcomes, some of them
/// earlier nodes (so positions repeat); leaves score in -20..=20; the mover alternates on some edges.
struct RandomChain {
    seed: u64,
    nodes: u64,
}

impl RandomChain {
    fn draw(&self, node: u64, salt: u64) -> u64 {
        mix(self.seed ^ mix(node.wrapping_mul(0x51_7cc1) ^ salt))
    }

    fn is_leaf(&self, node: u64) -> bool {
        node % 4 == 3
    }

    fn children(&self, node: u64) -> Vec<(u64, u64)> {
        (0..2 + self.draw(node, 1) % 2)
            .map(|index| (self.draw(node, 2 + index) % self.nodes, 1 + self.draw(node, 9 + index) % 4))
            .collect()
    }
}

impl Rules for RandomChain {
    type Position = (u64, bool);
    type Move = (u64, bool);
    type Outcome = i32;
    const POSITIONS_REPEAT: bool = true;

    fn outcome(&self, position: &(u64, bool)) -> Option<i32> {
        self.is_leaf(position.0).then(|| (self.draw(position.0, 7) % 41) as i32 - 20)
    }

    fn moves(&self, position: &(u64, bool), moves: &mut Vec<(u64, bool)>) {
        let mut outcomes = Vec::new();
        self.outcomes(position, &mut outcomes);
        moves.extend(outcomes.into_iter().map(|(mv, _)| mv));
    }

    fn play(&self, _position: &(u64, bool), mv: &(u64, bool)) -> (u64, bool) {
        *mv
    }

    fn turn_passes(&self, from: &Self::Position, to: &Self::Position) -> bool {
        self.mover(from) != self.mover(to)
    }
}

impl ScoredGame for RandomChain {}

impl RandomChain {
    /// The player to move (the one whose view every score of the position takes).
    pub fn mover(&self, position: &(u64, bool)) -> Player {
        if position.1 {
            Player::First
        } else {
            Player::Second
        }
    }
}

impl Canonicalize for RandomChain {
    type Key = (u64, bool);

    fn canonical(&self, position: &(u64, bool)) -> (u64, bool) {
        *position
    }
}

impl Chance for RandomChain {
    fn is_chance(&self, _position: &(u64, bool)) -> bool {
        true
    }

    fn outcomes(&self, position: &(u64, bool), outcomes: &mut Vec<((u64, bool), u64)>) {
        let flip = |child: u64| self.draw(position.0 ^ child, 20).is_multiple_of(2);
        outcomes.extend(
            self.children(position.0).into_iter().map(|(child, weight)| ((child, position.1 ^ flip(child)), weight)),
        );
    }
}

/// The values of every (node, mover) of a chain by Gaussian elimination: `v = A v + b`, solved as `(I - A) v = b`.
fn solve_linear(game: &RandomChain) -> Vec<f64> {
    let size = (2 * game.nodes) as usize;
    let place = |(node, first): (u64, bool)| (2 * node) as usize + usize::from(first);
    let mut matrix = vec![vec![0.0; size + 1]; size];
    for node in 0..game.nodes {
        for first in [false, true] {
            let row = place((node, first));
            matrix[row][row] = 1.0;
            if let Some(score) = game.outcome(&(node, first)) {
                matrix[row][size] = f64::from(score);
                continue;
            }
            let mut outcomes = Vec::new();
            game.outcomes(&(node, first), &mut outcomes);
            let total: u64 = outcomes.iter().map(|(_, weight)| weight).sum();
            for (child, weight) in outcomes {
                let sign = if child.1 == first { 1.0 } else { -1.0 };
                matrix[row][place(child)] -= sign * weight as f64 / total as f64;
            }
        }
    }
    for column in 0..size {
        let pivot =
            (column..size).max_by(|&a, &b| matrix[a][column].abs().total_cmp(&matrix[b][column].abs())).unwrap();
        matrix.swap(column, pivot);
        for row in 0..size {
            if row != column {
                let factor = matrix[row][column] / matrix[column][column];
                let pivot_row = matrix[column].clone();
                for (entry, pivot) in matrix[row].iter_mut().zip(&pivot_row).skip(column) {
                    *entry -= factor * pivot;
                }
            }
        }
    }
    (0..size).map(|row| matrix[row][size] / matrix[row][row]).collect()
}

#[test]
fn value_iteration_agrees_with_a_linear_system_on_loopy_chance_graphs() {
    for seed in 0..30 {
        let game = RandomChain { seed, nodes: 24 };
        let exact = solve_linear(&game);
        let solved = ValueIteration { tolerance: 1e-13, ..ValueIteration::default() }.solve(&game, &(0, true)).unwrap();
        assert!(solved.converged && solved.residual < 1e-13);
        assert!(
            solved.history.windows(2).skip(5).all(|pair| pair[1] <= pair[0] * 1.0001 + 1e-15),
            "the changes shrink"
        );
        for node in 0..game.nodes {
            for first in [false, true] {
                if let Some(value) = solved.value(&game, &(node, first)) {
                    let expected = exact[(2 * node) as usize + usize::from(first)];
                    assert!((value - expected).abs() < 1e-9, "seed {seed} ({node}, {first}): {value} {expected}");
                }
            }
        }
    }
}

#[test]
fn every_scored_engine_keeps_to_its_budget() {
    let game = RandomGraph { seed: 3, nodes: 200, chance: false, hinted: false };
    let reference = ScoredMinimax::new().search(&game, &0).unwrap();
    let mut tiny = ScoredAlphaBeta::new(Mode::Exact).with_budget(3);
    assert!(matches!(tiny.try_value(&game, &0), Err(Error::Budget(Budget::Positions(3)))));
    assert!(matches!(tiny.search_within(&game, &0, 2), Err(Stop::Budget)));
    assert_eq!(ScoredAlphaBeta::new(Mode::Exact).with_budget(1 << 40).try_value(&game, &0).unwrap(), reference);
    assert!(matches!(
        ScoredMinimax::new().with_budget(3).try_value(&game, &0),
        Err(Error::Budget(Budget::Positions(3)))
    ));
    let chance = RandomGraph { chance: true, ..game };
    assert!(matches!(
        Expectimax::default().with_budget(2).try_value(&chance, &0),
        Err(Error::Budget(Budget::Positions(2)))
    ));
    assert!(matches!(Expectimax::new(64).try_value(&chance, &0), Err(Error::Budget(Budget::TableBytes(64)))));
    let chain = RandomChain { seed: 1, nodes: 40 };
    let refused = ValueIteration { max_positions: 5, ..ValueIteration::default() }.solve(&chain, &(0, true));
    assert!(matches!(refused, Err(Error::Budget(Budget::Positions(5)))));
    let capped = ValueIteration { max_sweeps: 2, tolerance: 0.0, ..ValueIteration::default() }
        .solve(&chain, &(0, true))
        .unwrap();
    assert!(!capped.converged && capped.sweeps == 2);
}
