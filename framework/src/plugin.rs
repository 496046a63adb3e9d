//! The plugin interface: what a problem implements so that the `ludus` CLI can list it, solve its official
//! input format with several solvers, judge answer files, generate random inputs and cross-check solvers.
//!
//! Also the shared helpers every plugin uses: solver lookup, splitting an answer file into `Case #x:` blocks,
//! seeded random generators, and the self-check that no answer leaves a plugin unverified.

use crate::error::{Error, Result};
use crate::input::{InputError, Source};
use rand::{Rng, SeedableRng};
use serde::Serialize;

/// The random generator every plugin uses: seeded, portable, reproducible across platforms and versions.
pub type SeededRng = rand_chacha::ChaCha8Rng;

/// A seeded random generator.
pub fn seeded_rng(seed: u64) -> SeededRng {
    SeededRng::seed_from_u64(seed)
}

/// What kind of problem a plugin solves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A two-player game solved by negamax.
    TwoPlayer,
    /// An impartial two-player game solved by Sprague-Grundy.
    Impartial,
    /// A one-player game.
    Solitaire,
    /// A constructive puzzle (construct an object or prove none exists).
    Constructive,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::TwoPlayer => "two-player game",
            Kind::Impartial => "impartial game",
            Kind::Solitaire => "solitaire",
            Kind::Constructive => "constructive puzzle",
        })
    }
}

/// A solver of a plugin: its name (`generic`, `fast`, ...) and what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SolverInfo {
    /// The name used on the command line.
    pub name: &'static str,
    /// One line on what it does and its size limit.
    pub summary: &'static str,
}

/// How to run a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// The solver's name.
    pub solver: String,
    /// Worker threads for parallel solvers (0: all cores).
    pub threads: usize,
    /// Also produce a witness (for example a winning move sequence) where the plugin can.
    pub witness: bool,
    /// Run a size-limited solver past its limit (it may take very long).
    pub no_limit: bool,
    /// The memory budget of each search engine's table, in MiB.
    pub table_mb: usize,
    /// Solve weakly where the plugin can: win, draw or loss only, not how fast (Connect Four).
    pub weak: bool,
    /// The most positions a search engine may expand for one case (`None`: no limit); past it the case is a
    /// limit error.
    pub max_positions: Option<u64>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            solver: "fast".to_string(),
            threads: 0,
            witness: false,
            no_limit: false,
            table_mb: crate::table::DEFAULT_TABLE_MB,
            weak: false,
            max_positions: None,
        }
    }
}

impl SolveOptions {
    /// Default options with the named solver.
    pub fn with_solver(solver: &str) -> Self {
        SolveOptions { solver: solver.to_string(), ..SolveOptions::default() }
    }
}

/// Progress of a long solve, reported case by case. Implementations must be cheap; the CLI shows a bar.
pub trait Progress: Sync {
    /// The number of steps (cases) to come.
    fn start(&self, total: u64);
    /// `steps` more are done.
    fn advance(&self, steps: u64);
    /// Engine statistics of the work done (a plugin calls it once per engine run; `ludus bench` sums them).
    fn record(&self, stats: &crate::Stats) {
        let _ = stats;
    }
}

/// Progress that shows nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn start(&self, _total: u64) {}
    fn advance(&self, _steps: u64) {}
}

/// The answer to one case.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CaseAnswer {
    /// What follows `Case #x:` in the official output, including its leading space or newline.
    pub text: String,
    /// The part solvers must agree on (the whole answer for games; POSSIBLE/IMPOSSIBLE for puzzles).
    pub class: String,
    /// The answer as structured data for `--format json`.
    pub json: serde_json::Value,
}

impl CaseAnswer {
    /// An answer whose class is its text (games: solvers must agree on every character).
    pub fn exact(text: String, json: serde_json::Value) -> Self {
        let class = text.trim().to_string();
        CaseAnswer { text, class, json }
    }
}

/// How two answers to the same case are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Comparison {
    /// Character by character: there is one right answer.
    Text,
    /// By the verifier's rules: any valid answer is right; solvers agree on the class only.
    Rule,
}

/// A plugin's bundled sample: official input and answer.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// The sample input file.
    pub input: &'static str,
    /// The published answer.
    pub answer: &'static str,
}

/// The verdict on one case of an answer file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CaseVerdict {
    /// 1-based case number.
    pub case: usize,
    /// `None` if accepted, else why the answer is wrong.
    pub problem: Option<String>,
}

/// How big the generated instances are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// Small enough for every solver, including brute force (used by `check`).
    #[default]
    Small,
    /// The official large limits.
    Official,
}

/// Options of `ludus gen`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct GenOptions {
    /// The preset size class.
    pub preset: Preset,
    /// Number of cases (default: the preset's, capped by the official T).
    pub cases: Option<usize>,
    /// The main size parameter (N tiles, grid side, stack count...), overriding the preset's.
    pub size: Option<usize>,
}

/// What a plugin is: the facts the CLI lists, and its bundled sample. A plugin keeps one in a `static`.
#[derive(Clone, Copy, Debug)]
pub struct About {
    /// The plugin's name, as typed on the command line (`bacterial-tactics`).
    pub name: &'static str,
    /// The kind of problem.
    pub kind: Kind,
    /// One line on what it answers.
    pub summary: &'static str,
    /// The solvers, the default (`fast`) first, and at least `generic` besides.
    pub solvers: &'static [SolverInfo],
    /// The bundled sample input and its published answer.
    pub sample: Sample,
    /// How answers are compared.
    pub comparison: Comparison,
}

/// A problem the `ludus` CLI can run. A plugin prints nothing that its own verifier rejects.
///
/// Required: [`Plugin::about`], [`Plugin::solve`], [`Plugin::judge`], [`Plugin::generate`]; the rest is provided.
pub trait Plugin: Send + Sync {
    /// The plugin's description (name, kind, summary, solvers, sample, comparison).
    fn about(&self) -> &'static About;

    /// The plugin's name, as typed on the command line.
    fn name(&self) -> &'static str {
        self.about().name
    }
    /// The kind of problem.
    fn kind(&self) -> Kind {
        self.about().kind
    }
    /// One line on what it answers.
    fn summary(&self) -> &'static str {
        self.about().summary
    }
    /// The solvers, the default first.
    fn solvers(&self) -> &'static [SolverInfo] {
        self.about().solvers
    }
    /// The bundled sample input and its published answer.
    fn sample(&self) -> Sample {
        self.about().sample
    }
    /// How answers are compared.
    fn comparison(&self) -> Comparison {
        self.about().comparison
    }

    /// Solves a whole input in the official format, one answer per case.
    fn solve(&self, input: Source<'_>, options: &SolveOptions, progress: &dyn Progress) -> Result<Vec<CaseAnswer>>;

    /// Judges an answer file against an input, case by case, by the rules (`ludus verify`). `Err` only for a
    /// malformed input; a malformed or wrong answer is a rejected case.
    fn judge(&self, input: Source<'_>, output: Source<'_>) -> Result<Vec<CaseVerdict>>;

    /// A random input in the official format.
    fn generate(&self, options: &GenOptions, seed: u64) -> Result<String>;

    /// The official output for these answers. Default: `Case #x:` followed by each answer's text.
    fn render(&self, answers: &[CaseAnswer]) -> String {
        let mut out = String::new();
        for (index, answer) in answers.iter().enumerate() {
            out.push_str(&format!("Case #{}:{}\n", index + 1, answer.text));
        }
        out
    }

    /// A wrong variant of a right answer (for testing that the verifier rejects it), or `None` if this answer
    /// has no simple wrong variant. Default: see [`corrupt_text`].
    fn corrupt(&self, answer: &CaseAnswer, rng: &mut SeededRng) -> Option<CaseAnswer> {
        corrupt_text(&answer.text, rng).map(|text| CaseAnswer {
            class: String::new(),
            text,
            json: serde_json::Value::Null,
        })
    }

    /// The named solver's entry, or an [`Error::UnknownSolver`] listing the available ones.
    fn solver(&self, name: &str) -> Result<&'static SolverInfo> {
        self.solvers().iter().find(|s| s.name == name).ok_or_else(|| Error::UnknownSolver {
            plugin: self.name().to_string(),
            solver: name.to_string(),
            available: self.solvers().iter().map(|s| s.name).collect::<Vec<_>>().join(", "),
        })
    }
}

/// The generic corruption: `POSSIBLE` <-> `IMPOSSIBLE`; otherwise one randomly chosen digit, `.`, `*`, `/` or
/// `\` changed (digit + 1 mod 10, `.` <-> `*`, `/` <-> `\`). `None` if nothing can be changed.
pub fn corrupt_text(text: &str, rng: &mut SeededRng) -> Option<String> {
    if text.contains("IMPOSSIBLE") {
        return Some(text.replacen("IMPOSSIBLE", "POSSIBLE", 1));
    }
    if text.starts_with(" POSSIBLE") && rng.gen_bool(0.5) {
        return Some(" IMPOSSIBLE".to_string());
    }
    let spots: Vec<usize> = text
        .char_indices()
        .filter(|(_, c)| c.is_ascii_digit() || matches!(c, '.' | '*' | '/' | '\\'))
        .map(|(i, _)| i)
        .collect();
    if spots.is_empty() {
        return None;
    }
    let at = spots[rng.gen_range(0..spots.len())];
    let old = text[at..].chars().next()?;
    let new = match old {
        '.' => '*',
        '*' => '.',
        '/' => '\\',
        '\\' => '/',
        digit => char::from_digit((digit.to_digit(10)? + 1) % 10, 10)?,
    };
    let mut corrupted = text.to_string();
    corrupted.replace_range(at..at + old.len_utf8(), &new.to_string());
    Some(corrupted)
}

/// One `Case #x:` block of an answer file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaseBlock<'a> {
    /// The case number written in the file.
    pub number: usize,
    /// 1-based line of the `Case #x:` header.
    pub line: usize,
    /// Everything after `Case #x:` up to the next header (including the newline after the header, if the
    /// answer starts on the next line).
    pub text: &'a str,
}

/// Splits an answer file into its `Case #x:` blocks; cases must be numbered 1, 2, 3... in order.
pub fn split_cases<'a>(output: Source<'a>) -> std::result::Result<Vec<CaseBlock<'a>>, InputError> {
    let mut blocks: Vec<CaseBlock<'a>> = Vec::new();
    let text = output.text;
    let mut starts = Vec::new();
    let mut offset = 0;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        if line.trim_start().starts_with("Case #") {
            starts.push((offset, index + 1));
        } else if starts.is_empty() && !line.trim().is_empty() {
            return Err(answer_error(output, index + 1, format!("expected `Case #1:`, found `{}`", line.trim())));
        }
        offset += line.len();
    }
    for (position, &(start, line)) in starts.iter().enumerate() {
        let end = starts.get(position + 1).map_or(text.len(), |next| next.0);
        let block = &text[start..end];
        let header = block.trim_start();
        let after_hash = &header["Case #".len()..];
        let colon =
            after_hash.find(':').ok_or_else(|| answer_error(output, line, "expected `Case #x:`".to_string()))?;
        let number: usize = after_hash[..colon].trim().parse().map_err(|_| {
            answer_error(output, line, format!("expected a case number, found `{}`", &after_hash[..colon]))
        })?;
        if number != blocks.len() + 1 {
            return Err(answer_error(
                output,
                line,
                format!("expected `Case #{}:`, found `Case #{number}:`", blocks.len() + 1),
            ));
        }
        let body_start = end - block.len() + (block.len() - header.len()) + "Case #".len() + colon + 1;
        blocks.push(CaseBlock { number, line, text: &text[body_start..end] });
    }
    Ok(blocks)
}

fn answer_error(output: Source<'_>, line: usize, message: String) -> InputError {
    InputError { file: output.name.to_string(), line, column: 1, context: String::new(), message }
}

/// Pairs the cases of an answer file with the cases of the input: a missing or extra case, or a malformed
/// file, becomes a rejected verdict instead of an error. Calls `judge(input_case, block)` for each case present
/// in both.
pub fn judge_cases<Case>(
    output: Source<'_>,
    cases: &[Case],
    mut judge: impl FnMut(&Case, &CaseBlock<'_>) -> std::result::Result<(), String>,
) -> Vec<CaseVerdict> {
    let blocks = match split_cases(output) {
        Ok(blocks) => blocks,
        Err(error) => {
            return (1..=cases.len())
                .map(|case| CaseVerdict { case, problem: Some(format!("unreadable answer file: {error}")) })
                .collect();
        }
    };
    let mut verdicts: Vec<CaseVerdict> = cases
        .iter()
        .enumerate()
        .map(|(index, case)| {
            let problem = match blocks.get(index) {
                None => Some("missing from the answer file".to_string()),
                Some(block) => judge(case, block).err(),
            };
            CaseVerdict { case: index + 1, problem }
        })
        .collect();
    for block in blocks.iter().skip(cases.len()) {
        verdicts.push(CaseVerdict {
            case: block.number,
            problem: Some(format!("line {}: the input has only {} cases", block.line, cases.len())),
        });
    }
    verdicts
}

/// Runs `verify` on a freshly built answer before it is printed: an answer the plugin's own verifier rejects
/// is an [`Error::SelfCheck`], never output.
pub fn self_check(case: usize, verdict: std::result::Result<(), crate::Violation>) -> Result<()> {
    verdict.map_err(|violation| Error::SelfCheck { case, reason: violation.reason })
}

/// The number of worker threads meant by `threads` (0: all cores).
pub fn thread_count(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    }
}

/// Runs `work` in a rayon pool of `threads` threads (0: all cores).
pub fn with_threads<Output: Send>(threads: usize, work: impl FnOnce() -> Output + Send) -> Result<Output> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(thread_count(threads))
        .build()
        .map_err(|error| Error::Unsupported(format!("cannot start {threads} threads: {error}")))?;
    Ok(pool.install(work))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_case_blocks_with_inline_and_multiline_answers() {
        let output = Source::new("out", "Case #1: 2 1\nCase #2:\n.c\n**\n");
        let blocks = split_cases(output).unwrap();
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0].text, " 2 1\n");
        assert_eq!(blocks[1].text, "\n.c\n**\n");
        assert_eq!(blocks[1].line, 2);
    }

    #[test]
    fn rejects_misnumbered_cases_and_garbage() {
        assert!(split_cases(Source::new("out", "Case #2: 1\n")).is_err());
        assert!(split_cases(Source::new("out", "hello\nCase #1: 1\n")).is_err());
        let verdicts = judge_cases(Source::new("out", "Case #1: 1\n"), &[(), ()], |_, _| Ok(()));
        assert_eq!(verdicts[0].problem, None);
        assert!(verdicts[1].problem.is_some());
    }

    #[test]
    fn corruption_changes_the_text() {
        let mut rng = seeded_rng(1);
        for text in [" 2 1", " POSSIBLE\n/\\\n", " IMPOSSIBLE", "\n.c*\n"] {
            let corrupted = corrupt_text(text, &mut rng).unwrap();
            assert_ne!(corrupted, text);
        }
        assert_eq!(corrupt_text("\nImpossible", &mut rng), None);
    }
}
