//! The page a referee types a signed score card on, at the table, on a
//! phone: `/entry` of `tilerank serve --entry`. [`page`] writes the whole
//! document (styles and script inline, nothing fetched from elsewhere);
//! the server fills in who is signed in and the token its posts carry.
//!
//! What the page does:
//!
//! - **Stages.** The stage the page enters cards of is said at the top;
//!   in an event of more than one stage, a section above the card has a
//!   button (at least 48 px high) to the page of each other stage:
//!   "Enter final cards".
//! - **Layout.** Session and table are picked from lists (a text field
//!   when the event gives none); then one player id per seat, each with
//!   the player's name beside it once the server has looked it up; then
//!   one block per game with a row per seat: won (1/0), score, tiles left.
//!   A seat left empty (three players) has its game rows greyed out and
//!   skipped by Tab. Every field is at least 48 px high, the text at least
//!   16 px (no zoom on focus), and it fits a 375 px wide phone. Won and
//!   tiles left open the numeric keyboard (`inputmode="numeric"`: digits);
//!   a score the decimal one (`inputmode="decimal"`: digits and the
//!   phone's decimal separator), for a pot shared by two or three
//!   (`27.5`, `13.67`; a decimal comma `27,5` is read as a point by the
//!   checks). Enter moves to the next field and never sends the card.
//! - **Minus scores.** Neither keyboard has a minus on every phone (an
//!   iPhone's has none), so each score has a ± button beside it that
//!   turns the sign (and keeps the keyboard open): a score is typed as
//!   digits and a point whatever the phone, its sign set by the button.
//!   (Not `inputmode="text"` with a `pattern`: that keyboard opens on its
//!   letters, and the referee would turn to its numbers for every score
//!   to reach a minus the button already gives.) With a keyboard that has
//!   one, `-` typed anywhere in the score (before or after the number)
//!   makes it minus, and a second `-` makes it plus again: `12-` becomes
//!   `-12`, `-12-` becomes `12`. Full-width digits, signs and point (a
//!   Chinese keyboard's `１２`, `－`, `．`) and the Unicode minus `−` are
//!   read as ASCII. The button is out of the Tab order, so Tab goes from
//!   field to field. Under penalty points, which are never below 0, the
//!   page has no button and no word on signs.
//! - **The card.** From what is typed the script builds one CSV card in
//!   the results layout, header
//!   `stage,session,table,game,seat,player,won,score,tiles`, one line per
//!   game per seat that has a player id, values as typed (spaces at either
//!   end trimmed, a field with a comma or quote quoted), a blank left
//!   blank. The script checks no rule.
//! - **Checking.** 300 ms after the last keystroke it posts the card to
//!   `api/check` (relative to the page, so the desk may sit under a path;
//!   `Content-Type: text/csv; charset=utf-8`, header `X-CSRF-Token`,
//!   same-origin credentials) and shows the answer: each problem beside
//!   its game and seat (the field named, the field outlined), beside the
//!   game when it has no seat, beside the player id when it has no game,
//!   at the top when it has neither; each player's name beside the id.
//!   An older answer arriving after a newer post is dropped. The send
//!   button says how many errors remain; the referee can still press it
//!   (the server decides).
//! - **Sending.** The same card is posted to `api/cards`; the answer is
//!   said by its status: 201 stored, 200 the same card was already stored,
//!   202 stored and waiting for the desk's typing of the paper card, 409
//!   the event holds a different card (the server's message shown whole:
//!   who holds the other version, the desk or another referee, what to
//!   do, and what differs, a line each), 422 not
//!   stored (problems shown as for a check), 401/403 signed out (open the
//!   link again), 413 too large, 429 too many tries (wait a few seconds,
//!   as the server's own message says; a key may send again in half a
//!   second); anything else (400:
//!   the card was cut off on the way): not stored, send again. Problems
//!   that come with 200/201/202 (warnings) are shown too. The card stays
//!   on screen: a referee corrects it and sends again, or starts the next
//!   with "New card".
//! - **Nothing typed is lost.** Every keystroke is saved in the phone's
//!   `localStorage`, keyed by stage, session and table; a reload brings
//!   back the card last typed. Choosing session and table with nothing
//!   else typed brings back that table's saved card; choosing them with a
//!   card typed moves the card there (a corrected label). A saved card is
//!   dropped only when the server answers 200, 201 or 202 for exactly what
//!   is on screen. When the network fails the page says the card is not
//!   sent yet, and sends it again when the browser reports it is `online`
//!   or the referee presses Send. Cards saved and not yet sent are listed
//!   at the top, to open again.
//!
//! Everything the page shows from the event or the server goes through
//! [`esc`] (here) or `textContent` (in the script), and the page's data
//! reaches the script as JSON through [`json_for_script`].

use super::html::{esc, json_for_script};
use super::words::{fill, Lang};
use crate::profile::Scoring;
use serde_json::json;
use std::fmt::Write;

/// What the entry page is for and who uses it.
pub struct EntryPage<'a> {
    pub lang: Lang,
    /// The event's name (may be empty).
    pub event: &'a str,
    /// The referee signed in.
    pub referee: &'a str,
    /// The stage cards are entered for (`prelim`).
    pub stage: &'a str,
    /// Every stage the event plays, in order: with more than one, the page
    /// has a button to each other (`/entry?stage=final`).
    pub stages: &'a [String],
    /// The sessions to pick from (`S01`...); none: a text field.
    pub sessions: &'a [String],
    /// The tables to pick from (`1`...`50`); none: a text field.
    pub tables: &'a [String],
    /// Games per card.
    pub games: u32,
    /// How the event scores a game: under penalty points (`gwinnett`) a
    /// score is labelled "Penalty points", not "Score (+/-)".
    pub scoring: Scoring,
    /// The seats (`A`...`D`).
    pub seats: &'a [char],
    /// Sent back as the header `X-CSRF-Token` on every post.
    pub csrf: &'a str,
}

/// The stage cards are entered for, at the top.
fn stage_line(s: &mut String, p: &EntryPage) {
    let w = p.lang.words();
    let _ = writeln!(
        s,
        "<p>{}</p>",
        esc(&fill(w.entry_stage, &[&w.stage(p.stage)]))
    );
}

/// With more than one stage, a button to the entry page of each other
/// stage (a referee at a final table taps "Enter final cards"), in a
/// section of its own above the card: hard to miss, and out of the way
/// of the card's fields.
fn stage_buttons(s: &mut String, p: &EntryPage) {
    let w = p.lang.words();
    let others: Vec<&String> = p.stages.iter().filter(|s| *s != p.stage).collect();
    if p.stages.len() < 2 || others.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        r#"<nav class="stages" aria-labelledby="stages-h"><h2 id="stages-h">{}</h2>"#,
        esc(w.entry_stages)
    );
    for stage in others {
        let _ = writeln!(
            s,
            r#"<a href="/entry?stage={}">{}</a>"#,
            esc(&url_word(stage)),
            esc(&fill(w.entry_stage_go, &[&w.stage(stage)]))
        );
    }
    s.push_str("</nav>\n");
}

/// A stage's name as a query value: letters, digits, `-` and `_` as they
/// are, any other byte `%XX`.
fn url_word(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The entry page: a whole HTML document.
pub fn page(p: &EntryPage) -> String {
    let w = p.lang.words();
    let score_label = w.entry_score_for(p.scoring);
    let mut s = String::with_capacity(24_000 + 1_200 * p.games as usize * p.seats.len());
    let title = super::html::title_of(w.entry_title, p.event);
    let _ = write!(
        s,
        r#"<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="tilerank">
<meta name="referrer" content="no-referrer">
<title>{title}</title>
<style>
{CSS}</style>
</head>
<body>
<header class="top">
<h1>{heading}</h1>
"#,
        lang = p.lang.tag(),
        heading = esc(w.entry_title),
    );
    if !p.event.is_empty() {
        let _ = writeln!(s, r#"<p class="event">{}</p>"#, esc(p.event));
    }
    let _ = writeln!(s, "<p>{}</p>", esc(&fill(w.entry_referee, &[&p.referee])));
    stage_line(&mut s, p);
    let _ = write!(
        s,
        r#"</header>
<main>
"#
    );
    stage_buttons(&mut s, p);
    let _ = write!(
        s,
        r#"<noscript><p class="msgs"><span class="error">{noscript}</span></p></noscript>
<form id="card" autocomplete="off" novalidate>
<ul class="msgs" id="m-top" aria-live="polite"></ul>
<section id="unsent" hidden>
<h2>{unsent}</h2>
<div id="unsent-list"></div>
</section>
<section class="where">
"#,
        noscript = esc(w.entry_no_script),
        unsent = esc(w.entry_unsent),
    );
    choice(&mut s, "session", w.entry_session, w.entry_pick, p.sessions);
    choice(&mut s, "table", w.entry_table, w.entry_pick, p.tables);
    let _ = write!(
        s,
        r#"</section>
<section class="players">
<h2>{players}</h2>
<p class="hint">{hint}</p>
"#,
        players = esc(w.entry_players),
        hint = esc(w.entry_seat_hint),
    );
    for &seat in p.seats {
        let seat = esc(&seat.to_string());
        let _ = write!(
            s,
            r#"<div class="player">
<label for="p-{seat}">{label}</label>
<input id="p-{seat}" data-seat="{seat}" data-keep autocapitalize="characters" autocorrect="off" spellcheck="false" enterkeyhint="next" aria-label="{aria}" aria-describedby="n-{seat}">
<span class="name" id="n-{seat}"></span>
<ul class="msgs" id="m-p-{seat}"></ul>
</div>
"#,
            label = esc(&fill(w.seat, &[&seat])),
            aria = esc(&fill(w.entry_player, &[&seat])),
        );
    }
    // (penalty points are never below 0: no minus to type, no ± button)
    let penalty = p.scoring == Scoring::PenaltyPoints;
    if !penalty {
        let _ = writeln!(s, r#"<p class="hint">{}</p>"#, esc(w.entry_sign_hint));
    }
    s.push_str("</section>\n");
    for game in 1..=p.games {
        let _ = write!(
            s,
            r#"<fieldset class="game" id="g{game}">
<legend>{legend}</legend>
<ul class="msgs" id="m-g{game}"></ul>
<div class="cols" aria-hidden="true"><span></span><span>{won}</span><span>{score}</span><span>{tiles}</span></div>
"#,
            legend = esc(&fill(w.game_n, &[&game])),
            won = esc(w.entry_won),
            score = esc(score_label),
            tiles = esc(w.entry_tiles),
        );
        for &seat in p.seats {
            let seat = esc(&seat.to_string());
            let id = |field: &str| format!("g{game}-{seat}-{field}");
            let aria = |label: &str| esc(&fill(w.entry_field, &[&game, &seat, &label]));
            let _ = write!(
                s,
                r#"<div class="row off" id="r-{game}-{seat}" data-seat="{seat}">
<span class="who" id="w-{game}-{seat}">{seat}</span>
<input id="{won_id}" data-keep inputmode="numeric" enterkeyhint="next" aria-label="{won_aria}" disabled>
<span class="signed"><input id="{score_id}" data-keep data-score inputmode="decimal" enterkeyhint="next" aria-label="{score_aria}" disabled>{sign}</span>
<input id="{tiles_id}" data-keep inputmode="numeric" enterkeyhint="next" aria-label="{tiles_aria}" disabled>
</div>
<ul class="msgs" id="m-g{game}-{seat}"></ul>
"#,
                won_id = id("won"),
                score_id = id("score"),
                tiles_id = id("tiles"),
                won_aria = aria(w.entry_won),
                score_aria = aria(score_label),
                tiles_aria = aria(w.entry_tiles),
                sign = if penalty {
                    String::new()
                } else {
                    format!(
                        r#"<button type="button" class="sign" data-for="{}" tabindex="-1" aria-label="{}" disabled>±</button>"#,
                        id("score"),
                        esc(w.entry_sign)
                    )
                },
            );
        }
        s.push_str("</fieldset>\n");
    }
    let data = json!({
        "stage": p.stage,
        "games": p.games,
        "seats": p.seats.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        "csrf": p.csrf,
        "words": {
            "send": w.entry_send,
            "send_checked": w.entry_send_checked,
            "send_errors": w.entry_send_errors,
            "sending": w.entry_sending,
            "checking": w.entry_checking,
            "not_checked": w.entry_not_checked,
            "check_status": w.entry_check_status,
            "stored": w.entry_stored,
            "same": w.entry_same,
            "waiting": w.entry_waiting,
            "conflict": w.entry_conflict,
            "problems": w.entry_problems,
            "denied": w.entry_denied,
            "too_large": w.entry_too_large,
            "too_many": w.entry_too_many,
            "server": w.entry_server,
            "offline": w.entry_offline,
            "card": w.entry_card,
            "error": w.entry_error,
            "warning": w.entry_warning,
            "note": w.entry_note,
            "says": w.entry_says,
            "player": w.entry_player_id,
            "game": w.game_n,
            "won": w.entry_won,
            "score": score_label,
            "tiles": w.entry_tiles,
            "seat": w.seat,
        },
    });
    let _ = write!(
        s,
        r#"<p class="hint">{kept}</p>
<div class="bar">
<p id="check" class="hint" aria-live="polite"></p>
<button id="send" type="submit">{send}</button>
<p id="status" role="status" aria-live="polite"></p>
</div>
<p><button id="new" type="button">{new_card}</button></p>
</form>
</main>
<script id="entry-data" type="application/json">{data}</script>
<script>
{JS}</script>
</body>
</html>
"#,
        send = esc(w.entry_send),
        kept = esc(w.entry_kept),
        new_card = esc(w.entry_new_card),
        data = json_for_script(&data),
    );
    s
}

/// Session or table: a list to pick from, or a text field when there is
/// none.
fn choice(s: &mut String, id: &str, label: &str, pick: &str, options: &[String]) {
    let _ = writeln!(s, r#"<label for="{id}">{}</label>"#, esc(label));
    if options.is_empty() {
        let mode = if id == "table" {
            r#" inputmode="numeric""#
        } else {
            ""
        };
        let _ = writeln!(
            s,
            r#"<input id="{id}" data-keep{mode} autocapitalize="characters" spellcheck="false" enterkeyhint="next">"#
        );
        return;
    }
    let _ = writeln!(
        s,
        r#"<select id="{id}" data-keep><option value="">{}</option>"#,
        esc(pick)
    );
    for o in options {
        let o = esc(o);
        let _ = writeln!(s, r#"<option value="{o}">{o}</option>"#);
    }
    s.push_str("</select>\n");
}

/// The page's styles: a phone first, a wider screen centred.
const CSS: &str = r#":root { --fg: #1d1d1f; --bg: #fff; --muted: #5f6368; --line: #c9ced6; --head: #12355b;
  --err: #b00020; --errbg: #fdecee; --warn: #d89b00; --warnbg: #fff4d6; --ok: #1b6e2e; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; scroll-padding-bottom: 7rem; }
body {
  margin: 0; color: var(--fg); background: var(--bg);
  font: 17px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK TC",
    "PingFang TC", "Microsoft JhengHei", sans-serif;
}
header.top { background: var(--head); color: #fff; padding: .5rem .75rem; }
header.top h1 { font-size: 1.15rem; margin: 0; }
header.top p { margin: .1rem 0 0; font-size: .95rem; overflow-wrap: anywhere; }
header.top p.event { font-weight: 600; }
main { max-width: 40rem; margin: 0 auto; padding: .25rem .75rem 1rem; }
h2 { font-size: 1.05rem; margin: 1rem 0 .3rem; }
nav.stages { margin: .6rem 0 .2rem; padding: .5rem .6rem; border: 1px solid var(--line); border-radius: 8px; background: #f4f7fb; }
nav.stages h2 { margin: 0 0 .3rem; font-size: .95rem; color: var(--muted); }
nav.stages a { display: flex; align-items: center; justify-content: center; min-height: 48px; margin: .3rem 0 0; padding: .3rem .8rem;
  border: 2px solid var(--head); border-radius: 8px; background: #fff; color: var(--head); font-weight: 700; text-decoration: none; text-align: center; }
nav.stages a::after { content: " \2192"; white-space: pre; }
label { font-weight: 600; }
input, select, button { font: inherit; font-size: 1.15rem; color: inherit; }
input, select {
  width: 100%; min-width: 0; min-height: 48px; padding: .3rem .5rem;
  border: 1px solid #8a94a6; border-radius: 6px; background: #fff;
}
input:disabled { background: #f1f3f6; }
input:focus, select:focus, button:focus { outline: 3px solid #3b7ddd; outline-offset: 1px; }
.where { display: grid; grid-template-columns: 1fr 1fr; gap: .2rem .6rem; align-items: end; margin-top: .6rem; }
.where label { grid-row: 1; }
.player { display: grid; grid-template-columns: 4.6rem minmax(0, 1fr); gap: .1rem .5rem; align-items: center; margin: .4rem 0; }
.player .name { grid-column: 2; color: var(--muted); font-size: .95rem; overflow-wrap: anywhere; }
.player .name:empty { display: none; }
.player .msgs { grid-column: 1 / -1; }
fieldset.game { border: 1px solid var(--line); border-radius: 8px; margin: 1rem 0; padding: .2rem .5rem .5rem; min-width: 0; }
legend { font-weight: 700; padding: 0 .3rem; }
.row, .cols { display: grid; grid-template-columns: 3.8rem 3.2rem minmax(0, 1fr) 3.6rem; gap: .35rem; align-items: center; }
.cols { font-size: .78rem; line-height: 1.15; color: var(--muted); font-weight: 600; margin-top: .2rem; }
.row { margin: .35rem 0 0; }
.row.off { opacity: .45; }
.who { font-weight: 700; font-size: .85rem; line-height: 1.15; overflow-wrap: anywhere; }
.signed { display: flex; gap: .25rem; min-width: 0; }
.signed input { flex: 1 1 auto; }
button.sign { flex: 0 0 48px; min-height: 48px; padding: 0; border: 1px solid #8a94a6; border-radius: 6px; background: #eef1f6; font-weight: 700; }
input.error { border: 2px solid var(--err); background: var(--errbg); }
input.warning { border: 2px solid var(--warn); }
.msgs { margin: .2rem 0 0; padding: 0; list-style: none; }
.msgs:empty { display: none; }
.msgs li, .msgs span { display: block; margin: .2rem 0; padding: .3rem .5rem; border-left: 4px solid #8a94a6; background: #f1f4f8; font-size: .95rem; overflow-wrap: anywhere; }
.msgs .error { border-color: var(--err); background: var(--errbg); }
.msgs .warning { border-color: var(--warn); background: var(--warnbg); }
.hint { color: var(--muted); font-size: .9rem; margin: .25rem 0; }
#unsent-list button, #new { min-height: 44px; margin: .2rem .3rem .2rem 0; padding: .2rem .8rem; border: 1px solid #8a94a6; border-radius: 6px; background: #eef1f6; font-size: 1rem; }
.bar { position: sticky; bottom: 0; background: var(--bg); border-top: 1px solid var(--line); padding: .4rem 0 calc(.4rem + env(safe-area-inset-bottom)); }
.bar .hint { margin: 0 0 .3rem; }
#check:empty, #status:empty { display: none; }
#send { width: 100%; min-height: 56px; border: 0; border-radius: 8px; background: var(--head); color: #fff; font-weight: 700; }
#send.errors { background: var(--err); }
#send:disabled { opacity: .6; }
#status { margin: .4rem 0 0; font-weight: 600; overflow-wrap: anywhere; white-space: pre-line; }
#status.ok { color: var(--ok); }
#status.bad { color: var(--err); }
"#;

/// The page's script: layout, the CSV card, saving, posting and showing
/// the server's answers. It checks no rule.
const JS: &str = r#"(function () {
'use strict';
var cfg = JSON.parse(document.getElementById('entry-data').textContent);
var W = cfg.words, SEATS = cfg.seats, FIELDS = ['won', 'score', 'tiles'];
var PREFIX = 'tilerank-entry:', LAST = 'tilerank-entry-last';
function $(id) { return document.getElementById(id); }
var form = $('card'), sessionEl = $('session'), tableEl = $('table');
var sendEl = $('send'), statusEl = $('status'), checkEl = $('check');

function fill(word) {
  var args = Array.prototype.slice.call(arguments, 1), i = 0;
  return word.replace(/\{\}/g, function () { return i < args.length ? String(args[i++]) : ''; });
}
function val(el) { return el ? el.value.trim() : ''; }
function each(list, f) { Array.prototype.forEach.call(list, f); }
function kept() { return form.querySelectorAll('[data-keep]'); }

/* Typing: full-width digits, signs and point as ASCII; in a score, every - turns the sign. */
function narrow(s) {
  return s.replace(/[\uFF10-\uFF19\uFF0B\uFF0D\uFF0E\u2212]/g, function (c) {
    return c === '\u2212' ? '-' : String.fromCharCode(c.charCodeAt(0) - 0xFEE0);
  });
}
function signed(s) {
  s = narrow(s);
  var minus = (s.match(/-/g) || []).length;
  if (!minus) return s;
  var rest = s.replace(/-/g, '').replace(/^\s*\+/, '');
  return (minus % 2 ? '-' : '') + rest.replace(/^\s+/, '');
}
function turn(el) {
  var v = el.value.trim();
  el.value = v.charAt(0) === '-' ? v.slice(1) : v.charAt(0) === '+' ? '-' + v.slice(1) : '-' + v;
}
function setValue(el, v) {
  if (el.value === v) return;
  el.value = v;
  if (el === document.activeElement) el.setSelectionRange(v.length, v.length);
}

/* Layout: a seat without a player has its game rows off. */
function seats() {
  SEATS.forEach(function (seat) {
    var id = val($('p-' + seat)), name = $('n-' + seat);
    if (name.dataset.id !== id) { name.textContent = ''; name.dataset.id = ''; }
    for (var g = 1; g <= cfg.games; g++) {
      var row = $('r-' + g + '-' + seat);
      row.classList.toggle('off', !id);
      each(row.querySelectorAll('input, button'), function (el) { el.disabled = !id; });
      $('w-' + g + '-' + seat).textContent = id ? seat + ' ' + id : seat;
    }
  });
}

/* The card. */
function quote(v) { return /[",\r\n]/.test(v) ? '"' + v.replace(/"/g, '""') + '"' : v; }
function csv() {
  var lines = ['stage,session,table,game,seat,player,won,score,tiles'];
  for (var g = 1; g <= cfg.games; g++) {
    SEATS.forEach(function (seat) {
      var player = val($('p-' + seat));
      if (!player) return;
      var cell = function (f) { return val($('g' + g + '-' + seat + '-' + f)); };
      lines.push([cfg.stage, val(sessionEl), val(tableEl), String(g), seat, player,
        cell('won'), cell('score'), cell('tiles')].map(quote).join(','));
    });
  }
  return lines.join('\n') + '\n';
}
function typed() {
  var any = false;
  each(kept(), function (el) { if (el !== sessionEl && el !== tableEl && val(el)) any = true; });
  return any;
}

/* Saving on this phone. */
function keyOf(session, table) { return PREFIX + JSON.stringify([cfg.stage, session, table]); }
function draftKey() { return keyOf(val(sessionEl), val(tableEl)); }
var current = null;
function storage(f) { try { return f(window.localStorage); } catch (e) { return null; } }
function load(key) {
  return storage(function (ls) { var t = key && ls.getItem(key); return t ? JSON.parse(t) : null; });
}
function restore(d) { each(kept(), function (el) { el.value = d[el.id] || ''; }); }
function save() {
  var key = draftKey(), d = {};
  each(kept(), function (el) { if (el.value) d[el.id] = el.value; });
  storage(function (ls) {
    if (current && current !== key) ls.removeItem(current);
    if (typed()) { ls.setItem(key, JSON.stringify(d)); ls.setItem(LAST, key); current = key; }
    else { ls.removeItem(key); current = null; }
  });
  unsent();
}
function forget(key) {
  storage(function (ls) { ls.removeItem(key); });
  if (current === key) current = null;
  unsent();
}
function unsent() {
  var list = $('unsent-list'), keys = [];
  storage(function (ls) {
    for (var i = 0; i < ls.length; i++) {
      var k = ls.key(i);
      if (k.indexOf(PREFIX) === 0 && k !== current) keys.push(k);
    }
  });
  keys.sort();
  list.textContent = '';
  keys.forEach(function (k) {
    var where;
    try { where = JSON.parse(k.slice(PREFIX.length)); } catch (e) { return; }
    if (where[0] !== cfg.stage) return;
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = fill(W.card, where[1], where[2]);
    b.addEventListener('click', function () { open(k); });
    list.appendChild(b);
  });
  $('unsent').hidden = !list.firstChild;
}
function open(key) {
  var d = load(key);
  if (!d) return;
  restore(d);
  current = key;
  storage(function (ls) { ls.setItem(LAST, key); });
  fresh();
}
function fresh() {
  seats(); show([], null); say('', ''); sendLabel(null); unsent();
  if (typed()) check();
}

/* Showing the server's problems and names. */
function slot(p) {
  var g = p.game, s = p.seat, f = p.field;
  if (g && s && $('m-g' + g + '-' + s)) return $('m-g' + g + '-' + s);
  if (g && $('m-g' + g)) return $('m-g' + g);
  if (s && $('m-p-' + s)) return $('m-p-' + s);
  return $('m-top');
}
function mark(p) {
  var cls = p.severity === 'error' ? 'error' : p.severity === 'warning' ? 'warning' : '';
  if (!cls || !p.field) return;
  var els = [];
  if (p.field === 'player') { if (p.seat) els.push($('p-' + p.seat)); }
  else if (p.game) {
    (p.seat ? [p.seat] : SEATS).forEach(function (s) { els.push($('g' + p.game + '-' + s + '-' + p.field)); });
  } else if (p.seat) {
    for (var g = 1; g <= cfg.games; g++) els.push($('g' + g + '-' + p.seat + '-' + p.field));
  }
  els.forEach(function (el) {
    if (!el || el.disabled || el.classList.contains('error')) return;
    el.classList.add(cls);
    if (cls === 'error') el.setAttribute('aria-invalid', 'true');
  });
}
function show(problems, players) {
  each(form.querySelectorAll('ul.msgs'), function (ul) { ul.textContent = ''; });
  each(form.querySelectorAll('input.error, input.warning'), function (el) {
    el.classList.remove('error', 'warning'); el.removeAttribute('aria-invalid');
  });
  var errors = 0;
  (problems || []).forEach(function (p) {
    var sev = p.severity === 'error' || p.severity === 'warning' ? p.severity : 'note';
    if (sev === 'error') errors++;
    var li = document.createElement('li'), where = [], at = slot(p);
    li.className = sev;
    if (p.game && at.id.indexOf('m-g' + p.game) !== 0) where.push(fill(W.game, p.game));
    if (p.seat && at.id !== 'm-g' + p.game + '-' + p.seat && at.id !== 'm-p-' + p.seat) where.push(fill(W.seat, p.seat));
    if (p.field && W[p.field]) where.push(W[p.field]);
    li.textContent = [W[sev]].concat(where).reduceRight(function (text, label) {
      return fill(W.says, label, text);
    }, p.message || '');
    at.appendChild(li);
    mark(p);
  });
  if (players) {
    SEATS.forEach(function (seat) { var n = $('n-' + seat); n.textContent = ''; n.dataset.id = ''; });
    players.forEach(function (pl) {
      var n = pl && $('n-' + pl.seat);
      if (!n || val($('p-' + pl.seat)) !== pl.id) return;
      n.textContent = pl.name || '';
      n.dataset.id = pl.id;
    });
  }
  return errors;
}
function sendLabel(errors) {
  sendEl.textContent = errors === null ? W.send : errors ? fill(W.send_errors, errors) : W.send_checked;
  sendEl.classList.toggle('errors', !!errors);
}
function say(text, cls, extra) {
  statusEl.textContent = extra ? text + ' ' + extra : text;
  statusEl.className = cls || '';
}

/* Talking to the desk. */
function post(url, body) {
  return fetch(url, {
    method: 'POST', credentials: 'same-origin', cache: 'no-store',
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'X-CSRF-Token': cfg.csrf },
    body: body
  }).then(function (r) {
    return r.text().then(function (t) {
      var j = {};
      try { j = JSON.parse(t) || {}; } catch (e) { j = {}; }
      return { status: r.status, json: j };
    });
  });
}
var timer = 0, seq = 0;
function later() { clearTimeout(timer); timer = setTimeout(check, 300); }
function check() {
  clearTimeout(timer);
  var n = ++seq;
  if (!typed()) { show([], []); sendLabel(null); checkEl.textContent = ''; return; }
  checkEl.textContent = W.checking;
  post('api/check', csv()).then(function (a) {
    if (n !== seq) return;
    var j = a.json;
    if (a.status === 200) {
      checkEl.textContent = '';
      var errors = show(j.problems, j.players || []);
      sendLabel(j.ok && !errors ? 0 : errors || null);
    } else if (a.status === 401 || a.status === 403) {
      checkEl.textContent = '';
      say(W.denied, 'bad', j.message);
    } else {
      /* the desk's words, when it says why: what to do */
      checkEl.textContent = fill(W.check_status, a.status) + (j.message ? ' ' + j.message : '');
    }
  }, function () { if (n === seq) checkEl.textContent = W.not_checked; });
}
var pending = false, sending = false;
function send() {
  if (sending) return;
  var body = csv(), key = current || draftKey();
  clearTimeout(timer); seq++;
  checkEl.textContent = '';
  sending = true; sendEl.disabled = true;
  say(W.sending, '');
  post('api/cards', body).then(function (a) {
    sending = false; sendEl.disabled = false; pending = false;
    var st = a.status, j = a.json, card = j.card || fill(W.card, val(sessionEl), val(tableEl));
    if (st === 201 || st === 200 || st === 202) {
      if (csv() === body) forget(key);
      var errors = show(j.problems, null);
      sendLabel(errors);
      say(fill(st === 201 ? W.stored : st === 200 ? W.same : W.waiting, card), 'ok');
    } else if (st === 409) {
      say(j.message || fill(W.conflict, card), 'bad');
    } else if (st === 422) {
      sendLabel(show(j.problems, null) || null);
      say(W.problems, 'bad', j.message);
    } else if (st === 401 || st === 403) {
      say(W.denied, 'bad', j.message);
    } else if (st === 413) {
      say(W.too_large, 'bad', j.message);
    } else if (st === 429) {
      say(W.too_many, 'bad');
    } else {
      say(fill(W.server, st), 'bad', j.message);
    }
    statusEl.scrollIntoView({ block: 'nearest' });
  }, function () {
    sending = false; sendEl.disabled = false; pending = true;
    say(W.offline, 'bad');
  });
}

/* Events. */
form.addEventListener('input', function (e) {
  var el = e.target;
  if (el.hasAttribute('data-score')) setValue(el, signed(el.value));
  else if (el.inputMode === 'numeric') setValue(el, narrow(el.value));
  if ((el === sessionEl || el === tableEl) && !typed()) {
    var d = load(draftKey());
    if (d) { open(draftKey()); return; }
  }
  if (el.id.indexOf('p-') === 0) seats();
  save();
  later();
});
form.addEventListener('mousedown', function (e) {
  if (e.target.closest && e.target.closest('button.sign')) e.preventDefault();
});
form.addEventListener('click', function (e) {
  var b = e.target.closest && e.target.closest('button.sign');
  if (!b) return;
  var el = $(b.dataset.for);
  turn(el);
  el.focus();
  save();
  later();
});
form.addEventListener('keydown', function (e) {
  if (e.key !== 'Enter' || !e.target.matches('input, select')) return;
  e.preventDefault();
  var all = Array.prototype.filter.call(form.querySelectorAll('input, select, #send'), function (el) {
    return !el.disabled && el.tabIndex >= 0;
  });
  var i = all.indexOf(e.target);
  if (i >= 0 && i + 1 < all.length) all[i + 1].focus();
});
form.addEventListener('submit', function (e) { e.preventDefault(); send(); });
$('new').addEventListener('click', function () {
  var session = sessionEl.value;
  restore({});
  sessionEl.value = session;
  current = null;
  fresh();
  $('p-' + SEATS[0]).focus();
});
window.addEventListener('online', function () { if (pending) send(); });

/* Back where the referee was. */
var last = storage(function (ls) { return ls.getItem(LAST); });
if (last && load(last)) open(last); else fresh();
})();
"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn sample<'a>(
        lang: Lang,
        event: &'a str,
        referee: &'a str,
        sessions: &'a [String],
        tables: &'a [String],
    ) -> EntryPage<'a> {
        EntryPage {
            lang,
            event,
            referee,
            stage: "prelim",
            stages: &[],
            sessions,
            tables,
            games: 3,
            scoring: Scoring::ZeroSum,
            seats: &['A', 'B', 'C', 'D'],
            csrf: "tok-123_abc",
        }
    }

    fn labels(from: &str, to: usize) -> Vec<String> {
        (1..=to).map(|n| format!("{from}{n:02}")).collect()
    }

    #[test]
    fn names_from_the_event_are_escaped() {
        let sessions = vec!["S<1>".to_string()];
        let tables = vec!["7\"".to_string()];
        let html = page(&sample(
            Lang::En,
            "Open <script>alert(1)</script> & Co",
            "<script>x()</script> O'Neil",
            &sessions,
            &tables,
        ));
        assert!(!html.contains("<script>alert"), "event name unescaped");
        assert!(!html.contains("<script>x()"), "referee name unescaped");
        assert!(html.contains("Open &lt;script&gt;alert(1)&lt;/script&gt; &amp; Co"));
        assert!(html.contains("Referee: &lt;script&gt;x()&lt;/script&gt; O&#39;Neil"));
        assert!(html.contains(r#"<option value="S&lt;1&gt;">S&lt;1&gt;</option>"#));
        assert!(html.contains(r#"<option value="7&quot;">7&quot;</option>"#));
        // only the page's own two scripts open, and each closes once
        assert_eq!(html.matches("<script").count(), 2);
        assert_eq!(html.matches("</script>").count(), 2);
    }

    #[test]
    fn the_token_reaches_the_script_and_a_hostile_token_cannot_end_it() {
        let html = page(&sample(Lang::En, "E", "Ann", &[], &[]));
        assert!(html.contains(r#""csrf":"tok-123_abc""#), "{html}");
        assert!(html.contains("'X-CSRF-Token': cfg.csrf"));
        let mut p = sample(Lang::En, "E", "Ann", &[], &[]);
        p.csrf = "</script><b>";
        let html = page(&p);
        assert_eq!(html.matches("</script>").count(), 2);
        assert!(html.contains(r#""csrf":"\u003c/script\u003e\u003cb\u003e""#));
    }

    #[test]
    fn every_game_has_won_score_and_tiles_for_every_seat() {
        let sessions = labels("S", 10);
        let tables: Vec<String> = (1..=50).map(|n| n.to_string()).collect();
        let html = page(&sample(Lang::En, "HK Open", "Ann Lee", &sessions, &tables));
        for seat in ['A', 'B', 'C', 'D'] {
            assert_eq!(html.matches(&format!(r#"<input id="p-{seat}""#)).count(), 1);
            for game in 1..=3 {
                for field in ["won", "score", "tiles"] {
                    let id = format!(r#"<input id="g{game}-{seat}-{field}" data-keep"#);
                    assert_eq!(html.matches(&id).count(), 1, "{id}");
                }
                assert!(html.contains(&format!(r#"data-for="g{game}-{seat}-score""#)));
            }
        }
        assert!(!html.contains("g4-A-won"), "three games only");
        assert_eq!(html.matches(r#"inputmode="numeric""#).count(), 24);
        assert_eq!(html.matches(r#"inputmode="decimal""#).count(), 12);
        assert_eq!(html.matches("<option value=").count(), 1 + 10 + 1 + 50);
        assert!(html.contains(r#"<option value="S10">S10</option>"#));
        assert!(html.contains(r#"<option value="50">50</option>"#));
        // a two-game card with three seats
        let mut p = sample(Lang::En, "", "Ann", &[], &[]);
        p.games = 2;
        p.seats = &['A', 'B', 'C'];
        let html = page(&p);
        assert_eq!(html.matches(r#"data-score inputmode"#).count(), 6);
        assert!(!html.contains("p-D") && !html.contains("g3-"));
        // no lists: text fields, the table's numeric
        assert!(html.contains(r#"<input id="session" data-keep autocapitalize"#));
        assert!(html.contains(r#"<input id="table" data-keep inputmode="numeric""#));
        assert!(!html.contains("<select"));
        assert!(html.contains("<title>Score card entry</title>"));
    }

    /// A score has a decimal point (a pot shared by two or three: 27.5,
    /// 13.67) and its sign from the ± button; won and tiles left are
    /// whole numbers.
    #[test]
    fn a_score_opens_the_decimal_keyboard_won_and_tiles_the_numeric() {
        let html = page(&sample(Lang::En, "HK", "Ann", &[], &[]));
        for game in 1..=3 {
            for seat in ['A', 'B', 'C', 'D'] {
                let input = |field: &str| {
                    let at = html
                        .find(&format!(r#"<input id="g{game}-{seat}-{field}""#))
                        .unwrap();
                    html[at..at + html[at..].find('>').unwrap()].to_string()
                };
                for field in ["won", "tiles"] {
                    assert!(
                        input(field).contains(r#" inputmode="numeric" "#),
                        "{}",
                        input(field)
                    );
                }
                let score = input("score");
                assert!(score.contains(r#" inputmode="decimal" "#), "{score}");
                assert!(!score.contains("pattern="), "{score}");
                assert!(html.contains(&format!(
                    r#"{score}><button type="button" class="sign" data-for="g{game}-{seat}-score""#
                )));
            }
        }
        // the script reads a full-width point as a point
        assert!(JS.contains(r"\uFF0E"));
    }

    #[test]
    fn the_page_speaks_english_or_traditional_chinese() {
        let sessions = labels("S", 2);
        let en = page(&sample(Lang::En, "HK", "Ann", &sessions, &[]));
        let zh = page(&sample(Lang::ZhHant, "HK", "Ann", &sessions, &[]));
        assert!(en.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
        assert!(zh.starts_with("<!DOCTYPE html>\n<html lang=\"zh-Hant\">"));
        for (html, w) in [
            (&en, &crate::report::words::EN),
            (&zh, &crate::report::words::ZH_HANT),
        ] {
            for word in [
                w.entry_title,
                w.entry_send,
                w.entry_won,
                w.entry_tiles,
                w.entry_kept,
            ] {
                assert!(html.contains(&esc(word)), "{word}");
            }
        }
        assert!(zh.contains("第 2 局") && zh.contains("階段：初賽") && zh.contains("裁判：Ann"));
        assert!(en.contains("Game 2") && en.contains("Stage: prelim"));
        assert!(!zh.contains("Send card") && !en.contains("提交"));
        // the script's words are the page's language
        assert!(zh.contains(r#""stored":"已儲存：{}。""#));
        assert!(en.contains(r#""stored":"Stored: {}.""#));
    }

    /// A referee at a final table finds the final's form at once: a
    /// button of its own above the card, in the page's language.
    #[test]
    fn each_other_stage_has_a_button_above_the_card() {
        let stages = ["prelim".to_string(), "final".to_string()];
        let mut p = sample(Lang::En, "HK", "Ann", &[], &[]);
        p.stages = &stages;
        let html = page(&p);
        let nav = r#"<nav class="stages" aria-labelledby="stages-h"><h2 id="stages-h">Cards of another stage</h2>
<a href="/entry?stage=final">Enter final cards</a>
</nav>
"#;
        assert!(html.contains(nav), "{html}");
        assert!(html.find(nav) < html.find("<form id=\"card\""));
        assert!(html.contains("<p>Stage: prelim</p>"), "{html}");
        assert!(!html.contains("?stage=prelim"), "not the stage it is");
        p.lang = Lang::ZhHant;
        let html = page(&p);
        assert!(
            html.contains(
                r#"<h2 id="stages-h">其他階段的計分卡</h2>
<a href="/entry?stage=final">輸入決賽計分卡</a>"#
            ),
            "{html}"
        );
        assert!(html.contains("<p>階段：初賽</p>"), "{html}");
        // the final's page: a button back to the prelim's
        p.stage = "final";
        let html = page(&p);
        assert!(html.contains(r#"<a href="/entry?stage=prelim">輸入初賽計分卡</a>"#));
        // one stage: no buttons
        let html = page(&sample(Lang::En, "HK", "Ann", &[], &[]));
        assert!(!html.contains("<nav") && html.contains("<p>Stage: prelim</p>"));
    }

    /// Under penalty points (gwinnett) a score is labelled as what it is,
    /// in both languages; zero-sum events keep "Score (+/-)".
    #[test]
    fn a_penalty_points_event_labels_its_scores_penalty_points() {
        for (lang, score, penalty) in [
            (Lang::En, "Score (+/-)", "Penalty points"),
            (Lang::ZhHant, "得分 (+/-)", "罰分"),
        ] {
            let zero_sum = page(&sample(lang, "HK", "Ann", &[], &[]));
            let gwinnett = page(&EntryPage {
                scoring: Scoring::PenaltyPoints,
                ..sample(lang, "GW", "Ann", &[], &[])
            });
            let column = |label: &str| format!("<span>{}</span>", esc(label));
            assert!(zero_sum.contains(&column(score)), "{lang}");
            assert!(!zero_sum.contains(penalty), "{lang}");
            assert!(gwinnett.contains(&column(penalty)), "{lang}");
            assert!(!gwinnett.contains(&esc(score)), "{lang}");
            // the field's spoken label and the script's words too
            assert!(
                gwinnett.contains(&format!("\"score\":\"{penalty}\"")),
                "{lang}"
            );
            // no minus to type: no ± button, no word on signs
            let words = lang.words();
            assert!(
                zero_sum.contains("±</button>") && !gwinnett.contains("±"),
                "{lang}"
            );
            assert!(zero_sum.contains(&esc(words.entry_sign_hint)), "{lang}");
            assert!(!gwinnett.contains(&esc(words.entry_sign_hint)), "{lang}");
        }
    }

    /// A check the desk cannot make (an error of the event, 500 or 503)
    /// shows what the answer says to do after its status, as a send does.
    #[test]
    fn a_check_the_desk_cannot_make_shows_what_to_do() {
        assert!(JS.contains("fill(W.check_status, a.status) + (j.message ? ' ' + j.message : '')"));
        assert!(JS.contains("say(fill(W.server, st), 'bad', j.message)"));
    }

    #[test]
    fn the_page_fetches_nothing_from_elsewhere() {
        let html = page(&sample(Lang::En, "HK", "Ann", &[], &[]));
        for outside in [
            "http://", "https://", "//", "src=", "href=", "@import", "url(",
        ] {
            assert!(!html.contains(outside), "{outside}");
        }
        assert!(html.contains("post('api/check'") && html.contains("post('api/cards'"));
        assert!(JS.contains("'stage,session,table,game,seat,player,won,score,tiles'"));
    }
}
