//! What both fuzz targets share: the plugin under test, named by `LUDUS_FUZZ_PLUGIN`.

use ludus_framework::plugin::Plugin;

/// The plugin named by the environment variable `LUDUS_FUZZ_PLUGIN` (every plugin's parser and judge is fuzzed
/// by its own run, with its own corpus: see `fuzz/run.sh`).
pub fn plugin() -> Box<dyn Plugin> {
    let name = std::env::var("LUDUS_FUZZ_PLUGIN").unwrap_or_default();
    let entry = ludus_games::CATALOG.iter().chain(ludus_puzzles::CATALOG).find(|entry| entry.name == name);
    match entry.and_then(|entry| entry.make_plugin()) {
        Some(plugin) => plugin,
        None => panic!("set LUDUS_FUZZ_PLUGIN to a plugin's name, not `{name}`"),
    }
}
