//! Pig's optimal hold rule as a table: `cargo run --release -p ludus-games --example pig_policy -- 100 10`
//! (the goal, the step between rows and columns). Row `i` (the mover's score), column `j` (the other's): the
//! smallest turn total at which holding is optimal (`*` where holding is not optimal at every larger total).

use ludus_framework::engines::scored::ValueIteration;
use ludus_games::pig::Pig;
use std::io::Write;

fn main() -> Result<(), ludus_framework::Error> {
    let mut arguments = std::env::args().skip(1);
    let goal: u32 = arguments.next().and_then(|text| text.parse().ok()).unwrap_or(100);
    let step: usize = arguments.next().and_then(|text| text.parse().ok()).unwrap_or(10).max(1);
    let game = Pig::new(goal)?;
    let solved = ValueIteration::default().solve(&game, &game.start())?;
    let rules = game.hold_rules(&solved, 1e-9);
    let mut out = std::io::stdout().lock();
    let probability = solved.value(&game, &game.start()).map_or(0.0, |value| (1.0 + value) / 2.0);
    let _ = writeln!(out, "pig to {goal}: the first player wins with {probability:.6}; {} sweeps", solved.sweeps);
    let _ = write!(out, "i \\ j");
    for column in (0..goal as usize).step_by(step) {
        let _ = write!(out, "{column:>5}");
    }
    let _ = writeln!(out);
    for (mine, row) in rules.iter().enumerate().step_by(step) {
        let _ = write!(out, "{mine:>5}");
        for rule in row.iter().step_by(step) {
            let cell =
                rule.map_or("-".to_string(), |rule| format!("{}{}", rule.from, if rule.threshold { "" } else { "*" }));
            let _ = write!(out, "{cell:>5}");
        }
        let _ = writeln!(out);
    }
    Ok(())
}
