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
