//! The report of `ludus bench`: a row per workload and engine or solver ([`BenchRow`]), and the threads.

use super::Report;
use ludus_framework::Stats;
use serde::Serialize;
use std::io::{Result, Write};

/// One row of the table: a workload timed by one engine or solver.
#[derive(Clone, Debug, Serialize)]
pub struct BenchRow {
    /// The workload.
    pub workload: String,
    /// The engine or solver.
    pub engine: String,
    /// Its time, in seconds.
    pub seconds: f64,
    /// Its counters.
    pub stats: Stats,
    /// Positions visited a second.
    pub positions_per_second: f64,
    /// What it asserted, or its figures beside a reference.
    pub note: String,
}

impl BenchRow {
    /// The row of `engine` on `workload`, which took `seconds` and counted `stats`.
    pub fn new(workload: &str, engine: &str, seconds: f64, stats: Stats, note: impl Into<String>) -> Self {
        let positions_per_second = if seconds > 0.0 { stats.visited as f64 / seconds } else { 0.0 };
        BenchRow {
            workload: workload.to_string(),
            engine: engine.to_string(),
            seconds,
            stats,
            positions_per_second,
            note: note.into(),
        }
    }
}

/// `ludus bench`: every row, and the threads the parallel ones were given. Its JSON is the rows.
#[derive(Clone, Debug, Serialize)]
#[serde(transparent)]
pub struct BenchReport {
    /// The rows, in the order run.
    pub rows: Vec<BenchRow>,
    /// The threads.
    #[serde(skip)]
    pub threads: usize,
}

impl Report for BenchReport {
    fn write_text(&self, out: &mut dyn Write) -> Result<()> {
        writeln!(
            out,
            "{:<46} {:<17} {:>10} {:>12} {:>10} {:>12} {:>12}  note",
            "workload", "engine", "ms", "visited", "table", "hits", "pos/s"
        )?;
        for row in &self.rows {
            writeln!(
                out,
                "{:<46} {:<17} {:>10.2} {:>12} {:>10} {:>12} {:>12.0}  {}",
                row.workload,
                row.engine,
                row.seconds * 1000.0,
                row.stats.visited,
                row.stats.table_entries,
                row.stats.hits,
                row.positions_per_second,
                row.note
            )?;
        }
        writeln!(out, "threads: {}", self.threads)
    }
}
