//! No input makes the tool panic: every fixture through the binary, and
//! random bytes, random CSV-ish text, mutated cards and random workbooks
//! through the library's reader (`Event::load`).

use crate::test::{fixtures, Test};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use tilerank::event::{Event, Request};
use tilerank::profile::Rules;
use tilerank::score::Score;

fn all_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            all_files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Every file under tests/fixtures, as cards and as a roster: the exit
/// status is one of FORMATS.md's (0, 1, 2), never a panic (101).
#[test]
fn no_fixture_makes_the_tool_panic() {
    let root = fixtures();
    let mut files = Vec::new();
    all_files(&root, &mut files);
    files.sort();
    assert!(files.len() > 40, "the fixtures are found");
    for file in files {
        let relative = file
            .strip_prefix(&root)
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        for run in [
            Test::new().arg("check").fixture(&relative),
            Test::new()
                .args(["check", "good/went-out.csv", "--roster"])
                .fixture(&relative),
        ] {
            let out = run.run();
            assert!(
                matches!(out.status, Some(0..=2)) && !out.stderr.contains("panicked"),
                "{}: status {:?}\n{}",
                out.command,
                out.status,
                out.stderr
            );
        }
    }
}

/// A fresh file name under Cargo's scratch folder for integration tests.
fn scratch(extension: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("robustness");
    std::fs::create_dir_all(&dir).unwrap();
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    dir.join(format!("input-{}-{n}.{extension}", std::process::id()))
}

/// Loads `bytes` as the one input, with no roster; the file is removed
/// afterwards. Checks what holds for any input: an accepted card's games
/// sum to zero, and every problem is placed in the input.
fn load(bytes: &[u8], extension: &str) {
    let path = scratch(extension);
    std::fs::write(&path, bytes).unwrap();
    let request = Request {
        inputs: vec![path.clone()],
        roster: None,
        rules: Rules::hk(),
    };
    let loaded = Event::load(&request);
    std::fs::remove_file(&path).unwrap();
    let Ok(event) = loaded else { return };
    let shown = path.display().to_string();
    for p in event.problems.iter() {
        assert_eq!(&*p.place.source.file, shown, "{p}");
    }
    for card in &event.cards {
        for game in &card.games {
            let sum: Score = game.results.iter().map(|r| r.score).sum();
            assert!(sum.is_zero(), "an accepted game sums to {sum}: {card:?}");
        }
    }
}

/// Cells people and programs write, good and bad.
const TOKENS: &[&str] = &[
    "",
    " ",
    "session",
    "table",
    "game",
    "seat",
    "player",
    "won",
    "score",
    "tiles",
    "stage",
    "Name",
    "Game Won (1/0)",
    "Score (+/-)",
    "Tiles on rack",
    "Total",
    "Game 1",
    "Game 2",
    "Game 3",
    "Game 4",
    "Session number:",
    "Table number: 7",
    "Score Card",
    "Remark:",
    "Participant Signature",
    "id",
    "name",
    "birth_date",
    "S01",
    "7",
    "A",
    "B",
    "C",
    "D",
    "E",
    "P0001",
    "P0002",
    "P0003",
    "P0004",
    "0",
    "1",
    "2",
    "+30",
    "-5",
    "\u{2212}5",
    "30.0",
    "3.33",
    "5,5",
    "-0",
    "+",
    "-",
    ".",
    "106",
    "107",
    "99999999999999999999",
    "1e300",
    "NaN",
    "x",
    "\"",
    "\"a,b\"",
    "陳大文",
    "\u{feff}",
    "(C)",
    "____",
    "=SUM(B8:B10)",
    "#VALUE!",
];

fn csvish() -> impl Strategy<Value = String> {
    let cell = prop::sample::select(TOKENS);
    let row = prop::collection::vec(cell, 0..14);
    let sep = prop::sample::select(&[",", ";", "\t"][..]);
    let eol = prop::sample::select(&["\n", "\r\n", "\r"][..]);
    (prop::collection::vec(row, 0..20), sep, eol).prop_map(|(rows, sep, eol)| {
        rows.iter()
            .map(|r| r.join(sep))
            .collect::<Vec<_>>()
            .join(eol)
    })
}

/// A valid card with some cells replaced by tokens: the checks run deep.
fn mutated(fixture: &'static str) -> impl Strategy<Value = String> {
    let text = std::fs::read_to_string(fixtures().join(fixture)).unwrap();
    let lines: Vec<Vec<String>> = text
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    let edits = prop::collection::vec(
        (0..lines.len(), 0..16usize, prop::sample::select(TOKENS)),
        1..6,
    );
    (Just(lines), edits).prop_map(|(mut lines, edits)| {
        for (row, col, token) in edits {
            let cells = &mut lines[row];
            if col < cells.len() {
                cells[col] = token.to_string();
            }
        }
        lines
            .iter()
            .map(|l| l.join(","))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// A sheet of random cells, as a workbook. Numbers stay within what a score
/// card can hold; see `a_huge_number_in_a_workbook` for the rest.
fn workbook() -> impl Strategy<Value = Vec<u8>> {
    #[derive(Clone, Debug)]
    enum Value {
        Text(&'static str),
        Number(f64),
    }
    let value = prop_oneof![
        prop::sample::select(TOKENS).prop_map(Value::Text),
        (-1.0e6..1.0e6f64).prop_map(Value::Number),
        (-200i32..200).prop_map(|n| Value::Number(f64::from(n))),
    ];
    let cell = (0u32..16, 0u16..14, value);
    prop::collection::vec(cell, 0..80).prop_map(|cells| {
        let mut book = rust_xlsxwriter::Workbook::new();
        let sheet = book.add_worksheet();
        for (row, col, value) in cells {
            match value {
                Value::Text(t) => sheet.write_string(row, col, t).map(|_| ()),
                Value::Number(n) => sheet.write_number(row, col, n).map(|_| ()),
            }
            .unwrap();
        }
        book.save_to_buffer().unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..600),
        extension in prop::sample::select(&["csv", "txt", "xlsx", "xls", "ods"][..]),
        zip in any::<bool>(),
    ) {
        // half of them look like a workbook (a zip) under whatever name
        let bytes = if zip { [b"PK\x03\x04".as_slice(), &bytes].concat() } else { bytes };
        load(&bytes, extension);
    }

    #[test]
    fn random_csvish_text_never_panics(text in csvish()) {
        load(text.as_bytes(), "csv");
    }

    #[test]
    fn mutated_results_cards_never_panic(text in mutated("good/went-out.csv")) {
        load(text.as_bytes(), "csv");
    }

    #[test]
    fn mutated_score_cards_never_panic(text in mutated("scorecard/good.csv")) {
        load(text.as_bytes(), "csv");
    }

    #[test]
    fn legacy_encodings_never_panic(text in csvish()) {
        let (big5, _, _) = encoding_rs::BIG5.encode(&text);
        load(&big5, "csv");
        let (utf16, _, _) = encoding_rs::UTF_16LE.encode(&text);
        load(&[b"\xFF\xFE".as_slice(), &utf16].concat(), "csv");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_workbooks_never_panic(bytes in workbook()) {
        load(&bytes, "xlsx");
    }
}

/// A score cell holding 1e11 in a workbook (a misplaced phone number, an
/// id typed in the wrong column) must be an error, not a crash.
#[test]
fn a_huge_number_in_a_workbook() {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    let header = [
        "session", "table", "game", "seat", "player", "won", "score", "tiles",
    ];
    for (col, name) in header.iter().enumerate() {
        sheet.write_string(0, col as u16, *name).unwrap();
    }
    for (row, seat) in ["A", "B", "C"].iter().enumerate() {
        let row = row as u32 + 1;
        sheet.write_string(row, 0, "S01").unwrap();
        sheet.write_number(row, 1, 7).unwrap();
        sheet.write_number(row, 2, 1).unwrap();
        sheet.write_string(row, 3, *seat).unwrap();
        sheet.write_string(row, 4, format!("P{row}")).unwrap();
        sheet.write_number(row, 5, 0).unwrap();
        sheet.write_number(row, 6, 1.0e11).unwrap();
        sheet.write_number(row, 7, 3).unwrap();
    }
    let bytes = book.save_to_buffer().unwrap();
    load(&bytes, "xlsx");
    let path = scratch("xlsx");
    std::fs::write(&path, &bytes).unwrap();
    let request = Request {
        inputs: vec![path.clone()],
        roster: None,
        rules: Rules::hk(),
    };
    let event = Event::load(&request).unwrap();
    std::fs::remove_file(&path).unwrap();
    let messages: Vec<String> = event.problems.iter().map(|p| p.message.clone()).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("score is 100000000000;")),
        "{messages:?}"
    );
}
