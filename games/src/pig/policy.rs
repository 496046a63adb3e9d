//! Pig's optimal hold rule, read from solved values: per pair of scores `(i, j)`, the smallest turn total at
//! which holding is at least as good as rolling.

use super::rules::PigState;
use super::Pig;
use ludus_framework::engines::scored::ValueTable;
use ludus_framework::Canonicalize;

/// Where holding is optimal for the player to move at scores `(i, j)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HoldRule {
    /// The smallest turn total `k >= 1` at which holding is at least as good as rolling (`goal - i` if none
    /// smaller: there the goal is reached and the game is won).
    pub from: u16,
    /// Whether holding stays optimal at every turn total from `from` on (a threshold rule).
    pub threshold: bool,
}

impl Pig {
    /// The value of rolling and of holding at `(i, j, k)` for the player to move, from solved values
    /// (`None` for a state not reached from the start).
    pub fn roll_and_hold(&self, values: &ValueTable<u64>, mine: u16, theirs: u16, turn: u16) -> Option<(f64, f64)> {
        let roll = values.value(self, &PigState { rolling: true, ..self.state(mine, theirs, turn) })?;
        let banked = mine + turn;
        let hold = if u32::from(banked) >= self.goal() {
            1.0
        } else {
            -values.value_of_key(&self.canonical(&self.state(theirs, banked, 0)))?
        };
        Some((roll, hold))
    }

    /// The hold rule at every pair of scores, `rules[i][j]` (`None` where no state with a turn total was
    /// reached). `tolerance`: how much better rolling must be to count as better (the values' own precision).
    pub fn hold_rules(&self, values: &ValueTable<u64>, tolerance: f64) -> Vec<Vec<Option<HoldRule>>> {
        let goal = self.goal() as u16;
        (0..goal)
            .map(|mine| {
                (0..goal)
                    .map(|theirs| {
                        // The turn totals reached (a total of 1 never is: a 1 ends the turn).
                        let holds: Vec<(u16, bool)> = (1..goal - mine)
                            .filter_map(|turn| {
                                let (roll, hold) = self.roll_and_hold(values, mine, theirs, turn)?;
                                Some((turn, hold + tolerance >= roll))
                            })
                            .collect();
                        if holds.is_empty() && goal - mine > 1 {
                            return None;
                        }
                        let first = holds.iter().position(|&(_, hold)| hold);
                        Some(match first {
                            Some(index) => HoldRule {
                                from: holds[index].0,
                                threshold: holds[index..].iter().all(|&(_, hold)| hold),
                            },
                            None => HoldRule { from: goal - mine, threshold: true },
                        })
                    })
                    .collect()
            })
            .collect()
    }
}
