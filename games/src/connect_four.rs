//! Connect Four on a `W x H` board with `W * (H + 1) <= 64` (bitboards), canonicalized under the mirror
//! symmetry, and the `connect-four` plugin that gives the exact score of positions.
//!
//! ## The game
//! [`ConnectFour`] implements [`Game`] (a move is a 0-based column), [`Canonicalize`] (key: the smaller of the
//! position's and its mirror image's encodings) and [`OrderMoves`] (moves that make the most new threats first,
//! then central columns first, moves that hand the opponent an immediate win last). Its shortcuts are exact: a
//! player who can complete four at once wins in 1; a player facing two immediate threats of the opponent (or one
//! with another threat right above it) loses in 2.
//!
//! ## The plugin's format
//! Input: one position per line, `MOVES` or `MOVES SCORE`: the columns played from the empty board (digits
//! 1..W, first player first) and optionally a claimed score. An optional first line `size W H` sets the board
//! (default 7 x 6; `W` at most 9, since a column is one digit). Output: one line `MOVES SCORE` per position (no
//! `Case #x:`), with the exact score of `samples/README.md`: 0 for a draw under perfect play; if a player wins,
//! `C` minus the number of stones the winner has placed when the winning line is made, where `C = W*H/2 + 1`
//! for an even number of cells (22 on 7 x 6); positive if the player to move wins, negative if the opponent
//! does. For an odd number of cells `C = (W*H + 1)/2 + 1`, as in Pascal Pons' solver, so that a win on the last
//! cell still scores 1 (and never 0, the draw). The score is derived from the engine's exact remoteness.
//!
//! `verify` re-solves each position with the fast solver (so it refuses, with `Error::Limit`, positions beyond
//! that solver's limit of empty cells) and checks the answer's moves and score; a claimed score in the input is
//! checked too (a wrong claim rejects that case).
//!
//! Solvers: `fast` (the framework's [`AlphaBeta`] in exact mode over [`Ordered`]`<ConnectFour>`, up to
//! [`FAST_EMPTY_CELLS_LIMIT`] empty cells) and `generic` ([`MemoNegamax`] in exact mode, up to
//! [`GENERIC_EMPTY_CELLS_LIMIT`] empty cells); both limits are lifted by `SolveOptions::no_limit` (`--no-limit`).
//! Finished positions and positions a shortcut decides are never refused.
//!
//! `generate` makes random 7 x 6 positions still in play (no four in a row yet): `Preset::Small` leaves 2 to 10
//! empty cells (both solvers finish at once), `Preset::Official` 1 to 13 like End-Easy (29 to 41 moves played);
//! `size` sets the number of empty cells.

use ludus_framework::engines::alpha_beta::{AlphaBeta, OrderMoves, Ordered};
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::{Mode, Solver};
use ludus_framework::input::{Reader, Source};
use ludus_framework::plugin::{
    seeded_rng, self_check, About, CaseAnswer, CaseVerdict, Comparison, GenOptions, Kind, Plugin, Preset, Progress,
    Sample, SeededRng, SolveOptions, SolverInfo,
};
use ludus_framework::{Canonicalize, Error, Game, Result, Stats, Value, Violation};
use rand::Rng;

/// The standard board width.
pub const DEFAULT_WIDTH: u32 = 7;
/// The standard board height.
pub const DEFAULT_HEIGHT: u32 = 6;
/// The `generic` solver (memoized negamax, exact mode) refuses positions with more empty cells than this
/// unless `SolveOptions::no_limit` is set.
pub const GENERIC_EMPTY_CELLS_LIMIT: u32 = 16;
/// The `fast` solver (alpha-beta) refuses positions with more empty cells than this unless
/// `SolveOptions::no_limit` is set: its table grows with the search and must not exhaust memory.
pub const FAST_EMPTY_CELLS_LIMIT: u32 = 30;
/// The most positions one input may hold.
pub const MAX_CASES: usize = 100_000;

/// A Connect Four position: the stones of the player to move and the mask of all stones, as bitboards.
///
/// Bit `column * (H + 1) + row` is the cell of `column` (0-based, left to right) and `row` (0-based, bottom
/// up); the extra row `H` of each column stays empty, which keeps lines from wrapping across columns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    /// Stones of the player to move.
    pub current: u64,
    /// All stones on the board.
    pub mask: u64,
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board { current: 0, mask: 0 };

    /// The number of stones on the board.
    pub fn stones(&self) -> u32 {
        self.mask.count_ones()
    }

    /// Stones of the player who just moved.
    pub fn opponent(&self) -> u64 {
        self.current ^ self.mask
    }
}

/// Why a sequence of moves cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// 0-based index of the offending character in the move string.
    pub index: usize,
    /// What is wrong, in words.
    pub reason: String,
}

/// Connect Four on a `width x height` board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectFour {
    width: u32,
    height: u32,
    /// One bit at the bottom cell of each column.
    bottom: u64,
    /// Every playable cell.
    board: u64,
    /// Whether [`Game::shortcut`] answers (off only to test the shortcuts against plain search).
    shortcuts: bool,
}

/// `value << amount`, 0 when the amount is 64 or more.
fn shift_left(value: u64, amount: u32) -> u64 {
    value.checked_shl(amount).unwrap_or(0)
}

/// `value >> amount`, 0 when the amount is 64 or more.
fn shift_right(value: u64, amount: u32) -> u64 {
    value.checked_shr(amount).unwrap_or(0)
}

impl Default for ConnectFour {
    fn default() -> Self {
        Self::standard()
    }
}

impl ConnectFour {
    /// The standard 7 x 6 game.
    pub fn standard() -> Self {
        Self::build(DEFAULT_WIDTH, DEFAULT_HEIGHT)
    }

    /// A `width x height` game: `width` from 1 to 9 (a column is one digit in the plugin's format; the library
    /// itself would allow more), `height` at least 1, and `width * (height + 1) <= 64`.
    pub fn new(width: u32, height: u32) -> Result<Self> {
        if width == 0 || height == 0 {
            return Err(Error::Unsupported(format!("a {width} x {height} board has no cells")));
        }
        if width > 9 {
            return Err(Error::limit("the board width", u64::from(width), 9));
        }
        let bits = u64::from(width) * (u64::from(height) + 1);
        if bits > 64 {
            return Err(Error::limit("the board's bitboard size W * (H + 1)", bits, 64));
        }
        Ok(Self::build(width, height))
    }

    fn build(width: u32, height: u32) -> Self {
        let column = shift_left(1, height).wrapping_sub(1);
        let mut bottom = 0;
        let mut board = 0;
        for index in 0..width {
            bottom |= shift_left(1, index * (height + 1));
            board |= shift_left(column, index * (height + 1));
        }
        ConnectFour { width, height, bottom, board, shortcuts: true }
    }

    /// The same game with its shortcuts turned off (`shortcut` always `None`): for testing them.
    pub fn without_shortcuts(self) -> Self {
        ConnectFour { shortcuts: false, ..self }
    }

    /// The number of columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The number of rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The number of cells.
    pub fn cells(&self) -> u32 {
        self.width * self.height
    }

    /// The number of empty cells of `board`.
    pub fn empty_cells(&self, board: &Board) -> u32 {
        self.cells().saturating_sub(board.stones())
    }

    /// `C` of the score: a winner who wins with `s` stones scores `C - s`.
    pub fn score_base(&self) -> i32 {
        i32::try_from(self.cells().div_ceil(2) + 1).unwrap_or(i32::MAX)
    }

    fn column_bottom(&self, column: u32) -> u64 {
        shift_left(1, column * (self.height + 1))
    }

    fn column_top(&self, column: u32) -> u64 {
        shift_left(1, column * (self.height + 1) + self.height - 1)
    }

    fn column_cells(&self, column: u32) -> u64 {
        shift_left(shift_left(1, self.height).wrapping_sub(1), column * (self.height + 1))
    }

    /// Whether `column` (0-based) exists and has room.
    pub fn can_play(&self, board: &Board, column: u32) -> bool {
        column < self.width && board.mask & self.column_top(column) == 0
    }

    /// The cells where a stone can be dropped now.
    pub fn playable_cells(&self, board: &Board) -> u64 {
        board.mask.wrapping_add(self.bottom) & self.board
    }

    /// Whether `stones` contain four in a row (vertically, horizontally or diagonally).
    pub fn has_four(&self, stones: u64) -> bool {
        [1, self.height + 1, self.height, self.height + 2].into_iter().any(|direction| {
            let pairs = stones & shift_right(stones, direction);
            pairs & shift_right(pairs, 2 * direction) != 0
        })
    }

    /// The empty cells that would complete four in a row for the owner of `stones`, given all stones `mask`.
    pub fn winning_cells(&self, stones: u64, mask: u64) -> u64 {
        let mut cells = shift_left(stones, 1) & shift_left(stones, 2) & shift_left(stones, 3);
        for direction in [self.height + 1, self.height, self.height + 2] {
            let below = shift_left(stones, direction) & shift_left(stones, 2 * direction);
            cells |= below & shift_left(stones, 3 * direction);
            cells |= below & shift_right(stones, direction);
            let above = shift_right(stones, direction) & shift_right(stones, 2 * direction);
            cells |= above & shift_left(stones, direction);
            cells |= above & shift_right(stones, 3 * direction);
        }
        cells & (self.board ^ mask)
    }

    /// The position after dropping a stone in `column` (0-based; the caller checks [`Self::can_play`]).
    pub fn drop_stone(&self, board: &Board, column: u32) -> Board {
        let mask = board.mask | board.mask.wrapping_add(self.column_bottom(column)) & self.column_cells(column);
        Board { current: board.current ^ board.mask, mask }
    }

    /// The position after the moves of `moves` (digits `1..=W`) from the empty board.
    pub fn parse_moves(&self, moves: &str) -> std::result::Result<Board, IllegalMove> {
        let mut board = Board::EMPTY;
        for (index, character) in moves.char_indices() {
            let illegal = |reason: String| IllegalMove { index, reason };
            let column = character
                .to_digit(10)
                .ok_or_else(|| illegal(format!("expected a column from 1 to {}, found `{character}`", self.width)))?;
            if column == 0 || column > self.width {
                return Err(illegal(format!("column {column} is out of range: columns are 1 to {}", self.width)));
            }
            let move_number = moves.get(..index).map_or(index, |before| before.chars().count()) + 1;
            if self.has_four(board.opponent()) {
                return Err(illegal(format!(
                    "move {move_number} (column {column}) comes after the game is over: move {} made four in a row",
                    move_number - 1
                )));
            }
            if !self.can_play(&board, column - 1) {
                return Err(illegal(format!("move {move_number} plays in column {column}, which is full")));
            }
            board = self.drop_stone(&board, column - 1);
        }
        Ok(board)
    }

    /// The exact score of `board` (see the module doc) from its exact value.
    pub fn score(&self, board: &Board, value: Value) -> i32 {
        let played = board.stones();
        let mover_stones = played / 2;
        let opponent_stones = played - mover_stones;
        let base = i64::from(self.score_base());
        let score = match value {
            Value::Draw => 0,
            Value::Win(remoteness) => base - i64::from(mover_stones) - i64::from(remoteness.div_ceil(2)),
            Value::Lose(remoteness) => -(base - i64::from(opponent_stones) - i64::from(remoteness / 2)),
        };
        i32::try_from(score).unwrap_or(0)
    }

    /// The image of `board` in the vertical mirror (column `c` becomes column `W - 1 - c`).
    pub fn mirror(&self, board: &Board) -> Board {
        let flip = |bits: u64| {
            (0..self.width).fold(0, |acc, column| {
                let cells =
                    shift_right(bits, column * (self.height + 1)) & shift_left(1, self.height + 1).wrapping_sub(1);
                acc | shift_left(cells, (self.width - 1 - column) * (self.height + 1))
            })
        };
        Board { current: flip(board.current), mask: flip(board.mask) }
    }

    /// A unique encoding of a position (stones of the player to move plus the column heights).
    fn encode(&self, board: &Board) -> u64 {
        board.current.wrapping_add(board.mask).wrapping_add(self.bottom)
    }

    /// Whether the player to move wins by playing `column` at once.
    fn wins_at_once(&self, board: &Board, column: u32) -> bool {
        self.winning_cells(board.current, board.mask) & self.playable_cells(board) & self.column_cells(column) != 0
    }

    /// Checks that `score` is possible for `board`: the winner's stone count is reachable, and an immediate
    /// win scores as one. A consistency check of an answer, not a proof of it (that takes a search).
    pub fn check_score(&self, board: &Board, score: i32) -> std::result::Result<(), Violation> {
        let played = board.stones();
        let (mover_now, opponent_now) = (played / 2, played - played / 2);
        let mover_max = (self.cells() - played).div_ceil(2) + mover_now;
        let opponent_max = (self.cells() - played) / 2 + opponent_now;
        let base = i64::from(self.score_base());
        let over = self.has_four(board.opponent());
        let immediate = (0..self.width).any(|column| self.can_play(board, column) && self.wins_at_once(board, column));
        let score = i64::from(score);
        if over {
            let expected = -(base - i64::from(opponent_now));
            return if score == expected {
                Ok(())
            } else {
                Err(Violation::new(format!("the game is over, lost for the player to move: the score is {expected}")))
            };
        }
        if immediate {
            let expected = base - i64::from(mover_now) - 1;
            return if score == expected {
                Ok(())
            } else {
                Err(Violation::new(format!("the player to move wins at once: the score is {expected}, not {score}")))
            };
        }
        let reachable = match score {
            0 => true,
            positive if positive > 0 => (i64::from(mover_now) + 2..=i64::from(mover_max)).contains(&(base - positive)),
            negative => (i64::from(opponent_now) + 1..=i64::from(opponent_max)).contains(&(base + negative)),
        };
        if reachable {
            Ok(())
        } else {
            Err(Violation::new(format!("no game from this position ends with the score {score}")))
        }
    }
}

impl Game for ConnectFour {
    type Position = Board;
    /// A 0-based column.
    type Move = u8;

    fn moves(&self, board: &Board, moves: &mut Vec<u8>) {
        moves.extend(
            (0..self.width).filter(|&column| self.can_play(board, column)).filter_map(|c| u8::try_from(c).ok()),
        );
    }

    fn play(&self, board: &Board, column: &u8) -> Board {
        self.drop_stone(board, u32::from(*column))
    }

    fn outcome(&self, board: &Board) -> Option<Value> {
        if self.has_four(board.opponent()) {
            Some(Value::LOST)
        } else if board.mask == self.board {
            Some(Value::Draw)
        } else {
            None
        }
    }

    /// Win in 1 when the player to move can complete four; loss in 2 when the opponent has two immediate
    /// threats, or one with another right above it (blocking it opens the next). Exact remoteness.
    fn shortcut(&self, board: &Board) -> Option<Value> {
        if !self.shortcuts {
            return None;
        }
        let playable = self.playable_cells(board);
        if self.winning_cells(board.current, board.mask) & playable != 0 {
            return Some(Value::Win(1));
        }
        let opponent_wins = self.winning_cells(board.opponent(), board.mask);
        let threats = opponent_wins & playable;
        if threats.count_ones() >= 2 || (threats != 0 && opponent_wins & (threats << 1) != 0) {
            return Some(Value::Lose(2));
        }
        None
    }

    fn shortcut_is_exact(&self) -> bool {
        true
    }
}

impl Canonicalize for ConnectFour {
    type Key = u64;

    /// The smaller of the encodings of the position and of its mirror image.
    fn canonical(&self, board: &Board) -> u64 {
        self.encode(board).min(self.encode(&self.mirror(board)))
    }
}

impl OrderMoves for ConnectFour {
    /// Moves that hand the opponent an immediate win last; among the others, those that make the most
    /// threats (cells where the mover would complete four) first, then central columns first.
    fn order_moves(&self, board: &Board, moves: &mut Vec<u8>) {
        let centre = i64::from(self.width) - 1;
        moves.sort_by_cached_key(|&column| {
            let column = u32::from(column);
            let after = self.drop_stone(board, column);
            let mover = after.opponent();
            let gives_win = self.winning_cells(after.current, after.mask) & self.playable_cells(&after) != 0;
            let threats = self.winning_cells(mover, after.mask).count_ones();
            (gives_win, std::cmp::Reverse(threats), (2 * i64::from(column) - centre).abs())
        });
    }
}

/// One position of an input file.
#[derive(Clone, Debug)]
struct Case {
    /// The moves as written.
    moves: String,
    /// The position they reach.
    board: Board,
    /// The score claimed in the input, if any.
    claim: Option<i32>,
}

/// A parsed input: the board size and the positions.
#[derive(Clone, Debug)]
struct Parsed {
    game: ConnectFour,
    cases: Vec<Case>,
}

/// The whitespace-separated fields of a line, with their byte offsets in the line.
fn fields(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (index, character) in line.char_indices() {
        match (character.is_whitespace(), start) {
            (true, Some(from)) => {
                out.push((from, line.get(from..index).unwrap_or_default()));
                start = None;
            }
            (false, None) => start = Some(index),
            _ => {}
        }
    }
    if let Some(from) = start {
        out.push((from, line.get(from..).unwrap_or_default()));
    }
    out
}

fn parse_number(reader: &Reader<'_>, offset: usize, text: &str, what: &str, min: i64, max: i64) -> Result<i64> {
    match text.parse::<i64>() {
        Ok(value) if (min..=max).contains(&value) => Ok(value),
        _ => Err(reader
            .error_at(offset, format!("expected {what} (an integer from {min} to {max}), found `{text}`"))
            .into()),
    }
}

fn parse(input: Source<'_>) -> Result<Parsed> {
    let mut reader = Reader::new(&input);
    let mut game = ConnectFour::standard();
    let mut cases = Vec::new();
    let mut first = true;
    while !reader.at_end() {
        let line = reader.line("a line of moves")?;
        let parts = fields(line.text);
        if first && parts.first().is_some_and(|(_, word)| *word == "size") {
            first = false;
            reader.set_context("the size line");
            let width_field = parts.get(1).copied();
            let height_field = parts.get(2).copied();
            let (Some((width_at, width_text)), Some((height_at, height_text))) = (width_field, height_field) else {
                return Err(reader.error_at(line.offset, "expected `size W H`".to_string()).into());
            };
            if let Some((extra_at, extra)) = parts.get(3) {
                return Err(reader
                    .error_at(line.offset + extra_at, format!("expected the end of the size line, found `{extra}`"))
                    .into());
            }
            let width = parse_number(&reader, line.offset + width_at, width_text, "the width W", 1, 9)?;
            let height = parse_number(&reader, line.offset + height_at, height_text, "the height H", 1, 63)?;
            game = ConnectFour::new(u32::try_from(width).unwrap_or(0), u32::try_from(height).unwrap_or(0))
                .map_err(|error| reader.error_at(line.offset, error.to_string()))?;
            continue;
        }
        first = false;
        if cases.len() >= MAX_CASES {
            return Err(Error::limit("the number of positions in the input", cases.len() as u64 + 1, MAX_CASES as u64));
        }
        reader.set_context(format!("case {}", cases.len() + 1));
        let Some(&(moves_at, moves)) = parts.first() else {
            return Err(reader.error_at(line.offset, "expected a line of moves".to_string()).into());
        };
        let board = game
            .parse_moves(moves)
            .map_err(|illegal| reader.error_at(line.offset + moves_at + illegal.index, illegal.reason))?;
        let base = i64::from(game.score_base());
        let claim = match parts.get(1) {
            None => None,
            Some(&(score_at, score_text)) => {
                let value =
                    parse_number(&reader, line.offset + score_at, score_text, "the claimed score", -base, base)?;
                i32::try_from(value).ok()
            }
        };
        if let Some((extra_at, extra)) = parts.get(2) {
            return Err(reader
                .error_at(
                    line.offset + extra_at,
                    format!("expected the end of the line after the score, found `{extra}`"),
                )
                .into());
        }
        cases.push(Case { moves: moves.to_string(), board, claim });
    }
    if cases.is_empty() {
        reader.set_context("");
        return Err(reader
            .error_at(input.text.len(), "expected a line of moves, found the end of the input".to_string())
            .into());
    }
    Ok(Parsed { game, cases })
}

/// The engines behind the plugin's solvers.
enum Engine {
    /// Alpha-beta with the game's move order.
    Fast(AlphaBeta<u64>),
    /// Memoized negamax.
    Generic(MemoNegamax<u64>),
}

impl Engine {
    fn value(&mut self, game: &ConnectFour, board: &Board) -> Value {
        match self {
            Engine::Fast(engine) => engine.value(&Ordered::new(game), board),
            Engine::Generic(engine) => engine.value(game, board),
        }
    }

    fn stats(&self) -> Stats {
        match self {
            Engine::Fast(engine) => engine.stats(),
            Engine::Generic(engine) => engine.stats(),
        }
    }
}

/// The exact value of `board` by the fast engine (alpha-beta with the game's move order), for the library API.
pub fn exact_value(game: &ConnectFour, board: &Board) -> Value {
    AlphaBeta::new(Mode::Exact).value(&Ordered::new(game), board)
}

/// The exact score of `board` (see the module doc), for the library API.
pub fn exact_score(game: &ConnectFour, board: &Board) -> i32 {
    game.score(board, exact_value(game, board))
}

const NO_LIMIT_HINT: &str = "set SolveOptions::no_limit (flag --no-limit) to search anyway; it may take very long";
const VERIFY_LIMIT_HINT: &str =
    "verify re-solves every position with the fast solver; solve this one with --no-limit and compare by hand";

/// Refuses a position with more than `limit` empty cells unless the game is over or decided by a shortcut.
fn check_limit(game: &ConnectFour, board: &Board, index: usize, solver: &str, limit: u32, hint: &str) -> Result<()> {
    let empty = game.empty_cells(board);
    let settled = game.outcome(board).is_some() || game.shortcut(board).is_some();
    if empty > limit && !settled {
        return Err(Error::limit_with_hint(
            format!("the number of empty cells in case {} for the `{solver}` solver", index + 1),
            u64::from(empty),
            u64::from(limit),
            hint,
        ));
    }
    Ok(())
}

const SOLVERS: &[SolverInfo] = &[
    SolverInfo {
        name: "fast",
        summary: "alpha-beta with a table of bounds, threats and centre first (up to 30 empty cells; --no-limit)",
    },
    SolverInfo { name: "generic", summary: "memoized negamax in exact mode (up to 16 empty cells; --no-limit)" },
];

/// The `connect-four` plugin: exact scores of Connect Four positions.
#[derive(Clone, Copy, Debug, Default)]
pub struct ConnectFourPlugin;

impl ConnectFourPlugin {
    fn answer(game: &ConnectFour, case: &Case, value: Value, score: i32) -> CaseAnswer {
        let winner = match value {
            Value::Draw => "none",
            Value::Win(_) if case.board.stones().is_multiple_of(2) => "first",
            Value::Lose(_) if case.board.stones() % 2 == 1 => "first",
            _ => "second",
        };
        CaseAnswer::exact(
            format!("{} {score}", case.moves),
            serde_json::json!({
                "moves": case.moves,
                "score": score,
                "value": value.to_string(),
                "remoteness": value.remoteness(),
                "winner": winner,
                "width": game.width(),
                "height": game.height(),
            }),
        )
    }
}

/// Judges one answer line against the exact score.
fn judge_line(case: &Case, expected: i32, line: Option<&str>) -> std::result::Result<(), String> {
    if let Some(claim) = case.claim.filter(|&claim| claim != expected) {
        return Err(format!("the input claims the score {claim}, but the exact score is {expected}"));
    }
    let Some(line) = line else {
        return Err("missing from the answer file".to_string());
    };
    let parts: Vec<&str> = line.split_whitespace().collect();
    let [moves, score] = parts.as_slice() else {
        return Err(format!("expected `MOVES SCORE`, found `{line}`"));
    };
    if *moves != case.moves {
        return Err(format!("the answer is about the moves `{moves}`, the input about `{}`", case.moves));
    }
    match score.parse::<i32>() {
        Ok(score) if score == expected => Ok(()),
        Ok(score) => Err(format!("the score {score} is wrong: the exact score is {expected}")),
        Err(_) => Err(format!("expected a score (an integer), found `{score}`")),
    }
}

/// What the CLI shows of this plugin, and its bundled sample.
static ABOUT: About = About {
    name: "connect-four",
    kind: Kind::TwoPlayer,
    summary: "Connect Four: the exact score (win speed) of positions given as moves from the empty board",
    solvers: SOLVERS,
    sample: Sample {
        input: include_str!("../../samples/connect-four/sample.in"),
        answer: include_str!("../../samples/connect-four/sample.ans"),
    },
    comparison: Comparison::Text,
};

impl Plugin for ConnectFourPlugin {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn solve(&self, input: Source<'_>, options: &SolveOptions, progress: &dyn Progress) -> Result<Vec<CaseAnswer>> {
        let solver = self.solver(&options.solver)?;
        let parsed = parse(input)?;
        let game = parsed.game;
        let (mut engine, limit) = if solver.name == "generic" {
            (Engine::Generic(MemoNegamax::new(Mode::Exact)), GENERIC_EMPTY_CELLS_LIMIT)
        } else {
            (Engine::Fast(AlphaBeta::new(Mode::Exact)), FAST_EMPTY_CELLS_LIMIT)
        };
        progress.start(parsed.cases.len() as u64);
        let mut answers = Vec::with_capacity(parsed.cases.len());
        for (index, case) in parsed.cases.iter().enumerate() {
            if !options.no_limit {
                check_limit(&game, &case.board, index, solver.name, limit, NO_LIMIT_HINT)?;
            }
            let value = engine.value(&game, &case.board);
            let score = game.score(&case.board, value);
            self_check(index + 1, game.check_score(&case.board, score))?;
            answers.push(Self::answer(&game, case, value, score));
            progress.advance(1);
        }
        progress.record(&engine.stats());
        Ok(answers)
    }

    fn judge(&self, input: Source<'_>, output: Source<'_>) -> Result<Vec<CaseVerdict>> {
        let parsed = parse(input)?;
        let lines: Vec<&str> = output.text.lines().map(str::trim).filter(|line| !line.is_empty()).collect();
        let mut engine = Engine::Fast(AlphaBeta::new(Mode::Exact));
        for (index, case) in parsed.cases.iter().enumerate() {
            check_limit(&parsed.game, &case.board, index, "fast", FAST_EMPTY_CELLS_LIMIT, VERIFY_LIMIT_HINT)?;
        }
        let mut verdicts: Vec<CaseVerdict> = parsed
            .cases
            .iter()
            .enumerate()
            .map(|(index, case)| {
                let expected = parsed.game.score(&case.board, engine.value(&parsed.game, &case.board));
                CaseVerdict { case: index + 1, problem: judge_line(case, expected, lines.get(index).copied()).err() }
            })
            .collect();
        for (index, line) in lines.iter().enumerate().skip(parsed.cases.len()) {
            verdicts.push(CaseVerdict {
                case: index + 1,
                problem: Some(format!("extra answer `{line}`: the input has only {} positions", parsed.cases.len())),
            });
        }
        Ok(verdicts)
    }

    fn generate(&self, options: &GenOptions, seed: u64) -> Result<String> {
        let game = ConnectFour::standard();
        let mut rng = seeded_rng(seed);
        let (default_cases, empty_range) = match options.preset {
            Preset::Small => (10, 2..=10),
            Preset::Official => (1000, 1..=13),
        };
        let cases = options.cases.unwrap_or(default_cases);
        if cases > MAX_CASES {
            return Err(Error::limit("the number of positions to generate", cases as u64, MAX_CASES as u64));
        }
        if let Some(size) = options.size {
            if size == 0 || size >= game.cells() as usize {
                return Err(Error::limit(
                    "the number of empty cells (--size)",
                    size as u64,
                    u64::from(game.cells() - 1),
                ));
            }
        }
        let mut out = String::new();
        for _ in 0..cases {
            let empty = match options.size {
                Some(size) => u32::try_from(size).unwrap_or(1),
                None => rng.gen_range(empty_range.clone()),
            };
            out.push_str(&random_moves(&game, game.cells() - empty, &mut rng)?);
            out.push('\n');
        }
        Ok(out)
    }

    fn render(&self, answers: &[CaseAnswer]) -> String {
        answers.iter().map(|answer| format!("{}\n", answer.text)).collect()
    }

    /// A wrong score: the right one moved by a random amount from 1 to 3, up or down.
    fn corrupt(&self, answer: &CaseAnswer, rng: &mut SeededRng) -> Option<CaseAnswer> {
        let (moves, score) = answer.text.rsplit_once(' ')?;
        let score: i32 = score.parse().ok()?;
        let delta = rng.gen_range(1..=3) * if rng.gen_bool(0.5) { 1 } else { -1 };
        Some(CaseAnswer {
            text: format!("{moves} {}", score + delta),
            class: String::new(),
            json: serde_json::Value::Null,
        })
    }
}

/// A random sequence of `played` moves from the empty board that never makes four in a row (so the position is
/// still being played), as digits.
pub fn random_moves(game: &ConnectFour, played: u32, rng: &mut SeededRng) -> Result<String> {
    for _attempt in 0..1000 {
        let mut board = Board::EMPTY;
        let mut moves = String::new();
        for _ in 0..played {
            let safe: Vec<u32> = (0..game.width())
                .filter(|&column| game.can_play(&board, column) && !game.wins_at_once(&board, column))
                .collect();
            if safe.is_empty() {
                break;
            }
            let Some(&column) = safe.get(rng.gen_range(0..safe.len())) else { break };
            board = game.drop_stone(&board, column);
            moves.push(char::from_digit(column + 1, 10).unwrap_or('?'));
        }
        if board.stones() == played {
            return Ok(moves);
        }
    }
    Err(Error::Unsupported(format!("could not generate a position with {played} moves played without a win")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_is_an_involution_and_keys_agree() {
        let game = ConnectFour::standard();
        let board = game.parse_moves("4453221").unwrap();
        let mirrored = game.mirror(&board);
        assert_eq!(mirrored, game.parse_moves("4435667").unwrap());
        assert_eq!(game.mirror(&mirrored), board);
        assert_eq!(game.canonical(&board), game.canonical(&mirrored));
        assert_ne!(game.canonical(&board), game.canonical(&game.parse_moves("4453222").unwrap()));
    }

    #[test]
    fn winning_cells_and_four_in_a_row() {
        let game = ConnectFour::standard();
        // First player: columns 1, 2, 3 on the bottom row, the second player on top; column 4 completes the line.
        let board = game.parse_moves("112233").unwrap();
        assert!(game.wins_at_once(&board, 3));
        assert!(!game.wins_at_once(&board, 4));
        assert_eq!(game.shortcut(&board), Some(Value::Win(1)));
        assert_eq!(game.without_shortcuts().shortcut(&board), None);
        let after = game.parse_moves("1122334").unwrap();
        assert!(game.has_four(after.opponent()));
        assert_eq!(game.outcome(&after), Some(Value::LOST));
    }
}
