//! The `stack-management` plugin: its solver table (the `generic` solver's size limit included), its typed
//! answer (the verdict, why, and the winning line with `--option witness`), the self-check that replays every winning
//! line, and the judge.

use super::fast::{self, Scratch};
use super::format::{parse, read_claim, CaseSpec, Instance};
use super::{generate, generic, replay, Card, LineMove, Step};
use ludus_framework::input::Source;
use ludus_framework::parameters::{Parameter, ParameterKind};
use ludus_framework::plugin::driver::option_arguments;
use ludus_framework::plugin::{
    About, CaseBlock, CaseList, Comparison, GenOptions, Kind, Limit, Parallelism, Problem, Sample, Scope, SeededRng,
    SolveOptions, Solver, Tables, Worker,
};
use ludus_framework::{Error, Result, Stats, Violation};
use rand::Rng;
use serde::Serialize;

/// The `stack-management` plugin.
#[derive(Clone, Copy, Debug, Default)]
pub struct StackManagement;

/// The plugin's own options: `witness`.
const OPTIONS: &[Parameter] = &[Parameter {
    name: "witness",
    help: "give each winnable case's winning line (the judge replays it); `fast` then builds the line even \
           where the suit count alone decides",
    kind: ParameterKind::Switch { default: false },
}];

/// Whether a solve gives winning lines (the `witness` option).
fn witness(options: &SolveOptions) -> Result<bool> {
    option_arguments::<StackManagement>(options)?.switch("witness")
}

/// The answer to one case: whether it can be won, why, and (with `--option witness`, for a case that can be won) a
/// winning line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StackAnswer {
    /// POSSIBLE (true) or IMPOSSIBLE (false).
    pub possible: bool,
    /// Why, in words (empty for an answer read from a file).
    pub reason: String,
    /// The winning line, if one is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<LineMove>>,
}

impl StackAnswer {
    /// The answer of a solver: `steps` become the winning line when `witness` is asked for and the case can be
    /// won (numbered from line 2, the line after `Case #x:`).
    fn solved(possible: bool, reason: String, steps: Vec<Step>, witness: bool) -> Self {
        let moves = (witness && possible)
            .then(|| steps.into_iter().enumerate().map(|(index, step)| LineMove { step, line: index + 2 }).collect());
        StackAnswer { possible, reason, moves }
    }
}

/// The official verdict word.
fn class_name(possible: bool) -> &'static str {
    if possible {
        "POSSIBLE"
    } else {
        "IMPOSSIBLE"
    }
}

impl std::fmt::Display for StackAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, " {}", class_name(self.possible))?;
        for mv in self.moves.iter().flatten() {
            write!(f, "\n{}", mv.step)?;
        }
        Ok(())
    }
}

/// The cards of `case`, written into `cards` (a buffer kept from case to case).
fn fill<'cards>(input: &Instance, case: &CaseSpec, cards: &'cards mut Vec<Card>) -> &'cards [Card] {
    input.fill(case, cards);
    cards
}

/// The `fast` solver at work: its scratch tables and card buffer serve every case.
struct Fast {
    witness: bool,
    scratch: Scratch,
    cards: Vec<Card>,
}

impl Worker<StackManagement> for Fast {
    fn solve(&mut self, _: &StackManagement, input: &Instance, case: usize) -> Result<StackAnswer> {
        let spec = &input.cases[case];
        let outcome = if !self.witness && spec.suits != spec.stacks {
            // Decided by counting suits (found while reading): no need to look at the cards again.
            fast::by_suit_count(spec.suits, spec.stacks)
        } else {
            let cards = fill(input, spec, &mut self.cards);
            // A construction that ends without a win is a bug: a self-check failure (the driver fills in the
            // case number).
            fast::solve(cards, spec.stacks, spec.depth, self.witness, &mut self.scratch)
                .map_err(|reason| Error::SelfCheck { case: 0, reason })?
        };
        Ok(StackAnswer::solved(outcome.possible, outcome.reason, outcome.steps, self.witness))
    }
}

/// The `generic` solver at work: a search per case within its states budget, the statistics of all of them.
struct Generic {
    witness: bool,
    max_states: u64,
    cards: Vec<Card>,
    stats: Stats,
}

impl Worker<StackManagement> for Generic {
    fn solve(&mut self, _: &StackManagement, input: &Instance, case: usize) -> Result<StackAnswer> {
        let spec = &input.cases[case];
        let cards = fill(input, spec, &mut self.cards);
        Ok(match generic::solve(cards, spec.stacks, spec.depth, self.max_states, &mut self.stats)? {
            Some(steps) => {
                StackAnswer::solved(true, "the search found a winning line".to_string(), steps, self.witness)
            }
            None => StackAnswer::solved(false, "the search exhausted every line".to_string(), Vec::new(), self.witness),
        })
    }

    fn stats(&self) -> Stats {
        self.stats
    }
}

// The unit of the generic solver's limit names its bounds in words: keep them in step with the constants.
const _: () = assert!(generic::MAX_STACKS == 4 && generic::MAX_DEPTH == 13);

/// How far a case is beyond the official small set that the generic solver is meant for: the larger of N's
/// excess over [`generic::MAX_STACKS`] and C's over [`generic::MAX_DEPTH`] (0 inside the set). One number keeps
/// both bounds: it is above 0 exactly when N or C is above its bound.
fn small_set_excess(input: &Instance, case: usize) -> u64 {
    input.cases.get(case).map_or(0, |spec| {
        let stacks = spec.stacks.saturating_sub(generic::MAX_STACKS);
        let depth = spec.depth.saturating_sub(generic::MAX_DEPTH);
        stacks.max(depth) as u64
    })
}

/// What the judge keeps from case to case: the fast solver's scratch tables and a card buffer.
#[derive(Debug, Default)]
pub struct Referee {
    scratch: Scratch,
    cards: Vec<Card>,
}

/// The class of a case by the fast solver, checked against the generic one where the case is small.
fn expected_class(cards: &[Card], stacks: usize, depth: usize, scratch: &mut Scratch) -> Result<bool, String> {
    let fast = fast::solve(cards, stacks, depth, false, scratch)
        .map_err(|reason| format!("the fast solver failed: {reason}"))?
        .possible;
    if stacks <= generic::MAX_STACKS && depth <= generic::MAX_DEPTH {
        if let Ok(outcome) = generic::solve(cards, stacks, depth, generic::MAX_STATES, &mut Stats::default()) {
            if outcome.is_some() != fast {
                return Err(format!(
                    "cannot judge: the fast solver says {} but the generic one says {}",
                    class_name(fast),
                    class_name(outcome.is_some())
                ));
            }
        }
    }
    Ok(fast)
}

impl CaseList for Instance {
    fn case_count(&self) -> usize {
        self.cases.len()
    }

    fn case_line(&self, case: usize) -> Option<usize> {
        self.cases.get(case).map(|spec| spec.line)
    }
}

impl Problem for StackManagement {
    type Input = Instance;
    type Answer = StackAnswer;
    type Referee = Referee;

    const ABOUT: &'static About = &About {
        name: "stack-management",
        kind: Kind::Solitaire,
        summary: "Can removals and moves into empty stacks leave at most one card per stack? (GCJ 2017 World Finals)",
        sample: Sample {
            input: include_str!("../../../samples/stack-management/sample.in"),
            answer: include_str!("../../../samples/stack-management/sample.ans"),
        },
        comparison: Comparison::Rule,
    };

    const OPTIONS: &'static [Parameter] = OPTIONS;

    const SOLVERS: &'static [Solver<Self>] = &[
        Solver {
            name: "fast",
            summary: "suit-graph criterion (source suit reaches target suit) with its constructive winning line; \
                      linear",
            limits: &[],
            parallelism: Parallelism::Sequential,
            tables: Tables::None,
            start: |_, options| {
                Ok(Box::new(Fast { witness: witness(options)?, scratch: Scratch::default(), cards: Vec::new() }))
            },
        },
        Solver {
            name: "generic",
            summary: "one-player search over settled states (removals applied eagerly); N <= 4, C <= 13 unless \
                      --no-limit",
            limits: &[Limit {
                scope: Scope::Case,
                unit: "excess of N over 4 or of C over 13 (the larger)",
                max: 0,
                measure: small_set_excess,
            }],
            parallelism: Parallelism::Sequential,
            tables: Tables::None,
            start: |_, options| {
                Ok(Box::new(Generic {
                    witness: witness(options)?,
                    max_states: options.max_positions.unwrap_or(generic::MAX_STATES),
                    cards: Vec::new(),
                    stats: Stats::default(),
                }))
            },
        },
    ];

    fn parse_input(&self, input: Source<'_>) -> Result<Instance> {
        parse(input)
    }

    /// A winning line must replay to a win under the rules; an IMPOSSIBLE answer has none.
    fn verify_answer(&self, input: &Instance, case: usize, answer: &StackAnswer) -> Result<(), Violation> {
        let Some(moves) = &answer.moves else { return Ok(()) };
        if !answer.possible {
            return Err(Violation::new("an IMPOSSIBLE answer has a winning line"));
        }
        let spec = &input.cases[case];
        let mut cards = Vec::new();
        replay::replay(fill(input, spec, &mut cards), spec.stacks, spec.depth, moves).map_err(Violation::new)
    }

    fn read_answer(
        &self,
        input: &Instance,
        case: usize,
        block: &CaseBlock<'_>,
    ) -> std::result::Result<StackAnswer, Violation> {
        let claim = read_claim(block.text, block.line, input.cases[case].stacks)?;
        let moves = (!claim.steps.is_empty()).then_some(claim.steps);
        Ok(StackAnswer { possible: claim.possible, reason: String::new(), moves })
    }

    fn referee(&self) -> Result<Referee> {
        Ok(Referee::default())
    }

    /// A winning line is replayed; a verdict alone is compared with the fast solver's (and the generic one's
    /// where the case is small).
    fn judge_answer(
        &self,
        referee: &mut Referee,
        input: &Instance,
        case: usize,
        answer: &StackAnswer,
    ) -> std::result::Result<(), Violation> {
        let spec = &input.cases[case];
        let cards = fill(input, spec, &mut referee.cards);
        if let Some(moves) = answer.moves.as_ref().filter(|_| answer.possible) {
            return Ok(replay::replay(cards, spec.stacks, spec.depth, moves)?);
        }
        let expected = expected_class(cards, spec.stacks, spec.depth, &mut referee.scratch)?;
        if expected == answer.possible {
            Ok(())
        } else {
            Err(format!("the answer is {}, but the case is {}", class_name(answer.possible), class_name(expected))
                .into())
        }
    }

    fn class_of(&self, answer: &StackAnswer) -> String {
        class_name(answer.possible).to_string()
    }

    /// Wrong variants: the other verdict; for a winning line also the line without its last move (not a win
    /// yet) or with a move replaced by a move of a stack onto itself (never legal: the stack is not empty, or it
    /// has no card to move).
    fn corrupt_answer(&self, _: &Instance, _: usize, answer: &StackAnswer, rng: &mut SeededRng) -> Option<StackAnswer> {
        let flipped = StackAnswer { possible: !answer.possible, reason: String::new(), moves: None };
        let Some(moves) = answer.moves.as_ref().filter(|moves| !moves.is_empty()) else { return Some(flipped) };
        let mut wrong = moves.clone();
        match (moves.len(), rng.gen_range(0..3)) {
            // A line of one move without it is a bare POSSIBLE, which is right: flip the verdict instead.
            (1, 1) | (_, 0) => return Some(flipped),
            (_, 1) => {
                wrong.pop();
            }
            (count, _) => {
                let at = rng.gen_range(0..count);
                if let Some(mv) = wrong.get_mut(at) {
                    let stack = match mv.step {
                        Step::Remove { stack } => stack,
                        Step::Transfer { from, .. } => from,
                    };
                    mv.step = Step::Transfer { from: stack, to: stack };
                }
            }
        }
        Some(StackAnswer { possible: true, reason: String::new(), moves: Some(wrong) })
    }

    fn generate_input(&self, options: &GenOptions, seed: u64) -> Result<String> {
        generate::generate(options, seed)
    }
}
