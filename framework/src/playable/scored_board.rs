//! [`ScoredBoardForm`]: [`super::BoardForm`]'s twin for the scored games of [`crate::scored`] (which are not
//! [`crate::Game`]s): how a scored game shows a position as a board (Othello's grid, Kalah's pits, a dice
//! game's panel of scores) and where each move, or each outcome of chance, is made on it.

use super::board::{check_board_view, Board, BoardMove, BoardView, PlacedMove};
use super::ScoredText;
use crate::error::Result;
use crate::scored::ScoredGame;

/// How a scored game shows its positions and moves on a board.
///
/// Contract: as [`super::BoardForm`]'s ([`check_scored_board_form`] checks it); at a chance node the moves are
/// its outcomes, each with a place of its own. [`Board::to_move`] is always given (turns need not alternate):
/// at a chance node, the player whose turn the chance decides.
pub trait ScoredBoardForm: ScoredGame {
    /// The position as a board.
    fn board(&self, position: &Self::Position) -> Board;

    /// Where the legal move (or outcome) `mv` of `position` is made on the board.
    fn board_move(&self, position: &Self::Position, mv: &Self::Move) -> BoardMove;
}

/// The board of `position` and the places of its legal moves.
pub(crate) fn scored_board_view<Rules: ScoredBoardForm + ScoredText>(
    game: &Rules,
    position: &Rules::Position,
) -> BoardView {
    let moves = game
        .legal_moves(position)
        .iter()
        .map(|mv| PlacedMove { mv: game.render_move(mv), place: game.board_move(position, mv) })
        .collect();
    BoardView { board: game.board(position), moves }
}

/// Checks [`ScoredBoardForm`]'s contract at `position` (see [`check_board_view`]), and that the board says
/// who is to move. `Err` says what is wrong (a bug in the game).
pub fn check_scored_board_form<Rules: ScoredBoardForm + ScoredText>(
    game: &Rules,
    position: &Rules::Position,
) -> Result<()> {
    let view = scored_board_view(game, position);
    if view.board.to_move.is_none() {
        return Err(crate::Error::Contract {
            contract: "ScoredBoardForm",
            detail: "a board that does not say who is to move".into(),
        });
    }
    check_board_view(&view)
}
