//! Writing the site whole: every file goes into a temporary folder beside
//! the target, which is then renamed into place. A reader sees the old site
//! or the new one, never half of each; a failed run leaves the old site
//! as it was.
//!
//! A folder that is already there is replaced only when it is empty or is
//! a site tilerank wrote (its `index.html` says `generator tilerank`), so
//! that `-o` pointing at the wrong folder cannot delete anything else.
//! Even then only what tilerank wrote there goes (the files its
//! [`MANIFEST`] lists): a page or a logo the director put in the folder is
//! carried into the new one.

use super::Site;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum SiteWriteError {
    #[error("{}: is a file, not a folder: give a folder for the site", .0.display())]
    NotAFolder(PathBuf),
    #[error("{}: the folder has files and is not a site tilerank wrote (no index.html from tilerank): give a new or empty folder, or the folder of an earlier publish", .0.display())]
    NotASite(PathBuf),
    #[error("{}: is not a file tilerank wrote, and has the name of one it writes now (or is where one goes): move or rename it, then publish again", .0.display())]
    InTheWay(PathBuf),
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
    let ours = dir.join(MANIFEST).is_file()
        || std::fs::read_to_string(dir.join("index.html"))
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

/// The file in the site's folder that lists, one path a line, every file
/// tilerank wrote there: what the next publish may replace or remove.
/// Anything else in the folder (a page or a logo the director added) is
/// kept.
pub const MANIFEST: &str = ".tilerank-files";

/// The styles and scripts of a site written before it had a
/// [`MANIFEST`] (its pages carry [`GENERATOR`]).
const ASSETS: [&str; 3] = ["site.css", "site.js", "players.js"];

/// The files of the earlier site in `dir` that tilerank wrote: those its
/// manifest lists; for a site written before there was one, the pages
/// that carry the generator mark, and its styles and scripts.
fn written_before(dir: &Path) -> Option<BTreeSet<String>> {
    let text = std::fs::read_to_string(dir.join(MANIFEST)).ok()?;
    Some(
        text.lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect(),
    )
}

fn ours_without_manifest(dir: &Path, rel: &str) -> bool {
    if ASSETS.contains(&rel) {
        return true;
    }
    rel.ends_with(".html")
        && std::fs::read_to_string(dir.join(rel)).is_ok_and(|t| t.contains(GENERATOR))
}

/// What is in the folder `dir` that tilerank did not write, by path from
/// it (`/` between folders): files and links, and folders with nothing in
/// them. Folders are looked into, not followed when they are links.
fn not_ours(dir: &Path) -> Result<Vec<(String, bool)>, SiteWriteError> {
    let listed = written_before(dir);
    let mut out = Vec::new();
    let mut todo = vec![String::new()];
    while let Some(folder) = todo.pop() {
        let path = dir.join(&folder);
        let mut empty = true;
        for entry in std::fs::read_dir(&path).map_err(io(&path))? {
            empty = false;
            let entry = entry.map_err(io(&path))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let rel = if folder.is_empty() {
                name
            } else {
                format!("{folder}/{name}")
            };
            if entry.file_type().map_err(io(&entry.path()))?.is_dir() {
                todo.push(rel);
                continue;
            }
            let ours = rel == MANIFEST
                || match &listed {
                    Some(listed) => listed.contains(&rel),
                    None => ours_without_manifest(dir, &rel),
                };
            if !ours {
                out.push((rel, false));
            }
        }
        if empty && !folder.is_empty() {
            out.push((folder, true));
        }
    }
    out.sort();
    Ok(out)
}

/// `from` as `to`: a link to the same file where the system can (the
/// folders are side by side), else a copy; a symbolic link as itself.
fn carry(from: &Path, to: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    if std::fs::symlink_metadata(from)?.file_type().is_symlink() {
        return std::os::unix::fs::symlink(std::fs::read_link(from)?, to);
    }
    if std::fs::hard_link(from, to).is_ok() {
        return Ok(());
    }
    std::fs::copy(from, to).map(|_| ())
}

/// Writes `site` as the folder `dir`, whole, with the [`MANIFEST`] of
/// what it wrote. What killed runs left beside it is removed first. The
/// files of an earlier site that tilerank wrote and the new one does not
/// have are gone; whatever else is in the folder is kept, and returned
/// (paths from `dir`).
pub fn write_site(dir: &Path, site: &Site) -> Result<Vec<String>, SiteWriteError> {
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "site".to_string());
    let replace = replaceable(dir)?;
    let kept = if replace { not_ours(dir)? } else { Vec::new() };
    let in_the_way = |rel: &str| {
        let under = format!("{rel}/");
        site.files.contains_key(rel)
            || rel == MANIFEST
            || site
                .files
                .range(under.clone()..)
                .next()
                .is_some_and(|(p, _)| p.starts_with(&under))
    };
    if let Some((rel, _)) = kept.iter().find(|(rel, folder)| !folder && in_the_way(rel)) {
        return Err(SiteWriteError::InTheWay(dir.join(rel)));
    }
    remove_leftovers(&parent, &name);
    let tmp = parent.join(format!(".{name}.tilerank-{}.tmp", std::process::id()));
    let old = parent.join(format!(".{name}.tilerank-{}.old", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let filled = (|| {
        // A missing parent folder is the target's problem, not the temporary's.
        std::fs::create_dir(&tmp).map_err(io(dir))?;
        let mut manifest = String::from(
            "# The files tilerank wrote in this folder: the next publish replaces or removes them, and keeps every other file.\n",
        );
        for (path, bytes) in &site.files {
            let file = tmp.join(path);
            if let Some(folder) = file.parent() {
                std::fs::create_dir_all(folder).map_err(io(folder))?;
            }
            std::fs::write(&file, bytes).map_err(io(&file))?;
            manifest.push_str(path);
            manifest.push('\n');
        }
        let file = tmp.join(MANIFEST);
        std::fs::write(&file, manifest).map_err(io(&file))?;
        // The director's own files, carried into the new folder.
        for (rel, folder) in &kept {
            let to = tmp.join(rel);
            if *folder {
                std::fs::create_dir_all(&to).map_err(io(&to))?;
                continue;
            }
            if let Some(up) = to.parent() {
                std::fs::create_dir_all(up).map_err(|_| SiteWriteError::InTheWay(dir.join(rel)))?;
            }
            carry(&dir.join(rel), &to).map_err(io(&dir.join(rel)))?;
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
    Ok(kept
        .into_iter()
        .filter(|(_, folder)| !folder)
        .map(|(rel, _)| rel)
        .collect())
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
            completeness: Default::default(),
        }
    }

    #[test]
    fn a_site_replaces_an_earlier_one_whole_and_nothing_else() {
        let base = std::env::temp_dir().join(format!("tilerank-site-write-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        let dir = base.join("site");
        let mut first = site("one");
        first.files.insert("p/gone.html".into(), b"old".to_vec());
        write_site(&dir, &first).unwrap();
        write_site(&dir, &site("two")).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("p/a.html")).unwrap(),
            "two"
        );
        // A page the new site does not have is gone.
        assert!(!dir.join("p/gone.html").exists());
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
    fn the_files_the_director_added_are_kept() {
        let base = std::env::temp_dir().join(format!("tilerank-site-keep-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        let dir = base.join("site");
        write_site(&dir, &site("one")).unwrap();
        std::fs::write(dir.join("extra.html"), "mine").unwrap();
        std::fs::create_dir_all(dir.join("img/empty")).unwrap();
        std::fs::write(dir.join("img/logo.png"), [0x89, b'P']).unwrap();
        std::fs::write(dir.join("p/note.txt"), "mine too").unwrap();
        let kept = write_site(&dir, &site("two")).unwrap();
        assert_eq!(kept, ["extra.html", "img/logo.png", "p/note.txt"]);
        assert_eq!(
            std::fs::read_to_string(dir.join("extra.html")).unwrap(),
            "mine"
        );
        assert_eq!(
            std::fs::read(dir.join("img/logo.png")).unwrap(),
            [0x89, b'P']
        );
        assert!(dir.join("img/empty").is_dir());
        assert_eq!(
            std::fs::read_to_string(dir.join("p/a.html")).unwrap(),
            "two"
        );
        let listed = std::fs::read_to_string(dir.join(MANIFEST)).unwrap();
        assert!(listed.lines().any(|l| l == "p/a.html"), "{listed}");
        assert!(!listed.contains("extra.html"), "{listed}");

        // A file of the director's where the new site puts a page stops
        // the publish, and the old site stays as it was.
        std::fs::write(dir.join("p/b.html"), "mine").unwrap();
        let mut more = site("three");
        more.files.insert("p/b.html".into(), b"ours".to_vec());
        let err = write_site(&dir, &more).unwrap_err();
        assert!(matches!(err, SiteWriteError::InTheWay(_)), "{err}");
        assert_eq!(
            std::fs::read_to_string(dir.join("p/a.html")).unwrap(),
            "two"
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("p/b.html")).unwrap(),
            "mine"
        );
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_site_without_a_manifest_is_known_by_its_pages() {
        let base = std::env::temp_dir().join(format!("tilerank-site-old-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(base.join("site/p")).unwrap();
        let dir = base.join("site");
        // As an earlier tilerank wrote it: pages with the mark, the styles.
        std::fs::write(dir.join("index.html"), GENERATOR).unwrap();
        std::fs::write(dir.join("p/old.html"), format!("{GENERATOR}old")).unwrap();
        std::fs::write(dir.join("site.css"), "old").unwrap();
        std::fs::write(dir.join("extra.html"), "<p>the director's</p>").unwrap();
        let kept = write_site(&dir, &site("new")).unwrap();
        assert_eq!(kept, ["extra.html"]);
        assert!(!dir.join("p/old.html").exists());
        assert!(!dir.join("site.css").exists());
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
