//! Writing the site whole: every file goes into a temporary folder beside
//! the target, which is then renamed into place. A reader sees the old site
//! or the new one, never half of each; a failed run leaves the old site
//! as it was.
//!
//! A folder that is already there is replaced only when it is empty or is
//! a site tilerank wrote (its `index.html` says `generator tilerank`), so
//! that `-o` pointing at the wrong folder cannot delete anything else.

use super::Site;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum SiteWriteError {
    #[error("{}: is a file, not a folder: give a folder for the site", .0.display())]
    NotAFolder(PathBuf),
    #[error("{}: the folder has files and is not a site tilerank wrote (no index.html from tilerank): give a new or empty folder, or the folder of an earlier publish", .0.display())]
    NotASite(PathBuf),
    #[error("{}: cannot be written: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> SiteWriteError + '_ {
    move |source| SiteWriteError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The mark every page carries, by which an earlier site is known.
const GENERATOR: &str = "<meta name=\"generator\" content=\"tilerank\">";

/// May `dir` be replaced by a new site?
fn replaceable(dir: &Path) -> Result<bool, SiteWriteError> {
    if !dir.exists() {
        return Ok(false);
    }
    if !dir.is_dir() {
        return Err(SiteWriteError::NotAFolder(dir.to_path_buf()));
    }
    let empty = std::fs::read_dir(dir).map_err(io(dir))?.next().is_none();
    let ours = std::fs::read_to_string(dir.join("index.html"))
        .map(|t| t.contains(GENERATOR))
        .unwrap_or(false);
    if empty || ours {
        Ok(true)
    } else {
        Err(SiteWriteError::NotASite(dir.to_path_buf()))
    }
}

/// Is the process `pid` still running? Where the system cannot say (no
/// `/proc`), it is taken as gone.
fn running(pid: u32) -> bool {
    Path::new("/proc/self").exists() && Path::new("/proc").join(pid.to_string()).exists()
}

/// Removes the temporary and old folders of `name` that earlier runs,
/// killed before they could tidy up, left in `parent`
/// (`.NAME.tilerank-PID.tmp`, `.NAME.tilerank-PID.old`). A folder of a
/// run that is still going is left alone.
fn remove_leftovers(parent: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    let prefix = format!(".{name}.tilerank-");
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(rest) = file.to_str().and_then(|f| f.strip_prefix(&prefix)) else {
            continue;
        };
        let Some(pid) = rest
            .strip_suffix(".tmp")
            .or_else(|| rest.strip_suffix(".old"))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && running(pid) {
            continue;
        }
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Writes `site` as the folder `dir`, whole. What killed runs left beside
/// it is removed first.
pub fn write_site(dir: &Path, site: &Site) -> Result<(), SiteWriteError> {
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "site".to_string());
    let replace = replaceable(dir)?;
    remove_leftovers(&parent, &name);
    let tmp = parent.join(format!(".{name}.tilerank-{}.tmp", std::process::id()));
    let old = parent.join(format!(".{name}.tilerank-{}.old", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let filled = (|| {
        // A missing parent folder is the target's problem, not the temporary's.
        std::fs::create_dir(&tmp).map_err(io(dir))?;
        for (path, bytes) in &site.files {
            let file = tmp.join(path);
            if let Some(folder) = file.parent() {
                std::fs::create_dir_all(folder).map_err(io(folder))?;
            }
            std::fs::write(&file, bytes).map_err(io(&file))?;
        }
        Ok(())
    })();
    if let Err(e) = filled {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    if replace {
        let _ = std::fs::remove_dir_all(&old);
        if let Err(e) = std::fs::rename(dir, &old) {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(io(dir)(e));
        }
    }
    if let Err(e) = std::fs::rename(&tmp, dir) {
        if replace {
            let _ = std::fs::rename(&old, dir);
        }
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(io(dir)(e));
    }
    if replace {
        let _ = std::fs::remove_dir_all(&old);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn site(text: &str) -> Site {
        Site {
            files: BTreeMap::from([
                (
                    "index.html".to_string(),
                    format!("{GENERATOR}{text}").into_bytes(),
                ),
                ("p/a.html".to_string(), text.as_bytes().to_vec()),
            ]),
            decisions: Vec::new(),
            unsettled: false,
        }
    }

    #[test]
    fn a_site_replaces_an_earlier_one_whole_and_nothing_else() {
        let base = std::env::temp_dir().join(format!("tilerank-site-write-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        let dir = base.join("site");
        write_site(&dir, &site("one")).unwrap();
        std::fs::write(dir.join("stale.html"), "x").unwrap();
        write_site(&dir, &site("two")).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("p/a.html")).unwrap(),
            "two"
        );
        assert!(!dir.join("stale.html").exists());
        // Only the site is left: no temporary or old folder beside it.
        assert_eq!(std::fs::read_dir(&base).unwrap().count(), 1);

        let other = base.join("documents");
        std::fs::create_dir_all(&other).unwrap();
        std::fs::write(other.join("thesis.txt"), "keep me").unwrap();
        let err = write_site(&other, &site("three")).unwrap_err();
        assert!(matches!(err, SiteWriteError::NotASite(_)), "{err}");
        assert_eq!(
            std::fs::read_to_string(other.join("thesis.txt")).unwrap(),
            "keep me"
        );
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn what_killed_runs_left_beside_the_site_is_removed() {
        let base = std::env::temp_dir().join(format!("tilerank-site-left-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        let dir = base.join("site");
        write_site(&dir, &site("one")).unwrap();
        // As a run killed while writing, and one killed while swapping,
        // leave them (no process has a pid this large).
        for left in [".site.tilerank-4999999.tmp", ".site.tilerank-4999998.old"] {
            std::fs::create_dir_all(base.join(left).join("p")).unwrap();
            std::fs::write(base.join(left).join("p/a.html"), "old").unwrap();
        }
        // Not ours: another site's leftovers, and a file of that form.
        std::fs::create_dir_all(base.join(".other.tilerank-4999999.tmp")).unwrap();
        std::fs::write(base.join(".site.tilerank-4999997.tmp"), "a file").unwrap();
        // Of a run still going (process 1 always runs, where /proc says so).
        let live = Path::new("/proc/1").exists();
        std::fs::create_dir_all(base.join(".site.tilerank-1.tmp")).unwrap();
        write_site(&dir, &site("two")).unwrap();
        let mut left: Vec<String> = std::fs::read_dir(&base)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        let mut kept = vec![".other.tilerank-4999999.tmp"];
        if live {
            kept.push(".site.tilerank-1.tmp");
        }
        kept.extend([".site.tilerank-4999997.tmp", "site"]);
        assert_eq!(left, kept);
        std::fs::remove_dir_all(&base).unwrap();
    }
}
