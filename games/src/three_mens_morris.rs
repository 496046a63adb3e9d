//! Three Men's Morris: a loopy game of three in a row, solved by the framework's retrograde engine
//! ([`ludus_framework::engines::retrograde`]); the negamax engines must not be used on it, since men slide to
//! and fro and positions repeat.
//!
//! ## The rules implemented
//! - The board has 9 points in a 3 x 3 square, joined by lines: the three rows, the three columns and the two
//!   diagonals. A point is named by its column letter (`a` at the left) and its row number (`1` at the bottom).
//! - Two players, X (first to move) and O, have 3 men each. While men are left to place (the placement phase),
//!   the player to move puts one of his on an empty point.
//! - Once all 6 men are on the board (the movement phase), the player to move slides one of his men along a
//!   line to an adjacent empty point: a neighbour in its row or column, or between a corner and the centre
//!   along a diagonal (the centre is next to every other point).
//! - A player who gets his three men in a row (a row, a column or a diagonal) wins at once: the position after
//!   his move is `Value::LOST` for his opponent, to move. A player to move who has no legal move has lost too.
//! - Positions can repeat in the movement phase; what neither side can force is a draw (endless play).
//!
//! The rules are the same for both players once the men are down, so the canonical key sees the position
//! from the player to move: his men and the other's, the smallest encoding over the square's 8 symmetries. A
//! position and its colour swap, with the other player to move, share a key in the movement phase; in the
//! placement phase the numbers of men tell whose turn it is. Tiers
//! ([`ludus_framework::engines::retrograde::Tiers`]) are the men on the board, 0 to 6: each placement goes to
//! the next tier, and tier 6, the movement phase, loops within itself. The un-move hook
//! ([`ludus_framework::engines::retrograde::Retrograde`]) takes back the last man placed, or slides one back.
//!
//! Solved here (asserted in the tests, by the retrograde engine and by a value iteration written in the test;
//! not checked against a published result): the first player wins, in 9 plies (the six placements, then X
//! slides, O slides, and X's second slide makes a line), and only by placing his first man in the centre (a
//! corner draws; an edge loses, in 8 plies). 540 positions are reachable from the start up to symmetry and
//! colour (the canonical keys), 5,390 without them (each board with its player to move); 137 of the 540 are
//! draws by endless play.

mod board_form;

use ludus_framework::engines::retrograde::{Retrograde, Tiers};
use ludus_framework::playable::TextForm;
use ludus_framework::ParseError;
use ludus_framework::Rules;
use ludus_framework::{Canonicalize, FromKey, Game, SearchHints, Value};

/// The points of the board: point `row * 3 + column` is bit `row * 3 + column` of a mask (row 0 at the bottom).
const POINTS: u8 = 9;
/// Every point.
const ALL_POINTS: u16 = 0o777;
/// The men each player has.
const MEN_EACH: u32 = 3;

/// The 8 lines of three points: rows, columns and diagonals.
const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

/// For each point, the points next to it along a line (orthogonal neighbours, and corner <-> centre).
const NEIGHBOURS: [u16; 9] = neighbour_table();

/// For each of the square's 8 symmetries, the image of each point.
const SYMMETRIES: [[u8; 9]; 8] = symmetry_table();

/// The neighbours of every point, from the points' coordinates.
const fn neighbour_table() -> [u16; 9] {
    let mut table = [0u16; 9];
    let mut from: usize = 0;
    while from < 9 {
        let mut to: usize = 0;
        while to < 9 {
            let (row_gap, column_gap) = ((from / 3).abs_diff(to / 3), (from % 3).abs_diff(to % 3));
            let orthogonal = row_gap + column_gap == 1;
            let diagonal = row_gap == 1 && column_gap == 1 && (from == 4 || to == 4);
            if orthogonal || diagonal {
                table[from] |= 1 << to;
            }
            to += 1;
        }
        from += 1;
    }
    table
}

/// The 8 symmetries of the square: rows and columns swapped or not, rows reversed or not, columns reversed or
/// not.
const fn symmetry_table() -> [[u8; 9]; 8] {
    let mut table = [[0u8; 9]; 8];
    let mut symmetry = 0;
    while symmetry < 8 {
        let mut point = 0;
        while point < 9 {
            let (mut row, mut column) = (point / 3, point % 3);
            if symmetry & 1 != 0 {
                (row, column) = (column, row);
            }
            if symmetry & 2 != 0 {
                row = 2 - row;
            }
            if symmetry & 4 != 0 {
                column = 2 - column;
            }
            table[symmetry][point] = (row * 3 + column) as u8;
            point += 1;
        }
        symmetry += 1;
    }
    table
}

/// Whether `men` hold a whole line.
fn has_line(men: u16) -> bool {
    LINES.iter().any(|line| line & !men == 0)
}

/// The points of a mask, lowest first.
fn points(mask: u16) -> impl Iterator<Item = u8> {
    (0..POINTS).filter(move |point| mask >> point & 1 != 0)
}

/// `mask` under symmetry `index` (0..8).
fn transformed(mask: u16, index: usize) -> u16 {
    let images = &SYMMETRIES[index % 8];
    points(mask).fold(0, |image, point| image | 1 << images[usize::from(point)])
}

/// A point's name: column letter and row number (`b2` is the centre).
pub fn point_name(point: u8) -> String {
    crate::chess_grid::cell_name(3, point)
}

/// The point named `text` (`a1` to `c3`), if it is one.
pub fn parse_point(text: &str) -> Option<u8> {
    crate::chess_grid::parse_cell(3, text)
}

/// A position: the points of X's men and of O's, and who is to move (which the men tell only while they are
/// being placed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// Points holding X's men (the first player).
    pub crosses: u16,
    /// Points holding O's men.
    pub noughts: u16,
    /// Whether X is to move.
    pub crosses_to_move: bool,
}

impl Board {
    /// The empty board, X to place the first man.
    pub const START: Board = Board { crosses: 0, noughts: 0, crosses_to_move: true };

    /// The men of the player to move, and the other's.
    pub fn sides(&self) -> (u16, u16) {
        if self.crosses_to_move {
            (self.crosses, self.noughts)
        } else {
            (self.noughts, self.crosses)
        }
    }

    /// The board with the player to move's men `mover` and the other's `other`.
    fn from_sides(mover: u16, other: u16, crosses_to_move: bool) -> Board {
        if crosses_to_move {
            Board { crosses: mover, noughts: other, crosses_to_move }
        } else {
            Board { crosses: other, noughts: mover, crosses_to_move }
        }
    }

    /// The number of men on the board.
    pub fn men(&self) -> u32 {
        (self.crosses | self.noughts).count_ones()
    }

    /// Whether men are still to be placed.
    pub fn placing(&self) -> bool {
        self.men() < 2 * MEN_EACH
    }

    /// `X` or `O`: the player to move (`true`) or the other.
    fn player(&self, to_move: bool) -> char {
        if self.crosses_to_move == to_move {
            'X'
        } else {
            'O'
        }
    }
}

/// A move: a man placed on `to` (`from` is `None`), or slid from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Step {
    /// The point the man leaves, `None` for a placement.
    pub from: Option<u8>,
    /// The point it reaches.
    pub to: u8,
}

/// Three Men's Morris (no parameters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThreeMensMorris;

impl ThreeMensMorris {
    /// The starting position: the empty board, X to move.
    pub fn start(&self) -> Board {
        Board::START
    }

    /// Whether the player to move can slide a man (in the movement phase).
    fn can_slide(board: &Board) -> bool {
        let (mover, other) = board.sides();
        let empty = ALL_POINTS & !(mover | other);
        points(mover).any(|from| NEIGHBOURS[usize::from(from)] & empty != 0)
    }
}

impl Rules for ThreeMensMorris {
    type Position = Board;
    type Move = Step;
    type Outcome = Value;
    const POSITIONS_REPEAT: bool = true;

    fn moves(&self, board: &Board, moves: &mut Vec<Step>) {
        let (mover, other) = board.sides();
        let empty = ALL_POINTS & !(mover | other);
        if board.placing() {
            moves.extend(points(empty).map(|to| Step { from: None, to }));
        } else {
            for from in points(mover) {
                moves.extend(points(NEIGHBOURS[usize::from(from)] & empty).map(|to| Step { from: Some(from), to }));
            }
        }
    }

    fn play(&self, board: &Board, step: &Step) -> Board {
        let (mover, other) = board.sides();
        let left = step.from.map_or(0, |from| 1u16 << (from % POINTS));
        let moved = mover & !left | 1 << (step.to % POINTS);
        // The player who just moved is the other one now.
        Board::from_sides(other, moved, !board.crosses_to_move)
    }

    fn outcome(&self, board: &Board) -> Option<Value> {
        let (_, other) = board.sides();
        // Three in a row for the player who just moved, or no man that can slide: lost for the player to move.
        let lost = has_line(other) || (!board.placing() && !Self::can_slide(board));
        lost.then_some(Value::LOST)
    }
}

impl Game for ThreeMensMorris {}

impl Canonicalize for ThreeMensMorris {
    /// The player to move's men in bits 9..18, the other's in bits 0..9, smallest over the 8 symmetries.
    type Key = u32;

    fn canonical(&self, board: &Board) -> u32 {
        let (mover, other) = board.sides();
        (0..8)
            .map(|index| u32::from(transformed(mover, index)) << 9 | u32::from(transformed(other, index)))
            .min()
            .unwrap_or(0)
    }
}

impl FromKey for ThreeMensMorris {
    /// The key read back: the mover is X when both have as many men (in the movement phase, the colour swap
    /// shares the key), O when the other has one more. A key of no position, or not the smallest encoding of
    /// its images, gives `None`.
    fn position_of_key(&self, key: &u32) -> Option<Board> {
        if key >> 18 != 0 {
            return None;
        }
        let (mover, other) = ((key >> 9) as u16 & ALL_POINTS, *key as u16 & ALL_POINTS);
        let (mover_men, other_men) = (mover.count_ones(), other.count_ones());
        let counts_fit = other_men <= MEN_EACH && (mover_men == other_men || mover_men + 1 == other_men);
        if mover & other != 0 || !counts_fit {
            return None;
        }
        let board = Board::from_sides(mover, other, mover_men == other_men);
        (self.canonical(&board) == *key).then_some(board)
    }
}

impl Tiers for ThreeMensMorris {
    /// The men on the board, 0 to 6.
    type Tier = u8;

    fn tier(&self, board: &Board) -> u8 {
        board.men() as u8
    }

    fn child_tiers(&self, men: &u8) -> Vec<u8> {
        // A placement adds a man; tier 6, the movement phase, has no child tier.
        (u32::from(*men) < 2 * MEN_EACH).then_some(men + 1).into_iter().collect()
    }
}

impl Retrograde for ThreeMensMorris {
    /// The previous mover (the other player now) takes back a man he placed, or slides one back; positions that
    /// would already be over are left out.
    fn parents(&self, board: &Board, parents: &mut Vec<Board>) {
        let (mover, other) = board.sides();
        // With a line for the player to move, the game was over before the last move.
        if has_line(mover) || other == 0 {
            return;
        }
        let empty = ALL_POINTS & !(mover | other);
        // The last man placed: the parent's player to move had as many men as the other, or one fewer.
        for placed in points(other) {
            let before = other & !(1 << placed);
            parents.push(Board::from_sides(before, mover, before.count_ones() == mover.count_ones()));
        }
        // A slide, in the movement phase: a man back to an empty neighbour.
        if !board.placing() {
            for to in points(other) {
                for from in points(NEIGHBOURS[usize::from(to)] & empty) {
                    let before = other & !(1 << to) | 1 << from;
                    parents.push(Board::from_sides(before, mover, !board.crosses_to_move));
                }
            }
        }
    }
}

/// No hints: Three Men's Morris is solved by the retrograde engine, which needs none.
impl SearchHints for ThreeMensMorris {}

/// Three Men's Morris's text form for `ludus analyze` and `ludus play`. A placement is written as its point
/// (`b2`), a slide as the two points (`a1b2`). A position is its moves from the empty board, separated by
/// spaces (`-` or nothing: the start). The board is drawn top row first, `X` and `O` for the men.
impl TextForm for ThreeMensMorris {
    fn start(&self) -> Board {
        Board::START
    }

    fn parse_position(&self, text: &str) -> Result<Board, ParseError> {
        ludus_framework::playable::position_after_moves(self, text.split_whitespace().filter(|word| *word != "-"))
    }

    fn draw_position(&self, board: &Board) -> String {
        let mut drawing =
            crate::chess_grid::draw_cells(3, (u64::from(board.crosses), u64::from(board.noughts)), ('X', 'O'));
        let (mover, other) = (board.player(true), board.player(false));
        let state = if has_line(board.sides().1) {
            format!("{other} has three in a row: {other} wins\n")
        } else if self.is_over(board) {
            format!("{mover} cannot move: {other} wins\n")
        } else if board.placing() {
            format!("{mover} to move (placing a man)\n")
        } else {
            format!("{mover} to move (sliding a man)\n")
        };
        drawing.push_str(&state);
        drawing
    }

    fn parse_move(&self, board: &Board, text: &str) -> Result<Step, ParseError> {
        let text = text.trim();
        let (placement, slide) = match (text.len(), text.get(..2), text.get(2..)) {
            (2, _, _) => (parse_point(text), None),
            (4, Some(from), Some(to)) => (None, parse_point(from).zip(parse_point(to))),
            _ => (None, None),
        };
        if self.is_over(board) {
            return Err(ParseError::game_over());
        }
        let (mover, other) = board.sides();
        let taken = |point: u8| (mover | other) >> point & 1 != 0;
        let step = match (board.placing(), placement, slide) {
            (true, Some(to), _) => Step { from: None, to },
            (true, _, _) => {
                return Err(ParseError::refused(format!(
                    "men are still being placed: expected an empty point like `b2` (columns a to c, rows 1 to 3), \
                     found `{}`",
                    ludus_framework::input::shorten(text)
                )))
            }
            (false, _, Some((from, to))) => {
                if mover >> from & 1 == 0 {
                    return Err(ParseError::refused(format!(
                        "there is no {} man on {}",
                        board.player(true),
                        point_name(from)
                    )));
                }
                if NEIGHBOURS[usize::from(from)] >> to & 1 == 0 {
                    return Err(ParseError::refused(format!(
                        "{} is not next to {} along a line",
                        point_name(to),
                        point_name(from)
                    )));
                }
                Step { from: Some(from), to }
            }
            (false, _, _) => {
                return Err(ParseError::refused(format!(
                    "every man is placed: expected a man's point and the adjacent empty point it slides to, like \
                     `a1b2`, found `{}`",
                    ludus_framework::input::shorten(text)
                )))
            }
        };
        if taken(step.to) {
            return Err(ParseError::refused(format!("point {} is taken", point_name(step.to))));
        }
        Ok(step)
    }

    fn render_move(&self, _position: &Self::Position, step: &Step) -> String {
        match step.from {
            Some(from) => format!("{}{}", point_name(from), point_name(step.to)),
            None => point_name(step.to),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_are_the_points_next_along_a_line() {
        // Two points are adjacent when they follow each other on one of the 8 lines.
        let mut expected = [0u16; 9];
        for line in LINES {
            let on_line: Vec<u8> = points(line).collect();
            // Each line's middle point is its second lowest.
            let (first, middle, last) = (on_line[0], on_line[1], on_line[2]);
            for (a, b) in [(first, middle), (middle, last)] {
                expected[usize::from(a)] |= 1 << b;
                expected[usize::from(b)] |= 1 << a;
            }
        }
        assert_eq!(NEIGHBOURS, expected);
        assert_eq!(NEIGHBOURS[4], ALL_POINTS & !(1 << 4));
        assert_eq!(NEIGHBOURS[0].count_ones(), 3);
        assert_eq!(NEIGHBOURS[1].count_ones(), 3);
    }

    #[test]
    fn symmetries_map_lines_to_lines() {
        let mut seen = std::collections::HashSet::new();
        for (index, images) in SYMMETRIES.iter().enumerate() {
            for line in LINES {
                assert!(LINES.contains(&transformed(line, index)), "symmetry {index}, line {line:o}");
            }
            seen.insert(*images);
        }
        assert_eq!(seen.len(), 8);
    }

    #[test]
    fn points_are_named_like_chess_squares() {
        for point in 0..POINTS {
            assert_eq!(parse_point(&point_name(point)), Some(point));
        }
        assert_eq!(point_name(0), "a1");
        assert_eq!(point_name(4), "b2");
        assert_eq!(point_name(8), "c3");
        for bad in ["", "a", "d1", "a4", "a0", "b22", "B2", "2b"] {
            assert_eq!(parse_point(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_line_wins_and_a_player_is_never_blocked_without_one() {
        let game = ThreeMensMorris;
        let board = game.parse_position("a1 a2 b1 b2 c1").unwrap();
        assert_eq!(game.outcome(&board), Some(Value::LOST));
        assert!(game.draw_position(&board).contains("X has three in a row: X wins"));
        // Every placement of three men each: a player who cannot slide faces a line already (the centre is next
        // to every point, so it is taken, and hemming in three men takes the other's men on a line).
        let mut blocked = 0;
        for mover in (0..=ALL_POINTS).filter(|men| men.count_ones() == MEN_EACH) {
            for other in (0..=ALL_POINTS).filter(|men| men.count_ones() == MEN_EACH && men & mover == 0) {
                let board = Board { crosses: mover, noughts: other, crosses_to_move: true };
                if !ThreeMensMorris::can_slide(&board) {
                    blocked += 1;
                    assert!(has_line(other), "{board:?}");
                    assert_eq!(game.outcome(&board), Some(Value::LOST));
                }
            }
        }
        assert!(blocked > 0);
    }
}
