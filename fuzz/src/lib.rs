//! What every fuzz target runs: the library's own entry points for bytes
//! ([`tilerank::ingest::cards_from_bytes`], [`tilerank::ingest::roster::from_bytes`]),
//! the same code as `tilerank check`, then the rules' checks of the cards.
//! A panic, abort, hang or runaway allocation anywhere is a finding.

use tilerank::ingest::limits::Limits;
use tilerank::problem::Problems;
use tilerank::profile::Rules;

/// Smaller than the defaults, so that one run stays fast and small; the
/// code paths are the same.
pub fn limits() -> Limits {
    Limits {
        cells: 200_000,
        zip_member_bytes: 16 * 1024 * 1024,
        shared_strings: 100_000,
        sheet_text_bytes: 4 * 1024 * 1024,
        read_seconds: 5,
        ..Limits::default()
    }
}

/// Reads `bytes` as the card file `name` (its extension says CSV or which
/// workbook), then scores rack cards and checks every card as an event does.
pub fn cards(name: &str, bytes: Vec<u8>) {
    // a text with no quote is split as the CSV reader splits it
    if let Some([split, read]) = std::str::from_utf8(&bytes)
        .ok()
        .and_then(tilerank::ingest::text::rows_both_ways)
    {
        assert_eq!(split, read, "split and read apart");
    }
    let mut problems = Problems::new();
    let inputs = tilerank::ingest::cards_from_bytes(name, bytes, &limits(), &mut problems);
    // the one way cards become an event
    let event = tilerank::event::Event::assemble(None, inputs, &Rules::hk(), problems);
    report(&event.problems);
}

/// Formats every problem; a reader stopped at its deadline is contained
/// (no crash) but is printed, to be looked at.
pub fn report(problems: &Problems) {
    for p in problems.sorted() {
        let line = p.to_string();
        if line.contains("seconds and was stopped") {
            eprintln!("CONTAINED TIMEOUT: {line}");
        }
    }
}

/// The roster file of bytes `data` read a chunk at a time, as a large one
/// is, in chunks of any size: where it answers, what the whole read of the
/// same bytes says, every message and player; where the whole read cannot
/// read them, it does not answer.
pub fn roster_in_chunks(data: &[u8]) {
    use tilerank::ingest::roster::{from_bytes, in_chunks};
    let dir = std::env::temp_dir().join(format!("tilerank-fuzz-roster-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join("roster.csv");
    if std::fs::write(&path, data).is_err() {
        return;
    }
    let name = path.display().to_string();
    let mut problems = Problems::new();
    let whole = from_bytes(&name, data.to_vec(), &limits(), &mut problems).map(|roster| {
        let said: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        let players: Vec<_> = roster.iter().map(|(_, p)| p.into_owned()).collect();
        (said, players)
    });
    for size in [1 << 30, 61, 7] {
        let Some(got) = in_chunks(&path, size, &limits()) else {
            continue;
        };
        match &whole {
            Ok(whole) => assert_eq!(&got, whole, "chunks of {size}"),
            Err(e) => panic!("read in chunks of {size}, not whole: {e}"),
        }
    }
}

/// `bytes` after a first line, for the targets of one CSV layout.
pub fn after(header: &str, data: &[u8]) -> Vec<u8> {
    let mut v = header.as_bytes().to_vec();
    v.extend_from_slice(data);
    v
}

/// The streaming reader against the ordinary one on the same file: the
/// streaming reader may decline (then the ordinary one reads it), but when
/// it answers, on one thread or two, in chunks of any size, with the cards
/// kept or only their sums, its event is the ordinary reader's.
pub fn streamed(data: &[u8]) {
    use std::fmt::Write as _;
    use tilerank::event::{Event, Keep, Request};
    let dir = std::env::temp_dir().join(format!("tilerank-fuzz-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join("fuzz.csv");
    if std::fs::write(&path, data).is_err() {
        return;
    }
    let rules = Rules::hk();
    let request = Request {
        inputs: vec![path.clone()],
        roster: None,
        rules: rules.clone(),
        keep: Keep::Cards,
    };
    let Ok(ordinary) = Event::load_ordinary(&request) else {
        return;
    };
    let text = |event: &Event| {
        let mut out = String::new();
        for c in &event.cards {
            let _ = writeln!(out, "{c:?}");
        }
        for (id, p) in event.roster.iter() {
            let _ = writeln!(out, "{} {}", id.0, p.id);
        }
        for stage in event.stages() {
            let _ = writeln!(out, "{stage} {:?}", event.tallies.of(&stage));
        }
        out
    };
    let expected = text(&ordinary);
    // the event as the commands read it (streaming where it can): the
    // same cards, players, sums, counts and problems
    let event = Event::load(&request).expect("read once, read again");
    assert_eq!(text(&event), expected);
    assert_eq!(event.counts, ordinary.counts);
    let problems = |e: &Event| {
        let mut v: Vec<String> = e.problems.iter().map(|p| p.to_string()).collect();
        v.sort();
        v
    };
    assert_eq!(problems(&event), problems(&ordinary));
    // the streaming reader alone, on one thread or two, in chunks of any
    // size, with the cards kept or only their sums: where it answers, the
    // ordinary reader's event (problems in the order they are listed)
    let listed = |e: &Event| {
        let mut v: Vec<String> = e.problems.iter().map(|p| format!("{p:?}")).collect();
        v.sort();
        v
    };
    for (threads, chunk, keep) in [
        (false, 1 << 30, Keep::Cards),
        (true, 61, Keep::Cards),
        (true, 7, Keep::Sums),
    ] {
        let request = Request {
            keep,
            ..request.clone()
        };
        let Some(got) = Event::load_streamed(&request, Some(threads), chunk) else {
            continue;
        };
        assert_eq!(
            got.counts, ordinary.counts,
            "threads {threads}, chunks of {chunk}"
        );
        assert_eq!(
            listed(&got),
            listed(&ordinary),
            "threads {threads}, chunks of {chunk}"
        );
        if keep == Keep::Cards {
            assert_eq!(text(&got), expected, "threads {threads}, chunks of {chunk}");
        } else {
            // no cards: the rest is the same
            let rest: String = expected
                .lines()
                .filter(|l| !l.starts_with("Card"))
                .map(|l| format!("{l}\n"))
                .collect();
            assert_eq!(
                text(&got),
                rest,
                "threads {threads}, chunks of {chunk}, sums only"
            );
        }
    }
    // and from the event's database
    if !ordinary.problems.has_errors() && ordinary.counts.accepted > 0 {
        stored_the_same(&path, &ordinary);
    }
}

/// The settings of the folder the `event_store` target reads its
/// databases in: the HK rules, one prelim session of two tables, as the
/// end-to-end fixture its corpus is seeded from (`run.sh`). They must be
/// settings a folder opens with, or no database is ever read (tested).
pub const STORE_SETTINGS: &str = "[event]\nname = \"Fuzz\"\ndate = \"2026-03-28\"\nprofile = \"hk\"\n[sessions]\ncount = 1\ntables = 2\n";

/// What the `event_store` target does with its bytes: `data` as the
/// `tilerank.db` of the folder `dir` (its settings [`STORE_SETTINGS`]),
/// opened and read the way every reading command reads an event, ranked,
/// its log read, then dumped as plain files. `None` when the folder did
/// not open; else whether the event was read (a damaged database is
/// refused with an error, never a panic).
pub fn stored(dir: &std::path::Path, data: &[u8]) -> Option<bool> {
    use tilerank::event_folder::EventFolder;
    let _ = std::fs::create_dir_all(dir);
    let settings = dir.join("tilerank.toml");
    if std::fs::read(&settings).ok().as_deref() != Some(STORE_SETTINGS.as_bytes()) {
        std::fs::write(&settings, STORE_SETTINGS).ok()?;
    }
    let _ = std::fs::remove_file(dir.join("tilerank.db-journal"));
    let _ = std::fs::remove_dir_all(dir.join("dump"));
    std::fs::write(dir.join("tilerank.db"), data).ok()?;
    let folder = EventFolder::open(dir).ok()?;
    let read = match folder.load(&[], None) {
        Ok(event) => {
            report(&event.problems);
            let _ = event.standings(&tilerank::domain::Stage::prelim());
            true
        }
        Err(_) => false,
    };
    let _ = folder.log();
    let _ = folder.dump(&dir.join("dump"));
    Some(read)
}

/// A third source of the same cards: an event folder's database. When the
/// file is clean, the event its database holds (the file imported, under a
/// roster of the players the file names) ranks every stage as the file
/// does: the same players, ranks and sums.
pub fn stored_the_same(file: &std::path::Path, from_file: &tilerank::event::Event) {
    use std::fmt::Write as _;
    use tilerank::event::Event;
    use tilerank::event_folder::EventFolder;
    let dir = file.with_extension("event");
    let _ = std::fs::remove_dir_all(&dir);
    let Ok(folder) = EventFolder::init(&dir, Default::default(), "fuzz", None) else {
        return;
    };
    // the players as the file names them, ids quoted as CSV quotes them
    let mut roster = String::from("id,name\n");
    for (_, p) in from_file.roster.iter() {
        let quoted = format!("\"{}\"", p.id.replace('"', "\"\""));
        let _ = writeln!(roster, "{quoted},{quoted}");
    }
    let roster_file = file.with_extension("roster.csv");
    if std::fs::write(&roster_file, roster).is_err() {
        return;
    }
    let rules = folder.rules();
    match folder.store_roster(&roster_file, &rules, &mut || {}) {
        Ok((problems, _)) if !problems.has_errors() => {}
        // (ids a roster refuses: a name too long, say)
        _ => return,
    }
    let report = folder
        .import(&[file.to_path_buf()], None, false, None, &mut || {})
        .expect("a clean file imports");
    assert!(
        !report.problems.has_errors(),
        "{:?}",
        report.problems.sorted()
    );
    let stored = folder.load(&[], None).expect("the event reads back");
    let ranking = |e: &Event| {
        let mut out = String::new();
        for stage in e.stages() {
            let s = e.standings(&stage);
            for entry in s.ranked.iter().chain(&s.apart) {
                let t = &entry.tally();
                let _ = writeln!(
                    out,
                    "{stage} {:?} {} {} {} {} {} {:?} {}",
                    entry.rank,
                    e.roster.id(t.player),
                    t.games,
                    t.won,
                    t.total,
                    t.tiles,
                    t.best_game,
                    t.withdrawn
                );
            }
        }
        out
    };
    assert_eq!(
        ranking(&stored),
        ranking(from_file),
        "the file, then its event's database"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(test)]
mod tests {
    /// The harness on every results fixture of the main crate (`cargo test
    /// --lib` in `fuzz/`): what the fuzzer starts from passes.
    #[test]
    fn every_results_fixture_is_one_answer_from_every_source() {
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures");
        let mut ran = 0;
        for dir in ["good", "bad", "ties", "real-world"] {
            for entry in std::fs::read_dir(fixtures.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "csv") {
                    super::streamed(&std::fs::read(&path).unwrap());
                    ran += 1;
                }
            }
        }
        assert!(ran > 20, "{ran} fixtures");
    }

    /// The `event_store` target reads the database it is seeded with (an
    /// event of the end-to-end fixture), so that what the fuzzer changes
    /// is read; and a damaged copy is refused or read, never a panic.
    #[test]
    fn the_store_target_reads_a_real_event() {
        use tilerank::event_folder::EventFolder;
        let fixture =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/e2e/hk");
        let base = std::env::temp_dir().join(format!("tilerank-fuzz-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let made = base.join("made");
        std::fs::create_dir_all(&made).unwrap();
        std::fs::copy(fixture.join("tilerank.toml"), made.join("tilerank.toml")).unwrap();
        let folder = EventFolder::open(&made).unwrap();
        let rules = folder.rules();
        let (problems, _) = folder
            .store_roster(&fixture.join("roster.csv"), &rules, &mut || {})
            .unwrap();
        assert!(!problems.has_errors(), "{:?}", problems.sorted());
        let report = folder
            .import(
                &[fixture.join("cards/prelim.csv")],
                None,
                false,
                None,
                &mut || {},
            )
            .unwrap();
        assert!(
            !report.problems.has_errors(),
            "{:?}",
            report.problems.sorted()
        );
        let db = std::fs::read(made.join("tilerank.db")).unwrap();

        let target = base.join("target");
        assert_eq!(super::stored(&target, &db), Some(true), "the event is read");
        assert!(target.join("dump/roster.csv").exists(), "and dumped");
        // every page's first bytes damaged in turn: refused or read
        for page in 0..db.len() / 4096 {
            let mut damaged = db.clone();
            damaged[page * 4096 + 100..page * 4096 + 116].fill(0xA5);
            assert!(super::stored(&target, &damaged).is_some(), "page {page}");
        }
        let _ = std::fs::remove_dir_all(&base);
    }
}
