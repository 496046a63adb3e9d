//! # Stack management (Code Jam 2017 World Finals): a one-player card game, decided and shown won
//!
//! N stacks of C face-up cards; a card has a value and a suit, no two cards share both. A move either
//! removes the top card of a stack when another stack shows a higher card of the same suit on top (the
//! official rule; removing the lowest such card is one case of it), or moves the top card of any stack onto
//! an empty stack. The game is won when every stack holds at most one card.
//!
//! Solvers: `fast` (the suit-graph criterion of the analysis with its constructive proof, linear in the
//! cards; module `fast`) and `generic` (the framework's
//! [`OnePlayerSearch`](ludus_framework::engines::one_player::OnePlayerSearch) over settled states, for N <= 4
//! and C <= 13 unless `--no-limit`, capped at 3,000,000 states; module `generic`).
//!
//! ## Output, and the winning line (`--witness`)
//!
//! Each case's first line is the official one: `Case #x: POSSIBLE` or `Case #x: IMPOSSIBLE`. With
//! `SolveOptions::witness` (flag `--witness`), a POSSIBLE case is followed by a winning line, one move per
//! line, stacks numbered 1 to N in the order the case lists them:
//!
//! ```text
//! Case #1: POSSIBLE
//! remove 2        remove the top card of stack 2 (a higher card of its suit shows on another stack)
//! move 1 2        move the top card of stack 1 onto the empty stack 2
//! ```
//!
//! (without the comments). The line ends at the first position where every stack holds at most one card.
//! `--format json` gives `{"possible": bool, "reason": "why, in words", "moves": ["remove 2", "move 1 2"]}`
//! (`moves` only with `--witness`). The fast solver's line is the constructive proof of the analysis: linear
//! in the cards, at most about two moves per card.
//!
//! ## Verification (`ludus verify`)
//!
//! A POSSIBLE case with moves is judged by replaying them from the start: every move must be legal and the
//! game won after the last one; the reason names the first wrong move and its line. A case without moves
//! (plain official output) is compared with the `fast` solver, and also with the `generic` one where the
//! case is small (N <= 4, C <= 13). An IMPOSSIBLE case with moves is rejected.
//!
//! ## Input errors
//!
//! Every rule of the statement is checked: ranges of P, T, N, C, values, suits and premade indexes
//! (P > 60,000, T > 100, N x C > 100,000 and more than 10,000,000 premade cards are limit errors), premade
//! stacks with the wrong number of cards for the case, the same card twice in a case, a truncated file; each
//! error names the file, line, column and case.

mod fast;
mod generate;

pub use generate::official_small_set;
mod generic;
mod input;
mod replay;

use ludus_framework::input::{Reader, Source};
use ludus_framework::plugin::{
    self, judge_cases, About, CaseAnswer, CaseVerdict, Comparison, GenOptions, Kind, NoProgress, Plugin, Progress,
    Sample, SeededRng, SolveOptions, SolverInfo,
};
use ludus_framework::{Error, Result, Violation};
use rand::Rng;
use serde_json::json;

/// A card: its value and suit (both from 1 to 50,000).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Card {
    /// The value (higher beats lower within a suit).
    pub value: u32,
    /// The suit.
    pub suit: u32,
}

/// A move of the game; stacks are numbered from 0 here and from 1 in the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Step {
    /// Remove the top card of `stack`.
    Remove {
        /// The stack.
        stack: usize,
    },
    /// Move the top card of `from` onto the empty stack `to`.
    Transfer {
        /// The stack the card leaves.
        from: usize,
        /// The empty stack it goes to.
        to: usize,
    },
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Step::Remove { stack } => write!(f, "remove {}", stack + 1),
            Step::Transfer { from, to } => write!(f, "move {} {}", from + 1, to + 1),
        }
    }
}

/// The `stack-management` plugin.
#[derive(Clone, Copy, Debug, Default)]
pub struct StackManagement;

const SOLVERS: &[SolverInfo] = &[
    SolverInfo {
        name: "fast",
        summary: "suit-graph criterion (source suit reaches target suit) with its constructive winning line; linear",
    },
    SolverInfo {
        name: "generic",
        summary: "one-player search over settled states (removals applied eagerly); N <= 4, C <= 13 unless --no-limit",
    },
];

/// The verdict and optional winning line of one case, as an answer.
fn answer(possible: bool, reason: &str, steps: Option<&[Step]>) -> CaseAnswer {
    let class = if possible { "POSSIBLE" } else { "IMPOSSIBLE" };
    let mut text = format!(" {class}");
    let mut json = json!({ "possible": possible, "reason": reason });
    if let Some(steps) = steps.filter(|_| possible) {
        let mut moves = Vec::with_capacity(steps.len());
        for step in steps {
            let line = step.to_string();
            text.push('\n');
            text.push_str(&line);
            moves.push(serde_json::Value::String(line));
        }
        json["moves"] = serde_json::Value::Array(moves);
    }
    CaseAnswer { text, class: class.to_string(), json }
}

/// The class of a case by the fast solver, checked against the generic one where the case is small.
fn expected_class(cards: &[Card], stacks: usize, depth: usize, scratch: &mut fast::Scratch) -> Result<bool, String> {
    let fast = fast::solve(cards, stacks, depth, false, scratch)
        .map_err(|reason| format!("the fast solver failed: {reason}"))?
        .possible;
    if stacks <= generic::MAX_STACKS && depth <= generic::MAX_DEPTH {
        if let Ok(outcome) = generic::solve(cards, stacks, depth, &NoProgress) {
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

fn class_name(possible: bool) -> &'static str {
    if possible {
        "POSSIBLE"
    } else {
        "IMPOSSIBLE"
    }
}

/// What the CLI shows of this plugin, and its bundled sample.
static ABOUT: About = About {
    name: "stack-management",
    kind: Kind::Solitaire,
    summary: "Can removals and moves into empty stacks leave at most one card per stack? (GCJ 2017 World Finals)",
    solvers: SOLVERS,
    sample: Sample {
        input: include_str!("../../../samples/stack-management/sample.in"),
        answer: include_str!("../../../samples/stack-management/sample.ans"),
    },
    comparison: Comparison::Rule,
};

impl Plugin for StackManagement {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn solve(&self, input: Source<'_>, options: &SolveOptions, progress: &dyn Progress) -> Result<Vec<CaseAnswer>> {
        let solver = self.solver(&options.solver)?.name;
        let instance = input::parse(input)?;
        progress.start(instance.cases.len() as u64);
        let mut answers = Vec::with_capacity(instance.cases.len());
        let mut scratch = fast::Scratch::default();
        let mut cards = Vec::new();
        for (index, case) in instance.cases.iter().enumerate() {
            let number = index + 1;
            let (stacks, depth) = (case.stacks, case.depth);
            if solver == "generic" || options.witness || case.suits == stacks {
                instance.fill(case, &mut cards);
            }
            let (possible, reason, steps) = if solver == "generic" {
                let place = || {
                    let line = Reader::new(&input).line_column(case.offset).0;
                    format!("case {number} ({} line {line})", input.name)
                };
                let hint = "the generic solver covers the small set; pass --no-limit (SolveOptions::no_limit) to \
                            search anyway, or use the fast solver";
                for (what, size, limit) in [("N", stacks, generic::MAX_STACKS), ("C", depth, generic::MAX_DEPTH)] {
                    if !options.no_limit && size > limit {
                        let what = format!("{what} in {}", place());
                        return Err(Error::limit_with_hint(what, size as u64, limit as u64, hint));
                    }
                }
                match generic::solve(&cards, stacks, depth, progress) {
                    Ok(Some(steps)) => (true, "the search found a winning line".to_string(), steps),
                    Ok(None) => (false, "the search exhausted every line".to_string(), Vec::new()),
                    Err(Error::Budget(ludus_framework::Budget::Positions(visited))) => {
                        return Err(Error::limit_with_hint(
                            format!("states searched by the generic solver in {}", place()),
                            visited,
                            generic::MAX_STATES,
                            "use the fast solver",
                        ))
                    }
                    Err(Error::SelfCheck { reason, .. }) => return Err(Error::SelfCheck { case: number, reason }),
                    Err(error) => return Err(error),
                }
            } else if !options.witness && case.suits != stacks {
                // Decided by counting suits (found while reading): no need to look at the cards again.
                let outcome = fast::by_suit_count(case.suits, stacks);
                (outcome.possible, outcome.reason, outcome.steps)
            } else {
                let outcome = fast::solve(&cards, stacks, depth, options.witness, &mut scratch)
                    .map_err(|reason| Error::SelfCheck { case: number, reason })?;
                (outcome.possible, outcome.reason, outcome.steps)
            };
            if options.witness && possible {
                let numbered: Vec<(Step, usize)> =
                    steps.iter().enumerate().map(|(line, &step)| (step, line + 2)).collect();
                plugin::self_check(number, replay::replay(&cards, stacks, depth, &numbered).map_err(Violation::new))?;
            }
            answers.push(answer(possible, &reason, options.witness.then_some(&steps[..])));
            progress.advance(1);
        }
        Ok(answers)
    }

    fn judge(&self, input: Source<'_>, output: Source<'_>) -> Result<Vec<CaseVerdict>> {
        let instance = input::parse(input)?;
        let mut scratch = fast::Scratch::default();
        let mut cards = Vec::new();
        Ok(judge_cases(output, &instance.cases, |case, block| {
            let claim = replay::read_claim(block.text, block.line, case.stacks)?;
            instance.fill(case, &mut cards);
            if claim.possible && !claim.steps.is_empty() {
                return replay::replay(&cards, case.stacks, case.depth, &claim.steps);
            }
            let expected = expected_class(&cards, case.stacks, case.depth, &mut scratch)?;
            if expected == claim.possible {
                Ok(())
            } else {
                Err(format!("the answer is {}, but the case is {}", class_name(claim.possible), class_name(expected)))
            }
        }))
    }

    fn generate(&self, options: &GenOptions, seed: u64) -> Result<String> {
        generate::generate(options, seed)
    }

    /// Wrong variants: the other verdict; for a winning line also the line without its last move (not a win
    /// yet) or with a move replaced by one on stack 0 (which does not exist).
    fn corrupt(&self, answer: &CaseAnswer, rng: &mut SeededRng) -> Option<CaseAnswer> {
        let mut lines: Vec<&str> = answer.text.lines().collect();
        let flipped = if answer.class == "POSSIBLE" { " IMPOSSIBLE" } else { " POSSIBLE" };
        let text = match (lines.len(), rng.gen_range(0..3)) {
            (0 | 1, _) | (2, 1) | (_, 0) => flipped.to_string(),
            (_, 1) => {
                lines.pop();
                lines.join("\n")
            }
            (count, _) => {
                let at = rng.gen_range(1..count);
                let bad = if rng.gen_bool(0.5) { "remove 0" } else { "move 0 1" };
                if let Some(line) = lines.get_mut(at) {
                    *line = bad;
                }
                lines.join("\n")
            }
        };
        Some(CaseAnswer { text, class: String::new(), json: serde_json::Value::Null })
    }
}
