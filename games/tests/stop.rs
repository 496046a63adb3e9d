//! A stop asked for through an analysis' progress handle (what the Python module does on Ctrl-C) ends every
//! engine that reports progress within a step of 65,536 positions, as its position budget would: win/loss
//! alpha-beta, the scored alpha-beta, expectimax, value iteration and the retrograde engine, each on a game whose
//! analysis takes far longer than a step.

#![allow(clippy::unwrap_used)] // a failed scratch directory should fail the test loudly

use ludus_framework::database::SolveBudget;
use ludus_framework::engines::alpha_beta::ProgressHandle;
use ludus_framework::playable::{AnalysisOptions, Registration};
use ludus_framework::{Budget, Error};

/// The analysis of `spec`'s start with a stop asked for before it begins.
fn stopped(registration: &Registration, spec: &str) -> Result<(), Error> {
    let game = registration.make(spec)?.playable;
    let progress = ProgressHandle::default();
    progress.0.request_stop();
    let options = AnalysisOptions { progress: Some(progress), ..AnalysisOptions::default() };
    game.analyze(None, &options).map(|_| ())
}

#[test]
fn a_stop_ends_every_engine_that_reports_progress() {
    for (registration, spec) in [
        (&ludus_games::registry::CONNECT_FOUR, "connect-four"),
        (&ludus_games::registry::OTHELLO, "othello:size=6"),
        (&ludus_games::registry::HOG, "hog:goal=300,dice=20"),
        (&ludus_games::registry::PIG, "pig:goal=200"),
        (&ludus_games::registry::DODGEM, "dodgem:n=4"),
    ] {
        // No position budget is set: only the stop can end these with one.
        let outcome = stopped(registration, spec);
        assert!(matches!(outcome, Err(Error::Budget(Budget::Positions(_)))), "{spec}: {outcome:?}");
    }
}

#[test]
fn without_a_stop_the_same_analysis_gives_its_value() {
    let game = ludus_games::registry::TIC_TAC_TOE.make("tic-tac-toe").map(|made| made.playable);
    let options = AnalysisOptions { progress: Some(ProgressHandle::default()), ..AnalysisOptions::default() };
    let analysis = game.and_then(|game| game.analyze(None, &options));
    assert!(analysis.is_ok_and(|analysis| analysis.line.len() == 9));
}

#[test]
fn a_stopped_database_solve_keeps_its_tiers_and_resumes() {
    let directory = std::env::temp_dir().join(format!("ludus-stopped-solve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    let made = ludus_games::registry::CONNECT_FOUR.make("connect-four:width=4,height=4");
    let database = made.ok().and_then(|made| made.database).expect("Connect Four has a database");
    let stop = ProgressHandle::default();
    stop.0.request_stop();
    let budget = SolveBudget { memory_mb: 1024, max_positions: u64::MAX, stop: Some(stop) };
    let mut written = Vec::new();
    let stopped = database.solve(&directory, budget, &mut |report| written.push(report.tier.clone()));
    assert!(matches!(stopped, Err(Error::Stopped)), "{stopped:?}");
    // At most the tier under way was written; the second solve finds it on disk and does the rest.
    assert!(written.len() <= 1, "{written:?}");
    let mut resumed = Vec::new();
    let budget = SolveBudget { memory_mb: 1024, max_positions: u64::MAX, stop: None };
    database.solve(&directory, budget, &mut |report| resumed.push((report.tier.clone(), report.resumed))).unwrap();
    assert!(resumed.iter().filter(|(_, on_disk)| *on_disk).map(|(tier, _)| tier).eq(written.iter()));
    let start = database.query(&directory, None, 1).unwrap();
    assert_eq!(format!("{:?}", start.value), "Outcome(Draw)");
    std::fs::remove_dir_all(&directory).unwrap();
}
