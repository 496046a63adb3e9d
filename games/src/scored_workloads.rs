//! The benchmark workloads of the scored games (`ludus bench --filter scored`): Othello 4 x 4 and 5 x 5 by the
//! scored alpha-beta (keyed and packed tables) against the win/loss sweep it replaces (one solve per threshold,
//! and a bisection of thresholds), Kalah, Dots and Boxes 3 x 3, Pig by value iteration, Hog by expectimax, each hung off its game's
//! catalog entry; each asserts its value.

use crate::dots_and_boxes::{Board as BoxesBoard, DotsAndBoxes};
use crate::hog::Hog;
use crate::kalah::Kalah;
use crate::othello::{CompactOthello, Othello, Threshold};
use crate::pig::Pig;
use ludus_framework::engines::alpha_beta::AlphaBeta;
use ludus_framework::engines::scored::{Expectimax, ScoredAlphaBeta, ValueIteration};
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::plugin::{check_result, timed, Measurement, Work, Workload};
use ludus_framework::table::{mib, PackedTable};
use ludus_framework::{Result, Statistics, Stats};

/// A scored workload (`--filter scored`).
fn scored(name: &str, run: fn(usize) -> Result<Vec<Measurement>>) -> Workload {
    Workload { name: name.to_string(), group: "scored", work: Work::Engines(run) }
}

/// Othello's workloads: 4 x 4 and 5 x 5 from the start.
pub fn othello() -> Vec<Workload> {
    vec![
        scored("othello 4x4 from the start (White by 10)", othello_four),
        scored("othello 5x5 from the start (Black by 13)", othello_five),
    ]
}

/// Kalah's workload: Kalah(4, 3) and Kalah(5, 2) from the start.
pub fn kalah() -> Vec<Workload> {
    vec![scored("kalah(4,3) and kalah(5,2) from the start", kalah_runs)]
}

/// Dots and Boxes' workload: 3 x 3 boxes from the start.
pub fn dots_and_boxes() -> Vec<Workload> {
    vec![scored("dots-and-boxes 3x3 from the start (the second player's by 3)", dots_and_boxes_runs)]
}

/// Pig's workload: to 100 by value iteration.
pub fn pig() -> Vec<Workload> {
    vec![scored("pig to 100 (0.5306 for the first player, Neller and Presser)", pig_runs)]
}

/// Hog's workload: to 100 by expectimax.
pub fn hog() -> Vec<Workload> {
    vec![scored("hog to 100 with up to 10 dice", hog_runs)]
}

/// The scored alpha-beta, keyed and packed, and the two win/loss sweeps on Othello `size x size`.
fn othello_runs(size: u32, margin: i32) -> Result<Vec<Measurement>> {
    let game = Othello::new(size, true)?;
    let start = game.start();
    let what = format!("Black's margin is {margin}");
    let mut rows = Vec::new();
    let mut keyed = ScoredAlphaBeta::new(Mode::Exact);
    let (score, seconds) = timed(|| keyed.search(&game, &start));
    check_result(score? == margin, &what)?;
    rows.push(Measurement::new("scored alpha-beta (keyed)", seconds, keyed.stats(), margin.to_string()));
    let compact = CompactOthello::new(game.clone())?;
    let mut packed = ScoredAlphaBeta::with_table(Mode::Exact, PackedTable::with_budget(mib(64))?);
    let (score, seconds) = timed(|| packed.search(&compact, &start));
    check_result(score? == margin, &what)?;
    rows.push(Measurement::new(
        "scored alpha-beta (packed, compact keys)",
        seconds,
        packed.stats(),
        margin.to_string(),
    ));
    let mut signs = ScoredAlphaBeta::new(Mode::Outcome);
    let (sign, seconds) = timed(|| signs.search(&game, &start));
    check_result(sign? == margin.signum(), "the winner")?;
    rows.push(Measurement::new("scored alpha-beta, win/loss only (window around 0)", seconds, signs.stats(), "sign"));
    // What a user of the win/loss engines does: one solve of "does Black get at least k?" per threshold k.
    let cells = (size * size) as i32;
    let ((found, stats), seconds) = timed(|| sweep(&game, -cells..=cells));
    check_result(found == margin, &what)?;
    rows.push(Measurement::new(
        format!("win/loss alpha-beta, {} thresholds", 2 * cells + 1),
        seconds,
        stats,
        margin.to_string(),
    ));
    let ((found, stats, solves), seconds) = timed(|| bisection(&game, -cells, cells));
    check_result(found == margin, &what)?;
    rows.push(Measurement::new(
        format!("win/loss alpha-beta, bisection ({solves} solves)"),
        seconds,
        stats,
        margin.to_string(),
    ));
    Ok(rows)
}

/// Whether Black reaches `threshold`, by a fresh win/loss engine (the values of one threshold do not serve
/// another).
fn reaches(game: &Othello, threshold: i32, stats: &mut Stats) -> bool {
    let mut engine = AlphaBeta::new(Mode::Outcome);
    let value = engine.value(&Threshold { game, threshold }, &game.start());
    stats.add(&engine.stats());
    value.is_win()
}

/// The largest threshold Black reaches, trying every one.
fn sweep(game: &Othello, thresholds: std::ops::RangeInclusive<i32>) -> (i32, Stats) {
    let mut stats = Stats::default();
    let reached: Vec<i32> = thresholds.filter(|&threshold| reaches(game, threshold, &mut stats)).collect();
    (reached.into_iter().max().unwrap_or(i32::MIN), stats)
}

/// The largest threshold Black reaches, by bisection of `low..=high` (Black reaches `low`).
fn bisection(game: &Othello, mut low: i32, mut high: i32) -> (i32, Stats, u32) {
    let (mut stats, mut solves) = (Stats::default(), 0);
    while low < high {
        let test = low + (high - low + 1) / 2;
        solves += 1;
        if reaches(game, test, &mut stats) {
            low = test;
        } else {
            high = test - 1;
        }
    }
    (low, stats, solves)
}

fn othello_four(_threads: usize) -> Result<Vec<Measurement>> {
    othello_runs(4, -10)
}

fn othello_five(_threads: usize) -> Result<Vec<Measurement>> {
    othello_runs(5, 13)
}

/// Kalah(4, 3) and Kalah(5, 2): South by 6 and by 2 (computed here; the tests check them against every
/// threshold and, for the small variants, plain minimax).
fn kalah_runs(_threads: usize) -> Result<Vec<Measurement>> {
    let mut rows = Vec::new();
    for (pits, seeds, margin) in [(4, 3, 6), (5, 2, 2)] {
        let game = Kalah::new(pits, seeds)?;
        let mut engine = ScoredAlphaBeta::new(Mode::Exact);
        let (score, seconds) = timed(|| engine.search(&game, &game.start()));
        check_result(score? == margin, &format!("Kalah({pits}, {seeds}) is South's by {margin}"))?;
        rows.push(Measurement::new(
            format!("scored alpha-beta, kalah({pits},{seeds})"),
            seconds,
            engine.stats(),
            margin.to_string(),
        ));
    }
    Ok(rows)
}

/// Dots and Boxes on 3 x 3 boxes: the second player's by 3 (computed here, and by the board's whole-game
/// database, 3,286,977 positions, which finds the same; the tests check every board up to 2 x 3 boxes against a
/// brute force).
fn dots_and_boxes_runs(_threads: usize) -> Result<Vec<Measurement>> {
    let game = DotsAndBoxes::new(3, 3)?;
    let mut engine = ScoredAlphaBeta::new(Mode::Exact);
    let (score, seconds) = timed(|| engine.search(&game, &BoxesBoard::START));
    check_result(score? == -3, "3 x 3 boxes are the second player's by 3")?;
    Ok(vec![Measurement::new("scored alpha-beta, dots-and-boxes 3x3", seconds, engine.stats(), "-3")])
}

fn pig_runs(_threads: usize) -> Result<Vec<Measurement>> {
    let game = Pig::new(100)?;
    let (solved, seconds) = timed(|| ValueIteration::default().solve(&game, &game.start()));
    let solved = solved?;
    let probability = solved.value(&game, &game.start()).map_or(0.0, |value| (1.0 + value) / 2.0);
    check_result((probability - 0.5306).abs() < 5e-5, "the first player wins Pig to 100 with 0.5306")?;
    let stats = Stats { visited: solved.positions() as u64, table_entries: solved.positions() as u64, hits: 0 };
    let note = format!("{probability:.10}, {} sweeps", solved.sweeps);
    Ok(vec![Measurement::new("value iteration", seconds, stats, note)])
}

fn hog_runs(_threads: usize) -> Result<Vec<Measurement>> {
    let game = Hog::new(100, 10)?;
    let mut engine = Expectimax::default();
    let (found, seconds) = timed(|| engine.try_value(&game, &game.start()));
    let probability = (1.0 + found?.value) / 2.0;
    check_result((0.5..0.6).contains(&probability), "the first player of Hog is favoured, a little")?;
    Ok(vec![Measurement::new("expectimax (Star1)", seconds, engine.stats(), format!("{probability:.10}"))])
}
