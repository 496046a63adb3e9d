//! Tests of the `adjacent-and-consecutive` generators: the `official` preset plays swinging games with the
//! official large set's mix of mistakes (games without a mistake, games with 3 or more by one player, long
//! swings), counted by the exact engine; the `small` preset keeps random moves, which settle a game at once.

#![allow(clippy::unwrap_used)] // tests may unwrap

use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::Mode;
use ludus_framework::plugin::{GenOptions, Preset};
use ludus_games::adjacent_and_consecutive::{count_mistakes, fast_a_wins, random_records, Mistakes};

/// The exact engine's mistakes of every game of a generated file.
fn mistakes_of(options: &GenOptions, seed: u64) -> Vec<Mistakes> {
    let mut engine = MemoNegamax::new(Mode::Outcome);
    let records = random_records(options, seed).unwrap();
    records.iter().map(|record| count_mistakes(record, |board| fast_a_wins(&mut engine, board)).unwrap()).collect()
}

/// (games without a mistake, games with 3 or more mistakes by one player, most mistakes by one player).
fn mix(mistakes: &[Mistakes]) -> (usize, usize, usize) {
    let clean = mistakes.iter().filter(|found| found.plies.is_empty()).count();
    let many = mistakes.iter().filter(|found| found.by_a.max(found.by_b) >= 3).count();
    let most = mistakes.iter().map(|found| found.by_a.max(found.by_b)).max().unwrap_or(0);
    (clean, many, most)
}

#[test]
fn the_official_preset_has_the_official_mix_of_mistakes() {
    // The official large set: 19 of 100 games without a mistake, 34 with 3 or more by one player, at most 16.
    let options = GenOptions { preset: Preset::Official, cases: None, size: None };
    let (clean, many, most) = mix(&mistakes_of(&options, 3));
    assert!((10..=30).contains(&clean), "{clean} games without a mistake");
    assert!((22..=50).contains(&many), "{many} games with 3 or more mistakes by one player");
    assert!(most >= 9, "at most {most} mistakes by one player");
}

#[test]
fn official_games_swing_back_and_forth() {
    // A mistake hands the win to the other side, so alternating mistakes are swings; a swinging game throws the
    // win back many times, and mistakes by A and B alternate.
    let options = GenOptions { preset: Preset::Official, cases: Some(20), size: Some(50) };
    let mistakes = mistakes_of(&options, 8);
    let swinging = mistakes.iter().filter(|found| found.by_a >= 4 && found.by_b >= 4).count();
    assert!(swinging >= 10, "only {swinging} of 20 games swing");
    for found in &mistakes {
        // The winner alternates: after a mistake by one side the next one is by the other.
        assert!(found.plies.windows(2).all(|pair| pair[0] % 2 != pair[1] % 2), "{:?}", found.plies);
        assert_eq!(found.by_a + found.by_b, found.plies.len());
    }
}

#[test]
fn the_small_preset_keeps_random_moves_that_settle_games_at_once() {
    let options = GenOptions { preset: Preset::Small, cases: Some(100), size: Some(30) };
    let (clean, many, _) = mix(&mistakes_of(&options, 3));
    assert!(clean >= 50, "only {clean} of 100 random games without a mistake");
    assert!(many <= 10, "{many} random games with 3 or more mistakes by one player");
}

#[test]
fn generation_is_deterministic_per_seed() {
    let options = GenOptions { preset: Preset::Official, cases: Some(5), size: None };
    assert_eq!(random_records(&options, 11).unwrap(), random_records(&options, 11).unwrap());
    assert_ne!(random_records(&options, 11).unwrap(), random_records(&options, 12).unwrap());
}
