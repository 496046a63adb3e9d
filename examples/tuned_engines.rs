//! Measures whether the two tuned alpha-beta engines could be one: the win/loss [`AlphaBeta`] (values with
//! remoteness) and the scored [`ScoredAlphaBeta`] (integer scores), both in their outcome (weak solve) mode and
//! over packed tables of the same budget, on the same Connect Four positions. The scored engine searches
//! [`AsScored`], which presents any win/loss game as a scored one (+1 won, 0 drawn, -1 lost for the player to
//! move) with the inner game's keys and hints, so both engines see the same keys and the same move ordering.
//!
//! Every position's outcome must agree between the engines (and with the score a set file gives); the program
//! prints, per engine and workload, the positions searched and the best wall time of three runs, and the ratios.
//!
//! ```sh
//! cargo run --release --example tuned_engines
//! # One engine, one run, on an empty board (default 5 x 4), for instruction counts:
//! valgrind --tool=callgrind target/release/examples/tuned_engines --only winloss
//! valgrind --tool=callgrind target/release/examples/tuned_engines --only scored 6 4
//! ```

use anyhow::{anyhow, bail, ensure, Context, Result};
use ludus_framework::engines::alpha_beta::AlphaBeta;
use ludus_framework::engines::scored::ScoredAlphaBeta;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::scored::{Deterministic, ScoreKind, ScoredGame};
use ludus_framework::table::{mib, PackedTable};
use ludus_framework::{Canonicalize, Game, Outcome, Proven, Rules, SearchHints, Shortcut, Statistics, Value};
use ludus_games::connect_four::{Board, ConnectFour};
use std::cmp::Ordering;
use std::time::Instant;

/// The table budget of both engines, in MiB (the CLI's default for Connect Four).
const TABLE_MB: usize = 64;
/// Runs per engine and workload; the best time counts.
const RUNS: usize = 3;
/// The empty boards measured (width, height).
const EMPTY_BOARDS: [(u32, u32); 6] = [(5, 4), (6, 4), (5, 5), (7, 4), (6, 5), (7, 5)];
/// The bundled Pons-style sets measured (lines `MOVES SCORE`, 7 x 6).
const SETS: [(&str, &str); 4] = [
    ("middle-easy", include_str!("../benches/data/connect-four/middle-easy.txt")),
    ("middle-medium", include_str!("../benches/data/connect-four/middle-medium.txt")),
    ("begin-easy", include_str!("../benches/data/connect-four/begin-easy.txt")),
    ("begin-medium", include_str!("../benches/data/connect-four/begin-medium.txt")),
];

/// A win/loss game seen as a scored game whose score is the outcome only: +1 won, 0 drawn, -1 lost for the
/// player to move. Keys and hints are the inner game's (a shortcut's or a range's value mapped to its sign).
struct AsScored<G>(G);

/// The score of a win/loss value: its sign.
fn sign_score<V: Outcome>(value: V) -> i32 {
    match value.sign() {
        Ordering::Greater => 1,
        Ordering::Equal => 0,
        Ordering::Less => -1,
    }
}

impl<G: Game> Rules for AsScored<G> {
    type Position = G::Position;
    type Move = G::Move;
    type Outcome = i32;
    const POSITIONS_REPEAT: bool = G::POSITIONS_REPEAT;

    fn moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>) {
        self.0.moves(position, moves);
    }
    fn play(&self, position: &Self::Position, mv: &Self::Move) -> Self::Position {
        self.0.play(position, mv)
    }
    fn outcome(&self, position: &Self::Position) -> Option<i32> {
        self.0.outcome(position).map(sign_score)
    }
    fn is_legal(&self, position: &Self::Position, mv: &Self::Move) -> bool {
        self.0.is_legal(position, mv)
    }
}

impl<G: Game> ScoredGame for AsScored<G> {
    const SCORES: ScoreKind = ScoreKind::WinLoss;
}
impl<G: Game> Deterministic for AsScored<G> {}

impl<G: Game + Canonicalize> Canonicalize for AsScored<G> {
    type Key = G::Key;
    fn canonical(&self, position: &Self::Position) -> G::Key {
        self.0.canonical(position)
    }
}

/// A shortcut's value as a score: exact, as the score is the outcome only (an open remoteness does not matter).
fn scored_shortcut(shortcut: Shortcut<Value>) -> Shortcut<i32> {
    Shortcut::Exact(sign_score(shortcut.value()))
}

impl<G: Game + SearchHints> SearchHints for AsScored<G> {
    fn shortcut(&self, position: &Self::Position) -> Option<Shortcut<i32>> {
        self.0.shortcut(position).map(scored_shortcut)
    }
    fn value_range(&self, position: &Self::Position) -> (i32, i32) {
        let (worst, best) = self.0.value_range(position);
        (sign_score(worst), sign_score(best))
    }
    fn proven(&self, position: &Self::Position) -> Proven<i32> {
        match self.0.proven(position) {
            Proven::Shortcut(shortcut) => Proven::Shortcut(scored_shortcut(shortcut)),
            Proven::Range(worst, best) => Proven::Range(sign_score(worst), sign_score(best)),
        }
    }
    fn shortcuts_catch_game_ends(&self) -> bool {
        self.0.shortcuts_catch_game_ends()
    }
    fn estimate(&self, position: &Self::Position) -> Option<i32> {
        self.0.estimate(position).map(sign_score)
    }
    fn prune_moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>) {
        self.0.prune_moves(position, moves);
    }
    fn move_score(&self, position: &Self::Position, mv: &Self::Move) -> i32 {
        self.0.move_score(position, mv)
    }
    fn history_slot(&self, position: &Self::Position, mv: &Self::Move) -> Option<usize> {
        self.0.history_slot(position, mv)
    }
    fn search_moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>, scores: &mut Vec<i32>) {
        self.0.search_moves(position, moves, scores);
    }
}

/// Positions of one board size, each with the score its set claims (if any).
struct Workload {
    name: String,
    game: ConnectFour,
    positions: Vec<(Board, Option<i32>)>,
}

/// The empty `width x height` board.
fn empty_board(width: u32, height: u32) -> Result<Workload> {
    let game = ConnectFour::new(width, height)?;
    Ok(Workload { name: format!("{width}x{height} empty"), game, positions: vec![(Board::default(), None)] })
}

/// A bundled 7 x 6 set.
fn set(name: &str, text: &str) -> Result<Workload> {
    let game = ConnectFour::standard();
    let mut positions = Vec::new();
    for line in text.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#')) {
        let mut fields = line.split_whitespace();
        let moves = fields.next().unwrap_or_default().trim_start_matches('-');
        let board = game.parse_moves(moves).map_err(|error| anyhow!("{name}: `{line}`: {}", error.reason))?;
        let score = fields.next().map(str::parse::<i32>).transpose().with_context(|| format!("{name}: `{line}`"))?;
        positions.push((board, score));
    }
    Ok(Workload { name: format!("{name} ({})", positions.len()), game, positions })
}

/// One run of one engine over a workload: the signs found, positions searched, seconds.
struct Run {
    signs: Vec<i32>,
    visited: u64,
    seconds: f64,
}

fn table() -> Result<PackedTable> {
    Ok(PackedTable::with_budget(mib(TABLE_MB))?)
}

/// The win/loss engine in outcome mode, one table for the whole workload (made before the clock starts).
fn run_winloss(workload: &Workload) -> Result<Run> {
    let mut engine = AlphaBeta::with_table(Mode::Outcome, table()?);
    let start = Instant::now();
    let signs = workload.positions.iter().map(|(board, _)| sign_score(engine.value(&workload.game, board))).collect();
    Ok(Run { signs, visited: engine.stats().visited, seconds: start.elapsed().as_secs_f64() })
}

/// The scored engine in outcome mode over [`AsScored`], likewise.
fn run_scored(workload: &Workload) -> Result<Run> {
    let game = AsScored(workload.game);
    let mut engine = ScoredAlphaBeta::with_table(Mode::Outcome, table()?);
    let start = Instant::now();
    let signs = workload.positions.iter().map(|(board, _)| engine.search(&game, board)).collect::<Result<_, _>>()?;
    Ok(Run { signs, visited: engine.stats().visited, seconds: start.elapsed().as_secs_f64() })
}

/// The best of `RUNS` runs (every run must find the same signs and search as many positions).
fn best_of(workload: &Workload, run: fn(&Workload) -> Result<Run>) -> Result<Run> {
    let mut best = run(workload)?;
    for _ in 1..RUNS {
        let next = run(workload)?;
        ensure!(next.signs == best.signs && next.visited == best.visited, "{}: runs differ", workload.name);
        best.seconds = best.seconds.min(next.seconds);
    }
    Ok(best)
}

fn main() -> Result<()> {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    match arguments.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [] => {}
        ["--only", engine, ref size @ ..] if size.len() != 1 => {
            let (width, height) = match size {
                [width, height] => (width.parse().context("WIDTH")?, height.parse().context("HEIGHT")?),
                _ => (5, 4),
            };
            let workload = empty_board(width, height)?;
            let run = match engine {
                "winloss" => run_winloss(&workload)?,
                "scored" => run_scored(&workload)?,
                _ => bail!("--only takes `winloss` or `scored`, not `{engine}`"),
            };
            println!("{engine} on {}: signs {:?}, {} positions searched", workload.name, run.signs, run.visited);
            return Ok(());
        }
        _ => bail!("usage: tuned_engines [--only winloss|scored [WIDTH HEIGHT]]"),
    }
    let mut workloads =
        EMPTY_BOARDS.iter().map(|&(width, height)| empty_board(width, height)).collect::<Result<Vec<_>>>()?;
    for (name, text) in SETS {
        workloads.push(set(name, text)?);
    }
    println!("outcome mode, {TABLE_MB} MiB packed tables, best of {RUNS} runs");
    println!(
        "{:<22} {:>14} {:>10} {:>14} {:>10} {:>8} {:>8}",
        "workload", "win/loss pos", "ms", "scored pos", "ms", "pos x", "time x"
    );
    let mut totals = [0.0f64; 2];
    for workload in &workloads {
        let winloss = best_of(workload, run_winloss)?;
        let scored = best_of(workload, run_scored)?;
        for (index, (board, claimed)) in workload.positions.iter().enumerate() {
            let (left, right) = (winloss.signs.get(index), scored.signs.get(index));
            ensure!(left == right, "{}: the engines disagree on {board:?}: {left:?} vs {right:?}", workload.name);
            if let (Some(claimed), Some(&found)) = (claimed, left) {
                ensure!(claimed.signum() == found, "{}: {board:?} scores {claimed}, found {found}", workload.name);
            }
        }
        totals[0] += winloss.seconds;
        totals[1] += scored.seconds;
        println!(
            "{:<22} {:>14} {:>10.1} {:>14} {:>10.1} {:>8.2} {:>8.2}",
            workload.name,
            winloss.visited,
            winloss.seconds * 1e3,
            scored.visited,
            scored.seconds * 1e3,
            scored.visited as f64 / winloss.visited.max(1) as f64,
            scored.seconds / winloss.seconds.max(1e-9),
        );
    }
    println!("total: win/loss {:.2} s, scored {:.2} s (x{:.2})", totals[0], totals[1], totals[1] / totals[0].max(1e-9));
    Ok(())
}
