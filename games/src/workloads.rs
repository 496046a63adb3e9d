//! The benchmark workloads of this crate's games, which `ludus bench` runs, each hung off its game's catalog
//! entry ([`crate::CATALOG`]): the engines on the classic games (tic-tac-toe, Kayles) and on a small Connect Four
//! board, and the Connect Four sets like Pascal Pons' six, each timed on the result it asserts.

use crate::classic::{Board, Kayles, TicTacToe};
use crate::connect_four::{self, ConnectFour};
use ludus_framework::engines::alpha_beta::AlphaBeta;
use ludus_framework::engines::grundy::GrundyEngine;
use ludus_framework::engines::negamax::{MemoNegamax, PlainNegamax};
use ludus_framework::engines::parallel::{ParallelGrundy, ParallelNegamax};
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::plugin::{
    check_result, thread_count, timed, with_threads, Measurement, Reference, SolverRun, Work, Workload, WorkloadThreads,
};
use ludus_framework::{Result, Statistics, Value};

/// The Connect Four "end-easy" benchmark positions (Pascal Pons' public test set), bundled.
const END_EASY: &str = include_str!("../../samples/connect-four/end-easy.txt");

/// Connect Four sets like Pons' six (End-Easy is his; the others are generated and rated the same way by
/// `examples/connect_four_sets.rs`), with Pons' mean nodes per position (his solver, no opening book).
const CONNECT_FOUR_SETS: [(&str, &str, u64); 6] = [
    ("end-easy", END_EASY, 51),
    ("middle-easy", include_str!("../../benches/data/connect-four/middle-easy.txt"), 450),
    ("middle-medium", include_str!("../../benches/data/connect-four/middle-medium.txt"), 39_900),
    ("begin-easy", include_str!("../../benches/data/connect-four/begin-easy.txt"), 3_298),
    ("begin-medium", include_str!("../../benches/data/connect-four/begin-medium.txt"), 1_200_000),
    ("begin-hard", include_str!("../../benches/data/connect-four/begin-hard.txt"), 65_900_000),
];

/// Tic-tac-toe's workloads: the negamax engines from the empty board.
pub fn tic_tac_toe() -> Vec<Workload> {
    vec![engines("tic-tac-toe (empty board, exact)", tic_tac_toe_engines)]
}

/// The octal games' workloads: Kayles' nimbers by both Grundy engines.
pub fn octal() -> Vec<Workload> {
    vec![engines("Kayles nimbers G(0..=2000)", kayles)]
}

/// Connect Four's workloads: the weak solve of 5 x 4, the sets like Pons' six by the plugin's solvers, and every
/// solver on End-Easy.
pub fn connect_four() -> Vec<Workload> {
    let mut workloads = vec![engines("connect-four 5x4 weak solve (draw)", connect_four_weak_solve)];
    for (name, text, pons_nodes) in CONNECT_FOUR_SETS {
        workloads.push(Workload {
            name: format!("connect-four {name} ({} positions)", text.lines().count()),
            group: "connect-four sets",
            work: Work::Answers {
                plugin: "connect-four",
                input: moves_of(text),
                expected: text.lines().map(str::to_string).collect(),
                runs: vec![
                    SolverRun { solver: "fast", threads: WorkloadThreads::One },
                    SolverRun { solver: "parallel", threads: WorkloadThreads::Chosen },
                ],
                reference: Some(Reference { source: "Pons", mean: pons_nodes, unit: "nodes" }),
            },
        });
    }
    workloads.push(Workload {
        name: format!("connect-four (end-easy, {} positions)", END_EASY.lines().count()),
        group: "connect-four",
        work: Work::Solvers { plugin: "connect-four", input: END_EASY.to_string() },
    });
    workloads
}

fn engines(name: &str, run: fn(usize) -> Result<Vec<Measurement>>) -> Workload {
    Workload { name: name.to_string(), group: "classic", work: Work::Engines(run) }
}

/// The positions of a set (`MOVES SCORE` a line) without their scores: the plugin's input.
fn moves_of(set: &str) -> String {
    set.lines().filter_map(|line| line.split_whitespace().next()).map(|moves| format!("{moves}\n")).collect()
}

/// Tic-tac-toe from the empty board, exactly: a draw.
fn tic_tac_toe_engines(threads: usize) -> Result<Vec<Measurement>> {
    let mut rows = Vec::new();
    let mut plain = PlainNegamax::new(Mode::Exact);
    let (value, seconds) = timed(|| plain.value(&TicTacToe, &Board::EMPTY));
    check_result(value == Value::Draw, "tic-tac-toe is a draw")?;
    rows.push(Measurement::new("plain negamax", seconds, plain.stats(), "draw"));
    let mut memo = MemoNegamax::new(Mode::Exact);
    let (value, seconds) = timed(|| memo.value(&TicTacToe, &Board::EMPTY));
    check_result(value == Value::Draw, "tic-tac-toe is a draw")?;
    rows.push(Measurement::new("memo negamax", seconds, memo.stats(), "draw"));
    let parallel = ParallelNegamax::new(Mode::Exact, 2);
    let (value, seconds) = timed(|| with_threads(threads, || parallel.evaluate(&TicTacToe, &Board::EMPTY)));
    check_result(value? == Value::Draw, "tic-tac-toe is a draw")?;
    rows.push(Measurement::new("parallel negamax", seconds, parallel.stats(), "draw"));
    Ok(rows)
}

/// Kayles' nimbers up to 2,000 pins, periodic with period 12 from 71 on, by both Grundy engines.
fn kayles(threads: usize) -> Result<Vec<Measurement>> {
    let mut grundy = GrundyEngine::new();
    let (values, seconds) = timed(|| (0..=2000u32).map(|pins| grundy.nimber(&Kayles, &pins)).collect::<Vec<_>>());
    check_result((71..=1988).all(|n| values[n] == values[n + 12]), "Kayles has period 12 from 71")?;
    let mut rows = vec![Measurement::new("grundy", seconds, grundy.stats(), "period 12 from 71")];
    let parallel = ParallelGrundy::new();
    let waves: Vec<Vec<u32>> = (0..=2000u32).map(|pins| vec![pins]).collect();
    let (done, seconds) = timed(|| with_threads(threads, || parallel.precompute(&Kayles, &waves)));
    done?;
    let agrees = (0..=2000u32).all(|n| parallel.nimber(&Kayles, &n) == values[n as usize]);
    check_result(agrees, "parallel Grundy agrees")?;
    rows.push(Measurement::new("parallel grundy", seconds, parallel.stats(), "agrees"));
    Ok(rows)
}

/// Weak solve (win/draw/loss) of Connect Four 5 x 4 from the empty board: a draw.
fn connect_four_weak_solve(threads: usize) -> Result<Vec<Measurement>> {
    let game = ConnectFour::new(5, 4)?;
    let start = connect_four::Board::default();
    let mut rows = Vec::new();
    let mut memo = MemoNegamax::new(Mode::Outcome);
    let (value, seconds) = timed(|| memo.value(&game, &start));
    check_result(value == Value::Draw, "Connect Four 5 x 4 is a draw")?;
    rows.push(Measurement::new("memo negamax", seconds, memo.stats(), "draw"));
    for workers in [1, thread_count(threads)] {
        let parallel = ParallelNegamax::new(Mode::Outcome, 6);
        let (value, seconds) = timed(|| with_threads(workers, || parallel.evaluate(&game, &start)));
        check_result(value? == Value::Draw, "Connect Four 5 x 4 is a draw")?;
        rows.push(Measurement::new(format!("parallel negamax {workers}t"), seconds, parallel.stats(), "draw"));
    }
    let mut alpha_beta = AlphaBeta::new(Mode::Outcome);
    let (value, seconds) = timed(|| alpha_beta.value(&game, &start));
    check_result(value.outcome() == Value::Draw, "Connect Four 5 x 4 is a draw")?;
    rows.push(Measurement::new("alpha-beta", seconds, alpha_beta.stats(), "draw"));
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_set_is_a_workload_with_its_answers_and_pons_figure() {
        let workloads = connect_four();
        let sets: Vec<&Workload> = workloads.iter().filter(|workload| workload.group == "connect-four sets").collect();
        assert_eq!(sets.len(), 6);
        let Work::Answers { input, expected, reference, .. } = &sets[0].work else { panic!("not a set") };
        assert_eq!(sets[0].name, "connect-four end-easy (1000 positions)");
        assert_eq!((input.lines().count(), expected.len()), (1000, 1000));
        assert!(expected[0].starts_with(input.lines().next().unwrap_or_default()));
        assert_eq!(reference.map(|figure| figure.mean), Some(51));
    }
}
