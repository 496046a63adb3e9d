//! # Ludus framework
//!
//! The core of Ludus, a generic exact game solver: one game definition, several engines.
//!
//! - Traits: [`Game`] (two players, [`Position`] and [`Move`]), [`Canonicalize`] (the memo key and the
//!   game's symmetries), [`SearchHints`] (optional knowledge that speeds a search up), [`Impartial`] (sums of independent components), [`Solitaire`] (one player), and the
//!   constructive pair [`Construct`] / [`Verify`] (with [`Enumerate`] for brute force).
//! - [`engines`]: plain and memoized negamax, alpha-beta (sequential and Lazy SMP), parallel negamax, Sprague-Grundy (sequential and parallel),
//!   one-player search, brute-force construction. Every engine reports [`Stats`].
//! - [`analysis`]: the value of every move, winning-move counts, mistakes along a game record.
//! - [`plugin`]: the interface a problem implements to be run by the `ludus` CLI; [`input`]: the tokenizer
//!   for the official formats, whose errors name file, line and column; [`conformance`]: the checks every
//!   plugin's tests call.
//!
//! ## Example: a subtraction game, solved by two engines
//!
//! ```
//! use ludus_framework::engines::{negamax::{MemoNegamax, PlainNegamax}, Mode, Engine};
//! use ludus_framework::{analysis, Canonicalize, Game, Rules, SearchHints, Value};
//!
//! /// Remove 1, 3 or 4 counters; whoever cannot move loses.
//! struct Subtraction;
//! impl Rules for Subtraction {
//!     type Position = u32;
//!     type Move = u32;
//!     type Outcome = Value; // won, lost or drawn (a scored game's outcome is an `i32`)
//!     fn moves(&self, counters: &u32, moves: &mut Vec<u32>) {
//!         moves.extend([1, 3, 4].into_iter().filter(|take| take <= counters));
//!     }
//!     fn play(&self, counters: &u32, take: &u32) -> u32 { counters - take }
//!     fn outcome(&self, counters: &u32) -> Option<Value> { (*counters == 0).then_some(Value::LOST) }
//! }
//! impl Game for Subtraction {} // turns alternate: the win/loss/draw engines take it
//! impl SearchHints for Subtraction {} // no hints: the engines search every move
//! impl Canonicalize for Subtraction {
//!     type Key = u32;
//!     fn canonical(&self, counters: &u32) -> u32 { *counters }
//! }
//!
//! let mut memo = MemoNegamax::new(Mode::Exact);
//! let mut plain = PlainNegamax::new(Mode::Exact);
//! for counters in 0..20 {
//!     // Positions 0, 2, 7, 9, 14, 16 (mod 7: 0 or 2) are lost for the player to move.
//!     assert_eq!(memo.value(&Subtraction, &counters).is_loss(), counters % 7 == 0 || counters % 7 == 2);
//!     assert_eq!(memo.value(&Subtraction, &counters), plain.value(&Subtraction, &counters));
//! }
//! // An analysis returns the engine's failure (none for one that only searches, as memoized negamax does).
//! assert_eq!(analysis::count_winning_moves(&mut memo, &Subtraction, &10)?, 2); // 10 -> 9 and 10 -> 7 win
//! # Ok::<(), ludus_framework::Error>(())
//! ```

pub mod analysis;
pub mod board;
#[cfg(feature = "plugin")]
pub mod conformance;
#[cfg(feature = "database")]
pub mod database;
pub mod engines;
pub mod error;
pub mod game;
pub mod hints;
mod huge_pages;
pub mod impartial;
pub mod input;
pub mod parameters;
pub mod playable;
#[cfg(feature = "plugin")]
pub mod plugin;
mod prefetch;
pub mod prelude;
pub mod puzzle;
pub mod random;
pub mod scored;
pub mod solitaire;
pub mod stats;
pub mod table;
pub mod text;
pub mod value;

pub use engines::{Engine, Statistics, TableEngine};
pub use error::{Budget, Error, ParseError, Remedy, Result, Setting, TextPlace};
pub use game::{Canonicalize, FromKey, Game, Move, Outcome, Player, Position, Rules, SCORE_LIMIT};
pub use hints::{Proven, SearchHints, Shortcut, SmallSearch};
pub use impartial::{Impartial, MisereSum, SumGame};
pub use puzzle::{Construct, Enumerate, Puzzle, Verify, Violation};
pub use solitaire::Solitaire;
pub use stats::Stats;
pub use value::Value;
