//! Fuzzes a plugin's input parser and the limits of its default solver: any bytes give a case count or an
//! error, never a panic, a hang or an allocation past the input's size.

#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use ludus_framework::input::Source;
use ludus_framework::plugin::{Plugin, SolveOptions};
use std::sync::OnceLock;

static PLUGIN: OnceLock<Box<dyn Plugin>> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let plugin = PLUGIN.get_or_init(common::plugin);
    // The CLI turns bytes that are not UTF-8 into an error before any parser sees them.
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = plugin.parse(Source::new("fuzz.in", text), &SolveOptions::default());
    }
});
