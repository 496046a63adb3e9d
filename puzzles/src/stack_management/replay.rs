//! The verifier's side: replaying a winning line move by move under the rules, independently of the solvers.

use super::{Card, LineMove, Step};

/// Replays `steps` from the case's start (`cards`: N stacks of `depth` cards, top first) and checks that each
/// is legal and that the game is won at the end. The reason names the offending move and its line.
pub(crate) fn replay(cards: &[Card], stacks: usize, depth: usize, steps: &[LineMove]) -> Result<(), String> {
    // Each pile holds its cards bottom first (the top is the last).
    let mut piles: Vec<Vec<Card>> = (0..stacks)
        .map(|stack| cards.get(stack * depth..(stack + 1) * depth).unwrap_or(&[]).iter().rev().copied().collect())
        .collect();
    // The highest visible value per suit. A legal removal never takes the highest visible card of its suit
    // and a visible card is never covered again, so this only grows when a card is uncovered.
    // Indexed by suit (values start at 1, so 0 means "none visible").
    let largest = cards.iter().map(|card| card.suit as usize).max().unwrap_or(0);
    let mut highest: Vec<u32> = vec![0; largest + 1];
    let show = |highest: &mut Vec<u32>, card: Option<&Card>| {
        if let Some(card) = card {
            if let Some(best) = highest.get_mut(card.suit as usize) {
                *best = (*best).max(card.value);
            }
        }
    };
    for pile in &piles {
        show(&mut highest, pile.last());
    }
    let describe = |card: &Card| format!("value {} suit {}", card.value, card.suit);
    for (number, &LineMove { step, line }) in steps.iter().enumerate() {
        let place = || format!("move {} (line {line})", number + 1);
        match step {
            Step::Remove { stack } => {
                let pile = piles.get_mut(stack).ok_or_else(|| format!("{}: no stack {}", place(), stack + 1))?;
                let card = pile.pop().ok_or_else(|| format!("{}: stack {} is empty", place(), stack + 1))?;
                if highest.get(card.suit as usize).copied().unwrap_or(0) <= card.value {
                    return Err(format!(
                        "{}: the top card of stack {} ({}) is not below a visible card of its suit",
                        place(),
                        stack + 1,
                        describe(&card)
                    ));
                }
                show(&mut highest, pile.last());
            }
            Step::Transfer { from, to } => {
                if piles.get(to).is_none_or(|pile| !pile.is_empty()) {
                    return Err(format!("{}: stack {} is not empty", place(), to + 1));
                }
                let pile = piles.get_mut(from).ok_or_else(|| format!("{}: no stack {}", place(), from + 1))?;
                let card = pile.pop().ok_or_else(|| format!("{}: stack {} is empty", place(), from + 1))?;
                show(&mut highest, pile.last());
                if let Some(target) = piles.get_mut(to) {
                    target.push(card);
                }
            }
        }
    }
    if let Some((stack, pile)) = piles.iter().enumerate().find(|(_, pile)| pile.len() > 1) {
        return Err(format!(
            "after the last of {} moves stack {} still holds {} cards: not a win",
            steps.len(),
            stack + 1,
            pile.len()
        ));
    }
    Ok(())
}
