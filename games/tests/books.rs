//! Opening books (`ludus book`): built, checked and consulted through the games' registrations.
//!
//! - Tic-tac-toe to 9 plies holds its 765 positions up to symmetry (the well-known count of its essentially
//!   different positions; `reference_counts.rs` has it by the retrograde engine too), each equal to a search.
//! - Connect Four 4 x 4 and Kalah(2, 2) (a scored game with extra turns): every value searched again.
//! - An analysis over a book gives what it gives without one, and marks the moves it read.
//! - The books committed for Connect Four 7 x 6 and Othello 6 x 6: whole, and a sample searched again.
//! - A build stopped by its budget resumes from its journal into the same bytes as one run; a torn journal
//!   entry is dropped; a damaged journal, a damaged book and a wrong value are refused or reported.

#![allow(clippy::unwrap_used)] // a failed scratch directory should fail the test loudly

use ludus_framework::database::book::{BookPlace, BookProgress, BookReport};
use ludus_framework::database::file::{write_tier, TierName};
use ludus_framework::database::Record;
use ludus_framework::playable::{AnalysisOptions, PlayableGame, Registration};
use ludus_framework::Error;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

fn game(registration: &Registration, spec: &str) -> Box<dyn PlayableGame> {
    registration.make(spec).unwrap().playable
}

/// A fresh scratch directory, removed when the test drops it.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("ludus-books-{name}-")).tempdir().unwrap()
}

fn build(game: &dyn PlayableGame, depth: u32, path: &Path, options: &AnalysisOptions) -> Result<u64, Error> {
    game.build_book(depth, path, options, &mut |_: BookProgress| ControlFlow::Continue(()))
        .map(|report| report.positions)
}

fn build_report(game: &dyn PlayableGame, depth: u32, path: &Path) -> Result<BookReport, Error> {
    game.build_book(depth, path, &AnalysisOptions::default(), &mut |_| ControlFlow::Continue(()))
}

/// A build to 6 plies stopped once `count` positions are searched.
fn stopped_after(game: &dyn PlayableGame, count: u64, path: &Path) -> Result<BookReport, Error> {
    game.build_book(6, path, &AnalysisOptions::default(), &mut |progress| {
        if progress.searched >= count {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
}

#[test]
fn tic_tac_toe_to_nine_plies_holds_its_765_positions_each_as_a_search_gives_it() {
    let scratch = scratch("tic-tac-toe");
    let directory = scratch.path();
    let path = directory.join("book");
    let game = game(&ludus_games::registry::TIC_TAC_TOE, "tic-tac-toe");
    assert_eq!(build(game.as_ref(), 9, &path, &AnalysisOptions::default()).unwrap(), 765);
    let check = game.check_book(&path, 765, 7, &AnalysisOptions::default()).unwrap();
    assert!(check.passed(), "{check:?}");
    assert_eq!((check.positions, check.sampled), (765, 765));
    assert!(check.backed_up > 600, "{check:?}");
}

#[test]
fn connect_four_and_kalah_books_match_a_search_everywhere() {
    let scratch = scratch("two-games");
    let directory = scratch.path();
    for (registration, spec, depth) in [
        (&ludus_games::registry::CONNECT_FOUR, "connect-four:width=4,height=4", 5),
        (&ludus_games::registry::KALAH, "kalah:pits=2,seeds=2", 6),
    ] {
        let game = game(registration, spec);
        let path = directory.join(spec.replace([':', ','], "_"));
        let positions = build(game.as_ref(), depth, &path, &AnalysisOptions::default()).unwrap();
        let check = game.check_book(&path, positions as usize, 3, &AnalysisOptions::default()).unwrap();
        assert!(check.passed(), "{spec}: {check:?}");
        assert_eq!(check.sampled, positions, "{spec}");
    }
}

#[test]
fn an_analysis_over_a_book_gives_the_values_of_one_without_and_marks_what_it_read() {
    let scratch = scratch("analysis");
    let directory = scratch.path();
    let path = directory.join("book");
    let game = game(&ludus_games::registry::CONNECT_FOUR, "connect-four:width=5,height=4");
    build(game.as_ref(), 4, &path, &AnalysisOptions::default()).unwrap();
    let booked = AnalysisOptions { book: Some(BookPlace::File(path.clone())), ..AnalysisOptions::default() };
    for position in [None, Some("3"), Some("33"), Some("3312"), Some("331245")] {
        let searched = game.analyze(position, &AnalysisOptions::default()).unwrap();
        let read = game.analyze(position, &booked).unwrap();
        let plies = position.map_or(0, str::len);
        let values = |analysis: &ludus_framework::playable::Analysis| {
            (
                analysis.value,
                analysis.moves.iter().map(|mv| (mv.mv.clone(), mv.value, mv.best)).collect::<Vec<_>>(),
                analysis.line.clone(),
            )
        };
        let (value, moves, line) = values(&read);
        let (searched_value, searched_moves, searched_line) = values(&searched);
        assert_eq!((value, moves), (searched_value, searched_moves), "{position:?}");
        // From the book, the line is the search's as far as the book reaches.
        assert!(searched_line.starts_with(&line), "{line:?} {searched_line:?}");
        assert_eq!(read.line_from_book, plies <= 4, "{position:?}");
        if !read.line_from_book {
            assert_eq!(line, searched_line);
        }
        // Moves to positions of at most 4 plies come from the book, the others are searched.
        assert_eq!(read.moves.iter().all(|mv| mv.book), plies < 4, "{position:?}");
        assert_eq!(read.book_values > 0, plies <= 4, "{position:?}");
        assert!(searched.moves.iter().all(|mv| !mv.book));
    }
    // A directory without the game's book leaves the search as it is; a file of another game is refused.
    let elsewhere =
        AnalysisOptions { book: Some(BookPlace::Directory(directory.join("none"))), ..AnalysisOptions::default() };
    assert_eq!(game.analyze(None, &elsewhere).unwrap().book_values, 0);
    let other = game_of_other(directory);
    let refused = AnalysisOptions { book: Some(BookPlace::File(other)), ..AnalysisOptions::default() };
    let error = game.analyze(None, &refused).unwrap_err().to_string();
    assert!(error.contains("tic-tac-toe"), "{error}");
}

/// A book of tic-tac-toe in `directory`.
fn game_of_other(directory: &Path) -> PathBuf {
    let path = directory.join("tic-tac-toe.book");
    build(game(&ludus_games::registry::TIC_TAC_TOE, "tic-tac-toe").as_ref(), 2, &path, &AnalysisOptions::default())
        .unwrap();
    path
}

#[test]
fn a_stopped_build_resumes_from_its_journal_into_the_same_bytes() {
    let scratch = scratch("resume");
    let directory = scratch.path();
    let game = game(&ludus_games::registry::CONNECT_FOUR, "connect-four:width=4,height=4");
    let whole = directory.join("whole.book");
    build(game.as_ref(), 6, &whole, &AnalysisOptions::default()).unwrap();
    let resumed = directory.join("resumed.book");
    // A build stopped after 30 positions searched keeps their values.
    assert!(matches!(stopped_after(game.as_ref(), 30, &resumed), Err(Error::Stopped)));
    let journal = directory.join("resumed.book.journal");
    let journaled = std::fs::metadata(&journal).unwrap().len();
    assert!(journaled > 22 * 10, "{journaled} bytes");
    // A torn last entry (a write cut short) is dropped.
    std::fs::OpenOptions::new()
        .append(true)
        .open(&journal)
        .map(|mut file| {
            use std::io::Write;
            file.write_all(&[1, 2, 3, 4, 5]).unwrap();
        })
        .unwrap();
    let report = build_report(game.as_ref(), 6, &resumed).unwrap();
    assert_eq!(report.resumed, 30, "{report:?}");
    assert!(report.searched > 0, "{report:?}");
    assert_eq!(std::fs::read(&resumed).unwrap(), std::fs::read(&whole).unwrap());
    assert!(!journal.exists(), "the journal goes once the book is written");
    // Building it again reports the book there.
    assert!(build_report(game.as_ref(), 6, &resumed).unwrap().existed);
    let other_depth = build_report(game.as_ref(), 5, &resumed).unwrap_err();
    assert!(other_depth.to_string().contains("a book of 6 plies, not 5"), "{other_depth}");
}

#[test]
fn a_damaged_journal_is_refused() {
    let scratch = scratch("journal");
    let directory = scratch.path();
    let game = game(&ludus_games::registry::CONNECT_FOUR, "connect-four:width=4,height=4");
    let path = directory.join("book");
    assert!(stopped_after(game.as_ref(), 30, &path).is_err());
    let journal = directory.join("book.journal");
    let mut bytes = std::fs::read(&journal).unwrap();
    let middle = bytes.len() - 22 * 3;
    bytes[middle] ^= 0x40;
    std::fs::write(&journal, &bytes).unwrap();
    let error = build(game.as_ref(), 6, &path, &AnalysisOptions::default()).unwrap_err().to_string();
    assert!(error.contains("checksum does not match"), "{error}");
    // A journal of another depth is not read as this one's.
    std::fs::remove_file(&journal).unwrap();
    assert!(stopped_after(game.as_ref(), 30, &path).is_err());
    let error = build(game.as_ref(), 5, &path, &AnalysisOptions::default()).unwrap_err().to_string();
    assert!(error.contains("to 6 plies, not of"), "{error}");
}

#[test]
fn a_damaged_book_is_refused_and_a_wrong_value_is_reported() {
    let scratch = scratch("damage");
    let directory = scratch.path();
    let spec = "connect-four:width=4,height=4";
    let game = game(&ludus_games::registry::CONNECT_FOUR, spec);
    let path = directory.join("book");
    build(game.as_ref(), 4, &path, &AnalysisOptions::default()).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    // A flipped bit in the last block: the blocks' checksums fail.
    let mut damaged = bytes.clone();
    let last = damaged.len() - 3;
    damaged[last] ^= 0x10;
    let flipped = directory.join("flipped");
    std::fs::write(&flipped, &damaged).unwrap();
    let error = game.check_book(&flipped, 5, 1, &AnalysisOptions::default()).unwrap_err();
    assert!(matches!(error, Error::Database { .. }), "{error:?}");
    // Cut short: refused when opened.
    let cut = directory.join("cut");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let booked = AnalysisOptions { book: Some(BookPlace::File(cut)), ..AnalysisOptions::default() };
    assert!(matches!(game.analyze(None, &booked), Err(Error::Database { .. })));
    // One value changed (a whole file, its checksums right): the check finds it.
    let mut book = ludus_framework::database::book::Book::open(&path, spec).unwrap();
    let mut records = book.records().unwrap();
    let (_, record) = records.last_mut().unwrap();
    let value = record.value().unwrap();
    let wrong = match value {
        ludus_framework::Value::Draw => ludus_framework::Value::Win(3),
        _ => ludus_framework::Value::Draw,
    };
    *record = Record::from_value(wrong).unwrap();
    let wrong_path = directory.join("wrong");
    let name =
        TierName { game: spec.to_string(), tier: serde_json::json!({ "opening-book": { "depth": 4 } }), ranks: None };
    write_tier(&wrong_path, &name, Vec::new(), records).unwrap();
    let check = game.check_book(&wrong_path, 1000, 1, &AnalysisOptions::default()).unwrap();
    assert!(!check.passed(), "{check:?}");
    assert!(check.problems >= 1, "{check:?}");
}

/// The book committed for standard Connect Four (`books/`, made by `ludus book build connect-four`): whole,
/// backed up consistently, a sample of its positions searched again; and its start is the known one.
#[test]
fn the_committed_connect_four_book_holds_what_a_search_gives() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../books/connect-four_width=7_height=6.book");
    let game = game(&ludus_games::registry::CONNECT_FOUR, "connect-four");
    let options = AnalysisOptions { table_mb: 256, ..AnalysisOptions::default() };
    let check = game.check_book(&path, 2, 5, &options).unwrap();
    assert!(check.passed(), "{check:?}");
    assert_eq!(check.sampled, 2);
    // Every position of up to 7 plies, up to symmetry (`ludus book build connect-four --depth 7`).
    assert!(check.depth >= 7 && check.positions >= 38_567, "{check:?}");
    // The first player wins with the 41st stone by the centre column; columns 3 and 5 draw, the others lose
    // (Allis 1988, Tromp 1995; Pons' solver scores the start +1, a win with the last stone).
    let booked = AnalysisOptions { book: Some(BookPlace::File(path)), ..AnalysisOptions::default() };
    let analysis = game.analyze(None, &booked).unwrap();
    let words: Vec<String> = analysis.moves.iter().map(|mv| format!("{} {}", mv.mv, mv.value)).collect();
    assert_eq!(words, ["1 loss", "2 loss", "3 draw", "4 win", "5 draw", "6 loss", "7 loss"]);
    assert_eq!(analysis.value.remoteness(), Some(41));
    assert!(analysis.moves.iter().all(|mv| mv.book) && analysis.line_from_book);
    assert_eq!(analysis.line.first().map(String::as_str), Some("4"));
}

/// The book committed for Othello 6 x 6 (`books/`, made by `ludus book build othello --depth 4 --threads 2
/// --table-mb 4096`): whole, backed up consistently, one position of its deepest ply (28 empty cells) searched
/// again on two threads; and its start's value is the published one.
#[test]
fn the_committed_othello_book_holds_what_a_search_gives() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../books/othello_size=6_empties=winner.book");
    let game = game(&ludus_games::registry::OTHELLO, "othello");
    let options = AnalysisOptions { table_mb: 1024, threads: 2, ..AnalysisOptions::default() };
    let check = game.check_book(&path, 1, OTHELLO_SAMPLE_SEED, &options).unwrap();
    assert!(check.passed(), "{check:?}");
    assert_eq!(check.sampled, 1);
    // Every position of up to 4 plies, up to symmetry: 1, 1, 3, 14 and 60 by ply.
    assert_eq!((check.depth, check.positions), (4, 79), "{check:?}");
    // The second player wins by 4 discs, 20 to 16, whatever the first plays (Feinstein 1993; BENCHMARKS.md,
    // "Othello 6 x 6 from the start", for the same margin by search). The line: the book's four plies.
    let booked = AnalysisOptions { book: Some(BookPlace::File(path)), max_line: 4, ..AnalysisOptions::default() };
    let analysis = game.analyze(None, &booked).unwrap();
    let scores: Vec<(&str, Option<i32>)> = analysis.moves.iter().map(|mv| (mv.mv.as_str(), mv.value.score())).collect();
    assert_eq!(scores, [("c2", Some(-4)), ("b3", Some(-4)), ("e4", Some(-4)), ("d5", Some(-4))]);
    assert_eq!(analysis.value.score(), Some(-4));
    assert!(analysis.moves.iter().all(|mv| mv.book) && analysis.line_from_book);
    assert_eq!(analysis.line.len(), 4);
}

/// The seed of the Othello book's sampled position (its draw: a position of ply 4).
const OTHELLO_SAMPLE_SEED: u64 = 1;
