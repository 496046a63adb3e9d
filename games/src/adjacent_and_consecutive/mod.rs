//! The `adjacent-and-consecutive` plugin (Code Jam 2020 World Finals): count the mistakes of each player along
//! recorded games of "Adjacent and Consecutive".
//!
//! N tiles numbered 1..N go one per turn into a row of N cells, A first; A wins if at the end two adjacent cells
//! hold consecutive numbers. A mistake is a move from a winning state into a state winning for the opponent.
//!
//! ## Files
//! `board.rs`: the [`board::Board`] and its analysis helpers (pairs, live tiles, runs). `game.rs`: the game as
//! framework games, [`game::GenericGame`] (every move) and [`game::FastGame`] (shortcuts, compressed keys,
//! pruned moves). `runs.rs`: [`runs::RunsEngine`], the exact search over run multisets of the `fast` solver.
//! `closed_form.rs`: the analysis's closed-form evaluation for large N. `mistakes.rs`: counting a record's
//! mistakes with each evaluator, and the [`Reference`] that judges counts. `format.rs`: the input format and
//! reading an answer. `generate.rs`: swinging and random records. `plugin.rs`: the solver table, the typed
//! answer ([`MistakesAnswer`]) and the judge.
//!
//! ## Solvers
//! - `fast` (default): the [`runs::RunsEngine`] (memoized search over the multisets of run lengths of quiet
//!   boards, one table for every game of the input), mistakes by the framework's
//!   [`ludus_framework::analysis::mistakes_by`]; N <= [`FAST_LIMIT`] unless `--no-limit`; `--max-positions`
//!   bounds the search of each position;
//! - `generic`: [`game::GenericGame`] under memoized negamax (a fresh table per game); N <= [`GENERIC_LIMIT`]
//!   unless `--no-limit`; `--max-positions` as for `fast`;
//! - `parallel`: [`game::FastGame`] under the framework's parallel negamax, the games of the input spread over
//!   `--threads` workers that share one table; N <= [`FAST_LIMIT`] unless `--no-limit`;
//! - `closed-form`: the analysis's closed-form rule at A's turn and one ply of search at B's turn
//!   ([`closed_form`]); N <= [`CLOSED_FORM_LIMIT`] unless `--no-limit`.
//!
//! Every answer is checked by a method independent of the solver's: a `fast` answer by the closed form, any
//! other by the [`Reference`] (the [`runs::RunsEngine`] for N <= [`FAST_LIMIT`], the closed form beyond). The
//! judge of answer files uses a reference of its own.

pub mod board;
pub mod closed_form;
mod format;
pub mod game;
mod generate;
mod mistakes;
mod plugin;
pub mod runs;

pub use format::{parse, read_counts, render_input, Games, Record, MAX_GAMES, MAX_SIZE};
pub use generate::random_records;
pub use mistakes::{
    closed_form_mistakes, count_mistakes, fast_a_wins, fast_mistakes, generic_mistakes, mistakes_within,
    parallel_mistakes, runs_a_wins, ExactEngine, GenericEngine, Mistakes, Reference,
};
pub use plugin::{
    AdjacentAndConsecutive, MistakeMove, MistakesAnswer, Parsed, CLOSED_FORM_LIMIT, FAST_LIMIT, GENERIC_LIMIT,
};
