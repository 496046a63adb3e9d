//! A crate of your own: a game written against `ludus-framework` and added to the `ludus` command line, which
//! then analyses it, plays it, serves it in the explorer and solves it into a database like a built-in game.
//! Copy this directory to start your own (README, "Writing a game of your own"), then replace the game.
//!
//! The game: two piles of counters; a move takes 1, 2 or 3 counters from one pile; whoever cannot move loses.
//!
//! ```sh
//! cargo run --release -- analyze two-piles:left=5,right=7   # the value, every move's, the best line
//! cargo run --release -- play two-piles                     # against the perfect player
//! cargo run --release -- db solve two-piles                 # every position's value on disk; then db query
//! cargo run --release -- serve --game two-piles             # the explorer at http://127.0.0.1:8080/
//! cargo test --release                                      # the conformance check, and values worked out
//! ```

use ludus_framework::engines::retrograde::{ByKey, Tiers};
use ludus_framework::playable::{
    Arguments, Capabilities, DatabaseKind, Made, Parameter, ParameterKind, Playable, Registration, TextForm, Tiered,
};
use ludus_framework::plugin::catalog::Entry;
use ludus_framework::{Canonicalize, FromKey, Game, ParseError, Rules, SearchHints, Value};

/// The game, with the piles it starts from.
#[derive(Clone, Debug)]
struct TwoPiles {
    start: Piles,
}

/// A position: the counters in each pile.
type Piles = [u32; 2];

/// A move: which pile (0 or 1) and how many counters it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Take {
    pile: usize,
    counters: u32,
}

impl Rules for TwoPiles {
    type Position = Piles;
    type Move = Take;
    type Outcome = Value;

    fn moves(&self, piles: &Piles, moves: &mut Vec<Take>) {
        for (pile, &counters_left) in piles.iter().enumerate() {
            moves.extend((1..=counters_left.min(3)).map(|counters| Take { pile, counters }));
        }
    }

    fn play(&self, piles: &Piles, take: &Take) -> Piles {
        let mut next = *piles;
        next[take.pile] -= take.counters;
        next
    }

    fn outcome(&self, piles: &Piles) -> Option<Value> {
        (*piles == [0, 0]).then_some(Value::LOST)
    }
}

/// Won, lost or drawn, turns alternating: the win/loss engines take it.
impl Game for TwoPiles {}

/// No knowledge to speed a search up (see `ludus_framework::hints` for what a game can tell).
impl SearchHints for TwoPiles {}

/// The piles in either order are the same game: the smaller first, in one number.
impl Canonicalize for TwoPiles {
    type Key = u64;

    fn canonical(&self, piles: &Piles) -> u64 {
        let (small, large) = (piles[0].min(piles[1]), piles[0].max(piles[1]));
        u64::from(small) << 32 | u64::from(large)
    }
}

/// A position from its key (a database stores keys).
impl FromKey for TwoPiles {
    fn position_of_key(&self, key: &u64) -> Option<Piles> {
        Some([(key >> 32) as u32, *key as u32])
    }
}

/// A database is solved tier by tier: a tier is the counters left, and a move leaves 1 to 3 fewer.
impl Tiers for TwoPiles {
    type Tier = u32;

    fn tier(&self, piles: &Piles) -> u32 {
        piles[0] + piles[1]
    }

    fn child_tiers(&self, total: &u32) -> Vec<u32> {
        (1..=3).filter_map(|taken| total.checked_sub(taken)).collect()
    }
}

/// A position is written `5 7`; a move as the pile's letter and the counters taken: `a2` takes 2 from the first.
impl TextForm for TwoPiles {
    fn start(&self) -> Piles {
        self.start
    }

    fn parse_position(&self, text: &str) -> Result<Piles, ParseError> {
        let sizes: Vec<u32> = text.split_whitespace().filter_map(|word| word.parse().ok()).collect();
        match sizes[..] {
            [first, second] if text.split_whitespace().count() == 2 && first.max(second) <= 1_000_000 => {
                Ok([first, second])
            }
            _ => Err(ParseError::expected("two piles of at most 1,000,000 counters, like `5 7`", text)),
        }
    }

    fn draw_position(&self, piles: &Piles) -> String {
        format!("a: {} counters\nb: {} counters\n", piles[0], piles[1])
    }

    fn parse_move(&self, piles: &Piles, text: &str) -> Result<Take, ParseError> {
        let text = text.trim();
        let pile = match text.as_bytes().first() {
            Some(b'a') => 0,
            Some(b'b') => 1,
            _ => return Err(ParseError::expected("a pile, `a` or `b`, and 1 to 3 counters, like `a2`", text)),
        };
        match text[1..].parse::<u32>() {
            Ok(counters @ 1..=3) if counters <= piles[pile] => Ok(Take { pile, counters }),
            _ => Err(ParseError::refused(format!("take 1 to 3 counters, at most the {} in the pile", piles[pile]))),
        }
    }

    fn render_move(&self, _piles: &Piles, take: &Take) -> String {
        format!("{}{}", if take.pile == 0 { 'a' } else { 'b' }, take.counters)
    }
}

/// Makes the game the command line names from its checked parameters: playable, with a database.
fn make(arguments: &Arguments) -> ludus_framework::Result<Made> {
    let game = TwoPiles { start: [arguments.whole("left")?, arguments.whole("right")?] };
    Ok(Made::solvable(Playable::win_loss(game, arguments.canonical_name()), Tiered(ByKey)))
}

/// The game as the command line knows it: its name, what it does, its parameters, and what it is (a win/loss
/// game whose positions never repeat, with a database by tiers and no board: the explorer shows its text).
const REGISTRATION: Registration = Registration {
    name: "two-piles",
    summary: "take 1 to 3 counters from one of two piles; whoever cannot move loses; a position is `5 7`, a move \
              `a2`",
    parameters: &[
        Parameter {
            name: "left",
            help: "the first pile",
            kind: ParameterKind::Whole { default: 5, min: 0, max: 1000 },
        },
        Parameter {
            name: "right",
            help: "the second pile",
            kind: ParameterKind::Whole { default: 7, min: 0, max: 1000 },
        },
    ],
    capabilities: Capabilities::win_loss().with_database(DatabaseKind::Tiered),
    make,
};

fn main() -> std::process::ExitCode {
    ludus::run(ludus::Registry::builtin().with_entry(Entry::game(REGISTRATION)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_framework::conformance::GameCheck;
    use ludus_framework::engines::negamax::MemoNegamax;
    use ludus_framework::engines::{Engine, Mode};

    #[test]
    fn the_registration_declares_what_it_makes() -> ludus_framework::Result<()> {
        REGISTRATION.check()
    }

    #[test]
    fn passes_the_conformance_check() -> ludus_framework::Result<()> {
        // Small piles: plain negamax, which the check compares memoized negamax with, has no table.
        let game = TwoPiles { start: [4, 6] };
        let swapped = |piles: &Piles| vec![[piles[1], piles[0]]];
        GameCheck::new(&game, game.start()).playouts(50).symmetries(&swapped).compare_engines().run()
    }

    /// By the Sprague-Grundy theorem: a pile of `n` is worth `n mod 4` (a move takes 1 to 3), so two piles are
    /// lost for the player to move exactly when they are equal modulo 4.
    #[test]
    fn loses_exactly_on_piles_equal_modulo_four() {
        let mut engine = MemoNegamax::new(Mode::Exact);
        let game = TwoPiles { start: [0, 0] };
        for first in 0..=12 {
            for second in 0..=12 {
                assert_eq!(engine.value(&game, &[first, second]).is_loss(), first % 4 == second % 4);
            }
        }
    }
}
