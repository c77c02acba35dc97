//! What every fuzz target runs: the library's own entry points for bytes
//! ([`tilerank::ingest::cards_from_bytes`], [`tilerank::ingest::roster::from_bytes`]),
//! the same code as `tilerank check`, then the rules' checks of the cards.
//! A panic, abort, hang or runaway allocation anywhere is a finding.

use tilerank::ingest::limits::Limits;
use tilerank::problem::Problems;
use tilerank::profile::Rules;
use tilerank::roster::Roster;

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
    let rules = Rules::hk();
    let mut problems = Problems::new();
    let inputs = tilerank::ingest::cards_from_bytes(name, bytes, &limits(), &mut problems);
    let mut raw = inputs.cards;
    for rack_card in inputs.rack_cards {
        raw.extend(tilerank::ingest::racks::score_card(rack_card, &rules, &mut problems));
    }
    let mut roster = Roster::open();
    let checked: Vec<_> = raw
        .iter()
        .filter_map(|r| tilerank::rules::card_checks::check_card(r, &rules, &mut roster, &mut problems))
        .collect();
    tilerank::rules::card_checks::check_clashes(&checked, &roster, &mut problems);
    report(&problems);
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
    let problems = |e: &Event| e.problems.iter().map(|p| p.to_string()).collect::<Vec<_>>();
    assert_eq!(problems(&event), problems(&ordinary));
    if ordinary.problems.has_errors() {
        // the streaming reader declines any file with an error
        let mut roster = Roster::open();
        let streamed =
            tilerank::stream::load_chunked(std::slice::from_ref(&path), &rules, &mut roster, true, Some(true), 61);
        assert!(streamed.is_none(), "a file with errors streamed");
        return;
    }
    for (threads, chunk, keep) in [(false, 1 << 30, true), (true, 61, true), (true, 7, false)] {
        let mut roster = Roster::open();
        let Some(got) =
            tilerank::stream::load_chunked(std::slice::from_ref(&path), &rules, &mut roster, keep, Some(threads), chunk)
        else {
            continue;
        };
        assert_eq!(got.accepted, ordinary.counts.accepted);
        let mut out = String::new();
        for c in &got.cards {
            let _ = writeln!(out, "{c:?}");
        }
        for (id, p) in roster.iter() {
            let _ = writeln!(out, "{} {}", id.0, p.id);
        }
        let mut stages: Vec<_> = got.tallies.stages().cloned().collect();
        stages.sort_by_key(|s| rules.stage_rank(s));
        for stage in stages {
            let _ = writeln!(out, "{stage} {:?}", got.tallies.of(&stage));
        }
        if keep {
            assert_eq!(out, expected, "threads {threads}, chunks of {chunk}");
        } else {
            // no cards: the rest is the same
            let rest: String = expected.lines().filter(|l| !l.starts_with("Card")).map(|l| format!("{l}\n")).collect();
            assert_eq!(out, rest, "threads {threads}, chunks of {chunk}, sums only");
        }
    }
}
