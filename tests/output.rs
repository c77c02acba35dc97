//! Where `-o` writes: never over the event's own files, into a named pipe
//! or a device as it is (the node stays), through a link to a regular file
//! (the link stays), and what it says when it cannot.

use crate::test::{fixtures, Scratch, Test};
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

/// A named pipe given to `-o` (or a link to one) gets the report, and
/// stays a pipe: it is written into, not replaced.
#[test]
fn a_named_pipe_is_written_into_and_stays_a_pipe() {
    use std::os::unix::fs::FileTypeExt;
    let s = Scratch::new("fifo");
    let fifo = s.path("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let link = s.path("pipe-link.csv");
    std::os::unix::fs::symlink("pipe", &link).unwrap();
    for target in [&fifo, &link] {
        // the reader, on a thread of its own; waited for with a timeout, so
        // that a pipe replaced by a file (its reader never answered) fails
        // the test instead of hanging it
        let (tx, rx) = std::sync::mpsc::channel();
        let reading = fifo.clone();
        std::thread::spawn(move || {
            let _ = tx.send(std::fs::read_to_string(&reading));
        });
        let out = Test::new()
            .args(["score", "racks/s01.csv", "--format", "csv", "-o"])
            .arg(target)
            .run();
        let read = rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("nothing came through the pipe; stderr: {}", out.stderr));
        out.success()
            .stderr_has(&format!("{} written:", target.display()));
        assert!(
            read.unwrap().starts_with("session,table,game,seat,player"),
            "the report came through"
        );
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
    }
    assert_eq!(names(&s.0), ["pipe", "pipe-link.csv"], "no temporary left");
}

/// `/dev/null` (and a link to it) is written into: the run succeeds and
/// `/dev/null` stays a character device.
#[test]
fn dev_null_is_written_into_and_stays_a_device() {
    use std::os::unix::fs::FileTypeExt;
    let s = Scratch::new("dev-null");
    let link = s.path("nowhere.csv");
    std::os::unix::fs::symlink("/dev/null", &link).unwrap();
    for target in [Path::new("/dev/null"), &link] {
        Test::new()
            .args(["score", "racks/s01.csv", "--format", "csv", "-o"])
            .arg(target)
            .run()
            .success()
            .stderr_has(&format!("{} written:", target.display()));
        let null = std::fs::metadata("/dev/null").unwrap();
        assert!(null.file_type().is_char_device(), "/dev/null is a device");
    }
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(names(&s.0), ["nowhere.csv"]);
}

/// `-o /dev/stdout` on a pipe is standard output.
#[test]
fn dev_stdout_is_standard_output() {
    Test::new()
        .args([
            "score",
            "racks/s01.csv",
            "--format",
            "csv",
            "-o",
            "/dev/stdout",
        ])
        .run()
        .success()
        .stdout_has("session,table,game,seat,player");
}

/// A link to a regular file is written through: the file it points to is
/// replaced whole and the link stays a link.
#[test]
fn a_link_to_a_file_stays_a_link() {
    let s = Scratch::new("link");
    let real = s.write("real.csv", "old\n");
    let link = s.path("link.csv");
    std::os::unix::fs::symlink("real.csv", &link).unwrap();
    Test::new()
        .args(["score", "racks/s01.csv", "--format", "csv", "-o"])
        .arg(&link)
        .run()
        .success();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&real)
        .unwrap()
        .starts_with("session,table"));
    assert_eq!(names(&s.0), ["link.csv", "real.csv"]);
}

/// A folder given to `-o` is said to be a folder, with or without a
/// format; a folder to write in that is not there is named; a system
/// error is said once; `dump FILE` says it wants a folder.
#[test]
fn what_cannot_be_written_is_said_plainly_and_once() {
    let s = Scratch::new("said");
    let folder = s.path("adir");
    std::fs::create_dir(&folder).unwrap();
    let shown = folder.display().to_string();
    for (target, format) in [
        (format!("{shown}/"), Some("csv")),
        (shown.clone(), Some("csv")),
        (shown.clone(), None),
    ] {
        let mut test = Test::new().args(["score", "racks/s01.csv", "-o", &target]);
        if let Some(f) = format {
            test = test.args(["--format", f]);
        }
        test.run()
            .failure(2)
            .stderr_has(&format!(
                "tilerank: {target}: is a folder, not a file: give a file name for the report"
            ))
            .stderr_lacks("os error")
            .stderr_lacks("cannot tell the format");
    }
    let new_folder = format!("{}/", s.path("new").display());
    Test::new()
        .args(["score", "racks/s01.csv", "--format", "csv", "-o", &new_folder])
        .run()
        .failure(2)
        .stderr_has(&format!(
            "tilerank: {new_folder}: names a folder (it ends in /), not a file: give a file name for the report"
        ));
    // a folder that is not there is named, not "No such file or
    // directory"; nor is it made
    let missing = s.path("nodir/sub");
    for name in ["out.xlsx", "out.csv"] {
        let target = missing.join(name).display().to_string();
        Test::new()
            .args(["score", "racks/s01.csv", "-o", &target])
            .run()
            .failure(2)
            .stderr_has(&format!(
                "tilerank: {}: no such folder (to write {name} in): check the path, or create the folder first",
                missing.display()
            ))
            .stderr_lacks("os error");
    }
    assert!(!s.path("nodir").exists());
    // a file where a folder goes is named
    let file = s.path("roster.csv");
    std::fs::write(&file, "id,name\n").unwrap();
    let target = file.join("out.csv").display().to_string();
    Test::new()
        .args(["score", "racks/s01.csv", "-o", &target])
        .run()
        .failure(2)
        .stderr_has(&format!(
            "tilerank: {}: is a file, not a folder (to write out.csv in): give a folder that is there",
            file.display()
        ))
        .stderr_lacks("os error");
    // a system error is said once
    if Path::new("/dev/full").exists() {
        let out = Test::new()
            .args([
                "score",
                "racks/s01.csv",
                "--format",
                "csv",
                "-o",
                "/dev/full",
            ])
            .run()
            .failure(2)
            .stderr_has("tilerank: /dev/full: cannot be written: ");
        assert_eq!(out.stderr.matches("os error").count(), 1, "{}", out.stderr);
    }
    // dump wants a folder
    let event = event(&s);
    let file = fixtures().join("roster.csv").display().to_string();
    Test::new()
        .args(["dump", &file, "--event"])
        .arg(&event)
        .run()
        .failure(2)
        .stderr_has(&format!(
            "tilerank: {file}: is a file, not a folder: dump writes the event into a folder"
        ))
        .stderr_lacks("Not a directory");
}
