//! The event store under real processes: `import` killed at random moments,
//! two imports at once, a full disk, a read-only folder. After each, the
//! event must be the one before the command or the one after it, never
//! between, and the reading commands must report it.
//!
//! The event is the HK demo's (1,200 players); session S01 is stored first.
//! Each test runs the `tilerank` binary and takes a few seconds.

use crate::test::Scratch;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn demo(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/hk-2026")
        .join(file)
}

fn tilerank(args: &[&std::ffi::OsStr]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tilerank"));
    cmd.args(args).env("NO_COLOR", "1");
    cmd
}

/// Runs `tilerank ARGS --event DIR`.
fn run(dir: &Path, args: &[&str]) -> Output {
    let mut all: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    all.extend([std::ffi::OsStr::new("--event"), dir.as_os_str()]);
    tilerank(&all).output().expect("tilerank runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A new event with the demo's roster and session S01.
fn base_event(dir: &Path) {
    new_event(dir);
    let s01 = demo("cards/S01.xlsx");
    let out = run(dir, &["import", s01.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// A new event with the demo's roster.
fn new_event(dir: &Path) {
    let init = tilerank(&[
        "init".as_ref(),
        dir.as_os_str(),
        "--name".as_ref(),
        "HK 2026".as_ref(),
        "--date".as_ref(),
        "2026-03-28".as_ref(),
    ])
    .output()
    .unwrap();
    assert!(init.status.success(), "{}", stderr(&init));
    let roster = demo("roster.csv");
    let out = run(dir, &["roster", roster.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// A copy of an event folder (no process uses it).
fn copy_event(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).unwrap();
    for f in ["tilerank.toml", "tilerank.db"] {
        std::fs::copy(from.join(f), to.join(f)).unwrap();
    }
}

/// Everything the event holds but the times of the log: the event's cards
/// line by line, the replaced cards, the rosters and the log.
fn state(dir: &Path) -> String {
    // Opened to write, as every command opens it: a journal left by a killed
    // process is rolled back first.
    let db = rusqlite::Connection::open(dir.join("tilerank.db")).unwrap();
    db.busy_timeout(Duration::from_secs(10)).unwrap();
    let mut out = String::new();
    for sql in [
        "SELECT c.stage, c.session, c.tbl, c.source, l.line, l.game, l.seat, l.player, l.won, l.score, l.tiles
         FROM cards c JOIN lines l ON l.card = c.id WHERE c.replaced_by IS NULL
         ORDER BY c.stage, c.session, c.tbl, l.line",
        "SELECT c.stage, c.session, c.tbl, c.replaced_by FROM cards c
         WHERE c.replaced_by IS NOT NULL ORDER BY 1, 2, 3, 4",
        "SELECT log, position, id, name FROM players ORDER BY log, position",
        "SELECT log, part, players, body FROM roster_parts ORDER BY log, part",
        "SELECT id, action, file, sha256, stage, cards, games, reason FROM log ORDER BY id",
    ] {
        let mut stmt = db.prepare(sql).unwrap();
        let n = stmt.column_count();
        let mut rows = stmt.query([]).unwrap();
        while let Some(r) = rows.next().unwrap() {
            for i in 0..n {
                let v: rusqlite::types::Value = r.get(i).unwrap();
                out.push_str(&format!("{v:?}|"));
            }
            out.push('\n');
        }
        out.push_str("--\n");
    }
    out
}

/// The number of cards `check` reads from the event.
fn cards_read(dir: &Path) -> String {
    let out = run(dir, &["check"]);
    let text = stderr(&out);
    assert!(
        !text.contains("panicked") && out.status.code() == Some(0),
        "check after a kill: {text}"
    );
    text.lines()
        .find(|l| l.contains("accepted"))
        .unwrap_or("")
        .to_string()
}

/// S01 as a CSV file in which every card differs from the stored one: in
/// game 1, seats A and B swap their results (still a valid game).
fn corrected_s01(s: &Scratch, event: &Path) -> PathBuf {
    let dump = s.0.join("dump-s01");
    let out = run(event, &["dump", dump.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut text = String::from("stage,session,table,game,seat,player,won,score,tiles\n");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dump.join("cards"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 25);
    for f in files {
        let card = std::fs::read_to_string(f).unwrap();
        let mut lines: Vec<Vec<String>> = card
            .lines()
            .skip(1)
            .map(|l| l.split(',').map(str::to_string).collect())
            .collect();
        // lines 0 and 1: game 1, seats A and B; columns 6.. are won, score, tiles
        let (a, b) = lines.split_at_mut(1);
        for col in 6..9 {
            std::mem::swap(&mut a[0][col], &mut b[0][col]);
        }
        for l in lines {
            text.push_str(&l.join(","));
            text.push('\n');
        }
    }
    s.write("S01-corrected.csv", &text)
}

/// Kills `tilerank ARGS --event` at random moments, `trials` times, each
/// time on a fresh copy of `base`: half at a random moment of the run, half
/// at a random moment after its transaction began writing.
fn kill_at_random(s: &Scratch, base: &Path, args: &[&str], trials: usize, seed: u64) {
    let old = state(base);
    let old_read = cards_read(base);
    // The event after the command ran to its end.
    let done = s.0.join("done");
    copy_event(base, &done);
    let start = Instant::now();
    let out = run(&done, args);
    let took = start.elapsed();
    assert!(out.status.success(), "{}", stderr(&out));
    let new = state(&done);
    let new_read = cards_read(&done);
    assert_ne!(old, new, "the command changes the event");

    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let trial = s.0.join("trial");
    let journal = trial.join("tilerank.db-journal");
    let (mut as_before, mut as_after, mut while_writing) = (0, 0, 0);
    for i in 0..trials {
        copy_event(base, &trial);
        let mut all: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
        all.extend([std::ffi::OsStr::new("--event"), trial.as_os_str()]);
        let mut child = tilerank(&all)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let began = Instant::now();
        if i % 2 == 0 {
            // up to a little after the uninterrupted run ended
            let at = rng.random_range(0..took.as_micros().max(1) as u64 * 6 / 5);
            std::thread::sleep(Duration::from_micros(at));
        } else {
            // until the transaction writes (its journal appears), then a little
            while !journal.exists()
                && child.try_wait().unwrap().is_none()
                && began.elapsed() < took * 4
            {
                std::thread::sleep(Duration::from_micros(100));
            }
            std::thread::sleep(Duration::from_micros(rng.random_range(0..30_000)));
        }
        if journal.exists() && child.try_wait().unwrap().is_none() {
            while_writing += 1;
        }
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let now = state(&trial);
        let read = cards_read(&trial);
        if now == old {
            as_before += 1;
            assert_eq!(read, old_read, "trial {i}: check reads the event as it was");
        } else if now == new {
            as_after += 1;
            assert_eq!(
                read, new_read,
                "trial {i}: check reads the completed import"
            );
        } else {
            panic!(
                "trial {i} (seed {seed}): killed `tilerank {}`, the event is neither as before nor as after:\n{now}",
                args.join(" ")
            );
        }
    }
    eprintln!(
        "tilerank {}: {trials} kills (run {:?}), {while_writing} of them while its transaction wrote: {as_before} left the event as before, {as_after} as after",
        args.join(" "),
        took
    );
}

#[test]
fn a_killed_import_leaves_the_event_as_before_or_as_after() {
    let s = Scratch::new("kill-import");
    let base = s.0.join("base");
    base_event(&base);
    let s02 = demo("cards/S02.xlsx");
    let s03 = demo("cards/S03.xlsx");
    kill_at_random(
        &s,
        &base,
        &["import", s02.to_str().unwrap(), s03.to_str().unwrap()],
        16,
        10,
    );
}

#[test]
fn a_killed_replace_leaves_the_event_as_before_or_as_after() {
    let s = Scratch::new("kill-replace");
    let base = s.0.join("base");
    base_event(&base);
    let corrected = corrected_s01(&s, &base);
    kill_at_random(
        &s,
        &base,
        &[
            "import",
            corrected.to_str().unwrap(),
            "--replace",
            "--reason",
            "game 1 seats A and B swapped",
        ],
        16,
        11,
    );
}

/// Waits for a line on a child's standard error that holds `text`.
fn wait_for_line(child: &mut std::process::Child, text: &str) -> bool {
    let err = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let want = text.to_string();
    std::thread::spawn(move || {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            if line.contains(&want) {
                let _ = tx.send(());
            }
        }
    });
    rx.recv_timeout(Duration::from_secs(20)).is_ok()
}

/// The README's promise: a second import waits for the first, says so, and
/// then checks against the first one's cards.
#[test]
fn a_second_import_waits_for_the_first_and_then_sees_its_cards() {
    let s = Scratch::new("wait");
    let base = s.0.join("base");
    base_event(&base);
    let corrected = corrected_s01(&s, &base);
    // The event without S01, and S01 stored in `base`.
    let event = s.0.join("event");
    new_event(&event);

    // The first writer: this test, which holds the write lock and stores
    // S01's cards (as the `import` of base did) while the second waits.
    let db = rusqlite::Connection::open(event.join("tilerank.db")).unwrap();
    db.execute(
        "ATTACH ?1 AS done",
        [base.join("tilerank.db").to_str().unwrap()],
    )
    .unwrap();
    db.execute_batch("BEGIN IMMEDIATE").unwrap();
    let mut second = tilerank(&[
        "import".as_ref(),
        corrected.as_os_str(),
        "--event".as_ref(),
        event.as_os_str(),
    ])
    .stderr(Stdio::piped())
    .stdout(Stdio::null())
    .spawn()
    .unwrap();
    assert!(
        wait_for_line(&mut second, "waiting for another import of this event..."),
        "the second import says it waits"
    );
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        second.try_wait().unwrap().is_none(),
        "the second import waits, it is not refused"
    );
    db.execute_batch(
        "INSERT INTO log SELECT * FROM done.log WHERE id > (SELECT max(id) FROM main.log);
         INSERT INTO cards SELECT * FROM done.cards;
         INSERT INTO lines SELECT * FROM done.lines;
         COMMIT;",
    )
    .unwrap();
    let status = second.wait().unwrap();
    assert_eq!(
        status.code(),
        Some(1),
        "the second import saw the first one's cards and refused its different S01"
    );
    assert_eq!(
        state(&event),
        state(&base),
        "nothing of the second is stored"
    );
}

/// Two imports started together, `rounds` times: of the same file (one
/// stores it, the other finds it identical), and of two versions of S01
/// (one is stored, the other refused: never a mix).
#[test]
fn two_imports_at_once_never_mix() {
    let s = Scratch::new("together");
    let base = s.0.join("base");
    base_event(&base);
    let corrected = corrected_s01(&s, &base);
    let original = demo("cards/S01.xlsx");
    // The event before S01, and after each version alone.
    let empty = s.0.join("empty");
    new_event(&empty);
    let alone = |file: &Path, name: &str| {
        let dir = s.0.join(name);
        copy_event(&empty, &dir);
        let out = run(&dir, &["import", file.to_str().unwrap()]);
        assert!(out.status.success(), "{}", stderr(&out));
        state(&dir)
    };
    let (only_original, only_corrected) = (
        alone(&original, "only-original"),
        alone(&corrected, "only-corrected"),
    );
    let event = s.0.join("event");
    for round in 0..4 {
        for (a, b) in [(&original, &original), (&original, &corrected)] {
            copy_event(&empty, &event);
            let spawn = |file: &Path| {
                tilerank(&[
                    "import".as_ref(),
                    file.as_os_str(),
                    "--event".as_ref(),
                    event.as_os_str(),
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
            };
            let (first, second) = (spawn(a), spawn(b));
            let (first, second) = (
                first.wait_with_output().unwrap(),
                second.wait_with_output().unwrap(),
            );
            let codes = [first.status.code(), second.status.code()];
            let now = state(&event);
            if a == b {
                assert_eq!(codes, [Some(0), Some(0)], "round {round}");
                let said = format!("{}{}", stderr(&first), stderr(&second));
                assert!(
                    said.contains("25 cards imported")
                        && said.contains("already imported, identical"),
                    "round {round}: one stores, the other finds the same cards: {said}"
                );
                assert_eq!(
                    now.matches("Text(\"import\")").count(),
                    1,
                    "round {round}: one log line"
                );
            } else {
                let mut sorted = codes;
                sorted.sort();
                assert_eq!(sorted, [Some(0), Some(1)], "round {round}: one refused");
                let said = format!("{}{}", stderr(&first), stderr(&second));
                assert!(said.contains("was imported before and differs"), "{said}");
            }
            // Compare without the card sources' log ids: the cards and lines.
            let cards = |st: &str| st.split("--\n").next().unwrap_or("").to_string();
            assert!(
                cards(&now) == cards(&only_original) || cards(&now) == cards(&only_corrected),
                "round {round}: the event holds exactly one version of S01"
            );
        }
    }
}

/// A full disk in the middle of an import: nothing of it is stored. First
/// with the database capped (`PRAGMA max_page_count`), then, where the test
/// may mount one, on a small file system of its own.
#[test]
fn a_full_disk_stores_nothing_of_the_import() {
    use tilerank::event_folder::EventFolder;
    let s = Scratch::new("full");
    let base = s.0.join("base");
    base_event(&base);
    let before = state(&base);
    let folder = EventFolder::open(&base).unwrap();
    let store = folder.store().unwrap();
    let pages: u32 = rusqlite::Connection::open(base.join("tilerank.db"))
        .unwrap()
        .query_row("PRAGMA page_count", [], |r| r.get(0))
        .unwrap();
    store.limit_pages(pages + 4).unwrap();
    let files: Vec<PathBuf> = ["S02", "S03", "S04"]
        .iter()
        .map(|n| demo(&format!("cards/{n}.xlsx")))
        .collect();
    let err = folder
        .import_into(&store, &files, None, false, None, &mut || {})
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("the disk is full: nothing of this command was stored"),
        "{err}"
    );
    drop(store);
    assert_eq!(state(&base), before, "the event is as it was");
    cards_read(&base);

    // A real full disk: a file system with room for the event and 64 KiB.
    let small = s.0.join("small");
    std::fs::create_dir_all(&small).unwrap();
    let room = std::fs::metadata(base.join("tilerank.db")).unwrap().len() / 1024 + 64;
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", &format!("size={room}k"), "tmpfs"])
        .arg(&small)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!(
            "no small file system could be mounted here: the capped database above stands for it"
        );
        return;
    }
    let event = small.join("event");
    copy_event(&base, &event);
    let before = state(&event);
    let all: Vec<String> = (2..=12)
        .map(|n| demo(&format!("cards/S{n:02}.xlsx")).display().to_string())
        .collect();
    let mut args = vec!["import"];
    args.extend(all.iter().map(String::as_str));
    let out = run(&event, &args);
    let said = stderr(&out);
    let after = state(&event);
    let read = cards_read(&event);
    let _ = Command::new("umount").arg(&small).status();
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("nothing of this command was stored"),
        "{said}"
    );
    assert_eq!(after, before, "the event is as it was");
    assert!(read.contains("25 cards accepted"), "{read}");
}

/// A read-only folder: the import fails with a message and stores nothing;
/// reading commands still work.
#[test]
fn a_read_only_folder_refuses_the_import_and_still_reads() {
    let s = Scratch::new("read-only");
    let base = s.0.join("base");
    base_event(&base);
    let ro = s.0.join("ro");
    std::fs::create_dir_all(&ro).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=4m", "tmpfs"])
        .arg(&ro)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let event = ro.join("event");
    copy_event(&base, &event);
    let before = state(&event);
    let made_read_only = if mounted {
        Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(&ro)
            .status()
            .is_ok_and(|s| s.success())
    } else {
        use std::os::unix::fs::PermissionsExt;
        for p in [event.join("tilerank.db"), event.clone()] {
            let mode = if p.is_dir() { 0o555 } else { 0o444 };
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        // the owner of every file (root) writes anyway
        std::fs::write(event.join("probe"), "x").is_err()
    };
    if !made_read_only {
        eprintln!("no read-only folder could be made here");
        return;
    }
    let s02 = demo("cards/S02.xlsx");
    let out = run(&event, &["import", s02.to_str().unwrap()]);
    let read = cards_read(&event);
    let after = state(&event);
    if mounted {
        let _ = Command::new("umount").arg(&ro).status();
    } else {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&event, std::fs::Permissions::from_mode(0o755));
    }
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("read-only") && said.contains("nothing of this command was stored"),
        "{said}"
    );
    assert!(read.contains("25 cards accepted"), "{read}");
    assert_eq!(after, before);
}

/// A writer that holds the event longer than the second one waits: the
/// second gives up with a message and stores nothing.
#[test]
fn an_import_that_waits_too_long_gives_up_and_stores_nothing() {
    use tilerank::event_folder::EventFolder;
    let s = Scratch::new("give-up");
    let base = s.0.join("base");
    base_event(&base);
    let before = state(&base);
    let holder = rusqlite::Connection::open(base.join("tilerank.db")).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let folder = EventFolder::open(&base).unwrap();
    let mut store = folder.store().unwrap();
    store.wait_for_writers(Duration::from_millis(200));
    let mut waited = 0;
    let err = folder
        .import_into(
            &store,
            &[demo("cards/S02.xlsx")],
            None,
            false,
            None,
            &mut || waited += 1,
        )
        .unwrap_err()
        .to_string();
    assert_eq!(waited, 1, "told once that it waits");
    assert!(
        err.contains("another tilerank kept this event busy longer than this one waits")
            && err.contains("nothing of this command was stored; try again"),
        "{err}"
    );
    holder.execute_batch("ROLLBACK").unwrap();
    drop(store);
    assert_eq!(state(&base), before);
}

/// `import -` reads standard input whole before it takes the event, and
/// so does an import of a named pipe (a shell's `<(...)`): while whatever
/// feeds it takes its time, a second import goes in; then the first
/// stores its card as well.
#[test]
fn an_import_from_standard_input_holds_nothing_while_it_waits_for_it() {
    holds_nothing_while_it_waits(false);
}

#[cfg(unix)]
#[test]
fn an_import_from_a_named_pipe_holds_nothing_while_it_waits_for_it() {
    holds_nothing_while_it_waits(true);
}

/// An import whose card comes through standard input or (`named`) a named
/// pipe, half of it, then the rest once a second import is in.
fn holds_nothing_while_it_waits(named: bool) {
    use std::io::Write;
    let s = Scratch::new(if named { "pipe-wait" } else { "stdin-wait" });
    let event = s.0.join("event");
    base_event(&event);
    let fifo = s.path("S03-piped");
    if named {
        let made = Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    }
    let input = if named {
        fifo.as_os_str()
    } else {
        "-".as_ref()
    };
    let mut first = tilerank(&[
        "import".as_ref(),
        input,
        "--event".as_ref(),
        event.as_os_str(),
    ])
    .stdin(if named { Stdio::null() } else { Stdio::piped() })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    // (a part of the card now, the rest later: the pipe stays open)
    let card = std::fs::read(demo("cards/S03.xlsx")).unwrap();
    let mut stdin: Box<dyn Write> = match named {
        // (opened once the import opens it to read)
        true => Box::new(std::fs::OpenOptions::new().write(true).open(&fifo).unwrap()),
        false => Box::new(first.stdin.take().unwrap()),
    };
    stdin.write_all(&card[..card.len() / 2]).unwrap();
    // (no lock taken: give it the time it would take to take one)
    std::thread::sleep(Duration::from_millis(500));

    let mut second = tilerank(&[
        "import".as_ref(),
        demo("cards/S02.xlsx").as_os_str(),
        "--event".as_ref(),
        event.as_os_str(),
    ])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = second.try_wait().unwrap() {
            break Some(status);
        }
        if Instant::now() > deadline {
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    if status.is_none() {
        let _ = second.kill();
        let _ = first.kill();
    }
    let second = second.wait_with_output().unwrap();
    assert!(
        status.is_some_and(|s| s.success()),
        "the second import goes in while the first waits for its input: {}",
        stderr(&second)
    );
    assert!(
        !stderr(&second).contains("waiting for another import"),
        "{}",
        stderr(&second)
    );
    assert!(first.try_wait().unwrap().is_none(), "the first still reads");

    stdin.write_all(&card[card.len() / 2..]).unwrap();
    drop(stdin);
    let first = first.wait_with_output().unwrap();
    assert!(first.status.success(), "{}", stderr(&first));
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&first.stdout),
        stderr(&first)
    );
    let name = match named {
        true => fifo.display().to_string(),
        false => "<stdin>".to_string(),
    };
    assert!(
        said.contains(&format!("{name}: 25 cards imported")),
        "{said}"
    );
    let log = run(&event, &["log"]);
    let log = String::from_utf8_lossy(&log.stdout);
    assert!(
        log.contains("S02.xlsx") && log.contains(if named { "S03-piped" } else { "<stdin>" }),
        "both are in the log: {log}"
    );
}
