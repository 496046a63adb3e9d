//! Connect Four's zugzwang rules (`games/src/connect_four/zugzwang.rs`, the value range of its hints) against
//! exact values: on thousands of random positions of boards with even and odd heights and cell counts, the
//! range holds the value searched without any hint, each kind of bound fires (so the check has something to
//! check), and on hand-made positions the follow-up and the odd threat give the bounds their rules say.

#![allow(clippy::unwrap_used)] // tests may unwrap

use ludus_framework::engines::alpha_beta::AlphaBeta;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::hints::NoHints;
use ludus_framework::plugin::seeded_rng;
use ludus_framework::table::UnboundedTable;
use ludus_framework::Rules;
use ludus_framework::{Proven, SearchHints, Value};
use ludus_games::connect_four::{random_moves, Board, ConnectFour};
use rand::Rng;

/// The range of `board` as the hints give it (shortcut or range, through `proven`), checked against
/// `value_range` when no shortcut applies.
fn range_of(game: &ConnectFour, board: &Board) -> Option<(Value, Value)> {
    match game.proven(board) {
        Proven::Shortcut(_) => None,
        Proven::Range(worst, best) => {
            assert_eq!(game.value_range(board), (worst, best), "{board:?}");
            assert!(game.shortcut(board).is_none(), "{board:?}");
            Some((worst, best))
        }
    }
}

/// How often each kind of bound fired.
#[derive(Debug, Default)]
struct Fired {
    checked: u32,
    worst_draw: u32,
    worst_win: u32,
    best_draw: u32,
    best_loss: u32,
    /// A bound on the best value with an even number (two or more) of columns of odd empty cells: the pairs.
    paired: u32,
    /// A loss bound with three or more odd columns: the follow-up in one of them, the others paired.
    followed_and_paired: u32,
}

/// The number of columns of `board` with an odd number of empty cells.
fn odd_columns(game: &ConnectFour, board: &Board) -> u32 {
    let stride = game.height() + 1;
    (0..game.width())
        .filter(|column| {
            (game.height() - (board.mask >> (column * stride) & ((1 << stride) - 1)).count_ones()) % 2 == 1
        })
        .count() as u32
}

/// Checks the range of random positions of a `width x height` board with `empty` empty cells (a range) against
/// the exact value searched without hints.
fn check_board(width: u32, height: u32, empty: std::ops::RangeInclusive<u32>, count: u32, fired: &mut Fired) {
    let game = ConnectFour::new(width, height).unwrap();
    let bare = NoHints(&game);
    let mut exact = AlphaBeta::with_table(Mode::Exact, UnboundedTable::new());
    let mut rng = seeded_rng(u64::from(width * 100 + height));
    let cells = width * height;
    for index in 0..count {
        let free = empty.start() + index % (empty.end() - empty.start() + 1);
        let moves = random_moves(&game, cells - free, &mut rng).unwrap();
        let board = game.parse_moves(&moves).unwrap();
        if game.outcome(&board).is_some() {
            continue;
        }
        let Some((worst, best)) = range_of(&game, &board) else { continue };
        let value = exact.value(&bare, &board);
        assert!(worst <= value && value <= best, "{width} x {height} {moves}: {value} not in {worst}..={best}");
        fired.checked += 1;
        match worst {
            Value::Draw => fired.worst_draw += 1,
            Value::Win(_) => fired.worst_win += 1,
            Value::Lose(_) => {}
        }
        match best {
            Value::Draw => fired.best_draw += 1,
            Value::Lose(_) => fired.best_loss += 1,
            Value::Win(_) => {}
        }
        let odd = odd_columns(&game, &board);
        if best <= Value::Draw && odd >= 2 && odd.is_multiple_of(2) {
            fired.paired += 1;
        }
        if matches!(best, Value::Lose(_)) && odd >= 3 && odd % 2 == 1 {
            fired.followed_and_paired += 1;
        }
    }
}

#[test]
fn the_zugzwang_range_holds_the_exact_value_on_random_positions() {
    let mut fired = Fired::default();
    // 7 x 6 near the end; 5 x 4 and 4 x 4 from the middle; 5 x 5 (odd cells) and 6 x 5, 4 x 5 (odd heights).
    check_board(7, 6, 6..=13, 4000, &mut fired);
    check_board(5, 4, 6..=14, 4000, &mut fired);
    check_board(4, 4, 4..=12, 3000, &mut fired);
    check_board(5, 5, 6..=13, 4000, &mut fired);
    check_board(6, 5, 6..=13, 4000, &mut fired);
    check_board(4, 5, 5..=13, 3000, &mut fired);
    // Every kind of bound took part: a rule that never fires would pass the check above without being checked.
    assert!(fired.checked > 10000, "{fired:?}");
    assert!(fired.worst_draw > 30 && fired.worst_win > 30, "{fired:?}");
    assert!(fired.best_draw > 100 && fired.best_loss > 100, "{fired:?}");
    assert!(fired.paired > 100 && fired.followed_and_paired > 10, "{fired:?}");
}

#[test]
fn four_odd_columns_pair_up_the_best_way() {
    // Positions with four columns of odd empty cells, where the follower may pair their next cells three ways:
    // the range holds the exact value, and the pairs decide some of them that no single way of taking the four
    // cells (the mover taking every one) would.
    let game = ConnectFour::standard();
    let bare = NoHints(&game);
    let mut exact = AlphaBeta::with_table(Mode::Exact, UnboundedTable::new());
    let mut rng = seeded_rng(4444);
    let (mut checked, mut paired) = (0, 0);
    for index in 0..120_000 {
        let moves = random_moves(&game, 42 - (8 + index % 5), &mut rng).unwrap();
        let board = game.parse_moves(&moves).unwrap();
        if game.outcome(&board).is_some() || odd_columns(&game, &board) != 4 {
            continue;
        }
        let Some((worst, best)) = range_of(&game, &board) else { continue };
        let value = exact.value(&bare, &board);
        assert!(worst <= value && value <= best, "{moves}: {value} not in {worst}..={best}");
        checked += 1;
        // The mover's cells by the follow-up (rows 1, 3 and 5 from 0 are the follower's on 6 rows), with every
        // next cell of an odd column: if they hold four, only the best pairing of those cells gives the bound.
        let (mut mover, mut lows) = (board.current, 0);
        for column in 0..7 {
            let height = (board.mask >> (7 * column) & 0x7f).count_ones();
            for row in height..6 {
                let cell = 1u64 << (7 * column + row);
                if row % 2 == 0 {
                    mover |= cell;
                }
                if row == height && (6 - height) % 2 == 1 {
                    lows |= cell;
                }
            }
        }
        if best <= Value::Draw && game.has_four(mover | lows) {
            paired += 1;
        }
    }
    assert!(checked > 1000 && paired > 10, "{checked} checked, {paired} decided by the pairs");
}

#[test]
fn the_follow_up_bounds_the_first_player_when_every_column_is_even() {
    let game = ConnectFour::standard();
    // The second player holds d1, d3 and d5 (the first player had played a1 first), then both filled the
    // bottom two rows: every column even, the first player to move. Answering above each of its moves, the
    // second player gets rows 4 and 6 and the first player rows 3 and 5, all of whose fours go through column
    // d; a diagonal needs two cells of even rows, of which the first player owns only d2, d4 and d6, one a
    // diagonal. So the first player cannot win, nor can the second (its odd-row stones are one column): at
    // best a draw by the follow-up alone, while the first player could still make four with every empty cell.
    let board = game.parse_moves("144444412233556677").unwrap();
    assert_eq!(range_of(&game, &board), Some((Value::Lose(4), Value::Draw)));
    // Early, with most of the board empty, no rule is tried.
    let board = game.parse_moves("14444441").unwrap();
    assert_eq!(range_of(&game, &board), Some((Value::Lose(4), Value::Win(3))));
}

#[test]
fn the_pairs_bound_the_player_to_move_when_two_columns_are_odd() {
    let game = ConnectFour::standard();
    let bare = NoHints(&game);
    let mut exact = AlphaBeta::with_table(Mode::Exact, UnboundedTable::new());
    // Random games (found by a search over random play), the first player to move, two columns odd (a and d in
    // the first, f and g in the second), both sides still able to make four with the empty cells. In the first
    // neither side has a threat (so no threat rule applies), the second player's cells and either next cell of a
    // and d hold four, and the first player's and either next cell none: a loss by the last cell. In the second
    // neither side's do: the first player cannot win.
    for (moves, best, value) in [
        ("1426536745172644217226255374", Value::Lose(14), Value::Lose(10)),
        ("547742671352251457417572344661", Value::Draw, Value::Draw),
    ] {
        let board = game.parse_moves(moves).unwrap();
        let (_, bound) = range_of(&game, &board).unwrap();
        assert_eq!(bound, best, "{moves}");
        assert_eq!(exact.value(&bare, &board), value, "{moves}");
    }
}

#[test]
fn a_threat_wins_with_the_rest_paired() {
    let game = ConnectFour::standard();
    let bare = NoHints(&game);
    let mut exact = AlphaBeta::with_table(Mode::Exact, UnboundedTable::new());
    // A random game, the second player to move with 11 empty cells (d2 to d6, e5, e6, g3 to g6). The first
    // player threatens d3, right above the second player's next cell d2; the six other cells (the rest) pair up
    // in their columns, the second player getting e5, g3 and g5 (the other threats, d4 and d5, leave an odd rest
    // or a later win). Those cells, d2 and the second player's stones hold no four: once the rest is full the
    // second player must play d2, and the first player wins by d3, within 8 plies.
    let moves = "6223256221121661131537337356564";
    let board = game.parse_moves(moves).unwrap();
    let (_, best) = range_of(&game, &board).unwrap();
    assert_eq!(best, Value::Lose(8), "{moves}");
    let value = exact.value(&bare, &board);
    assert!(matches!(value, Value::Lose(plies) if plies <= 8), "{moves}: {value}");
    // The second player to move with 13 empty cells; the first player threatens e5, above e4. Below e4 only e3
    // is empty, an odd part: e3 is paired with the next cells of the odd columns a, b and g (four cells, as
    // though the second player took all of them), the rest of b and c in twos (the second player getting b5,
    // c3 and c5). Those cells, e4 and the second player's stones hold no four: a win by e5 within 12 plies.
    let moves = "56645417467441426173227367161";
    let board = game.parse_moves(moves).unwrap();
    let (_, best) = range_of(&game, &board).unwrap();
    assert_eq!(best, Value::Lose(12), "{moves}");
    let value = exact.value(&bare, &board);
    assert!(matches!(value, Value::Lose(plies) if plies <= 12), "{moves}: {value}");
}

#[test]
fn an_odd_threat_wins_for_its_owner_by_the_time_its_cell_is_played() {
    let game = ConnectFour::new(4, 4).unwrap();
    let bare = NoHints(&game);
    let mut exact = AlphaBeta::with_table(Mode::Exact, UnboundedTable::new());
    // Every reachable 4 x 4 position with 6 to 10 empty cells whose range says a win: the search agrees, and
    // wins no later than the bound.
    let mut wins = 0;
    let mut rng = seeded_rng(44);
    for _ in 0..3000 {
        let moves = random_moves(&game, 6 + rng.gen_range(0..5), &mut rng).unwrap();
        let board = game.parse_moves(&moves).unwrap();
        if game.outcome(&board).is_some() {
            continue;
        }
        if let Some((Value::Win(bound), _)) = range_of(&game, &board) {
            let value = exact.value(&bare, &board);
            assert!(matches!(value, Value::Win(plies) if plies <= bound), "{moves}: {value}, bound a win in {bound}");
            wins += 1;
        }
    }
    assert!(wins > 0, "no odd threat among the positions");
}
