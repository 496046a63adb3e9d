//! The retrograde engine on real games: every position of tic-tac-toe gets memoized negamax's exact value;
//! Connect Four 4 x 4, tiered by stones, agrees with alpha-beta on thousands of positions; Dodgem gives the
//! published results (3 x 3 a first-player win, 4 x 4 a draw), its un-move hook lists exactly the parents,
//! and the plain, hooked and tiered solves agree. Every reachable position of tic-tac-toe, Connect Four 4 x 4 and
//! Dodgem 3 x 3 is found again from its canonical key (`FromKey`), and keys of no position give none.

use hashbrown::HashSet;
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::retrograde::{is_parent, ByRank, Retrograde, RetrogradeSolver, TierSolution, TierSpec};
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::plugin::seeded_rng;
use ludus_framework::Rules;
use ludus_framework::{Canonicalize, FromKey, Game, Statistics, Value};
use ludus_games::classic::{Board, TicTacToe};
use ludus_games::connect_four::{self, ConnectFour};
use ludus_games::dodgem::{Cars, Dodgem};
use rand::Rng;
use std::hash::Hash;
use std::sync::Arc;
use std::time::Instant;

/// Tic-tac-toe without symmetries: every board its own key, to count the reachable positions.
struct EveryBoard;

impl Rules for EveryBoard {
    type Position = Board;
    type Move = u8;
    type Outcome = Value;
    fn moves(&self, board: &Board, moves: &mut Vec<u8>) {
        TicTacToe.moves(board, moves);
    }
    fn play(&self, board: &Board, cell: &u8) -> Board {
        TicTacToe.play(board, cell)
    }
    fn outcome(&self, board: &Board) -> Option<Value> {
        TicTacToe.outcome(board)
    }
}

impl Game for EveryBoard {}

impl Canonicalize for EveryBoard {
    type Key = Board;
    fn canonical(&self, board: &Board) -> Board {
        *board
    }
}

#[test]
fn every_tic_tac_toe_position_gets_memoized_negamaxs_exact_value() {
    let every = RetrogradeSolver::new().solve(&EveryBoard, &Board::EMPTY).unwrap();
    assert_eq!(every.len(), 5_478);
    let mut solver = RetrogradeSolver::new();
    let solution = solver.solve(&TicTacToe, &Board::EMPTY).unwrap();
    assert_eq!(solution.len(), 765);
    assert_eq!(solver.stats().table_entries, 765);
    // Tiered by marks on the board: the empty board and one tier per mark.
    let tiered = RetrogradeSolver::new().solve_tiers(&TicTacToe, &Board::EMPTY, TierSpec::new()).unwrap();
    assert_eq!((tiered.tiers.len(), tiered.len()), (10, 765));
    let mut memo = MemoNegamax::new(Mode::Exact);
    for (board, value) in every.iter() {
        let exact = memo.value(&TicTacToe, &board);
        assert_eq!(value, exact, "{board:?}");
        assert_eq!(solution.value(&TicTacToe, &board), Some(exact), "{board:?}");
        assert_eq!(tiered.value(&TicTacToe, &board), Some(exact), "{board:?}");
    }
    assert_eq!(solution.value(&TicTacToe, &Board::EMPTY), Some(Value::Draw));
}

#[test]
fn connect_four_4x4_by_tiers_agrees_with_alpha_beta() {
    let game = ConnectFour::new(4, 4).unwrap();
    let start = connect_four::Board::EMPTY;
    let clock = Instant::now();
    let tiered = RetrogradeSolver::new().solve_tiers(&game, &start, TierSpec::new()).unwrap();
    let tiered_time = clock.elapsed();
    assert_eq!(tiered.tiers.len(), 17);
    // Every tier of Connect Four is loop-free: solved in one pass.
    assert!(tiered.tiers.iter().all(|solved| solved.statistics().levels == 0 && solved.statistics().edges == 0));
    let whole = RetrogradeSolver::new().solve(&game, &start).unwrap();
    assert_eq!(whole.len(), tiered.len());
    for (board, value) in whole.iter() {
        let tier = tiered.tiers.iter().find(|solved| solved.value_of_key(&board).is_some()).unwrap();
        assert_eq!(tier.value_of_key(&board), Some(value));
    }
    eprintln!("Connect Four 4 x 4: {} positions, tiered solve {tiered_time:?}", whole.len());
    assert_eq!(tiered.value(&game, &start), Some(Value::Draw));

    // Positions along random games, against alpha-beta (exact remoteness) and memoized negamax.
    let mut rng = seeded_rng(10);
    let mut memo = MemoNegamax::new(Mode::Exact);
    let mut checked = 0;
    while checked < 3_000 {
        let mut board = start;
        while !game.is_over(&board) {
            let expected = connect_four::exact_value(&game, &board).unwrap();
            assert_eq!(tiered.value(&game, &board), Some(expected), "{board:?}");
            if checked % 10 == 0 {
                assert_eq!(memo.value(&game, &board), expected);
            }
            checked += 1;
            let moves = game.legal_moves(&board);
            board = game.play(&board, &moves[rng.gen_range(0..moves.len())]);
        }
    }
}

/// Every position reachable from `start`, one per value of `identity` (the canonical key; the position itself
/// for every position), by a search written here.
fn reachable_by<Ruleset, Identity>(
    game: &Ruleset,
    start: Ruleset::Position,
    identity: impl Fn(&Ruleset::Position) -> Identity,
) -> Vec<Ruleset::Position>
where
    Ruleset: Game,
    Identity: Eq + Hash,
{
    let mut seen: HashSet<Identity> = [identity(&start)].into_iter().collect();
    let mut stack = vec![start];
    let mut positions = Vec::new();
    while let Some(position) = stack.pop() {
        if !game.is_over(&position) {
            for mv in game.legal_moves(&position) {
                let next = game.play(&position, &mv);
                if seen.insert(identity(&next)) {
                    stack.push(next);
                }
            }
        }
        positions.push(position);
    }
    positions
}

/// Every Dodgem position reachable from the start, one per key.
fn reachable(game: &Dodgem) -> Vec<Cars> {
    reachable_by(game, game.start(), |cars| game.canonical(cars))
}

#[test]
fn dodgem_parents_are_exactly_the_positions_one_move_before() {
    for size in [3, 4] {
        let game = Dodgem::new(size).unwrap();
        let positions = reachable(&game);
        let keys: HashSet<u128> = positions.iter().map(|cars| game.canonical(cars)).collect();
        for cars in &positions {
            let mut parents = Vec::new();
            game.parents(cars, &mut parents);
            for parent in parents.iter().filter(|parent| keys.contains(&game.canonical(parent))) {
                assert!(is_parent(&game, parent, cars), "{parent:?} -> {cars:?}");
            }
            if game.is_over(cars) {
                continue;
            }
            let key = game.canonical(cars);
            for drive in game.legal_moves(cars) {
                let child = game.play(cars, &drive);
                let mut listed = Vec::new();
                game.parents(&child, &mut listed);
                assert!(listed.iter().any(|parent| game.canonical(parent) == key), "{cars:?} -> {child:?}");
            }
        }
    }
}

#[test]
fn dodgem_3x3_is_a_first_player_win_by_every_path() {
    let game = Dodgem::new(3).unwrap();
    let start = game.start();
    let plain = RetrogradeSolver::new().solve(&game, &start).unwrap();
    let hooked = RetrogradeSolver::new().solve_with_parents(&game, &start).unwrap();
    let tiered = RetrogradeSolver::new().solve_tiers(&game, &start, TierSpec::new()).unwrap();
    let value = plain.value(&game, &start).unwrap();
    assert!(value.is_win(), "{value}");
    assert_eq!(plain.len(), reachable(&game).len());
    assert_eq!(tiered.len(), plain.len());
    for (key, value) in plain.iter() {
        assert_eq!(hooked.value_of_key(&key), Some(value));
    }
    let mut tiered_hooked = Vec::new();
    RetrogradeSolver::new()
        .solve_tiers(
            &game,
            &start,
            TierSpec::new().parents_from_game().on_tier(|solved| {
                tiered_hooked.push(solved);
                Ok(())
            }),
        )
        .unwrap();
    for cars in reachable(&game) {
        assert_eq!(tiered.value(&game, &cars), plain.value(&game, &cars));
        let hooked = tiered_hooked.iter().find_map(|solved| solved.value(&game, &cars));
        assert_eq!(hooked, plain.value(&game, &cars));
    }
    let (wins, losses, draws) = plain.counts();
    eprintln!("Dodgem 3 x 3: {value}; {} positions: {wins} won, {losses} lost, {draws} drawn", plain.len());
}

#[test]
fn dodgem_4x4_is_a_draw() {
    let game = Dodgem::new(4).unwrap();
    let start = game.start();
    let clock = Instant::now();
    let tiered = RetrogradeSolver::new().solve_tiers(&game, &start, TierSpec::new()).unwrap();
    eprintln!("Dodgem 4 x 4: {} positions in {:?}", tiered.len(), clock.elapsed());
    assert_eq!(tiered.value(&game, &start), Some(Value::Draw));
    let hooked = RetrogradeSolver::new().solve_with_parents(&game, &start).unwrap();
    assert_eq!(hooked.len(), tiered.len());
    let (wins, losses, draws) = hooked.counts();
    eprintln!("Dodgem 4 x 4: {wins} won, {losses} lost, {draws} drawn");
    for solved in &tiered.tiers {
        for (key, value) in solved.iter() {
            assert_eq!(hooked.value_of_key(&key), Some(value));
        }
    }
}

/// Dodgem 5 x 5 (published: a draw). Too large for a debug test and for the memory of a small machine: the
/// largest tier alone holds tens of millions of positions. Run it in release with
/// `cargo test --release -p ludus-games --test retrograde -- --ignored dodgem_5x5` (`DODGEM_BUDGET=n`: at most
/// `n` positions held, to see how far a machine gets; `DODGEM_RANKED=1`: solved by rank, with flat arrays).
#[test]
#[ignore]
fn dodgem_5x5_is_a_draw() {
    let game = Dodgem::new(5).unwrap();
    let start = game.start();
    let clock = Instant::now();
    let mut positions = 0;
    let mut start_value = None;
    let budget = std::env::var("DODGEM_BUDGET").ok().and_then(|text| text.parse().ok()).unwrap_or(u64::MAX);
    let on_tier = |solved: Arc<TierSolution<(u8, u8), u128>>| {
        positions += solved.len();
        eprintln!(
            "tier {:?}: {:?}, {} positions so far, {:?}",
            solved.tier(),
            solved.statistics(),
            positions,
            clock.elapsed()
        );
        start_value = start_value.or(solved.value(&game, &start));
        Ok(())
    };
    let mut solver = RetrogradeSolver::new().with_budget(budget);
    if std::env::var("DODGEM_RANKED").is_ok_and(|ranked| ranked == "1") {
        solver.solve_tiers(&game, &start, TierSpec::new().indexed(ByRank::of(&game)).on_tier(on_tier)).unwrap();
    } else {
        solver.solve_tiers(&game, &start, TierSpec::new().on_tier(on_tier)).unwrap();
    }
    assert_eq!(start_value, Some(Value::Draw));
}

/// Positions per second of each path on the games above, printed (run in release with `--ignored --nocapture`;
/// `MEASURE=text` keeps the cases whose name contains `text`, to measure one case's peak memory alone).
#[test]
#[ignore]
fn measure_speed() {
    let only = std::env::var("MEASURE").unwrap_or_default();
    let run = |name: &str, solve: &dyn Fn() -> usize| {
        if !name.contains(only.as_str()) {
            return;
        }
        let clock = Instant::now();
        let positions = solve();
        let seconds = clock.elapsed().as_secs_f64();
        eprintln!("{name}: {positions} positions in {seconds:.3} s, {:.0} positions/s", positions as f64 / seconds);
    };
    let tiered = |game: &dyn Fn(&mut RetrogradeSolver, &mut usize)| {
        let mut positions = 0;
        game(&mut RetrogradeSolver::new(), &mut positions);
        positions
    };
    for (width, height) in [(4, 4), (5, 4)] {
        let game = ConnectFour::new(width, height).unwrap();
        let start = connect_four::Board::EMPTY;
        run(&format!("Connect Four {width} x {height}, plain"), &|| {
            RetrogradeSolver::new().solve(&game, &start).unwrap().len()
        });
        run(&format!("Connect Four {width} x {height}, tiered"), &|| {
            tiered(&|solver, positions| {
                solver
                    .solve_tiers(
                        &game,
                        &start,
                        TierSpec::new().on_tier(|solved| {
                            *positions += solved.len();
                            Ok(())
                        }),
                    )
                    .unwrap();
            })
        });
    }
    let game = Dodgem::new(4).unwrap();
    let start = game.start();
    run("Dodgem 4 x 4, plain", &|| RetrogradeSolver::new().solve(&game, &start).unwrap().len());
    run("Dodgem 4 x 4, un-move hook", &|| RetrogradeSolver::new().solve_with_parents(&game, &start).unwrap().len());
    run("Dodgem 4 x 4, tiered (hash maps)", &|| {
        tiered(&|solver, positions| {
            solver
                .solve_tiers(
                    &game,
                    &start,
                    TierSpec::new().on_tier(|solved| {
                        *positions += solved.len();
                        Ok(())
                    }),
                )
                .unwrap();
        })
    });
    run("Dodgem 4 x 4, tiered (ranks)", &|| {
        tiered(&|solver, positions| {
            solver
                .solve_tiers(
                    &game,
                    &start,
                    TierSpec::new().indexed(ByRank::of(&game)).on_tier(|solved| {
                        *positions += solved.len();
                        Ok(())
                    }),
                )
                .unwrap();
        })
    });
    run("Dodgem 4 x 4, tiered (ranks, un-move hook)", &|| {
        tiered(&|solver, positions| {
            solver
                .solve_tiers(
                    &game,
                    &start,
                    TierSpec::new().indexed(ByRank::of(&game)).parents_from_game().on_tier(|solved| {
                        *positions += solved.len();
                        Ok(())
                    }),
                )
                .unwrap();
        })
    });
}

/// `FromKey` on `positions`: the key of each decodes to a position with that key, the same outcome and as many
/// moves; and keys that are not keys of these positions (`garbage`) give `None` or a position with another key.
fn check_from_key<Ruleset: FromKey>(game: &Ruleset, positions: &[Ruleset::Position], garbage: &[Ruleset::Key]) {
    let mut keys = HashSet::new();
    for position in positions {
        let key = game.canonical(position);
        let decoded = game.position_of_key(&key).unwrap_or_else(|| panic!("no position for {position:?}"));
        assert_eq!(game.canonical(&decoded), key, "{position:?} -> {decoded:?}");
        assert_eq!(game.outcome(&decoded), game.outcome(position), "{position:?} -> {decoded:?}");
        if !game.is_over(position) {
            assert_eq!(game.legal_moves(&decoded).len(), game.legal_moves(position).len(), "{position:?}");
        }
        keys.insert(key);
    }
    for key in garbage.iter().filter(|key| !keys.contains(*key)) {
        if let Some(decoded) = game.position_of_key(key) {
            assert_ne!(&game.canonical(&decoded), key, "{key:?} is not a key, yet it gave {decoded:?}");
        }
    }
}

/// Keys of positions that a game may not hold: whatever `position_of_key` gives for them, it does not panic, and
/// the position it gives can be canonicalized and searched.
fn check_random_keys<Ruleset: FromKey>(game: &Ruleset, keys: impl Iterator<Item = Ruleset::Key>) {
    for key in keys {
        if let Some(decoded) = game.position_of_key(&key) {
            game.canonical(&decoded);
            if !game.is_over(&decoded) {
                game.legal_moves(&decoded);
            }
        }
    }
}

#[test]
fn tic_tac_toe_keys_decode_to_their_positions() {
    let positions = reachable_by(&TicTacToe, Board::EMPTY, |board| *board);
    assert_eq!(positions.len(), 5_478);
    let encode = |board: &Board| u32::from(board.crosses) << 9 | u32::from(board.noughts);
    // The encodings of images that are not the smallest, and malformed encodings: a cell taken twice, a bit
    // past the 18, more O than X.
    let mut garbage: Vec<u32> =
        positions.iter().flat_map(|board| board.symmetric_images()).map(|image| encode(&image)).collect();
    garbage.extend([1 << 9 | 1, 1 << 18, 1 << 20 | 1 << 9, 0b11, u32::MAX]);
    check_from_key(&TicTacToe, &positions, &garbage);
    let mut rng = seeded_rng(3);
    check_random_keys(&TicTacToe, (0..10_000).map(|_| rng.gen_range(0..1 << 18)));
}

#[test]
fn connect_four_4x4_keys_decode_to_their_positions() {
    let game = ConnectFour::new(4, 4).unwrap();
    let positions = reachable_by(&game, connect_four::Board::EMPTY, |board| *board);
    let keys: HashSet<u64> = positions.iter().map(|board| game.canonical(board)).collect();
    eprintln!("Connect Four 4 x 4: {} positions, {} keys", positions.len(), keys.len());
    // The encoding of the mirror image when it is the larger, and malformed encodings: a column of all ones
    // (five stones in a column of four), a bit past the columns.
    let encode = |board: &connect_four::Board| board.current + board.mask;
    let mut garbage: Vec<u64> = positions.iter().map(|board| encode(&game.mirror(board))).collect();
    garbage.extend([0b11111, 0b11111 << 15 | 1, 1 << 20, u64::MAX, 1 << 63]);
    check_from_key(&game, &positions, &garbage);
    let mut rng = seeded_rng(4);
    check_random_keys(&game, (0..10_000).map(|_| rng.gen::<u64>() & ((1 << 20) - 1)));
    check_random_keys(&game, (0..10_000).map(|_| rng.gen::<u64>()));
}

#[test]
fn dodgem_3x3_keys_decode_to_their_positions() {
    let game = Dodgem::new(3).unwrap();
    let positions = reachable_by(&game, game.start(), |cars| *cars);
    // Malformed keys: a cell taken twice, a car past the 9 cells, three cars a side.
    let garbage = [1 | 1 << 64, 1 << 9, 1 << 73, 0b111, 0b111 << 64, u128::MAX];
    check_from_key(&game, &positions, &garbage);
    let mut rng = seeded_rng(5);
    check_random_keys(&game, (0..10_000).map(|_| rng.gen::<u128>() & (0x1ff | 0x1ff << 64)));
    check_random_keys(&game, (0..10_000).map(|_| rng.gen::<u128>()));
}
