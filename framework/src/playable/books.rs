//! Opening books for a [`Playable`]: [`Playable::with_book`] gives a game whose keys and values a database
//! record holds its books (built, checked, and consulted by every engine [`Playable::engine`] makes when the
//! options name a book).

use super::Playable;
use crate::database::book::{build_book, check_book, Book, BookCheck, BookPlace, BookProgress, BookReport, BookValue};
use crate::database::record::RecordKey;
use crate::engines::Engine;
use crate::error::{Error, Result};
use crate::game::{Canonicalize, Rules};
use crate::text::TextForm;
use std::path::Path;

/// A boxed engine of a game, failing with [`Error`].
type Boxed<Ruleset, Worth> = Box<dyn Engine<Ruleset, Value = Worth, Failure = Error>>;

/// Builds a book: [`build_book`] for one game and value type.
type Build<Ruleset, Worth> = fn(
    &Ruleset,
    &str,
    &<Ruleset as Rules>::Position,
    u32,
    &Path,
    &mut dyn Engine<Ruleset, Value = Worth, Failure = Error>,
    usize,
    &mut dyn FnMut(BookProgress) -> std::ops::ControlFlow<()>,
) -> Result<BookReport>;

/// Checks a book: [`check_book`] for one game and value type.
type Check<Ruleset, Worth> = fn(
    &Ruleset,
    &<Ruleset as Rules>::Position,
    &mut Book,
    &mut dyn Engine<Ruleset, Value = Worth, Failure = Error>,
    usize,
    u64,
    usize,
) -> Result<BookCheck>;

/// What a game that reads books does with them, for its types (a game whose keys no record holds has none).
pub(super) struct BookHooks<Ruleset: Rules, Worth> {
    /// An engine consulting a book.
    pub(super) wrap: fn(Book, Boxed<Ruleset, Worth>) -> Boxed<Ruleset, Worth>,
    pub(super) build: Build<Ruleset, Worth>,
    pub(super) check: Check<Ruleset, Worth>,
}

impl<Ruleset: Rules, Worth> Clone for BookHooks<Ruleset, Worth> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<Ruleset: Rules, Worth> Copy for BookHooks<Ruleset, Worth> {}

/// `engine` consulting `book`.
fn wrap<Ruleset, Worth>(book: Book, engine: Boxed<Ruleset, Worth>) -> Boxed<Ruleset, Worth>
where
    Ruleset: Canonicalize + 'static,
    Ruleset::Key: RecordKey,
    Worth: BookValue + 'static,
{
    Box::new(crate::database::book::Booked::new(book, engine))
}

impl<Ruleset: TextForm + Canonicalize + 'static, Worth: BookValue + PartialEq + 'static> Playable<Ruleset, Worth>
where
    Ruleset::Key: RecordKey,
{
    /// The same game, with opening books: `ludus book build` and `book check` make and check them, and the
    /// engines of its analyses, games and explorer consult the one their options name
    /// ([`super::AnalysisOptions::book`]).
    #[must_use]
    pub fn with_book(self) -> Self {
        let hooks = BookHooks {
            wrap: wrap::<Ruleset, Worth>,
            build: |game, name, start, depth, path, engine, memory_mb, watch| {
                build_book(game, name, start, depth, path, engine, memory_mb, watch)
            },
            check: |game, start, book, engine, sample, seed, memory_mb| {
                check_book(game, start, book, engine, sample, seed, memory_mb)
            },
        };
        Playable { books: Some(hooks), ..self }
    }
}

impl<Ruleset: Rules, Worth> Playable<Ruleset, Worth> {
    /// `engine`, consulting the book `place` holds for this game: a directory without one leaves it as it is;
    /// a file named for a game that reads no books is an error.
    pub(super) fn booked(&self, engine: Boxed<Ruleset, Worth>, place: &BookPlace) -> Result<Boxed<Ruleset, Worth>> {
        match (&self.books, place) {
            (Some(hooks), _) => Ok(match place.open(&self.name)? {
                Some(book) => (hooks.wrap)(book, engine),
                None => engine,
            }),
            (None, BookPlace::Directory(_)) => Ok(engine),
            (None, BookPlace::File(_)) => Err(super::no_books(&self.name)),
        }
    }
}
