//! The racks layout: the tool scores each game from what was left on the
//! racks (RULES.md sections 2 to 4), and every rack is checked.
//!
//! `racks/s01.csv`, worked by hand:
//!
//! Table 7
//! - game 1, nobody out: racks 5, 10, 15, 20; A leads (m = 5): A +30, B -5,
//!   C -10, D -15; A won.
//! - game 2, nobody out: A lists R3 B5 K1 O1 Y2 K2 B3 = 17 (7 tiles); B 8,
//!   C 20, D 18; B leads (m = 8): A -9, C -12, D -10, B +31; B won.
//! - game 3, A out: B 23 + one joker 30 = 53; C no-meld 100; D knocked 200
//!   (not counted, tiles blank): A +353.
//! - totals A +374 (2 won, 8 tiles), B -27 (1, 6), C -122 (0, 8), D -225
//!   (0, 4 + 4 + 14 for the knocked rack = 22).
//!
//! Table 8
//! - game 1, nobody out: 6, 6, 6, 16: three leaders share a pot of 10:
//!   A, B, C +10/3 (printed 3.33), D -10; A and B won (2 tiles; C has 3).
//! - game 2, A out: B two jokers 60, C refused-meld 200, D 4: A +264.
//! - game 3, B out: A 9, C 9, D 1: B +19.
//! - totals A +258.33 (2 won, 4 tiles), B -37.67 (2, 4), C -205.67 (0, 7),
//!   D -15 (0, 7).
//!
//! Ranks (games won, then average): P0001 (374/3), P0005 (258.33/3), P0006,
//! P0002, P0008 (-5), P0003 (-40.67), P0007 (-68.56), P0004 (-75).

use crate::test::{fixtures, Scratch, Test};

#[test]
fn every_score_is_computed_from_the_racks() {
    let out = Test::new()
        .args(["score", "--format", "csv"])
        .fixture("racks/s01.csv")
        .roster()
        .run()
        .success();
    let rows = out.csv();
    assert_eq!(
        rows[0],
        ["session", "table", "game", "seat", "player", "won", "score", "tiles"]
    );
    let line = |table: &str, game: &str, seat: &str| {
        rows.iter()
            .find(|r| r[1] == table && r[2] == game && r[3] == seat)
            .map(|r| (r[5].clone(), r[6].clone(), r[7].clone()))
            .unwrap()
    };
    let l = |w: &str, s: &str, t: &str| (w.to_string(), s.to_string(), t.to_string());
    assert_eq!(line("7", "1", "A"), l("1", "30", "1"));
    assert_eq!(
        line("7", "2", "A"),
        l("0", "-9", "7"),
        "a listed rack counts its tiles"
    );
    assert_eq!(line("7", "2", "B"), l("1", "31", "1"));
    assert_eq!(line("7", "3", "A"), l("1", "353", "0"));
    assert_eq!(line("7", "3", "B"), l("0", "-53", "4"), "a joker counts 30");
    assert_eq!(
        line("7", "3", "C"),
        l("0", "-100", "3"),
        "no-meld replaces the rack"
    );
    assert_eq!(
        line("7", "3", "D"),
        l("0", "-200", ""),
        "knocked: the charge, tiles blank"
    );
    assert_eq!(
        line("8", "1", "A"),
        l("1", "3.33", "2"),
        "a pot split three ways"
    );
    assert_eq!(
        line("8", "1", "C"),
        l("0", "3.33", "3"),
        "a leader with more tiles did not win"
    );
    assert_eq!(line("8", "2", "B"), l("0", "-60", "2"));
    assert_eq!(line("8", "2", "C"), l("0", "-200", "1"), "refused-meld");
}

/// The title counts the cards scored, in the singular for one.
#[test]
fn the_title_counts_one_card_in_the_singular() {
    let s = Scratch::new("racks-one");
    let all = std::fs::read_to_string(fixtures().join("racks/s01.csv")).unwrap();
    let one: Vec<&str> = all.lines().filter(|l| !l.starts_with("S01,8,")).collect();
    let file = s.write("t7.csv", &(one.join("\n") + "\n"));
    for (file, title) in [
        (file, "Results: 1 card\n"),
        (fixtures().join("racks/s01.csv"), "Results: 2 cards\n"),
    ] {
        Test::new()
            .arg("score")
            .arg(&file)
            .run()
            .success()
            .stdout_has(title);
    }
}

#[test]
fn standings_from_racks_match_the_hand_worked_answer() {
    let out = Test::new()
        .args(["standings", "--format", "csv"])
        .fixture("racks/s01.csv")
        .roster()
        .run()
        .success();
    assert_eq!(
        out.column("player"),
        ["P0001", "P0005", "P0006", "P0002", "P0008", "P0003", "P0007", "P0004"]
    );
    assert_eq!(
        out.column("total_score"),
        ["374", "258.33", "-37.67", "-27", "-15", "-122", "-205.67", "-225"]
    );
    assert_eq!(
        out.column("tiles"),
        ["8", "4", "4", "6", "7", "8", "7", "22"]
    );
}

/// The results the tool computes from racks, read back as recorded cards,
/// give the same standings and qualifiers.
#[test]
fn racks_and_the_results_computed_from_them_rank_alike() {
    let computed = std::env::temp_dir().join(format!("tilerank-racks-{}.csv", std::process::id()));
    Test::new()
        .args(["score", "-o"])
        .arg(&computed)
        .fixture("racks/s01.csv")
        .roster()
        .run()
        .success();
    for command in ["standings", "qualifiers"] {
        let top: &[&str] = if command == "qualifiers" {
            &["--top", "3"]
        } else {
            &[]
        };
        let from_racks = Test::new()
            .arg(command)
            .args(top.iter().copied())
            .args(["--format", "csv"])
            .fixture("racks/s01.csv")
            .roster()
            .run()
            .success();
        let from_results = Test::new()
            .arg(command)
            .args(top.iter().copied())
            .args(["--format", "csv"])
            .arg(&computed)
            .roster()
            .run()
            .success();
        assert_eq!(from_racks.stdout, from_results.stdout, "{command}");
    }
    std::fs::remove_file(&computed).unwrap();
}

/// The printable score cards the tool writes read back as the same cards.
#[test]
fn printable_score_cards_read_back() {
    let cards = std::env::temp_dir().join(format!("tilerank-racks-{}.xlsx", std::process::id()));
    Test::new()
        .args(["score", "-o"])
        .arg(&cards)
        .fixture("racks/s01.csv")
        .roster()
        .run()
        .success();
    let from_racks = Test::new()
        .args(["standings", "--format", "csv"])
        .fixture("racks/s01.csv")
        .roster()
        .run()
        .success();
    let from_cards = Test::new()
        .args(["standings", "--format", "csv"])
        .arg(&cards)
        .roster()
        .run()
        .success();
    assert_eq!(from_racks.stdout, from_cards.stdout);
    std::fs::remove_file(&cards).unwrap();
    assert!(fixtures().join("racks/s01.csv").exists());
}

#[test]
fn every_rack_error_is_named_at_its_place() {
    Test::new()
        .arg("check")
        .fixture("racks/bad.csv")
        .roster()
        .run()
        .failure(1)
        .error_at("racks/bad.csv:4:7", &["jokers is 3", "from 0 to 2"])
        .error_at(
            "racks/bad.csv:5",
            &["seat D: points 200 with 4 numbered tiles", "worth 4 to 52"],
        )
        .error_at(
            "racks/bad.csv:6",
            &["seat A: a no-meld charge on a player who went out"],
        )
        .error_at(
            "racks/bad.csv:7:6",
            &["points is 9 but the rack lists 10 (R5 R5)"],
        )
        .error_at("racks/bad.csv:8:10", &["rack: \"R14\" is not a tile"])
        .error_at("racks/bad.csv:8:10", &["rack: \"X2\" is not a tile"])
        .error_at(
            "racks/bad.csv:9:9",
            &["penalty is \"late\"", "no-meld, refused-meld or knocked"],
        )
        .error_at(
            "racks/bad.csv:11:10",
            &["rack: R5 3 times; the set has each tile 2 times"],
        )
        .error_at("racks/bad.csv:13:8", &["rack not given"])
        .stderr_has("0 cards accepted");
}

#[test]
fn a_game_of_two_players_out_or_more_tiles_than_the_set_is_refused() {
    let dir = std::env::temp_dir().join(format!("tilerank-racks-game-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.csv");
    let mut text = "session,table,game,seat,player,points,jokers,tiles,penalty\n".to_string();
    for game in 1..=3 {
        let racks = match game {
            1 => ["0,0,0", "0,0,0", "5,0,1", "7,0,2"],
            2 => ["500,0,50", "400,0,40", "200,0,20", "0,0,0"],
            _ => ["0,0,0", "3,0,1", "5,0,1", "7,0,2"],
        };
        for (seat, rack) in ["A", "B", "C", "D"].iter().zip(racks) {
            text.push_str(&format!(
                "S01,1,{game},{seat},P000{},{rack},\n",
                "ABCD".find(seat).unwrap() + 1
            ));
        }
    }
    std::fs::write(&file, text).unwrap();
    let out = Test::new()
        .arg("check")
        .arg(&file)
        .roster()
        .run()
        .failure(1);
    let shown = file.display().to_string();
    out.error_at(
        &format!("{shown}:2"),
        &["game 1: 2 players have 0 tiles; only one player can go out"],
    )
    .error_at(
        &format!("{shown}:6"),
        &["game 2: the racks hold 110 tiles together; the set has 106"],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The racks of `racks/s01.csv` with line `line` (from 0) changed: its
/// first `from` made `to`.
fn s01_with(line: usize, from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(fixtures().join("racks/s01.csv")).unwrap();
    let lines: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == line {
                l.replacen(from, to, 1)
            } else {
                l.to_string()
            }
        })
        .collect();
    lines.join("\n")
}

#[test]
fn a_rack_line_of_blank_seat_keeps_its_card_out() {
    // Table 7's game 1 without B's rack would score from three racks: the
    // card counts for nothing, and the one error is the blank seat.
    let scratch = Scratch::new("racks-seat");
    let file = scratch.write("s01.csv", &s01_with(2, ",B,", ",,"));
    let shown = file.display().to_string();
    check_failing(&file)
        .errors(1)
        .error_at(&format!("{shown}:3:4"), &["seat is blank"])
        .stderr_has("1 card accepted, 3 games, 1 rejected; 1 error");
}

#[test]
fn a_rack_line_of_blank_session_keeps_the_card_above_it_out() {
    // Table 7's seat C of game 1 with no session: its table and game are
    // the card's above it, which would score game 1 from three racks. The
    // card counts for nothing, and the one error is the blank session.
    let scratch = Scratch::new("racks-session");
    let file = scratch.write("s01.csv", &s01_with(3, "S01,", ","));
    let shown = file.display().to_string();
    check_failing(&file)
        .errors(1)
        .error_at(&format!("{shown}:4:1"), &["session is blank"])
        .stderr_has("1 card accepted, 3 games, 1 rejected; 1 error");
}

#[test]
fn a_rack_only_file_writes_the_rack_of_a_player_who_went_out_as_a_dash() {
    // game 1: A out (-), B -8, C -10, D -6: A +24; game 2: B out (0),
    // A -1, C -2, D -3: B +6; game 3: C out (none), A -1, B -2, D -4:
    // C +7. Totals A +22, B -4, C -5, D -13.
    let scratch = Scratch::new("racks-empty");
    let racks = [
        ["-", "R5 B3", "K10", "O1 O2 O3"],
        ["R1", "0", "R2", "R3"],
        ["B1", "B2", "none", "B4"],
    ];
    let mut text = "session,table,game,seat,player,rack\n".to_string();
    for (g, game) in racks.iter().enumerate() {
        for (i, rack) in game.iter().enumerate() {
            let seat = ["A", "B", "C", "D"][i];
            text.push_str(&format!("S01,1,{},{seat},P000{},{rack}\n", g + 1, i + 1));
        }
    }
    let file = scratch.write("racks.csv", &text);
    let out = Test::new()
        .args(["standings", "--format", "csv"])
        .arg(&file)
        .roster()
        .run()
        .success();
    let totals: Vec<(String, String)> = out
        .column("player")
        .into_iter()
        .zip(out.column("total_score"))
        .collect();
    for (player, total) in [
        ("P0001", "22"),
        ("P0002", "-4"),
        ("P0003", "-5"),
        ("P0004", "-13"),
    ] {
        assert!(
            totals.contains(&(player.to_string(), total.to_string())),
            "{player} {total}: {totals:?}"
        );
    }
    // a blank rack is still a rack not given, not an empty one
    let file = scratch.write("racks.csv", &text.replacen(",-\n", ",\n", 1));
    let shown = file.display().to_string();
    check_failing(&file).error_at(
        &format!("{shown}:2"),
        &["rack not given", "- for an empty rack"],
    );
}

/// `tilerank check FILE --roster roster.csv`, expected to fail with exit
/// status 1.
fn check_failing(file: &std::path::Path) -> crate::test::Output {
    Test::new().arg("check").arg(file).roster().run().failure(1)
}

/// An hk event folder with the fixtures' roster, that imported
/// `racks/s01.csv` (tables 7 and 8).
fn event_holding_s01(s: &Scratch) -> std::path::PathBuf {
    let dir = s.path("event");
    Test::new()
        .arg("init")
        .arg(&dir)
        .args([
            "--profile",
            "hk",
            "--name",
            "Racks Open",
            "--date",
            "2026-03-28",
        ])
        .run()
        .success();
    Test::new()
        .in_dir(&dir)
        .arg("roster")
        .arg(fixtures().join("roster.csv"))
        .run()
        .success();
    Test::new()
        .in_dir(&dir)
        .arg("import")
        .arg(fixtures().join("racks/s01.csv"))
        .run()
        .success();
    dir
}

/// Inside an event folder, a racks file the event holds is its cards, as
/// `import` takes them (README, "A tournament, step by step"): as scored,
/// they are the event's cards, said in a note and counted once, as a
/// file of any other layout; not the event's cards given twice.
#[test]
fn a_racks_file_the_event_holds_is_its_own_cards_counted_once() {
    let s = Scratch::new("racks-in-event");
    let dir = event_holding_s01(&s);
    let file = fixtures().join("racks/s01.csv");
    let shown = file.display().to_string();
    let out = Test::new()
        .in_dir(&dir)
        .arg("check")
        .arg(&file)
        .run()
        .success()
        .stderr_lacks("given twice")
        .stderr_lacks("rejected")
        .stderr_has(&format!(
            "{shown}: note: 2 cards imported already, as typed here: the event counts each once"
        ));
    assert_eq!(out.problems("note").len(), 1, "{:?}", out.problems("note"));
    // ranked once: the standings are the event's own
    let standings = |extra: &[&std::path::Path]| {
        let mut t = Test::new().in_dir(&dir).arg("standings");
        for f in extra {
            t = t.arg(f);
        }
        t.args(["--format", "csv"]).run().success()
    };
    let alone = standings(&[]).csv();
    assert_eq!(alone.len(), 9, "a header and the 8 players: {alone:?}");
    assert_eq!(standings(&[&file]).csv(), alone);
    // and the score sheets are written, those of the event alone
    let written = s.path("with-file.xlsx");
    Test::new()
        .in_dir(&dir)
        .arg("score")
        .arg(&file)
        .arg("-o")
        .arg(&written)
        .run()
        .success();
    let alone = s.path("alone.xlsx");
    Test::new()
        .in_dir(&dir)
        .args(["score", "-o"])
        .arg(&alone)
        .run()
        .success();
    assert_eq!(crate::test::sheets(&written), crate::test::sheets(&alone));
}

/// A racks file whose card differs from the event's: the error `import`
/// gives, naming where the event's card came from and when, and the
/// values that differ as scored, game and seat, the event's first; the
/// other card, as imported, is the note's.
#[test]
fn a_racks_card_that_differs_from_the_event_s_shows_what_differs() {
    let s = Scratch::new("racks-differ");
    let dir = event_holding_s01(&s);
    // table 7, game 1: B's rack 12, not 10: B -7 and A +32, not -5 and +30
    let file = s.write("s01.csv", &s01_with(2, ",10,", ",12,"));
    let shown = file.display().to_string();
    let from = fixtures().join("racks/s01.csv").display().to_string();
    let differs = format!(
        "{shown}:2: error: session S01 table 7 was imported before and differs (the event's card, imported from {from} on 20"
    );
    let lines = [
        " UTC, vs this one):\n  game 1, seat A: score 30 vs 32\n  game 1, seat B: score -5 vs -7\n",
    ];
    let out = Test::new()
        .in_dir(&dir)
        .arg("check")
        .arg(&file)
        .run()
        .failure(1)
        .errors(1)
        .stderr_has(&differs)
        .stderr_has("import it with --replace --reason")
        .stderr_has(&format!("{shown}: note: 1 card imported already"))
        .stderr_lacks("given twice");
    lines.iter().fold(out, |out, line| out.stderr_has(line));
    // what `import` says of the same file
    let out = Test::new()
        .in_dir(&dir)
        .arg("import")
        .arg(&file)
        .run()
        .failure(1)
        .stderr_has(&format!(
            "session S01 table 7 was imported before and differs (the event's card, imported from {from} on 20"
        ));
    lines.iter().fold(out, |out, line| out.stderr_has(line));
}

/// Under gwinnett (penalty points) the printed cards' score column says
/// "Penalty points", never "Score (+/-)", and the cards tilerank prints
/// read back as the same event: the Gwinnett demo's 13 cards printed by
/// `score -o`, put in the place of its CSV cards, are the same cards
/// (`check`), the same standings of every stage and the same medals, and
/// `import` takes them into a database event. The blank final card
/// `seating` prints is read as the final's, its one game to fill in.
#[test]
fn gwinnett_cards_say_penalty_points_and_read_back() {
    let s = Scratch::new("gwinnett-cards");
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/gwinnett");
    let printed = s.path("printed.xlsx");
    Test::new()
        .args(["score", "--event"])
        .arg(&demo)
        .args(["--name", "Gwinnett", "-o"])
        .arg(&printed)
        .run()
        .success();
    let sheets = crate::test::sheets(&printed);
    assert_eq!(sheets.len(), 13);
    for (name, rows) in &sheets {
        let name_row = rows.iter().position(|r| r[0] == "Name").unwrap();
        let sub = &rows[name_row + 1];
        assert_eq!(
            sub[1..10],
            [
                "Game Won (1/0)",
                "Penalty points",
                "Tiles on rack",
                "Game Won (1/0)",
                "Penalty points",
                "Tiles on rack",
                "Game Won (1/0)",
                "Penalty points",
                "Tiles on rack",
            ],
            "{name}"
        );
        assert!(rows.iter().flatten().all(|c| !c.contains("+/-")), "{name}");
    }
    // The demo with its cards as printed.
    let copy = s.path("event");
    crate::test::copy_dir(&demo, &copy);
    std::fs::remove_dir_all(copy.join("cards")).unwrap();
    std::fs::create_dir_all(copy.join("cards")).unwrap();
    std::fs::copy(&printed, copy.join("cards/printed.xlsx")).unwrap();
    Test::new()
        .args(["check", "--event"])
        .arg(&copy)
        .run()
        .success()
        .stderr_has("1 file, 13 sheets: 13 cards accepted, 34 games; 0 errors");
    let answers = |event: &std::path::Path, args: &[&str]| {
        Test::new()
            .args(args)
            .arg("--event")
            .arg(event)
            .args(["--format", "csv"])
            .run()
            .success()
            .stdout
    };
    for args in [
        &["standings", "--stage", "prelim"][..],
        &["standings", "--stage", "semi"],
        &["standings", "--stage", "final"],
        &["advance"],
        &["medals"],
    ] {
        let (demo_says, printed_say) = (answers(&demo, args), answers(&copy, args));
        assert!(demo_says.lines().count() > 3, "{args:?}: {demo_says}");
        assert_eq!(demo_says, printed_say, "{args:?}");
    }
    // import takes them into a database event under gwinnett
    let db = s.path("db");
    let db_s = db.display().to_string();
    Test::new()
        .args(["init", &db_s, "--profile", "gwinnett", "--name", "GW"])
        .run()
        .success();
    std::fs::copy(demo.join("tilerank.toml"), db.join("tilerank.toml")).unwrap();
    for (command, file) in [
        ("roster", demo.join("roster.csv")),
        ("import", printed.clone()),
    ] {
        Test::new()
            .arg(command)
            .arg(file)
            .args(["--event", &db_s])
            .run()
            .success()
            .stderr_lacks("error");
    }
    assert_eq!(
        answers(&db, &["medals"]),
        answers(&demo, &["medals"]),
        "imported"
    );
    // The blank final card: Penalty points, read as the final's card.
    let blank = s.path("final.xlsx");
    Test::new()
        .args(["seating", "--event"])
        .arg(&demo)
        .args(["--from", "semi", "--seed", "27", "-o"])
        .arg(&blank)
        .run()
        .success();
    let rows = &crate::test::sheets(&blank)[0].1;
    let name_row = rows.iter().position(|r| r[0] == "Name").unwrap();
    assert_eq!(rows[name_row + 1][2], "Penalty points");
    Test::new()
        .arg("check")
        .arg(&blank)
        .arg("--roster")
        .arg(demo.join("roster.csv"))
        .args(["--profile", "gwinnett"])
        .run()
        .failure(1)
        .errors(1)
        .warnings(0)
        .error_at(
            &blank.display().to_string(),
            &["nothing typed yet: its score card is blank, as printed (no game won, score or tiles typed); nothing was read: type the games, then give the file again"],
        )
        .stderr_lacks("sub-header");
}
