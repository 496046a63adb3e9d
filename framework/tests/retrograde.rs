//! The retrograde engine against independent references: memoized negamax in exact mode on random acyclic
//! game graphs; on loopy ones (random graphs, and Cat and Mouse, a chase with draws by repetition) a value
//! iteration written here, by full sweeps over the forward moves; the un-move hook, the tiered solve and the
//! tiered solve by rank give the same values as the plain solve; a tiny budget gives the budget error, never a
//! value; a rank space too large and a broken ranking are errors.

// The helpers shared by the tests unwrap too, not only the test functions.
#![allow(clippy::unwrap_used)]

mod common;

use common::mix;
use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::retrograde::{ByRank, Rank, Retrograde, RetrogradeSolver, TierSpec, Tiers};
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::Rules;
use ludus_framework::{Budget, Canonicalize, Error, FromKey, Game, SearchHints, Statistics, Value};
use std::collections::{HashMap, VecDeque};

/// A random game graph on `nodes` positions. Each position has 0 to 3 moves to positions of its own block or a
/// lower block (`block` positions per block); `acyclic` keeps only moves to lower positions. About one position
/// in 13 is a finished draw; a position without moves is lost. A tier is a block, and a node's rank in its tier
/// is its place in the block, unless `ranking` asks for a broken one.
#[derive(Clone)]
struct RandomGraph {
    nodes: u32,
    block: u32,
    seed: u64,
    acyclic: bool,
    parents: HashMap<u32, Vec<u32>>,
    ranking: Ranking,
}

/// How a [`RandomGraph`] ranks its nodes.
#[derive(Clone, Copy, PartialEq)]
enum Ranking {
    /// The node's place in its block.
    Exact,
    /// Exact, but the rank space of every tier but the lowest is beyond `u32` range.
    Huge,
    /// Exact, but the last node of every block has no rank.
    Missing,
}

impl RandomGraph {
    fn new(nodes: u32, block: u32, seed: u64, acyclic: bool) -> Self {
        let ranking = Ranking::Exact;
        let mut graph = RandomGraph { nodes, block, seed, acyclic, parents: HashMap::new(), ranking };
        let mut parents: HashMap<u32, Vec<u32>> = HashMap::new();
        for node in 0..nodes {
            if graph.outcome(&node).is_none() {
                for child in graph.legal_moves(&node) {
                    parents.entry(child).or_default().push(node);
                }
            }
        }
        graph.parents = parents;
        graph
    }
}

impl Rules for RandomGraph {
    type Position = u32;
    type Move = u32;
    type Outcome = Value;
    fn moves(&self, node: &u32, moves: &mut Vec<u32>) {
        let count = mix(self.seed ^ (u64::from(*node) << 20)) % 4;
        let reach = if self.acyclic { *node } else { ((node / self.block + 1) * self.block).min(self.nodes) };
        if reach == 0 {
            return;
        }
        for index in 0..count {
            let random = mix(self.seed.wrapping_mul(31) ^ (u64::from(*node) * 7) ^ (index << 40));
            moves.push((random % u64::from(reach)) as u32);
        }
    }
    fn play(&self, _: &u32, target: &u32) -> u32 {
        *target
    }
    fn outcome(&self, node: &u32) -> Option<Value> {
        mix(self.seed ^ u64::from(*node) ^ 0xdead_beef).is_multiple_of(13).then_some(Value::Draw)
    }
}

impl Game for RandomGraph {}

impl SearchHints for RandomGraph {}

impl Canonicalize for RandomGraph {
    type Key = u32;
    fn canonical(&self, node: &u32) -> u32 {
        *node
    }
}

impl Retrograde for RandomGraph {
    fn parents(&self, node: &u32, parents: &mut Vec<u32>) {
        parents.extend(self.parents.get(node).into_iter().flatten());
    }
}

impl FromKey for RandomGraph {
    fn position_of_key(&self, node: &u32) -> Option<u32> {
        (*node < self.nodes).then_some(*node)
    }
}

impl Tiers for RandomGraph {
    type Tier = u32;
    fn tier(&self, node: &u32) -> u32 {
        node / self.block
    }
    fn child_tiers(&self, tier: &u32) -> Vec<u32> {
        (0..*tier).collect()
    }
}

impl Rank for RandomGraph {
    fn tier_size(&self, tier: &u32) -> u64 {
        match self.ranking {
            Ranking::Huge if *tier > 0 => 1 << 33,
            _ => u64::from(self.block),
        }
    }
    fn rank(&self, tier: &u32, node: &u32) -> Option<u64> {
        let missing = self.ranking == Ranking::Missing && node % self.block == self.block - 1;
        (node / self.block == *tier && !missing).then_some(u64::from(node % self.block))
    }
    fn unrank(&self, tier: &u32, rank: u64) -> Option<u32> {
        let node = u64::from(*tier) * u64::from(self.block) + rank;
        (rank < u64::from(self.block) && node < u64::from(self.nodes)).then_some(node as u32)
    }
}

/// The values of every position reachable from `start` by value iteration: round `n` decides, among undecided
/// positions, a win in `n` (some child lost in `n - 1`) and a loss in `n` (every child won, the slowest in
/// `n - 1`); it stops after a round that decides nothing, and what is left is a draw. Written apart from the
/// engine: forward moves only, full sweeps, no counters.
fn value_iteration<Ruleset>(game: &Ruleset, start: &Ruleset::Position) -> HashMap<Ruleset::Key, Value>
where
    Ruleset: ludus_framework::Game + Canonicalize,
{
    let mut positions = vec![start.clone()];
    let mut place: HashMap<Ruleset::Key, usize> = HashMap::from([(game.canonical(start), 0)]);
    let mut children: Vec<Vec<usize>> = Vec::new();
    let mut values: Vec<Option<Value>> = Vec::new();
    let mut queue = VecDeque::from([0]);
    while let Some(index) = queue.pop_front() {
        let position = positions[index].clone();
        let outcome = game.outcome(&position);
        let mut list = Vec::new();
        if outcome.is_none() {
            for mv in game.legal_moves(&position) {
                let child = game.play(&position, &mv);
                let key = game.canonical(&child);
                let at = *place.entry(key).or_insert_with(|| {
                    positions.push(child);
                    queue.push_back(positions.len() - 1);
                    positions.len() - 1
                });
                list.push(at);
            }
        }
        while children.len() <= index {
            children.push(Vec::new());
            values.push(None);
        }
        values[index] = outcome.or(list.is_empty().then_some(Value::LOST));
        children[index] = list;
    }
    let mut round = 1;
    loop {
        let before = values.clone();
        for index in 0..values.len() {
            if before[index].is_some() {
                continue;
            }
            let kids: Vec<Option<Value>> = children[index].iter().map(|&child| before[child]).collect();
            if kids.iter().any(|kid| *kid == Some(Value::Lose(round - 1))) {
                values[index] = Some(Value::Win(round));
            } else if kids.iter().all(|kid| kid.is_some_and(Value::is_win))
                && kids.iter().any(|kid| *kid == Some(Value::Win(round - 1)))
            {
                values[index] = Some(Value::Lose(round));
            }
        }
        if values == before {
            // Terminal values may have any remoteness; this reference is for games ending in 0.
            break;
        }
        round += 1;
    }
    place.into_iter().map(|(key, index)| (key, values[index].unwrap_or(Value::Draw))).collect()
}

#[test]
fn acyclic_graphs_get_memoized_negamaxs_exact_values() {
    for seed in 0..40 {
        let game = RandomGraph::new(300, 300, seed, true);
        let start = 299;
        let solution = RetrogradeSolver::new().solve(&game, &start).unwrap();
        let mut memo = MemoNegamax::new(Mode::Exact);
        assert!(!solution.is_empty());
        for (node, value) in solution.iter() {
            assert_eq!(value, memo.value(&game, &node), "seed {seed}, node {node}");
        }
    }
}

#[test]
fn loopy_graphs_match_value_iteration_through_every_path() {
    let mut draws = 0;
    let mut with_remoteness_above_one = 0;
    for seed in 0..60 {
        let game = RandomGraph::new(400, 50, seed, false);
        let start = 399;
        let reference = value_iteration(&game, &start);
        let plain = RetrogradeSolver::new().solve(&game, &start).unwrap();
        let hooked = RetrogradeSolver::new().solve_with_parents(&game, &start).unwrap();
        let tiered = RetrogradeSolver::new().solve_tiers(&game, &start, TierSpec::new()).unwrap();
        let ranked =
            RetrogradeSolver::new().solve_tiers(&game, &start, TierSpec::new().indexed(ByRank::of(&game))).unwrap();
        let mut tiered_hooked = HashMap::new();
        RetrogradeSolver::new()
            .solve_tiers(
                &game,
                &start,
                TierSpec::new().parents_from_game().on_tier(|solved| {
                    tiered_hooked.extend(solved.iter());
                    Ok(())
                }),
            )
            .unwrap();
        assert_eq!(tiered_hooked, reference);
        let mut ranked_hooked = HashMap::new();
        RetrogradeSolver::new()
            .solve_tiers(
                &game,
                &start,
                TierSpec::new().indexed(ByRank::of(&game)).parents_from_game().on_tier(|solved| {
                    assert!(solved.is_ranked());
                    ranked_hooked.extend(solved.iter());
                    Ok(())
                }),
            )
            .unwrap();
        assert_eq!(ranked_hooked, reference);
        let mut by_unmoves = HashMap::new();
        RetrogradeSolver::new()
            .solve_tiers(
                &game,
                &start,
                TierSpec::new().indexed(ByRank::of(&game).with_unmoves()).on_tier(|solved| {
                    assert!(solved.is_ranked());
                    by_unmoves.extend(solved.iter());
                    Ok(())
                }),
            )
            .unwrap();
        assert_eq!(by_unmoves, reference, "seed {seed}");
        // The dense form answers as the hashed one does, statistics and counts included.
        assert_eq!(ranked.tiers.len(), tiered.tiers.len());
        for (dense, hashed) in ranked.tiers.iter().zip(&tiered.tiers) {
            assert_eq!(dense.tier(), hashed.tier());
            assert_eq!(dense.len(), hashed.len());
            assert_eq!(dense.counts(), hashed.counts());
            assert_eq!(dense.reached(), hashed.reached());
            assert_eq!(dense.statistics(), hashed.statistics());
            let mut listed: Vec<(u32, Value)> = dense.iter().collect();
            let mut expected: Vec<(u32, Value)> = hashed.iter().collect();
            listed.sort_by_key(|&(node, _)| node);
            expected.sort_by_key(|&(node, _)| node);
            assert_eq!(listed, expected, "seed {seed}");
        }
        assert_eq!(plain.len(), reference.len());
        assert_eq!(tiered.len(), reference.len());
        for (node, &expected) in &reference {
            assert_eq!(plain.value_of_key(node), Some(expected), "seed {seed}, node {node}");
            assert_eq!(hooked.value_of_key(node), Some(expected), "seed {seed}, node {node} (hook)");
            assert_eq!(tiered.value(&game, node), Some(expected), "seed {seed}, node {node} (tiers)");
            assert_eq!(ranked.value(&game, node), Some(expected), "seed {seed}, node {node} (ranked)");
            draws += usize::from(expected == Value::Draw);
            with_remoteness_above_one += usize::from(expected.remoteness().is_some_and(|r| r > 1));
        }
    }
    // The graphs exercise every case: draws by repetition and long forced lines.
    assert!(draws > 100 && with_remoteness_above_one > 100, "{draws} draws, {with_remoteness_above_one} long lines");
}

/// Cat and Mouse on a small graph: the mouse starts at node 1, the cat at node 2, the mouse moves first; each in
/// turn moves along an edge (the cat never enters the hole, node 0). The cat wins on the mouse's node, the mouse
/// wins in the hole; a chase that goes on forever is a draw.
struct CatAndMouse {
    edges: Vec<Vec<u8>>,
}

/// Mouse's node, cat's node, mouse to move.
type Chase = (u8, u8, bool);

impl Rules for CatAndMouse {
    type Position = Chase;
    type Move = u8;
    type Outcome = Value;
    const POSITIONS_REPEAT: bool = true;
    fn moves(&self, &(mouse, cat, mouse_moves): &Chase, moves: &mut Vec<u8>) {
        let from = if mouse_moves { mouse } else { cat };
        let targets = self.edges.get(usize::from(from)).into_iter().flatten();
        moves.extend(targets.filter(|&&target| mouse_moves || target != 0));
    }
    fn play(&self, &(mouse, cat, mouse_moves): &Chase, target: &u8) -> Chase {
        if mouse_moves {
            (*target, cat, false)
        } else {
            (mouse, *target, true)
        }
    }
    fn outcome(&self, &(mouse, cat, mouse_moves): &Chase) -> Option<Value> {
        // The winner may be the player to move: the mouse that ran into the cat hands the cat a win in 0.
        let mouse_won = mouse == 0;
        let cat_won = mouse == cat;
        match (mouse_won, cat_won) {
            (true, _) => Some(if mouse_moves { Value::Win(0) } else { Value::LOST }),
            (_, true) => Some(if mouse_moves { Value::LOST } else { Value::Win(0) }),
            _ => None,
        }
    }
}

impl Game for CatAndMouse {}

impl Canonicalize for CatAndMouse {
    type Key = Chase;
    fn canonical(&self, position: &Chase) -> Chase {
        *position
    }
}

#[test]
fn cat_and_mouse_has_draws_by_repetition_and_matches_value_iteration() {
    // The graphs of LeetCode 913's examples: the first is a draw, the second a mouse win.
    let draw =
        CatAndMouse { edges: vec![vec![2, 5], vec![3], vec![0, 4, 5], vec![1, 4, 5], vec![2, 3], vec![0, 2, 3]] };
    let win = CatAndMouse { edges: vec![vec![1, 3], vec![0], vec![3], vec![0, 2]] };
    for (game, expected) in [(draw, Value::Draw), (win, Value::Win(1))] {
        let start = (1, 2, true);
        let reference = value_iteration(&game, &start);
        let mut solver = RetrogradeSolver::new();
        let solution = solver.solve(&game, &start).unwrap();
        assert_eq!(solution.value(&game, &start), Some(expected));
        assert_eq!(solution.len(), reference.len());
        for (position, &value) in &reference {
            assert_eq!(solution.value_of_key(position), Some(value), "{position:?}");
        }
        assert_eq!(solver.stats().table_entries, reference.len() as u64);
    }
}

#[test]
fn solves_are_deterministic_whatever_the_threads() {
    let game = RandomGraph::new(3000, 300, 7, false);
    let solve = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let solution = pool.install(|| RetrogradeSolver::new().solve(&game, &2999)).unwrap();
        let mut values: Vec<(u32, Value)> = solution.iter().collect();
        values.sort_by_key(|&(node, _)| node);
        values
    };
    assert_eq!(solve(1), solve(2));
}

#[test]
fn a_tiny_budget_is_the_budget_error_never_a_value() {
    let game = RandomGraph::new(2000, 100, 3, false);
    let reach = |start: u32| RetrogradeSolver::new().solve(&game, &start).unwrap().len() as u64;
    let start = (1000..2000).rev().find(|&start| reach(start) > 50).unwrap();
    let whole = reach(start);
    for budget in [1, 5, whole - 1] {
        let refused = |result: ludus_framework::Result<usize>| match result {
            Err(Error::Budget(Budget::Positions(limit))) => assert_eq!(limit, budget),
            other => panic!("budget {budget}: expected the budget error, got {other:?}"),
        };
        refused(RetrogradeSolver::new().with_budget(budget).solve(&game, &start).map(|solution| solution.len()));
        refused(
            RetrogradeSolver::new()
                .with_budget(budget)
                .solve_with_parents(&game, &start)
                .map(|solution| solution.len()),
        );
        if budget < 20 {
            let tiered = RetrogradeSolver::new().with_budget(budget).solve_tiers(&game, &start, TierSpec::new());
            refused(tiered.map(|solution| solution.len()));
            // By rank: each tier's 100 ranks count as 13 positions, so 5 is too little too.
            let ranked = RetrogradeSolver::new().with_budget(budget).solve_tiers(
                &game,
                &start,
                TierSpec::new().indexed(ByRank::of(&game)),
            );
            refused(ranked.map(|solution| solution.len()));
        }
    }
    let exact = RetrogradeSolver::new().with_budget(whole).solve(&game, &start).unwrap();
    assert_eq!(exact.len() as u64, whole);
}

/// A game whose tiers break the contract: with `cycle`, tiers 0 -> 1 -> 2 -> 0; without, each tier lists the
/// tier two above as its child while moves go one above.
struct BadTiers {
    cycle: bool,
}

impl Rules for BadTiers {
    type Position = u8;
    type Move = u8;
    type Outcome = Value;
    fn moves(&self, cell: &u8, moves: &mut Vec<u8>) {
        moves.push(cell + 1);
    }
    fn play(&self, _: &u8, target: &u8) -> u8 {
        *target
    }
    fn outcome(&self, cell: &u8) -> Option<Value> {
        (*cell >= 4).then_some(Value::LOST)
    }
}

impl Game for BadTiers {}

impl Canonicalize for BadTiers {
    type Key = u8;
    fn canonical(&self, cell: &u8) -> u8 {
        *cell
    }
}

impl Tiers for BadTiers {
    type Tier = u8;
    fn tier(&self, cell: &u8) -> u8 {
        *cell
    }
    fn child_tiers(&self, tier: &u8) -> Vec<u8> {
        match (self.cycle, *tier) {
            (true, _) => vec![(tier + 1) % 3],
            (false, 0..=5) => vec![tier + 2],
            (false, _) => Vec::new(),
        }
    }
}

#[test]
fn broken_tier_contracts_are_errors() {
    for (cycle, words) in [(true, "cycle"), (false, "not a child tier")] {
        let result = RetrogradeSolver::new()
            .solve_tiers(&BadTiers { cycle }, &0, TierSpec::new())
            .map(|solution| solution.len());
        assert!(
            matches!(result, Err(Error::Contract { contract: "Tiers", ref detail }) if detail.contains(words)),
            "{result:?}"
        );
    }
}

#[test]
fn a_rank_space_beyond_u32_and_a_key_without_a_rank_are_errors() {
    let mut game = RandomGraph::new(400, 50, 5, false);
    game.ranking = Ranking::Huge;
    let huge = RetrogradeSolver::new()
        .solve_tiers(&game, &399, TierSpec::new().indexed(ByRank::of(&game)))
        .map(|solution| solution.len());
    assert!(matches!(huge, Err(Error::Limit { ref what, .. }) if what.contains("rank space")), "{huge:?}");
    // The range is checked before the budget: the error names what is wrong with the game, not the budget.
    let budgeted = RetrogradeSolver::new().with_budget(1 << 20).solve_tiers(
        &game,
        &399,
        TierSpec::new().indexed(ByRank::of(&game)),
    );
    assert!(matches!(budgeted.map(|solution| solution.len()), Err(Error::Limit { .. })));
    game.ranking = Ranking::Missing;
    let missing = RetrogradeSolver::new()
        .solve_tiers(&game, &399, TierSpec::new().indexed(ByRank::of(&game)))
        .map(|solution| solution.len());
    assert!(
        matches!(missing, Err(Error::Contract { contract: "Rank", ref detail }) if detail.contains("no rank")),
        "{missing:?}"
    );
}
