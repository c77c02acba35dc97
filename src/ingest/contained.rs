//! Running a third-party reader so that its failures stay contained.
//!
//! The workbook reader (calamine) panics on some damaged files and loops
//! forever on others. Each workbook is therefore read on a thread of its
//! own, with a deadline: a panic becomes an error naming the file, and a
//! reader that overruns its time is left behind (it ends with the process)
//! while the other inputs are still read.

use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{mpsc, Once};
use std::time::Duration;

/// Why a contained reader did not finish.
#[derive(Debug, PartialEq, Eq)]
pub enum Failure {
    /// It panicked: the message and where.
    Panicked(String),
    /// It ran past its deadline.
    TimedOut(u64),
}

thread_local! {
    /// Set on reader threads: their panics are reported, not printed.
    static CONTAINED: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs, once, a panic hook that keeps quiet about panics on contained
/// threads (recording the message instead) and leaves the others to the
/// hook that was there before.
fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let contained = CONTAINED.with(|c| {
                let mut c = c.borrow_mut();
                match c.as_mut() {
                    Some(slot) => {
                        let message = info
                            .payload()
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| info.payload().downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "no message".to_string());
                        *slot = match info.location() {
                            Some(l) => format!("{message} at {}:{}", short(l.file()), l.line()),
                            None => message,
                        };
                        true
                    }
                    None => false,
                }
            });
            if !contained {
                previous(info);
            }
        }));
    });
}

/// A source path from the registry, shortened to `crate-version/src/file.rs`.
fn short(file: &str) -> &str {
    match file.rfind("/src/") {
        Some(i) => {
            let start = file[..i].rfind('/').map_or(0, |j| j + 1);
            &file[start..]
        }
        None => file,
    }
}

/// Runs `work` on its own thread; gives its result, or why there is none.
pub fn run<T: Send + 'static>(
    seconds: u64,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Failure> {
    install_hook();
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("tilerank-reader".into())
        .spawn(move || {
            CONTAINED.with(|c| *c.borrow_mut() = Some(String::new()));
            let result = panic::catch_unwind(AssertUnwindSafe(work));
            let sent = match result {
                Ok(value) => Ok(value),
                Err(_) => Err(Failure::Panicked(
                    CONTAINED.with(|c| c.borrow_mut().take().unwrap_or_default()),
                )),
            };
            let _ = tx.send(sent);
        });
    if spawned.is_err() {
        return Err(Failure::Panicked("cannot start a reader thread".into()));
    }
    match rx.recv_timeout(Duration::from_secs(seconds)) {
        Ok(result) => result,
        Err(mpsc::RecvTimeoutError::Timeout) => Err(Failure::TimedOut(seconds)),
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(Failure::Panicked(
            "the reader thread ended without a result".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_a_failure_with_its_message_and_place() {
        let r: Result<(), _> = run(5, || panic!("boom {}", 7));
        match r {
            Err(Failure::Panicked(m)) => {
                assert!(m.starts_with("boom 7 at "), "{m}");
                assert!(m.contains("contained.rs:"), "{m}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(run(5, || 6 * 7), Ok(42));
    }

    #[test]
    fn a_reader_past_its_deadline_is_left_behind() {
        let r: Result<(), _> = run(1, || std::thread::sleep(Duration::from_secs(30)));
        assert_eq!(r, Err(Failure::TimedOut(1)));
    }

    #[test]
    fn registry_paths_are_shortened() {
        assert_eq!(
            short("/root/.cargo/registry/src/index-x/calamine-0.38.0/src/xls.rs"),
            "calamine-0.38.0/src/xls.rs"
        );
        assert_eq!(short("x.rs"), "x.rs");
    }
}
