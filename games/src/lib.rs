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
//! - [`hog`]: Hog, dice rolled at once to a goal, a stochastic game that never loops, for expectimax;
//! - [`kalah`]: Kalah(m, n), sowing with captures and extra moves, a scored game whose turns do not alternate;
//! - [`dots_and_boxes`]: Dots and Boxes on m x n boxes, a box closed moves again, scored by the margin in boxes,
//!   drawn as edges between dots;
//! - [`othello`]: Othello on n x n, scored by the margin in discs, for the scored engines;
//! - [`pig`]: Pig, the dice game of rolling or holding, loopy, for value iteration;
//! - [`classic`]: tic-tac-toe, Nim, Kayles and Dawson's Kayles with their published facts;
//! - [`mod@workloads`]: what `ludus bench` times on these games;
//! - [`CATALOG`]: each name once, with its game, plugin and workloads, for the CLI.
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
pub mod dots_and_boxes;
pub mod hog;
pub mod kalah;
pub mod othello;
pub mod pig;
pub mod quixo;
pub mod registry;
mod scored_workloads;
mod square;
pub mod teeko;
pub mod three_mens_morris;
pub mod workloads;

use ludus_framework::plugin::catalog::Entry;

/// Every name of this crate, each once, with its game, plugin and benchmark workloads: the plugins
/// `adjacent-and-consecutive`, `bacterial-tactics`, the game and plugin `connect-four`, and the games of
/// [`registry`].
pub const CATALOG: &[Entry] = &[
    Entry::problem::<adjacent_and_consecutive::AdjacentAndConsecutive>(),
    Entry::problem::<bacterial_tactics::BacterialTactics>(),
    Entry::game(registry::TIC_TAC_TOE).with_workloads(workloads::tic_tac_toe),
    Entry::game(registry::CONNECT_FOUR)
        .with_problem::<connect_four::ConnectFourPlugin>()
        .with_workloads(workloads::connect_four),
    Entry::game(registry::NIM),
    Entry::game(registry::OCTAL).with_workloads(workloads::octal),
    Entry::game(registry::DODGEM),
    Entry::game(registry::THREE_MENS_MORRIS),
    Entry::game(registry::QUIXO),
    Entry::game(registry::TEEKO),
    Entry::game(registry::OTHELLO).with_workloads(scored_workloads::othello),
    Entry::game(registry::KALAH).with_workloads(scored_workloads::kalah),
    Entry::game(registry::DOTS_AND_BOXES).with_workloads(scored_workloads::dots_and_boxes),
    Entry::game(registry::PIG).with_workloads(scored_workloads::pig),
    Entry::game(registry::HOG).with_workloads(scored_workloads::hog),
];

#[cfg(test)]
mod tests {
    use super::{connect_four::ConnectFourPlugin, registry, CATALOG};
    use ludus_framework::playable::{BoardKind, Capabilities, Registration};
    use ludus_framework::plugin::catalog::{check_catalog, Entry};

    #[test]
    fn the_catalog_names_each_game_and_plugin_once_as_each_declares_itself() {
        check_catalog(CATALOG).unwrap();
    }

    #[test]
    fn the_check_rejects_a_catalog_that_says_what_is_not_so() {
        let declares = |capabilities: Capabilities| Registration { capabilities, ..registry::TIC_TAC_TOE };
        // Tic-tac-toe declared without its database, as scored, as loopy, or on heaps.
        let wrong = [
            declares(Capabilities::win_loss().with_board(BoardKind::Grid)),
            declares(Capabilities {
                family: ludus_framework::playable::Family::Scored,
                ..registry::TIC_TAC_TOE.capabilities
            }),
            declares(registry::TIC_TAC_TOE.capabilities.repeating()),
            declares(registry::TIC_TAC_TOE.capabilities.with_board(BoardKind::Heaps)),
        ];
        for registration in wrong {
            let error = check_catalog(&[Entry::game(registration)]).unwrap_err().to_string();
            assert!(error.contains("`tic-tac-toe` declares"), "{error}");
        }
        // Every choice of a parameter is checked, not only the defaults: an octal game that is Nim (a win/loss
        // game) under misère play.
        let octal = Registration {
            make: |arguments| match arguments.text("play")? {
                "misere" => registry::NIM.make_default(),
                _ => registry::OCTAL.make_default(),
            },
            ..registry::OCTAL
        };
        let error = check_catalog(&[Entry::game(octal)]).unwrap_err().to_string();
        assert!(error.contains("`octal:play=misere` makes Capabilities { family: WinLoss"), "{error}");
        // A name twice, and a plugin under another name.
        let error = check_catalog(&[Entry::game(registry::NIM), Entry::game(registry::NIM)]).unwrap_err();
        assert!(error.to_string().contains("`nim` is in the catalog twice"), "{error}");
        let error = check_catalog(&[Entry::game(registry::NIM).with_problem::<ConnectFourPlugin>()]).unwrap_err();
        assert!(error.to_string().contains("the entry `nim` holds the plugin `connect-four`"), "{error}");
        // A workload whose plugin is not in the catalog.
        let error = check_catalog(&[Entry::game(registry::NIM).with_workloads(super::workloads::connect_four)]);
        assert!(error.unwrap_err().to_string().contains("runs no plugin `connect-four`"));
    }
}
