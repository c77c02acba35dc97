//! Where a report goes: a file written whole or not at all (into a
//! temporary file beside it, flushed to disk, then renamed into place; a
//! failure leaves no half file), or standard output for `-o -`.
//!
//! A symbolic link is written through: the file it points to gets the new
//! contents and the link stays. A report is never written over a file this
//! run has read (`score racks.csv -o racks.csv`): that is refused before
//! anything is written.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Why a report was not written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("{path}: is one of the inputs of this run; write the report to another file")]
    IsAnInput { path: String },
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

/// Writes a report to `path` (`-`: standard output), refusing a file that
/// this run has read.
pub fn write_report(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    write_report_with(path, &mut |out| out.write_all(bytes))
}

/// As [`write_report`], the report written by `write` as it is made (a
/// long table is never held whole): to a file, whole or not at all.
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
    write_atomically_with(path, write).map_err(|source| OutputError::Io {
        path: shown,
        source,
    })
}

/// The file a path names, following symbolic links (also a link to a file
/// not yet there).
fn resolve(path: &Path) -> PathBuf {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::read_link(&current) {
            Ok(target) => {
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                }
            }
            Err(_) => return current,
        }
    }
    current
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
