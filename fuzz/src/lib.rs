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
    for (threads, chunk, keep) in [(false, 1 << 30, Keep::Cards), (true, 61, Keep::Cards), (true, 7, Keep::Sums)] {
        let request = Request { keep, ..request.clone() };
        let Some(got) = Event::load_streamed(&request, Some(threads), chunk) else {
            continue;
        };
        assert_eq!(got.counts, ordinary.counts, "threads {threads}, chunks of {chunk}");
        assert_eq!(listed(&got), listed(&ordinary), "threads {threads}, chunks of {chunk}");
        if keep == Keep::Cards {
            assert_eq!(text(&got), expected, "threads {threads}, chunks of {chunk}");
        } else {
            // no cards: the rest is the same
            let rest: String = expected.lines().filter(|l| !l.starts_with("Card")).map(|l| format!("{l}\n")).collect();
            assert_eq!(text(&got), rest, "threads {threads}, chunks of {chunk}, sums only");
        }
    }
}
