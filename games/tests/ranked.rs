//! Dodgem's ranking (the combinatorial number system of `dodgem/rank.rs`) and the solve by rank. On every
//! reachable position of Dodgem 3 x 3 and 4 x 4 a key's rank is within its tier's size, distinct keys get
//! distinct ranks, and unrank inverts rank; every rank of these tiers is a key (the numbering is tight). Random
//! keys and ranks, on every board size, give `None` or a consistent answer, never a panic. The solve by rank
//! gives the hashed solve's values on every position, and its counts, statistics and reached tiers on every
//! tier; a rank space beyond `u32` range (6 x 6) or beyond the budget (5 x 5) is an error, before any array.

use hashbrown::{HashMap, HashSet};
use ludus_framework::engines::retrograde::{ByRank, Rank, RetrogradeSolver, TierSpec, Tiers};
use ludus_framework::plugin::seeded_rng;
use ludus_framework::Rules;
use ludus_framework::{Budget, Canonicalize, Error, FromKey};
use ludus_games::dodgem::{Cars, Dodgem};
use rand::Rng;

/// Every Dodgem position reachable from the start, one per key.
fn reachable(game: &Dodgem) -> Vec<Cars> {
    let start = game.start();
    let mut seen: HashSet<u128> = [game.canonical(&start)].into_iter().collect();
    let mut stack = vec![start];
    let mut positions = Vec::new();
    while let Some(cars) = stack.pop() {
        if !game.is_over(&cars) {
            for drive in game.legal_moves(&cars) {
                let next = game.play(&cars, &drive);
                if seen.insert(game.canonical(&next)) {
                    stack.push(next);
                }
            }
        }
        positions.push(cars);
    }
    positions
}

#[test]
fn dodgem_ranks_number_each_tier_one_to_one() {
    for size in [3, 4] {
        let game = Dodgem::new(size).unwrap();
        let mut by_tier: HashMap<(u8, u8), Vec<u128>> = HashMap::new();
        for cars in reachable(&game) {
            by_tier.entry(game.tier(&cars)).or_default().push(game.canonical(&cars));
        }
        for (tier, keys) in &by_tier {
            let tier_size = game.tier_size(tier);
            let mut ranks = HashSet::new();
            for key in keys {
                let rank = game.rank(tier, key).unwrap_or_else(|| panic!("{size}: {key:x} has no rank in {tier:?}"));
                assert!(rank < tier_size, "{size}: rank {rank} of {key:x} in {tier:?} of size {tier_size}");
                assert!(ranks.insert(rank), "{size}: two keys of {tier:?} share rank {rank}");
                assert_eq!(game.unrank(tier, rank), Some(*key), "{size}: rank {rank} of {tier:?}");
            }
            // Tight: every rank is a key of a position of the tier (reachable or not).
            for rank in 0..tier_size {
                let key = game.unrank(tier, rank).unwrap_or_else(|| panic!("{size}: rank {rank} of {tier:?}"));
                assert_eq!(game.rank(tier, &key), Some(rank), "{size}: key {key:x} of {tier:?}");
                let cars = game.position_of_key(&key).unwrap();
                assert_eq!(game.tier(&cars), *tier, "{size}: key {key:x}");
            }
            assert_eq!(game.unrank(tier, tier_size), None);
            eprintln!("Dodgem {size} x {size}, tier {tier:?}: {} reachable keys of {tier_size} ranks", keys.len());
        }
    }
}

#[test]
fn random_keys_and_ranks_give_none_or_a_consistent_answer() {
    let mut rng = seeded_rng(12);
    for size in Dodgem::SIZES {
        let game = Dodgem::new(size).unwrap();
        let cells = u32::from(size) * u32::from(size);
        let board = u64::MAX >> (64 - cells);
        let mut tiers: Vec<(u8, u8)> = (0..size).flat_map(|more| (0..=more).map(move |fewer| (more, fewer))).collect();
        // Pairs that are no tier: more cars than a side has, or fewer first.
        tiers.extend([(size, 0), (1, 2), (9, 9), (u8::MAX, u8::MAX)]);
        for tier in &tiers {
            let tier_size = game.tier_size(tier);
            for round in 0..2_000 {
                let key = match round % 3 {
                    0 => rng.gen::<u128>(),
                    1 => u128::from(rng.gen::<u64>() & board) | u128::from(rng.gen::<u64>() & board) << 64,
                    // Sparse keys on the board: a few cars a side, sometimes overlapping.
                    _ => (0..rng.gen_range(0..8))
                        .fold(0u128, |key, _| key | 1 << (rng.gen_range(0..cells) + 64 * rng.gen_range(0..2))),
                };
                if let Some(rank) = game.rank(tier, &key) {
                    assert!(rank < tier_size, "{size}: {key:x} in {tier:?}");
                    assert_eq!(game.unrank(tier, rank), Some(key), "{size}: {key:x} in {tier:?}");
                }
                let rank = match round % 2 {
                    0 => rng.gen_range(0..tier_size.saturating_mul(2).max(1)),
                    _ => rng.gen::<u64>(),
                };
                if let Some(key) = game.unrank(tier, rank) {
                    assert_eq!(game.rank(tier, &key), Some(rank), "{size}: rank {rank} of {tier:?}");
                }
            }
            assert_eq!(game.unrank(tier, u64::MAX), None);
        }
    }
}

#[test]
fn dodgem_solved_by_rank_matches_the_hashed_solve() {
    for size in [3, 4] {
        let game = Dodgem::new(size).unwrap();
        let start = game.start();
        let hashed = RetrogradeSolver::new().solve_tiers(&game, &start, TierSpec::new()).unwrap();
        let ranked =
            RetrogradeSolver::new().solve_tiers(&game, &start, TierSpec::new().indexed(ByRank::of(&game))).unwrap();
        let mut hooked = Vec::new();
        RetrogradeSolver::new()
            .solve_tiers(
                &game,
                &start,
                TierSpec::new().indexed(ByRank::of(&game)).parents_from_game().on_tier(|solved| {
                    hooked.push(solved);
                    Ok(())
                }),
            )
            .unwrap();
        let by_unmoves = RetrogradeSolver::new()
            .solve_tiers(&game, &start, TierSpec::new().indexed(ByRank::of(&game).with_unmoves()))
            .unwrap();
        assert_eq!(ranked.tiers.len(), hashed.tiers.len());
        assert_eq!(ranked.len(), hashed.len());
        assert_eq!(by_unmoves.tiers.len(), hashed.tiers.len());
        for (unmoved, plain) in by_unmoves.tiers.iter().zip(&hashed.tiers) {
            assert_eq!((unmoved.tier(), unmoved.len(), unmoved.counts()), (plain.tier(), plain.len(), plain.counts()));
            assert_eq!(unmoved.reached(), plain.reached(), "{:?}", plain.tier());
            let mut listed: Vec<_> = unmoved.iter().collect();
            let mut expected: Vec<_> = plain.iter().collect();
            listed.sort_unstable_by_key(|&(key, _)| key);
            expected.sort_unstable_by_key(|&(key, _)| key);
            assert_eq!(listed, expected, "{:?}", plain.tier());
        }
        for ((dense, with_parents), plain) in ranked.tiers.iter().zip(&hooked).zip(&hashed.tiers) {
            assert!(dense.is_ranked() && with_parents.is_ranked() && !plain.is_ranked());
            assert_eq!((dense.tier(), with_parents.tier()), (plain.tier(), plain.tier()));
            assert_eq!((dense.len(), dense.counts()), (plain.len(), plain.counts()), "{:?}", plain.tier());
            assert_eq!(with_parents.counts(), plain.counts(), "{:?}", plain.tier());
            assert_eq!((dense.reached(), dense.statistics()), (plain.reached(), plain.statistics()));
            let mut listed: Vec<_> = dense.iter().collect();
            let mut expected: Vec<_> = plain.iter().collect();
            listed.sort_unstable_by_key(|&(key, _)| key);
            expected.sort_unstable_by_key(|&(key, _)| key);
            assert_eq!(listed, expected, "{:?}", plain.tier());
        }
        for cars in reachable(&game) {
            let expected = hashed.value(&game, &cars);
            assert!(expected.is_some(), "{cars:?}");
            assert_eq!(ranked.value(&game, &cars), expected, "{cars:?}");
            let tier = game.tier(&cars);
            let with_parents = hooked.iter().find(|solved| *solved.tier() == tier).unwrap();
            assert_eq!(with_parents.value(&game, &cars), expected, "{cars:?}");
        }
    }
}

#[test]
fn rank_spaces_beyond_u32_or_the_budget_are_refused() {
    // 6 x 6: the start's tier, five cars a side, has C(36, 5) * C(31, 5) keys, about 64 billion.
    let game = Dodgem::new(6).unwrap();
    let refused = RetrogradeSolver::new().solve_tiers(
        &game,
        &game.start(),
        TierSpec::new().indexed(ByRank::of(&game)).on_tier(|_| Ok(())),
    );
    assert!(matches!(refused, Err(Error::Limit { ref what, .. }) if what.contains("rank space")), "{refused:?}");
    // 5 x 5: the start's tier has 75.7 million ranks, 9.5 million positions of the budget.
    let game = Dodgem::new(5).unwrap();
    let refused = RetrogradeSolver::new().with_budget(1_000_000).solve_tiers(
        &game,
        &game.start(),
        TierSpec::new().indexed(ByRank::of(&game)).on_tier(|_| Ok(())),
    );
    assert!(matches!(refused, Err(Error::Budget(Budget::Positions(1_000_000)))), "{refused:?}");
}
