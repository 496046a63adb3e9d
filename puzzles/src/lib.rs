//! # Ludus puzzles
//!
//! One-player and constructive puzzle plugins.
//!
//! - [`stack_management`]: can the solitaire be won (a suit-graph criterion, a one-player search, and a
//!   winning line on request);
//! - [`minesweeper_master`]: a mine layout won by one click, or `Impossible`;
//! - [`square_free`]: a grid of diagonals with given counts and no square (a flow-based construction).
//!
//! Every answer a plugin prints has passed its own verifier; `judge` checks any answer file by the rules.
//!
//! ```
//! use ludus_framework::input::Source;
//! use ludus_framework::plugin::{NoProgress, Plugin, SolveOptions};
//! use ludus_puzzles::minesweeper_master::MinesweeperMaster;
//!
//! let input = Source::new("example.in", "2\n2 2 3\n2 2 1\n");
//! let answers = MinesweeperMaster.solve(input, &SolveOptions::default(), &NoProgress)?;
//! let printed = MinesweeperMaster.render(&answers);
//! assert!(printed.starts_with("Case #1:\n"));
//! assert!(printed.contains("Impossible")); // 2 x 2 with 1 mine: three safe cells cannot all open at once
//! let verdicts = MinesweeperMaster.judge(input, Source::new("answer", &printed))?;
//! assert!(verdicts.iter().all(|verdict| verdict.problem.is_none()));
//! # Ok::<(), ludus_framework::Error>(())
//! ```

pub mod minesweeper_master;
pub mod square_free;
pub mod stack_management;

use ludus_framework::plugin::catalog::Entry;

/// Every puzzle of this crate, each once, with its plugin (`ludus bench` times every plugin on its generated
/// inputs, so none has workloads of its own).
pub const CATALOG: &[Entry] = &[
    Entry::problem::<minesweeper_master::MinesweeperMaster>(),
    Entry::problem::<square_free::SquareFree>(),
    Entry::problem::<stack_management::StackManagement>(),
];

#[cfg(test)]
mod tests {
    #[test]
    fn the_catalog_names_each_plugin_once_as_it_declares_itself() {
        ludus_framework::plugin::catalog::check_catalog(super::CATALOG).unwrap();
    }
}
