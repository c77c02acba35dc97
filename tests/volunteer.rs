//! A data-entry volunteer's mistakes, each named at the cell to fix in
//! words that need no knowledge of file formats: a number stored as text
//! under the sheet's own `=SUM` total, a merged value cell, an id one digit
//! or one swap away from a roster id, an empty file, a photo of a card, a
//! folder mixing good and bad files.
//!
//! The workbooks in `tests/fixtures/volunteer/` are written the way a
//! spreadsheet library writes them (rust_xlsxwriter: a text cell, a merged
//! range, `=SUM` totals with their saved values) by
//! `the_volunteer_fixtures_are_made_here`, which checks the committed files
//! are what it makes (`TILERANK_WRITE_FIXTURES=1 cargo test
//! volunteer_fixtures` writes them again), then saved by LibreOffice as `.ods` and
//! `.xls` (`tests/fixtures/workbooks/make.sh`); the tests read the
//! committed files.

use crate::test::{fixtures, Scratch, Test};

/// `scorecard/good.csv` (session 1 table 7, P0001..P0004) as the printed
/// card's cells: rows 1..13, columns A..M; game 1 on row 8, game 3 on row
/// 10, the Total on row 11.
fn good_card() -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(fixtures().join("scorecard/good.csv")).unwrap();
    text.lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

/// The card as a workbook: numbers as numbers, except the cells of `text`
/// (row, column, 0-based) typed as text; the Total row as `=SUM` formulas
/// whose saved values are what a spreadsheet computes (text left out);
/// `merged` ranges keep their first cell's value; the card is of session
/// `session`.
fn card_xlsx(session: u32, text: &[(u32, u16, &str)], merged: &[(u32, u16, u32, u16)]) -> Vec<u8> {
    let mut cells = good_card();
    // B4: the session number
    cells[3][1] = session.to_string();
    for &(r, c, t) in text {
        cells[r as usize][c as usize] = t.to_string();
    }
    cells_xlsx(cells, text, merged)
}

/// A card's `cells` as [`card_xlsx`] writes them (a Total cell that is
/// not empty as `=SUM` of the games above it).
fn cells_xlsx(
    cells: Vec<Vec<String>>,
    text: &[(u32, u16, &str)],
    merged: &[(u32, u16, u32, u16)],
) -> Vec<u8> {
    use rust_xlsxwriter::{Format, Formula, Workbook};
    let is_text = |r: u32, c: u16| text.iter().any(|&(tr, tc, _)| (tr, tc) == (r, c));
    let covered = |r: u32, c: u16| {
        merged.iter().any(|&(r0, c0, r1, c1)| {
            (r0..=r1).contains(&r) && (c0..=c1).contains(&c) && (r, c) != (r0, c0)
        })
    };
    let mut book = Workbook::new();
    // a fixed date in the document's properties: the same bytes every time
    let date = rust_xlsxwriter::ExcelDateTime::from_ymd(2026, 3, 28).unwrap();
    book.set_properties(&rust_xlsxwriter::DocProperties::new().set_creation_datetime(&date));
    let sheet = book.add_worksheet();
    sheet.set_name("Table 07").unwrap();
    for &(r0, c0, r1, c1) in merged {
        sheet
            .merge_range(r0, c0, r1, c1, "", &Format::new())
            .unwrap();
    }
    let total_row = 10u32;
    for (r, row) in cells.iter().enumerate() {
        let r = r as u32;
        for (c, value) in row.iter().enumerate() {
            let c = c as u16;
            if value.is_empty() || covered(r, c) {
                continue;
            }
            if r == total_row && c > 0 {
                let col = rust_xlsxwriter::utility::column_number_to_name(c);
                let sum: f64 = (7..total_row)
                    .filter(|&g| !is_text(g, c) && !covered(g, c))
                    .filter_map(|g| cells[g as usize][c as usize].parse::<f64>().ok())
                    .sum();
                let formula =
                    Formula::new(format!("=SUM({col}8:{col}10)")).set_result(sum.to_string());
                sheet.write_formula(r, c, formula).unwrap();
            } else if (7..total_row).contains(&r) && c > 0 && !is_text(r, c) {
                sheet
                    .write_number(r, c, value.parse::<f64>().unwrap())
                    .unwrap();
            } else {
                sheet.write_string(r, c, value).unwrap();
            }
        }
    }
    book.save_to_buffer().unwrap()
}

/// A PNG of one white pixel: what a phone's photo of a card starts with.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xDE, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41, 0x54, 0x08, 0xD7, 0x63, 0xF8, 0xFF, 0xFF, 0x3F,
    0x00, 0x05, 0xFE, 0x02, 0xFE, 0xDC, 0xCC, 0x59, 0xE7, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E,
    0x44, 0xAE, 0x42, 0x60, 0x82,
];

/// The committed `tests/fixtures/volunteer/` files are what this makes
/// (`TILERANK_WRITE_FIXTURES=1 cargo test volunteer_fixtures` writes them
/// again; the `.ods` and `.xls` copies come from `workbooks/make.sh`).
#[test]
fn the_volunteer_fixtures_are_made_here() {
    let dir = fixtures().join("volunteer");
    let again = std::env::var_os("TILERANK_WRITE_FIXTURES").is_some();
    if again {
        std::fs::create_dir_all(dir.join("mixed")).unwrap();
    }
    let write = |name: &str, bytes: &[u8]| {
        if again {
            std::fs::write(dir.join(name), bytes).unwrap();
        } else {
            let committed = std::fs::read(dir.join(name)).unwrap();
            assert!(
                committed == bytes,
                "tests/fixtures/volunteer/{name} is not what this test makes"
            );
        }
    };
    // I10: seat C's game 3 score, typed with a Unicode minus: text
    // (each mistake in a session of its own: 1, 2, 3)
    write("text-under-sum.xlsx", &card_xlsx(1, &[(9, 8, "−12")], &[]));
    // M8:M9: seat D's tiles of games 1 and 2 (4 and 4) merged
    write("merged-tiles.xlsx", &card_xlsx(2, &[], &[(7, 12, 8, 12)]));
    let good = std::fs::read_to_string(fixtures().join("scorecard/good.csv")).unwrap();
    // seat C: P0100, for P0010 (two digits swapped) or P0001
    let near = good.replace(",P0003,", ",P0100,");
    write(
        "near-id.csv",
        near.replace("Session number:,1,", "Session number:,3,")
            .as_bytes(),
    );
    write("empty.xlsx", b"");
    write("card-photo.png", PNG);
    write("mixed/S01-T07.csv", good.as_bytes());
    write("mixed/S01-T08.xlsx", b"");
    write(
        "mixed/notes.txt",
        b"Table 8: Mrs Chan left early, ask the referee\n",
    );
}

/// The workbook as written by the library (`.xlsx`) and as LibreOffice
/// saves it (`.ods`, `.xls`).
const BOOKS: [&str; 3] = ["xlsx", "ods", "xls"];

#[test]
fn a_number_stored_as_text_under_a_sum_is_named_at_its_cell() {
    for ext in BOOKS {
        let book = format!("volunteer/text-under-sum.{ext}");
        Test::new()
            .arg("check")
            .fixture(&book)
            .roster()
            .run()
            .failure(1)
            .errors(1)
            .error_at(
                &format!("{book}[Table 07]!I10"),
                &[
                    "score −12 is stored as text, not as a number",
                    "the sheet's Total in I11 leaves it out (-22; the games add up to -34)",
                    "type it again as a number with the ordinary minus sign -",
                ],
            );
    }
}

/// A card of three players on a template whose Total row sums every
/// seat's column: seat D's Total shows 0 (`=SUM` of nothing), which is no
/// value typed, and the card is accepted. A score typed in seat D with no
/// player is still an error at its cell.
#[test]
fn an_empty_seats_sum_of_nothing_is_no_value() {
    let mut cells = good_card();
    let games = [
        ["1", "+15", "0", "0", "-5", "2", "0", "-10", "3"],
        ["0", "-11", "3", "1", "+23", "0", "0", "-12", "2"],
        ["1", "+22", "0", "0", "-10", "4", "0", "-12", "2"],
    ];
    for (g, values) in games.iter().enumerate() {
        for (i, v) in values.iter().enumerate() {
            cells[7 + g][1 + i] = v.to_string();
        }
        cells[7 + g][10..13].iter_mut().for_each(String::clear);
    }
    // (seat D: no player; its Total cells kept, as a template's formulas)
    cells[5][10].clear();
    let s = Scratch::new("three");
    let book = s.path("three.xlsx");
    std::fs::write(&book, cells_xlsx(cells.clone(), &[], &[])).unwrap();
    Test::new()
        .arg("check")
        .arg(&book)
        .roster()
        .run()
        .success()
        .stderr_has("1 card accepted, 3 games; 0 errors");
    cells[8][11] = "-3".into();
    std::fs::write(&book, cells_xlsx(cells, &[], &[])).unwrap();
    Test::new()
        .arg("check")
        .arg(&book)
        .roster()
        .run()
        .failure(1)
        .error_at(
            &format!("{}[Table 07]!L9", book.display()),
            &["seat D has values but no player"],
        );
}

/// The same text cell without a SUM over it (a CSV card, a total typed by
/// hand that counts it) is no error: `−12` reads as -12.
#[test]
fn a_number_stored_as_text_is_read_as_the_number() {
    Test::new()
        .arg("check")
        .arg("-")
        .roster()
        .stdin(
            std::fs::read_to_string(fixtures().join("scorecard/good.csv"))
                .unwrap()
                .replace("0,-12,2,0,-10,4\nTotal", "0,−12,2,0,-10,4\nTotal"),
        )
        .run()
        .success()
        .errors(0);
}

/// A merged score (I8:I9, seat C's games 1 and 2: -10 and -12) shows game
/// 1's -10 in game 2. Game 2 is left to the merge's error: its sum and its
/// leaders, checked with a value nobody typed there, would name cells
/// that are right.
#[test]
fn a_merged_score_is_one_error_not_three() {
    let s = Scratch::new("merged-score");
    let book = s.path("merged-score.xlsx");
    std::fs::write(&book, card_xlsx(1, &[], &[(7, 8, 8, 8)])).unwrap();
    Test::new()
        .arg("check")
        .arg(&book)
        .roster()
        .run()
        .failure(1)
        .errors(1)
        .error_at(
            &format!("{}[Table 07]!I9", book.display()),
            &["I8:I9 is merged, so the -10 typed in I8 shows here too"],
        )
        .stderr_lacks("add up to")
        .stderr_has("0 cards accepted, 0 games, 1 rejected; 1 error");
}

#[test]
fn a_merged_value_cell_is_named_as_merged() {
    for ext in BOOKS {
        let book = format!("volunteer/merged-tiles.{ext}");
        Test::new()
            .arg("check")
            .fixture(&book)
            .roster()
            .run()
            .failure(1)
            .errors(1)
            .error_at(
                &format!("{book}[Table 07]!M9"),
                &[
                    "M8:M9 is merged, so the 4 typed in M8 shows here too",
                    "a value belongs to one row only",
                    "unmerge M8:M9 and type the tiles of each row",
                ],
            )
            .stderr_lacks("is blank");
    }
}

/// Merged Name cells (a seat's three columns) are how the printed card
/// looks: no error (the LibreOffice card has B6:D6 merged).
#[test]
fn merged_name_cells_are_no_error() {
    for book in [
        "workbooks/card.xlsx",
        "workbooks/card.ods",
        "workbooks/card.xls",
    ] {
        Test::new()
            .arg("check")
            .fixture(book)
            .roster()
            .run()
            .success()
            .errors(0);
    }
}

#[test]
fn an_unknown_id_gets_the_near_ids_on_the_roster() {
    Test::new()
        .arg("check")
        .fixture("volunteer/near-id.csv")
        .roster()
        .run()
        .failure(1)
        .errors(1)
        .error_at(
            "volunteer/near-id.csv:6:8",
            &[
                "player \"P0100\" is not on the roster",
                "; did you mean P0001 (Chan Tai Man) or P0010 (Lam Chi Keung)?",
            ],
        );
}

/// An id as near to more roster ids than are listed (`P000O`, a letter O
/// for a zero: nine ids one character away) says how many are not
/// listed, as the one meant may be among them (tester r8 #7).
#[test]
fn an_unknown_id_near_many_says_how_many_are_not_listed() {
    let cards = std::fs::read_to_string(fixtures().join("good/went-out.csv"))
        .unwrap()
        .replace("P0003", "P000O");
    Test::new()
        .arg("check")
        .arg("-")
        .roster()
        .stdin(cards)
        .run()
        .failure(1)
        .error_at(
            "<stdin>:4:5",
            &[
                "player \"P000O\" is not on the roster",
                "; did you mean P0001 (Chan Tai Man), P0002 (Lee Siu Ming), P0003 (Wong Ka Yan), P0004 (Cheung Mei Ling) or P0005 (陳大文)? (4 more as near are not listed: check the name on the signed card)",
            ],
        );
}

/// An id with a character left out (`P012` for `P0012`) or typed once
/// too often (`P00010`: `P0010` or `P0001`) is one edit from the roster's:
/// offered.
#[test]
fn an_id_one_character_short_or_long_gets_the_roster_id() {
    let cards = std::fs::read_to_string(fixtures().join("good/went-out.csv"))
        .unwrap()
        .replace("P0003", "P012")
        .replace("P0004", "P00010");
    Test::new()
        .arg("check")
        .arg("-")
        .roster()
        .stdin(cards)
        .run()
        .failure(1)
        .error_at(
            "<stdin>:4:5",
            &[
                "player \"P012\" is not on the roster",
                "; did you mean P0012 (Mak Siu Fung)?",
            ],
        )
        .error_at(
            "<stdin>:5:5",
            &[
                "player \"P00010\" is not on the roster",
                "; did you mean P0001 (Chan Tai Man) or P0010 (Lam Chi Keung)?",
            ],
        );
}

/// A column of ids typed as numbers loses their leading zeros (`0042`
/// becomes `42`): the roster's id is offered.
#[test]
fn an_id_that_lost_its_leading_zeros_gets_the_roster_id() {
    let s = Scratch::new("zeros");
    let roster = s.path("roster.csv");
    std::fs::write(
        &roster,
        "id,name\n0001,Chan Tai Man\n0002,Lee Siu Ming\n0003,Wong Ka Yan\n0004,Cheung Mei Ling\n",
    )
    .unwrap();
    let cards = std::fs::read_to_string(fixtures().join("good/hk-examples.csv"))
        .unwrap()
        .replace("P0001", "1")
        .replace("P000", "000");
    Test::new()
        .arg("check")
        .arg("-")
        .arg("--roster")
        .arg(&roster)
        .stdin(cards)
        .run()
        .failure(1)
        .error_at(
            "<stdin>:2:5",
            &[
                "player \"1\" is not on the roster",
                "; did you mean 0001 (Chan Tai Man)?",
            ],
        );
}

#[test]
fn a_misspelt_name_gets_the_near_names_on_the_roster() {
    let good = std::fs::read_to_string(fixtures().join("scorecard/good.csv")).unwrap();
    Test::new()
        .arg("check")
        .arg("-")
        .roster()
        .stdin(good.replace("Chan Tai Man", "Chan Tia Man"))
        .run()
        .failure(1)
        .error_at(
            "<stdin>:6:2",
            &[
                "\"Chan Tia Man\" is not on the roster",
                "; did you mean Chan Tai Man (P0001)?",
            ],
        );
}

#[test]
fn an_id_far_from_every_roster_id_gets_no_suggestion() {
    Test::new()
        .arg("check")
        .fixture("scorecard/check1-unknown-player.csv")
        .roster()
        .run()
        .failure(1)
        .stderr_lacks("did you mean");
}

#[test]
fn an_empty_workbook_is_empty_like_an_empty_csv() {
    let s = Scratch::new("empty");
    let csv = s.write("empty.csv", "");
    for file in [
        fixtures().join("volunteer/empty.xlsx"),
        csv,
        s.write("empty.ods", ""),
    ] {
        let shown = file.display().to_string();
        Test::new()
            .arg("check")
            .arg(&file)
            .roster()
            .run()
            .failure(1)
            .errors(1)
            .error_at(
                &shown,
                &["the file is empty: there is nothing in it to read"],
            );
    }
}

#[test]
fn a_photo_of_a_card_is_an_image_not_a_spreadsheet() {
    Test::new()
        .arg("check")
        .fixture("volunteer/card-photo.png")
        .roster()
        .run()
        .failure(1)
        .errors(1)
        .error_at(
            "volunteer/card-photo.png",
            &["this is an image (PNG), not a spreadsheet: type the card into a spreadsheet or a CSV file"],
        )
        .stderr_lacks("no known layout");
    // the same photo under a workbook's name, and a PDF
    let s = Scratch::new("photo");
    let named = s.path("S01.xlsx");
    std::fs::write(&named, PNG).unwrap();
    let pdf = s.path("S02.csv");
    std::fs::write(&pdf, b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n").unwrap();
    let jpeg = s.path("S03.csv");
    std::fs::write(
        &jpeg,
        [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, b'J', b'F', b'I', b'F'],
    )
    .unwrap();
    Test::new()
        .arg("check")
        .args([&named, &pdf, &jpeg])
        .roster()
        .run()
        .failure(1)
        .errors(3)
        .error_at(&named.display().to_string(), &["this is an image (PNG)"])
        .error_at(
            &pdf.display().to_string(),
            &["this is a PDF document, not a spreadsheet"],
        )
        .error_at(&jpeg.display().to_string(), &["this is an image (JPEG)"]);
}

/// One good file, an empty workbook and a note: the good one goes in, the
/// summary counts both others and says so.
#[test]
fn a_mixed_import_says_what_went_in() {
    let s = Scratch::new("mixed");
    let dir = s.0.join("event");
    let d = dir.display().to_string();
    Test::new()
        .args(["init", &d, "--name", "Mixed", "--date", "2026-03-28"])
        .run()
        .success();
    let roster = fixtures().join("roster.csv").display().to_string();
    Test::new()
        .args(["roster", &roster, "--event", &d])
        .run()
        .success();
    let mixed = fixtures().join("volunteer/mixed");
    let m = |f: &str| mixed.join(f).display().to_string();
    let out = Test::new()
        .args(["import", &mixed.display().to_string(), "--event", &d])
        .run()
        .failure(1)
        .errors(2)
        .error_at(&m("S01-T08.xlsx"), &["the file is empty"])
        .error_at(
            &m("notes.txt"),
            &["this is text, not a table of score cards"],
        )
        .stderr_has(&format!(
            "{}: 1 card imported, 0 replaced, 0 unchanged",
            m("S01-T07.csv")
        ))
        .stderr_has(&format!(
            "{}: nothing imported (errors above)",
            m("S01-T08.xlsx")
        ))
        .stderr_has("3 files: 1 imported (1 card), 2 with errors: nothing imported from them")
        .stderr_lacks("could not be read");
    assert!(
        out.stderr.lines().last().unwrap().starts_with("3 files:"),
        "{}",
        out.stderr
    );
    // the good file is in the event
    Test::new()
        .args(["check", "--event", &d])
        .run()
        .success()
        .stderr_has("1 card accepted");
}

/// The README's "Problems and exit status" shows these messages as the
/// tool prints them: the text block after the command.
fn readme_block_after(command: &str) -> String {
    crate::test::doc_block_after("README.md", command)
}

#[test]
fn the_readme_shows_the_volunteers_mistakes_as_printed() {
    let command = "tilerank check volunteer/text-under-sum.xlsx volunteer/merged-tiles.xlsx volunteer/near-id.csv volunteer/empty.xlsx volunteer/card-photo.png --roster roster.csv";
    let out = Test::new()
        .args(command.split(' ').skip(1))
        .run()
        .failure(1);
    assert_eq!(out.stderr, readme_block_after(command));

    let s = Scratch::new("readme");
    let dir = s.0.join("event");
    let d = dir.display().to_string();
    Test::new()
        .args(["init", &d, "--name", "Mixed"])
        .run()
        .success();
    Test::new()
        .args(["roster", "roster.csv", "--event", &d])
        .run()
        .success();
    let out = Test::new()
        .args(["import", "volunteer/mixed", "--event", &d])
        .run()
        .failure(1);
    assert_eq!(
        out.stderr,
        readme_block_after("tilerank import volunteer/mixed --event EVENT")
    );
}

/// A value cell merged with the one above (two seats' tiles in one cell)
/// is an error that names the merge, not a blank tiles cell.
#[test]
fn a_merged_value_cell_is_an_error_that_names_the_merge() {
    use rust_xlsxwriter::{Format, Workbook};
    let text = std::fs::read_to_string(fixtures().join("good/went-out.csv")).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    for (r, row) in rows.iter().enumerate() {
        for (c, value) in row.iter().enumerate() {
            sheet.write_string(r as u32, c as u16, *value).unwrap();
        }
    }
    // game 1's tiles of seats B and C typed once, in H3:H4
    sheet
        .merge_range(2, 7, 3, 7, rows[2][7], &Format::new())
        .unwrap();
    let s = Scratch::new("merged-value");
    let file = s.path("merged.xlsx");
    std::fs::write(&file, book.save_to_buffer().unwrap()).unwrap();
    Test::new()
        .arg("check")
        .arg(&file)
        .roster()
        .run()
        .failure(1)
        .errors(1)
        .error_at(
            &format!("{}[Sheet1]!H4", file.display()),
            &["tiles is part of the merged cells H3:H4 (a value belongs to one row: unmerge them and type each row's value); expected a whole number of tiles from 0 to 106"],
        );
}

/// The standings CSV of a file of one clean card of three games.
fn one_card_standings(path: &std::path::Path) -> Vec<Vec<String>> {
    Test::new()
        .arg("standings")
        .arg(path)
        .args(["--format", "csv"])
        .roster()
        .run()
        .success()
        .errors(0)
        .stderr_has("1 card accepted, 3 games")
        .csv()
}

/// `good/went-out.csv` as a results-layout workbook whose session, table
/// and game cells are merged down their rows, the way a volunteer types a
/// session once: they read as typed on every row.
#[test]
fn results_with_session_table_and_game_merged_down_read_as_on_every_row() {
    use rust_xlsxwriter::{Format, Workbook};
    let csv = fixtures().join("good/went-out.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    let last = rows.len() as u32 - 1;
    // session A2:A13 and table B2:B13; each game's four lines, C2:C5...
    let mut merged = vec![(1, 0, last, 0), (1, 1, last, 1)];
    merged.extend((0..3).map(|g| (1 + 4 * g, 2, 4 + 4 * g, 2)));
    for &(r0, c0, r1, c1) in &merged {
        let value = rows[r0 as usize][c0 as usize];
        sheet
            .merge_range(r0, c0, r1, c1, value, &Format::new())
            .unwrap();
    }
    for (r, row) in rows.iter().enumerate() {
        for (c, value) in row.iter().enumerate() {
            let (r, c) = (r as u32, c as u16);
            let in_merge = merged
                .iter()
                .any(|&(r0, c0, r1, c1)| (r0..=r1).contains(&r) && (c0..=c1).contains(&c));
            if !in_merge {
                sheet.write_string(r, c, *value).unwrap();
            }
        }
    }
    let s = Scratch::new("merged-results");
    let file = s.path("merged.xlsx");
    std::fs::write(&file, book.save_to_buffer().unwrap()).unwrap();
    assert_eq!(one_card_standings(&file), one_card_standings(&csv));
}

/// `good/went-out.csv` as a workbook with its lines by seat, then game,
/// each seat and its player typed once for the seat's three games, merged
/// down their rows: they read as typed on every row.
#[test]
fn results_with_seat_and_player_merged_down_read_as_on_every_row() {
    use rust_xlsxwriter::{Format, Workbook};
    let csv = fixtures().join("good/went-out.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    // (by seat, then game: each seat's three lines one under another)
    rows[1..].sort_by_key(|r| (r[3], r[2]));
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    for (r, row) in rows.iter().enumerate() {
        for (c, value) in row.iter().enumerate() {
            // the seat and player only on a seat's first line
            if (c == 3 || c == 4) && r > 0 && (r - 1) % 3 != 0 {
                continue;
            }
            sheet.write_string(r as u32, c as u16, *value).unwrap();
        }
    }
    // seat A in D2:D4 and its player in E2:E4, seat B in D5:D7...
    for seat in 0..4u32 {
        let (r0, r1) = (1 + 3 * seat, 3 + 3 * seat);
        for c in [3u16, 4] {
            let value = rows[r0 as usize][usize::from(c)];
            sheet
                .merge_range(r0, c, r1, c, value, &Format::new())
                .unwrap();
        }
    }
    let s = Scratch::new("merged-seats");
    let file = s.path("merged.xlsx");
    std::fs::write(&file, book.save_to_buffer().unwrap()).unwrap();
    assert_eq!(one_card_standings(&file), one_card_standings(&csv));
}

/// A value typed on a Chinese keyboard: its digits and Latin letters as
/// their full-width forms (`S01` as `Ｓ０１`, `7` as `７`).
fn full_width(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '!'..='~' => char::from_u32(u32::from(c) + 0xFEE0).unwrap(),
            c => c,
        })
        .collect()
}

/// `good/went-out.csv` with its session, table and game typed full-width,
/// as a Chinese keyboard types them: on every other line of a CSV file,
/// on every line of a workbook. Each reads as the plain file reads (one
/// card, its games in place, nothing said), and given with the plain
/// file it is the same card given twice.
#[test]
fn full_width_session_table_and_game_numbers_are_the_plain_ones() {
    use rust_xlsxwriter::Workbook;
    let csv = fixtures().join("good/went-out.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows = |every: usize| -> Vec<Vec<String>> {
        text.lines()
            .enumerate()
            .map(|(r, l)| {
                l.split(',')
                    .enumerate()
                    .map(|(c, v)| match r > 0 && c < 3 && r % every == 0 {
                        true => full_width(v),
                        false => v.to_string(),
                    })
                    .collect()
            })
            .collect()
    };
    let s = Scratch::new("full-width-keys");
    let mixed: Vec<String> = rows(2).iter().map(|r| r.join(",")).collect();
    assert!(mixed[2].starts_with("Ｓ０１,７,１,B,"), "{mixed:?}");
    let mixed_csv = s.write("mixed.csv", &(mixed.join("\n") + "\n"));
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    for (r, row) in rows(1).iter().enumerate() {
        for (c, value) in row.iter().enumerate() {
            sheet.write_string(r as u32, c as u16, value).unwrap();
        }
    }
    let xlsx = s.path("wide.xlsx");
    std::fs::write(&xlsx, book.save_to_buffer().unwrap()).unwrap();
    let plain = one_card_standings(&csv);
    assert_eq!(one_card_standings(&mixed_csv), plain);
    assert_eq!(one_card_standings(&xlsx), plain);
    for wide in [&mixed_csv, &xlsx] {
        Test::new()
            .arg("check")
            .arg(&csv)
            .arg(wide)
            .roster()
            .run()
            .failure(1)
            .stderr_has("session S01 table 7 is given twice");
    }
}

/// A printed card whose game row every seat left blank (game 2 of 3) is
/// said at the row's first cell, the cells to fill named, not of the
/// sheet as a whole.
#[test]
fn a_blank_game_on_a_printed_card_is_named_at_its_first_cell() {
    let mut cells = good_card();
    // game 2, row 9 (the Total's =SUM leaves it out)
    cells[8][1..].iter_mut().for_each(String::clear);
    let s = Scratch::new("blank-game");
    let book = s.path("S01.xlsx");
    std::fs::write(&book, cells_xlsx(cells, &[], &[])).unwrap();
    Test::new()
        .arg("check")
        .arg(&book)
        .roster()
        .run()
        .failure(1)
        .errors(1)
        .error_at(
            &format!("{}[Table 07]!B9", book.display()),
            &["session S01 table 7: game 2 is blank (nothing in B9:M9); the hk rules play 3 games per session: type each seat's game won, score and tiles (a player who left early is blank in the games not played)"],
        );
}

/// A card's session cell (B4) counts, however the session is written
/// (`2`, `S2`, `第2節`, `第二節`); where its file is named for another
/// session (S01.xlsx), a warning at the cell says so. The card counts as
/// the cell says: beside S02.xlsx's table 7, it is that table twice.
#[test]
fn a_session_cell_other_than_the_file_names_counts_with_a_warning() {
    let s = Scratch::new("session-cell");
    let write = |file: &str, session: &str| {
        let mut cells = good_card();
        cells[3][1] = session.to_string();
        let book = s.path(file);
        std::fs::write(&book, cells_xlsx(cells, &[], &[])).unwrap();
        book
    };
    for session in ["2", "S2", "第2節", "第二節"] {
        let book = write("S01.xlsx", session);
        Test::new()
            .arg("check")
            .arg(&book)
            .roster()
            .run()
            .success()
            .warnings(1)
            .warning_at(
                &format!("{}[Table 07]!B4", book.display()),
                &["session S02 here, but the file S01.xlsx is named for session S01: the card counts as S02, as its session cell says; correct this cell if the card is S01's, or move the card to a file of its own session"],
            );
        // a file named for its session: nothing to say
        let own = write("S02.xlsx", session);
        Test::new()
            .arg("check")
            .arg(&own)
            .roster()
            .run()
            .success()
            .warnings(0)
            .errors(0);
        Test::new()
            .arg("check")
            .arg(s.path(""))
            .roster()
            .run()
            .failure(1)
            .stderr_has("session S02 table 7 is given twice");
        std::fs::remove_file(own).unwrap();
    }
}

/// `tilerank ARGS... --event DIR`.
fn in_event(dir: &std::path::Path, args: &[&str]) -> crate::test::Output {
    Test::new().args(args).arg("--event").arg(dir).run()
}

/// The end-to-end HK event (`e2e/hk`) stored in an event folder of `s`,
/// its prelim imported, with `[qualifiers] top = 8`: a final of two
/// tables, H01 H04 H02 H03 at table 1 and H07 H05 H08 H06 at table 2 by
/// the standings.
fn hk_final_of_two_tables(s: &Scratch) -> std::path::PathBuf {
    let e2e = fixtures().join("e2e/hk");
    let dir = s.0.join("event");
    std::fs::create_dir_all(&dir).unwrap();
    let settings = std::fs::read_to_string(e2e.join("tilerank.toml")).unwrap();
    let settings = settings.replace("top = 4", "top = 8");
    std::fs::write(dir.join("tilerank.toml"), settings).unwrap();
    let roster = e2e.join("roster.csv").display().to_string();
    in_event(&dir, &["roster", &roster]).success();
    let prelim = e2e.join("cards/prelim.csv").display().to_string();
    in_event(&dir, &["import", &prelim]).success();
    dir
}

/// The workbook `book` (as `seating -o` wrote it) written again at `to`
/// the way a spreadsheet library saves it, the games of the sheets named
/// in `typed` typed: each table's seats A to D in the final's games of
/// `tests/fixtures/e2e/hk` (game 1 C out, game 2 B out, game 3 A and D
/// share a pot), and only game 1 for a sheet named in `part`. The Total
/// row is `=SUM` formulas with no saved value (a program's, not Excel's).
pub(crate) fn typed_cards(
    book: &std::path::Path,
    to: &std::path::Path,
    typed: &[&str],
    part: &[&str],
) {
    let games: [[(f64, f64, f64); 4]; 3] = [
        [(0., -10., 3.), (0., -6., 2.), (1., 31., 0.), (0., -15., 4.)],
        [(0., -9., 2.), (1., 32., 0.), (0., -3., 1.), (0., -20., 5.)],
        [(1., 5.5, 2.), (0., -7., 4.), (0., -4., 3.), (1., 5.5, 2.)],
    ];
    let mut out = rust_xlsxwriter::Workbook::new();
    for (name, rows) in crate::test::sheets(book) {
        let sheet = out.add_worksheet();
        sheet.set_name(&name).unwrap();
        sheet.set_formula_result_default("");
        for (r, row) in rows.iter().enumerate() {
            for (c, value) in row.iter().enumerate() {
                let (r, c) = (r as u32, c as u16);
                let col = rust_xlsxwriter::utility::column_number_to_name(c);
                if row[0] == "Total" && c > 0 {
                    let sum = format!("=SUM({col}{}:{col}{})", r - 2, r);
                    sheet.write_formula(r, c, sum.as_str()).unwrap();
                } else if let Ok(n) = value.parse::<f64>() {
                    sheet.write_number(r, c, n).unwrap();
                } else if !value.is_empty() {
                    sheet.write_string(r, c, value).unwrap();
                }
            }
            // (`Game 1`, or `Game 1 (第 1 局)` on a Chinese card)
            let game = row[0]
                .strip_prefix("Game ")
                .and_then(|g| g.split(' ').next()?.parse::<usize>().ok());
            let typed_here = typed.contains(&name.as_str())
                || (part.contains(&name.as_str()) && game == Some(1));
            if let (Some(g), true) = (game, typed_here) {
                for (seat, &(won, score, tiles)) in games[g - 1].iter().enumerate() {
                    let c = 1 + 3 * seat as u16;
                    sheet.write_number(r as u32, c, won).unwrap();
                    sheet.write_number(r as u32, c + 1, score).unwrap();
                    sheet.write_number(r as u32, c + 2, tiles).unwrap();
                }
            }
        }
    }
    out.save(to).unwrap();
}

/// The final's blank cards (`seating -o`) typed table by table into the
/// one workbook: a sheet still blank as printed is skipped with a warning
/// naming it, and the typed ones are imported; imported again with more
/// typed, the tables in already are the same and the new ones come in,
/// the tables still blank stay missing. A sheet with a value typed is
/// checked in full; a workbook of blank cards only is one error.
#[test]
fn blank_cards_typed_table_by_table_are_imported_as_typed() {
    let s = Scratch::new("typed-by-table");
    let dir = hk_final_of_two_tables(&s);
    let printed = s.0.join("final-cards.xlsx");
    in_event(
        &dir,
        &[
            "seating",
            "--from",
            "prelim",
            "--by",
            "standings",
            "-o",
            printed.to_str().unwrap(),
        ],
    )
    .success();
    let book = s.0.join("typed.xlsx");
    let shown = book.display().to_string();
    let skipped = "final session S01 table 2: nothing typed yet (a blank score card, as printed): skipped; its table has no card until its games are typed";

    // nothing typed: one error of the file (no warning of each blank
    // sheet before it), nothing imported
    typed_cards(&printed, &book, &[], &[]);
    in_event(&dir, &["import", &shown])
        .failure(1)
        .errors(1)
        .warnings(0)
        .error_at(&shown, &["nothing typed yet: its 2 score cards are all blank, as printed (no game won, score or tiles typed); nothing was read: type the games, then give the file again"])
        .stderr_lacks("nothing typed yet (a blank score card, as printed)");

    // table 1 typed: table 2 skipped, table 1 checked and imported
    typed_cards(&printed, &book, &["Table 01"], &[]);
    in_event(&dir, &["check", &shown])
        .success()
        .errors(0)
        .warning_at(&format!("{shown}[Table 02]"), &[skipped])
        .stderr_has("3 cards accepted");
    in_event(&dir, &["import", &shown])
        .success()
        .warning_at(&format!("{shown}[Table 02]"), &[skipped])
        .stderr_has("1 card imported, 0 replaced, 0 unchanged");
    // table 2 has no card: its players are waited for
    in_event(&dir, &["check"])
        .success()
        .stderr_has("final: 4 of the 8 players who went on from the prelim have no card yet: H05, H06, H07, H08");

    // table 2 with game 1 only: checked in full, the file refused
    typed_cards(&printed, &book, &["Table 01"], &["Table 02"]);
    in_event(&dir, &["import", &shown])
        .failure(1)
        .stderr_lacks(skipped)
        .stderr_has(&format!("{shown}[Table 02]"))
        .stderr_has("final session S01 table 2: game 2 is blank");

    // both typed: table 1 is the same, table 2 comes in
    typed_cards(&printed, &book, &["Table 01", "Table 02"], &[]);
    in_event(&dir, &["import", &shown])
        .success()
        .warnings(0)
        .stderr_has("1 card imported, 0 replaced, 1 unchanged");
    in_event(&dir, &["check"])
        .success()
        .stderr_lacks("have no card yet")
        .stderr_has("4 cards accepted");
}

/// The prelim's random seating from the HK roster, and from the same
/// roster listed in reverse (sorted again, saved from another program):
/// one seed, the same tables, seat by seat. The draw followed the
/// roster's order, so a seating printed again after the roster was sorted
/// again differed at every table.
#[test]
fn a_random_seating_does_not_depend_on_the_rosters_order() {
    let s = Scratch::new("roster-order");
    let roster = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/hk-2026/roster.csv"),
    )
    .unwrap();
    let mut lines: Vec<&str> = roster.lines().collect();
    lines[1..].reverse();
    let reversed = s.write("reversed.csv", &(lines.join("\n") + "\n"));
    let seat = |roster: &std::path::Path| {
        Test::new()
            .args(["seating", "--seed", "7", "--format", "csv", "--roster"])
            .arg(roster)
            .run()
            .success()
            .stdout
    };
    let given =
        seat(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/hk-2026/roster.csv"));
    assert!(given.lines().count() > 1_000, "{given}");
    assert_eq!(seat(&reversed), given);
}

/// A final card of `table` in `s` (`final-T<table>.csv`), H07 H05 H08 H06
/// at seats A to D (the players of table 2 of [`hk_final_of_two_tables`]),
/// in the final's games of `tests/fixtures/e2e/hk`.
fn final_card_at(s: &Scratch, table: u32) -> String {
    let mut text = String::from("stage,session,table,game,seat,player,won,score,tiles\n");
    let games = [
        ["0,-10,3", "0,-6,2", "1,31,0", "0,-15,4"],
        ["0,-9,2", "1,32,0", "0,-3,1", "0,-20,5"],
        ["1,5.5,2", "0,-7,4", "0,-4,3", "1,5.5,2"],
    ];
    for (g, lines) in games.iter().enumerate() {
        for (seat, (line, player)) in lines.iter().zip(["H07", "H05", "H08", "H06"]).enumerate() {
            let seat = ["A", "B", "C", "D"][seat];
            text.push_str(&format!(
                "final,S01,{table},{},{seat},{player},{line}\n",
                g + 1
            ));
        }
    }
    s.write(&format!("final-T{table}.csv"), &text)
        .display()
        .to_string()
}

/// The error of a final card of table 3 in [`hk_final_of_two_tables`].
const FINAL_TABLE_3_OFF: &str = "final session S01 table 3: the final has tables 1 to 2 (the seating of the 8 who go on from the prelim); correct the card's table";

/// A final card whose table is past the final's tables (2: the 8 who go
/// on at tables of 4) is an error naming the table and how many tables
/// the final has, by check and import alike, and nothing is imported; a
/// card of table 2 comes in.
#[test]
fn a_final_card_past_the_finals_tables_is_an_error() {
    let s = Scratch::new("final-table-off");
    let dir = hk_final_of_two_tables(&s);
    let off = final_card_at(&s, 3);
    in_event(&dir, &["check", &off])
        .failure(1)
        .errors(1)
        .error_at(&format!("{off}:2"), &[FINAL_TABLE_3_OFF]);
    in_event(&dir, &["import", &off])
        .failure(1)
        .errors(1)
        .error_at(&format!("{off}:2"), &[FINAL_TABLE_3_OFF])
        .stderr_has("nothing imported");
    // nothing of it is stored: the prelim's two cards only
    in_event(&dir, &["check"])
        .success()
        .errors(0)
        .stderr_has("2 cards stored in the event: 2 cards accepted, 6 games; 0 errors");
    in_event(&dir, &["import", &final_card_at(&s, 2)])
        .success()
        .errors(0)
        .stderr_has("1 card imported");
    in_event(&dir, &["check"])
        .success()
        .errors(0)
        .stderr_has("final: 4 of the 8 players who went on from the prelim have no card yet: H01, H02, H03, H04");
}

/// While the prelim has cards missing, who goes on, and so how many
/// tables the final has, can still change: a final card's table is not
/// checked, and the card comes in. Once the prelim is complete, `check`
/// says the table at the stored card, an error of the final only (the
/// prelim's answers are given).
#[test]
fn a_final_table_is_checked_once_the_prelim_is_complete() {
    let s = Scratch::new("final-table-later");
    let dir = hk_final_of_two_tables(&s);
    let settings = dir.join("tilerank.toml");
    let two = std::fs::read_to_string(&settings).unwrap();
    // (a third table of the prelim's session expected: its card missing)
    std::fs::write(&settings, two.replace("tables = 2", "tables = 3")).unwrap();
    in_event(&dir, &["import", &final_card_at(&s, 3)])
        .success()
        .errors(0)
        .stderr_has("1 card imported");
    std::fs::write(&settings, &two).unwrap();
    in_event(&dir, &["check"])
        .failure(1)
        .errors(1)
        .stderr_has(FINAL_TABLE_3_OFF)
        .stderr_has("1 error (1 about the final's players or tables)");
    in_event(&dir, &["qualifiers", "--stage", "prelim"])
        .failure(1)
        .stderr_has(FINAL_TABLE_3_OFF)
        .stdout_has("H01");
}

/// `seating` of a stage that has cards already is a warning saying how
/// many, and whether the seating printed is the one they were played at.
#[test]
fn seating_a_stage_with_cards_in_says_so() {
    let s = Scratch::new("seated-again");
    let dir = hk_final_of_two_tables(&s);
    let seat = |by: &str| {
        in_event(
            &dir,
            &["seating", "--from", "prelim", "--by", by, "--format", "csv"],
        )
        .success()
    };
    seat("standings").stderr_lacks("warning");
    let printed = s.0.join("final-cards.xlsx");
    in_event(
        &dir,
        &[
            "seating",
            "--from",
            "prelim",
            "--by",
            "standings",
            "-o",
            printed.to_str().unwrap(),
        ],
    )
    .success();
    let book = s.0.join("typed.xlsx");
    typed_cards(&printed, &book, &["Table 01"], &[]);
    in_event(&dir, &["import", book.to_str().unwrap()]).success();
    seat("standings").stderr_has("warning: the final already has 1 card; this seating is the one they were played at (each card's players at its table)");
    seat("random").stderr_has("warning: the final already has 1 card; this seating is not the one they were played at: at table 1 it seats other players than the card (who goes on changed, or another --seed or --by): print it only to seat the final again");
}
