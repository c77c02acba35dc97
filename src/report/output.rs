//! Where a report goes: a file written whole or not at all (into a
//! temporary file beside it, flushed to disk, then renamed into place; a
//! failure leaves no half file), or standard output for `-o -`.
//!
//! A symbolic link is written through: the file it points to gets the new
//! contents and the link stays. A target that is there and is not a
//! regular file (a named pipe, `/dev/null`, a terminal, `/dev/stdout`) is
//! written into as it is: opened for writing, with no temporary file and
//! no rename, so the node stays what it was.
//!
//! Refused before anything is written:
//! - a file this run has read (`score racks.csv -o racks.csv`);
//! - the files of an event folder (`tilerank.toml`, `tilerank.db` and the
//!   database's `-journal`, `-wal` and `-shm` files), in whatever folder
//!   holds a `tilerank.toml`, named in any way (`./tilerank.db`, a link);
//! - a folder, and a block device (a disk);
//! - a file in a folder that is not there (`-o nodir/sub/out.xlsx`: the
//!   folder is named), or under a file (`-o roster.csv/out.csv`). A
//!   report's folder is never made: a mistyped folder, or a USB stick not
//!   mounted, would take the report where nobody looks for it.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Why a report was not written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("{path}: is one of the inputs of this run; write the report to another file")]
    IsAnInput { path: String },
    #[error("{path}: is {what}; a report is never written over the event's own files: write it to another file")]
    IsAnEventFile { path: String, what: &'static str },
    #[error("{path}: is a folder, not a file: give a file name for the report")]
    IsAFolder { path: String },
    #[error("{path}: names a folder (it ends in /), not a file: give a file name for the report")]
    NamesAFolder { path: String },
    #[error("{path}: is a disk (a block device), not a file: give a file name for the report")]
    IsADisk { path: String },
    #[error(
        "{folder}: no such folder (to write {name} in): check the path, or create the folder first"
    )]
    NoSuchFolder { folder: String, name: String },
    #[error("{folder}: is a file, not a folder (to write {name} in): give a folder that is there")]
    FileNotFolder { folder: String, name: String },
    #[error("{path}: cannot be written: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

/// Whether `path` means standard output.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The files an event folder holds beside its settings, by name, and what
/// each one is (see [`crate::event_folder`]).
const EVENT_FILES: [(&str, &str); 5] = [
    (crate::config::FILE_NAME, "the event's settings"),
    (crate::event_folder::DB_FILE, "the event's database"),
    ("tilerank.db-journal", "the journal of the event's database"),
    ("tilerank.db-wal", "the log of the event's database"),
    ("tilerank.db-shm", "the index of the event's database"),
];

/// What `path` is, when it names one of an event folder's own files (see
/// `EVENT_FILES`; there or not yet): its name, or that of a symbolic
/// link on the way from it, in a folder that holds a `tilerank.toml`
/// (names compared without case, as some file systems do); or the file it
/// comes to is one of the files of the event this run opened
/// ([`note_event`]), however named.
pub fn event_file(path: &Path) -> Option<&'static str> {
    let steps = links(path);
    let named = steps.iter().find_map(|step| {
        let name = step.file_name()?.to_str()?;
        let what = EVENT_FILES
            .iter()
            .find(|(file, _)| file.eq_ignore_ascii_case(name))?
            .1;
        folder_of(step)
            .join(crate::config::FILE_NAME)
            .is_file()
            .then_some(what)
    });
    named.or_else(|| {
        let target = canonical(steps.last()?)?;
        EVENT.lock().ok()?.get(&target).copied()
    })
}

/// The event folder's files of this run, by the canonical path of the
/// file each one comes to ([`note_event`]).
static EVENT: std::sync::Mutex<std::collections::BTreeMap<PathBuf, &'static str>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

/// Records the files of the event folder `dir` this run opened: a report
/// is never written over one of them, whatever path names it
/// ([`event_file`]).
pub fn note_event(dir: &Path) {
    let Ok(mut event) = EVENT.lock() else {
        return;
    };
    for (name, what) in EVENT_FILES {
        if let Some(target) = canonical(&resolve(&dir.join(name))) {
            event.insert(target, what);
        }
    }
}

/// The folder a path is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// `path` with its folder canonical (the file itself need not be there).
fn canonical(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?;
    Some(std::fs::canonicalize(folder_of(path)).ok()?.join(name))
}

/// Refuses a path that names one of an event folder's own files
/// ([`event_file`]): what `publish -o DIR` and `dump DIR` check too.
pub fn not_an_event_file(path: &Path) -> Result<(), OutputError> {
    match event_file(path) {
        Some(what) => Err(OutputError::IsAnEventFile {
            path: path.display().to_string(),
            what,
        }),
        None => Ok(()),
    }
}

/// Refuses, before anything is read or written, a target a report is
/// never written to: an event folder's own file, a folder, a disk. (A file
/// this run reads is refused when the report is written: see
/// [`write_report`].)
pub fn check_target(path: &Path) -> Result<(), OutputError> {
    if is_stdout(path) {
        return Ok(());
    }
    not_an_event_file(path)?;
    let shown = path.display().to_string();
    // `adir/` names a folder, there or not
    let says_folder = path
        .as_os_str()
        .to_string_lossy()
        .ends_with(std::path::MAIN_SEPARATOR);
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(OutputError::IsAFolder { path: shown }),
        _ if says_folder => Err(OutputError::NamesAFolder { path: shown }),
        Ok(m) if is_block_device(&m) => Err(OutputError::IsADisk { path: shown }),
        Ok(_) => Ok(()),
        Err(_) => folder_is_there(path),
    }
}

/// Refuses a path whose folder is not there (`nodir/sub: no such folder
/// (to write out.xlsx in)`), or has a file where a folder goes: the
/// folder a report is written in, or a site folder is made in
/// (`publish -o DIR`), must be there; it is never made. Through a
/// symbolic link, the folder of the file it comes to.
pub fn folder_is_there(path: &Path) -> Result<(), OutputError> {
    let target = resolve(path);
    let folder = folder_of(&target);
    // (from the top: the first that is not a folder)
    let mut ancestors: Vec<&Path> = folder
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .collect();
    ancestors.reverse();
    for at in ancestors {
        match std::fs::metadata(at) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                let rest = target.strip_prefix(at).unwrap_or(&target);
                return Err(OutputError::FileNotFolder {
                    folder: at.display().to_string(),
                    name: rest.display().to_string(),
                });
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(OutputError::NoSuchFolder {
                    folder: folder.display().to_string(),
                    name: target.file_name().map_or_else(
                        || target.display().to_string(),
                        |n| n.to_string_lossy().into_owned(),
                    ),
                });
            }
            // (a folder that cannot be looked into: the write says why)
            Err(_) => return Ok(()),
        }
    }
    Ok(())
}

#[cfg(unix)]
fn is_block_device(m: &std::fs::Metadata) -> bool {
    std::os::unix::fs::FileTypeExt::is_block_device(&m.file_type())
}

#[cfg(not(unix))]
fn is_block_device(_: &std::fs::Metadata) -> bool {
    false
}

/// Writes a report to `path` (`-`: standard output), refusing a file that
/// this run has read and the targets of [`check_target`].
pub fn write_report(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    write_report_with(path, &mut |out| out.write_all(bytes))
}

/// As [`write_report`], the report written by `write` as it is made (a
/// long table is never held whole): to a regular file, whole or not at
/// all; into a named pipe or a device, as it is.
pub fn write_report_with(
    path: &Path,
    write: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), OutputError> {
    let shown = path.display().to_string();
    if is_stdout(path) {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        return write(&mut out)
            .and_then(|_| out.flush())
            .map_err(|source| OutputError::Io {
                path: "<stdout>".into(),
                source,
            });
    }
    if crate::ingest::was_read(path) {
        return Err(OutputError::IsAnInput { path: shown });
    }
    check_target(path)?;
    let written = match written_in_place(path) {
        Some(append) => write_in_place(path, append, write),
        None => write_atomically_with(path, write),
    };
    written.map_err(|source| OutputError::Io {
        path: shown,
        source,
    })
}

/// Whether `path` is written into as it is rather than replaced, and then
/// whether at its end: a target that is there and is not a regular file
/// (a named pipe, a character device), or one reached through a process's
/// file descriptors (`/dev/stdout`, `/dev/fd/3`, `/proc/self/fd/1`: what
/// the shell opened, a file redirected to with `>>` too, which is added
/// to).
fn written_in_place(path: &Path) -> Option<bool> {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => Some(false),
        Ok(_) if through_descriptor(path) => Some(true),
        _ => None,
    }
}

/// Whether `path`, or a symbolic link on the way from it, names a file
/// descriptor (`/dev/fd/N`, `/proc/.../fd/N`; `/dev/stdout` is a link to
/// `/proc/self/fd/1`).
fn through_descriptor(path: &Path) -> bool {
    links(path)
        .iter()
        .any(|p| p.starts_with("/dev/fd") || p.starts_with("/proc"))
}

/// Writes into the file `path` names as it is (no temporary, no rename):
/// a named pipe, a device; at its end when `append`. A write the device
/// refuses (`/dev/full`: no space left) is an error.
fn write_in_place(
    path: &Path,
    append: bool,
    write: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .append(append)
        .open(path)?;
    let mut out = std::io::BufWriter::new(file);
    write(&mut out)?;
    out.flush()
}

/// `path`, then each file the symbolic links from it name in turn: the
/// last is the file it comes to (also a link to a file not yet there).
fn links(path: &Path) -> Vec<PathBuf> {
    let mut steps = vec![path.to_path_buf()];
    for _ in 0..40 {
        let current = steps.last().expect("the path itself");
        let Ok(target) = std::fs::read_link(current) else {
            break;
        };
        let next = match current.parent() {
            Some(dir) if target.is_relative() => dir.join(target),
            _ => target,
        };
        steps.push(next);
    }
    steps
}

/// The file a path names, following symbolic links (also a link to a file
/// not yet there).
fn resolve(path: &Path) -> PathBuf {
    links(path).pop().expect("the path itself")
}

pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomically_with(path, &mut |out| out.write_all(bytes))
}

/// As [`write_atomically`], the bytes written by `write`.
pub fn write_atomically_with(
    path: &Path,
    write: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let path = resolve(path);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tilerank-{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        write(&mut f)?;
        let f = f.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        std::fs::rename(&tmp, &path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(what: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("tilerank-output-{what}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn writes_whole_files_and_leaves_no_temporary() {
        let dir = scratch("whole");
        let path = dir.join("out.csv");
        write_atomically(&path, b"a,b\n").unwrap();
        write_atomically(&path, b"c,d\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"c,d\n");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        assert!(write_atomically(&dir.join("missing/out.csv"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The folder a report goes in must be there: the one that is not is
    /// named, and so is a file where a folder goes; nothing is made.
    #[test]
    fn a_folder_that_is_not_there_is_named() {
        let dir = scratch("no-folder");
        let out = dir.join("nodir/sub/out.xlsx");
        let said = check_target(&out).unwrap_err().to_string();
        assert_eq!(
            said,
            format!(
                "{}: no such folder (to write out.xlsx in): check the path, or create the folder first",
                dir.join("nodir/sub").display()
            )
        );
        assert!(!dir.join("nodir").exists());
        let file = dir.join("roster.csv");
        std::fs::write(&file, b"id,name\n").unwrap();
        let said = check_target(&file.join("x/out.csv"))
            .unwrap_err()
            .to_string();
        assert_eq!(
            said,
            format!(
                "{}: is a file, not a folder (to write x/out.csv in): give a folder that is there",
                file.display()
            )
        );
        // a bare name, a file in a folder that is there
        assert!(check_target(Path::new("out.csv")).is_ok());
        assert!(check_target(&dir.join("out.csv")).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_written_through() {
        let dir = scratch("link");
        let target = dir.join("real.csv");
        std::fs::write(&target, b"old").unwrap();
        let link = dir.join("link.csv");
        std::os::unix::fs::symlink("real.csv", &link).unwrap();
        write_atomically(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        // a link to a file not there yet makes the file
        let dangling = dir.join("dangling.csv");
        std::os::unix::fs::symlink("later.csv", &dangling).unwrap();
        write_atomically(&dangling, b"made").unwrap();
        assert_eq!(std::fs::read(dir.join("later.csv")).unwrap(), b"made");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
