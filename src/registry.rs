//! The registry: the plugins and the games the CLI knows, built in or added by a crate that runs the CLI
//! itself ([`crate::run`]). Each game is registered once ([`Registration`]); what can be done with it
//! (analyse, play, solve into a database) comes from what its registration makes.

use anyhow::{bail, Result};
use ludus_framework::playable::DatabaseGame;
use ludus_framework::playable::{find_registration, Made, PlayableGame, Registration};
use ludus_framework::plugin::{Plugin, Workload};

/// The plugins, games and benchmark workloads the CLI runs.
pub struct Registry {
    plugins: Vec<Box<dyn Plugin>>,
    games: Vec<Registration>,
    workloads: Vec<Workload>,
}

impl Registry {
    /// Every plugin, game and workload of the games and puzzles crates, games first.
    pub fn builtin() -> Self {
        let mut plugins = ludus_games::plugins();
        plugins.extend(ludus_puzzles::plugins());
        let mut workloads = ludus_games::workloads();
        workloads.extend(ludus_puzzles::workloads());
        Registry { plugins, games: ludus_games::registry::GAMES.to_vec(), workloads }
    }

    /// The same registry with one more benchmark workload for `ludus bench` (a workload of the same name
    /// replaces the one there).
    #[must_use]
    pub fn with_workload(mut self, workload: Workload) -> Self {
        self.workloads.retain(|known| known.name != workload.name);
        self.workloads.push(workload);
        self
    }

    /// Every benchmark workload, in the order `ludus bench` runs them.
    pub fn workloads(&self) -> &[Workload] {
        &self.workloads
    }

    /// The same registry with one more plugin (a plugin of the same name replaces the one there).
    #[must_use]
    pub fn with_plugin(mut self, plugin: Box<dyn Plugin>) -> Self {
        self.plugins.retain(|known| known.name() != plugin.name());
        self.plugins.push(plugin);
        self
    }

    /// The same registry with one more game (a game of the same name replaces the one there). It gets all a
    /// built-in game gets: `analyze`, `play`, and `db` if its registration makes a database.
    #[must_use]
    pub fn with_game(mut self, game: Registration) -> Self {
        self.games.retain(|known| known.name != game.name);
        self.games.push(game);
        self
    }

    /// Every plugin.
    pub fn plugins(&self) -> &[Box<dyn Plugin>] {
        &self.plugins
    }

    /// Every game.
    pub fn games(&self) -> &[Registration] {
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

    /// What the game named by `spec` (`name` or `name:key=value,...`) makes.
    fn make(&self, spec: &str) -> Result<Made> {
        Ok(find_registration(&self.games, spec)?.make(spec)?)
    }

    /// The game named by `spec`, to analyse and play.
    pub fn game(&self, spec: &str) -> Result<Box<dyn PlayableGame>> {
        Ok(self.make(spec)?.playable)
    }

    /// The game named by `spec`, to solve into a database and read back; an error naming the games that have
    /// one if it has none.
    pub fn database(&self, spec: &str) -> Result<Box<dyn DatabaseGame>> {
        let made = self.make(spec)?;
        match made.database {
            Some(database) => Ok(database),
            None => {
                let with: Vec<&str> = self
                    .games
                    .iter()
                    .filter(|game| game.make_default().is_ok_and(|made| made.database.is_some()))
                    .map(|game| game.name)
                    .collect();
                bail!("{} has no database: `ludus db` solves {}", made.playable.name(), with.join(", "))
            }
        }
    }
}
