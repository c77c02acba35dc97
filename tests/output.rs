//! Where `-o` writes: never over the event's own files.

use crate::test::{Scratch, Test};
use std::path::{Path, PathBuf};

/// An event folder `event` in `s`: the fixtures' roster and one card.
fn event(s: &Scratch) -> PathBuf {
    let dir = s.path("event");
    Test::new()
        .arg("init")
        .arg(&dir)
        .args(["--name", "Output Open", "--date", "2026-03-28"])
        .run()
        .success();
    Test::new()
        .arg("roster")
        .fixture("roster.csv")
        .arg("--event")
        .arg(&dir)
        .run()
        .success();
    Test::new()
        .arg("import")
        .fixture("scorecard/good.csv")
        .arg("--event")
        .arg(&dir)
        .run()
        .success();
    dir
}

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// `-o` naming the event's database, its settings or the database's
/// journal, log and index (there or not) is refused before anything is
/// written, by every command that writes, however the file is named; the
/// event still opens after.
#[test]
fn a_report_is_never_written_over_the_events_own_files() {
    let s = Scratch::new("event-files");
    let dir = event(&s);
    let db = std::fs::read(dir.join("tilerank.db")).unwrap();
    let toml = std::fs::read(dir.join("tilerank.toml")).unwrap();
    let before = names(&dir);
    let database = "is the event's database; a report is never written over the event's own files";
    // in the event folder
    for (args, target, what) in [
        (
            &["standings", "--format", "csv"][..],
            "tilerank.db",
            database,
        ),
        (&["standings", "--format", "csv"], "./tilerank.db", database),
        (&["standings", "--format", "csv"], "TILERANK.DB", database),
        (
            &["export", "--format", "csv", "--allow-incomplete"],
            "tilerank.db",
            database,
        ),
        (&["log", "--format", "csv"], "tilerank.db", database),
        (
            &["standings", "--format", "json"],
            "tilerank.toml",
            "is the event's settings",
        ),
        (
            &["qualifiers", "--format", "csv", "--allow-incomplete"],
            "tilerank.db-journal",
            "is the journal of the event's database",
        ),
        (
            &[
                "seating", "--from", "prelim", "--seed", "1", "--format", "xlsx",
            ],
            "tilerank.db",
            database,
        ),
        (
            &["publish"],
            "tilerank.db-wal",
            "is the log of the event's database",
        ),
        (&["publish"], "tilerank.db", database),
    ] {
        Test::new()
            .in_dir(&dir)
            .args(args)
            .args(["-o", target])
            .run()
            .failure(2)
            .stderr_has(&format!("tilerank: {target}: {what}"))
            .stderr_lacks(" written:");
    }
    Test::new()
        .in_dir(&dir)
        .args(["dump", "tilerank.db-shm"])
        .run()
        .failure(2)
        .stderr_has("tilerank: tilerank.db-shm: is the index of the event's database");
    // from elsewhere: the event by --event, the file by its whole path, a
    // link to it, the folder through a link; a command that does not read
    // the event
    let abs_db = dir.join("tilerank.db").display().to_string();
    let link = s.path("results.csv");
    std::os::unix::fs::symlink(dir.join("tilerank.db"), &link).unwrap();
    let linked_dir = s.path("event-link");
    std::os::unix::fs::symlink(&dir, &linked_dir).unwrap();
    let through_dir = linked_dir.join("tilerank.db").display().to_string();
    for (args, target) in [
        (
            vec![
                "standings",
                "--format",
                "csv",
                "--event",
                &dir.display().to_string(),
            ],
            abs_db.clone(),
        ),
        (
            vec![
                "standings",
                "--format",
                "csv",
                "--event",
                &dir.display().to_string(),
            ],
            link.display().to_string(),
        ),
        (
            vec![
                "log",
                "--format",
                "csv",
                "--event",
                &linked_dir.display().to_string(),
            ],
            abs_db.clone(),
        ),
        (
            vec![
                "standings",
                "--format",
                "csv",
                "--event",
                &dir.display().to_string(),
            ],
            through_dir.clone(),
        ),
        (
            vec!["score", "racks/s01.csv", "--format", "csv"],
            abs_db.clone(),
        ),
    ] {
        Test::new()
            .args(&args)
            .args(["-o", &target])
            .run()
            .failure(2)
            .stderr_has(&format!("tilerank: {target}: {database}"));
    }
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    // nothing written: the same files, the same bytes, and the event opens
    assert_eq!(names(&dir), before);
    assert_eq!(std::fs::read(dir.join("tilerank.db")).unwrap(), db);
    assert_eq!(std::fs::read(dir.join("tilerank.toml")).unwrap(), toml);
    Test::new()
        .in_dir(&dir)
        .arg("log")
        .run()
        .success()
        .stdout_has("scorecard/good.csv");
}

/// An event whose database is a link to a file elsewhere: that file is
/// the event's database by any name, for a run that opened the event.
#[test]
fn the_events_database_elsewhere_is_known_by_its_path() {
    let s = Scratch::new("event-db-elsewhere");
    let dir = event(&s);
    std::fs::create_dir(s.path("data")).unwrap();
    let kept = s.path("data/open.db");
    std::fs::rename(dir.join("tilerank.db"), &kept).unwrap();
    std::os::unix::fs::symlink(&kept, dir.join("tilerank.db")).unwrap();
    let db = std::fs::read(&kept).unwrap();
    Test::new()
        .args(["standings", "--format", "csv", "--event"])
        .arg(&dir)
        .arg("-o")
        .arg(&kept)
        .run()
        .failure(2)
        .stderr_has(&format!(
            "tilerank: {}: is the event's database",
            kept.display()
        ));
    assert_eq!(std::fs::read(&kept).unwrap(), db);
    Test::new()
        .arg("log")
        .arg("--event")
        .arg(&dir)
        .run()
        .success();
}
