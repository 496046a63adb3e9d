//! Counting the mistakes of a record: a mistake is a move from a winning state into a state winning for the
//! opponent, found by the framework's [`analysis`] with values from an exact engine or from the closed form.
//! Also the [`Reference`] that judges claimed counts: the exact [`RunsEngine`] for N <= [`FAST_LIMIT`], the
//! closed form beyond.

use super::board::{Board, Placement};
use super::closed_form;
use super::format::Record;
use super::game::{FastGame, FastKey, GenericGame};
use super::plugin::{CLOSED_FORM_LIMIT, FAST_LIMIT};
use super::runs::RunsEngine;
use ludus_framework::analysis::{IllegalMove, Mistake};
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::parallel::ParallelNegamax;
use ludus_framework::engines::Engine;
use ludus_framework::table::KeyedTable;
use ludus_framework::Statistics;
use ludus_framework::{analysis, Error, Game, Result, Stats, Value, Violation};

/// The exact engine of the `parallel` solver's game and of the differential tests: memoized negamax over
/// [`FastKey`]s.
pub type ExactEngine = MemoNegamax<KeyedTable<FastKey>>;

/// The engine of the `generic` solver: memoized negamax over whole boards.
pub type GenericEngine = MemoNegamax<KeyedTable<Board>>;

/// The answer to one game: mistakes of A and of B, and the 0-based plies of all mistakes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mistakes {
    /// A's mistakes.
    pub by_a: usize,
    /// B's mistakes.
    pub by_b: usize,
    /// The 0-based plies of the mistakes, increasing.
    pub plies: Vec<usize>,
}

impl Mistakes {
    fn record(&mut self, ply: usize) {
        if ply.is_multiple_of(2) {
            self.by_a += 1;
        } else {
            self.by_b += 1;
        }
        self.plies.push(ply);
    }
}

/// The per-player counts of a list of mistakes.
fn tally(found: Vec<Mistake<Placement>>) -> Mistakes {
    let mut mistakes = Mistakes::default();
    for mistake in found {
        mistakes.record(mistake.ply);
    }
    mistakes
}

/// Counts the mistakes of `record` with the framework's [`analysis::mistakes_by`], given `a_wins(board)`:
/// whether A wins from a board (either side to move).
pub fn count_mistakes(
    record: &Record,
    mut a_wins: impl FnMut(&Board) -> bool,
) -> std::result::Result<Mistakes, IllegalMove> {
    let value = |board: &Board| if a_wins(board) == board.a_to_move() { Value::Win(0) } else { Value::LOST };
    Ok(tally(analysis::mistakes_by(&FastGame, &Board::new(record.size), &record.moves, value)?))
}

/// A record the solvers cannot replay. Parsing rules it out, so it is a bug: a self-check failure (the driver
/// fills in the case number).
fn unplayable(illegal: IllegalMove) -> Error {
    Error::SelfCheck { case: 0, reason: illegal.to_string() }
}

/// The mistakes of `record` replayed in `game`, with `value(board)` (for the player to move) from an engine
/// that may give up: its first error (a [`Error::Budget`]) ends the count and is returned.
pub fn mistakes_within<Ruleset: Game<Position = Board, Move = Placement>>(
    game: &Ruleset,
    record: &Record,
    value: impl FnMut(&Board) -> Result<Value>,
) -> Result<Mistakes> {
    match analysis::try_mistakes_by(game, &Board::new(record.size), &record.moves, value) {
        Ok(found) => Ok(tally(found)),
        Err(Error::IllegalMove(illegal)) => Err(unplayable(illegal)),
        Err(error) => Err(error),
    }
}

/// The exact evaluator of the `fast` solver: whether A wins from `board`, with a table shared across calls.
pub fn fast_a_wins(engine: &mut ExactEngine, board: &Board) -> bool {
    engine.value(&FastGame, board).is_win() == board.a_to_move()
}

/// Whether A wins from `board` by the exact [`RunsEngine`] (its table shared across calls).
pub fn runs_a_wins(engine: &mut RunsEngine, board: &Board) -> bool {
    engine.value(&FastGame, board).is_win() == board.a_to_move()
}

/// The mistakes of `record` by the `fast` solver: the [`RunsEngine`], whose budget (if any) bounds the search
/// of each position.
pub fn fast_mistakes(engine: &mut RunsEngine, record: &Record) -> Result<Mistakes> {
    mistakes_within(&FastGame, record, |board| engine.try_value(&FastGame, board))
}

/// The mistakes of `record` by the `generic` solver: [`GenericGame`] under `engine` (memoized negamax over whole
/// boards, every move), whose budget (if any) bounds the search of each position.
pub fn generic_mistakes(engine: &mut GenericEngine, record: &Record) -> Result<Mistakes> {
    mistakes_within(&GenericGame, record, |board| engine.try_value(&GenericGame, board))
}

/// The mistakes of `record` by the `parallel` solver: [`FastGame`] under the parallel negamax engine, whose
/// one table serves the games searched at once on other threads, and whose budget (if any) bounds the search
/// of each position.
pub fn parallel_mistakes(engine: &ParallelNegamax<FastKey>, record: &Record) -> Result<Mistakes> {
    mistakes_within(&FastGame, record, |board| engine.try_evaluate(&FastGame, board))
}

/// The mistakes of `record` by the `closed-form` solver.
pub fn closed_form_mistakes(record: &Record) -> Result<Mistakes> {
    count_mistakes(record, closed_form::a_wins).map_err(unplayable)
}

/// The reference that judges claimed counts: the exact [`RunsEngine`] for N <= [`FAST_LIMIT`] (its table kept
/// from game to game), the closed form beyond, up to [`CLOSED_FORM_LIMIT`]. The `fast` solver solves with its
/// engine; its own answers are checked by the closed form instead (see the plugin).
pub struct Reference {
    engine: RunsEngine,
}

impl Default for Reference {
    fn default() -> Self {
        Reference::new()
    }
}

impl Reference {
    /// A reference with an empty table.
    pub fn new() -> Self {
        Reference { engine: RunsEngine::new() }
    }

    /// A reference whose engine gives up on a position past `positions` positions when asked through
    /// [`Reference::engine`] (the judge itself never gives up).
    pub fn with_budget(positions: u64) -> Self {
        Reference { engine: RunsEngine::new().with_budget(positions) }
    }

    /// The exact engine, for the `fast` solver.
    pub fn engine(&mut self) -> &mut RunsEngine {
        &mut self.engine
    }

    /// The statistics of the engine's work so far.
    pub fn stats(&self) -> Stats {
        self.engine.stats()
    }

    /// The right counts for `record`.
    pub fn mistakes(&mut self, record: &Record) -> std::result::Result<Mistakes, IllegalMove> {
        if record.size <= FAST_LIMIT {
            count_mistakes(record, |board| runs_a_wins(&mut self.engine, board))
        } else {
            count_mistakes(record, closed_form::a_wins)
        }
    }

    /// Judges a claimed answer `(a, b)` for `record`. A game above [`CLOSED_FORM_LIMIT`] tiles is not judged
    /// (its check would take minutes): such a claim is rejected, saying why.
    pub fn judge(&mut self, record: &Record, claimed: (usize, usize)) -> std::result::Result<(), Violation> {
        if record.size > CLOSED_FORM_LIMIT {
            return Err(Violation::new(format!(
                "this game has N = {} tiles; the judge checks games of at most {CLOSED_FORM_LIMIT}",
                record.size
            )));
        }
        let right = self.mistakes(record).map_err(|illegal| Violation::new(illegal.to_string()))?;
        if claimed == (right.by_a, right.by_b) {
            Ok(())
        } else {
            Err(Violation::new(format!(
                "A made {} mistakes and B made {}, not {} and {}",
                right.by_a, right.by_b, claimed.0, claimed.1
            )))
        }
    }
}
