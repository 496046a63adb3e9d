//! # Stack management (Code Jam 2017 World Finals): a one-player card game, decided and shown won
//!
//! N stacks of C face-up cards; a card has a value and a suit, no two cards share both. A move either
//! removes the top card of a stack when another stack shows a higher card of the same suit on top (the
//! official rule; removing the lowest such card is one case of it), or moves the top card of any stack onto
//! an empty stack. The game is won when every stack holds at most one card.
//!
//! Solvers: `fast` (the suit-graph criterion of the analysis with its constructive proof, linear in the
//! cards; module `fast`) and `generic` (the framework's
//! [`OnePlayerSearch`](ludus_framework::engines::one_player::OnePlayerSearch) over settled states, for N <= 4
//! and C <= 13 unless `--no-limit`, within a budget of 3,000,000 states per case that `--max-positions`
//! replaces; module `generic`).
//!
//! ## Files
//! `rules.rs`: a card and a move. `format.rs`: reading the input (every rule of the statement checked) and a
//! case's answer. `fast.rs` and `generic.rs`: the two solvers. `replay.rs`: replaying a winning line under
//! the rules, for the self-check and the judge. `generate.rs`: random inputs. `plugin.rs`: the solver table,
//! the typed answer ([`StackAnswer`]) and the judge.
//!
//! ## Output, and the winning line (the `witness` option)
//!
//! Each case's first line is the official one: `Case #x: POSSIBLE` or `Case #x: IMPOSSIBLE`. With the
//! plugin's `witness` option (`ludus solve stack-management --option witness`), a POSSIBLE case is followed by a winning line, one move per
//! line, stacks numbered 1 to N in the order the case lists them:
//!
//! ```text
//! Case #1: POSSIBLE
//! remove 2        remove the top card of stack 2 (a higher card of its suit shows on another stack)
//! move 1 2        move the top card of stack 1 onto the empty stack 2
//! ```
//!
//! (without the comments). The line ends at the first position where every stack holds at most one card.
//! `--format json` gives `{"possible": bool, "reason": "why, in words", "moves": ["remove 2", "move 1 2"]}`
//! (`moves` only with the `witness` option). Every winning line a solver gives is replayed under the rules before it is
//! output. The fast solver's line is the constructive proof of the analysis: linear in the cards, at most
//! about two moves per card.
//!
//! ## Verification (`ludus verify`)
//!
//! A POSSIBLE case with moves is judged by replaying them from the start: every move must be legal and the
//! game won after the last one; the reason names the first wrong move and its line. A case without moves
//! (plain official output) is compared with the `fast` solver, and also with the `generic` one where the
//! case is small (N <= 4, C <= 13). An IMPOSSIBLE case with moves is rejected.
//!
//! ## Input errors
//!
//! Every rule of the statement is checked: ranges of P, T, N, C, values, suits and premade indexes
//! (P > 60,000, T > 100, N x C > 100,000 and more than 10,000,000 premade cards are limit errors), premade
//! stacks with the wrong number of cards for the case, the same card twice in a case, a truncated file; each
//! error names the file, line, column and case.

mod fast;
mod format;
mod generate;
mod generic;
mod plugin;
mod replay;
mod rules;

pub use format::Instance;
pub use generate::official_small_set;
pub use plugin::{Referee, StackAnswer, StackManagement};
pub use rules::{LineMove, Step};

pub(crate) use rules::Card;
