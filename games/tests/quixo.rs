//! Quixo: the rules of `games/src/quixo` against a second, plain implementation written here (cells in an
//! array, cubes slid one by one), on random playouts of every size; the retrograde engine's solves of 3 x 3
//! (tiered by rank and by hash, untiered, with the un-move hook) against a value iteration over every
//! position without symmetry; ranks dense, within the tier's size and inverted by unrank; symmetric positions
//! with equal keys; un-moves exactly the positions one move before; text read back; the database by rank.

use hashbrown::{HashMap, HashSet};
use ludus_framework::conformance::GameCheck;
use ludus_framework::database::{Database, SolveBudget, TierFiles};
use ludus_framework::engines::retrograde::{is_parent, ByRank, Rank, Retrograde, RetrogradeSolver, TierSpec, Tiers};
use ludus_framework::playable::TextForm;
use ludus_framework::plugin::seeded_rng;
use ludus_framework::Rules;
use ludus_framework::{Canonicalize, FromKey, Value};
use ludus_games::quixo::{Board, Push, Quixo};
use rand::Rng;
use std::time::Instant;

/// A position of the plain implementation: each cell blank (0), X (1) or O (2), row by row from the bottom; and
/// the player to move (1 or 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Plain {
    side: usize,
    cells: [u8; 25],
    to_move: u8,
}

impl Plain {
    fn start(side: usize) -> Plain {
        Plain { side, cells: [0; 25], to_move: 1 }
    }

    fn at(&self, row: usize, column: usize) -> u8 {
        self.cells[row * self.side + column]
    }

    /// Whether `mark` fills a row, a column or a main diagonal.
    fn has_line(&self, mark: u8) -> bool {
        let n = self.side;
        (0..n).any(|row| (0..n).all(|column| self.at(row, column) == mark))
            || (0..n).any(|column| (0..n).all(|row| self.at(row, column) == mark))
            || (0..n).all(|step| self.at(step, step) == mark)
            || (0..n).all(|step| self.at(step, n - 1 - step) == mark)
    }

    /// The value at the end: a line of the player to move's marks was made by the last mover, who lost by it.
    fn outcome(&self) -> Option<Value> {
        if self.has_line(self.to_move) {
            Some(Value::Win(0))
        } else if self.has_line(3 - self.to_move) {
            Some(Value::LOST)
        } else {
            None
        }
    }

    /// Every move as (cell taken, cell pushed in at, the position after it).
    fn moves(&self) -> Vec<(usize, usize, Plain)> {
        let n = self.side;
        let mut moves = Vec::new();
        for row in 0..n {
            for column in 0..n {
                let border = row == 0 || column == 0 || row == n - 1 || column == n - 1;
                let cube = self.at(row, column);
                if !border || (cube != 0 && cube != self.to_move) {
                    continue;
                }
                let mut ends = vec![(row, 0), (row, n - 1), (0, column), (n - 1, column)];
                ends.retain(|&end| end != (row, column));
                ends.sort_unstable();
                ends.dedup();
                for (end_row, end_column) in ends {
                    let mut next = *self;
                    let mut cell = (row, column);
                    // Walk from the hole toward the end, pulling each cube one step into the hole.
                    while cell != (end_row, end_column) {
                        let toward = (
                            (cell.0 as isize + (end_row as isize - cell.0 as isize).signum()) as usize,
                            (cell.1 as isize + (end_column as isize - cell.1 as isize).signum()) as usize,
                        );
                        next.cells[cell.0 * n + cell.1] = self.at(toward.0, toward.1);
                        cell = toward;
                    }
                    next.cells[end_row * n + end_column] = self.to_move;
                    next.to_move = 3 - self.to_move;
                    moves.push((row * n + column, end_row * n + end_column, next));
                }
            }
        }
        moves
    }

    fn board(&self) -> Board {
        let mask =
            |mark: u8| (0..self.side * self.side).filter(|&cell| self.cells[cell] == mark).fold(0, |m, c| m | 1 << c);
        Board { crosses: mask(1), noughts: mask(2), crosses_to_move: self.to_move == 1 }
    }
}

/// Every position reachable from the start without symmetry, and the indices of each one's children.
fn reachable(side: usize) -> (Vec<Plain>, Vec<Vec<usize>>) {
    let mut index: HashMap<Plain, usize> = HashMap::new();
    let mut positions = vec![Plain::start(side)];
    let mut children = Vec::new();
    index.insert(positions[0], 0);
    let mut next = 0;
    while next < positions.len() {
        let position = positions[next];
        let mut found = Vec::new();
        if position.outcome().is_none() {
            for (_, _, child) in position.moves() {
                let place = *index.entry(child).or_insert_with(|| {
                    positions.push(child);
                    positions.len() - 1
                });
                found.push(place);
            }
        }
        children.push(found);
        next += 1;
    }
    (positions, children)
}

/// The values by value iteration, remoteness by remoteness: outcomes at the end; a position is won in `r` if a
/// child is lost in `r - 1`, lost in `r` if every child is won and the slowest in `r - 1`; never decided: a draw.
fn value_iteration(positions: &[Plain], children: &[Vec<usize>]) -> Vec<Value> {
    let mut values: Vec<Option<Value>> = positions.iter().map(Plain::outcome).collect();
    for (value, children) in values.iter_mut().zip(children) {
        if value.is_none() && children.is_empty() {
            *value = Some(Value::LOST);
        }
    }
    for remoteness in 1.. {
        let mut decided = Vec::new();
        for (place, children) in children.iter().enumerate() {
            if values[place].is_some() {
                continue;
            }
            let child_values: Vec<Option<Value>> = children.iter().map(|&child| values[child]).collect();
            if child_values.contains(&Some(Value::Lose(remoteness - 1))) {
                decided.push((place, Value::Win(remoteness)));
            } else if child_values.iter().all(|value| value.is_some_and(Value::is_win))
                && child_values.contains(&Some(Value::Win(remoteness - 1)))
            {
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

/// The 8 images of a board under the square's symmetries, by coordinates (quarter turns, then a mirror).
fn images(side: u32, board: &Board) -> Vec<Board> {
    let carry = |mask: u32, symmetry: u32| -> u32 {
        (0..side * side).filter(|cell| mask >> cell & 1 != 0).fold(0, |out, cell| {
            let (mut row, mut column) = (cell / side, cell % side);
            for _ in 0..symmetry % 4 {
                (row, column) = (column, side - 1 - row);
            }
            if symmetry >= 4 {
                column = side - 1 - column;
            }
            out | 1 << (row * side + column)
        })
    };
    (0..8)
        .map(|symmetry| Board {
            crosses: carry(board.crosses, symmetry),
            noughts: carry(board.noughts, symmetry),
            crosses_to_move: board.crosses_to_move,
        })
        .collect()
}

/// A random position of `game` after up to `plies` random moves (stopping at the end of the game).
fn random_position(game: &Quixo, plies: usize, rng: &mut impl Rng) -> Plain {
    let mut plain = Plain::start(usize::from(game.size()));
    for _ in 0..rng.gen_range(0..=plies) {
        let moves = plain.moves();
        if plain.outcome().is_some() || moves.is_empty() {
            break;
        }
        plain = moves[rng.gen_range(0..moves.len())].2;
    }
    plain
}

#[test]
fn the_rules_match_the_plain_implementation_on_random_playouts() {
    let mut rng = seeded_rng(31);
    for size in Quixo::SIZES {
        let game = Quixo::new(size).unwrap();
        let pushes = game.legal_moves(&game.start());
        // A corner cube has 2 ends to be pushed in at, another border cube 3.
        let side = usize::from(size);
        assert_eq!(pushes.len(), 4 * 2 + 4 * (side - 2) * 3);
        for _ in 0..300 {
            let plain = random_position(&game, 60, &mut rng);
            let board = plain.board();
            assert_eq!(game.outcome(&board), plain.outcome(), "{plain:?}");
            if plain.outcome().is_some() {
                continue;
            }
            let mut expected: Vec<(Push, Board)> = plain
                .moves()
                .into_iter()
                .map(|(from, to, child)| (Push { from: from as u8, to: to as u8 }, child.board()))
                .collect();
            let mut found: Vec<(Push, Board)> =
                game.legal_moves(&board).into_iter().map(|push| (push, game.play(&board, &push))).collect();
            expected.sort_unstable();
            found.sort_unstable();
            assert_eq!(found, expected, "{plain:?}");
        }
    }
    assert!(Quixo::new(2).is_err() && Quixo::new(6).is_err());
}

#[test]
fn the_solves_of_3_by_3_agree_with_a_value_iteration_on_every_position() {
    let game = Quixo::new(3).unwrap();
    let start = game.start();
    let clock = Instant::now();
    let ranked =
        RetrogradeSolver::new().solve_tiers(&game, &start, TierSpec::new().indexed(ByRank::of(&game))).unwrap();
    let ranked_time = clock.elapsed();
    let tiered = RetrogradeSolver::new().solve_tiers(&game, &start, TierSpec::new()).unwrap();
    let plain = RetrogradeSolver::new().solve(&game, &start).unwrap();
    let hooked = RetrogradeSolver::new().solve_with_parents(&game, &start).unwrap();
    assert_eq!((ranked.len(), tiered.len(), hooked.len()), (plain.len(), plain.len(), plain.len()));

    let clock = Instant::now();
    let (positions, children) = reachable(3);
    let iterated = value_iteration(&positions, &children);
    let iteration_time = clock.elapsed();
    let keys: HashSet<u64> = positions.iter().map(|position| game.canonical(&position.board())).collect();
    assert_eq!(keys.len(), plain.len());
    for (position, value) in positions.iter().zip(&iterated) {
        let board = position.board();
        assert_eq!(plain.value(&game, &board), Some(*value), "{position:?}");
        assert_eq!(hooked.value(&game, &board), Some(*value), "{position:?}");
        assert_eq!(tiered.value(&game, &board), Some(*value), "{position:?}");
        assert_eq!(ranked.value(&game, &board), Some(*value), "{position:?}");
    }
    let start_value = ranked.value(&game, &start).unwrap();
    let (wins, losses, draws) = plain.counts();
    let count = |wanted: fn(&Value) -> bool| iterated.iter().filter(|value| wanted(value)).count();
    eprintln!(
        "Quixo 3 x 3: {start_value} from the start; {} positions up to symmetry and colour ({wins} won, {losses} \
         lost, {draws} drawn) in {} tiers, {} without symmetry ({} won, {} lost, {} drawn); ranked solve \
         {ranked_time:?}, enumeration and value iteration {iteration_time:?}",
        plain.len(),
        ranked.tiers.len(),
        positions.len(),
        count(|value| value.is_win()),
        count(|value| value.is_loss()),
        count(|value| *value == Value::Draw),
    );
    assert_eq!(start_value, Value::Win(7));
    assert_eq!((plain.len(), positions.len(), draws), (2_219, 32_027, 0));
}

#[test]
fn ranks_are_dense_within_each_tier_and_inverted_by_unrank() {
    for size in [3, 4] {
        let game = Quixo::new(size).unwrap();
        let cells = u32::from(size) * u32::from(size);
        // Every tier with few marks, rank by rank; every encoding of a pair of masks is a rank.
        let tiers: Vec<(u8, u8)> = (0..=4).flat_map(|more| (0..=more).map(move |fewer| (more, fewer))).collect();
        for tier in &tiers {
            let tier_size = game.tier_size(tier);
            let (more, fewer) = (u64::from(tier.0), u64::from(tier.1));
            let blocks = if more == fewer { 1 } else { 2 };
            let choose = |n: u64, k: u64| (0..k).fold(1u64, |product, i| product * (n - i) / (i + 1));
            assert_eq!(tier_size, blocks * choose(u64::from(cells), more) * choose(u64::from(cells) - more, fewer));
            for rank in 0..tier_size {
                let key = game.unrank(tier, rank).unwrap_or_else(|| panic!("{size}: rank {rank} of {tier:?}"));
                assert_eq!(game.rank(tier, &key), Some(rank), "{size}: key {key:x} of {tier:?}");
                let (mover, other) = ((key >> cells) as u32, key as u32 & ((1 << cells) - 1));
                let board = Board { crosses: mover, noughts: other, crosses_to_move: true };
                assert_eq!(game.tier(&board), *tier);
            }
            assert_eq!(game.unrank(tier, tier_size), None);
        }
        // The canonical keys of random positions of every tier.
        let mut rng = seeded_rng(u64::from(size));
        let mut ranks: HashMap<((u8, u8), u64), u64> = HashMap::new();
        for _ in 0..20_000 {
            let plain = random_position(&game, 80, &mut rng);
            let board = plain.board();
            let (tier, key) = (game.tier(&board), game.canonical(&board));
            let rank = game.rank(&tier, &key).unwrap_or_else(|| panic!("{key:x} has no rank in {tier:?}"));
            assert!(rank < game.tier_size(&tier));
            assert_eq!(game.unrank(&tier, rank), Some(key));
            assert_eq!(*ranks.entry((tier, rank)).or_insert(key), key, "two keys share rank {rank} of {tier:?}");
            let decoded = game.position_of_key(&key).unwrap();
            assert_eq!((game.canonical(&decoded), game.tier(&decoded)), (key, tier));
        }
    }
    // 5 x 5: the middle tiers are beyond u32 ranks (the solver refuses them); ranks still round trip.
    let game = Quixo::new(5).unwrap();
    assert!(game.tier_size(&(9, 8)) > u64::from(u32::MAX));
    let mut rng = seeded_rng(5);
    for _ in 0..2_000 {
        let board = random_position(&game, 200, &mut rng).board();
        let (tier, key) = (game.tier(&board), game.canonical(&board));
        let rank = game.rank(&tier, &key).unwrap();
        assert_eq!(game.unrank(&tier, rank), Some(key));
    }
}

#[test]
fn random_keys_and_ranks_give_none_or_a_consistent_answer() {
    let mut rng = seeded_rng(17);
    for size in Quixo::SIZES {
        let game = Quixo::new(size).unwrap();
        let mut tiers: Vec<(u8, u8)> = vec![(0, 0), (3, 1), (5, 5), (1, 2), (26, 0), (u8::MAX, u8::MAX), (13, 12)];
        tiers.push((size * size, 0));
        for tier in &tiers {
            let tier_size = game.tier_size(tier);
            for _ in 0..2_000 {
                let key: u64 =
                    if rng.gen_bool(0.5) { rng.gen() } else { rng.gen::<u64>() >> (64 - 2 * u32::from(size).pow(2)) };
                if let Some(rank) = game.rank(tier, &key) {
                    assert!(rank < tier_size);
                    assert_eq!(game.unrank(tier, rank), Some(key));
                }
                if let Some(board) = game.position_of_key(&key) {
                    assert_eq!(game.canonical(&board), key);
                }
                let rank =
                    if rng.gen_bool(0.5) { rng.gen_range(0..tier_size.saturating_mul(2).max(1)) } else { rng.gen() };
                if let Some(key) = game.unrank(tier, rank) {
                    assert_eq!(game.rank(tier, &key), Some(rank));
                }
            }
        }
    }
}

#[test]
fn symmetric_positions_and_colour_swaps_share_keys() {
    for size in Quixo::SIZES {
        let game = Quixo::new(size).unwrap();
        let side = u32::from(size);
        let symmetries = |board: &Board| images(side, board);
        let check = GameCheck::new(&game, game.start()).playouts(100).max_plies(10_000).seed(3).symmetries(&symmetries);
        // Random play makes a line soon: every playout ends.
        assert_eq!(check.run().map_err(|error| error.to_string()), Ok(()), "{size}");
        let mut rng = seeded_rng(u64::from(size) + 40);
        for _ in 0..500 {
            let board = random_position(&game, 100, &mut rng).board();
            let key = game.canonical(&board);
            for image in images(side, &board) {
                assert_eq!(game.canonical(&image), key);
                let swapped =
                    Board { crosses: image.noughts, noughts: image.crosses, crosses_to_move: !image.crosses_to_move };
                assert_eq!(game.canonical(&swapped), key);
            }
            // The key tells the marks apart: the other player to move on the same board is another key, unless
            // the swap of marks is a symmetry of it.
            let other_turn = Board { crosses_to_move: !board.crosses_to_move, ..board };
            let swap_is_symmetry = images(side, &board)
                .iter()
                .any(|image| image.crosses == board.noughts && image.noughts == board.crosses);
            assert_eq!(game.canonical(&other_turn) == key, swap_is_symmetry, "{board:?}");
        }
    }
}

#[test]
fn parents_are_exactly_the_positions_one_move_before() {
    let check = |game: &Quixo, positions: &[Board]| {
        for board in positions {
            let mut parents = Vec::new();
            game.parents(board, &mut parents);
            for parent in &parents {
                assert!(is_parent(game, parent, board), "{parent:?} -> {board:?}");
            }
            if game.is_over(board) {
                continue;
            }
            let key = game.canonical(board);
            for push in game.legal_moves(board) {
                let child = game.play(board, &push);
                let mut listed = Vec::new();
                game.parents(&child, &mut listed);
                assert!(listed.iter().any(|parent| game.canonical(parent) == key), "{board:?} -> {push:?}");
            }
        }
    };
    let game = Quixo::new(3).unwrap();
    let (positions, _) = reachable(3);
    let boards: Vec<Board> = positions.iter().map(Plain::board).collect();
    check(&game, &boards);
    let mut rng = seeded_rng(23);
    for size in [4, 5] {
        let game = Quixo::new(size).unwrap();
        let sample: Vec<Board> = (0..2_000).map(|_| random_position(&game, 120, &mut rng).board()).collect();
        check(&game, &sample);
    }
}

#[test]
fn positions_and_moves_read_back_from_their_text() {
    let mut rng = seeded_rng(9);
    for size in Quixo::SIZES {
        let game = Quixo::new(size).unwrap();
        for _ in 0..300 {
            let mut board = game.start();
            let mut line = Vec::new();
            for _ in 0..rng.gen_range(0..40) {
                if game.is_over(&board) {
                    break;
                }
                let moves = game.legal_moves(&board);
                for push in &moves {
                    assert_eq!(game.parse_move(&board, &game.render_move(&board, push)), Ok(*push));
                }
                let push = moves[rng.gen_range(0..moves.len())];
                line.push(game.render_move(&board, &push));
                board = game.play(&board, &push);
            }
            assert_eq!(game.parse_position(&line.join(" ")), Ok(board), "{line:?}");
            assert_eq!(game.draw_position(&board).lines().count(), usize::from(size) + 2);
        }
    }
    let game = Quixo::new(3).unwrap();
    assert_eq!(game.parse_position("-"), Ok(Board::START));
    let board = game.parse_position("a1c1 c3a3").unwrap();
    assert_eq!(game.draw_position(&board), "3 O . .\n2 . . .\n1 . . X\n  a b c\nX to move\n");
    for (text, error) in [
        ("b2b1", "move 1: b2 is not on the border"),
        ("a1b1", "move 1: b1 is not another end of the row or column of a1"),
        ("a1a1", "move 1: a1 is not another end"),
        ("a1c3", "move 1: c3 is not another end"),
        ("c1a1 a1c1", "move 2: the cube at a1 shows the opponent's mark"),
        ("a1d1", "move 1: expected the cell a cube is taken from and the cell it is pushed in at, like `a1c3`"),
        ("a1", "move 1: expected the cell"),
        ("é1a1", "move 1: expected the cell"),
        // X fills row 1 from a1 (O's pushes elsewhere): the game is over.
        ("c1a1 a3c3 c1a1 c3a3 c1a1 a3c3", "move 6: the game is over"),
    ] {
        let found = game.parse_position(text).unwrap_err().to_string();
        assert!(found.starts_with(error), "{text}: {found}");
    }
    let over = game.parse_position("c1a1 a3c3 c1a1 c3a3 c1a1").unwrap();
    assert_eq!(game.outcome(&over), Some(Value::LOST));
    assert_eq!(game.parse_move(&over, "a3c3"), Err(ludus_framework::ParseError::game_over()));
    assert!(game.draw_position(&over).contains("X made a line: X wins"));
    let mut rng = seeded_rng(10);
    let alphabet: Vec<char> = "abcd0123 -é".chars().collect();
    for _ in 0..20_000 {
        let length = rng.gen_range(0..24);
        let text: String = (0..length).map(|_| alphabet[rng.gen_range(0..alphabet.len())]).collect();
        let _ = game.parse_position(&text);
    }
}

#[test]
fn making_the_opponents_line_loses_even_with_ones_own() {
    let game = Quixo::new(3).unwrap();
    let cell = |name: &str| game.parse_cell(name).unwrap();
    let mask = |names: &[&str]| names.iter().fold(0u32, |out, name| out | 1 << cell(name));
    // X takes the blank a1 and pushes it in at a3: column a slides down, O's a2 completes row 1 while X's a3
    // completes row 2.
    let before =
        Board { crosses: mask(&["a3", "b2", "c2"]), noughts: mask(&["a2", "b1", "c1"]), crosses_to_move: true };
    assert_eq!(game.outcome(&before), None);
    let after = game.play(&before, &Push { from: cell("a1"), to: cell("a3") });
    assert_eq!((after.crosses, after.noughts), (mask(&["a2", "a3", "b2", "c2"]), mask(&["a1", "b1", "c1"])));
    // O, to move, faces both lines: X made O's line and lost.
    assert_eq!(game.outcome(&after), Some(Value::Win(0)));
    assert!(game.draw_position(&after).contains("X made a line of O's: O wins"));
    // A line of the last mover's alone wins for him.
    let own = Board { noughts: mask(&["b1", "c1"]), ..after };
    assert_eq!(game.outcome(&own), Some(Value::LOST));
}

#[test]
fn the_database_of_3_by_3_holds_the_solved_values_and_checks() {
    let game = Quixo::new(3).unwrap();
    let directory = std::env::temp_dir().join(format!("ludus-quixo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    let database = Database::new(&game, "quixo:size=3", &directory);
    let budget = SolveBudget { memory_mb: 1024, max_positions: u64::MAX, stop: None };
    database.solve(&game.start(), budget, &mut |_| {}, TierSpec::new().indexed(ByRank::of(&game))).unwrap();
    let solution = RetrogradeSolver::new().solve(&game, &game.start()).unwrap();
    let mut files = TierFiles::default();
    let (positions, _) = reachable(3);
    for position in positions.iter().step_by(7) {
        let board = position.board();
        assert_eq!(database.value(&mut files, &board).unwrap(), solution.value(&game, &board), "{board:?}");
    }
    let report = database.check(&game.start(), &ByRank::of(&game), &mut |_, _, _| {}).unwrap();
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    std::fs::remove_dir_all(&directory).unwrap();
}
