//! Connect Four on a `W x H` board with `W * (H + 1) <= 64` (bitboards), canonicalized under the mirror
//! symmetry, and the `connect-four` plugin that gives the exact score of positions.
//!
//! ## The game
//! `board.rs`: [`ConnectFour`] implements [`ludus_framework::Game`] (a move is a 0-based column) and
//! [`ludus_framework::Canonicalize`] (key: the smaller of the position's and its mirror image's encodings),
//! [`ludus_framework::FromKey`] (the position of a key) and the retrograde engine's
//! [`ludus_framework::engines::retrograde::Tiers`] (the stones on the board). `rank.rs`: the retrograde engine's
//! [`ludus_framework::engines::retrograde::Rank`] (column heights, then the mover's stones) and
//! [`ludus_framework::engines::retrograde::Retrograde`] (a stone lifted), with which its database is solved.
//! `hints.rs`: its [`ludus_framework::SearchHints`] (exact shortcuts, the value range, pruning to the moves that lose nothing,
//! threats and centre first, history slots); `zugzwang.rs`: the value range from the parity of the empty cells
//! (Allis' rules in bit operations); the search itself is the framework's.
//!
//! ## The plugin's format
//! `format.rs`. Input: one position per line, `MOVES` or `MOVES SCORE`: the columns played from the empty board
//! (digits 1..W, first player first; `-` for the empty board itself) and optionally a claimed score. An optional first line `size W H` sets the
//! board (default 7 x 6; `W` at most 9, since a column is one digit). Output: one line `MOVES SCORE` per position
//! (no `Case #x:`), with the exact score of `samples/README.md`: 0 for a draw under perfect play; if a player
//! wins, `C` minus the number of stones the winner has placed when the winning line is made, where
//! `C = W*H/2 + 1` for an even number of cells (22 on 7 x 6); positive if the player to move wins, negative if the
//! opponent does. For an odd number of cells `C` is one more than the winner's stones on a full board:
//! `(W*H + 1)/2 + 1` for the first player, `(W*H - 1)/2 + 1` for the second. So a win with a player's last stone
//! scores 1 (never 0, the draw), and every score is Pascal Pons' solver's, `(W*H + 1 - n)/2` for a win by the
//! move after `n` stones. The score is derived from the engine's exact
//! remoteness. With the `weak` option (`--option weak`) the score is only 1, 0 or -1: win, draw or loss for the player to move.
//!
//! `judge` re-solves each position with the fast solver and checks the answer's moves and score; a claimed
//! score in the input is checked too (a wrong claim rejects that case).
//!
//! Solvers: `fast` (the framework's [`AlphaBeta`] with its null-window score search over a [`PackedTable`] of
//! `table_mb` MiB; any position, the empty board included), `parallel` (the same on several threads:
//! [`ludus_framework::engines::alpha_beta::LazySmp`]) and `generic` ([`ludus_framework::engines::negamax::MemoNegamax`] in exact mode, up to [`GENERIC_EMPTY_CELLS_LIMIT`] empty cells
//! unless `--no-limit`). `--max-positions` bounds the positions any of them searches per case; without it (and
//! without `--no-limit`) a case stops at [`DEFAULT_CASE_POSITIONS`] with a limit error naming both flags: a budget
//! checked during the search, not a guess before it, so no input is refused that would finish within it.
//! `--threads` is the `parallel` solver's. `plugin.rs` holds the solver table and the typed answer.
//!
//! `generate` makes random 7 x 6 positions still in play (no four in a row yet): `Preset::Small` leaves 2 to 10
//! empty cells (both solvers finish at once), `Preset::Official` 1 to 13 like End-Easy (29 to 41 moves played);
//! `size` sets the number of empty cells.

mod board;
mod board_form;
mod format;
mod hints;
mod lines;
mod plugin;
mod rank;
mod scorer;
mod text;
mod zugzwang;

pub use board::{Board, ConnectFour, IllegalMove, DEFAULT_HEIGHT, DEFAULT_WIDTH};
pub use format::{parse, Case, Parsed, EMPTY_BOARD, MAX_CASES};
pub use plugin::{random_moves, ConnectFourPlugin, ScoreAnswer, DEFAULT_CASE_POSITIONS, GENERIC_EMPTY_CELLS_LIMIT};
pub use scorer::solver_table;

use ludus_framework::engines::alpha_beta::AlphaBeta;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::table::{mib, PackedTable, DEFAULT_TABLE_MB};
use ludus_framework::{Result, Value};

/// The fast engine in exact mode over a table of the default budget that grows as it fills (a judge or a
/// library call often needs little of it; growing briefly holds two sizes of the table at once).
fn growing_engine() -> Result<AlphaBeta<PackedTable>> {
    Ok(AlphaBeta::with_table(Mode::Exact, PackedTable::new(mib(DEFAULT_TABLE_MB))?))
}

/// The exact value of `board` by the fast engine (alpha-beta with the game's hints and a table of the default
/// budget), for the library API.
pub fn exact_value(game: &ConnectFour, board: &Board) -> Result<Value> {
    Ok(growing_engine()?.value(game, board))
}

/// The exact score of `board` (see the module doc), for the library API.
pub fn exact_score(game: &ConnectFour, board: &Board) -> Result<i32> {
    Ok(game.score(board, exact_value(game, board)?))
}
