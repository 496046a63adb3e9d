//! Progress reporting for long runs: an indicatif bar on standard error, shown only when it is a terminal,
//! which also sums the engine statistics that plugins record and tells a solve when the user pressed Ctrl-C.

use indicatif::{ProgressBar, ProgressStyle};
use ludus_framework::plugin::Progress;
use ludus_framework::Stats;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// How long a solve may go on after the first Ctrl-C before the program ends anyway: a case can take minutes,
/// and a stop should come promptly.
const GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// The user's request to stop: the first Ctrl-C sets it, and a solve ends after the cases under way, saying
/// what it printed; if they are still running after [`GRACE`], or at a second Ctrl-C, the program ends at once,
/// with the status a shell gives an interrupt, and says how many whole answers it printed.
#[derive(Clone, Debug, Default)]
pub struct Interrupt(Arc<InterruptState>);

#[derive(Debug, Default)]
struct InterruptState {
    requested: AtomicBool,
    /// Answers printed so far (each one whole: the output is flushed answer by answer).
    printed: AtomicUsize,
    /// Held while an answer is written: the program never ends in the middle of one.
    writing: Mutex<()>,
}

impl Interrupt {
    /// Installs the Ctrl-C handler (once per process; a second call keeps the first handler and returns a flag
    /// that stays unset).
    pub fn install() -> Self {
        let state = Arc::new(InterruptState::default());
        let seen = Arc::clone(&state);
        let _ = ctrlc::set_handler(move || {
            let stop_now = |state: &InterruptState| {
                // Wait for an answer being written; the lock is never released after this.
                let held = state.writing.lock();
                std::mem::forget(held);
                let printed = state.printed.load(Ordering::SeqCst);
                note!("stopped: the output holds the first {printed} cases only");
                std::process::exit(130);
            };
            if seen.requested.swap(true, Ordering::SeqCst) {
                stop_now(&seen);
            }
            note!("\nstopping after the cases under way (Ctrl-C again to stop at once)");
            let state = Arc::clone(&seen);
            std::thread::spawn(move || {
                std::thread::sleep(GRACE);
                stop_now(&state);
            });
        });
        Interrupt(state)
    }

    /// Whether Ctrl-C was pressed.
    pub fn is_set(&self) -> bool {
        self.0.requested.load(Ordering::SeqCst)
    }

    /// Writes one answer with `write` and counts it, all under the lock a stop waits for.
    pub fn printing<Output>(&self, write: impl FnOnce() -> std::io::Result<Output>) -> std::io::Result<Output> {
        let _writing = self.0.writing.lock().map_err(|_| std::io::Error::other("a writer panicked"))?;
        let output = write()?;
        self.0.printed.fetch_add(1, Ordering::SeqCst);
        Ok(output)
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
