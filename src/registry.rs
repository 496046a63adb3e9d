//! The plugin table: every plugin of the games and puzzles crates, looked up by name.

use anyhow::{bail, Result};
use ludus_framework::plugin::Plugin;

/// Every registered plugin, games first.
pub fn all() -> Vec<Box<dyn Plugin>> {
    let mut plugins = ludus_games::plugins();
    plugins.extend(ludus_puzzles::plugins());
    plugins
}

/// The plugin called `name`, or an error listing the known names.
pub fn find(name: &str) -> Result<Box<dyn Plugin>> {
    let mut plugins = all();
    match plugins.iter().position(|plugin| plugin.name() == name) {
        Some(index) => Ok(plugins.swap_remove(index)),
        None => {
            let names: Vec<&str> = plugins.iter().map(|plugin| plugin.name()).collect();
            bail!("unknown plugin `{name}` (known: {})", names.join(", "))
        }
    }
}

/// The plugins named by `name`: all of them for `all`, else the one.
pub fn select(name: &str) -> Result<Vec<Box<dyn Plugin>>> {
    if name == "all" {
        Ok(all())
    } else {
        Ok(vec![find(name)?])
    }
}
