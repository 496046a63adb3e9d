//! # Ludus games
//!
//! Two-player and impartial game plugins, and the classic games used by tests, examples and benches.

pub mod adjacent_and_consecutive;
pub mod bacterial_tactics;
pub mod classic;
pub mod connect_four;

use ludus_framework::plugin::Plugin;

/// Every game plugin of this crate.
pub fn plugins() -> Vec<Box<dyn Plugin>> {
    vec![
        Box::new(adjacent_and_consecutive::AdjacentAndConsecutive),
        Box::new(bacterial_tactics::BacterialTactics),
        Box::new(connect_four::ConnectFourPlugin),
    ]
}
