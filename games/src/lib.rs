//! # Ludus games
//!
//! Two-player and impartial game plugins, and the classic games used by tests, examples and benches.
//!
//! - [`adjacent_and_consecutive`]: count each player's mistakes in a played game (negamax, canonical keys,
//!   a closed form for large N);
//! - [`bacterial_tactics`]: count the winning opening moves (Sprague-Grundy over sub-rectangles);
//! - [`connect_four`]: exact scores of Connect Four positions (alpha-beta with exact remoteness);
//! - [`dodgem`]: Colin Vout's loopy car game, for the retrograde engine;
//! - [`quixo`]: Quixo on 3 x 3 to 5 x 5, cubes pushed in along rows and columns, loopy, for the retrograde
//!   engine;
//! - [`teeko`]: John Scarne's Teeko, four pieces dropped then moved, loopy, for the retrograde engine;
//! - [`three_mens_morris`]: three in a row with men that slide once placed, loopy, for the retrograde engine;
//! - [`classic`]: tic-tac-toe, Nim, Kayles and Dawson's Kayles with their published facts;
//! - [`mod@workloads`]: what `ludus bench` times on these games.
//!
//! ```
//! use ludus_framework::engines::{negamax::MemoNegamax, Mode, Engine};
//! use ludus_framework::input::Source;
//! use ludus_framework::plugin::{NoProgress, Plugin, SolveOptions};
//! use ludus_framework::Value;
//! use ludus_games::bacterial_tactics::BacterialTactics;
//! use ludus_games::classic::{Board, TicTacToe};
//!
//! // A game through an engine: tic-tac-toe is a draw.
//! assert_eq!(MemoNegamax::new(Mode::Exact).value(&TicTacToe, &Board::EMPTY), Value::Draw);
//!
//! // A plugin on an official-format input: on a free 1 x 3 strip Becca has 4 winning openings
//! // (H anywhere fills the strip; V in the middle leaves two single cells, a lost sum for Cody).
//! let input = Source::new("example.in", "1\n1 3\n...\n");
//! let answers = BacterialTactics.solve(input, &SolveOptions::default(), &NoProgress)?;
//! assert_eq!(BacterialTactics.render(&answers), "Case #1: 4\n");
//! # Ok::<(), ludus_framework::Error>(())
//! ```

pub mod adjacent_and_consecutive;
pub mod bacterial_tactics;
mod chess_grid;
pub mod classic;
mod combinations;
pub mod connect_four;
pub mod dodgem;
pub mod quixo;
pub mod registry;
mod square;
pub mod teeko;
pub mod three_mens_morris;
pub mod workloads;

use ludus_framework::plugin::{Plugin, Workload};

/// Every game plugin of this crate.
pub fn plugins() -> Vec<Box<dyn Plugin>> {
    vec![
        Box::new(adjacent_and_consecutive::AdjacentAndConsecutive),
        Box::new(bacterial_tactics::BacterialTactics),
        Box::new(connect_four::ConnectFourPlugin),
    ]
}

/// Every benchmark workload of this crate's games, for `ludus bench` ([`mod@workloads`]).
pub fn workloads() -> Vec<Workload> {
    workloads::workloads()
}
