//! What the terminal says: each notice once, every file written named with
//! what is in it, hints that name flags the commands have.

use crate::test::{sheets, Scratch, Test};
use std::path::{Path, PathBuf};

fn example(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(path)
}

#[test]
fn seating_says_what_it_wrote_and_dates_the_cards() {
    let s = Scratch::new("seating");
    let out = s.path("final-cards.xlsx");
    let shown = out.display().to_string();
    Test::new()
        .args(["seating", "--event"])
        .arg(example("nvso-2023"))
        .args(["--from", "prelim", "--seed", "2023", "-o"])
        .arg(&out)
        .run()
        .success()
        .stderr_has(&format!(
            "{shown} written: 3 score cards of the final stage, one a sheet, players' names filled in, to print (Date 2023-09-13)"
        ));
    let sheets = sheets(&out);
    assert_eq!(sheets.len(), 3);
    for (name, rows) in &sheets {
        let date = rows
            .iter()
            .find(|r| r[0] == "Date:")
            .unwrap_or_else(|| panic!("{name}: no Date line"));
        assert_eq!(date[1], "2023-09-13", "{name}");
    }
}

#[test]
fn a_report_written_to_a_file_is_named_with_its_tables() {
    let s = Scratch::new("report");
    let out = s.path("standings.csv");
    Test::new()
        .args(["standings", "--format", "csv", "-o"])
        .arg(&out)
        .fixture("scorecard/good.csv")
        .roster()
        .run()
        .success()
        .stderr_has(&format!(
            "{} written: Standings prelim (4 rows)",
            out.display()
        ));
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("rank,"));
}

#[test]
fn score_says_what_it_wrote() {
    let s = Scratch::new("score");
    let out = s.path("cards.xlsx");
    Test::new()
        .args(["score", "-o"])
        .arg(&out)
        .fixture("racks/s01.csv")
        .roster()
        .run()
        .success()
        .stderr_has(&format!("{} written: ", out.display()))
        .stderr_has("filled in from the racks, one a sheet, ready to print and sign");
}

#[test]
fn inits_settings_name_the_flag_advance_has() {
    let s = Scratch::new("init");
    let dir = s.path("event");
    Test::new()
        .arg("init")
        .arg(&dir)
        .args(["--name", "Hints"])
        .run()
        .success();
    let toml = std::fs::read_to_string(dir.join("tilerank.toml")).unwrap();
    assert!(toml.contains("tilerank advance --player ID"), "{toml}");
    assert!(!toml.contains("advance --name"), "{toml}");
}

/// The tie at the cutoff of the HK demo: under the table on the screen,
/// once; on standard error when the list goes where notes do not (CSV).
#[test]
fn a_tie_at_the_cutoff_is_said_once() {
    let cards = example("hk-2026/cards");
    let roster = example("hk-2026/roster.csv");
    let table = Test::new()
        .arg("qualifiers")
        .arg(&cards)
        .arg("--roster")
        .arg(&roster)
        .run()
        .success();
    let said = |text: &str| text.matches("TIE AT THE CUTOFF").count();
    assert_eq!(
        said(&table.stdout) + said(&table.stderr),
        1,
        "{}",
        table.stderr
    );
    assert_eq!(said(&table.stdout), 1);
    let csv = Test::new()
        .args(["qualifiers", "--format", "csv"])
        .arg(&cards)
        .arg("--roster")
        .arg(&roster)
        .run()
        .success()
        .stderr_has("NOTE: TIE AT THE CUTOFF: 2 players share rank 120");
    assert_eq!(said(&csv.stdout) + said(&csv.stderr), 1);
}

/// A column cut to fit the window says so under the table, and where its
/// whole text is.
#[test]
fn a_cut_column_says_where_its_whole_text_is() {
    use tilerank::report::terminal::Terminal;
    use tilerank::report::{Column, Exporter, Table, Value};
    let table = Table {
        name: "Qualifiers".into(),
        title: "Qualifiers".into(),
        columns: vec![Column::text("name"), Column::text("note")],
        rows: vec![vec![
            Value::Text("Chiu Fai Sing".into()),
            Value::Text("tie at cutoff, shared rank 120".into()),
        ]],
        notes: Vec::new(),
    };
    let at = |width: u16| {
        let t = Terminal {
            width: Some(width),
            ..Terminal::default()
        };
        String::from_utf8(t.export(std::slice::from_ref(&table)).unwrap()).unwrap()
    };
    let narrow = at(30);
    assert!(narrow.contains("tie at cutoff, …"), "{narrow}");
    // (the note is broken between words to the width: read as one line)
    assert!(
        narrow.replace('\n', " ").contains("Cut to fit this width (…): Note (a wider window or --format csv shows the whole text)."),
        "{narrow}"
    );
    let wide = at(80);
    assert!(
        !wide.contains('…') && !wide.contains("Cut to fit"),
        "{wide}"
    );
}
