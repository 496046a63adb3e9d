//! # Ludus games
//!
//! Two-player and impartial game plugins, and the classic games used by tests, examples and benches.

pub mod classic;

use ludus_framework::plugin::Plugin;

/// Every game plugin of this crate.
pub fn plugins() -> Vec<Box<dyn Plugin>> {
    vec![]
}
