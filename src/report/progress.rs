//! Progress on standard error for long runs (a big event's export).
//!
//! Shown only when standard error is a terminal, and only once a step has
//! run for longer than [`DELAY`]: a quick run prints nothing, a piped or
//! logged run never gets control characters. No colour: the bar is plain
//! characters, so `NO_COLOR` has nothing to switch off.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a step runs before its progress is shown.
pub const DELAY: Duration = Duration::from_millis(500);

/// A spinner or a bar; cleared from the terminal when finished or dropped.
pub struct Progress {
    bar: ProgressBar,
    /// Set when finished, so that the delayed start never draws after it.
    done: Arc<Mutex<bool>>,
}

impl Progress {
    /// A spinner for a step whose length is not known: `message` and the
    /// time taken.
    pub fn spinner(message: impl Into<String>) -> Progress {
        Progress::start(None, "{spinner} {msg} {elapsed}", message.into())
    }

    /// A bar for `len` steps of `unit` (rows, cards).
    pub fn bar(len: u64, unit: &str, message: impl Into<String>) -> Progress {
        // The bar takes what the line has left, whatever the terminal's width.
        let template =
            format!("{{msg}} [{{wide_bar}}] {{human_pos}}/{{human_len}} {unit} {{elapsed}}");
        Progress::start(Some(len), &template, message.into())
    }

    fn start(len: Option<u64>, template: &str, message: String) -> Progress {
        let bar = ProgressBar::with_draw_target(len, ProgressDrawTarget::hidden());
        let style = ProgressStyle::with_template(template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ")
            .tick_chars("|/-\\ ");
        bar.set_style(style);
        bar.set_message(message);
        let done = Arc::new(Mutex::new(false));
        if std::io::stderr().is_terminal() {
            let (bar, done) = (bar.clone(), Arc::clone(&done));
            std::thread::spawn(move || {
                std::thread::sleep(DELAY);
                let done = done.lock().unwrap_or_else(|e| e.into_inner());
                if !*done {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    bar.enable_steady_tick(Duration::from_millis(120));
                }
            });
        }
        Progress { bar, done }
    }

    /// `n` more steps done.
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
    }

    pub fn set_message(&self, message: impl Into<String>) {
        self.bar.set_message(message.into());
    }

    /// Clears the line; nothing is drawn after this.
    pub fn finish(&self) {
        let mut done = self.done.lock().unwrap_or_else(|e| e.into_inner());
        *done = true;
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finished_progress_stays_hidden() {
        let p = Progress::bar(10, "rows", "writing");
        p.inc(5);
        p.finish();
        std::thread::sleep(DELAY + Duration::from_millis(100));
        assert!(p.bar.is_hidden());
        let s = Progress::spinner("reading");
        drop(s);
    }
}
