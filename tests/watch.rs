//! `check --watch` (issue 15): files written while it runs are checked
//! again, and only what changed is printed; a newly saved error within
//! 2 seconds; a half-written workbook is reported once; Ctrl-C stops it.

use crate::test::{fixtures, Scratch, Test};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// A running `tilerank check --watch`, its output read line by line;
/// killed when dropped, whatever happened.
struct Watching {
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Watching {
    fn start(dir: &Path, args: &[&str]) -> Watching {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("tilerank"))
            .current_dir(dir)
            .args(args)
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("tilerank starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Watching {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Waits for a line holding `text`, at most `limit`; the time it took.
    #[track_caller]
    fn expect(&mut self, text: &str, limit: Duration) -> Duration {
        // (each limit is what a quiet machine takes, and more; a test
        // machine under load, its cores shared with other tests, is given
        // five times as long: a test is not a timing)
        let limit = limit * 5;
        let start = Instant::now();
        loop {
            let left = limit.saturating_sub(start.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let found = line.contains(text);
                    self.seen.push(line);
                    if found {
                        return start.elapsed();
                    }
                }
                Err(_) => panic!(
                    "no line with {text:?} within {limit:?}; the output so far:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }

    /// Sends Ctrl-C (SIGINT) and waits, at most `limit`, for the exit status.
    fn interrupt(&mut self, limit: Duration) -> Option<i32> {
        let status = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Some(status) = self.child.try_wait().unwrap() {
                // the rest of the output
                while let Ok(line) = self.lines.recv_timeout(Duration::from_millis(500)) {
                    self.seen.push(line);
                }
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("still running {limit:?} after Ctrl-C");
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Writes a file whole, as a spreadsheet program saves: a temporary file
/// renamed over the old one.
fn save(path: &Path, bytes: &[u8]) {
    let tmp = path.with_file_name(".saving.tmp");
    std::fs::write(&tmp, bytes).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

/// `check --watch cards --roster roster.csv` in `dir`, started on one good
/// card (`cards/S01.csv`, whose bytes are given back) and the folder
/// `folder` made; returned once it watches.
fn watching_one_card(dir: &Path, folder: &str) -> (Watching, Vec<u8>) {
    std::fs::create_dir_all(dir.join(folder)).unwrap();
    std::fs::copy(fixtures().join("roster.csv"), dir.join("roster.csv")).unwrap();
    let good = std::fs::read(fixtures().join("good/hk-examples.csv")).unwrap();
    save(&dir.join("cards/S01.csv"), &good);
    let mut watch = Watching::start(
        dir,
        &["check", "--watch", "cards", "--roster", "roster.csv"],
    );
    watch.expect(
        "checked: 0 errors, 1 card accepted",
        Duration::from_secs(30),
    );
    watch.expect("watching cards", Duration::from_secs(5));
    (watch, good)
}

#[test]
fn a_saved_error_is_reported_and_only_what_changed_is_printed() {
    let scratch = Scratch::new("save");
    let dir = &scratch.0;
    let (mut watch, good) = watching_one_card(dir, "cards");

    // A volunteer saves a typing mistake.
    let bad = std::fs::read(fixtures().join("bad/check2-score-abc.csv")).unwrap();
    save(&dir.join("cards/S01.csv"), &bad);
    watch.expect(
        "  new:      cards/S01.csv:3:7: error: score is \"abc\"",
        Duration::from_secs(2),
    );
    watch.expect(
        "  no longer accepted: session S01 table 7 (cards/S01.csv:2)",
        Duration::from_secs(1),
    );
    watch.expect("  now: 1 error, 0 cards accepted", Duration::from_secs(1));

    // ... and corrects it.
    save(&dir.join("cards/S01.csv"), &good);
    watch.expect(
        "  fixed:    cards/S01.csv:3:7: error: score is \"abc\"",
        Duration::from_secs(2),
    );
    watch.expect(
        "  accepted: session S01 table 7 (cards/S01.csv:2)",
        Duration::from_secs(1),
    );

    // A workbook caught half-written: an error at the file, reported once,
    // its card taken when whole.
    let workbook = std::fs::read(fixtures().join("workbooks/card.xlsx")).unwrap();
    std::fs::write(dir.join("cards/T9.xlsx"), &workbook[..200]).unwrap();
    watch.expect(
        "  new:      cards/T9.xlsx: error: cannot be read",
        Duration::from_secs(3),
    );
    watch.expect("  now: 1 error, 1 card accepted", Duration::from_secs(1));
    std::fs::write(dir.join("cards/T9.xlsx"), &workbook).unwrap();
    watch.expect(
        "  accepted: session S01 table 9 (cards/T9.xlsx[Table 9])",
        Duration::from_secs(3),
    );
    watch.expect("  now: 0 errors, 2 cards accepted", Duration::from_secs(1));

    // Nothing was said twice, nothing unchanged was repeated.
    let unreadable = watch
        .seen
        .iter()
        .filter(|l| l.contains("new:") && l.contains("T9.xlsx: error: cannot be read"))
        .count();
    assert_eq!(unreadable, 1, "{}", watch.seen.join("\n"));
    assert!(
        !watch
            .seen
            .iter()
            .any(|l| l.contains("new:") && l.contains("Notes") && l.contains("error")),
        "{}",
        watch.seen.join("\n")
    );

    // A card deleted is said removed, not saved, and its card goes.
    std::fs::remove_file(dir.join("cards/T9.xlsx")).unwrap();
    watch.expect("cards/T9.xlsx removed:", Duration::from_secs(3));
    watch.expect(
        "  no longer accepted: session S01 table 9 (cards/T9.xlsx[Table 9])",
        Duration::from_secs(1),
    );

    // Ctrl-C stops it cleanly; no error is left, so exit status 0.
    let code = watch.interrupt(Duration::from_secs(5));
    assert_eq!(code, Some(0), "{}", watch.seen.join("\n"));
    assert!(
        watch
            .seen
            .iter()
            .any(|l| l == "stopped watching: 0 errors, 1 card accepted"),
        "{}",
        watch.seen.join("\n")
    );
}

#[test]
fn watching_needs_paths() {
    Test::new()
        .args(["check", "--watch"])
        .run()
        .failure(2)
        .stderr_has("--watch needs the files or folders to watch: tilerank check --watch PATH...");
    Test::new()
        .args(["check", "--watch", "-"])
        .run()
        .failure(2)
        .stderr_has("--watch cannot watch standard input (-): give files or folders");
    Test::new()
        .args(["check", "--watch", "no-such-folder"])
        .run()
        .failure(2)
        .stderr_has("no-such-folder: no such file or folder");
}

/// A card saved in a folder inside the folder watched (a session's own
/// folder) is checked as one saved beside the others.
#[test]
fn a_card_saved_in_a_folder_inside_is_checked() {
    let scratch = Scratch::new("inside");
    let dir = &scratch.0;
    let (mut watch, _) = watching_one_card(dir, "cards/S02");
    let bad = std::fs::read(fixtures().join("bad/check2-score-abc.csv")).unwrap();
    save(&dir.join("cards/S02/T7.csv"), &bad);
    watch.expect(
        "  new:      cards/S02/T7.csv:3:7: error: score is \"abc\"",
        Duration::from_secs(3),
    );
}

/// Each check of `--watch` says what a plain `check` says after its
/// problems: the sign hints (`hint: ...`) and, in an event folder, what the
/// event still lacks (the cards missing, the players still to play), as
/// they stand at that check.
#[test]
fn each_check_says_the_hints_and_what_the_event_lacks() {
    let scratch = Scratch::new("notes");
    let event = scratch.0.join("event");
    Test::new()
        .args(["init", "--name", "Watch Open"])
        .arg(&event)
        .run()
        .success();
    Test::new()
        .arg("roster")
        .arg(fixtures().join("roster.csv"))
        .arg("--event")
        .arg(&event)
        .run()
        .success();
    std::fs::create_dir_all(event.join("cards")).unwrap();
    let good = std::fs::read(fixtures().join("good/hk-examples.csv")).unwrap();
    save(&event.join("cards/S01.csv"), &good);
    let mut watch = Watching::start(&event, &["check", "--watch", "cards"]);
    watch.expect("299 cards missing:", Duration::from_secs(30));
    watch.expect("  session S01: tables 1-6, 8-25", Duration::from_secs(5));
    watch.expect(
        "8 players on the roster have not played yet",
        Duration::from_secs(5),
    );
    watch.expect("checked: 0 errors, 1 card accepted", Duration::from_secs(5));
    watch.expect("watching cards", Duration::from_secs(5));

    // A lost minus sign: the hint, and the card rejected, apart from
    // the tables no card was given for.
    let bad = std::fs::read(fixtures().join("bad/check3-lost-minus.csv")).unwrap();
    save(&event.join("cards/S01.csv"), &bad);
    watch.expect(
        "  hint: session S01 table 7 game 2: with seat C's score -12 instead of +12, the game adds up: did it lose its minus sign?",
        Duration::from_secs(3),
    );
    watch.expect("  299 cards missing:", Duration::from_secs(1));
    watch.expect("    session S01: tables 1-6, 8-25", Duration::from_secs(1));
    watch.expect(
        "  1 card rejected (its errors are above):",
        Duration::from_secs(1),
    );
    watch.expect("    session S01: table 7", Duration::from_secs(1));
    watch.expect(
        "  12 players on the roster have not played yet",
        Duration::from_secs(1),
    );
    watch.expect("  now: 2 errors, 0 cards accepted", Duration::from_secs(1));

    // Corrected: no hint any more, one card fewer missing.
    save(&event.join("cards/S01.csv"), &good);
    watch.expect("  299 cards missing:", Duration::from_secs(3));
    watch.expect("  now: 0 errors, 1 card accepted", Duration::from_secs(2));
    let hints = watch.seen.iter().filter(|l| l.contains("hint:")).count();
    assert_eq!(hints, 1, "{}", watch.seen.join("\n"));
}
