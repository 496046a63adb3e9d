//! Othello: the rules against a plain implementation; the scored alpha-beta against plain minimax and against
//! win/loss solves by the framework's alternating alpha-beta at every threshold; the principal variation
//! replayed; the compact keys; the perfect-play margin of 4 x 4.

// The helpers shared by the tests unwrap too, not only the test functions.
#![allow(clippy::unwrap_used)]

use ludus_framework::analysis::{line_by, values_by};
use ludus_framework::conformance::GameCheck;
use ludus_framework::engines::alpha_beta::AlphaBeta;
use ludus_framework::engines::scored::{
    Progress, ProgressHook, ScoredAlphaBeta, ScoredLazySmp, ScoredMinimax, GUESS_POSITIONS,
};
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::playable::TextForm;
use ludus_framework::scored::ScoredGame;
use ludus_framework::table::{mib, PackedTable};
use ludus_framework::Rules;
use ludus_framework::SearchHints;
use ludus_framework::{Canonicalize, Statistics};
use ludus_games::othello::{CompactOthello, Discs, Othello, OthelloMove, Threshold};
use rand::{Rng, SeedableRng};
use std::sync::{Arc, Mutex};

fn othello(size: u32) -> Othello {
    Othello::new(size, true).unwrap()
}

/// Othello written plainly: a grid of cells, each direction walked cell by cell.
struct Plain {
    size: i32,
}

impl Plain {
    /// The cells `mover` flips by playing at (row, column), from bit masks.
    fn flips(&self, mover: u64, other: u64, row: i32, column: i32) -> u64 {
        let bit = |r: i32, c: i32| 1u64 << (8 * r + c);
        if (mover | other) & bit(row, column) != 0 {
            return 0;
        }
        let mut all = 0;
        for (dr, dc) in [(0, 1), (1, 0), (1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1), (-1, 1)] {
            let (mut r, mut c, mut line) = (row + dr, column + dc, 0u64);
            while (0..self.size).contains(&r) && (0..self.size).contains(&c) && other & bit(r, c) != 0 {
                line |= bit(r, c);
                r += dr;
                c += dc;
            }
            if line != 0 && (0..self.size).contains(&r) && (0..self.size).contains(&c) && mover & bit(r, c) != 0 {
                all |= line;
            }
        }
        all
    }

    /// The legal placements of the mover, as cells (bit indices), in increasing order.
    fn placements(&self, position: &Discs) -> Vec<u8> {
        let mut cells = Vec::new();
        for row in 0..self.size {
            for column in 0..self.size {
                if self.flips(position.mover, position.other, row, column) != 0 {
                    cells.push((8 * row + column) as u8);
                }
            }
        }
        cells
    }
}

#[test]
fn the_bitboards_follow_the_plain_rules_on_random_games() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for size in 4..=8 {
        let game = othello(size);
        let plain = Plain { size: size as i32 };
        for _ in 0..40 {
            let mut position = game.start();
            while !game.is_over(&position) {
                let expected = plain.placements(&position);
                let moves = game.legal_moves(&position);
                let places: Vec<u8> = moves
                    .iter()
                    .filter_map(|mv| if let OthelloMove::Place(cell) = mv { Some(*cell) } else { None })
                    .collect();
                assert_eq!(places, expected, "{}", game.board_text(&position));
                let opponent =
                    Discs { mover: position.other, other: position.mover, black_to_move: !position.black_to_move };
                if expected.is_empty() {
                    assert_eq!(moves, vec![OthelloMove::Pass]);
                    assert!(!plain.placements(&opponent).is_empty(), "a pass only when the other can move");
                }
                let mv = moves[rng.gen_range(0..moves.len())];
                let next = game.play(&position, &mv);
                if let OthelloMove::Place(cell) = mv {
                    let (row, column) = (i32::from(cell) / 8, i32::from(cell) % 8);
                    let flipped = plain.flips(position.mover, position.other, row, column);
                    assert_eq!(next.other, position.mover | flipped | (1 << cell));
                    assert_eq!(next.mover, position.other & !flipped);
                }
                position = next;
            }
            let opponent =
                Discs { mover: position.other, other: position.mover, black_to_move: !position.black_to_move };
            assert!(plain.placements(&position).is_empty() && plain.placements(&opponent).is_empty());
        }
    }
}

#[test]
fn conformance_and_minimax_agree_on_four_by_four() {
    for empties in [true, false] {
        let game = Othello::new(4, empties).unwrap();
        GameCheck::new(&game, game.start()).playouts(30).compare_scores(200_000).run().unwrap();
    }
    for size in [5, 6, 8] {
        let game = othello(size);
        GameCheck::new(&game, game.start()).playouts(10).seed(u64::from(size)).run().unwrap();
    }
}

/// 4 x 4 Othello is a win for White (the second player) by 11 discs to 3, with two cells left empty: the
/// well-known result of the exhaustive solve (reported, among others, on the "Computer Othello" page of
/// Wikipedia, which lists 4 x 4 and 6 x 6 as solved wins for White). With the empty cells given to the
/// winner, the margin is 13 to 3.
#[test]
fn four_by_four_is_a_white_win_by_eight_discs() {
    let plain_count = Othello::new(4, false).unwrap();
    let mut engine = ScoredAlphaBeta::new(Mode::Exact);
    assert_eq!(engine.search(&plain_count, &plain_count.start()).unwrap(), -8);
    let tournament = othello(4);
    let mut engine = ScoredAlphaBeta::new(Mode::Exact);
    assert_eq!(engine.search(&tournament, &tournament.start()).unwrap(), -10);
    assert_eq!(ScoredMinimax::new().search(&tournament, &tournament.start()).unwrap(), -10);
}

#[test]
fn the_margin_is_the_one_win_loss_solves_find_at_every_threshold() {
    for size in [4, 5] {
        let game = othello(size);
        let start = game.start();
        let margin = ScoredAlphaBeta::new(Mode::Exact).search(&game, &start).unwrap();
        let cells = (size * size) as i32;
        let mut scored = ScoredAlphaBeta::new(Mode::Exact);
        for threshold in -cells..=cells {
            let mut win_loss = AlphaBeta::new(Mode::Outcome);
            let black_gets_it = win_loss.value(&Threshold { game: &game, threshold }, &start).is_win();
            assert_eq!(black_gets_it, margin >= threshold, "size {size}, threshold {threshold}");
            assert_eq!(scored.at_least(&game, &start, threshold, u64::MAX).unwrap(), margin >= threshold);
        }
        // The win/loss solve of the scored game: one search around 0.
        let sign = ScoredAlphaBeta::new(Mode::Outcome).search(&game, &start).unwrap();
        assert_eq!(sign, margin.signum());
    }
}

#[test]
fn principal_variations_keep_the_margin() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    for size in [4, 5] {
        let game = othello(size);
        let mut engine = ScoredAlphaBeta::new(Mode::Exact);
        let mut position = game.start();
        for _ in 0..4 {
            let value = engine.search(&game, &position).unwrap();
            let line = line_by(&game, &position, 100, |_| false, |child| engine.search(&game, child)).unwrap();
            let end = game.play_line(&position, &line).unwrap();
            assert!(game.is_over(&end));
            assert_eq!(game.score_seen_from(&position, &end, game.outcome(&end).unwrap()), value);
            let scores = values_by(&game, &position, |child| engine.search(&game, child)).unwrap();
            assert_eq!(scores.iter().map(|entry| entry.value).max(), Some(value));
            let moves = game.legal_moves(&position);
            position = game.play(&position, &moves[rng.gen_range(0..moves.len())]);
        }
    }
}

#[test]
fn compact_keys_are_one_to_one_and_give_the_same_scores() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    for size in [4, 5, 6] {
        let compact = CompactOthello::new(othello(size)).unwrap();
        let mut seen = std::collections::HashMap::new();
        for _ in 0..200 {
            let mut position = compact.game.start();
            while !compact.is_over(&position) {
                let key = compact.canonical(&position);
                let wide = compact.game.canonical(&position);
                assert!(key < 3u64.pow(size * size));
                // Past the opening (where symmetric images share keys on purpose), one key per position.
                if position.empty(compact.game.all_cells()).count_ones() < compact.symmetric_from() {
                    assert_eq!(*seen.entry(key).or_insert(wide), wide, "two positions, one compact key");
                }
                let moves = compact.legal_moves(&position);
                position = compact.play(&position, &moves[rng.gen_range(0..moves.len())]);
            }
        }
    }
    assert!(CompactOthello::new(othello(8)).is_err());
    // In the opening, the 8 images of a position under the square's symmetries share a key (and a score).
    for size in [4, 5, 6] {
        let compact = CompactOthello::new(othello(size)).unwrap();
        let last = size - 1;
        let image = |discs: u64, symmetry: u32| {
            let mut out = 0u64;
            for row in 0..size {
                for column in 0..size {
                    if discs & (1 << (8 * row + column)) != 0 {
                        let (mut r, mut c) = if symmetry & 4 != 0 { (column, row) } else { (row, column) };
                        if symmetry & 1 != 0 {
                            r = last - r;
                        }
                        if symmetry & 2 != 0 {
                            c = last - c;
                        }
                        out |= 1 << (8 * r + c);
                    }
                }
            }
            out
        };
        let mut position = compact.game.start();
        let mut shared = 0;
        while position.empty(compact.game.all_cells()).count_ones() >= compact.symmetric_from() {
            let key = compact.canonical(&position);
            for symmetry in 1..8 {
                let twin = Discs {
                    mover: image(position.mover, symmetry),
                    other: image(position.other, symmetry),
                    ..position
                };
                assert_eq!(compact.canonical(&twin), key, "size {size}, symmetry {symmetry}");
                shared += 1;
            }
            let moves = compact.legal_moves(&position);
            position = compact.play(&position, &moves[rng.gen_range(0..moves.len())]);
            if compact.is_over(&position) {
                break;
            }
        }
        assert!(shared > 0);
        let twin = Discs { mover: image(position.mover, 3), other: image(position.other, 3), ..position };
        if position.empty(compact.game.all_cells()).count_ones() < compact.symmetric_from() && twin != position {
            assert_ne!(compact.canonical(&twin), compact.canonical(&position), "later, plain keys");
        }
    }
    let compact = CompactOthello::new(othello(5)).unwrap();
    let mut packed = ScoredAlphaBeta::with_table(Mode::Exact, PackedTable::with_budget(mib(16)).unwrap());
    let mut keyed = ScoredAlphaBeta::new(Mode::Exact);
    let mut position = compact.game.start();
    for _ in 0..3 {
        let first = compact.game.render_move(&position, &compact.legal_moves(&position)[0]);
        position = compact.play(&position, &compact.game.parse_move(&position, &first).unwrap());
        assert_eq!(packed.search(&compact, &position).unwrap(), keyed.search(&compact.game, &position).unwrap());
    }
}

#[test]
fn eight_by_eight_endgames_agree_with_minimax() {
    let game = othello(8);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut engine = ScoredAlphaBeta::new(Mode::Exact);
    for _ in 0..6 {
        let mut position = game.start();
        while !game.is_over(&position) && position.empty(game.all_cells()).count_ones() > 7 {
            let moves = game.legal_moves(&position);
            position = game.play(&position, &moves[rng.gen_range(0..moves.len())]);
        }
        let reference = ScoredMinimax::new().search(&game, &position).unwrap();
        assert_eq!(engine.search(&game, &position).unwrap(), reference, "{}", game.board_text(&position));
        let (low, high) = game.value_range(&position);
        assert!(low <= reference && reference <= high);
    }
}

/// The solver of the last empty cells (`small_search`) against plain minimax, in every kind of window: a value
/// at most `alpha` bounds the true one from above, at least `beta` from below, and between them is exact.
#[test]
fn the_last_empties_solver_keeps_its_window_contract() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut checked = 0;
    for size in [4, 5, 6, 8] {
        let game = othello(size);
        for _ in 0..12 {
            let mut position = game.start();
            let stop_at = rng.gen_range(2..=9);
            while !game.is_over(&position) && position.empty(game.all_cells()).count_ones() > stop_at {
                let moves = game.legal_moves(&position);
                position = game.play(&position, &moves[rng.gen_range(0..moves.len())]);
            }
            if game.is_over(&position) || position.empty(game.all_cells()).count_ones() < 2 {
                continue;
            }
            let reference = ScoredMinimax::new().search(&game, &position).unwrap();
            for (alpha, beta) in [
                (-100, 100),
                (reference - 1, reference + 1),
                (reference, reference + 1),
                (reference - 1, reference),
                (reference + 3, reference + 9),
                (reference - 9, reference - 2),
            ] {
                let small = game.small_search(&position, alpha, beta).unwrap();
                let value = small.value;
                let board = game.board_text(&position);
                assert!(small.positions > 0);
                if value <= alpha {
                    assert!(reference <= value, "{board}: {value} in ({alpha}, {beta}), true {reference}");
                } else if value >= beta {
                    assert!(reference >= value, "{board}: {value} in ({alpha}, {beta}), true {reference}");
                } else {
                    assert_eq!(value, reference, "{board}: in ({alpha}, {beta})");
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} positions checked");
}

/// The scored Lazy SMP on two threads against one thread: the same scores on 6 x 6 positions of 22 to 24 empty
/// cells (lines of random play), and the same signs in the outcome mode; a budget too small for the search is
/// an error, never a score.
#[test]
fn lazy_smp_on_two_threads_gives_the_scores_of_one_thread() {
    let compact = CompactOthello::new(othello(6)).unwrap();
    let lines = [
        "c2 b2 a2 d2 e2 b4 e5 f1 a4 d5",
        "b3 b4 e5 b2 a4 f6 e4 d5 b1 a1 d6 e3",
        "b3 d2 e1 b4 c5 b2 c2 b1 a1 c6 e5 e2",
        "b3 b4 a5 c2 b1 e2 c5 b5 e5 a3 b2 e4",
    ];
    for line in lines {
        let position = compact.game.parse_position(line).unwrap();
        let table = || PackedTable::with_budget(mib(32)).unwrap();
        let one = ScoredAlphaBeta::with_table(Mode::Exact, table()).search(&compact, &position).unwrap();
        let mut two = ScoredLazySmp::with_table(Mode::Exact, 2, table()).unwrap();
        assert_eq!(two.search(&compact, &position).unwrap(), one, "{line}");
        assert!(two.stats().visited > 0);
        let mut outcome = ScoredLazySmp::with_table(Mode::Outcome, 2, table()).unwrap();
        assert_eq!(outcome.search(&compact, &position).unwrap(), one.signum(), "{line}");
        let mut starved = ScoredLazySmp::with_table(Mode::Exact, 2, table()).unwrap().with_budget(5_000);
        let error = starved.try_value(&compact, &position).unwrap_err();
        assert!(matches!(error, ludus_framework::Error::Budget(_)), "{line}: {error}");
    }
}

/// The positions a search of `position` by `engine` expands, and its score.
fn expanded<Search: Engine<CompactOthello, Value = i32> + Statistics>(
    engine: &mut Search,
    game: &CompactOthello,
    position: &Discs,
) -> (u64, i32) {
    let before = engine.stats().visited;
    let score = engine.search(game, position).unwrap();
    (engine.stats().visited - before, score)
}

#[test]
fn a_deep_first_guess_is_spent_only_where_the_table_knows_nothing_of_the_position() {
    // 22 empty cells: too deep for the guess to solve within its budget.
    let compact = CompactOthello::new(othello(6)).unwrap();
    let position = compact.game.parse_position("b3 b4 e5 b2 a4 f6 e4 d5 b1 a1").unwrap();
    const DEEP: u64 = 1 << 20;
    let one = || ScoredAlphaBeta::with_table(Mode::Exact, PackedTable::with_budget(mib(64)).unwrap());
    let (fresh, score) = expanded(&mut one().with_guess_budget(DEEP), &compact, &position);
    assert!(fresh > DEEP, "the guess was not spent: {fresh} positions");
    // A window above the score leaves an upper bound in the table, one below it a lower bound.
    for (low, high) in [(score + 1, score + 3), (score - 3, score - 1)] {
        let mut deep = one().with_guess_budget(DEEP);
        let mut default = one().with_guess_budget(GUESS_POSITIONS);
        for engine in [&mut deep, &mut default] {
            let bound = engine.try_value_within(&compact, &position, low, high).unwrap();
            assert_eq!(bound, score.clamp(low, high));
        }
        // Bounded, the position gets the default guess: the same search, position for position.
        let (spent, found) = expanded(&mut deep, &compact, &position);
        assert_eq!(found, score, "window [{low}, {high}]");
        assert_eq!((spent, found), expanded(&mut default, &compact, &position), "window [{low}, {high}]");
        assert!(spent < fresh, "window [{low}, {high}]: {spent} positions against {fresh} cold");
        let mut two = ScoredLazySmp::with_table(Mode::Exact, 2, PackedTable::with_budget(mib(64)).unwrap())
            .unwrap()
            .with_guess_budget(DEEP);
        two.try_value_within(&compact, &position, low, high).unwrap();
        assert_eq!(expanded(&mut two, &compact, &position).1, score, "two threads, window [{low}, {high}]");
    }
}

/// The first test a search of `position` by `engine` runs: its first guess (each search stops right after it,
/// its budget spent).
fn first_test<Search: Engine<CompactOthello, Value = i32>>(
    engine: impl FnOnce(ProgressHook) -> Search,
    game: &CompactOthello,
    position: &Discs,
) -> Option<i32> {
    let first: Arc<Mutex<Option<i32>>> = Arc::default();
    let heard = Arc::clone(&first);
    let hook: ProgressHook = Arc::new(move |progress: &Progress| {
        let mut first = heard.lock().unwrap();
        *first = first.or(progress.test);
    });
    let _ = engine(hook).try_value(game, position);
    let test = *first.lock().unwrap();
    test
}

#[test]
fn the_first_guess_is_the_same_on_one_thread_and_on_two() {
    // Along the first line of each iteration the guess searches a node's later moves apart, at once on two
    // threads: the iterations it completes within its budget, so the guess, must not depend on the threads.
    let compact = CompactOthello::new(othello(6)).unwrap();
    for line in ["b3 b4 e5 b2 a4 f6 e4 d5", "b3 b4 e5 b2 a4 f6 e4 d5 b1 a1", "b3 b4 a5 c2 b1 e2 c5 b5 e5 a3 b2 e4"] {
        let position = compact.game.parse_position(line).unwrap();
        for guess in [1 << 10, 1 << 14, 1 << 17] {
            let table = || PackedTable::with_budget(mib(16)).unwrap();
            let one = first_test(
                |hook| {
                    ScoredAlphaBeta::with_table(Mode::Exact, table())
                        .with_guess_budget(guess)
                        .with_budget(guess + 1)
                        .with_progress(hook)
                },
                &compact,
                &position,
            );
            let two = first_test(
                |hook| {
                    ScoredLazySmp::with_table(Mode::Exact, 2, table())
                        .unwrap()
                        .with_guess_budget(guess)
                        .with_budget(guess + 1)
                        .with_progress(hook)
                },
                &compact,
                &position,
            );
            assert!(one.is_some(), "{line}, a guess of {guess} positions: no test");
            assert_eq!(one, two, "{line}, a guess of {guess} positions");
        }
    }
}

#[test]
fn the_progress_of_two_threads_counts_on_and_proves_the_score() {
    // The Lazy SMP's first thread searches alone, then with its helpers: its watcher hears both as one count,
    // and hears the tests a helper answered too. The positions: 14 empty cells after lines of 6 plies past
    // a 12-ply opening: large enough that the helpers join, and answer some of the tests.
    let compact = CompactOthello::new(othello(6)).unwrap();
    let opening = compact.game.parse_position("b3 b4 a5 c2 b1 e2 c5 b5 e5 a3 b2 e4").unwrap();
    let mut helpers_joined = 0;
    for line in 0..12 {
        let mut position = opening;
        for ply in 0..6 {
            let moves = compact.game.legal_moves(&position);
            position = compact.game.play(&position, &moves[(ply * (line + 1) + line) % moves.len()]);
        }
        let reports: Arc<Mutex<Vec<Progress>>> = Arc::default();
        let heard = Arc::clone(&reports);
        let hook: ProgressHook = Arc::new(move |progress: &Progress| heard.lock().unwrap().push(*progress));
        let table = PackedTable::with_budget(mib(16)).unwrap();
        let mut engine =
            ScoredLazySmp::with_table(Mode::Exact, 2, table).unwrap().with_guess_budget(0).with_progress(hook);
        let score = engine.try_value(&compact, &position).unwrap();
        let reports = reports.lock().unwrap();
        let counts: Vec<u64> = reports.iter().map(|report| report.visited).collect();
        assert!(counts.windows(2).all(|pair| pair[0] <= pair[1]), "the count fell: {counts:?}");
        // The finished tests heard, whichever thread answered them, prove the score (fail-soft bounds).
        let (mut low, mut high) = (-36, 36);
        for report in reports.iter().filter(|report| report.finished) {
            let test = report.test.unwrap();
            if report.found >= test {
                low = low.max(report.found.max(test));
            } else {
                high = high.min(report.found.min(test - 1));
            }
        }
        assert_eq!((low, high), (score, score), "line {line}: the tests heard do not prove it: {reports:?}");
        helpers_joined += usize::from(counts.last().is_some_and(|&last| last > 2_000));
    }
    assert!(helpers_joined > 0, "the helpers never joined");
}

#[test]
fn positions_read_back_from_their_board_and_moves() {
    let game = othello(6);
    // Black's four openings on 6 x 6 are b3, c2, d5 and e4 (the middle cells are c3 and d4 White's, c4 and d3
    // Black's).
    let openings: Vec<String> =
        game.legal_moves(&game.start()).iter().map(|mv| game.render_move(&game.start(), mv)).collect();
    assert_eq!(openings, ["c2", "b3", "e4", "d5"]);
    let position = game.parse_position("c2 b2 a2").unwrap();
    let board = game.board_text(&position);
    assert_eq!(game.parse_position(&board).unwrap(), position);
    assert!(game.parse_position("a1").unwrap_err().to_string().contains("move 1"));
    assert!(game.parse_position("....../....../..ox../..xo../....../...... q").is_err());
    assert!(game.parse_move(&game.start(), "z9").is_err());
    let mv = game.parse_move(&game.start(), "e4").unwrap();
    assert_eq!(game.render_move(&game.start(), &mv), "e4");
    assert!(game.parse_move(&game.start(), "a1").is_err());
}
