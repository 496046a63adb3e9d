//! The conformance harness that every plugin's tests call, and that `ludus check` runs.
//!
//! - [`check_game`]: move generation is deterministic, random playouts end, canonical keys are stable under the
//!   game's symmetries, and memoized negamax agrees with plain negamax on the positions met.
//! - [`check_plugin`]: on random small instances every solver agrees and every answer verifies;
//!   [`check_sample`]: the bundled sample comes out right; [`check_corruption`]: the verifier rejects wrong
//!   answers.

use crate::engines::negamax::{MemoNegamax, PlainNegamax};
use crate::engines::{Engine, Mode};
use crate::error::Result;
use crate::game::Canonicalize;
use crate::input::Source;
use crate::plugin::{seeded_rng, CaseAnswer, Comparison, GenOptions, NoProgress, Plugin, Preset, SolveOptions};
use rand::Rng;
use serde::Serialize;

/// Checks a game's implementation from `start`: `playouts` random games, each at most `max_plies` long.
/// `symmetries(p)` lists positions equivalent to `p` (may be empty). With `compare_engines`, each position met
/// is also solved by memoized and plain negamax (keep the game small). Returns the first problem found.
pub fn check_game<Rules: Canonicalize + crate::hints::SearchHints>(
    game: &Rules,
    start: &Rules::Position,
    playouts: usize,
    max_plies: usize,
    seed: u64,
    symmetries: &dyn Fn(&Rules::Position) -> Vec<Rules::Position>,
    compare_engines: bool,
) -> std::result::Result<(), String> {
    let mut rng = seeded_rng(seed);
    let mut memo = MemoNegamax::new(Mode::Exact);
    let mut plain = PlainNegamax::new(Mode::Exact);
    for playout in 0..playouts {
        let mut position = start.clone();
        for ply in 0..=max_plies {
            let first = game.legal_moves(&position);
            if first != game.legal_moves(&position) {
                return Err(format!("playout {playout}, ply {ply}: moves differ between two calls at {position:?}"));
            }
            let key = game.canonical(&position);
            for image in symmetries(&position) {
                if game.canonical(&image) != key {
                    return Err(format!("canonical key of {image:?} differs from that of its symmetric {position:?}"));
                }
            }
            if compare_engines {
                let (fast, slow) = (memo.value(game, &position), plain.value(game, &position));
                if fast != slow {
                    return Err(format!("memoized negamax says {fast}, plain negamax {slow} at {position:?}"));
                }
            }
            if game.is_over(&position) || first.is_empty() {
                break;
            }
            if ply == max_plies {
                return Err(format!("playout {playout} did not end within {max_plies} plies"));
            }
            position = game.play(&position, &first[rng.gen_range(0..first.len())]);
        }
    }
    Ok(())
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
    let solvers: Vec<String> = plugin.solvers().iter().map(|s| s.name.to_string()).collect();
    let mut report = CheckReport { cases, solvers: solvers.clone(), failures: Vec::new() };
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
    }
    Ok(report)
}

/// Solves the bundled sample with `solver` and judges the answer with [`judge_sample`].
pub fn check_sample(plugin: &dyn Plugin, solver: &str) -> Result<std::result::Result<(), String>> {
    let sample = plugin.sample();
    let answers =
        plugin.solve(Source::new("sample.in", sample.input), &SolveOptions::with_solver(solver), &NoProgress)?;
    judge_sample(plugin, &plugin.render(&answers))
}

/// Judges a rendered answer to the bundled sample: equal to the published answer (for [`Comparison::Text`]),
/// or (for [`Comparison::Rule`]) accepted by the verifier, as the published answer must be too.
pub fn judge_sample(plugin: &dyn Plugin, rendered: &str) -> Result<std::result::Result<(), String>> {
    let sample = plugin.sample();
    let input = Source::new("sample.in", sample.input);
    match plugin.comparison() {
        Comparison::Text => {
            if rendered.trim_end() == sample.answer.trim_end() {
                Ok(Ok(()))
            } else {
                Ok(Err(format!("expected:\n{}\ngot:\n{}", sample.answer.trim_end(), rendered.trim_end())))
            }
        }
        Comparison::Rule => {
            let mut problems = rejections(plugin.judge(input, Source::new("answer", rendered))?, "case");
            problems
                .extend(rejections(plugin.judge(input, Source::new("sample.ans", sample.answer))?, "published case"));
            if problems.is_empty() {
                Ok(Ok(()))
            } else {
                Ok(Err(problems.join("; ")))
            }
        }
    }
}

fn rejections(verdicts: Vec<crate::plugin::CaseVerdict>, label: &str) -> Vec<String> {
    verdicts.into_iter().filter_map(|v| v.problem.map(|p| format!("{label} {}: {p}", v.case))).collect()
}

/// Solves `input` with `options`, corrupts every answer in turn ([`Plugin::corruptions`]) and checks that the
/// judge rejects the corrupted case, and only it. Returns the number of corruptions tried.
pub fn check_corruption(
    plugin: &dyn Plugin,
    input: &str,
    options: &SolveOptions,
    seed: u64,
) -> Result<std::result::Result<usize, String>> {
    plugin.corruptions(input, options, seed)
}
