//! Notakto, an impartial game: tic-tac-toe on one or more boards where both players play X; a board with three
//! in a row is dead, and whoever completes a line on the last live board loses. It shows [`Impartial`] (a live
//! board is a component; a move that completes a line removes it) with [`ImpartialText`], under both
//! conventions:
//!
//! - normal play (the last move wins), the [`SumGame`] of the boards: nimbers by the Sprague-Grundy engine,
//!   checked by [`GameCheck`] (memoized against plain negamax) and against negamax on every position of two
//!   boards (a sum is lost exactly when its nimber is 0), and analysed by [`Playable::impartial`];
//! - misère play (the last move loses: Notakto itself), the [`MisereSum`], solved whole since nimbers do not
//!   add up in misère sums, analysed by [`Playable::misere`] and checked against a brute force written below
//!   without the framework.
//!
//! No database: a sum's key is the list of its boards' keys ([`SumGame`]'s `Vec`), not the integer of at most
//! 128 bits a database record is filed under, and under normal play the engine's table of one board's nimbers
//! (a few dozen, up to symmetry) already answers every sum. A game of your own with a fixed number of parts can
//! pack its key into an integer, implement `Tiers` and `FromKey`, and be given a `Tiered` database as a `Game`.
//!
//! Run with `cargo run --release --example notakto` (about a second).

use ludus_framework::conformance::GameCheck;
use ludus_framework::engines::grundy::GrundyEngine;
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::playable::{Analysis, AnalysisOptions, ImpartialText, Playable, PlayableGame};
use ludus_framework::{Impartial, MisereSum, ParseError, SumGame};
use std::collections::{HashMap, HashSet};
use std::error::Error;

/// The most boards checked against the brute force (it agrees on 3 too, every move in both conventions, in
/// about 20 s).
const LARGEST_CHECKED: usize = 2;

/// Notakto's boards: a live board is its X's, bit `c` for cell `c + 1` (cells 1 to 9 row by row).
#[derive(Clone, Copy, Debug)]
struct Notakto {
    boards: usize,
}

/// The eight lines of a board.
const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

/// Whether a board has three in a row.
fn has_line(board: u16) -> bool {
    LINES.into_iter().any(|line| board & line == line)
}

/// A board turned a quarter (`mirror`: mirrored left to right instead).
fn moved(board: u16, mirror: bool) -> u16 {
    let image = |cell: u16| {
        let (row, column) = (cell / 3, cell % 3);
        if mirror {
            row * 3 + 2 - column
        } else {
            column * 3 + 2 - row
        }
    };
    (0..9).filter(|&cell| board & (1 << cell) != 0).map(|cell| 1 << image(cell)).sum()
}

/// The board's eight images under the square's symmetries.
fn images(board: u16) -> Vec<u16> {
    let mut turned = board;
    let mut all = Vec::new();
    for _ in 0..4 {
        all.extend([turned, moved(turned, true)]);
        turned = moved(turned, false);
    }
    all
}

impl Impartial for Notakto {
    type Component = u16;
    type Key = u16;

    /// The least image under the symmetries: symmetric boards have equal nimbers.
    fn key(&self, board: &u16) -> u16 {
        images(*board).into_iter().min().unwrap_or(*board)
    }

    /// An X on any empty cell: the board with it, or none if it makes a line (the board is dead).
    fn options(&self, board: &u16, emit: &mut dyn FnMut(&[u16], u64)) {
        for cell in (0..9).filter(|&cell| board & (1 << cell) == 0) {
            let next = board | 1 << cell;
            if has_line(next) {
                emit(&[], 1);
            } else {
                emit(&[next], 1);
            }
        }
    }
}

/// A board is written as its X's cells (`159`), `.` when it has none; a position as its live boards joined by
/// commas (`.,5`); a move `B:BOARD` (`1:59`: board 1 becomes `59`), `B:-` when it kills board `B`.
impl ImpartialText for Notakto {
    fn start(&self) -> Vec<u16> {
        vec![0; self.boards]
    }

    fn parse_component(&self, text: &str) -> Result<u16, ParseError> {
        let text = text.trim();
        let cells = match text {
            "." => "",
            "" => return Err(ParseError::expected("a board's X's as cells 1 to 9 (`159`), or `.`", text)),
            cells => cells,
        };
        let mut board = 0u16;
        for digit in cells.bytes() {
            let cell = match digit {
                b'1'..=b'9' => digit - b'1',
                _ => return Err(ParseError::expected("a board's X's as cells 1 to 9 (`159`), or `.`", text)),
            };
            if board & (1 << cell) != 0 {
                return Err(ParseError::refused(format!("cell {} is named twice in `{text}`", cell + 1)));
            }
            board |= 1 << cell;
        }
        if has_line(board) {
            return Err(ParseError::refused(format!("`{text}` has a line: the board is dead, so not in play")));
        }
        Ok(board)
    }

    fn render_component(&self, board: &u16) -> String {
        match board {
            0 => ".".to_string(),
            _ => (0..9).filter(|cell| board & (1 << cell) != 0).map(|cell| char::from(b'1' + cell as u8)).collect(),
        }
    }
}

/// The game by brute force, without the framework: each board an array of nine cells, lines found by
/// coordinates, the boards of a position sorted (no symmetry), whether the player to move wins memoized by
/// position.
struct BruteForce {
    /// Whether the last move loses (Notakto) rather than wins.
    misere: bool,
    memo: HashMap<Vec<[bool; 9]>, bool>,
}

impl BruteForce {
    fn has_line(board: &[bool; 9]) -> bool {
        let at = |row: usize, column: usize| board[row * 3 + column];
        (0..3).any(|index| (0..3).all(|other| at(index, other)) || (0..3).all(|other| at(other, index)))
            || (0..3).all(|index| at(index, index))
            || (0..3).all(|index| at(index, 2 - index))
    }

    fn new(misere: bool) -> BruteForce {
        BruteForce { misere, memo: HashMap::new() }
    }

    /// Whether the player to move wins: with no live board left the other made the last move.
    fn wins(&mut self, boards: &[[bool; 9]]) -> bool {
        if let Some(&wins) = self.memo.get(boards) {
            return wins;
        }
        let mut wins = boards.is_empty() && self.misere;
        for (index, cell) in (0..boards.len()).flat_map(|index| (0..9).map(move |cell| (index, cell))) {
            if wins || boards[index][cell] {
                continue;
            }
            let mut next = boards.to_vec();
            next[index][cell] = true;
            if BruteForce::has_line(&next[index]) {
                next.remove(index);
            }
            next.sort();
            wins = !self.wins(&next);
        }
        self.memo.insert(boards.to_vec(), wins);
        wins
    }
}

/// Checks an analysis of the start with `count` empty boards against the brute force: the start's value and
/// every move's, each move read back from its text (`B:CELLS`, `B:-`).
fn check_analysis(analysis: &Analysis, brute_force: &mut BruteForce, count: usize) -> Result<(), Box<dyn Error>> {
    let start = vec![[false; 9]; count];
    assert_eq!(analysis.value.is_win(), brute_force.wins(&start), "{count} boards");
    for entry in &analysis.moves {
        let (board, cells) = entry.mv.split_once(':').ok_or("a move `B:CELLS`")?;
        let index = board.parse::<usize>().ok().and_then(|board| board.checked_sub(1)).filter(|&index| index < count);
        let index = index.ok_or("a board's number")?;
        let mut next = start.clone();
        if cells == "-" {
            next.remove(index);
        } else {
            let board = Notakto { boards: count }.parse_component(cells)?;
            next[index] = std::array::from_fn(|cell| board & (1 << cell) != 0);
        }
        next.sort();
        assert_eq!(entry.value.is_win(), !brute_force.wins(&next), "{count} boards, move {}", entry.mv);
    }
    Ok(())
}

/// Every live board up to symmetry (the keys of one board's positions).
fn live_boards(game: &Notakto) -> Vec<u16> {
    let mut seen = HashSet::from([0u16]);
    let mut waiting = vec![0u16];
    while let Some(board) = waiting.pop() {
        game.options(&board, &mut |parts, _| {
            for &part in parts {
                if seen.insert(game.key(&part)) {
                    waiting.push(game.key(&part));
                }
            }
        });
    }
    let mut boards: Vec<u16> = seen.into_iter().collect();
    boards.sort();
    boards
}

/// An analysis in one line: the value for the player to move and the moves that win.
fn summary(analysis: &Analysis) -> String {
    let winning: Vec<&str> =
        analysis.moves.iter().filter(|entry| entry.value.is_win()).map(|entry| entry.mv.as_str()).collect();
    match winning.is_empty() {
        true => format!("{} for the player to move: no move wins", analysis.value),
        false => format!("{} for the player to move, by {}", analysis.value, winning.join(" ")),
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let one = Notakto { boards: 1 };
    let two = Notakto { boards: 2 };
    // The sums' symmetries: the boards in another order, and every board turned a quarter.
    let symmetric = |position: &Vec<u16>| {
        let turned: Vec<u16> = position.iter().map(|&board| moved(board, false)).collect();
        vec![position.iter().rev().copied().collect(), turned]
    };

    // Normal play: the conformance check (plain negamax, which has no table, only on one board), then every
    // position of two boards up to symmetry: lost for the player to move exactly when its nimber is 0.
    GameCheck::new(&SumGame(one), one.start()).symmetries(&symmetric).compare_engines().run()?;
    GameCheck::new(&SumGame(two), two.start()).playouts(100).symmetries(&symmetric).run()?;
    let boards = live_boards(&one);
    let (mut grundy, mut negamax) = (GrundyEngine::new(), MemoNegamax::new(Mode::Outcome));
    let mut positions = 0;
    for (index, &first) in boards.iter().enumerate() {
        for &second in &boards[index..] {
            let position = vec![first, second];
            let lost = negamax.value(&SumGame(two), &position).is_loss();
            assert_eq!(grundy.sum(&two, &position) == 0, lost, "at {position:?}");
            positions += 1;
        }
    }
    let largest = boards.iter().map(|board| grundy.nimber(&one, board)).max().unwrap_or(0);
    let empty = grundy.nimber(&one, &0);
    println!("{} live boards up to symmetry, nimbers 0 to {largest}; the empty board's is {empty}", boards.len());
    println!("normal play: the nimbers agree with negamax on all {positions} positions of two boards");
    let mut brute_force = BruteForce::new(false);
    for count in 1..=3 {
        let name = format!("notakto:boards={count},play=normal");
        let analysis =
            Playable::impartial(Notakto { boards: count }, name).analyze(None, &AnalysisOptions::default())?;
        println!("normal play, {count} board(s): {}", summary(&analysis));
        if count <= LARGEST_CHECKED {
            check_analysis(&analysis, &mut brute_force, count)?;
        }
    }

    // Misère play, Notakto itself: the conformance check, then the analysis of 1 to 3 boards against the brute
    // force.
    GameCheck::new(&MisereSum(one), one.start()).symmetries(&symmetric).compare_engines().run()?;
    GameCheck::new(&MisereSum(two), two.start()).playouts(100).symmetries(&symmetric).run()?;
    let mut brute_force = BruteForce::new(true);
    for count in 1..=3 {
        let name = format!("notakto:boards={count},play=misere");
        let analysis = Playable::misere(Notakto { boards: count }, name).analyze(None, &AnalysisOptions::default())?;
        println!("misère play (Notakto), {count} board(s): {}", summary(&analysis));
        if count <= LARGEST_CHECKED {
            check_analysis(&analysis, &mut brute_force, count)?;
        }
    }
    println!(
        "both conventions: the values of up to {LARGEST_CHECKED} boards and their moves agree with the brute force"
    );
    Ok(())
}
