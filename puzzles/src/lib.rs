//! # Ludus puzzles
//!
//! One-player and constructive puzzle plugins.

pub mod minesweeper_master;
pub mod square_free;
pub mod stack_management;

use ludus_framework::plugin::Plugin;

/// Every puzzle plugin of this crate.
pub fn plugins() -> Vec<Box<dyn Plugin>> {
    vec![
        Box::new(minesweeper_master::MinesweeperMaster),
        Box::new(square_free::SquareFree),
        Box::new(stack_management::StackManagement),
    ]
}
