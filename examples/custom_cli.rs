//! Extending the `ludus` command line from a crate of your own: a plugin and a game added to the built-in ones,
//! everything else (solve, verify, check, gen, analyze, play, db, bench) the same CLI. The game has tiers and
//! keys a position can be rebuilt from, so its registration gives it a database too. Copied into a crate that
//! depends on `ludus` and `ludus-framework`, it builds as it is.
//!
//! Run with `cargo run --release --example custom_cli -- solve digit-sum input.txt`,
//! `cargo run --release --example custom_cli -- analyze take-away:pile=21`, or
//! `cargo run --release --example custom_cli -- db solve take-away:pile=100`.

use ludus_framework::engines::retrograde::ByKey;
use ludus_framework::engines::retrograde::Tiers;
use ludus_framework::game::FromKey;
use ludus_framework::input::{Reader, Source};
use ludus_framework::playable::{
    Arguments, Capabilities, DatabaseKind, Made, Parameter, ParameterKind, Playable, Registration, TextForm, Tiered,
};
use ludus_framework::plugin::catalog::Entry;
use ludus_framework::plugin::{
    seeded_rng, About, CaseBlock, Cases, Comparison, EachCase, GenOptions, Kind, Parallelism, Problem, Sample,
    SeededRng, SolveOptions, Solver, Tables,
};
use ludus_framework::prelude::*;
use ludus_framework::ParseError;
use ludus_framework::Rules;
use rand::Rng;

/// A plugin: the digit sum of each number of an input (`T`, then `T` numbers; answers `Case #x: S`).
#[derive(Default)]
struct DigitSum;

/// An answer: the digit sum, written after `Case #x:` with its space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
struct Sum(u64);

impl std::fmt::Display for Sum {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, " {}", self.0)
    }
}

fn digit_sum(number: u64) -> u64 {
    number.to_string().bytes().map(|digit| u64::from(digit - b'0')).sum()
}

/// The `fast` solver: arithmetic.
fn solve_fast(_: &DigitSum, input: &Cases<u64>, case: usize, _: &SolveOptions) -> Result<Sum> {
    let mut number = input.cases[case];
    let mut sum = 0;
    while number > 0 {
        sum += number % 10;
        number /= 10;
    }
    Ok(Sum(sum))
}

/// The `generic` solver: through the number's text.
fn solve_generic(_: &DigitSum, input: &Cases<u64>, case: usize, _: &SolveOptions) -> Result<Sum> {
    Ok(Sum(digit_sum(input.cases[case])))
}

impl Problem for DigitSum {
    type Input = Cases<u64>;
    type Answer = Sum;
    type Referee = ();

    const ABOUT: &'static About = &About {
        name: "digit-sum",
        kind: Kind::Constructive,
        summary: "the sum of the digits of each number (an example plugin from outside the project)",
        sample: Sample { input: "2\n1234\n99\n", answer: "Case #1: 10\nCase #2: 18\n" },
        comparison: Comparison::Text,
    };

    const SOLVERS: &'static [Solver<Self>] = &[
        Solver {
            name: "fast",
            summary: "arithmetic",
            limits: &[],
            parallelism: Parallelism::Cases,
            tables: Tables::None,
            start: |_, options| EachCase::start(options, solve_fast),
        },
        Solver {
            name: "generic",
            summary: "through the number's text",
            limits: &[],
            parallelism: Parallelism::Cases,
            tables: Tables::None,
            start: |_, options| EachCase::start(options, solve_generic),
        },
    ];

    fn parse_input(&self, input: Source<'_>) -> Result<Cases<u64>> {
        let mut reader = Reader::new(&input);
        let count = reader.number::<usize>("the number of cases T", 1, 100_000)?;
        let mut parsed = Cases::default();
        for case in 1..=count {
            reader.set_context(format!("case {case}"));
            let (number, offset) = reader.number_at::<u64>("a number", 0, u64::MAX)?;
            parsed.cases.push(number);
            parsed.lines.push(reader.line_column(offset).0);
        }
        reader.finish()?;
        Ok(parsed)
    }

    fn verify_answer(&self, input: &Cases<u64>, case: usize, answer: &Sum) -> std::result::Result<(), Violation> {
        let expected = digit_sum(input.cases[case]);
        match answer.0 == expected {
            true => Ok(()),
            false => Err(Violation::new(format!("the digit sum is {expected}, not {}", answer.0))),
        }
    }

    fn read_answer(&self, _: &Cases<u64>, _: usize, block: &CaseBlock<'_>) -> std::result::Result<Sum, Violation> {
        let text = block.text.trim();
        text.parse().map(Sum).map_err(|_| Violation::new(format!("expected a number, found `{text}`")))
    }

    fn referee(&self) -> Result<()> {
        Ok(())
    }

    fn judge_answer(
        &self,
        _: &mut (),
        input: &Cases<u64>,
        case: usize,
        answer: &Sum,
    ) -> std::result::Result<(), Violation> {
        self.verify_answer(input, case, answer)
    }

    fn corrupt_answer(&self, _: &Cases<u64>, _: usize, answer: &Sum, _: &mut SeededRng) -> Option<Sum> {
        Some(Sum(answer.0 + 1))
    }

    fn generate_input(&self, options: &GenOptions, seed: u64) -> Result<String> {
        let cases = options.case_count(10, 100_000)?;
        let mut rng = seeded_rng(seed);
        let numbers: Vec<String> = (0..cases).map(|_| rng.gen::<u32>().to_string()).collect();
        Ok(format!("{cases}\n{}\n", numbers.join("\n")))
    }
}

/// A game: take 1, 2 or 3 counters from one pile; whoever cannot move loses.
#[derive(Clone)]
struct TakeAway {
    pile: u32,
}

impl Rules for TakeAway {
    type Position = u32;
    type Move = u32;
    type Outcome = Value;
    fn moves(&self, pile: &u32, moves: &mut Vec<u32>) {
        moves.extend((1..=3).filter(|take| take <= pile));
    }
    fn play(&self, pile: &u32, take: &u32) -> u32 {
        pile - take
    }
    fn outcome(&self, pile: &u32) -> Option<Value> {
        (*pile == 0).then_some(Value::LOST)
    }
}

impl Game for TakeAway {}

impl SearchHints for TakeAway {}

impl Canonicalize for TakeAway {
    type Key = u32;
    fn canonical(&self, pile: &u32) -> u32 {
        *pile
    }
}

/// A key is the pile's size, so the position is rebuilt from it (what a database stores).
impl FromKey for TakeAway {
    fn position_of_key(&self, pile: &u32) -> Option<u32> {
        (*pile <= self.pile).then_some(*pile)
    }
}

/// A tier per pile size: a move leads to a smaller pile.
impl Tiers for TakeAway {
    type Tier = u32;
    fn tier(&self, pile: &u32) -> u32 {
        *pile
    }
    fn child_tiers(&self, pile: &u32) -> Vec<u32> {
        (1..=3).filter_map(|take| pile.checked_sub(take)).collect()
    }
}

/// A position is the pile's size; a move, the number taken.
impl TextForm for TakeAway {
    fn start(&self) -> u32 {
        self.pile
    }
    fn parse_position(&self, text: &str) -> std::result::Result<u32, ParseError> {
        text.trim().parse().map_err(|_| ParseError::expected("the pile's size", text))
    }
    fn draw_position(&self, pile: &u32) -> String {
        format!("{} ({pile})\n", "|".repeat(*pile as usize))
    }
    fn parse_move(&self, pile: &u32, text: &str) -> std::result::Result<u32, ParseError> {
        match text.trim().parse::<u32>() {
            Ok(take) if (1..=3).contains(&take) && take <= *pile => Ok(take),
            _ => Err(ParseError::refused(format!("take 1, 2 or 3, at most {pile}"))),
        }
    }
    fn render_move(&self, _position: &Self::Position, take: &u32) -> String {
        take.to_string()
    }
}

fn take_away(arguments: &Arguments) -> ludus_framework::Result<Made> {
    let game = TakeAway { pile: arguments.whole("pile")? };
    let name = arguments.canonical_name();
    Ok(Made::solvable(Playable::win_loss(game, name), Tiered(ByKey)))
}

fn main() -> std::process::ExitCode {
    // Each name once, with what hangs off it: a plugin, and a game (which declares what it is).
    let registry =
        ludus::Registry::builtin().with_entry(Entry::problem::<DigitSum>()).with_entry(Entry::game(Registration {
            name: "take-away",
            summary: "take 1, 2 or 3 counters; whoever cannot move loses",
            parameters: &[Parameter {
                name: "pile",
                help: "counters at the start",
                kind: ParameterKind::Whole { default: 21, min: 0, max: 1_000_000 },
            }],
            capabilities: Capabilities::win_loss().with_database(DatabaseKind::Tiered),
            make: take_away,
        }));
    ludus::run(registry)
}
