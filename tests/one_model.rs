//! One model, many views: for every profile, `qualifiers`, `advance`,
//! `explain`, `medals` and the export (read back from the workbook) name
//! the same players going on and the same medallists. Each event is copied
//! to a scratch folder; the Gwinnett ones get the director's decision in
//! `tilerank.toml` (`[qualifiers] named`), so that every command, not only
//! the one given `--player`, applies it.

use crate::test::{copy_dir, csv_tables, fixtures, Output, Scratch, Test};
use calamine::{open_workbook, Data, Reader, Xlsx};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A copy of an event folder, with `extra` added under `[qualifiers]` (in
/// place of the names the folder's settings give, when it gives any: the
/// Gwinnett demo's name the director's choice).
fn event_copy(scratch: &Scratch, source: &Path, extra: &str) -> String {
    let dir = scratch.0.join("event");
    copy_dir(source, &dir);
    if !extra.is_empty() || !dir.join("tilerank.toml").exists() {
        let toml = dir.join("tilerank.toml");
        // (a folder of files alone, as the HK demo: the profile's defaults)
        let text = std::fs::read_to_string(&toml)
            .unwrap_or_else(|_| "[event]\nname = \"demo\"\n".to_string());
        let text = if extra.is_empty() {
            text
        } else if text.contains("[qualifiers]") {
            let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with("named =")).collect();
            kept.join("\n")
                .replace("[qualifiers]", &format!("[qualifiers]\n{extra}"))
        } else {
            format!("{text}\n[qualifiers]\n{extra}\n")
        };
        std::fs::write(&toml, text).unwrap();
    }
    dir.display().to_string()
}

/// The `player` column of every table in a CSV output (tables separated
/// by a blank line, each with its header).
fn players(out: &Output) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (_, block) in csv_tables(&out.stdout) {
        let mut reader = csv::Reader::from_reader(block.as_bytes());
        let headers = reader.headers().unwrap().clone();
        let at = headers
            .iter()
            .position(|h| h == "player")
            .unwrap_or_else(|| panic!("no player column in {block}"));
        for r in reader.records() {
            found.insert(r.unwrap()[at].to_string());
        }
    }
    found
}

/// The `player` column of every sheet whose name starts with `prefix`.
fn sheet_players(book: &Path, prefix: &str) -> BTreeSet<String> {
    let mut wb: Xlsx<_> = open_workbook(book).unwrap();
    let mut found = BTreeSet::new();
    for name in wb.sheet_names() {
        if !name.starts_with(prefix) {
            continue;
        }
        let range = wb.worksheet_range(&name).unwrap();
        let mut rows = range.rows();
        let header = rows.next().unwrap();
        let at = header
            .iter()
            .position(|c| matches!(c, Data::String(s) if s == "ID" || s == "player"))
            .unwrap_or_else(|| panic!("no player column on sheet {name}"));
        // (the table's rows: its notes come after a blank row, in the
        // first column, which is the ID's when no player has a group)
        for row in rows.take_while(|r| r.iter().any(|c| *c != Data::Empty)) {
            if let Some(Data::String(p)) = row.get(at) {
                found.insert(p.clone());
            }
        }
    }
    found
}

/// The players a CSV output marks `Q` in its `status` column.
fn marked_q(out: &Output) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (_, block) in csv_tables(&out.stdout) {
        let mut reader = csv::Reader::from_reader(block.as_bytes());
        let headers = reader.headers().unwrap().clone();
        let at = |name: &str| headers.iter().position(|h| h == name).unwrap();
        let (player, status) = (at("player"), at("status"));
        for r in reader.records() {
            let r = r.unwrap();
            if &r[status] == "Q" {
                found.insert(r[player].to_string());
            }
        }
    }
    found
}

/// Each player's `status` (`Q`, `W`, `DQ` or empty) in a CSV output.
fn statuses(out: &Output) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    for (_, block) in csv_tables(&out.stdout) {
        let mut reader = csv::Reader::from_reader(block.as_bytes());
        let headers = reader.headers().unwrap().clone();
        let at = |name: &str| headers.iter().position(|h| h == name).unwrap();
        let (player, status) = (at("player"), at("status"));
        for r in reader.records() {
            let r = r.unwrap();
            found.insert(r[player].to_string(), r[status].to_string());
        }
    }
    found
}

/// The players marked `Q` on the export's standings sheets of its first
/// stage (every group's).
fn sheet_marked_q(book: &Path) -> BTreeSet<String> {
    let mut wb: Xlsx<_> = open_workbook(book).unwrap();
    let names = wb.sheet_names();
    let first = names
        .iter()
        .find(|n| n.starts_with("Standings "))
        .expect("a standings sheet");
    let stage = first.split(' ').nth(1).unwrap().to_string();
    let mut found = BTreeSet::new();
    for name in names.iter().filter(|n| n.split(' ').nth(1) == Some(&stage)) {
        if !name.starts_with("Standings ") {
            continue;
        }
        let range = wb.worksheet_range(name).unwrap();
        let mut rows = range.rows();
        let header = rows.next().unwrap();
        let at = |want: &str| {
            header
                .iter()
                .position(|c| matches!(c, Data::String(s) if s.eq_ignore_ascii_case(want)))
                .unwrap_or_else(|| panic!("no {want} column on sheet {name}"))
        };
        let (player, status) = (at("ID"), at("status"));
        for row in rows {
            if let (Some(Data::String(p)), Some(Data::String(q))) =
                (row.get(player), row.get(status))
            {
                if q == "Q" {
                    found.insert(p.clone());
                }
            }
        }
    }
    found
}

fn run(event: &str, args: &[&str]) -> Output {
    Test::new().args(args).arg("--event").arg(event).run()
}

/// Every view of one event agrees on who goes on and who has a medal.
fn views_agree(event: &str, scratch: &Scratch, expect_going: usize) {
    let qualified = players(&run(event, &["qualifiers", "--format", "csv"]).success());
    assert_eq!(qualified.len(), expect_going, "{event}: {qualified:?}");
    let advancing = players(&run(event, &["advance", "--format", "csv"]).success());
    assert_eq!(qualified, advancing, "{event}: qualifiers and advance");

    let book = scratch.0.join("results.xlsx");
    run(event, &["export", "-o", book.to_str().unwrap()]).success();
    assert_eq!(
        sheet_players(&book, "Qualifiers"),
        qualified,
        "{event}: the export's Qualifiers"
    );

    // every view of the standings marks the same players Q: the whole
    // event's, each group's, and the export's
    for by in [&["--by-group"][..], &[]] {
        let standings = run(event, &[&["standings", "--format", "csv"], by].concat()).success();
        assert_eq!(marked_q(&standings), qualified, "{event}: standings {by:?}");
    }
    assert_eq!(
        sheet_marked_q(&book),
        qualified,
        "{event}: the export's standings"
    );

    let medals = run(event, &["medals", "--format", "csv"]).success();
    let medallists = players(&medals);
    assert!(!medallists.is_empty(), "{event}: no medals");
    assert_eq!(
        sheet_players(&book, "Medals"),
        medallists,
        "{event}: the export's Medals"
    );

    // explain says the same of every player of the qualifying stage: in
    // words on the terminal, and in the status column of every format as
    // the standings mark it (Q, W, DQ)
    let standings =
        statuses(&run(event, &["standings", "--format", "csv", "--by-group"]).success());
    for p in standings.keys() {
        let out = run(event, &["explain", p]).success();
        let goes = out.stdout.contains("Goes on to the");
        let stays = out.stdout.contains("Does not go on to the");
        assert!(goes != stays, "{event} {p}: {}", out.stdout);
        assert_eq!(goes, qualified.contains(p), "{event}: explain {p}");
        let csv = statuses(&run(event, &["explain", p, "--format", "csv"]).success());
        assert_eq!(csv[p], standings[p], "{event}: explain {p} --format csv");
        assert_eq!(csv[p] == "Q", qualified.contains(p), "{event}: explain {p}");
    }
}

/// `explain` in every format gives each row's status as the standings
/// do: `Q` for a qualifier (a CSV has no note to say it in words), `W` and
/// `DQ` for players listed apart, none for the others. The HK demo has
/// them all: P0448 first, P0001 beyond the cutoff, P0215 and P0940
/// withdrawn, P0077 disqualified.
#[test]
fn explain_says_the_status_the_standings_say() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/hk-2026");
    let run = |args: &[&str]| {
        Test::new()
            .in_dir(&demo)
            .args(args)
            .args(["cards", "--roster", "roster.csv"])
            .run()
            .success()
    };
    let standings = statuses(&run(&["standings", "--format", "csv"]));
    for (p, status) in [
        ("P0448", "Q"),
        ("P0001", ""),
        ("P0215", "W"),
        ("P0940", "W"),
        ("P0077", "DQ"),
    ] {
        assert_eq!(standings[p], status, "standings {p}");
        // the player's row, and the rows above and below
        let csv = statuses(&run(&["explain", p, "--format", "csv"]));
        for (q, said) in &csv {
            assert_eq!(said, &standings[q], "explain {p} --format csv, {q}'s row");
        }
        let json = run(&["explain", p, "--format", "json"]).stdout;
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        let row = json
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["player"] == p)
            .unwrap();
        let said = row["status"].as_str().unwrap_or_default();
        assert_eq!(said, status, "explain {p} --format json");
        let table = run(&["explain", p]).stdout;
        // (the rows: between the rule under the header and the last)
        let rows = table.split('─').filter(|t| !t.trim().is_empty()).nth(2);
        let line = rows
            .and_then(|rows| rows.lines().find(|l| l.split_whitespace().any(|w| w == p)))
            .unwrap_or_else(|| panic!("explain {p}: {table}"));
        assert_eq!(
            line.split_whitespace().last() == Some("Q"),
            status == "Q",
            "explain {p}: {table}"
        );
    }
}

#[test]
fn hk_views_agree() {
    let s = Scratch::new("hk");
    let event = event_copy(&s, &fixtures().join("e2e/hk"), "");
    views_agree(&event, &s, 4);
}

#[test]
fn pressman_views_agree() {
    let s = Scratch::new("pressman");
    let event = event_copy(&s, &fixtures().join("e2e/pressman"), "");
    let out = run(&event, &["qualifiers", "--format", "csv"]).success();
    let n = players(&out).len();
    assert!(n > 0);
    views_agree(&event, &s, n);
}

#[test]
fn nvso_views_agree_per_age_group() {
    let s = Scratch::new("nvso");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/nvso-2023");
    let event = event_copy(&s, &demo, "");
    // Three age groups, a championship table of 4 each.
    views_agree(&event, &s, 12);
}

#[test]
fn gwinnett_views_agree_once_the_director_named() {
    let s = Scratch::new("gwinnett");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/gwinnett");
    let event = event_copy(&s, &demo, "named = [\"GW07\"]");
    // Nine prelim tables: nine go on, GW07 for the shared table 6.
    views_agree(&event, &s, 9);
    let q = players(&run(&event, &["qualifiers", "--format", "csv"]).success());
    assert!(q.contains("GW07") && !q.contains("GW16"));
}

/// Until the director decides, every command that presents who goes on
/// says DECISION once and exits 1: `qualifiers` and `advance` show the same
/// list marked not final, `seating` seats nobody and the export writes
/// nothing. Gwinnett's table ties wait for the director only under
/// `table_ties = "decide"`: by default (RULES.md section 7) all the tied
/// players go on and the tie is a NOTE.
#[test]
fn an_open_decision_stops_every_view() {
    let s = Scratch::new("open");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/gwinnett");
    let event = event_copy(&s, &demo, "table_ties = \"decide\"");
    for args in [
        &["qualifiers"][..],
        &["advance"],
        &["seating", "--from", "prelim"],
    ] {
        let out = run(&event, args).failure(1);
        assert_eq!(
            out.stderr.matches("DECISION: TIE at table 6").count(),
            1,
            "{args:?}: {}",
            out.stderr
        );
    }
    let q = run(&event, &["qualifiers", "--format", "csv"]).failure(1);
    let a = run(&event, &["advance", "--format", "csv"]).failure(1);
    assert_eq!(players(&q), players(&a));
    assert_eq!(players(&q).len(), 10);
    let shown = run(&event, &["qualifiers"]).failure(1);
    assert!(
        shown.stdout.contains("The list is not final"),
        "{}",
        shown.stdout
    );
    let book = s.0.join("open.xlsx");
    run(&event, &["export", "-o", book.to_str().unwrap()])
        .failure(1)
        .stderr_has("TIE at table 6");
    assert!(!book.exists(), "nothing exported while a decision is open");
    // By default every tied player goes on, the tie a NOTE, for all.
    let all = Scratch::new("open-all");
    // (the demo's settings name GW07: none named here)
    let event = event_copy(&all, &demo, "named = []");
    let out = run(&event, &["qualifiers", "--format", "csv"]).success();
    assert_eq!(
        out.stderr.matches("NOTE: TIE at table 6").count(),
        1,
        "{}",
        out.stderr
    );
    let q = players(&out);
    assert_eq!(q.len(), 10);
    assert!(q.contains("GW07") && q.contains("GW16"));
}

/// `qualifiers` and `advance` agree on every demo, and under every kind of
/// DECISION: the same players, the same exit status.
#[test]
fn qualifiers_and_advance_agree_on_every_demo_and_under_a_decision() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases: [(&str, &str, &str, i32); 5] = [
        ("hk", "examples/hk-2026", "", 0),
        ("nvso", "examples/nvso-2023", "", 0),
        ("gwinnett", "examples/gwinnett", "", 0),
        (
            "gwinnett-decide",
            "examples/gwinnett",
            "table_ties = \"decide\"",
            1,
        ),
        (
            "hk-cutoff-error",
            "examples/hk-2026",
            "cutoff_ties = \"error\"",
            1,
        ),
    ];
    for (name, demo, extra, status) in cases {
        let s = Scratch::new(&format!("agree-{name}"));
        let event = event_copy(&s, &root.join(demo), extra);
        let q = run(&event, &["qualifiers", "--format", "csv"]);
        let a = run(&event, &["advance", "--format", "csv"]);
        assert_eq!(q.status, Some(status), "{name} qualifiers: {}", q.stderr);
        assert_eq!(a.status, Some(status), "{name} advance: {}", a.stderr);
        assert_eq!(players(&q), players(&a), "{name}");
        assert!(!players(&q).is_empty(), "{name}");
    }
}

/// Out of the box, an HK event expects 12 sessions of 25 tables: with 11
/// sessions imported the qualifier list waits, naming the missing tables,
/// and `--allow-incomplete` marks it provisional.
#[test]
fn hk_out_of_the_box_waits_for_every_session() {
    let s = Scratch::new("hk-init");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/hk-2026");
    let dir = s.0.join("hk-2026");
    let event = dir.to_str().unwrap();
    Test::new()
        .args(["init", event, "--profile", "hk", "--name", "HK 2026"])
        .args(["--date", "2026-03-28"])
        .run()
        .success();
    let toml = std::fs::read_to_string(dir.join("tilerank.toml")).unwrap();
    assert!(
        toml.contains("\ncount = 12\n") && toml.contains("\ntables = 25\n"),
        "{toml}"
    );
    let on = |args: &[&str]| Test::new().args(args).arg("--event").arg(event).run();
    on(&["roster", demo.join("roster.csv").to_str().unwrap()]).success();
    for n in 1..=11 {
        let file = demo.join(format!("cards/S{n:02}.xlsx"));
        on(&["import", file.to_str().unwrap()]).success();
    }
    on(&["qualifiers"])
        .failure(1)
        .stderr_has("25 cards missing:\n  session S12: all 25 tables\n")
        .stderr_has("No qualifier list: the event is not complete")
        .stderr_has("players on the roster have not played yet\n");
    on(&["export", "-o", s.0.join("x.xlsx").to_str().unwrap()]).failure(1);
    on(&["qualifiers", "--allow-incomplete", "--format", "csv"])
        .success()
        .stdout_has("rank,player");
    on(&["import", demo.join("cards/S12.xlsx").to_str().unwrap()]).success();
    on(&["check"])
        .success()
        .stderr_has("300 cards stored in the event: 300 cards accepted, 900 games; 0 errors");
    let out = on(&["qualifiers", "--format", "csv"])
        .success()
        .stderr_has("2 players on the roster played no game: P0398, P0809\n");
    assert_eq!(players(&out).len(), 121, "the demo's tie at 120 sends 121");
}

/// The HK prelim is played in 12 sessions of 25 tables: seating the
/// demo's roster fills the sessions in order, each numbering its tables
/// from 1, and every card names its session.
#[test]
fn hk_seating_fills_the_sessions_in_order() {
    let out = Test::new()
        .args(["seating", "--roster", "../../examples/hk-2026/roster.csv"])
        .args(["--format", "csv"])
        .run()
        .success();
    let mut reader = csv::Reader::from_reader(out.stdout.as_bytes());
    let mut tables: BTreeSet<(u32, u32)> = BTreeSet::new();
    for r in reader.records() {
        let r = r.unwrap();
        tables.insert((r[0].parse().unwrap(), r[1].parse().unwrap()));
    }
    let sessions: BTreeSet<u32> = tables.iter().map(|t| t.0).collect();
    assert_eq!(sessions, (1..=12).collect());
    assert!(tables.iter().all(|&(_, t)| (1..=25).contains(&t)));
    assert_eq!(tables.iter().filter(|t| t.0 == 1).count(), 25);
}

/// Same answers whatever the source: each demo event read as its files and
/// as an event database holding the same cards (`init`, `roster`, `import`)
/// answers every reading command with the same bytes and exit status.
#[test]
fn every_view_is_the_same_from_files_and_from_the_database() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    for (demo, profile) in [
        ("hk-2026", "hk"),
        ("nvso-2023", "nvso"),
        ("gwinnett", "gwinnett"),
    ] {
        let scratch = Scratch::new(&format!("sources-{demo}"));
        let files = scratch.0.join("files");
        let db = scratch.0.join("db");
        copy_dir(&examples.join(demo), &files);
        let db_s = db.display().to_string();
        Test::new()
            .args(["init", &db_s, "--profile", profile, "--name", demo])
            .run()
            .success();
        // one settings file for both
        match std::fs::read_to_string(files.join("tilerank.toml")) {
            Ok(text) => std::fs::write(db.join("tilerank.toml"), text).unwrap(),
            Err(_) => {
                std::fs::copy(db.join("tilerank.toml"), files.join("tilerank.toml")).unwrap();
            }
        }
        let file = |name: &str| files.join(name).display().to_string();
        run(&db_s, &["roster", &file("roster.csv")]).success();
        run(&db_s, &["import", &file("cards")]).success();
        let files_s = files.display().to_string();
        for command in [
            &["standings", "--format", "csv", "--by-group"][..],
            &["qualifiers", "--format", "csv"],
            &["qualifiers"],
            &["advance", "--format", "csv"],
            &["medals", "--format", "csv"],
            &["awards", "--format", "csv"],
            &["standings", "--format", "json"],
        ] {
            let (a, b) = (run(&files_s, command), run(&db_s, command));
            if command[0] == "standings" {
                assert!(a.stdout.lines().count() > 20, "{demo}: {}", a.stderr);
            }
            assert_eq!(
                (a.status, &a.stdout),
                (b.status, &b.stdout),
                "{demo}: {command:?} from files, then from the database\n{}\n{}",
                a.stderr,
                b.stderr
            );
        }
    }
}

/// Cards imported out of their keys' order (the last session first) are
/// read back as the same event as cards imported in order: the reports
/// read them in one pass in the order stored while that is their keys'
/// order, and otherwise forget what they added (the roster stays) and
/// read them again by key.
#[test]
fn cards_stored_out_of_order_are_the_same_event() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/hk-2026");
    let mut cards: Vec<String> = std::fs::read_dir(demo.join("cards"))
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .collect();
    cards.sort();
    let scratch = Scratch::new("out-of-order");
    let event = |last_first: bool| {
        let dir = scratch
            .0
            .join(format!("hk-{last_first}"))
            .display()
            .to_string();
        Test::new()
            .args(["init", &dir, "--profile", "hk", "--name", "HK"])
            .run()
            .success();
        run(
            &dir,
            &["roster", &demo.join("roster.csv").display().to_string()],
        )
        .success();
        let mut files = cards.clone();
        if last_first {
            files.reverse();
        }
        for file in &files {
            run(&dir, &["import", file]).success();
        }
        dir
    };
    let (in_order, last_first) = (event(false), event(true));
    // what the store says of its cards' order (schema 6)
    let order = |dir: &str| -> Option<i64> {
        let db = rusqlite::Connection::open(Path::new(dir).join("tilerank.db")).unwrap();
        db.query_row("SELECT in_key_order FROM card_order", [], |r| r.get(0))
            .unwrap()
    };
    let set_order = |dir: &str, to: Option<i64>| {
        let db = rusqlite::Connection::open(Path::new(dir).join("tilerank.db")).unwrap();
        db.execute("UPDATE card_order SET in_key_order = ?1", [to])
            .unwrap();
    };
    assert_eq!(order(&in_order), Some(1));
    assert_eq!(order(&last_first), Some(0));
    let same = |told: &str| {
        for command in [
            &["standings", "--format", "csv"][..],
            &["qualifiers", "--format", "csv"],
            &["standings", "--format", "json"],
            &["check"],
        ] {
            let (a, b) = (run(&in_order, command), run(&last_first, command));
            if command[0] == "standings" {
                assert!(a.stdout.lines().count() > 20, "{}", a.stderr);
            }
            assert_eq!(
                (a.status, &a.stdout, &a.stderr),
                (b.status, &b.stdout, &b.stderr),
                "{command:?}, imported in order, then last first ({told})"
            );
        }
    };
    same("the store says so");
    // a store that does not know (made before it kept the order), and one
    // that says wrongly (edited by hand): read as stored till a card comes
    // out of order, then again by key
    set_order(&last_first, None);
    same("the store does not know");
    set_order(&last_first, Some(1));
    same("the store says in order");
}
