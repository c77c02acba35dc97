//! Layout detection (FORMATS.md): each sheet is read on its own and its
//! layout recognised from its header; folders are read file by file.

use crate::test::{fixtures, Scratch, Test};
use std::path::PathBuf;

/// A folder with a results CSV (table 7), a printed score card as CSV
/// (table 8) and a results workbook written by LibreOffice (table 10).
#[test]
fn a_folder_of_results_a_score_card_and_a_workbook() {
    let out = Test::new()
        .args(["standings", "--format", "csv"])
        .fixture("layouts/mixed-folder")
        .roster()
        .run()
        .success()
        .errors(0)
        .stderr_has("3 files, 1 sheet: 3 cards accepted, 9 games; 0 errors");
    let mut players = out.column("player");
    players.sort();
    let all: Vec<String> = (1..=12).map(|i| format!("P{i:04}")).collect();
    assert_eq!(players, all, "every player of the three cards is ranked");
    // table 10, from the workbook: P0010 went out in game 1 (+35)
    let rows = out.csv();
    let p10 = rows.iter().find(|r| r[1] == "P0010").unwrap();
    assert_eq!(p10[7], "37", "P0010's total: +35 -3 +5");
}

/// A printed score card typed with the Chinese words of tilerank's own
/// bilingual cards alone (`姓名`, `勝局 1/0`, `得分 +/-`, `餘牌`, `第 1
/// 局`, `總計`), and those volunteers write for them (`勝出`, `分數`,
/// `剩餘牌數`, `第三局`), is read as the English card is: the two agree
/// value for value (tester r8 #2).
#[test]
fn a_score_card_with_chinese_labels_alone_is_read() {
    Test::new()
        .arg("check")
        .fixture("scorecard/chinese-labels.csv")
        .roster()
        .run()
        .success()
        .errors(0)
        .stderr_has("1 file: 1 card accepted, 3 games; 0 errors");
    Test::new()
        .arg("compare")
        .fixture("scorecard/good.csv")
        .fixture("scorecard/chinese-labels.csv")
        .roster()
        .run()
        .success()
        .stderr_has("1 agrees; no difference");
}

/// A column not read is said, at its place: one the layout does not know,
/// and a known one given again (the first is read: a second score column
/// of nonsense does not reject the card).
#[test]
fn a_column_not_read_is_said_unknown_or_given_twice() {
    let scratch = Scratch::new("columns");
    let good = std::fs::read_to_string(fixtures().join("good/went-out.csv")).unwrap();
    let mut lines = good.lines();
    let mut csv = format!("{},Notes,Score (+/-)\n", lines.next().unwrap());
    for line in lines {
        csv.push_str(&format!("{line},ok,x\n"));
    }
    let file = scratch.write("cols.csv", &csv);
    let place = |col: u32| format!("{}:1:{col}", file.display());
    let out = Test::new()
        .arg("check")
        .arg(&file)
        .roster()
        .run()
        .success()
        .errors(0)
        .warnings(2)
        .warning_at(&place(9), &["unknown column \"Notes\" ignored"])
        .warning_at(
            &place(10),
            &[&format!(
                "column \"Score (+/-)\" is given twice (the one read is at {}); this one is ignored",
                place(7)
            )],
        );
    assert!(out.stderr.contains("1 card accepted"), "{}", out.stderr);
}

#[test]
fn an_error_in_a_folder_names_the_file_inside_it() {
    Test::new()
        .arg("check")
        .fixture("bad/check1-table-twice")
        .roster()
        .run()
        .failure(1)
        .error_at("bad/check1-table-twice/b.csv:2", &["given twice"]);
}

#[test]
fn a_sheet_with_no_known_layout_alone_is_an_error() {
    Test::new()
        .args(["check", "-"])
        .stdin("round,desk,who,points\n1,9,P0001,30\n")
        .run()
        .failure(1)
        .errors(1)
        .error_at(
            "<stdin>",
            &["no known layout", "results header", "score card"],
        );
}

/// A text file of sentences is a note, said in those words.
#[test]
fn a_note_is_text_not_a_table() {
    Test::new()
        .arg("check")
        .fixture("layouts/notes-only.csv")
        .run()
        .failure(1)
        .errors(1)
        .error_at(
            "layouts/notes-only.csv",
            &["this is text, not a table of score cards (a note?): keep notes apart from the card files"],
        )
        .stderr_lacks("no known layout");
}

/// The LibreOffice workbook holds the card of table 9 and a "Notes" sheet:
/// the notes are skipped with a warning and the card counts.
#[test]
fn a_sheet_with_no_known_layout_beside_a_card_is_a_warning() {
    Test::new()
        .arg("check")
        .fixture("workbooks/card.xlsx")
        .roster()
        .run()
        .success()
        .errors(0)
        .warnings(1)
        .warning_at(
            "workbooks/card.xlsx[Notes]",
            &["sheet skipped", "no known layout"],
        )
        .stderr_has("1 file, 2 sheets: 1 card accepted, 3 games; 0 errors, 1 warning");
}

/// A notes file beside a card file is still an error: only an extra sheet
/// of a workbook with cards is forgiven.
#[test]
fn a_file_with_no_known_layout_beside_card_files_is_an_error() {
    Test::new()
        .arg("check")
        .fixture("good/went-out.csv")
        .fixture("layouts/notes-only.csv")
        .roster()
        .run()
        .failure(1)
        .errors(1)
        .error_at("layouts/notes-only.csv", &["this is text, not a table"]);
}

#[test]
fn a_roster_given_as_input_warns() {
    Test::new()
        .arg("check")
        .fixture("roster.csv")
        .fixture("good/went-out.csv")
        .run()
        .success()
        .warnings(1)
        .warning_at(
            "roster.csv",
            &[
                "this is a roster, not cards",
                "--roster, or store it in the event folder with tilerank roster FILE)",
            ],
        )
        .stderr_has("2 files: 1 card accepted, 3 games; 0 errors, 1 warning");
}

/// FORMATS.md: `-` reads CSV from standard input.
#[test]
fn standard_input() {
    let card = std::fs::read(crate::test::fixtures().join("good/went-out.csv")).unwrap();
    Test::new()
        .args(["check", "-"])
        .stdin(card)
        .run()
        .success()
        .stderr_has("1 card accepted, 3 games; 0 errors");
}

/// A file named `.xlsx` that is no workbook cannot be read: exit 2, with
/// the file named.
#[test]
fn a_workbook_that_is_not_one() {
    Test::new()
        .arg("check")
        .fixture("layouts/not-a-workbook.xlsx")
        .run()
        .failure(2)
        .stderr_has("layouts/not-a-workbook.xlsx: error: cannot be read: not a workbook");
}

/// A zip file named `.xlsx` that holds no workbook says what to do, not
/// which library read it.
#[test]
fn a_zip_that_is_no_workbook_says_to_save_it_again() {
    use std::io::Write;
    let s = Scratch::new("zip-no-book");
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    zip.start_file("hello.txt", zip::write::SimpleFileOptions::default())
        .unwrap();
    zip.write_all(b"hello").unwrap();
    let path = s.path("notwb.xlsx");
    std::fs::write(&path, zip.finish().unwrap().into_inner()).unwrap();
    let out = Test::new()
        .arg("check")
        .arg(&path)
        .run()
        .failure(2)
        .stderr_has(": open it in Excel or LibreOffice and save it again as .xlsx")
        .stderr;
    assert!(
        out.contains("notwb.xlsx: error: cannot be read: not a workbook that can be read ("),
        "{out}"
    );
    assert!(!out.contains("calamine"), "{out}");
}

/// A workbook saved under a `.csv` name is read as the workbook it is.
#[test]
fn a_workbook_under_a_csv_name() {
    Test::new()
        .arg("check")
        .fixture("layouts/card-xlsx-named.csv")
        .roster()
        .run()
        .success()
        .stderr_has("1 card accepted, 3 games; 0 errors");
}

/// A line with a filled field past its header's columns is an error at
/// that field, by the streaming reader (a file) and the ordinary one
/// (standard input) alike: an unquoted decimal comma (`-82,0`) moves the
/// tiles a column on, into no column. The card counts for nothing, and
/// the line is not counted again as a seat missing. Blank fields at the
/// end (`,,` as Excel writes them) are no error.
#[test]
fn a_field_past_the_header_is_an_error_at_its_place() {
    let scratch = Scratch::new("beyond");
    let good = std::fs::read_to_string(fixtures().join("good/went-out.csv")).unwrap();
    let bad = good.replace("S01,7,1,B,P0002,0,-5,2", "S01,7,1,B,P0002,0,-5,0,2");
    let file = scratch.write("beyond.csv", &bad);
    let shown = file.display().to_string();
    for input in [shown.as_str(), "-"] {
        let place = if input == "-" { "<stdin>" } else { &shown };
        Test::new()
            .args(["check", input])
            .roster()
            .stdin(bad.clone())
            .run()
            .failure(1)
            .errors(1)
            .error_at(
                &format!("{place}:3:9"),
                &[
                    "field 9 is 2, past the header's 8 columns",
                    "a comma inside a number or a name",
                    "unless the value is in quotes (\"-82,0\")",
                ],
            )
            .stderr_has("0 cards accepted");
    }
    // blank fields at the end of lines (and of the header) are read
    let trailing = good.replace('\n', ",,\n");
    let file = scratch.write("trailing.csv", &trailing);
    Test::new()
        .arg("check")
        .arg(&file)
        .roster()
        .run()
        .success()
        .stderr_has("1 card accepted");
    // a roster line's name split by a comma
    let roster = scratch.write("roster.csv", "id,name\nP1,Chan, Tai Man\nP2,Lee,,\n");
    Test::new()
        .arg("check")
        .fixture("good/went-out.csv")
        .arg("--roster")
        .arg(&roster)
        .run()
        .failure(1)
        .error_at(
            &format!("{}:2:3", roster.display()),
            &["field 3 is \"Tai Man\", past the header's 2 columns"],
        );
}

/// A header that comes near a layout says which of its columns are not
/// there: the layout it lacks the fewest of (the racks layout for a
/// header with `jokers` but no `points`), the columns by their names.
#[test]
fn no_known_layout_names_the_columns_the_nearest_layout_lacks() {
    let expected = [
        (
            "session,table,game,seat,player,won,score,tile",
            "the header in line 1 comes nearest the results layout, but has no tiles column",
        ),
        (
            "Session,Table,Game,Seat,Player,Score",
            "the header in line 1 comes nearest the results layout, but has no won and tiles columns",
        ),
        (
            "session,table,game,seat,player,jokers,tiles",
            "the header in line 1 comes nearest the racks layout, but has no points or rack column",
        ),
        (
            "name,birth_date",
            "the header in line 1 comes nearest the roster layout, but has no id column",
        ),
    ];
    for (header, words) in expected {
        Test::new()
            .args(["check", "-"])
            .stdin(format!("{header}\nS01,7,1,A,P0001,1,+30,0\n"))
            .run()
            .failure(1)
            .errors(1)
            .error_at(
                "<stdin>",
                &["no known layout: ", words, "expected a results header"],
            );
    }
}

/// A stray quote at the start of a value makes the lines after it one
/// field: said at the line and field where the quote opens, whether it is
/// never closed or closed lines later, with the lines it took; the
/// errors the short card would give are not said on top of it. A quoted
/// header cell of two lines (no delimiter in its second) is no stray.
#[test]
fn a_stray_quote_is_said_where_it_opens() {
    let s = Scratch::new("stray-quote");
    let good = std::fs::read_to_string(fixtures().join("good/went-out.csv")).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    let with = |edits: &[(usize, &str, &str)]| {
        let mut out = lines
            .clone()
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>();
        for &(i, from, to) in edits {
            out[i] = out[i].replacen(from, to, 1);
        }
        out.join("\n") + "\n"
    };
    let cases = [
        (
            with(&[(2, "P0002", "\"P0002")]),
            "3:5",
            "a quote opens this field and is never closed: the rest of the file (lines 4 to 13) is read as this one field; remove the stray quote, or close it where the value ends",
        ),
        (
            with(&[(2, "P0002", "\"P0002"), (8, "P0004", "\"P0004\"")]),
            "3:5",
            "a quote opens this field and closes only on line 9: lines 4 to 9 are read as part of this one field; remove the stray quote, or close it where the value ends",
        ),
        (
            with(&[(12, "P0004", "\"P0004")]),
            "13:5",
            "a quote opens this field and is never closed: the rest of the file is read as this one field",
        ),
    ];
    for (n, (text, at, words)) in cases.iter().enumerate() {
        let file = s.write(&format!("{n}.csv"), text).display().to_string();
        Test::new()
            .args(["check", &file])
            .roster()
            .run()
            .failure(1)
            .errors(1)
            .error_at(&format!("{file}:{at}"), &[words])
            .stderr_has("0 cards accepted");
    }
    // longer than a field may be: the limit, said where the quote opens
    let file = s.write("long.csv", &cases[0].0).display().to_string();
    Test::new()
        .args(["check", &file])
        .env("TILERANK_MAX_FIELD_BYTES", "100")
        .run()
        .failure(2)
        .error_at(
            &format!("{file}:3:5"),
            &[
                "a field of ",
                " bytes, from a quote here to line 13 (a stray quote?",
                "set TILERANK_MAX_FIELD_BYTES",
            ],
        );
    // in a roster too
    let roster = s.write("roster.csv", "id,name\nP0001,\"Chan Tai Man\nP0002,Lee\n");
    Test::new()
        .arg("check")
        .fixture("good/went-out.csv")
        .arg("--roster")
        .arg(&roster)
        .run()
        .failure(1)
        .error_at(
            &format!("{}:2:2", roster.display()),
            &["a quote opens this field and is never closed: the rest of the file (line 3) is read as this one field"],
        );
    // a header cell of two lines is read
    let two = good.replacen("score", "\"score\n(+/-)\"", 1);
    let file = s.write("two-line-header.csv", &two);
    Test::new()
        .arg("check")
        .arg(&file)
        .roster()
        .run()
        .success()
        .stderr_has("1 card accepted");
}

/// `lines` written as they are, and without their seat D lines (the
/// placeholder's): the two files a placeholder test compares.
fn with_and_without_seat_d(s: &Scratch, lines: &str) -> (PathBuf, PathBuf) {
    let none: String = lines
        .lines()
        .filter(|l| !l.contains(",D,"))
        .map(|l| format!("{l}\n"))
        .collect();
    (
        s.write("placeholders.csv", lines),
        s.write("none.csv", &none),
    )
}

/// A results line whose player is the printed placeholder of its seat
/// (`(D)`, copied from a blank card) and whose values are blank is no
/// line: the seat is empty (a table of 3), for check and for compare,
/// where it agrees with a typing that has no line of it.
#[test]
fn a_placeholder_seat_with_no_values_is_an_empty_seat() {
    let s = Scratch::new("placeholder-seat");
    let three = "session,table,game,seat,player,won,score,tiles\n\
                 S01,7,1,A,P0001,1,+25,0\nS01,7,1,B,P0002,0,-10,3\nS01,7,1,C,P0003,0,-15,4\nS01,7,1,D,(D),,,\n\
                 S01,7,2,A,P0001,0,-5,2\nS01,7,2,B,P0002,1,+12,0\nS01,7,2,C,P0003,0,-7,3\nS01,7,2,D,(D),,,\n\
                 S01,7,3,A,P0001,0,-4,1\nS01,7,3,B,P0002,0,-6,2\nS01,7,3,C,P0003,1,+10,0\nS01,7,3,D,(D),,,\n";
    let (placeholders, none) = with_and_without_seat_d(&s, three);
    Test::new()
        .arg("check")
        .arg(&placeholders)
        .arg("--roster")
        .arg(fixtures().join("roster.csv"))
        .run()
        .success()
        .errors(0)
        .stderr_lacks("not on the roster")
        .stderr_has("1 card accepted, 3 games");
    Test::new()
        .arg("compare")
        .arg(&placeholders)
        .arg(&none)
        .run()
        .success()
        .stderr_has("1 agrees; no difference");
}

/// The same in the racks layout: a placeholder seat with no rack is an
/// empty seat, the card scored as a table of 3, as if it had no line (it
/// was refused: "rack not given").
#[test]
fn a_placeholder_seat_with_no_rack_is_an_empty_seat() {
    let s = Scratch::new("placeholder-rack");
    let three = "session,table,game,seat,player,points,jokers,tiles,penalty,rack\n\
                 S01,7,1,A,P0001,0,0,0,,\nS01,7,1,B,P0002,10,0,1,,\nS01,7,1,C,P0003,15,0,3,,\nS01,7,1,D,(D),,,,,\n\
                 S01,7,2,A,P0001,5,0,1,,\nS01,7,2,B,P0002,0,0,0,,\nS01,7,2,C,P0003,20,0,2,,\nS01,7,2,D,____,,,,,\n\
                 S01,7,3,A,P0001,5,0,1,,\nS01,7,3,B,P0002,8,0,1,,\nS01,7,3,C,P0003,0,0,0,,\nS01,7,3,D,(D),,,,,\n";
    let (placeholders, none) = with_and_without_seat_d(&s, three);
    let scored = |racks: &std::path::Path, name: &str| {
        let out = s.path(name);
        Test::new()
            .arg("score")
            .arg(racks)
            .arg("-o")
            .arg(&out)
            .run()
            .success()
            .errors(0)
            .stderr_has("1 card accepted, 3 games");
        std::fs::read_to_string(out).unwrap()
    };
    let with = scored(&placeholders, "with.csv");
    assert_eq!(with, scored(&none, "without.csv"));
    assert_eq!(with.lines().count(), 1 + 9, "{with}");
}
