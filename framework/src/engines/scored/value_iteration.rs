//! [`ValueIteration`]: every reachable position's value in a game with chance whose positions may repeat (Pig),
//! by Gauss-Seidel sweeps over the position graph until the largest change of a sweep is below a tolerance.
//!
//! The positions reachable from a start are enumerated once (by canonical key, within a budget of positions
//! and one of memory) into a graph: per position its kind (finished with its score, a decision, a chance node) and its edges (the
//! child, whether its mover differs, the probability). A sweep sets each value from its children's: a final
//! score stays; a decision takes its best child seen by its mover; a chance node the weighted mean. Values start
//! at 0 and sweeps run in the reverse of the order positions were found (children before parents, mostly),
//! until a sweep changes no value by more than the tolerance, or the most sweeps allowed have run; the result
//! says which ([`ValueTable::converged`]), how many sweeps ran, and the largest change of the last one (the
//! tolerance reached).
//!
//! The memory budget counts what the enumeration really holds: the index's buckets (and, while it doubles, its
//! old and new tables together), the vectors' capacities (grown by a quarter at a time, not doubled, so that
//! little of the budget is room never used), and the values the sweeps will need (which take the place of the
//! positions, dropped once the graph is built).

use crate::engines::alpha_beta::{SearchProgress, Test, PROGRESS_STEP};
use crate::error::{Budget, Error, Remedy, Setting};
use crate::scored::{Chance, ScoredGame, SCORE_LIMIT};
use crate::table::{map_growth, mib};
use crate::Canonicalize;
use hashbrown::HashMap;

/// The default tolerance: the largest change of a value in the last sweep.
pub const DEFAULT_TOLERANCE: f64 = 1e-12;
/// The default cap on sweeps.
pub const DEFAULT_SWEEPS: u64 = 100_000;

/// Value iteration's settings: its tolerance, the most sweeps, and the most positions it may hold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ValueIteration {
    /// A sweep whose largest change is below this ends the iteration.
    pub tolerance: f64,
    /// The most sweeps run.
    pub max_sweeps: u64,
    /// The most positions enumerated ([`Error::Budget`] of `--max-positions` past it).
    pub max_positions: u64,
    /// The most memory the graph and the values may take, in MiB ([`Error::Budget`] of `--memory-mb` past it).
    pub memory_mb: usize,
}

impl Default for ValueIteration {
    fn default() -> Self {
        ValueIteration {
            tolerance: DEFAULT_TOLERANCE,
            max_sweeps: DEFAULT_SWEEPS,
            max_positions: u64::MAX,
            memory_mb: usize::MAX,
        }
    }
}

/// What a position of the graph is.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Finished(f64),
    Decision,
    Chance,
}

/// An edge: the child's index, whether its mover is another player, and its probability (1 at a decision).
#[derive(Clone, Copy, Debug)]
struct Edge {
    child: u32,
    flip: bool,
    probability: f64,
}

/// The values of every position reachable from a start, by value iteration.
#[derive(Debug)]
pub struct ValueTable<Key> {
    index: HashMap<Key, u32, foldhash::fast::FixedState>,
    values: Vec<f64>,
    /// Sweeps run.
    pub sweeps: u64,
    /// The largest change of a value in the last sweep: the tolerance reached.
    pub residual: f64,
    /// Whether the residual went below the tolerance asked (else the cap on sweeps stopped the iteration).
    pub converged: bool,
    /// The largest change of each sweep, in order: the convergence.
    pub history: Vec<f64>,
}

impl<Key: std::hash::Hash + Eq> ValueTable<Key> {
    /// The value of the position of key `key` for its mover, if it was reached.
    pub fn value_of_key(&self, key: &Key) -> Option<f64> {
        let place = *self.index.get(key)?;
        self.values.get(place as usize).copied()
    }

    /// The value of `position` for its mover, if it was reached from the start.
    pub fn value<Ruleset: ScoredGame + Canonicalize<Key = Key>>(
        &self,
        game: &Ruleset,
        position: &Ruleset::Position,
    ) -> Option<f64> {
        self.value_of_key(&game.canonical(position))
    }

    /// The number of positions (keys) solved.
    pub fn positions(&self) -> usize {
        self.values.len()
    }
}

impl ValueIteration {
    /// Every value reachable from `start`, or [`Error::Budget`] if there are more than `max_positions`
    /// positions, or the game's contract breach.
    pub fn solve<Ruleset>(&self, game: &Ruleset, start: &Ruleset::Position) -> crate::Result<ValueTable<Ruleset::Key>>
    where
        Ruleset: Chance + Canonicalize,
    {
        self.solve_showing(game, start, None)
    }

    /// [`ValueIteration::solve`], showing in `line` (none: `None`) the positions enumerated, then each sweep
    /// and the positions it updated, for a watcher on another thread (the CLI's progress line).
    pub fn solve_showing<Ruleset>(
        &self,
        game: &Ruleset,
        start: &Ruleset::Position,
        line: Option<&SearchProgress>,
    ) -> crate::Result<ValueTable<Ruleset::Key>>
    where
        Ruleset: Chance + Canonicalize,
    {
        line.inspect(|line| line.start());
        let solved = self.iterate(game, start, line);
        line.inspect(|line| line.finish());
        solved
    }

    fn iterate<Ruleset>(
        &self,
        game: &Ruleset,
        start: &Ruleset::Position,
        line: Option<&SearchProgress>,
    ) -> crate::Result<ValueTable<Ruleset::Key>>
    where
        Ruleset: Chance + Canonicalize,
    {
        let Graph { index, kinds, offsets, edges, .. } = self.explore(game, start, line)?;
        let mut values = vec![0.0; kinds.len()];
        let mut history = Vec::new();
        let mut residual = f64::INFINITY;
        let mut sweeps = 0;
        while residual >= self.tolerance && sweeps < self.max_sweeps {
            line.inspect(|line| line.testing(Test::Sweep(sweeps + 1)));
            if line.is_some_and(SearchProgress::stop_requested) {
                return Err(Error::Budget(Budget::Positions(self.max_positions)));
            }
            residual = 0.0;
            for place in (0..kinds.len()).rev() {
                let children = &edges[offsets[place] as usize..offsets[place + 1] as usize];
                let seen = |edge: &Edge| {
                    let value = values[edge.child as usize];
                    if edge.flip {
                        -value
                    } else {
                        value
                    }
                };
                let new = match kinds[place] {
                    Kind::Finished(score) => score,
                    Kind::Decision => children.iter().map(seen).fold(f64::NEG_INFINITY, f64::max),
                    Kind::Chance => children.iter().map(|edge| edge.probability * seen(edge)).sum(),
                };
                residual = residual.max((new - values[place]).abs());
                values[place] = new;
            }
            sweeps += 1;
            history.push(residual);
            line.inspect(|line| {
                line.add(kinds.len() as u64);
            });
        }
        Ok(ValueTable { index, values, sweeps, residual, converged: residual < self.tolerance, history })
    }

    /// The graph of the positions reachable from `start`: keys to places, kinds, and edges by place (CSR).
    fn explore<Ruleset>(
        &self,
        game: &Ruleset,
        start: &Ruleset::Position,
        line: Option<&SearchProgress>,
    ) -> crate::Result<Graph<Ruleset::Key, Ruleset::Position>>
    where
        Ruleset: Chance + Canonicalize,
    {
        let mut graph = Graph {
            index: HashMap::with_hasher(foldhash::fast::FixedState::default()),
            positions: Vec::new(),
            kinds: Vec::new(),
            offsets: Vec::new(),
            edges: Vec::new(),
        };
        self.make_room(&mut graph, 1, 1)?;
        graph.index.insert(game.canonical(start), 0u32);
        graph.positions.push(start.clone());
        graph.offsets.push(0);
        let (mut moves, mut outcomes) = (Vec::new(), Vec::new());
        let mut children: Vec<(Ruleset::Position, f64)> = Vec::new();
        let mut next = 0;
        line.inspect(|line| line.testing(Test::Enumerating));
        while next < graph.positions.len() {
            let position = graph.positions[next].clone();
            next += 1;
            // A stop asked for by the caller ends the enumeration as its budget would.
            if (next as u64).is_multiple_of(PROGRESS_STEP) && line.is_some_and(|line| line.add(PROGRESS_STEP)) {
                return Err(Error::Budget(Budget::Positions(self.max_positions)));
            }
            children.clear();
            let kind = if let Some(score) = game.outcome(&position) {
                if score.abs() > SCORE_LIMIT {
                    return Err(super::broken(format!("a final score of {score}, beyond ±{SCORE_LIMIT}")));
                }
                Kind::Finished(f64::from(score))
            } else if game.is_chance(&position) {
                outcomes.clear();
                game.outcomes(&position, &mut outcomes);
                let total: u64 = outcomes.iter().map(|(_, weight)| *weight).sum();
                if total == 0 {
                    return Err(super::broken(format!("a chance node without outcomes: {position:?}")));
                }
                children.extend(
                    outcomes.iter().map(|(mv, weight)| (game.play(&position, mv), *weight as f64 / total as f64)),
                );
                Kind::Chance
            } else {
                moves.clear();
                game.moves(&position, &mut moves);
                if moves.is_empty() {
                    return Err(super::broken(format!("a position that is not over has no move: {position:?}")));
                }
                children.extend(moves.iter().map(|mv| (game.play(&position, mv), 1.0)));
                Kind::Decision
            };
            // Room for every child as a new position: a child already placed leaves a little room unused.
            self.make_room(&mut graph, children.len(), children.len())?;
            graph.kinds.push(kind);
            for (child, probability) in children.drain(..) {
                let key = game.canonical(&child);
                let place = match graph.index.get(&key) {
                    Some(&place) => place,
                    None => {
                        if graph.positions.len() as u64 >= self.max_positions {
                            return Err(Error::Budget(Budget::Positions(self.max_positions)));
                        }
                        let place = u32::try_from(graph.positions.len())
                            .map_err(|_| Error::Budget(Budget::Positions(u64::from(u32::MAX))))?;
                        graph.index.insert(key, place);
                        graph.positions.push(child.clone());
                        place
                    }
                };
                graph.edges.push(Edge { child: place, flip: game.turn_passes(&position, &child), probability });
            }
            let end =
                u32::try_from(graph.edges.len()).map_err(|_| Error::Budget(Budget::Positions(self.max_positions)))?;
            graph.offsets.push(end);
        }
        Ok(graph)
    }

    /// Makes room in `graph` for `positions` more positions and `edges` more edges (and the kind and offset of
    /// the position being expanded), or [`Error::Budget`] of `--memory-mb` if the memory held with that room,
    /// counted before any of it is taken, would pass the budget.
    fn make_room<Key: std::hash::Hash + Eq, Position>(
        &self,
        graph: &mut Graph<Key, Position>,
        positions: usize,
        edges: usize,
    ) -> crate::Result<()> {
        let index = map_growth::<(Key, u32)>(graph.index.len(), graph.index.capacity(), positions);
        let (kinds, offsets) = (room(&graph.kinds, 1), room(&graph.offsets, 1));
        let (places, edge_room) = (room(&graph.positions, positions), room(&graph.edges, edges));
        // The positions are dropped before the values are made, one `f64` per position.
        let values = graph.positions.len().saturating_add(positions).saturating_mul(size_of::<f64>());
        let vectors = [
            kinds.saturating_mul(size_of::<Kind>()),
            offsets.saturating_mul(size_of::<u32>()),
            edge_room.saturating_mul(size_of::<Edge>()),
            places.saturating_mul(size_of::<Position>()).max(values),
        ];
        let held = vectors.iter().fold(index.peak, |sum, bytes| sum.saturating_add(*bytes));
        if held > mib(self.memory_mb) {
            return Err(Error::Budget(Budget::MemoryMb(self.memory_mb)));
        }
        let refused = || Error::Allocation {
            what: "value iteration's graph",
            megabytes: held.div_ceil(1 << 20) as u64,
            remedies: vec![Remedy::Lower(Setting::MemoryMb)],
        };
        graph.index.try_reserve(positions).map_err(|_| refused())?;
        graph.kinds.try_reserve_exact(kinds - graph.kinds.len()).map_err(|_| refused())?;
        graph.offsets.try_reserve_exact(offsets - graph.offsets.len()).map_err(|_| refused())?;
        graph.positions.try_reserve_exact(places - graph.positions.len()).map_err(|_| refused())?;
        graph.edges.try_reserve_exact(edge_room - graph.edges.len()).map_err(|_| refused())?;
        Ok(())
    }
}

/// The position graph being enumerated.
struct Graph<Key, Position> {
    /// Each key's place.
    index: HashMap<Key, u32, foldhash::fast::FixedState>,
    /// The positions by place, dropped once the graph is built.
    positions: Vec<Position>,
    kinds: Vec<Kind>,
    /// Where each place's edges start, and one past the last.
    offsets: Vec<u32>,
    edges: Vec<Edge>,
}

/// The capacity `items` will have with room for `more` items: unchanged if it has the room, else grown by a
/// quarter at least (a vector's own doubling would leave up to half of what the budget counts unused).
fn room<Item>(items: &Vec<Item>, more: usize) -> usize {
    let needed = items.len().saturating_add(more);
    if needed <= items.capacity() {
        items.capacity()
    } else {
        needed.max(items.capacity().saturating_add(items.capacity() / 4)).max(64)
    }
}
