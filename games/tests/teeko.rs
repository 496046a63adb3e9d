//! Teeko: the rules of `games/src/teeko` against a second, plain implementation written here (cells in an
//! array, lines and squares found by walking), on random playouts on 5 x 5 and 4 x 4; the retrograde engine's
//! solves of the 4 x 4 variant (tiered by rank and by hash, untiered with the un-move hook) against a value
//! iteration over every position without symmetry; ranks dense, within the tier's size and inverted by unrank;
//! symmetric positions with equal keys; un-moves exactly the positions one move before; text read back; the
//! database by rank.

use hashbrown::{HashMap, HashSet};
use ludus_framework::conformance::GameCheck;
use ludus_framework::database::{Database, SolveBudget, TierFiles};
use ludus_framework::engines::retrograde::{is_parent, ByRank, Rank, Retrograde, RetrogradeSolver, TierSpec, Tiers};
use ludus_framework::playable::TextForm;
use ludus_framework::plugin::seeded_rng;
use ludus_framework::Rules;
use ludus_framework::{Canonicalize, FromKey, Value};
use ludus_games::teeko::{Board, Step, Teeko};
use rand::Rng;
use std::time::Instant;

/// A position of the plain implementation: each cell empty (0), Black (1) or White (2), row by row from the
/// bottom; and the player to move (1 or 2).
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

    fn inside(&self, row: isize, column: isize) -> bool {
        (0..self.side as isize).contains(&row) && (0..self.side as isize).contains(&column)
    }

    fn at(&self, row: isize, column: isize) -> u8 {
        self.cells[row as usize * self.side + column as usize]
    }

    /// Whether `colour` has 4 in a straight line of adjacent cells or a 2 x 2 square.
    fn wins(&self, colour: u8) -> bool {
        let n = self.side as isize;
        (0..n).any(|row| {
            (0..n).any(|column| {
                let line = [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(up, right)| {
                    (0..4).all(|step| {
                        let (r, c) = (row + step * up, column + step * right);
                        self.inside(r, c) && self.at(r, c) == colour
                    })
                });
                let square = [(0, 0), (0, 1), (1, 0), (1, 1)].iter().all(|&(up, right)| {
                    self.inside(row + up, column + right) && self.at(row + up, column + right) == colour
                });
                line || square
            })
        })
    }

    fn outcome(&self) -> Option<Value> {
        self.wins(3 - self.to_move).then_some(Value::LOST)
    }

    /// Every move as (cell left or `None`, cell reached, the position after it).
    fn moves(&self) -> Vec<(Option<usize>, usize, Plain)> {
        let n = self.side as isize;
        let placed = self.cells.iter().take(self.side * self.side).filter(|&&cell| cell == self.to_move).count();
        let mut moves = Vec::new();
        let after = |from: Option<usize>, to: usize| {
            let mut next = *self;
            if let Some(from) = from {
                next.cells[from] = 0;
            }
            next.cells[to] = self.to_move;
            next.to_move = 3 - self.to_move;
            next
        };
        for row in 0..n {
            for column in 0..n {
                let cell = (row * n + column) as usize;
                if placed < 4 && self.at(row, column) == 0 {
                    moves.push((None, cell, after(None, cell)));
                }
                if placed == 4 && self.at(row, column) == self.to_move {
                    for up in -1..=1 {
                        for right in -1..=1 {
                            let (r, c) = (row + up, column + right);
                            if (up, right) != (0, 0) && self.inside(r, c) && self.at(r, c) == 0 {
                                let to = (r * n + c) as usize;
                                moves.push((Some(cell), to, after(Some(cell), to)));
                            }
                        }
                    }
                }
            }
        }
        moves
    }

    fn board(&self) -> Board {
        let mask = |colour: u8| {
            (0..self.side * self.side).filter(|&cell| self.cells[cell] == colour).fold(0, |m, c| m | 1 << c)
        };
        Board { black: mask(1), white: mask(2), black_to_move: self.to_move == 1 }
    }
}

/// Every position of the game on a `side x side` board reachable from the start without symmetry, and each
/// one's children (offsets into one list).
struct Reachable {
    positions: Vec<Plain>,
    offsets: Vec<u32>,
    children: Vec<u32>,
}

fn reachable(side: usize) -> Reachable {
    let mut index: HashMap<Plain, u32> = HashMap::new();
    let mut positions = vec![Plain::start(side)];
    let (mut offsets, mut children) = (vec![0u32], Vec::new());
    index.insert(positions[0], 0);
    let mut next = 0;
    while next < positions.len() {
        let position = positions[next];
        if position.outcome().is_none() {
            let mut found: Vec<u32> = Vec::new();
            for (_, _, child) in position.moves() {
                let place = *index.entry(child).or_insert_with(|| {
                    positions.push(child);
                    positions.len() as u32 - 1
                });
                found.push(place);
            }
            found.sort_unstable();
            found.dedup();
            children.extend(found);
        }
        offsets.push(children.len() as u32);
        next += 1;
    }
    Reachable { positions, offsets, children }
}

/// The values by value iteration, remoteness by remoteness: a position is won in `r` if a child is lost in
/// `r - 1`, lost in `r` if every child is won and the slowest in `r - 1`; never decided: a draw.
fn value_iteration(reachable: &Reachable) -> Vec<Value> {
    let mut values: Vec<Option<Value>> = reachable.positions.iter().map(Plain::outcome).collect();
    let children =
        |place: usize| &reachable.children[reachable.offsets[place] as usize..reachable.offsets[place + 1] as usize];
    for (place, value) in values.iter_mut().enumerate() {
        if value.is_none() && children(place).is_empty() {
            *value = Some(Value::LOST);
        }
    }
    let mut open: Vec<usize> = (0..values.len()).filter(|&place| values[place].is_none()).collect();
    for remoteness in 1.. {
        let mut decided = Vec::new();
        for &place in &open {
            let mut all_won = true;
            let (mut wins_now, mut loses_now) = (false, false);
            for &child in children(place) {
                match values[child as usize] {
                    Some(Value::Lose(r)) if r == remoteness - 1 => wins_now = true,
                    Some(Value::Win(r)) => loses_now |= r == remoteness - 1,
                    _ => all_won = false,
                }
            }
            if wins_now {
                decided.push((place, Value::Win(remoteness)));
            } else if all_won && loses_now {
                decided.push((place, Value::Lose(remoteness)));
            }
        }
        if decided.is_empty() {
            break;
        }
        for &(place, value) in &decided {
            values[place] = Some(value);
        }
        open.retain(|&place| values[place].is_none());
    }
    values.into_iter().map(|value| value.unwrap_or(Value::Draw)).collect()
}

/// A random position after up to `plies` random moves (stopping at the end of the game).
fn random_position(side: usize, plies: usize, rng: &mut impl Rng) -> Plain {
    let mut plain = Plain::start(side);
    for _ in 0..rng.gen_range(0..=plies) {
        let moves = plain.moves();
        if plain.outcome().is_some() || moves.is_empty() {
            break;
        }
        plain = moves[rng.gen_range(0..moves.len())].2;
    }
    plain
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
            black: carry(board.black, symmetry),
            white: carry(board.white, symmetry),
            black_to_move: board.black_to_move,
        })
        .collect()
}

/// Teeko and its 4 x 4 variant (whose making the 4 x 4 solve test asserts).
fn games() -> Vec<Teeko> {
    std::iter::once(Teeko::new()).chain(Teeko::with_side(4)).collect()
}

#[test]
fn the_rules_match_the_plain_implementation_on_random_playouts() {
    let mut rng = seeded_rng(41);
    for game in games() {
        let side = usize::from(game.side());
        // On 5 x 5: 10 + 10 + 4 + 4 lines of 4 and 16 squares.
        let expected_wins = if side == 5 { 44 } else { 4 + 4 + 1 + 1 + 9 };
        assert_eq!(game.winning_sets().len(), expected_wins);
        for _ in 0..2_000 {
            let plain = random_position(side, 60, &mut rng);
            let board = plain.board();
            assert_eq!(game.outcome(&board), plain.outcome(), "{plain:?}");
            if plain.outcome().is_some() {
                continue;
            }
            let mut expected: Vec<(Step, Board)> = plain
                .moves()
                .into_iter()
                .map(|(from, to, child)| (Step { from: from.map(|cell| cell as u8), to: to as u8 }, child.board()))
                .collect();
            let mut found: Vec<(Step, Board)> =
                game.legal_moves(&board).into_iter().map(|step| (step, game.play(&board, &step))).collect();
            expected.sort_unstable();
            found.sort_unstable();
            assert_eq!(found, expected, "{plain:?}");
        }
    }
    assert!(Teeko::with_side(3).is_err() && Teeko::with_side(6).is_err());
}

#[test]
fn the_solves_of_4_by_4_agree_with_a_value_iteration_on_every_position() {
    let game = Teeko::with_side(4).unwrap();
    let start = game.start();
    let clock = Instant::now();
    let ranked =
        RetrogradeSolver::new().solve_tiers(&game, &start, TierSpec::new().indexed(ByRank::of(&game))).unwrap();
    let ranked_time = clock.elapsed();
    let tiered = RetrogradeSolver::new().solve_tiers(&game, &start, TierSpec::new()).unwrap();
    let hooked = RetrogradeSolver::new().solve_with_parents(&game, &start).unwrap();
    assert_eq!((ranked.tiers.len(), tiered.len(), hooked.len()), (9, ranked.len(), ranked.len()));
    // Only the move phase loops: every drop tier is solved in one pass.
    for solved in &ranked.tiers {
        assert_eq!(solved.statistics().levels == 0, *solved.tier() < 8, "{:?}", solved.statistics());
    }

    let clock = Instant::now();
    let every = reachable(4);
    let iterated = value_iteration(&every);
    let iteration_time = clock.elapsed();
    let keys: HashSet<u64> = every.positions.iter().map(|position| game.canonical(&position.board())).collect();
    assert_eq!(keys.len(), ranked.len());
    for (position, value) in every.positions.iter().zip(&iterated) {
        let board = position.board();
        assert_eq!(ranked.value(&game, &board), Some(*value), "{position:?}");
        assert_eq!(tiered.value(&game, &board), Some(*value), "{position:?}");
        assert_eq!(hooked.value(&game, &board), Some(*value), "{position:?}");
    }
    let start_value = ranked.value(&game, &start).unwrap();
    let (wins, losses, draws) = hooked.counts();
    let count = |wanted: fn(&Value) -> bool| iterated.iter().filter(|value| wanted(value)).count();
    eprintln!(
        "Teeko 4 x 4: {start_value} from the start; {} positions up to symmetry and colour ({wins} won, {losses} \
         lost, {draws} drawn), {} without symmetry ({} won, {} lost, {} drawn); ranked solve {ranked_time:?}, \
         enumeration and value iteration {iteration_time:?}",
        ranked.len(),
        every.positions.len(),
        count(|value| value.is_win()),
        count(|value| value.is_loss()),
        count(|value| *value == Value::Draw),
    );
    assert_eq!(start_value, Value::Draw);
    assert_eq!((ranked.len(), every.positions.len()), (189_317, 2_400_087));
}

#[test]
fn ranks_are_dense_within_each_tier_and_inverted_by_unrank() {
    for game in games() {
        let cells = game.cells();
        // The small tiers rank by rank: every encoding of the counts of the tier is a rank.
        for tier in 0..=4u8 {
            let tier_size = game.tier_size(&tier);
            for rank in 0..tier_size {
                let key = game.unrank(&tier, rank).unwrap_or_else(|| panic!("rank {rank} of {tier}"));
                assert_eq!(game.rank(&tier, &key), Some(rank), "key {key:x} of {tier}");
                let (mover, other) = ((key >> cells) as u32, key as u32 & ((1 << cells) - 1));
                assert_eq!((mover.count_ones(), other.count_ones()), (u32::from(tier) / 2, u32::from(tier - tier / 2)));
            }
            assert_eq!(game.unrank(&tier, tier_size), None);
        }
        let mut rng = seeded_rng(u64::from(cells));
        let mut ranks: HashMap<(u8, u64), u64> = HashMap::new();
        for _ in 0..20_000 {
            let board = random_position(usize::from(game.side()), 40, &mut rng).board();
            let (tier, key) = (game.tier(&board), game.canonical(&board));
            let rank = game.rank(&tier, &key).unwrap_or_else(|| panic!("{key:x} has no rank in {tier}"));
            assert!(rank < game.tier_size(&tier));
            assert_eq!(game.unrank(&tier, rank), Some(key));
            assert_eq!(*ranks.entry((tier, rank)).or_insert(key), key, "two keys share rank {rank} of {tier}");
            let decoded = game.position_of_key(&key).unwrap();
            assert_eq!((game.canonical(&decoded), game.tier(&decoded)), (key, tier));
            assert_eq!(game.outcome(&decoded), game.outcome(&board));
        }
    }
    // The move phase on 5 x 5: C(25, 4) * C(21, 4) ranks, within u32.
    assert_eq!(Teeko::new().tier_size(&8), 75_710_250);
    assert_eq!(Teeko::new().tier_size(&9), 0);
}

#[test]
fn random_keys_and_ranks_give_none_or_a_consistent_answer() {
    let mut rng = seeded_rng(18);
    for game in games() {
        let cells = game.cells();
        for tier in [0u8, 1, 4, 7, 8, 9, u8::MAX] {
            let tier_size = game.tier_size(&tier);
            for _ in 0..3_000 {
                let key: u64 = match rng.gen_range(0..3) {
                    0 => rng.gen(),
                    1 => rng.gen::<u64>() >> (64 - 2 * cells),
                    _ => (0..rng.gen_range(0..10)).fold(0u64, |key, _| key | 1 << rng.gen_range(0..2 * cells)),
                };
                if let Some(rank) = game.rank(&tier, &key) {
                    assert!(rank < tier_size);
                    assert_eq!(game.unrank(&tier, rank), Some(key));
                }
                if let Some(board) = game.position_of_key(&key) {
                    assert_eq!(game.canonical(&board), key);
                    game.legal_moves(&board);
                }
                let rank =
                    if rng.gen_bool(0.5) { rng.gen_range(0..tier_size.saturating_mul(2).max(1)) } else { rng.gen() };
                if let Some(key) = game.unrank(&tier, rank) {
                    assert_eq!(game.rank(&tier, &key), Some(rank));
                }
            }
        }
    }
}

#[test]
fn symmetric_positions_share_keys() {
    let mut rng = seeded_rng(44);
    for game in games() {
        let side = u32::from(game.side());
        let symmetries = |board: &Board| images(side, board);
        // Playouts from a drop-phase position: random moves end in a line or a square soon enough.
        let check =
            GameCheck::new(&game, game.start()).playouts(50).max_plies(1_000_000).seed(4).symmetries(&symmetries);
        assert_eq!(check.run().map_err(|error| error.to_string()), Ok(()), "{side}");
        for _ in 0..1_000 {
            let board = random_position(usize::from(game.side()), 60, &mut rng).board();
            let key = game.canonical(&board);
            for image in images(side, &board) {
                assert_eq!(game.canonical(&image), key);
                if !image.dropping() {
                    // Once the pieces are down, the colour swap with the other player to move is the same game.
                    let swapped = Board { black: image.white, white: image.black, black_to_move: !image.black_to_move };
                    assert_eq!(game.canonical(&swapped), key);
                }
            }
        }
    }
}

#[test]
fn parents_are_exactly_the_positions_one_move_before() {
    let check = |game: &Teeko, positions: &[Board]| {
        for board in positions {
            let mut parents = Vec::new();
            game.parents(board, &mut parents);
            for parent in &parents {
                assert!(is_parent(game, parent, board), "{parent:?} -> {board:?}");
                // A parent in the drop phase has the player to move its counts say.
                if parent.dropping() {
                    assert_eq!(parent.black_to_move, parent.black.count_ones() == parent.white.count_ones());
                }
            }
            if game.is_over(board) {
                continue;
            }
            let key = game.canonical(board);
            for step in game.legal_moves(board) {
                let child = game.play(board, &step);
                let mut listed = Vec::new();
                game.parents(&child, &mut listed);
                assert!(listed.iter().any(|parent| game.canonical(parent) == key), "{board:?} -> {step:?}");
            }
        }
    };
    let mut rng = seeded_rng(24);
    for game in games() {
        let sample: Vec<Board> =
            (0..3_000).map(|_| random_position(usize::from(game.side()), 40, &mut rng).board()).collect();
        check(&game, &sample);
    }
}

#[test]
fn positions_and_moves_read_back_from_their_text() {
    let mut rng = seeded_rng(19);
    for game in games() {
        for _ in 0..300 {
            let mut board = game.start();
            let mut line = Vec::new();
            for _ in 0..rng.gen_range(0..30) {
                if game.is_over(&board) {
                    break;
                }
                let moves = game.legal_moves(&board);
                for step in &moves {
                    assert_eq!(game.parse_move(&board, &game.render_move(&board, step)), Ok(*step));
                }
                let step = moves[rng.gen_range(0..moves.len())];
                line.push(game.render_move(&board, &step));
                board = game.play(&board, &step);
            }
            assert_eq!(game.parse_position(&line.join(" ")), Ok(board), "{line:?}");
            assert_eq!(game.draw_position(&board).lines().count(), usize::from(game.side()) + 2);
        }
    }
    let game = Teeko::new();
    assert_eq!(game.parse_position("-"), Ok(Board::START));
    let board = game.parse_position("c3 b2 a1").unwrap();
    assert_eq!(
        game.draw_position(&board),
        "5 . . . . .\n4 . . . . .\n3 . . B . .\n2 . W . . .\n1 B . . . .\n  a b c d e\nWhite to move (dropping a piece)\n"
    );
    let down = "a1 e5 b1 e4 c1 d5 a3 e1";
    let board = game.parse_position(down).unwrap();
    assert!(!board.dropping() && game.draw_position(&board).ends_with("Black to move (moving a piece)\n"));
    for (text, error) in [
        ("c3 c3", "move 2: cell c3 is taken"),
        ("f1", "move 1: pieces are still being dropped: expected an empty cell like `c3` (a1 to e5)"),
        ("a1a2", "move 1: pieces are still being dropped"),
        ("a1 e5 b1 e4 c1 d5 d1 a5", "move 8: the game is over"),
        ("a1 e5 b1 e4 c1 d5 a3 e1 b2", "move 9: every piece is down: expected a piece's cell"),
        ("a1 e5 b1 e4 c1 d5 a3 e1 e5e3", "move 9: there is no Black piece on e5"),
        ("a1 e5 b1 e4 c1 d5 a3 e1 a1c2", "move 9: c2 is not next to a1"),
        ("a1 e5 b1 e4 c1 d5 a3 e1 a1b1", "move 9: cell b1 is taken"),
        ("a1 e5 b1 e4 c1 d5 a3 e1 a3é", "move 9: every piece is down"),
    ] {
        let found = game.parse_position(text).unwrap_err().to_string();
        assert!(found.starts_with(error), "{text}: {found}");
    }
    // Black's fourth on d1 makes a line of 4: White, to move, has lost.
    let over = game.parse_position("a1 e5 b1 e4 c1 d5 d1").unwrap();
    assert_eq!(game.outcome(&over), Some(Value::LOST));
    assert!(game.draw_position(&over).contains("Black has four in a line or a square: Black wins"));
    let square = game.parse_position("b2 e5 c2 e3 b3 a5 c3").unwrap();
    assert_eq!(game.outcome(&square), Some(Value::LOST));
    let mut rng = seeded_rng(20);
    let alphabet: Vec<char> = "abcef01256 -é".chars().collect();
    for _ in 0..20_000 {
        let length = rng.gen_range(0..30);
        let text: String = (0..length).map(|_| alphabet[rng.gen_range(0..alphabet.len())]).collect();
        let _ = game.parse_position(&text);
    }
}

#[test]
fn the_database_of_4_by_4_holds_the_solved_values_and_checks() {
    let game = Teeko::with_side(4).unwrap();
    let directory = std::env::temp_dir().join(format!("ludus-teeko-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    let database = Database::new(&game, "teeko-4", &directory);
    let budget = SolveBudget { memory_mb: 2048, max_positions: u64::MAX, stop: None };
    database.solve(&game.start(), budget, &mut |_| {}, TierSpec::new().indexed(ByRank::of(&game))).unwrap();
    let solution =
        RetrogradeSolver::new().solve_tiers(&game, &game.start(), TierSpec::new().indexed(ByRank::of(&game))).unwrap();
    let mut files = TierFiles::default();
    let mut rng = seeded_rng(21);
    for _ in 0..3_000 {
        let board = random_position(4, 40, &mut rng).board();
        assert_eq!(database.value(&mut files, &board).unwrap(), solution.value(&game, &board), "{board:?}");
    }
    let report = database.check(&game.start(), &ByRank::of(&game), &mut |_, _, _| {}).unwrap();
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    std::fs::remove_dir_all(&directory).unwrap();
}
