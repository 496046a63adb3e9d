//! The solve by un-moves (`ByRank::with_unmoves`, the registry's path for every game that ranks its tiers)
//! against the reverse-edge solves, on every database game that ranks: Dodgem 3 x 3 and 4 x 4, Quixo 3 x 3,
//! Teeko on 4 x 4, Connect Four 4 x 4 and 5 x 4. The files by rank are byte for byte those of the reverse-edge
//! solve by rank (`ByRank::of`), and every stored value is the hashed reverse-edge solve's (`ByKey`). Connect
//! Four's ranking and un-moves are checked on every reachable position.

#![allow(clippy::unwrap_used)]

use ludus_framework::database::{Database, RecordKey, SolveBudget};
use ludus_framework::engines::retrograde::{is_parent, ByKey, ByRank, Rank, Retrograde, TierIndexing, TierSpec, Tiers};
use ludus_framework::Rules;
use ludus_framework::{Canonicalize, FromKey, Value};
use ludus_games::connect_four::{Board, ConnectFour};
use ludus_games::dodgem::Dodgem;
use ludus_games::quixo::Quixo;
use ludus_games::teeko::Teeko;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

const AMPLE: SolveBudget = SolveBudget { memory_mb: 4096, max_positions: u64::MAX, stop: None };

fn scratch(name: &str) -> PathBuf {
    let directory = std::env::temp_dir().join(format!("ludus-unmoves-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    directory
}

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

/// Every stored value of the database of `game` from `start` in `directory`, by tier and key, read through
/// `indexing`.
fn values<Ruleset, Indexing>(
    game: &Ruleset,
    name: &str,
    start: &Ruleset::Position,
    directory: &Path,
    indexing: &Indexing,
) -> BTreeMap<String, Vec<(u128, Value)>>
where
    Ruleset: ludus_framework::Game + Tiers + FromKey + Sync,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: RecordKey,
    Ruleset::Tier: serde::Serialize + serde::de::DeserializeOwned,
    Indexing: TierIndexing<Ruleset>,
{
    let database = Database::new(game, name, directory).ranked_by(indexing.ranks());
    let mut all = BTreeMap::new();
    for (tier, _) in database.tier_files(start).unwrap() {
        let solution = database.load(&tier, indexing, None).unwrap();
        let mut records: Vec<(u128, Value)> = solution.iter().map(|(key, value)| (key.to_wide(), value)).collect();
        records.sort_unstable();
        all.insert(format!("{tier:?}"), records);
    }
    all
}

/// Solves `game` from `start` three ways (by un-moves, by rank with reverse edges, by key with reverse edges)
/// and compares the files and values; `positions`, if known, is the number of positions reachable.
fn three_ways<Ruleset>(game: &Ruleset, name: &str, start: &Ruleset::Position, positions: Option<u64>)
where
    Ruleset: ludus_framework::Game + Rank + Retrograde + FromKey + Clone + Send + Sync + 'static,
    Ruleset::Position: Send + Sync,
    Ruleset::Key: RecordKey,
    Ruleset::Tier: serde::Serialize + serde::de::DeserializeOwned,
{
    let unmoves = ByRank::of(game).with_unmoves();
    let edges = ByRank::of(game);
    let mut solved = Vec::new();
    let mut positions = positions;
    for (label, ranks) in [("unmoves", unmoves.ranks()), ("edges", edges.ranks()), ("key", None)] {
        let directory = scratch(&format!("{}-{label}", name.replace([':', '=', ','], "-")));
        let database = Database::new(game, name, &directory).ranked_by(ranks);
        let mut reports = Vec::new();
        let mut report = |tier: &ludus_framework::database::TierReport| reports.push(tier.positions);
        match label {
            "unmoves" => database.solve(start, AMPLE, &mut report, TierSpec::new().indexed(unmoves.clone())),
            "edges" => database.solve(start, AMPLE, &mut report, TierSpec::new().indexed(edges.clone())),
            _ => database.solve(start, AMPLE, &mut report, TierSpec::new()),
        }
        .unwrap();
        let solved_positions = reports.iter().sum::<u64>();
        assert_eq!(solved_positions, *positions.get_or_insert(solved_positions), "{name} {label}");
        solved.push(directory);
    }
    assert_eq!(files(&solved[0]), files(&solved[1]), "{name}: the files by un-moves and by reverse edges differ");
    let by_unmoves = values(game, name, start, &solved[0], &unmoves);
    assert_eq!(by_unmoves, values(game, name, start, &solved[2], &ByKey), "{name}: the values by key differ");
    assert_eq!(Some(by_unmoves.values().map(Vec::len).sum::<usize>() as u64), positions);
    // The files by rank are smaller than those by key.
    let size = |directory: &Path| files(directory).iter().map(|(_, bytes)| bytes.len()).sum::<usize>();
    assert!(
        size(&solved[0]) < size(&solved[2]),
        "{name}: {} bytes by rank, {} by key",
        size(&solved[0]),
        size(&solved[2])
    );
    for directory in solved {
        std::fs::remove_dir_all(directory).unwrap();
    }
}

#[test]
fn dodgem_by_unmoves_writes_the_reverse_edge_files() {
    // 276,832 positions on 4 x 4, as games/tests/database.rs counts them.
    for (size, positions) in [(3, None), (4, Some(276_832))] {
        let game = Dodgem::new(size).unwrap();
        three_ways(&game, &format!("dodgem:n={size}"), &game.start(), positions);
    }
}

#[test]
fn quixo_and_teeko_by_unmoves_write_the_reverse_edge_files() {
    let quixo = Quixo::new(3).unwrap();
    // 2,219 keys (the module's documentation, from the value iteration in games/tests/quixo.rs).
    three_ways(&quixo, "quixo:size=3", &quixo.start(), Some(2_219));
    let teeko = Teeko::with_side(4).unwrap();
    three_ways(&teeko, "teeko-4", &teeko.start(), None);
}

#[test]
fn connect_four_by_unmoves_writes_the_reverse_edge_files() {
    for (width, height) in [(4, 4), (5, 4)] {
        let game = ConnectFour::new(width, height).unwrap();
        let count = reachable(&game).len() as u64;
        three_ways(&game, &format!("connect-four:width={width},height={height}"), &Board::EMPTY, Some(count));
    }
}

/// Every reachable position of `game` by key, with a representative.
fn reachable(game: &ConnectFour) -> HashMap<u64, Board> {
    let mut seen = HashMap::from([(game.canonical(&Board::EMPTY), Board::EMPTY)]);
    let mut stack = vec![Board::EMPTY];
    while let Some(board) = stack.pop() {
        if game.outcome(&board).is_some() {
            continue;
        }
        for column in game.legal_moves(&board) {
            let child = game.play(&board, &column);
            if seen.insert(game.canonical(&child), child).is_none() {
                stack.push(child);
            }
        }
    }
    seen
}

#[test]
fn connect_four_ranks_number_each_tier_one_to_one_and_unmoves_are_the_parents() {
    for (width, height) in [(4, 4), (5, 4), (3, 5)] {
        let game = ConnectFour::new(width, height).unwrap();
        let positions = reachable(&game);
        let mut ranks: HashSet<(u8, u64)> = HashSet::new();
        let mut parents_of: HashMap<u64, HashSet<u64>> = HashMap::new();
        for (&key, board) in &positions {
            let tier = game.tier(board);
            let rank = game.rank(&tier, &key).unwrap();
            assert!(rank < game.tier_size(&tier));
            assert!(ranks.insert((tier, rank)), "two keys share rank {rank} of tier {tier}");
            assert_eq!(game.unrank(&tier, rank), Some(key));
            if game.outcome(board).is_none() {
                for column in game.legal_moves(board) {
                    parents_of.entry(game.canonical(&game.play(board, &column))).or_default().insert(key);
                }
            }
        }
        // Un-moves: every listed position is one move before (sound), and every reachable parent is listed
        // (complete).
        for (&key, board) in &positions {
            let mut parents = Vec::new();
            game.parents(board, &mut parents);
            for parent in &parents {
                assert!(is_parent(&game, parent, board), "{width} x {height}: {parent:?} is no parent of {board:?}");
            }
            let listed: HashSet<u64> = parents.iter().map(|parent| game.canonical(parent)).collect();
            for expected in parents_of.get(&key).into_iter().flatten() {
                assert!(listed.contains(expected), "{width} x {height}: a parent of {board:?} is not listed");
            }
        }
        // Every rank unranks to an encoding that ranks back to it.
        for tier in 0..=(width * height) as u8 {
            let size = game.tier_size(&tier);
            for rank in (0..size).step_by((size / 997).max(1) as usize) {
                let key = game.unrank(&tier, rank).unwrap();
                assert_eq!(game.rank(&tier, &key), Some(rank), "tier {tier} rank {rank}");
            }
            assert_eq!(game.unrank(&tier, size), None);
        }
    }
}

#[test]
fn a_memory_budget_below_the_arrays_by_rank_is_the_memory_error() {
    // Connect Four 6 x 4: 1.6e8 ranks, a bit each while its tiers wait (20 MB), its largest tier 2.3e7 ranks
    // (73 MB at 3.125 bytes): 16 MiB is refused during the discovery, 48 MiB when the largest tier comes.
    let game = ConnectFour::new(6, 4).unwrap();
    let indexing = ByRank::of(&game).with_unmoves();
    for memory_mb in [16, 48] {
        let directory = scratch(&format!("budget-{memory_mb}"));
        let database = Database::new(&game, "connect-four:width=6,height=4", &directory).ranked_by(indexing.ranks());
        let budget = SolveBudget { memory_mb, max_positions: u64::MAX, stop: None };
        let error =
            database.solve(&Board::EMPTY, budget, &mut |_| {}, TierSpec::new().indexed(indexing.clone())).unwrap_err();
        assert!(
            matches!(error, ludus_framework::Error::Budget(ludus_framework::Budget::MemoryMb(limit)) if limit == memory_mb),
            "{memory_mb} MiB: {error:?}"
        );
        std::fs::remove_dir_all(&directory).ok();
    }
}
