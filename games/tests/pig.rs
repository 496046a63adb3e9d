//! Pig and Hog: value iteration against a hand solve of Pig to 2 and the published value of Pig to 100, and
//! its convergence; the hold rule; expectimax on Hog against an exhaustive enumeration of every sequence of
//! dice; conformance of both.

// The helpers shared by the tests unwrap too, not only the test functions.
#![allow(clippy::unwrap_used)]

use ludus_framework::conformance::GameCheck;
use ludus_framework::engines::scored::{Expectimax, ValueIteration};
use ludus_framework::playable::TextForm;
use ludus_framework::Engine;
use ludus_framework::Rules;
use ludus_games::hog::{Hog, HogState};
use ludus_games::pig::{Pig, PigMove};
use std::collections::HashMap;

/// The probability that the player to move wins, from an expected score of ±1.
fn probability(value: f64) -> f64 {
    (1.0 + value) / 2.0
}

/// Pig to 2 by hand: any face but 1 reaches the goal at once, and a 1 hands the same start to the other, so
/// the start's probability `p` for the player to move is `5/6 + (1 - p) / 6`, that is `p = 6/7`.
#[test]
fn pig_to_two_is_six_sevenths() {
    let game = Pig::new(2).unwrap();
    let solved = ValueIteration::default().solve(&game, &game.start()).unwrap();
    assert!(solved.converged);
    let found = probability(solved.value(&game, &game.start()).unwrap());
    assert!((found - 6.0 / 7.0).abs() < 1e-11, "{found}");
}

/// Neller and Presser, "Optimal Play of the Dice Game Pig" (The UMAP Journal 25(1), 2004): with optimal play
/// the first player of Pig to 100 wins with probability about 0.5306.
#[test]
fn pig_to_a_hundred_is_won_by_the_first_player_with_probability_0_5306() {
    let game = Pig::new(100).unwrap();
    let solved = ValueIteration::default().solve(&game, &game.start()).unwrap();
    assert!(solved.converged && solved.residual < 1e-12);
    let found = probability(solved.value(&game, &game.start()).unwrap());
    assert!((found - 0.5306).abs() < 5e-5, "{found}");
    // The convergence: the largest change of a sweep falls geometrically, from 1 to below the tolerance.
    let history = &solved.history;
    assert!(history[0] >= 0.5 && *history.last().unwrap() < 1e-12);
    let halvings = history.windows(20).filter(|window| window[19] > window[0] / 2.0).count();
    assert!(halvings < history.len() / 4, "every 20 sweeps at least halve the change, mostly");
    // The hold rule: at 0 to 0, hold from a turn total in the twenties (Neller and Presser's figure; the
    // "hold at 20" rule of thumb is close to it).
    let rules = game.hold_rules(&solved, 1e-9);
    let opening = rules[0][0].unwrap();
    assert!((20..=30).contains(&opening.from), "{opening:?}");
    // Near the goal, hold as soon as the goal is reached only: the rule is then `goal - i`.
    assert_eq!(rules[99][99].unwrap().from, 1);
}

#[test]
fn pig_conformance_and_text() {
    for goal in [5, 20] {
        let game = Pig::new(goal).unwrap();
        GameCheck::new(&game, game.start()).playouts(30).max_plies(100_000).with_chance().run().unwrap();
    }
    let game = Pig::new(20).unwrap();
    let state = game.parse_position("roll 4 roll 6 hold").unwrap();
    assert_eq!(game.parse_position("0 10 0 second").unwrap(), state);
    assert!(game.parse_position("roll hold").unwrap_err().to_string().contains("move 2"));
    assert!(game.parse_move(&game.start(), "hold").is_err(), "no hold at a turn total of 0");
    assert_eq!(game.parse_move(&game.play(&game.start(), &PigMove::Roll), "3").unwrap(), PigMove::Face(3));
    assert!(Pig::new(0).is_err());
}

/// Hog's values by plain recursion over every sequence of dice, each die on its own (no distribution of sums,
/// no pruning, no table but the memo of states): the probability, as an expected score of ±1, that the player to
/// move with `mine` against `theirs` wins.
fn hog_by_dice(goal: u32, most_dice: u32, mine: u32, theirs: u32, memo: &mut HashMap<(u32, u32), f64>) -> f64 {
    if let Some(&value) = memo.get(&(mine, theirs)) {
        return value;
    }
    let mut best = f64::NEG_INFINITY;
    for dice in 1..=most_dice {
        let sequences = 6u32.pow(dice);
        let mut total = 0.0;
        for sequence in 0..sequences {
            let (mut rest, mut sum, mut pig_out) = (sequence, 0, false);
            for _ in 0..dice {
                let face = rest % 6 + 1;
                rest /= 6;
                pig_out |= face == 1;
                sum += face;
            }
            let points = if pig_out { 1 } else { sum };
            total +=
                if mine + points >= goal { 1.0 } else { -hog_by_dice(goal, most_dice, theirs, mine + points, memo) };
        }
        best = best.max(total / f64::from(sequences));
    }
    memo.insert((mine, theirs), best);
    best
}

#[test]
fn hog_expectimax_agrees_with_every_sequence_of_dice() {
    for (goal, dice) in [(8, 3), (20, 4), (30, 3)] {
        let game = Hog::new(goal, dice).unwrap();
        let mut memo = HashMap::new();
        let mut engine = Expectimax::default();
        for (mine, theirs) in [(0, 0), (goal / 2, 0), (0, goal - 1), (goal - 1, goal - 1), (goal / 3, goal / 2)] {
            let state = HogState { mine: mine as u16, theirs: theirs as u16, rolling: 0, first_to_move: true };
            let expected = hog_by_dice(goal, dice, mine, theirs, &mut memo);
            let found = engine.try_value(&game, &state).unwrap();
            assert!(
                (found.value - expected).abs() < 1e-12,
                "hog {goal} {dice} at {mine}-{theirs}: {found:?} {expected}"
            );
            assert!(found.error < 1e-11);
        }
    }
}

#[test]
fn hog_conformance_and_text() {
    let game = Hog::new(30, 6).unwrap();
    GameCheck::new(&game, game.start()).playouts(30).max_plies(200).with_chance().run().unwrap();
    let state = game.parse_position("roll 2, +9").unwrap();
    assert_eq!(game.parse_position("0 9 second").unwrap(), state);
    assert!(game.parse_position("roll 7").is_err());
    assert!(game.parse_position("roll 2, +13").is_err(), "two dice score 13 never");
    assert!(Hog::new(10, 0).is_err() && Hog::new(10, 21).is_err());
}
