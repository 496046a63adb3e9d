//! [`build_book`]: every position up to `depth` plies from the start, up to symmetry, with its exact value.
//!
//! Only the positions first reached at the deepest ply (and the finished ones) are searched, by the game's
//! engine, one after the other over its one table: a shallower position's value is backed up from its moves'
//! values, as an analysis reads them. The values searched go to a journal as they are found, so a build that
//! stops resumes without searching them again; the book is written (through a temporary file renamed at the
//! end) once every value is known, and the journal removed.

use super::journal::{journal_path, Journal};
use super::{book_tier, Book, BookValue};
use crate::analysis::SearchValue;
use crate::database::file::{write_tier, TierName};
use crate::database::record::{Record, RecordKey};
use crate::engines::Engine;
use crate::error::{Error, Result};
use crate::game::{Canonicalize, Rules};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;
use std::path::Path;

/// How far a build is, told after each position searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BookProgress {
    /// Positions of the deepest ply (and finished ones) whose values are known, the journal's included.
    pub searched: u64,
    /// Positions to search in all.
    pub to_search: u64,
    /// Positions the book will hold.
    pub positions: u64,
}

/// What a build made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BookReport {
    /// The game, with its parameters.
    pub game: String,
    /// The book's file.
    pub path: String,
    /// Its depth in plies.
    pub depth: u32,
    /// The positions it holds, up to symmetry.
    pub positions: u64,
    /// The positions it holds at each ply, from the start (a position counted at the first ply it is reached).
    pub by_ply: Vec<u64>,
    /// Positions searched by this run.
    pub searched: u64,
    /// Positions whose values the journal of an earlier run gave.
    pub resumed: u64,
    /// The file's size in bytes.
    pub bytes: u64,
    /// Whether the book was there already (nothing was searched).
    pub existed: bool,
}

/// The bytes one position of the enumeration holds: the position and its key, with the hash set's share.
fn bytes_per_position<Ruleset: Canonicalize>() -> u64 {
    (std::mem::size_of::<Ruleset::Position>() + 3 * std::mem::size_of::<Ruleset::Key>() + 16) as u64
}

/// Builds the book of `game` (its canonical name `name`) to `depth` plies from `start` at `path`, searching
/// with `engine` within `memory_mb` MiB for the enumeration, telling `watch` of each position searched: a
/// `Break` from it stops the build there ([`Error::Stopped`]; the values found stay in the journal). Resumes
/// from the journal beside `path`; a whole book already at `path` is reported, not built again.
#[allow(clippy::too_many_arguments)]
pub fn build_book<Ruleset, Search>(
    game: &Ruleset,
    name: &str,
    start: &Ruleset::Position,
    depth: u32,
    path: &Path,
    engine: &mut Search,
    memory_mb: usize,
    watch: &mut dyn FnMut(BookProgress) -> ControlFlow<()>,
) -> Result<BookReport>
where
    Ruleset: Rules + Canonicalize,
    Ruleset::Key: RecordKey,
    Search: Engine<Ruleset> + ?Sized,
    Search::Value: BookValue,
{
    if path.exists() {
        let book = Book::open(path, name)?;
        if book.depth() != depth {
            return Err(Error::Database {
                path: path.display().to_string(),
                reason: format!("a book of {} plies, not {depth}: give another path", book.depth()),
            });
        }
        let bytes = std::fs::metadata(path).map_err(|cause| io_error(path, cause))?.len();
        return Ok(BookReport {
            game: name.to_string(),
            path: path.display().to_string(),
            depth,
            positions: book.positions(),
            by_ply: Vec::new(),
            searched: 0,
            resumed: 0,
            bytes,
            existed: true,
        });
    }
    let levels = enumerate(game, start, depth, memory_mb)?;
    let positions: u64 = levels.iter().map(|level| level.len() as u64).sum();
    // Searched: the deepest ply's positions, and the finished ones of every ply.
    let deepest = levels.len() - 1;
    let to_search: Vec<&(Ruleset::Key, Ruleset::Position)> = levels
        .iter()
        .enumerate()
        .flat_map(|(ply, level)| level.iter().filter(move |(_, position)| ply == deepest || game.is_over(position)))
        .collect();
    let searched_keys: HashSet<u128> = to_search.iter().map(|(key, _)| key.to_wide()).collect();
    let journal_at = journal_path(path);
    let (mut journal, known) = Journal::open(&journal_at, name, depth, |key| searched_keys.contains(&key))?;
    let mut values: HashMap<u128, Search::Value> = HashMap::with_capacity(levels.iter().map(Vec::len).sum());
    for (key, record) in &known {
        let value = Search::Value::from_record(*record).ok_or_else(|| Error::Database {
            path: journal_at.display().to_string(),
            reason: format!("the record {:#06x} is not a value of this game's family", record.bits()),
        })?;
        values.insert(*key, value);
    }
    let resumed = values.len() as u64;
    let mut progress = BookProgress { searched: resumed, to_search: to_search.len() as u64, positions };
    if watch(progress).is_break() {
        return Err(Error::Stopped);
    }
    let mut searched = 0;
    for (key, position) in &to_search {
        let wide = key.to_wide();
        if values.contains_key(&wide) {
            continue;
        }
        let value = engine.try_value(game, position)?;
        journal.append(wide, record_of(value, path)?)?;
        values.insert(wide, value);
        searched += 1;
        progress.searched += 1;
        if watch(progress).is_break() {
            journal.sync()?;
            return Err(Error::Stopped);
        }
    }
    journal.sync()?;
    // Backed up, deepest first: a move's position is at most one ply deeper, so its value is known, but for
    // a position first reached at a shallower ply than this one's moves (searched then).
    for level in levels[..deepest].iter().rev() {
        for (key, position) in level {
            if values.contains_key(&key.to_wide()) {
                continue;
            }
            let mut best: Option<Search::Value> = None;
            for mv in game.legal_moves(position) {
                let child = game.play(position, &mv);
                let child_key = game.canonical(&child).to_wide();
                let child_value = match values.get(&child_key) {
                    Some(value) => *value,
                    None => {
                        let value = engine.try_value(game, &child)?;
                        values.insert(child_key, value);
                        value
                    }
                };
                let found = child_value.for_move(game.turn_passes(position, &child));
                best = Some(match best {
                    Some(best) if !found.is_better(best) => best,
                    _ => found,
                });
            }
            let value = match best {
                Some(value) => value,
                None => engine.try_value(game, position)?,
            };
            values.insert(key.to_wide(), value);
        }
    }
    let mut records = Vec::with_capacity(positions as usize);
    for (key, _) in levels.iter().flatten() {
        let value = values.get(&key.to_wide()).copied().ok_or_else(|| Error::internal("book", "a value missing"))?;
        records.push((*key, record_of(value, path)?));
    }
    let tier = TierName { game: name.to_string(), tier: book_tier(depth), ranks: None };
    let bytes = write_tier(path, &tier, Vec::new(), records)?;
    std::fs::remove_file(&journal_at).map_err(|cause| io_error(&journal_at, cause))?;
    Ok(BookReport {
        game: name.to_string(),
        path: path.display().to_string(),
        depth,
        positions,
        by_ply: levels.iter().map(|level| level.len() as u64).collect(),
        searched,
        resumed,
        bytes,
        existed: false,
    })
}

/// The positions first reached at one ply, each with its canonical key.
pub(super) type Level<Ruleset> = Vec<(<Ruleset as Canonicalize>::Key, <Ruleset as Rules>::Position)>;

/// The positions of every ply up to `depth`, each canonical key once (at the first ply it is reached), in the
/// order the moves reach them; within `memory_mb` MiB.
pub(super) fn enumerate<Ruleset>(
    game: &Ruleset,
    start: &Ruleset::Position,
    depth: u32,
    memory_mb: usize,
) -> Result<Vec<Level<Ruleset>>>
where
    Ruleset: Rules + Canonicalize,
{
    let limit = (memory_mb as u64).saturating_mul(1 << 20) / bytes_per_position::<Ruleset>();
    let first = game.canonical(start);
    let mut seen = HashSet::from([first.clone()]);
    let mut levels = vec![vec![(first, start.clone())]];
    for ply in 1..=depth {
        let mut next = Vec::new();
        for (_, position) in levels.last().into_iter().flatten() {
            if game.is_over(position) {
                continue;
            }
            for mv in game.legal_moves(position) {
                let child = game.play(position, &mv);
                let key = game.canonical(&child);
                if seen.insert(key.clone()) {
                    next.push((key, child));
                    if seen.len() as u64 > limit {
                        // Counted in the budget's own unit: how many more there would be is not known.
                        let what = format!(
                            "the positions of the book's plies ({} by ply {ply} of {depth}, and more)",
                            seen.len()
                        );
                        let bytes = (seen.len() as u64).saturating_mul(bytes_per_position::<Ruleset>());
                        return Err(Error::over_memory(what, bytes, memory_mb, Some("build fewer plies")));
                    }
                }
            }
        }
        levels.push(next);
    }
    Ok(levels)
}

/// `value` as a record (a value no record holds is an error naming the book).
fn record_of<Worth: BookValue>(value: Worth, path: &Path) -> Result<Record> {
    value.to_record().ok_or_else(|| Error::Database {
        path: path.display().to_string(),
        reason: format!("the value {value:?} is past what a record holds"),
    })
}

fn io_error(path: &Path, cause: std::io::Error) -> Error {
    Error::Io { path: path.display().to_string(), cause }
}
