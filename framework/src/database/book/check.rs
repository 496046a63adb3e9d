//! [`check_book`]: a book checked against its game. Every position of its plies must be in it and nothing
//! else; every position above the deepest ply must hold the best of its moves' values as the book gives them;
//! and a random sample of its positions is searched again by the game's engine.

use super::build::enumerate;
use super::{Book, BookValue};
use crate::analysis::SearchValue;
use crate::database::record::RecordKey;
use crate::engines::Engine;
use crate::error::Result;
use crate::game::{Canonicalize, Rules};
use crate::random::seeded_rng;
use rand::seq::SliceRandom;
use serde::Serialize;
use std::collections::HashMap;

/// The most problems a check lists (it counts them all).
const MAX_LISTED: usize = 20;

/// What a check found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BookCheck {
    /// The book's file.
    pub path: String,
    /// Its depth.
    pub depth: u32,
    /// Positions it holds.
    pub positions: u64,
    /// Positions whose value was checked against their moves' values in the book.
    pub backed_up: u64,
    /// Positions searched again.
    pub sampled: u64,
    /// Problems found, in all.
    pub problems: u64,
    /// The first problems (at most 20), each said in words.
    pub listed: Vec<String>,
}

impl BookCheck {
    /// Whether the book passed.
    pub fn passed(&self) -> bool {
        self.problems == 0
    }

    fn problem(&mut self, text: String) {
        self.problems += 1;
        if self.listed.len() < MAX_LISTED {
            self.listed.push(text);
        }
    }
}

/// Checks `book` of `game` from `start`: its keys are exactly the positions of its plies (enumerated within
/// `memory_mb` MiB), the values above its deepest ply are backed up from their moves', and `sample` positions
/// drawn with `seed` are searched again by `engine`.
pub fn check_book<Ruleset, Search>(
    game: &Ruleset,
    start: &Ruleset::Position,
    book: &mut Book,
    engine: &mut Search,
    sample: usize,
    seed: u64,
    memory_mb: usize,
) -> Result<BookCheck>
where
    Ruleset: Rules + Canonicalize,
    Ruleset::Key: RecordKey,
    Search: Engine<Ruleset> + ?Sized,
    Search::Value: BookValue + PartialEq,
{
    let levels = enumerate(game, start, book.depth(), memory_mb)?;
    let mut check = BookCheck {
        path: book.path().display().to_string(),
        depth: book.depth(),
        positions: book.positions(),
        backed_up: 0,
        sampled: 0,
        problems: 0,
        listed: Vec::new(),
    };
    let mut values = HashMap::new();
    for (key, record) in book.records()? {
        match Search::Value::from_record(record) {
            Some(value) => {
                values.insert(key, value);
            }
            None => check.problem(format!("key {key:#x}: the record {:#06x} is of another family", record.bits())),
        }
    }
    let expected: u64 = levels.iter().map(|level| level.len() as u64).sum();
    if expected != values.len() as u64 {
        check.problem(format!("{} positions in the book, {expected} in its plies", values.len()));
    }
    let deepest = levels.len() - 1;
    for (ply, level) in levels.iter().enumerate() {
        for (key, position) in level {
            let Some(&value) = values.get(&key.to_wide()) else {
                check.problem(format!("ply {ply}: key {key:?} is missing"));
                continue;
            };
            if ply == deepest || game.is_over(position) {
                continue;
            }
            let mut best: Option<Search::Value> = None;
            let mut complete = true;
            for mv in game.legal_moves(position) {
                let child = game.play(position, &mv);
                match values.get(&game.canonical(&child).to_wide()) {
                    Some(child_value) => {
                        let found = child_value.for_move(game.turn_passes(position, &child));
                        best = Some(match best {
                            Some(best) if !found.is_better(best) => best,
                            _ => found,
                        });
                    }
                    // A move to a position first reached deeper than the book: not checked here.
                    None => complete = false,
                }
            }
            if complete {
                check.backed_up += 1;
                if best.is_some_and(|best| best != value) {
                    check.problem(format!("ply {ply}: key {key:?} holds {value:?}, its moves give {best:?}"));
                }
            }
        }
    }
    let mut all: Vec<&(Ruleset::Key, Ruleset::Position)> = levels.iter().flatten().collect();
    all.shuffle(&mut seeded_rng(seed));
    for (key, position) in all.into_iter().take(sample) {
        let Some(&stored) = values.get(&key.to_wide()) else { continue };
        let searched = engine.try_value(game, position)?;
        check.sampled += 1;
        if searched != stored {
            check.problem(format!("key {key:?}: the book holds {stored:?}, a search gives {searched:?}"));
        }
    }
    Ok(check)
}
