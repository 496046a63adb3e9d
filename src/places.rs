//! Where the searches look for what was solved before them: the game's opening book (`--book`, `--no-book`,
//! the books directory) and its endgame database (`--endgame`, `--no-endgame`, the databases directory), for
//! `analyze`, `play`, `serve` and `book`.

use anyhow::{bail, Context};
use ludus_framework::database::book::BookPlace;
use ludus_framework::database::endgame::{endgame_folder_name, EndgamePlace};
use ludus_framework::database::file::TierFile;
use ludus_framework::database::store::EXTENSION;
use ludus_framework::playable::PlayableGame;
use std::path::{Path, PathBuf};

/// The directory of the databases `ludus db` writes when no `--db` is given, relative to where it runs.
pub const DATABASES_DIRECTORY: &str = "db";

/// Where an opening book is looked for (`analyze`, `play`, `serve`).
#[derive(Debug, Default, clap::Args)]
pub struct BookOptions {
    /// The opening book to consult before a search (`ludus book build`): this file, which must be the game's.
    /// By default the game's book in the books directory, if there is one.
    #[arg(long, value_name = "FILE", conflicts_with = "no_book")]
    book: Option<PathBuf>,
    /// Consult no opening book: every value is searched.
    #[arg(long)]
    no_book: bool,
}

impl BookOptions {
    /// Where the book is looked for: `None` with `--no-book`.
    pub fn place(&self) -> Option<BookPlace> {
        match (&self.book, self.no_book) {
            (_, true) => None,
            (Some(file), false) => Some(BookPlace::File(file.clone())),
            (None, false) => Some(BookPlace::Directory(books_directory())),
        }
    }
}

/// The directory of the books: `$LUDUS_BOOKS`, or else the `books` directory of the source this binary was
/// built from (where the books made for the standard boards are kept).
pub fn books_directory() -> PathBuf {
    match std::env::var_os("LUDUS_BOOKS") {
        Some(directory) => PathBuf::from(directory),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("books"),
    }
}

/// Where an endgame database is looked for (`analyze`, `play`, `serve`, `book`), for a game that has one
/// (Kalah); other games ignore it.
#[derive(Debug, Default, clap::Args)]
pub struct EndgameOptions {
    /// The endgame database to probe (`ludus db solve GAME --up-to N --db DIR`): this directory, which must
    /// hold one of the game's family. By default the database of the game's family in `db/` (where `ludus db
    /// solve GAME --up-to N` writes it), if there is one.
    #[arg(long, value_name = "DIR", conflicts_with = "no_endgame")]
    endgame: Option<PathBuf>,
    /// Probe no endgame database: every position is searched.
    #[arg(long)]
    no_endgame: bool,
}

impl EndgameOptions {
    /// Where the database is looked for: `None` with `--no-endgame`.
    pub fn place(&self) -> Option<EndgamePlace> {
        match (&self.endgame, self.no_endgame) {
            (_, true) => None,
            (Some(directory), false) => Some(EndgamePlace::Directory(directory.clone())),
            (None, false) => Some(EndgamePlace::Databases(PathBuf::from(DATABASES_DIRECTORY))),
        }
    }
}

/// The directory of `game`'s endgame database in the databases directory (`db/` and the folder of its
/// family), or `None` for a game without endgame databases.
pub fn default_endgame_directory(game: &dyn PlayableGame) -> Option<PathBuf> {
    let family = game.endgame_family()?;
    Some(Path::new(DATABASES_DIRECTORY).join(endgame_folder_name(&family)))
}

/// Says on standard error, for `command`, which endgame database `game`'s searches probe when they found it
/// in the databases directory rather than were given it: a user who did not name it learns where its values
/// come from, and how to search without it.
pub fn note_found_endgame(command: &str, game: &dyn PlayableGame, place: Option<&EndgamePlace>) {
    if let (Some(place @ EndgamePlace::Databases(_)), Some(family)) = (place, game.endgame_family()) {
        if let Some(directory) = place.directory(&family) {
            note!("ludus {command}: probing the endgame database in {} (--no-endgame: none)", directory.display());
        }
    }
}

/// The game whose tier files `directory` holds, read from the first one's header (by name order).
pub fn game_in(directory: &Path) -> anyhow::Result<String> {
    let entries = std::fs::read_dir(directory).with_context(|| format!("cannot read {}", directory.display()))?;
    let mut first: Option<PathBuf> = None;
    for entry in entries {
        let path = entry.with_context(|| format!("cannot read {}", directory.display()))?.path();
        if path.extension().is_some_and(|extension| extension == EXTENSION)
            && first.as_ref().is_none_or(|known| path < *known)
        {
            first = Some(path);
        }
    }
    let Some(path) = first else {
        bail!(
            "{}: no tier file (*.{EXTENSION}) in it: solve one with `ludus db solve GAME --db DIR`",
            directory.display()
        )
    };
    Ok(TierFile::game_of(&path)?)
}
