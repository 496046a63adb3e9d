//! What both fuzz targets share: the plugin under test, named by `LUDUS_FUZZ_PLUGIN`.

use ludus_framework::plugin::Plugin;

/// The plugin named by the environment variable `LUDUS_FUZZ_PLUGIN` (every plugin's parser and judge is fuzzed
/// by its own run, with its own corpus: see `fuzz/run.sh`).
pub fn plugin() -> Box<dyn Plugin> {
    let name = std::env::var("LUDUS_FUZZ_PLUGIN").unwrap_or_default();
    let mut all = ludus_games::plugins();
    all.extend(ludus_puzzles::plugins());
    match all.into_iter().find(|plugin| plugin.name() == name) {
        Some(plugin) => plugin,
        None => panic!("set LUDUS_FUZZ_PLUGIN to a plugin's name, not `{name}`"),
    }
}
