//! A tiny constructive puzzle with the Construct / Verify / Enumerate traits: place n queens on an n x n
//! board, none attacking another. A backtracking constructor is checked against the framework's brute force.
//!
//! Run with `cargo run --release --example queens_puzzle`.

use ludus_framework::engines::brute_force::brute_force;
use ludus_framework::{Construct, Enumerate, Error, Puzzle, Verify, Violation};
use std::ops::ControlFlow;

/// The n-queens puzzle; a solution gives the column of the queen of each row.
struct Queens;

impl Puzzle for Queens {
    type Instance = usize;
    type Solution = Vec<usize>;
}

impl Verify for Queens {
    fn verify(&self, size: &usize, columns: &Vec<usize>) -> Result<(), Violation> {
        if columns.len() != *size || columns.iter().any(|&column| column >= *size) {
            return Err(Violation::new(format!("expected {size} columns below {size}")));
        }
        for (row, &column) in columns.iter().enumerate() {
            for (other_row, &other) in columns.iter().enumerate().skip(row + 1) {
                if column == other || column.abs_diff(other) == other_row - row {
                    return Err(Violation::new(format!("queens of rows {row} and {other_row} attack each other")));
                }
            }
        }
        Ok(())
    }
}

fn place(size: usize, columns: &mut Vec<usize>) -> bool {
    if columns.len() == size {
        return true;
    }
    for column in 0..size {
        let row = columns.len();
        if columns.iter().enumerate().all(|(r, &c)| c != column && c.abs_diff(column) != row - r) {
            columns.push(column);
            if place(size, columns) {
                return true;
            }
            columns.pop();
        }
    }
    false
}

impl Construct for Queens {
    fn construct(&self, size: &usize) -> Result<Option<Vec<usize>>, Error> {
        let mut columns = Vec::new();
        Ok(place(*size, &mut columns).then_some(columns))
    }
}

/// Every assignment of a column to each row: n^n candidates (brute force; small n only).
impl Enumerate for Queens {
    fn candidates(&self, size: &usize, visit: &mut dyn FnMut(&Vec<usize>) -> ControlFlow<()>) {
        let total = size.pow(*size as u32);
        for code in 0..total {
            let columns: Vec<usize> = (0..*size).map(|row| code / size.pow(row as u32) % size).collect();
            if visit(&columns).is_break() {
                return;
            }
        }
    }
}

fn main() -> Result<(), Error> {
    for size in 1..=7 {
        let built = Queens.construct(&size)?;
        let (oracle, stats) = brute_force(&Queens, &size);
        assert_eq!(built.is_some(), oracle.is_some(), "constructor and brute force disagree at n = {size}");
        if let Some(columns) = &built {
            assert!(Queens.verify(&size, columns).is_ok());
        }
        println!("n = {size}: {built:?} (brute force tried {} candidates)", stats.visited);
    }
    let wrong = vec![0, 1, 2, 3];
    println!("a wrong answer is rejected: {}", Queens.verify(&4, &wrong).err().map(|v| v.reason).unwrap_or_default());
    Ok(())
}
