//! The SHA-256 a log keeps of a file is that of the bytes read, hashed as
//! they were read: no file is opened again to be hashed. A named pipe
//! (which gives its bytes once: opened again, it waits for a writer that
//! is gone) is logged as a regular file of the same bytes is, by every
//! command that logs what it read: `export` (its log), `roster`,
//! `import`, `import --second-entry`. Each run fails the test after a
//! minute rather than wait for ever.

#[cfg(unix)]
use crate::test::pipe;
use crate::test::{fixtures, Scratch, Test};
use std::path::Path;
use tilerank::event_folder::sha256_hex;

/// Seconds a command is given before it fails the test (it waits on a
/// pipe no one will write to again).
const IN_TIME: u64 = 60;

fn fixture(name: &str) -> String {
    std::fs::read_to_string(fixtures().join(name)).unwrap()
}

/// The SHA-256 column of the CSV log rows of `action`, in order (the log
/// of `tilerank log --format csv`, or the export's: time, action, file,
/// sha256, ...).
fn hashes(log: &str, action: &str) -> Vec<String> {
    log.lines()
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f.len() > 3 && f[1] == action)
        .map(|f| f[3].to_string())
        .collect()
}

/// An event folder `name` in `s`, made by `tilerank init`.
fn event(s: &Scratch, name: &str) -> String {
    let d = s.path(name).display().to_string();
    Test::new()
        .args(["init", &d, "--name", "Piped Open", "--date", "2026-03-28"])
        .run()
        .success();
    d
}

fn log(event: &str) -> String {
    Test::new()
        .args(["log", "--format", "csv", "--event", event])
        .run()
        .success()
        .stdout
}

/// The export's log lists the roster and each input with the hash of
/// the bytes read: a piped roster and input as the same bytes in files.
#[cfg(unix)]
#[test]
fn export_logs_a_piped_input_and_roster_as_the_same_bytes_in_files() {
    let s = Scratch::new("export");
    let (cards, roster) = (fixture("good/hk-examples.csv"), fixture("roster.csv"));
    let export = |cards: &Path, roster: &Path| {
        Test::new()
            .args(["export", "--format", "csv", "--name", "Piped Open"])
            .arg(cards)
            .arg("--roster")
            .arg(roster)
            .timeout(IN_TIME)
            .run()
            .success()
            .stdout
    };
    let in_files = export(
        &s.write("cards.csv", &cards),
        &s.write("roster.csv", &roster),
    );
    let piped = export(
        &pipe(&s, "cards-pipe.csv", &cards),
        &pipe(&s, "roster-pipe.csv", &roster),
    );
    for log in [&in_files, &piped] {
        assert_eq!(hashes(log, "read roster"), [sha256_hex(roster.as_bytes())]);
        assert_eq!(hashes(log, "read"), [sha256_hex(cards.as_bytes())]);
    }
}

/// `roster` and `import` log a piped roster and card file as they log the
/// same bytes in files.
#[cfg(unix)]
#[test]
fn roster_and_import_log_piped_files_as_the_same_bytes_in_files() {
    let s = Scratch::new("import");
    let (cards, roster) = (fixture("good/hk-examples.csv"), fixture("roster.csv"));
    let logged = |event: &str, roster: &Path, cards: &Path| {
        for (command, file) in [("roster", roster), ("import", cards)] {
            Test::new()
                .arg(command)
                .arg(file)
                .args(["--event", event])
                .timeout(IN_TIME)
                .run()
                .success();
        }
        log(event)
    };
    let in_files = logged(
        &event(&s, "files"),
        &s.write("roster.csv", &roster),
        &s.write("cards.csv", &cards),
    );
    let piped = logged(
        &event(&s, "piped"),
        &pipe(&s, "roster-pipe.csv", &roster),
        &pipe(&s, "cards-pipe.csv", &cards),
    );
    for log in [&in_files, &piped] {
        assert_eq!(hashes(log, "roster"), [sha256_hex(roster.as_bytes())]);
        assert_eq!(hashes(log, "import"), [sha256_hex(cards.as_bytes())]);
    }
}

/// A double entry logs the first typing's file with the hash of the bytes
/// its cards were read from: piped, from a file, or from standard input
/// (named `<stdin>`, no file of that name).
#[cfg(unix)]
#[test]
fn a_double_entry_logs_its_first_typing_as_read_piped_or_not() {
    let s = Scratch::new("second-entry");
    let (cards, roster) = (fixture("good/hk-examples.csv"), fixture("roster.csv"));
    let roster = s.write("roster.csv", &roster);
    let double = |name: &str, first: &str, second: &Path, stdin: Option<&str>| {
        let event = event(&s, name);
        Test::new()
            .arg("roster")
            .arg(&roster)
            .args(["--event", &event])
            .run()
            .success();
        let mut import = Test::new()
            .args(["import", first, "--second-entry"])
            .arg(second)
            .args(["--event", &event])
            .timeout(IN_TIME);
        if let Some(text) = stdin {
            import = import.stdin(text);
        }
        import
            .run()
            .success()
            .stderr_has("1 card agrees with the second typing");
        log(&event)
    };
    let first = s.write("first.csv", &cards);
    let in_files = double(
        "files",
        &first.display().to_string(),
        &s.write("second.csv", &cards),
        None,
    );
    let piped = double(
        "piped",
        &pipe(&s, "first-pipe.csv", &cards).display().to_string(),
        &pipe(&s, "second-pipe.csv", &cards),
        None,
    );
    let from_stdin = double("stdin", "-", &s.path("second.csv"), Some(&cards));
    for log in [&in_files, &piped, &from_stdin] {
        assert_eq!(
            hashes(log, "import"),
            [sha256_hex(cards.as_bytes())],
            "{log}"
        );
    }
}
