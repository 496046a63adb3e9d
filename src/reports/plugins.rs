//! The reports of the plugin commands: `ludus list` ([`PluginsReport`]), `ludus solve --format json`
//! ([`SolveReport`]; text answers go out case by case as they are solved), `ludus verify` ([`VerifyReport`]),
//! `ludus check` ([`PluginCheck`] per plugin) and `ludus samples` ([`SamplesReport`]).

use super::games::ParameterListing;
use super::Report;
use ludus_framework::conformance::CheckReport;
use ludus_framework::plugin::{CaseVerdict, Kind, Plugin, SolverInfo};
use ludus_framework::Stats;
use serde::Serialize;
use std::io::{Result, Write};

/// A plugin as `ludus list` shows it.
#[derive(Clone, Debug, Serialize)]
pub struct PluginListing {
    /// Its name.
    pub name: &'static str,
    /// What kind of problem it solves.
    pub kind: Kind,
    /// One line on it.
    pub summary: &'static str,
    /// Its solvers, the default first.
    pub solvers: Vec<SolverInfo>,
    /// Its own options.
    pub options: Vec<ParameterListing>,
}

impl PluginListing {
    /// The listing of `plugin`.
    pub fn of(plugin: &dyn Plugin) -> PluginListing {
        PluginListing {
            name: plugin.name(),
            kind: plugin.kind(),
            summary: plugin.summary(),
            solvers: plugin.solvers(),
            options: plugin.options().iter().map(ParameterListing::of).collect(),
        }
    }
}

/// `ludus list`: every plugin.
#[derive(Clone, Debug, Serialize)]
#[serde(transparent)]
pub struct PluginsReport(pub Vec<PluginListing>);

impl Report for PluginsReport {
    fn write_text(&self, out: &mut dyn Write) -> Result<()> {
        for plugin in &self.0 {
            writeln!(out, "{:<26} {:<20} {}", plugin.name, plugin.kind.to_string(), plugin.summary)?;
            for solver in &plugin.solvers {
                writeln!(out, "    --solver {:<14} {}", solver.name, solver.summary)?;
            }
            for option in &plugin.options {
                let (name, range, default) = (option.name, &option.range_text, &option.default);
                writeln!(out, "    --option {name:<14} {} ({range}, default {default})", option.help)?;
            }
        }
        Ok(())
    }
}

/// One case's answer in a [`SolveReport`].
#[derive(Clone, Debug, Serialize)]
pub struct CaseReport {
    /// Its number, from 1.
    pub case: usize,
    /// The answer as structured data.
    pub answer: serde_json::Value,
    /// The answer as the official output writes it after `Case #x:`, trimmed.
    pub text: String,
    /// The case as the official output writes it, header and all.
    #[serde(skip)]
    pub official: String,
}

/// `ludus solve`: the answers, whether every case was solved, the time and the engines' counters.
#[derive(Clone, Debug, Serialize)]
pub struct SolveReport {
    /// The plugin.
    pub plugin: &'static str,
    /// The solver.
    pub solver: String,
    /// The answers, in order.
    pub cases: Vec<CaseReport>,
    /// Whether every case was solved (an error or Ctrl-C leaves the cases found before it).
    pub complete: bool,
    /// The time of the whole solve, in seconds, when complete.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
    /// The engines' counters, summed.
    pub stats: Stats,
}

impl Report for SolveReport {
    fn write_text(&self, out: &mut dyn Write) -> Result<()> {
        self.cases.iter().try_for_each(|case| out.write_all(case.official.as_bytes()))
    }
}

/// `ludus verify`: each case's verdict.
#[derive(Clone, Debug, Serialize)]
pub struct VerifyReport {
    /// The plugin.
    pub plugin: &'static str,
    /// Each case's verdict.
    pub cases: Vec<CaseVerdict>,
    /// How many were rejected.
    pub rejected: usize,
}

impl Report for VerifyReport {
    fn write_text(&self, out: &mut dyn Write) -> Result<()> {
        for verdict in &self.cases {
            match &verdict.problem {
                None => writeln!(out, "Case #{}: accepted", verdict.case)?,
                Some(problem) => writeln!(out, "Case #{}: REJECTED: {problem}", verdict.case)?,
            }
        }
        writeln!(out, "{} of {} cases accepted", self.cases.len() - self.rejected, self.cases.len())
    }
}

/// `ludus check` of one plugin: its solvers cross-checked on random cases.
#[derive(Clone, Debug, Serialize)]
pub struct PluginCheck {
    /// The plugin.
    pub plugin: &'static str,
    /// What the check found.
    pub report: CheckReport,
    /// Its time, in seconds.
    pub seconds: f64,
}

impl Report for PluginCheck {
    fn write_text(&self, out: &mut dyn Write) -> Result<()> {
        let report = &self.report;
        let verdict = if report.failures.is_empty() {
            "all agree, all verified".to_string()
        } else {
            format!("{} FAILED", report.failures.len())
        };
        writeln!(
            out,
            "{}: {} random cases, solvers {}: {verdict} ({:.2} s)",
            self.plugin,
            report.cases,
            report.solvers.join(" / "),
            self.seconds
        )?;
        for failure in report.failures.iter().take(5) {
            let instance: String = failure.input.lines().map(|line| format!("    {line}\n")).collect();
            writeln!(out, "  instance:\n{instance}  problem: {}", failure.problem)?;
        }
        Ok(())
    }
}

impl Report for Vec<PluginCheck> {
    fn write_text(&self, out: &mut dyn Write) -> Result<()> {
        self.iter().try_for_each(|check| check.write_text(out))
    }
}

/// One plugin's bundled sample in a [`SamplesReport`].
#[derive(Clone, Debug, Serialize)]
pub struct SampleReport {
    /// The plugin.
    pub plugin: &'static str,
    /// Whether its answer is right.
    pub ok: bool,
    /// Why not, if not.
    pub problem: Option<String>,
    /// Its answer, as the official output writes it.
    pub answer: String,
    /// Its time, in seconds.
    pub seconds: f64,
    /// What kind of problem it solves.
    #[serde(skip)]
    pub kind: Kind,
    /// How the answer is judged: `matches the published answer` or `verified by rule`.
    #[serde(skip)]
    pub judged: &'static str,
}

/// `ludus samples`: every plugin on its bundled sample.
#[derive(Clone, Debug, Serialize)]
#[serde(transparent)]
pub struct SamplesReport(pub Vec<SampleReport>);

impl Report for SamplesReport {
    fn write_text(&self, out: &mut dyn Write) -> Result<()> {
        for sample in &self.0 {
            writeln!(out, "== {} ({}) in {:.1} ms", sample.plugin, sample.kind, sample.seconds * 1000.0)?;
            write!(out, "{}", sample.answer)?;
            match &sample.problem {
                None => writeln!(out, "-> OK: {}\n", sample.judged)?,
                Some(reason) => writeln!(out, "-> WRONG: {reason}\n")?,
            }
        }
        let good = self.0.iter().filter(|sample| sample.ok).count();
        writeln!(out, "{good} of {} plugins answer their samples right", self.0.len())
    }
}
