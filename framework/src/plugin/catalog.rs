//! The catalog: one [`Entry`] per name the CLI knows, with everything that hangs off it: the game people
//! analyse, play and solve into databases ([`Registration`]), the plugin that solves an official input format
//! (its solvers are the plugin's), and the benchmark workloads `ludus bench` times. Connect Four is one entry
//! with all three.
//!
//! An entry holds only constants and function pointers: nothing is built until a command asks for it, so the
//! CLI starts without making a game, a plugin or a workload's input.
//!
//! Invariant: an entry's name is its game's name and its plugin's name; names are unique in a catalog
//! ([`check_catalog`], which every crate's catalog test calls, with each registration's own check).

use super::{Plugin, Problem, Workload};
use crate::error::{Error, Result};
use crate::playable::Registration;

/// A name the CLI knows, and what hangs off it.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The name typed on the command line (`connect-four`).
    pub name: &'static str,
    /// The game analysed, played and solved into databases under this name, if any.
    pub game: Option<Registration>,
    /// The plugin that solves this name's official input format, if any.
    pub plugin: Option<fn() -> Box<dyn Plugin>>,
    /// The benchmark workloads of this name, if any, made when `ludus bench` runs.
    pub workloads: Option<fn() -> Vec<Workload>>,
}

/// A boxed `Problem` of type `P`, made when asked for.
fn boxed<P: Problem + Default>() -> Box<dyn Plugin> {
    Box::new(P::default())
}

impl Entry {
    /// The entry of a game, named after it.
    pub const fn game(registration: Registration) -> Entry {
        Entry { name: registration.name, game: Some(registration), plugin: None, workloads: None }
    }

    /// The entry of the plugin of problem `P`, named after it.
    pub const fn problem<P: Problem + Default>() -> Entry {
        Entry { name: P::ABOUT.name, game: None, plugin: Some(boxed::<P>), workloads: None }
    }

    /// The same entry, with the plugin of problem `P` (of the same name: [`check_catalog`] checks it).
    #[must_use]
    pub const fn with_problem<P: Problem + Default>(self) -> Entry {
        Entry { plugin: Some(boxed::<P>), ..self }
    }

    /// The same entry, with the workloads `workloads` makes.
    #[must_use]
    pub const fn with_workloads(self, workloads: fn() -> Vec<Workload>) -> Entry {
        Entry { workloads: Some(workloads), ..self }
    }

    /// Its plugin, made now.
    pub fn make_plugin(&self) -> Option<Box<dyn Plugin>> {
        self.plugin.map(|make| make())
    }

    /// Its workloads, made now (none if it has none).
    pub fn make_workloads(&self) -> Vec<Workload> {
        self.workloads.map_or_else(Vec::new, |make| make())
    }
}

/// Checks a catalog: names unique, each entry's game and plugin named as it is, each game's declared
/// capabilities those of what it makes ([`Registration::check`]), each workload's plugin in the catalog. An
/// [`Error::Contract`] names what is wrong.
pub fn check_catalog(entries: &[Entry]) -> Result<()> {
    let contract = |detail: String| Error::Contract { contract: "Entry", detail };
    for (index, entry) in entries.iter().enumerate() {
        if entries[..index].iter().any(|earlier| earlier.name == entry.name) {
            return Err(contract(format!("`{}` is in the catalog twice", entry.name)));
        }
        if entry.game.is_none() && entry.plugin.is_none() && entry.workloads.is_none() {
            return Err(contract(format!("`{}` has no game, no plugin and no workload", entry.name)));
        }
        if let Some(game) = &entry.game {
            if game.name != entry.name {
                return Err(contract(format!("the entry `{}` holds the game `{}`", entry.name, game.name)));
            }
            game.check()?;
        }
        if let Some(plugin) = entry.make_plugin() {
            if plugin.name() != entry.name {
                return Err(contract(format!("the entry `{}` holds the plugin `{}`", entry.name, plugin.name())));
            }
        }
        for workload in entry.make_workloads() {
            if let Some(plugin) = workload.work.plugin() {
                if !entries.iter().any(|entry| entry.name == plugin && entry.plugin.is_some()) {
                    return Err(contract(format!("the workload `{}` runs no plugin `{plugin}`", workload.name)));
                }
            }
        }
    }
    Ok(())
}
