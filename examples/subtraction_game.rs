//! Writing a new two-player game against the Ludus traits and solving it with several engines.
//!
//! The game: a pile of counters; a move removes 1, 3 or 4 of them; whoever cannot move loses.
//! Run with `cargo run --release --example subtraction_game`.

use ludus_framework::analysis;
use ludus_framework::engines::alpha_beta::AlphaBeta;
use ludus_framework::engines::negamax::{MemoNegamax, PlainNegamax};
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::Rules;
use ludus_framework::Statistics;
use ludus_framework::{Canonicalize, Game, SearchHints, Value};

/// The subtraction game with the removal set {1, 3, 4}.
struct Subtraction {
    removals: Vec<u32>,
}

impl Rules for Subtraction {
    type Position = u32;
    type Move = u32;
    type Outcome = Value;

    fn moves(&self, counters: &u32, moves: &mut Vec<u32>) {
        moves.extend(self.removals.iter().copied().filter(|take| take <= counters));
    }

    fn play(&self, counters: &u32, take: &u32) -> u32 {
        counters - take
    }

    fn outcome(&self, counters: &u32) -> Option<Value> {
        // No counters left: the player to move cannot move and has lost.
        (*counters == 0).then_some(Value::LOST)
    }
}

impl Game for Subtraction {}

/// No search hints: every engine searches every move. (A game that knows more, such as which moves are
/// forced or promising, says so here; see `ludus_framework::hints`.)
impl SearchHints for Subtraction {}

/// Identity canonicalization: the pile size is already canonical.
impl Canonicalize for Subtraction {
    type Key = u32;

    fn canonical(&self, counters: &u32) -> u32 {
        *counters
    }
}

fn main() -> ludus_framework::Result<()> {
    let game = Subtraction { removals: vec![1, 3, 4] };
    let mut memo = MemoNegamax::new(Mode::Exact);
    let mut plain = PlainNegamax::new(Mode::Exact);
    let mut alpha_beta = AlphaBeta::new(Mode::Exact);
    println!("pile  value (exact remoteness)   winning moves");
    for counters in 0..=21 {
        let value = memo.value(&game, &counters);
        assert_eq!(value, plain.value(&game, &counters), "engines disagree at {counters}");
        assert_eq!(value, alpha_beta.value(&game, &counters), "engines disagree at {counters}");
        // Memoized negamax only searches: it cannot fail, so the analysis has no error to return.
        let winning = analysis::winning_moves(&mut memo, &game, &counters)?;
        println!("{counters:>4}  {:<26} {winning:?}", value.to_string());
    }
    println!("memo: {}", memo.stats());
    println!("plain: {}", plain.stats());
    println!("alpha-beta: {}", alpha_beta.stats());
    println!("Lost piles are those with counters % 7 in {{0, 2}}.");
    Ok(())
}
