//! One-player search: memoized depth-first search over a [`Solitaire`] game that returns a witness line of
//! moves to a goal, with a limit on the number of states so that it never runs away with memory.

use crate::error::Error;
use crate::solitaire::Solitaire;
use crate::stats::Stats;
use hashbrown::HashSet;

/// A search frame: the state, its untried moves, and the move that led to it.
type Frame<Ruleset> =
    (<Ruleset as Solitaire>::State, Vec<<Ruleset as Solitaire>::Move>, Option<<Ruleset as Solitaire>::Move>);

/// Memoized depth-first search. States whose key was already explored (and failed) are not explored again.
#[derive(Clone, Debug)]
pub struct OnePlayerSearch {
    max_states: u64,
    stats: Stats,
}

impl Default for OnePlayerSearch {
    fn default() -> Self {
        Self::new(u64::MAX)
    }
}

impl OnePlayerSearch {
    /// A search that gives up with [`Error::Budget`] after expanding `max_states` states.
    pub fn new(max_states: u64) -> Self {
        OnePlayerSearch { max_states, stats: Stats::default() }
    }

    /// A shortest-by-discovery witness: the moves from `start` to a goal, or `None` if no goal is reachable.
    /// Uses an explicit stack, so deep games do not overflow the call stack.
    pub fn solve<Ruleset: Solitaire>(
        &mut self,
        game: &Ruleset,
        start: &Ruleset::State,
    ) -> Result<Option<Vec<Ruleset::Move>>, Error> {
        let mut seen: HashSet<Ruleset::Key> = HashSet::new();
        // Each frame: the state, its untried moves (reversed, popped from the end), the move that led here.
        let mut stack: Vec<Frame<Ruleset>> = Vec::new();
        seen.insert(game.key(start));
        if game.is_goal(start) {
            return Ok(Some(Vec::new()));
        }
        let expand = |stats: &mut Stats, state: &Ruleset::State| {
            stats.visited += 1;
            let mut moves = Vec::new();
            game.moves(state, &mut moves);
            moves.reverse();
            moves
        };
        let first = expand(&mut self.stats, start);
        stack.push((start.clone(), first, None));
        while let Some(frame) = stack.last_mut() {
            let Some(mv) = frame.1.pop() else {
                stack.pop();
                continue;
            };
            let next = game.play(&frame.0, &mv);
            if !seen.insert(game.key(&next)) {
                self.stats.hits += 1;
                continue;
            }
            if game.is_goal(&next) {
                let mut line: Vec<Ruleset::Move> = stack.iter().filter_map(|f| f.2.clone()).collect();
                line.push(mv);
                self.stats.table_entries = seen.len() as u64;
                return Ok(Some(line));
            }
            if self.stats.visited >= self.max_states {
                return Err(Error::Budget(crate::error::Budget::Positions(self.max_states)));
            }
            let moves = expand(&mut self.stats, &next);
            stack.push((next, moves, Some(mv)));
        }
        self.stats.table_entries = seen.len() as u64;
        Ok(None)
    }
}

/// Table entries: the states seen by the last search.
impl crate::engines::Statistics for OnePlayerSearch {
    fn stats(&self) -> Stats {
        self.stats
    }
}
