//! The generic solver: the game as a [`Solitaire`] searched by the framework's [`OnePlayerSearch`].
//!
//! Removals are never harmful and their end result does not depend on their order (a removable card stays
//! removable), so every state is *settled*: all removals are applied at once, until none is left or the
//! game is won. The only branching is which top card (of a stack of two cards or more) goes into the first
//! empty stack. States are keyed by their sorted stacks (the order of the stacks does not matter).

use super::{Card, Step};
use ludus_framework::engines::one_player::OnePlayerSearch;
use ludus_framework::Statistics;
use ludus_framework::{Error, Result, Solitaire, Stats};

/// The largest N the generic solver takes without `--no-limit` (the official small set).
pub(crate) const MAX_STACKS: usize = 4;
/// The largest C the generic solver takes without `--no-limit` (the official small set).
pub(crate) const MAX_DEPTH: usize = 13;
/// The most states the search expands before it gives up (even with `--no-limit`), unless `--max-positions`
/// says otherwise.
pub(crate) const MAX_STATES: u64 = 3_000_000;

/// A stack of the game: `len` consecutive cards of one input stack starting at card `top` (an empty stack
/// has `len` 0). A card moved into an empty stack is a stack of length 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Pile {
    top: u32,
    len: u32,
}

/// One case as a one-player game. Cards are numbered by their place in the input
/// (`stack * depth + depth_from_top`).
pub(crate) struct StackGame<'a> {
    cards: &'a [Card],
}

impl StackGame<'_> {
    fn card(&self, card: u32) -> Card {
        self.cards.get(card as usize).copied().unwrap_or(Card { value: 0, suit: 0 })
    }

    /// A stack whose top card is removable: a higher card of the same suit shows on another stack.
    fn removable(&self, state: &[Pile]) -> Option<usize> {
        state.iter().enumerate().position(|(index, pile)| {
            pile.len > 0 && {
                let card = self.card(pile.top);
                state.iter().enumerate().any(|(other, rival)| {
                    other != index && rival.len > 0 && {
                        let rival = self.card(rival.top);
                        rival.suit == card.suit && rival.value > card.value
                    }
                })
            }
        })
    }

    /// Applies removals until none is left or the game is won, recording them in `steps` if given.
    pub(crate) fn settle(&self, state: &mut [Pile], mut steps: Option<&mut Vec<Step>>) {
        while !won(state) {
            let Some(stack) = self.removable(state) else {
                return;
            };
            if let Some(pile) = state.get_mut(stack) {
                pile.top += 1;
                pile.len -= 1;
            }
            if let Some(steps) = steps.as_deref_mut() {
                steps.push(Step::Remove { stack });
            }
        }
    }

    /// Moves the top card of `from` onto the empty stack `to` (no settling).
    fn transfer(state: &mut [Pile], from: usize, to: usize) {
        let Some(&source) = state.get(from) else {
            return;
        };
        if let Some(pile) = state.get_mut(to) {
            *pile = Pile { top: source.top, len: 1 };
        }
        if let Some(pile) = state.get_mut(from) {
            pile.top += 1;
            pile.len -= 1;
        }
    }
}

fn won(state: &[Pile]) -> bool {
    state.iter().all(|pile| pile.len <= 1)
}

impl Solitaire for StackGame<'_> {
    type State = Vec<Pile>;
    type Move = Step;
    type Key = Vec<Pile>;

    fn moves(&self, state: &Vec<Pile>, moves: &mut Vec<Step>) {
        let Some(to) = state.iter().position(|pile| pile.len == 0) else {
            return;
        };
        for (from, pile) in state.iter().enumerate() {
            if pile.len >= 2 {
                moves.push(Step::Transfer { from, to });
            }
        }
    }

    fn play(&self, state: &Vec<Pile>, mv: &Step) -> Vec<Pile> {
        let mut next = state.clone();
        if let Step::Transfer { from, to } = *mv {
            Self::transfer(&mut next, from, to);
        }
        self.settle(&mut next, None);
        next
    }

    fn is_goal(&self, state: &Vec<Pile>) -> bool {
        won(state)
    }

    fn key(&self, state: &Vec<Pile>) -> Vec<Pile> {
        let mut key = state.clone();
        key.sort_unstable();
        key
    }
}

/// Solves one case by search: `Ok(Some(line))` (the full line, removals included) if it can be won,
/// `Ok(None)` if not; an [`Error::Budget`] after `max_states` states. The search's statistics are added to
/// `stats`.
pub(crate) fn solve(
    cards: &[Card],
    stacks: usize,
    depth: usize,
    max_states: u64,
    stats: &mut Stats,
) -> Result<Option<Vec<Step>>> {
    let game = StackGame { cards };
    let start: Vec<Pile> = (0..stacks).map(|stack| Pile { top: (stack * depth) as u32, len: depth as u32 }).collect();
    let mut settled = start.clone();
    let mut steps = Vec::new();
    game.settle(&mut settled, Some(&mut steps));
    let mut search = OnePlayerSearch::new(max_states);
    let found = search.solve(&game, &settled);
    stats.add(&search.stats());
    let Some(line) = found? else {
        return Ok(None);
    };
    for mv in line {
        if let Step::Transfer { from, to } = mv {
            StackGame::transfer(&mut settled, from, to);
            steps.push(mv);
            game.settle(&mut settled, Some(&mut steps));
        }
    }
    if won(&settled) {
        Ok(Some(steps))
    } else {
        Err(Error::SelfCheck { case: 0, reason: "the generic search returned a line that does not win".to_string() })
    }
}
