//! The site's own files: one stylesheet (screen, phones under 640 px,
//! the projector, print), one script (sortable columns, the search box,
//! the projector's scrolling), and the search index `players.js`.
//!
//! Nothing is fetched from anywhere: a page needs only these files, beside
//! it or one folder up, so the site works opened from disk.

use super::html::json_for_script;
use super::Context;

pub const CSS: &str = r#"/* tilerank results site */
:root { --fg: #1d1d1f; --bg: #fff; --muted: #5f6368; --line: #dde1e6; --head: #12355b; --th: #f1f4f8; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0; color: var(--fg); background: var(--bg);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK TC",
    "Noto Sans CJK SC", "PingFang TC", "Microsoft JhengHei", "WenQuanYi Micro Hei", sans-serif;
}
header.top {
  display: flex; flex-wrap: wrap; align-items: center; gap: .4rem 1rem;
  padding: .5rem 1rem; background: var(--head); color: #fff;
}
header.top a { color: #fff; }
.home { font-weight: 600; text-decoration: none; overflow-wrap: anywhere; }
nav a { margin-right: .8rem; }
form.search { position: relative; margin-left: auto; flex: 1 1 14rem; max-width: 24rem; }
form.search label { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
#q { width: 100%; padding: .4rem .6rem; font: inherit; border: 1px solid #8a94a6; border-radius: 4px; }
#results {
  position: absolute; z-index: 10; left: 0; right: 0; margin: .2rem 0 0; padding: 0; list-style: none;
  background: #fff; color: var(--fg); border: 1px solid var(--line); border-radius: 4px;
  box-shadow: 0 4px 14px rgba(0, 0, 0, .25); max-height: 60vh; overflow-y: auto;
}
#results li { padding: .4rem .6rem; }
#results li a { display: block; margin: -.4rem -.6rem; padding: .4rem .6rem; color: var(--fg); text-decoration: none; }
#results li a:hover, #results li a:focus { background: #e8eefc; }
main { max-width: 72rem; margin: 0 auto; padding: .5rem 1rem 2rem; }
h1 { font-size: 1.45rem; margin: .8rem 0 .3rem; overflow-wrap: anywhere; }
h2 { font-size: 1.1rem; margin: 1.6rem 0 .4rem; overflow-wrap: anywhere; }
.meta, .notes, .empty { color: var(--muted); }
.notes { font-size: .9rem; padding-left: 1.2rem; }
.warn { background: #fff4d6; border-left: 4px solid #d89b00; padding: .45rem .7rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
.wrap { max-width: 100%; overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: .3rem .45rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
td { overflow-wrap: break-word; }
th { background: var(--th); }
th button { font: inherit; font-weight: 600; color: inherit; background: none; border: 0; padding: 0; cursor: pointer; text-align: inherit; }
th[aria-sort=ascending] button::after { content: " \25B2"; }
th[aria-sort=descending] button::after { content: " \25BC"; }
th[data-kind=num] { text-align: right; }
td { font-variant-numeric: tabular-nums; }
tbody tr:nth-child(even) { background: #fafbfc; }
td.tables a { display: inline-block; min-width: 1.8em; }
ul.pages li { margin: .2rem 0; }
form.search.find { margin: .6rem 0 .8rem; max-width: 28rem; }
form.search.find label { position: static; width: auto; height: auto; clip: auto; display: block; font-weight: 600; margin-bottom: .25rem; }
form.search.find #q { padding: .6rem .7rem; font-size: 1.1rem; border: 2px solid var(--head); border-radius: 6px; }
.state { font-size: 1.05rem; }
section.answer { border: 1px solid var(--line); border-radius: 8px; padding: .3rem .9rem .6rem; margin: .8rem 0; }
section.answer h2 { font-size: 1rem; margin: .4rem 0 .2rem; }
.rank { font-size: 1.6rem; font-weight: 700; margin: .2rem 0; }
.status { font-size: 1.1rem; font-weight: 600; margin: .2rem 0; }
dl.stats { display: flex; flex-wrap: wrap; gap: .3rem 1.4rem; margin: .5rem 0 0; }
dl.stats dt { color: var(--muted); font-size: .85rem; }
dl.stats dd { margin: 0; font-size: 1.25rem; font-weight: 600; font-variant-numeric: tabular-nums; }
ol.cards { list-style: none; padding: 0; margin: 0; display: grid; gap: .6rem; grid-template-columns: repeat(auto-fill, minmax(17rem, 1fr)); }
li.card { border: 1px solid var(--line); border-radius: 8px; padding: .4rem .7rem; min-width: 0; }
li.card p { margin: .15rem 0; }
li.card .where { font-weight: 600; }
ul.games { list-style: none; padding: 0; margin: .4rem 0 0; border-top: 1px solid var(--line); }
ul.games li { padding: .15rem 0 .15rem .5rem; border-left: 4px solid transparent; font-variant-numeric: tabular-nums; }
ul.games li.won { border-left-color: #1b7f3b; }
ul.games strong { color: #1b6e33; }
ul.others { list-style: none; padding: 0; margin: .1rem 0 0; }
ul.others li { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
p.others { color: var(--muted); font-size: .9rem; }
/* The index's "cards in" and "missing" tables: a stage, a session and the
   headers stay on one line (a phone otherwise stacks 初賽 one character
   per line); the table numbers wrap. */
table.imported th, table.imported td:not(.tables) { white-space: nowrap; }
footer { color: var(--muted); font-size: .85rem; padding: 1rem; text-align: center; }
@media (max-width: 640px) {
  body { font-size: 14px; }
  header.top { padding: .4rem .5rem; }
  form.search { max-width: none; flex-basis: 100%; }
  main { padding: .25rem .5rem 1.5rem; }
  th, td { padding: .25rem .3rem; }
  .opt { display: none; }
}
body.projector header.top, body.projector footer { display: none; }
/* The hall's screen: large type, compact rows, 15 players and more on
   1280×720. A phone keeps the ordinary layout. */
@media screen and (min-width: 900px) {
  body.projector { font-size: 26px; line-height: 1.2; }
  body.projector main { max-width: none; padding: .2rem 1rem; }
  body.projector h1 { font-size: 1.5rem; margin: .2rem 0; }
  body.projector h2 { font-size: 1.2rem; margin: .3rem 0; }
  body.projector th, body.projector td { padding: .08rem .5rem; }
  body.projector td:nth-child(2) { white-space: nowrap; max-width: 18em; overflow: hidden; text-overflow: ellipsis; }
  body.projector tbody tr:nth-child(even) { background: #eef2f7; }
  body.projector .same { font-size: 1rem; margin: .2rem 0; }
}
@media print {
  header.top, footer, #results { display: none !important; }
  body { font-size: 10pt; color: #000; background: #fff; }
  main { max-width: none; padding: 0; }
  .opt { display: table-cell !important; }
  a { color: inherit; text-decoration: none; }
  th { background: none; border-bottom: 2px solid #000; }
  th button::after { content: "" !important; }
  thead { display: table-header-group; }
  tr { break-inside: avoid; }
  tbody tr:nth-child(even) { background: none; }
  .wrap { overflow: visible; }
}
"#;

pub const JS: &str = r#"// tilerank results site: sortable columns, the search box, the projector.
(function () {
  'use strict';
  var root = document.body.getAttribute('data-root') || '';
  var params = new URLSearchParams(location.search);

  // Sortable columns: a header's button sorts by its column; numbers by
  // their data-v (scores by their exact order), empty cells last.
  function cellKey(td, num) {
    if (!td) return null;
    if (num) {
      var v = td.getAttribute('data-v');
      if (v === null) v = td.textContent;
      return v === '' ? null : Number(v);
    }
    var t = td.textContent;
    return t === '' ? null : t;
  }
  function sortBy(table, col, dir) {
    var th = table.tHead.rows[0].cells[col];
    var num = th.getAttribute('data-kind') === 'num';
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellKey(a.cells[col], num), y = cellKey(b.cells[col], num);
      if (x === null) return y === null ? 0 : 1;
      if (y === null) return -1;
      var c = num ? x - y : x.localeCompare(y);
      return c * dir;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  var tables = document.querySelectorAll('table.sortable');
  Array.prototype.forEach.call(tables, function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      var button = th.querySelector('button');
      if (!button) return;
      button.addEventListener('click', function () {
        sortBy(table, col, th.getAttribute('aria-sort') === 'ascending' ? -1 : 1);
      });
    });
  });
  // ?sort=COLUMN (or -COLUMN for descending), on ?table=ID or the first table.
  var sort = params.get('sort');
  if (sort && tables.length) {
    var target = params.get('table') ? document.getElementById(params.get('table')) : tables[0];
    var dir = sort.charAt(0) === '-' ? -1 : 1;
    var name = sort.replace(/^[-+]/, '');
    if (target && target.tHead) {
      Array.prototype.forEach.call(target.tHead.rows[0].cells, function (th, col) {
        if (th.getAttribute('data-name') === name) sortBy(target, col, dir);
      });
    }
  }

  // The search boxes: id, name or Chinese name, as they type; ?q= fills
  // them. Each box lists what it finds in the list beside it.
  var players = window.TILERANK_PLAYERS || [];
  function norm(s) { return String(s).toLowerCase().replace(/\s+/g, ''); }
  var keys = players.map(function (p) { return norm(p[0]) + '\u0000' + norm(p[1]); });
  function search(list, q) {
    var n = norm(q);
    while (list.firstChild) list.removeChild(list.firstChild);
    if (!n) { list.hidden = true; return; }
    var found = 0;
    for (var i = 0; i < players.length && found < 50; i++) {
      if (keys[i].indexOf(n) < 0) continue;
      var p = players[i];
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = root + p[3];
      a.textContent = p[0] + ' ' + p[1] + (p[2] ? ' (' + p[2] + ')' : '');
      li.appendChild(a);
      list.appendChild(li);
      found++;
    }
    if (!found) {
      var none = document.createElement('li');
      none.textContent = list.getAttribute('data-none') || '';
      list.appendChild(none);
    }
    list.hidden = false;
  }
  Array.prototype.forEach.call(document.querySelectorAll('form[role=search]'), function (form) {
    var input = form.querySelector('input');
    var list = form.querySelector('ul');
    if (!input || !list) return;
    input.addEventListener('input', function () { search(list, input.value); });
    input.addEventListener('keydown', function (e) {
      if (e.key === 'Enter') {
        var first = list.querySelector('a');
        if (first) { e.preventDefault(); location.href = first.href; }
      } else if (e.key === 'Escape') {
        input.value = ''; search(list, '');
      }
    });
    var q = params.get('q');
    if (q) { input.value = q; search(list, q); }
  });

  // The projector: scroll down slowly, then reload for the latest results.
  if (document.body.classList.contains('projector')) {
    var atEnd = function () {
      return window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
    };
    var step = function () {
      if (atEnd()) { setTimeout(function () { location.reload(); }, 15000); return; }
      window.scrollBy(0, 2);
      setTimeout(step, 50);
    };
    setTimeout(step, 8000);
  }

  // Served live (tilerank serve): the page reloads within seconds of a new
  // card, scrolled where it was (not while a field is being typed in). A
  // site opened from disk, or put on another host, has no /api/version:
  // the first answer that is not one stops the asking.
  if (/^https?:$/.test(location.protocol) && window.fetch && window.JSON) {
    var mark = 'tilerank-scroll:' + location.pathname;
    try {
      var y = sessionStorage.getItem(mark);
      if (y !== null) { sessionStorage.removeItem(mark); window.scrollTo(0, +y); }
    } catch (e) { /* no storage: start at the top */ }
    var seen = null;
    var poll = function () {
      fetch('/api/version', { cache: 'no-store' }).then(function (r) {
        if (!r.ok) throw new Error('not served live');
        return r.json();
      }).then(function (v) {
        var busy = document.activeElement && document.activeElement.tagName === 'INPUT';
        if (seen === null) {
          seen = v.version;
        } else if (v.version !== seen && !busy) {
          try { sessionStorage.setItem(mark, String(window.scrollY)); } catch (e) { /* top */ }
          location.reload();
          return;
        }
        setTimeout(poll, 3000);
      }).catch(function () { /* not served live: nothing to ask */ });
    };
    setTimeout(poll, 3000);
  }
})();
"#;

/// The search index: `[id, name, group, page]` for every player, as a
/// script (pages opened from disk cannot fetch a JSON file).
pub fn players_js(ctx: &Context) -> String {
    let players: Vec<[String; 4]> = ctx
        .event
        .roster
        .iter()
        .map(|(_, p)| {
            let page = ctx.players.get(&p.id).cloned().unwrap_or_default();
            let p = p.into_owned();
            [p.id, p.name, p.group.unwrap_or_default(), page]
        })
        .collect();
    format!(
        "// The players, for the search box: [id, name, group, page].\nwindow.TILERANK_PLAYERS = {};\n",
        json_for_script(&players)
    )
}
