//! The reports of `ludus db`: a solve ([`DatabaseSolveReport`]), what a database holds (the framework's
//! [`DatabaseSummary`]: a win/loss game's counts by remoteness and tier, a scored game's by score) and a check
//! ([`DatabaseCheckReport`]).

use super::{plies, Report};
use ludus_framework::database::plan::SolvePlan;
use ludus_framework::database::DatabaseSummary;
use serde::Serialize;
use std::io::{Result, Write};

/// `ludus db solve`: what was solved, how fast, in how much memory.
#[derive(Clone, Debug, Serialize)]
pub struct DatabaseSolveReport {
    /// The game, with its parameters.
    pub game: String,
    /// The database's directory.
    pub directory: String,
    /// Tiers written or found.
    pub tiers: u64,
    /// Positions in the database.
    pub positions: u64,
    /// Positions solved by this run.
    pub solved: u64,
    /// Positions found on disk from an earlier run.
    pub resumed: u64,
    /// Bytes on disk.
    pub bytes: u64,
    /// The time, in seconds.
    pub seconds: f64,
    /// Positions solved a second.
    pub positions_per_second: f64,
    /// Bytes on disk a position.
    pub bytes_per_position: f64,
    /// The process's peak resident memory in MiB, where the system tells it (rank 0's over MPI).
    pub peak_memory_mb: Option<u64>,
    /// The MPI ranks that solved it (1 without MPI).
    pub ranks: i32,
    /// Whether it was solved over MPI.
    pub mpi: bool,
    /// The bytes the ranks sent one another (a solve split by shares; 0 otherwise).
    pub sent: u64,
}

impl Report for DatabaseSolveReport {
    fn write_text(&self, out: &mut dyn Write) -> Result<()> {
        writeln!(
            out,
            "{}: {} positions in {} tiers ({} found on disk), {} bytes ({:.2} bytes a position) in {}",
            self.game, self.positions, self.tiers, self.resumed, self.bytes, self.bytes_per_position, self.directory
        )?;
        let peak = self.peak_memory_mb.map_or(String::new(), |peak| format!(", peak memory {peak} MiB"));
        let ranks =
            if self.mpi { format!(" on {} MPI ranks (peak memory of rank 0)", self.ranks) } else { String::new() };
        let sent = if self.sent > 0 { format!(", {} bytes between ranks", self.sent) } else { String::new() };
        writeln!(
            out,
            "solved in {:.2} s ({:.0} positions a second){peak}{ranks}{sent}",
            self.seconds, self.positions_per_second
        )
    }
}

impl Report for SolvePlan {
    fn write_text(&self, out: &mut dyn Write) -> Result<()> {
        let gib = |bytes: u64| bytes as f64 / f64::from(1u32 << 30);
        writeln!(
            out,
            "{}: a solve split by shares over {} ranks of {:.1} GiB, {} threads each, {} cores in all",
            self.game,
            self.ranks,
            gib(self.memory_bytes),
            self.threads,
            self.cores
        )?;
        writeln!(
            out,
            "{:>8}  {:>16}  {:>16}  {:>14}  {:>12}  {:>12}  {:>10}",
            "tier", "ranks", "positions", "share", "GiB a rank", "MB sent", "seconds"
        )?;
        for tier in &self.tiers {
            let mark = if tier.fits { "" } else { "  does not fit" };
            writeln!(
                out,
                "{:>8}  {:>16}  {:>16}  {:>14}  {:>12.3}  {:>12.1}  {:>10.1}{mark}",
                tier.tier.to_string(),
                tier.ranks,
                tier.positions,
                tier.share,
                gib(tier.memory_bytes),
                tier.sent_bytes as f64 / 1e6,
                tier.seconds
            )?;
        }
        writeln!(
            out,
            "{} positions (estimated); peak {:.3} GiB a rank; {:.1} GB sent by all ranks; {:.1} GB of files; \
             {:.0} s ({:.2} h)",
            self.positions,
            gib(self.peak_bytes),
            self.sent_bytes as f64 / 1e9,
            self.disk_bytes as f64 / 1e9,
            self.seconds,
            self.seconds / 3600.0
        )?;
        let over: Vec<String> = self.tiers.iter().filter(|tier| !tier.fits).map(|tier| tier.tier.to_string()).collect();
        match over.is_empty() {
            true => writeln!(out, "every tier fits"),
            false => {
                writeln!(out, "tiers that do not fit {:.1} GiB a rank: {}", gib(self.memory_bytes), over.join(", "))
            }
        }
    }
}

impl Report for DatabaseSummary {
    fn write_text(&self, out: &mut dyn Write) -> Result<()> {
        let analysis = match self {
            DatabaseSummary::Outcomes(analysis) => analysis,
            DatabaseSummary::Scores(report) => {
                let summary = &report.summary;
                writeln!(out, "{}: the start's score is {}", report.game, summary.start)?;
                writeln!(out, "{} positions, {} bytes on disk", summary.positions, summary.bytes)?;
                writeln!(out)?;
                writeln!(out, "{:>10}  {:>14}", "score", "positions")?;
                for row in &summary.by_score {
                    writeln!(out, "{:>10}  {:>14}", row.score, row.positions)?;
                }
                return Ok(());
            }
        };
        let summary = &analysis.summary;
        writeln!(out, "{}: the start is a {}", analysis.game, analysis.start)?;
        writeln!(
            out,
            "{} positions in {} tiers, {} bytes on disk",
            summary.positions,
            summary.tiers.len(),
            summary.bytes
        )?;
        writeln!(out)?;
        writeln!(out, "{:>10}  {:>14}  {:>14}  {:>14}", "remoteness", "win", "loss", "total")?;
        for row in &summary.by_remoteness {
            writeln!(
                out,
                "{:>10}  {:>14}  {:>14}  {:>14}",
                row.remoteness,
                row.wins,
                row.losses,
                row.wins + row.losses
            )?;
        }
        writeln!(out, "{:>10}  {:>14}  {:>14}  {:>14}", "draw", "", "", summary.draws)?;
        let (wins, losses): (u64, u64) =
            summary.by_remoteness.iter().fold((0, 0), |(w, l), row| (w + row.wins, l + row.losses));
        writeln!(out, "{:>10}  {:>14}  {:>14}  {:>14}", "all", wins, losses, summary.positions)?;
        writeln!(out)?;
        writeln!(out, "{:>10}  {:>14}  {:>14}  {:>14}  {:>12}", "tier", "win", "loss", "draw", "bytes")?;
        for tier in &summary.tiers {
            writeln!(
                out,
                "{:>10}  {:>14}  {:>14}  {:>14}  {:>12}",
                tier.tier, tier.wins, tier.losses, tier.draws, tier.bytes
            )?;
        }
        for (what, longest, drawing) in [
            ("win", &summary.longest_win, &analysis.longest_win_drawing),
            ("loss", &summary.longest_loss, &analysis.longest_loss_drawing),
        ] {
            if let Some(longest) = longest {
                let remoteness = longest.value.remoteness().unwrap_or(0);
                writeln!(out)?;
                writeln!(out, "longest {what}: {}, for example (key {:#x}):", plies(remoteness), longest.key)?;
                writeln!(out, "{}", drawing.as_deref().unwrap_or("(the key does not decode to a position)"))?;
            }
        }
        Ok(())
    }
}

/// `ludus db check`: every record re-derived from its children's.
#[derive(Clone, Debug, Serialize)]
pub struct DatabaseCheckReport {
    /// The game, with its parameters.
    pub game: String,
    /// The database's directory.
    pub directory: String,
    /// Whether every record is right.
    pub right: bool,
    /// Tiers checked.
    pub tiers: u64,
    /// Records checked.
    pub positions: u64,
    /// What is wrong, damaged or missing.
    pub problems: Vec<String>,
    /// The time, in seconds.
    pub seconds: f64,
}

impl Report for DatabaseCheckReport {
    fn write_text(&self, out: &mut dyn Write) -> Result<()> {
        for problem in &self.problems {
            writeln!(out, "problem: {problem}")?;
        }
        let verdict = if self.right { "every record is right" } else { "the database is WRONG" };
        writeln!(
            out,
            "{}: {} records in {} tiers re-derived from their children in {:.2} s: {verdict}",
            self.game, self.positions, self.tiers, self.seconds
        )
    }
}
