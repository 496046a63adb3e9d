//! Three Men's Morris, a loopy game: the tiered, untiered and un-move solves of the retrograde engine agree on
//! every position, and with a value iteration written here over every reachable position without symmetry;
//! every key decodes back to a position with that key; positions and moves read back from their text; its
//! database holds the same values and checks.

use hashbrown::{HashMap, HashSet};
use ludus_framework::database::{Database, SolveBudget, TierFiles};
use ludus_framework::engines::retrograde::{is_parent, ByKey, Retrograde, RetrogradeSolver, TierSpec};
use ludus_framework::playable::TextForm;
use ludus_framework::plugin::seeded_rng;
use ludus_framework::Rules;
use ludus_framework::{Canonicalize, FromKey, Value};
use ludus_games::three_mens_morris::{Board, Step, ThreeMensMorris};
use rand::Rng;
use std::time::Instant;

const GAME: ThreeMensMorris = ThreeMensMorris;

/// Every position reachable from the start, without symmetry (each board with its player to move once), with
/// the moves that reach it first written as text, and the indices of its children.
struct Reachable {
    boards: Vec<Board>,
    lines: Vec<String>,
    children: Vec<Vec<usize>>,
}

fn reachable() -> Reachable {
    let mut index: HashMap<Board, usize> = HashMap::new();
    let mut boards = vec![Board::START];
    let mut lines = vec![String::new()];
    let mut children = Vec::new();
    index.insert(Board::START, 0);
    let mut next = 0;
    while next < boards.len() {
        let board = boards[next];
        let mut found = Vec::new();
        if !GAME.is_over(&board) {
            for step in GAME.legal_moves(&board) {
                let child = GAME.play(&board, &step);
                let place = *index.entry(child).or_insert_with(|| {
                    boards.push(child);
                    lines.push(format!("{} {}", lines[next], GAME.render_move(&board, &step)).trim().to_string());
                    boards.len() - 1
                });
                found.push(place);
            }
        }
        children.push(found);
        next += 1;
    }
    Reachable { boards, lines, children }
}

/// The values of `reachable` by value iteration, remoteness by remoteness: finished positions are lost in 0; a
/// position is won in `r` if a child is lost in `r - 1` (the smallest such `r`), lost in `r` if every child is
/// won and the slowest in `r - 1`; what is never decided is a draw.
fn value_iteration(reachable: &Reachable) -> Vec<Value> {
    let mut values: Vec<Option<Value>> = reachable.boards.iter().map(|board| GAME.outcome(board)).collect();
    for (value, children) in values.iter_mut().zip(&reachable.children) {
        if value.is_none() && children.is_empty() {
            *value = Some(Value::LOST);
        }
    }
    for remoteness in 1.. {
        let mut decided = Vec::new();
        for (place, children) in reachable.children.iter().enumerate() {
            if values[place].is_some() {
                continue;
            }
            let child_values: Vec<Option<Value>> = children.iter().map(|&child| values[child]).collect();
            if child_values.contains(&Some(Value::Lose(remoteness - 1))) {
                decided.push((place, Value::Win(remoteness)));
            } else if child_values.iter().all(|value| value.is_some_and(Value::is_win))
                && child_values.contains(&Some(Value::Win(remoteness - 1)))
            {
                // Every child is won, in at most `remoteness - 1` (larger ones are not decided yet).
                decided.push((place, Value::Lose(remoteness)));
            }
        }
        if decided.is_empty() {
            break;
        }
        for (place, value) in decided {
            values[place] = Some(value);
        }
    }
    values.into_iter().map(|value| value.unwrap_or(Value::Draw)).collect()
}

#[test]
fn the_solves_agree_with_a_value_iteration_on_every_position() {
    let start = GAME.start();
    let clock = Instant::now();
    let tiered = RetrogradeSolver::new().solve_tiers(&GAME, &start, TierSpec::new()).unwrap();
    let tiered_time = clock.elapsed();
    let clock = Instant::now();
    let plain = RetrogradeSolver::new().solve(&GAME, &start).unwrap();
    let plain_time = clock.elapsed();
    let hooked = RetrogradeSolver::new().solve_with_parents(&GAME, &start).unwrap();
    assert_eq!(tiered.tiers.len(), 7);
    assert_eq!((tiered.len(), hooked.len()), (plain.len(), plain.len()));
    for (key, value) in plain.iter() {
        assert_eq!(hooked.value_of_key(&key), Some(value));
        let in_tiers: Vec<Value> = tiered.tiers.iter().filter_map(|solved| solved.value_of_key(&key)).collect();
        assert_eq!(in_tiers, [value]);
    }
    // Only the movement phase loops: every placement tier is solved in one pass.
    for solved in &tiered.tiers {
        assert_eq!(solved.statistics().levels == 0, *solved.tier() < 6, "{:?}", solved.statistics());
    }

    let clock = Instant::now();
    let every = reachable();
    let iterated = value_iteration(&every);
    let iteration_time = clock.elapsed();
    let keys: HashSet<u32> = every.boards.iter().map(|board| GAME.canonical(board)).collect();
    assert_eq!(keys.len(), plain.len());
    for (board, value) in every.boards.iter().zip(&iterated) {
        assert_eq!(plain.value(&GAME, board), Some(*value), "{board:?}");
        assert_eq!(tiered.value(&GAME, board), Some(*value), "{board:?}");
    }
    let start_value = plain.value(&GAME, &start).unwrap();
    assert_eq!(start_value, Value::Win(9));
    // The first man: the centre wins, a corner draws, an edge loses.
    for step in GAME.legal_moves(&start) {
        let value = plain.value(&GAME, &GAME.play(&start, &step)).unwrap().backed_up();
        let expected = match step.to {
            4 => Value::Win(9),
            0 | 2 | 6 | 8 => Value::Draw,
            _ => Value::Lose(8),
        };
        assert_eq!(value, expected, "{step:?}");
    }
    let (wins, losses, draws) = plain.counts();
    let count = |wanted: fn(&Value) -> bool| iterated.iter().filter(|value| wanted(value)).count();
    eprintln!(
        "Three Men's Morris: {start_value} from the start; {} positions up to symmetry ({wins} won, {losses} lost, \
         {draws} drawn), {} without symmetry ({} won, {} lost, {} drawn); tiered solve {tiered_time:?}, plain \
         solve {plain_time:?}, enumeration and value iteration {iteration_time:?}",
        plain.len(),
        every.boards.len(),
        count(|value| value.is_win()),
        count(|value| value.is_loss()),
        count(|value| *value == Value::Draw),
    );
    assert_eq!((plain.len(), every.boards.len()), (540, 5_390));
}

#[test]
fn parents_are_exactly_the_positions_one_move_before() {
    let every = reachable();
    let keys: HashSet<u32> = every.boards.iter().map(|board| GAME.canonical(board)).collect();
    for (board, children) in every.boards.iter().zip(&every.children) {
        let mut parents = Vec::new();
        GAME.parents(board, &mut parents);
        for parent in parents.iter().filter(|parent| keys.contains(&GAME.canonical(parent))) {
            assert!(is_parent(&GAME, parent, board), "{parent:?} -> {board:?}");
        }
        let key = GAME.canonical(board);
        for &child in children {
            let mut listed = Vec::new();
            GAME.parents(&every.boards[child], &mut listed);
            assert!(listed.iter().any(|parent| GAME.canonical(parent) == key), "{board:?} -> {child}");
        }
    }
}

/// `men` rotated a quarter turn `symmetry % 4` times, then mirrored left to right if `symmetry >= 4`.
fn image(men: u16, symmetry: u32) -> u16 {
    let mut image = men;
    for _ in 0..symmetry % 4 {
        // A quarter turn: (column, row) -> (row, 2 - column).
        image = (0..9).filter(|point| image >> point & 1 != 0).fold(0, |out, point| {
            let (column, row) = (point % 3, point / 3);
            out | 1 << ((2 - column) * 3 + row)
        });
    }
    if symmetry >= 4 {
        image = (0..9)
            .filter(|point| image >> point & 1 != 0)
            .fold(0, |out, point| out | 1 << (point / 3 * 3 + 2 - point % 3));
    }
    image
}

#[test]
fn every_key_decodes_to_a_position_with_that_key() {
    let every = reachable();
    let mut keys = HashSet::new();
    for board in &every.boards {
        let key = GAME.canonical(board);
        let decoded = GAME.position_of_key(&key).unwrap_or_else(|| panic!("no position for {board:?}"));
        assert_eq!(GAME.canonical(&decoded), key, "{board:?} -> {decoded:?}");
        assert_eq!(GAME.outcome(&decoded), GAME.outcome(board), "{board:?} -> {decoded:?}");
        if !GAME.is_over(board) {
            assert_eq!(GAME.legal_moves(&decoded).len(), GAME.legal_moves(board).len(), "{board:?}");
        }
        keys.insert(key);
    }
    // Keys of no position: encodings of images that are not the smallest, a point taken twice, bits past 18,
    // too many men.
    let encode = |mover: u16, other: u16| u32::from(mover) << 9 | u32::from(other);
    let mut garbage: Vec<u32> = every
        .boards
        .iter()
        .flat_map(|board| {
            let (mover, other) = board.sides();
            (0..8).map(move |symmetry| encode(image(mover, symmetry), image(other, symmetry)))
        })
        .collect();
    garbage.extend([1 << 9 | 1, 1 << 18, 0o17 << 9, 0o17, u32::MAX, 0o7 << 9 | 0o700 << 9]);
    for key in garbage.iter().filter(|key| !keys.contains(*key)) {
        if let Some(decoded) = GAME.position_of_key(key) {
            assert_ne!(GAME.canonical(&decoded), *key, "{key:o} gave {decoded:?}");
        }
    }
    let mut rng = seeded_rng(7);
    for _ in 0..20_000 {
        let key: u32 = if rng.gen_bool(0.5) { rng.gen_range(0..1 << 18) } else { rng.gen() };
        if let Some(decoded) = GAME.position_of_key(&key) {
            assert_eq!(GAME.canonical(&decoded), key);
            if !GAME.is_over(&decoded) {
                GAME.legal_moves(&decoded);
            }
        }
    }
}

#[test]
fn positions_and_moves_read_back_from_their_text() {
    let every = reachable();
    for (board, line) in every.boards.iter().zip(&every.lines) {
        assert_eq!(GAME.parse_position(line).as_ref(), Ok(board), "{line}");
        if GAME.is_over(board) {
            assert_eq!(GAME.parse_move(board, "a1").unwrap_err().to_string(), "the game is over");
            continue;
        }
        for step in GAME.legal_moves(board) {
            assert_eq!(GAME.parse_move(board, &GAME.render_move(board, &step)), Ok(step), "{line}");
        }
        let drawing = GAME.draw_position(board);
        assert_eq!(drawing.lines().count(), 5, "{drawing}");
    }
    assert_eq!(GAME.parse_position("-"), Ok(Board::START));
    assert_eq!(GAME.parse_position(""), Ok(Board::START));
    assert_eq!(GAME.render_move(&Board::START, &Step { from: None, to: 4 }), "b2");
    assert_eq!(GAME.render_move(&Board::START, &Step { from: Some(0), to: 4 }), "a1b2");
    let drawing = GAME.draw_position(&GAME.parse_position("b2 a1 c3").unwrap());
    assert_eq!(drawing, "3 . . X\n2 . X .\n1 O . .\n  a b c\nO to move (placing a man)\n");

    let placed = "b2 a1 c3 a3 a2 c2";
    for (text, error) in [
        ("b2 b2", "move 2: point b2 is taken"),
        ("d1", "move 1: men are still being placed: expected an empty point like `b2`"),
        ("b2 a1b1", "move 2: men are still being placed"),
        ("é", "move 1: men are still being placed"),
        ("b2 a1 c3 a3 a2 c2 b2", "move 7: every man is placed: expected a man's point and the adjacent empty"),
        ("b2 a1 c3 a3 a2 c2 a1b1", "move 7: there is no X man on a1"),
        ("b2 a1 c3 a3 a2 c2 a2a1", "move 7: point a1 is taken"),
        ("b2 a1 c3 a3 a2 c2 a2c1", "move 7: c1 is not next to a2 along a line"),
        ("b2 a1 c3 a3 a2 c2 c3c4", "move 7: every man is placed"),
        ("b2 a1 c3 a3 a2 c2 c3éé", "move 7: every man is placed"),
        ("b1 a1 b2 c1 b3 a2", "move 6: the game is over"),
    ] {
        let found = GAME.parse_position(text).unwrap_err().to_string();
        assert!(found.starts_with(error), "{text}: {found}");
    }
    assert!(GAME.parse_position(placed).is_ok());
    // Random text, a character at a time, never panics.
    let mut rng = seeded_rng(8);
    let alphabet: Vec<char> = "abcd0123 -xé".chars().collect();
    for _ in 0..20_000 {
        let length = rng.gen_range(0..24);
        let text: String = (0..length).map(|_| alphabet[rng.gen_range(0..alphabet.len())]).collect();
        let _ = GAME.parse_position(&text);
    }
}

#[test]
fn the_database_holds_the_solved_values_and_checks() {
    let directory = std::env::temp_dir().join(format!("ludus-three-mens-morris-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    let database = Database::new(&GAME, "three-mens-morris", &directory);
    let budget = SolveBudget { memory_mb: 1024, max_positions: u64::MAX, stop: None };
    let mut positions = 0;
    database.solve(&GAME.start(), budget, &mut |report| positions += report.positions, TierSpec::new()).unwrap();
    assert_eq!(positions, 540);
    let solution = RetrogradeSolver::new().solve(&GAME, &GAME.start()).unwrap();
    let mut files = TierFiles::default();
    for board in reachable().boards {
        assert_eq!(database.value(&mut files, &board).unwrap(), solution.value(&GAME, &board), "{board:?}");
    }
    let report = database.check(&GAME.start(), &ByKey, &mut |_, _, _| {}).unwrap();
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    std::fs::remove_dir_all(&directory).unwrap();
}
