//! Reference counts kept as data: every line of `tests/data/reference_counts.txt` is recomputed through the
//! framework's traits and engines and compared (position counts per ply, game-tree counts, nimber sequences).

#![allow(clippy::expect_used)] // a malformed data line should fail the test loudly

use hashbrown::HashSet;
use ludus_framework::engines::grundy::GrundyEngine;
use ludus_framework::{Canonicalize, Game, Impartial, Value};
use ludus_games::classic::{Board, DawsonsKayles, GrundysGame, Kayles, TicTacToe};
use ludus_games::connect_four::{self, ConnectFour};

const FACTS: &str = include_str!("data/reference_counts.txt");

/// Distinct positions reachable after each ply (up to `plies`), not expanding finished games.
fn positions_per_ply<Ruleset: Game>(
    game: &Ruleset,
    start: Ruleset::Position,
    plies: usize,
) -> Vec<HashSet<Ruleset::Position>> {
    let mut layers = vec![HashSet::from_iter([start])];
    for _ in 0..plies {
        let mut next = HashSet::new();
        for position in layers.last().into_iter().flatten() {
            if game.is_over(position) {
                continue;
            }
            for mv in game.legal_moves(position) {
                next.insert(game.play(position, &mv));
            }
        }
        layers.push(next);
    }
    layers
}

/// Complete games from `position`: (all, won by the player to move at the start, won by the other, drawn).
fn count_games<Ruleset: Game>(game: &Ruleset, position: &Ruleset::Position, first_to_move: bool) -> [u64; 4] {
    if let Some(value) = game.outcome(position) {
        // `value` is for the player to move; a loss means the player who just moved won.
        return match value {
            Value::Draw => [1, 0, 0, 1],
            Value::Lose(_) if first_to_move => [1, 0, 1, 0],
            Value::Lose(_) => [1, 1, 0, 0],
            Value::Win(_) if first_to_move => [1, 1, 0, 0],
            Value::Win(_) => [1, 0, 1, 0],
        };
    }
    let mut total = [0; 4];
    for mv in game.legal_moves(position) {
        let counts = count_games(game, &game.play(position, &mv), !first_to_move);
        for (sum, count) in total.iter_mut().zip(counts) {
            *sum += count;
        }
    }
    total
}

fn nimbers<Ruleset: Impartial<Component = u32, Key = u32>>(game: &Ruleset, argument: &str) -> String {
    let last: u32 = argument.trim_start_matches("0..=").parse().expect("a range 0..=N");
    let mut engine = GrundyEngine::new();
    (0..=last).map(|pins| engine.nimber(game, &pins).to_string()).collect::<Vec<_>>().join(",")
}

fn measure(game: &str, measure: &str, argument: &str) -> String {
    let ply = || argument.parse::<usize>().expect("a ply number");
    match (game, measure) {
        ("tic-tac-toe", "positions-at-ply") => {
            positions_per_ply(&TicTacToe, Board::EMPTY, ply())[ply()].len().to_string()
        }
        ("tic-tac-toe", "positions-all") => {
            positions_per_ply(&TicTacToe, Board::EMPTY, 9).iter().map(HashSet::len).sum::<usize>().to_string()
        }
        ("tic-tac-toe", "classes-under-symmetry") => {
            let layers = positions_per_ply(&TicTacToe, Board::EMPTY, 9);
            let classes: HashSet<u32> = layers.iter().flatten().map(|board| TicTacToe.canonical(board)).collect();
            classes.len().to_string()
        }
        ("tic-tac-toe", games) => {
            let [all, first, second, drawn] = count_games(&TicTacToe, &Board::EMPTY, true);
            match games {
                "games" => all,
                "games-won-by-first" => first,
                "games-won-by-second" => second,
                "games-drawn" => drawn,
                other => panic!("unknown measure {other}"),
            }
            .to_string()
        }
        ("connect-four", "positions-at-ply") => {
            let game = ConnectFour::standard();
            positions_per_ply(&game, connect_four::Board::default(), ply())[ply()].len().to_string()
        }
        ("kayles", "nimbers") => nimbers(&Kayles, argument),
        ("dawsons-kayles", "nimbers") => nimbers(&DawsonsKayles, argument),
        ("grundys-game", "nimbers") => nimbers(&GrundysGame, argument),
        (game, measure) => panic!("no measure {measure} for {game}"),
    }
}

#[test]
fn every_reference_count_is_reproduced() {
    let mut checked = 0;
    for (number, line) in FACTS.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [game, what, argument, expected] = fields[..] else {
            panic!("line {}: expected GAME MEASURE ARGUMENT EXPECTED, found `{line}`", number + 1);
        };
        assert_eq!(measure(game, what, argument), expected, "line {}: {game} {what} {argument}", number + 1);
        checked += 1;
    }
    assert_eq!(checked, 27, "facts read");
}
