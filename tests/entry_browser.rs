//! The referee's entry page (`serve --entry`, `/entry`) in a real browser
//! at a phone's width, typed on with key events as a person types:
//!
//! - against `tilerank serve --entry` itself: sign in with the link's
//!   key, type a card with one score wrong, see the desk's check flag it
//!   before sending, fix it, send it, and find its players' results on
//!   the served pages; a reload half way keeps what was typed;
//! - on its own, with the desk's answers played by a stand-in `fetch`:
//!   the exact CSV card it posts and the headers it posts it with, how
//!   minus scores are typed, where each problem shows, what each answer
//!   status says, a card kept while the network is down and sent when it
//!   comes back, and the cards not sent yet.
//!
//! Without Chromium the tests say that they did not run, and pass; with
//! `CI=true` they fail instead.

use crate::devtools::{chromium_or_skip, Browser};
use crate::test::{fixtures, Scratch, Test};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tilerank::profile::Scoring;
use tilerank::report::site::entry::{page, EntryPage};
use tilerank::report::site::Lang;

/// The page's text for a script (`document.body.innerText`).
const TEXT: &str = "document.body.innerText";

/// A JavaScript string literal.
fn js(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// Every kept field of the page, by id, as the page has it now.
const FIELDS: &str = "(function () { var d = {}; document.querySelectorAll('[data-keep]').forEach(function (e) { d[e.id] = e.value; }); return d; })()";

/// The saved cards in the page's `localStorage`.
const SAVED: &str = "(function () { var n = []; for (var i = 0; i < localStorage.length; i++) { var k = localStorage.key(i); if (k.indexOf('tilerank-entry:') === 0) n.push(k); } return n; })()";

/// Types each value and presses `key` after it.
fn type_fields(b: &mut Browser, values: &[&str], key: &str) {
    for v in values {
        b.type_text(v);
        b.press(key);
    }
}

/// Asserts the page fits a 375 px phone and its targets are big enough.
fn fits_a_phone(b: &mut Browser) {
    let wide = b.eval("document.documentElement.scrollWidth");
    assert!(wide.as_u64().unwrap() <= 375, "the page is {wide} px wide");
    let small = b.eval(
        "Array.prototype.filter.call(document.querySelectorAll('input, select, button, nav.stages a'), function (e) { var r = e.getBoundingClientRect(); return r.height < 44 || r.right > 375.5; }).map(function (e) { return e.id || e.className; })",
    );
    assert_eq!(small, json!([]), "too small or outside the screen");
}

// ---------------------------------------------------------------------------
// The page on its own.

/// A stand-in `fetch`, in every document before the page's script: it
/// records each post and answers from `__answers` (in order; `"offline"`
/// fails as a network error does), else a check with `__check`.
const FAKE_FETCH: &str = r#"
window.__sent = [];
window.__answers = [];
window.__check = { status: 200, body: { ok: true, problems: [], players: [] } };
window.fetch = function (url, opts) {
  window.__sent.push({ url: String(url), method: opts.method, credentials: opts.credentials,
    type: opts.headers['Content-Type'], csrf: opts.headers['X-CSRF-Token'], body: opts.body });
  var a = window.__answers.length ? window.__answers.shift() : String(url).indexOf('api/check') >= 0 ? window.__check : 'offline';
  if (a === 'offline') return Promise.reject(new TypeError('Failed to fetch'));
  return new Promise(function (ok) { setTimeout(function () {
    ok(new Response(JSON.stringify(a.body), { status: a.status, headers: { 'Content-Type': 'application/json' } }));
  }, 5); });
};
"#;

/// The card the test types: three players (seat D empty), game 3's last
/// tiles left blank.
const CARD: &str = "stage,session,table,game,seat,player,won,score,tiles
prelim,S02,7,1,A,P0001,1,20,0
prelim,S02,7,1,B,P0002,0,-8,3
prelim,S02,7,1,C,P0003,0,-12,4
prelim,S02,7,2,A,P0001,0,-6,2
prelim,S02,7,2,B,P0002,1,+15,0
prelim,S02,7,2,C,P0003,0,-9,3
prelim,S02,7,3,A,P0001,0,-10,4
prelim,S02,7,3,B,P0002,0,-4,1
prelim,S02,7,3,C,P0003,1,14,
";

/// The posts the page made to `api/check` or `api/cards` (`what`).
fn posts(b: &mut Browser, what: &str) -> Vec<Value> {
    let all = b.eval("window.__sent");
    all.as_array()
        .unwrap()
        .iter()
        .filter(|p| p["url"].as_str().unwrap().ends_with(what))
        .cloned()
        .collect()
}

/// The desk answers the next post with `status` and `body`; the page's
/// status line is cleared first, so that a wait sees the new answer.
fn answer_next(b: &mut Browser, answers: Value) {
    b.eval(&format!(
        "window.__answers = {answers}; document.getElementById('status').textContent = ''; true"
    ));
}

#[test]
fn the_entry_page_types_builds_and_sends_one_csv_card() {
    let Some(chromium) = chromium_or_skip() else {
        return;
    };
    let s = Scratch::new("page");
    let sessions: Vec<String> = (1..=3).map(|n| format!("S{n:02}")).collect();
    let tables: Vec<String> = (1..=12).map(|n| n.to_string()).collect();
    let stages = ["prelim".to_string(), "final".to_string()];
    let html = page(&EntryPage {
        lang: Lang::En,
        event: "Entry <Open>",
        referee: "Ann Lee",
        stage: "prelim",
        stages: &stages,
        sessions: &sessions,
        tables: &tables,
        games: 3,
        scoring: Scoring::ZeroSum,
        seats: &['A', 'B', 'C', 'D'],
        csrf: "csrf-token-1",
    });
    let file = s.write("entry.html", &html);
    let mut b = Browser::start(&chromium, &s.path("profile"));
    b.viewport(375, 740, true);
    b.on_new_document(FAKE_FETCH);
    b.go(&format!("file://{}", file.display()));
    assert_eq!(
        b.eval("document.title"),
        json!("Score card entry · Entry <Open>")
    );
    fits_a_phone(&mut b);
    // nothing typed: nothing checked, nothing saved
    assert_eq!(b.eval("window.__sent.length"), json!(0));

    // Session and table from their lists by typing, then the players: the
    // game rows of a seat without a player are off and skipped by Tab.
    b.focus("#session");
    b.type_text("S02");
    b.press("Tab");
    b.type_text("7");
    b.press("Tab");
    assert_eq!(b.eval("[document.getElementById('session').value, document.getElementById('table').value, document.activeElement.id]"), json!(["S02", "7", "p-A"]));
    assert_eq!(
        b.eval("document.getElementById('g1-A-won').disabled"),
        json!(true)
    );
    type_fields(&mut b, &["P0001", "P0002", "P0003", ""], "Tab");
    assert_eq!(b.eval("document.activeElement.id"), json!("g1-A-won"));
    assert_eq!(
        b.eval("[document.getElementById('g1-D-won').disabled, document.getElementById('r-1-D').className, document.getElementById('w-2-B').textContent]"),
        json!([true, "row off", "B P0002"])
    );
    // Game 1: a score's minus typed after the number, and before it.
    type_fields(
        &mut b,
        &["1", "20", "0", "0", "8-", "3", "0", "-12", "4"],
        "Tab",
    );
    assert_eq!(
        b.eval("document.getElementById('g1-B-score').value"),
        json!("-8")
    );
    assert_eq!(
        b.eval("document.activeElement.id"),
        json!("g2-A-won"),
        "Tab skipped seat D"
    );
    // Game 2: ± after the number (the field keeps the focus), a plus as
    // typed, the Unicode minus sign.
    b.type_text("0");
    b.press("Tab");
    b.type_text("6");
    b.click("button.sign[data-for='g2-A-score']");
    assert_eq!(
        b.eval("[document.activeElement.id, document.activeElement.value]"),
        json!(["g2-A-score", "-6"])
    );
    b.press("Tab");
    type_fields(&mut b, &["2", "1", "+15", "0", "0"], "Tab");
    b.type_text("9");
    b.eval("document.execCommand('insertText', false, '\u{2212}')");
    assert_eq!(b.eval("document.activeElement.value"), json!("-9"));
    b.press("Tab");
    b.type_text("3");
    b.press("Tab");
    // Game 3 with Enter: a second minus turns the sign back; ± before the
    // number; the last tiles left blank.
    b.type_text("0");
    b.press("Enter");
    b.type_text("10--");
    assert_eq!(b.eval("document.activeElement.value"), json!("10"));
    b.click("button.sign[data-for='g3-A-score']");
    assert_eq!(b.eval("document.activeElement.value"), json!("-10"));
    b.press("Enter");
    type_fields(&mut b, &["4", "0"], "Enter");
    b.click("button.sign[data-for='g3-B-score']");
    type_fields(&mut b, &["4", "1", "1", "14"], "Enter");
    assert_eq!(b.eval("document.activeElement.id"), json!("g3-C-tiles"));
    b.press("Enter");
    assert_eq!(
        b.eval("document.activeElement.id"),
        json!("send"),
        "Enter moves on, never sends"
    );
    assert!(posts(&mut b, "api/cards").is_empty());

    // What was checked: the last check posted is exactly the card.
    b.wait_until(
        &format!(
            "window.__sent.length > 0 && window.__sent[window.__sent.length - 1].body === {}",
            js(CARD)
        ),
        10,
        "the last check posts the whole card",
        "window.__sent.length && window.__sent[window.__sent.length - 1].body",
    );
    let checks = posts(&mut b, "api/check");
    let last = checks.last().unwrap();
    assert_eq!(last["method"], "POST");
    assert_eq!(last["credentials"], "same-origin");
    assert_eq!(last["type"], "text/csv; charset=utf-8");
    assert_eq!(last["csrf"], "csrf-token-1");
    assert!(
        checks.len() < 60,
        "checks are debounced: {} posts",
        checks.len()
    );
    // (the last check's answer comes after its post: waited for, not
    // read at once, which failed when the answer was a moment late)
    b.wait_until(
        "document.getElementById('send').textContent === 'Send card: no errors found'",
        10,
        "the last check's answer on the send button",
        "document.getElementById('send').textContent",
    );

    // The desk's problems, each where it belongs; names beside the ids,
    // as text.
    b.eval(r#"window.__check = { status: 200, body: { ok: false, problems: [
        { severity: 'error', game: 1, seat: null, field: 'score', message: 'scores add up to 2, not 0' },
        { severity: 'error', game: 2, seat: 'B', field: 'tiles', message: 'the winner has tiles left' },
        { severity: 'warning', game: null, seat: 'C', field: 'player', message: 'P0003 played at table 3 too' },
        { severity: 'note', game: null, seat: null, field: null, message: 'the desk note <b>bold</b>' } ],
      players: [ { seat: 'A', id: 'P0001', name: 'Chan <i>Tai</i> Man' }, { seat: 'B', id: 'P0002', name: 'Lee Siu Ming' },
                 { seat: 'C', id: 'P9999', name: 'not this seat' } ] } }; true"#);
    b.focus("#g3-C-tiles");
    b.type_text("5");
    b.press("Backspace");
    b.wait_until(
        "document.querySelectorAll('#m-g1 li.error').length === 1",
        10,
        "the game's problem beside the game",
        TEXT,
    );
    assert_eq!(
        b.eval("document.getElementById('m-g1').textContent"),
        json!("Error: Score (+/-): scores add up to 2, not 0")
    );
    assert_eq!(
        b.eval("['A','B','C'].map(function (s) { return document.getElementById('g1-' + s + '-score').className + ' ' + document.getElementById('g1-' + s + '-score').getAttribute('aria-invalid'); })"),
        json!(["error true", "error true", "error true"])
    );
    assert_eq!(
        b.eval("document.getElementById('g1-D-score').className"),
        json!(""),
        "no player: not marked"
    );
    assert_eq!(
        b.eval("[document.getElementById('m-g2-B').textContent, document.getElementById('g2-B-tiles').className, document.getElementById('g2-B-won').className]"),
        json!(["Error: Tiles left: the winner has tiles left", "error", ""])
    );
    assert_eq!(
        b.eval("[document.getElementById('m-p-C').textContent, document.getElementById('p-C').className]"),
        json!(["Warning: Player id: P0003 played at table 3 too", "warning"])
    );
    assert_eq!(
        b.eval("[document.getElementById('m-top').textContent, document.querySelectorAll('#m-top b').length]"),
        json!(["Note: the desk note <b>bold</b>", 0])
    );
    assert_eq!(
        b.eval("['A','B','C'].map(function (s) { return document.getElementById('n-' + s).textContent; }).concat([document.querySelectorAll('#n-A i').length])"),
        json!(["Chan <i>Tai</i> Man", "Lee Siu Ming", "", 0])
    );
    assert_eq!(b.eval("document.getElementById('send').textContent + ' ' + document.getElementById('send').className"), json!("Send card (2 errors to fix) errors"));
    fits_a_phone(&mut b);

    // A reload brings back every field.
    let typed = b.eval(FIELDS);
    assert_eq!(typed["g3-C-tiles"], "");
    assert_eq!(typed["g2-B-score"], "+15");
    b.reload();
    assert_eq!(b.eval(FIELDS), typed, "what was typed survives a reload");
    b.wait_until(
        &format!(
            "window.__sent.length === 1 && window.__sent[0].body === {}",
            js(CARD)
        ),
        10,
        "the card is checked again after the reload",
        "window.__sent",
    );
    assert_eq!(b.eval("document.getElementById('g1-A-won').disabled || document.getElementById('g1-D-won').disabled === false"), json!(false));

    // Sending while the network is down: said, kept, sent again when the
    // browser is online.
    answer_next(&mut b, json!(["offline"]));
    b.click("#send");
    b.wait_until(
        "document.getElementById('status').textContent.indexOf('Not sent yet') === 0",
        10,
        "offline",
        TEXT,
    );
    assert_eq!(
        b.eval(SAVED),
        json!([r#"tilerank-entry:["prelim","S02","7"]"#])
    );
    answer_next(
        &mut b,
        json!([{"status": 201, "body": {"status": "stored", "card": "prelim S02 table 7",
            "problems": [{"severity": "warning", "game": 3, "seat": "C", "field": "tiles", "message": "tiles left blank"}]}}]),
    );
    b.eval("window.dispatchEvent(new Event('online')); true");
    b.wait_until(
        "document.getElementById('status').textContent === 'Stored: prelim S02 table 7.'",
        10,
        "stored once online",
        TEXT,
    );
    assert_eq!(
        b.eval("document.getElementById('status').className"),
        json!("ok")
    );
    assert_eq!(
        b.eval("document.getElementById('m-g3-C').textContent"),
        json!("Warning: Tiles left: tiles left blank")
    );
    assert_eq!(b.eval(SAVED), json!([]), "a stored card is no longer kept");
    let sent = posts(&mut b, "api/cards");
    assert_eq!(sent.len(), 2);
    for p in &sent {
        assert_eq!(
            (p["body"].as_str(), p["csrf"].as_str()),
            (Some(CARD), Some("csrf-token-1"))
        );
        assert_eq!(p["type"], "text/csv; charset=utf-8");
    }
    assert_eq!(b.eval(FIELDS), typed, "the card stays on screen to correct");

    // Every other answer, by its status.
    let answers = [
        (200, json!({"status": "same", "card": "prelim S02 table 7", "problems": []}), "Already stored: the same card, prelim S02 table 7."),
        (202, json!({"status": "waiting", "card": "prelim S02 table 7", "problems": []}), "Stored: prelim S02 table 7. It is compared with the desk's typing of the paper card when that is in."),
        // (the server's message says who holds the other version: shown
        // whole, a line each)
        (409, json!({"status": "conflict", "card": "prelim S02 table 7", "held_by": "referee", "referee": "Bob Chan", "message": "Not stored: referee Bob Chan entered a different card for prelim S02 table 7 before you.\nWhat differs (referee Bob Chan's card vs this one):\ngame 1, seat A: score 21 vs 20"}), "Not stored: referee Bob Chan entered a different card for prelim S02 table 7 before you.\nWhat differs (referee Bob Chan's card vs this one):\ngame 1, seat A: score 21 vs 20"),
        (409, json!({"status": "conflict", "card": "prelim S02 table 7"}), "Not stored: the event holds a different card for prelim S02 table 7."),
        (422, json!({"status": "problems", "problems": [{"severity": "error", "game": 1, "seat": "A", "field": "won", "message": "won must be 1 or 0"}]}), "Not stored: fix the problems marked on the card and send again."),
        (401, json!({"status": "denied", "message": "This link's key was revoked."}), "You are signed out: open your link again (scan your QR code). This link's key was revoked."),
        (403, json!({"status": "denied", "message": "Bad token."}), "You are signed out: open your link again (scan your QR code). Bad token."),
        (413, json!({"status": "refused", "message": "At most 64 KiB."}), "Refused: the card is too large. At most 64 KiB."),
        (429, json!({"status": "refused", "message": "too many requests with this key: wait a few seconds"}), "Refused: too many tries. Wait a few seconds, then send again."),
        (500, json!({}), "Not stored: the server answered 500. Send again."),
    ];
    for (status, body, says) in answers {
        answer_next(&mut b, json!([{"status": status, "body": body}]));
        b.click("#send");
        b.wait_until(
            &format!(
                "document.getElementById('status').textContent === {}",
                js(says)
            ),
            10,
            &format!("the answer {status}"),
            "document.getElementById('status').textContent",
        );
        if status == 409 && body.get("message").is_some() {
            // each line of it on a line of its own
            assert_eq!(
                b.eval("document.getElementById('status').innerText"),
                json!(says)
            );
        }
        let class = if [200, 202].contains(&status) {
            "ok"
        } else {
            "bad"
        };
        assert_eq!(
            b.eval("document.getElementById('status').className"),
            json!(class),
            "{status}"
        );
    }
    assert_eq!(
        b.eval("document.getElementById('m-g1-A').textContent"),
        json!("Error: Won (1/0): won must be 1 or 0")
    );
    assert_eq!(posts(&mut b, "api/cards").len(), 2 + 10);

    // A new card; the one typed and not sent is listed, and opens again.
    b.eval("document.getElementById('g1-A-won').value = '1'; document.getElementById('g1-A-won').dispatchEvent(new Event('input', {bubbles: true})); true");
    assert_eq!(
        b.eval(SAVED).as_array().unwrap().len(),
        1,
        "changed after sending: kept again"
    );
    b.click("#new");
    assert_eq!(b.eval("[document.getElementById('session').value, document.getElementById('table').value, document.getElementById('p-A').value, document.getElementById('unsent').hidden]"), json!(["S02", "", "", false]));
    assert_eq!(
        b.eval("document.getElementById('unsent-list').textContent"),
        json!("session S02, table 7")
    );
    b.focus("#table");
    b.type_text("8");
    b.press("Tab");
    b.type_text("P0005");
    b.click("#new");
    assert_eq!(
        b.eval("Array.prototype.map.call(document.querySelectorAll('#unsent-list button'), function (e) { return e.textContent; })"),
        json!(["session S02, table 7", "session S02, table 8"])
    );
    b.click("#unsent-list button");
    assert_eq!(b.eval(FIELDS)["p-A"], "P0001");
    assert_eq!(b.eval("[document.getElementById('table').value, document.getElementById('unsent-list').textContent]"), json!(["7", "session S02, table 8"]));

    // In Traditional Chinese, with text fields for session and table, the
    // page fits the phone as well.
    let zh = page(&EntryPage {
        lang: Lang::ZhHant,
        event: "二〇二六年香港拉密公開賽初賽",
        referee: "陳大文",
        stage: "prelim",
        stages: &stages,
        sessions: &[],
        tables: &[],
        games: 3,
        scoring: Scoring::ZeroSum,
        seats: &['A', 'B', 'C', 'D'],
        csrf: "t",
    });
    let file = s.write("entry-zh.html", &zh);
    b.go(&format!("file://{}", file.display()));
    b.focus("#session");
    type_fields(&mut b, &["S03", "12", "P0005"], "Tab");
    b.eval("window.__check = { status: 200, body: { ok: false, problems: [{ severity: 'error', game: 1, seat: 'A', field: 'won', message: '勝局必須是 1 或 0' }], players: [{ seat: 'A', id: 'P0005', name: '李小龍' }] } }; true");
    b.type_text("2");
    b.wait_until(
        "document.getElementById('n-A').textContent === '李小龍'",
        10,
        "the name",
        TEXT,
    );
    assert_eq!(
        b.eval("document.getElementById('m-g1-A').textContent"),
        json!("錯誤：勝局 (1/0)：勝局必須是 1 或 0")
    );
    assert_eq!(
        b.eval("document.getElementById('send').textContent"),
        json!("提交計分卡（尚有 1 個錯誤）")
    );
    fits_a_phone(&mut b);
}

/// A pot shared by two or three gives a score with decimals: the score's
/// keyboard is the decimal one (digits and a point; its minus is the ±
/// button, as no iPhone keypad has one), won and tiles left keep the
/// numeric one, and a point, a decimal comma or a Chinese keyboard's
/// full-width point reach the card as typed (the full-width one as `.`).
#[test]
fn a_shared_pot_score_is_typed_with_its_decimal_point() {
    let Some(chromium) = chromium_or_skip() else {
        return;
    };
    let s = Scratch::new("page-decimal");
    let html = page(&EntryPage {
        lang: Lang::En,
        event: "",
        referee: "Ann Lee",
        stage: "prelim",
        stages: &[],
        sessions: &[],
        tables: &[],
        games: 1,
        scoring: Scoring::ZeroSum,
        seats: &['A', 'B', 'C', 'D'],
        csrf: "t",
    });
    let file = s.write("entry.html", &html);
    let mut b = Browser::start(&chromium, &s.path("profile"));
    b.viewport(375, 740, true);
    b.on_new_document(FAKE_FETCH);
    b.go(&format!("file://{}", file.display()));
    assert_eq!(
        b.eval("['won', 'score', 'tiles'].map(function (f) { return document.getElementById('g1-A-' + f).inputMode; })"),
        json!(["numeric", "decimal", "numeric"])
    );
    b.focus("#session");
    type_fields(
        &mut b,
        &["S01", "3", "P0001", "P0002", "P0003", "P0004"],
        "Tab",
    );
    assert_eq!(b.eval("document.activeElement.id"), json!("g1-A-won"));
    // A wins 55; B and C share the pot of a tie (27.5 each, typed with a
    // point and with a comma), minus by ±; D's full-width point.
    type_fields(&mut b, &["1", "55", "0", "0"], "Tab");
    b.type_text("27.5");
    b.click("button.sign[data-for='g1-B-score']");
    assert_eq!(
        b.eval("[document.activeElement.id, document.activeElement.value]"),
        json!(["g1-B-score", "-27.5"])
    );
    b.press("Tab");
    type_fields(&mut b, &["3", "0"], "Tab");
    b.type_text("27,5-");
    assert_eq!(b.eval("document.activeElement.value"), json!("-27,5"));
    b.press("Tab");
    type_fields(&mut b, &["4", "0"], "Tab");
    b.eval("document.execCommand('insertText', false, '\u{FF0D}\u{FF11}\u{FF13}\u{FF0E}\u{FF16}\u{FF17}')");
    assert_eq!(b.eval("document.activeElement.value"), json!("-13.67"));
    b.press("Tab");
    b.type_text("5");
    b.wait_until(
        &format!(
            "window.__sent.length > 0 && window.__sent[window.__sent.length - 1].body === {}",
            js("stage,session,table,game,seat,player,won,score,tiles
prelim,S01,3,1,A,P0001,1,55,0
prelim,S01,3,1,B,P0002,0,-27.5,3
prelim,S01,3,1,C,P0003,0,\"-27,5\",4
prelim,S01,3,1,D,P0004,0,-13.67,5
")
        ),
        10,
        "the card with its decimals",
        "window.__sent.length && window.__sent[window.__sent.length - 1].body",
    );
}

// ---------------------------------------------------------------------------
// Against the desk.

/// `tilerank serve` as a child, killed when dropped (a failing test too).
struct Server {
    child: Child,
    stderr: Arc<Mutex<String>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `tilerank serve --entry` on a free port; the server and its
/// address (`127.0.0.1:PORT`).
fn serve(event: &Path) -> (Server, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilerank"))
        .args(["serve", "--entry", "--port", "0", "--event"])
        .arg(event)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tilerank serve starts");
    let stderr = Arc::new(Mutex::new(String::new()));
    let (tx, rx) = channel();
    let pipe = child.stderr.take().unwrap();
    let all = Arc::clone(&stderr);
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            all.lock().unwrap().push_str(&line);
            all.lock().unwrap().push('\n');
            if let Some(at) = line.find("http://") {
                let rest = &line[at + "http://".len()..];
                let _ = tx.send(rest[..rest.find('/').unwrap_or(rest.len())].to_string());
            }
        }
    });
    let server = Server { child, stderr };
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(address) => (server, address),
        Err(_) => panic!(
            "serve printed no address in 60 s: {}",
            server.stderr.lock().unwrap()
        ),
    }
}

/// Records every post of the page and its answer's status, passing it on.
const SPY_FETCH: &str = r#"
window.__sent = [];
var real = window.fetch.bind(window);
window.fetch = function (url, opts) {
  var p = { url: String(url), body: opts && opts.body, status: null };
  window.__sent.push(p);
  return real(url, opts).then(function (r) { p.status = r.status; return r; });
};
"#;

/// Picks an option of the list `id` with the keyboard: the one starting
/// with `typed` (or the text typed into a text field).
fn pick(b: &mut Browser, id: &str, typed: &str) -> String {
    b.focus(&format!("#{id}"));
    b.type_text(typed);
    let got = b.eval(&format!("document.getElementById('{id}').value"));
    assert!(
        got.as_str().is_some_and(|v| v.starts_with(typed)),
        "{id}: picked {got} by typing {typed}; the options: {}",
        b.eval(&format!("document.getElementById('{id}').innerText"))
    );
    got.as_str().unwrap().to_string()
}

#[test]
fn a_referee_types_a_card_on_a_phone_and_the_desk_stores_it() {
    let Some(chromium) = chromium_or_skip() else {
        return;
    };
    let started = Instant::now();
    let s = Scratch::new("desk");
    let dir = s.path("event");
    Test::new()
        .args(["init", "--profile", "hk", "--name", "Entry <Open>"])
        .arg(&dir)
        .run()
        .success();
    Test::new()
        .arg("roster")
        .arg(fixtures().join("roster.csv"))
        .arg("--event")
        .arg(&dir)
        .run()
        .success();
    let added = Test::new()
        .args(["referee", "add", "Ann Lee", "--event"])
        .arg(&dir)
        .run()
        .success();
    let key = added
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("key: "))
        .expect("a key: line")
        .to_string();
    let (server, address) = serve(&dir);
    let mut b = Browser::start(&chromium, &s.path("profile"));
    b.viewport(375, 740, true);
    b.on_new_document(SPY_FETCH);
    b.go(&format!("http://{address}/entry?key={key}"));
    assert_eq!(
        b.eval(&format!(
            "[location.pathname, location.search, document.cookie.indexOf({})]",
            js(&key)
        )),
        json!(["/entry", "", -1]),
        "signed in, the key out of the address and out of reach of scripts"
    );
    assert!(b.eval(TEXT).as_str().unwrap().contains("Referee: Ann Lee"));
    fits_a_phone(&mut b);

    // Session 1, table 7; four players; game 1 with C's score one off.
    let session = pick(&mut b, "session", "S01");
    b.press("Tab");
    let table = pick(&mut b, "table", "7");
    b.press("Tab");
    type_fields(&mut b, &["P0001", "P0002", "P0003", "P0004"], "Tab");
    let game1 = [
        "1", "30", "0", "0", "-5", "1", "0", "-11", "3", "0", "-15", "4",
    ];
    type_fields(&mut b, &game1, "Tab");
    assert_eq!(b.eval("document.activeElement.id"), json!("g2-A-won"));

    // A reload half way keeps what was typed.
    let typed = b.eval(FIELDS);
    b.reload();
    assert_eq!(b.eval(FIELDS), typed, "what was typed survives a reload");
    b.focus("#g2-A-won");
    let rest = [
        "0", "11", "3", "1", "11", "1", "0", "-12", "2", "0", "-10", "4", // game 2
        "1", "25", "0", "0", "-20", "2", "0", "-2", "1", "0", "-3", "1", // game 3
    ];
    type_fields(&mut b, &rest, "Tab");

    // The desk's check says game 1 does not add up, before anything is
    // sent; the players' names come with it.
    // (the answer to the check of the whole card as typed, game 3's last
    // value too: posted last, answered, and shown)
    b.wait_until(
        "(function () { var p = window.__sent[window.__sent.length - 1]; return !!p && /api\\/check$/.test(p.url) && p.status === 200 && p.body.split('\\n').length === 14 && /,3,D,P0004,0,-3,1/.test(p.body) && document.getElementById('check').textContent === ''; })()",
        20,
        "the whole card is checked",
        "window.__sent",
    );
    b.wait_until(
        "document.querySelectorAll('#g1 li.error').length > 0",
        20,
        "the check flags game 1",
        "[document.body.innerText, window.__sent]",
    );
    assert_eq!(
        b.eval("document.querySelectorAll('li.error').length === document.querySelectorAll('#g1 li.error').length"),
        json!(true),
        "every error is about game 1: {}",
        b.eval(TEXT)
    );
    let sent = b.eval("window.__sent.map(function (p) { return new URL(p.url, location.href).pathname + ' ' + p.status; })");
    let sent: Vec<&str> = sent
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(sent.contains(&"/api/check 200"), "{sent:?}");
    assert!(
        !sent.iter().any(|p| p.starts_with("/api/cards")),
        "{sent:?}"
    );
    assert!(b
        .eval("document.getElementById('send').className")
        .as_str()
        .unwrap()
        .contains("errors"));
    assert_eq!(
        b.eval("['A','B','C','D'].map(function (s) { return document.getElementById('n-' + s).textContent; })"),
        json!(["Chan Tai Man", "Lee Siu Ming", "Wong Ka Yan", "Cheung Mei Ling"])
    );

    // Fixed, the errors go; sent, the card is stored.
    b.focus("#g1-C-score");
    b.eval("document.activeElement.select(); true");
    b.type_text("-10");
    b.wait_until(
        "document.querySelectorAll('li.error').length === 0 && document.getElementById('send').textContent === 'Send card: no errors found'",
        20,
        "the fixed card checks clean",
        "[document.body.innerText, window.__sent]",
    );
    b.click("#send");
    b.wait_until(
        "document.getElementById('status').textContent.indexOf('Stored: ') === 0",
        20,
        "the card is stored",
        "[document.getElementById('status').textContent, window.__sent]",
    );
    assert_eq!(b.eval(SAVED), json!([]), "a stored card is no longer kept");
    let said = b.eval("document.getElementById('status').textContent");
    assert!(said.as_str().unwrap().contains(&table), "{said}");

    // The served pages show the card: each player's total score and
    // games won, and the card's games on P0001's page.
    let totals = [
        ("P0001", "66", "2"),
        ("P0002", "-14", "1"),
        ("P0003", "-24", "0"),
        ("P0004", "-28", "0"),
    ];
    b.go(&format!("http://{address}/standings-prelim.html"));
    let deadline = Instant::now() + Duration::from_secs(20);
    let rows = loop {
        let rows = b.eval("Array.prototype.map.call(document.querySelectorAll('tbody tr'), function (r) { return Array.prototype.map.call(r.cells, function (c) { return c.textContent.trim(); }); })");
        let has = |id: &str| {
            rows.as_array().is_some_and(|r| {
                r.iter()
                    .any(|r| r.as_array().unwrap().iter().any(|c| c == id))
            })
        };
        if totals.iter().all(|(id, _, _)| has(id)) {
            break rows;
        }
        assert!(
            Instant::now() < deadline,
            "the standings never showed the card: {}",
            b.eval(TEXT)
        );
        std::thread::sleep(Duration::from_millis(500));
        b.reload();
    };
    let headers = b.eval("Array.prototype.map.call(document.querySelectorAll('thead th'), function (c) { return c.textContent.trim(); })");
    let col = |name: &str| {
        headers
            .as_array()
            .unwrap()
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name}: {headers}"))
    };
    let (id_col, won_col, total_col) = (col("ID"), col("Won"), col("Total score"));
    for (id, total, won) in totals {
        let row = rows
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r[id_col] == id)
            .unwrap();
        assert_eq!(
            (row[total_col].as_str(), row[won_col].as_str()),
            (Some(total), Some(won)),
            "{id}: {row}"
        );
    }
    b.go(&format!("http://{address}/p/P0001.html"));
    let text = b.eval(TEXT);
    let text = text.as_str().unwrap();
    assert!(
        text.contains("Chan Tai Man") && text.contains(&session),
        "{text}"
    );
    for score in [
        "score 30, tiles 0",
        "score 11, tiles 3",
        "score 25, tiles 0",
    ] {
        assert!(text.contains(score), "{score} not on P0001's page: {text}");
    }
    drop(b);
    drop(server);
    eprintln!(
        "entry page against the desk: {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
