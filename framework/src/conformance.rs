//! The conformance harness that every game's and plugin's tests call, and that `ludus check` runs.
//!
//! - [`GameCheck`]: for a game of any family, move generation is deterministic and every listed move is legal,
//!   the hints' move lists are legal moves, values lie within the hints' ranges, random playouts end, no
//!   position comes back on a playout unless the game says its positions repeat
//!   ([`Rules::POSITIONS_REPEAT`]), no move the shortcuts are said to catch
//!   ends the game uncaught ([`SearchHints::shortcuts_catch_game_ends`]), canonical keys are stable under the
//!   game's symmetries, chance nodes give outcomes of positive weight that are their moves, and two engines
//!   agree on the positions met (memoized and plain negamax for a [`Game`], alpha-beta and plain minimax for a
//!   deterministic scored game).
//! - [`check_plugin`]: on random small instances every solver agrees and every answer verifies;
//!   [`check_sample`]: the bundled sample comes out right; [`check_corruption`]: the verifier rejects wrong
//!   answers.

use crate::engines::negamax::{MemoNegamax, PlainNegamax};
use crate::engines::scored::{ScoredAlphaBeta, ScoredMinimax};
use crate::engines::{Engine, Mode};
use crate::error::{Error, Result};
use crate::game::{Canonicalize, Game, Outcome, Rules};
use crate::hints::{Proven, SearchHints};
use crate::input::Source;
use crate::plugin::{
    seeded_rng, CaseAnswer, Comparison, Corruptions, GenOptions, NoProgress, Plugin, Preset, Progress, SolveOptions,
};
use crate::scored::{Chance, Deterministic};
use rand::Rng;
use serde::Serialize;
use std::collections::HashSet;

/// A move of `moves` (those of `position`, which is not over) that ends the game although the game's shortcuts
/// are said to catch every such move ([`SearchHints::shortcuts_catch_game_ends`]) and none settles `position`.
fn uncaught_end<'moves, Ruleset: SearchHints>(
    game: &Ruleset,
    position: &Ruleset::Position,
    moves: &'moves [Ruleset::Move],
) -> Option<&'moves Ruleset::Move> {
    if !game.shortcuts_catch_game_ends() {
        return None;
    }
    match game.proven(position) {
        Proven::Shortcut(shortcut) if shortcut.exact().is_some() => None,
        _ => moves.iter().find(|mv| game.is_over(&game.play(position, mv))),
    }
}

/// The images of a position under a game's symmetries (positions with the same canonical key).
pub type Symmetries<'check, Position> = &'check dyn Fn(&Position) -> Vec<Position>;

/// A check run at every position met that is not over: `Err` says what is wrong there.
type PositionCheck<'check, Ruleset> =
    Box<dyn FnMut(&Ruleset, &<Ruleset as Rules>::Position) -> std::result::Result<(), String> + 'check>;

/// The error of a game that breaks a contract the check tests.
fn broken(detail: String) -> Error {
    Error::Contract { contract: "Rules", detail }
}

/// Checks a game's implementation, of any family, by random playouts from a start position:
/// - [`Rules::moves`] is deterministic, every move it lists passes
///   [`Rules::is_legal`], and every move the hints search is legal;
/// - every playout ends within the ply limit, and no position comes back on a playout unless the game says its
///   positions repeat (a game that does may play on forever: its playouts stop at the limit);
/// - a finished position's outcome, and a position's value range, lie within the outcome's widest range;
/// - the canonical key is the same for every symmetric image of a position;
/// - optionally, two engines agree on the positions met ([`GameCheck::compare_engines`],
///   [`GameCheck::compare_scores`]), and a chance node's outcomes are its moves ([`GameCheck::with_chance`]).
///
/// ```
/// use ludus_framework::conformance::GameCheck;
/// use ludus_framework::{Canonicalize, Game, Rules, SearchHints, Value};
///
/// struct TakeAway;
/// impl Rules for TakeAway {
///     type Position = u32;
///     type Move = u32;
///     type Outcome = Value;
///     fn moves(&self, pile: &u32, moves: &mut Vec<u32>) { moves.extend((1..=2).filter(|take| take <= pile)); }
///     fn play(&self, pile: &u32, take: &u32) -> u32 { pile - take }
///     fn outcome(&self, pile: &u32) -> Option<Value> { (*pile == 0).then_some(Value::LOST) }
/// }
///
/// impl Game for TakeAway {}
/// impl SearchHints for TakeAway {}
/// impl Canonicalize for TakeAway {
///     type Key = u32;
///     fn canonical(&self, pile: &u32) -> u32 { *pile }
/// }
///
/// GameCheck::new(&TakeAway, 12).playouts(50).max_plies(12).compare_engines().run()?;
/// # Ok::<(), ludus_framework::Error>(())
/// ```
pub struct GameCheck<'check, Ruleset: Rules> {
    game: &'check Ruleset,
    start: Ruleset::Position,
    playouts: usize,
    max_plies: usize,
    seed: u64,
    symmetries: Option<Symmetries<'check, Ruleset::Position>>,
    /// Checks at every position met that is not over (engine comparisons, chance outcomes).
    extra: Vec<PositionCheck<'check, Ruleset>>,
}

impl<'check, Ruleset: Canonicalize + SearchHints> GameCheck<'check, Ruleset> {
    /// A check of `game` from `start`: 20 playouts of at most 1,000 plies, seed 0, no symmetries, no engine
    /// comparison.
    pub fn new(game: &'check Ruleset, start: Ruleset::Position) -> Self {
        GameCheck { game, start, playouts: 20, max_plies: 1000, seed: 0, symmetries: None, extra: Vec::new() }
    }

    /// The number of random playouts.
    #[must_use]
    pub fn playouts(self, playouts: usize) -> Self {
        GameCheck { playouts, ..self }
    }

    /// The most plies a playout may last: a longer one is a failure (the game may not end), unless the game's
    /// positions repeat.
    #[must_use]
    pub fn max_plies(self, max_plies: usize) -> Self {
        GameCheck { max_plies, ..self }
    }

    /// The seed of the random playouts.
    #[must_use]
    pub fn seed(self, seed: u64) -> Self {
        GameCheck { seed, ..self }
    }

    /// The game's symmetries: every image must have the position's canonical key.
    #[must_use]
    pub fn symmetries(self, symmetries: Symmetries<'check, Ruleset::Position>) -> Self {
        GameCheck { symmetries: Some(symmetries), ..self }
    }

    /// Also solves every distinct position met (by canonical key) with memoized and with plain negamax, and
    /// compares them (each is solved once, so many playouts stay cheap; keep such games small, or use
    /// [`GameCheck::compare_engines_within`]).
    #[must_use]
    pub fn compare_engines(self) -> Self
    where
        Ruleset: Game,
        Ruleset::Key: 'check,
    {
        self.compare_engines_within(u64::MAX)
    }

    /// [`GameCheck::compare_engines`] at the positions plain negamax solves within `budget` positions (the
    /// others are skipped): for games too large to solve from every position met.
    #[must_use]
    pub fn compare_engines_within(mut self, budget: u64) -> Self
    where
        Ruleset: Game,
        Ruleset::Key: 'check,
    {
        let mut memo = MemoNegamax::new(Mode::Exact);
        let mut plain = PlainNegamax::new(Mode::Exact).with_budget(budget);
        let mut compared = HashSet::new();
        self.extra.push(Box::new(move |game: &Ruleset, position: &Ruleset::Position| {
            if !compared.insert(game.canonical(position)) {
                return Ok(());
            }
            let Ok(slow) = plain.try_value(game, position) else { return Ok(()) };
            let fast = memo.value(game, position);
            if fast != slow {
                return Err(format!("memoized negamax says {fast}, plain negamax {slow} at {position:?}"));
            }
            Ok(())
        }));
        self
    }

    /// Also compares alpha-beta's score with plain minimax's at every position met that minimax solves within
    /// `budget` positions (a deterministic scored game).
    #[must_use]
    pub fn compare_scores(mut self, budget: u64) -> Self
    where
        Ruleset: Deterministic,
        Ruleset::Key: 'check,
    {
        let mut alpha_beta = ScoredAlphaBeta::new(Mode::Exact);
        self.extra.push(Box::new(move |game: &Ruleset, position: &Ruleset::Position| {
            let Ok(reference) = ScoredMinimax::new().with_budget(budget).try_value(game, position) else {
                return Ok(());
            };
            let found = alpha_beta.search(game, position).map_err(|error| error.to_string())?;
            if found != reference {
                return Err(format!("alpha-beta scores {position:?} {found}, plain minimax {reference}"));
            }
            Ok(())
        }));
        self
    }

    /// Also checks every chance node met: its outcomes are its moves, in order, with positive weights of a sum
    /// of at most `2^53`.
    #[must_use]
    pub fn with_chance(mut self) -> Self
    where
        Ruleset: Chance,
    {
        self.extra.push(Box::new(|game: &Ruleset, position: &Ruleset::Position| {
            if !game.is_chance(position) {
                return Ok(());
            }
            let mut outcomes = Vec::new();
            game.outcomes(position, &mut outcomes);
            let listed: Vec<_> = outcomes.iter().map(|(mv, _)| mv.clone()).collect();
            if listed != game.legal_moves(position) {
                return Err(format!("the outcomes of {position:?} are not its moves, in order"));
            }
            if outcomes.iter().any(|(_, weight)| *weight == 0)
                || outcomes.iter().map(|(_, weight)| *weight).sum::<u64>() > 1 << 53
            {
                return Err(format!("the weights of {position:?} are not positive with a sum of at most 2^53"));
            }
            Ok(())
        }));
        self
    }

    /// Runs the check: the first problem found, as [`Error::Contract`], if any.
    pub fn run(mut self) -> Result<()> {
        let game = self.game;
        let mut rng = seeded_rng(self.seed);
        for playout in 0..self.playouts {
            let mut position = self.start.clone();
            let mut path = HashSet::new();
            for ply in 0..=self.max_plies {
                let place = || format!("playout {playout}, ply {ply}");
                if !Ruleset::POSITIONS_REPEAT && !path.insert(position.clone()) {
                    return Err(broken(format!(
                        "{}: {position:?} came back on the playout, but the game says its positions never repeat \
                         (set `Rules::POSITIONS_REPEAT`: only the retrograde engine and value iteration solve a game \
                         whose positions repeat)",
                        place()
                    )));
                }
                self.check_position(&position).map_err(|detail| broken(format!("{}: {detail}", place())))?;
                let moves = game.legal_moves(&position);
                if game.is_over(&position) || moves.is_empty() {
                    break;
                }
                for extra in &mut self.extra {
                    extra(game, &position).map_err(|detail| broken(format!("{}: {detail}", place())))?;
                }
                if ply == self.max_plies {
                    if Ruleset::POSITIONS_REPEAT {
                        break;
                    }
                    return Err(broken(format!("playout {playout} did not end within {} plies", self.max_plies)));
                }
                position = game.play(&position, &moves[rng.gen_range(0..moves.len())]);
            }
        }
        Ok(())
    }

    /// The checks of one position (of a playout): moves, hints, ranges, keys.
    fn check_position(&self, position: &Ruleset::Position) -> std::result::Result<(), String> {
        let game = self.game;
        let first = game.legal_moves(position);
        if first != game.legal_moves(position) {
            return Err(format!("moves differ between two calls at {position:?}"));
        }
        let key = game.canonical(position);
        if game.canonical(&position.clone()) != key {
            return Err(format!("the key of {position:?} is not stable"));
        }
        for image in self.symmetries.map(|images| images(position)).unwrap_or_default() {
            if game.canonical(&image) != key {
                return Err(format!("canonical key of {image:?} differs from that of its symmetric {position:?}"));
            }
        }
        if let Some(outcome) = game.outcome(position) {
            if outcome < Ruleset::Outcome::WORST || outcome > Ruleset::Outcome::BEST {
                return Err(format!("the outcome {outcome:?} of {position:?} is beyond the widest range"));
            }
            return Ok(());
        }
        if let Some(illegal) = first.iter().find(|mv| !game.is_legal(position, mv)) {
            return Err(format!("the listed move {illegal:?} fails is_legal at {position:?}"));
        }
        if let Some(ending) = uncaught_end(game, position, &first) {
            return Err(format!(
                "the shortcuts are said to catch every game end, but {position:?} has none that settles it and its \
                 move {ending:?} ends the game"
            ));
        }
        if let Proven::Range(low, high) = game.proven(position) {
            if low > high || low < Ruleset::Outcome::WORST || high > Ruleset::Outcome::BEST {
                return Err(format!("the value range ({low:?}, {high:?}) of {position:?} is not a range of values"));
            }
        }
        if first.len() > 1 {
            let mut searched = Vec::new();
            game.search_moves(position, &mut searched, &mut Vec::new());
            if searched.is_empty() || searched.iter().any(|mv| !first.contains(mv)) {
                return Err(format!(
                    "the searched moves {searched:?} of {position:?} are not among its moves {first:?}"
                ));
            }
        }
        Ok(())
    }
}

/// A case on which solvers disagree, or whose answer the verifier rejects.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckFailure {
    /// The input (one case, official format).
    pub input: String,
    /// What went wrong, with each solver's answer.
    pub problem: String,
}

/// The result of [`check_plugin`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// Instances checked.
    pub cases: usize,
    /// Solvers compared.
    pub solvers: Vec<String>,
    /// Every failure found (empty when all is well).
    pub failures: Vec<CheckFailure>,
}

/// The table budget (MiB) of random small cases: a small table spares allocating (and zeroing) a full-size one
/// for every case.
pub const CHECK_TABLE_MB: usize = 4;

/// Generates `cases` random small one-case inputs (seeds `seed`, `seed + 1`, ...); on each, runs every
/// solver, compares their answers (by class), and verifies every answer with the plugin's verifier.
pub fn check_plugin(plugin: &dyn Plugin, cases: usize, seed: u64) -> Result<CheckReport> {
    check_plugin_with(plugin, cases, seed, &SolveOptions { table_mb: CHECK_TABLE_MB, ..SolveOptions::default() })
}

/// [`check_plugin`] with solve options (for example `witness`, so that winning lines are replayed by the
/// verifier too); `options.solver` is replaced by each solver in turn.
pub fn check_plugin_with(plugin: &dyn Plugin, cases: usize, seed: u64, options: &SolveOptions) -> Result<CheckReport> {
    check_plugin_observed(plugin, cases, seed, options, &NoProgress)
}

/// [`check_plugin_with`], reporting each case checked to `progress` (the CLI shows a bar).
pub fn check_plugin_observed(
    plugin: &dyn Plugin,
    cases: usize,
    seed: u64,
    options: &SolveOptions,
    progress: &dyn Progress,
) -> Result<CheckReport> {
    let solvers: Vec<String> = plugin.solvers().iter().map(|s| s.name.to_string()).collect();
    let mut report = CheckReport { cases, solvers: solvers.clone(), failures: Vec::new() };
    progress.start(cases as u64);
    for index in 0..cases {
        let input = plugin.generate(
            &GenOptions { preset: Preset::Small, cases: Some(1), size: None },
            seed.wrapping_add(index as u64),
        )?;
        let source = Source::new("generated", &input);
        let mut answers: Vec<(String, Vec<CaseAnswer>)> = Vec::new();
        let mut problems = Vec::new();
        for solver in &solvers {
            let options = SolveOptions { solver: solver.clone(), ..options.clone() };
            match plugin.solve(source, &options, &NoProgress) {
                Ok(answer) => answers.push((solver.clone(), answer)),
                Err(error) => problems.push(format!("solver `{solver}` failed: {error}")),
            }
        }
        if let Some((first_name, first)) = answers.first() {
            for (name, other) in &answers[1..] {
                let classes = |a: &Vec<CaseAnswer>| a.iter().map(|c| c.class.clone()).collect::<Vec<_>>();
                if classes(first) != classes(other) {
                    problems.push(format!(
                        "`{first_name}` answered {:?} but `{name}` answered {:?}",
                        classes(first),
                        classes(other)
                    ));
                }
            }
        }
        for (name, answer) in &answers {
            let rendered = plugin.render(answer);
            for verdict in plugin.judge(source, Source::new("answer", &rendered))? {
                if let Some(problem) = verdict.problem {
                    problems
                        .push(format!("the verifier rejects `{name}`'s answer to case {}: {problem}", verdict.case));
                }
            }
        }
        if !problems.is_empty() {
            report.failures.push(CheckFailure { input, problem: problems.join("; ") });
        }
        progress.advance(1);
    }
    Ok(report)
}

/// What [`judge_sample`] finds of an answer to the bundled sample.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "verdict")]
pub enum SampleVerdict {
    /// The answer is right (and, for [`Comparison::Rule`], so is the published one).
    Right,
    /// The answer is wrong, or the verifier rejects the published answer: why.
    Wrong {
        /// What differs or what the verifier said, case by case.
        reason: String,
    },
}

/// Solves the bundled sample with `solver` and judges the answer with [`judge_sample`].
pub fn check_sample(plugin: &dyn Plugin, solver: &str) -> Result<SampleVerdict> {
    let sample = plugin.sample();
    let answers =
        plugin.solve(Source::new("sample.in", sample.input), &SolveOptions::with_solver(solver), &NoProgress)?;
    judge_sample(plugin, &plugin.render(&answers))
}

/// Judges a rendered answer to the bundled sample: equal to the published answer (for [`Comparison::Text`]),
/// or (for [`Comparison::Rule`]) accepted by the verifier, as the published answer must be too.
pub fn judge_sample(plugin: &dyn Plugin, rendered: &str) -> Result<SampleVerdict> {
    let sample = plugin.sample();
    let input = Source::new("sample.in", sample.input);
    match plugin.comparison() {
        Comparison::Text => {
            if rendered.trim_end() == sample.answer.trim_end() {
                Ok(SampleVerdict::Right)
            } else {
                let reason = format!("expected:\n{}\ngot:\n{}", sample.answer.trim_end(), rendered.trim_end());
                Ok(SampleVerdict::Wrong { reason })
            }
        }
        Comparison::Rule => {
            let mut problems = rejections(plugin.judge(input, Source::new("answer", rendered))?, "case");
            problems
                .extend(rejections(plugin.judge(input, Source::new("sample.ans", sample.answer))?, "published case"));
            if problems.is_empty() {
                Ok(SampleVerdict::Right)
            } else {
                Ok(SampleVerdict::Wrong { reason: problems.join("; ") })
            }
        }
    }
}

fn rejections(verdicts: Vec<crate::plugin::CaseVerdict>, label: &str) -> Vec<String> {
    verdicts.into_iter().filter_map(|v| v.problem.map(|p| format!("{label} {}: {p}", v.case))).collect()
}

/// Solves `input` with `options`, corrupts every answer in turn ([`Plugin::corruptions`]) and checks that the
/// judge rejects the corrupted case, and only it: the number of corruptions tried, or the first one misjudged.
pub fn check_corruption(plugin: &dyn Plugin, input: &str, options: &SolveOptions, seed: u64) -> Result<Corruptions> {
    plugin.corruptions(input, options, seed)
}
