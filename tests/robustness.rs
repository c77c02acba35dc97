//! No input makes the tool panic: every fixture through the binary, and
//! random bytes, random CSV-ish text, mutated cards and random workbooks
//! through the library's reader (`Event::load`).

use crate::test::{fixtures, Test};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use tilerank::event::{Event, Request};
use tilerank::ingest::cards_from_bytes;
use tilerank::ingest::limits::Limits;
use tilerank::problem::Problems;
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
        keep: tilerank::event::Keep::Cards,
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
        keep: tilerank::event::Keep::Cards,
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

// ---------------------------------------------------------------------------
// Hostile files (tests/fixtures/hostile, made by its make.py): each is read
// within its limits, and its problem is named at its place.

/// One cell at the last cell of a sheet (XFD1048576) costs one cell: the
/// card above it is read, and the far cell, right of the table on a row
/// of its own, is a note beside the card, not a line.
#[test]
fn a_far_cell_is_one_cell() {
    for file in ["hostile/far-cell.xlsx", "hostile/far-formula.xlsx"] {
        Test::new()
            .arg("check")
            .fixture(file)
            .run()
            .success()
            .stderr_has("1 card accepted, 3 games; 0 errors");
    }
}

#[test]
fn a_shared_string_count_of_four_billion_is_refused() {
    Test::new()
        .arg("check")
        .fixture("hostile/shared-strings-4g.xlsx")
        .run()
        .failure(2)
        .error_at(
            "hostile/shared-strings-4g.xlsx",
            &["shared-string table holds 4294967295 (as declared) strings; the limit is 2000000 (set TILERANK_MAX_SHARED_STRINGS"],
        )
        .stderr_has("tilerank: 1 input could not be read (see above)");
    Test::new()
        .arg("check")
        .fixture("workbooks/card.xlsx")
        .env("TILERANK_MAX_SHARED_STRINGS", "3")
        .run()
        .failure(2)
        .error_at(
            "workbooks/card.xlsx",
            &["shared-string table holds 26 (as declared) strings; the limit is 3"],
        );
}

/// An `.xlsx` of one sheet whose cell A1 shows a shared string of `len`
/// bytes (`x` again and again, deflated a thousandfold): made here, never
/// committed.
fn one_long_shared_string(len: usize) -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    book.add_worksheet()
        .write_string(0, 0, "THE-LONG-TEXT")
        .unwrap();
    let small = book.save_to_buffer().unwrap();
    long_text_in(
        &small,
        "xl/sharedStrings.xml",
        "THE-LONG-TEXT",
        ("", len, b'x', ""),
    )
}

/// A shared string longer than a cell may hold is refused as the
/// shared strings stream, before calamine reads them: the file is named,
/// with the limit, and the text is never held whole (a 256 kB file may
/// hold a text of 255 MB; README.md, "Limits").
#[test]
fn a_shared_string_over_the_cell_limit_is_refused_as_it_streams() {
    let s = crate::test::Scratch::new("long-shared-string");
    let path = s.path("long.xlsx");
    std::fs::write(&path, one_long_shared_string(8 << 20)).unwrap();
    let file = path.display().to_string();
    Test::new()
        .args(["check", &file])
        .run()
        .failure(2)
        .error_at(
            &file,
            &["its shared string 1 (a text a cell may show) is longer than 32768 bytes; the limit is 32768 (set TILERANK_MAX_FIELD_BYTES to change it)"],
        )
        .stderr_has("tilerank: 1 input could not be read (see above)");
    // within the limit, the cell is read (and is no card)
    std::fs::write(&path, one_long_shared_string(1000)).unwrap();
    Test::new()
        .args(["check", &file])
        .run()
        .failure(1)
        .stderr_lacks("TILERANK_MAX_FIELD_BYTES");
}

/// `zip` (a workbook) with `marker` in its member `member` replaced by
/// `before`, `len` bytes of `fill`, then `after` (deflated a
/// thousandfold): made here, never committed.
fn long_text_in(
    zip: &[u8],
    member: &str,
    marker: &str,
    (before, len, fill, after): (&str, usize, u8, &str),
) -> Vec<u8> {
    use std::io::{Read, Write};
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap();
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let mut replaced = false;
    for i in 0..zip.len() {
        let mut m = zip.by_index(i).unwrap();
        let name = m.name().map(|n| n.to_string()).unwrap();
        let mut bytes = Vec::new();
        m.read_to_end(&mut bytes).unwrap();
        out.start_file(name.as_str(), options).unwrap();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        match text.split_once(marker) {
            Some((head, tail)) if name == member => {
                out.write_all(head.as_bytes()).unwrap();
                out.write_all(before.as_bytes()).unwrap();
                let chunk = vec![fill; 1 << 20];
                let mut left = len;
                while left > 0 {
                    let n = left.min(chunk.len());
                    out.write_all(&chunk[..n]).unwrap();
                    left -= n;
                }
                out.write_all(after.as_bytes()).unwrap();
                out.write_all(tail.as_bytes()).unwrap();
                replaced = true;
            }
            _ => out.write_all(&bytes).unwrap(),
        }
    }
    assert!(replaced, "{member} holds {marker}");
    out.finish().unwrap().into_inner()
}

/// A text longer than a cell may hold, written in a sheet itself (an
/// `.xlsx` inline string or a formula's text result, an `.ods` cell's
/// paragraph) is refused as the sheet streams, at its cell, before calamine
/// reads it: never held whole (README.md, "Limits"). Within the limit,
/// the cell is read.
#[test]
fn a_text_in_a_sheet_over_the_cell_limit_is_refused_as_it_streams() {
    let s = crate::test::Scratch::new("long-sheet-text");
    let mut book = rust_xlsxwriter::Workbook::new();
    book.add_worksheet()
        .write_string(0, 0, "THE-LONG-TEXT")
        .unwrap();
    let xlsx = book.save_to_buffer().unwrap();
    let cell = r#"<c r="A1" t="s"><v>0</v></c>"#;
    let inline = |len| {
        long_text_in(
            &xlsx,
            "xl/worksheets/sheet1.xml",
            cell,
            (
                r#"<c r="A1" t="inlineStr"><is><t>"#,
                len,
                b'x',
                "</t></is></c>",
            ),
        )
    };
    let formula = |len| {
        long_text_in(
            &xlsx,
            "xl/worksheets/sheet1.xml",
            cell,
            (r#"<c r="A1" t="str"><f>"a"</f><v>"#, len, b'x', "</v></c>"),
        )
    };
    let ods = std::fs::read(crate::test::fixtures().join("workbooks/card.ods")).unwrap();
    let paragraph = |len| {
        long_text_in(
            &ods,
            "content.xml",
            "<text:p>Lam Chi Keung</text:p>",
            ("<text:p>", len, b'x', "</text:p>"),
        )
    };
    let limit = "its sheet xl/worksheets/sheet1.xml, cell A1, holds a text longer than 1000 bytes; the limit is 1000 (set TILERANK_MAX_FIELD_BYTES to change it)";
    for (name, book, place, message) in [
        ("inline.xlsx", inline(100_000), "", limit),
        ("formula.xlsx", formula(100_000), "", limit),
        ("paragraph.ods", paragraph(100_000), "[Table 9]!E6", "a text longer than 1000 bytes; the limit is 1000 (set TILERANK_MAX_FIELD_BYTES to change it)"),
    ] {
        let path = s.path(name);
        std::fs::write(&path, book).unwrap();
        let file = path.display().to_string();
        Test::new()
            .args(["check", &file])
            .env("TILERANK_MAX_FIELD_BYTES", "1000")
            .run()
            .failure(2)
            .error_at(&format!("{file}{place}"), &[message])
            .stderr_has("tilerank: 1 input could not be read (see above)");
    }
    // within the limit, the cell is read
    for (name, book) in [
        ("inline.xlsx", inline(900)),
        ("formula.xlsx", formula(900)),
        ("paragraph.ods", paragraph(900)),
    ] {
        let path = s.path(name);
        std::fs::write(&path, book).unwrap();
        Test::new()
            .args(["check", &path.display().to_string()])
            .env("TILERANK_MAX_FIELD_BYTES", "1000")
            .run()
            .stderr_lacks("TILERANK_MAX_FIELD_BYTES");
    }
}

/// Blank space between a sheet's cells, however long, is no cell's text
/// (`expands.xlsx` holds 2 MB of it before its cells; calamine itself
/// cannot read an `.ods` with blank space between cells); a paragraph of an
/// `.ods` cell whose spaces are written as their count (a thousand million
/// in a few bytes) is as long as the spaces it makes.
#[test]
fn blank_space_between_cells_is_no_text_but_spaces_in_a_cell_are() {
    let s = crate::test::Scratch::new("blank-between-cells");
    let xlsx = std::fs::read(crate::test::fixtures().join("hostile/expands.xlsx")).unwrap();
    let ods = std::fs::read(crate::test::fixtures().join("workbooks/card.ods")).unwrap();
    let blank = 2 << 20;
    for (name, book) in [
        (
            "blank.xlsx",
            long_text_in(
                &xlsx,
                "xl/worksheets/sheet1.xml",
                "</c><c r=\"B2\"",
                ("</c>", blank, b' ', "<c r=\"B2\""),
            ),
        ),
        (
            "lines.xlsx",
            long_text_in(
                &xlsx,
                "xl/worksheets/sheet1.xml",
                "</row><row r=\"3\">",
                ("</row>", blank, b'\n', "<row r=\"3\">"),
            ),
        ),
    ] {
        let path = s.path(name);
        std::fs::write(&path, book).unwrap();
        Test::new()
            .args(["check", &path.display().to_string()])
            .run()
            .success()
            .stderr_has("1 card accepted");
    }
    let path = s.path("spaces.ods");
    let spaces = long_text_in(
        &ods,
        "content.xml",
        "<text:p>Lam Chi Keung</text:p>",
        (
            "<text:p>Lam<text:s text:c=\"1000000000\"/>Chi Keung</text:p>",
            0,
            b' ',
            "",
        ),
    );
    std::fs::write(&path, spaces).unwrap();
    let file = path.display().to_string();
    Test::new()
        .args(["check", &file])
        .run()
        .failure(2)
        .error_at(
            &format!("{file}[Table 9]!E6"),
            &["a text longer than 32768 bytes; the limit is 32768 (set TILERANK_MAX_FIELD_BYTES to change it)"],
        );
}

/// The sheet of `expands.xlsx` is 2 MB of blanks in a 4 kB file.
#[test]
fn a_zip_member_that_expands_too_far_is_refused() {
    Test::new()
        .arg("check")
        .fixture("hostile/expands.xlsx")
        .run()
        .success()
        .stderr_has("1 card accepted");
    Test::new()
        .arg("check")
        .fixture("hostile/expands.xlsx")
        .env("TILERANK_MAX_ZIP_MEMBER_BYTES", "1000000")
        .run()
        .failure(2)
        .error_at(
            "hostile/expands.xlsx",
            &["its member xl/worksheets/sheet1.xml expands to more bytes than allowed; the limit is 1000000 (set TILERANK_MAX_ZIP_MEMBER_BYTES"],
        );
}

#[test]
fn cells_per_sheet_are_limited() {
    Test::new()
        .arg("check")
        .fixture("workbooks/card.xlsx")
        .env("TILERANK_MAX_CELLS", "10")
        .run()
        .failure(2)
        .error_at(
            "workbooks/card.xlsx[Table 9]",
            &["more than 10 filled cells; the limit is 10 (set TILERANK_MAX_CELLS"],
        );
    for file in ["workbooks/card.ods", "workbooks/card.xls"] {
        Test::new()
            .arg("check")
            .fixture(file)
            .env("TILERANK_MAX_CELLS", "10")
            .run()
            .failure(2)
            .stderr_has("(set TILERANK_MAX_CELLS to change it)");
    }
    Test::new()
        .arg("check")
        .fixture("workbooks/card.xlsx")
        .env("TILERANK_MAX_CELLS", "ten")
        .run()
        .failure(2)
        .stderr_has(
            "TILERANK_MAX_CELLS=\"ten\": expected a whole number above 0 (cells per sheet)",
        );
}

/// A shared formula numbered 4,000,000,000 (calamine's expanding reader
/// would make room for that many) is one cell like any other.
#[test]
fn a_shared_formula_index_is_one_formula() {
    Test::new()
        .arg("check")
        .fixture("hostile/shared-formula-index.xlsx")
        .run()
        .failure(1)
        .stderr_has("1 card accepted, 3 games")
        .error_at(
            "hostile/shared-formula-index.xlsx[Sheet1]!A14",
            &["session is blank"],
        );
}

/// Text is counted each time it is held: one shared string of 30,000 bytes
/// named by 5,000 cells is 150 MB. Each format counts before its reader
/// copies (`.xls` shared strings, `.ods` repeated cells).
#[test]
fn text_held_per_sheet_is_limited() {
    Test::new()
        .arg("check")
        .fixture("hostile/shared-string-everywhere.xlsx")
        .run()
        .failure(2)
        .error_at(
            "hostile/shared-string-everywhere.xlsx[Sheet1]!A4474",
            &["the sheet holds more than 134217728 bytes of text by this cell; the limit is 134217728 (set TILERANK_MAX_SHEET_TEXT_BYTES"],
        );
    for file in ["workbooks/card.xls", "workbooks/card.ods"] {
        Test::new()
            .arg("check")
            .fixture(file)
            .env("TILERANK_MAX_SHEET_TEXT_BYTES", "50")
            .run()
            .failure(2)
            .error_at(
                &format!("{file}[Table 9]"),
                &[
                    "the sheet holds more than 50 bytes of text (",
                    "set TILERANK_MAX_SHEET_TEXT_BYTES",
                ],
            );
    }
}

/// The one crash fuzzing found (`workbook_xlsx`, before the fix): a
/// mutation of `shared-formula-index.xlsx` that aborted the same way.
#[test]
fn the_fuzz_crash_is_read() {
    Test::new()
        .arg("check")
        .fixture("hostile/fuzz-crash-shared-formula.xlsx")
        .run()
        .failure(1)
        .stderr_has("1 card accepted, 3 games")
        .stderr_lacks("panicked");
}

/// calamine builds an `.xls` sheet as a rectangle, after reserving what its
/// DIMENSIONS record declares: both are measured first.
#[test]
fn an_xls_too_large_to_build_is_refused() {
    Test::new()
        .arg("check")
        .fixture("hostile/far-cell.xls")
        .run()
        .failure(2)
        .error_at(
            "hostile/far-cell.xls[Table 9]",
            &["the sheet's used range holds 4294901760 cells; the limit is 4000000"],
        );
    Test::new()
        .arg("check")
        .fixture("hostile/declares-4g-rows.xls")
        .run()
        .failure(2)
        .error_at(
            "hostile/declares-4g-rows.xls[Table 9]",
            &["the sheet declares a size of 281470681677825 cells"],
        );
}

/// A cell calamine cannot read (`<v>abc</v>` in a number cell) is an error
/// at that cell; the rest of the sheet is still checked (F6 won is 2).
#[test]
fn a_bad_cell_is_an_error_at_that_cell() {
    Test::new()
        .arg("check")
        .fixture("hostile/bad-cell.xlsx")
        .run()
        .failure(1)
        .error_at(
            "hostile/bad-cell.xlsx[Sheet1]!G3",
            &["this cell cannot be read", "invalid float literal"],
        )
        .error_at("hostile/bad-cell.xlsx[Sheet1]!F6", &["game won is 2"]);
}

/// calamine panics on `card.xls` with one byte changed (each of the
/// `panic-*.xls`) and spins forever on an `.ods` cut after its first row:
/// each is an error naming the file, and the other inputs are still checked.
#[test]
fn reader_failures_are_contained_and_the_rest_is_checked() {
    Test::new()
        .args([
            "check",
            "hostile/panic-xls-633.xls",
            "hostile/cut-after-first-row.ods",
            "hostile/card-cut-6656.xls",
        ])
        .fixture("bad/check2-won-2.csv")
        .run()
        .failure(2)
        .error_at(
            "hostile/panic-xls-633.xls",
            &[
                "the workbook reader failed on this file",
                "calamine-0.38.0/src/xls.rs:633",
            ],
        )
        .error_at(
            "hostile/cut-after-first-row.ods[Table 9]",
            &["the sheet ends before its table does: the file is cut short"],
        )
        .error_at(
            "hostile/card-cut-6656.xls",
            &["not a workbook: a damaged compound document"],
        )
        .error_at("bad/check2-won-2.csv:6:6", &["won is 2"])
        .stderr_has("tilerank: 3 inputs could not be read (see above)")
        .stderr_lacks("panicked");
}

/// Each calamine panic found by fuzzing, kept as a one-byte change of
/// `workbooks/card.xls` (described in tests/fixtures/README.md).
#[test]
fn every_calamine_panic_found_is_an_error() {
    for (file, at) in [
        ("hostile/panic-utils-43.xls", "src/utils.rs:43"),
        ("hostile/panic-utils-48.xls", "src/utils.rs:48"),
        ("hostile/panic-xls-633.xls", "src/xls.rs:633"),
        ("hostile/panic-xls-1531.xls", "src/xls.rs:1531"),
    ] {
        Test::new()
            .arg("check")
            .fixture(file)
            .run()
            .failure(2)
            .error_at(file, &["the workbook reader failed on this file", at])
            .stderr_lacks("panicked");
        // a roster that cannot be read is an error at the file; the cards
        // are still checked, and the run ends with exit status 2
        Test::new()
            .args(["check", "good/went-out.csv", "--roster"])
            .fixture(file)
            .run()
            .failure(2)
            .error_at(file, &["the workbook reader failed on this file", at])
            .stderr_has("1 input could not be read (see above); nothing was decided")
            .stderr_lacks("panicked");
    }
}

fn scratch_with(extension: &str, bytes: &[u8]) -> String {
    let path = scratch(extension);
    std::fs::write(&path, bytes).unwrap();
    path.display().to_string()
}

#[test]
fn csv_lines_and_fields_are_limited() {
    // 2,000,100 bytes: 100 fields of 20,000 bytes
    let line = scratch_with(
        "csv",
        format!("{},", "x".repeat(20_000)).repeat(100).as_bytes(),
    );
    Test::new()
        .args(["check", &line])
        .run()
        .failure(2)
        .error_at(
            &format!("{line}:1"),
            &["a line of 2000100 bytes; the limit is 1048576 (set TILERANK_MAX_LINE_BYTES"],
        );
    Test::new()
        .arg("check")
        .fixture("good/went-out.csv")
        .env("TILERANK_MAX_LINE_BYTES", "30")
        .run()
        .failure(2)
        .error_at(
            "good/went-out.csv:1",
            &["a line of 46 bytes; the limit is 30"],
        );
    Test::new()
        .arg("check")
        .fixture("good/went-out.csv")
        .env("TILERANK_MAX_FIELD_BYTES", "4")
        .run()
        .failure(2)
        .error_at(
            "good/went-out.csv:1:1",
            &["a field of 7 bytes; the limit is 4 (set TILERANK_MAX_FIELD_BYTES"],
        );
}

/// A line's break is not part of its length: a CRLF file whose longest
/// line is at the limit reads the same from a file (the streaming reader)
/// and from standard input (the ordinary reader), and one byte longer is
/// over it either way, its length said without the break.
#[test]
fn a_line_at_the_limit_reads_the_same_from_a_file_and_a_pipe() {
    let text = std::fs::read_to_string(fixtures().join("good/went-out.csv"))
        .unwrap()
        .replace('\n', "\r\n");
    // (the header, 46 bytes, is the longest line)
    let file = scratch_with("csv", text.as_bytes());
    for input in [file.as_str(), "-"] {
        let out = Test::new()
            .args(["check", input])
            .env("TILERANK_MAX_LINE_BYTES", "46")
            .stdin(text.as_str())
            .run()
            .success();
        assert!(
            out.stderr.contains("1 card accepted"),
            "{input}: {}",
            out.stderr
        );
        Test::new()
            .args(["check", input])
            .env("TILERANK_MAX_LINE_BYTES", "45")
            .stdin(text.as_str())
            .run()
            .failure(2)
            .error_at(
                &if input == "-" {
                    "<stdin>:1".to_string()
                } else {
                    format!("{file}:1")
                },
                &["a line of 46 bytes; the limit is 45"],
            );
    }
}

/// A name of 32,768 characters (more than a spreadsheet cell holds) is
/// refused where it is, as cards and as a roster.
#[test]
fn long_names_are_refused_at_their_place() {
    let long = "x".repeat(32_768);
    let cards = std::fs::read_to_string(fixtures().join("good/went-out.csv"))
        .unwrap()
        .replace("P0003", &long);
    let file = scratch_with("csv", cards.as_bytes());
    Test::new()
        .args(["check", &file])
        .run()
        .failure(2)
        .error_at(
            &format!("{file}:4:5"),
            &["a player of 32768 characters; the limit is 1000 (set TILERANK_MAX_NAME_CHARS"],
        );
    Test::new()
        .args(["check", &file])
        .env("TILERANK_MAX_FIELD_BYTES", "1000")
        .run()
        .failure(2)
        .error_at(
            &format!("{file}:4:5"),
            &["a field of 32768 bytes; the limit is 1000"],
        );
    Test::new()
        .arg("check")
        .fixture("good/went-out.csv")
        .roster()
        .env("TILERANK_MAX_NAME_CHARS", "4")
        .run()
        .failure(2)
        .error_at("roster.csv:2:1", &["an id of 5 characters; the limit is 4"]);
}

/// An input with no cards at all is an error naming it (exit status 1: it
/// is listed with the other data errors), for `check` too.
#[test]
fn nothing_read_is_not_success() {
    let empty = scratch_with("csv", b"");
    let header = scratch_with("csv", b"session,table,game,seat,player,won,score,tiles\n");
    let semicolons = scratch_with("csv", ";;;;\n".repeat(20_000).as_bytes());
    Test::new()
        .args(["check", &empty])
        .run()
        .failure(1)
        .error_at(
            &empty,
            &["the file is empty: there is nothing in it to read"],
        );
    for file in [&header, &semicolons] {
        Test::new()
            .args(["check", file])
            .run()
            .failure(1)
            .error_at(file, &["no cards found"]);
    }
    // a header-only workbook
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for (col, name) in [
        "session", "table", "game", "seat", "player", "won", "score", "tiles",
    ]
    .iter()
    .enumerate()
    {
        sheet.write_string(0, col as u16, *name).unwrap();
    }
    let xlsx = scratch_with("xlsx", &book.save_to_buffer().unwrap());
    Test::new()
        .args(["check", &xlsx])
        .arg("good/went-out.csv")
        .run()
        .failure(1)
        .error_at(&xlsx, &["no cards found"])
        .stderr_has("2 files, 1 sheet: 1 card accepted");
}

/// `-o -` is standard output; a report over one of the inputs (through a
/// link too) is refused and the input is left as it was; a link is
/// written through.
#[cfg(unix)]
#[test]
fn outputs_go_where_they_should() {
    let racks = std::fs::read(fixtures().join("racks/s01.csv")).unwrap();
    let input = scratch_with("csv", &racks);
    Test::new()
        .args(["score", &input, "--format", "csv", "-o", "-"])
        .run()
        .success()
        .stdout_has("session,table,game,seat,player,won,score,tiles");
    Test::new()
        .args(["score", &input, "-o", &input])
        .run()
        .failure(2)
        .stderr_has(&format!(
            "tilerank: {input}: is one of the inputs of this run"
        ));
    assert_eq!(std::fs::read(&input).unwrap(), racks);
    let link = scratch("csv");
    std::os::unix::fs::symlink(&input, &link).unwrap();
    Test::new()
        .args(["score", &input, "-o"])
        .arg(&link)
        .run()
        .failure(2);
    assert_eq!(std::fs::read(&input).unwrap(), racks);
    let target = scratch_with("csv", b"old");
    let through = scratch("csv");
    std::os::unix::fs::symlink(&target, &through).unwrap();
    Test::new()
        .args(["score", &input, "-o"])
        .arg(&through)
        .run()
        .success();
    assert!(std::fs::symlink_metadata(&through)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&target)
        .unwrap()
        .starts_with("session,table"));
}

/// A closed standard error (`tilerank check x 2>&1 | head -1`) or output
/// ends the run quietly with its normal exit status.
#[test]
fn a_closed_output_ends_quietly() {
    use std::process::{Command, Stdio};
    let run = |args: &[&str], close_stdout: bool| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tilerank"))
            .current_dir(fixtures())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut rest = String::new();
        if close_stdout {
            drop(child.stdout.take());
            let mut kept = child.stderr.take().unwrap();
            std::io::Read::read_to_string(&mut kept, &mut rest).unwrap();
        } else {
            drop(child.stderr.take());
            let mut kept = child.stdout.take().unwrap();
            std::io::Read::read_to_string(&mut kept, &mut rest).unwrap();
        }
        (child.wait().unwrap().code(), rest)
    };
    let (status, _) = run(&["check", "bad/three-errors.csv"], false);
    assert_eq!(status, Some(1));
    let (status, _) = run(&["check", "good/went-out.csv"], false);
    assert_eq!(status, Some(0));
    let (status, stderr) = run(
        &["score", "racks/s01.csv", "--format", "csv", "-o", "-"],
        true,
    );
    assert_eq!(status, Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any bytes into each reader's entry point (the one the fuzz targets
    /// call): never a panic, and a file that cannot be read is named.
    #[test]
    fn any_bytes_into_each_reader(
        bytes in prop::collection::vec(any::<u8>(), 0..400),
        name in prop::sample::select(&["x.csv", "x.xlsx", "x.xls", "x.ods", "x.tsv"][..]),
    ) {
        let limits = Limits::default();
        let mut problems = Problems::new();
        let inputs = cards_from_bytes(name, bytes.clone(), &limits, &mut problems);
        prop_assert!(inputs.cards.len() + inputs.rack_cards.len() > 0 || problems.has_errors());
        for p in problems.iter() {
            prop_assert_eq!(&*p.place.source.file, name);
        }
        let mut problems = Problems::new();
        let _ = tilerank::ingest::roster::from_bytes(name, bytes, &limits, &mut problems);
    }

    /// The workbook fixtures with bytes changed or cut: never a panic out
    /// of the reader, and every problem names the file.
    #[test]
    fn mutated_workbooks_never_panic(
        file in prop::sample::select(&["workbooks/card.xls", "workbooks/card.xlsx", "workbooks/card.ods"][..]),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..8),
        cut in any::<prop::sample::Index>(),
        do_cut in any::<bool>(),
    ) {
        let mut bytes = std::fs::read(fixtures().join(file)).unwrap();
        for (at, value) in edits {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        if do_cut {
            bytes.truncate(cut.index(bytes.len()));
        }
        let mut problems = Problems::new();
        let limits = Limits { read_seconds: 5, ..Limits::default() };
        let _ = cards_from_bytes(file, bytes, &limits, &mut problems);
        for p in problems.iter() {
            prop_assert_eq!(&*p.place.source.file, file);
        }
    }
}

/// `export -o -` is standard output, like every report's; a workbook
/// written through `-o` never replaces a file the run read.
#[test]
fn export_writes_to_standard_output_and_never_over_an_input() {
    let out = Test::new()
        .args([
            "export",
            "good/hk-examples.csv",
            "--format",
            "csv",
            "-o",
            "-",
        ])
        .run()
        .success();
    assert!(
        out.stdout
            .starts_with("Standings prelim\nrank,player,name,"),
        "{}",
        out.stdout
    );
    assert!(!fixtures().join("-").exists(), "no file named -");
    let dir = std::env::temp_dir().join(format!("tilerank-export-over-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("cards.csv");
    std::fs::copy(fixtures().join("good/hk-examples.csv"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    Test::new()
        .arg("export")
        .arg(&input)
        .args(["--format", "csv", "-o"])
        .arg(&input)
        .run()
        .failure(2);
    assert_eq!(
        std::fs::read(&input).unwrap(),
        before,
        "the input is untouched"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An import of a file that cannot be read at all ends with exit status 2
/// and stores nothing from it, as every command does with such a file.
#[test]
fn importing_an_unreadable_workbook_is_exit_status_2() {
    let dir = std::env::temp_dir().join(format!("tilerank-import-broken-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    Test::new()
        .args(["init", "--name", "Broken"])
        .arg(&dir)
        .run()
        .success();
    Test::new()
        .args(["roster", "roster.csv", "--event"])
        .arg(&dir)
        .run()
        .success();
    Test::new()
        .args(["import", "hostile/card-cut-6656.xls", "--event"])
        .arg(&dir)
        .run()
        .failure(2)
        .stderr_has("hostile/card-cut-6656.xls: error: cannot be read")
        .stderr_has("1 file: 0 imported (0 cards), 1 with errors: nothing imported from it")
        .stderr_has("1 file could not be read (see above)");
    Test::new()
        .args(["log", "--event"])
        .arg(&dir)
        .args(["--format", "csv"])
        .run()
        .success()
        .stdout_lacks("card-cut-6656");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Keep going, then decide: a roster that cannot be read is an error at
/// the file like any other, the cards are still checked and every problem
/// listed, and the run ends with exit status 2.
#[test]
fn an_unreadable_roster_still_lets_the_cards_be_checked() {
    Test::new()
        .args(["check", "bad/check2-won-2.csv", "--roster"])
        .fixture("hostile/card-cut-6656.xls")
        .run()
        .failure(2)
        .stderr_has("hostile/card-cut-6656.xls: error: cannot be read")
        .error_at("bad/check2-won-2.csv:6:6", &["game won is 2"])
        .stderr_has("1 input could not be read (see above); nothing was decided");
}

/// A pipe that never ends writes `block` to the FIFO `fifo` until the
/// reader goes: the writer, to be ended by [`end_fifo`].
#[cfg(target_os = "linux")]
fn endless_fifo(fifo: &Path, block: &'static [u8]) -> std::thread::JoinHandle<()> {
    let status = std::process::Command::new("mkfifo")
        .arg(fifo)
        .status()
        .unwrap();
    assert!(status.success(), "mkfifo");
    let fifo = fifo.to_path_buf();
    std::thread::spawn(move || {
        use std::io::Write;
        let Ok(mut pipe) = std::fs::OpenOptions::new().write(true).open(&fifo) else {
            return;
        };
        // (the reader gone, a write fails: SIGPIPE is ignored in Rust)
        while pipe.write_all(block).is_ok() {}
    })
}

/// Ends the writer of [`endless_fifo`], whether or not anything read the
/// FIFO: a reader opens it and goes at once.
#[cfg(target_os = "linux")]
fn end_fifo(fifo: &Path, writer: std::thread::JoinHandle<()>) {
    use std::os::unix::fs::OpenOptionsExt;
    while !writer.is_finished() {
        let reader = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(fifo);
        drop(reader);
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    writer.join().unwrap();
}

/// A source that never ends (a FIFO fed for ever) is refused as it is
/// read, as cards and as a roster: at its first line too long, or, lines
/// short, at the bytes one input may hold; never held whole.
#[cfg(target_os = "linux")]
#[test]
fn a_source_that_never_ends_is_refused_as_it_is_read() {
    let s = crate::test::Scratch::new("fifo");
    let cases: [(&str, &'static [u8], &[&str]); 2] = [
        (
            "zeros",
            &[0u8; 4096],
            &["a line of more than 1000 bytes; the limit is 1000 (set TILERANK_MAX_LINE_BYTES to change it)"],
        ),
        (
            "lines",
            b"S01,7,1,A,P0001,1,+30,0\n",
            &["a file of more than 200000 bytes, read whole; the limit is 200000 (set TILERANK_MAX_FILE_BYTES to change it)"],
        ),
    ];
    for (name, block, words) in cases {
        for roster in [false, true] {
            let fifo = s.path(&format!("{name}-{roster}"));
            let shown = fifo.display().to_string();
            let writer = endless_fifo(&fifo, block);
            let run = if roster {
                Test::new()
                    .arg("check")
                    .fixture("good/went-out.csv")
                    .args(["--roster", &shown])
            } else {
                Test::new().args(["check", &shown])
            };
            let out = run
                .env("TILERANK_MAX_LINE_BYTES", "1000")
                .env("TILERANK_MAX_FILE_BYTES", "200000")
                .run();
            end_fifo(&fifo, writer);
            let place = if name == "zeros" {
                format!("{shown}:1")
            } else {
                shown.clone()
            };
            out.failure(2).error_at(&place, words);
        }
    }
}

/// A regular file of one line far over the limit is refused at that line
/// by every command that reads a file (its line read to its end, not
/// held), and so is the same line from standard input.
#[test]
fn a_long_line_is_refused_by_every_reading_command() {
    let mut text = b"session,table,game,seat,player,won,score,tiles\n".to_vec();
    text.extend(std::iter::repeat_n(b'7', 3 << 20));
    text.extend(b"\nS01,7,1,A,P0001,1,+30,0\n");
    let file = scratch_with("csv", &text);
    let message = [
        "a line of 3145728 bytes; the limit is 1048576 (set TILERANK_MAX_LINE_BYTES to change it)",
    ];
    for command in ["check", "standings", "qualifiers"] {
        Test::new()
            .args([command, &file])
            .run()
            .failure(2)
            .error_at(&format!("{file}:2"), &message);
    }
    Test::new()
        .args(["check", "-"])
        .stdin(text.clone())
        .run()
        .failure(2)
        .error_at("<stdin>:2", &["a line of more than 1048576 bytes"]);
    Test::new()
        .arg("check")
        .fixture("good/went-out.csv")
        .args(["--roster", &file])
        .run()
        .failure(2)
        .error_at(&format!("{file}:2"), &message);
    let s = crate::test::Scratch::new("long-line");
    let d = s.0.join("event").display().to_string();
    Test::new()
        .args(["init", &d, "--name", "Long Line"])
        .run()
        .success();
    // (a file that cannot be read: exit status 2, as every command says it)
    let out = Test::new().args(["roster", &file, "--event", &d]).run();
    assert_eq!(out.status, Some(2), "{}", out.stderr);
    out.error_at(&format!("{file}:2"), &message)
        .stderr_has(&format!("tilerank: {file} could not be read (see above)"));
    let roster = fixtures().join("roster.csv").display().to_string();
    Test::new()
        .args(["roster", &roster, "--event", &d])
        .run()
        .success();
    Test::new()
        .args(["import", &file, "--event", &d])
        .run()
        .failure(2)
        .error_at(&format!("{file}:2"), &message);
}
