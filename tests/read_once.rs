//! Every input is read once per command, whatever its kind. Cards that
//! clash (a player at two tables of a session, a table given twice) are
//! read in two passes, the second leaving the clashing cards out of the
//! sums; standard input and a named pipe give their bytes once (read
//! again, standard input is at its end and a pipe waits for a writer that
//! is gone). Given that way, cards and a roster say what the same bytes
//! say in a file, the name aside, with the same exit status, and in time:
//! each run fails the test after a minute rather than wait for ever.

use crate::test::{fixtures, pipe, Scratch, Test};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Seconds a command is given before it fails the test.
const IN_TIME: u64 = 60;

/// Table 9 of session 1, four players no other card seats: accepted,
/// beside the cards that clash.
const TABLE_9: &str = "\
S01,9,1,A,P0009,1,+30,1
S01,9,1,B,P0010,0,-5,1
S01,9,1,C,P0011,0,-10,3
S01,9,1,D,P0012,0,-15,4
S01,9,2,A,P0009,0,+11,3
S01,9,2,B,P0010,1,+11,1
S01,9,2,C,P0011,0,-12,2
S01,9,2,D,P0012,0,-10,4
S01,9,3,A,P0009,1,+11,1
S01,9,3,B,P0010,1,+11,1
S01,9,3,C,P0011,0,-12,2
S01,9,3,D,P0012,0,-10,4
";

fn fixture(name: &str) -> String {
    std::fs::read_to_string(fixtures().join(name)).unwrap()
}

/// Tables 7 and 8 of session 1 both seat P0001 (the two clash), and
/// table 9 is fine.
fn clashing() -> String {
    fixture("bad/check1-player-at-two-tables.csv") + TABLE_9
}

/// How a command is given a file.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Given {
    File,
    Stdin,
    Pipe,
}

/// What a run said, the names it was given the files by replaced by
/// `CARDS` and `ROSTER`.
#[derive(Debug, PartialEq)]
struct Said {
    status: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `tilerank ARGS CARDS [--roster ROSTER]` in `s`, the cards (of
/// `cards`, a file's text) and the roster (`roster.csv`'s) given as told.
fn run(s: &Scratch, args: &[&str], cards: (Given, &str), roster: Option<Given>) -> Said {
    // (each run its own names: a pipe is read by one run)
    static RUN: AtomicUsize = AtomicUsize::new(0);
    let n = RUN.fetch_add(1, Ordering::Relaxed);
    let mut test = Test::new().in_dir(&s.0).args(args).timeout(IN_TIME);
    let mut names = Vec::new();
    let mut given = |what: &str, given: Given, text: &str, test: Test| -> Test {
        let name = match given {
            Given::File => {
                let name = format!("{what}-{n}.csv");
                s.write(&name, text);
                name
            }
            Given::Pipe => {
                let name = format!("{what}-pipe-{n}.csv");
                pipe(s, &name, text);
                name
            }
            Given::Stdin => "-".to_string(),
        };
        names.push((
            if given == Given::Stdin {
                "<stdin>".to_string()
            } else {
                name.clone()
            },
            what.to_uppercase(),
        ));
        let test = if given == Given::Stdin {
            test.stdin(text)
        } else {
            test
        };
        test.arg(name)
    };
    test = given("cards", cards.0, cards.1, test);
    if let Some(roster) = roster {
        test = given(
            "roster",
            roster,
            &fixture("roster.csv"),
            test.arg("--roster"),
        );
    }
    let out = test.run();
    let named = |text: &str| {
        names
            .iter()
            .fold(text.to_string(), |t, (name, as_)| t.replace(name, as_))
    };
    Said {
        status: out.status,
        stdout: named(&out.stdout),
        stderr: named(&out.stderr),
    }
}

/// Clashing cards on standard input or through a named pipe: every
/// clash said at its place, the other card accepted, as of the same file
/// (`check` keeps the cards, `standings` their sums: a file is then read
/// by the streaming reader, a pipe the ordinary way).
#[cfg(unix)]
#[test]
fn clashing_cards_on_stdin_or_piped_say_what_the_file_says() {
    let s = Scratch::new("cards");
    let cards = clashing();
    for command in ["check", "standings"] {
        let file = run(&s, &[command], (Given::File, &cards), Some(Given::File));
        assert_eq!(file.status, Some(1), "{file:?}");
        assert!(
            file.stderr.contains(
                "CARDS:14:5: error: P0001 (Chan Tai Man) is seated at table 8 and at table 7 (CARDS:2:5)"
            ) && file.stderr.contains("1 card accepted"),
            "{file:?}"
        );
        for given in [Given::Stdin, Given::Pipe] {
            let said = run(&s, &[command], (given, &cards), Some(Given::File));
            assert_eq!(said, file, "{command} with the cards given as {given:?}");
        }
    }
}

/// A roster on standard input or through a named pipe, with cards that
/// clash: read once, the second pass given the roster the first read
/// (before, it was read again: "no roster found", and every player
/// unknown). With the cards of a table given twice in two files the
/// streaming reader gives up too, and the cards are read the ordinary way.
#[cfg(unix)]
#[test]
fn a_roster_on_stdin_or_piped_is_read_once_when_cards_clash() {
    let s = Scratch::new("roster");
    let cards = clashing();
    let file = run(&s, &["check"], (Given::File, &cards), Some(Given::File));
    for (cards_given, roster_given) in [
        (Given::File, Given::Stdin),
        (Given::File, Given::Pipe),
        (Given::Pipe, Given::Pipe),
        (Given::Pipe, Given::Stdin),
        (Given::Stdin, Given::Pipe),
    ] {
        let said = run(&s, &["check"], (cards_given, &cards), Some(roster_given));
        assert_eq!(
            said, file,
            "cards given as {cards_given:?}, the roster as {roster_given:?}"
        );
    }
    let twice = fixtures().join("bad/check1-table-twice");
    let twice = twice.to_str().unwrap();
    let table_9 = format!("session,table,game,seat,player,won,score,tiles\n{TABLE_9}");
    let as_file = run(
        &s,
        &["check", twice],
        (Given::File, &table_9),
        Some(Given::File),
    );
    assert_eq!(as_file.status, Some(1), "{as_file:?}");
    assert!(
        as_file.stderr.contains("table 7 is given twice"),
        "{as_file:?}"
    );
    for roster_given in [Given::Stdin, Given::Pipe] {
        let said = run(
            &s,
            &["check", twice],
            (Given::File, &table_9),
            Some(roster_given),
        );
        assert_eq!(said, as_file, "the roster given as {roster_given:?}");
    }
}

/// An event folder's commands: `import -` of clashing cards says the
/// clash (not "the file is empty") as `import FILE` does, and so does
/// `check -` beside a database event's cards and in a folder of files
/// (whose cards are read as any command's inputs).
#[cfg(unix)]
#[test]
fn an_event_folder_reads_clashing_cards_from_stdin_once() {
    let s = Scratch::new("event");
    let cards = clashing();
    let event = s.path("event");
    let d = event.display().to_string();
    Test::new()
        .args(["init", &d, "--name", "Piped Open", "--date", "2026-03-28"])
        .run()
        .success();
    Test::new()
        .arg("roster")
        .arg(fixtures().join("roster.csv"))
        .args(["--event", &d])
        .run()
        .success();
    let in_event = |args: &[&str], given: Given| {
        let mut args = args.to_vec();
        args.extend(["--event", &d]);
        run(&s, &args, (given, &cards), None)
    };
    for command in [&["import"][..], &["check"]] {
        let file = in_event(command, Given::File);
        assert_eq!(file.status, Some(1), "{file:?}");
        assert!(
            file.stderr
                .contains("CARDS:14:5: error: P0001 (Chan Tai Man) is seated at table 8"),
            "{file:?}"
        );
        for given in [Given::Stdin, Given::Pipe] {
            let said = in_event(command, given);
            assert_eq!(said, file, "{command:?} with the cards given as {given:?}");
        }
    }
    // A folder of files: its settings and roster.csv, no database.
    std::fs::remove_file(event.join("tilerank.db")).unwrap();
    std::fs::copy(fixtures().join("roster.csv"), event.join("roster.csv")).unwrap();
    let file = in_event(&["check"], Given::File);
    assert_eq!(file.status, Some(1), "{file:?}");
    assert!(
        file.stderr
            .contains("CARDS:14:5: error: P0001 (Chan Tai Man) is seated at table 8"),
        "{file:?}"
    );
    for given in [Given::Stdin, Given::Pipe] {
        let said = in_event(&["check"], given);
        assert_eq!(
            said, file,
            "check in a folder of files, the cards given as {given:?}"
        );
    }
}

/// The hash kept of a piped input and roster whose cards clash is that of
/// the bytes read (not of an empty second read): the event read by the
/// library, as `export` reads it while it keeps the hashes for its log
/// (which it writes only of an event without errors). A read that waits
/// fails the test after a minute.
#[cfg(unix)]
#[test]
fn piped_cards_that_clash_are_hashed_as_read() {
    use tilerank::event::{Event, Keep, Request};
    use tilerank::event_folder::sha256_hex;
    use tilerank::ingest::hashes::ReadHashes;
    let s = Scratch::new("hashes");
    let (cards, roster) = (clashing(), fixture("roster.csv"));
    let request = Request {
        inputs: vec![pipe(&s, "cards-pipe.csv", &cards)],
        roster: Some(pipe(&s, "roster-pipe.csv", &roster)),
        rules: tilerank::profile::Rules::hk(),
        keep: Keep::Cards,
    };
    let (send, read) = std::sync::mpsc::channel();
    // (hashes are kept on the thread that reads)
    std::thread::spawn(move || {
        let hashes = ReadHashes::keep();
        let event = Event::load(&request).unwrap();
        let said: Vec<String> = event.problems.iter().map(|p| p.to_string()).collect();
        let kept = [&request.inputs[0], request.roster.as_ref().unwrap()].map(|p| hashes.of(p));
        send.send((said, kept)).unwrap();
    });
    let (said, kept) = read
        .recv_timeout(std::time::Duration::from_secs(IN_TIME))
        .expect("the event is read in time");
    assert!(
        said.iter()
            .any(|p| p.contains("is seated at table 8 and at table 7")),
        "{said:?}"
    );
    assert_eq!(
        kept,
        [
            Some(sha256_hex(cards.as_bytes())),
            Some(sha256_hex(roster.as_bytes()))
        ]
    );
}

/// `seating --rules FILE` without an event folder reads its rules file
/// once: given through a named pipe it seats what the same file seats
/// (before, the file was opened again for the schedule, and the command
/// waited for ever on the pipe).
#[cfg(unix)]
#[test]
fn seating_reads_a_piped_rules_file_once() {
    let s = Scratch::new("seating-rules");
    let rules = Test::new().args(["profiles", "show", "hk"]).run().success();
    let file = s.write("hk.toml", &rules.stdout);
    let seat = |rules: &std::path::Path| {
        Test::new()
            .args([
                "seating", "--from", "prelim", "--seed", "1", "--format", "csv",
            ])
            .fixture("good/hk-examples.csv")
            .roster()
            .arg("--rules")
            .arg(rules)
            .timeout(IN_TIME)
            .run()
            .success()
            .stdout
    };
    let from_file = seat(&file);
    assert!(from_file.lines().count() > 1, "{from_file}");
    assert_eq!(seat(&pipe(&s, "rules.toml", &rules.stdout)), from_file);
}

/// Standard input can be read once: given for two inputs of one command,
/// it is refused before anything is read (read for the first, it would be
/// an empty file for the second), and a file beside it is taken.
#[test]
fn standard_input_given_twice_is_refused_before_anything_is_read() {
    let cards = clashing();
    for (args, said) in [
        (vec!["check", "-", "-"], "given 2 times (INPUT, INPUT)"),
        (
            vec!["standings", "-", "--roster", "-"],
            "given 2 times (INPUT, --roster)",
        ),
        (
            vec!["qualifiers", "-", "--roster", "-", "--rules", "-"],
            "given 3 times (INPUT, --roster, --rules)",
        ),
    ] {
        let out = Test::new()
            .args(&args)
            .stdin(cards.clone())
            .timeout(IN_TIME)
            .run()
            .failure(2)
            .stderr_has(said)
            .stderr_has("it can be read once");
        assert!(!out.stderr.contains("empty"), "{args:?}: {}", out.stderr);
    }
    Test::new()
        .args(["check", "-", "--roster"])
        .arg(fixtures().join("roster.csv"))
        .stdin(cards)
        .timeout(IN_TIME)
        .run()
        .failure(1)
        .stderr_lacks("given 2 times");
}
