//! The game conformance check rejects each kind of broken game it claims to catch, and accepts a sound one.

// The helpers shared by the tests unwrap too, not only the test functions.
#![allow(clippy::unwrap_used)]

use ludus_framework::conformance::GameCheck;
use ludus_framework::Rules;
use ludus_framework::{Canonicalize, Game, SearchHints, Shortcut, Value};
use std::cell::Cell;

/// Take 1 or 2 counters (who cannot move loses), with one defect switched on at a time.
#[derive(Default)]
struct Pile {
    /// Lists "take 3" too, which `is_legal` refuses.
    lists_an_illegal_move: bool,
    /// Lists the moves in another order on every call.
    moves_change: Cell<bool>,
    flaky: bool,
    /// Taking never empties the pile: games do not end.
    endless: bool,
    /// Keys every pile above 1 alike: memoized negamax then mixes up won and lost piles.
    merges_piles: bool,
    /// Says its shortcuts catch every move that ends the game.
    catches_ends: bool,
    /// Its shortcut: piles of 1 and 2 are won in 1 (which catches every end).
    small_piles_won: bool,
}

impl Rules for Pile {
    type Position = u32;
    type Move = u32;
    type Outcome = Value;
    fn moves(&self, pile: &u32, moves: &mut Vec<u32>) {
        moves.extend((1..=2).filter(|take| take <= pile));
        if self.lists_an_illegal_move {
            moves.push(3);
        }
        if self.flaky && self.moves_change.replace(!self.moves_change.get()) {
            moves.reverse();
        }
    }
    fn play(&self, pile: &u32, take: &u32) -> u32 {
        if self.endless {
            *pile
        } else {
            pile.saturating_sub(*take)
        }
    }
    fn outcome(&self, pile: &u32) -> Option<Value> {
        (*pile == 0).then_some(Value::LOST)
    }
    fn is_legal(&self, pile: &u32, take: &u32) -> bool {
        (1..=2).contains(take) && take <= pile
    }
}

impl Game for Pile {}

impl SearchHints for Pile {
    fn shortcut(&self, pile: &u32) -> Option<Shortcut> {
        (self.small_piles_won && *pile <= 2).then_some(Shortcut::Exact(Value::Win(1)))
    }
    fn shortcuts_catch_game_ends(&self) -> bool {
        self.catches_ends
    }
}

impl Canonicalize for Pile {
    type Key = u32;
    fn canonical(&self, pile: &u32) -> u32 {
        if self.merges_piles {
            (*pile).min(2)
        } else {
            *pile
        }
    }
}

fn check(game: &Pile) -> Result<(), String> {
    GameCheck::new(game, 10)
        .playouts(20)
        .max_plies(30)
        .seed(1)
        .compare_engines()
        .run()
        .map_err(|error| error.to_string())
}

#[test]
fn a_sound_game_passes() {
    assert_eq!(check(&Pile::default()), Ok(()));
    // Its shortcut settles the piles from which a move empties the pile.
    assert_eq!(check(&Pile { catches_ends: true, small_piles_won: true, ..Pile::default() }), Ok(()));
}

#[test]
fn each_defect_is_caught() {
    let illegal = check(&Pile { lists_an_illegal_move: true, ..Pile::default() }).unwrap_err();
    assert!(illegal.contains("fails is_legal"), "{illegal}");
    let flaky = check(&Pile { flaky: true, ..Pile::default() }).unwrap_err();
    assert!(flaky.contains("moves differ"), "{flaky}");
    // A pile that never empties: its positions repeat, which it does not say.
    let endless = GameCheck::new(&Pile { endless: true, ..Pile::default() }, 10).max_plies(30).run().unwrap_err();
    let endless = endless.to_string();
    assert!(endless.contains("came back on the playout") && endless.contains("POSITIONS_REPEAT"), "{endless}");
    let merged = check(&Pile { merges_piles: true, ..Pile::default() }).unwrap_err();
    assert!(merged.contains("memoized negamax says"), "{merged}");
    // The shortcuts are said to catch every end of the game, but there are none.
    let uncaught = check(&Pile { catches_ends: true, ..Pile::default() }).unwrap_err();
    assert!(uncaught.contains("catch every game end"), "{uncaught}");
    // A symmetry whose image has another key.
    let shifted = |pile: &u32| vec![pile + 1];
    let asymmetric = GameCheck::new(&Pile::default(), 10).symmetries(&shifted).run().unwrap_err().to_string();
    assert!(asymmetric.contains("differs from that of its symmetric"), "{asymmetric}");
}
