//! What waits for what: every answer of a stage (its standings, who goes
//! on from it, the medals and the award of the last) waits by one rule,
//! `Event::completeness_of`: for the cards the event expects and for the
//! players who went on to the stage, or to one before it, and have not
//! played it. Each command that gives such an answer waits (exit 1, what
//! is missing named) or, with `--allow-incomplete`, marks it PROVISIONAL;
//! the export's sheets say PROVISIONAL as the commands that print them
//! alone do; and a file a reader sees no title of (CSV, JSON, a workbook's
//! sheet) says it on every row.

use crate::test::{copy_dir, csv_tables};
use crate::test::{fixtures, sheets, Output, Scratch, Test};
use std::path::{Path, PathBuf};

/// A copy of the fixture event `e2e/NAME` in `scratch`.
fn copy(scratch: &Scratch, name: &str) -> PathBuf {
    let dir = scratch.0.join(name);
    copy_dir(&fixtures().join("e2e").join(name), &dir);
    dir
}

/// Keeps the lines of a card file that `keep` takes (and its header).
fn keep_lines(file: &Path, keep: impl Fn(&str) -> bool) {
    let text = std::fs::read_to_string(file).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .enumerate()
        .filter(|(i, l)| *i == 0 || keep(l))
        .map(|(_, l)| l)
        .collect();
    std::fs::write(file, kept.join("\n") + "\n").unwrap();
}

fn on(event: &Path, args: &[&str]) -> Output {
    Test::new().args(args).arg("--event").arg(event).run()
}

/// The e2e HK event (one session of two tables expected, the top 4 to the
/// final) with the prelim's table 2 not in yet and no final.
fn hk_one_card_missing(s: &Scratch) -> PathBuf {
    let dir = copy(s, "hk");
    keep_lines(&dir.join("cards/prelim.csv"), |l| {
        l.starts_with("prelim,S01,1,")
    });
    std::fs::remove_file(dir.join("cards/final.csv")).unwrap();
    dir
}

/// `explain` while the stage waits for cards: its verdict on going on is
/// marked PROVISIONAL, as the lists are, and the missing card is named;
/// once the card is in, nothing says so.
#[test]
fn explain_says_its_verdict_is_provisional_while_cards_are_missing() {
    let s = Scratch::new("explain-missing");
    let dir = hk_one_card_missing(&s);
    on(&dir, &["explain", "H01"])
        .success()
        .stderr_has("1 card missing:\n  session S01: table 2\n")
        .stdout_has("Goes on to the final: ")
        .stdout_has(" (PROVISIONAL: 1 card missing).");
    let all_in = Scratch::new("explain-all-in");
    let whole = copy(&all_in, "hk");
    on(&whole, &["explain", "H01", "--stage", "prelim"])
        .success()
        .stdout_has("Goes on to the final: ")
        .stdout_lacks("PROVISIONAL");
}

/// `advance` and `seating --from` wait as `qualifiers` does, by the same
/// gate: exit 1 naming the missing card, nothing written; with
/// `--allow-incomplete` the list is PROVISIONAL, and so is each printed
/// card of the seating.
#[test]
fn advance_and_seating_wait_for_missing_cards_as_qualifiers_does() {
    let s = Scratch::new("missing");
    let dir = hk_one_card_missing(&s);
    let missing = "1 card missing:\n  session S01: table 2\n";
    on(&dir, &["qualifiers"])
        .failure(1)
        .stdout_is("")
        .stderr_has(missing)
        .stderr_has("No qualifier list: the event is not complete (above). Import the rest, or give --allow-incomplete for a provisional list.");
    on(&dir, &["advance"])
        .failure(1)
        .stdout_is("")
        .stderr_has(missing)
        .stderr_has("No list of who goes on from the prelim: the event is not complete (above). Import the rest, or give --allow-incomplete for a provisional list.");
    let cards = s.path("final-cards.xlsx");
    on(
        &dir,
        &["seating", "--from", "prelim", "-o", cards.to_str().unwrap()],
    )
    .failure(1)
    .stderr_has(missing)
    .stderr_has(
        "Nothing seated: who goes on from the prelim is not known while the event is not complete (above).",
    );
    assert!(!cards.exists(), "no cards printed while the list waits");

    let title = "(PROVISIONAL: 1 card missing)";
    on(&dir, &["qualifiers", "--allow-incomplete"])
        .success()
        .stdout_has(title);
    on(&dir, &["advance", "--allow-incomplete"])
        .success()
        .stderr_has(missing)
        .stdout_has(&format!(
            "Going on from the prelim stage to the final: 4 players {title}"
        ));
    on(&dir, &["seating", "--from", "prelim", "--allow-incomplete"])
        .success()
        .stdout_has(&format!(
            "Seating of the final stage: 4 players at 1 table (seed 1) {title}"
        ));
    // (a seating by the standings draws nothing: no seed to say)
    on(
        &dir,
        &[
            "seating",
            "--from",
            "prelim",
            "--by",
            "standings",
            "--allow-incomplete",
        ],
    )
    .success()
    .stdout_has(&format!(
        "Seating of the final stage: 4 players at 1 table {title}"
    ));
    on(
        &dir,
        &[
            "seating",
            "--from",
            "prelim",
            "--allow-incomplete",
            "-o",
            cards.to_str().unwrap(),
        ],
    )
    .success()
    .stderr_has("1 score card of the final stage, one a sheet, players' names filled in, to print (Date 2026-03-28), each marked PROVISIONAL: 1 card missing");
    let printed = sheets(&cards);
    assert_eq!(printed.len(), 1);
    for (name, rows) in &printed {
        assert_eq!(
            rows[1][0],
            "PROVISIONAL SEATING (1 card missing): who goes on can still change. Check this table against the final seating before play.",
            "{name}: {rows:?}"
        );
    }
    // (the flag seats who goes on from a stage: --from)
    on(&dir, &["seating", "--allow-incomplete"]).failure(2);

    // Once the card is in, nothing says PROVISIONAL.
    let whole = Scratch::new("whole");
    let whole = copy(&whole, "hk");
    std::fs::remove_file(whole.join("cards/final.csv")).unwrap();
    on(&whole, &["advance", "--format", "csv"])
        .success()
        .stdout_lacks("PROVISIONAL");
    on(
        &whole,
        &["seating", "--from", "prelim", "-o", cards.to_str().unwrap()],
    )
    .success()
    .stderr_lacks("PROVISIONAL");
    assert_eq!(
        sheets(&cards)[0].1[1]
            .iter()
            .filter(|c| !c.is_empty())
            .count(),
        0
    );
}

/// A later stage waits for the players who went on to it (Gwinnett: the
/// semi's table 3 not in): who goes on from the semi, and its seating,
/// wait as the medals do; the final's standings, which the medals are,
/// say PROVISIONAL as the medals do; the prelim, complete, says nothing.
#[test]
fn a_later_stage_waits_for_the_players_who_went_on_to_it() {
    let s = Scratch::new("semi");
    let dir = copy(&s, "gwinnett");
    keep_lines(&dir.join("cards/semi.csv"), |l| !l.starts_with("semi,1,3,"));
    let waiting =
        "semi: 3 of the 9 players who went on from the prelim have no card yet: G05, G13, G23";
    on(&dir, &["advance", "--stage", "semi"])
        .failure(1)
        .stdout_is("")
        .stderr_has(waiting)
        .stderr_has("No list of who goes on from the semi");
    on(&dir, &["qualifiers", "--stage", "semi"])
        .failure(1)
        .stderr_has(waiting);
    on(&dir, &["seating", "--from", "semi"])
        .failure(1)
        .stdout_is("")
        .stderr_has(waiting)
        .stderr_has("Nothing seated");
    on(&dir, &["medals"]).failure(1).stderr_has(waiting);
    let title = "(PROVISIONAL: 3 players of the semi still to play)";
    on(&dir, &["advance", "--stage", "semi", "--allow-incomplete"])
        .success()
        .stdout_has(title);
    on(&dir, &["medals", "--allow-incomplete"])
        .success()
        .stdout_has(title);
    on(&dir, &["standings", "--stage", "final"])
        .success()
        .stdout_has(title);
    on(&dir, &["standings", "--stage", "semi"])
        .success()
        .stdout_has(title);
    // the prelim is complete: who goes on from it is final
    on(&dir, &["advance"])
        .success()
        .stdout_lacks("PROVISIONAL")
        .stderr_lacks("semi:");
    on(&dir, &["standings"])
        .success()
        .stdout_lacks("PROVISIONAL");
}

/// A table of the final held back (its correction typed twice at the
/// desk, the two typings differ) makes the final's answers wait, not the
/// prelim's: who goes on from the prelim is final (held typings gap 2).
#[test]
fn a_table_held_back_makes_only_its_stage_and_later_ones_wait() {
    let s = Scratch::new("held-final");
    let files = copy(&s, "hk");
    let ev = s.0.join("ev");
    std::fs::create_dir(&ev).unwrap();
    std::fs::copy(files.join("tilerank.toml"), ev.join("tilerank.toml")).unwrap();
    let path = |p: PathBuf| p.display().to_string();
    on(&ev, &["roster", &path(files.join("roster.csv"))]).success();
    on(&ev, &["import", &path(files.join("cards"))]).success();
    let final_csv = std::fs::read_to_string(files.join("cards/final.csv")).unwrap();
    let fixed = final_csv.replacen(
        "final,S01,1,1,A,H01,0,-10,3",
        "final,S01,1,1,A,H01,0,-10,4",
        1,
    );
    assert_ne!(fixed, final_csv);
    std::fs::write(s.0.join("final-fix.csv"), fixed).unwrap();
    std::fs::write(s.0.join("final-fix-second.csv"), &final_csv).unwrap();
    on(
        &ev,
        &[
            "import",
            "--replace",
            &path(s.0.join("final-fix.csv")),
            "--second-entry",
            &path(s.0.join("final-fix-second.csv")),
            "--reason",
            "tiles corrected",
        ],
    )
    .failure(1)
    .stderr_has("1 card held back until both typings agree");
    // the prelim's answers are final
    on(&ev, &["qualifiers"])
        .success()
        .stdout_lacks("PROVISIONAL")
        .stderr_lacks("typed twice");
    on(&ev, &["standings"])
        .success()
        .stdout_lacks("PROVISIONAL");
    // the final's wait for its table
    on(&ev, &["standings", "--stage", "final"])
        .success()
        .stdout_has("(PROVISIONAL: 1 table typed twice whose typings differ)");
    on(&ev, &["medals"])
        .failure(1)
        .stderr_has("1 table typed twice at the desk, and the two typings differ");
}

/// `check` run inside an event folder ends with what the event still
/// lacks, in the lines every reading command says it in (one computation,
/// `Event::completeness`): the missing cards session by session, the
/// players who went on and have not played, the roster's players with no
/// game. They are no error: exit 0 while the cards read are right, 1 only
/// for an error. The same files checked outside the folder say none of it.
#[test]
fn check_in_an_event_folder_ends_with_what_the_event_lacks() {
    let s = Scratch::new("check-missing");
    let dir = hk_one_card_missing(&s);
    let out = Test::new().arg("check").in_dir(&dir).run().success();
    insta::assert_snapshot!("check_in_an_event_folder_with_a_card_missing", out.stderr);
    // as qualifiers says it: the same lines
    let said = Test::new().arg("qualifiers").in_dir(&dir).run().failure(1);
    let (_, lacks) = out.stderr.split_once('\n').unwrap();
    assert!(
        said.stderr.contains(lacks),
        "{}\n---\n{}",
        said.stderr,
        out.stderr
    );
    // a card with an error: exit 1 for it, and its table said rejected,
    // apart from the tables no card was given for
    let bad = s.0.join("table2.csv");
    std::fs::write(
        &bad,
        "stage,session,table,game,seat,player,won,score,tiles\n\
         prelim,S01,2,1,A,H02,1,+40,0\nprelim,S01,2,1,B,H04,0,-12,3\n\
         prelim,S01,2,1,C,H06,0,-20,5\nprelim,S01,2,1,D,H08,0,-9,2\n",
    )
    .unwrap();
    let bad = bad.display().to_string();
    Test::new()
        .args(["check", &bad])
        .in_dir(&dir)
        .run()
        .failure(1)
        .stderr_has("game 1: the scores add up to -1, expected 0")
        .stderr_has(" errors\n1 card rejected (its errors are above):\n  session S01: table 2\n")
        .stderr_lacks("card missing");
    // the same cards checked as files, outside the folder: no schedule
    Test::new()
        .args(["check", dir.join("cards").to_str().unwrap()])
        .arg("--roster")
        .arg(dir.join("roster.csv"))
        .run()
        .success()
        .stderr_lacks("missing")
        .stderr_lacks("not played");
}

/// `check` in an event folder whose later stage has begun names the
/// players who went on to it and have no card of it yet, as the answers
/// that wait for them do; exit 0.
#[test]
fn check_in_an_event_folder_names_the_players_still_to_play() {
    let s = Scratch::new("check-semi");
    let dir = copy(&s, "gwinnett");
    keep_lines(&dir.join("cards/semi.csv"), |l| !l.starts_with("semi,1,3,"));
    on(&dir, &["check"])
        .success()
        .stderr_has("; 0 errors\nsemi: 3 of the 9 players who went on from the prelim have no card yet: G05, G13, G23\n");
}

/// The first line of what a command printed: a table's title.
fn title(out: &Output) -> String {
    out.stdout.lines().next().unwrap_or_default().to_string()
}

/// The prelim complete, the final begun (HK, the top 8 to a final of two
/// tables, one of them in): the export's prelim standings and qualifiers
/// are final, its final standings, medals and award PROVISIONAL, each
/// sheet's title the very title of the command that prints it alone.
#[test]
fn each_sheet_of_the_export_says_provisional_as_its_command_does() {
    let s = Scratch::new("export");
    let dir = copy(&s, "hk");
    let toml = dir.join("tilerank.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("top = 4", "top = 8")).unwrap();
    let still = "(PROVISIONAL: 4 players of the final still to play)";
    on(&dir, &["medals"]).failure(1).stderr_has(
        "final: 4 of the 8 players who went on from the prelim have no card yet: H05, H06, H07, H08",
    );
    let alone = [
        title(&on(&dir, &["standings"]).success()),
        title(&on(&dir, &["standings", "--stage", "final"]).success()),
        title(&on(&dir, &["qualifiers"]).success()),
        title(&on(&dir, &["medals", "--allow-incomplete"]).success()),
        title(&on(&dir, &["awards", "--allow-incomplete"]).success()),
    ];
    assert!(!alone[0].contains("PROVISIONAL"), "{alone:?}");
    assert!(alone[1].ends_with(still), "{alone:?}");
    assert!(!alone[2].contains("PROVISIONAL"), "{alone:?}");
    assert_eq!(alone[3], format!("Medals (hk rules) {still}"));
    assert_eq!(alone[4], format!("Super Family Award {still}"));
    let out = on(&dir, &["export", "--allow-incomplete", "--format", "table"]).success();
    let titles: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| {
            [
                "Standings, ",
                "Qualifiers ",
                "Medals ",
                "Super Family Award ",
            ]
            .iter()
            .any(|t| l.starts_with(t))
        })
        .collect();
    assert_eq!(titles, alone, "{}", out.stdout);
    // the Missing sheet's title counts the players it lists as still to play
    assert!(
        out.stdout.lines().any(|l| l
            == "Missing: 0 cards, 4 players still to play the final, 0 on the roster who played no game"),
        "{}",
        out.stdout
    );

    // Written to a file, their rows say it: the final's, not the prelim's.
    let mark = "PROVISIONAL: 4 players of the final still to play";
    for args in [
        &["standings", "--stage", "final", "--format", "csv"][..],
        &["medals", "--allow-incomplete", "--format", "csv"],
        &["awards", "--allow-incomplete", "--format", "csv"],
    ] {
        let notes = on(&dir, args).success().column("note");
        assert!(!notes.is_empty(), "{args:?}");
        assert!(
            notes.iter().all(|n| n.starts_with(mark)),
            "{args:?}: {notes:?}"
        );
    }
    for args in [
        &["standings", "--format", "csv"][..],
        &["qualifiers", "--format", "json"],
    ] {
        on(&dir, args).success().stdout_lacks("PROVISIONAL");
    }
    let out = on(&dir, &["export", "--allow-incomplete", "--format", "csv"]).success();
    let tables = csv_tables(&out.stdout);
    let blocks: Vec<&str> = tables.iter().map(|(_, t)| t.as_str()).collect();
    for (i, provisional) in [false, true, false, true, true].into_iter().enumerate() {
        assert_eq!(blocks[i].contains(mark), provisional, "{}", blocks[i]);
    }

    // The workbook: the same titles head the printed sheets.
    let book = s.path("results.xlsx");
    on(
        &dir,
        &["export", "--allow-incomplete", "-o", book.to_str().unwrap()],
    )
    .success();
    let headers = sheet_headers(&book);
    for (sheet, provisional) in [
        ("Standings prelim", false),
        ("Standings final", true),
        ("Qualifiers", false),
        ("Medals", true),
        ("Super Family Award", true),
    ] {
        let header = &headers[sheet];
        assert_eq!(
            header.contains("PROVISIONAL"),
            provisional,
            "{sheet}: {header}"
        );
    }
}

/// Each sheet's printed header, by sheet name.
fn sheet_headers(book: &Path) -> std::collections::BTreeMap<String, String> {
    use std::io::Read;
    let mut zip = zip::ZipArchive::new(std::fs::File::open(book).unwrap()).unwrap();
    let mut text = |name: &str| {
        let mut s = String::new();
        zip.by_name(name).unwrap().read_to_string(&mut s).unwrap();
        s
    };
    let workbook = text("xl/workbook.xml");
    let names: Vec<String> = workbook
        .split("<sheet ")
        .skip(1)
        .map(|s| {
            let at = s.find("name=\"").unwrap() + 6;
            s[at..at + s[at..].find('"').unwrap()].to_string()
        })
        .collect();
    names
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            let xml = text(&format!("xl/worksheets/sheet{}.xml", i + 1));
            let header = xml
                .split("<oddHeader>")
                .nth(1)
                .and_then(|h| h.split("</oddHeader>").next())
                .unwrap_or_default()
                .to_string();
            (name, header)
        })
        .collect()
}

/// A qualifier list written to a file while it is not final says so on
/// every row, in its `note` column (CSV and JSON have no title): while a
/// card is missing (`--allow-incomplete`), and while a tie at the cutoff
/// waits for the director (`--cutoff-ties error`, exit 1). The export's
/// Qualifiers sheet, and `advance` and `seating` written to a file, the
/// same. A final list says nothing of the kind.
#[test]
fn a_list_written_while_it_is_not_final_says_so_on_every_row() {
    let s = Scratch::new("marks");
    let dir = hk_one_card_missing(&s);
    let mark = "PROVISIONAL: 1 card missing";
    let csv = s.path("q.csv");
    on(
        &dir,
        &[
            "qualifiers",
            "--allow-incomplete",
            "-o",
            csv.to_str().unwrap(),
        ],
    )
    .success();
    let notes = column(&std::fs::read_to_string(&csv).unwrap(), "note");
    assert_eq!(notes, vec![mark; 4]);
    let json = on(
        &dir,
        &["qualifiers", "--allow-incomplete", "--format", "json"],
    )
    .success();
    let rows: Vec<serde_json::Value> = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| r["note"] == mark), "{}", json.stdout);
    for args in [
        &["advance", "--allow-incomplete", "--format", "csv"][..],
        &[
            "seating",
            "--from",
            "prelim",
            "--allow-incomplete",
            "--format",
            "csv",
        ],
    ] {
        let out = on(&dir, args).success();
        assert_eq!(out.column("note"), vec![mark; 4], "{args:?}");
    }
    let out = on(&dir, &["standings", "--format", "csv"]).success();
    assert_eq!(out.column("note"), vec![mark; 4]);
    // the export's Standings prelim and Qualifiers blocks
    let out = on(&dir, &["export", "--allow-incomplete", "--format", "csv"]).success();
    let tables = csv_tables(&out.stdout);
    let blocks: Vec<&str> = tables.iter().map(|(_, t)| t.as_str()).collect();
    for block in &blocks[..2] {
        assert_eq!(column(block, "note"), vec![mark; 4], "{block}");
    }
    // on the screen the title says it, once
    on(&dir, &["qualifiers", "--allow-incomplete"])
        .success()
        .stdout_has("(PROVISIONAL: 1 card missing)")
        .stdout_lacks("PROVISIONAL: 1 card missing\n");

    // The HK demo's tie at 120, left to the director: exit 1, and the
    // list written says on each row that it is not final.
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/hk-2026");
    let undecided = s.path("undecided.csv");
    Test::new()
        .arg("qualifiers")
        .arg(demo.join("cards"))
        .arg("--roster")
        .arg(demo.join("roster.csv"))
        .args(["--cutoff-ties", "error", "-o", undecided.to_str().unwrap()])
        .run()
        .failure(1)
        .stderr_has("DECISION: TIE AT THE CUTOFF");
    let notes = column(&std::fs::read_to_string(&undecided).unwrap(), "note");
    assert_eq!(notes.len(), 119);
    assert!(
        notes
            .iter()
            .all(|n| n.starts_with("NOT FINAL: the director decides")),
        "{notes:?}"
    );
    let decided = Test::new()
        .args(["qualifiers", "--format", "csv"])
        .arg(demo.join("cards"))
        .arg("--roster")
        .arg(demo.join("roster.csv"))
        .run()
        .success();
    assert!(!decided.stdout.contains("NOT FINAL") && !decided.stdout.contains("PROVISIONAL"));
}

/// A list that waits for the director and has nobody on it yet (three
/// players tied at rank 1 across a top-2 cutoff, `--cutoff-ties error`)
/// has no row to say NOT FINAL on: it is not written at all, to a CSV,
/// JSON or workbook file or as CSV or JSON to standard output, and the
/// command says why (exit 1). The terminal's table still shows it, its
/// title and note saying it is not final.
#[test]
fn a_list_not_final_with_nobody_on_it_is_not_written() {
    let s = Scratch::new("not-final-empty");
    let card = s.write(
        "tie3.csv",
        "session,table,game,seat,player,won,score,tiles\n\
         S01,1,1,A,P0002,1,30,0\nS01,1,1,B,P0001,0,-10,2\nS01,1,1,C,P0004,0,-10,2\nS01,1,1,D,P0003,0,-10,2\n\
         S01,1,2,A,P0002,0,-10,2\nS01,1,2,B,P0001,1,30,0\nS01,1,2,C,P0004,0,-10,2\nS01,1,2,D,P0003,0,-10,2\n\
         S01,1,3,A,P0002,0,-10,2\nS01,1,3,B,P0001,0,-10,2\nS01,1,3,C,P0004,1,30,0\nS01,1,3,D,P0003,0,-10,2\n",
    );
    let roster = s.write(
        "roster.csv",
        "id,name\nP0001,Chan Tai Man\nP0002,Lee Siu Ming\nP0003,Wong Siu Fong\nP0004,Lee Ka Yan\n",
    );
    let rules = s.write(
        "tie.toml",
        "extends = \"hk\"\nname = \"tie\"\n[qualifiers]\ntop = 2\ncutoff_ties = \"error\"\n",
    );
    let why = "the list is not final (NOT FINAL: the director decides) and has nobody on it yet, so no row could say so: written empty, it would read as the final list.";
    let run = |command: &str, more: &[&str]| {
        let mut test = Test::new()
            .arg(command)
            .arg(&card)
            .arg("--roster")
            .arg(&roster);
        test = match command {
            "qualifiers" => test.args(["--top", "2", "--cutoff-ties", "error"]),
            _ => test.arg("--rules").arg(&rules),
        };
        test.args(more)
            .run()
            .failure(1)
            .stderr_has("DECISION: TIE AT THE CUTOFF: 3 players share rank 1")
            .stderr_has("The list is not final: the director decides")
    };
    for command in ["qualifiers", "advance"] {
        for name in ["q.csv", "q.json", "q.xlsx"] {
            let file = s.path(&format!("{command}-{name}"));
            run(command, &["-o", file.to_str().unwrap()])
                .stderr_has(&format!("Nothing written to {}: {why}", file.display()))
                .stderr_lacks("written: ");
            assert!(!file.exists(), "{command} wrote {}", file.display());
        }
        for format in ["csv", "json"] {
            run(command, &["--format", format])
                .stdout_is("")
                .stderr_has(&format!("Nothing written to standard output: {why}"));
        }
        // on the screen the title and the note say it
        run(command, &[])
            .stdout_has(" 0 players\n")
            .stdout_has("The list is not final until the director decides")
            .stderr_lacks("Nothing written");
    }
}

/// One column of a CSV text, by header name.
fn column(text: &str, name: &str) -> Vec<String> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let at = reader
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name} in {text}"));
    reader
        .records()
        .map(|r| r.unwrap()[at].to_string())
        .collect()
}
