//! The fast solver: the suit-graph criterion of the analysis, and the constructive proof of its sufficiency,
//! which plays a winning line for every POSSIBLE case. Everything is linear in the number of cards.
//!
//! Sketch (S suits, N stacks): S > N is lost, S < N is won by any sensible play. For S = N, apply every
//! removal; won: done; no empty stack: lost. Otherwise build the graph over the suits whose ace (highest
//! card) lies at the bottom of a stack: a *source* has its ace as its only card, a *target*'s stack holds
//! another suit's ace, and s1 -> s2 when the king (second highest card) of s2 lies in the stack of s1's ace.
//! The case is won iff a source reaches a target. The winning line along a shortest path s_1 -> ... -> s_k
//! (t the lowest other ace in s_k's stack): play removals and moves into empty stacks but never move the
//! kings of s_2..s_k nor the ace t (so the single card of s_1 stays covered and fewer than N suits show,
//! which keeps a move available); when no other move is left, move t into an empty stack, and removals alone
//! then clear the stacks of s_k, s_{k-1}, ..., s_1 down to their aces.

use super::{Card, Step};

/// "None" in the index tables.
const NONE: u32 = u32::MAX;

/// The verdict on one case, with the winning line when asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    /// Whether the case can be won.
    pub possible: bool,
    /// Why, in words.
    pub reason: String,
    /// A winning line (only when asked for and possible).
    pub steps: Vec<Step>,
}

/// Scratch tables reused from case to case (indexed by suit label).
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    suit_stamp: Vec<u32>,
    suit_dense: Vec<u32>,
    stamp: u32,
}

/// Solves one case: `cards` holds N stacks of `depth` cards, each top card first. `witness`: also record a
/// winning line. `Err` is an internal failure (the construction did not win), never a verdict.
pub(crate) fn solve(
    cards: &[Card],
    stacks: usize,
    depth: usize,
    witness: bool,
    scratch: &mut Scratch,
) -> Result<Outcome, String> {
    if cards.len() != stacks * depth {
        return Err(format!("{} cards given for {stacks} stacks of {depth}", cards.len()));
    }
    // Dense suit numbers 0..S.
    let largest = cards.iter().map(|card| card.suit as usize).max().unwrap_or(0);
    if scratch.suit_stamp.len() <= largest {
        scratch.suit_stamp.resize(largest + 1, 0);
        scratch.suit_dense.resize(largest + 1, 0);
    }
    scratch.stamp = scratch.stamp.wrapping_add(1);
    let mut labels: Vec<u32> = Vec::new();
    let mut suit: Vec<u32> = Vec::with_capacity(cards.len());
    for card in cards {
        let label = card.suit as usize;
        if scratch.suit_stamp[label] != scratch.stamp {
            scratch.suit_stamp[label] = scratch.stamp;
            scratch.suit_dense[label] = labels.len() as u32;
            labels.push(card.suit);
        }
        suit.push(scratch.suit_dense[label]);
    }
    let value: Vec<u32> = cards.iter().map(|card| card.value).collect();
    let suits = labels.len();
    let finish = |table: Table<'_>, reason: String| -> Result<Outcome, String> {
        if table.won() {
            Ok(Outcome { possible: true, reason, steps: table.steps })
        } else {
            Err(format!("the construction for \"{reason}\" ended without a win"))
        }
    };
    if suits > stacks || (suits < stacks && !witness) {
        return Ok(by_suit_count(suits, stacks));
    }
    let mut table = Table::new(&value, &suit, suits, stacks, depth, witness);
    if suits < stacks {
        table.play(&[])?;
        return finish(table, by_suit_count(suits, stacks).reason);
    }
    table.drain();
    if table.won() {
        return finish(table, "removing cards alone wins".to_string());
    }
    if table.empties.is_empty() {
        return Ok(lost(format!("{suits} suits, no empty stack and no card to remove after all removals")));
    }
    let Some(path) = table.find_path(suits) else {
        return Ok(lost("no source suit (a lone ace at a stack's bottom) reaches a target suit".to_string()));
    };
    let reason = format!(
        "source suit {} reaches target suit {} along {} suit(s)",
        label_of(&labels, path.suits.first().copied()),
        label_of(&labels, path.suits.last().copied()),
        path.suits.len()
    );
    if !witness {
        return Ok(Outcome { possible: true, reason, steps: Vec::new() });
    }
    table.play(&path.protected)?;
    if table.won() {
        return finish(table, reason);
    }
    let ace_stack = path.ace_stack;
    if table.top_card(ace_stack) != Some(path.ace) {
        return Err(format!("the ace to move last is not on top of stack {}", ace_stack + 1));
    }
    let Some(empty) = table.empties.pop() else {
        return Err("no empty stack for the last move".to_string());
    };
    table.transfer(ace_stack, empty as usize)?;
    table.drain();
    finish(table, reason)
}

/// The verdict when the number of suits S differs from the number of stacks N: S < N is always won (fewer than
/// N suits show, so a move is always there until the win), S > N never (the last card of a suit is never
/// removed, so some stack keeps two cards). Without a winning line.
pub(crate) fn by_suit_count(suits: usize, stacks: usize) -> Outcome {
    if suits < stacks {
        Outcome {
            possible: true,
            reason: format!("{suits} suits for {stacks} stacks: any sensible play wins"),
            steps: Vec::new(),
        }
    } else {
        lost(format!("{suits} suits for {stacks} stacks: the last card of some suit can never be removed"))
    }
}

fn label_of(labels: &[u32], dense: Option<u32>) -> u32 {
    dense.and_then(|suit| labels.get(suit as usize).copied()).unwrap_or(0)
}

fn lost(reason: String) -> Outcome {
    Outcome { possible: false, reason, steps: Vec::new() }
}

/// A source-to-target path and what the construction needs from it.
struct Path {
    /// The suits along the path, source first (dense numbers).
    suits: Vec<u32>,
    /// The cards never to move before the last move: the kings of the path's suits but the first, and the
    /// ace to move last.
    protected: Vec<u32>,
    /// The ace to move last (the lowest other ace in the target's stack) and its stack.
    ace: u32,
    ace_stack: usize,
}

/// The game table while the construction plays. Cards are numbered by their place in the input
/// (`stack * depth + depth_from_top`).
struct Table<'a> {
    value: &'a [u32],
    suit: &'a [u32],
    depth: usize,
    /// Per stack: depth of its top original card (`depth` when none is left).
    top: Vec<usize>,
    /// Per stack: the card moved onto it, or NONE.
    single: Vec<u32>,
    /// Per suit: the stack showing its highest visible card that is not queued for removal, or NONE.
    champion: Vec<u32>,
    /// Stacks whose top card is removable (a higher card of its suit shows).
    queue: Vec<u32>,
    /// Empty stacks.
    empties: Vec<u32>,
    /// Stacks with two cards or more.
    multi: usize,
    /// The line played, if recorded.
    steps: Vec<Step>,
    record: bool,
}

impl<'a> Table<'a> {
    fn new(value: &'a [u32], suit: &'a [u32], suits: usize, stacks: usize, depth: usize, record: bool) -> Self {
        let mut table = Table {
            value,
            suit,
            depth,
            top: vec![0; stacks],
            single: vec![NONE; stacks],
            champion: vec![NONE; suits],
            queue: Vec::new(),
            empties: Vec::new(),
            multi: if depth >= 2 { stacks } else { 0 },
            steps: Vec::new(),
            record,
        };
        for stack in 0..stacks {
            table.reveal(stack);
        }
        table
    }

    fn won(&self) -> bool {
        self.multi == 0
    }

    fn len(&self, stack: usize) -> usize {
        let top = self.top.get(stack).copied().unwrap_or(self.depth);
        if top < self.depth {
            self.depth - top
        } else {
            usize::from(self.single.get(stack).is_some_and(|&card| card != NONE))
        }
    }

    fn top_card(&self, stack: usize) -> Option<u32> {
        let top = self.top.get(stack).copied()?;
        if top < self.depth {
            Some((stack * self.depth + top) as u32)
        } else {
            self.single.get(stack).copied().filter(|&card| card != NONE)
        }
    }

    fn card_value(&self, card: u32) -> u32 {
        self.value.get(card as usize).copied().unwrap_or(0)
    }

    fn card_suit(&self, card: u32) -> usize {
        self.suit.get(card as usize).copied().unwrap_or(0) as usize
    }

    /// The top card of `stack` just became visible: it takes over its suit or is queued for removal.
    fn reveal(&mut self, stack: usize) {
        let Some(card) = self.top_card(stack) else {
            return;
        };
        let suit = self.card_suit(card);
        let Some(&holder) = self.champion.get(suit) else {
            return;
        };
        if holder == NONE {
            self.champion[suit] = stack as u32;
        } else if self.top_card(holder as usize).is_some_and(|best| self.card_value(card) < self.card_value(best)) {
            self.queue.push(stack as u32);
        } else {
            self.queue.push(holder);
            self.champion[suit] = stack as u32;
        }
    }

    /// Removes queued top cards until none is left or the game is won.
    fn drain(&mut self) {
        while !self.won() {
            let Some(stack) = self.queue.pop() else {
                return;
            };
            let stack = stack as usize;
            if self.top[stack] < self.depth {
                self.top[stack] += 1;
                if self.depth - self.top[stack] == 1 {
                    self.multi -= 1;
                }
                if self.top[stack] == self.depth {
                    self.empties.push(stack as u32);
                }
            } else {
                self.single[stack] = NONE;
                self.empties.push(stack as u32);
            }
            if self.record {
                self.steps.push(Step::Remove { stack });
            }
            self.reveal(stack);
        }
    }

    /// Moves the top card of `from` (an original stack of two cards or more) onto the empty stack `to`.
    fn transfer(&mut self, from: usize, to: usize) -> Result<(), String> {
        let card = self.top_card(from).ok_or("moving from an empty stack")?;
        if self.len(from) < 2 || self.len(to) != 0 {
            return Err(format!("illegal move from stack {} to stack {}", from + 1, to + 1));
        }
        let suit = self.card_suit(card);
        if self.champion.get(suit) != Some(&(from as u32)) {
            return Err(format!("moving a card queued for removal from stack {}", from + 1));
        }
        self.top[from] += 1;
        if self.depth - self.top[from] == 1 {
            self.multi -= 1;
        }
        self.single[to] = card;
        self.champion[suit] = to as u32;
        if self.record {
            self.steps.push(Step::Transfer { from, to });
        }
        self.reveal(from);
        Ok(())
    }

    /// Plays removals first, else moves a top card that is not `protected` from a stack of two cards or more
    /// into an empty stack, until neither is possible or the game is won.
    fn play(&mut self, protected: &[u32]) -> Result<(), String> {
        let mut mask = vec![false; if protected.is_empty() { 0 } else { self.value.len() }];
        for &card in protected {
            if let Some(slot) = mask.get_mut(card as usize) {
                *slot = true;
            }
        }
        let is_protected = |card: Option<u32>| card.is_some_and(|card| mask.get(card as usize) == Some(&true));
        let mut cursor = 0;
        let stacks = self.top.len();
        loop {
            self.drain();
            if self.won() {
                return Ok(());
            }
            // A stack that fails this test fails it forever: it only shrinks, and a protected top stays.
            while cursor < stacks && (self.len(cursor) < 2 || is_protected(self.top_card(cursor))) {
                cursor += 1;
            }
            if cursor == stacks {
                return Ok(());
            }
            let Some(empty) = self.empties.pop() else {
                return Err("no empty stack while fewer suits than stacks show".to_string());
            };
            self.transfer(cursor, empty as usize)?;
        }
    }

    /// The shortest source-to-target path of the suit graph of the current table (no card moved yet).
    fn find_path(&self, suits: usize) -> Option<Path> {
        let depth = self.depth;
        let stacks = self.top.len();
        let mut ace = vec![NONE; suits];
        let mut king = vec![NONE; suits];
        let mut count = vec![0u32; suits];
        for stack in 0..stacks {
            for card in (stack * depth + self.top[stack])..(stack + 1) * depth {
                let card = card as u32;
                let suit = self.card_suit(card);
                count[suit] += 1;
                let value = self.card_value(card);
                if ace[suit] == NONE || value > self.card_value(ace[suit]) {
                    king[suit] = ace[suit];
                    ace[suit] = card;
                } else if king[suit] == NONE || value > self.card_value(king[suit]) {
                    king[suit] = card;
                }
            }
        }
        // Vertices: suits whose ace is the bottom card of a stack; their stack and the lowest other ace in it.
        let mut home = vec![NONE; suits];
        let mut other_ace = vec![NONE; suits];
        for stack in 0..stacks {
            if self.top[stack] >= depth {
                continue;
            }
            let bottom = ((stack + 1) * depth - 1) as u32;
            let suit = self.card_suit(bottom);
            if ace[suit] != bottom {
                continue;
            }
            home[suit] = stack as u32;
            for card in (stack * depth + self.top[stack]..(stack + 1) * depth - 1).rev() {
                let card = card as u32;
                if ace[self.card_suit(card)] == card {
                    other_ace[suit] = card;
                    break;
                }
            }
        }
        // Edges s1 -> s2 (in-degree at most one): s1 is the suit whose ace is the bottom of the king's stack.
        let mut parent = vec![NONE; suits];
        let mut out_count = vec![0u32; suits + 1];
        for target in 0..suits {
            if king[target] == NONE || home[target] == NONE {
                continue;
            }
            let stack = king[target] as usize / depth;
            let bottom = ((stack + 1) * depth - 1) as u32;
            let source = self.card_suit(bottom);
            if source != target && home[source] == stack as u32 {
                parent[target] = source as u32;
                out_count[source + 1] += 1;
            }
        }
        for suit in 0..suits {
            out_count[suit + 1] += out_count[suit];
        }
        let mut fill = out_count.clone();
        let mut out = vec![0u32; out_count[suits] as usize];
        for target in 0..suits {
            if parent[target] != NONE {
                let slot = &mut fill[parent[target] as usize];
                out[*slot as usize] = target as u32;
                *slot += 1;
            }
        }
        // Multi-source breadth-first search; a suit is checked for being a target when dequeued.
        let mut reached = vec![false; suits];
        let mut from = vec![NONE; suits];
        let mut queue: Vec<u32> = Vec::new();
        for suit in 0..suits {
            if home[suit] != NONE && count[suit] == 1 {
                reached[suit] = true;
                queue.push(suit as u32);
            }
        }
        let mut head = 0;
        while let Some(&suit) = queue.get(head) {
            head += 1;
            let suit = suit as usize;
            if other_ace[suit] != NONE {
                let mut suits_on_path = vec![suit as u32];
                let mut walk = suit;
                while from[walk] != NONE {
                    walk = from[walk] as usize;
                    suits_on_path.push(walk as u32);
                }
                suits_on_path.reverse();
                let mut protected: Vec<u32> = suits_on_path.iter().skip(1).map(|&suit| king[suit as usize]).collect();
                protected.push(other_ace[suit]);
                return Some(Path {
                    suits: suits_on_path,
                    protected,
                    ace: other_ace[suit],
                    ace_stack: home[suit] as usize,
                });
            }
            for &next in &out[out_count[suit] as usize..out_count[suit + 1] as usize] {
                if !reached[next as usize] {
                    reached[next as usize] = true;
                    from[next as usize] = suit as u32;
                    queue.push(next);
                }
            }
        }
        None
    }
}
