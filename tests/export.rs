//! `tilerank export`: the results workbook read back with calamine (its
//! sheets, header rows, numbers stored as numbers, no formula anywhere, a
//! roster name that looks like a formula kept as text), the CSV escape of
//! such names, Excel's sheet-name rules and row limit, and what makes the
//! export refuse to write.
//!
//! The event: `good/hk-examples.csv` (session 1 table 7, P0001..P0004:
//! RULES.md examples 1 to 3) with the fixture roster, whose first four
//! names are replaced here by `=HYPERLINK("x")`, `+1+1`, `-2+3`, `@SUM(1)`.

use crate::test::{csv_tables, fixtures, Scratch, Test};
use calamine::{open_workbook, Data, Reader, Xlsx};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use tilerank::report::xlsx::{check_rows, sheet_name, sheet_names, MAX_ROWS};
use tilerank::report::{Column, Exporter, Table};

const FORMULA_NAMES: [&str; 4] = ["=HYPERLINK(\"x\")", "+1+1", "-2+3", "@SUM(1)"];

/// The fixture roster with P0001..P0004 named like formulas.
fn formula_roster(scratch: &Scratch) -> PathBuf {
    let text = std::fs::read_to_string(fixtures().join("roster.csv")).unwrap();
    let text = text
        .replace("P0001,Chan Tai Man,", "P0001,\"=HYPERLINK(\"\"x\"\")\",")
        .replace("P0002,Lee Siu Ming,", "P0002,+1+1,")
        .replace("P0003,Wong Ka Yan,", "P0003,-2+3,")
        .replace("P0004,Cheung Mei Ling,", "P0004,@SUM(1),");
    let path = scratch.path("roster.csv");
    std::fs::write(&path, text).unwrap();
    path
}

fn export(roster: &Path) -> Test {
    Test::new()
        .args(["export", "--name", "Test Open"])
        .fixture("good/hk-examples.csv")
        .arg("--roster")
        .arg(roster)
}

const SHEETS: [&str; 9] = [
    "Standings prelim",
    "Qualifiers",
    "Medals",
    "Super Family Award",
    "Games",
    "Missing",
    "Problems",
    "Settings",
    "Log",
];

fn row(range: &calamine::Range<Data>, r: usize) -> Vec<Data> {
    (0..range.width())
        .map(|c| range.get((r, c)).cloned().unwrap_or(Data::Empty))
        .collect()
}

fn s(text: &str) -> Data {
    Data::String(text.to_string())
}

#[test]
fn the_workbook_has_every_sheet_typed_cells_and_no_formula() {
    let scratch = Scratch::new("book");
    let roster = formula_roster(&scratch);
    let out = scratch.path("results.xlsx");
    export(&roster)
        .arg("-o")
        .arg(&out)
        .run()
        .success()
        .stderr_has("9 sheets: Standings prelim, Qualifiers, Medals")
        .stderr_has("8 players on the roster played no game: P0005, P0006,");
    let mut book: Xlsx<_> = open_workbook(&out).unwrap();
    assert_eq!(book.sheet_names(), SHEETS);

    let standings = book.worksheet_range("Standings prelim").unwrap();
    // (nobody has an age group or a note: those columns are left out)
    assert_eq!(
        row(&standings, 0),
        [
            "Rank",
            "ID",
            "Name",
            "Games",
            "Won",
            "Average score",
            "Total score",
            "Tiles left",
            "Status",
        ]
        .map(s)
    );
    // A: +30 +11 +11 over 3 games, 2 won, 5 tiles; the name is a string
    assert_eq!(
        row(&standings, 1),
        [
            Data::Float(1.0),
            s("P0001"),
            s("=HYPERLINK(\"x\")"),
            Data::Float(3.0),
            Data::Float(2.0),
            Data::Float(17.33),
            Data::Float(52.0),
            Data::Float(5.0),
            s("Q"),
        ]
    );
    let names: Vec<Data> = (1..=4)
        .map(|r| standings.get((r, 2)).unwrap().clone())
        .collect();
    for name in FORMULA_NAMES {
        assert!(names.contains(&s(name)), "{name} in {names:?}");
    }
    // Notes under the table, after a blank row.
    assert_eq!(standings.get((5, 0)), Some(&Data::Empty));
    assert!(
        matches!(standings.get((6, 0)), Some(Data::String(t)) if t.starts_with("Order: games won"))
    );

    // No cell of any sheet is a formula.
    for sheet in SHEETS {
        let formulas = book.worksheet_formula(sheet).unwrap();
        assert!(
            formulas.used_cells().all(|(_, _, f)| f.is_empty()),
            "{sheet} has a formula"
        );
    }

    // Every game line, scores as numbers (negative ones too), with checks.
    let games = book.worksheet_range("Games").unwrap();
    assert_eq!(
        row(&games, 0),
        [
            "Stage",
            "Session",
            "Table",
            "Game",
            "Seat",
            "ID",
            "Name",
            "Won",
            "Score",
            "Tiles left",
            "Players",
            "Finish",
            "Leader",
            "Sum of scores",
            "Card total",
            "Check"
        ]
        .map(s)
    );
    assert_eq!(
        row(&games, 2),
        [
            s("prelim"),
            s("S01"),
            Data::Float(7.0),
            Data::Float(1.0),
            s("B"),
            s("P0002"),
            s("+1+1"),
            Data::Float(0.0),
            Data::Float(-5.0),
            Data::Float(1.0),
            Data::Float(4.0),
            s("unfinished"),
            Data::Float(0.0),
            Data::Float(0.0),
            Data::Float(17.0),
            s("ok"),
        ]
    );
    assert_eq!(games.height(), 1 + 12 + 2, "12 lines and a note");

    // Until there is a final, the medal and award sheets say so.
    let medals = book.worksheet_range("Medals").unwrap();
    assert_eq!(medals.get((0, 1)), Some(&s("Medal")));
    assert!(
        matches!(medals.get((2, 0)), Some(Data::String(t)) if t.starts_with("No final stage yet"))
    );
    let awards = book.worksheet_range("Super Family Award").unwrap();
    assert!(
        matches!(awards.get((2, 0)), Some(Data::String(t)) if t.starts_with("No final stage yet"))
    );

    // Settings: counts are numbers; the event's name is there.
    let settings = book.worksheet_range("Settings").unwrap();
    let setting = |name: &str| setting_of(&settings, name).map(|(value, _)| value);
    assert_eq!(setting("[event] name"), Some(s("\"Test Open\"")));
    assert_eq!(setting("[rules] joker_value"), Some(Data::Float(30.0)));
    assert_eq!(setting("games"), Some(Data::Float(3.0)));

    // The log names the files read, with their hashes (files read, not
    // imported: no time or reason, whose columns are left out), then what
    // came of their cards, as the summary line counts them.
    let log = book.worksheet_range("Log").unwrap();
    assert_eq!(
        row(&log, 0),
        ["Action", "File", "SHA-256", "Stage", "Cards", "Games"].map(s)
    );
    assert_eq!(log.get((2, 0)), Some(&s("read")));
    assert_eq!(log.get((2, 1)), Some(&s("good/hk-examples.csv")));
    assert!(matches!(log.get((2, 2)), Some(Data::String(h)) if h.len() == 64));
    assert_eq!(
        row(&log, 3),
        [
            s("accepted"),
            Data::Empty,
            Data::Empty,
            s("prelim"),
            Data::Float(1.0),
            Data::Float(3.0),
        ]
    );
    assert_eq!(
        row(&log, 4),
        [
            s("rejected"),
            Data::Empty,
            Data::Empty,
            Data::Empty,
            Data::Float(0.0),
            Data::Empty,
        ]
    );
    assert_eq!(log.height(), 5);
}

#[test]
fn csv_never_lets_a_name_start_a_formula_and_numbers_stay_numbers() {
    let scratch = Scratch::new("csv");
    let roster = formula_roster(&scratch);
    let out = export(&roster).args(["--format", "csv"]).run().success();
    for name in FORMULA_NAMES {
        let escaped = format!("'{name}");
        let quoted = format!("\"'{}\"", name.replace('"', "\"\""));
        assert!(
            out.stdout.contains(&format!(",{escaped},")) || out.stdout.contains(&quoted),
            "{name} not escaped:\n{}",
            out.stdout
        );
    }
    // the negative score of B in game 1, the text of the name before it
    assert!(
        out.stdout
            .contains("prelim,S01,7,1,B,P0002,'+1+1,0,-5,1,4,"),
        "{}",
        out.stdout
    );
    // the same rule in the other commands' CSV
    Test::new()
        .args(["standings", "--format", "csv"])
        .fixture("good/hk-examples.csv")
        .arg("--roster")
        .arg(&roster)
        .run()
        .success()
        .stdout_has("1,P0001,\"'=HYPERLINK(\"\"x\"\")\",,3,2,17.33,52,5,Q,");
}

#[test]
fn several_tables_in_one_csv_each_named_after_a_blank_line() {
    let out = Test::new()
        .args(["export", "--format", "csv"])
        .fixture("good/hk-examples.csv")
        .roster()
        .run()
        .success();
    let tables = csv_tables(&out.stdout);
    let names: Vec<&str> = tables.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, SHEETS, "{}", out.stdout);
    assert!(out.stdout.starts_with(
        "Standings prelim\nrank,player,name,group,games,won,avg_score,total_score,tiles,status,note\n"
    ));
    let blocks: Vec<&str> = tables.iter().map(|(_, table)| table.as_str()).collect();
    assert!(blocks[2].starts_with("group,medal,rank,player,name,note"));
    assert!(blocks[5].starts_with("what,session,table,player,name\nplayed no game,,,P0005,"));
    assert!(blocks[6].starts_with("severity,place,message"));
    assert!(blocks[7].starts_with("setting,value,about\n"));
}

#[test]
fn json_keys_each_table_by_its_name() {
    let out = Test::new()
        .args(["export", "--format", "json"])
        .fixture("good/hk-examples.csv")
        .roster()
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        doc["Standings prelim"][0]["avg_score"],
        serde_json::json!(17.33)
    );
    assert_eq!(doc["Games"].as_array().map(Vec::len), Some(12));
    assert_eq!(
        doc["Settings"][2]["setting"],
        serde_json::json!("[event] profile")
    );
    assert_eq!(doc["Settings"][2]["value"], serde_json::json!("\"hk\""));
}

#[test]
fn the_terminal_shows_every_table() {
    Test::new()
        .arg("export")
        .fixture("good/hk-examples.csv")
        .roster()
        .run()
        .success()
        .stdout_has("Standings, prelim (hk rules): 4 ranked, 0 apart")
        .stdout_has("Every game line: 1 cards, 3 games, 12 lines")
        .stdout_has("No final stage yet");
}

#[test]
fn nothing_is_written_while_a_card_has_an_error() {
    let scratch = Scratch::new("errors");
    let out = scratch.path("results.xlsx");
    Test::new()
        .arg("export")
        .fixture("bad/check3-sum-not-zero.csv")
        .roster()
        .arg("-o")
        .arg(&out)
        .run()
        .failure(1)
        .stderr_has("Nothing exported");
    assert!(!out.exists());
    assert_eq!(std::fs::read_dir(&scratch.0).unwrap().count(), 0);
}

#[test]
fn a_tie_at_the_cutoff_is_in_the_export_or_stops_it_under_error() {
    let scratch = Scratch::new("ties");
    let out = scratch.path("results.xlsx");
    Test::new()
        .args(["export", "--top", "2"])
        .fixture("ties/shared-rank.csv")
        .roster()
        .arg("-o")
        .arg(&out)
        .run()
        .success()
        .stderr_has("TIE AT THE CUTOFF");
    let mut book: Xlsx<_> = open_workbook(&out).unwrap();
    let q = book.worksheet_range("Qualifiers").unwrap();
    // (the Note column, the last: no Age group column, nobody has one)
    assert_eq!(q.get((0, 9)), Some(&s("Note")));
    assert_eq!(q.get((3, 9)), Some(&s("tie at cutoff, shared rank 2")));
    let problems = book.worksheet_range("Problems").unwrap();
    // (the decision has no place in the cards: no Place column)
    assert_eq!(row(&problems, 0), ["Severity", "Message"].map(s));
    assert!(
        matches!(problems.get((1, 1)), Some(Data::String(t)) if t.starts_with("TIE AT THE CUTOFF"))
    );
    std::fs::remove_file(&out).unwrap();

    Test::new()
        .args(["export", "--top", "2", "--cutoff-ties", "error"])
        .fixture("ties/shared-rank.csv")
        .roster()
        .arg("-o")
        .arg(&out)
        .run()
        .failure(1)
        .stderr_has("Nothing exported: a qualifier list waits for the director");
    assert!(!out.exists());
}

#[test]
fn an_output_file_of_unknown_format_is_refused() {
    Test::new()
        .arg("export")
        .fixture("good/hk-examples.csv")
        .args(["-o", "results.pdf"])
        .run()
        .failure(2)
        .stderr_has("cannot tell the format of results.pdf");
}

fn table(name: &str, rows: usize) -> Table {
    Table {
        name: name.to_string(),
        title: name.to_string(),
        columns: vec![Column::int("n")],
        rows: vec![Vec::new(); rows],
        notes: Vec::new(),
    }
}

#[test]
fn sheet_names_keep_excels_rules() {
    let wanted = [
        "Standings prelim [50/64]",
        "Standings prelim 50:64",
        "Standings final, the group of players aged seventy-five and over",
        "Standings final, the group of players aged seventy-five and older",
        "'Quoted'",
        "history",
        "",
        "長者組長者組長者組長者組長者組長者組長者組長者組長者組長者組長者組",
    ];
    let tables: Vec<Table> = wanted.iter().map(|n| table(n, 1)).collect();
    let names = sheet_names(&tables);
    for (w, n) in wanted.iter().zip(&names) {
        assert!(
            rust_xlsxwriter::utility::check_sheet_name(n).is_ok(),
            "{w:?} -> {n:?}"
        );
        assert!(!n.eq_ignore_ascii_case("history"), "{n}");
    }
    let mut lower: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
    lower.sort();
    lower.dedup();
    assert_eq!(lower.len(), names.len(), "unique: {names:?}");
    assert_eq!(names[0], "Standings prelim _50_64_");
    assert_eq!(sheet_name("Medals", &["MEDALS".to_string()]), "Medals (2)");

    // Written and read back as named.
    let bytes = tilerank::report::xlsx::Xlsx::default()
        .export(&tables)
        .unwrap();
    let mut book = Xlsx::new(std::io::Cursor::new(bytes)).unwrap();
    assert_eq!(book.sheet_names(), names);
    assert_eq!(
        book.worksheet_range(&names[7]).unwrap().get((0, 0)),
        Some(&s("N"))
    );
}

#[test]
fn a_table_longer_than_a_sheet_is_refused_with_a_clear_message() {
    let err = check_rows(&[table("Games", 10), table("Log", 3)], 10)
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "a workbook sheet holds at most 10 rows and Games needs 11 rows: nothing written; write CSV instead (--format csv), which has no row limit"
    );
    // Excel's own limit: the header and 1,048,576 rows are one row too many.
    let err = tilerank::report::xlsx::Xlsx::default()
        .export(&[table("Games", MAX_ROWS)])
        .unwrap_err()
        .to_string();
    assert!(err.contains("at most 1048576 rows"), "{err}");
    assert!(tilerank::report::xlsx::Xlsx::default()
        .export(&[table("Games", 5)])
        .is_ok());
}

/// An export saved among the card files it was made from is no card
/// file: the next run says so of the whole workbook, once, and reads its
/// cards from the files alone (its Games sheet, read as cards, would give
/// each table twice).
#[test]
fn an_export_among_the_cards_is_not_read_as_cards() {
    let scratch = Scratch::new("among");
    let cards = scratch.path("cards");
    std::fs::create_dir_all(&cards).unwrap();
    std::fs::copy(
        crate::test::fixtures().join("good/hk-examples.csv"),
        cards.join("S01.csv"),
    )
    .unwrap();
    Test::new()
        .arg("export")
        .arg(&cards)
        .roster()
        .arg("-o")
        .arg(cards.join("results.xlsx"))
        .run()
        .success();
    let out = Test::new()
        .arg("check")
        .arg(&cards)
        .roster()
        .run()
        .success();
    let warning = format!(
        "{}: warning: this is a workbook tilerank exported (its Settings sheet names tilerank {}), not cards: it was not read",
        cards.join("results.xlsx").display(),
        env!("CARGO_PKG_VERSION")
    );
    out.stderr_has(&warning)
        .stderr_has("2 files: 1 card accepted, 3 games; 0 errors, 1 warning");
}

/// The Games sheet lists the games as the event plays them: the stages in
/// the order of the event's settings (the Gwinnett demo: prelim, semi,
/// final, which is not their names' order), then session, table and game.
#[test]
fn the_games_sheet_follows_the_events_stage_order() {
    let scratch = Scratch::new("games-order");
    let mut book = demo_workbook(&scratch, "gwinnett");
    let games = book.worksheet_range("Games").unwrap();
    assert_eq!(
        row(&games, 0)[..4],
        ["Stage", "Session", "Table", "Game"].map(s)
    );
    // the game lines (the notes come after a blank row)
    let lines: Vec<Vec<Data>> = (1..games.height())
        .map(|r| row(&games, r))
        .take_while(|r| r[0] != Data::Empty)
        .collect();
    assert_eq!(
        lines.len(),
        9 * 3 * 3 + 3 * 2 * 3 + 3,
        "every seat of every game"
    );
    let first = &lines[0];
    let last = &lines[lines.len() - 1];
    assert_eq!(
        first[..4],
        [s("prelim"), s("S01"), Data::Float(1.0), Data::Float(1.0)]
    );
    assert_eq!(
        last[..4],
        [s("final"), s("S01"), Data::Float(1.0), Data::Float(1.0)]
    );
    let mut stages: Vec<String> = lines.iter().map(|r| r[0].to_string()).collect();
    stages.dedup();
    assert_eq!(stages, ["prelim", "semi", "final"]);
    // within a stage: session, table, game, each ascending
    let key = |r: &Vec<Data>| {
        let n = |d: &Data| match d {
            Data::Float(f) => *f,
            other => panic!("{other:?} is not a number"),
        };
        (r[1].to_string(), n(&r[2]) as i64, n(&r[3]) as i64)
    };
    for pair in lines.windows(2) {
        if pair[0][0] == pair[1][0] {
            assert!(key(&pair[0]) <= key(&pair[1]), "{pair:?}");
        }
    }
}

/// The number format of each number cell of a workbook's `n`th sheet (1
/// the first), by cell (`F2`): its format code, `General` for the plain
/// one; read from the sheet's and the styles' XML, as a spreadsheet
/// program reads them.
fn number_formats(book: &Path, n: usize) -> BTreeMap<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(book).unwrap();
    let mut zip = zip::ZipArchive::new(file).unwrap();
    let mut member = |name: &str| {
        let mut text = String::new();
        zip.by_name(name)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        text
    };
    let sheet = member(&format!("xl/worksheets/sheet{n}.xml"));
    let styles = member("xl/styles.xml");
    let attr = |tag: &str, name: &str| -> Option<String> {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(tag[at..].split('"').next()?.to_string())
    };
    // the styles: each <xf> of cellXfs, its numFmtId's code
    let codes: BTreeMap<String, String> = styles
        .split("<numFmt ")
        .skip(1)
        .filter_map(|t| {
            Some((
                attr(&format!(" {t}"), "numFmtId")?,
                attr(&format!(" {t}"), "formatCode")?,
            ))
        })
        .collect();
    let builtin = |id: &str| match id {
        "0" => "General".to_string(),
        "1" => "0".to_string(),
        "2" => "0.00".to_string(),
        other => codes
            .get(other)
            .cloned()
            .unwrap_or_else(|| format!("builtin {other}")),
    };
    let xfs: Vec<String> = styles
        .split("<cellXfs")
        .nth(1)
        .unwrap()
        .split("</cellXfs>")
        .next()
        .unwrap()
        .split("<xf ")
        .skip(1)
        .map(|t| builtin(&attr(&format!(" {t}"), "numFmtId").unwrap_or_else(|| "0".into())))
        .collect();
    let mut found = BTreeMap::new();
    for cell in sheet.split("<c ").skip(1) {
        let tag = format!(" {}", cell.split('>').next().unwrap());
        // numbers only: no t="s" (shared string) or other type
        if attr(&tag, "t").is_some() || !cell.contains("<v>") {
            continue;
        }
        let style = attr(&tag, "s").map_or(0, |s| s.parse::<usize>().unwrap());
        found.insert(attr(&tag, "r").unwrap(), xfs[style].clone());
    }
    found
}

/// The formats of the number cells of column `letter` (`F`), rows 2 on.
fn formats_of_column(formats: &BTreeMap<String, String>, letter: &str) -> BTreeSet<String> {
    formats
        .iter()
        .filter(|(cell, _)| {
            cell.strip_prefix(letter)
                .is_some_and(|row| row.parse::<u32>().is_ok_and(|r| r > 1))
        })
        .map(|(_, f)| f.clone())
        .collect()
}

/// The HK demo's workbook as a director reads it: no Age group column
/// (nobody has one: hk plays no age groups), and every score column in
/// one number format on every row: averages with two decimals (`50.00`
/// beside `68.33`), totals with what their values need.
#[test]
fn the_demo_workbook_has_no_empty_column_and_one_format_a_score_column() {
    let scratch = Scratch::new("demo-formats");
    let out = scratch.path("hk-2026.xlsx");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/hk-2026");
    Test::new()
        .arg("export")
        .arg(demo.join("cards"))
        .arg("--roster")
        .arg(demo.join("roster.csv"))
        .arg("-o")
        .arg(&out)
        .run()
        .success();
    let mut book: Xlsx<_> = open_workbook(&out).unwrap();
    let names = book.sheet_names();
    let standings = book.worksheet_range("Standings prelim").unwrap();
    assert_eq!(
        row(&standings, 0),
        [
            "Rank",
            "ID",
            "Name",
            "Games",
            "Won",
            "Average score",
            "Total score",
            "Tiles left",
            "Status",
            "Note"
        ]
        .map(s)
    );
    let formats = number_formats(&out, 1);
    // The averages: 0.00 on every row, whole ones (50) too.
    let whole_average = (1..standings.height())
        .find(|&r| matches!(standings.get((r, 5)), Some(Data::Float(f)) if f.fract() == 0.0))
        .expect("a whole average in the demo");
    assert_eq!(
        formats
            .get(&format!("F{}", whole_average + 1))
            .map(String::as_str),
        Some("0.00")
    );
    assert_eq!(
        formats_of_column(&formats, "F"),
        BTreeSet::from(["0.00".to_string()])
    );
    // Totals: one format for the whole column (some are split pots).
    assert_eq!(formats_of_column(&formats, "G").len(), 1, "{formats:?}");
    // The Games sheet's scores, sums and card totals: one format each.
    let games = names.iter().position(|n| n == "Games").unwrap() + 1;
    let formats = number_formats(&out, games);
    let header = row(&book.worksheet_range("Games").unwrap(), 0);
    for label in ["Score", "Sum of scores", "Card total"] {
        let at = header.iter().position(|h| *h == s(label)).unwrap();
        let letter = ((b'A' + at as u8) as char).to_string();
        assert_eq!(formats_of_column(&formats, &letter).len(), 1, "{label}");
    }
}

/// The Gwinnett demo's export (`--format csv`): its tables by name.
fn gwinnett_export() -> BTreeMap<String, String> {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/gwinnett");
    let out = Test::new()
        .args(["export", "--format", "csv", "--event"])
        .arg(&demo)
        .run()
        .success();
    csv_tables(&out.stdout).into_iter().collect()
}

/// `tilerank ARGS --event examples/gwinnett --format csv`, its one table.
fn gwinnett_command(args: &[&str]) -> String {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/gwinnett");
    let out = Test::new()
        .args(args)
        .args(["--format", "csv", "--event"])
        .arg(&demo)
        .run()
        .success();
    out.stdout
}

/// Every stage that sends players on has its list in the export, the
/// one `advance --stage` gives: the Gwinnett demo's prelim (to the semi)
/// and semi (to the final); the final sends nobody on.
#[test]
fn the_export_lists_who_goes_on_from_every_stage_that_sends_players_on() {
    let tables = gwinnett_export();
    let names: Vec<&str> = tables.keys().map(String::as_str).collect();
    for name in ["Qualifiers", "Qualifiers semi"] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    assert!(!names.contains(&"Qualifiers final"), "{names:?}");
    assert_eq!(
        tables["Qualifiers"].trim_end(),
        gwinnett_command(&["advance", "--stage", "prelim"]).trim_end()
    );
    assert_eq!(
        tables["Qualifiers semi"].trim_end(),
        gwinnett_command(&["advance", "--stage", "semi"]).trim_end()
    );
    // the semi's three table winners, who play the final
    assert_eq!(tables["Qualifiers semi"].lines().count(), 1 + 3);
}

/// A later stage's qualifier list is titled with its stage on the screen,
/// in the words the site's page uses ("Qualifiers from the semi-final");
/// the first stage's as before; the CSV's columns are the same.
#[test]
fn a_later_stages_qualifiers_title_names_the_stage() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/gwinnett");
    let screen = |stage: &str| {
        Test::new()
            .args(["qualifiers", "--stage", stage, "--event"])
            .arg(&demo)
            .run()
            .success()
    };
    screen("semi").stdout_has(
        "Qualifiers from the semi-final for the final: each table's lowest total (gwinnett rules), 3 players",
    );
    screen("prelim").stdout_has(
        "Qualifiers for the semi: each table's lowest total (gwinnett rules), 9 players",
    );
    let csv = gwinnett_command(&["qualifiers", "--stage", "semi"]);
    assert!(csv.starts_with("group,player,name,reason\n,GW10,"), "{csv}");
}

/// The Settings sheet shows the settings that play a part under the
/// event's rules: no top-N count nor cutoff policy where players go on by
/// their tables, no penalty mode without a charge, no minimum age unset;
/// HK's (the top 120) keeps them.
#[test]
fn the_settings_sheet_shows_only_the_settings_the_rules_apply() {
    let tables = gwinnett_export();
    let settings: Vec<&str> = tables["Settings"]
        .lines()
        .filter_map(|l| l.split(',').next())
        .collect();
    for gone in [
        "[qualifiers] top",
        "[qualifiers] cutoff_ties",
        "[qualifiers] seats",
        "[rules] penalty_mode",
        "[rules] min_age",
        // the final sends nobody on: no tie of it to settle
        "[stages.final] named",
        "[awards] family_child_ages",
    ] {
        assert!(!settings.contains(&gone), "{gone} in {settings:?}");
    }
    for kept in [
        "[rules] joker_value",
        "[rules] no_winner_by",
        "[qualifiers] rule",
        "[qualifiers] per_table",
        "[qualifiers] table_ties",
        "[stages.semi] games",
        "[stages.semi] named",
        "[stages.final] carry",
        "[standings] order",
        "tilerank",
    ] {
        assert!(settings.contains(&kept), "{kept} not in {settings:?}");
    }
    let out = Test::new()
        .args(["export", "--format", "csv"])
        .fixture("good/hk-examples.csv")
        .roster()
        .run()
        .success();
    let hk: BTreeMap<String, String> = csv_tables(&out.stdout).into_iter().collect();
    for line in [
        "[qualifiers] top,120,",
        "[qualifiers] cutoff_ties,\"\"\"include\"\"\",",
        "[rules] penalty_mode,\"\"\"replace\"\"\",",
        "[rules] min_age,7,",
    ] {
        assert!(hk["Settings"].contains(&format!("\n{line}")), "{line}");
    }
    assert!(!hk["Settings"].contains("\n[qualifiers] table_ties,"));
}

/// The row of the Settings sheet `range` whose setting is `name`: its
/// value and what it is about.
fn setting_of(range: &calamine::Range<Data>, name: &str) -> Option<(Data, Data)> {
    (0..range.height())
        .find(|&r| range.get((r, 0)) == Some(&s(name)))
        .map(|r| (row(range, r)[1].clone(), row(range, r)[2].clone()))
}

/// The Settings sheet names each setting where tilerank.toml gives it
/// (`[qualifiers] rule`, `[stages.semi] carry`), with its value as the
/// file writes it and its line of doc from the settings' declaration:
/// how players go on and each later stage's settings too.
#[test]
fn the_settings_sheet_names_each_setting_as_tilerank_toml_does() {
    let scratch = Scratch::new("settings-sheet");
    let mut book = demo_workbook(&scratch, "gwinnett");
    let settings = book.worksheet_range("Settings").unwrap();
    assert_eq!(row(&settings, 0), ["Setting", "Value", "About"].map(s));
    let setting = |name: &str| setting_of(&settings, name).map(|(value, _)| value);
    assert_eq!(
        setting("[event] profile"),
        Some(s("\"gwinnett\"")),
        "{settings:?}"
    );
    assert_eq!(
        setting("[qualifiers] rule"),
        Some(s("\"best_at_each_table\""))
    );
    assert_eq!(setting("[qualifiers] per_table"), Some(Data::Float(1.0)));
    assert_eq!(setting("[qualifiers] table_ties"), Some(s("\"all\"")));
    assert_eq!(setting("[qualifiers] named"), Some(s("[\"GW07\"]")));
    assert_eq!(setting("[rules] scoring"), Some(s("\"penalty_points\"")));
    assert_eq!(
        setting("[standings] order"),
        Some(s("[\"total_score:lower\", \"games_won:higher\"]"))
    );
    assert_eq!(setting("[stages.semi] games"), Some(Data::Float(2.0)));
    assert_eq!(setting("[stages.semi] carry"), Some(s("\"none\"")));
    assert_eq!(setting("[stages.semi] absent"), Some(s("[]")));
    assert_eq!(setting("[stages.final] games"), Some(Data::Float(1.0)));
    let about = |name: &str| match setting_of(&settings, name) {
        Some((_, Data::String(about))) => about,
        other => panic!("{name}: {other:?}"),
    };
    assert!(about("[qualifiers] rule").starts_with("Who goes on from each stage: "));
    assert!(about("[stages.semi] carry").starts_with("What the stage carries over"));
    // the old names are gone
    for old in ["qualifiers", "order", "games.semi", "event", "profile"] {
        assert_eq!(setting(old), None, "{old}");
    }
}

/// A setting changed in the event's tilerank.toml changes its row; a
/// setting the change brings into play gets one (the award's ages), and
/// the award's average is headed as penalty points.
#[test]
fn a_changed_setting_changes_its_row() {
    let scratch = Scratch::new("settings-changed");
    let event = scratch.path("gwinnett");
    crate::test::copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/gwinnett"),
        &event,
    );
    let toml = std::fs::read_to_string(event.join("tilerank.toml")).unwrap();
    let toml = toml.replace(
        "[stages.semi]\ngames = 2\n",
        "[stages.semi]\ngames = 2\ncarry = \"half\"\n",
    ) + "\n[awards]\nsuper_family = true\n";
    std::fs::write(event.join("tilerank.toml"), toml).unwrap();
    let mut book = event_workbook(&scratch, &event);
    let settings = book.worksheet_range("Settings").unwrap();
    let setting = |name: &str| setting_of(&settings, name).map(|(value, _)| value);
    assert_eq!(setting("[stages.semi] carry"), Some(s("\"half\"")));
    assert_eq!(setting("[stages.final] carry"), Some(s("\"none\"")));
    assert_eq!(setting("[awards] super_family"), Some(s("true")));
    assert_eq!(setting("[awards] family_child_ages"), Some(s("[7, 18]")));
    let award = book.worksheet_range("Super Family Award").unwrap();
    let header = row(&award, 0);
    assert!(header.contains(&s("Average penalty points")), "{header:?}");
    assert!(!header.contains(&s("Average score")), "{header:?}");
}

/// Under penalty points the Games sheet heads a game's score "Penalty
/// points" and the standings' order line names the total "total penalty
/// points" (as the standings head it), in the workbook and on the
/// terminal; zero-sum events keep "Score" and their order line.
#[test]
fn penalty_points_are_named_so_in_the_games_sheet_and_the_order_line() {
    let scratch = Scratch::new("penalty-labels");
    let order = "Order: total penalty points (lower first), then games won (more first).";
    let mut book = demo_workbook(&scratch, "gwinnett");
    let games = book.worksheet_range("Games").unwrap();
    let header = row(&games, 0);
    assert!(header.contains(&s("Penalty points")), "{header:?}");
    assert!(!header.contains(&s("Score")), "{header:?}");
    for sheet in ["Standings prelim", "Standings semi", "Standings final"] {
        let range = book.worksheet_range(sheet).unwrap();
        let notes: Vec<Data> = (0..range.height())
            .map(|r| row(&range, r)[0].clone())
            .collect();
        assert!(notes.contains(&s(order)), "{sheet}: {notes:?}");
    }
    // CSV keeps the column's name
    assert!(gwinnett_export()["Games"]
        .starts_with("stage,session,table,game,seat,player,name,won,score,tiles,"));
    let gwinnett = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/gwinnett");
    Test::new()
        .args(["standings", "--event"])
        .arg(&gwinnett)
        .run()
        .success()
        .stdout_has(order)
        .stdout_lacks("total points");
    Test::new()
        .args(["explain", "GW24", "--event"])
        .arg(&gwinnett)
        .run()
        .success()
        .stdout_has("on total penalty points (lower first)");
    // zero-sum scores keep their words
    let scratch = Scratch::new("zero-sum-labels");
    let out = scratch.path("hk.xlsx");
    export(&fixtures().join("roster.csv"))
        .arg("-o")
        .arg(&out)
        .run()
        .success();
    let mut book: Xlsx<_> = open_workbook(&out).unwrap();
    let header = row(&book.worksheet_range("Games").unwrap(), 0);
    assert!(header.contains(&s("Score")), "{header:?}");
    assert!(!header.contains(&s("Penalty points")), "{header:?}");
    let standings = book.worksheet_range("Standings prelim").unwrap();
    let notes: Vec<String> = (0..standings.height())
        .map(|r| row(&standings, r)[0].to_string())
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("Order: games won (more first)")),
        "{notes:?}"
    );
    assert!(!notes.iter().any(|n| n.contains("penalty")), "{notes:?}");
}

/// Under penalty points the standings head the scores "Average penalty
/// points" and "Total penalty points" (workbook and terminal); CSV and
/// JSON keep the column names scripts read.
#[test]
fn penalty_points_head_the_standings_as_penalty_points() {
    let scratch = Scratch::new("penalty-headers");
    let mut book = demo_workbook(&scratch, "gwinnett");
    for sheet in ["Standings prelim", "Standings semi", "Standings final"] {
        let range = book.worksheet_range(sheet).unwrap();
        let header = row(&range, 0);
        for h in ["Average penalty points", "Total penalty points"] {
            assert!(header.contains(&s(h)), "{sheet}: {header:?}");
        }
        assert!(!header.contains(&s("Average score")), "{sheet}: {header:?}");
    }
    let tables = gwinnett_export();
    assert!(tables["Standings prelim"]
        .starts_with("rank,player,name,group,games,won,avg_score,total_score,tiles,status,note\n"));
    let terminal = Test::new()
        .args(["standings", "--event"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/gwinnett"))
        .run()
        .success();
    terminal
        .stdout_has("Average penalty points")
        .stdout_has("Total penalty points")
        .stdout_lacks("Average score");
    // zero-sum scores keep their words
    Test::new()
        .arg("standings")
        .fixture("good/hk-examples.csv")
        .roster()
        .run()
        .success()
        .stdout_has("Average score")
        .stdout_lacks("penalty");
}

/// An award the event's rules do not give has no sheet: the NVSO and
/// Gwinnett demos give none; HK's has its sheet (above).
#[test]
fn an_award_the_rules_do_not_give_has_no_sheet() {
    for demo in ["gwinnett", "nvso-2023"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples")
            .join(demo);
        let out = Test::new()
            .args(["export", "--format", "csv", "--event"])
            .arg(&dir)
            .run()
            .success();
        let names: Vec<String> = csv_tables(&out.stdout)
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert!(names.contains(&"Medals".to_string()), "{demo}: {names:?}");
        assert!(
            !names.contains(&"Super Family Award".to_string()),
            "{demo}: {names:?}"
        );
    }
}

/// `tilerank export results.xlsx`, the file to write given where the cards
/// to read go: said so, with the command that writes it, and nothing read.
#[test]
fn an_export_file_given_as_an_input_is_told_to_follow_o() {
    let scratch = Scratch::new("export-meant");
    let meant = scratch.path("results.xlsx").display().to_string();
    Test::new()
        .args(["export", &meant])
        .in_dir(&scratch.0)
        .run()
        .failure(2)
        .stderr_has(&format!(
            "{meant}: no such file or folder to read; to write the export there, give it after -o: tilerank export -o {meant}"
        ));
}

/// The workbook `export` writes for the demo event `examples/NAME`, opened.
fn demo_workbook(scratch: &Scratch, name: &str) -> Xlsx<std::io::BufReader<std::fs::File>> {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name);
    event_workbook(scratch, &demo)
}

/// The workbook `export` writes for the event folder `event`, opened.
fn event_workbook(scratch: &Scratch, event: &Path) -> Xlsx<std::io::BufReader<std::fs::File>> {
    let name = event.file_name().unwrap().to_string_lossy();
    let out = scratch.path(&format!("{name}.xlsx"));
    Test::new()
        .arg("export")
        .arg("--event")
        .arg(event)
        .arg("-o")
        .arg(&out)
        .run()
        .success();
    open_workbook(&out).unwrap()
}

/// `--format` and the file name of `-o` name different formats: refused
/// before anything is read, and no file is written (a CSV in a file
/// named .xlsx would not open in a spreadsheet program). A name that says
/// no format (`.txt`, none) takes what --format says.
#[test]
fn a_format_the_file_name_contradicts_is_refused() {
    let s = crate::test::Scratch::new("format-vs-name");
    let out = s.path("standings.xlsx");
    Test::new()
        .arg("standings")
        .fixture("good/hk-examples.csv")
        .args(["--format", "csv", "-o"])
        .arg(&out)
        .run()
        .failure(2)
        .stderr_has(&format!(
            "tilerank: --format csv but {} is named as xlsx: give a file name of the format, or leave --format out",
            out.display()
        ));
    assert!(!out.exists());
    let txt = s.path("standings.txt");
    Test::new()
        .arg("standings")
        .fixture("good/hk-examples.csv")
        .args(["--format", "csv", "-o"])
        .arg(&txt)
        .run()
        .success();
    assert!(std::fs::read_to_string(&txt).unwrap().starts_with("rank,"));
}
