//! Writing a file whole or not at all: into a temporary file beside it,
//! flushed to disk, then renamed into place. A failure leaves no half file.

use std::io::Write;
use std::path::Path;

pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
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
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_whole_files_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("tilerank-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.csv");
        write_atomically(&path, b"a,b\n").unwrap();
        write_atomically(&path, b"c,d\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"c,d\n");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        assert!(write_atomically(&dir.join("missing/out.csv"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
