//! Progress reporting for long runs: an indicatif bar on standard error, shown only when it is a terminal,
//! which also sums the engine statistics that plugins record and tells a solve when the user pressed Ctrl-C;
//! the progress line of long searches (`solve`, `analyze`, the perfect player of `play`); the Ctrl-C handlers.

use indicatif::{ProgressBar, ProgressStyle};
use ludus_framework::engines::alpha_beta::{ProgressHandle, SearchProgress};
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

    /// Installs the Ctrl-C handler of a command that has no answers to finish (`analyze`, `play`): Ctrl-C ends
    /// the program at once, saying so, with the status a shell gives an interrupt (once per process, as
    /// [`Interrupt::install`]).
    pub fn install_ending_at_once() -> Self {
        let state = Arc::new(InterruptState::default());
        let seen = Arc::clone(&state);
        let _ = ctrlc::set_handler(move || {
            seen.requested.store(true, Ordering::SeqCst);
            note!("\nstopped");
            std::process::exit(130);
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

/// How long a search runs before its progress line shows.
const SEARCH_LINE_AFTER: std::time::Duration = std::time::Duration::from_secs(1);
/// How often the progress line is redrawn.
const SEARCH_LINE_EVERY: std::time::Duration = std::time::Duration::from_millis(250);
/// The redraws the shown rate spans: two seconds, so that the engines' steps of 65,536 positions (and a pause
/// of a few hundred milliseconds) move it by a few percent, not by half.
const RATE_WINDOW: usize = 8;

/// The positions searched at the last redraws, oldest first, for the rate over the last [`RATE_WINDOW`].
#[derive(Debug, Default)]
struct RateWindow {
    samples: std::collections::VecDeque<(std::time::Instant, u64)>,
}

impl RateWindow {
    /// Records `visited` positions at `now` and gives the positions a second since the oldest sample kept (0
    /// for the first sample).
    fn rate(&mut self, now: std::time::Instant, visited: u64) -> f64 {
        if self.samples.len() > RATE_WINDOW {
            self.samples.pop_front();
        }
        let rate = self.samples.front().map_or(0.0, |&(then, before)| {
            visited.saturating_sub(before) as f64 / now.duration_since(then).as_secs_f64().max(1e-3)
        });
        self.samples.push_back((now, visited));
        rate
    }
}

/// The handle engines write their progress to when standard error is a terminal, where a [`SearchWatch`]
/// shows it; `None` off a terminal, where nothing is shown (and the engines write nothing).
pub fn terminal_handle() -> Option<ProgressHandle> {
    std::io::stderr().is_terminal().then(ProgressHandle::default)
}

/// The progress line of long searches: on a terminal, a thread watches the engines' [`SearchProgress`] and,
/// once a search has run for a second, shows the test or step under way, the positions searched and the rate,
/// on the solve's bar (after its label) or on a line of its own. Off a terminal it does nothing and gives no
/// handle. Dropped, it clears its line at once, before anything else is printed.
pub struct SearchWatch {
    handle: Option<ProgressHandle>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl SearchWatch {
    /// A watch showing its line on `bar` after `label`, or on a spinner line of its own (`bar` `None`).
    pub fn start(bar: Option<(&Bar, &str)>) -> Self {
        SearchWatch::watching(terminal_handle(), bar)
    }

    /// A watch of `handle` (from [`terminal_handle`]: the engines of a whole game write to one) on a spinner
    /// line of its own, for as long as the watch lives; nothing without a handle.
    pub fn over(handle: Option<&ProgressHandle>) -> Self {
        SearchWatch::watching(handle.cloned(), None)
    }

    fn watching(handle: Option<ProgressHandle>, bar: Option<(&Bar, &str)>) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let Some(handle) = handle else { return SearchWatch { handle: None, stop, thread: None } };
        let progress = Arc::clone(&handle.0);
        let stopped = Arc::clone(&stop);
        let target = bar.map(|(bar, label)| (bar.bar.clone(), label.to_string()));
        let thread = std::thread::Builder::new()
            .name("progress".to_string())
            .spawn(move || watch(&progress, &stopped, target))
            .ok();
        SearchWatch { handle: Some(handle), stop, thread }
    }

    /// The handle the engines write to (`None` off a terminal).
    pub fn handle(&self) -> Option<ProgressHandle> {
        self.handle.clone()
    }
}

impl Drop for SearchWatch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            // The watch sleeps parked between redraws: woken, it clears its line and ends now.
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}

/// The watch's loop: redraws the line until `stop`, then clears it.
fn watch(progress: &SearchProgress, stop: &AtomicBool, target: Option<(ProgressBar, String)>) {
    // The line is on the solve's bar, or a spinner of its own, made while it shows and cleared when hidden: a
    // line left on the screen would stay there above the next one.
    let mut line = Line { target, own: None, shown: false };
    // The search watched (its number), when it started, and its positions at the last redraws.
    let mut watched: Option<(u64, std::time::Instant)> = None;
    let mut window = RateWindow::default();
    while !stop.load(Ordering::Relaxed) {
        std::thread::park_timeout(SEARCH_LINE_EVERY);
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let now = std::time::Instant::now();
        let Some(search) = progress.running() else {
            line.hide();
            watched = None;
            continue;
        };
        let started = match watched {
            Some((id, started)) if id == search => started,
            _ => {
                watched = Some((search, now));
                window = RateWindow::default();
                window.rate(now, 0);
                continue;
            }
        };
        let visited = progress.visited();
        let rate = window.rate(now, visited);
        if now.duration_since(started) < SEARCH_LINE_AFTER {
            continue;
        }
        // A search's question ("searching at least a win in 3?"), or a step of a solve ("value iteration,
        // sweep 12:").
        let what = match progress.test() {
            Some(test) if !test.is_question() => format!("{test}:"),
            Some(test) => format!("searching {test}"),
            None => "searching".to_string(),
        };
        line.show(format!("{what} {} positions, {} a second", count(visited as f64), count(rate)));
    }
    line.hide();
}

/// Where the watch draws: after the label of a solve's bar, or on a spinner line of its own.
struct Line {
    /// The solve's bar and its label.
    target: Option<(ProgressBar, String)>,
    /// The spinner line, while it shows.
    own: Option<ProgressBar>,
    /// Whether the search's part shows.
    shown: bool,
}

impl Line {
    /// Shows `text`: after the bar's label, or on the spinner line (made if it is not there).
    fn show(&mut self, text: String) {
        self.shown = true;
        match &self.target {
            Some((bar, label)) => bar.set_message(format!("{label}: {text}")),
            None => {
                let own = self.own.get_or_insert_with(|| {
                    let own = ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
                    if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
                        own.set_style(style);
                    }
                    own.enable_steady_tick(SEARCH_LINE_EVERY);
                    own
                });
                own.set_message(text);
            }
        }
    }

    /// Takes the search's part off: the bar's label alone, or the spinner line cleared from the screen.
    fn hide(&mut self) {
        if !std::mem::take(&mut self.shown) {
            return;
        }
        if let Some((bar, label)) = &self.target {
            bar.set_message(label.clone());
        }
        if let Some(own) = self.own.take() {
            own.finish_and_clear();
        }
    }
}

/// A count in words: `812`, `65.5 k`, `80.2 M`, `1.31 G`.
fn count(value: f64) -> String {
    match value {
        value if value >= 1e9 => format!("{:.2} G", value / 1e9),
        value if value >= 1e6 => format!("{:.1} M", value / 1e6),
        value if value >= 1e3 => format!("{:.1} k", value / 1e3),
        value => format!("{value:.0}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn the_rate_spans_the_last_two_seconds_of_redraws() {
        let start = Instant::now();
        let mut window = RateWindow::default();
        assert_eq!(window.rate(start, 0), 0.0);
        // A million positions a second, counted in steps of 65,536: one redraw's own rate would jump between
        // 196,608 and 262,144 positions a quarter second; the window's is off by at most one step in two seconds.
        for redraw in 1..=40_u32 {
            let now = start + SEARCH_LINE_EVERY * redraw;
            let visited = (u64::from(redraw) * 250_000) / 65_536 * 65_536;
            let rate = window.rate(now, visited);
            if redraw > RATE_WINDOW as u32 {
                assert!((rate - 1e6).abs() <= 65_536.0 / 2.0 + 1.0, "{redraw}: {rate}");
            }
        }
        // A stall of a second shows as a lower rate, not as none.
        let last = start + SEARCH_LINE_EVERY * 40;
        let stalled = window.rate(last + Duration::from_secs(1), 10_000_000);
        assert!(stalled > 4e5 && stalled < 1e6, "{stalled}");
    }
}
