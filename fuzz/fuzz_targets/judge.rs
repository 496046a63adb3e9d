//! Fuzzes a plugin's judge: any answer file against the first cases of the bundled sample input gives verdicts
//! (a malformed answer is a rejected case), never an error, a panic or a hang.

#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use ludus_framework::input::Source;
use ludus_framework::plugin::Plugin;
use std::sync::OnceLock;

/// The plugin and a short input: the bundled sample cut to its first cases (judging may re-solve each case,
/// so a short input keeps the runs fast).
static SETUP: OnceLock<(Box<dyn Plugin>, String)> = OnceLock::new();

fn setup() -> (Box<dyn Plugin>, String) {
    let plugin = common::plugin();
    let sample = plugin.sample().input.to_string();
    let short = if plugin.name() == "connect-four" { sample.lines().take(5).collect::<Vec<_>>().join("\n") } else { sample };
    (plugin, short)
}

fuzz_target!(|data: &[u8]| {
    let (plugin, input) = SETUP.get_or_init(setup);
    if let Ok(answer) = std::str::from_utf8(data) {
        let verdicts = plugin.judge(Source::new("sample.in", input), Source::new("fuzz.ans", answer));
        assert!(verdicts.is_ok(), "a well-formed input cannot make judging fail: {verdicts:?}");
    }
});
