//! Solved databases of real games: every tic-tac-toe record is memoized negamax's exact value; Connect Four
//! 4 x 4 and 5 x 4 records match alpha-beta on thousands of sampled positions; Dodgem keeps its published
//! results; `check` passes on every database and fails on damaged copies (a flipped byte, a wrong value written
//! with valid checksums, a missing record, a missing tier); a stopped solve resumes to the same files; Dodgem
//! solved by rank writes the hashed solve's files byte for byte, resumed or not, and its check by rank reports
//! what the hashed check does; a memory budget too small is a clear error; a database engine over a damaged or
//! missing file fails in its search, and every analysis returns that failure.

#![allow(clippy::unwrap_used)] // test helpers: a failed read of a scratch directory should fail the test loudly

use ludus_framework::analysis::{move_values, principal_variation};
use ludus_framework::database::file::{write_tier, TierFile};
use ludus_framework::database::game::StoredValues;
use ludus_framework::database::{Database, Record, SolveBudget, TierFiles, TierReport};
use ludus_framework::engines::alpha_beta::AlphaBeta;
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::retrograde::{ByKey, ByRank, TierSpec, Tiers};
use ludus_framework::engines::{Engine, Mode, Stop};
use ludus_framework::playable::{DatabaseGame, Playable, Solvable, Tiered};
use ludus_framework::plugin::seeded_rng;
use ludus_framework::Rules;
use ludus_framework::{Budget, Canonicalize, Error, FromKey, Setting, Value};
use ludus_games::classic::{Board, TicTacToe};
use ludus_games::connect_four::{self, ConnectFour};
use ludus_games::dodgem::Dodgem;
use rand::Rng;
use std::path::{Path, PathBuf};

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let directory = std::env::temp_dir().join(format!("ludus-database-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    directory
}

const AMPLE: SolveBudget = SolveBudget { memory_mb: 4096, max_positions: u64::MAX, stop: None };

/// Solves into `directory`, returning the reports.
fn solve<Ruleset>(
    database: &Database<'_, Ruleset>,
    start: &Ruleset::Position,
    budget: SolveBudget,
) -> Result<Vec<TierReport>, Error>
where
    Ruleset: ludus_framework::Game + Tiers + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: ludus_framework::database::RecordKey,
    Ruleset::Tier: serde::Serialize + serde::de::DeserializeOwned,
{
    let mut reports = Vec::new();
    database.solve(start, budget, &mut |report| reports.push(report.clone()), TierSpec::new())?;
    Ok(reports)
}

/// The files of a directory with their bytes, sorted by name.
fn files(directory: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(directory)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            (entry.file_name().to_string_lossy().into_owned(), std::fs::read(entry.path()).unwrap())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_tic_tac_toe_record_is_memoized_negamaxs_exact_value_and_checks() {
    let directory = scratch("tic-tac-toe");
    let database = Database::new(&TicTacToe, "tic-tac-toe", &directory);
    let reports = solve(&database, &Board::EMPTY, AMPLE).unwrap();
    assert_eq!(reports.iter().map(|report| report.positions).sum::<u64>(), 765);
    let mut memo = MemoNegamax::new(Mode::Exact);
    let mut records = 0;
    for tier in 0..=9u8 {
        let solution = database.load(&tier, &ByKey, None).unwrap();
        for (key, value) in solution.iter() {
            let board = TicTacToe.position_of_key(&key).unwrap();
            assert_eq!(value, memo.value(&TicTacToe, &board), "{board:?}");
            records += 1;
        }
    }
    assert_eq!(records, 765);
    assert_eq!(database.value(&mut TierFiles::default(), &Board::EMPTY).unwrap(), Some(Value::Draw));
    let report = database.check(&Board::EMPTY, &ByKey, &mut |_, _, _| {}).unwrap();
    assert_eq!((report.tiers, report.positions), (10, 765));
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    std::fs::remove_dir_all(&directory).unwrap();
}

/// Random positions of Connect Four on `game`'s board: random legal play from the empty board, stopped at a
/// random ply (finished positions included).
fn sampled_boards(game: &ConnectFour, count: usize, seed: u64) -> Vec<connect_four::Board> {
    let mut rng = seeded_rng(seed);
    (0..count)
        .map(|_| {
            let mut board = connect_four::Board::EMPTY;
            let stop = rng.gen_range(0..=game.cells());
            while board.stones() < stop && game.outcome(&board).is_none() {
                let moves = game.legal_moves(&board);
                board = game.play(&board, &moves[rng.gen_range(0..moves.len())]);
            }
            board
        })
        .collect()
}

#[test]
fn connect_four_records_match_alpha_beta_on_sampled_positions() {
    for (width, height, samples) in [(4, 4, 3_000), (5, 4, 3_000)] {
        let game = ConnectFour::new(width, height).unwrap();
        let directory = scratch(&format!("connect-four-{width}x{height}"));
        let database = Database::new(&game, format!("connect-four:width={width},height={height}"), &directory);
        let reports = solve(&database, &connect_four::Board::EMPTY, AMPLE).unwrap();
        assert_eq!(reports.len() as u32, game.cells() + 1);
        let mut files = TierFiles::default();
        let mut alpha_beta = AlphaBeta::new(Mode::Exact);
        for board in sampled_boards(&game, samples, u64::from(width)) {
            let stored = database.value(&mut files, &board).unwrap();
            assert_eq!(stored, Some(alpha_beta.value(&game, &board)), "{width} x {height}: {board:?}");
        }
        if width == 4 {
            let report = database.check(&connect_four::Board::EMPTY, &ByKey, &mut |_, _, _| {}).unwrap();
            assert!(report.problems.is_empty(), "{:?}", report.problems);
            assert_eq!(report.positions, reports.iter().map(|report| report.positions).sum::<u64>());
            // Within a budget below a tier and its children, the check stops before it reads that tier, with an
            // error naming the tier and --memory-mb (tier 0 and its child fit in one MiB; the middle tiers do not).
            let mut told = Vec::new();
            let refused = database.check_within(&connect_four::Board::EMPTY, &ByKey, 1, &mut |tier, _, _| {
                told.push(tier.to_string());
            });
            let Err(Error::Limit { what, setting: Some(Setting::MemoryMb), got, limit: 1, .. }) = refused else {
                panic!("{refused:?}")
            };
            assert!(got > 1 && told.len() > 1 && what.contains(&format!("tier {} ", told[told.len() - 1])), "{what}");
        }
        std::fs::remove_dir_all(&directory).unwrap();
    }
}

#[test]
fn dodgem_databases_keep_the_published_results_and_check() {
    // Winning Ways (Berlekamp, Conway, Guy): on 3 x 3 the first player wins; des Jardins (1996): 4 x 4 is a
    // draw.
    for (size, expected) in [(3, "win"), (4, "draw")] {
        let game = Dodgem::new(size).unwrap();
        let directory = scratch(&format!("dodgem-{size}"));
        let database = Database::new(&game, format!("dodgem:n={size}"), &directory);
        solve(&database, &game.start(), AMPLE).unwrap();
        let value = database.value(&mut TierFiles::default(), &game.start()).unwrap().unwrap();
        let kind = match value {
            Value::Win(_) => "win",
            Value::Lose(_) => "loss",
            Value::Draw => "draw",
        };
        assert_eq!(kind, expected, "{size} x {size}");
        let report = database.check(&game.start(), &ByKey, &mut |_, _, _| {}).unwrap();
        assert!(report.problems.is_empty(), "{:?}", report.problems);
        std::fs::remove_dir_all(&directory).unwrap();
    }
}

/// Rewrites tier `tier`'s file of `database` with `change` applied to its records (valid checksums: what a
/// wrong solver would write).
fn rewrite(database: &Database<'_, TicTacToe>, tier: u8, change: impl FnOnce(&mut Vec<(u32, Record)>)) {
    let path = database.tier_path(&tier).unwrap();
    let name = database.tier_name(&tier).unwrap();
    let mut file = TierFile::open(&path, &name).unwrap();
    let reached = file.header().reached.clone();
    let mut records: Vec<(u32, Record)> =
        file.read_all().unwrap().into_iter().map(|(key, record)| (key as u32, record)).collect();
    change(&mut records);
    write_tier(&path, &name, reached, records).unwrap();
}

/// A database engine over a tier file that is damaged or missing stops its search with the failure, and the
/// analyses and the query return it: no value stands in for one the file did not give.
#[test]
fn a_database_engine_over_a_damaged_or_missing_file_fails_in_its_search() {
    let directory = scratch("engine");
    let database = Database::new(&TicTacToe, "tic-tac-toe", &directory);
    solve(&database, &Board::EMPTY, AMPLE).unwrap();
    let path = database.tier_path(&1).unwrap();
    let pristine = std::fs::read(&path).unwrap();
    let solvable = Solvable::new(Playable::win_loss(TicTacToe, "tic-tac-toe".into()), Tiered(ByKey));
    assert_eq!(solvable.query(&directory, None, 9).unwrap().line.len(), 9, "a draw is played to the end");
    let corner = TicTacToe.play(&Board::EMPTY, &0);
    for damage in ["a flipped byte", "a missing file"] {
        if damage == "a missing file" {
            std::fs::remove_file(&path).unwrap();
        } else {
            let mut bytes = pristine.clone();
            let last = bytes.len() - 3;
            bytes[last] ^= 0x40;
            std::fs::write(&path, &bytes).unwrap();
        }
        let mut engine = StoredValues::new(Database::new(&TicTacToe, "tic-tac-toe", &directory));
        // The start's tier is whole: its value is read.
        assert_eq!(engine.search_within(&TicTacToe, &Board::EMPTY, u64::MAX).unwrap(), Value::Draw, "{damage}");
        let named = |error: &Error| error.to_string().contains(&path.display().to_string());
        match engine.search_within(&TicTacToe, &corner, u64::MAX) {
            Err(Stop::Failure(error)) => assert!(named(&error), "{damage}: {error}"),
            other => panic!("{damage}: the search of a position of the damaged tier gave {other:?}"),
        }
        let failures = [
            engine.try_value(&TicTacToe, &corner).err(),
            move_values(&mut engine, &TicTacToe, &Board::EMPTY).err(),
            principal_variation(&mut engine, &TicTacToe, &Board::EMPTY, 9).err(),
            solvable.query(&directory, None, 9).err(),
        ];
        for failure in failures {
            assert!(failure.as_ref().is_some_and(named), "{damage}: {failure:?}");
        }
        std::fs::write(&path, &pristine).unwrap();
    }
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn check_fails_on_damaged_databases() {
    let directory = scratch("damaged");
    let database = Database::new(&TicTacToe, "tic-tac-toe", &directory);
    solve(&database, &Board::EMPTY, AMPLE).unwrap();
    let pristine = files(&directory);
    let check = || database.check(&Board::EMPTY, &ByKey, &mut |_, _, _| {}).unwrap().problems;
    let restore = || {
        for (name, bytes) in &pristine {
            std::fs::write(directory.join(name), bytes).unwrap();
        }
    };
    assert!(check().is_empty());

    // A flipped byte in a block.
    let path = database.tier_path(&5).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 3;
    bytes[last] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let problems = check();
    assert!(problems.iter().any(|problem| problem.contains("checksum")), "{problems:?}");
    restore();

    // A flipped byte in a header: a resumed solve names that file and solves its tier again, to the same bytes.
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[20] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let reports = solve(&database, &Board::EMPTY, AMPLE).unwrap();
    let damaged: Vec<&str> = reports.iter().filter_map(|report| report.damaged.as_deref()).collect();
    assert!(damaged.len() == 1 && damaged[0].contains(&path.display().to_string()), "{damaged:?}");
    assert!(files(&directory) == pristine, "the tier solved again differs from the first solve");
    restore();

    // A wrong value with valid checksums: a won position stored as a draw.
    rewrite(&database, 6, |records| {
        let won = records.iter_mut().find(|(_, record)| matches!(record.value(), Some(Value::Win(_)))).unwrap();
        won.1 = Record::from_value(Value::Draw).unwrap();
    });
    let problems = check();
    assert!(problems.iter().any(|problem| problem.contains("stored as Draw")), "{problems:?}");
    // The problem names the file the record is in, and its tier.
    let tier_six = format!("{}: tier 6: ", database.tier_path(&6).unwrap().display());
    let named = |problem: &&String| problem.starts_with(&tier_six) && problem.contains("stored as Draw");
    assert!(problems.iter().any(|problem| named(&problem)), "{problems:?}");
    restore();

    // A wrong remoteness.
    rewrite(&database, 7, |records| {
        let lost = records.iter_mut().find(|(_, record)| matches!(record.value(), Some(Value::Lose(_)))).unwrap();
        let Some(Value::Lose(remoteness)) = lost.1.value() else { unreachable!() };
        lost.1 = Record::from_value(Value::Lose(remoteness + 2)).unwrap();
    });
    assert!(check().iter().any(|problem| problem.contains("stored as Lose")));
    restore();

    // A missing record.
    rewrite(&database, 8, |records| {
        records.remove(3);
    });
    assert!(check().iter().any(|problem| problem.contains("has no record")));
    restore();

    // A record of a position that no move reaches (three crosses, no nought: tier 3).
    rewrite(&database, 3, |records| {
        let unreachable = Board { crosses: 0b111, noughts: 0 };
        records.push((TicTacToe.canonical(&unreachable), Record::from_value(Value::LOST).unwrap()));
    });
    assert!(!check().is_empty());
    restore();

    // A missing tier.
    std::fs::remove_file(database.tier_path(&9).unwrap()).unwrap();
    assert!(check().iter().any(|problem| problem.contains("missing")));
    restore();

    assert!(check().is_empty());
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn a_stopped_solve_resumes_to_the_same_files() {
    let game = ConnectFour::new(4, 4).unwrap();
    let name = "connect-four:width=4,height=4";
    let whole = scratch("resume-whole");
    solve(&Database::new(&game, name, &whole), &connect_four::Board::EMPTY, AMPLE).unwrap();
    // What a solve killed after its ninth tier leaves: the tiers solved first (the fullest boards, 16 to 8
    // stones) and a half-written file of the next.
    let stopped = scratch("resume-stopped");
    let database = Database::new(&game, name, &stopped);
    std::fs::create_dir_all(&stopped).unwrap();
    for (file, bytes) in files(&whole) {
        std::fs::write(stopped.join(file), bytes).unwrap();
    }
    for stones in 0..8u8 {
        std::fs::remove_file(database.tier_path(&stones).unwrap()).unwrap();
    }
    let partial = stopped.join("tier-7.ludb.partial");
    std::fs::write(&partial, b"LUDUS-DB half").unwrap();
    let kept = 9;
    let resumed = solve(&database, &connect_four::Board::EMPTY, AMPLE).unwrap();
    assert_eq!(resumed.iter().filter(|report| report.resumed).count(), kept);
    assert_eq!(files(&stopped), files(&whole));
    std::fs::remove_dir_all(&whole).unwrap();
    std::fs::remove_dir_all(&stopped).unwrap();
}

#[test]
fn dodgem_by_rank_writes_the_hashed_files_byte_for_byte() {
    let game = Dodgem::new(4).unwrap();
    let name = "dodgem:n=4";
    let hashed = scratch("dodgem-hashed");
    solve(&Database::new(&game, name, &hashed), &game.start(), AMPLE).unwrap();
    let ranked = scratch("dodgem-ranked");
    let database = Database::new(&game, name, &ranked);
    let by_rank_indexing = ByRank::of(&game);
    let ranked_spec = || TierSpec::new().indexed(by_rank_indexing.clone());
    let mut reports = Vec::new();
    database.solve(&game.start(), AMPLE, &mut |report| reports.push(report.clone()), ranked_spec()).unwrap();
    assert_eq!(reports.iter().map(|report| report.positions).sum::<u64>(), 276_832);
    assert_eq!(files(&ranked), files(&hashed));
    // Resumed by rank after the tiers of fewer than four cars (the child tiers, loaded by rank).
    let mut removed = 0;
    for more in 0..=3u8 {
        for fewer in (0..=more).filter(|fewer| more + fewer >= 4) {
            std::fs::remove_file(database.tier_path(&(more, fewer)).unwrap()).unwrap();
            removed += 1;
        }
    }
    let mut resumed = Vec::new();
    database.solve(&game.start(), AMPLE, &mut |report| resumed.push(report.resumed), ranked_spec()).unwrap();
    assert_eq!(resumed.iter().filter(|&&resumed| !resumed).count(), removed);
    assert_eq!(files(&ranked), files(&hashed));
    let (dense, plain) =
        (database.load(&(2, 2), &by_rank_indexing, None).unwrap(), database.load(&(2, 2), &ByKey, None).unwrap());
    assert!(dense.is_ranked());
    assert_eq!((dense.len(), dense.counts()), (plain.len(), plain.counts()));
    // Checked by rank: the same report, on the whole database and on one without a tier.
    let by_rank = database.check(&game.start(), &by_rank_indexing, &mut |_, _, _| {}).unwrap();
    assert_eq!((by_rank.tiers, by_rank.positions), (9, 276_832));
    assert_eq!(by_rank, database.check(&game.start(), &ByKey, &mut |_, _, _| {}).unwrap());
    assert!(by_rank.problems.is_empty(), "{:?}", by_rank.problems);
    std::fs::remove_file(database.tier_path(&(3, 1)).unwrap()).unwrap();
    let by_rank = database.check(&game.start(), &by_rank_indexing, &mut |_, _, _| {}).unwrap();
    assert!(by_rank.problems.iter().any(|problem| problem.contains("missing")), "{:?}", by_rank.problems);
    assert_eq!(by_rank, database.check(&game.start(), &ByKey, &mut |_, _, _| {}).unwrap());
    std::fs::remove_dir_all(&hashed).unwrap();
    std::fs::remove_dir_all(&ranked).unwrap();
}

#[test]
fn a_memory_budget_too_small_is_a_clear_error() {
    let game = ConnectFour::new(4, 4).unwrap();
    let directory = scratch("memory");
    let database = Database::new(&game, "connect-four:width=4,height=4", &directory);
    let tiny = SolveBudget { memory_mb: 1, max_positions: u64::MAX, stop: None };
    let error = solve(&database, &connect_four::Board::EMPTY, tiny).unwrap_err();
    assert!(matches!(error, Error::Budget(Budget::MemoryMb(1))), "{error:?}");
    assert!(error.remedies().contains(&ludus_framework::Remedy::Raise(ludus_framework::Setting::MemoryMb)));
    std::fs::remove_dir_all(&directory).unwrap();
    // By rank, the same: Dodgem 5 x 5's first tier is refused before its arrays are made.
    let game = Dodgem::new(5).unwrap();
    let database = Database::new(&game, "dodgem:n=5", &directory);
    let small = SolveBudget { memory_mb: 64, max_positions: u64::MAX, stop: None };
    let by_rank = TierSpec::new().indexed(ByRank::of(&game));
    let error = database.solve(&game.start(), small, &mut |_| {}, by_rank).unwrap_err();
    assert!(matches!(error, Error::Budget(Budget::MemoryMb(64))), "{error:?}");
    std::fs::remove_dir_all(&directory).unwrap();
}
