//! Sources that give their bytes once: standard input (`-`), a named pipe
//! (a `mkfifo`, a shell's `<(...)`), a device. Opened again, standard input
//! is at its end and a pipe waits for a writer that is gone. Every input is
//! read once per command all the same, whatever its kind: a command that
//! reads its inputs more than once holds a [`Replay`] around its reads
//! (the streaming reader, which may give up and leave the bytes to the
//! ordinary reader; the second pass of an event whose cards clash,
//! [`crate::intake::in_passes`]). While it is held, what `bytes` reads
//! of such a source is kept (its bytes, or why it could not be read), and
//! every later open of the same source gives the same again without
//! reading: the streaming reader, the ordinary one and a second pass all
//! read what the first read, and say of it what the first said.
//!
//! A regular file is read again, as it always was: it gives the same
//! bytes, and a large one is not held for a second pass (the streaming
//! reader, [`crate::stream`], reads it in chunks, never whole). Only what
//! was read whole anyway is kept, once (shared, not copied): a source that
//! gives its bytes once is always read whole, within
//! [`super::limits::Limits::file_bytes`].

use super::InputError;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// A source's bytes, as read once: shared by every reader of them.
pub type Bytes = Rc<Vec<u8>>;

/// What the sources read while one [`Replay`] is held gave, by path (as
/// the reader was given it).
#[derive(Default)]
struct Kept(HashMap<PathBuf, Result<Bytes, InputError>>);

thread_local! {
    /// One [`Kept`] for each [`Replay`] held on this thread, the
    /// innermost last.
    static HELD: RefCell<Vec<Kept>> = const { RefCell::new(Vec::new()) };
}

/// While held, what this thread reads of a source that gives its bytes
/// once is kept, and given again to every later read of it.
pub struct Replay {
    /// Its place among the replays held on this thread.
    depth: usize,
    /// (dropped on the thread that holds it: what is kept is this
    /// thread's)
    _here: std::marker::PhantomData<*const ()>,
}

impl Replay {
    /// Starts keeping what the sources read on this thread give (a replay
    /// held inside another keeps its own).
    #[must_use = "what is read is kept only while this is held"]
    pub fn keep() -> Replay {
        let depth = HELD.with_borrow_mut(|held| {
            held.push(Kept::default());
            held.len() - 1
        });
        Replay {
            depth,
            _here: std::marker::PhantomData,
        }
    }
}

impl Drop for Replay {
    fn drop(&mut self) {
        HELD.with_borrow_mut(|held| held.truncate(self.depth));
    }
}

/// Whether `path` names a source that gives its bytes once: standard
/// input (even redirected from a file: it is read to its end), or
/// anything but a regular file.
pub(crate) fn gives_once(path: &Path) -> bool {
    path.as_os_str() == "-" || std::fs::metadata(path).is_ok_and(|m| !m.is_file())
}

/// Whether a [`Replay`] is held on this thread: a source that gives its
/// bytes once, read now, can be read again.
pub(crate) fn is_held() -> bool {
    HELD.with_borrow(|held| !held.is_empty())
}

/// The bytes of `path`, as `read` reads them whole; while a [`Replay`]
/// is held and `path` gives its bytes once, kept, and given again (not
/// read) to every later read of `path`.
pub(crate) fn bytes(
    path: &Path,
    read: impl FnOnce() -> Result<Vec<u8>, InputError>,
) -> Result<Bytes, InputError> {
    if !is_held() || !gives_once(path) {
        return read().map(Rc::new);
    }
    let again = HELD.with_borrow(|held| held.last()?.0.get(path).cloned());
    if let Some(read) = again {
        return read;
    }
    let bytes = read().map(Rc::new);
    HELD.with_borrow_mut(|held| {
        if let Some(kept) = held.last_mut() {
            kept.0.insert(path.to_path_buf(), bytes.clone());
        }
    });
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// `read` as a source that gives `gives` in turn (then nothing), and
    /// counts its reads in `reads`.
    fn source<'a>(
        gives: &'a [&'a [u8]],
        reads: &'a Cell<usize>,
    ) -> impl Fn() -> Result<Vec<u8>, InputError> + 'a {
        move || {
            let n = reads.get();
            reads.set(n + 1);
            Ok(gives.get(n).copied().unwrap_or_default().to_vec())
        }
    }

    /// Standard input is read once while a replay is held: every later
    /// read gives the same bytes, the very ones (not a copy); once the
    /// replay is dropped, it is read anew.
    #[test]
    fn standard_input_is_read_once_and_given_again() {
        let stdin = Path::new("-");
        let reads = Cell::new(0);
        let read = source(&[b"a,b\n"], &reads);
        let replay = Replay::keep();
        assert!(is_held());
        let first = bytes(stdin, &read).unwrap();
        assert_eq!(*first, b"a,b\n");
        for _ in 0..2 {
            let again = bytes(stdin, &read).unwrap();
            assert!(Rc::ptr_eq(&first, &again), "the bytes read, shared");
            assert_eq!(reads.get(), 1, "nothing read again");
        }
        drop(replay);
        assert!(!is_held());
        assert_eq!(*bytes(stdin, &read).unwrap(), b"");
        assert_eq!(reads.get(), 2, "read again once no replay is held");
    }

    /// Why a source could not be read is given again as it was.
    #[test]
    fn an_error_is_given_again() {
        let reads = Cell::new(0);
        let read = || {
            reads.set(reads.get() + 1);
            Err(InputError::Unreadable {
                path: "<stdin>".into(),
                reason: "broken".into(),
            })
        };
        let _replay = Replay::keep();
        let first = bytes(Path::new("-"), read).unwrap_err().to_string();
        let again = bytes(Path::new("-"), || unreachable!("kept")).unwrap_err();
        assert_eq!(again.to_string(), first);
        assert_eq!(reads.get(), 1);
    }

    /// A regular file is read each time (not held), a device kept; a
    /// replay held inside another keeps its own, and the outer one's
    /// reads are still given again once it is dropped.
    #[cfg(unix)]
    #[test]
    fn a_regular_file_is_read_again_and_replays_nest() {
        let file = std::env::temp_dir().join(format!("tilerank-once-{}.csv", std::process::id()));
        std::fs::write(&file, "x\n").unwrap();
        let device = Path::new("/dev/null");
        let (file_reads, device_reads) = (Cell::new(0), Cell::new(0));
        let read_file = source(&[b"x\n", b"x\n"], &file_reads);
        let read_device = source(&[b"d"], &device_reads);
        let _outer = Replay::keep();
        bytes(&file, &read_file).unwrap();
        assert_eq!(*bytes(device, &read_device).unwrap(), b"d");
        {
            let _inner = Replay::keep();
            assert_eq!(*bytes(device, &read_device).unwrap(), b"");
            assert_eq!(*bytes(device, &read_device).unwrap(), b"");
        }
        bytes(&file, &read_file).unwrap();
        assert_eq!(*bytes(device, &read_device).unwrap(), b"d");
        assert_eq!((file_reads.get(), device_reads.get()), (2, 2));
        std::fs::remove_file(&file).unwrap();
    }
}
