//! Octal games by their code, checked against independent solvers: the code's options against the hand-written
//! Kayles and Dawson's Kayles, Dawson's chess (`0.137`) against Dawson's Kayles with one more pin (*Winning
//! Ways*, ch. 4), the Sprague-Grundy analysis against alpha-beta over the whole sum, misère play against a
//! brute force written here and against Bouton's rule for misère Nim.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use ludus_framework::engines::alpha_beta::AlphaBeta;
use ludus_framework::engines::grundy::GrundyEngine;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::impartial::{Impartial, SumGame};
use ludus_framework::playable::{AnalysisOptions, Playable, PlayableGame};
use ludus_games::classic::{DawsonsKayles, Kayles, OctalGame};
use std::collections::HashMap;

fn octal(code: &str) -> OctalGame {
    OctalGame::parse(code).unwrap()
}

fn nimbers<Ruleset: Impartial<Component = u32, Key = u32>>(game: &Ruleset, largest: u32) -> Vec<u32> {
    let mut engine = GrundyEngine::new();
    (0..=largest).map(|heap| engine.nimber(game, &heap)).collect()
}

#[test]
fn codes_give_the_games_written_by_hand() {
    assert_eq!(nimbers(&octal("0.77"), 300), nimbers(&Kayles, 300));
    assert_eq!(nimbers(&octal("0.07"), 300), nimbers(&DawsonsKayles, 300));
    // Dawson's chess is Dawson's Kayles with one more pin.
    let chess = nimbers(&octal("0.137"), 200);
    let kayles = nimbers(&DawsonsKayles, 201);
    assert_eq!(chess, kayles[1..]);
    // Four threes: Nim on heaps of at most 4, whose nimber is the heap.
    assert_eq!(nimbers(&octal("0.3333"), 4), vec![0, 1, 2, 3, 4]);
    // The options of a code: 0.6 takes one token and leaves one or two heaps (never none).
    let options = octal("0.6").option_list(&5);
    assert_eq!(options, vec![(vec![4], 1), (vec![1, 3], 2), (vec![2, 2], 1)]);
    assert_eq!(octal(".07").code(), "0.07");
}

#[test]
fn bad_codes_are_refused() {
    for code in ["0.8", "1.07", "0.", "0.000", "", "077", &format!("0.{}", "7".repeat(33))] {
        assert!(OctalGame::parse(code).is_err(), "{code}");
    }
}

/// Small sums of a few codes: every position as `(heaps text, heaps)`.
fn small_positions() -> Vec<(String, Vec<u32>)> {
    let mut positions = Vec::new();
    for first in 0..=7u32 {
        for second in 0..=first {
            for third in [0, 1, 3] {
                let heaps: Vec<u32> = [first, second, third].into_iter().filter(|&heap| heap > 0).collect();
                let text = heaps.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
                positions.push((if text.is_empty() { "-".to_string() } else { text }, heaps));
            }
        }
    }
    positions
}

const CODES: [&str; 6] = ["0.77", "0.07", "0.137", "0.6", "0.51", "0.4007"];

#[test]
fn the_grundy_analysis_agrees_with_alpha_beta_over_the_whole_sum() {
    for code in CODES {
        let game = octal(code);
        let playable = Playable::impartial(game.clone(), code.to_string());
        let sum = SumGame(&game);
        let mut engine = AlphaBeta::new(Mode::Exact);
        for (text, heaps) in small_positions() {
            let analysis = playable.analyze(Some(&text), &AnalysisOptions::default()).unwrap();
            let value = engine.value(&sum, &heaps);
            assert_eq!(analysis.value.word(), if value.is_win() { "win" } else { "loss" }, "{code} {text}");
            assert_eq!(analysis.value.nimber() == Some(0), !value.is_win(), "{code} {text}");
            // The winning moves are those after which the opponent loses.
            let winning: Vec<bool> = analysis.moves.iter().map(|mv| mv.value.word() == "win").collect();
            let by_search: Vec<bool> = ludus_framework::analysis::move_values(&mut engine, &sum, &heaps)
                .unwrap()
                .iter()
                .map(|mv| mv.value.is_win())
                .collect();
            assert_eq!(winning, by_search, "{code} {text}");
        }
    }
}

/// Misère play by brute force over sorted heaps: lost when every move leads to a won position, and won when
/// no move is left (the opponent made the last move).
fn misere_wins(game: &OctalGame, heaps: &[u32], memo: &mut HashMap<Vec<u32>, bool>) -> bool {
    let mut key = heaps.to_vec();
    key.sort_unstable();
    if let Some(&known) = memo.get(&key) {
        return known;
    }
    let mut any_move = false;
    let mut wins = false;
    for (index, heap) in key.iter().enumerate() {
        for (parts, _) in game.option_list(heap) {
            any_move = true;
            let mut next: Vec<u32> = key.iter().enumerate().filter(|&(at, _)| at != index).map(|(_, &h)| h).collect();
            next.extend(parts);
            if !misere_wins(game, &next, memo) {
                wins = true;
            }
        }
    }
    let wins = wins || !any_move;
    memo.insert(key, wins);
    wins
}

#[test]
fn misere_play_agrees_with_a_brute_force_and_with_bouton() {
    for code in CODES {
        let game = octal(code);
        let playable = Playable::misere(game.clone(), code.to_string());
        let mut memo = HashMap::new();
        for (text, heaps) in small_positions() {
            let analysis = playable.analyze(Some(&text), &AnalysisOptions::default()).unwrap();
            let expected = if misere_wins(&game, &heaps, &mut memo) { "win" } else { "loss" };
            assert_eq!(analysis.value.word(), expected, "{code} {text}");
            assert_eq!(analysis.value.nimber(), None);
        }
    }
    // Bouton (1902): misère Nim is lost for the player to move exactly when some heap has two counters or
    // more and the XOR of the heaps is zero, or every heap has at most one and their number is odd.
    let nim = Playable::misere(octal("0.3333"), "nim".into());
    for (text, heaps) in small_positions().into_iter().filter(|(_, heaps)| heaps.iter().all(|&heap| heap <= 4)) {
        let xor = heaps.iter().fold(0, |acc, heap| acc ^ heap);
        let lost = if heaps.iter().any(|&heap| heap >= 2) { xor == 0 } else { heaps.len() % 2 == 1 };
        let analysis = nim.analyze(Some(&text), &AnalysisOptions::default()).unwrap();
        assert_eq!(analysis.value.word(), if lost { "loss" } else { "win" }, "{text}");
    }
}

#[test]
fn long_rows_are_analysed_by_nimbers() {
    // Kayles on 80 pins, where alpha-beta over the sum would take minutes: the mirror move (the middle two
    // pins) wins, and the nimber is the hand-written Kayles's.
    let playable = Playable::impartial(octal("0.77"), "kayles".into());
    let analysis = playable.analyze(Some("80"), &AnalysisOptions::default()).unwrap();
    assert_eq!(analysis.value.nimber(), Some(GrundyEngine::new().nimber(&Kayles, &80)));
    assert_eq!(analysis.value.word(), "win");
    let mirror = analysis.moves.iter().find(|mv| mv.mv == "1:39+39").unwrap();
    assert_eq!((mirror.value.word(), mirror.value.nimber(), mirror.best), ("win", Some(0), true));
    // The line keeps the win: the winner's every move leaves nimber zero, so it ends with the winner's move.
    assert_eq!(analysis.line.len() % 2, 1, "{:?}", analysis.line);
    // A budget stops it with the budget error.
    let options = AnalysisOptions { max_positions: 10, ..AnalysisOptions::default() };
    let error = playable.analyze(Some("80"), &options).map(|_| ()).unwrap_err();
    assert!(matches!(error, ludus_framework::Error::Budget(ludus_framework::Budget::Positions(10))), "{error}");
}

#[test]
fn positions_and_moves_are_read_and_refused_by_their_text() {
    let playable = Playable::impartial(octal("0.77"), "kayles".into());
    let options = AnalysisOptions::default();
    for bad in ["x", "3,,4", "10001", &"1,".repeat(1001)] {
        assert!(playable.analyze(Some(bad), &options).is_err(), "{bad}");
    }
    let mut session = playable.session(&options).unwrap();
    assert!(session.play("1:3+5").is_ok());
    assert_eq!(session.drawing(), "3 5\n");
    assert!(!session.first_to_move(), "the second player to move");
    for bad in ["3:1", "1:9", "1", "x:1", "2:1+1+1"] {
        assert!(session.play(bad).is_err(), "{bad}");
    }
    // Parts in any order; `-` for none.
    assert_eq!(session.play("2:3+1").unwrap(), "2:1+3");
    assert_eq!(session.moves_played(), 2);
    // The perfect player's move leaves nimber zero.
    let reply = session.play_best().unwrap();
    let after = session.hints().unwrap();
    assert!(after.iter().all(|mv| mv.value.word() == "loss"), "after {reply}: {after:?}");
}
