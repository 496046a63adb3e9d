//! The Sprague-Grundy engine: nimbers of [`Impartial`] components, memoized by canonical component key, with
//! no cap on nimber size; sums by XOR; counting the winning moves of a sum; budgets of components and table memory for the `try_`
//! methods.

use crate::engines::{Engine, Stop};
use crate::error::{Budget, Error, Result};
use crate::game::Rules;
use crate::impartial::{Impartial, SumGame};
use crate::stats::Stats;
use hashbrown::HashMap;

/// The minimum excludant: the least natural number not in `values`.
pub fn mex(values: &[u32]) -> u32 {
    let mut sorted = values.to_vec();
    mex_in_place(&mut sorted)
}

/// [`mex`] without allocating, in linear time: moves each value `v < len` to index `v` (cyclic sort; the order
/// of `values` is lost), then the first index not holding itself is the answer.
pub fn mex_in_place(values: &mut [u32]) -> u32 {
    let length = values.len();
    for index in 0..length {
        loop {
            let value = values[index] as usize;
            if value >= length || value == index || values[value] as usize == value {
                break;
            }
            values.swap(index, value);
        }
    }
    (0..length).find(|&index| values[index] as usize != index).unwrap_or(length) as u32
}

/// Memoized Sprague-Grundy evaluation. The table persists across calls; [`GrundyEngine::retain`] drops
/// entries that no longer apply (for example those of a finished case), keeping shared ones. The table is
/// keyed by the game's component keys alone: use one engine per game (or keys that tell games apart).
///
/// ```
/// use ludus_framework::engines::grundy::GrundyEngine;
/// use ludus_framework::Impartial;
///
/// /// Nim: a heap of n stones can become any smaller heap.
/// struct Nim;
/// impl Impartial for Nim {
///     type Component = u32;
///     type Key = u32;
///     fn key(&self, heap: &u32) -> u32 { *heap }
///     fn options(&self, heap: &u32, emit: &mut dyn FnMut(&[u32], u64)) {
///         emit(&[], 1);
///         for smaller in 1..*heap { emit(&[smaller], 1); }
///     }
/// }
///
/// let mut engine = GrundyEngine::new();
/// assert_eq!(engine.nimber(&Nim, &5), 5);
/// assert_eq!(engine.sum(&Nim, &[3, 5, 6]), 0); // 3 ^ 5 ^ 6 = 0: lost for the player to move
/// assert_eq!(engine.winning_moves(&Nim, &[1, 2]), 1); // only 2 -> 1
/// ```
#[derive(Clone, Debug)]
pub struct GrundyEngine<Key> {
    table: HashMap<Key, u32>,
    stats: Stats,
    /// Option-value buffers for reuse, one per recursion level in use: no allocation per component.
    buffers: Vec<Vec<u32>>,
    /// The most components one `try_` call may expand.
    budget: u64,
    /// The most bytes the table may take (`usize::MAX`: no limit).
    memory: usize,
    /// While a `try_` call runs: the visited count at which it stops.
    limit: u64,
    /// Whether budgets apply to the call under way (the infallible methods ignore them).
    enforce: bool,
    /// The budget that stopped the call under way, if one did (nothing is stored after that).
    stopped: Option<Budget>,
}

impl<Key: std::hash::Hash + Eq + Clone> Default for GrundyEngine<Key> {
    fn default() -> Self {
        Self::new()
    }
}

impl<Key: std::hash::Hash + Eq + Clone> GrundyEngine<Key> {
    /// An engine with an empty table and no budget.
    pub fn new() -> Self {
        GrundyEngine {
            table: HashMap::new(),
            stats: Stats::default(),
            buffers: Vec::new(),
            budget: u64::MAX,
            memory: usize::MAX,
            limit: u64::MAX,
            enforce: false,
            stopped: None,
        }
    }

    /// The same engine whose `try_` methods give up with [`Error::Budget`] when one call would expand more than
    /// `positions` components.
    #[must_use]
    pub fn with_budget(self, positions: u64) -> Self {
        GrundyEngine { budget: positions, ..self }
    }

    /// The same engine whose `try_` methods give up with [`Error::Budget`] when the table would take more than
    /// `bytes` bytes (estimated from its entries: key, nimber and the map's overhead).
    #[must_use]
    pub fn with_memory(self, bytes: usize) -> Self {
        GrundyEngine { memory: bytes, ..self }
    }

    /// The most entries the memory budget allows: a hash map entry holds the key, the nimber and a control
    /// byte, at a load of at most 7/8.
    fn max_entries(&self) -> usize {
        let entry = std::mem::size_of::<(Key, u32)>() + 1;
        (self.memory / entry).saturating_mul(7) / 8
    }

    /// Runs `work` under the budgets: `Err` if one ran out (then nothing of the call was stored).
    fn within<Output>(&mut self, work: impl FnOnce(&mut Self) -> Output) -> Result<Output> {
        self.limit = self.stats.visited.saturating_add(self.budget);
        self.enforce = true;
        self.stopped = None;
        let output = work(self);
        self.enforce = false;
        match self.stopped.take() {
            Some(budget) => Err(Error::Budget(budget)),
            None => Ok(output),
        }
    }

    /// The nimber of one component.
    pub fn nimber<Ruleset: Impartial<Key = Key>>(&mut self, game: &Ruleset, component: &Ruleset::Component) -> u32 {
        self.evaluate(game, component)
    }

    /// The nimber of one component within the engine's budgets.
    pub fn try_nimber<Ruleset: Impartial<Key = Key>>(
        &mut self,
        game: &Ruleset,
        component: &Ruleset::Component,
    ) -> Result<u32> {
        self.within(|engine| engine.evaluate(game, component))
    }

    fn evaluate<Ruleset: Impartial<Key = Key>>(&mut self, game: &Ruleset, component: &Ruleset::Component) -> u32 {
        let key = game.key(component);
        if let Some(&nimber) = self.table.get(&key) {
            self.stats.hits += 1;
            return nimber;
        }
        if self.enforce {
            if self.stopped.is_some() {
                return 0;
            }
            if self.stats.visited >= self.limit {
                self.stopped = Some(Budget::Positions(self.budget));
                return 0;
            }
            if self.table.len() >= self.max_entries() {
                self.stopped = Some(Budget::TableBytes(self.memory));
                return 0;
            }
        }
        self.stats.visited += 1;
        let mut values = self.buffers.pop().unwrap_or_default();
        values.clear();
        game.options(component, &mut |parts, _count| {
            let value = parts.iter().fold(0, |acc, part| acc ^ self.evaluate(game, part));
            values.push(value);
        });
        let nimber = mex_in_place(&mut values);
        self.buffers.push(values);
        // A stopped call's values are meaningless: none is stored.
        if self.stopped.is_none() {
            self.table.insert(key, nimber);
        }
        nimber
    }

    /// The nimber of a sum of components (XOR of their nimbers); zero exactly when the player to move loses.
    pub fn sum<Ruleset: Impartial<Key = Key>>(&mut self, game: &Ruleset, components: &[Ruleset::Component]) -> u32 {
        components.iter().fold(0, |acc, component| acc ^ self.evaluate(game, component))
    }

    /// [`GrundyEngine::sum`] within the engine's budgets.
    pub fn try_sum<Ruleset: Impartial<Key = Key>>(
        &mut self,
        game: &Ruleset,
        components: &[Ruleset::Component],
    ) -> Result<u32> {
        self.within(|engine| engine.sum(game, components))
    }

    /// The number of moves of the sum `components` after which the sum's nimber is zero, counting each option
    /// with its multiplicity: the winning moves of the player to move (zero when the position is lost).
    pub fn winning_moves<Ruleset: Impartial<Key = Key>>(
        &mut self,
        game: &Ruleset,
        components: &[Ruleset::Component],
    ) -> u64 {
        let nimbers: Vec<u32> = components.iter().map(|c| self.evaluate(game, c)).collect();
        let total = nimbers.iter().fold(0, |acc, n| acc ^ n);
        let mut winning = 0u64;
        for (component, nimber) in components.iter().zip(&nimbers) {
            let rest = total ^ nimber;
            game.options(component, &mut |parts, count| {
                let value = parts.iter().fold(rest, |acc, part| acc ^ self.evaluate(game, part));
                if value == 0 {
                    winning += count;
                }
            });
        }
        winning
    }

    /// [`GrundyEngine::winning_moves`] within the engine's budgets.
    pub fn try_winning_moves<Ruleset: Impartial<Key = Key>>(
        &mut self,
        game: &Ruleset,
        components: &[Ruleset::Component],
    ) -> Result<u64> {
        self.within(|engine| engine.winning_moves(game, components))
    }

    /// Keeps only the table entries whose key satisfies `keep`.
    pub fn retain(&mut self, mut keep: impl FnMut(&Key) -> bool) {
        self.table.retain(|key, _| keep(key));
    }

    /// The stored nimber of a key, if computed.
    pub fn lookup(&self, key: &Key) -> Option<u32> {
        self.table.get(key).copied()
    }
}

/// The value of an impartial position under normal play, as the Sprague-Grundy engine gives it (as the value of
/// a move, the nimber the move leaves: see [`crate::analysis::SearchValue`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Nimber {
    /// The nimber: of the position itself, or, for a move, of the position it leads to.
    pub nimber: u32,
    /// Whether it is won for the player it is the value of: a position of nimber other than zero, a move that
    /// leaves zero.
    pub won: bool,
    /// Plies to the end where they are known without a search (0 at a finished position).
    pub remoteness: Option<u32>,
}

/// The Sprague-Grundy engine as an [`Engine`] of a sum of components under normal play: a position's nimber
/// (the XOR of its components'), within `budget` components expanded and the table's memory.
impl<Inner, Key> Engine<SumGame<Inner>> for GrundyEngine<Key>
where
    Inner: Impartial<Key = Key>,
    Key: std::hash::Hash + Eq + Clone,
{
    type Value = Nimber;
    type Failure = Error;

    fn search_within(
        &mut self,
        game: &SumGame<Inner>,
        position: &Vec<Inner::Component>,
        budget: u64,
    ) -> std::result::Result<Nimber, Stop<Error>> {
        let own = std::mem::replace(&mut self.budget, budget);
        let found = self.within(|engine| engine.sum(&game.0, position));
        self.budget = own;
        match found {
            Ok(nimber) => {
                let finished = game.legal_moves(position).is_empty();
                Ok(Nimber { nimber, won: nimber != 0, remoteness: finished.then_some(0) })
            }
            Err(Error::Budget(Budget::Positions(_))) => Err(Stop::Budget),
            Err(error) => Err(Stop::Failure(error)),
        }
    }

    fn budget(&self) -> u64 {
        self.budget
    }
}

impl<Key> crate::engines::Statistics for GrundyEngine<Key> {
    fn stats(&self) -> Stats {
        Stats { table_entries: self.table.len() as u64, ..self.stats }
    }
}

#[cfg(test)]
mod tests {
    use super::{mex, mex_in_place};

    #[test]
    fn mex_is_the_least_missing_value() {
        assert_eq!(mex(&[]), 0);
        assert_eq!(mex(&[1, 2]), 0);
        assert_eq!(mex(&[0, 2, 1, 5]), 3);
        assert_eq!(mex(&[0, 0, 1, 1]), 2);
        assert_eq!(mex(&[3, 2, 1, 0, 9, 9, 5]), 4);
    }

    #[test]
    fn in_place_mex_agrees_with_the_definition() {
        let mut state = 12345u64;
        for length in 0..40 {
            for _ in 0..50 {
                let values: Vec<u32> = (0..length)
                    .map(|_| {
                        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        (state >> 59) as u32
                    })
                    .collect();
                let expected = (0..).find(|candidate| !values.contains(candidate)).unwrap();
                assert_eq!(mex_in_place(&mut values.clone()), expected, "{values:?}");
            }
        }
    }
}
