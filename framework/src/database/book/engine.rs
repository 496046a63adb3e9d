//! [`Booked`]: an engine that consults an opening book before it searches.

use super::{Book, BookValue};
use crate::database::record::RecordKey;
use crate::engines::{Engine, Statistics, Stop};
use crate::error::Error;
use crate::game::Canonicalize;
use crate::stats::{Convergence, Stats};

/// Any engine, whose values of the positions an opening book holds come from the book (a lookup reads at most
/// one block), and the others from its search.
pub struct Booked<Search: ?Sized> {
    book: Book,
    read: u64,
    inner: Box<Search>,
}

impl<Search: ?Sized> Booked<Search> {
    /// `inner`, consulting `book` first.
    pub fn new(book: Book, inner: Box<Search>) -> Self {
        Booked { book, read: 0, inner }
    }
}

impl<Search: Statistics + ?Sized> Statistics for Booked<Search> {
    fn stats(&self) -> Stats {
        self.inner.stats()
    }

    fn convergence(&self) -> Option<Convergence> {
        self.inner.convergence()
    }

    fn book_values(&self) -> u64 {
        self.read
    }
}

impl<Ruleset, Search> Engine<Ruleset> for Booked<Search>
where
    Ruleset: Canonicalize,
    Ruleset::Key: RecordKey,
    Search: Engine<Ruleset> + ?Sized,
    Search::Value: BookValue,
{
    type Value = Search::Value;
    type Failure = Error;

    fn search_within(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        budget: u64,
    ) -> Result<Search::Value, Stop<Error>> {
        if let Some(value) = self.book.lookup(game.canonical(position)).map_err(Stop::Failure)? {
            self.read += 1;
            return Ok(value);
        }
        self.inner.search_within(game, position, budget).map_err(|stop| match stop {
            Stop::Budget => Stop::Budget,
            Stop::Repeated => Stop::Repeated,
            Stop::Failure(failure) => Stop::Failure(failure.into()),
        })
    }

    fn budget(&self) -> u64 {
        self.inner.budget()
    }

    fn try_value_within(
        &mut self,
        game: &Ruleset,
        position: &Ruleset::Position,
        low: Search::Value,
        high: Search::Value,
    ) -> crate::Result<Search::Value> {
        if let Some(value) = self.book.lookup(game.canonical(position))? {
            self.read += 1;
            return Ok(value);
        }
        self.inner.try_value_within(game, position, low, high)
    }

    fn holds(&mut self, game: &Ruleset, position: &Ruleset::Position) -> bool {
        matches!(self.book.lookup::<_, Search::Value>(game.canonical(position)), Ok(Some(_)))
    }
}
