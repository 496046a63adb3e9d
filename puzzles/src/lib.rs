//! # Ludus puzzles
//!
//! One-player and constructive puzzle plugins.

use ludus_framework::plugin::Plugin;

/// Every puzzle plugin of this crate.
pub fn plugins() -> Vec<Box<dyn Plugin>> {
    vec![]
}
