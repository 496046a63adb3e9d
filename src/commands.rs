//! The subcommands' work: reading files, calling plugins, printing answers, tables and JSON.

use crate::cli::{Format, PresetArg};
use crate::output::{output_error, print_json};
use crate::progress::{Bar, Interrupt, SearchWatch};
use crate::registry::Registry;
use anyhow::{bail, Context, Result};
use ludus_framework::conformance::{check_plugin_observed, judge_sample, SampleVerdict, CHECK_TABLE_MB};
use ludus_framework::input::Source;
use ludus_framework::playable::{AnalysisOptions, Parameter, ParameterKind};
use ludus_framework::plugin::driver::render_case;
use ludus_framework::plugin::{GenOptions, Plugin, Preset, SolveOptions};
use ludus_framework::Error;
use serde_json::json;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The default cap on an input or answer file read into memory, in MiB (`--max-input-mb`).
pub const DEFAULT_MAX_INPUT_MB: u64 = 256;

/// Reads a file (or standard input for `-` / none), at most `max_bytes` of it: its display name and bytes. A
/// longer input is an error naming the flag that raises the cap (nothing past the cap is read, so an endless
/// stream costs no more than the cap).
fn read_capped(path: Option<&Path>, max_bytes: u64) -> Result<(String, Vec<u8>)> {
    let mut bytes = Vec::new();
    let name = match path {
        Some(path) if path.as_os_str() != "-" => {
            let file = std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
            file.take(max_bytes.saturating_add(1))
                .read_to_end(&mut bytes)
                .with_context(|| format!("cannot read {}", path.display()))?;
            path.display().to_string()
        }
        _ => {
            std::io::stdin()
                .lock()
                .take(max_bytes.saturating_add(1))
                .read_to_end(&mut bytes)
                .context("<stdin>: cannot read standard input")?;
            "<stdin>".to_string()
        }
    };
    if bytes.len() as u64 > max_bytes {
        bail!(
            "{name}: the input is larger than {} MiB, the cap on what is read (raise it with --max-input-mb)",
            max_bytes >> 20
        );
    }
    Ok((name, bytes))
}

/// Reads an input file (or standard input for `-` / none) as UTF-8 text, at most `max_bytes` of it, with its
/// display name.
pub fn read_input(path: Option<&Path>, max_bytes: u64) -> Result<(String, String)> {
    let (name, bytes) = read_capped(path, max_bytes)?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok((name, text)),
        Err(error) => {
            let at = error.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(&error.into_bytes()[..at]).into_owned();
            let line = text.matches('\n').count() + 1;
            let column = text.rsplit('\n').next().map_or(0, |last| last.chars().count()) + 1;
            bail!("{name}:{line}:{column}: expected UTF-8 text, found a byte that is not")
        }
    }
}

/// `ludus list`.
pub fn list(registry: &Registry, format: Format) -> Result<()> {
    let plugins = registry.plugins();
    if format == Format::Json {
        let items: Vec<_> = plugins
            .iter()
            .map(|p| {
                let options: Vec<_> = p.options().iter().map(parameter_json).collect();
                json!({"name": p.name(), "kind": p.kind(), "summary": p.summary(), "solvers": p.solvers(),
                    "options": options})
            })
            .collect();
        return Ok(print_json(&json!(items))?);
    }
    for plugin in plugins {
        say!("{:<26} {:<20} {}", plugin.name(), plugin.kind().to_string(), plugin.summary());
        for solver in plugin.solvers() {
            say!("    --solver {:<14} {}", solver.name, solver.summary);
        }
        for option in plugin.options() {
            let kind = &option.kind;
            say!(
                "    --option {:<14} {} ({}, default {})",
                option.name,
                option.help,
                kind.range_text(),
                kind.default_text()
            );
        }
    }
    Ok(())
}

/// The name under which a failed write of an answer leaves the plugin's driver.
const STANDARD_OUTPUT: &str = "<stdout>";

/// How `ludus solve` reads and reports.
#[derive(Clone, Copy, Debug)]
pub struct Report {
    /// The output format.
    pub format: Format,
    /// Whether to print statistics and the time on standard error.
    pub stats: bool,
    /// The most input read, in bytes.
    pub max_input_bytes: u64,
}

/// `ludus solve`: answers are printed as they come (nothing printed is kept); on Ctrl-C or an error after some
/// answers, standard error says how many cases the output holds.
pub fn solve(
    registry: &Registry,
    plugin: &str,
    file: Option<&Path>,
    options: &SolveOptions,
    report: Report,
    interrupt: &Interrupt,
) -> Result<()> {
    let Report { format, stats, max_input_bytes } = report;
    let plugin = registry.find(plugin)?;
    plugin.solver(&options.solver)?;
    plugin.check_options(options)?;
    let (name, text) = read_input(file, max_input_bytes)?;
    let bar = Bar::new(plugin.name(), true).watching(interrupt);
    let watch = SearchWatch::start(Some((&bar, plugin.name())));
    let options = &SolveOptions { progress: watch.handle(), ..options.clone() };
    let started = Instant::now();
    let layout = plugin.layout();
    let mut printed = 0;
    let mut cases = Vec::new();
    let mut out = std::io::BufWriter::new(std::io::stdout());
    let outcome = plugin.solve_each(Source::new(&name, &text), options, &bar, &mut |case, answer| {
        if format == Format::Json {
            cases.push(json!({"case": case + 1, "answer": answer.json, "text": answer.text.trim()}));
        } else {
            // Each answer goes out whole and at once: a reader sees every case as soon as it is solved.
            let text = render_case(layout, case + 1, &answer.text);
            // Written, flushed and counted under the interrupt's lock: a stop waits for a whole answer.
            interrupt
                .printing(|| bar.suspend(|| out.write_all(text.as_bytes()).and_then(|()| out.flush())))
                .map_err(|cause| Error::Io { path: STANDARD_OUTPUT.to_string(), cause })?;
        }
        printed += 1;
        Ok(())
    });
    drop(out);
    bar.finish();
    let elapsed = started.elapsed();
    if let Err(error) = outcome {
        let reader_left = matches!(&error, Error::Io { cause, .. } if cause.kind() == std::io::ErrorKind::BrokenPipe);
        // JSON is printed at the end: the cases found before the stop go out, marked incomplete.
        if format == Format::Json && printed > 0 && !reader_left {
            print_json(&json!({"plugin": plugin.name(), "solver": options.solver, "cases": cases,
                "complete": false, "stats": bar.stats()}))?;
        }
        if printed > 0 && !reader_left && !matches!(error, Error::Cancelled { .. }) {
            note!("partial output: it holds the first {printed} cases only");
        }
        return Err(match error {
            Error::Io { path, cause } if path == STANDARD_OUTPUT => output_error(cause).into(),
            other => other.into(),
        });
    }
    if format == Format::Json {
        print_json(&json!({"plugin": plugin.name(), "solver": options.solver, "cases": cases, "complete": true,
            "seconds": elapsed.as_secs_f64(), "stats": bar.stats()}))?;
    }
    if stats {
        note!("{printed} cases in {:.3} s; {}", elapsed.as_secs_f64(), bar.stats());
    }
    Ok(())
}

/// `ludus verify`: exit status 1 when a case is rejected.
pub fn verify(
    registry: &Registry,
    plugin: &str,
    input: &Path,
    output: &Path,
    format: Format,
    max_input_bytes: u64,
) -> Result<bool> {
    let plugin = registry.find(plugin)?;
    let (input_name, input_text) = read_input(Some(input), max_input_bytes)?;
    let (output_name, output_bytes) = read_capped(Some(output), max_input_bytes)?;
    // A malformed answer file is a rejected answer, not an error: bytes that are not UTF-8 reject every case.
    let verdicts = match String::from_utf8(output_bytes) {
        Ok(output_text) => {
            plugin.judge(Source::new(&input_name, &input_text), Source::new(&output_name, &output_text))?
        }
        Err(error) => {
            let problem = format!("{output_name}: not UTF-8 text (byte {})", error.utf8_error().valid_up_to() + 1);
            let mut verdicts = plugin.judge(Source::new(&input_name, &input_text), Source::new(&output_name, ""))?;
            for verdict in &mut verdicts {
                verdict.problem = Some(problem.clone());
            }
            verdicts
        }
    };
    let rejected = verdicts.iter().filter(|v| v.problem.is_some()).count();
    if format == Format::Json {
        print_json(&json!({"plugin": plugin.name(), "cases": verdicts, "rejected": rejected}))?;
    } else {
        for verdict in &verdicts {
            match &verdict.problem {
                None => say!("Case #{}: accepted", verdict.case),
                Some(problem) => say!("Case #{}: REJECTED: {problem}", verdict.case),
            }
        }
        say!("{} of {} cases accepted", verdicts.len() - rejected, verdicts.len());
    }
    Ok(rejected == 0)
}

/// `ludus check`: exit status 1 on any failure.
pub fn check(
    registry: &Registry,
    plugin: &str,
    cases: usize,
    seed: u64,
    witness: bool,
    format: Format,
) -> Result<bool> {
    let options = SolveOptions { witness, table_mb: CHECK_TABLE_MB, ..SolveOptions::default() };
    let mut all_good = true;
    let mut reports = Vec::new();
    for plugin in registry.select(plugin)? {
        let started = Instant::now();
        let bar = Bar::new(plugin.name(), true);
        let report = check_plugin_observed(plugin, cases, seed, &options, &bar);
        bar.finish();
        let report = report?;
        let seconds = started.elapsed().as_secs_f64();
        all_good &= report.failures.is_empty();
        if format == Format::Text {
            say!(
                "{}: {} random cases, solvers {}: {} ({seconds:.2} s)",
                plugin.name(),
                report.cases,
                report.solvers.join(" / "),
                if report.failures.is_empty() {
                    "all agree, all verified".to_string()
                } else {
                    format!("{} FAILED", report.failures.len())
                }
            );
            for failure in report.failures.iter().take(5) {
                say!("  instance:\n{}  problem: {}", indent(&failure.input), failure.problem);
            }
        }
        reports.push(json!({"plugin": plugin.name(), "report": report, "seconds": seconds}));
    }
    if format == Format::Json {
        print_json(&json!(reports))?;
    }
    Ok(all_good)
}

fn indent(text: &str) -> String {
    text.lines().map(|line| format!("    {line}\n")).collect()
}

/// `ludus gen`.
pub fn generate(
    registry: &Registry,
    plugin: &str,
    seed: u64,
    preset: PresetArg,
    cases: Option<usize>,
    size: Option<usize>,
    output: Option<&PathBuf>,
) -> Result<()> {
    let plugin = registry.find(plugin)?;
    let preset = match preset {
        PresetArg::Small => Preset::Small,
        PresetArg::Official => Preset::Official,
    };
    let text = plugin.generate(&GenOptions { preset, cases, size }, seed)?;
    match output {
        Some(path) => std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?,
        None => std::io::stdout().lock().write_all(text.as_bytes()).map_err(output_error)?,
    }
    Ok(())
}

/// `ludus` / `ludus samples`: every plugin on its bundled sample; exit status 1 if any answer is wrong.
pub fn samples(registry: &Registry, only: Option<&str>, format: Format) -> Result<bool> {
    let plugins = match only {
        Some(name) => registry.select(name)?,
        None => registry.select("all")?,
    };
    if plugins.is_empty() {
        bail!("no plugin is registered");
    }
    let mut all_good = true;
    let mut results = Vec::new();
    for plugin in &plugins {
        let (verdict, rendered, seconds) = run_sample(*plugin);
        let good = verdict == SampleVerdict::Right;
        all_good &= good;
        if format == Format::Text {
            let how = match plugin.comparison() {
                ludus_framework::plugin::Comparison::Text => "matches the published answer",
                ludus_framework::plugin::Comparison::Rule => "verified by rule",
            };
            say!("== {} ({}) in {:.1} ms", plugin.name(), plugin.kind(), seconds * 1000.0);
            say_raw!("{rendered}");
            match &verdict {
                SampleVerdict::Right => say!("-> OK: {how}\n"),
                SampleVerdict::Wrong { reason } => say!("-> WRONG: {reason}\n"),
            }
        }
        let problem = match verdict {
            SampleVerdict::Right => None,
            SampleVerdict::Wrong { reason } => Some(reason),
        };
        results.push(
            json!({"plugin": plugin.name(), "ok": good, "problem": problem, "answer": rendered, "seconds": seconds}),
        );
    }
    if format == Format::Json {
        print_json(&json!(results))?;
    } else {
        let good = results.iter().filter(|r| r["ok"] == json!(true)).count();
        say!("{good} of {} plugins answer their samples right", results.len());
    }
    Ok(all_good)
}

fn run_sample(plugin: &dyn Plugin) -> (SampleVerdict, String, f64) {
    let sample = plugin.sample();
    let started = Instant::now();
    let answers = plugin.solve(
        Source::new("sample.in", sample.input),
        &SolveOptions::default(),
        &ludus_framework::plugin::NoProgress,
    );
    let seconds = started.elapsed().as_secs_f64();
    match answers {
        Err(error) => (SampleVerdict::Wrong { reason: format!("solver failed: {error}") }, String::new(), seconds),
        Ok(answers) => {
            let rendered = plugin.render(&answers);
            let verdict = judge_sample(plugin, &rendered)
                .unwrap_or_else(|error| SampleVerdict::Wrong { reason: error.to_string() });
            (verdict, rendered, seconds)
        }
    }
}

/// A game's parameter or a plugin's option as JSON: name, kind, default, range and help.
fn parameter_json(parameter: &Parameter) -> serde_json::Value {
    let (kind, range) = match parameter.kind {
        ParameterKind::Whole { min, max, .. } => ("whole", json!({"min": min, "max": max})),
        ParameterKind::Choice { choices, .. } => ("choice", json!({"choices": choices})),
        ParameterKind::Text { .. } => ("text", json!(null)),
        ParameterKind::Switch { .. } => ("switch", json!({"choices": ["on", "off"]})),
    };
    json!({"name": parameter.name, "kind": kind, "default": parameter.kind.default_text(), "range": range,
        "help": parameter.help})
}

/// A game as `ludus games --format json` lists it: name, summary, parameters, engine, whether it has a
/// database, and the commands that take it.
pub(crate) fn game_json(game: &ludus_framework::playable::Registration) -> Result<serde_json::Value> {
    // What the game can do is what its registration makes of the defaults.
    let made = game.make_default()?;
    let engine = made.playable.automatic_engine();
    let database = made.database.is_some();
    let parameters: Vec<_> = game.parameters.iter().map(parameter_json).collect();
    let mut commands = vec!["analyze", "play"];
    if database {
        commands.extend(["db solve", "db query", "db analyze", "db check", "play --db"]);
    }
    Ok(json!({"name": game.name, "summary": game.summary, "parameters": parameters,
        "engine": engine, "database": database, "commands": commands}))
}

/// `ludus games`: each game once, with its parameters (type, range, default) and what can be done with it.
pub fn games(registry: &Registry, format: Format) -> Result<()> {
    let items = registry.games().iter().map(game_json).collect::<Result<Vec<_>>>()?;
    if format == Format::Json {
        return Ok(print_json(&json!(items))?);
    }
    say!("Games to analyse, play and (where `db` is listed) solve into databases; name one with its parameters,");
    say!("like `connect-four:width=5,height=4` (a parameter left out takes its default):");
    for (game, item) in registry.games().iter().zip(&items) {
        say!();
        say!("{}  {}", game.name, game.summary);
        for parameter in game.parameters {
            let kind = &parameter.kind;
            say!(
                "    {:<8} {} (default {}): {}",
                parameter.name,
                kind.range_text(),
                kind.default_text(),
                parameter.help
            );
        }
        let database = if item["database"] == json!(true) { "; db: solve, query, analyze, check" } else { "" };
        say!("    analyze, play: {}{database}", item["engine"].as_str().unwrap_or_default());
    }
    Ok(())
}

/// `ludus analyze`.
pub fn analyze(
    registry: &Registry,
    game: &str,
    position: Option<&str>,
    options: &ludus_framework::playable::AnalysisOptions,
    format: Format,
) -> Result<()> {
    let game = registry.game(game)?;
    let watch = SearchWatch::start(None);
    let analysis = game.analyze(position, &AnalysisOptions { progress: watch.handle(), ..options.clone() })?;
    drop(watch);
    print_analysis(&analysis, format)
}

/// An analysis as text or JSON (`ludus analyze`, `ludus db query`).
pub(crate) fn print_analysis(analysis: &ludus_framework::playable::Analysis, format: Format) -> Result<()> {
    if format == Format::Json {
        return Ok(print_json(&serde_json::to_value(analysis)?)?);
    }
    say_raw!("{}", analysis.drawing);
    let plies = |remoteness: Option<u32>| remoteness.map_or(String::new(), |count| format!(" in {}", plies(count)));
    let nimber = |nimber: Option<u32>, what: &str| nimber.map_or(String::new(), |n| format!(" ({what}nimber {n})"));
    say!(
        "{}: {}{}{} for the player to move",
        analysis.game,
        analysis.value,
        plies(analysis.value.remoteness()),
        nimber(analysis.value.nimber(), "")
    );
    for mv in &analysis.moves {
        let after = nimber(mv.value.nimber(), "leaves ");
        let best = if mv.best { "  (best)" } else { "" };
        say!("  {:>4}  {}{}{after}{best}", mv.mv, mv.value, plies(mv.value.remoteness()));
    }
    // The line stops at a chance node: empty at one, where the moves listed are the outcomes.
    let at_chance =
        analysis.moves.iter().any(|mv| mv.value.expected().is_some_and(|expected| expected.chance.is_some()));
    let line = match (analysis.line.is_empty(), at_chance) {
        (false, _) => analysis.line.join(" "),
        (true, true) => "(none at a chance node)".to_string(),
        (true, false) => "(the game is over)".to_string(),
    };
    say!("line: {line}");
    say!("{}", analysis.stats);
    Ok(())
}

/// A count of plies in words: `1 ply`, `3 plies`.
pub(crate) fn plies(count: u32) -> String {
    if count == 1 {
        "1 ply".to_string()
    } else {
        format!("{count} plies")
    }
}
