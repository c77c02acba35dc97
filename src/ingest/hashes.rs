//! The SHA-256 of the bytes each input was read from, hashed from the very
//! bytes the reader read and checked, in the one read: what a log records
//! of a file (the import log, the export's list of inputs). A file is
//! never opened again to be hashed: a named pipe gives its bytes once
//! (opened again, it waits for a writer that is gone), a file may have
//! changed since it was checked, and a large one would be read twice.
//!
//! Every reader of a file goes through here: [`super::open`] (a CSV
//! file, a workbook, standard input: read whole, within the limits, and
//! its bytes, held anyway, hashed once read); the streaming reader of
//! results files ([`crate::stream`]) and the roster reader of large files
//! ([`super::roster`]), which read a file in chunks on two threads, hash
//! its start, then each chunk on the thread that takes the chunks in the
//! file's order, as it takes it (no chunk is held longer than it was).
//!
//! Hashing costs a pass over the bytes, so it is done only while a
//! command wants it: while a [`ReadHashes`] is held on the thread that
//! reads (a command that logs what it read holds one around its reads).

use sha2::{Digest, Sha256};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

thread_local! {
    /// The hashes of the files read on this thread while a [`ReadHashes`]
    /// is held (by the path the reader was given); `None` when none is.
    static KEPT: RefCell<Option<HashMap<PathBuf, String>>> = const { RefCell::new(None) };
}

/// While held, every file read on this thread has the SHA-256 of the bytes
/// read kept (the last read of a path is the one kept: a file read again,
/// the streaming reader having given up, is kept as read the second
/// time; standard input or a pipe, given again to a second pass, gives
/// the bytes it gave the first, [`super::once`]). Held again while held
/// (one command in another), the hashes are kept until the first is
/// dropped.
pub struct ReadHashes {
    outermost: bool,
    /// (dropped on the thread that holds it: the hashes are this thread's)
    _here: std::marker::PhantomData<*const ()>,
}

impl ReadHashes {
    /// Starts keeping the hashes of what this thread reads.
    #[must_use = "hashes are kept only while this is held"]
    pub fn keep() -> ReadHashes {
        let outermost = KEPT.with_borrow_mut(|kept| {
            let outermost = kept.is_none();
            kept.get_or_insert_with(HashMap::new);
            outermost
        });
        ReadHashes {
            outermost,
            _here: std::marker::PhantomData,
        }
    }

    /// The SHA-256 (lowercase hex) of the bytes `path` was read as (the
    /// path as the reader was given it: `-` for standard input); `None`
    /// when it was not read whole while this was held (a folder, a file
    /// that could not be read).
    pub fn of(&self, path: &Path) -> Option<String> {
        KEPT.with_borrow(|kept| kept.as_ref()?.get(path).cloned())
    }
}

impl Drop for ReadHashes {
    fn drop(&mut self) {
        if self.outermost {
            KEPT.with_borrow_mut(|kept| *kept = None);
        }
    }
}

/// Whether this thread keeps the hashes of what it reads.
fn wanted() -> bool {
    KEPT.with_borrow(Option::is_some)
}

/// A hash of what a reader reads of one file, a part at a time in the
/// file's order; nothing at all (no pass over the bytes) when no
/// [`ReadHashes`] is held.
pub(crate) struct Hashing(Option<Sha256>);

impl Hashing {
    /// A hash to feed, when this thread keeps hashes.
    pub(crate) fn start() -> Hashing {
        Hashing(wanted().then(Sha256::new))
    }

    /// Whether the bytes read are hashed (else [`Hashing::update`] does
    /// nothing).
    pub(crate) fn is_on(&self) -> bool {
        self.0.is_some()
    }

    /// The next bytes of the file, in its order.
    pub(crate) fn update(&mut self, bytes: &[u8]) {
        if let Some(hasher) = &mut self.0 {
            hasher.update(bytes);
        }
    }

    /// The file `path` was read whole, its bytes those given: its hash is
    /// kept (when this thread keeps hashes).
    pub(crate) fn done(self, path: &Path) {
        if let Some(hasher) = self.0 {
            let hash = hex(&hasher.finalize());
            KEPT.with_borrow_mut(|kept| {
                if let Some(kept) = kept {
                    kept.insert(path.to_path_buf(), hash);
                }
            });
        }
    }
}

/// Keeps the hash of `bytes`, the whole of what `path` was read as (when
/// this thread keeps hashes).
pub(crate) fn whole_file(path: &Path, bytes: &[u8]) {
    let mut hashing = Hashing::start();
    hashing.update(bytes);
    hashing.done(path);
}

/// A digest as lowercase hex.
pub fn hex(digest: &[u8]) -> String {
    use std::fmt::Write;
    let mut text = String::with_capacity(2 * digest.len());
    for b in digest {
        let _ = write!(text, "{b:02x}");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hashes are kept only while held, each thread its own; held twice,
    /// until the first is dropped.
    #[test]
    fn hashes_are_kept_while_held_on_the_thread_that_reads() {
        let path = Path::new("a.csv");
        whole_file(path, b"a,b\n");
        let kept = ReadHashes::keep();
        assert_eq!(kept.of(path), None, "read before it was held");
        assert!(!Hashing(None).is_on());
        std::thread::spawn(|| whole_file(Path::new("a.csv"), b"other"))
            .join()
            .unwrap();
        assert_eq!(kept.of(path), None, "read on another thread");
        whole_file(path, b"a,b\n");
        let hash = hex(&Sha256::digest(b"a,b\n"));
        assert_eq!(kept.of(path).as_deref(), Some(hash.as_str()));
        {
            let inner = ReadHashes::keep();
            assert_eq!(inner.of(path).as_deref(), Some(hash.as_str()));
            let mut parts = Hashing::start();
            parts.update(b"a,");
            parts.update(b"b\n");
            parts.done(Path::new("b.csv"));
        }
        assert_eq!(kept.of(Path::new("b.csv")).as_deref(), Some(hash.as_str()));
        drop(kept);
        assert!(!Hashing::start().is_on());
        assert_eq!(ReadHashes::keep().of(path), None);
    }
}
