//! The reports of `ludus book build` and `ludus book check`: the framework's own, written as text here.

use super::Report;
use ludus_framework::database::book::{BookCheck, BookReport};
use std::io::Write;

impl Report for BookReport {
    fn write_text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        if self.existed {
            return writeln!(
                out,
                "{}: the book at {} is there already: {} positions to {} plies, {} bytes",
                self.game, self.path, self.positions, self.depth, self.bytes
            );
        }
        writeln!(
            out,
            "{}: {} positions to {} plies in {} ({} bytes)",
            self.game, self.positions, self.depth, self.path, self.bytes
        )?;
        let plies: Vec<String> = self.by_ply.iter().map(u64::to_string).collect();
        writeln!(out, "by ply: {}", plies.join(" "))?;
        writeln!(out, "searched: {} this run, {} from the journal of an earlier one", self.searched, self.resumed)
    }
}

impl Report for BookCheck {
    fn write_text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(
            out,
            "{}: {} positions to {} plies; {} checked against their moves, {} searched again",
            self.path, self.positions, self.depth, self.backed_up, self.sampled
        )?;
        for problem in &self.listed {
            writeln!(out, "problem: {problem}")?;
        }
        match self.problems {
            0 => writeln!(out, "ok"),
            count => writeln!(out, "{count} problem(s)"),
        }
    }
}
