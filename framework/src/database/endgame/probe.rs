//! The probe: [`WithEndgame`], a game whose shortcut at every position inside the tables' bound is the stored
//! value (its other hints the game's own), and [`Probing`], a scored engine that searches over it, so that the
//! search stops at the database's positions and searches only above them.

use super::EndgameTables;
use crate::engines::{Engine, Statistics, Stop};
use crate::error::Error;
use crate::game::{Canonicalize, Rules};
use crate::hints::{Proven, SearchHints, Shortcut, SmallSearch};
use crate::scored::{Deterministic, EndgameTiers, ScoredGame};
use crate::stats::{Convergence, Stats};
use std::path::PathBuf;
use std::sync::Arc;

/// `game`, whose positions inside the bound of `tables` are settled by them: the shortcut of such a position is
/// its stored value, exact. Rules, keys and every other hint are `game`'s.
pub struct WithEndgame<'game, Ruleset> {
    /// The game.
    pub game: &'game Ruleset,
    /// Its endgame tables.
    pub tables: &'game EndgameTables,
}

impl<Ruleset: Rules> Rules for WithEndgame<'_, Ruleset> {
    type Position = Ruleset::Position;
    type Move = Ruleset::Move;
    type Outcome = Ruleset::Outcome;

    const POSITIONS_REPEAT: bool = Ruleset::POSITIONS_REPEAT;

    fn moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>) {
        self.game.moves(position, moves);
    }

    fn play(&self, position: &Self::Position, mv: &Self::Move) -> Self::Position {
        self.game.play(position, mv)
    }

    fn outcome(&self, position: &Self::Position) -> Option<Self::Outcome> {
        self.game.outcome(position)
    }

    fn turn_passes(&self, from: &Self::Position, to: &Self::Position) -> bool {
        self.game.turn_passes(from, to)
    }

    fn is_legal(&self, position: &Self::Position, mv: &Self::Move) -> bool {
        self.game.is_legal(position, mv)
    }
}

impl<Ruleset: ScoredGame> ScoredGame for WithEndgame<'_, Ruleset> {
    const SCORES: crate::scored::ScoreKind = Ruleset::SCORES;
}

impl<Ruleset: Deterministic> Deterministic for WithEndgame<'_, Ruleset> {}

impl<Ruleset: Canonicalize> Canonicalize for WithEndgame<'_, Ruleset> {
    type Key = Ruleset::Key;

    fn canonical(&self, position: &Self::Position) -> Self::Key {
        self.game.canonical(position)
    }
}

impl<Ruleset: EndgameTiers + SearchHints> SearchHints for WithEndgame<'_, Ruleset> {
    fn shortcut(&self, position: &Self::Position) -> Option<Shortcut<i32>> {
        match self.tables.value(self.game, position) {
            Some(value) => Some(Shortcut::Exact(value)),
            None => self.game.shortcut(position),
        }
    }

    fn small_search(&self, position: &Self::Position, alpha: i32, beta: i32) -> Option<SmallSearch<i32>> {
        // Called only where the shortcut, the database's value first, gave none.
        self.game.small_search(position, alpha, beta)
    }

    fn value_range(&self, position: &Self::Position) -> (i32, i32) {
        self.game.value_range(position)
    }

    fn proven(&self, position: &Self::Position) -> Proven<i32> {
        match self.tables.value(self.game, position) {
            Some(value) => Proven::Shortcut(Shortcut::Exact(value)),
            None => self.game.proven(position),
        }
    }

    fn max_remoteness(&self, position: &Self::Position) -> Option<u32> {
        self.game.max_remoteness(position)
    }

    fn shortcuts_catch_game_ends(&self) -> bool {
        self.game.shortcuts_catch_game_ends()
    }

    fn estimate(&self, position: &Self::Position) -> Option<i32> {
        self.game.estimate(position)
    }

    fn prune_moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>) {
        self.game.prune_moves(position, moves);
    }

    fn move_score(&self, position: &Self::Position, mv: &Self::Move) -> i32 {
        self.game.move_score(position, mv)
    }

    fn history_slot(&self, position: &Self::Position, mv: &Self::Move) -> Option<usize> {
        self.game.history_slot(position, mv)
    }

    fn search_moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>, scores: &mut Vec<i32>) {
        self.game.search_moves(position, moves, scores);
    }
}

/// The tables a [`Probing`] engine probes: loaded, or to load from a directory at its first search (where
/// the game, which the files are checked against, is known).
enum Tables {
    Loaded(Arc<EndgameTables>),
    Waiting { directory: PathBuf, memory_mb: usize },
}

/// A scored engine searching over [`WithEndgame`]: the game's engine, probing the tables at every position.
pub struct Probing<Search> {
    tables: Tables,
    inner: Search,
}

impl<Search> Probing<Search> {
    /// `inner`, probing `tables`.
    pub fn new(tables: Arc<EndgameTables>, inner: Search) -> Self {
        Probing { tables: Tables::Loaded(tables), inner }
    }

    /// `inner`, probing the tables in `directory` (every consecutive tier from 0 there), loaded at the first
    /// search within `memory_mb` MiB ([`EndgameTables::open`]; its errors are that search's).
    pub fn opening(directory: PathBuf, memory_mb: usize, inner: Search) -> Self {
        Probing { tables: Tables::Waiting { directory, memory_mb }, inner }
    }

    /// The tables probed, once loaded.
    pub fn tables(&self) -> Option<&EndgameTables> {
        match &self.tables {
            Tables::Loaded(tables) => Some(tables),
            Tables::Waiting { .. } => None,
        }
    }

    /// The tables, loaded now if they wait.
    fn loaded<Ruleset: EndgameTiers>(&mut self, game: &Ruleset) -> Result<Arc<EndgameTables>, Error> {
        match &self.tables {
            Tables::Loaded(tables) => Ok(Arc::clone(tables)),
            Tables::Waiting { directory, memory_mb } => {
                let tables = Arc::new(EndgameTables::open(game, directory, None, *memory_mb)?);
                self.tables = Tables::Loaded(Arc::clone(&tables));
                Ok(tables)
            }
        }
    }
}

impl<Search: Statistics> Statistics for Probing<Search> {
    fn stats(&self) -> Stats {
        self.inner.stats()
    }

    fn convergence(&self) -> Option<Convergence> {
        self.inner.convergence()
    }

    fn book_values(&self) -> u64 {
        self.inner.book_values()
    }
}

impl<Ruleset, Search> Engine<Ruleset> for Probing<Search>
where
    Ruleset: EndgameTiers + SearchHints + Canonicalize,
    Search: for<'game> Engine<WithEndgame<'game, Ruleset>, Value = i32, Failure = Error>,
{
    type Value = i32;
    type Failure = Error;

    fn search_within(&mut self, game: &Ruleset, position: &Ruleset::Position, budget: u64) -> Result<i32, Stop<Error>> {
        let tables = self.loaded(game).map_err(Stop::Failure)?;
        let probed = WithEndgame { game, tables: &tables };
        self.inner.search_within(&probed, position, budget)
    }

    fn budget(&self) -> u64 {
        <Search as Engine<WithEndgame<'_, Ruleset>>>::budget(&self.inner)
    }

    fn try_value_within(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        low: i32,
        high: i32,
    ) -> crate::Result<i32> {
        let tables = self.loaded(game)?;
        self.inner.try_value_within(&WithEndgame { game, tables: &tables }, position, low, high)
    }
}
