//! Engines side by side on the same workloads, each solving to the end and asserting the value it computes:
//! tic-tac-toe from the empty board and a subset of the Connect Four End-Easy positions, with Ludus'
//! `PlainNegamax` (where affordable), `MemoNegamax` and `AlphaBeta` (exact mode), and the `minimax` crate's
//! `Negamax` (alpha-beta without a table, searched to the full depth) through a small adapter of the same games.

use criterion::{criterion_main, Criterion};
use ludus_framework::engines::alpha_beta::AlphaBeta;
use ludus_framework::engines::negamax::{MemoNegamax, PlainNegamax};
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::hints::NoHints;
use ludus_framework::{Game, Value};
use ludus_games::classic::{self, TicTacToe};
use ludus_games::connect_four::{Board, ConnectFour};
use minimax::Strategy;
use std::marker::PhantomData;

const END_EASY: &str = include_str!("../samples/connect-four/end-easy.txt");
/// How many End-Easy positions the Connect Four workload takes (the first ones of the file).
const END_EASY_SUBSET: usize = 50;

/// A state of a Ludus game for the `minimax` crate: the game (it carries its parameters) and a position.
#[derive(Clone)]
struct Node<Ruleset: Game> {
    game: Ruleset,
    position: Ruleset::Position,
}

/// The `minimax` crate's view of a Ludus game.
struct Adapter<Ruleset>(PhantomData<Ruleset>);

fn winner<Ruleset: Game>(node: &Node<Ruleset>) -> Option<minimax::Winner> {
    match node.game.outcome(&node.position) {
        Some(Value::Win(_)) => Some(minimax::Winner::PlayerToMove),
        Some(Value::Lose(_)) => Some(minimax::Winner::PlayerJustMoved),
        Some(Value::Draw) => Some(minimax::Winner::Draw),
        None => None,
    }
}

impl<Ruleset: Game + Clone> minimax::Game for Adapter<Ruleset>
where
    Ruleset::Move: Copy,
{
    type S = Node<Ruleset>;
    type M = Ruleset::Move;

    fn generate_moves(node: &Node<Ruleset>, moves: &mut Vec<Ruleset::Move>) -> Option<minimax::Winner> {
        if let Some(result) = winner(node) {
            return Some(result);
        }
        node.game.moves(&node.position, moves);
        // No outcome and no moves: lost for the player to move (the framework's normal-play rule).
        moves.is_empty().then_some(minimax::Winner::PlayerJustMoved)
    }

    fn apply(node: &mut Node<Ruleset>, mv: Ruleset::Move) -> Option<Node<Ruleset>> {
        Some(Node { game: node.game.clone(), position: node.game.play(&node.position, &mv) })
    }

    fn get_winner(node: &Node<Ruleset>) -> Option<minimax::Winner> {
        winner(node)
    }
}

/// No heuristic: every search here goes to the end of the game, so the evaluator is never asked.
struct Exact<Ruleset>(PhantomData<Ruleset>);

impl<Ruleset: Game + Clone> minimax::Evaluator for Exact<Ruleset>
where
    Ruleset::Move: Copy,
{
    type G = Adapter<Ruleset>;

    fn evaluate(&self, _node: &Node<Ruleset>) -> minimax::Evaluation {
        0
    }
}

/// The `minimax` crate's outcome of a position: 1 win, 0 draw, -1 loss for the player to move.
fn minimax_outcome<Ruleset: Game + Clone>(game: &Ruleset, position: &Ruleset::Position, depth: u8) -> i32
where
    Ruleset::Move: Copy,
{
    let mut strategy = minimax::Negamax::new(Exact::<Ruleset>(PhantomData), depth);
    let node = Node { game: game.clone(), position: position.clone() };
    if strategy.choose_move(&node).is_none() {
        return winner(&node).map_or(-1, |result| result.evaluate().signum().into());
    }
    i32::from(strategy.root_value().signum())
}

fn tic_tac_toe(criterion: &mut Criterion) {
    let game = TicTacToe;
    let start = classic::Board::EMPTY;
    let mut group = criterion.benchmark_group("tic-tac-toe from the empty board");
    group.sample_size(10);
    group.bench_function("PlainNegamax", |bencher| {
        bencher.iter(|| assert_eq!(PlainNegamax::new(Mode::Exact).value(&game, &start), Value::Draw))
    });
    group.bench_function("MemoNegamax", |bencher| {
        bencher.iter(|| assert_eq!(MemoNegamax::new(Mode::Exact).value(&game, &start), Value::Draw))
    });
    group.bench_function("AlphaBeta", |bencher| {
        bencher.iter(|| assert_eq!(AlphaBeta::new(Mode::Exact).value(&game, &start), Value::Draw))
    });
    group.bench_function("minimax::Negamax", |bencher| {
        bencher.iter(|| assert_eq!(minimax_outcome(&game, &start, 9), 0))
    });
    group.finish();
}

/// The first End-Easy positions with their scores.
fn end_easy_subset(game: &ConnectFour) -> Vec<(Board, i32)> {
    END_EASY
        .lines()
        .take(END_EASY_SUBSET)
        .filter_map(|line| {
            let (moves, score) = line.split_once(' ')?;
            Some((game.parse_moves(moves).ok()?, score.parse().ok()?))
        })
        .collect()
}

fn connect_four(criterion: &mut Criterion) {
    let game = ConnectFour::standard();
    let positions = end_easy_subset(&game);
    assert_eq!(positions.len(), END_EASY_SUBSET);
    let few_empty: Vec<(Board, i32)> =
        positions.iter().copied().filter(|(board, _)| game.empty_cells(board) <= 9).collect();
    let mut group = criterion.benchmark_group(format!("connect-four first {END_EASY_SUBSET} end-easy positions"));
    group.sample_size(10);
    group.bench_function("MemoNegamax", |bencher| {
        bencher.iter(|| {
            let mut engine = MemoNegamax::new(Mode::Exact);
            for (board, score) in &positions {
                assert_eq!(game.score(board, engine.value(&game, board)), *score);
            }
        })
    });
    group.bench_function("AlphaBeta (no hints)", |bencher| {
        bencher.iter(|| {
            let mut engine = AlphaBeta::new(Mode::Exact);
            for (board, score) in &positions {
                assert_eq!(game.score(board, engine.value(&NoHints(&game), board)), *score);
            }
        })
    });
    group.bench_function("AlphaBeta (the game's hints)", |bencher| {
        bencher.iter(|| {
            let mut engine = AlphaBeta::new(Mode::Exact);
            for (board, score) in &positions {
                assert_eq!(game.score(board, engine.value(&game, board)), *score);
            }
        })
    });
    group.bench_function("minimax::Negamax (outcome only)", |bencher| {
        bencher.iter(|| {
            for (board, score) in &positions {
                let depth = u8::try_from(game.empty_cells(board)).unwrap_or(u8::MAX);
                assert_eq!(minimax_outcome(&game, board, depth), score.signum());
            }
        })
    });
    group.finish();

    let mut group = criterion
        .benchmark_group(format!("connect-four end-easy positions with at most 9 empty cells ({})", few_empty.len()));
    group.sample_size(10);
    group.bench_function("PlainNegamax", |bencher| {
        bencher.iter(|| {
            for (board, score) in &few_empty {
                assert_eq!(game.score(board, PlainNegamax::new(Mode::Exact).value(&game, board)), *score);
            }
        })
    });
    group.bench_function("MemoNegamax", |bencher| {
        bencher.iter(|| {
            for (board, score) in &few_empty {
                assert_eq!(game.score(board, MemoNegamax::new(Mode::Exact).value(&game, board)), *score);
            }
        })
    });
    group.bench_function("AlphaBeta", |bencher| {
        bencher.iter(|| {
            for (board, score) in &few_empty {
                let value = AlphaBeta::new(Mode::Exact).value(&game, board);
                assert_eq!(game.score(board, value), *score);
            }
        })
    });
    group.bench_function("minimax::Negamax (outcome only)", |bencher| {
        bencher.iter(|| {
            for (board, score) in &few_empty {
                let depth = u8::try_from(game.empty_cells(board)).unwrap_or(u8::MAX);
                assert_eq!(minimax_outcome(&game, board, depth), score.signum());
            }
        })
    });
    group.finish();
}

/// The bench group, in a private module (the function `criterion_group!` generates has no doc comment).
mod group {
    criterion::criterion_group!(benches, super::tic_tac_toe, super::connect_four);
}

criterion_main!(group::benches);
