//! Progress reporting for long runs: an indicatif bar on standard error, shown only when it is a terminal,
//! which also sums the engine statistics that plugins record and tells a solve when the user pressed Ctrl-C.

use indicatif::{ProgressBar, ProgressStyle};
use ludus_framework::plugin::Progress;
use ludus_framework::Stats;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The user's request to stop: the first Ctrl-C sets it (a solve then ends after the cases under way and says
/// what it printed); a second one ends the program at once, with the status a shell gives an interrupt.
#[derive(Clone, Debug, Default)]
pub struct Interrupt(Arc<AtomicBool>);

impl Interrupt {
    /// Installs the Ctrl-C handler (once per process; a second call keeps the first handler and returns a flag
    /// that stays unset).
    pub fn install() -> Self {
        let flag = Arc::new(AtomicBool::new(false));
        let seen = Arc::clone(&flag);
        let _ = ctrlc::set_handler(move || {
            if seen.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            eprintln!("\nstopping after the cases under way (Ctrl-C again to stop at once)");
        });
        Interrupt(flag)
    }

    /// Whether Ctrl-C was pressed.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// A progress bar (hidden when standard error is not a terminal) that also collects statistics.
pub struct Bar {
    bar: ProgressBar,
    stats: Mutex<Stats>,
    interrupt: Interrupt,
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
        Bar { bar, stats: Mutex::new(Stats::default()), interrupt: Interrupt::default() }
    }

    /// The same bar, telling solves that the user asked to stop when `interrupt` is set.
    pub fn watching(self, interrupt: &Interrupt) -> Self {
        Bar { interrupt: interrupt.clone(), ..self }
    }

    /// The statistics recorded so far.
    pub fn stats(&self) -> Stats {
        self.stats.lock().map(|stats| *stats).unwrap_or_default()
    }

    /// Runs `work` (which prints) with the bar taken off the terminal meanwhile, so that printed lines do not
    /// mix with it.
    pub fn suspend<Output>(&self, work: impl FnOnce() -> Output) -> Output {
        self.bar.suspend(work)
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

    fn cancelled(&self) -> bool {
        self.interrupt.is_set()
    }
}
