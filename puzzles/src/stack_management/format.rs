//! The text formats of stack management: reading the official input (the premade stacks, then the cases, with
//! every rule of the statement checked: ranges, card counts, premade indexes, duplicate cards; errors name the
//! line and the case), and reading one case's answer (the verdict and an optional winning line).

use super::{Card, LineMove, Step};
use ludus_framework::input::{shorten, InputError, Reader, Source};
use ludus_framework::{Error, Result};

/// The official bound on the number of cases T.
pub(crate) const MAX_CASES: u64 = 100;
/// The official bound on the number of premade stacks P.
pub(crate) const MAX_PREMADE: u64 = 60_000;
/// The official bound on card values and suits (both start at 1).
pub(crate) const MAX_LABEL: u32 = 50_000;
/// The official bound on N (stacks of a case) and C (cards per stack).
pub(crate) const MAX_SIDE: usize = 50_000;
/// The official bound on N x C, the cards of one case.
pub(crate) const MAX_CASE_CARDS: usize = 100_000;
/// Our bound on the cards of all premade stacks together (protects memory; the official large file has
/// far fewer).
pub(crate) const MAX_PREMADE_CARDS: usize = 10_000_000;

/// One case as written in the input: its size and the premade stacks it uses.
#[derive(Clone, Debug)]
pub(crate) struct CaseSpec {
    /// N, the number of stacks.
    pub stacks: usize,
    /// C, the number of cards in each stack.
    pub depth: usize,
    /// The premade stacks used, in order (stack 1 of the case is `premade[0]`).
    pub premade: Vec<u32>,
    /// The 1-based line of the case's `N C`.
    pub line: usize,
    /// S, the number of distinct suits in the case (found while checking for duplicate cards).
    pub suits: usize,
}

/// A whole input file: the premade stacks (all cards in one vector) and the cases.
#[derive(Clone, Debug)]
pub struct Instance {
    cards: Vec<Card>,
    starts: Vec<usize>,
    /// The cases, in order.
    pub(crate) cases: Vec<CaseSpec>,
}

impl Instance {
    /// The cards of premade stack `index`, top card first (empty for an unknown index, which parsing rules out).
    pub(crate) fn premade(&self, index: usize) -> &[Card] {
        match (self.starts.get(index), self.starts.get(index + 1)) {
            (Some(&start), Some(&end)) => self.cards.get(start..end).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// Writes the cards of `case` into `out`: stack by stack, each top card first (N x C cards).
    pub(crate) fn fill(&self, case: &CaseSpec, out: &mut Vec<Card>) {
        out.clear();
        for &index in &case.premade {
            out.extend_from_slice(self.premade(index as usize));
        }
    }
}

/// Adds a context (`case 3`, `premade stack 7`) to an error built without one.
fn within(context: impl Fn() -> String) -> impl Fn(InputError) -> InputError {
    move |mut error| {
        if error.context.is_empty() {
            error.context = context();
        }
        error
    }
}

/// Parses and checks a whole input file.
pub(crate) fn parse(source: Source<'_>) -> Result<Instance> {
    let mut reader = Reader::new(&source);
    let lines = Reader::new(&source);
    let place = |offset: usize| format!("{} line {}", source.name, lines.line_column(offset).0);
    let premade_count = reader.bounded("the number of premade stacks P", 1, MAX_PREMADE, "")? as usize;
    let mut cards: Vec<Card> = Vec::new();
    let mut starts = Vec::with_capacity(premade_count + 1);
    starts.push(0);
    for index in 0..premade_count {
        let context = || format!("premade stack {index}");
        let (count, offset) =
            reader.number_at::<usize>("the number of cards C_i", 1, MAX_SIDE).map_err(within(context))?;
        if cards.len() + count > MAX_PREMADE_CARDS {
            return Err(Error::limit(
                format!("the number of cards in premade stacks 0 to {index} ({})", place(offset)),
                (cards.len() + count) as u64,
                MAX_PREMADE_CARDS as u64,
            ));
        }
        cards.reserve(count);
        for _ in 0..count {
            let (value, _) = reader.number_at::<u32>("a card value", 1, MAX_LABEL).map_err(within(context))?;
            let (suit, _) = reader.number_at::<u32>("a card suit", 1, MAX_LABEL).map_err(within(context))?;
            cards.push(Card { value, suit });
        }
        starts.push(cards.len());
    }
    let case_count = reader.bounded("the number of cases T", 1, MAX_CASES, "")?;
    let mut instance = Instance { cards, starts, cases: Vec::with_capacity(case_count as usize) };
    let mut duplicates = Duplicates::new(&instance.cards);
    for number in 1..=case_count as usize {
        let context = || format!("case {number}");
        let (stacks, offset) = reader.number_at::<usize>("N", 2, MAX_SIDE).map_err(within(context))?;
        let (depth, _) = reader.number_at::<usize>("C", 2, MAX_SIDE).map_err(within(context))?;
        if stacks * depth > MAX_CASE_CARDS {
            return Err(Error::limit(
                format!("N x C in case {number} ({})", place(offset)),
                (stacks * depth) as u64,
                MAX_CASE_CARDS as u64,
            ));
        }
        let mut premade = Vec::with_capacity(stacks);
        let mut first_index = None;
        for _ in 0..stacks {
            let (index, at) =
                reader.number_at::<usize>("a premade stack index", 0, premade_count - 1).map_err(within(context))?;
            first_index.get_or_insert(at);
            let found = instance.premade(index).len();
            if found != depth {
                let mut error = reader.error_at(
                    at,
                    format!(
                        "premade stack {index} has {found} card{}, but this case has C = {depth} cards per stack",
                        if found == 1 { "" } else { "s" }
                    ),
                );
                error.context = context();
                return Err(error.into());
            }
            premade.push(index as u32);
        }
        let line = lines.line_column(offset).0;
        let mut spec = CaseSpec { stacks, depth, premade, line, suits: 0 };
        let found = duplicates.find(&instance, &spec.premade);
        spec.suits = duplicates.suits;
        if let Some((card, first, second)) = found {
            let mut error = reader.error_at(
                first_index.unwrap_or(offset),
                format!(
                    "the card with value {} and suit {} appears twice: in premade stack {first} and in premade stack \
                     {second}",
                    card.value, card.suit
                ),
            );
            error.context = context();
            return Err(error.into());
        }
        instance.cases.push(spec);
    }
    reader.finish()?;
    Ok(instance)
}

/// A case's answer as read from an answer file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Claim {
    /// POSSIBLE (true) or IMPOSSIBLE (false).
    pub possible: bool,
    /// The moves given after the verdict line, each with its line in the answer file.
    pub steps: Vec<LineMove>,
}

/// Reads the text after `Case #x:` (`header_line` is the line of that header). `stacks` is N, for the
/// range of stack numbers.
pub(crate) fn read_claim(text: &str, header_line: usize, stacks: usize) -> std::result::Result<Claim, String> {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("").trim();
    let possible = match first {
        "POSSIBLE" => true,
        "IMPOSSIBLE" => false,
        other => {
            return Err(format!("expected `POSSIBLE` or `IMPOSSIBLE` after `Case #x:`, found `{}`", shorten(other)))
        }
    };
    let mut steps = Vec::new();
    for (index, line) in lines.enumerate() {
        let line_number = header_line + index + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if !possible {
            return Err(format!(
                "line {line_number}: an IMPOSSIBLE answer has no moves, found `{}`",
                ludus_framework::input::shorten(trimmed)
            ));
        }
        let step = read_step(trimmed, stacks).ok_or_else(|| {
            format!(
                "line {line_number}: expected `remove X` or `move X Y` with stacks numbered 1 to {stacks}, \
                 found `{}`",
                ludus_framework::input::shorten(trimmed)
            )
        })?;
        steps.push(LineMove { step, line: line_number });
    }
    Ok(Claim { possible, steps })
}

fn read_step(line: &str, stacks: usize) -> Option<Step> {
    let mut words = line.split_ascii_whitespace();
    let stack = |word: Option<&str>| -> Option<usize> {
        let number: usize = word?.parse().ok()?;
        number.checked_sub(1).filter(|&stack| stack < stacks)
    };
    let step = match words.next()? {
        "remove" => Step::Remove { stack: stack(words.next())? },
        "move" => Step::Transfer { from: stack(words.next())?, to: stack(words.next())? },
        _ => return None,
    };
    words.next().is_none().then_some(step)
}

/// Finds two equal cards in a case in time linear in its cards: every distinct card of the premade stacks
/// gets a number once (a counting sort by value, then by suit), and a case marks the numbers it uses.
#[derive(Debug, Default)]
struct Duplicates {
    /// Per premade card (in file order): the number of its (value, suit) pair.
    number: Vec<u32>,
    /// Bit set of the card numbers met in the current case (small enough to stay in cache).
    seen: Vec<u64>,
    /// Bit set of the suits met in the current case.
    suit_seen: Vec<u64>,
    /// The number of distinct suits met by the last [`Duplicates::find`].
    suits: usize,
}

impl Duplicates {
    fn new(cards: &[Card]) -> Self {
        let largest = cards.iter().map(|card| card.suit.max(card.value) as usize).max().unwrap_or(0);
        let by_value = counting_sort(cards, (0..cards.len() as u32).collect(), largest, |card| card.value);
        let order = counting_sort(cards, by_value, largest, |card| card.suit);
        let mut number = vec![0u32; cards.len()];
        let mut next = 0u32;
        let mut previous: Option<Card> = None;
        for &position in &order {
            let card = cards.get(position as usize).copied();
            if card != previous {
                next += 1;
                previous = card;
            }
            if let Some(slot) = number.get_mut(position as usize) {
                *slot = next;
            }
        }
        Duplicates { number, seen: vec![0; next as usize / 64 + 1], suit_seen: vec![0; largest / 64 + 1], suits: 0 }
    }

    /// The first card met twice in the premade stacks `premade` of a case, with the two stacks holding it.
    fn find(&mut self, instance: &Instance, premade: &[u32]) -> Option<(Card, u32, u32)> {
        self.seen.fill(0);
        self.suit_seen.fill(0);
        self.suits = 0;
        for &index in premade {
            let (Some(&start), Some(&end)) =
                (instance.starts.get(index as usize), instance.starts.get(index as usize + 1))
            else {
                continue;
            };
            let (Some(numbers), Some(cards)) = (self.number.get(start..end), instance.cards.get(start..end)) else {
                continue;
            };
            for (&number, &card) in numbers.iter().zip(cards) {
                let bit = 1u64 << (number % 64);
                let Some(word) = self.seen.get_mut(number as usize / 64) else {
                    continue;
                };
                if *word & bit != 0 {
                    let first =
                        premade.iter().copied().find(|&other| instance.premade(other as usize).contains(&card))?;
                    return Some((card, first, index));
                }
                *word |= bit;
                let suit_bit = 1u64 << (card.suit % 64);
                if let Some(word) = self.suit_seen.get_mut(card.suit as usize / 64) {
                    if *word & suit_bit == 0 {
                        *word |= suit_bit;
                        self.suits += 1;
                    }
                }
            }
        }
        None
    }
}

/// A stable counting sort of the positions `order` by `key` (at most `largest`).
fn counting_sort(cards: &[Card], order: Vec<u32>, largest: usize, key: impl Fn(&Card) -> u32) -> Vec<u32> {
    let key_of = |position: u32| cards.get(position as usize).map_or(0, |card| key(card) as usize);
    let mut starts = vec![0u32; largest + 2];
    for &position in &order {
        if let Some(count) = starts.get_mut(key_of(position) + 1) {
            *count += 1;
        }
    }
    for index in 1..starts.len() {
        starts[index] += starts[index - 1];
    }
    let mut sorted = vec![0u32; order.len()];
    for &position in &order {
        if let Some(slot) = starts.get_mut(key_of(position)) {
            if let Some(target) = sorted.get_mut(*slot as usize) {
                *target = position;
            }
            *slot += 1;
        }
    }
    sorted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_duplicates_across_suits() {
        let card = |value, suit| Card { value, suit };
        let cards = vec![card(1, 1), card(1, 2), card(2, 1), card(1, 2), card(5, 5), card(5, 4)];
        let instance = Instance { cards: cards.clone(), starts: vec![0, 2, 3, 4, 6], cases: Vec::new() };
        let mut duplicates = Duplicates::new(&cards);
        assert_eq!(duplicates.find(&instance, &[0, 1, 3]), None);
        assert_eq!(duplicates.find(&instance, &[0, 1, 2]), Some((card(1, 2), 0, 2)));
        assert_eq!(duplicates.find(&instance, &[3, 3]), Some((card(5, 5), 3, 3)));
    }
}
