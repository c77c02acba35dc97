//! The streaming reader (`tilerank::stream`) gives the very event the
//! ordinary reader gives: the same cards, players in the same order, the
//! same counts, problems and standings; and it is the one that reads a
//! large well-formed results file.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use tilerank::event::{Event, Keep, Request};
use tilerank::profile::{self, Rules};

/// The hk rules as a run on files has them (no event folder): no schedule
/// of expected cards, so files of any sessions are read whole.
fn hk() -> Rules {
    Rules {
        schedule: None,
        ..Rules::hk()
    }
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Everything an event answers, as text.
fn summary(event: &Event) -> String {
    let mut out = String::new();
    writeln!(out, "{:?}", event.counts).unwrap();
    for (id, p) in event.roster.iter() {
        writeln!(out, "player {} {} {}", id.0, p.id, p.name).unwrap();
    }
    for c in &event.cards {
        writeln!(out, "{c:?}").unwrap();
    }
    // as they are listed: by place (the order they are found in differs:
    // the streaming reader checks a chunk's cards before it names them)
    let mut problems: Vec<String> = event.problems.iter().map(|p| format!("{p:?}")).collect();
    problems.sort();
    for p in problems {
        writeln!(out, "problem {p}").unwrap();
    }
    let (hints, more) = event.problems.hints();
    for h in hints {
        writeln!(out, "hint {} {}", h.place, h.said).unwrap();
    }
    writeln!(out, "hints not kept {more}").unwrap();
    for stage in event.stages() {
        for e in event
            .standings(&stage)
            .ranked
            .iter()
            .chain(&event.standings(&stage).apart)
        {
            writeln!(out, "{stage} {:?} {} {:?}", e.rank, e.shared, e.tally()).unwrap();
        }
    }
    out
}

/// Reading `file` under hk, with no roster, keeping `keep`.
fn hk_request(file: PathBuf, keep: Keep) -> Request {
    Request {
        keep,
        inputs: vec![file],
        roster: None,
        rules: hk(),
    }
}

fn same_both_ways(inputs: Vec<PathBuf>, roster: Option<PathBuf>, rules: Rules) {
    let request = Request {
        keep: Keep::Cards,
        inputs,
        roster,
        rules,
    };
    let streamed = Event::load(&request).map(|e| summary(&e));
    let ordinary = Event::load_ordinary(&request).map(|e| summary(&e));
    match (streamed, ordinary) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{:?}", request.inputs),
        (a, b) => assert_eq!(
            a.map_err(|e| e.to_string()),
            b.map_err(|e| e.to_string()),
            "{:?}",
            request.inputs
        ),
    }
}

/// A results file of `tables` 4-player tables, three games each, every
/// game legal under hk; `order` shuffles the lines of the cards apart.
fn results_file(path: &Path, tables: usize, apart: bool) {
    let mut lines = Vec::new();
    for t in 0..tables {
        let v = t as i64;
        let (a, b, c) = (5 + v % 7, 10 + v % 11, 15 + v % 5);
        let games = [
            [(1, a + b + c, 0), (0, -a, 2), (0, -b, 3), (0, -c, 4)],
            [(0, -5, 1), (1, 30, 1), (0, -10, 3), (0, -15, 4)],
            [(0, 11, 3), (0, -12, 2), (1, 11, 1), (0, -10, 4)],
        ];
        for (g, seats) in games.iter().enumerate() {
            for (s, (won, score, tiles)) in seats.iter().enumerate() {
                let seat = ["A", "B", "C", "D"][s];
                lines.push((
                    g,
                    format!(
                        "S{:02},{},{},{seat},P{:04},{won},{score:+},{tiles}",
                        t / 5 + 1,
                        t % 5 + 1,
                        g + 1,
                        t * 4 + s + 1
                    ),
                ));
            }
        }
    }
    if apart {
        lines.sort_by_key(|(g, _)| *g);
    }
    let mut text = String::from("session,table,game,seat,player,won,score,tiles\n");
    for (_, l) in lines {
        text.push_str(&l);
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tilerank-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn every_fixture_reads_the_same_both_ways() {
    let mut files = Vec::new();
    for dir in [
        "good",
        "bad",
        "ties",
        "layouts",
        "e2e",
        "real-world",
        "roster",
    ] {
        let Ok(entries) = std::fs::read_dir(fixtures().join(dir)) else {
            continue;
        };
        for e in entries.flatten() {
            files.push(e.path());
        }
    }
    files.sort();
    assert!(files.len() > 20, "{files:?}");
    for f in files {
        for name in ["hk", "pressman", "nvso", "gwinnett"] {
            let rules = profile::by_name(name).unwrap();
            same_both_ways(vec![f.clone()], None, rules.clone());
            same_both_ways(vec![f.clone()], Some(fixtures().join("roster.csv")), rules);
        }
    }
}

/// The event the streaming reader alone gives `inputs` under hk (no
/// roster), or `None` where it gives up.
fn streamed(inputs: &[PathBuf], keep: Keep, threads: Option<bool>, chunk: u64) -> Option<Event> {
    let request = Request {
        keep,
        inputs: inputs.to_vec(),
        roster: None,
        rules: hk(),
    };
    Event::load_streamed(&request, threads, chunk)
}

const WHOLE: u64 = 512 << 10;

#[test]
fn a_large_clean_file_streams_and_cards_apart_do_not() {
    let clean = temp("clean.csv");
    results_file(&clean, 60, false);
    let event = streamed(std::slice::from_ref(&clean), Keep::Cards, None, WHOLE)
        .expect("a clean results file is read by the streaming reader");
    assert_eq!(event.cards.len(), 60);
    assert_eq!(event.roster.len(), 240);
    same_both_ways(vec![clean.clone()], None, hk());

    // the same lines ordered by game: each card's lines are apart. In
    // one chunk they are put together, as the ordinary reader does; in
    // chunks of their own they are the same card met twice: left to the
    // ordinary reader
    let apart = temp("apart.csv");
    results_file(&apart, 60, true);
    let whole = streamed(std::slice::from_ref(&apart), Keep::Cards, None, WHOLE).unwrap();
    assert_eq!(whole.cards.len(), 60);
    assert!(streamed(std::slice::from_ref(&apart), Keep::Cards, None, 500).is_none());
    same_both_ways(vec![apart.clone()], None, hk());

    // and both files at once: every card given twice
    same_both_ways(vec![clean, apart], None, hk());
}

/// A named pipe gives its bytes once (standard input the same): the
/// streaming reader reads them held, in chunks on both threads, and gives
/// the event the same bytes in a file give; what it gives up on (a quoted
/// field) the ordinary reader reads from the same bytes, not from the
/// pipe again. (A reader that opened the pipe twice would wait for a
/// writer that is gone: the test fails after a minute rather than wait
/// for ever.)
#[cfg(unix)]
#[test]
fn a_pipe_is_read_once_by_the_streaming_reader() {
    let s = crate::test::Scratch::new("pipe");
    let file = s.path("clean.csv");
    results_file(&file, 60, false);
    let text = std::fs::read_to_string(&file).unwrap();
    let from_file = streamed(std::slice::from_ref(&file), Keep::Cards, Some(true), 500).unwrap();
    let (done, result) = std::sync::mpsc::channel();
    let pipes = [
        crate::test::pipe(&s, "cards", &text),
        crate::test::pipe(&s, "quoted", &text.replacen(",P0001,", ",\"P0001\",", 1)),
        crate::test::pipe(
            &s,
            "quoted-again",
            &text.replacen(",P0001,", ",\"P0001\",", 1),
        ),
    ];
    std::thread::spawn(move || {
        let [clean, quoted, quoted_again] = pipes;
        let from_pipe = streamed(std::slice::from_ref(&clean), Keep::Cards, Some(true), 500);
        let name = |p: &Path| p.display().to_string();
        let same = from_pipe.map(|e| {
            summary(&e).replace(&name(&clean), "FILE")
                == summary(&from_file).replace(&name(&file), "FILE")
        });
        let gave_up = streamed(std::slice::from_ref(&quoted), Keep::Cards, None, 500).is_none();
        let event = Event::load(&hk_request(quoted_again, Keep::Sums)).unwrap();
        let _ = done.send((same, gave_up, event.counts.accepted));
    });
    let got = result
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("the pipes were read in time");
    assert_eq!(got, (Some(true), true, 60));
}

#[test]
fn a_wrong_line_in_a_large_file_is_reported_by_its_place() {
    let path = temp("one-wrong.csv");
    results_file(&path, 40, false);
    let text = std::fs::read_to_string(&path).unwrap();
    // line 100: a score that no longer adds up
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[99] = lines[99].replacen(",-", ",-1", 1);
    std::fs::write(&path, lines.join("\n")).unwrap();
    let event = Event::load(&hk_request(path.clone(), Keep::Cards)).unwrap();
    let errors: Vec<String> = event
        .problems
        .iter()
        .map(|p| p.to_string())
        .filter(|p| p.contains("one-wrong.csv"))
        .collect();
    assert!(errors.iter().any(|e| e.contains("add up to")), "{errors:?}");
    assert_eq!(event.counts.cards_rejected, 1);
    // the streaming reader says it itself, as the ordinary one does
    let alone = streamed(std::slice::from_ref(&path), Keep::Cards, None, 1000).unwrap();
    assert_eq!(summary(&alone), summary(&event));
    same_both_ways(vec![path], None, hk());
}

/// A minus sign lost deep in a large file: the streaming reader, in
/// chunks on one thread or two, hints it at the game's line, as the
/// ordinary reader does (the hint comes of the one card check).
#[test]
fn a_lost_minus_sign_in_a_large_file_is_hinted_at_its_place() {
    let path = temp("lost-minus.csv");
    results_file(&path, 700, false);
    let text = std::fs::read_to_string(&path).unwrap();
    // line 4998 (session S84 table 2, game 2, whose seat A loses 5):
    // typed 5
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    assert_eq!(lines[4997], "S84,2,2,A,P1665,0,-5,1");
    lines[4997] = lines[4997].replace(",0,-5,1", ",0,5,1");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let hint = format!(
        "hint {}:4998 session S84 table 2 game 2: with seat A's score -5 instead of +5, the game adds up: did it lose its minus sign?",
        path.display()
    );
    for threads in [false, true] {
        let event = streamed(
            std::slice::from_ref(&path),
            Keep::Cards,
            Some(threads),
            4096,
        )
        .expect("streams");
        assert!(
            summary(&event).contains(&format!("{hint}\n")),
            "{}",
            summary(&event)
        );
        assert_eq!(event.counts.cards_rejected, 1);
    }
    same_both_ways(vec![path], None, hk());
}

#[test]
fn the_spellings_a_spreadsheet_writes_stream_and_read_the_same() {
    let base = temp("base.csv");
    results_file(&base, 12, false);
    let text = std::fs::read_to_string(&base).unwrap();
    let variants: Vec<(&str, String)> = vec![
        ("bom.csv", format!("\u{feff}{text}")),
        ("crlf.csv", text.replace('\n', "\r\n")),
        ("semicolons.csv", text.replace(',', ";")),
        ("blank-lines.csv", text.replace("\nS02", "\n\n,, ,\nS02")),
        (
            "stage-column.csv",
            text.lines()
                .enumerate()
                .map(|(i, l)| {
                    if i == 0 {
                        format!("Stage,{l}\n")
                    } else {
                        format!("Preliminary,{l}\n")
                    }
                })
                .collect(),
        ),
        (
            "spaces.csv",
            text.replace(",P00", ", p 00").replace(",+", ", +"),
        ),
        ("numbers.csv", text.replace(",S0", ",Session 0")),
        (
            "unknown-column.csv",
            text.replace("tiles\n", "tiles,notes\n"),
        ),
    ];
    for (name, body) in variants {
        let path = temp(name);
        std::fs::write(&path, body).unwrap();
        assert!(
            streamed(std::slice::from_ref(&path), Keep::Cards, None, WHOLE).is_some(),
            "{name} streams"
        );
        same_both_ways(vec![path], None, hk());
    }
    // quotes are left to the CSV reader
    let quoted = temp("quoted.csv");
    std::fs::write(
        &quoted,
        text.replace(",P00", ",\"P00").replace(",0,", "\",0,"),
    )
    .unwrap();
    assert!(streamed(std::slice::from_ref(&quoted), Keep::Cards, None, WHOLE).is_none());
    same_both_ways(vec![quoted], None, hk());
}

/// A session, table and game typed full-width (`Ｓ０１`, `７`, `２`, a
/// Chinese keyboard's) on every other line: the lines of a card written
/// two ways are still one card, in one chunk or in chunks of any size,
/// and the event is the plain file's.
#[test]
fn full_width_session_table_and_game_numbers_stream_as_the_plain_ones() {
    let base = temp("wide-base.csv");
    results_file(&base, 12, false);
    let text = std::fs::read_to_string(&base).unwrap();
    let wide = |t: &str| -> String {
        t.chars()
            .map(|c| match c {
                '0'..='9' | 'S' => char::from_u32(u32::from(c) + 0xFEE0).unwrap(),
                c => c,
            })
            .collect()
    };
    let mut mixed = String::new();
    for (i, line) in text.lines().enumerate() {
        match line.splitn(4, ',').collect::<Vec<_>>()[..] {
            [s, t, g, rest] if i % 2 == 1 => {
                mixed.push_str(&format!("{},{},{},{rest}\n", wide(s), wide(t), wide(g)));
            }
            _ => mixed.push_str(&format!("{line}\n")),
        }
    }
    assert!(mixed.contains("\nＳ０１,１,１,A,"), "{mixed}");
    let path = temp("wide-mixed.csv");
    std::fs::write(&path, &mixed).unwrap();
    let plain =
        |event: &Event, file: &Path| summary(event).replace(&file.display().to_string(), "F");
    let expected = plain(
        &streamed(std::slice::from_ref(&base), Keep::Cards, None, WHOLE).unwrap(),
        &base,
    );
    let inputs = std::slice::from_ref(&path);
    let whole = streamed(inputs, Keep::Cards, None, WHOLE).expect("read in one chunk");
    assert_eq!(whole.cards.len(), 12);
    assert_eq!(plain(&whole, &path), expected);
    // in chunks, a card may be cut where its spelling changes: the
    // streaming reader then gives up, and the ordinary one reads the file
    for chunk in [1, 64, 300, 1000] {
        if let Some(got) = streamed(inputs, Keep::Cards, Some(true), chunk) {
            assert_eq!(plain(&got, &path), expected, "chunks of {chunk}");
        }
    }
    same_both_ways(vec![path], None, hk());
}

#[test]
fn two_threads_read_what_one_reads() {
    let path = temp("threads.csv");
    results_file(&path, 700, false); // several chunks of cards
    let inputs = std::slice::from_ref(&path);
    let a = streamed(inputs, Keep::Cards, Some(false), 4096).expect("one thread");
    let b = streamed(inputs, Keep::Cards, Some(true), 4096).expect("two threads");
    assert_eq!(a.cards.len(), 700);
    assert_eq!(summary(&a), summary(&b));

    // a wrong card near the end: read, and said, the same way by both
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let n = lines.len();
    lines[n - 30] = "S140,5,1,A,P2800,1,+999,0";
    let wrong = temp("threads-wrong.csv");
    std::fs::write(&wrong, lines.join("\n")).unwrap();
    let one = streamed(std::slice::from_ref(&wrong), Keep::Cards, Some(false), 4096).unwrap();
    let two = streamed(std::slice::from_ref(&wrong), Keep::Cards, Some(true), 4096).unwrap();
    assert!(one.problems.has_errors());
    assert_eq!(summary(&one), summary(&two));
    same_both_ways(vec![wrong], None, hk());
}

/// The streaming reader hashes the bytes it read, the file's start then
/// each chunk in the file's order as it is accepted: the file's hash, on
/// one thread or two, in chunks of any size, with a byte order mark and a
/// blank line before the header, and with a chunk read again for a wrong
/// line in it. A file it leaves to the ordinary read is hashed as read
/// whole. Nothing is hashed unless asked.
#[test]
fn the_streaming_reader_hashes_the_bytes_it_read_in_order() {
    use tilerank::event_folder::sha256_hex;
    use tilerank::ingest::hashes::ReadHashes;
    let clean = temp("hashed.csv");
    results_file(&clean, 700, false);
    let text = std::fs::read_to_string(&clean).unwrap();
    // (a score that does not add up: its chunk is read again)
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let n = lines.len();
    let mut fields: Vec<&str> = lines[n - 30].split(',').collect();
    fields[6] = "+999";
    lines[n - 30] = fields.join(",");
    let wrong = temp("hashed-wrong.csv");
    std::fs::write(&wrong, lines.join("\n")).unwrap();
    let headed = temp("hashed-headed.csv");
    std::fs::write(
        &headed,
        format!("\u{feff}\r\n{}", text.replace('\n', "\r\n")),
    )
    .unwrap();
    for file in [&clean, &wrong, &headed] {
        let hash = sha256_hex(&std::fs::read(file).unwrap());
        let inputs = std::slice::from_ref(file);
        for threads in [false, true] {
            for chunk in [500, 4096, WHOLE] {
                let hashes = ReadHashes::keep();
                let event = streamed(inputs, Keep::Sums, Some(threads), chunk).expect("streams");
                assert_eq!(event.problems.has_errors(), file == &wrong);
                assert_eq!(
                    hashes.of(file).as_ref(),
                    Some(&hash),
                    "{file:?}, chunks of {chunk}, two threads: {threads}"
                );
            }
        }
    }
    assert!(streamed(std::slice::from_ref(&clean), Keep::Sums, Some(true), 4096).is_some());
    assert_eq!(ReadHashes::keep().of(&clean), None, "not asked");
    // a quote: left to the ordinary read
    let quoted = temp("hashed-quoted.csv");
    let text = text.replacen(",P0001,", ",\"P0001\",", 1);
    std::fs::write(&quoted, &text).unwrap();
    assert!(streamed(std::slice::from_ref(&quoted), Keep::Sums, None, 4096).is_none());
    let hashes = ReadHashes::keep();
    Event::load(&hk_request(quoted.clone(), Keep::Sums)).unwrap();
    assert_eq!(hashes.of(&quoted), Some(sha256_hex(text.as_bytes())));
}

#[test]
fn missing_cards_are_the_schedule_less_the_cards() {
    let path = temp("schedule.csv");
    results_file(&path, 58, false); // sessions 1-12 of 5 tables, but 2 tables of S12
    let event = streamed(std::slice::from_ref(&path), Keep::Sums, None, WHOLE).unwrap();
    assert!(event.cards.is_empty(), "kept as sums");
    let keys = event.accepted_keys();
    let missing = tilerank::event::missing_cards(
        &keys,
        &tilerank::domain::Stage::prelim(),
        Some(13),
        Some(6),
    );
    let shown: Vec<String> = missing.iter().map(|k| k.to_string()).collect();
    let mut expected = Vec::new();
    for s in 1..=13u32 {
        for t in 1..=6u32 {
            if s == 13 || t == 6 || (s == 12 && t >= 4) {
                expected.push(format!("session S{s:02} table {t}"));
            }
        }
    }
    assert_eq!(shown, expected);
    assert!(tilerank::event::missing_cards(
        &keys,
        &tilerank::domain::Stage::prelim(),
        None,
        Some(6)
    )
    .is_empty());
}

#[test]
fn chunks_of_any_size_on_one_or_two_threads_read_what_one_chunk_reads() {
    let base = temp("chunks-base.csv");
    results_file(&base, 30, false);
    let text = std::fs::read_to_string(&base).unwrap();
    // two stages, blank lines between cards, CRLF, a byte order mark
    let mut staged =
        String::from("\u{feff}stage,session,table,game,seat,player,won,score,tiles\r\n");
    for (i, l) in text.lines().skip(1).enumerate() {
        let stage = if i < 180 { "prelim" } else { "Final" };
        staged.push_str(&format!("{stage},{l}\r\n"));
        if i % 12 == 11 {
            staged.push_str(",,, ,\r\n\r\n");
        }
    }
    // a wrong card in a late chunk
    let mut wrong: Vec<String> = text.lines().map(str::to_string).collect();
    let n = wrong.len();
    wrong[n - 5] = wrong[n - 5].replacen(",-", ",-1", 1);
    let variants = [
        ("chunks-plain.csv", text.clone()),
        ("chunks-staged.csv", staged),
        ("chunks-semicolons.csv", text.replace(',', ";")),
        ("chunks-wrong.csv", wrong.join("\n")),
    ];
    for (name, body) in variants {
        let path = temp(name);
        std::fs::write(&path, &body).unwrap();
        let inputs = std::slice::from_ref(&path);
        for keep in [Keep::Cards, Keep::Sums] {
            let whole = streamed(inputs, keep, Some(false), 1 << 30)
                .unwrap_or_else(|| panic!("{name} streams"));
            let expected = summary(&whole);
            for chunk in [1, 29, 64, 300, 1000, 4096] {
                for threads in [false, true] {
                    let got = streamed(inputs, keep, Some(threads), chunk)
                        .unwrap_or_else(|| panic!("{name} in chunks of {chunk}"));
                    assert_eq!(
                        summary(&got),
                        expected,
                        "{name}, chunks of {chunk}, threads {threads}, {keep:?}"
                    );
                }
            }
        }
        same_both_ways(vec![path], None, hk());
    }
}

#[test]
fn an_event_kept_as_sums_ranks_as_the_event_with_its_cards() {
    let path = temp("sums.csv");
    results_file(&path, 90, false);
    let mut inputs = vec![vec![path]];
    for dir in ["good", "ties", "real-world"] {
        if let Ok(entries) = std::fs::read_dir(fixtures().join(dir)) {
            for e in entries.flatten() {
                inputs.push(vec![e.path()]);
            }
        }
    }
    let mut compared = 0;
    for input in inputs {
        for rules in [hk(), profile::by_name("pressman").unwrap()] {
            let request = |keep| Request {
                keep,
                inputs: input.clone(),
                roster: None,
                rules: rules.clone(),
            };
            let (Ok(cards), Ok(sums)) = (
                Event::load(&request(Keep::Cards)),
                Event::load(&request(Keep::Sums)),
            ) else {
                continue;
            };
            assert_eq!(
                sums.cards.is_empty(),
                tilerank::event::sums_suffice(&rules) || cards.cards.is_empty(),
                "{input:?}"
            );
            assert_eq!(cards.counts, sums.counts, "{input:?}");
            assert_eq!(cards.stages(), sums.stages(), "{input:?}");
            for stage in cards.stages() {
                let a = cards.standings(&stage);
                let b = sums.standings(&stage);
                assert_eq!(a.ranked, b.ranked, "{input:?} {stage}");
                assert_eq!(a.apart, b.apart, "{input:?} {stage}");
                let (la, lb) = (
                    cards.advance(&stage, None, &[]),
                    sums.advance(&stage, None, &[]),
                );
                assert_eq!(la.going, lb.going, "{input:?} {stage}");
                assert_eq!(la.decisions, lb.decisions, "{input:?} {stage}");
                compared += 1;
            }
        }
    }
    assert!(compared > 10, "{compared} stages compared");
}

#[test]
fn lines_that_all_name_one_card_are_one_card_and_are_not_held() {
    // 20,000 lines of the same seat of the same game: each after the first
    // is an error, and none is held; the streaming reader says what the
    // ordinary one says
    let mut text = String::from("session,table,game,seat,player,won,score,tiles\n");
    for _ in 0..20_000 {
        text.push_str("S01,1,1,A,P0001,1,+0,0\n");
    }
    let path = temp("one-card.csv");
    std::fs::write(&path, &text).unwrap();
    let ordinary = Event::load_ordinary(&hk_request(path.clone(), Keep::Sums)).unwrap();
    for (threads, chunk) in [(false, 1 << 20), (true, 4096), (true, 100)] {
        let got = streamed(
            std::slice::from_ref(&path),
            Keep::Sums,
            Some(threads),
            chunk,
        )
        .expect("one card, in one chunk however small the chunks asked");
        assert_eq!(
            summary(&got),
            summary(&ordinary),
            "threads {threads}, chunks of {chunk}"
        );
    }
    // a card of more games than four seats can have lines for is no card:
    // given up, and read the ordinary way
    let mut text = String::from("session,table,game,seat,player,won,score,tiles\n");
    for game in 1..=100 {
        text.push_str(&format!("S01,1,{game},A,P0001,1,+0,0\n"));
    }
    let many = temp("many-games.csv");
    std::fs::write(&many, &text).unwrap();
    assert!(streamed(std::slice::from_ref(&many), Keep::Sums, None, WHOLE).is_none());
    same_both_ways(vec![many], None, hk());
    same_both_ways(vec![path.clone()], None, hk());
    let event = Event::load(&hk_request(path, Keep::Sums)).unwrap();
    assert!(event.problems.has_errors());
}

#[test]
fn a_line_lost_from_the_card_above_it_is_said_alike_in_chunks_of_any_size() {
    // 1200 cards (some 350 KB, several chunks of the default size), four
    // lines without a session: card 100's seat C of game 1, card 500's
    // last line (the line after it starts a card: where a chunk may be
    // cut), card 700's seat B of game 2 with no game either (any game of
    // that card's), and card 900's seat A of game 1 naming another table
    // (no card's: card 900's game 1 is a line short); then, at the end,
    // `bad/lost-line-blank-session.csv`'s card as session 999
    let base = temp("lost-base.csv");
    results_file(&base, 1200, false);
    let text = std::fs::read_to_string(&base).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // (line `i` of `lines` is line i + 1 of the file)
    let at = |card: usize, game: usize, seat: usize| 1 + 12 * card + 4 * game + seat;
    let mut blank = |i: usize, fields: &[(usize, &str)]| {
        let mut f: Vec<String> = lines[i].split(',').map(str::to_string).collect();
        f[0].clear();
        for &(k, v) in fields {
            f[k] = v.to_string();
        }
        lines[i] = f.join(",");
        i + 1
    };
    let lost = [
        blank(at(100, 0, 2), &[]),
        blank(at(500, 2, 3), &[]),
        blank(at(700, 1, 1), &[(2, "")]),
        blank(at(900, 0, 0), &[(1, "2")]),
    ];
    let example = std::fs::read_to_string(fixtures().join("bad/lost-line-blank-session.csv"))
        .unwrap()
        .replace("\nS1,", "\nS999,");
    let example_at = lines.len() + 1;
    lines.extend(example.lines().skip(1).map(str::to_string));
    let path = temp("lost.csv");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    assert!(std::fs::metadata(&path).unwrap().len() > 300_000);

    let ordinary = Event::load_ordinary(&hk_request(path.clone(), Keep::Cards)).unwrap();
    let mut errors: Vec<String> = ordinary.problems.iter().map(|p| p.to_string()).collect();
    errors.sort();
    let name = path.display().to_string();
    // (card 900's game 1 starts at its first line placed: B's)
    let game_row = at(900, 0, 1) + 1;
    let blank_session = |line: &usize| {
        format!("{name}:{line}:1: error: session is blank; expected a session such as S01 or 1")
    };
    let mut expected: Vec<String> = lost.iter().map(blank_session).collect();
    expected.push(format!(
        "{name}:{}:3: error: game is blank; expected a game number 1, 2, 3...",
        lost[2]
    ));
    // card 900's game 1 without A's line: short of it, which is said
    expected.push(format!(
        "{name}:{game_row}: error: game 1 has no line for seat A (P3601), who plays games 2 and 3 of this card, and its other scores add up to -43, not 0: type seat A's line (when a player leaves early, the others' scores add up to 0 without theirs)"
    ));
    // the example's line 4, and its games 2 and 3, missing whatever line
    // 4 says (but not game 1's sum, nor A's score)
    expected.push(blank_session(&(example_at + 2)));
    expected.push(format!(
        "{name}:{example_at}: error: session S999 table 1: game 2, 3 missing; the hk rules play 3 games per session (a player who left early is blank in the games not played)"
    ));
    expected.sort();
    assert_eq!(errors, expected);
    // cards 100, 500, 700, 900 and the example's refused, no other
    assert_eq!(ordinary.counts.cards_rejected, 5);
    assert_eq!(ordinary.cards.len(), 1196);

    // the streaming reader says the same, however the file is cut
    let inputs = std::slice::from_ref(&path);
    let whole = streamed(inputs, Keep::Cards, Some(false), 1 << 30).expect("the file streams");
    assert_eq!(summary(&whole), summary(&ordinary));
    for chunk in [1, 29, 300, 4096] {
        for threads in [false, true] {
            let got = streamed(inputs, Keep::Cards, Some(threads), chunk)
                .unwrap_or_else(|| panic!("chunks of {chunk} stream"));
            assert_eq!(
                summary(&got),
                summary(&ordinary),
                "chunks of {chunk}, threads {threads}"
            );
        }
    }
    same_both_ways(vec![path], None, hk());
}
