//! An independent solver to check the framework's against: a plain recursive minimax over another
//! representation (a bit for the edge to the right of each dot and one for the edge below it), memoized in a
//! hash map by the edges drawn, with no symmetry, no key and nothing of the framework.

use std::collections::HashMap;

/// The best margin the player to move can still make on a board of `rows` x `columns` boxes, by edges drawn.
pub struct BruteForce {
    rows: usize,
    columns: usize,
    memo: HashMap<u64, i32>,
}

impl BruteForce {
    /// The solver of a board of `rows` x `columns` boxes.
    pub fn new(rows: usize, columns: usize) -> BruteForce {
        BruteForce { rows, columns, memo: HashMap::new() }
    }

    /// The bit of the edge to the right of the dot at `row`, `column` (`down`: the edge below it).
    pub fn bit(&self, row: usize, column: usize, down: bool) -> u64 {
        1 << (2 * (row * (self.columns + 1) + column) + usize::from(down))
    }

    /// Every edge of the board.
    fn every_edge(&self) -> Vec<u64> {
        let mut edges = Vec::new();
        for row in 0..=self.rows {
            for column in 0..=self.columns {
                if column < self.columns {
                    edges.push(self.bit(row, column, false));
                }
                if row < self.rows {
                    edges.push(self.bit(row, column, true));
                }
            }
        }
        edges
    }

    /// The boxes whose four sides are all in `drawn`.
    fn closed_boxes(&self, drawn: u64) -> i32 {
        let mut closed = 0;
        for row in 0..self.rows {
            for column in 0..self.columns {
                let sides = self.bit(row, column, false)
                    | self.bit(row, column, true)
                    | self.bit(row + 1, column, false)
                    | self.bit(row, column + 1, true);
                closed += i32::from(drawn & sides == sides);
            }
        }
        closed
    }

    /// The boxes the player to move takes from here to the end less those the other takes, with best play.
    pub fn value(&mut self, drawn: u64) -> i32 {
        if let Some(&value) = self.memo.get(&drawn) {
            return value;
        }
        let before = self.closed_boxes(drawn);
        let mut best = None;
        for edge in self.every_edge() {
            if drawn & edge != 0 {
                continue;
            }
            let gained = self.closed_boxes(drawn | edge) - before;
            let after = self.value(drawn | edge);
            let value = if gained > 0 { gained + after } else { -after };
            best = Some(best.map_or(value, |best: i32| best.max(value)));
        }
        // No edge left: nothing more to win.
        let value = best.unwrap_or(0);
        self.memo.insert(drawn, value);
        value
    }
}
