//! Input as spreadsheet programs and people really write it (FORMATS.md:
//! "Every input may be CSV (UTF-8 with or without BOM, or the legacy
//! encoding a spreadsheet program wrote; `,` `;` or tab)").
//!
//! The legacy-encoded fixtures are committed as bytes (written with
//! Python's `str.encode('cp1252')` and `str.encode('big5')`), so the tests
//! read what a spreadsheet program would have saved.

use crate::test::{fixtures, Output, Test};

/// The standings of `good/went-out.csv` (session 1 table 7), whatever the
/// spelling of the file.
const WENT_OUT_STANDINGS: &str = "\
rank,player,name,group,games,won,avg_score,total_score,tiles,status,note
1,P0001,Chan Tai Man,,3,2,17.33,52,4,Q,
2,P0002,Lee Siu Ming,,3,2,5.67,17,4,Q,
3,P0003,Wong Ka Yan,,3,0,-11.33,-34,7,Q,
4,P0004,Cheung Mei Ling,,3,0,-11.67,-35,12,Q,
";

fn standings(fixture: &str, roster: &str) -> Output {
    Test::new()
        .args(["standings", "--format", "csv", "--roster"])
        .fixture(roster)
        .fixture(fixture)
        .run()
        .success()
        .errors(0)
}

#[test]
fn utf8_with_a_bom_and_crlf_line_ends() {
    let bytes = std::fs::read(fixtures().join("real-world/bom-crlf.csv")).unwrap();
    assert!(
        bytes.starts_with(b"\xEF\xBB\xBFsession,"),
        "the fixture has a BOM"
    );
    standings("real-world/bom-crlf.csv", "roster.csv").stdout_is(WENT_OUT_STANDINGS);
}

#[test]
fn an_error_in_a_bom_file_names_the_right_line_and_column() {
    Test::new()
        .arg("check")
        .stdin(
            std::fs::read_to_string(fixtures().join("real-world/bom-crlf.csv"))
                .unwrap()
                .replace("S01,7,2,A,P0001,0,+11,3", "S01,7,2,A,P0001,0,+11,y"),
        )
        .arg("-")
        .run()
        .failure(1)
        .errors(1)
        .error_at("<stdin>:6:8", &["tiles is \"y\""]);
}

/// European Excel: `;` between fields and a decimal comma. Game 2 is a pot
/// split between two leaders (6,5 each), game 3 between three (3,33 each,
/// exactly 10/3, so the game sums to zero).
#[test]
fn semicolons_and_decimal_commas() {
    let out = standings("real-world/semicolon-decimal-comma.csv", "roster.csv");
    assert_eq!(out.column("player"), ["P0005", "P0006", "P0007", "P0008"]);
    // 30 + 6.5 + 10/3 = 39.83; 13.28 a game
    assert_eq!(
        out.column("total_score"),
        ["39.83", "4.83", "-13.67", "-31"]
    );
    assert_eq!(
        out.column("avg_score"),
        ["13.28", "1.61", "-4.56", "-10.33"]
    );
}

/// The same file as a program writes it at full precision (pandas, or
/// LibreOffice's CSV with "Save cell contents as shown" off): `3,33` is
/// `3,33333333333333`, rounded at its sixth decimal to the third it shows.
#[test]
fn thirds_written_at_full_precision() {
    let text =
        std::fs::read_to_string(fixtures().join("real-world/semicolon-decimal-comma.csv")).unwrap();
    assert!(text.contains(";3,33;"));
    let full = text.replace(";3,33;", ";3,33333333333333;");
    let out = Test::new()
        .args(["standings", "--format", "csv", "--roster"])
        .fixture("roster.csv")
        .arg("-")
        .stdin(full)
        .run()
        .success()
        .errors(0);
    assert_eq!(
        out.column("total_score"),
        ["39.83", "4.83", "-13.67", "-31"]
    );
}

/// A printed score card saved by LibreOffice as CSV, cell contents not as
/// shown: a pot shared by three is `21.3333333333333` in each leader's
/// cell and the `Total` line carries the same 13 decimals. The card is
/// accepted, as the workbook it came from is.
#[test]
fn a_printed_card_saved_at_full_precision() {
    let roster = fixtures().join("../../examples/hk-2026/roster.csv");
    Test::new()
        .args(["check", "--roster"])
        .arg(roster)
        .fixture("real-world/libreoffice-full-precision.csv")
        .run()
        .success()
        .errors(0)
        .stderr_has("1 file: 1 card accepted, 3 games; 0 errors");
}

#[test]
fn tab_separated_with_printed_header_spellings() {
    standings("real-world/tab-separated.tsv", "roster.csv").stdout_is(WENT_OUT_STANDINGS);
}

/// `30.0`, `+30`, `1.0`, `4.0`, the Unicode minus `−5` and `−15.0`, spaces
/// around ` -10 `: all numbers stored as text, all accepted.
#[test]
fn numbers_as_people_type_them() {
    let text = std::fs::read_to_string(fixtures().join("real-world/number-spellings.csv")).unwrap();
    assert!(text.contains('\u{2212}'), "the fixture has a Unicode minus");
    standings("real-world/number-spellings.csv", "roster.csv").stdout_is(WENT_OUT_STANDINGS);
}

/// A Windows-1252 roster (not UTF-8), and a card naming its players by
/// name in other case and spacing: the names must decode to match.
#[test]
fn a_windows_1252_roster() {
    let bytes = std::fs::read(fixtures().join("real-world/roster-cp1252.csv")).unwrap();
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "the fixture is not UTF-8"
    );
    let out = standings(
        "real-world/names-cp1252-roster.csv",
        "real-world/roster-cp1252.csv",
    );
    assert_eq!(
        out.column("name"),
        [
            "José Müller",
            "Zoë Ångström",
            "François Lefèvre",
            "Søren Østergård"
        ]
    );
    assert_eq!(out.column("player"), ["E001", "E002", "E003", "E004"]);
    assert!(
        out.stderr
            .contains("roster-cp1252.csv:2: note: not UTF-8: read as windows-1252 (the first byte that is not UTF-8 is 0xE9, character 9 of this line: mend it, if the rest of the file is UTF-8); if names look garbled,"),
        "{}",
        out.stderr
    );
}

/// `text` as UTF-16 without a byte-order mark, little- or big-endian.
fn utf16(text: &str, little: bool) -> Vec<u8> {
    text.encode_utf16()
        .flat_map(|u| {
            if little {
                u.to_le_bytes()
            } else {
                u.to_be_bytes()
            }
        })
        .collect()
}

/// A card saved as UTF-16LE and a roster as UTF-16BE, neither with a
/// byte-order mark (Notepad's and some exports' "Unicode"): read as
/// UTF-16, and a note names each one's encoding.
#[test]
fn utf16_without_a_byte_order_mark() {
    let scratch = crate::test::Scratch::new("utf16");
    let read = |name: &str| std::fs::read_to_string(fixtures().join(name)).unwrap();
    let card = scratch.path("card-utf16le.csv");
    let roster = scratch.path("roster-utf16be.csv");
    std::fs::write(&card, utf16(&read("good/went-out.csv"), true)).unwrap();
    std::fs::write(&roster, utf16(&read("roster.csv"), false)).unwrap();
    let out = Test::new()
        .args(["standings", "--format", "csv", "--roster"])
        .arg(&roster)
        .arg(&card)
        .run()
        .success()
        .errors(0)
        .stdout_is(WENT_OUT_STANDINGS);
    for (file, encoding) in [
        ("card-utf16le.csv", "UTF-16LE"),
        ("roster-utf16be.csv", "UTF-16BE"),
    ] {
        assert!(
            out.stderr.contains(&format!("{file}: note: not UTF-8: read as {encoding}; if names look garbled, save the file as CSV UTF-8 and read it again")),
            "{}",
            out.stderr
        );
    }
}

/// A file with UTF-16's NULs that is not UTF-16 throughout (a byte lost
/// at its end) is not read, and says what it looks like and what to do;
/// a stray NUL in a UTF-8 card is a control character at its cell.
#[test]
fn nuls_that_are_not_utf16_throughout() {
    let scratch = crate::test::Scratch::new("utf16-cut");
    let card = std::fs::read_to_string(fixtures().join("good/went-out.csv")).unwrap();
    let mut bytes = utf16(&card, true);
    bytes.pop();
    let cut = scratch.path("cut.csv");
    std::fs::write(&cut, bytes).unwrap();
    let out = Test::new().arg("check").roster().arg(&cut).run().failure(2);
    assert!(
        out.stderr.contains("cut.csv: error: cannot be read: looks like UTF-16LE without a byte-order mark (a NUL byte beside each letter), but is not UTF-16LE throughout; save it as CSV UTF-8 in the spreadsheet program and read it again"),
        "{}",
        out.stderr
    );
    Test::new()
        .arg("check")
        .roster()
        .arg("-")
        .stdin(card.replacen("P0002", "P00\u{0}02", 1))
        .run()
        .failure(1)
        .error_at(
            "<stdin>:3:5",
            &["\"P00<U+0000 control character>02\" is not on the roster"],
        );
}

/// A roster in GBK with one Chinese name: too few letters that are not
/// ASCII to tell GBK from Big5 surely, and the note says the encoding is a
/// guess from them, with what to do when names look garbled.
#[test]
fn a_roster_with_one_gbk_name() {
    let scratch = crate::test::Scratch::new("one-gbk-name");
    let roster = scratch.path("roster-gbk.csv");
    let (bytes, _, _) = encoding_rs::GBK.encode(
        "id,name\nP0001,陳大文\nP0002,Lee Siu Ming\nP0003,Wong Ka Yan\nP0004,Cheung Mei Ling\n",
    );
    std::fs::write(&roster, bytes).unwrap();
    let out = Test::new()
        .args(["standings", "--format", "csv", "--roster"])
        .arg(&roster)
        .fixture("good/went-out.csv")
        .run()
        .success()
        .errors(0);
    assert_eq!(out.column("name")[0], "陳大文");
    assert!(
        out.stderr.contains("roster-gbk.csv:2: note: not UTF-8: read as GBK (the first byte that is not UTF-8 is 0xF3, character 8 of this line: mend it, if the rest of the file is UTF-8); if names look garbled, save the file as CSV UTF-8 and read it again (the encoding is guessed from the letters that are not ASCII, and this file has few of them: a name or two can read as names in more than one encoding)"),
        "{}",
        out.stderr
    );
}

/// A Big5 score card (a 3-player table, the D columns empty, Chinese names
/// and labels) with a Big5 roster.
#[test]
fn a_big5_score_card_and_roster() {
    let bytes = std::fs::read(fixtures().join("real-world/scorecard-big5.csv")).unwrap();
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "the fixture is not UTF-8"
    );
    let out = standings(
        "real-world/scorecard-big5.csv",
        "real-world/roster-big5.csv",
    );
    assert_eq!(out.column("name"), ["陳大文", "李小明", "黃志強"]);
    assert_eq!(out.column("player"), ["H001", "H002", "H003"]);
    // each file's encoding is said, for a wrong judgement to be seen, at
    // the file's first byte that is not UTF-8
    for (file, first) in [
        ("scorecard-big5.csv:1", "0xAD, character 1"),
        ("roster-big5.csv:2", "0xB3, character 6"),
    ] {
        assert!(
            out.stderr.contains(&format!("{file}: note: not UTF-8: read as Big5 (the first byte that is not UTF-8 is {first} of this line: mend it, if the rest of the file is UTF-8); if names look garbled, save the file as CSV UTF-8 and read it again")),
            "{}",
            out.stderr
        );
    }
    assert_eq!(out.column("won"), ["2", "1", "0"]);
    assert_eq!(out.column("total_score"), ["26", "8", "-34"]);
}

/// The same Big5 card against the UTF-8 roster: the Chinese names of the
/// card match those of a roster in another encoding.
#[test]
fn big5_names_match_a_utf8_roster() {
    let out = standings("real-world/scorecard-big5.csv", "roster.csv");
    assert_eq!(out.column("player"), ["P0005", "P0006", "P0007"]);
}

/// An error in a Big5 card quotes the name decoded, at its cell.
#[test]
fn an_unknown_chinese_name_is_quoted_decoded() {
    Test::new()
        .args(["check", "--roster"])
        .fixture("real-world/roster-cp1252.csv")
        .fixture("real-world/scorecard-big5.csv")
        .run()
        .failure(1)
        .error_at(
            "real-world/scorecard-big5.csv:5:2",
            &["\"陳大文\"", "not on the roster"],
        )
        .error_at("real-world/scorecard-big5.csv:5:8", &["\"黃志強\""]);
}

/// Two blank columns on the left, blank rows between the blocks, the
/// session and table labels with their values in the same cell or further
/// along the row, `Game won`/`Tile on Rack` spellings, names in lower case.
#[test]
fn a_score_card_with_blank_rows_and_offset_columns() {
    let out = standings("real-world/scorecard-offset.csv", "roster.csv");
    assert_eq!(out.column("player"), ["P0010", "P0011", "P0008", "P0012"]);
    assert_eq!(out.column("total_score"), ["39", "16", "-19", "-36"]);
}

/// Places in an offset card count the blank rows and columns.
#[test]
fn places_in_an_offset_card_are_the_real_cells() {
    let text = std::fs::read_to_string(fixtures().join("real-world/scorecard-offset.csv")).unwrap();
    let text = text.replace(",,Game 3,0,-20,5,", ",,Game 3,0,-20,five,");
    Test::new()
        .args(["check", "--roster"])
        .fixture("roster.csv")
        .arg("-")
        .stdin(text)
        .run()
        .failure(1)
        .errors(1)
        .error_at("<stdin>:14:6", &["tiles is \"five\""]);
}

/// Seat D is blank in game 3: the game counts with A, B and C; D is
/// listed apart as withdrawn (W), without a rank.
#[test]
fn a_withdrawn_player_is_listed_apart() {
    let out = standings("scorecard/withdrawn.csv", "roster.csv");
    assert_eq!(out.column("player"), ["P0001", "P0002", "P0003", "P0004"]);
    assert_eq!(out.column("rank"), ["1", "2", "3", ""]);
    assert_eq!(out.column("status"), ["Q", "Q", "Q", "W"]);
    assert_eq!(out.column("games"), ["3", "3", "3", "2"]);
    Test::new()
        .arg("standings")
        .fixture("scorecard/withdrawn.csv")
        .roster()
        .run()
        .success()
        .stdout_has("3 ranked, 1 apart")
        .stdout_has("W withdrawn");
}

/// A workbook with the cards on a visible sheet and an old copy of them,
/// with other scores, on a hidden one (and a hidden roster sheet in the
/// roster's workbook): what is hidden is not read, and a warning names
/// each hidden sheet.
#[test]
fn a_hidden_sheet_is_not_read_and_is_named() {
    use crate::test::Scratch;
    let csv = std::fs::read_to_string(fixtures().join("good/hk-examples.csv")).unwrap();
    let mut book = rust_xlsxwriter::Workbook::new();
    // (the first sheet is the one a workbook opens on: it cannot be hidden)
    for (name, hidden, bump) in [("Cards", false, 0.0), ("Old", true, 5.0)] {
        let sheet = book.add_worksheet().set_name(name).unwrap();
        for (r, line) in csv.lines().enumerate() {
            for (c, value) in line.split(',').enumerate() {
                let (r, c) = (r as u32, c as u16);
                match value.parse::<f64>() {
                    // (the old copy's scores are off: it would change the
                    // standings, or give each table twice)
                    Ok(n) if c == 6 && r > 0 => sheet.write_number(r, c, n + bump),
                    _ => sheet.write_string(r, c, value),
                }
                .unwrap();
            }
        }
        sheet.set_hidden(hidden);
    }
    let mut roster_book = rust_xlsxwriter::Workbook::new();
    let roster = std::fs::read_to_string(fixtures().join("roster.csv")).unwrap();
    for (name, hidden) in [("Players", false), ("Lookup", true)] {
        let sheet = roster_book.add_worksheet().set_name(name).unwrap();
        for (r, line) in roster.lines().enumerate() {
            for (c, value) in line.split(',').enumerate() {
                sheet.write_string(r as u32, c as u16, value).unwrap();
            }
        }
        sheet.set_hidden(hidden);
    }
    let scratch = Scratch::new("hidden-sheet");
    let (cards, players) = (scratch.path("S01.xlsx"), scratch.path("roster.xlsx"));
    book.save(&cards).unwrap();
    roster_book.save(&players).unwrap();
    let out = Test::new()
        .args(["standings", "--format", "csv", "--roster"])
        .arg(&players)
        .arg(&cards)
        .run()
        .success()
        .errors(0)
        .warnings(2)
        .stderr_has("S01.xlsx[Old]: warning: the sheet is hidden in the workbook: not read (unhide it, in the spreadsheet program, to have it read)")
        .stderr_has("roster.xlsx[Lookup]: warning: the sheet is hidden in the workbook: not read");
    assert_eq!(out.column("total_score"), ["52", "17", "-34", "-35"]);
}

/// A file named twice is read once: by a folder and by its own name, as
/// `./x` and `x`, and an event folder of files given its own `cards/`
/// again (the nvso demo). Each card is not "given twice".
#[test]
fn a_file_named_twice_is_read_once() {
    let file = fixtures().join("good/hk-examples.csv");
    let folder = fixtures().join("good");
    let once = Test::new()
        .args(["standings", "--format", "csv", "--roster"])
        .fixture("roster.csv")
        .arg(&file)
        .run()
        .success();
    let twice = Test::new()
        .args(["standings", "--format", "csv", "--roster"])
        .fixture("roster.csv")
        .arg(&file)
        .arg(folder.join(".").join("hk-examples.csv"))
        .run()
        .success()
        .errors(0);
    assert_eq!(twice.stdout, once.stdout);

    let scratch = crate::test::Scratch::new("named-twice");
    let event = scratch.path("nvso");
    crate::test::copy_dir(&crate::publish::example("nvso-2023"), &event);
    let own = Test::new()
        .in_dir(&event)
        .args(["standings", "--format", "csv"])
        .run()
        .success();
    let again = Test::new()
        .in_dir(&event)
        .args([
            "standings",
            "--format",
            "csv",
            "cards/",
            "--roster",
            "roster.csv",
        ])
        .run()
        .success()
        .errors(0);
    assert_eq!(again.stdout, own.stdout);
}

/// One stray byte that is not UTF-8 (a Latin-1 `é` typed on line 5 of a
/// UTF-8 roster of Chinese names) makes the file be read in a legacy
/// encoding: the note is said at that line and names the byte and its
/// character of the line, to be mended there.
#[test]
fn a_stray_byte_that_is_not_utf8_is_named_by_its_line() {
    let scratch = crate::test::Scratch::new("stray-byte");
    let roster = scratch.path("roster.csv");
    let mut bytes = "id,name\nP0001,陳大文\nP0002,李小明\nP0003,黃志強\nP0004,Jos"
        .as_bytes()
        .to_vec();
    bytes.extend_from_slice(b"\xe9 Wong\n");
    std::fs::write(&roster, bytes).unwrap();
    let out = Test::new()
        .args(["check", "--roster"])
        .arg(&roster)
        .fixture("good/went-out.csv")
        .run();
    let note = format!(
        "{}:5: note: not UTF-8: read as windows-1252 (the first byte that is not UTF-8 is 0xE9, character 10 of this line: mend it, if the rest of the file is UTF-8); if names look garbled, save the file as CSV UTF-8 and read it again\n",
        roster.display()
    );
    assert!(out.stderr.starts_with(&note), "{}", out.stderr);
}

/// A CSV file with a byte-order mark, UTF-16 or UTF-8, is read in the
/// encoding the mark names: it is sure, and nothing is noted.
#[test]
fn a_byte_order_mark_is_sure_and_not_noted() {
    let scratch = crate::test::Scratch::new("bom");
    let text = std::fs::read_to_string(fixtures().join("roster.csv")).unwrap();
    let names = text.replace("P0001,", "P0001,陳大文 ");
    for (name, bytes) in [
        (
            "utf16le.csv",
            [&[0xFF, 0xFE][..], &utf16(&names, true)].concat(),
        ),
        (
            "utf16be.csv",
            [&[0xFE, 0xFF][..], &utf16(&names, false)].concat(),
        ),
        (
            "utf8.csv",
            [&[0xEF, 0xBB, 0xBF][..], names.as_bytes()].concat(),
        ),
    ] {
        let roster = scratch.path(name);
        std::fs::write(&roster, bytes).unwrap();
        let out = Test::new()
            .args(["check", "--roster"])
            .arg(&roster)
            .fixture("good/went-out.csv")
            .run()
            .success();
        assert_eq!(out.stderr, "1 file: 1 card accepted, 3 games; 0 errors\n");
    }
}
