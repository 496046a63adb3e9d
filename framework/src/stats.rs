//! Search statistics reported by every engine.

use serde::Serialize;

/// Counters that every engine keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Positions (or components, or states) expanded: their moves were generated.
    pub visited: u64,
    /// Entries in the engine's table at the time of reading (0 for engines without a table).
    pub table_entries: u64,
    /// Lookups answered by the table.
    pub hits: u64,
}

impl Stats {
    /// Adds the counters of `other` to these (table entries are summed too).
    pub fn add(&mut self, other: &Stats) {
        self.visited += other.visited;
        self.table_entries += other.table_entries;
        self.hits += other.hits;
    }
}

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} visited, {} table entries, {} hits", self.visited, self.table_entries, self.hits)
    }
}

/// How far an iterative solve (value iteration) went: what an analysis reports beside a value that is exact
/// only to a tolerance.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Convergence {
    /// Positions solved.
    pub positions: u64,
    /// Sweeps run.
    pub sweeps: u64,
    /// The largest change of a value in the last sweep: the tolerance reached.
    pub residual: f64,
    /// Whether the residual went below the tolerance asked (else the cap on sweeps stopped the iteration).
    pub converged: bool,
}

impl std::fmt::Display for Convergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "value iteration: {} positions, {} sweeps, largest change of the last sweep {:.1e}{}",
            self.positions,
            self.sweeps,
            self.residual,
            if self.converged { "" } else { " (stopped by the cap on sweeps before the tolerance)" }
        )
    }
}
