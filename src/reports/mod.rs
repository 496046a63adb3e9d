//! The reports the commands print: each command builds one typed [`Report`] (a `Serialize` struct, or a
//! framework value such as an [`ludus_framework::playable::Analysis`]) and hands it to the one printer,
//! [`print()`], which writes it as text or as JSON. No command builds JSON by hand or reads its own JSON back;
//! the server's answers embed the same structs.
//!
//! Files by command family: `plugins.rs` (`list`, `solve`, `verify`, `check`, `samples`), `games.rs` (`games`,
//! `analyze`), `database.rs` (`db solve`, `db analyze`, `db check`), `book.rs` (`book build`, `book check`), `bench.rs` (`bench`).
//!
//! Invariant: the JSON of a report is its `Serialize` form and nothing else; its text is written from the same
//! fields.

mod bench;
mod book;
mod database;
mod games;
mod plugins;

pub use bench::{BenchReport, BenchRow};
pub use database::{DatabaseCheckReport, DatabaseSolveReport};
pub use games::{GameListing, GamesReport, ParameterListing};
pub use plugins::{
    CaseReport, PluginCheck, PluginListing, PluginsReport, SampleReport, SamplesReport, SolveReport, VerifyReport,
};

use crate::cli::Format;
use crate::output::{output_error, OutputError};
use serde::Serialize;
use std::io::Write;

/// What a command prints: serialised as it is for JSON, written by [`Report::write_text`] for text.
pub trait Report: Serialize {
    /// Writes the report as text for a person.
    fn write_text(&self, out: &mut dyn Write) -> std::io::Result<()>;
}

/// Prints `report` on standard output as `format` asks, flushed: pretty JSON and a line break, or its text.
pub fn print(report: &impl Report, format: Format) -> Result<(), OutputError> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut out, report).map_err(|error| output_error(error.into()))?;
            writeln!(out).map_err(output_error)?;
        }
        Format::Text => report.write_text(&mut out).map_err(output_error)?,
    }
    out.flush().map_err(output_error)
}

/// A count of plies in words: `1 ply`, `3 plies`.
pub fn plies(count: u32) -> String {
    if count == 1 {
        "1 ply".to_string()
    } else {
        format!("{count} plies")
    }
}
