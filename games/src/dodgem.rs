//! Dodgem, Colin Vout's game (Berlekamp, Conway and Guy, *Winning Ways*, chapter 22): a loopy game, solved by
//! the framework's retrograde engine ([`ludus_framework::engines::retrograde`]); the negamax engines must not be
//! used on it, since cars move sideways and positions repeat.
//!
//! ## The rules implemented
//! - The board has `n x n` cells, `3 <= n <= 8`; cell `(x, y)` has column `x` (0 at the left) and row `y`
//!   (0 at the bottom). Each player has `n - 1` cars.
//! - Blue, the first player to move, starts with a car on each cell of the left column but the bottom corner:
//!   `(0, 1) .. (0, n - 1)`. Red starts on the bottom row but the corner: `(1, 0) .. (n - 1, 0)`.
//! - A move takes one of the mover's cars one cell forward or sideways onto an empty cell. Blue drives right
//!   (forward), up or down; Red drives up (forward), left or right. No car ever moves backward.
//! - A car leaves the board only by a forward move off the far edge (Blue's off the right edge from column
//!   `n - 1`, Red's off the top edge from row `n - 1`); it never comes back.
//! - A player who has driven his last car off the board has won at once. A player who cannot move, all his
//!   cars being blocked, wins too (a player must leave his opponent a move). So at a position whose player to
//!   move has no legal move the value is `Win(0)`, and right after a player's last car leaves it is `Lose(0)`
//!   for his opponent, to move.
//!
//! Published results (asserted in the tests): on 3 x 3 the first player wins (*Winning Ways*); on 4 x 4 and
//! 5 x 5 neither player can force a win (des Jardins, 1996): a draw by endless play.
//!
//! The board's transpose with the colours swapped maps the rules to themselves, so the canonical key is the
//! position seen with the player to move as Blue: a position and its mirror image, with the other player to
//! move, share a key; a key read back with Blue to move is a position with that key
//! ([`ludus_framework::FromKey`]). Tiers ([`ludus_framework::engines::retrograde::Tiers`]) are the numbers of
//! cars still on the board, larger first; a car leaving moves to a child tier. The un-move hook
//! ([`ludus_framework::engines::retrograde::Retrograde`]) backs a car up, or brings a car back onto the far edge.
//! Each tier's keys are numbered densely ([`ludus_framework::engines::retrograde::Rank`], in `dodgem/rank.rs`), so
//! that a tier is solved with flat arrays instead of hash maps.

mod board_form;
mod rank;

use ludus_framework::engines::retrograde::{Retrograde, Tiers};
use ludus_framework::ParseError;
use ludus_framework::Rules;
use ludus_framework::{Canonicalize, Error, FromKey, Game, Result, Value};

/// A position: the cells of each player's cars (bit `y * n + x`) and who is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cars {
    /// Blue's cars (the first player, driving right).
    pub blue: u64,
    /// Red's cars (driving up).
    pub red: u64,
    /// Whether Blue is to move.
    pub blue_to_move: bool,
}

/// A move: the cell a car leaves, and the cell it reaches (`None`: off the board).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Drive {
    /// The car's cell.
    pub from: u8,
    /// Its new cell, or `None` when it leaves the board.
    pub to: Option<u8>,
}

/// Dodgem on an `n x n` board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dodgem {
    size: u8,
}

impl Dodgem {
    /// The smallest and largest boards (a board of 8 x 8 fills a `u64`).
    pub const SIZES: std::ops::RangeInclusive<u8> = 3..=8;

    /// Dodgem on a `size x size` board, `size` within [`Dodgem::SIZES`].
    pub fn new(size: u8) -> Result<Dodgem> {
        if !Self::SIZES.contains(&size) {
            return Err(Error::limit("the Dodgem board size", u64::from(size), u64::from(*Self::SIZES.end())));
        }
        Ok(Dodgem { size })
    }

    /// The side of the board.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The starting position, Blue to move.
    pub fn start(&self) -> Cars {
        let n = u64::from(self.size);
        let blue = (1..n).fold(0, |mask, y| mask | 1 << (y * n));
        let red = (1..n).fold(0, |mask, x| mask | 1 << x);
        Cars { blue, red, blue_to_move: true }
    }

    /// `mask` with cell `(x, y)` moved to `(y, x)`: the transpose, which swaps the players' directions.
    fn transpose(&self, mask: u64) -> u64 {
        let n = u32::from(self.size);
        Self::cells(mask).fold(0, |out, cell| out | 1 << ((u32::from(cell) % n) * n + u32::from(cell) / n))
    }

    /// The position with colours swapped and the board transposed: it has the same value for its mover.
    fn swapped(&self, cars: &Cars) -> Cars {
        Cars { blue: self.transpose(cars.red), red: self.transpose(cars.blue), blue_to_move: !cars.blue_to_move }
    }

    /// The cell one step forward from `cell` for a car of `blue`, or `None` off the far edge.
    fn forward(&self, cell: u8, blue: bool) -> Option<u8> {
        let n = self.size;
        let (x, y) = (cell % n, cell / n);
        match blue {
            true => (x + 1 < n).then_some(cell + 1),
            false => (y + 1 < n).then_some(cell + n),
        }
    }

    /// The cells sideways from `cell` for a car of `blue`, on the board.
    fn sideways(&self, cell: u8, blue: bool) -> impl Iterator<Item = u8> {
        let n = self.size;
        let (x, y) = (cell % n, cell / n);
        let (back, ahead) = match blue {
            true => ((y > 0).then(|| cell - n), (y + 1 < n).then_some(cell + n)),
            false => ((x > 0).then(|| cell - 1), (x + 1 < n).then_some(cell + 1)),
        };
        back.into_iter().chain(ahead)
    }

    /// The cars of the player to move and of the other, and whether the mover is Blue.
    fn sides(cars: &Cars) -> (u64, u64, bool) {
        match cars.blue_to_move {
            true => (cars.blue, cars.red, true),
            false => (cars.red, cars.blue, false),
        }
    }

    /// Cells of a mask, lowest first (one step per car, not per cell).
    fn cells(mask: u64) -> impl Iterator<Item = u8> {
        let mut rest = mask;
        std::iter::from_fn(move || {
            let cell = rest.trailing_zeros() as u8;
            rest &= rest.wrapping_sub(1);
            (cell < 64).then_some(cell)
        })
    }

    /// Whether the player to move has a legal move (without listing them).
    fn has_move(&self, cars: &Cars) -> bool {
        let (mine, theirs, blue) = Self::sides(cars);
        let occupied = mine | theirs;
        Self::cells(mine).any(|from| {
            self.forward(from, blue).is_none_or(|to| occupied >> to & 1 == 0)
                || self.sideways(from, blue).any(|to| occupied >> to & 1 == 0)
        })
    }
}

impl Rules for Dodgem {
    type Position = Cars;
    type Move = Drive;
    type Outcome = Value;
    const POSITIONS_REPEAT: bool = true;

    fn moves(&self, cars: &Cars, moves: &mut Vec<Drive>) {
        let (mine, theirs, blue) = Self::sides(cars);
        let occupied = mine | theirs;
        for from in Self::cells(mine) {
            match self.forward(from, blue) {
                None => moves.push(Drive { from, to: None }),
                Some(to) if occupied >> to & 1 == 0 => moves.push(Drive { from, to: Some(to) }),
                Some(_) => {}
            }
            moves.extend(
                self.sideways(from, blue).filter(|&to| occupied >> to & 1 == 0).map(|to| Drive { from, to: Some(to) }),
            );
        }
    }

    fn play(&self, cars: &Cars, drive: &Drive) -> Cars {
        let (mut mine, theirs, blue) = Self::sides(cars);
        mine &= !(1u64 << (drive.from % 64));
        if let Some(to) = drive.to {
            mine |= 1 << (to % 64);
        }
        match blue {
            true => Cars { blue: mine, red: theirs, blue_to_move: false },
            false => Cars { blue: theirs, red: mine, blue_to_move: true },
        }
    }

    fn outcome(&self, cars: &Cars) -> Option<Value> {
        let (mine, theirs, _) = Self::sides(cars);
        if theirs == 0 {
            // The opponent drove his last car off: he has won.
            return Some(Value::LOST);
        }
        // Blocked (or without cars, at a start without any): the player to move wins.
        let can_move = mine != 0 && self.has_move(cars);
        (!can_move).then_some(Value::Win(0))
    }
}

impl Game for Dodgem {}

impl Canonicalize for Dodgem {
    /// The cars of the player to move (as Blue) in the low 64 bits, the other's (as Red) in the high ones.
    type Key = u128;

    fn canonical(&self, cars: &Cars) -> u128 {
        let seen = if cars.blue_to_move { *cars } else { self.swapped(cars) };
        u128::from(seen.blue) | u128::from(seen.red) << 64
    }
}

impl FromKey for Dodgem {
    /// The key read back with Blue to move: the position itself, or its colour swap (which shares its key). A
    /// key with a car off the board's cells, a cell taken twice, or more than `n - 1` cars a side gives `None`.
    fn position_of_key(&self, key: &u128) -> Option<Cars> {
        let cells = u32::from(self.size) * u32::from(self.size);
        let on_board = u64::MAX >> (64 - cells);
        let (blue, red) = (*key as u64, (*key >> 64) as u64);
        let most = u32::from(self.size) - 1;
        let fits = (blue | red) & !on_board == 0 && blue & red == 0;
        let counted = blue.count_ones() <= most && red.count_ones() <= most;
        (fits && counted).then_some(Cars { blue, red, blue_to_move: true })
    }
}

impl Tiers for Dodgem {
    /// The numbers of cars on the board, the larger first.
    type Tier = (u8, u8);

    fn tier(&self, cars: &Cars) -> (u8, u8) {
        let (blue, red) = (cars.blue.count_ones() as u8, cars.red.count_ones() as u8);
        (blue.max(red), blue.min(red))
    }

    fn child_tiers(&self, &(more, fewer): &(u8, u8)) -> Vec<(u8, u8)> {
        let mut children = Vec::new();
        if more > 0 {
            children.push(((more - 1).max(fewer), (more - 1).min(fewer)));
        }
        if fewer > 0 {
            children.push((more, fewer - 1));
        }
        children
    }
}

impl Retrograde for Dodgem {
    /// The previous mover's car backs up one step (or comes back onto the far edge, if he has a car off the
    /// board); positions that would already be over are left out.
    fn parents(&self, cars: &Cars, parents: &mut Vec<Cars>) {
        // The previous mover is the one not to move now.
        let (waiting, theirs, blue) = Self::sides(cars);
        let (mover, previous_blue) = (theirs, !blue);
        let occupied = waiting | mover;
        let n = self.size;
        let rebuild = |mover: u64| match previous_blue {
            true => Cars { blue: mover, red: waiting, blue_to_move: true },
            false => Cars { blue: waiting, red: mover, blue_to_move: false },
        };
        // Straight into `parents`, without a list of its own: the solve calls this for every decided position
        // from every thread, and an allocation per call contends for the allocator's lock.
        let mut found = |parent: Cars| {
            if self.outcome(&parent).is_none() {
                parents.push(parent);
            }
        };
        for to in Self::cells(mover) {
            // From behind (a forward move), or from a side cell (a sideways move is reversible).
            let behind = match previous_blue {
                true => (to % n > 0).then(|| to - 1),
                false => (to / n > 0).then(|| to - n),
            };
            for from in behind.into_iter().chain(self.sideways(to, previous_blue)) {
                if occupied >> from & 1 == 0 {
                    found(rebuild(mover & !(1 << to) | 1 << from));
                }
            }
        }
        if (mover.count_ones() as u8) < n - 1 {
            // A car that drove off from the far edge.
            for edge in 0..n {
                let from = match previous_blue {
                    true => edge * n + n - 1,
                    false => (n - 1) * n + edge,
                };
                if occupied >> from & 1 == 0 {
                    found(rebuild(mover | 1 << from));
                }
            }
        }
    }
}

/// No hints: Dodgem is solved by the retrograde engine, which needs none.
impl ludus_framework::SearchHints for Dodgem {}

/// Dodgem's text form for `ludus analyze` and `ludus play`. A cell is written as in chess: its column letter
/// (`a` at the left) and its row number (`1` at the bottom). A move is the car's cell and the cell it drives to
/// (`a2b2`), or its cell and `x` when it drives off the board (`c2x`). A position is its moves from the start,
/// separated by spaces (`-` or nothing: the start). The board is drawn top row first, `B` for Blue's cars and `R`
/// for Red's.
impl ludus_framework::playable::TextForm for Dodgem {
    fn start(&self) -> Cars {
        Dodgem::start(self)
    }

    fn parse_position(&self, text: &str) -> std::result::Result<Cars, ParseError> {
        ludus_framework::playable::position_after_moves(self, text.split_whitespace().filter(|word| *word != "-"))
    }

    fn draw_position(&self, cars: &Cars) -> String {
        let n = self.size;
        let mut drawing = String::new();
        for y in (0..n).rev() {
            drawing.push(char::from(b'1' + y));
            drawing.push(' ');
            for x in 0..n {
                let bit = 1u64 << (y * n + x);
                drawing.push(if cars.blue & bit != 0 {
                    'B'
                } else if cars.red & bit != 0 {
                    'R'
                } else {
                    '.'
                });
            }
            drawing.push('\n');
        }
        drawing.push_str("  ");
        drawing.extend((0..n).map(|x| char::from(b'a' + x)));
        drawing.push('\n');
        if self.outcome(cars).is_none() {
            drawing.push_str(if cars.blue_to_move {
                "Blue (B, driving right) to move\n"
            } else {
                "Red (R, driving up) to move\n"
            });
        }
        drawing
    }

    fn parse_move(&self, cars: &Cars, text: &str) -> std::result::Result<Drive, ParseError> {
        let cell = |text: &str| -> Option<u8> {
            let mut characters = text.chars();
            let column = u8::try_from(characters.next()?).ok()?.checked_sub(b'a')?;
            let row = u8::try_from(characters.next()?).ok()?.checked_sub(b'1')?;
            (characters.next().is_none() && column < self.size && row < self.size).then_some(row * self.size + column)
        };
        let text = text.trim();
        let expected =
            || ParseError::expected("a car's cell and where it drives, like `a2b2`, or `c2x` to drive off", text);
        let (from, to) = text.split_at_checked(2).ok_or_else(expected)?;
        let from = cell(from).ok_or_else(expected)?;
        let to = if to == "x" { None } else { Some(cell(to).ok_or_else(expected)?) };
        let drive = Drive { from, to };
        if self.outcome(cars).is_some() {
            return Err(ParseError::game_over());
        }
        if !self.legal_moves(cars).contains(&drive) {
            return Err(ParseError::refused(format!("`{text}` is not a legal move of the player to move")));
        }
        Ok(drive)
    }

    fn render_move(&self, _position: &Self::Position, drive: &Drive) -> String {
        let name = |cell: u8| format!("{}{}", char::from(b'a' + cell % self.size), cell / self.size + 1);
        match drive.to {
            Some(to) => format!("{}{}", name(drive.from), name(to)),
            None => format!("{}x", name(drive.from)),
        }
    }
}
