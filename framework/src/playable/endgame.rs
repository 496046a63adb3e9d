//! Endgame databases for a [`Playable`]: [`Playable::with_endgame`] gives a scored game whose tiers close
//! downward ([`EndgameTiers`]) its database: solved and checked by `ludus db`, and probed by every engine
//! [`Playable::engine`] makes when the options name its directory, or a directory of databases that holds one
//! of its family ([`super::AnalysisOptions::endgame`]).

use super::{AnalysisOptions, Playable};
use crate::database::endgame::{check_endgame, solve_endgame, EndgameSolve, EndgameTables, Probing};
use crate::database::{CheckProgress, CheckReport, TierReport};
use crate::engines::scored::ScoredAlphaBeta;
use crate::engines::Engine;
use crate::engines::Mode;
use crate::error::{Error, Remedy, Result, Setting};
use crate::game::{Canonicalize, Rules};
use crate::hints::SearchHints;
use crate::scored::EndgameTiers;
use crate::table::{mib, KeyedTable, PackedTable, TableStorage, TranspositionTable};
use crate::text::TextForm;
use std::path::Path;

/// A boxed engine of a game, failing with [`Error`].
type Boxed<Ruleset, Worth> = Box<dyn Engine<Ruleset, Value = Worth, Failure = Error>>;

/// Solves a game's endgame database: [`solve_endgame`] for one game.
type Solve<Ruleset> = fn(&Ruleset, &Path, &EndgameSolve, &mut dyn FnMut(&TierReport)) -> Result<()>;

/// Checks a game's endgame database within a memory budget in MiB: [`check_endgame`] for one game.
type Check<Ruleset> = fn(&Ruleset, &Path, usize, &mut CheckProgress) -> Result<CheckReport>;

/// What a game with an endgame database does with it, for its types.
pub(super) struct EndgameHooks<Ruleset: Rules, Worth> {
    /// The scored engine probing the database in a directory.
    pub(super) probing: fn(&Path, &AnalysisOptions) -> Result<Boxed<Ruleset, Worth>>,
    /// The family of the game's database ([`EndgameTiers::endgame_family`]).
    pub(super) family: fn(&Ruleset) -> String,
    pub(super) solve: Solve<Ruleset>,
    pub(super) check: Check<Ruleset>,
}

impl<Ruleset: Rules, Worth> Clone for EndgameHooks<Ruleset, Worth> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<Ruleset: Rules, Worth> Copy for EndgameHooks<Ruleset, Worth> {}

/// The error of a game without endgame databases.
pub(super) fn no_endgame(game: &str) -> Error {
    Error::Unsupported {
        game: game.to_string(),
        operation: "an endgame database".into(),
        reason: "only a scored game whose tiers close downward has one (Kalah: the seeds left in the pits)".into(),
    }
}

/// What is left of `memory_mb` for the database's tables once the search's table has its `table_mb`.
fn left_for_tables(options: &AnalysisOptions) -> Result<usize> {
    options.memory_mb.checked_sub(options.table_mb).ok_or_else(|| Error::Limit {
        what: "the table's memory, in MiB,".into(),
        setting: Some(Setting::TableMb),
        got: options.table_mb as u64,
        limit: options.memory_mb as u64,
        remedies: vec![Remedy::Raise(Setting::MemoryMb), Remedy::Lower(Setting::TableMb)],
    })
}

/// Scored alpha-beta probing the database in `directory`, its table within `table_mb` (keyed; sharded by locks
/// on several threads) and the tables within what is left of `memory_mb`.
fn probing<Ruleset>(directory: &Path, options: &AnalysisOptions) -> Result<Boxed<Ruleset, i32>>
where
    Ruleset: EndgameTiers + Canonicalize + SearchHints + Sync + 'static,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: Send,
{
    let left = left_for_tables(options)?;
    #[cfg(feature = "parallel")]
    if options.threads > 1 {
        return probing_threads(directory, left, options, crate::table::ShardedTable::new(mib(options.table_mb)));
    }
    probing_one(directory, left, options, KeyedTable::new(mib(options.table_mb)))
}

/// [`probing`] over a [`PackedTable`], for a game whose keys fit 64 bits: one word an entry, shared by the
/// threads without locks. One part, no near part: the searches above an endgame database store most of their
/// positions at the depths the engine calls near, which a near part of 1 MiB keeps too briefly (Kalah(6, 4)
/// over the tiers up to 24: 3.4 times the positions with it under one rule; BENCHMARKS.md, "Kalah at the
/// frontier").
fn packed_probing<Ruleset>(directory: &Path, options: &AnalysisOptions) -> Result<Boxed<Ruleset, i32>>
where
    Ruleset: EndgameTiers + Canonicalize + SearchHints + Sync + 'static,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: Send + Copy + Into<u64>,
{
    let left = left_for_tables(options)?;
    let table = PackedTable::with_parts(mib(options.table_mb), 0)?;
    #[cfg(feature = "parallel")]
    if options.threads > 1 {
        return probing_threads(directory, left, options, table);
    }
    probing_one(directory, left, options, table)
}

/// The scored alpha-beta over `table`, probing the database in `directory` loaded within `left` MiB.
fn probing_one<Ruleset, Table>(
    directory: &Path,
    left: usize,
    options: &AnalysisOptions,
    table: Table,
) -> Result<Boxed<Ruleset, i32>>
where
    Ruleset: EndgameTiers + Canonicalize + SearchHints + 'static,
    Table: TranspositionTable<Ruleset::Key> + TableStorage + 'static,
{
    let engine = ScoredAlphaBeta::with_table(Mode::Exact, table)
        .with_budget(options.max_positions)
        .with_guess_budget(options.guess_positions)
        .with_progress_line(options.progress.clone());
    Ok(Box::new(Probing::opening(directory.to_path_buf(), left, engine)))
}

/// The scored Lazy SMP on `options.threads` threads over `table`, probing the database in `directory`.
#[cfg(feature = "parallel")]
fn probing_threads<Ruleset, Table>(
    directory: &Path,
    left: usize,
    options: &AnalysisOptions,
    table: Table,
) -> Result<Boxed<Ruleset, i32>>
where
    Ruleset: EndgameTiers + Canonicalize + SearchHints + Sync + 'static,
    Ruleset::Position: Sync,
    Table: crate::table::SharedTable<Ruleset::Key> + TableStorage + 'static,
{
    let engine = crate::engines::scored::ScoredLazySmp::with_table(Mode::Exact, options.threads, table)?
        .with_budget(options.max_positions)
        .with_guess_budget(options.guess_positions)
        .with_progress_line(options.progress.clone());
    Ok(Box::new(Probing::opening(directory.to_path_buf(), left, engine)))
}

impl<Ruleset> Playable<Ruleset, i32>
where
    Ruleset: EndgameTiers + TextForm + Canonicalize + SearchHints + Sync + 'static,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: Send,
{
    /// The same game, with an endgame database: `ludus db solve --up-to` solves it, `db check` checks it, and
    /// the engines of its analyses, games, explorer and books probe the one their options name.
    #[must_use]
    pub fn with_endgame(self) -> Self {
        self.with_endgame_probing(probing::<Ruleset>)
    }

    /// [`Playable::with_endgame`], whose searches keep their bounds in a [`PackedTable`] (for a game whose keys
    /// fit 64 bits: Kalah's compact keys).
    #[must_use]
    pub fn with_packed_endgame(self) -> Self
    where
        Ruleset::Key: Copy + Into<u64>,
    {
        self.with_endgame_probing(packed_probing::<Ruleset>)
    }

    /// The endgame database's hooks, its engines made by `probing`.
    fn with_endgame_probing(self, probing: fn(&Path, &AnalysisOptions) -> Result<Boxed<Ruleset, i32>>) -> Self {
        let hooks = EndgameHooks {
            probing,
            family: Ruleset::endgame_family,
            solve: |game, directory, solve, report| solve_endgame(game, directory, solve, report).map(drop),
            check: |game, directory, memory_mb, progress| {
                let tables = EndgameTables::open(game, directory, None, memory_mb)?;
                Ok(check_endgame(game, &tables, progress))
            },
        };
        Playable { endgame: Some(hooks), ..self }
    }
}

impl<Ruleset: Rules, Worth> Playable<Ruleset, Worth> {
    /// The engine that searches as `options` ask (the game's own, or the one probing its endgame database),
    /// before any book.
    pub(super) fn searching_engine(&self, options: &AnalysisOptions) -> Result<Boxed<Ruleset, Worth>> {
        let probed = match (&options.endgame, &self.endgame) {
            (Some(place), Some(hooks)) => place.directory(&(hooks.family)(&self.game)).map(|found| (hooks, found)),
            _ => None,
        };
        match probed {
            Some((hooks, directory)) => (hooks.probing)(&directory, options),
            // A game without endgame databases searches as usual (a server's options serve every game), as does
            // one whose family has no database in the directory of databases.
            None => (self.make)(&self.name, options),
        }
    }
}
