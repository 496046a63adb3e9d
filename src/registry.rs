//! The registry: the plugins and the games the CLI knows, built in or added by a crate that runs the CLI
//! itself ([`crate::run`]).

use anyhow::{bail, Result};
use ludus_framework::database::{find_database, DatabaseEntry, DatabaseGame};
use ludus_framework::playable::{find_game, GameEntry, PlayableGame};
use ludus_framework::plugin::Plugin;

/// The plugins and games the CLI runs.
pub struct Registry {
    plugins: Vec<Box<dyn Plugin>>,
    games: Vec<GameEntry>,
    databases: Vec<DatabaseEntry>,
}

impl Registry {
    /// Every plugin and game of the games and puzzles crates, games first.
    pub fn builtin() -> Self {
        let mut plugins = ludus_games::plugins();
        plugins.extend(ludus_puzzles::plugins());
        Registry {
            plugins,
            games: ludus_games::registry::GAMES.to_vec(),
            databases: ludus_games::registry::DATABASES.to_vec(),
        }
    }

    /// The same registry with one more plugin (a plugin of the same name replaces the one there).
    #[must_use]
    pub fn with_plugin(mut self, plugin: Box<dyn Plugin>) -> Self {
        self.plugins.retain(|known| known.name() != plugin.name());
        self.plugins.push(plugin);
        self
    }

    /// The same registry with one more game (a game of the same name replaces the one there).
    #[must_use]
    pub fn with_game(mut self, game: GameEntry) -> Self {
        self.games.retain(|known| known.name != game.name);
        self.games.push(game);
        self
    }

    /// The same registry with one more game that can be solved into a database (a game of the same name
    /// replaces the one there).
    #[must_use]
    pub fn with_database(mut self, game: DatabaseEntry) -> Self {
        self.databases.retain(|known| known.name != game.name);
        self.databases.push(game);
        self
    }

    /// Every game that can be solved into a database.
    pub fn databases(&self) -> &[DatabaseEntry] {
        &self.databases
    }

    /// The database game named by `spec` (`name` or `name:key=value,...`).
    pub fn database(&self, spec: &str) -> Result<Box<dyn DatabaseGame>> {
        Ok(find_database(&self.databases, spec)?)
    }

    /// Every plugin.
    pub fn plugins(&self) -> &[Box<dyn Plugin>] {
        &self.plugins
    }

    /// Every game.
    pub fn games(&self) -> &[GameEntry] {
        &self.games
    }

    /// The plugin called `name`, or an error listing the known names.
    pub fn find(&self, name: &str) -> Result<&dyn Plugin> {
        match self.plugins.iter().find(|plugin| plugin.name() == name) {
            Some(plugin) => Ok(plugin.as_ref()),
            None => {
                let names: Vec<&str> = self.plugins.iter().map(|plugin| plugin.name()).collect();
                bail!("unknown plugin `{name}` (known: {})", names.join(", "))
            }
        }
    }

    /// The plugins named by `name`: all of them for `all`, else the one.
    pub fn select(&self, name: &str) -> Result<Vec<&dyn Plugin>> {
        if name == "all" {
            Ok(self.plugins.iter().map(AsRef::as_ref).collect())
        } else {
            Ok(vec![self.find(name)?])
        }
    }

    /// The game named by `spec` (`name` or `name:key=value,...`).
    pub fn game(&self, spec: &str) -> Result<Box<dyn PlayableGame>> {
        Ok(find_game(&self.games, spec)?)
    }
}
