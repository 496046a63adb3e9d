//! The first guess of the null-window driver of [`super::ScoredAlphaBeta`]: iterative deepening of a
//! depth-limited alpha-beta without a table, scoring the positions at its horizon by the game's
//! [`SearchHints::estimate`], within a budget of positions.
//!
//! The guess only aims the driver's first test: a wrong guess costs null-window searches, never a wrong score.
//! A root the table bounds already gets no more than the default budget ([`root_guess_budget`]).
//! An iteration that met no horizon (every line it searched reached the end of the game or a position of known
//! [`SearchHints::exact`] score) is an exact full-window search, and its value is the score itself.
//!
//! Along the first line of an iteration (its nodes of full window), every move after the first is searched
//! within the bound the first one gave, all of them apart ([`Siblings`]): on one thread one after the other,
//! in [`super::ScoredLazySmp`] on its threads at once. Their windows do not depend on one another, so the
//! positions a whole iteration expands, hence which iterations fit the budget and the guess, are the same on
//! any number of threads (an iteration past the budget is dropped, however far each thread got in it).

use crate::engines::support::{with_stack_every, MoveLists};
use crate::hints::Shortcut;
use crate::scored::ScoredGame;
use crate::scored::{Deterministic, SCORE_LIMIT};
use crate::SearchHints;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::GUESS_POSITIONS;

/// What the first-guess search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Guess {
    /// No guess: the game has no estimate, or the budget did not cover the first iteration.
    None,
    /// The value of the deepest iteration done (an estimate).
    Estimate(i32),
    /// The exact score (an iteration met no horizon).
    Exact(i32),
}

/// The budget of the first guess at a root, from the engine's `budget`: a root the table `bounded` already
/// (a child of a root searched before, say) gets at most the default [`GUESS_POSITIONS`], as its tests clamp
/// to the stored bound; a deep guess is for a root the table knows nothing of (Othello 6 x 6's start: a guess of
/// 2^26 positions aims it, and spent again on each of its four moves it would cost over a minute and a half).
pub(crate) fn root_guess_budget(budget: u64, bounded: bool) -> u64 {
    if bounded {
        budget.min(GUESS_POSITIONS)
    } else {
        budget
    }
}

/// Below this many plies left, the moves of a node on the first line are searched as any node's (their trees
/// are too small to hand to a thread).
const SPLIT_PLIES: u32 = 3;

/// One move after the first of a node on the first line: the position it leads to and whether the turn
/// passes there.
pub(crate) struct Sibling<Position> {
    position: Position,
    passes: bool,
}

/// What searching a sibling found: its score for the node's mover, the positions expanded, whether its budget
/// ran out and whether it met the horizon.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SiblingFound {
    score: i32,
    visited: u64,
    stopped: bool,
    horizon_met: bool,
}

/// How the siblings of a node on the first line are searched: each within the [`Window`]'s `(alpha, beta)`
/// for the node's mover, to its plies, within the budget they share.
pub(crate) trait Siblings<Ruleset: ScoredGame + SearchHints> {
    /// The siblings' findings, in their order.
    fn search(&self, game: &Ruleset, siblings: &[Sibling<Ruleset::Position>], window: Window) -> Vec<SiblingFound>;
}

/// Where siblings are searched: their ply, the plies left, the window for the node's mover, and the budget
/// they share with what they have spent of it so far.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Window<'spent> {
    ply: u32,
    depth: u32,
    alpha: i32,
    beta: i32,
    budget: u64,
    spent: &'spent AtomicU64,
}

/// Siblings add what they expanded to their shared count every this many positions: an iteration that
/// passes the budget is dropped whatever its siblings' order, so each may stop once they are past it together.
const SHARE_EVERY: u64 = 1 << 10;

/// One sibling's search, by a search of its own.
fn search_sibling<Ruleset, Split>(
    game: &Ruleset,
    split: &Split,
    sibling: &Sibling<Ruleset::Position>,
    window: Window,
) -> SiblingFound
where
    Ruleset: Deterministic + SearchHints,
    Split: Siblings<Ruleset>,
{
    let mut shallow = Shallow::new(game, split, window.budget);
    shallow.shared = Some((window.spent, window.budget));
    let Window { ply, depth, alpha, beta, .. } = window;
    let score = if sibling.passes {
        -shallow.search(&sibling.position, ply, depth, -beta, -alpha, false)
    } else {
        shallow.search(&sibling.position, ply, depth, alpha, beta, false)
    };
    SiblingFound { score, visited: shallow.visited, stopped: shallow.stopped, horizon_met: shallow.horizon_met }
}

/// Siblings one after the other, on the caller's thread.
pub(crate) struct InTurn;

impl<Ruleset: Deterministic + SearchHints> Siblings<Ruleset> for InTurn {
    fn search(&self, game: &Ruleset, siblings: &[Sibling<Ruleset::Position>], window: Window) -> Vec<SiblingFound> {
        siblings.iter().map(|sibling| search_sibling(game, self, sibling, window)).collect()
    }
}

/// Siblings at once, on a pool's threads.
#[cfg(feature = "parallel")]
pub(crate) struct AtOnce<'pool>(pub(crate) &'pool rayon::ThreadPool);

#[cfg(feature = "parallel")]
impl<Ruleset> Siblings<Ruleset> for AtOnce<'_>
where
    Ruleset: Deterministic + SearchHints + Sync,
    Ruleset::Position: Sync,
{
    fn search(&self, game: &Ruleset, siblings: &[Sibling<Ruleset::Position>], window: Window) -> Vec<SiblingFound> {
        use rayon::prelude::*;
        self.0.install(|| siblings.par_iter().map(|sibling| search_sibling(game, self, sibling, window)).collect())
    }
}

/// A depth-limited search of one root.
struct Shallow<'search, Ruleset: ScoredGame + SearchHints, Split> {
    game: &'search Ruleset,
    split: &'search Split,
    lists: MoveLists<Ruleset::Move>,
    /// A sibling's search: the count the siblings share and their budget.
    shared: Option<(&'search AtomicU64, u64)>,
    visited: u64,
    budget: u64,
    stopped: bool,
    /// Whether the iteration under way scored a position by the estimate (else it is exact).
    horizon_met: bool,
}

/// The first guess at the score of `root` (not over) by iterative deepening within `budget` positions, and
/// the positions it expanded; `split` searches the siblings along the first line.
pub(crate) fn first_guess<Ruleset, Split>(
    game: &Ruleset,
    root: &Ruleset::Position,
    budget: u64,
    split: &Split,
) -> (Guess, u64)
where
    Ruleset: Deterministic + SearchHints,
    Split: Siblings<Ruleset>,
{
    if game.estimate(root).is_none() {
        return (Guess::None, 0);
    }
    let mut shallow = Shallow::new(game, split, budget);
    let mut guess = Guess::None;
    for depth in 1.. {
        shallow.horizon_met = false;
        let value = shallow.search(root, 0, depth, -SCORE_LIMIT - 1, SCORE_LIMIT + 1, true);
        if shallow.stopped {
            break;
        }
        if !shallow.horizon_met {
            guess = Guess::Exact(value);
            break;
        }
        guess = Guess::Estimate(value);
    }
    (guess, shallow.visited)
}

impl<'search, Ruleset: Deterministic + SearchHints, Split: Siblings<Ruleset>> Shallow<'search, Ruleset, Split> {
    /// A search with nothing expanded yet.
    fn new(game: &'search Ruleset, split: &'search Split, budget: u64) -> Self {
        Shallow {
            game,
            split,
            lists: MoveLists::default(),
            shared: None,
            visited: 0,
            budget,
            stopped: false,
            horizon_met: false,
        }
    }

    /// Fail-soft alpha-beta to `depth` plies more from `position`, at ply `ply` from the root; `first` on the
    /// iteration's first line (whose siblings go to the split).
    fn search(
        &mut self,
        position: &Ruleset::Position,
        ply: u32,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        first: bool,
    ) -> i32 {
        if self.stopped {
            return 0;
        }
        if let Some(score) = self.game.outcome(position) {
            return score;
        }
        if let Some(score) = self.game.shortcut(position).and_then(Shortcut::exact) {
            return score;
        }
        let (low, high) = self.game.value_range(position);
        if depth == 0 {
            self.horizon_met = true;
            return self.game.estimate(position).unwrap_or(0).clamp(low, high);
        }
        if self.visited >= self.budget {
            self.stopped = true;
            return 0;
        }
        self.visited += 1;
        if let Some((spent, budget)) = self.shared.filter(|_| self.visited.is_multiple_of(SHARE_EVERY)) {
            if spent.fetch_add(SHARE_EVERY, Relaxed) + SHARE_EVERY > budget {
                self.stopped = true;
                return 0;
            }
        }
        let level = usize::try_from(ply).unwrap_or(usize::MAX);
        let game = self.game;
        let moves = self.lists.take_filled(level, |moves, scores| game.search_moves(position, moves, scores));
        let mut best = -SCORE_LIMIT - 1;
        let (next, rest) = (ply.saturating_add(1), depth - 1);
        let split = first && depth >= SPLIT_PLIES;
        for (index, mv) in moves.iter().enumerate() {
            if split && index == 1 {
                self.siblings(position, &moves[1..], (next, rest, alpha, beta), &mut best);
                break;
            }
            let child = game.play(position, mv);
            let on_line = first && index == 0;
            let score = if game.turn_passes(position, &child) {
                -with_stack_every(ply, || self.search(&child, next, rest, -beta, -alpha, on_line))
            } else {
                with_stack_every(ply, || self.search(&child, next, rest, alpha, beta, on_line))
            };
            if self.stopped {
                break;
            }
            best = best.max(score);
            alpha = alpha.max(best);
            if alpha >= beta || best >= high {
                break;
            }
        }
        self.lists.give_back(level, moves);
        if moves_were_empty(best) {
            self.stopped = true;
            return 0;
        }
        best
    }

    /// The moves after the first of a node on the first line, each within `window` (the bound the first
    /// gave), apart; `best` raised to the best of their scores. An iteration whose siblings together pass the
    /// budget stops, as it would one after the other.
    fn siblings(
        &mut self,
        position: &Ruleset::Position,
        moves: &[Ruleset::Move],
        (ply, depth, alpha, beta): (u32, u32, i32, i32),
        best: &mut i32,
    ) {
        let game = self.game;
        let siblings: Vec<_> = moves
            .iter()
            .map(|mv| {
                let child = game.play(position, mv);
                Sibling { passes: game.turn_passes(position, &child), position: child }
            })
            .collect();
        let spent = AtomicU64::new(0);
        let window =
            Window { ply, depth, alpha, beta, budget: self.budget.saturating_sub(self.visited), spent: &spent };
        for found in self.split.search(game, &siblings, window) {
            self.visited = self.visited.saturating_add(found.visited);
            self.stopped |= found.stopped;
            self.horizon_met |= found.horizon_met;
            *best = (*best).max(found.score);
        }
        self.stopped |= self.visited > self.budget;
    }
}

/// Whether a search found no move (a position not over without moves breaks the game's contract; the exact
/// search reports it, the guess only gives up).
fn moves_were_empty(best: i32) -> bool {
    best == -SCORE_LIMIT - 1
}
