//! The databases `ludus serve --db DIR` serves, opened at start: each directory's game is read from the header
//! of a tier file in it (checked), made from the registry by that canonical name, and its start position looked
//! up once, so that a directory that is not a whole database of a registered game stops the server before it
//! listens. Requests name a game, never a path: the directories are only those given at start, and the files
//! read are those the game's tiers name in them (read-only; nothing is ever written).

use crate::places::game_in;
use crate::registry::Registry;
use anyhow::{bail, Context, Result};
use ludus_framework::playable::DatabaseGame;
use std::path::PathBuf;

/// A served database: its game and its directory.
pub struct Served {
    /// The game, by the registry.
    pub game: Box<dyn DatabaseGame>,
    /// Its directory, as given.
    pub directory: PathBuf,
}

/// The databases in `directories`, each checked: its game registered, its start position on record, and no
/// two directories of one game.
pub fn open(registry: &Registry, directories: &[PathBuf]) -> Result<Vec<Served>> {
    let mut served: Vec<Served> = Vec::new();
    for directory in directories {
        let name = game_in(directory)?;
        if let Some(family) = name.strip_prefix("endgame of ") {
            // An endgame database holds the positions of few seeds of a family, not a game's: it is probed by
            // the searches, never served as the game's values.
            bail!(
                "{}: an endgame database of {family}, probed by the searches of its games: give it with \
                 `--endgame {}` (`--db` serves a whole game's database)",
                directory.display(),
                directory.display()
            );
        }
        let game = registry
            .database(&name)
            .with_context(|| format!("{}: the database's game `{name}`", directory.display()))?;
        if game.name() != name {
            bail!("{}: the database's game `{name}` is not a canonical name (`{}`)", directory.display(), game.name());
        }
        if let Some(other) = served.iter().find(|other| other.game.name() == name) {
            bail!("{} and {} both hold {name}: give one of them", other.directory.display(), directory.display());
        }
        game.query(directory, None, 0)
            .with_context(|| format!("{}: reading the start position", directory.display()))?;
        served.push(Served { game, directory: directory.clone() });
    }
    Ok(served)
}
