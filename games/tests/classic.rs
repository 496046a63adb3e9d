//! Reference facts of the classic games, asserted through the engines: tic-tac-toe's position counts and
//! value, the nimbers of Nim, the periods of Kayles and Dawson's Kayles, and Grundy vs negamax on sums.

use hashbrown::HashSet;
use ludus_framework::conformance::GameCheck;
use ludus_framework::engines::grundy::GrundyEngine;
use ludus_framework::engines::negamax::{MemoNegamax, PlainNegamax};
use ludus_framework::engines::parallel::{ParallelGrundy, ParallelNegamax};
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::plugin::{seeded_rng, with_threads};
use ludus_framework::Rules;
use ludus_framework::Statistics;
use ludus_framework::{analysis, Canonicalize, Impartial, SumGame, Value};
use ludus_games::classic::{Board, DawsonsKayles, Kayles, Nim, TicTacToe};
use rand::Rng;

fn reachable_tic_tac_toe() -> Vec<Board> {
    let mut seen = HashSet::new();
    let mut stack = vec![Board::EMPTY];
    seen.insert(Board::EMPTY);
    while let Some(board) = stack.pop() {
        if TicTacToe.is_over(&board) {
            continue;
        }
        for cell in TicTacToe.legal_moves(&board) {
            let next = TicTacToe.play(&board, &cell);
            if seen.insert(next) {
                stack.push(next);
            }
        }
    }
    seen.into_iter().collect()
}

/// Source: the standard enumeration of tic-tac-toe (e.g. Schaefer, "Tic-tac-toe", and the OEIS comments on
/// A008907): 5,478 legal positions reachable in play, 765 essentially different ones.
#[test]
fn tic_tac_toe_has_5478_positions_765_up_to_symmetry() {
    let positions = reachable_tic_tac_toe();
    assert_eq!(positions.len(), 5478);
    let classes: HashSet<u32> = positions.iter().map(|board| TicTacToe.canonical(board)).collect();
    assert_eq!(classes.len(), 765);
}

#[test]
fn tic_tac_toe_is_a_draw_for_every_engine() {
    let mut memo = MemoNegamax::new(Mode::Exact);
    let mut plain = PlainNegamax::new(Mode::Outcome);
    let mut outcome = MemoNegamax::new(Mode::Outcome);
    assert_eq!(memo.value(&TicTacToe, &Board::EMPTY), Value::Draw);
    assert_eq!(plain.value(&TicTacToe, &Board::EMPTY), Value::Draw);
    assert_eq!(outcome.value(&TicTacToe, &Board::EMPTY), Value::Draw);
    let parallel = ParallelNegamax::new(Mode::Exact, 3);
    let value = with_threads(2, || parallel.evaluate(&TicTacToe, &Board::EMPTY)).unwrap();
    assert_eq!(value, Value::Draw);
    // The memo table holds canonical non-terminal positions only: at most 765 of them.
    let table = memo.stats().table_entries;
    assert!(table > 100 && table <= 765, "{table}");
    // Every opening move draws; none wins.
    assert_eq!(analysis::count_winning_moves(&mut memo, &TicTacToe, &Board::EMPTY).unwrap(), 0);
}

#[test]
fn memoized_plain_and_parallel_negamax_agree_on_every_position() {
    let mut memo = MemoNegamax::new(Mode::Exact);
    let mut plain = PlainNegamax::new(Mode::Exact);
    let parallel = ParallelNegamax::new(Mode::Exact, 2);
    let positions = reachable_tic_tac_toe();
    for board in &positions {
        let expected = plain.value(&TicTacToe, board);
        assert_eq!(memo.value(&TicTacToe, board), expected, "{board:?}");
        for image in board.symmetric_images() {
            assert_eq!(memo.value(&TicTacToe, &image), expected);
        }
    }
    with_threads(2, || {
        for board in positions.iter().step_by(7) {
            assert_eq!(parallel.evaluate(&TicTacToe, board), memo.value(&TicTacToe, board));
        }
    })
    .unwrap();
    // A position where X wins in 1 (X: 0, 1; O: 3, 4): exact mode finds the quickest win.
    let board = Board { crosses: 0b11, noughts: 0b11000 };
    assert_eq!(memo.value(&TicTacToe, &board), Value::Win(1));
    let mistakes = analysis::mistakes(&mut memo, &TicTacToe, &board, &[8, 5]).unwrap();
    assert_eq!(mistakes.len(), 1, "X had a win in 1 and let O win at once");
    assert_eq!((mistakes[0].ply, mistakes[0].after), (0, Value::Win(1)));
}

#[test]
fn tic_tac_toe_conforms() {
    let symmetries = |board: &Board| board.symmetric_images();
    let check = GameCheck::new(&TicTacToe, Board::EMPTY).playouts(200).max_plies(9).seed(7);
    check.symmetries(&symmetries).compare_engines().run().unwrap();
}

#[test]
fn nim_heaps_have_their_size_as_nimber_and_sums_follow_xor() {
    let mut engine = GrundyEngine::new();
    for heap in 0..64 {
        assert_eq!(engine.nimber(&Nim, &heap), heap);
    }
    let mut rng = seeded_rng(11);
    let mut memo = MemoNegamax::new(Mode::Outcome);
    for _ in 0..300 {
        let heaps: Vec<u32> = (0..rng.gen_range(1..4)).map(|_| rng.gen_range(0..6)).collect();
        let xor = heaps.iter().fold(0, |acc, heap| acc ^ heap);
        assert_eq!(engine.sum(&Nim, &heaps), xor);
        let value = memo.value(&SumGame(&Nim), &heaps);
        assert_eq!(value.is_loss(), xor == 0, "{heaps:?}");
        let winning = analysis::count_winning_moves(&mut memo, &SumGame(&Nim), &heaps).unwrap() as u64;
        assert_eq!(engine.winning_moves(&Nim, &heaps), winning, "{heaps:?}");
    }
}

fn nimbers<Ruleset: Impartial<Component = u32, Key = u32>>(game: &Ruleset, up_to: u32) -> Vec<u32> {
    let mut engine = GrundyEngine::new();
    (0..=up_to).map(|pins| engine.nimber(game, &pins)).collect()
}

/// Source: Winning Ways, ch. 4; OEIS A002186 (Kayles) and A002187 (Dawson's Kayles, shifted by one).
#[test]
fn kayles_is_periodic_with_period_12_from_71() {
    let values = nimbers(&Kayles, 71 + 12 * 30);
    assert_eq!(values[..12], [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
    for pins in 71..values.len() - 12 {
        assert_eq!(values[pins], values[pins + 12], "G({pins})");
    }
    assert_ne!(values[70], values[82], "70 is the last exception");
}

#[test]
fn dawsons_kayles_is_periodic_with_period_34_from_53() {
    let values = nimbers(&DawsonsKayles, 53 + 34 * 12);
    assert_eq!(values[..12], [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3]);
    for pins in 53..values.len() - 34 {
        assert_eq!(values[pins], values[pins + 34], "G({pins})");
    }
    assert_ne!(values[52], values[86], "52 is the last exception");
}

#[test]
fn grundy_zero_exactly_when_negamax_loses_on_kayles_sums() {
    let mut rng = seeded_rng(5);
    let mut engine = GrundyEngine::new();
    let mut memo = MemoNegamax::new(Mode::Outcome);
    let mut dawson_engine = GrundyEngine::new();
    let mut dawson_memo = MemoNegamax::new(Mode::Outcome);
    let parallel = ParallelGrundy::new();
    for _ in 0..300 {
        let rows: Vec<u32> = (0..rng.gen_range(1..4)).map(|_| rng.gen_range(0..8)).collect();
        let nimber = engine.sum(&Kayles, &rows);
        assert_eq!(memo.value(&SumGame(&Kayles), &rows).is_loss(), nimber == 0, "{rows:?}");
        assert_eq!(parallel.sum(&Kayles, &rows), nimber);
        let dawson = dawson_engine.sum(&DawsonsKayles, &rows);
        assert_eq!(dawson_memo.value(&SumGame(&DawsonsKayles), &rows).is_loss(), dawson == 0, "{rows:?}");
    }
}

#[test]
fn parallel_grundy_waves_match_sequential() {
    let parallel = ParallelGrundy::new();
    let waves: Vec<Vec<u32>> = (0..200).map(|pins| vec![pins]).collect();
    with_threads(2, || parallel.precompute(&Kayles, &waves)).unwrap();
    let sequential = nimbers(&Kayles, 199);
    for pins in 0..200u32 {
        assert_eq!(parallel.nimber(&Kayles, &pins), sequential[pins as usize]);
    }
}

#[test]
fn misere_nim_follows_boutons_misere_rule() {
    use ludus_framework::engines::alpha_beta::AlphaBeta;
    use ludus_framework::MisereSum;
    let game = MisereSum(&Nim);
    let mut memo = MemoNegamax::new(Mode::Exact);
    let mut alpha_beta = AlphaBeta::new(Mode::Exact);
    for a in 0..=5u32 {
        for b in 0..=5u32 {
            for c in 0..=4u32 {
                let heaps = vec![a, b, c];
                let xor = a ^ b ^ c;
                // Bouton's misère rule: with a heap of two or more, play as in normal Nim (win iff the XOR is
                // not zero); with heaps of at most one counter, win iff their number is even (XOR zero).
                let wins = if a.max(b).max(c) >= 2 { xor != 0 } else { xor == 0 };
                let value = memo.value(&game, &heaps);
                assert_eq!(value.is_win(), wins, "misère Nim {heaps:?}: {value}");
                assert_eq!(alpha_beta.value(&game, &heaps), value, "{heaps:?}");
            }
        }
    }
    // The empty position is won for the player to move: the opponent made the last move.
    assert_eq!(memo.value(&game, &Vec::new()), Value::Win(0));
}
