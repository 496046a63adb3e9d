//! Kalah(m, n): `m` pits a side and `n` seeds in each pit at the start, captures and extra moves, as a scored
//! game whose turns do not alternate (it implements only [`ludus_framework::scored::ScoredGame`], so the
//! win/loss/draw engines, which assume alternation, refuse it at compile time).
//!
//! ## The rules implemented (those of Irving, Donkers and Uiterwijk, "Solving Kalah", 2000)
//! - Each player has `m` pits on his side and a store at his right. South moves first.
//! - A move takes every seed from one of the mover's non-empty pits and sows them one by one into the
//!   following pits counter-clockwise: his own pits to the right, his store, the other's pits, never the
//!   other's store, and round again if there are many.
//! - Extra move: if the last seed falls into the mover's store, he moves again.
//! - Capture: if the last seed falls into an empty pit of the mover's own side, that seed and the seeds
//!   opposite go to the mover's store. Two rules ([`Capture`]): by default only when the pit opposite holds
//!   seeds ([`Capture::Opposite`]); under [`Capture::Always`], the rule of the published solutions, also when
//!   it is empty (the last seed alone goes to the store).
//! - The game ends as soon as, after a move, one side's pits are all empty (whoever is to move): every seed
//!   left on the other side goes to the store of that side's owner.
//! - The score is, for the player to move at the end, the seeds in his store less those in the other's.
//!
//! A move is written as the number of a pit, `1` to `m` counted from the mover's left (the pit farthest from
//! his store). A position is its moves from the start (`3 1 6`), or its board (`rules.rs`: `Board`'s text).
//! Keys are the board seen from the mover's side (his pits and store first), in a `u128`; `compact.rs` gives the
//! boards whose keys fit a `u64` those keys, for the lock-free packed table. `board.rs` draws the pits and stores
//! on the explorer's page.

mod board;
mod compact;
mod endgame;
mod hints;
mod rules;
mod text;

pub use compact::CompactKalah;
pub use rules::{Board, Pit};

use ludus_framework::{Error, Result};

/// The most pits a side may have.
pub const MAX_PITS: usize = 7;
/// The most seeds a pit may start with.
pub const MAX_SEEDS: u32 = 12;

/// When a last seed sown into an empty pit of the mover's own side is captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Capture {
    /// Only when the pit opposite holds seeds: they and the last seed go to the mover's store (the default).
    #[default]
    Opposite,
    /// Always: the last seed and whatever the pit opposite holds, even nothing, go to the mover's store (the
    /// rule of Irving, Donkers and Uiterwijk's solutions and of later ones).
    Always,
}

impl Capture {
    /// The rule's name as a parameter gives it (`opposite` or `always`).
    pub fn name(self) -> &'static str {
        match self {
            Capture::Opposite => "opposite",
            Capture::Always => "always",
        }
    }

    /// The rule named `name`, if it is one.
    pub fn named(name: &str) -> Option<Capture> {
        [Capture::Opposite, Capture::Always].into_iter().find(|rule| rule.name() == name)
    }
}

/// Kalah with `pits` pits a side and `seeds` seeds a pit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kalah {
    pits: usize,
    seeds: u32,
    capture: Capture,
}

impl Kalah {
    /// Kalah(`pits`, `seeds`): 1 to [`MAX_PITS`] pits, 1 to [`MAX_SEEDS`] seeds (so that every count fits in a
    /// byte and a key in 128 bits).
    pub fn new(pits: usize, seeds: u32) -> Result<Kalah> {
        if !(1..=MAX_PITS).contains(&pits) || !(1..=MAX_SEEDS).contains(&seeds) {
            return Err(Error::parameter(
                "kalah",
                format!("kalah: 1 to {MAX_PITS} pits and 1 to {MAX_SEEDS} seeds a pit, not {pits} and {seeds}"),
            ));
        }
        Ok(Kalah { pits, seeds, capture: Capture::Opposite })
    }

    /// The same game under the capture rule `capture`.
    pub fn with_capture(self, capture: Capture) -> Kalah {
        Kalah { capture, ..self }
    }

    /// The capture rule.
    pub fn capture(&self) -> Capture {
        self.capture
    }

    /// Pits a side.
    pub fn pits(&self) -> usize {
        self.pits
    }

    /// Seeds a pit at the start.
    pub fn seeds(&self) -> u32 {
        self.seeds
    }

    /// Every seed of the game.
    pub fn total(&self) -> u32 {
        2 * self.pits as u32 * self.seeds
    }
}
