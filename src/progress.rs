//! Progress reporting for long runs: an indicatif bar on standard error, shown only when it is a terminal,
//! which also sums the engine statistics that plugins record.

use indicatif::{ProgressBar, ProgressStyle};
use ludus_framework::plugin::Progress;
use ludus_framework::Stats;
use std::io::IsTerminal;
use std::sync::Mutex;

/// A progress bar (hidden when standard error is not a terminal) that also collects statistics.
pub struct Bar {
    bar: ProgressBar,
    stats: Mutex<Stats>,
}

impl Bar {
    /// A bar labelled `label`; hidden unless standard error is a terminal and `visible` is true.
    pub fn new(label: &str, visible: bool) -> Self {
        let bar = if visible && std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(0);
            if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} cases ({elapsed})")
            {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_message(label.to_string());
            // A long case (an opening of Connect Four takes minutes) shows it is alive: the spinner and the
            // elapsed time move on their own.
            bar.enable_steady_tick(std::time::Duration::from_millis(250));
            bar
        } else {
            ProgressBar::hidden()
        };
        Bar { bar, stats: Mutex::new(Stats::default()) }
    }

    /// The statistics recorded so far.
    pub fn stats(&self) -> Stats {
        self.stats.lock().map(|stats| *stats).unwrap_or_default()
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Progress for Bar {
    fn start(&self, total: u64) {
        self.bar.set_length(total);
    }

    fn advance(&self, steps: u64) {
        self.bar.inc(steps);
    }

    fn record(&self, stats: &Stats) {
        if let Ok(mut total) = self.stats.lock() {
            total.add(stats);
        }
    }
}
