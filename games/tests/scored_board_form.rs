//! Every scored game's board ([`BoardForm`]) along random playouts: the contract
//! ([`check_board_form`]), the board against the game's own text (Othello's and Kalah's board texts, the
//! numbers of Pig's and Hog's drawings, Dots and Boxes' edges against its moves: separate code paths), and each
//! move's place against what the move does; and the check rejects boards that break the contract.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failure should fail the test loudly

use ludus_framework::playable::{
    check_board_form, check_board_view, Board, BoardForm, BoardMove, BoardView, Counter, Layout, PlacedMove, Player,
    TextForm,
};
use ludus_framework::scored::ScoredGame;
use ludus_framework::ParseError;
use ludus_framework::Rules;
use ludus_games::dots_and_boxes::DotsAndBoxes;
use ludus_games::hog::Hog;
use ludus_games::kalah::{Board as KalahBoard, Kalah, Pit};
use ludus_games::othello::Othello;
use ludus_games::pig::Pig;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Random playouts of `game` (at most 400 moves each), every position checked against the contract and by
/// `check(position, board)`, every move by `check_move(position, board, move, place, board after)`. Returns
/// the positions seen.
fn playouts<Ruleset: BoardForm + TextForm>(
    game: &Ruleset,
    count: usize,
    check: impl Fn(&Ruleset::Position, &Board),
    check_move: impl Fn(&Ruleset::Position, &Board, &Ruleset::Move, &BoardMove, &Board),
) -> usize {
    let mut random = StdRng::seed_from_u64(11);
    let mut positions = 0;
    for _ in 0..count {
        let mut position = game.start();
        let mut mover = Player::First;
        for _ in 0..400 {
            check_board_form(game, &position).unwrap_or_else(|error| panic!("{error}"));
            let board = game.board(&position);
            check(&position, &board);
            assert_eq!(board.to_move, Some(mover), "the board's mover is the one the game's turns give");
            positions += 1;
            let moves = game.legal_moves(&position);
            if moves.is_empty() {
                break;
            }
            for mv in &moves {
                let after = game.board(&game.play(&position, mv));
                check_move(&position, &board, mv, &game.board_move(&position, mv), &after);
            }
            let next = game.play(&position, &moves[random.gen_range(0..moves.len())]);
            if game.turn_passes(&position, &next) {
                mover = mover.other();
            }
            position = next;
        }
    }
    assert!(positions > 3 * count, "the playouts went past their starts");
    positions
}

/// The owners of a grid's cells.
fn owners(board: &Board) -> Vec<Option<Player>> {
    let Layout::Grid { cells, .. } = &board.layout else { panic!("a grid: {board:?}") };
    cells.iter().map(|cell| cell.map(|piece| piece.player)).collect()
}

#[test]
fn othello_s_grid_is_its_board_text_and_each_disc_lands_on_its_cell() {
    for size in [4, 6, 8] {
        let game = Othello::new(size, true).unwrap();
        playouts(
            &game,
            12,
            |discs, board| {
                // `x`/`o` rows from the top joined by `/`, then `b` or `w`.
                let text = game.board_text(discs);
                let (rows, side) = text.rsplit_once(' ').unwrap();
                let drawn: Vec<Option<Player>> = rows
                    .chars()
                    .filter(|mark| *mark != '/')
                    .map(|mark| match mark {
                        'x' => Some(Player::First),
                        'o' => Some(Player::Second),
                        _ => None,
                    })
                    .collect();
                assert_eq!(owners(board), drawn, "{text}");
                assert_eq!(board.to_move == Some(Player::First), side == "b", "{text}");
                let Layout::Grid { rows, columns, column_labels, row_labels, .. } = &board.layout else { panic!() };
                assert_eq!(
                    (*rows, *columns, column_labels.len(), row_labels.len()),
                    (size, size, size as usize, size as usize)
                );
            },
            |position, before, mv, place, after| {
                let text = game.render_move(position, mv);
                let mover = before.to_move.unwrap();
                match place {
                    BoardMove::Place { cell } => {
                        let Layout::Grid { column_labels, row_labels, .. } = &before.layout else { panic!() };
                        let (row, column) = (*cell / size, *cell % size);
                        assert_eq!(text, format!("{}{}", column_labels[column as usize], row_labels[row as usize]));
                        let (was, is) = (owners(before)[*cell as usize], owners(after)[*cell as usize]);
                        assert_eq!((was, is), (None, Some(mover)), "{text}");
                    }
                    BoardMove::Choice => {
                        assert_eq!(text, "pass");
                        assert_eq!(owners(before), owners(after), "a pass changes no disc");
                    }
                    other => panic!("{other:?} in Othello"),
                }
            },
        );
    }
}

/// The pits and stores of a board.
fn pits_and_stores(board: &Board) -> ([Vec<u32>; 2], [u32; 2]) {
    let Layout::Pits { pits, stores } = &board.layout else { panic!("pits: {board:?}") };
    (pits.clone(), *stores)
}

#[test]
fn kalah_s_pits_are_its_board_text_and_a_sow_empties_the_mover_s_pit() {
    for (pits, seeds) in [(3, 2), (4, 3), (6, 4), (6, 6)] {
        let game = Kalah::new(pits, seeds).unwrap();
        let total = pits as u32 * seeds * 2;
        playouts(
            &game,
            12,
            |board: &KalahBoard, drawn| {
                // `South's pits, South's store / North's pits, North's store, s or n`.
                let text = game.board_text(board);
                let numbers: Vec<u32> = text.split_whitespace().filter_map(|word| word.parse().ok()).collect();
                let (rows, stores) = pits_and_stores(drawn);
                assert_eq!(rows[0], &numbers[..pits], "{text}");
                assert_eq!(rows[1], &numbers[pits + 1..2 * pits + 1], "{text}");
                assert_eq!(stores, [numbers[pits], numbers[2 * pits + 1]], "{text}");
                assert_eq!(rows.iter().flatten().sum::<u32>() + stores[0] + stores[1], total, "{text}");
                assert_eq!(drawn.to_move == Some(Player::First), text.ends_with('s'), "{text}");
            },
            |position, before, pit: &Pit, place, after| {
                let BoardMove::Sow { pit: sown } = *place else { panic!("{place:?} in Kalah") };
                assert_eq!(
                    game.render_move(position, pit),
                    (sown + 1).to_string(),
                    "pits are numbered from 1 in sowing order"
                );
                let side = usize::from(before.to_move == Some(Player::Second));
                let (rows, _) = pits_and_stores(before);
                let seeds = rows[side][sown as usize];
                assert!(seeds > 0, "a sow from an empty pit");
                // Fewer seeds than the places round the board (the other's store skipped) leave the pit empty.
                if seeds < 2 * pits as u32 + 1 {
                    assert_eq!(pits_and_stores(after).0[side][sown as usize], 0, "pit {} sown", sown + 1);
                }
            },
        );
    }
}

/// The edges and boxes of a board of edges.
fn edges_and_boxes(board: &Board) -> (Vec<Option<Player>>, Vec<Option<Player>>) {
    let Layout::Edges { edges, boxes, .. } = &board.layout else { panic!("edges: {board:?}") };
    (edges.clone(), boxes.clone())
}

#[test]
fn dots_and_boxes_edges_are_its_moves_and_each_edge_drawn_is_the_mover_s() {
    for (rows, columns) in [(1, 1), (2, 3), (3, 3), (4, 5)] {
        let game = DotsAndBoxes::new(rows, columns).unwrap();
        playouts(
            &game,
            8,
            |position, board| {
                let Layout::Edges { rows: drawn_rows, columns: drawn_columns, .. } = board.layout else { panic!() };
                assert_eq!((drawn_rows, drawn_columns), (rows as u32, columns as u32));
                let (edges, boxes) = edges_and_boxes(board);
                // An edge is undrawn on the board exactly when it is a legal move.
                let undrawn = edges.iter().filter(|edge| edge.is_none()).count();
                assert_eq!(undrawn, game.legal_moves(position).len());
                // A box is taken when its four edges are drawn: the edges above and below it, left and right.
                let horizontal = (rows + 1) * columns;
                for (square, owner) in boxes.iter().enumerate() {
                    let (row, column) = (square / columns, square % columns);
                    let sides = [
                        row * columns + column,
                        (row + 1) * columns + column,
                        horizontal + row * (columns + 1) + column,
                        horizontal + row * (columns + 1) + column + 1,
                    ];
                    assert_eq!(owner.is_some(), sides.iter().all(|&side| edges[side].is_some()), "box {square}");
                }
            },
            |position, before, edge, place, after| {
                let BoardMove::Edge { edge: drawn } = *place else { panic!("{place:?} in Dots and Boxes") };
                let text = game.render_move(position, edge);
                // The edge's place joins the dots the text names: a horizontal edge's left dot and the next, or
                // a vertical edge's top dot and the one below.
                let ((row, column), (next_row, next_column)) = game.dots_of(drawn as usize);
                let dot = |row: usize, column: usize| format!("{}{}", char::from(b'a' + column as u8), row + 1);
                assert_eq!(text, format!("{}{}", dot(row, column), dot(next_row, next_column)));
                let mover = before.to_move.unwrap();
                let ((edges_before, boxes_before), (edges_after, boxes_after)) =
                    (edges_and_boxes(before), edges_and_boxes(after));
                assert_eq!((edges_before[drawn as usize], edges_after[drawn as usize]), (None, Some(mover)), "{text}");
                let closed: Vec<usize> =
                    (0..boxes_after.len()).filter(|&square| boxes_before[square] != boxes_after[square]).collect();
                assert!(closed.iter().all(|&square| boxes_after[square] == Some(mover)), "{text}: the mover's boxes");
                // A box closed: the mover moves again; none: the turn passes.
                let again = after.to_move == Some(mover);
                assert_eq!(again, !closed.is_empty(), "{text}");
            },
        );
    }
}

/// The numbers of a panel by name.
fn counter(board: &Board, name: &str) -> Option<u32> {
    let Layout::Panel { counters } = &board.layout else { panic!("a panel: {board:?}") };
    counters.iter().find(|counter| counter.name == name).map(|counter| counter.value)
}

/// The mover's score and the other's on a panel.
fn scores(board: &Board) -> (u32, u32) {
    let (first, second) =
        (counter(board, "first player's score").unwrap(), counter(board, "second player's score").unwrap());
    if board.to_move == Some(Player::First) {
        (first, second)
    } else {
        (second, first)
    }
}

/// The numbers of a drawing, in order.
fn numbers(drawing: &str) -> Vec<u32> {
    drawing
        .split(|character: char| !character.is_ascii_digit())
        .filter(|word| !word.is_empty())
        .map(|word| word.parse().unwrap())
        .collect()
}

#[test]
fn pig_s_panel_holds_its_scores_and_each_button_does_what_it_says() {
    for goal in [2, 10, 30] {
        let game = Pig::new(goal).unwrap();
        playouts(
            &game,
            20,
            |state, board| {
                // `goal G: the P player to move has A, the Q has B; turn total T`.
                let drawn = numbers(&game.draw_position(state));
                assert_eq!(counter(board, "goal"), Some(drawn[0]));
                assert_eq!(scores(board), (drawn[1], drawn[2]));
                assert_eq!(counter(board, "turn total"), Some(drawn[3]));
            },
            |position, before, mv, place, after| {
                assert_eq!(*place, BoardMove::Choice);
                let (mine, theirs) = scores(before);
                let turn = counter(before, "turn total").unwrap();
                match game.render_move(position, mv).as_str() {
                    "roll" => assert_eq!(scores(after), (mine, theirs), "the die is in the air"),
                    "hold" => {
                        assert_eq!(scores(after), (theirs, mine + turn), "the turn total banked, the turn passed")
                    }
                    "1" => assert_eq!(scores(after), (theirs, mine), "a 1 loses the turn total"),
                    face => {
                        let face: u32 = face.parse().unwrap();
                        assert_eq!(scores(after), (mine, theirs), "face {face}");
                        assert_eq!(counter(after, "turn total"), Some(turn + face), "face {face}");
                    }
                }
            },
        );
    }
}

#[test]
fn hog_s_panel_holds_its_scores_and_a_roll_s_points_are_scored() {
    for (goal, dice) in [(5, 2), (20, 4)] {
        let game = Hog::new(goal, dice).unwrap();
        playouts(
            &game,
            20,
            |state, board| {
                // `goal G (at most D dice): the P player to move has A, the Q has B[; R dice are rolling]`.
                let drawn = numbers(&game.draw_position(state));
                assert_eq!((counter(board, "goal"), drawn[1]), (Some(drawn[0]), dice));
                assert_eq!(scores(board), (drawn[2], drawn[3]));
                assert_eq!(counter(board, "dice rolling"), drawn.get(4).copied());
            },
            |position, before, mv, place, after| {
                assert_eq!(*place, BoardMove::Choice);
                let text = game.render_move(position, mv);
                let (mine, theirs) = scores(before);
                if let Some(dice) = text.strip_prefix("roll ") {
                    assert_eq!(counter(after, "dice rolling"), Some(dice.parse().unwrap()));
                } else {
                    let points: u32 = text.strip_prefix('+').unwrap().parse().unwrap();
                    // The points scored, then the turn passes (or the mover has won, and stays the mover).
                    let after_scores = scores(after);
                    assert!(after_scores == (theirs, mine + points) || after_scores == (mine + points, theirs));
                }
            },
        );
    }
}

/// Kalah whose board says its moves are made one row too far: every sow outside the mover's row.
struct SowingOutside(Kalah);

impl Rules for SowingOutside {
    type Position = KalahBoard;
    type Move = Pit;
    type Outcome = i32;
    fn outcome(&self, board: &KalahBoard) -> Option<i32> {
        self.0.outcome(board)
    }
    fn moves(&self, board: &KalahBoard, moves: &mut Vec<Pit>) {
        self.0.moves(board, moves);
    }
    fn play(&self, board: &KalahBoard, pit: &Pit) -> KalahBoard {
        self.0.play(board, pit)
    }

    fn turn_passes(&self, from: &Self::Position, to: &Self::Position) -> bool {
        self.mover(from) != self.mover(to)
    }
}

impl ScoredGame for SowingOutside {}

impl SowingOutside {
    /// The player to move.
    fn mover(&self, board: &KalahBoard) -> Player {
        self.0.mover(board)
    }
}

impl TextForm for SowingOutside {
    fn start(&self) -> KalahBoard {
        TextForm::start(&self.0)
    }
    fn parse_position(&self, text: &str) -> Result<KalahBoard, ParseError> {
        self.0.parse_position(text)
    }
    fn draw_position(&self, board: &KalahBoard) -> String {
        self.0.draw_position(board)
    }
    fn parse_move(&self, board: &KalahBoard, text: &str) -> Result<Pit, ParseError> {
        self.0.parse_move(board, text)
    }
    fn render_move(&self, position: &Self::Position, pit: &Pit) -> String {
        self.0.render_move(position, pit)
    }
}

impl BoardForm for SowingOutside {
    fn board(&self, board: &KalahBoard) -> Board {
        self.0.board(board)
    }
    fn board_move(&self, _board: &KalahBoard, pit: &Pit) -> BoardMove {
        BoardMove::Sow { pit: u32::from(*pit) + self.0.pits() as u32 }
    }
}

#[test]
fn boards_that_break_the_contract_are_caught() {
    let game = SowingOutside(Kalah::new(3, 2).unwrap());
    let error = check_board_form(&game, &TextForm::start(&game)).unwrap_err().to_string();
    assert!(error.contains("move 1 is made at Sow { pit: 3 }, outside the board"), "{error}");
    // Pits rows of unequal length.
    let board = Board { layout: Layout::Pits { pits: [vec![2, 2, 2], vec![2, 2]], stores: [0, 0] }, to_move: None };
    let moves = vec![PlacedMove { mv: "1".into(), place: BoardMove::Sow { pit: 0 } }];
    let error = check_board_view(&BoardView { board, moves }).unwrap_err().to_string();
    assert!(error.contains("rows of 3 and 2 pits"), "{error}");
    // A board of edges: the counts of its edges and boxes, and a move on an edge drawn already.
    let edges = |edges: Vec<Option<Player>>, boxes: usize| Board {
        layout: Layout::Edges { rows: 1, columns: 1, edges, boxes: vec![None; boxes] },
        to_move: Some(Player::First),
    };
    let on = |edge: u32| vec![PlacedMove { mv: "a1b1".into(), place: BoardMove::Edge { edge } }];
    let error = check_board_view(&BoardView { board: edges(vec![None; 3], 1), moves: on(0) }).unwrap_err();
    assert!(error.to_string().contains("3 edges and 1 boxes on a board of 1 x 1 boxes (4 edges)"), "{error}");
    let drawn = vec![Some(Player::Second), None, None, None];
    let error = check_board_view(&BoardView { board: edges(drawn.clone(), 1), moves: on(0) }).unwrap_err();
    assert!(error.to_string().contains("outside the board"), "{error}");
    let error = check_board_view(&BoardView { board: edges(drawn.clone(), 1), moves: on(4) }).unwrap_err();
    assert!(error.to_string().contains("outside the board"), "{error}");
    assert!(check_board_view(&BoardView { board: edges(drawn, 1), moves: on(1) }).is_ok(), "an undrawn edge");
    // A panel's moves are buttons: a placement on it is outside the board, and two buttons of one text are one.
    let panel = Board {
        layout: Layout::Panel { counters: vec![Counter { name: "goal".into(), value: 5, player: None }] },
        to_move: Some(Player::First),
    };
    let placed = vec![PlacedMove { mv: "a1".into(), place: BoardMove::Place { cell: 0 } }];
    let error = check_board_view(&BoardView { board: panel.clone(), moves: placed }).unwrap_err().to_string();
    assert!(error.contains("outside the board"), "{error}");
    let twice = vec![
        PlacedMove { mv: "roll".into(), place: BoardMove::Choice },
        PlacedMove { mv: "roll".into(), place: BoardMove::Choice },
    ];
    let error = check_board_view(&BoardView { board: panel.clone(), moves: twice }).unwrap_err().to_string();
    assert!(error.contains("two moves are written `roll`"), "{error}");
    let fine = vec![
        PlacedMove { mv: "roll".into(), place: BoardMove::Choice },
        PlacedMove { mv: "hold".into(), place: BoardMove::Choice },
    ];
    assert!(check_board_view(&BoardView { board: panel, moves: fine }).is_ok(), "buttons of different texts");
}
