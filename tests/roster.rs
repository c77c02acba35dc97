//! Roster matching (FORMATS.md): a card names a player by roster id, or by
//! roster name when it matches exactly one entry, case and spacing ignored.

use crate::test::{Scratch, Test};

#[test]
fn players_by_id() {
    let out = Test::new()
        .args(["standings", "--format", "csv"])
        .fixture("good/went-out.csv")
        .roster()
        .run()
        .success();
    assert_eq!(
        out.column("name"),
        [
            "Chan Tai Man",
            "Lee Siu Ming",
            "Wong Ka Yan",
            "Cheung Mei Ling"
        ]
    );
}

/// `chan  TAI man`, `LEE SIU MING`, `p0003` (an id in lower case) and
/// `Cheung Mei Ling` name P0001 to P0004.
#[test]
fn players_by_name_ignoring_case_and_spacing() {
    let out = Test::new()
        .args(["standings", "--format", "csv"])
        .fixture("roster/cards-by-name.csv")
        .roster()
        .run()
        .success()
        .errors(0);
    assert_eq!(out.column("player"), ["P0001", "P0002", "P0003", "P0004"]);
}

/// Two roster entries are called Wong Ka Yan (P0003 and P0009).
#[test]
fn an_ambiguous_name_names_the_candidate_ids() {
    Test::new()
        .arg("check")
        .fixture("bad/check1-ambiguous-name.csv")
        .roster()
        .run()
        .failure(1)
        .error_at(
            "bad/check1-ambiguous-name.csv:4:5",
            &["matches 2 roster entries", "P0003", "P0009", "write the id"],
        );
}

#[test]
fn an_unknown_player() {
    Test::new()
        .arg("check")
        .fixture("bad/check1-unknown-player.csv")
        .roster()
        .run()
        .failure(1)
        .error_at(
            "bad/check1-unknown-player.csv:4:5",
            &["P0099", "not on the roster"],
        );
}

/// Without a roster, every name on a card is a player: the same card
/// passes.
#[test]
fn without_a_roster_the_cards_name_the_players() {
    Test::new()
        .arg("check")
        .fixture("bad/check1-unknown-player.csv")
        .run()
        .success()
        .errors(0);
}

/// `p0002` repeats `P0002` (ids compare like names): the error names both
/// lines.
#[test]
fn a_duplicate_roster_id_names_both_places() {
    Test::new()
        .arg("check")
        .fixture("good/went-out.csv")
        .arg("--roster")
        .fixture("roster/duplicate-id.csv")
        .run()
        .failure(1)
        .errors(1)
        .error_at(
            "roster/duplicate-id.csv:6:1",
            &[
                "\"p0002\"",
                "already used at roster/duplicate-id.csv:3",
                "Lee Siu Ming",
                "unique",
            ],
        );
}

#[test]
fn a_bad_birth_date() {
    Test::new()
        .arg("check")
        .fixture("good/went-out.csv")
        .arg("--roster")
        .fixture("roster/bad-birth-date.csv")
        .run()
        .failure(1)
        .errors(2)
        .error_at(
            "roster/bad-birth-date.csv:3:3",
            &["birth_date is \"30/09/2014\"; write it as YYYY-MM-DD: 2014-09-30"],
        )
        .error_at(
            "roster/bad-birth-date.csv:4:3",
            &["birth_date is \"1970-02-30\"; no such day: February 1970 has 28 days"],
        );
}

/// A birth date written as a date, of a day the calendar does not have,
/// says why it is none (not that a date is written YYYY-MM-DD, as it is).
#[test]
fn a_birth_date_of_no_day_says_why() {
    let scratch = Scratch::new("no-such-day");
    let roster = scratch.write(
        "roster.csv",
        "id,name,birth_date\nP0001,Chan Tai Man,2014-02-30\nP0002,Lee Siu Ming,2016/2/30\nP0003,Wong Ka Yan,1970-04-31\nP0004,Ho Wing,2014-13-01\nP0005,Lam Mei,2014-02-00\n",
    );
    let at = |line: u32| format!("{}:{line}:3", roster.display());
    Test::new()
        .arg("check")
        .fixture("good/went-out.csv")
        .arg("--roster")
        .arg(&roster)
        .run()
        .failure(1)
        .errors(5)
        .error_at(
            &at(2),
            &["birth_date is \"2014-02-30\"; no such day: February 2014 has 28 days"],
        )
        .error_at(
            &at(3),
            &["birth_date is \"2016/2/30\"; no such day: February 2016 has 29 days"],
        )
        .error_at(
            &at(4),
            &["birth_date is \"1970-04-31\"; no such day: April 1970 has 30 days"],
        )
        .error_at(
            &at(5),
            &["birth_date is \"2014-13-01\"; no month 13: months are numbered 1 to 12 (expected a date YYYY-MM-DD)"],
        )
        .error_at(
            &at(6),
            &["birth_date is \"2014-02-00\"; no such day: a month's days are numbered from 1"],
        )
        .stderr_lacks("expected a date YYYY-MM-DD\n");
}

/// A date of a year no player is born in says the years taken; digits
/// typed full-width (a phone's or a Chinese keyboard's) read as the plain
/// ones in a roster's date, as a card's full-width number does (tester r8
/// #3), and are said to be in a card's value that is no number all the
/// same.
#[test]
fn a_birth_date_out_of_the_years_or_in_full_width_digits_says_why() {
    let scratch = Scratch::new("birth-years");
    let roster = scratch.write(
        "roster.csv",
        "id,name,birth_date\nP0001,Chan Tai Man,1850-01-01\nP0002,Lee Siu Ming,\u{FF12}\u{FF10}\u{FF11}\u{FF10}-01-01\nP0003,Wong Ka Yan,1970-01-01\nP0004,Ho Wing,1971-01-01\n",
    );
    let card = scratch.write(
        "card.csv",
        "session,table,game,seat,player,won,score,tiles\nS01,1,1,A,P0001,1,\u{FF11}\u{FF10}\u{5206},0\n",
    );
    let at = |file: &std::path::Path, place: &str| format!("{}:{place}", file.display());
    Test::new()
        .arg("check")
        .arg(&card)
        .arg("--roster")
        .arg(&roster)
        .run()
        .failure(1)
        .error_at(
            &at(&roster, "2:3"),
            &["birth_date is \"1850-01-01\"; expected a date from 1900 to 2100"],
        )
        .stderr_lacks(&at(&roster, "3:"))
        .error_at(
            &at(&card, "2:7"),
            &["score is \"\u{FF11}\u{FF10}\u{5206}\" (full-width characters: type the digits, +, - and . plainly); expected a number such as +30, -5 or 5.5"],
        );
}

/// A roster with errors ranks nobody.
#[test]
fn a_roster_with_errors_ranks_nobody() {
    Test::new()
        .args(["standings", "--format", "csv"])
        .fixture("good/went-out.csv")
        .arg("--roster")
        .fixture("roster/duplicate-id.csv")
        .run()
        .failure(1)
        .stdout_is("")
        .stderr_has("Nothing ranked");
}

#[test]
fn a_file_that_is_no_roster() {
    Test::new()
        .arg("check")
        .fixture("good/went-out.csv")
        .arg("--roster")
        .fixture("good/hk-examples.csv")
        .run()
        .failure(1)
        .error_at("good/hk-examples.csv", &["no roster found", "id and name"]);
}

/// A roster far larger than the cards: the players who did not play are
/// counted, and only the first few named (a million ids is no line to read).
#[test]
fn many_players_who_did_not_play_are_counted_not_all_listed() {
    let scratch = crate::test::Scratch::new("no-shows");
    let mut roster = String::from("id,name\n");
    for i in 1..=5000 {
        roster.push_str(&format!("P{i:04},Player {i}\n"));
    }
    let roster = scratch.write("roster.csv", &roster);
    let out = Test::new()
        .args(["qualifiers", "--top", "2", "--roster"])
        .arg(&roster)
        .fixture("good/went-out.csv")
        .run()
        .success()
        .stderr_has("4996 players on the roster played no game: P0005, P0006, P0007,")
        .stderr_has(", P0024, and 4976 more\n");
    assert!(!out.stderr.contains("P0025"), "{}", out.stderr);
}

/// `explain` of a roster player who has not played the stage says so, as
/// an answer (exit 0), not as a mistyped command line.
#[test]
fn explain_of_a_roster_player_who_did_not_play_says_so() {
    let s = crate::test::Scratch::new("explain-no-show");
    let roster = s.path("roster.csv");
    let mut text =
        std::fs::read_to_string(crate::test::fixtures().join("e2e/hk/roster.csv")).unwrap();
    text.push_str("H09,Lam Kit Yee,1985-02-03,,,\n");
    std::fs::write(&roster, text).unwrap();
    crate::test::Test::new()
        .args(["explain", "H09"])
        .fixture("e2e/hk/cards/prelim.csv")
        .arg("--roster")
        .arg(&roster)
        .run()
        .success()
        .stdout_is("")
        .stderr_has("H09 (Lam Kit Yee) is on the roster and has no games in the prelim stage: not ranked in it.");
}

/// A roster workbook as a spreadsheet library writes it: sheet `Players`,
/// the cells of `rows` (row 1 the header) as text, and the ranges of
/// `merged` (first and last cell, 1-based row and 0-based column) merged,
/// holding their first cell's value.
fn roster_xlsx(rows: &[[&str; 6]], merged: &[(u32, u16, u32, u16)]) -> Vec<u8> {
    use rust_xlsxwriter::{Format, Workbook};
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    sheet.set_name("Players").unwrap();
    for (r, row) in rows.iter().enumerate() {
        for (c, value) in row.iter().enumerate() {
            if !value.is_empty() {
                sheet.write_string(r as u32, c as u16, *value).unwrap();
            }
        }
    }
    for &(r0, c0, r1, c1) in merged {
        let first = rows[r0 as usize - 1][c0 as usize];
        sheet
            .merge_range(r0 - 1, c0, r1 - 1, c1, first, &Format::new())
            .unwrap();
    }
    book.save_to_buffer().unwrap()
}

/// A roster workbook's merged cells (docs/formats.md): a family, status or
/// group cell merged over two rows gives its value to both players (the
/// family decides the Super Family Award); an id, name, birth date or age
/// cell merged over two rows is an error at the second, naming the range,
/// not two players given one id (nothing stored).
#[test]
fn a_merged_family_cell_is_both_players_and_a_merged_id_is_an_error() {
    let s = Scratch::new("merged");
    let d = s.path("event").display().to_string();
    Test::new()
        .args(["init", &d, "--name", "Merged Open", "--profile", "hk"])
        .run()
        .success();
    let rows = [
        ["id", "name", "birth_date", "family", "status", "group"],
        ["P0001", "Lee Hoi Fan", "2016-12-30", "", "", ""],
        ["P0002", "Cheng Hok Wah", "2012-12-10", "F029", "", "Junior"],
        ["P0003", "Kwok Lok On", "2014-03-20", "", "", ""],
        ["P0004", "Lee Wai Ho", "1988-07-04", "", "", ""],
    ];
    // D3:D4 (family) and F3:F4 (group): P0002 and P0003 alike
    let book = s.path("roster.xlsx");
    std::fs::write(&book, roster_xlsx(&rows, &[(3, 3, 4, 3), (3, 5, 4, 5)])).unwrap();
    Test::new()
        .args(["roster", "roster.xlsx", "--event", &d])
        .in_dir(&s.0)
        .run()
        .success()
        .errors(0)
        .stderr_has("Roster stored: 4 players.");
    Test::new()
        .args(["dump", "dumped", "--event", &d])
        .in_dir(&s.0)
        .run()
        .success();
    let stored = std::fs::read_to_string(s.path("dumped/roster.csv")).unwrap();
    assert!(
        stored.contains("P0002,Cheng Hok Wah,2012-12-10,,F029,,Junior\n")
            && stored.contains("P0003,Kwok Lok On,2014-03-20,,F029,,Junior\n")
            && stored.contains("P0004,Lee Wai Ho,1988-07-04,,,,\n"),
        "{stored}"
    );
    // A3:A4 (the id) and C4:C5 (a birth date): an error at the cell each
    // covers, and nothing stored
    let bad = s.path("bad.xlsx");
    std::fs::write(&bad, roster_xlsx(&rows, &[(3, 0, 4, 0), (4, 2, 5, 2)])).unwrap();
    Test::new()
        .args(["roster", "bad.xlsx", "--event", &d])
        .in_dir(&s.0)
        .run()
        .failure(1)
        .errors(2)
        .stderr_has("bad.xlsx[Players]!A4: error: id is part of the merged cells A3:A4 (a value belongs to one row: unmerge them and type each row's value)\n")
        .stderr_has("bad.xlsx[Players]!C5: error: birth_date is part of the merged cells C4:C5 (a value belongs to one row: unmerge them and type each row's value)\n")
        .stderr_has("Roster not stored: 2 errors (listed above).");
}

/// A roster workbook's note right of the table on a row of its own
/// ("checked by Ann" below the list) is no player, as on a card.
#[test]
fn a_note_right_of_a_roster_table_on_a_row_of_its_own_is_no_player() {
    let s = Scratch::new("roster-note");
    let d = s.path("event").display().to_string();
    Test::new()
        .args(["init", &d, "--name", "Noted Open", "--profile", "hk"])
        .run()
        .success();
    use rust_xlsxwriter::Workbook;
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    let rows = [
        ["id", "name", "birth_date"],
        ["P0001", "Lee Hoi Fan", "2016-12-30"],
        ["P0002", "Cheng Hok Wah", "2012-12-10"],
    ];
    for (r, row) in rows.iter().enumerate() {
        for (c, value) in row.iter().enumerate() {
            sheet.write_string(r as u32, c as u16, *value).unwrap();
        }
    }
    sheet.write_string(4, 5, "checked by Ann").unwrap();
    std::fs::write(s.path("noted.xlsx"), book.save_to_buffer().unwrap()).unwrap();
    Test::new()
        .args(["roster", "noted.xlsx", "--event", &d])
        .in_dir(&s.0)
        .run()
        .success()
        .errors(0)
        .stderr_has("Roster stored: 2 players.");
}

/// The demo NVSO event's cards (36 players in three age groups).
fn nvso_cards() -> String {
    let cards = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/nvso-2023/cards");
    cards.display().to_string()
}

/// A roster given that cannot be read is said once, at its file, and the
/// run stops there: no player is then said to have no age (an error a
/// player, at "roster:", no place), nor to be off the roster. The cards'
/// own checks still run (docs/formats.md; robustness.rs has a card's
/// error said beside such a roster's).
#[test]
fn a_roster_that_cannot_be_read_is_said_once_not_again_for_each_player() {
    let scratch = Scratch::new("unread");
    let garbage = scratch.write("garbage.xlsx", "not a workbook at all\n");
    let headless = scratch.write("headless.csv", "NV01,Martin Nelson,1960-04-21\n");
    let nvso = ["--profile", "nvso", "--date", "2023-09-13"];
    let out = Test::new()
        .args(["check", &nvso_cards(), "--roster"])
        .arg(&garbage)
        .args(nvso)
        .run()
        .failure(2)
        .stdout_is("");
    assert_eq!(
        out.stderr,
        format!(
            "{}: error: cannot be read: not a workbook: an .xlsx/.ods is a zip file, an .xls a compound document\n\
             tilerank: 1 input could not be read (see above); nothing was decided\n",
            garbage.display()
        )
    );
    let headless_at = headless.display().to_string();
    let out = Test::new()
        .args(["check", &nvso_cards(), "--roster"])
        .arg(&headless)
        .args(nvso)
        .run()
        .failure(1);
    assert_eq!(
        out.stderr,
        format!(
            "{headless_at}: error: no roster found: expected a header with at least id and name (optional: birth_date, age, family, status, group)\n\
             12 files: 12 cards accepted, 36 games; 1 error\n"
        )
    );
}

/// A birth date typed that is no date is one error, at its cell: the
/// player is not said again to have no birth date, under age groups.
#[test]
fn a_birth_date_typed_wrong_is_one_error_at_its_cell_under_age_groups() {
    let scratch = Scratch::new("bad-date-groups");
    let demo =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/nvso-2023/roster.csv");
    let roster = std::fs::read_to_string(demo).unwrap();
    let roster = roster.replace(
        "NV07,Wanda Carter,1958-09-14",
        "NV07,Wanda Carter,1950-13-45",
    );
    assert!(roster.contains("1950-13-45"));
    let roster = scratch.write("roster.csv", &roster);
    let at = roster.display().to_string();
    let out = Test::new()
        .args(["check", &nvso_cards(), "--roster"])
        .arg(&roster)
        .args(["--profile", "nvso", "--date", "2023-09-13"])
        .run()
        .failure(1);
    assert_eq!(
        out.stderr,
        format!(
            "{at}:8:3: error: birth_date is \"1950-13-45\"; no month 13: months are numbered 1 to 12 (expected a date YYYY-MM-DD)\n\
             12 files: 12 cards accepted, 36 games; 1 error\n"
        )
    );
}

/// A roster stored again says that it replaced the one stored before and
/// what changed, a few ids of each; the same roster again stores nothing
/// and says so.
#[test]
fn a_roster_stored_again_says_what_changed() {
    let s = Scratch::new("roster-again");
    let d = s.path("event").display().to_string();
    Test::new()
        .args(["init", &d, "--name", "Again Open", "--profile", "hk"])
        .run()
        .success();
    let first = "id,name,birth_date,family,status,group\n\
                 P01,Chan Tai Man,1980-05-01,F1,,\n\
                 P02,Chan Siu Ming,2012-06-01,F1,,\n\
                 P03,Lee Mei Ling,1975-01-01,,,\n";
    let roster = |name: &str, text: &str| s.write(name, text).display().to_string();
    let store = |file: String| Test::new().args(["roster", &file, "--event", &d]).run();
    store(roster("first.csv", first))
        .success()
        .stderr_has("Roster stored: 3 players.\n");
    store(roster("same.csv", first)).success().stderr_has(
        "Roster unchanged: it is the roster already stored (3 players); nothing stored.",
    );
    let second = first
        .replace(
            "P02,Chan Siu Ming,2012-06-01,F1,,",
            "P02,Chan Siu Ming,2012-06-01,F1,withdrawn,",
        )
        .replace(
            "P03,Lee Mei Ling,1975-01-01,,,\n",
            "P04,Ho Wing Sze,1962-12-12,,,\n",
        );
    store(roster("second.csv", &second)).success().stderr_has(
        "Roster stored: 3 players, replacing the roster stored before: 1 added (P04), 1 removed (P03), 1 changed (P02: status now withdrawn).",
    );
}
