//! The live desk (`tilerank serve --entry`, issue 21) with real processes:
//! referees post cards over HTTP, many at once, through a server that is
//! killed mid-way; keys and requests that must be refused are; the
//! director settles a conflict on the board; double entry waits for the
//! desk; and the event's answers are byte for byte those of the same cards
//! imported from a file.

use crate::test::{shell_words as words, Scratch, Test};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const HK: &str = "../../examples/hk-2026";

fn hk(file: &str) -> PathBuf {
    crate::test::fixtures().join(HK).join(file)
}

/// A running `tilerank serve --entry`, killed when dropped.
pub struct Serving {
    child: Child,
    /// `127.0.0.1:PORT`
    pub addr: String,
    /// The director's key of this run.
    pub director: String,
}

impl Serving {
    pub fn start(event: &Path) -> Serving {
        Serving::start_with(event, &[])
    }

    /// As [`Serving::start`], with these environment variables set.
    pub fn start_with(event: &Path, env: &[(&str, &str)]) -> Serving {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("tilerank"))
            .args(["serve", "--entry", "--port", "0", "--event"])
            .arg(event)
            .env("NO_COLOR", "1")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tilerank serve starts");
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    // (nobody listens any more: keep draining the pipe)
                    continue;
                }
            }
        });
        let (mut addr, mut director) = (None, None);
        let deadline = Instant::now() + Duration::from_secs(60);
        while addr.is_none() || director.is_none() {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = rx.recv_timeout(left).expect("serve says where it listens");
            if let Some(rest) = line.strip_prefix("Serving http://") {
                addr = rest.split('/').next().map(str::to_string);
            }
            if let Some((_, key)) = line.split_once("/board?key=") {
                director = key.split_whitespace().next().map(str::to_string);
            }
        }
        Serving {
            child,
            addr: addr.unwrap(),
            director: director.unwrap(),
        }
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        self.kill();
    }
}

/// An answer: status, headers (names lowercase) and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One HTTP/1.1 request on its own connection. `None` when the server
/// closed the connection before answering (it was killed).
pub fn http(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Option<Answer> {
    let mut stream = TcpStream::connect(addr).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .ok()?;
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).ok()?;
    // (a server that refuses a body may close before it is all sent: the
    // answer is still read)
    let _ = stream.write_all(body);
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n")?;
    let mut lines = head.lines();
    let status = lines.next()?.split_whitespace().nth(1)?.parse().ok()?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Some(Answer {
        status,
        headers,
        body: body.to_string(),
    })
}

/// Posts a card with a referee's key.
pub fn post_card(addr: &str, key: &str, card: &[u8]) -> Option<Answer> {
    post_to(addr, "/api/cards", key, card)
}

/// A card posted to `path` (`/api/cards`, `/api/check`) with a referee's key.
fn post_to(addr: &str, path: &str, key: &str, card: &[u8]) -> Option<Answer> {
    post_in(addr, path, key, None, card)
}

/// A card posted as [`post_to`] does, from a phone that asks for
/// `language` first (`Accept-Language`) when given.
fn post_in(
    addr: &str,
    path: &str,
    key: &str,
    language: Option<&str>,
    card: &[u8],
) -> Option<Answer> {
    let bearer = format!("Bearer {key}");
    let mut headers = vec![
        ("Authorization", bearer.as_str()),
        ("Content-Type", "text/csv"),
    ];
    headers.extend(language.map(|l| ("Accept-Language", l)));
    http(addr, "POST", path, &headers, card)
}

/// An HK event folder with the demo's roster, and the demo's first
/// session as 25 card files in the results layout (a dump of the session
/// imported into a second event, which the tests compare against).
pub struct HkEvent {
    pub dir: PathBuf,
    /// The same session imported from the demo's workbook.
    pub imported: PathBuf,
    pub cards: Vec<PathBuf>,
}

/// [`hk_event`] with a schedule of one session: all the event expects
/// is the first session's cards.
fn one_session_event(scratch: &Scratch) -> HkEvent {
    let hk = hk_event(scratch);
    let toml = hk.dir.join("tilerank.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    assert!(text.contains("count = 12"));
    std::fs::write(&toml, text.replace("count = 12", "count = 1")).unwrap();
    hk
}

pub fn hk_event(scratch: &Scratch) -> HkEvent {
    let dir = scratch.path("event");
    let imported = scratch.path("imported");
    for d in [&dir, &imported] {
        Test::new()
            .args(["init", "--profile", "hk", "--name", "Live Open"])
            .arg(d)
            .run()
            .success();
        Test::new()
            .arg("roster")
            .arg(hk("roster.csv"))
            .arg("--event")
            .arg(d)
            .run()
            .success();
    }
    Test::new()
        .arg("import")
        .arg(hk("cards/S01.xlsx"))
        .arg("--event")
        .arg(&imported)
        .run()
        .success();
    let dumped = dump(&imported, scratch.path("dumped"));
    let mut cards: Vec<PathBuf> = std::fs::read_dir(dumped.join("cards"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    cards.sort();
    assert_eq!(cards.len(), 25);
    HkEvent {
        dir,
        imported,
        cards,
    }
}

/// Adds a referee; their key.
pub fn add_referee(event: &Path, name: &str) -> String {
    let out = Test::new()
        .args(["referee", "add", name, "--event"])
        .arg(event)
        .run()
        .success();
    out.stdout
        .lines()
        .find_map(|l| l.strip_prefix("key: "))
        .expect("a key")
        .to_string()
}

/// The director signs in by the board's link: the cookie it sets.
fn director(server: &Serving) -> String {
    let a = http(
        &server.addr,
        "GET",
        &format!("/board?key={}", server.director),
        &[],
        b"",
    )
    .unwrap();
    assert_eq!(a.status, 303, "{a:?}");
    let set = a.header("set-cookie").expect("a cookie");
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Strict"),
        "{set}"
    );
    set.split(';').next().unwrap().to_string()
}

/// The event dumped into `dir` (`tilerank dump --event EVENT DIR`).
pub fn dump(event: &Path, dir: PathBuf) -> PathBuf {
    Test::new()
        .arg("dump")
        .arg("--event")
        .arg(event)
        .arg(&dir)
        .run()
        .success();
    dir
}

/// The desk imports a card file (`tilerank import FILE --event DIR`).
fn desk_import(event: &Path, file: &Path) -> crate::test::Output {
    Test::new()
        .arg("import")
        .arg(file)
        .arg("--event")
        .arg(event)
        .run()
}

/// The board, as the director sees it.
fn the_board(addr: &str, cookie: &str) -> Answer {
    http(addr, "GET", "/board", &[("Cookie", cookie)], b"").unwrap()
}

/// The form token a page carries.
fn form_token(html: &str) -> String {
    html.split("name=\"csrf\" value=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("a form token")
        .to_string()
}

/// What a command prints for an event.
fn answer(event: &Path, args: &[&str]) -> String {
    let out = Test::new()
        .args(args)
        .arg("--event")
        .arg(event)
        .env("COLUMNS", "160")
        .run();
    format!(
        "exit {:?}\n{}{}",
        out.status,
        out.stdout,
        // (the summary line names the sources; the rest must agree)
        out.stderr
            .lines()
            .filter(|l| !l.contains("entry by referee") && !l.contains("S01.xlsx"))
            .collect::<Vec<_>>()
            .join("\n")
    )
}

/// The event's log (`tilerank log --format csv`) as its rows' action,
/// file and reason, after the roster's; and the log as printed.
fn log_said(event: &Path) -> (Vec<[String; 3]>, String) {
    let log = Test::new()
        .args(["log", "--format", "csv", "--event"])
        .arg(event)
        .run()
        .success()
        .stdout;
    let rows = csv::Reader::from_reader(log.as_bytes())
        .records()
        .map(Result::unwrap)
        .skip(1)
        .map(|r| [1, 2, 7].map(|i| r[i].to_string()))
        .collect();
    (rows, log)
}

/// The cards of an event's database, by key: each key once.
fn stored_keys(event: &Path) -> Vec<String> {
    let db = rusqlite::Connection::open(event.join("tilerank.db")).unwrap();
    let mut stmt = db
        .prepare("SELECT stage || ' ' || session || ' ' || tbl FROM cards WHERE replaced_by IS NULL ORDER BY id")
        .unwrap();
    let keys = stmt
        .query_map([], |r| r.get::<_, String>(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    keys
}

#[test]
fn twenty_five_referees_post_at_once_each_card_stored_once_and_the_answers_are_the_imports() {
    let scratch = Scratch::new("twenty-five");
    let hk = hk_event(&scratch);
    let keys: Vec<String> = (1..=25)
        .map(|i| add_referee(&hk.dir, &format!("Referee {i:02}")))
        .collect();
    let server = Serving::start(&hk.dir);
    // every card posted twice at the same moment, by its table's referee
    let start = std::sync::Arc::new(std::sync::Barrier::new(50));
    let threads: Vec<_> = (0..50)
        .map(|i| {
            let (addr, key) = (server.addr.clone(), keys[i % 25].clone());
            let card = std::fs::read(&hk.cards[i % 25]).unwrap();
            let start = std::sync::Arc::clone(&start);
            std::thread::spawn(move || {
                start.wait();
                (i % 25, post_card(&addr, &key, &card).expect("an answer"))
            })
        })
        .collect();
    let mut statuses: BTreeMap<usize, Vec<u16>> = BTreeMap::new();
    for t in threads {
        let (card, answer) = t.join().unwrap();
        statuses.entry(card).or_default().push(answer.status);
    }
    for (card, mut s) in statuses {
        s.sort();
        assert_eq!(s, [200, 201], "card {card}: stored once, then the same");
    }
    let stored = stored_keys(&hk.dir);
    assert_eq!(stored.len(), 25);
    assert_eq!(stored.iter().collect::<BTreeSet<_>>().len(), 25);
    // the log names the referee of each card
    let log = answer(&hk.dir, &["log"]);
    let lines = |action: &str, said: &str| {
        (log.lines())
            .filter(|l| l.contains(action) && l.contains("entry by referee Referee"))
            .filter(|l| l.contains(said))
            .count()
    };
    assert_eq!(lines(" import ", ""), 25, "{log}");
    // and each entry, the second of each card the same as the first
    assert_eq!(lines(" entry ", ": now the event's card"), 25, "{log}");
    assert_eq!(
        lines(" entry ", ": the same as the event's card"),
        25,
        "{log}"
    );
    assert!(
        !log.contains("corrected"),
        "a new card gives no reason: {log}"
    );
    // the same answers as the same cards imported from the workbook
    assert!(answer(&hk.dir, &["standings"]).contains("Carmen Lau Wai Mei"));
    for args in [
        &["standings"][..],
        &["standings", "--format", "csv"],
        &["standings", "--format", "json"],
        &["qualifiers", "--format", "csv"],
    ] {
        assert_eq!(
            answer(&hk.dir, args),
            answer(&hk.imported, args),
            "{args:?}"
        );
    }
}

#[test]
fn a_server_killed_mid_posts_loses_no_card_it_acknowledged() {
    let scratch = Scratch::new("killed");
    let hk = hk_event(&scratch);
    let key = add_referee(&hk.dir, "Ann Lee");
    // killed after 1, 6 and 12 acknowledgements: at a random moment of the
    // writes under way for the others
    for (round, kill_after) in [1usize, 6, 12].into_iter().enumerate() {
        let mut server = Serving::start(&hk.dir);
        let (tx, rx) = mpsc::channel();
        let threads: Vec<_> = hk
            .cards
            .iter()
            .enumerate()
            .map(|(i, path)| {
                let (addr, key, tx) = (server.addr.clone(), key.clone(), tx.clone());
                let card = std::fs::read(path).unwrap();
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(7 * i as u64));
                    if let Some(a) = post_card(&addr, &key, &card) {
                        let _ = tx.send((i, a.status));
                    }
                })
            })
            .collect();
        drop(tx);
        let mut acknowledged = Vec::new();
        while let Ok((i, status)) = rx.recv_timeout(Duration::from_secs(60)) {
            if status == 201 || status == 200 {
                acknowledged.push(i);
            }
            if acknowledged.len() >= kill_after {
                break;
            }
        }
        server.kill();
        // what was answered before the kill
        acknowledged.extend(
            rx.try_iter()
                .filter(|(_, s)| *s == 201 || *s == 200)
                .map(|(i, _)| i),
        );
        for t in threads {
            t.join().unwrap();
        }
        let stored: BTreeSet<String> = stored_keys(&hk.dir).into_iter().collect();
        if round == 0 {
            assert!(
                stored.len() < 25,
                "killed before all were stored: {stored:?}"
            );
        }
        for i in &acknowledged {
            let name = hk.cards[*i].file_stem().unwrap().to_string_lossy();
            // prelim-S01-T07 is stored as "prelim S01 7"
            let table = name.rsplit("-T").next().unwrap().trim_start_matches('0');
            assert!(
                stored.contains(&format!("prelim S01 {table}")),
                "round {round}: card {name} was acknowledged and is not stored: {stored:?}"
            );
        }
        let db = rusqlite::Connection::open(hk.dir.join("tilerank.db")).unwrap();
        let ok: String = db
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(ok, "ok");
    }
    // and what was stored reads as an event
    Test::new()
        .arg("standings")
        .arg("--event")
        .arg(&hk.dir)
        .run()
        .success();
}

#[test]
fn wrong_keys_other_sites_and_huge_bodies_are_refused_and_the_server_goes_on() {
    let scratch = Scratch::new("refused");
    let hk = hk_event(&scratch);
    let key = add_referee(&hk.dir, "Ann Lee");
    let gone = add_referee(&hk.dir, "Bob Chan");
    let server = Serving::start(&hk.dir);
    let addr = server.addr.as_str();
    let card = std::fs::read(&hk.cards[0]).unwrap();
    // no key, a wrong key
    let a = http(
        addr,
        "POST",
        "/api/cards",
        &[("Content-Type", "text/csv")],
        &card,
    )
    .unwrap();
    assert_eq!(a.status, 401, "{a:?}");
    assert!(a.body.contains("no key"), "{}", a.body);
    let wrong = "a".repeat(32);
    let a = post_card(addr, &wrong, &card).unwrap();
    assert_eq!(a.status, 403);
    assert!(
        a.body.contains("not a referee's of this event"),
        "{}",
        a.body
    );
    // a key revoked while the server runs
    assert_eq!(post_card(addr, &gone, b"x").unwrap().status, 422);
    Test::new()
        .args(["referee", "revoke", "Bob Chan", "--event"])
        .arg(&hk.dir)
        .run()
        .success();
    let a = post_card(addr, &gone, &card).unwrap();
    assert_eq!(a.status, 403);
    assert!(a.body.contains("revoked"), "{}", a.body);
    // each said in Chinese to a phone that reads Chinese
    for (key, said) in [
        (gone.as_str(), "裁判 Bob Chan 的金鑰已於 "),
        (wrong.as_str(), "此金鑰不屬於本賽事的裁判"),
    ] {
        let a = post_in(addr, "/api/cards", key, Some("zh-Hant"), &card).unwrap();
        assert_eq!(a.status, 403);
        assert!(a.body.contains(said), "{}", a.body);
    }
    let a = http(
        addr,
        "POST",
        "/api/cards",
        &[("Content-Type", "text/csv"), ("Accept-Language", "zh-HK")],
        &card,
    )
    .unwrap();
    assert_eq!(a.status, 401, "{a:?}");
    assert!(a.body.contains("沒有金鑰"), "{}", a.body);
    // a signed-in phone: the link's key becomes an HttpOnly, SameSite
    // cookie, and leaves the address
    let a = http(addr, "GET", &format!("/entry?key={key}"), &[], b"").unwrap();
    assert_eq!(a.status, 303);
    assert_eq!(a.header("location"), Some("/entry"));
    let set = a.header("set-cookie").unwrap().to_string();
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Strict"),
        "{set}"
    );
    let cookie = set.split(';').next().unwrap().to_string();
    let page = http(addr, "GET", "/entry", &[("Cookie", &cookie)], b"").unwrap();
    assert_eq!(page.status, 200);
    assert_eq!(page.header("cache-control"), Some("no-store"));
    // the first stage, with a button to each other stage the event plays
    assert!(page.body.contains(r#""stage":"prelim""#), "{}", page.body);
    assert!(
        page.body
            .contains(r#"<a href="/entry?stage=final">Enter final cards</a>"#),
        "{}",
        page.body
    );
    // a referee at a final table enters a final card
    let entry_page = |path: &str| http(addr, "GET", path, &[("Cookie", &cookie)], b"").unwrap();
    let page = entry_page("/entry?stage=final");
    assert_eq!(page.status, 200);
    assert!(page.body.contains(r#""stage":"final""#), "{}", page.body);
    assert!(
        page.body.contains(r#"<a href="/entry?stage=prelim">"#),
        "{}",
        page.body
    );
    let page = entry_page("/entry?stage=semi");
    assert_eq!(page.status, 404);
    assert!(
        page.body
            .contains("no stage \"semi\"; its stages are prelim, final"),
        "{}",
        page.body
    );
    // another site's form, posting with the phone's cookie: refused
    let a = http(
        addr,
        "POST",
        "/api/cards",
        &[
            ("Cookie", &cookie),
            ("Origin", "http://evil.example"),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ],
        b"stage=prelim",
    )
    .unwrap();
    assert_eq!(a.status, 403, "{a:?}");
    // even as text/csv, and even from no stated origin, without the page's token
    let a = http(
        addr,
        "POST",
        "/api/cards",
        &[("Cookie", &cookie), ("Content-Type", "text/csv")],
        &card,
    )
    .unwrap();
    assert_eq!(a.status, 403, "{a:?}");
    assert!(a.body.contains("form token"), "{}", a.body);
    // a body of 10 MB
    let huge = vec![b'1'; 10 * 1024 * 1024];
    let a = post_card(addr, &key, &huge).unwrap();
    assert_eq!(a.status, 413, "{a:?}");
    // a card cut off mid-way (the phone left the Wi-Fi): not "too large"
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let head = format!(
        "POST /api/cards HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAuthorization: Bearer {key}\r\nContent-Type: text/csv\r\nContent-Length: 500\r\n\r\nsession,table,game"
    );
    s.write_all(head.as_bytes()).unwrap();
    s.shutdown(std::net::Shutdown::Write).unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(
        answer.contains(
            "the card did not arrive whole (the connection stalled or dropped): send it again"
        ),
        "{answer}"
    );
    // not a card's type
    let a = http(
        addr,
        "POST",
        "/api/cards",
        &[
            ("Authorization", &format!("Bearer {key}")),
            ("Content-Type", "application/json"),
        ],
        b"{}",
    )
    .unwrap();
    assert_eq!(a.status, 415);
    // the board is the director's only
    let a = the_board(addr, &cookie);
    assert_eq!(a.status, 401);
    // and the server goes on answering (the scheme's name in any case)
    assert_eq!(http(addr, "GET", "/", &[], b"").unwrap().status, 200);
    let lower = format!("bearer {key}");
    let headers = [
        ("Authorization", lower.as_str()),
        ("Content-Type", "text/csv"),
    ];
    let a = http(addr, "POST", "/api/cards", &headers, &card).unwrap();
    assert_eq!(a.status, 201, "{a:?}");
    assert_eq!(stored_keys(&hk.dir).len(), 1);
}

/// A game one sign away from passing: the phone gets `check`'s hint as a
/// note at its game, in both languages, beside the errors.
#[test]
fn a_lost_minus_sign_is_hinted_on_the_phone_at_its_game() {
    let scratch = Scratch::new("sign-hint");
    let hk = hk_event(&scratch);
    let key = add_referee(&hk.dir, "Ann Lee");
    let server = Serving::start(&hk.dir);
    let card = std::fs::read_to_string(&hk.cards[0]).unwrap();
    // game 1's first losing seat typed without its minus
    let line = card
        .lines()
        .skip(1)
        .find(|l| l.split(',').nth(3) == Some("1") && l.split(',').nth(7).unwrap().starts_with('-'))
        .unwrap();
    let wrong = card.replacen(line, &line.replacen(",-", ",", 1), 1);
    for path in ["/api/check", "/api/cards"] {
        let a = post_to(&server.addr, path, &key, wrong.as_bytes()).unwrap();
        let v: serde_json::Value = serde_json::from_str(&a.body).unwrap();
        let problems = v["problems"].as_array().unwrap();
        assert!(
            problems.iter().any(|p| p["game"] == 1
                && p["severity"] == "note"
                && p["message"]
                    .as_str()
                    .unwrap()
                    .contains("did it lose its minus sign?")),
            "{path}: {v}"
        );
        assert!(
            problems.iter().any(|p| p["severity"] == "error"),
            "{path}: {v}"
        );
    }
    assert!(stored_keys(&hk.dir).is_empty(), "nothing bad gets in");
}

#[test]
fn a_card_with_errors_is_answered_with_each_problem_at_its_game_and_seat() {
    let scratch = Scratch::new("problems");
    let hk = hk_event(&scratch);
    let key = add_referee(&hk.dir, "Ann Lee");
    let server = Serving::start(&hk.dir);
    let card = std::fs::read_to_string(&hk.cards[0]).unwrap();
    // game 1, seat A's score one point out
    let line = card.lines().nth(1).unwrap();
    let fields: Vec<&str> = line.split(',').collect();
    let score: i64 = fields[7].parse().unwrap();
    let wrong_line = [
        &fields[..7],
        &[(score + 1).to_string().as_str()],
        &fields[8..],
    ]
    .concat()
    .join(",");
    let wrong = card.replacen(line, &wrong_line, 1);
    for path in ["/api/check", "/api/cards"] {
        let a = post_to(&server.addr, path, &key, wrong.as_bytes()).unwrap();
        let v: serde_json::Value = serde_json::from_str(&a.body).unwrap();
        let problems = v["problems"].as_array().unwrap();
        assert!(
            problems.iter().any(|p| p["game"] == 1
                && p["seat"].is_null()
                && p["severity"] == "error"
                && p["message"].as_str().unwrap().contains("add up to +1")),
            "{path}: {v}"
        );
        if path == "/api/check" {
            assert_eq!(a.status, 200);
            assert_eq!(v["ok"], false);
            assert_eq!(v["players"].as_array().unwrap().len(), 4, "{v}");
        } else {
            assert_eq!(a.status, 422);
        }
    }
    assert!(stored_keys(&hk.dir).is_empty(), "nothing bad gets in");
    // a seat that changes player in game 1 (an error of the card's reading)
    // hides none of the card's other problems, as `check` lists them all
    let other = std::fs::read_to_string(&hk.cards[1]).unwrap();
    let stranger = other.lines().nth(1).unwrap().split(',').nth(5).unwrap();
    let seat_c = wrong.lines().nth(3).unwrap();
    let right = seat_c.split(',').nth(5).unwrap();
    let mut c_fields: Vec<&str> = seat_c.split(',').collect();
    assert_eq!(c_fields[3..5], ["1", "C"]);
    c_fields[5] = stranger;
    let changing = wrong.replacen(seat_c, &c_fields.join(","), 1);
    for path in ["/api/check", "/api/cards"] {
        let a = post_to(&server.addr, path, &key, changing.as_bytes()).unwrap();
        let v: serde_json::Value = serde_json::from_str(&a.body).unwrap();
        let said: Vec<&str> = v["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["message"].as_str().unwrap())
            .collect();
        assert!(said.iter().any(|m| m.contains("seat C")), "{path}: {v}");
        assert!(
            said.iter().any(|m| m.contains("add up to +1")),
            "{path}: {v}"
        );
        // the other lines a message names (those that give the seat's
        // player) are said as the page says places, not as lines and
        // columns of a file the referee never saw
        assert!(
            said.iter().any(|m| m.contains(&format!(
                "seat C is \"{stranger}\" here but \"{right}\" at game 2, seat C and game 3, seat C;"
            ))),
            "{path}: {v}"
        );
        assert!(
            said.iter().all(|m| !m.contains("entry by referee")),
            "{path}: {v}"
        );
    }
    assert!(stored_keys(&hk.dir).is_empty(), "nothing bad gets in");
    // a card without its third game: a problem of the card, at no game
    let short: String = card
        .lines()
        .filter(|l| l.split(',').nth(3) != Some("3"))
        .map(|l| format!("{l}\n"))
        .collect();
    let a = post_card(&server.addr, &key, short.as_bytes()).unwrap();
    assert_eq!(a.status, 422);
    let v: serde_json::Value = serde_json::from_str(&a.body).unwrap();
    let missing = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["message"].as_str().unwrap().contains("missing"))
        .unwrap_or_else(|| panic!("{v}"));
    assert!(
        missing["game"].is_null() && missing["seat"].is_null(),
        "{v}"
    );
    // two cards in one post
    let two = format!(
        "{card}{}",
        std::fs::read_to_string(&hk.cards[1])
            .unwrap()
            .lines()
            .skip(1)
            .collect::<Vec<_>>()
            .join("\n")
    );
    let a = post_card(&server.addr, &key, two.as_bytes()).unwrap();
    assert_eq!(a.status, 422);
    assert!(a.body.contains("holds one card"), "{}", a.body);
}

#[test]
fn a_phone_that_reads_chinese_is_told_a_cards_problems_in_chinese() {
    let scratch = Scratch::new("problems-zh");
    let hk = hk_event(&scratch);
    let key = add_referee(&hk.dir, "Ann Lee");
    let server = Serving::start(&hk.dir);
    let card = std::fs::read_to_string(&hk.cards[0]).unwrap();
    // game 1: seat A's score one point out, and seat C's player another
    // table's (a seat that changes player: a place the message names)
    let mut lines: Vec<String> = card.lines().map(String::from).collect();
    let mut a: Vec<String> = lines[1].split(',').map(String::from).collect();
    assert_eq!(a[3..5], ["1", "A"]);
    a[7] = (a[7].parse::<i64>().unwrap() + 1).to_string();
    lines[1] = a.join(",");
    let other = std::fs::read_to_string(&hk.cards[1]).unwrap();
    let stranger = other.lines().nth(1).unwrap().split(',').nth(5).unwrap();
    let mut c: Vec<String> = lines[3].split(',').map(String::from).collect();
    assert_eq!(c[3..5], ["1", "C"]);
    c[5] = stranger.to_string();
    lines[3] = c.join(",");
    let wrong = lines.join("\n") + "\n";
    let said = |language: &str, path: &str| -> Vec<String> {
        let a = post_in(&server.addr, path, &key, Some(language), wrong.as_bytes()).unwrap();
        let v: serde_json::Value = serde_json::from_str(&a.body).unwrap();
        v["problems"]
            .as_array()
            .unwrap_or_else(|| panic!("{v}"))
            .iter()
            .map(|p| p["message"].as_str().unwrap().to_string())
            .collect()
    };
    for path in ["/api/check", "/api/cards"] {
        let en = said("en-GB,en;q=0.9", path);
        let zh = said("zh-HK,zh;q=0.9,en;q=0.8", path);
        assert_eq!(en.len(), zh.len(), "{path}: {en:?} {zh:?}");
        assert!(en.iter().any(|m| m.contains("add up to +1")), "{en:?}");
        assert!(
            zh.iter()
                .any(|m| m.starts_with("第 1 局：得分總和為 +1，應為 0（A ")),
            "{path}: {zh:?}"
        );
        // the other lines the message names, as the page says places, in
        // the page's words
        let changes = zh
            .iter()
            .find(|m| m.starts_with("座位 C 在此為"))
            .unwrap_or_else(|| panic!("{path}: {zh:?}"));
        // (a Chinese part: no space before it)
        assert!(
            changes.contains("，但在第 2 局，座位 C 和第 3 局，座位 C 為"),
            "{changes}"
        );
        assert!(!changes.contains("game 1"), "{changes}");
        // each message is said in Chinese, not left in English
        for m in &zh {
            assert!(
                !m.contains("expected") && !m.contains("seat "),
                "{path}: {m}"
            );
        }
    }
    assert!(stored_keys(&hk.dir).is_empty(), "nothing bad gets in");
}

/// A conflict's answer, its JSON read.
fn conflict_of(a: &Answer) -> serde_json::Value {
    assert_eq!(a.status, 409, "{a:?}");
    let v: serde_json::Value = serde_json::from_str(&a.body).unwrap();
    assert_eq!(v["status"], "conflict", "{v}");
    v
}

/// A second referee whose card of a table differs from the one a first
/// referee entered is told that it was that referee, by name, not the
/// desk; what to do; and what differs, field by field, in the phone's
/// language.
#[test]
fn a_second_referee_is_told_which_referee_entered_the_other_version() {
    let scratch = Scratch::new("conflict-zh");
    let hk = hk_event(&scratch);
    let ann = add_referee(&hk.dir, "Ann Lee");
    let bob = add_referee(&hk.dir, "Bob Chan");
    let server = Serving::start(&hk.dir);
    let card = std::fs::read_to_string(&hk.cards[0]).unwrap();
    let stored = post_card(&server.addr, &ann, card.as_bytes()).unwrap();
    assert_eq!(stored.status, 201, "{stored:?}");
    // the values of game 3's first two seats, as the card has them
    let game3: Vec<Vec<&str>> = card
        .lines()
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f[3] == "3")
        .collect();
    let (a, b) = (&game3[0], &game3[1]);
    let zh = post_in(
        &server.addr,
        "/api/cards",
        &bob,
        Some("zh-TW,zh;q=0.9"),
        swap_seats(&card).as_bytes(),
    )
    .unwrap();
    let v = conflict_of(&zh);
    assert_eq!(v["card"], "場次 S01 第 1 枱");
    assert_eq!(
        (&v["held_by"], &v["referee"]),
        (&"referee".into(), &"Ann Lee".into())
    );
    let message = v["message"].as_str().unwrap();
    let mut lines = message.lines();
    assert_eq!(
        lines.next(),
        Some("未儲存：裁判 Ann Lee 較早前已輸入場次 S01 第 1 枱，內容與此不同。你的計分卡已保留給裁判長：請告知記分台，並等候裁判長在看板上決定。"),
        "{message}"
    );
    assert_eq!(
        lines.next(),
        Some("不同之處（裁判 Ann Lee 的計分卡對此計分卡）："),
        "{message}"
    );
    assert_eq!(
        lines.next().unwrap(),
        format!(
            "第 3 局，座位 A：勝局 {} 對 {}、得分 {} 對 {} 和餘牌 {} 對 {}",
            a[6], b[6], a[7], b[7], a[8], b[8]
        ),
        "{message}"
    );
    assert!(!message.contains("記分台已"), "not the desk's: {message}");
    assert!(!message.contains("--replace"), "{message}");
    // the same in English to a phone that reads English
    let en = post_card(&server.addr, &bob, swap_seats(&card).as_bytes()).unwrap();
    let v = conflict_of(&en);
    assert_eq!(v["card"], "session S01 table 1");
    let message = v["message"].as_str().unwrap();
    assert!(
        message.starts_with("Not stored: referee Ann Lee entered a different card for session S01 table 1 before you. Yours is kept for the director: tell the desk, and wait for the director's decision on the board.\nWhat differs (referee Ann Lee's card vs this one):\n"),
        "{message}"
    );
    assert!(
        message.contains(&format!(
            "\ngame 3, seat B: won {} vs {}, score {} vs {} and tiles left {} vs {}",
            b[6], a[6], b[7], a[7], b[8], a[8]
        )),
        "{message}"
    );
    assert!(!message.contains("the desk has"), "{message}");
    assert!(!message.contains("--replace"), "{message}");

    // a card the desk imported: the phone is told it is the desk's
    desk_import(&hk.dir, &hk.cards[1]).success();
    let card2 = std::fs::read_to_string(&hk.cards[1]).unwrap();
    let v = conflict_of(&post_card(&server.addr, &bob, swap_seats(&card2).as_bytes()).unwrap());
    assert_eq!(v["held_by"], "desk");
    assert!(v.get("referee").is_none(), "{v}");
    let message = v["message"].as_str().unwrap();
    assert!(
        message.starts_with("Not stored: the desk has a different card for session S01 table 2, typed from the signed paper card. Check yours against the paper card; if yours is right, tell the desk: the director settles it on the board.\nWhat differs (the desk's card vs this one):\ngame 3, seat A: "),
        "{message}"
    );
    let zh = post_in(
        &server.addr,
        "/api/cards",
        &bob,
        Some("zh-HK"),
        swap_seats(&card2).as_bytes(),
    )
    .unwrap();
    let message = conflict_of(&zh)["message"].as_str().unwrap().to_string();
    assert!(
        message.starts_with("未儲存：記分台已按已簽署的紙本計分卡輸入場次 S01 第 2 枱，內容與此不同。請與紙本計分卡核對；若你輸入的正確，請告知記分台，由裁判長在看板上決定。\n不同之處（記分台的計分卡對此計分卡）：\n第 3 局，座位 A："),
        "{message}"
    );

    // Ann's own card, once the desk's typing agreed: hers, checked
    let card3 = std::fs::read_to_string(&hk.cards[2]).unwrap();
    assert_eq!(
        post_card(&server.addr, &ann, card3.as_bytes())
            .unwrap()
            .status,
        201
    );
    desk_import(&hk.dir, &hk.cards[2]).success();
    let v = conflict_of(&post_card(&server.addr, &ann, swap_seats(&card3).as_bytes()).unwrap());
    assert_eq!(v["held_by"], "own");
    let message = v["message"].as_str().unwrap();
    assert!(
        message.starts_with("Not stored: your own card for session S01 table 3 was checked already (the desk's typing of the paper card agreed, or the director decided), and it is no longer changed from the phone. If this one is right, tell the desk: the director settles it on the board.\nWhat differs (your checked card vs this one):\n"),
        "{message}"
    );
}

/// A version set aside by the desk's decision (its typing agreed with
/// another, or it put its own in with `--replace`), sent again, is told
/// so in the phone's words: never the file the desk imported, a path of
/// the server.
#[test]
fn a_version_the_desk_set_aside_is_told_so_without_the_desks_file() {
    let scratch = Scratch::new("desk-aside");
    let hk = hk_event(&scratch);
    let ann = add_referee(&hk.dir, "Ann Lee");
    let bob = add_referee(&hk.dir, "Bob Chan");
    let server = Serving::start(&hk.dir);
    let addr = server.addr.as_str();
    let card = std::fs::read_to_string(&hk.cards[0]).unwrap();
    assert_eq!(post_card(addr, &ann, card.as_bytes()).unwrap().status, 201);
    conflict_of(&post_card(addr, &bob, swap_seats(&card).as_bytes()).unwrap());
    // the desk's typing agrees with Ann's: Bob's version is set aside
    desk_import(&hk.dir, &hk.cards[0]).success();
    let file = hk.cards[0].display().to_string();
    let v = conflict_of(&post_card(addr, &bob, swap_seats(&card).as_bytes()).unwrap());
    let message = v["message"].as_str().unwrap();
    assert!(
        message.starts_with("The director has decided this table already (the desk's typing of the paper card agreed): this version of the card was set aside then"),
        "{message}"
    );
    assert!(
        !message.contains(&file) && !message.contains(".csv"),
        "{message}"
    );
    let zh = post_in(
        addr,
        "/api/cards",
        &bob,
        Some("zh-HK"),
        swap_seats(&card).as_bytes(),
    )
    .unwrap();
    let message = conflict_of(&zh)["message"].as_str().unwrap().to_string();
    assert!(
        message.starts_with("裁判長已就此枱作出決定（記分台輸入的紙本計分卡相符）："),
        "{message}"
    );
    // the desk puts its typing in over Ann's with --replace: the reason
    // typed, not the file
    let card2 = std::fs::read_to_string(&hk.cards[1]).unwrap();
    let other = swap_seats(&card2);
    assert_eq!(post_card(addr, &ann, other.as_bytes()).unwrap().status, 201);
    Test::new()
        .arg("import")
        .arg(&hk.cards[1])
        .args(["--replace", "--reason", "the signed card says so"])
        .arg("--event")
        .arg(&hk.dir)
        .run()
        .success();
    let file = hk.cards[1].display().to_string();
    let v = conflict_of(&post_card(addr, &ann, other.as_bytes()).unwrap());
    let message = v["message"].as_str().unwrap();
    assert!(
        message.starts_with("The director has decided this table already (the signed card says so): this version of the card was set aside then"),
        "{message}"
    );
    assert!(
        !message.contains(&file) && !message.contains(".csv"),
        "{message}"
    );
}

/// A phone is never shown a path of the server: a check that names a
/// place of a stored card (a player seated at another table) says the
/// card, game and seat in the phone's words; and a place of the card
/// itself is set in Chinese words as any Chinese part is, with no space
/// before it.
#[test]
fn a_phone_is_told_places_in_its_words_never_the_servers_files() {
    let scratch = Scratch::new("places");
    let hk = hk_event(&scratch);
    let ann = add_referee(&hk.dir, "Ann Lee");
    let server = Serving::start(&hk.dir);
    let card1 = std::fs::read_to_string(&hk.cards[0]).unwrap();
    assert_eq!(
        post_card(&server.addr, &ann, card1.as_bytes())
            .unwrap()
            .status,
        201
    );
    // table 2's seat A is table 1's seat A player
    let card2 = std::fs::read_to_string(&hk.cards[1]).unwrap();
    let player = |card: &str| {
        card.lines()
            .nth(1)
            .unwrap()
            .split(',')
            .nth(5)
            .unwrap()
            .to_string()
    };
    let (p1, p2) = (player(&card1), player(&card2));
    let twice = card2.replace(&format!(",A,{p2},"), &format!(",A,{p1},"));
    let db = hk.dir.join("tilerank.db").display().to_string();
    for (lang, said) in [
        (
            None,
            "is seated at table 2 and at table 1 (session S01 table 1, seat A) in session S01"
                .to_string(),
        ),
        (
            Some("zh-HK"),
            "坐在第 2 枱，又坐在第 1 枱（場次 S01 第 1 枱，座位 A），同屬場次 S01".to_string(),
        ),
    ] {
        for path in ["/api/check", "/api/cards"] {
            let a = post_in(&server.addr, path, &ann, lang, twice.as_bytes()).unwrap();
            assert!(a.body.contains(&said), "{path} {lang:?}: {}", a.body);
            assert!(!a.body.contains("tilerank.db"), "{}", a.body);
            assert!(!a.body.contains(&db), "{}", a.body);
        }
    }
    // game 2's seat A is another player: the seat's, at "game 1, seat A"
    // and "game 3, seat A"
    let moved = card2.replacen(&format!(",2,A,{p2},"), ",2,A,P0001,", 1);
    assert_ne!(moved, card2);
    let zh = post_in(
        &server.addr,
        "/api/check",
        &ann,
        Some("zh-HK"),
        moved.as_bytes(),
    )
    .unwrap();
    assert!(
        zh.body.contains(&format!(
            "座位 A 在此為 \\\"P0001\\\"，但在第 1 局，座位 A 和第 3 局，座位 A 為 \\\"{p2}\\\"；"
        )),
        "{}",
        zh.body
    );
    assert!(!zh.body.contains("但在 第"), "{}", zh.body);
    let en = post_to(&server.addr, "/api/check", &ann, moved.as_bytes()).unwrap();
    assert!(
        en.body.contains(&format!(
            "seat A is \\\"P0001\\\" here but \\\"{p2}\\\" at game 1, seat A and game 3, seat A;"
        )),
        "{}",
        en.body
    );
}

#[test]
fn a_conflict_is_settled_on_the_board_with_a_reason_and_the_referee_corrects_their_own() {
    let scratch = Scratch::new("board");
    let hk = hk_event(&scratch);
    let ann = add_referee(&hk.dir, "Ann Lee");
    let bob = add_referee(&hk.dir, "Bob Chan");
    let server = Serving::start(&hk.dir);
    let addr = server.addr.as_str();
    let card = std::fs::read_to_string(&hk.cards[0]).unwrap();
    // the same card with game 3's winner and a loser swapped round
    let other = swap_seats(&card);
    assert_eq!(post_card(addr, &ann, other.as_bytes()).unwrap().status, 201);
    // Ann corrects her own card: replaced
    assert_eq!(post_card(addr, &ann, card.as_bytes()).unwrap().status, 201);
    let log = answer(&hk.dir, &["log"]);
    assert!(
        log.contains("corrected by the referee who entered it"),
        "{log}"
    );
    // Bob types it differently: a conflict for the director
    let a = post_card(addr, &bob, other.as_bytes()).unwrap();
    assert_eq!(a.status, 409, "{a:?}");
    assert!(
        a.body.contains("differs") && a.body.contains("board"),
        "{}",
        a.body
    );
    // the board, signed in by its link
    let cookie = director(&server);
    let board = the_board(addr, &cookie);
    assert_eq!(board.status, 200);
    assert!(board.body.contains("1 in conflict"), "{}", board.body);
    assert!(board.body.contains("Entry 3 by Bob Chan"), "{}", board.body);
    let csrf = form_token(&board.body);
    // without its token, or from another site: refused
    let form = |token: &str| {
        format!(
            "stage=prelim&session=S01&table=1&choice=3&reason=checked+the+signed+card&csrf={token}"
        )
    };
    let post = |body: String, origin: &str| {
        http(
            addr,
            "POST",
            "/board/accept",
            &[
                ("Cookie", &cookie),
                ("Origin", origin),
                ("Content-Type", "application/x-www-form-urlencoded"),
            ],
            body.as_bytes(),
        )
        .unwrap()
    };
    let local = format!("http://{addr}");
    assert_eq!(post(form("wrong"), &local).status, 403);
    assert_eq!(post(form(&csrf), "http://evil.example").status, 403);
    // the director accepts Bob's entry
    let a = post(form(&csrf), &local);
    assert_eq!(a.status, 303, "{a:?}");
    let board = the_board(addr, &cookie);
    assert!(board.body.contains("0 in conflict"), "{}", board.body);
    assert!(
        board.body.contains("checked the signed card"),
        "{}",
        board.body
    );
    let log = answer(&hk.dir, &["log"]);
    assert!(log.contains("checked the signed card"), "{log}");
    // the log has a row for each entry and the decision, in the order made
    let (said, log) = log_said(&hk.dir);
    let by_ann = "entry by referee Ann Lee";
    let stored = "entered for table 1 (session S01): now the event's card";
    assert_eq!(
        said,
        [
            ["import", by_ann, ""],
            ["entry", by_ann, stored],
            ["replace", by_ann, "corrected by the referee who entered it"],
            ["entry", by_ann, stored],
            ["entry", "entry by referee Bob Chan", "entered for table 1 (session S01): in conflict, held for the director's decision on the board"],
            ["replace", "entry by referee Bob Chan (accepted on the board)", "checked the signed card"],
            ["decision", "", "decided on the board for table 1 (session S01): referee Bob Chan's entry accepted (reason: checked the signed card)"],
        ],
        "{log}"
    );
    // the event's card is Bob's now, and Ann may no longer replace it
    Test::new()
        .args(["dump", "--event"])
        .arg(&hk.dir)
        .arg(scratch.path("dump"))
        .run()
        .success()
        .stderr_has(
            "1 card in cards/, log.csv (4 lines), entries.csv (3 entries), decisions.csv (1 decision).\n",
        );
    let dump = scratch.path("dump");
    let now = std::fs::read_to_string(dump.join("cards/prelim-S01-T01.csv")).unwrap();
    assert_eq!(now, other);
    // the dump keeps every entry as posted, and the decision
    let entries = std::fs::read_to_string(dump.join("entries.csv")).unwrap();
    assert!(entries.starts_with("id,time,referee,stage,session,table,outcome,log,card\n"));
    assert_eq!(entries.matches(",Ann Lee,").count(), 2, "{entries}");
    assert_eq!(entries.matches(",Bob Chan,").count(), 1, "{entries}");
    assert!(entries.contains(",conflict,"), "{entries}");
    let decisions = std::fs::read_to_string(dump.join("decisions.csv")).unwrap();
    assert!(decisions.contains("checked the signed card"), "{decisions}");
    // Ann's phone sends the card set aside again: told so, and the table
    // stays settled (before, it opened again on the board)
    let again = post_card(addr, &ann, card.as_bytes()).unwrap();
    assert_eq!(again.status, 409, "{again:?}");
    assert!(
        again.body.contains("The director has decided this table already (checked the signed card): this version of the card was set aside then"),
        "{}",
        again.body
    );
    let board = the_board(addr, &cookie);
    assert!(board.body.contains("0 in conflict"), "{}", board.body);
}

/// A card with game 3's first two seats' values swapped (still a legal
/// game, another result).
pub fn swap_seats(card: &str) -> String {
    swap_seats_of(card, "3")
}

/// A card with a game's first two seats' values swapped.
fn swap_seats_of(card: &str, game: &str) -> String {
    let mut lines: Vec<String> = card.lines().map(str::to_string).collect();
    let game3: Vec<usize> = (1..lines.len())
        .filter(|&i| lines[i].split(',').nth(3) == Some(game))
        .collect();
    let (a, b) = (game3[0], game3[1]);
    let fa: Vec<String> = lines[a].split(',').map(str::to_string).collect();
    let fb: Vec<String> = lines[b].split(',').map(str::to_string).collect();
    let mut na = fa.clone();
    let mut nb = fb.clone();
    na[6..9].clone_from_slice(&fb[6..9]);
    nb[6..9].clone_from_slice(&fa[6..9]);
    lines[a] = na.join(",");
    lines[b] = nb.join(",");
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// Turns double entry on in the event's settings (`[entry] double`).
fn double_entry(event: &Path) {
    let toml = event.join("tilerank.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("double = false", "double = true")).unwrap();
}

#[test]
fn with_double_entry_a_referees_card_counts_once_the_desk_agrees() {
    let scratch = Scratch::new("double");
    let hk = hk_event(&scratch);
    double_entry(&hk.dir);
    let ann = add_referee(&hk.dir, "Ann Lee");
    let server = Serving::start(&hk.dir);
    let addr = server.addr.as_str();
    let card = std::fs::read(&hk.cards[0]).unwrap();
    let a = post_card(addr, &ann, &card).unwrap();
    assert_eq!(a.status, 202, "{a:?}");
    assert!(a.body.contains("\"waiting\""));
    assert!(stored_keys(&hk.dir).is_empty(), "it does not count yet");
    let cookie = director(&server);
    let board = the_board(addr, &cookie);
    assert!(
        board.body.contains("1 waiting for the desk"),
        "{}",
        board.body
    );
    // the desk types the paper card the same: it counts, and agrees
    desk_import(&hk.dir, &hk.cards[0]).success();
    assert_eq!(stored_keys(&hk.dir).len(), 1);
    let board = the_board(addr, &cookie);
    assert!(board.body.contains("1 in<"), "{}", board.body);
    assert!(board.body.contains("agrees"), "{}", board.body);
    // the desk's card of table 2 differs from the referee's entry
    let card2 = std::fs::read_to_string(&hk.cards[1]).unwrap();
    assert_eq!(
        post_card(addr, &ann, swap_seats(&card2).as_bytes())
            .unwrap()
            .status,
        202
    );
    // the desk is told at once, and the card does not count
    desk_import(&hk.dir, &hk.cards[1])
        .failure(1)
        .stderr_has("was entered by referee Ann Lee and differs (their card vs this one):\n  game 3, seat A: ")
        .stderr_has("kept for the director's board");
    assert_eq!(stored_keys(&hk.dir).len(), 1);
    let board = the_board(addr, &cookie);
    assert!(board.body.contains("1 in conflict"), "{}", board.body);
    let file = hk.cards[1].display();
    assert!(
        board.body.contains(&format!("by desk: {file}")),
        "{}",
        board.body
    );
    // the director may put the desk's typing in over the referee's: the
    // table is settled, as on the board
    Test::new()
        .arg("import")
        .arg(&hk.cards[1])
        .args(["--replace", "--reason", "the signed card says so"])
        .arg("--event")
        .arg(&hk.dir)
        .run()
        .success()
        .stderr_has("session S01 table 2: this card replaces what referee Ann Lee entered (--replace); the board shows the table decided");
    assert_eq!(stored_keys(&hk.dir).len(), 2);
    let board = the_board(addr, &cookie);
    assert!(board.body.contains("0 in conflict"), "{}", board.body);
    assert!(
        board.body.contains("the signed card says so"),
        "{}",
        board.body
    );
    // the referee's phone sends its version again: told it was set aside
    let again = post_card(addr, &ann, swap_seats(&card2).as_bytes()).unwrap();
    assert_eq!(again.status, 409, "{again:?}");
    assert!(again.body.contains("set aside then"), "{}", again.body);
    let board = the_board(addr, &cookie);
    assert!(board.body.contains("0 in conflict"), "{}", board.body);
    // the log: each entry held, the desk's typing kept beside it, and the
    // desk's --replace that settled it, among the imports in the order made
    let (said, log) = log_said(&hk.dir);
    let (first, second) = (
        hk.cards[0].display().to_string(),
        hk.cards[1].display().to_string(),
    );
    let typed = format!("{second} (the desk's typing)");
    let by_ann = "entry by referee Ann Lee";
    let held =
        |t: u8| format!("entered for table {t} (session S01): held until the desk's typing agrees");
    let (held1, held2) = (held(1), held(2));
    assert_eq!(
        said,
        [
            ["entry", by_ann, held1.as_str()],
            ["import", first.as_str(), ""],
            ["entry", by_ann, held2.as_str()],
            ["entry", typed.as_str(), "entered for table 2 (session S01): in conflict, held for the director's decision on the board"],
            ["import", second.as_str(), "the signed card says so"],
            ["decision", second.as_str(), "settled at the desk for table 2 (session S01): import --replace (reason: the signed card says so)"],
        ],
        "{log}"
    );
}

/// Double entry, two referees: a second referee whose card differs from
/// the first one's entry, still waiting for the desk, is told at once who
/// holds the other version and what differs (409), as the board shows it;
/// one who enters the same card waits with it (202).
#[test]
fn with_double_entry_a_second_referees_other_version_is_told_at_once() {
    let scratch = Scratch::new("double-two");
    let hk = hk_event(&scratch);
    double_entry(&hk.dir);
    let ann = add_referee(&hk.dir, "Ann Lee");
    let bob = add_referee(&hk.dir, "Bob Chan");
    let server = Serving::start(&hk.dir);
    let addr = server.addr.as_str();
    let card = std::fs::read_to_string(&hk.cards[1]).unwrap();
    let first = post_card(addr, &ann, swap_seats(&card).as_bytes()).unwrap();
    assert_eq!(first.status, 202, "{first:?}");
    let other = post_card(addr, &bob, card.as_bytes()).unwrap();
    assert_eq!(other.status, 409, "{other:?}");
    assert!(
        other
            .body
            .contains("Not stored: referee Ann Lee entered a different card for session S01 table 2 before you."),
        "{}",
        other.body
    );
    assert!(other.body.contains("game 3"), "{}", other.body);
    let cookie = director(&server);
    let board = the_board(addr, &cookie);
    assert!(board.body.contains("1 in conflict"), "{}", board.body);
    assert!(stored_keys(&hk.dir).is_empty());
    // the same card as Ann's: it waits with hers
    let same = post_card(addr, &bob, swap_seats(&card).as_bytes()).unwrap();
    assert_eq!(same.status, 202, "{same:?}");
}

/// `check` in the event folder says which tables the board holds back
/// (`EventFolder::held_back`, what the board shows), after the cards
/// missing: a referee's entry waiting for the desk's typing (double
/// entry), then a table in conflict once the desk's typing differs. Exit
/// status 0: they are no error of the cards read. An event no referee
/// entered a card in says none of it.
#[test]
fn check_in_an_event_folder_names_the_tables_the_board_holds_back() {
    let scratch = Scratch::new("check-held");
    let hk = hk_event(&scratch);
    let check = || Test::new().arg("check").in_dir(&hk.dir).run();
    check()
        .success()
        .stderr_lacks("referee")
        .stderr_lacks("board");
    double_entry(&hk.dir);
    let folder = tilerank::event_folder::EventFolder::open(&hk.dir).unwrap();
    let card = std::fs::read(&hk.cards[0]).unwrap();
    let card2 = std::fs::read_to_string(&hk.cards[1]).unwrap();
    for body in [card, swap_seats(&card2).into_bytes()] {
        folder.enter_card("Ann Lee", &body, &mut || {}).unwrap();
    }
    let waiting = "2 tables entered by a referee, waiting for the desk's typing of the signed card (double entry: it counts once an import of it agrees): session S01 table 1, session S01 table 2\n";
    let out = check().success().stderr_has(waiting);
    // after the cards missing, whose tables they are among
    let missing = out.stderr.find("cards missing:").unwrap();
    assert!(
        missing < out.stderr.find(waiting).unwrap(),
        "{}",
        out.stderr
    );
    // the desk's typing of table 2 differs from the referee's: a conflict
    desk_import(&hk.dir, &hk.cards[1]).failure(1);
    check()
        .success()
        .stderr_has("1 table in conflict on the director's board (two versions of the card differ: the director decides which stands, on the board of tilerank serve --entry): session S01 table 2\n")
        .stderr_has("1 table entered by a referee, waiting for the desk's typing of the signed card (double entry: it counts once an import of it agrees): session S01 table 1\n");
    // the desk types table 1 the same: it counts, and nothing waits
    desk_import(&hk.dir, &hk.cards[0]).success();
    check().success().stderr_lacks("waiting for the desk");
}

/// A referee's card in, the desk types a correction of it twice and the
/// typings differ: the board shows the table typed twice (the referee's
/// card counting meanwhile), not in, and `check` names it so (held
/// typings gap 1).
#[test]
fn a_correction_typed_twice_over_a_referees_card_is_shown_typed_twice_on_the_board() {
    let scratch = Scratch::new("typed-twice-board");
    let hk = one_session_event(&scratch);
    let folder = tilerank::event_folder::EventFolder::open(&hk.dir).unwrap();
    let card = std::fs::read_to_string(&hk.cards[0]).unwrap();
    folder
        .enter_card("Ann Lee", card.as_bytes(), &mut || {})
        .unwrap();
    let (fix, fix2) = (scratch.path("fix.csv"), scratch.path("fix-second.csv"));
    std::fs::write(&fix, swap_seats(&card)).unwrap();
    std::fs::write(&fix2, swap_seats_of(&card, "2")).unwrap();
    Test::new()
        .args(["import", "--replace"])
        .arg(&fix)
        .arg("--second-entry")
        .arg(&fix2)
        .args(["--reason", "seats corrected"])
        .in_dir(&hk.dir)
        .run()
        .failure(1)
        .stderr_has("1 card held back until both typings agree");
    let board = folder.board().unwrap();
    let table = board
        .iter()
        .find(|t| t.key.to_string() == "session S01 table 1")
        .unwrap();
    assert_eq!(table.state, tilerank::event_folder::TableState::TypedTwice);
    assert!(table.card.is_some(), "the referee's card counts meanwhile");
    Test::new()
        .arg("check")
        .in_dir(&hk.dir)
        .run()
        .success()
        .stderr_has("1 table typed twice at the desk, and the two typings differ")
        .stderr_has(": session S01 table 1 (");
}

/// A table in conflict on the board (a referee's card counts at once;
/// the desk's typing of the signed card differs) is what the answers wait
/// for, as a missing card is: `qualifiers` and `export` wait, exit status
/// one, naming it; a provisional list says it; the site says it is still
/// to come and names the table. They gave the referee's version as final,
/// the conflict unsaid. Once the desk's typing replaces the card, nothing
/// waits. (A schedule of one session is all the event expects here.)
#[test]
fn a_table_in_conflict_on_the_board_is_what_the_answers_wait_for() {
    let scratch = Scratch::new("conflict-waits");
    let hk = one_session_event(&scratch);
    let folder = tilerank::event_folder::EventFolder::open(&hk.dir).unwrap();
    let card = std::fs::read_to_string(&hk.cards[0]).unwrap();
    folder
        .enter_card("Ann Lee", swap_seats(&card).as_bytes(), &mut || {})
        .unwrap();
    let cards = hk.cards[0].parent().unwrap();
    desk_import(&hk.dir, cards)
        .failure(1)
        .stderr_has("kept for the director's board");
    let run = |args: &[&str]| Test::new().args(args).in_dir(&hk.dir).run();
    let held = "1 table in conflict on the director's board (two versions of the card differ: the director decides which stands, on the board of tilerank serve --entry): session S01 table 1\n";
    run(&["qualifiers"])
        .failure(1)
        .stderr_has(held)
        .stderr_lacks("cards missing")
        .stderr_has("No qualifier list: 1 table is in conflict on the director's board (above). Settle it on the director's board (tilerank serve --entry), or import the right card with --replace --reason \"why\", or give --allow-incomplete for a provisional list.")
        .stderr_lacks("the event is not complete")
        .stdout_is("");
    run(&["qualifiers", "--allow-incomplete"])
        .success()
        .stdout_has("PROVISIONAL: 1 table in conflict on the board");
    run(&["export", "-o", "results.xlsx"])
        .failure(1)
        .stderr_has(held)
        .stderr_has("Nothing exported");
    // a provisional export lists the table on its Missing sheet
    run(&["export", "--allow-incomplete", "-o", "results.xlsx"]).success();
    let sheets = crate::test::sheets(&hk.dir.join("results.xlsx"));
    let (_, missing) = sheets.iter().find(|(name, _)| name == "Missing").unwrap();
    assert!(
        missing
            .iter()
            .any(|row| row.len() >= 3 && row[..3] == ["in conflict on the board", "1", "1"]),
        "{missing:?}"
    );
    run(&["publish", "-o", "site"]).success();
    let index = std::fs::read_to_string(hk.dir.join("site/index.html")).unwrap();
    assert!(
        index.contains(
            "Results so far: the director&#39;s decision on 1 disputed card still to come"
        ),
        "{index}"
    );
    assert!(
        index.contains("<p class=\"held\">the director&#39;s decision on 1 disputed card: session S01, table 1</p>"),
        "{index}"
    );
    // the desk's typing replaces the referee's card: settled
    Test::new()
        .args(["import", "--replace", "--reason", "the signed card says so"])
        .arg(&hk.cards[0])
        .in_dir(&hk.dir)
        .run()
        .success();
    run(&["qualifiers"]).success().stderr_lacks("conflict");
}

/// The desk's card is in, a referee's entry differs from it: the director
/// checks the paper and imports the desk's card again with `--replace
/// --reason`, the same card. The table is settled for it, as on the board,
/// with the reason.
#[test]
fn replace_with_the_event_s_own_card_settles_the_conflict() {
    let scratch = Scratch::new("replace-same");
    let hk = one_session_event(&scratch);
    let cards = hk.cards[0].parent().unwrap();
    desk_import(&hk.dir, cards).success();
    let folder = tilerank::event_folder::EventFolder::open(&hk.dir).unwrap();
    let card = std::fs::read_to_string(&hk.cards[0]).unwrap();
    folder
        .enter_card("Ann Lee", swap_seats(&card).as_bytes(), &mut || {})
        .unwrap();
    assert_eq!(folder.held_back().unwrap().len(), 1);
    let run = |args: &[&str]| Test::new().args(args).in_dir(&hk.dir).run();
    run(&["export", "-o", "results.xlsx"])
        .failure(1)
        .stderr_has("Nothing exported: 1 table is in conflict on the director's board (above). Settle it on the director's board (tilerank serve --entry), or import the right card with --replace --reason \"why\", or give --allow-incomplete for a provisional export.");
    let name = hk.cards[0]
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    Test::new()
        .args(["import", "--replace", "--reason", "paper card checked: B tiles 7"])
        .arg(&hk.cards[0])
        .in_dir(&hk.dir)
        .run()
        .success()
        .stderr_has(&format!("{name}: note: session S01 table 1: the event's card, the same as this one, stands (--replace); set aside: entry by referee Ann Lee; the board shows the table decided\n"))
        .stderr_has(&format!("{name}: already imported, identical (1 card); 1 table in conflict settled for it (see above)\n"))
        .stderr_lacks("nothing to do");
    assert!(folder.held_back().unwrap().is_empty());
    let board = folder.board().unwrap();
    let decided = board[0].decided.clone().unwrap();
    assert!(
        decided.ends_with(&format!("{name}): paper card checked: B tiles 7")),
        "{decided}"
    );
    run(&["qualifiers"]).success().stderr_lacks("conflict");
    // once settled, the same again is nothing to do
    Test::new()
        .args(["import", "--replace", "--reason", "again"])
        .arg(&hk.cards[0])
        .in_dir(&hk.dir)
        .run()
        .success()
        .stderr_has(&format!(
            "{name}: already imported, identical (1 card): nothing to do"
        ));

    // Bob types a third version; the director, on the board, keeps the
    // event's card, with a reason in Chinese
    folder
        .enter_card("Bob Chan", swap_seats_of(&card, "2").as_bytes(), &mut || {})
        .unwrap();
    let key = board[0].key.clone();
    folder
        .accept(
            &key,
            tilerank::event_folder::Accept::EventCard,
            "紙本計分卡：B 餘牌 7",
            &mut || {},
        )
        .unwrap();
    // The log names each entry (who, which table, what became of it) and
    // each decision (who decided, and why), in time order with the imports:
    // `tilerank log`, the export's Log sheet, the site's log page.
    let file = hk.cards[0].display().to_string();
    let ann_entry = [
        "entry",
        "entry by referee Ann Lee",
        "prelim",
        "1",
        "3",
        "entered for table 1 (session S01): in conflict, held for the director's decision on the board",
    ];
    let desk_settles = [
        "decision",
        file.as_str(),
        "prelim",
        "1",
        "0",
        "settled at the desk for table 1 (session S01): import --replace (reason: paper card checked: B tiles 7)",
    ];
    let bob_entry = [
        "entry",
        "entry by referee Bob Chan",
        "prelim",
        "1",
        "3",
        "entered for table 1 (session S01): in conflict, held for the director's decision on the board",
    ];
    let board_decides = [
        "decision",
        "",
        "prelim",
        "1",
        "0",
        "decided on the board for table 1 (session S01): the event's card stands (reason: 紙本計分卡：B 餘牌 7)",
    ];
    let expected = [&ann_entry, &desk_settles, &bob_entry, &board_decides];
    let out = run(&["log", "--format", "csv"]).success();
    let mut rows = csv::Reader::from_reader(out.stdout.as_bytes());
    assert_eq!(
        rows.headers().unwrap(),
        vec!["time", "action", "file", "sha256", "stage", "cards", "games", "reason"]
    );
    let rows: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
    // (the roster, then the desk's 25 cards)
    assert_eq!(rows.len(), 1 + 25 + 4, "{}", out.stdout);
    let desk: Vec<[&str; 6]> = rows[26..]
        .iter()
        .map(|r| [1, 2, 4, 5, 6, 7].map(|i| &r[i]))
        .collect();
    assert_eq!(desk, expected.map(|e| *e), "{}", out.stdout);
    // (an entry's hash is of the card as posted)
    assert_eq!(rows[26][3].len(), 64);
    assert!(
        rows.windows(2).all(|w| w[0][0] <= w[1][0]),
        "{}",
        out.stdout
    );
    // the terminal's table says the same
    run(&["log"])
        .success()
        .stdout_has("decided on the board for table 1 (session S01): the event's card stands (reason: 紙本計分卡：B 餘牌 7)")
        .stdout_has("entry by referee Bob Chan");

    run(&["export", "-o", "results.xlsx"]).success();
    let mut book: calamine::Xlsx<_> = calamine::open_workbook(hk.dir.join("results.xlsx")).unwrap();
    let sheet = calamine::Reader::worksheet_range(&mut book, "Log").unwrap();
    let text = |v: &calamine::Data| match v {
        calamine::Data::Float(n) => n.to_string(),
        v => v.to_string(),
    };
    let sheet: Vec<Vec<String>> = sheet.rows().map(|r| r.iter().map(text).collect()).collect();
    let header = &sheet[0];
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let desk: Vec<[&str; 6]> = sheet[sheet.len() - 4..]
        .iter()
        .map(|r| ["Action", "File", "Stage", "Cards", "Games", "Reason"].map(|c| r[at(c)].as_str()))
        .collect();
    assert_eq!(desk, expected.map(|e| *e), "{sheet:?}");

    // the site's log page, in English and in Chinese
    let page = |lang: &str| {
        let site = scratch.path(&format!("site-{lang}"));
        run(&["publish", "--lang", lang, "-o", site.to_str().unwrap()]).success();
        std::fs::read_to_string(site.join("log.html"))
            .unwrap()
            .replace("&#39;", "'")
    };
    let en = page("en");
    for cell in [
        "<td>entry</td><td>entry by referee Ann Lee</td>",
        "<td>decision</td><td></td>",
        "<td>entered for table 1 (session S01): in conflict, held for the director's decision on the board</td>",
        "<td>settled at the desk for table 1 (session S01): import --replace (reason: paper card checked: B tiles 7)</td>",
        "<td>decided on the board for table 1 (session S01): the event's card stands (reason: 紙本計分卡：B 餘牌 7)</td>",
    ] {
        assert!(en.contains(cell), "{cell}: {en}");
    }
    let zh = page("zh-Hant");
    for cell in [
        "<td>輸入</td><td>裁判 Ann Lee 的輸入</td>",
        "<td>輸入</td><td>裁判 Bob Chan 的輸入</td>",
        "<td>決定</td><td></td>",
        "<td>第 1 枱（場次 S01）的輸入：有衝突，留待裁判長在看板上決定</td>",
        "<td>記分台以 import --replace 解決第 1 枱（場次 S01）（原因：paper card checked: B tiles 7）</td>",
        "<td>裁判長在看板上就第 1 枱（場次 S01）作出決定：維持賽事的計分卡（原因：紙本計分卡：B 餘牌 7）</td>",
    ] {
        assert!(zh.contains(cell), "{cell}: {zh}");
    }
    assert!(
        !zh.contains("decided on the board") && !zh.contains(">entry<"),
        "{zh}"
    );

    // the dump names the live desk's record, with its counts
    run(&["dump", scratch.path("dump").to_str().unwrap()])
        .success()
        .stderr_has("Dumped Live Open into ")
        .stderr_has(": tilerank.toml, roster.csv (1200 players), 25 cards in cards/, log.csv (26 lines), entries.csv (2 entries), decisions.csv (2 decisions).\n");
}

#[test]
fn open_pages_learn_of_a_new_card_within_seconds() {
    let scratch = Scratch::new("hall");
    let hk = hk_event(&scratch);
    let key = add_referee(&hk.dir, "Ann Lee");
    let server = Serving::start(&hk.dir);
    let addr = server.addr.as_str();
    let version = || -> u64 {
        let a = http(addr, "GET", "/api/version", &[], b"").unwrap();
        let v: serde_json::Value = serde_json::from_str(&a.body).unwrap();
        v["version"].as_u64().unwrap()
    };
    let before = version();
    let card = std::fs::read_to_string(&hk.cards[0]).unwrap();
    let player = card
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .nth(5)
        .unwrap()
        .to_string();
    let page = http(addr, "GET", &format!("/p/{player}.html"), &[], b"").unwrap();
    assert!(!page.body.contains("S01"), "not played yet: {}", page.body);
    assert_eq!(post_card(addr, &key, card.as_bytes()).unwrap().status, 201);
    let start = Instant::now();
    while version() == before {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no new version in 10 s"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    // the player's page shows the card's games
    let page = http(addr, "GET", &format!("/p/{player}.html"), &[], b"").unwrap();
    assert_eq!(page.status, 200);
    assert!(page.body.contains("S01"), "{}", page.body);
    // the site's script asks for the version when served
    let js = http(addr, "GET", "/site.js", &[], b"").unwrap();
    assert!(js.body.contains("/api/version"));
}

#[test]
fn the_readmes_live_desk_steps_run_as_written() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let section = readme
        .split("## The live desk")
        .nth(1)
        .expect("README has the live desk");
    let block = section
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .unwrap();
    let scratch = Scratch::new("readme");
    let mut dir = scratch.0.clone();
    let mut link = None;
    let mut served = None;
    for line in block
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let w = words(line);
        match w[0].as_str() {
            "cd" => dir = dir.join(&w[1]),
            "tilerank" if w[1] == "serve" => {
                // as written, but on a free port of this machine only
                assert!(w.contains(&"--entry".to_string()), "{line}");
                served = Some(Serving::start(&dir));
            }
            "tilerank" => {
                if w[1] == "roster" {
                    std::fs::copy(hk("roster.csv"), dir.join(&w[2])).unwrap();
                }
                let out = Command::new(assert_cmd::cargo::cargo_bin("tilerank"))
                    .args(&w[1..])
                    .current_dir(&dir)
                    .output()
                    .unwrap();
                assert!(out.status.success(), "{line}: {out:?}");
                let stdout = String::from_utf8_lossy(&out.stdout);
                if let Some(l) = stdout.lines().find_map(|l| l.strip_prefix("link: ")) {
                    link = Some(l.to_string());
                }
            }
            other => panic!("README's live desk block runs {other}"),
        }
    }
    let server = served.expect("the block starts the server");
    let link = link.expect("the block adds a referee");
    assert!(dir.join("ann.png").is_file(), "the QR code is written");
    // the phone opens the link (here, on this machine's address)
    let path = link.split_once("8080").unwrap().1;
    let a = http(&server.addr, "GET", path, &[], b"").unwrap();
    assert_eq!(a.status, 303, "{a:?}");
    let cookie = a
        .header("set-cookie")
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let page = http(&server.addr, "GET", "/entry", &[("Cookie", &cookie)], b"").unwrap();
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Ann Lee"), "{}", page.body);
    let projector = http(&server.addr, "GET", "/projector.html", &[], b"").unwrap();
    assert_eq!(projector.status, 200);
}

#[test]
fn once_the_desks_typing_agrees_the_referee_can_no_longer_change_the_card() {
    let scratch = Scratch::new("confirmed");
    let hk = hk_event(&scratch);
    let ann = add_referee(&hk.dir, "Ann Lee");
    let server = Serving::start(&hk.dir);
    let card = std::fs::read_to_string(&hk.cards[0]).unwrap();
    assert_eq!(
        post_card(&server.addr, &ann, card.as_bytes())
            .unwrap()
            .status,
        201
    );
    // the desk types the signed paper card the same
    desk_import(&hk.dir, &hk.cards[0]).success();
    let a = post_card(&server.addr, &ann, swap_seats(&card).as_bytes()).unwrap();
    assert_eq!(a.status, 409, "{a:?}");
    let cookie = director(&server);
    let board = the_board(&server.addr, &cookie);
    assert!(
        board.body.contains("the desk&#39;s typing agrees")
            || board.body.contains("the desk's typing agrees"),
        "{}",
        board.body
    );
    assert!(board.body.contains("1 in conflict"), "{}", board.body);
    // the log says who settled the table, and the entry after it
    let (said, log) = log_said(&hk.dir);
    let by_ann = "entry by referee Ann Lee";
    let file = hk.cards[0].display().to_string();
    assert_eq!(
        said,
        [
            ["import", by_ann, ""],
            ["entry", by_ann, "entered for table 1 (session S01): now the event's card"],
            ["decision", file.as_str(), "settled at the desk for table 1 (session S01): the desk's typing agrees with the referee's entry"],
            ["entry", by_ann, "entered for table 1 (session S01): in conflict, held for the director's decision on the board"],
        ],
        "{log}"
    );
}

#[test]
fn a_page_from_the_events_site_is_this_sites_own_behind_a_proxy() {
    let scratch = Scratch::new("proxy");
    let hk = hk_event(&scratch);
    let key = add_referee(&hk.dir, "Ann Lee");
    let card = std::fs::read(&hk.cards[0]).unwrap();
    let bearer = format!("Bearer {key}");
    // (a proxy that passes on its own host: the page's origin is not it)
    let check = |server: &Serving| {
        let headers = [
            ("Authorization", bearer.as_str()),
            ("Origin", "https://desk.example"),
            ("Content-Type", "text/csv"),
        ];
        http(&server.addr, "POST", "/api/check", &headers, &card)
            .unwrap()
            .status
    };
    assert_eq!(check(&Serving::start(&hk.dir)), 403);
    let toml = hk.dir.join("tilerank.toml");
    let text = std::fs::read_to_string(&toml).unwrap().replacen(
        "# site = \"http://192.168.1.20:8080\"",
        "site = \"https://desk.example/hall/\"",
        1,
    );
    assert!(text.contains("\nsite = "), "{text}");
    std::fs::write(&toml, text).unwrap();
    assert_eq!(check(&Serving::start(&hk.dir)), 200);
}

#[test]
fn phones_that_stop_mid_request_hold_up_no_one() {
    let scratch = Scratch::new("slow");
    let hk = hk_event(&scratch);
    let key = add_referee(&hk.dir, "Ann Lee");
    let server = Serving::start(&hk.dir);
    // 50 connections that send half a request and then nothing
    let stalled: Vec<TcpStream> = (0..50)
        .map(|_| {
            let mut s = TcpStream::connect(&server.addr).unwrap();
            s.write_all(
                b"POST /api/cards HTTP/1.1\r\nHost: x\r\nContent-Length: 900\r\n\r\nstage,ses",
            )
            .unwrap();
            s
        })
        .collect();
    let start = Instant::now();
    let card = std::fs::read(&hk.cards[0]).unwrap();
    assert_eq!(post_card(&server.addr, &key, &card).unwrap().status, 201);
    assert_eq!(
        http(&server.addr, "GET", "/projector.html", &[], b"")
            .unwrap()
            .status,
        200
    );
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "answered while 50 requests hang: {:?}",
        start.elapsed()
    );
    drop(stalled);
}

/// Sends `bytes` one at a time, `every` apart, until the server closes
/// the connection; then reads what it answered. How long it was open,
/// and the answer (empty: closed without one); `None` if it was still
/// open after `longest`.
fn trickle(
    addr: &str,
    head: &[u8],
    bytes: &[u8],
    every: Duration,
    longest: Duration,
) -> Option<(Duration, String)> {
    let mut s = TcpStream::connect(addr).unwrap();
    let start = Instant::now();
    s.write_all(head).unwrap();
    s.set_read_timeout(Some(Duration::from_millis(1))).unwrap();
    let mut answer = Vec::new();
    for &b in bytes.iter().cycle() {
        if start.elapsed() > longest {
            return None;
        }
        // (a reset, or an answer and then the end: closed)
        let mut buf = [0u8; 4096];
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(_) => break,
        }
        if s.write_all(&[b]).is_err() {
            break;
        }
        std::thread::sleep(every);
    }
    let elapsed = start.elapsed();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let _ = s.read_to_end(&mut answer);
    Some((elapsed, String::from_utf8_lossy(&answer).into_owned()))
}

/// Slow clients on purpose (slowloris): a connection that trickles its
/// headers is closed once its head's deadline has passed, one that
/// trickles a body is answered 408 once the body's has; meanwhile the
/// others are served. (The deadlines are set short here.)
#[test]
fn clients_that_trickle_a_request_are_closed_at_its_deadline() {
    let scratch = Scratch::new("trickle");
    let hk = hk_event(&scratch);
    let key = add_referee(&hk.dir, "Ann Lee");
    let server = Serving::start_with(
        &hk.dir,
        &[
            ("TILERANK_HEAD_SECONDS", "2"),
            ("TILERANK_BODY_SECONDS", "2"),
        ],
    );
    let every = Duration::from_millis(100);
    // (the idle limit is 30 s: a trickle is never idle; none of these
    // would ever end on its own)
    let longest = Duration::from_secs(25);
    let addr = server.addr.clone();
    let headers = std::thread::spawn(move || {
        trickle(
            &addr,
            b"GET /api/version HTTP/1.1\r\nHost: x\r\nX-Slow: ",
            b"abcdefgh",
            every,
            longest,
        )
    });
    let addr = server.addr.clone();
    let body_key = key.clone();
    let body = std::thread::spawn(move || {
        let head = format!(
            "POST /api/check HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {body_key}\r\nContent-Type: text/csv\r\nContent-Length: 60000\r\n\r\n"
        );
        trickle(&addr, head.as_bytes(), b"stage,", every, longest)
    });
    // (given their places first)
    std::thread::sleep(Duration::from_millis(300));
    // more trickling heads than the server has places (256): each is
    // closed at its deadline, its place taken by the next
    let addr = server.addr.clone();
    let crowd = std::thread::spawn(move || {
        let mut open: Vec<TcpStream> = (0..300)
            .map(|_| {
                let mut s = TcpStream::connect(&addr).unwrap();
                s.write_all(b"GET / HTTP/1.1\r\nX-Slow: ").unwrap();
                s.set_nonblocking(true).unwrap();
                s
            })
            .collect();
        let start = Instant::now();
        while !open.is_empty() && start.elapsed() < longest {
            std::thread::sleep(every);
            open.retain_mut(|s| {
                let closed = match s.read(&mut [0u8; 64]) {
                    Ok(_) => true,
                    Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
                };
                !closed && s.write_all(b"a").is_ok()
            });
        }
        open.len()
    });
    // while they all trickle, a referee's card goes in
    std::thread::sleep(Duration::from_millis(500));
    let card = std::fs::read(&hk.cards[0]).unwrap();
    assert_eq!(post_card(&server.addr, &key, &card).unwrap().status, 201);
    assert_eq!(crowd.join().unwrap(), 0, "every trickling head is closed");

    let (open, answer) = headers
        .join()
        .unwrap()
        .expect("the trickled head is closed");
    assert!(open >= Duration::from_secs(2), "{open:?}");
    assert!(answer.is_empty(), "closed without an answer: {answer}");
    let (open, answer) = body.join().unwrap().expect("the trickled body is closed");
    assert!(open >= Duration::from_secs(2), "{open:?}");
    assert!(
        answer.starts_with("HTTP/1.1 408 "),
        "answered 408: {answer}"
    );
    assert!(
        answer.contains(
            "the request's body did not arrive within 2 seconds (the connection is too slow): send it again"
        ),
        "{answer}"
    );
    assert!(answer.contains("\"status\":\"refused\""), "{answer}");
    // and the server goes on
    let version = http(&server.addr, "GET", "/api/version", &[], b"").unwrap();
    assert_eq!(version.status, 200);
}

/// Each signed-in key has its own form token: a referee's page carries
/// theirs, good with their own cookie only, and never the board's.
#[test]
fn a_form_token_is_good_with_its_own_cookie_only() {
    let scratch = Scratch::new("tokens");
    let event = scratch.path("event");
    Test::new()
        .args(["init", "--profile", "hk", "--name", "Live Open"])
        .arg(&event)
        .run()
        .success();
    Test::new()
        .arg("roster")
        .arg(hk("roster.csv"))
        .arg("--event")
        .arg(&event)
        .run()
        .success();
    let ann = format!("tilerank_referee={}", add_referee(&event, "Ann Lee"));
    let bob = format!("tilerank_referee={}", add_referee(&event, "Bob Chan"));
    let server = Serving::start(&event);
    let addr = server.addr.as_str();
    let page_token = |cookie: &str| {
        let page = http(addr, "GET", "/entry", &[("Cookie", cookie)], b"").unwrap();
        assert_eq!(page.status, 200, "{page:?}");
        page.body
            .split("\"csrf\":\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .expect("the entry page carries a token")
            .to_string()
    };
    let (ann_token, bob_token) = (page_token(&ann), page_token(&bob));
    let director = director(&server);
    assert_ne!(ann_token, bob_token);
    assert_eq!(ann_token, page_token(&ann), "the same all the run");

    let check = |cookie: &str, token: &str| {
        http(
            addr,
            "POST",
            "/api/check",
            &[
                ("Cookie", cookie),
                ("X-CSRF-Token", token),
                ("Content-Type", "text/csv"),
            ],
            b"stage,session,table,game,seat,player,won,score,tiles\n",
        )
        .unwrap()
    };
    assert_eq!(check(&ann, &ann_token).status, 200);
    let other = check(&bob, &ann_token);
    assert_eq!(other.status, 403);
    assert!(
        other
            .body
            .contains("the page's form token is missing or old: reload the entry page"),
        "{}",
        other.body
    );
    assert_eq!(check(&bob, &bob_token).status, 200);

    // a referee's token on the board's form: refused
    let accept = |token: &str| {
        http(
            addr,
            "POST",
            "/board/accept",
            &[
                ("Cookie", &director),
                ("Content-Type", "application/x-www-form-urlencoded"),
            ],
            format!("stage=prelim&session=S01&table=1&choice=card&reason=r&csrf={token}")
                .as_bytes(),
        )
        .unwrap()
    };
    let refused = accept(&ann_token);
    assert_eq!(refused.status, 403);
    assert!(
        refused
            .body
            .contains("This form did not come from the board of this run: reload the board."),
        "{}",
        refused.body
    );

    // The board's form without its token is refused as with a wrong one,
    // in the desk's words, and so is a post that is no form, or an
    // address whose query is no link's: never the server's own words.
    let post = |headers: &[(&str, &str)], body: &str| {
        let mut all = vec![("Cookie", director.as_str())];
        all.extend_from_slice(headers);
        http(addr, "POST", "/board/accept", &all, body.as_bytes()).unwrap()
    };
    let form = [("Content-Type", "application/x-www-form-urlencoded")];
    let answers = [
        (
            post(
                &form,
                "stage=prelim&session=S01&table=1&choice=card&reason=r",
            ),
            403,
            "This form did not come from the board of this run: reload the board.",
        ),
        (
            post(&form, ""),
            403,
            "This form did not come from the board of this run: reload the board.",
        ),
        (
            post(&[("Content-Type", "text/plain")], "csrf=x"),
            415,
            "This is not the board's form: reload the board and settle the table from it.",
        ),
        (
            post(&form, "csrf=a&csrf=b"),
            400,
            "This is not the board's form: reload the board and settle the table from it.",
        ),
        (
            http(addr, "GET", "/board?key=a&key=b", &[], b"").unwrap(),
            400,
            "This address is not one of the desk's links",
        ),
        (
            http(
                addr,
                "GET",
                "/entry?stage=a&stage=b",
                &[("Cookie", &ann)],
                b"",
            )
            .unwrap(),
            400,
            "This address is not one of the desk's links",
        ),
    ];
    for (answer, status, says) in answers {
        assert_eq!(answer.status, status, "{answer:?}");
        assert!(answer.body.contains(says), "{}", answer.body);
        assert_eq!(
            answer.header("content-type"),
            Some("text/html; charset=utf-8")
        );
        for raw in ["Failed to", "deserialize", "missing field", "Content-Type`"] {
            assert!(!answer.body.contains(raw), "{}", answer.body);
        }
    }

    // Too many requests with one key: refused, to wait a few seconds
    // (Retry-After), and a second later the key checks again.
    let mut refused = None;
    for _ in 0..200 {
        let a = check(&ann, &ann_token);
        if a.status == 429 {
            refused = Some(a);
            break;
        }
        assert_eq!(a.status, 200, "{a:?}");
    }
    let refused = refused.expect("a key's burst has an end");
    assert_eq!(refused.header("retry-after"), Some("1"), "{refused:?}");
    assert!(
        refused
            .body
            .contains("too many requests with this key: wait a few seconds"),
        "{}",
        refused.body
    );
    std::thread::sleep(std::time::Duration::from_millis(1000));
    assert_eq!(check(&ann, &ann_token).status, 200);
}

/// A deadline that is not a number of seconds stops the server at its
/// start, saying which and why.
#[test]
fn a_wrong_deadline_is_said_at_the_start() {
    let scratch = Scratch::new("deadline");
    let event = scratch.path("event");
    Test::new()
        .args(["init", "--profile", "hk", "--name", "Live Open"])
        .arg(&event)
        .run()
        .success();
    for (var, value, said) in [
        (
            "TILERANK_HEAD_SECONDS",
            "0",
            "TILERANK_HEAD_SECONDS=\"0\": expected a whole number above 0 (seconds a request's head may take to arrive; the default is 15)",
        ),
        (
            "TILERANK_BODY_SECONDS",
            "soon",
            "TILERANK_BODY_SECONDS=\"soon\": expected a whole number above 0 (seconds a request's body may take to arrive; the default is 20)",
        ),
    ] {
        let out = Command::new(assert_cmd::cargo::cargo_bin("tilerank"))
            .args(["serve", "--entry", "--port", "0", "--event"])
            .arg(&event)
            .env(var, value)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{var}={value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said), "{err}");
    }
}

/// An event with double entry, served, in which referee Ann Lee has
/// entered table 2 of S01 with two seats' scores and tiles swapped: the
/// desk's typing of that table (`cards[1]`) differs from hers.
fn table_2_entered_otherwise(scratch: &Scratch) -> (HkEvent, Serving) {
    let hk = hk_event(scratch);
    double_entry(&hk.dir);
    let ann = add_referee(&hk.dir, "Ann Lee");
    let server = Serving::start(&hk.dir);
    let card2 = std::fs::read_to_string(&hk.cards[1]).unwrap();
    let typo = post_card(&server.addr, &ann, swap_seats(&card2).as_bytes()).unwrap();
    assert_eq!(typo.status, 202, "{typo:?}");
    (hk, server)
}

/// A file whose one card differs from what its referee entered: the card
/// waits for the board, and the last line counts the file as not
/// imported (it said "1 imported (0 cards)").
#[test]
fn a_file_whose_only_card_waits_for_the_board_is_not_counted_imported() {
    let scratch = Scratch::new("only-differs");
    let (hk, _server) = table_2_entered_otherwise(&scratch);
    desk_import(&hk.dir, &hk.cards[1])
        .failure(1)
        .stderr_has("kept for the director's board")
        .stderr_has("1 file: 0 imported (0 cards), 1 card held for the director's board")
        .stderr_lacks("1 imported");
    assert!(stored_keys(&hk.dir).is_empty());
}

/// The desk types the whole session; one table differs from what its
/// referee entered: that card waits for the board, the others count.
#[test]
fn a_session_file_with_one_card_differing_from_a_referees_imports_the_others() {
    let scratch = Scratch::new("one-differs");
    let session = hk("cards/S01.xlsx");
    let (hk, server) = table_2_entered_otherwise(&scratch);
    desk_import(&hk.dir, &session)
        .failure(1)
        .stderr_has("session S01 table 2 was entered by referee Ann Lee and differs")
        .stderr_has("kept for the director's board")
        .stderr_has("S01.xlsx: 24 cards imported, 0 replaced, 0 unchanged; 1 card held for the director's board (see above)")
        .stderr_has("1 file: 1 imported (24 cards), 1 card held for the director's board");
    let stored = stored_keys(&hk.dir);
    assert_eq!(stored.len(), 24, "{stored:?}");
    assert!(!stored.contains(&"prelim S01 2".to_string()), "{stored:?}");
    let cookie = director(&server);
    let board = the_board(&server.addr, &cookie);
    assert!(board.body.contains("1 in conflict"), "{}", board.body);
    // the same file again: the 24 are in, table 2 still waits
    desk_import(&hk.dir, &session)
        .failure(1)
        .stderr_has("S01.xlsx: 0 cards imported, 0 replaced, 24 unchanged; 1 card held");
    // the signed card checked: the desk's typing goes in
    Test::new()
        .arg("import")
        .arg(&session)
        .args(["--replace", "--reason", "the signed card says so"])
        .arg("--event")
        .arg(&hk.dir)
        .run()
        .success();
    assert_eq!(stored_keys(&hk.dir).len(), 25);
}

#[test]
fn the_desks_typing_that_differs_from_a_referees_card_waits_on_the_board_beside_it() {
    let scratch = Scratch::new("desk-differs");
    let hk = hk_event(&scratch);
    let ann = add_referee(&hk.dir, "Ann Lee");
    let server = Serving::start(&hk.dir);
    let card = std::fs::read_to_string(&hk.cards[0]).unwrap();
    assert_eq!(
        post_card(&server.addr, &ann, swap_seats(&card).as_bytes())
            .unwrap()
            .status,
        201
    );
    // the desk types the signed card, which differs: refused, and kept
    desk_import(&hk.dir, &hk.cards[0])
        .failure(1)
        .stderr_has("was entered by referee Ann Lee and differs")
        .stderr_has("kept for the director's board");
    let cookie = director(&server);
    let board = the_board(&server.addr, &cookie);
    assert!(board.body.contains("1 in conflict"), "{}", board.body);
    // (the file as the import was given it)
    let file = hk.cards[0].display();
    let entry = format!("by desk: {file}");
    assert!(board.body.contains(&entry), "{}", board.body);
    // the director checks the signed card: the desk's typing is right
    let id = board
        .body
        .split("<strong>Entry ")
        .filter_map(|part| part.split_once(' '))
        .find(|(_, rest)| rest.starts_with(&entry))
        .map(|(id, _)| id.to_string())
        .unwrap();
    let csrf = form_token(&board.body);
    let form = format!(
        "stage=prelim&session=S01&table=1&choice={id}&reason=the+signed+card+says+so&csrf={csrf}"
    );
    let a = http(
        &server.addr,
        "POST",
        "/board/accept",
        &[
            ("Cookie", &cookie),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ],
        form.as_bytes(),
    )
    .unwrap();
    assert_eq!(a.status, 303, "{a:?}");
    let dump = dump(&hk.dir, scratch.path("dump"));
    let now = std::fs::read_to_string(dump.join("cards/prelim-S01-T01.csv")).unwrap();
    assert_eq!(now, card, "the desk's typing is the event's card");
    // the log: the desk's typing kept beside the referee's, then accepted
    let (said, log) = log_said(&hk.dir);
    let by_ann = "entry by referee Ann Lee";
    let typed = format!("{file} (the desk's typing)");
    let accepted = format!("{typed} (accepted on the board)");
    let decided = format!("decided on the board for table 1 (session S01): the desk's typing ({file}) accepted (reason: the signed card says so)");
    assert_eq!(
        said,
        [
            ["import", by_ann, ""],
            ["entry", by_ann, "entered for table 1 (session S01): now the event's card"],
            ["entry", typed.as_str(), "entered for table 1 (session S01): in conflict, held for the director's decision on the board"],
            ["replace", accepted.as_str(), "the signed card says so"],
            ["decision", "", decided.as_str()],
        ],
        "{log}"
    );
    // and the desk's file now imports as the same card
    desk_import(&hk.dir, &hk.cards[0]).success();
}

/// The board lists the tables waiting for the director's decision first;
/// in a conflict, marks each value that differs and says them in a line;
/// and is in Chinese for a browser that asks for Chinese first, its form
/// still settling the table.
#[test]
fn the_board_puts_conflicts_first_marks_what_differs_and_speaks_chinese() {
    let scratch = Scratch::new("board-order");
    let hk = hk_event(&scratch);
    let ann = add_referee(&hk.dir, "Ann Lee");
    let bob = add_referee(&hk.dir, "Bob Chan");
    let server = Serving::start(&hk.dir);
    let addr = server.addr.as_str();
    let card1 = std::fs::read_to_string(&hk.cards[0]).unwrap();
    let card5 = std::fs::read_to_string(&hk.cards[4]).unwrap();
    assert_eq!(post_card(addr, &ann, card1.as_bytes()).unwrap().status, 201);
    assert_eq!(post_card(addr, &ann, card5.as_bytes()).unwrap().status, 201);
    let other = swap_seats(&card5);
    assert_eq!(post_card(addr, &bob, other.as_bytes()).unwrap().status, 409);
    let cookie = director(&server);
    let board = the_board(addr, &cookie);
    assert_eq!(board.status, 200);
    let html = &board.body;
    let at = |text: &str| html.find(text).unwrap_or_else(|| panic!("{text}: {html}"));
    // table 5, in conflict, before table 1 (in) and table 2 (missing)
    assert!(at("Waiting for your decision (1)") < at("id=\"session-S01-table-5\""));
    assert!(at("id=\"session-S01-table-5\"") < at("The other tables"));
    assert!(at("The other tables") < at("id=\"session-S01-table-1\""));
    assert!(at("id=\"session-S01-table-1\"") < at("id=\"session-S01-table-2\""));
    // the values of game 3's first two seats that differ, marked and said
    let game3: Vec<Vec<&str>> = card5
        .lines()
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f[3] == "3")
        .collect();
    let (a, b) = (&game3[0], &game3[1]);
    let mut said = Vec::new();
    let mut zh = Vec::new();
    for (seat, mine, theirs) in [("A", a, b), ("B", b, a)] {
        for (i, (field, word)) in [("won", "勝局"), ("score", "得分"), ("tiles left", "餘牌")]
            .into_iter()
            .enumerate()
        {
            let (was, now) = (mine[6 + i], theirs[6 + i]);
            if was != now {
                said.push(format!("game 3, seat {seat} {field}: {was} vs {now}"));
                zh.push(format!("第 3 局，座位 {seat} {word}：{was} 對 {now}"));
                assert!(
                    html.contains(&format!("<td><mark>{was}</mark></td>")),
                    "{html}"
                );
                assert!(
                    html.contains(&format!("<td><mark>{now}</mark></td>")),
                    "{html}"
                );
            }
        }
    }
    assert!(!said.is_empty());
    let line = format!(
        "<p class=\"differs\">The event&#39;s card vs Entry 3 by Bob Chan: {}</p>",
        said.join("; ")
    );
    assert!(html.contains(&line), "{line}: {html}");
    // in Chinese, for a browser that asks for it first
    let chinese = http(
        addr,
        "GET",
        "/board",
        &[("Cookie", &cookie), ("Accept-Language", "zh-HK,zh;q=0.9")],
        b"",
    )
    .unwrap();
    assert_eq!(chinese.status, 200);
    let html = &chinese.body;
    for text in [
        "<html lang=\"zh-Hant\">".to_string(),
        "<span>衝突 1 枱</span>".to_string(),
        "待你決定（1 枱）".to_string(),
        "<td>場次 S01 第 5 枱</td><td>衝突</td>".to_string(),
        format!("賽事的計分卡對第 3 號輸入（Bob Chan）：{}", zh.join("；")),
    ] {
        assert!(html.contains(&text), "{text}: {html}");
    }
    assert!(!html.contains("CONFLICT") && !html.contains("The other tables"));
    // its form settles the table as the English one does
    let form = format!(
        "stage=prelim&session=S01&table=5&choice=3&reason=checked+the+signed+card&csrf={}",
        form_token(html)
    );
    let a = http(
        addr,
        "POST",
        "/board/accept",
        &[
            ("Cookie", &cookie),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ],
        form.as_bytes(),
    )
    .unwrap();
    assert_eq!(a.status, 303, "{a:?}");
    let board = the_board(addr, &cookie);
    assert!(board.body.contains("0 in conflict"), "{}", board.body);
    assert!(
        !board.body.contains("Waiting for your decision"),
        "{}",
        board.body
    );
}

#[test]
fn the_live_desk_needs_an_event_with_a_database() {
    let scratch = Scratch::new("no-event");
    Test::new()
        .args(["serve", "--entry", "--port", "0", "--event"])
        .arg(scratch.path("nowhere"))
        .run()
        .failure(2)
        .stderr_has("not an event folder");
    Test::new()
        .args(["serve", "--entry", "--port", "0"])
        .run()
        .failure(2)
        .stderr_has("--entry needs an event folder");
    // an event kept as files (a demo, a dump)
    let files = scratch.path("files");
    std::fs::create_dir_all(files.join("cards")).unwrap();
    std::fs::write(
        files.join("tilerank.toml"),
        "[event]\nname = \"x\"\nprofile = \"hk\"\n",
    )
    .unwrap();
    Test::new()
        .args(["serve", "--entry", "--port", "0", "--event"])
        .arg(&files)
        .run()
        .failure(2)
        .stderr_has("--entry stores cards in the event's database");
}

#[test]
fn a_card_posted_while_the_stored_cards_break_todays_settings_is_refused_with_why() {
    let scratch = Scratch::new("settings-changed");
    let hk = hk_event(&scratch);
    let key = add_referee(&hk.dir, "Ann Lee");
    let server = Serving::start(&hk.dir);
    let card = std::fs::read(&hk.cards[0]).unwrap();
    assert_eq!(post_card(&server.addr, &key, &card).unwrap().status, 201);
    // the director changes the scoring under the stored card
    let toml = hk.dir.join("tilerank.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        text.replace("scoring = \"zero_sum\"", "scoring = \"penalty_points\""),
    )
    .unwrap();
    let a = post_card(&server.addr, &key, &std::fs::read(&hk.cards[1]).unwrap()).unwrap();
    assert_eq!(a.status, 422, "{a:?}");
    assert!(
        a.body.contains("the event's stored cards have errors"),
        "{}",
        a.body
    );
    // what to do is a referee's: the settings are the desk's to mend
    assert!(
        a.body.contains("this card is not stored. Tell the desk: no card is stored until the director mends the event's settings or roster"),
        "{}",
        a.body
    );
    assert!(!a.body.contains("tilerank"), "{}", a.body);
    assert_eq!(stored_keys(&hk.dir).len(), 1);
}

/// A later stage's card posted by a referee is judged as the desk's
/// import judges it: a player who did not go on is refused, by the check
/// and by the entry, and nothing is stored.
#[test]
fn a_final_card_with_a_player_who_did_not_go_on_is_refused_at_the_table() {
    let scratch = Scratch::new("stranger-entry");
    let from = crate::test::fixtures().join("e2e/hk");
    let dir = scratch.path("event");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(from.join("tilerank.toml"), dir.join("tilerank.toml")).unwrap();
    for (command, file) in [("roster", "roster.csv"), ("import", "cards/prelim.csv")] {
        crate::test::Test::new()
            .arg(command)
            .arg(from.join(file))
            .arg("--event")
            .arg(&dir)
            .run()
            .success();
    }
    let key = add_referee(&dir, "Ann Lee");
    let server = Serving::start(&dir);
    let text = std::fs::read_to_string(from.join("cards/final.csv")).unwrap();
    let wrong = text.replace(",H03,", ",H05,");
    let said = "H05 Wong Chi Keung plays the final but did not go on from the prelim";
    let checked = post_to(&server.addr, "/api/check", &key, wrong.as_bytes()).unwrap();
    assert!(checked.body.contains(said), "{checked:?}");
    let entered = post_card(&server.addr, &key, wrong.as_bytes()).unwrap();
    assert_eq!(entered.status, 422, "{entered:?}");
    assert!(entered.body.contains(said), "{entered:?}");
    // said in Chinese to a phone that reads Chinese, the stages in words
    let zh = post_in(
        &server.addr,
        "/api/check",
        &key,
        Some("zh-Hant"),
        wrong.as_bytes(),
    )
    .unwrap();
    assert!(
        zh.body
            .contains("H05 Wong Chi Keung 在決賽出賽，但並未從初賽晉級（"),
        "{zh:?}"
    );
    assert!(!stored_keys(&dir).iter().any(|k| k.starts_with("final")));
    let right = post_card(&server.addr, &key, text.as_bytes()).unwrap();
    assert_eq!(right.status, 201, "{right:?}");
    assert!(stored_keys(&dir).iter().any(|k| k.starts_with("final")));
}

/// A referee's correction of a prelim card, accepted on the board after
/// the final was played from the prelim, is refused when it changes who
/// went on (a player on the stored final card no longer goes on): the
/// board says why, and nothing is stored, as the desk's import is refused.
#[test]
fn the_board_refuses_an_entry_that_changes_who_went_on_to_a_stored_final() {
    let scratch = Scratch::new("board-went-on");
    let from = crate::test::fixtures().join("e2e/hk");
    let dir = scratch.path("event");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(from.join("tilerank.toml"), dir.join("tilerank.toml")).unwrap();
    for (command, file) in [
        ("roster", "roster.csv"),
        ("import", "cards/prelim.csv"),
        ("import", "cards/final.csv"),
    ] {
        crate::test::Test::new()
            .arg(command)
            .arg(from.join(file))
            .arg("--event")
            .arg(&dir)
            .run()
            .success();
    }
    let ann = add_referee(&dir, "Ann Lee");
    let server = Serving::start(&dir);
    let addr = server.addr.as_str();
    // table 1 with seats B and D swapped: H07 goes on fourth, not H03,
    // who played the final
    let prelim = std::fs::read_to_string(from.join("cards/prelim.csv")).unwrap();
    let mut card = String::from("stage,session,table,game,seat,player,won,score,tiles\n");
    for line in prelim.lines().filter(|l| l.starts_with("prelim,S01,1,")) {
        let line = line
            .replace(",B,H03,", ",B,H0x,")
            .replace(",D,H07,", ",D,H03,")
            .replace(",B,H0x,", ",B,H07,");
        card.push_str(&line);
        card.push('\n');
    }
    assert_eq!(post_card(addr, &ann, card.as_bytes()).unwrap().status, 409);
    let cookie = director(&server);
    let board = the_board(addr, &cookie);
    assert!(board.body.contains("1 in conflict"), "{}", board.body);
    let id = board
        .body
        .split("<strong>Entry ")
        .filter_map(|part| part.split_once(' '))
        .find(|(_, rest)| rest.starts_with("by Ann Lee"))
        .map(|(id, _)| id.to_string())
        .unwrap();
    let csrf = form_token(&board.body);
    let form =
        format!("stage=prelim&session=S01&table=1&choice={id}&reason=seats+swapped&csrf={csrf}");
    let a = http(
        addr,
        "POST",
        "/board/accept",
        &[
            ("Cookie", &cookie),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ],
        form.as_bytes(),
    )
    .unwrap();
    assert_eq!(a.status, 422, "{a:?}");
    for said in [
        "Not settled",
        "H03 Lee Mei Ling plays the final but did not go on from the prelim",
        "who went on to the final changes",
    ] {
        assert!(a.body.contains(said), "{said}: {}", a.body);
    }
    // nothing stored: the board still waits, H03 still went on (the list
    // provisional while the table is in conflict)
    let board = the_board(addr, &cookie);
    assert!(board.body.contains("1 in conflict"), "{}", board.body);
    let qualifiers = crate::test::Test::new()
        .args([
            "qualifiers",
            "--allow-incomplete",
            "--format",
            "csv",
            "--event",
        ])
        .arg(&dir)
        .run()
        .success()
        .stdout;
    assert!(qualifiers.contains(",H03,"), "{qualifiers}");
}

/// What a phone is told to do is what a referee can do (correct the
/// card, tell the desk), never a command the director runs at the desk
/// (`tilerank qualifiers ...`, `import --replace ... --reason`, the
/// roster, `tilerank.toml`); what is wrong, and where, is `check`'s, in
/// English and in Chinese. The desk's import still names the commands.
#[test]
fn a_phone_is_told_what_a_referee_can_do_never_the_desks_commands() {
    let scratch = Scratch::new("table-advice");
    let from = crate::test::fixtures().join("e2e/hk");
    let dir = scratch.path("event");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(from.join("tilerank.toml"), dir.join("tilerank.toml")).unwrap();
    Test::new()
        .arg("roster")
        .arg(from.join("roster.csv"))
        .arg("--event")
        .arg(&dir)
        .run()
        .success();
    let ann = add_referee(&dir, "Ann Lee");
    let server = Serving::start(&dir);
    let addr = server.addr.as_str();
    let prelim = std::fs::read_to_string(from.join("cards/prelim.csv")).unwrap();
    let table = |n: u32| -> String {
        let mut card = String::from("stage,session,table,game,seat,player,won,score,tiles\n");
        for line in prelim
            .lines()
            .filter(|l| l.starts_with(&format!("prelim,S01,{n},")))
        {
            card.push_str(line);
            card.push('\n');
        }
        card
    };
    let final_card = std::fs::read_to_string(from.join("cards/final.csv")).unwrap();
    let wrong_final = final_card.replace(",H03,", ",H05,");
    // the messages of an answer (English, or Chinese), each one checked:
    // no command, no option, no file of the desk's
    let said = |path: &str, lang: Option<&str>, card: &str| -> (u16, Vec<String>) {
        let a = post_in(addr, path, &ann, lang, card.as_bytes()).unwrap();
        let v: serde_json::Value = serde_json::from_str(&a.body).unwrap();
        let messages: Vec<String> = v["problems"]
            .as_array()
            .unwrap_or_else(|| panic!("{path}: {v}"))
            .iter()
            .map(|p| p["message"].as_str().unwrap().to_string())
            .collect();
        for m in &messages {
            for desks in ["tilerank", "--", "roster", "名冊"] {
                assert!(!m.contains(desks), "{path} {lang:?}: {desks}: {m}");
            }
        }
        (a.status, messages)
    };
    let has = |messages: &[String], words: &str| {
        assert!(
            messages.iter().any(|m| m.contains(words)),
            "{words}: {messages:?}"
        );
    };
    let zh = Some("zh-HK,zh;q=0.9");

    // the prelim not complete yet (table 2 missing): a final card with
    // players not among those going on as it stands
    assert_eq!(
        post_card(addr, &ann, table(1).as_bytes()).unwrap().status,
        201
    );
    let (_, en) = said("/api/check", None, &wrong_final);
    has(&en, "H04 Lee Ka Yan plays the final but is not among those going on from the prelim as it stands (4 going on; the prelim is not complete yet): correct the card, or, if it is right, tell the desk");
    let (_, zh_said) = said("/api/check", zh, &wrong_final);
    has(&zh_said, "H04 Lee Ka Yan 在決賽出賽，但按目前的結果並未從初賽晉級（4 人晉級；初賽尚未完成）：請更正計分卡；若計分卡無誤，請告知記分台");

    // the prelim complete: a player who did not go on
    desk_import(&dir, &scratch.write("table-2.csv", &table(2))).success();
    for path in ["/api/check", "/api/cards"] {
        let (_, en) = said(path, None, &wrong_final);
        has(&en, "final session S01 table 1: H05 Wong Chi Keung plays the final but did not go on from the prelim (4 went on): correct the card, or, if H05 took the seat of one who went on and left, tell the desk");
        let (_, zh_said) = said(path, zh, &wrong_final);
        has(&zh_said, "H05 Wong Chi Keung 在決賽出賽，但並未從初賽晉級（4 人晉級）：請更正計分卡；若 H05 是代替已晉級但離場的選手入座，請告知記分台");
    }
    // the desk's import of the same card names the commands, as before
    desk_import(&dir, &scratch.write("final-wrong.csv", &wrong_final))
        .failure(1)
        .stderr_has("H05 Wong Chi Keung plays the final but did not go on from the prelim (4 went on; tilerank qualifiers --stage prelim lists them): correct the card, or, if H05 took the seat of one who went on and left, mark that player withdrawn on the roster");

    // a card that differs from the desk's card of its table
    let swapped = table(2)
        .replace(",C,H06,", ",C,H0x,")
        .replace(",D,H08,", ",D,H06,")
        .replace(",C,H0x,", ",C,H08,");
    let (_, en) = said("/api/check", None, &swapped);
    has(
        &en,
        "session S01 table 2 was imported before and differs (the event's card vs this one):\n  game 1, seat C: player ",
    );
    // (a phone is not told which of the server's files the card came from)
    assert!(!en.iter().any(|m| m.contains("imported from")), "{en:?}");
    has(&en, "\ncheck this card against the signed paper card; if it is right, tell the desk: the director settles it on the board");
    let (_, zh_said) = said("/api/check", zh, &swapped);
    has(
        &zh_said,
        "\n請與已簽署的紙本計分卡核對；若此計分卡正確，請告知記分台，由裁判長在看板上決定",
    );
    // what differs is said in Chinese too, line by line
    has(
        &zh_said,
        "場次 S01 第 2 枱之前已匯入，內容不同（賽事的計分卡對此計分卡）：\n  \
         第 1 局，座位 C：選手 H06 對 H08\n  \
         第 1 局，座位 D：選手 H08 對 H06\n  \
         第 2 局，座位 C：選手 H06 對 H08\n  \
         第 2 局，座位 D：選手 H08 對 H06\n  \
         第 3 局，座位 C：選手 H06 對 H08\n  \
         第 3 局，座位 D：選手 H08 對 H06\n\
         請與已簽署的紙本計分卡核對",
    );

    // Ann's own prelim card, corrected after the final was played from
    // the prelim: seats B and D swapped, H07 goes on, not H03, who played
    // the final. Checked as the correction posting it makes (not as a
    // card that differs from the event's), and refused the same.
    assert_eq!(
        post_card(addr, &ann, final_card.as_bytes()).unwrap().status,
        201
    );
    let corrected = table(1)
        .replace(",B,H03,", ",B,H0x,")
        .replace(",D,H07,", ",D,H03,")
        .replace(",B,H0x,", ",B,H07,");
    for path in ["/api/check", "/api/cards"] {
        let (status, en) = said(path, None, &corrected);
        assert_eq!(status, if path == "/api/check" { 200 } else { 422 });
        has(&en, "with this card, who went on to the final changes, and a player on its stored cards no longer goes on (listed); H07 now goes on, with no card yet: this card is not stored. Check the card against the signed paper card, and tell the desk: the director settles it");
        has(&en, "H03 Lee Mei Ling plays the final but did not go on from the prelim (4 went on): correct the card");
        assert!(!en.iter().any(|m| m.contains("differs")), "{path}: {en:?}");
        // a referee posts one card: what became of it is the phone's to say
        for desks in ["with the cards imported", "nothing imported"] {
            assert!(!en.iter().any(|m| m.contains(desks)), "{path}: {en:?}");
        }
        let (_, zh_said) = said(path, zh, &corrected);
        has(&zh_said, "按此計分卡，晉級決賽的名單會改變，其已儲存的計分卡上有選手不再晉級（已列出）；H07 現在晉級，但尚無計分卡：此計分卡未儲存。請與已簽署的紙本計分卡核對，並告知記分台，由裁判長決定");
    }

    // a card of a stage the event does not play
    let semi = table(1).replace("prelim,", "semi,");
    let (_, en) = said("/api/check", None, &semi);
    has(&en, "semi session S01 table 1: stage \"semi\" is not one of this event's stages (prelim, final); correct the card's stage");
    let (_, zh_said) = said("/api/check", zh, &semi);
    has(
        &zh_said,
        "不是本賽事的階段（prelim, final）；請更正計分卡的階段",
    );
    // nothing of it stored
    assert_eq!(stored_keys(&dir).len(), 3);
}

/// A problem the checks find on another card than the one posted (a
/// stored later stage's card whose player the posted correction no longer
/// sends on) is not pinned on the posted card's grid at the same row and
/// column: it is at no game, seat or field of the page, and its message
/// names that card and seat first, in English and in Chinese.
#[test]
fn a_problem_on_a_stored_card_is_said_of_that_card_not_pinned_on_the_posted_one() {
    let scratch = Scratch::new("other-card");
    let from = crate::test::fixtures().join("e2e/hk");
    let dir = scratch.path("event");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(from.join("tilerank.toml"), dir.join("tilerank.toml")).unwrap();
    Test::new()
        .arg("roster")
        .arg(from.join("roster.csv"))
        .arg("--event")
        .arg(&dir)
        .run()
        .success();
    let ann = add_referee(&dir, "Ann Lee");
    let server = Serving::start(&dir);
    let addr = server.addr.as_str();
    let prelim = std::fs::read_to_string(from.join("cards/prelim.csv")).unwrap();
    let table = |n: u32| -> String {
        let mut card = String::from("stage,session,table,game,seat,player,won,score,tiles\n");
        for line in prelim
            .lines()
            .filter(|l| l.starts_with(&format!("prelim,S01,{n},")))
        {
            card.push_str(line);
            card.push('\n');
        }
        card
    };
    assert_eq!(
        post_card(addr, &ann, table(1).as_bytes()).unwrap().status,
        201
    );
    desk_import(&dir, &scratch.write("table-2.csv", &table(2))).success();
    let final_card = std::fs::read_to_string(from.join("cards/final.csv")).unwrap();
    assert_eq!(
        post_card(addr, &ann, final_card.as_bytes()).unwrap().status,
        201
    );
    // Ann corrects her prelim card: seats B and D swapped, so H03, at
    // seat D of the stored final card (its line 5, column 6), no longer
    // goes on; the corrected prelim card has a line 5 and a column 6 too
    let corrected = table(1)
        .replace(",B,H03,", ",B,H0x,")
        .replace(",D,H07,", ",D,H03,")
        .replace(",B,H0x,", ",B,H07,");
    for (lang, said) in [
        (None, "final session S01 table 1, seat D: H03 Lee Mei Ling plays the final but did not go on from the prelim (4 went on): correct the card"),
        (Some("zh-HK"), "決賽場次 S01 第 1 枱，座位 D：H03 Lee Mei Ling 在決賽出賽，但並未從初賽晉級（4 人晉級）"),
    ] {
        for path in ["/api/check", "/api/cards"] {
            let a = post_in(addr, path, &ann, lang, corrected.as_bytes()).unwrap();
            let v: serde_json::Value = serde_json::from_str(&a.body).unwrap();
            let problems = v["problems"].as_array().unwrap();
            let on_final: Vec<_> = problems
                .iter()
                .filter(|p| p["message"].as_str().unwrap().contains("H03 Lee Mei Ling"))
                .collect();
            assert_eq!(on_final.len(), 1, "{path} {lang:?}: {}", a.body);
            let p = on_final[0];
            assert!(
                p["message"].as_str().unwrap().starts_with(said),
                "{path} {lang:?}: {p}"
            );
            for key in ["game", "seat", "field"] {
                assert!(p[key].is_null(), "{path} {lang:?}: {key}: {p}");
            }
        }
    }
    // the prelim card is as Ann first posted it, and the final stands
    assert_eq!(stored_keys(&dir).len(), 3);
}

/// A card posted to an event with no roster yet is answered in the
/// phone's words, what to do (tell the desk), not the desk's error (a
/// path of the server, a command): 503, with the shape of every refusal.
/// So is one posted while the event's settings cannot be read: 500.
#[test]
fn errors_of_the_event_reach_the_phone_as_what_to_do_in_its_language() {
    let scratch = Scratch::new("desk-errors");
    let dir = scratch.path("event");
    Test::new()
        .args(["init", "--profile", "hk", "--name", "Live Open"])
        .arg(&dir)
        .run()
        .success();
    let ann = add_referee(&dir, "Ann Lee");
    let server = Serving::start(&dir);
    let addr = server.addr.as_str();
    let card = std::fs::read_to_string(crate::test::fixtures().join("e2e/hk/cards/prelim.csv"))
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("stage,") || l.starts_with("prelim,S01,1,"))
        .collect::<Vec<_>>()
        .join("\n");
    let answer = |path: &str, lang: Option<&str>| -> (u16, serde_json::Value) {
        let a = post_in(addr, path, &ann, lang, card.as_bytes()).unwrap();
        assert!(!a.body.contains("tilerank"), "{path}: {}", a.body);
        assert!(
            !a.body.contains(&*dir.display().to_string()),
            "{path}: {}",
            a.body
        );
        (a.status, serde_json::from_str(&a.body).unwrap())
    };
    for path in ["/api/check", "/api/cards"] {
        let (status, v) = answer(path, None);
        assert_eq!(status, 503, "{path}: {v}");
        assert_eq!(v["status"], "refused", "{v}");
        assert_eq!(
            v["message"],
            "the event has no roster yet, so no card can be checked or stored: tell the desk (the director stores the roster first)"
        );
        let (status, v) = answer(path, Some("zh-HK"));
        assert_eq!(status, 503, "{path}: {v}");
        assert_eq!(
            v["message"],
            "賽事尚未儲存名冊，無法檢查或儲存計分卡：請告知記分台（裁判長須先儲存名冊）"
        );
    }
    // the settings broken under the running desk
    std::fs::write(dir.join("tilerank.toml"), "[event\nname = \n").unwrap();
    for path in ["/api/check", "/api/cards"] {
        let (status, v) = answer(path, None);
        assert_eq!(status, 500, "{path}: {v}");
        assert_eq!(v["status"], "refused", "{v}");
        assert_eq!(
            v["message"],
            "the desk cannot take cards just now (its screen says why): tell the desk, and send the card again once they say so"
        );
        let (_, v) = answer(path, Some("zh-HK"));
        assert_eq!(
            v["message"],
            "記分台暫時無法接收計分卡（原因顯示在記分台的畫面上）：請告知記分台，待其通知後再送出一次"
        );
    }
    assert!(stored_keys(&dir).is_empty());
}

/// The entry page opens on the first stage with cards still to enter: the
/// prelim while its schedule misses a card, then the semi-final, then the
/// final; with every card in, the last stage. A stage asked for is still
/// the one shown; the stage is said in the page's language.
#[test]
fn the_entry_page_opens_on_the_first_stage_with_cards_still_to_enter() {
    let scratch = Scratch::new("entry-stage");
    let dir = scratch.path("event");
    Test::new()
        .args(["init", "--profile", "gwinnett", "--name", "Stages"])
        .arg(&dir)
        .run()
        .success();
    // the demo's three stages, with the prelim's schedule: 9 tables
    let settings = std::fs::read_to_string(crate::publish::example("gwinnett/tilerank.toml"))
        .unwrap()
        + "\n[sessions]\ncount = 1\ntables = 9\n";
    std::fs::write(dir.join("tilerank.toml"), settings).unwrap();
    let in_event = |args: &[&std::ffi::OsStr]| {
        Test::new()
            .args(args)
            .arg("--event")
            .arg(&dir)
            .run()
            .success();
    };
    let roster = crate::publish::example("gwinnett/roster.csv");
    in_event(&["roster".as_ref(), roster.as_os_str()]);
    let card = |name: &str| crate::publish::example(&format!("gwinnett/cards/{name}.csv"));
    let import = |names: &[&str]| {
        let files: Vec<PathBuf> = names.iter().map(|n| card(n)).collect();
        let mut args: Vec<&std::ffi::OsStr> = vec!["import".as_ref()];
        args.extend(files.iter().map(|f| f.as_os_str()));
        in_event(&args);
    };
    let key = add_referee(&dir, "Ann Lee");
    let server = Serving::start(&dir);
    let addr = server.addr.as_str();
    let a = http(addr, "GET", &format!("/entry?key={key}"), &[], b"").unwrap();
    let cookie = a
        .header("set-cookie")
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let opens_on = |path: &str, lang: &str| {
        let page = http(
            addr,
            "GET",
            path,
            &[("Cookie", &cookie), ("Accept-Language", lang)],
            b"",
        )
        .unwrap();
        assert_eq!(page.status, 200, "{}", page.body);
        page.body
    };
    let prelim: Vec<String> = (1..=9).map(|t| format!("prelim-S01-T{t:02}")).collect();
    let prelim: Vec<&str> = prelim.iter().map(String::as_str).collect();
    // a prelim card still to come
    import(&prelim[..8]);
    let page = opens_on("/entry", "en");
    assert!(page.contains("<p>Stage: prelim</p>"), "{page}");
    assert!(page.contains(r#""stage":"prelim""#), "{page}");
    // the prelim complete: the semi-final, which has not begun
    import(&prelim[8..]);
    let page = opens_on("/entry", "en");
    assert!(page.contains("<p>Stage: semi-final</p>"), "{page}");
    assert!(
        page.contains(r#"<a href="/entry?stage=prelim">Enter prelim cards</a>"#),
        "{page}"
    );
    // begun, and players who went on still to play it
    import(&["semi-S01-T01"]);
    let page = opens_on("/entry", "zh-Hant");
    assert!(page.contains("<p>階段：準決賽</p>"), "{page}");
    // the semi-final complete: the final
    import(&["semi-S01-T02", "semi-S01-T03"]);
    let page = opens_on("/entry", "en");
    assert!(page.contains("<p>Stage: final</p>"), "{page}");
    let page = opens_on("/entry", "zh-Hant");
    assert!(page.contains("<p>階段：決賽</p>"), "{page}");
    // every card in: the last stage
    import(&["final-S01-T01"]);
    let page = opens_on("/entry", "en");
    assert!(page.contains("<p>Stage: final</p>"), "{page}");
    // a stage asked for is the one shown
    let page = opens_on("/entry?stage=prelim", "en");
    assert!(page.contains("<p>Stage: prelim</p>"), "{page}");
}

/// During the final (the prelim complete, the top 8 to a final of two
/// tables, one of them in), the board says the finalists with no card
/// yet, as `tilerank check` counts them, not only "0 missing", in English
/// and in Chinese.
#[test]
fn the_board_says_the_players_of_the_final_with_no_card_yet() {
    let scratch = Scratch::new("board-final-waiting");
    let from = crate::test::fixtures().join("e2e/hk");
    let dir = scratch.path("event");
    std::fs::create_dir_all(&dir).unwrap();
    let toml = std::fs::read_to_string(from.join("tilerank.toml")).unwrap();
    std::fs::write(
        dir.join("tilerank.toml"),
        toml.replace("top = 4", "top = 8"),
    )
    .unwrap();
    for (command, file) in [
        ("roster", "roster.csv"),
        ("import", "cards/prelim.csv"),
        ("import", "cards/final.csv"),
    ] {
        Test::new()
            .arg(command)
            .arg(from.join(file))
            .arg("--event")
            .arg(&dir)
            .run()
            .success();
    }
    Test::new()
        .arg("check")
        .arg("--event")
        .arg(&dir)
        .run()
        .success()
        .stderr_has("final: 4 of the 8 players who went on from the prelim have no card yet");
    add_referee(&dir, "Ann Lee");
    let server = Serving::start(&dir);
    let cookie = director(&server);
    let en = the_board(&server.addr, &cookie);
    assert_eq!(en.status, 200, "{en:?}");
    assert!(
        en.body.contains(
            "<span>0 missing</span><span>4 players of the final have no card yet</span></p>"
        ),
        "{}",
        en.body
    );
    let zh = http(
        &server.addr,
        "GET",
        "/board",
        &[("Cookie", &cookie), ("Accept-Language", "zh-HK,zh;q=0.9")],
        b"",
    )
    .unwrap();
    assert!(
        zh.body
            .contains("<span>未交 0 枱</span><span>決賽尚無計分卡 4 名</span></p>"),
        "{}",
        zh.body
    );
}
