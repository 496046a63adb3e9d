//! The subcommands' work: reading files, calling plugins, printing answers, tables and JSON.

use crate::cli::{Format, PresetArg};
use crate::output::output_error;
use crate::progress::{Bar, Interrupt, SearchWatch};
use crate::registry::Registry;
use crate::reports::{
    print, CaseReport, GameListing, GamesReport, PluginCheck, PluginListing, PluginsReport, SampleReport,
    SamplesReport, SolveReport, VerifyReport,
};
use anyhow::{bail, Context, Result};
use ludus_framework::conformance::{check_plugin_observed, judge_sample, SampleVerdict, CHECK_TABLE_MB};
use ludus_framework::input::Source;
use ludus_framework::playable::AnalysisOptions;
use ludus_framework::plugin::driver::render_case;
use ludus_framework::plugin::{GenOptions, Plugin, PluginOptions, Preset, SolveOptions};
use ludus_framework::Error;
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
    let plugins = registry.plugins().iter().map(|plugin| PluginListing::of(plugin.as_ref())).collect();
    Ok(print(&PluginsReport(plugins), format)?)
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
        let official = render_case(layout, case + 1, &answer.text);
        if format == Format::Json {
            let text = answer.text.trim().to_string();
            cases.push(CaseReport { case: case + 1, answer: answer.json, text, official });
        } else {
            // Each answer goes out whole and at once: a reader sees every case as soon as it is solved.
            // Written, flushed and counted under the interrupt's lock: a stop waits for a whole answer.
            interrupt
                .printing(|| bar.suspend(|| out.write_all(official.as_bytes()).and_then(|()| out.flush())))
                .map_err(|cause| Error::Io { path: STANDARD_OUTPUT.to_string(), cause })?;
        }
        printed += 1;
        Ok(())
    });
    drop(out);
    bar.finish();
    let elapsed = started.elapsed();
    let report = |cases, seconds: Option<f64>| SolveReport {
        plugin: plugin.name(),
        solver: options.solver.clone(),
        cases,
        complete: seconds.is_some(),
        seconds,
        stats: bar.stats(),
    };
    if let Err(error) = outcome {
        let reader_left = matches!(&error, Error::Io { cause, .. } if cause.kind() == std::io::ErrorKind::BrokenPipe);
        // JSON is printed at the end: the cases found before the stop go out, marked incomplete.
        if format == Format::Json && printed > 0 && !reader_left {
            print(&report(cases, None), format)?;
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
        print(&report(cases, Some(elapsed.as_secs_f64())), format)?;
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
    print(&VerifyReport { plugin: plugin.name(), cases: verdicts, rejected }, format)?;
    Ok(rejected == 0)
}

/// `ludus check`: exit status 1 on any failure.
pub fn check(
    registry: &Registry,
    plugin: &str,
    cases: usize,
    seed: u64,
    plugin_options: &PluginOptions,
    format: Format,
) -> Result<bool> {
    let plugins = registry.select(plugin)?;
    // With `all`, each plugin gets the options it declares; an option none declares is refused here, before
    // any check runs (a single plugin's own parse says which options it has).
    let declarations_apply = plugins.len() > 1;
    if declarations_apply {
        let declarations: Vec<_> = plugins.iter().map(|plugin| plugin.options()).collect();
        if let Some(name) = plugin_options.undeclared(&declarations) {
            bail!("no plugin has an option `{name}` (`ludus list` shows each plugin's options)");
        }
    }
    let mut all_good = true;
    let mut checks = Vec::new();
    for plugin in plugins {
        let plugin_options =
            if declarations_apply { plugin_options.declared_in(plugin.options()) } else { plugin_options.clone() };
        // An option the plugin does not declare is one error, not a failure of every solver on every case.
        plugin_options.parse(plugin.name(), plugin.options())?;
        let options = SolveOptions { table_mb: CHECK_TABLE_MB, plugin_options, ..SolveOptions::default() };
        let started = Instant::now();
        let bar = Bar::new(plugin.name(), true);
        let report = check_plugin_observed(plugin.as_ref(), cases, seed, &options, &bar);
        bar.finish();
        let check = PluginCheck { plugin: plugin.name(), report: report?, seconds: started.elapsed().as_secs_f64() };
        all_good &= check.report.failures.is_empty();
        // Text goes out plugin by plugin, as each check ends; JSON at the end, whole.
        if format == Format::Text {
            print(&check, format)?;
        }
        checks.push(check);
    }
    if format == Format::Json {
        print(&checks, format)?;
    }
    Ok(all_good)
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
    let mut samples = Vec::new();
    for plugin in &plugins {
        let (verdict, answer, seconds) = run_sample(plugin.as_ref());
        let problem = match verdict {
            SampleVerdict::Right => None,
            SampleVerdict::Wrong { reason } => Some(reason),
        };
        let judged = match plugin.comparison() {
            ludus_framework::plugin::Comparison::Text => "matches the published answer",
            ludus_framework::plugin::Comparison::Rule => "verified by rule",
        };
        let (plugin, kind) = (plugin.name(), plugin.kind());
        samples.push(SampleReport { plugin, ok: problem.is_none(), problem, answer, seconds, kind, judged });
    }
    let all_good = samples.iter().all(|sample| sample.ok);
    print(&SamplesReport(samples), format)?;
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

/// `ludus games`: each game once, with its parameters (type, range, default) and what can be done with it, from
/// the registrations alone.
pub fn games(registry: &Registry, format: Format) -> Result<()> {
    let games = registry.games().iter().map(GameListing::of).collect();
    Ok(print(&GamesReport(games), format)?)
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
    crate::places::note_found_endgame("analyze", game.as_ref(), options.endgame.as_ref());
    let watch = SearchWatch::start(None);
    let analysis = game.analyze(position, &AnalysisOptions { progress: watch.handle(), ..options.clone() })?;
    drop(watch);
    Ok(print(&analysis, format)?)
}
