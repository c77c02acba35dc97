//! HTML pieces every page shares: escaping, the page frame (head, header
//! with the search box, footer) and a report [`Table`] as an HTML table.
//!
//! Every text that can come from the input goes through [`esc`] (element
//! content and attribute values alike) or, inside a script, through
//! [`json_for_script`]. Nothing from the input is ever put into HTML any
//! other way.

use super::links::Links;
use super::words::{fill, Lang};
use crate::report::{Kind, Table, Value};
use crate::score::Score;
use std::collections::BTreeSet;
use std::fmt::Write;

/// Text as HTML: safe in element content and in quoted attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A value as JSON that can sit inside `<script>`: `<`, `>` and `&` are
/// written as `\u003c`... so that no `</script>` or `<!--` can end the
/// script early, and the JavaScript line breaks U+2028/U+2029 are escaped.
pub fn json_for_script<T: serde::Serialize + ?Sized>(value: &T) -> String {
    let json = serde_json::to_string(value).expect("plain data serializes");
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// What a page says about itself in its frame.
pub struct Frame<'a> {
    /// The event's name, on every page.
    pub event: &'a str,
    /// The page's own title (the event's name is added).
    pub title: &'a str,
    /// From the page to the site's root: `""` or `"../"`.
    pub root: &'a str,
    /// The `<body>` class: `page`, or `projector`.
    pub class: &'a str,
    pub lang: Lang,
}

/// The search box: a player by number or name as they type (`site.js`);
/// without scripts, the players' page. `class`: `search` in the header,
/// `search find` as the index's first thing.
pub fn search_form(root: &str, lang: Lang, class: &str) -> String {
    let w = lang.words();
    format!(
        r#"<form class="{class}" action="{root}players.html" role="search">
<label for="q">{find}</label>
<input id="q" name="q" type="search" placeholder="{hint}" autocomplete="off">
<ul id="results" hidden data-none="{none}"></ul>
</form>
"#,
        find = esc(w.find_player),
        hint = esc(w.search_hint),
        none = esc(w.no_match),
    )
}

/// A page's `<title>`, escaped: what it is, then the event's name (the
/// front page, whose title is the event's name, says it once).
pub fn title_of(title: &str, event: &str) -> String {
    if event.is_empty() || title == event {
        esc(title)
    } else {
        format!("{} · {}", esc(title), esc(event))
    }
}

/// A whole page around `body`.
pub fn page(frame: &Frame, body: &str) -> String {
    let Frame {
        event,
        title,
        root,
        class,
        lang,
    } = frame;
    let w = lang.words();
    let full_title = title_of(title, event);
    let mut s = String::with_capacity(body.len() + 2048);
    let _ = write!(
        s,
        r#"<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="tilerank">
<title>{full_title}</title>
<link rel="stylesheet" href="{root}site.css">
</head>
<body class="{class}" data-root="{root}">
<header class="top">
<a class="home" href="{root}index.html">{home}</a>
<nav>
<a href="{root}players.html">{players}</a>
<a href="{root}projector.html">{projector}</a>
</nav>
{search}</header>
<main>
"#,
        home = if event.is_empty() {
            esc(w.results)
        } else {
            esc(event)
        },
        lang = lang.tag(),
        players = esc(w.players),
        projector = esc(w.projector),
        // The index has the search box in its own body, first.
        search = if class.contains("index") {
            String::new()
        } else {
            search_form(root, *lang, "search")
        },
    );
    s.push_str(body);
    let _ = write!(
        s,
        r#"</main>
<footer>{written}{gap}<a href="{root}index.html">{index}</a></footer>
<script src="{root}players.js"></script>
<script src="{root}site.js"></script>
</body>
</html>
"#,
        written = esc(&fill(w.footer, &[&env!("CARGO_PKG_VERSION")])),
        gap = w.between_sentences,
        index = esc(w.index_link),
    );
    s
}

/// The notice `serve` puts on its pages while files with errors are left
/// out of them: each file, named as the import log names it
/// (as `shown_cell` names it), with its errors; empty when none is.
pub fn refused_notice(lang: Lang, files: &std::collections::BTreeMap<String, usize>) -> String {
    if files.is_empty() {
        return String::new();
    }
    let w = lang.words();
    let named: Vec<String> = files
        .iter()
        .map(|(file, &n)| {
            let file = shown_cell(lang, "file", file);
            match n {
                1 => fill(w.file_one_error, &[&file]),
                n => fill(w.file_n_errors, &[&file, &n]),
            }
        })
        .collect();
    format!(
        "<p class=\"warn refused\" id=\"refused\">{}</p>\n",
        esc(&fill(w.refused_files, &[&named.join(w.comma)]))
    )
}

/// `page` (a page of [`page`]'s frame) with `notice` first in its
/// `<main>`; `None` when `page` has no such frame (a style sheet, a
/// script).
pub fn with_notice(page: &[u8], notice: &str) -> Option<Vec<u8>> {
    const MAIN: &[u8] = b"<main>\n";
    let at = page.windows(MAIN.len()).position(|w| w == MAIN)? + MAIN.len();
    let mut out = Vec::with_capacity(page.len() + notice.len());
    out.extend_from_slice(&page[..at]);
    out.extend_from_slice(notice.as_bytes());
    out.extend_from_slice(&page[at..]);
    Some(out)
}

/// Columns a phone leaves out of a wide table (hidden under 640 px by
/// the table's own style), unless the column is one of the first
/// [`PHONE_KEYS`] keys of the rules' order; every column prints.
const OPTIONAL_ON_PHONES: [&str; 16] = [
    "group",
    "games",
    "tiles",
    "note",
    "players",
    "finish",
    "leader",
    "game_sum",
    "card_total",
    "sha256",
    "time",
    "best_game",
    "cards",
    "stage",
    "total_score",
    "avg_score",
];

/// The keys of the rules' order ([`Column::key`]) a phone never drops,
/// from the first: the total and games won under `nvso` and `gwinnett`,
/// games won and the average under `hk`, whose third key (tiles left)
/// goes, as the terminal leaves out the last key first.
const PHONE_KEYS: u8 = 2;

/// A column is dropped on phones only when the table has more than this
/// many columns: narrow tables keep every column.
const PHONE_COLUMNS: usize = 5;

/// Columns whose cells are statuses, medals, a problem's severity or an
/// action of the import log: shown in words.
const WORDED: [&str; 4] = ["status", "medal", "severity", "action"];

/// Columns whose cells are the export's words (a note, a reason, a
/// check, a message of the Problems page): said in the page's language
/// ([`super::said`]). (A setting's value is shown as tilerank.toml writes
/// it; what the setting is about, in the page's language:
/// [`crate::config::settings::doc_in`].)
const SAID: [&str; 6] = ["note", "reason", "finish", "check", "what", "message"];

/// A cell of column `name` as the page shows it: a status or a medal in
/// words, a stage (or the stages of a file of the import log, `prelim
/// final`) in words, the export's words in the page's language (a card
/// entered at the live desk named so: [`crate::event_folder::source_in`]),
/// data as written.
fn shown_cell(lang: Lang, name: &str, text: &str) -> String {
    if WORDED.contains(&name) {
        lang.words().cell(text).to_string()
    } else if name == "stage" {
        let stages: Vec<&str> = text.split(' ').map(|s| lang.stage(s)).collect();
        stages.join(" ")
    } else if SAID.contains(&name) {
        super::said::say(lang, text)
    } else if name == "file" {
        crate::event_folder::source_in(lang, text)
    } else if name == "about" {
        crate::config::settings::doc_in(lang, text).to_string()
    } else {
        text.to_string()
    }
}

/// Where a table goes and what its rows link to.
pub struct TableHtml<'a> {
    pub table: &'a Table,
    /// The `id` of the `<table>` element.
    pub id: &'a str,
    pub links: &'a Links<'a>,
    /// `h2` heading from the table's title.
    pub heading: bool,
    /// Rows to show; `None` for all.
    pub rows: Option<&'a [usize]>,
    /// Columns to show, by name; `None` for all.
    pub columns: Option<&'a [&'a str]>,
    /// The table's notes under it.
    pub notes: bool,
    /// Leave out the columns that are the same in every row (see
    /// [`columns_shown`]); empty columns are left out of every table.
    pub prune: bool,
    pub lang: Lang,
}

impl<'a> TableHtml<'a> {
    /// The whole table under the page's own heading: every row and column,
    /// and its notes.
    pub fn whole(table: &'a Table, id: &'a str, links: &'a Links<'a>, lang: Lang) -> TableHtml<'a> {
        TableHtml {
            table,
            id,
            links,
            heading: false,
            rows: None,
            columns: None,
            notes: true,
            prune: true,
            lang,
        }
    }
}

/// Sort keys of a score column: each shown value's place among the
/// column's distinct exact values, so that the browser sorts by integers
/// and never by a rounded decimal.
fn score_ordinals(table: &Table, rows: &[usize], col: usize) -> Vec<Option<usize>> {
    let score = |r: usize| match table.rows[r].get(col) {
        Some(Value::Score(s)) => Some(*s),
        _ => None,
    };
    let values: BTreeSet<Score> = rows.iter().filter_map(|&r| score(r)).collect();
    let ordered: Vec<Score> = values.into_iter().collect();
    rows.iter()
        .map(|&r| score(r).and_then(|s| ordered.binary_search(&s).ok()))
        .collect()
}

/// How the columns of a table are shown: which are left out because they
/// say nothing (empty in every row, or the same in every row of a table
/// of several rows), and the value of those that are the same.
pub fn columns_shown(t: &TableHtml, rows: &[usize]) -> (Vec<usize>, Vec<(usize, String)>) {
    let table = t.table;
    let mut shown = Vec::new();
    let mut same = Vec::new();
    for (i, c) in table.columns.iter().enumerate() {
        if !t.columns.is_none_or(|cols| cols.contains(&c.name)) {
            continue;
        }
        let value = |r: usize| table.rows[r].get(i).unwrap_or(&Value::Empty);
        let empty = rows.iter().all(|&r| *value(r) == Value::Empty);
        let constant = rows.len() > 1 && rows.iter().all(|&r| value(r) == value(rows[0]));
        // The id and the name say who a row is: never left out.
        let who = matches!(c.name, "player" | "name" | "rank");
        // Empty columns always go; columns the same in every row only
        // from tables that prune.
        if !who && (empty || (t.prune && constant)) {
            if !empty {
                same.push((i, value(rows[0]).to_string()));
            }
            continue;
        }
        shown.push(i);
    }
    (shown, same)
}

/// The table as HTML: a heading, the table (sortable: each header is a
/// button; numbers sort as numbers), then its notes.
///
/// Cells carry no classes: the table's own `<style>` places its columns
/// by their position (numbers to the right, names on one line, the
/// columns a phone does without hidden under 640 px), which keeps a
/// table of a thousand rows light.
pub fn table(t: &TableHtml) -> String {
    let table = t.table;
    let w = t.lang.words();
    let mut s = String::new();
    if t.heading {
        let _ = writeln!(s, "<h2>{}</h2>", esc(&table.title));
    }
    let all: Vec<usize>;
    let rows = match t.rows {
        Some(r) => r,
        None => {
            all = (0..table.rows.len()).collect();
            &all
        }
    };
    let (shown, same) = columns_shown(t, rows);
    let many = shown.len() > PHONE_COLUMNS;
    let named = shown.iter().any(|&i| table.columns[i].name == "name");
    // (a medal means nothing without its age group, a card's line without
    // the tiles left: those stay on phones)
    let kept = |c: &str| {
        let has = |name: &str| shown.iter().any(|&i| table.columns[i].name == name);
        (c == "group" && has("medal")) || (c == "tiles" && has("card_total"))
    };
    let ordinals: Vec<Option<Vec<Option<usize>>>> = table
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| (c.kind == Kind::Score).then(|| score_ordinals(table, rows, i)))
        .collect();

    // The table's style, by column position.
    let mut hide = Vec::new();
    let mut num = Vec::new();
    let mut names = Vec::new();
    for (k, &i) in shown.iter().enumerate() {
        let c = &table.columns[i];
        let nth = format!("#{} tr>:nth-child({})", esc(t.id), k + 1);
        // The name links to the player's page: a phone can do without the id.
        if many
            && c.key.is_none_or(|k| k >= PHONE_KEYS)
            && !kept(c.name)
            && (OPTIONAL_ON_PHONES.contains(&c.name) || (c.name == "player" && named))
        {
            hide.push(nth.clone());
        }
        if c.kind != Kind::Text {
            num.push(nth.clone());
        }
        if matches!(c.name, "name" | "parent_name" | "child_name") {
            names.push(nth);
        }
    }
    s.push_str("<style>");
    if !num.is_empty() {
        let _ = write!(s, "{}{{text-align:right}}", num.join(","));
    }
    if !names.is_empty() {
        let _ = write!(s, "{}{{white-space:nowrap}}", names.join(","));
        let _ = write!(
            s,
            "@media(max-width:640px){{{}{{max-width:9.5em;overflow:hidden;text-overflow:ellipsis}}}}",
            names
                .iter()
                .map(|n| format!("{n}:not(th)"))
                .collect::<Vec<_>>()
                .join(",")
        );
    }
    if !hide.is_empty() {
        let _ = write!(
            s,
            "@media screen and (max-width:640px){{{}{{display:none}}}}",
            hide.join(",")
        );
    }
    s.push_str("</style>\n");

    let _ = writeln!(
        s,
        "<div class=\"wrap\"><table class=\"data sortable\" id=\"{}\">",
        esc(t.id)
    );
    s.push_str("<thead><tr>");
    for c in shown.iter().map(|&i| &table.columns[i]) {
        let _ = write!(
            s,
            "<th data-kind=\"{}\" data-name=\"{}\"><button type=\"button\">{}</button></th>",
            match c.kind {
                Kind::Text => "text",
                Kind::Int | Kind::Score => "num",
            },
            c.name,
            // People's words, in the page's language; the machine name
            // stays in data-name.
            esc(w.header(c.heading_name()))
        );
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for (k, &r) in rows.iter().enumerate() {
        let row = &table.rows[r];
        s.push_str("<tr>");
        for &i in &shown {
            let c = &table.columns[i];
            let value = row.get(i).unwrap_or(&Value::Empty);
            // Integers sort by their text; scores by their exact order.
            let sort = match value {
                Value::Score(_) => ordinals[i]
                    .as_ref()
                    .and_then(|o| o[k])
                    .map(|n| format!(" data-v=\"{n}\""))
                    .unwrap_or_default(),
                _ => String::new(),
            };
            let shown = esc(&shown_cell(t.lang, c.name, &value.to_string()));
            // A name links to the player's page; the id beside it need not.
            let link = if c.name == "player" && named {
                None
            } else {
                t.links.cell(table, row, i)
            };
            match link {
                Some(href) => {
                    let _ = write!(s, "<td{sort}><a href=\"{}\">{shown}</a></td>", esc(&href));
                }
                None => {
                    let _ = write!(s, "<td{sort}>{shown}</td>");
                }
            }
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table></div>\n");
    if rows.is_empty() {
        let _ = writeln!(s, "<p class=\"empty\">{}</p>", esc(w.nobody_yet));
    }
    for (i, value) in same {
        let c = &table.columns[i];
        let ok = c.name == "check" && value == crate::report::words::Sentence::Ok.text();
        let value = shown_cell(t.lang, c.name, &value);
        let said = match ok {
            true => fill(w.all_ok, &[&w.header(c.heading_name())]),
            false => fill(w.same_for_all, &[&w.header(c.heading_name()), &value]),
        };
        let _ = writeln!(s, "<p class=\"meta same\">{}</p>", esc(&said));
    }
    if t.notes && !table.notes.is_empty() {
        s.push_str("<ul class=\"notes\">\n");
        for n in &table.notes {
            let _ = writeln!(s, "<li>{}</li>", esc(&super::said::say(t.lang, n)));
        }
        s.push_str("</ul>\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_in_text_is_shown_as_text() {
        assert_eq!(
            esc("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
        );
        assert_eq!(esc("陳大文"), "陳大文");
    }

    /// The notice of the files left out names each with its errors, in
    /// the page's language, first in the page's `<main>`; none without
    /// such files.
    #[test]
    fn the_notice_of_files_left_out_names_each_with_its_errors() {
        let files: std::collections::BTreeMap<String, usize> = [
            ("cards/S03.xlsx".to_string(), 2),
            ("cards/<S04>.csv".to_string(), 1),
        ]
        .into();
        assert_eq!(
            refused_notice(Lang::En, &files),
            "<p class=\"warn refused\" id=\"refused\">Not in these results yet: cards/&lt;S04&gt;.csv (1 error), cards/S03.xlsx (2 errors), which the desk is correcting. Until then these pages show the results from before.</p>\n"
        );
        assert_eq!(
            refused_notice(Lang::ZhHant, &files),
            "<p class=\"warn refused\" id=\"refused\">尚未計入賽果：cards/&lt;S04&gt;.csv（1 個錯誤），cards/S03.xlsx（2 個錯誤），記分台正在更正。更正前，本頁顯示先前的賽果。</p>\n"
        );
        assert_eq!(refused_notice(Lang::En, &Default::default()), "");
        let frame = Frame {
            event: "Open",
            title: "Open",
            root: "",
            class: "page index",
            lang: Lang::En,
        };
        let page = page(&frame, "<h1>Open</h1>\n");
        let noticed = with_notice(page.as_bytes(), "<p>N</p>\n").unwrap();
        assert!(String::from_utf8(noticed)
            .unwrap()
            .contains("<main>\n<p>N</p>\n<h1>Open</h1>"));
        assert_eq!(with_notice(b"body { margin: 0 }", "<p>N</p>\n"), None);
    }

    /// The import log in the page's words: its actions, its stages, and
    /// the line under it for a column the same in every row, by the
    /// column's header (`時間`, not the machine name `time`).
    #[test]
    fn the_import_log_says_its_actions_stages_and_time_in_words() {
        use std::collections::{BTreeMap, HashMap};
        let line = |action: &str, file: &str, stage: &str| {
            BTreeMap::from(
                [
                    ("time", "2026-03-28T09:00:00Z"),
                    ("action", action),
                    ("file", file),
                    ("stage", stage),
                    ("cards", "25"),
                ]
                .map(|(k, v)| (k.to_string(), v.to_string())),
            )
        };
        let log = crate::report::export::log_table(&[
            line("roster", "roster.csv", ""),
            line("import", "S01.xlsx", "prelim"),
            line("replace", "S02.csv", "prelim final"),
            line("read", "S03.csv", "semi"),
            line("read roster", "roster.csv", ""),
            line("import", "entry by referee Ann Lee", "prelim"),
            line("import", "S04.xlsx (the desk's typing)", "prelim"),
        ]);
        let (players, cards) = (HashMap::new(), HashMap::new());
        let links = Links {
            root: "",
            players: &players,
            cards: &cards,
        };
        let zh = table(&TableHtml::whole(&log, "data", &links, Lang::ZhHant));
        for cell in [
            "<td>名冊</td><td>roster.csv</td><td></td>",
            "<td>匯入</td><td>S01.xlsx</td><td>初賽</td>",
            "<td>取代</td><td>S02.csv</td><td>初賽 決賽</td>",
            "<td>讀取</td><td>S03.csv</td><td>準決賽</td>",
            "<td>讀取名冊</td>",
            "<td>匯入</td><td>裁判 Ann Lee 的輸入</td>",
            "<td>匯入</td><td>S04.xlsx（記分台的輸入）</td>",
        ] {
            assert!(zh.contains(cell), "{cell}: {zh}");
        }
        assert!(
            zh.contains("<p class=\"meta same\">時間：全部為 2026-03-28T09:00:00Z。</p>"),
            "{zh}"
        );
        assert!(
            zh.contains("<p class=\"meta same\">計分卡：全部為 25。</p>"),
            "{zh}"
        );
        assert!(!zh.contains(">time") && !zh.contains(">import<") && !zh.contains(">prelim<"));
        let en = table(&TableHtml::whole(&log, "data", &links, Lang::En));
        assert!(
            en.contains("<p class=\"meta same\">Time: 2026-03-28T09:00:00Z for everyone.</p>"),
            "{en}"
        );
        assert!(
            en.contains("<td>import</td><td>S01.xlsx</td><td>prelim</td>"),
            "{en}"
        );
        assert!(
            en.contains("<td>replace</td><td>S02.csv</td><td>prelim final</td>"),
            "{en}"
        );
        assert!(
            en.contains("<td>read</td><td>S03.csv</td><td>semi-final</td>"),
            "{en}"
        );
        assert!(
            en.contains("<td>import</td><td>entry by referee Ann Lee</td>"),
            "{en}"
        );
    }

    #[test]
    fn json_in_a_script_cannot_close_it() {
        let json = json_for_script(&["</script><!--", "a\u{2028}b"]);
        assert!(!json.contains('<') && !json.contains('>'), "{json}");
        assert!(json.contains("\\u003c/script\\u003e"));
        assert!(json.contains("\\u2028"));
        let back: Vec<String> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, ["</script><!--", "a\u{2028}b"]);
    }
}
