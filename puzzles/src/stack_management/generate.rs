//! Random inputs in the official format.
//!
//! - [`Preset::Small`]: N in 2..=4 (or `size`), C in 2..=5, about N suits (N - 1 to N + 1) and values up to
//!   13, so that both outcomes are frequent and the generic search finishes at once.
//! - [`Preset::Official`]: T = 100 cases of the large set with N x C = 100,000 cards each, drawn from a few
//!   pools of premade stacks (P stays below 60,000 and the file near 2.5 MB): 1,000 stacks of 100 cards
//!   over 999 suits (won when a case uses the whole pool: the longest winning lines), and 10 stacks of 10,000
//!   cards over 10 suits (random: mostly no empty stack after the removals), and a planted [`chain`] of 10
//!   stacks of 6,000 cards (won along a path of 9 suits). A quarter of the cases use part of a pool.
//!   `size` fixes N (then C = 100,000 / N) with one pool of N - 1 suits.

use super::format::{MAX_CASES, MAX_CASE_CARDS, MAX_LABEL, MAX_SIDE};
use super::Card;
use ludus_framework::plugin::{seeded_rng, GenOptions, Preset, SeededRng};
use ludus_framework::{Error, Result};
use rand::seq::SliceRandom;
use rand::Rng;
use std::fmt::Write;

/// A random input for `options`.
pub(crate) fn generate(options: &GenOptions, seed: u64) -> Result<String> {
    let mut rng = seeded_rng(seed);
    if let Some(size) = options.size {
        if size < 2 {
            return Err(Error::parameter(
                "size",
                format!("the size (N, stacks per case) must be at least 2, not {size}"),
            ));
        }
        if size > MAX_SIDE {
            return Err(Error::limit("the size (N, stacks per case)", size as u64, MAX_SIDE as u64));
        }
    }
    let default_cases = match options.preset {
        Preset::Small => 10,
        Preset::Official => MAX_CASES as usize,
    };
    let cases = options.case_count(default_cases, MAX_CASES as usize)?;
    let mut premade: Vec<Vec<Card>> = Vec::new();
    let mut chosen: Vec<Vec<usize>> = Vec::new();
    match options.preset {
        Preset::Small => {
            for _ in 0..cases {
                let stacks = options.size.unwrap_or_else(|| rng.gen_range(2..=4));
                let depth = rng.gen_range(2..=5);
                let offset = [0, 1, 1, 1, 2][rng.gen_range(0..5)];
                let suits = (stacks + offset - 1).clamp(1, stacks * depth);
                let cards = deal(&mut rng, stacks, depth, suits, 13);
                let first = premade.len();
                premade.extend(cards);
                let mut indexes: Vec<usize> = (first..first + stacks).collect();
                indexes.shuffle(&mut rng);
                chosen.push(indexes);
            }
        }
        Preset::Official => {
            let shapes: Vec<(usize, usize)> = match options.size {
                Some(stacks) => vec![(stacks, (MAX_CASE_CARDS / stacks).clamp(2, MAX_SIDE))],
                None => vec![(1_000, 100), (10, 10_000)],
            };
            let mut pools = Vec::new();
            for (pool, &(stacks, depth)) in shapes.iter().enumerate() {
                // The first pool has one suit fewer than stacks (won when used whole), the others as many.
                let suits = if pool == 0 { stacks - 1 } else { stacks };
                let first = premade.len();
                premade.extend(deal(&mut rng, stacks, depth, suits.max(1), MAX_LABEL));
                pools.push((first, stacks));
            }
            if options.size.is_none() {
                let (stacks, depth) = (10, 6_000);
                let first = premade.len();
                premade.extend(chain(&mut rng, stacks, depth));
                pools.push((first, stacks));
            }
            for case in 0..cases {
                let (first, stacks) = pools[case % pools.len()];
                let mut indexes: Vec<usize> = (first..first + stacks).collect();
                indexes.shuffle(&mut rng);
                if rng.gen_bool(0.25) {
                    indexes.truncate(rng.gen_range(2.max(stacks / 2)..=stacks));
                }
                chosen.push(indexes);
            }
        }
    }
    let mut text = String::new();
    let _ = writeln!(text, "{}", premade.len());
    for stack in &premade {
        let _ = write!(text, "{}", stack.len());
        for card in stack {
            let _ = write!(text, " {} {}", card.value, card.suit);
        }
        text.push('\n');
    }
    let _ = writeln!(text, "{}", chosen.len());
    for indexes in &chosen {
        let depth = indexes.first().and_then(|&index| premade.get(index)).map_or(0, Vec::len);
        let _ = writeln!(text, "{} {depth}", indexes.len());
        let line: Vec<String> = indexes.iter().map(usize::to_string).collect();
        let _ = writeln!(text, "{}", line.join(" "));
    }
    Ok(text)
}

/// `stacks` stacks of `depth` distinct cards over `suits` suits (each used at least once when there are
/// enough cards), values from 1 to at most `max_value` (more if needed to keep the cards distinct).
fn deal(rng: &mut SeededRng, stacks: usize, depth: usize, suits: usize, max_value: u32) -> Vec<Vec<Card>> {
    let total = stacks * depth;
    // Enough suits that no suit needs more than half of the possible values.
    let suits = suits.max(total.div_ceil(MAX_LABEL as usize / 2)).min(total.max(1));
    let labels: Vec<u32> = {
        let spread = (suits as u32 * 2).clamp(suits as u32, MAX_LABEL);
        let mut pool: Vec<u32> = (1..=spread).collect();
        pool.shuffle(rng);
        pool.truncate(suits);
        pool
    };
    // Suits of the cards: each suit once, then random.
    let mut suit_of: Vec<usize> =
        (0..total).map(|index| if index < suits { index } else { rng.gen_range(0..suits) }).collect();
    suit_of.shuffle(rng);
    let mut per_suit = vec![0usize; suits];
    for &suit in &suit_of {
        per_suit[suit] += 1;
    }
    // Distinct values per suit.
    let values_per_suit: Vec<Vec<u32>> = per_suit
        .iter()
        .map(|&count| {
            let small = rng.gen_range(2..=max_value.max(2));
            let range = (small as usize).max(count).min(MAX_LABEL as usize);
            rand::seq::index::sample(rng, range, count.min(range)).into_iter().map(|value| value as u32 + 1).collect()
        })
        .collect();
    let mut next = vec![0usize; suits];
    let cards: Vec<Card> = suit_of
        .iter()
        .map(|&suit| {
            let value = values_per_suit[suit].get(next[suit]).copied().unwrap_or(1);
            next[suit] += 1;
            Card { value, suit: labels[suit] }
        })
        .collect();
    cards.chunks(depth.max(1)).map(<[Card]>::to_vec).collect()
}

/// A planted S = N table won only along a long path of the suit graph: path suits s_0..s_{L-1} (L = `stacks` - 1,
/// at least 3) and a suit t. Top first, stack i < L - 1 holds `depth` - 2 low cards of t, the king of s_{i+1} and
/// the ace of s_i (s_0 has no other card: the source); stack L - 1 holds low cards of s_1, the ace of t and the
/// ace of s_{L-1} (the target); the last stack holds low cards of s_{L-1}. Stack 0's cards of t are the lowest, so
/// the removals uncover the king of s_1, then the ace of t, every king, and empty the last stack.
fn chain(rng: &mut SeededRng, stacks: usize, depth: usize) -> Vec<Vec<Card>> {
    let path = stacks.saturating_sub(1).max(3);
    let fillers = depth.saturating_sub(2);
    let mut labels: Vec<u32> = (1..=MAX_LABEL).collect();
    labels.shuffle(rng);
    let (path_suits, target_suit) = (&labels[..path], labels[path]);
    let (ace, king) = (MAX_LABEL, MAX_LABEL - 1);
    let card = |value: u32, suit: u32| Card { value, suit };
    let mut table = Vec::with_capacity(path + 1);
    let mut next_low = 1u32;
    for index in 0..path - 1 {
        let mut stack: Vec<Card> = (0..fillers).map(|offset| card(next_low + offset as u32, target_suit)).collect();
        next_low += fillers as u32;
        stack.shuffle(rng);
        stack.push(card(king, path_suits[index + 1]));
        stack.push(card(ace, path_suits[index]));
        table.push(stack);
    }
    let mut target: Vec<Card> = (1..=fillers as u32).map(|value| card(value, path_suits[1])).collect();
    target.shuffle(rng);
    target.push(card(ace, target_suit));
    target.push(card(ace, path_suits[path - 1]));
    table.push(target);
    table.push((1..=depth as u32).map(|value| card(value, path_suits[path - 1])).collect());
    table
}

/// An input in the shape of the official small set: `cases` cases of N = 4 stacks of C = 9 cards drawn from the
/// 13 values of 3 or 4 suits (each case uses its own 4 premade stacks). For tests and benches beyond
/// [`Preset::Small`].
pub fn official_small_set(cases: usize, seed: u64) -> String {
    let mut rng = seeded_rng(seed);
    let mut premade = String::new();
    let mut listed = String::new();
    for case in 0..cases {
        let suits = if rng.gen_bool(0.5) { 3 } else { 4 };
        let mut deck: Vec<(u32, u32)> = (1..=13).flat_map(|value| (1..=suits).map(move |suit| (value, suit))).collect();
        deck.shuffle(&mut rng);
        for stack in deck[..36].chunks(9) {
            premade.push('9');
            for (value, suit) in stack {
                let _ = write!(premade, " {value} {suit}");
            }
            premade.push('\n');
        }
        let first = 4 * case;
        let _ = writeln!(listed, "4 9\n{} {} {} {}", first, first + 1, first + 2, first + 3);
    }
    format!("{}\n{premade}{cases}\n{listed}", 4 * cases)
}
