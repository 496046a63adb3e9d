//! Every registered game's board ([`BoardForm`]) along random playouts: the trait's contract
//! ([`check_board_form`]), each cell against the game's own text drawing (a separate code path), and each move's
//! place against what the move does to the board.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failure should fail the test loudly

use ludus_framework::playable::{check_board_form, Board, BoardForm, BoardMove, Layout, Piece, Player, TextForm};
use ludus_framework::Game;
use ludus_framework::ParseError;
use ludus_framework::Rules;
use ludus_games::classic::{NimGame, TicTacToe};
use ludus_games::connect_four::ConnectFour;
use ludus_games::dodgem::Dodgem;
use ludus_games::quixo::Quixo;
use ludus_games::teeko::Teeko;
use ludus_games::three_mens_morris::ThreeMensMorris;

/// splitmix64: a seeded stream of numbers, enough to pick moves.
struct Random(u64);

impl Random {
    fn below(&mut self, bound: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut mixed = self.0;
        mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((mixed ^ (mixed >> 31)) % bound as u64) as usize
    }
}

/// The owners of a grid's cells, row by row from the top.
fn owners(board: &Board) -> Vec<Option<Player>> {
    match &board.layout {
        Layout::Grid { cells, .. } => cells.iter().map(|cell| cell.map(|piece: Piece| piece.player)).collect(),
        Layout::Heaps { .. } | Layout::Pits { .. } | Layout::Edges { .. } | Layout::Panel { .. } => Vec::new(),
    }
}

/// The owners of the cells as the text drawing shows them: its first `rows` lines, the row label (digits) and
/// spaces left out, `symbols` the first player's and the second's.
fn drawn_owners(drawing: &str, rows: usize, symbols: (char, char)) -> Vec<Option<Player>> {
    drawing
        .lines()
        .take(rows)
        .flat_map(|line| {
            line.trim_start_matches(|c: char| c.is_ascii_digit()).chars().filter(|c| *c != ' ').collect::<Vec<_>>()
        })
        .map(|symbol| match symbol {
            '.' => None,
            symbol if symbol == symbols.0 => Some(Player::First),
            symbol if symbol == symbols.1 => Some(Player::Second),
            other => panic!("a cell drawn `{other}`"),
        })
        .collect()
}

/// Checks that the move at `place`, made by `mover`, changed the board from `before` to `after` as its place
/// says. `pushes`: a step pushes a line of cubes (Quixo), so its first cell need not be empty after.
fn check_place(place: &BoardMove, before: &[Option<Player>], after: &[Option<Player>], mover: Player, pushes: bool) {
    let count = |cells: &[Option<Player>]| cells.iter().filter(|cell| cell.is_some()).count();
    match *place {
        BoardMove::Place { cell } => {
            assert_eq!((before[cell as usize], after[cell as usize]), (None, Some(mover)), "{place:?}");
            assert_eq!(count(after), count(before) + 1, "{place:?}");
        }
        BoardMove::Drop { .. } => assert_eq!(count(after), count(before) + 1, "{place:?}"),
        BoardMove::Step { from, to } => {
            let from = from as usize;
            if pushes {
                assert!(before[from].is_none() || before[from] == Some(mover), "{place:?}: a blank or own cube");
            } else {
                assert_eq!((before[from], after[from]), (Some(mover), None), "{place:?}");
            }
            if let Some(to) = to {
                assert_eq!(after[to as usize], Some(mover), "{place:?}");
            }
        }
        BoardMove::Take { .. } | BoardMove::Sow { .. } | BoardMove::Edge { .. } | BoardMove::Choice => {
            panic!("{place:?} on a grid")
        }
    }
}

/// Random playouts of `game`, every position's board checked against the contract, the text drawing (when
/// `symbols` gives its marks) and its moves.
fn check_game<Ruleset: BoardForm + TextForm>(
    game: &Ruleset,
    symbols: Option<(char, char)>,
    pushes: bool,
    playouts: usize,
) {
    let mut random = Random(7);
    let mut positions = 0;
    for _ in 0..playouts {
        let mut position = game.start();
        for _ in 0..60 {
            check_board_form(game, &position).unwrap_or_else(|error| panic!("{error}"));
            let board = game.board(&position);
            let cells = owners(&board);
            if let (Some(symbols), Layout::Grid { rows, .. }) = (symbols, &board.layout) {
                let drawn = drawn_owners(&game.draw_position(&position), *rows as usize, symbols);
                assert_eq!(cells, drawn, "the board and the drawing of\n{}", game.draw_position(&position));
            }
            positions += 1;
            let moves = game.legal_moves(&position);
            if game.outcome(&position).is_some() || moves.is_empty() {
                break;
            }
            let mover = board.to_move.expect("a grid game says whose turn it is");
            for mv in &moves {
                let after = owners(&game.board(&game.play(&position, mv)));
                check_place(&game.board_move(&position, mv), &cells, &after, mover, pushes);
            }
            position = game.play(&position, &moves[random.below(moves.len())]);
        }
    }
    assert!(positions > playouts, "the playouts went past their starts");
}

#[test]
fn every_grid_game_s_board_agrees_with_its_text_and_its_moves() {
    check_game(&TicTacToe, Some(('X', 'O')), false, 40);
    check_game(&ConnectFour::new(5, 4).unwrap(), Some(('X', 'O')), false, 40);
    check_game(&ConnectFour::new(7, 6).unwrap(), Some(('X', 'O')), false, 20);
    for side in 3..=5 {
        check_game(&Dodgem::new(side).unwrap(), Some(('B', 'R')), false, 20);
        check_game(&Quixo::new(side).unwrap(), Some(('X', 'O')), true, 20);
    }
    check_game(&ThreeMensMorris, Some(('X', 'O')), false, 40);
    check_game(&Teeko::new(), Some(('B', 'W')), false, 20);
}

#[test]
fn nim_s_heaps_are_its_position_and_each_take_leaves_its_part() {
    let game = NimGame { heaps: vec![3, 5, 7] };
    let position = game.start();
    check_board_form(&game, &position).unwrap();
    assert_eq!(game.board(&position).layout, Layout::Heaps { heaps: vec![3, 5, 7] });
    for mv in game.legal_moves(&position) {
        let BoardMove::Take { heap, parts } = game.board_move(&position, &mv) else { panic!("a take") };
        let Layout::Heaps { heaps } = game.board(&game.play(&position, &mv)).layout else { panic!("heaps") };
        assert_eq!(heaps[heap as usize], parts.first().copied().unwrap_or(0), "{}", game.render_move(&position, &mv));
    }
}

#[test]
fn a_board_that_breaks_the_contract_is_caught() {
    /// Tic-tac-toe whose moves all claim the first cell.
    struct OneCell;
    impl Rules for OneCell {
        type Position = <TicTacToe as Rules>::Position;
        type Move = u8;
        type Outcome = ludus_framework::Value;
        fn moves(&self, position: &Self::Position, moves: &mut Vec<u8>) {
            TicTacToe.moves(position, moves)
        }
        fn play(&self, position: &Self::Position, mv: &u8) -> Self::Position {
            TicTacToe.play(position, mv)
        }
        fn outcome(&self, position: &Self::Position) -> Option<ludus_framework::Value> {
            TicTacToe.outcome(position)
        }
    }

    impl Game for OneCell {}
    impl TextForm for OneCell {
        fn start(&self) -> Self::Position {
            TicTacToe.start()
        }
        fn parse_position(&self, text: &str) -> Result<Self::Position, ParseError> {
            TicTacToe.parse_position(text)
        }
        fn draw_position(&self, position: &Self::Position) -> String {
            TicTacToe.draw_position(position)
        }
        fn parse_move(&self, position: &Self::Position, text: &str) -> Result<u8, ParseError> {
            TicTacToe.parse_move(position, text)
        }
        fn render_move(&self, position: &Self::Position, mv: &u8) -> String {
            TicTacToe.render_move(position, mv)
        }
    }
    impl BoardForm for OneCell {
        fn board(&self, position: &Self::Position) -> Board {
            TicTacToe.board(position)
        }
        fn board_move(&self, _: &Self::Position, _: &u8) -> BoardMove {
            BoardMove::Place { cell: 0 }
        }
    }
    let error = check_board_form(&OneCell, &OneCell.start()).unwrap_err().to_string();
    assert!(error.contains("two moves are made at Place { cell: 0 }"), "{error}");
}
