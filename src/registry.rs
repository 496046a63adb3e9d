//! The registry: the catalog entries the CLI knows ([`Entry`]: a name with its game, its plugin and its
//! workloads), built in or added by a crate that runs the CLI itself ([`crate::run`]). An entry holds only
//! constants and function pointers, so a command makes only the plugin, game or workloads it uses.

use anyhow::{bail, Result};
use ludus_framework::playable::{find_registration, DatabaseGame, Made, PlayableGame, Registration};
use ludus_framework::plugin::catalog::Entry;
use ludus_framework::plugin::{Plugin, Workload};

/// The catalog entries the CLI runs.
pub struct Registry {
    entries: Vec<Entry>,
}

impl Registry {
    /// Every entry of the games and puzzles crates, games first.
    pub fn builtin() -> Self {
        let entries = ludus_games::CATALOG.iter().chain(ludus_puzzles::CATALOG).copied().collect();
        Registry { entries }
    }

    /// The same registry with one more entry (an entry of the same name replaces the one there): its game gets
    /// all a built-in game gets (`analyze`, `play`, and `db` if it declares a database), its plugin all a
    /// built-in plugin gets (`solve`, `judge`, `check`, `gen`, `bench`), its workloads run in `ludus bench`.
    #[must_use]
    pub fn with_entry(mut self, entry: Entry) -> Self {
        self.entries.retain(|known| known.name != entry.name);
        self.entries.push(entry);
        self
    }

    /// Every entry.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Every benchmark workload, made now, in the order `ludus bench` runs them.
    pub fn workloads(&self) -> Vec<Workload> {
        self.entries.iter().flat_map(Entry::make_workloads).collect()
    }

    /// Every plugin, made now.
    pub fn plugins(&self) -> Vec<Box<dyn Plugin>> {
        self.entries.iter().filter_map(Entry::make_plugin).collect()
    }

    /// The plugin called `name`, or an error listing the known names.
    pub fn find(&self, name: &str) -> Result<Box<dyn Plugin>> {
        match self.entries.iter().find(|entry| entry.name == name).and_then(Entry::make_plugin) {
            Some(plugin) => Ok(plugin),
            None => {
                let names: Vec<&str> =
                    self.entries.iter().filter(|entry| entry.plugin.is_some()).map(|entry| entry.name).collect();
                bail!("unknown plugin `{name}` (known: {})", names.join(", "))
            }
        }
    }

    /// The plugins named by `name`: all of them for `all`, else the one.
    pub fn select(&self, name: &str) -> Result<Vec<Box<dyn Plugin>>> {
        if name == "all" {
            Ok(self.plugins())
        } else {
            Ok(vec![self.find(name)?])
        }
    }

    /// Every game.
    pub fn games(&self) -> Vec<Registration> {
        self.entries.iter().filter_map(|entry| entry.game).collect()
    }

    /// What the game named by `spec` (`name` or `name:key=value,...`) makes.
    fn make(&self, spec: &str) -> Result<Made> {
        Ok(find_registration(&self.games(), spec)?.make(spec)?)
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
                let games = self.games();
                let with: Vec<&str> =
                    games.iter().filter(|game| game.capabilities.database.is_some()).map(|game| game.name).collect();
                bail!("{} has no database: `ludus db` solves {}", made.playable.name(), with.join(", "))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_catalog_holds_each_name_once_as_it_declares_itself() {
        let registry = Registry::builtin();
        ludus_framework::plugin::catalog::check_catalog(registry.entries()).unwrap();
        // Connect Four is one entry: its game, its plugin and its workloads.
        let connect_four: Vec<&Entry> =
            registry.entries().iter().filter(|entry| entry.name == "connect-four").collect();
        assert_eq!(connect_four.len(), 1);
        assert!(connect_four[0].game.is_some() && connect_four[0].plugin.is_some());
        assert!(connect_four[0].make_workloads().len() >= 7, "the 5 x 4 weak solve, six sets, End-Easy");
    }
}
