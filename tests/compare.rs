//! Double entry (issue 15): `compare` finds exactly the differences planted
//! in a second typing of the HK demo, with both places; `import
//! --second-entry` never stores a card whose two typings differ.
//!
//! The second typing is made here from the demo's checked cards: six
//! sessions copied as they are, five written as results-layout CSV (ids
//! instead of names, and `+30`, `30.0`, `1.0` spellings), one as a
//! results-layout workbook; twelve differences are planted in the CSV ones.

use crate::test::{fixtures, Scratch};
use assert_cmd::Command;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tilerank::domain::{Card, Label, Seat};
use tilerank::event::{Event, Request};
use tilerank::ingest::raw::RawCard;
use tilerank::problem::Problems;
use tilerank::profile::Rules;
use tilerank::report::Format;
use tilerank::roster::Roster;

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/hk-2026")
}

fn demo_cards() -> PathBuf {
    demo().join("cards")
}

fn session_of(card: &Card) -> u32 {
    match card.key.session {
        Label::Num(n) => n,
        ref other => panic!("demo session {other:?}"),
    }
}

fn table_of(card: &Card) -> u32 {
    match card.key.table {
        Label::Num(n) => n,
        ref other => panic!("demo table {other:?}"),
    }
}

/// The demo, read and checked: its cards and roster.
fn demo_event() -> Event {
    let event = Event::load(&Request {
        keep: tilerank::event::Keep::Cards,
        inputs: vec![demo_cards()],
        roster: Some(demo().join("roster.csv")),
        rules: Rules::hk(),
    })
    .expect("the demo reads");
    assert!(!event.problems.has_errors(), "the demo has no errors");
    assert_eq!(event.cards.len(), 300);
    event
}

/// The demo as read, before checks: every value's place in the first typing.
fn demo_raw() -> BTreeMap<(u32, u32), RawCard> {
    let mut problems = Problems::new();
    let read = tilerank::ingest::read_cards(&[demo_cards()], &mut problems).unwrap();
    read.cards
        .into_iter()
        .map(|c| {
            let (Label::Num(s), Label::Num(t)) = (&c.key.session, &c.key.table) else {
                panic!("demo labels are numbers");
            };
            ((*s, *t), c)
        })
        .collect()
}

/// One line of a results-layout CSV, as the second typist typed it.
#[derive(Clone, Debug)]
struct Line {
    table: u32,
    game: u32,
    seat: Seat,
    player: String,
    won: String,
    score: String,
    tiles: String,
}

/// How a session's CSV spells its values (all read the same).
#[derive(Clone, Copy)]
enum Spelling {
    Signed,
    Decimal,
    Names,
    Plain,
}

fn lines_of(cards: &[&Card], roster: &Roster, spelling: Spelling) -> Vec<Line> {
    let mut out = Vec::new();
    for card in cards {
        for game in &card.games {
            for r in &game.results {
                let score = match spelling {
                    Spelling::Signed => r.score.signed(),
                    Spelling::Decimal if r.score.is_whole() => format!("{}.0", r.score),
                    _ => r.score.to_string(),
                };
                let won = match spelling {
                    Spelling::Decimal => format!("{}.0", u8::from(r.won)),
                    _ => u8::from(r.won).to_string(),
                };
                let player = match spelling {
                    Spelling::Names => roster.card_name(r.player).to_string(),
                    _ => roster.get(r.player).id.clone(),
                };
                out.push(Line {
                    table: table_of(card),
                    game: game.number,
                    seat: r.seat,
                    player,
                    won,
                    score,
                    tiles: r.tiles.map_or(String::new(), |t| t.to_string()),
                });
            }
        }
    }
    out
}

fn write_csv(path: &Path, session: u32, lines: &[Line]) {
    let mut text = "session,table,game,seat,player,won,score,tiles\n".to_string();
    for l in lines {
        text.push_str(&format!(
            "S{session:02},{},{},{},{},{},{},{}\n",
            l.table, l.game, l.seat, l.player, l.won, l.score, l.tiles
        ));
    }
    std::fs::write(path, text).unwrap();
}

/// The CSV line number (header is line 1) of a card's seat in a game.
fn line_no(lines: &[Line], table: u32, game: u32, seat: Seat) -> usize {
    2 + lines
        .iter()
        .position(|l| l.table == table && l.game == game && l.seat == seat)
        .unwrap_or_else(|| panic!("no line for table {table} game {game} seat {seat}"))
}

/// The first CSV line of a game.
fn game_line(lines: &[Line], table: u32, game: u32) -> usize {
    2 + lines
        .iter()
        .position(|l| l.table == table && l.game == game)
        .unwrap()
}

/// The first CSV line of a table, and of a seat at that table.
fn first_line(lines: &[Line], table: u32, seat: Option<Seat>) -> usize {
    2 + lines
        .iter()
        .position(|l| l.table == table && seat.is_none_or(|s| l.seat == s))
        .unwrap()
}

/// One planted difference: the headline it must have, and its values'
/// lines (`FIRST vs SECOND: what`).
#[derive(Debug)]
struct Expected {
    headline: String,
    cells: Vec<String>,
}

/// The differing fields of two seats' results in a game, as the tool names them.
fn fields_differing(a: &tilerank::domain::SeatResult, b: &tilerank::domain::SeatResult) -> usize {
    usize::from(a.won != b.won) + usize::from(a.score != b.score) + usize::from(a.tiles != b.tiles)
}

/// Writes the second typing into `dir/second` and returns the twelve
/// planted differences.
fn second_typing(dir: &Path) -> Vec<Expected> {
    let event = demo_event();
    let raw = demo_raw();
    let roster = &event.roster;
    let second = dir.join("second");
    std::fs::create_dir_all(&second).unwrap();
    for s in 1..=6 {
        let name = format!("S{s:02}.xlsx");
        std::fs::copy(demo_cards().join(&name), second.join(&name)).unwrap();
    }
    let session =
        |s: u32| -> Vec<&Card> { event.cards.iter().filter(|c| session_of(c) == s).collect() };
    let card = |s: u32, t: u32| -> &Card {
        event
            .cards
            .iter()
            .find(|c| session_of(c) == s && table_of(c) == t)
            .unwrap()
    };
    let first_place = |s: u32, t: u32, game: u32, seat: Seat, field: &str| -> String {
        let c = &raw[&(s, t)];
        let line = c
            .games
            .iter()
            .find(|g| g.number == game)
            .and_then(|g| g.lines.iter().find(|l| l.seat == seat))
            .unwrap();
        let at = match field {
            "won" => line.won.at,
            "score" => line.score.at,
            _ => line.tiles.at,
        };
        c.place_of(at).to_string()
    };
    let game_place = |s: u32, t: u32, game: u32| -> String {
        let c = &raw[&(s, t)];
        c.place_of(c.games.iter().find(|g| g.number == game).unwrap().at)
            .to_string()
    };
    let card_place = |s: u32, t: u32| raw[&(s, t)].place().to_string();
    let seat_place = |s: u32, t: u32, seat: Seat| {
        let c = &raw[&(s, t)];
        c.place_of(c.seat(seat).unwrap().at).to_string()
    };
    let csv = |s: u32| format!("second/S{s:02}.csv");
    let mut expected = Vec::new();
    let key = |s: u32, t: u32| format!("session S{s:02} table {t}");

    // S07, scores signed: a transposed score, and two seats' lines swapped.
    let mut s07 = lines_of(&session(7), roster, Spelling::Signed);
    let (t, g, seat, typed) = s07
        .iter()
        .filter(|l| l.table == 1)
        .find_map(|l| {
            let v: i64 = l.score.parse().ok()?;
            let (tens, units) = (v.abs() / 10, v.abs() % 10);
            (v < 0 && (1..10).contains(&tens) && units != 0 && units != tens)
                .then(|| (l.table, l.game, l.seat, format!("-{units}{tens}")))
        })
        .expect("a two-digit loss at table 1");
    let i = line_no(&s07, t, g, seat) - 2;
    let was = std::mem::replace(&mut s07[i].score, typed.clone());
    expected.push(Expected {
        headline: format!(
            "{} vs {}:{}: {}: game {g}: 1 value differs",
            game_place(7, t, g),
            csv(7),
            game_line(&s07, t, g),
            key(7, t)
        ),
        cells: vec![format!(
            "{} vs {}:{}:7: seat {seat} score {was} vs {typed}",
            first_place(7, t, g, seat, "score"),
            csv(7),
            line_no(&s07, t, g, seat)
        )],
    });
    let c = card(7, 2);
    let g = c
        .games
        .iter()
        .find(|g| g.results[0].score != g.results[1].score)
        .unwrap();
    let (a, b) = (
        line_no(&s07, 2, g.number, Seat::A) - 2,
        line_no(&s07, 2, g.number, Seat::B) - 2,
    );
    let (la, lb) = (s07[a].clone(), s07[b].clone());
    for (i, from) in [(a, &lb), (b, &la)] {
        s07[i].won = from.won.clone();
        s07[i].score = from.score.clone();
        s07[i].tiles = from.tiles.clone();
    }
    let n = 2 * fields_differing(&g.results[0], &g.results[1]);
    let mut cells: Vec<String> = [(Seat::A, 0, &lb), (Seat::B, 1, &la)]
        .iter()
        .map(|(seat, i, now)| {
            format!(
                "{} vs {}:{}:7: seat {seat} score {} vs {}",
                first_place(7, 2, g.number, *seat, "score"),
                csv(7),
                line_no(&s07, 2, g.number, *seat),
                g.results[*i].score,
                now.score
            )
        })
        .collect();
    // and, after the values, the question they come to
    cells.push(format!(
        "{} vs {}:{}: seats A and B swapped? A's line in one typing is B's in the other, and B's is A's",
        game_place(7, 2, g.number),
        csv(7),
        game_line(&s07, 2, g.number)
    ));
    expected.push(Expected {
        headline: format!("{}: game {}: {n} values differ", key(7, 2), g.number),
        cells,
    });
    write_csv(&second.join("S07.csv"), 7, &s07);

    // S08, `30.0` spellings: a missing card, and a winner's score typed
    // with its digits swapped together with a loser's matching slip (the
    // card still adds up).
    let mut s08 = lines_of(&session(8), roster, Spelling::Decimal);
    s08.retain(|l| l.table != 3);
    expected.push(Expected {
        headline: format!(
            "{}: {}: only in the first typing",
            card_place(8, 3),
            key(8, 3)
        ),
        cells: vec![],
    });
    let (t, g, winner, loser, w, w2, l, l2) = (4..=25)
        .flat_map(|t| card(8, t).games.iter().map(move |g| (t, g)))
        .find_map(|(t, g)| {
            let win = g.results.iter().find(|r| r.won && r.score.is_whole())?;
            let v = win.score.numer();
            let (tens, units) = (v / 10, v % 10);
            if !(1..10).contains(&tens) || units >= tens {
                return None;
            }
            let v2 = units * 10 + tens;
            let d = v - v2;
            let lose = g
                .results
                .iter()
                .find(|r| r.score.is_whole() && r.score.numer() + d < 0)?;
            Some((
                t,
                g.number,
                win.seat,
                lose.seat,
                v,
                v2,
                lose.score.numer(),
                lose.score.numer() + d,
            ))
        })
        .expect("a winner's two-digit score in S08");
    for (seat, typed) in [(winner, format!("{w2}.0")), (loser, format!("{l2}.0"))] {
        let i = line_no(&s08, t, g, seat) - 2;
        s08[i].score = typed;
    }
    expected.push(Expected {
        headline: format!("{}: game {g}: 2 values differ", key(8, t)),
        cells: vec![
            format!(
                "{} vs {}:{}:7: seat {winner} score {w} vs {w2}.0",
                first_place(8, t, g, winner, "score"),
                csv(8),
                line_no(&s08, t, g, winner)
            ),
            format!(
                "{} vs {}:{}:7: seat {loser} score {l} vs {l2}.0",
                first_place(8, t, g, loser, "score"),
                csv(8),
                line_no(&s08, t, g, loser)
            ),
        ],
    });
    write_csv(&second.join("S08.csv"), 8, &s08);

    // S09, players by name: a wrong player, a tiles slip, a winner typed 0.
    let mut s09 = lines_of(&session(9), roster, Spelling::Names);
    let stranger = roster.card_name(card(9, 6).seats[2].player).to_string();
    let was = s09
        .iter()
        .find(|l| l.table == 5 && l.seat == Seat::C)
        .unwrap()
        .player
        .clone();
    s09.iter_mut()
        .filter(|l| l.table == 5 && l.seat == Seat::C)
        .for_each(|l| l.player = stranger.clone());
    expected.push(Expected {
        headline: format!("{}: the players differ", key(9, 5)),
        cells: vec![format!(
            "{} vs {}:{}:5: seat C player {was:?} vs {stranger:?}",
            seat_place(9, 5, Seat::C),
            csv(9),
            first_line(&s09, 5, Some(Seat::C))
        )],
    });
    let i = s09
        .iter()
        .position(|l| l.table == 7 && l.won == "0" && !l.tiles.is_empty())
        .unwrap();
    let (g, seat, was) = (s09[i].game, s09[i].seat, s09[i].tiles.clone());
    let typed = (was.parse::<u32>().unwrap() + 1).to_string();
    s09[i].tiles = typed.clone();
    expected.push(Expected {
        headline: format!("{}: game {g}: 1 value differs", key(9, 7)),
        cells: vec![format!(
            "{} vs {}:{}:8: seat {seat} tiles {was} vs {typed}",
            first_place(9, 7, g, seat, "tiles"),
            csv(9),
            i + 2
        )],
    });
    let i = s09
        .iter()
        .position(|l| l.table == 8 && l.game == 1 && l.won == "1")
        .unwrap();
    let seat = s09[i].seat;
    s09[i].won = "0".into();
    expected.push(Expected {
        headline: format!("{}: game 1: 1 value differs", key(9, 8)),
        cells: vec![format!(
            "{} vs {}:{}:6: seat {seat} game won 1 vs 0",
            first_place(9, 8, 1, seat, "won"),
            csv(9),
            i + 2
        )],
    });
    write_csv(&second.join("S09.csv"), 9, &s09);

    // S10: a card typed under a wrong table number (two differences: the
    // card is missing, and a table 26 appears), and a game not typed.
    let mut s10 = lines_of(&session(10), roster, Spelling::Plain);
    s10.iter_mut()
        .filter(|l| l.table == 9)
        .for_each(|l| l.table = 26);
    s10.retain(|l| !(l.table == 10 && l.game == 3));
    expected.push(Expected {
        headline: format!(
            "{}: {}: only in the first typing",
            card_place(10, 9),
            key(10, 9)
        ),
        cells: vec![],
    });
    expected.push(Expected {
        headline: format!(
            "{}:{}: {}: only in the second typing",
            csv(10),
            first_line(&s10, 26, None),
            key(10, 26)
        ),
        cells: vec![],
    });
    expected.push(Expected {
        headline: format!(
            "{} vs {}:{}: {}: game 3 is only in the first typing",
            game_place(10, 10, 3),
            csv(10),
            first_line(&s10, 10, None),
            key(10, 10)
        ),
        cells: vec![],
    });
    write_csv(&second.join("S10.csv"), 10, &s10);

    // S11: a game copied from the neighbouring table, and two players'
    // names swapped for the whole card.
    let mut s11 = lines_of(&session(11), roster, Spelling::Plain);
    let (t, g) = (12..25)
        .filter(|&t| t != 14)
        .find_map(|t| {
            let (here, next) = (card(11, t), card(11, t + 1));
            let seats = |c: &Card| {
                c.games[1]
                    .results
                    .iter()
                    .map(|r| r.seat)
                    .collect::<Vec<_>>()
            };
            (seats(here) == seats(next)).then_some((t, 2))
        })
        .expect("two neighbouring tables with the same seats");
    let (here, next) = (card(11, t), card(11, t + 1));
    let n: usize = here.games[1]
        .results
        .iter()
        .zip(&next.games[1].results)
        .map(|(a, b)| fields_differing(a, b))
        .sum();
    let copied: Vec<Line> = s11
        .iter()
        .filter(|l| l.table == t + 1 && l.game == g)
        .cloned()
        .collect();
    for from in &copied {
        let i = line_no(&s11, t, g, from.seat) - 2;
        s11[i].won = from.won.clone();
        s11[i].score = from.score.clone();
        s11[i].tiles = from.tiles.clone();
    }
    expected.push(Expected {
        headline: format!("{}: game {g}: {n} values differ", key(11, t)),
        cells: vec![],
    });
    let (pa, pb) = (
        roster.get(card(11, 14).seats[0].player).id.clone(),
        roster.get(card(11, 14).seats[1].player).id.clone(),
    );
    let (na, nb) = (
        roster.card_name(card(11, 14).seats[0].player).to_string(),
        roster.card_name(card(11, 14).seats[1].player).to_string(),
    );
    for l in s11.iter_mut().filter(|l| l.table == 14) {
        if l.seat == Seat::A {
            l.player = pb.clone();
        } else if l.seat == Seat::B {
            l.player = pa.clone();
        }
    }
    expected.push(Expected {
        headline: format!("{}: the players differ", key(11, 14)),
        cells: vec![
            format!(
                "{} vs {}:{}:5: seat A player {na:?} vs {pb:?}",
                seat_place(11, 14, Seat::A),
                csv(11),
                first_line(&s11, 14, Some(Seat::A))
            ),
            format!(
                "{} vs {}:{}:5: seat B player {nb:?} vs {pa:?}",
                seat_place(11, 14, Seat::B),
                csv(11),
                first_line(&s11, 14, Some(Seat::B))
            ),
            format!(
                "{} vs {}:{}: seats A and B swapped? A's player in one typing is B's in the other, and B's is A's",
                card_place(11, 14),
                csv(11),
                first_line(&s11, 14, None)
            ),
        ],
    });
    write_csv(&second.join("S11.csv"), 11, &s11);

    // S12, a results-layout workbook (a different layout and format), as is.
    let s12: Vec<Card> = session(12).into_iter().cloned().collect();
    let table = tilerank::report::cards::results_table(&s12, roster);
    let bytes = Format::Xlsx.exporter().export(&[table]).unwrap();
    std::fs::write(second.join("S12.xlsx"), bytes).unwrap();

    assert_eq!(expected.len(), 12);
    expected
}

fn tilerank(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("tilerank").unwrap();
    cmd.current_dir(dir).env("NO_COLOR", "1");
    cmd
}

#[test]
fn the_twelve_differences_planted_in_a_second_typing_of_the_demo_are_found_and_nothing_else() {
    let scratch = Scratch::new("demo");
    let expected = second_typing(&scratch.0);
    let out = tilerank(&scratch.0)
        .arg("compare")
        .arg(demo_cards())
        .arg("second")
        .arg("--roster")
        .arg(demo().join("roster.csv"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let shown = format!("--- stdout:\n{stdout}\n--- stderr:\n{stderr}");
    assert_eq!(out.status.code(), Some(1), "{shown}");
    let headlines: Vec<&str> = stdout.lines().filter(|l| !l.starts_with("  ")).collect();
    assert_eq!(
        headlines.len(),
        12,
        "exactly the planted differences\n{shown}"
    );
    for e in &expected {
        let found: Vec<&&str> = headlines
            .iter()
            .filter(|h| h.contains(&e.headline))
            .collect();
        assert_eq!(found.len(), 1, "headline {:?}\n{shown}", e.headline);
        for cell in &e.cells {
            assert!(
                stdout.lines().any(|l| l == format!("  {cell}")),
                "value line {cell:?}\n{shown}"
            );
        }
    }
    // Two seats swapped is asked where planted only (the lines above)
    assert_eq!(stdout.matches("swapped?").count(), 2, "{shown}");
    // The places read like the files: a workbook cell, a CSV line and field.
    assert!(stdout.contains("S07.xlsx[Table 01]!"), "{shown}");
    assert!(stdout.contains(" vs second/S07.csv:"), "{shown}");
    assert!(
        stderr
            .contains("first typing 300 cards, second typing 299 cards: 289 agree; 12 differences"),
        "{shown}"
    );
}

#[test]
fn the_same_cards_in_another_layout_agree() {
    let scratch = Scratch::new("agree");
    let event = demo_event();
    let s01: Vec<Card> = event
        .cards
        .iter()
        .filter(|c| session_of(c) == 1)
        .cloned()
        .collect();
    let lines = lines_of(
        &s01.iter().collect::<Vec<_>>(),
        &event.roster,
        Spelling::Signed,
    );
    write_csv(&scratch.0.join("S01.csv"), 1, &lines);
    let out = tilerank(&scratch.0)
        .arg("compare")
        .arg(demo_cards().join("S01.xlsx"))
        .arg("S01.csv")
        .arg("--roster")
        .arg(demo().join("roster.csv"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(
        stderr.contains("first typing 25 cards, second typing 25 cards: 25 agree; no difference"),
        "{stderr}"
    );
}

#[test]
fn an_id_and_a_name_need_the_roster_to_be_one_player() {
    let scratch = Scratch::new("names");
    let first = fixtures().join("good/hk-examples.csv");
    let roster = std::fs::read_to_string(fixtures().join("roster.csv")).unwrap();
    let name = roster
        .lines()
        .find(|l| l.starts_with("P0001,"))
        .and_then(|l| l.split(',').nth(1))
        .unwrap()
        .to_string();
    let text = std::fs::read_to_string(&first)
        .unwrap()
        .replace(",P0001,", &format!(",{name},"));
    std::fs::write(scratch.0.join("named.csv"), text).unwrap();
    let out = tilerank(&scratch.0)
        .arg("compare")
        .arg(&first)
        .arg("named.csv")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "named.csv:2:5: seat A player \"P0001\" vs {name:?}"
        )),
        "{stdout}"
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("give --roster"),
        "a hint: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    tilerank(&scratch.0)
        .arg("compare")
        .arg(&first)
        .arg("named.csv")
        .arg("--roster")
        .arg(fixtures().join("roster.csv"))
        .assert()
        .code(0);
}

#[test]
fn a_typing_that_cannot_be_read_is_exit_status_2() {
    let scratch = Scratch::new("missing");
    let out = tilerank(&scratch.0)
        .args(["compare", "nowhere.csv"])
        .arg(fixtures().join("good/hk-examples.csv"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("nowhere.csv: no such file or folder"),
        "{stderr}"
    );
}

/// One file given as both typings (by another path, or in a folder given
/// as the second) agrees with itself: refused, exit status 2.
#[test]
fn a_file_given_as_both_typings_is_refused() {
    let scratch = Scratch::new("both");
    let good = fixtures().join("good");
    let file = good.join("hk-examples.csv");
    let said = format!(
        "{}: given as both typings; the second typing is typed apart from the first, from the signed cards (nothing compared)",
        file.display()
    );
    for second in [
        file.clone(),
        good.join(".").join("hk-examples.csv"),
        good.clone(),
    ] {
        let out = tilerank(&scratch.0)
            .arg("compare")
            .arg(&file)
            .arg(&second)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{second:?}: {stderr}");
        assert!(
            stderr.contains("given as both typings") && stderr.contains("(nothing compared)"),
            "{second:?}: {stderr}"
        );
    }
    let out = tilerank(&scratch.0)
        .arg("compare")
        .arg(&file)
        .arg(&file)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains(&said));
}

/// Runs tilerank in `dir`; returns the exit status, stdout and stderr.
fn run(dir: &Path, args: &[&std::ffi::OsStr]) -> (Option<i32>, String, String) {
    let out = tilerank(dir).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

macro_rules! args {
    ($($a:expr),* $(,)?) => { &[$(std::ffi::OsStr::new($a)),*] };
}

/// An HK event `ev` in `dir` holding the demo's roster, and the demo's
/// session 1 as lines to type: as on the cards, and with one slip (a
/// tile too many at table 3), a second typist's.
fn desk_event(dir: &Path) -> (Vec<Line>, Vec<Line>) {
    let roster = demo().join("roster.csv");
    let (code, _, err) = run(
        dir,
        args![
            "init",
            "ev",
            "--profile",
            "hk",
            "--name",
            "Desk",
            "--date",
            "2026-03-28"
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run(dir, args!["roster", roster.as_os_str(), "--event", "ev"]);
    assert_eq!(code, Some(0), "{err}");
    let event = demo_event();
    let s01: Vec<&Card> = event.cards.iter().filter(|c| session_of(c) == 1).collect();
    let good = lines_of(&s01, &event.roster, Spelling::Plain);
    let mut slipped = good.clone();
    let i = slipped.iter().position(|l| l.table == 3).unwrap();
    slipped[i].tiles = (slipped[i].tiles.parse::<u32>().unwrap() + 1).to_string();
    (good, slipped)
}

/// `check` of the event `ev` of `dir` finds S01's 25 cards in: none of
/// its tables missing, none held back by double entry.
fn assert_all_in(dir: &Path) {
    let (_, _, err) = run(dir, args!["check", "--event", "ev"]);
    assert!(err.contains("25 cards accepted"), "{err}");
    assert!(!err.contains("typed twice"), "{err}");
    assert!(!err.contains("session S01"), "{err}");
}

/// `import S01.xlsx --second-entry S01-second.csv` into the event `ev` of
/// `dir` (made by [`desk_event`]): its exit status, output and messages.
fn import_s01_typed_twice(dir: &Path) -> (Option<i32>, String, String) {
    let s01_xlsx = demo_cards().join("S01.xlsx");
    run(
        dir,
        args![
            "import",
            s01_xlsx.as_os_str(),
            "--second-entry",
            "S01-second.csv",
            "--event",
            "ev"
        ],
    )
}

#[test]
fn a_double_entry_import_stores_only_the_cards_both_typings_agree_on() {
    let scratch = Scratch::new("import");
    let dir = &scratch.0;
    let (good, mut slipped) = desk_event(dir);
    // The second typist slips at table 3 and skips table 5.
    slipped.retain(|l| l.table != 5);
    write_csv(&dir.join("S01-second.csv"), 1, &slipped);

    let s01_xlsx = demo_cards().join("S01.xlsx");
    let s01_xlsx = s01_xlsx.display();
    let (code, _, err) = import_s01_typed_twice(dir);
    assert_eq!(code, Some(1), "cards held back: {err}");
    for text in [
        "session S01 table 3: game 1: 1 value differs",
        "session S01 table 5: only in the first typing",
        "double entry: 23 cards agree with the second typing (S01-second.csv); 2 cards held back until both typings agree (listed above)",
    ] {
        assert!(err.contains(text), "{text:?} in\n{err}");
    }
    // the file's line and the last one say the cards held back
    let said = format!(
        "double entry: 23 cards agree with the second typing (S01-second.csv); 2 cards held back until both typings agree (listed above)\n\
         {s01_xlsx}: 23 cards imported, 0 replaced, 0 unchanged; 2 cards held back until both typings agree (see above)\n\
         1 file: 1 imported (23 cards), 2 cards held back until both typings agree\n"
    );
    assert!(err.ends_with(&said), "{said}\nat the end of\n{err}");
    let (_, _, err) = run(dir, args!["check", "--event", "ev"]);
    assert!(err.contains("23 cards accepted"), "{err}");
    let (_, log, _) = run(dir, args!["log", "--event", "ev", "--format", "csv"]);
    assert!(
        log.contains("double entry: confirmed by S01-second.csv (2 cards held back)"),
        "{log}"
    );

    // Imported again, typed the same: nothing new, and the two cards are
    // still held back (not "already imported").
    let (code, _, err) = import_s01_typed_twice(dir);
    assert_eq!(code, Some(1), "cards held back: {err}");
    let said = format!(
        "double entry: 23 cards agree with the second typing (S01-second.csv); 2 cards held back until both typings agree (listed above)\n\
         {s01_xlsx}: 0 cards imported, 0 replaced, 23 unchanged; 2 cards held back until both typings agree (see above)\n\
         1 file: 0 imported (0 cards), 1 already imported, 2 cards held back until both typings agree\n"
    );
    assert!(err.ends_with(&said), "{said}\nat the end of\n{err}");
    assert!(!err.contains("nothing to do"), "{err}");

    // Corrected, the two cards held back come in; the others are unchanged.
    write_csv(&dir.join("S01-second.csv"), 1, &good);
    let (code, _, err) = import_s01_typed_twice(dir);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("S01.xlsx: 2 cards imported, 0 replaced, 23 unchanged"),
        "{err}"
    );
    assert_all_in(dir);
}

/// A file of one table, held back by double entry: its line says so, not
/// a file left out (the last line said "0 files"), nor a file imported
/// (it said "1 imported (0 cards)").
#[test]
fn a_file_all_of_whose_cards_are_held_back_by_double_entry_says_so() {
    let scratch = Scratch::new("import-held-file");
    let dir = &scratch.0;
    let (good, slipped) = desk_event(dir);
    let table_3 =
        |lines: &[Line]| -> Vec<Line> { lines.iter().filter(|l| l.table == 3).cloned().collect() };
    write_csv(&dir.join("T03.csv"), 1, &table_3(&good));
    write_csv(&dir.join("T03-second.csv"), 1, &table_3(&slipped));
    let (code, _, err) = run(
        dir,
        args![
            "import",
            "T03.csv",
            "--second-entry",
            "T03-second.csv",
            "--event",
            "ev"
        ],
    );
    assert_eq!(code, Some(1), "held back: {err}");
    let said = "double entry: 0 cards agree with the second typing (T03-second.csv); 1 card held back until both typings agree (listed above)\n\
                T03.csv: 0 cards imported, 0 replaced, 0 unchanged; 1 card held back until both typings agree (see above)\n\
                1 file: 0 imported (0 cards), 1 card held back until both typings agree\n";
    assert!(err.ends_with(said), "{said}\nat the end of\n{err}");
}

/// One table's card imported with the whole session's second typing (the
/// referee's file beside the desk's card): the session's other tables are
/// not imported now, named in one line, not listed each as "only in the
/// second typing" (exit 1 for a card that went in). A card typed under a
/// wrong table number is paired with the second typing's card of the same
/// players, and only that one.
#[test]
fn a_tables_card_with_the_whole_sessions_second_typing_leaves_the_other_tables_out() {
    let scratch = Scratch::new("import-one-table");
    let dir = &scratch.0;
    let (good, _) = desk_event(dir);
    let table = |t: u32| -> Vec<Line> { good.iter().filter(|l| l.table == t).cloned().collect() };
    write_csv(&dir.join("T03.csv"), 1, &table(3));
    write_csv(&dir.join("S01-second.csv"), 1, &good);
    let import = |file: &str| {
        run(
            dir,
            args![
                "import",
                file,
                "--second-entry",
                "S01-second.csv",
                "--event",
                "ev"
            ],
        )
    };
    let (code, _, err) = import("T03.csv");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        err,
        "double entry: 24 cards of the second typing left out, their tables not in the files imported (session S01 tables 1-2, 4-25)\n\
         double entry: 1 card agrees with the second typing (S01-second.csv); none held back\n\
         T03.csv: 1 card imported, 0 replaced, 0 unchanged\n\
         1 file: 1 imported (1 card)\n"
    );

    // table 5's card typed as table 30
    let mut wrong = table(5);
    wrong.iter_mut().for_each(|l| l.table = 30);
    write_csv(&dir.join("T30.csv"), 1, &wrong);
    let (code, _, err) = import("T30.csv");
    assert_eq!(code, Some(1), "held back: {err}");
    assert_eq!(err.matches("only in the").count(), 2, "{err}");
    for text in [
        ": session S01 table 30: only in the first typing",
        ": session S01 table 5: only in the second typing",
        "double entry: 24 cards of the second typing left out, their tables not in the files imported (session S01 tables 1-4, 6-25)\n",
        "T30.csv: 0 cards imported, 0 replaced, 0 unchanged; 1 card held back until both typings agree (see above)\n",
    ] {
        assert!(err.contains(text), "{text:?} in\n{err}");
    }
}

/// A file the double-entry check refuses (its agreed card breaks a rule)
/// is counted in the last line, as a file refused by a plain import is
/// (it said "2 files" for three).
#[test]
fn a_file_refused_by_a_double_entry_import_is_counted_in_the_last_line() {
    let scratch = Scratch::new("import-refused-counted");
    let dir = &scratch.0;
    let (mut good, _) = desk_event(dir);
    // (table 2's card, typed the same twice, does not add up)
    let i = good
        .iter()
        .position(|l| l.table == 2 && l.won == "0")
        .unwrap();
    good[i].score = (good[i].score.parse::<i64>().unwrap() - 1).to_string();
    let table = |t: u32| -> Vec<Line> { good.iter().filter(|l| l.table == t).cloned().collect() };
    for t in 1..=3 {
        write_csv(&dir.join(format!("T0{t}.csv")), 1, &table(t));
    }
    let all: Vec<Line> = (1..=3).flat_map(table).collect();
    write_csv(&dir.join("T-second.csv"), 1, &all);
    let (code, _, err) = run(
        dir,
        args![
            "import",
            "T01.csv",
            "T02.csv",
            "T03.csv",
            "--second-entry",
            "T-second.csv",
            "--event",
            "ev"
        ],
    );
    assert_eq!(code, Some(1), "refused: {err}");
    assert_eq!(
        err.matches("T02.csv: nothing imported (errors above)\n")
            .count(),
        1,
        "{err}"
    );
    assert!(
        err.ends_with("3 files: 2 imported (2 cards), 1 with errors: nothing imported from it\n"),
        "{err}"
    );
}

/// A card both typings agree on that a rule refuses gets the hint a plain
/// import gives it (a score one minus sign away from adding up), before
/// the double entry's summary: the hints were not said.
#[test]
fn a_double_entry_import_refusing_a_card_gives_the_plain_imports_hint() {
    let scratch = Scratch::new("import-hint");
    let dir = &scratch.0;
    let (mut good, _) = desk_event(dir);
    // (table 2's card, typed the same twice, with a loss's minus lost)
    let i = good
        .iter()
        .position(|l| l.table == 2 && l.score.starts_with('-'))
        .unwrap();
    good[i].score = good[i].score.replacen('-', "+", 1);
    let table_2: Vec<Line> = good.iter().filter(|l| l.table == 2).cloned().collect();
    write_csv(&dir.join("T02.csv"), 1, &table_2);
    write_csv(&dir.join("T02-second.csv"), 1, &table_2);
    let hint = |err: &str| -> String {
        let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("hint: ")).collect();
        assert_eq!(lines.len(), 1, "{err}");
        assert!(lines[0].ends_with("did it lose its minus sign?"), "{err}");
        lines[0].to_string()
    };
    let (code, _, plain) = run(dir, args!["import", "T02.csv", "--event", "ev"]);
    assert_eq!(code, Some(1), "{plain}");
    let (code, _, err) = run(
        dir,
        args![
            "import",
            "T02.csv",
            "--second-entry",
            "T02-second.csv",
            "--event",
            "ev"
        ],
    );
    assert_eq!(code, Some(1), "refused: {err}");
    assert_eq!(hint(&err), hint(&plain));
    let (said, summary) = (
        err.find("hint: ").unwrap(),
        err.find("double entry: ").unwrap(),
    );
    assert!(said < summary, "{err}");
}

/// A card a double entry held back is named so by every later view of
/// what the event lacks (`check`, the site's index, the export's Missing
/// sheet), not as a card not yet typed, until the right typing of it is
/// imported (tester r8 #11).
#[test]
fn a_table_held_back_by_double_entry_is_named_so_until_the_right_typing_is_in() {
    let scratch = Scratch::new("import-held-named");
    let dir = &scratch.0;
    // The second typist slips at table 3.
    let (_, slipped) = desk_event(dir);
    let s01_xlsx = demo_cards().join("S01.xlsx");
    let s01_xlsx = s01_xlsx.as_os_str();
    write_csv(&dir.join("S01-second.csv"), 1, &slipped);
    let (code, _, err) = import_s01_typed_twice(dir);
    assert_eq!(code, Some(1), "held back: {err}");

    // (named with its two typings, and how many values differ)
    let held = format!(
        "1 table typed twice at the desk, and the two typings differ (held back by double entry, not missing): compare each typing with the signed card, correct the wrong one and import them again with --second-entry, or import the right typing alone: session S01 table 3 ({} vs S01-second.csv: 1 value differs)\n",
        s01_xlsx.to_string_lossy()
    );
    let (_, _, err) = run(dir, args!["check", "--event", "ev"]);
    assert!(err.contains(&held), "{err}");
    assert!(
        err.contains("275 cards missing:\n  session S02: all 25 tables\n"),
        "table 3 is not said missing: {err}"
    );
    assert!(!err.contains("session S01: table"), "{err}");

    // the site's index, in both languages
    let index = |lang: &str| {
        let site = dir.join(format!("site-{lang}"));
        let site_os = site.as_os_str();
        let (code, _, err) = run(
            dir,
            args!["publish", "--event", "ev", "--lang", lang, "-o", site_os],
        );
        assert_eq!(code, Some(0), "{err}");
        std::fs::read_to_string(site.join("index.html")).unwrap()
    };
    let en = index("en");
    assert!(
        en.contains(
            "1 card typed twice at the desk whose two typings differ: session S01, table 3"
        ),
        "{en}"
    );
    let zh = index("zh-Hant");
    assert!(
        zh.contains("記分台輸入兩次但兩次不符的 1 張計分卡：場次 S01，第 3 枱"),
        "{zh}"
    );

    // what waits for it says so too: a provisional answer's mark, and the
    // export's Missing sheet
    let (code, out, _) = run(
        dir,
        args!["qualifiers", "--allow-incomplete", "--event", "ev"],
    );
    assert_eq!(code, Some(0));
    assert!(
        out.contains("PROVISIONAL: 275 cards missing, 1 table typed twice whose typings differ"),
        "{out}"
    );
    let xlsx = dir.join("results.xlsx");
    let (code, _, err) = run(
        dir,
        args![
            "export",
            "--allow-incomplete",
            "--event",
            "ev",
            "-o",
            xlsx.as_os_str()
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let sheets = crate::test::sheets(&xlsx);
    let (_, missing) = sheets.iter().find(|(name, _)| name == "Missing").unwrap();
    assert!(
        missing.iter().any(|row| row.len() >= 3
            && row[..3]
                == [
                    "held back by double entry: its two typings differ",
                    "1",
                    "3"
                ]),
        "{missing:?}"
    );

    // The signed card says the first typing is right: imported alone, it
    // brings table 3 in, and nothing is held back any more.
    let (code, _, err) = run(dir, args!["import", s01_xlsx, "--event", "ev"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("1 card imported, 0 replaced, 24 unchanged"),
        "{err}"
    );
    assert_all_in(dir);
}

/// `import --replace --second-entry` whose typings of a table differ,
/// where the event holds a card of it: nothing is half-replaced, the old
/// card counts meanwhile, and the table is named typed twice (the answers
/// provisional) until the card is imported again the same, or replaced.
#[test]
fn a_replacement_held_back_by_double_entry_leaves_the_old_card_named_typed_twice() {
    let scratch = Scratch::new("import-held-replace");
    let dir = &scratch.0;
    let (good, slipped) = desk_event(dir);
    let s01_xlsx = demo_cards().join("S01.xlsx");
    let s01_xlsx = s01_xlsx.as_os_str();
    let (code, _, err) = run(dir, args!["import", s01_xlsx, "--event", "ev"]);
    assert_eq!(code, Some(0), "{err}");
    // A correction of table 3 (seats A and B's players exchanged), and its
    // second typing, which slips
    let mut fixed = good.clone();
    let [a, b] = [Seat::A, Seat::B].map(|seat| {
        let l = good.iter().find(|l| l.table == 3 && l.seat == seat);
        l.unwrap().player.clone()
    });
    for l in fixed.iter_mut().filter(|l| l.table == 3) {
        if l.player == a {
            l.player = b.clone();
        } else if l.player == b {
            l.player = a.clone();
        }
    }
    let mut fixed_slipped = fixed.clone();
    let i = slipped.iter().position(|l| l.table == 3).unwrap();
    fixed_slipped[i].tiles = slipped[i].tiles.clone();
    write_csv(&dir.join("S01-fix.csv"), 1, &fixed);
    write_csv(&dir.join("S01-fix2.csv"), 1, &fixed_slipped);
    let replace_typed_twice = || {
        run(
            dir,
            args![
                "import",
                "--replace",
                "S01-fix.csv",
                "--second-entry",
                "S01-fix2.csv",
                "--reason",
                "seats A and B exchanged",
                "--event",
                "ev"
            ],
        )
    };
    let held = "1 table typed twice at the desk, and the two typings differ (held back by double entry, not missing): compare each typing with the signed card, correct the wrong one and import them again with --second-entry, or import the right typing alone: session S01 table 3 (S01-fix.csv vs S01-fix2.csv: 1 value differs)\n";

    let (code, _, err) = replace_typed_twice();
    assert_eq!(code, Some(1), "held back: {err}");
    let said = "double entry: 24 cards agree with the second typing (S01-fix2.csv); 1 card held back until both typings agree (listed above)\n\
                S01-fix.csv: 0 cards imported, 0 replaced, 24 unchanged; 1 card held back until both typings agree (see above)\n\
                1 file: 0 imported (0 cards), 1 already imported, 1 card held back until both typings agree\n";
    assert!(err.ends_with(said), "{said}\nat the end of\n{err}");
    assert!(!err.contains("nothing to do"), "{err}");
    // the old card counts, and the table is named
    let (_, _, err) = run(dir, args!["check", "--event", "ev"]);
    assert!(err.contains("25 cards accepted"), "{err}");
    assert!(err.contains(held), "{err}");
    let (code, _, err) = run(dir, args!["qualifiers", "--event", "ev"]);
    assert_eq!(code, Some(1), "the list waits: {err}");
    let (code, out, _) = run(
        dir,
        args!["qualifiers", "--allow-incomplete", "--event", "ev"],
    );
    assert_eq!(code, Some(0));
    assert!(
        out.contains("PROVISIONAL: 275 cards missing, 1 table typed twice whose typings differ"),
        "{out}"
    );

    // The signed card says the old card is right: imported again, the same,
    // it is confirmed.
    let (code, _, err) = run(dir, args!["import", s01_xlsx, "--event", "ev"]);
    assert_eq!(code, Some(0), "{err}");
    let (_, _, err) = run(dir, args!["check", "--event", "ev"]);
    assert!(!err.contains("typed twice"), "{err}");

    // Held back again, then the correction imported alone: it replaces the
    // old card, and nothing is held back any more.
    let (code, _, err) = replace_typed_twice();
    assert_eq!(code, Some(1), "held back: {err}");
    let (_, _, err) = run(dir, args!["check", "--event", "ev"]);
    assert!(err.contains(held), "held back again: {err}");
    let (code, _, err) = run(
        dir,
        args![
            "import",
            "--replace",
            "S01-fix.csv",
            "--reason",
            "seats A and B exchanged",
            "--event",
            "ev"
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("S01-fix.csv: 0 cards imported, 1 replaced, 24 unchanged"),
        "{err}"
    );
    assert_all_in(dir);
}

/// A folder read as files whose held.csv a hand has broken: its place and
/// what was expected are said, and nothing is answered (exit status 2).
#[test]
fn a_broken_held_csv_is_said_at_its_place() {
    let scratch = Scratch::new("held-csv-broken");
    let dir = scratch.path("ev");
    crate::test::copy_dir(&crate::publish::example("nvso-2023"), &dir);
    let held = dir.join("held.csv");
    let check = || run(&scratch.0, args!["check", "--event", "ev"]);
    for (text, said) in [
        (
            "time,stage,session,table,first,second,differ,log_lines,held\n\
             2026-03-28T12:00:00Z,prelim,S01,3,a.csv,b.csv,x,2,yes\n",
            "ev/held.csv:2: differ is \"x\"; expected a whole number (the values that differ)",
        ),
        (
            "stage,session,table\nprelim,S01,3\n",
            "ev/held.csv: expected the columns stage, session, table, first, second, differ, held, as tilerank dump writes them",
        ),
    ] {
        std::fs::write(&held, text).unwrap();
        let (code, _, err) = check();
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains(said), "{said:?} in\n{err}");
    }
}

/// A dump writes the tables double entries held back to held.csv, and
/// names those still held back, which an event built again from it does
/// not hold back (held typings gap 3); the dump read as an event does.
#[test]
fn a_dump_writes_the_tables_held_back_by_double_entry_and_names_those_not_carried_over() {
    let scratch = Scratch::new("import-held-dump");
    let dir = &scratch.0;
    let (_, slipped) = desk_event(dir);
    write_csv(&dir.join("S01-second.csv"), 1, &slipped);
    let (code, _, err) = import_s01_typed_twice(dir);
    assert_eq!(code, Some(1), "held back: {err}");
    let s01_xlsx = demo_cards().join("S01.xlsx");
    let first = s01_xlsx.to_string_lossy();

    let (code, _, err) = run(dir, args!["dump", "backup", "--event", "ev"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(", log.csv (2 lines), held.csv (1 row).\n"),
        "{err}"
    );
    assert!(
        err.contains("1 table is still held back by double entry (held.csv): the dump read as an event holds it back too, but an event built again from it does not (it is missing there, or its earlier card counts as if final). Import its two typings again there with --second-entry: session S01 table 3.\n"),
        "{err}"
    );
    // Read as an event, the dump holds table 3 back as the event does:
    // `check` says the same of it, and the answers wait for it.
    let typed_twice = |event: &str| -> String {
        let (_, _, err) = run(dir, args!["check", "--event", event]);
        let line = err.lines().find(|l| l.contains("typed twice at the desk"));
        line.unwrap_or_else(|| panic!("{err}")).to_string()
    };
    assert_eq!(typed_twice("backup"), typed_twice("ev"));
    // and `qualifiers` waits for it there, saying so as the event does
    let waits = |event: &str| -> String {
        let (code, _, err) = run(dir, args!["qualifiers", "--event", event]);
        assert_eq!(code, Some(1), "waits: {err}");
        let line = err.lines().find(|l| l.contains("typed twice at the desk"));
        line.unwrap_or_else(|| panic!("{err}")).to_string()
    };
    assert_eq!(waits("backup"), waits("ev"));
    let held = std::fs::read_to_string(dir.join("backup/held.csv")).unwrap();
    let lines: Vec<&str> = held.lines().collect();
    assert_eq!(lines.len(), 2, "{held}");
    assert_eq!(
        lines[0],
        "time,stage,session,table,first,second,differ,log_lines,held"
    );
    assert!(
        lines[1].ends_with(&format!(",prelim,S01,3,{first},S01-second.csv,1,2,yes")),
        "{held}"
    );

    // Table 3 in, the record stays and nothing is said of it.
    let (code, _, err) = run(dir, args!["import", s01_xlsx.as_os_str(), "--event", "ev"]);
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run(dir, args!["dump", "backup-2", "--event", "ev"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains(", held.csv (1 row).\n"), "{err}");
    assert!(!err.contains("still held back"), "{err}");
    let held = std::fs::read_to_string(dir.join("backup-2/held.csv")).unwrap();
    assert!(
        held.ends_with(&format!(",prelim,S01,3,{first},S01-second.csv,1,2,\n")),
        "{held}"
    );
}

#[test]
fn a_double_entry_import_refuses_a_file_whose_agreed_cards_break_the_rules() {
    let scratch = Scratch::new("import-errors");
    let dir = &scratch.0;
    let roster = fixtures().join("roster.csv");
    let bad = fixtures().join("bad/check3-sum-not-zero.csv");
    let (roster, bad) = (roster.as_os_str(), bad.as_os_str());
    run(
        dir,
        args!["init", "ev", "--profile", "hk", "--name", "Desk"],
    );
    let (code, _, err) = run(dir, args!["roster", roster, "--event", "ev"]);
    assert_eq!(code, Some(0), "{err}");
    // One file given as both typings confirms nothing: refused
    let (code, _, err) = run(
        dir,
        args!["import", bad, "--second-entry", bad, "--event", "ev"],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "{}: given as both typings; the second typing is typed apart from the first, from the signed cards (nothing imported)",
            bad.to_string_lossy()
        )),
        "{err}"
    );
    // The same mistake typed twice agrees, and is still a mistake.
    std::fs::copy(bad, dir.join("second.csv")).unwrap();
    let (code, _, err) = run(
        dir,
        args![
            "import",
            bad,
            "--second-entry",
            "second.csv",
            "--event",
            "ev"
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    let shown = bad.to_string_lossy();
    assert!(
        err.contains(&format!(
            "{shown}:10: error: game 3: the scores add up to -1"
        )),
        "the error at the first typing's place: {err}"
    );
    assert!(
        err.contains(&format!("{shown}: nothing imported (errors above)")),
        "{err}"
    );
    let (_, _, err) = run(dir, args!["check", "--event", "ev"]);
    // (nothing read: the summary says no files, no sheets)
    assert!(
        err.lines()
            .any(|l| l.starts_with("0 cards accepted, 0 games; ")),
        "nothing stored: {err}"
    );
    assert!(!err.contains("0 files"), "{err}");
}

/// A double-entry import says two seats swapped as `compare` does, after
/// the values, and holds the card back.
#[test]
fn a_double_entry_import_asks_whether_two_seats_are_swapped() {
    let scratch = Scratch::new("import-swapped");
    let dir = &scratch.0;
    let roster = fixtures().join("roster.csv");
    let first = fixtures().join("good/went-out.csv");
    let second = fixtures().join("good/went-out-b-c-swapped.csv");
    let (roster, first_os, second_os) = (roster.as_os_str(), first.as_os_str(), second.as_os_str());
    run(
        dir,
        args!["init", "ev", "--profile", "hk", "--name", "Desk"],
    );
    let (code, _, err) = run(dir, args!["roster", roster, "--event", "ev"]);
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run(
        dir,
        args![
            "import",
            first_os,
            "--second-entry",
            second_os,
            "--event",
            "ev"
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    let (a, b) = (first.display(), second.display());
    for text in [
        format!("{a}:6 vs {b}:6: session S01 table 7: game 2: 6 values differ\n"),
        format!("\n  {a}:8:7 vs {b}:8:7: seat C score -12 vs +11\n  {a}:8:8 vs {b}:8:8: seat C tiles 2 vs 1\n  {a}:6 vs {b}:6: seats B and C swapped? B's line in one typing is C's in the other, and C's is B's\n"),
        "1 card held back until both typings agree".to_string(),
    ] {
        assert!(err.contains(&text), "{text:?} in\n{err}");
    }
}

#[test]
fn racks_are_compared_as_scored() {
    let scratch = Scratch::new("racks");
    let dir = &scratch.0;
    let racks = fixtures().join("racks/s01.csv");
    let roster = fixtures().join("roster.csv");
    // The same cards as computed results: they agree.
    let (code, _, err) = run(
        dir,
        args![
            "score",
            racks.as_os_str(),
            "--roster",
            roster.as_os_str(),
            "-o",
            "computed.csv"
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run(dir, args!["compare", racks.as_os_str(), "computed.csv"]);
    assert_eq!(code, Some(0), "{err}");
    // Seat C's rack typed 14 points instead of 15.
    let text = std::fs::read_to_string(&racks)
        .unwrap()
        .replace("S01,7,1,C,P0003,15,0,3,,", "S01,7,1,C,P0003,14,0,3,,");
    std::fs::write(dir.join("slip.csv"), text).unwrap();
    let (code, out, err) = run(dir, args!["compare", racks.as_os_str(), "slip.csv"]);
    assert_eq!(code, Some(1), "{err}");
    let shown = racks.to_string_lossy();
    assert!(
        out.contains(&format!(
            "  {shown}:4:6 vs slip.csv:4:6: seat C score (scored from the racks) -10 vs -9"
        )),
        "{out}"
    );
}

/// A seat's player typed otherwise on one line only (not its first):
/// that line's player differs, at both lines, and the card does not agree,
/// whichever typing holds the slip.
#[test]
fn a_player_typed_otherwise_on_one_line_is_a_difference_at_that_line() {
    let scratch = Scratch::new("one-line");
    let first = fixtures().join("good/hk-examples.csv");
    let text = std::fs::read_to_string(&first).unwrap();
    assert!(text.contains("\nS01,7,2,C,P0003,"));
    std::fs::write(
        scratch.0.join("slip.csv"),
        text.replace("\nS01,7,2,C,P0003,", "\nS01,7,2,C,P0009,"),
    )
    .unwrap();
    let shown = first.to_string_lossy();
    let (code, out, err) = run(&scratch.0, args!["compare", first.as_os_str(), "slip.csv"]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        out,
        format!(
            "{shown}:2 vs slip.csv:2: session S01 table 7: the players differ\n  \
             {shown}:8:5 vs slip.csv:8:5: seat C player in game 2 \"P0003\" vs \"P0009\"\n"
        )
    );
    assert!(
        err.contains("first typing 1 card, second typing 1 card: 0 agree; 1 difference"),
        "{err}"
    );
    let (code, out, err) = run(&scratch.0, args!["compare", "slip.csv", first.as_os_str()]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        out,
        format!(
            "slip.csv:2 vs {shown}:2: session S01 table 7: the players differ\n  \
             slip.csv:8:5 vs {shown}:8:5: seat C player in game 2 \"P0009\" vs \"P0003\"\n"
        )
    );
}

/// How the `Total` line of a score card written by [`write_scorecard`]
/// is given.
#[derive(Clone, Copy)]
enum Total {
    /// `=SUM(...)` of the games, with no saved value.
    Formulas,
    /// Its label only, nothing typed (the printed card's line kept).
    Blank,
}

/// `scorecard/good.csv` as a workbook at `path` (sheet `Table 07`), seat
/// A's game 2 score (C9) typed as `a_2`, its `Total` line as `total` says.
fn write_scorecard(path: &Path, a_2: f64, total: Total) {
    let text = std::fs::read_to_string(fixtures().join("scorecard/good.csv")).unwrap();
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    sheet.set_name("Table 07").unwrap();
    sheet.set_formula_result_default("");
    for (r, line) in text.lines().enumerate() {
        let r = r as u32;
        for (c, value) in line.split(',').enumerate() {
            let c = c as u16;
            let col = rust_xlsxwriter::utility::column_number_to_name(c);
            match value.parse::<f64>() {
                _ if value.is_empty() => {}
                _ if line.starts_with("Total,") && c > 0 => {
                    if let Total::Formulas = total {
                        let sum = format!("=SUM({col}8:{col}10)");
                        sheet.write_formula(r, c, sum.as_str()).unwrap();
                    }
                }
                Ok(_) if (r, c) == (8, 2) => {
                    sheet.write_number(r, c, a_2).unwrap();
                }
                Ok(n) => {
                    sheet.write_number(r, c, n).unwrap();
                }
                Err(_) => {
                    sheet.write_string(r, c, value).unwrap();
                }
            }
        }
    }
    book.save(path).unwrap();
}

/// A `Total` line kept from the printed card with nothing typed in it is
/// no Total, for `compare` and double entry as for `check`: the games are
/// compared, and a card whose games agree is stored (tester r8 #1).
#[test]
fn a_blank_total_line_is_not_compared() {
    let scratch = Scratch::new("total-blank");
    let first = fixtures().join("scorecard/good.csv");
    write_scorecard(&scratch.0.join("blank.xlsx"), 11.0, Total::Blank);
    let (code, out, err) = run(&scratch.0, args!["check", "blank.xlsx"]);
    assert_eq!(code, Some(0), "check takes a blank Total\n{out}{err}");
    let (code, out, err) = run(
        &scratch.0,
        args!["compare", first.as_os_str(), "blank.xlsx"],
    );
    assert_eq!((code, out.as_str()), (Some(0), ""), "{err}");
    assert!(err.contains("1 agrees; no difference"), "{err}");
    // what differs in the games still does, and nothing of the Total
    write_scorecard(&scratch.0.join("second.xlsx"), 12.0, Total::Blank);
    let (code, out, err) = run(
        &scratch.0,
        args!["compare", first.as_os_str(), "second.xlsx"],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(out.contains("seat A score +11 vs 12"), "{out}");
    assert!(!out.contains("Total"), "{out}");
    // double entry: the card the typings agree on is stored
    let roster = fixtures().join("roster.csv");
    let (code, _, err) = run(
        &scratch.0,
        args![
            "init",
            "ev",
            "--profile",
            "hk",
            "--name",
            "Desk",
            "--date",
            "2026-03-28"
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run(
        &scratch.0,
        args!["roster", roster.as_os_str(), "--event", "ev"],
    );
    assert_eq!(code, Some(0), "{err}");
    let (code, out, err) = run(
        &scratch.0,
        args![
            "import",
            first.as_os_str(),
            "--second-entry",
            "blank.xlsx",
            "--event",
            "ev"
        ],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(err.contains("1 imported (1 card)"), "{err}");
}

/// A printed card whose `Total` cells are formulas with no saved value (a
/// sheet a program wrote, never saved by a spreadsheet program): those
/// are no typed values, `check` computes them, and they are not compared;
/// what differs is the one value planted, nothing of the `Total` line.
#[test]
fn a_total_formula_with_no_saved_value_is_not_compared() {
    let scratch = Scratch::new("total-formula");
    let first = fixtures().join("scorecard/good.csv");
    let write = |name: &str, a_2: f64| write_scorecard(&scratch.0.join(name), a_2, Total::Formulas);
    write("same.xlsx", 11.0);
    let (code, out, err) = run(&scratch.0, args!["check", "same.xlsx"]);
    assert_eq!(code, Some(0), "check computes such a Total\n{out}{err}");
    let (code, out, err) = run(&scratch.0, args!["compare", first.as_os_str(), "same.xlsx"]);
    assert_eq!((code, out.as_str()), (Some(0), ""), "{err}");
    // planted: +11 typed as 12
    write("second.xlsx", 12.0);
    let shown = first.to_string_lossy();
    let (code, out, err) = run(
        &scratch.0,
        args!["compare", first.as_os_str(), "second.xlsx"],
    );
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        out,
        format!(
            "{shown}:9 vs second.xlsx[Table 07] row 9: session S01 table 7: game 2: 1 value differs\n  \
             {shown}:9:3 vs second.xlsx[Table 07]!C9: seat A score +11 vs 12\n"
        )
    );
    assert!(
        err.contains("first typing 1 card, second typing 1 card: 0 agree; 1 difference"),
        "{err}"
    );
}

/// Part of a session typed beside the whole of it: the cards only the
/// whole typing has, three or more of the session, are one line at the
/// first one's place naming their tables; two cards only in the other
/// typing are a line each; the last line counts every card.
#[test]
fn a_sessions_cards_only_in_one_typing_are_said_in_one_line() {
    let scratch = Scratch::new("only-in-grouped");
    let dir = &scratch.0;
    let event = demo_event();
    let s01: Vec<&Card> = event.cards.iter().filter(|c| session_of(c) == 1).collect();
    let whole = lines_of(&s01, &event.roster, Spelling::Plain);
    let mut part: Vec<Line> = whole
        .iter()
        .filter(|l| [1, 2, 3, 5, 9].contains(&l.table))
        .cloned()
        .collect();
    // two tables only the part has (table 1 typed again as 30 and 31)
    for t in [30, 31] {
        part.extend(whole.iter().filter(|l| l.table == 1).map(|l| Line {
            table: t,
            ..l.clone()
        }));
    }
    write_csv(&dir.join("part.csv"), 1, &part);
    write_csv(&dir.join("whole.csv"), 1, &whole);
    let (code, out, err) = run(dir, args!["compare", "part.csv", "whole.csv"]);
    assert_eq!(code, Some(1), "{err}");
    let only_first = |t: u32| {
        format!(
            "part.csv:{}: session S01 table {t}: only in the first typing; the other typing has no such card (a missing card, or a wrong session or table number?)",
            first_line(&part, t, None)
        )
    };
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            format!(
                "whole.csv:{}: session S01 tables 4, 6-8, 10-25: only in the second typing (20 cards); the other typing has no such cards (missing cards, or a wrong session or table numbers?)",
                first_line(&whole, 4, None)
            ),
            only_first(30),
            only_first(31),
        ]
    );
    assert!(
        err.contains("first typing 7 cards, second typing 25 cards: 5 agree; 22 differences"),
        "{err}"
    );
}

/// A double-entry import whose second typing has only part of the session
/// says the cards held back for it in one line, as `compare` does.
#[test]
fn a_double_entry_import_says_a_sessions_cards_only_in_the_first_typing_in_one_line() {
    let scratch = Scratch::new("import-only-in-grouped");
    let dir = &scratch.0;
    let (good, _) = desk_event(dir);
    let part: Vec<Line> = good.iter().filter(|l| l.table <= 10).cloned().collect();
    write_csv(&dir.join("S01.csv"), 1, &good);
    write_csv(&dir.join("S01-half.csv"), 1, &part);
    let (code, _, err) = run(
        dir,
        args![
            "import",
            "S01.csv",
            "--second-entry",
            "S01-half.csv",
            "--event",
            "ev"
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    let said = format!(
        "S01.csv:{}: session S01 tables 11-25: only in the first typing (15 cards); the other typing has no such cards (missing cards, or a wrong session or table numbers?)\n",
        first_line(&good, 11, None)
    );
    assert!(err.contains(&said), "{said:?} in\n{err}");
    assert_eq!(err.matches("only in the").count(), 1, "{err}");
    assert!(
        err.contains("S01.csv: 10 cards imported, 0 replaced, 0 unchanged; 15 cards held back until both typings agree (see above)"),
        "{err}"
    );
}
