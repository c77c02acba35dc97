//! `tilerank publish` and `tilerank serve`: the website's numbers against
//! `standings`, `qualifiers`, `advance` and `medals` on the three demo
//! events; the same input giving the same bytes; text from the input shown
//! as text on every page (a player named `<script>alert(1)</script>`);
//! what makes publish refuse; serve answering on 127.0.0.1 and showing a
//! newly imported card without a restart, then stopping on Ctrl-C (SIGINT).
//!
//! The pages opened in a real browser (headless Chromium) are tested in
//! [`browser`].

use crate::test::{copy_dir, fixtures, Output, Scratch, Test};
use std::collections::BTreeMap;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A demo of `examples/`, as an absolute path.
pub fn example(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(path)
}

/// The HK demo's INPUT and roster arguments.
pub fn hk_demo() -> Vec<PathBuf> {
    vec![
        example("hk-2026/cards"),
        "--roster".into(),
        example("hk-2026/roster.csv"),
    ]
}

fn run(args: &[PathBuf]) -> Output {
    Test::new().args(args).run()
}

/// `tilerank publish ARGS -o DIR`, which must succeed.
pub fn publish(args: &[PathBuf], dir: &Path) -> Output {
    Test::new()
        .arg("publish")
        .args(args)
        .arg("-o")
        .arg(dir)
        .run()
        .success()
}

/// HTML entities back to text.
fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Text without its tags.
fn strip_tags(s: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    unescape(&out)
}

/// A table as a header and rows of texts.
type Grid = (Vec<String>, Vec<Vec<String>>);

/// The table with `id` on a page of the site, as its reader sees it.
fn site_table(page: &Path, id: &str) -> Grid {
    let html = std::fs::read_to_string(page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
    let start = html
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("{}: no table {id}", page.display()));
    let html = &html[start..];
    let html = &html[..html.find("</table>").unwrap()];
    let (head, body) = html.split_once("<tbody>").unwrap();
    // Headers show people's words; each keeps its machine name (the CSV
    // column) in data-name.
    let header = head
        .split("<th ")
        .skip(1)
        .map(|th| {
            let at = th.find("data-name=\"").expect("a header names its column") + 11;
            th[at..at + th[at..].find('"').unwrap()].to_string()
        })
        .collect();
    let rows = body
        .split("<tr>")
        .skip(1)
        .map(|tr| {
            tr.split("<td")
                .skip(1)
                .map(|td| {
                    let td = &td[..td.find("</td>").unwrap()];
                    strip_tags(&format!("<td{td}"))
                })
                .collect()
        })
        .collect();
    (header, rows)
}

/// The tables of a command's CSV output (tables follow each other after a
/// blank line).
fn csv_tables(stdout: &str) -> Vec<Grid> {
    crate::test::csv_tables(stdout)
        .into_iter()
        .map(|(_, text)| {
            let mut r = csv::Reader::from_reader(text.as_bytes());
            let header = r.headers().unwrap().iter().map(str::to_string).collect();
            let rows = r
                .records()
                .map(|rec| rec.unwrap().iter().map(str::to_string).collect())
                .collect();
            (header, rows)
        })
        .collect()
}

/// Asserts that the site's table shows the same values as the command's
/// table in every column they share (`except` left out), row by row.
#[track_caller]
fn same_numbers(what: &str, site: &Grid, cli: &Grid, except: &[&str]) -> usize {
    assert_eq!(
        site.1.len(),
        cli.1.len(),
        "{what}: the site has {} rows, the command {}",
        site.1.len(),
        cli.1.len()
    );
    assert!(!cli.1.is_empty(), "{what}: nothing to compare");
    let mut compared = 0;
    for (ci, name) in cli.0.iter().enumerate() {
        if except.contains(&name.as_str()) {
            continue;
        }
        // The site leaves out a column that says nothing: empty, or the
        // same, in every row.
        let Some(si) = site.0.iter().position(|h| h == name) else {
            assert!(
                cli.1.iter().all(|r| r[ci] == cli.1[0][ci]),
                "{what}: the site has no column {name}, which differs between rows: {:?}",
                site.0
            );
            continue;
        };
        for (r, (s, c)) in site.1.iter().zip(&cli.1).enumerate() {
            assert_eq!(s[si], c[ci], "{what}: row {} column {name}", r + 1);
            compared += 1;
        }
    }
    compared
}

fn stdout_of(args: &[PathBuf]) -> String {
    run(args).success().stdout
}

fn p(parts: &[&str]) -> Vec<PathBuf> {
    parts.iter().map(PathBuf::from).collect()
}

fn with(mut a: Vec<PathBuf>, b: &[PathBuf]) -> Vec<PathBuf> {
    a.extend(b.iter().cloned());
    a
}

#[test]
fn the_hk_demo_site_has_the_numbers_of_standings_and_qualifiers() {
    let scratch = Scratch::new("hk");
    let site = scratch.path("site");
    let demo = hk_demo();
    publish(&demo, &site).stderr_has("1200 player pages, 300 card pages");

    let standings = csv_tables(&stdout_of(&with(
        p(&["standings", "--format", "csv"]),
        &demo,
    )));
    let shown = site_table(&site.join("standings-prelim.html"), "data");
    // `standings` has no Q: the site's status column marks the qualifiers,
    // as the export's does; compared with `qualifiers` below.
    let n = same_numbers("HK standings", &shown, &standings[0], &["status", "note"]);
    // Nine columns but the age group, which no HK player has.
    assert_eq!(n, 1198 * 8);
    assert!(!shown.0.contains(&"group".to_string()), "{:?}", shown.0);

    let qualifiers = csv_tables(&stdout_of(&with(
        p(&["qualifiers", "--format", "csv"]),
        &demo,
    )));
    let q_shown = site_table(&site.join("qualifiers.html"), "data");
    same_numbers("HK qualifiers", &q_shown, &qualifiers[0], &[]);
    assert_eq!(q_shown.1.len(), 121);
    let note = q_shown.0.iter().position(|h| h == "note").unwrap();
    assert!(q_shown
        .1
        .iter()
        .any(|r| r[note].starts_with("tie at cutoff")));
    // Every qualifier is Q: the page says it once, not in a column.
    assert!(!q_shown.0.contains(&"status".to_string()));
    // Q in the standings is exactly the qualifier list.
    let status = shown.0.iter().position(|h| h == "status").unwrap();
    let q_in_standings = shown.1.iter().filter(|r| r[status] == "Q").count();
    assert_eq!(q_in_standings, 121);

    // No final yet: the medals page says so, as `medals` does.
    let medals = std::fs::read_to_string(site.join("medals.html")).unwrap();
    assert!(medals.contains("No final yet"));
    run(&with(p(&["medals"]), &demo))
        .failure(1)
        .stderr_has("Nothing ranked yet: the final is still to be played (no card of it yet; the cards so far are of the prelim); the medals go to the top three of the final's standings.");

    // A player's page: the answer (their standings row in words), why,
    // their games.
    let page = std::fs::read_to_string(site.join("p/P0003.html")).unwrap();
    assert!(page.contains("<h1>郭樂安</h1>"));
    let (header, rows) = &standings[0];
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let mine = rows.iter().find(|r| r[col("player")] == "P0003").unwrap();
    let ranked = rows.iter().filter(|r| !r[col("rank")].is_empty()).count();
    assert!(page.contains(&format!(
        "<p class=\"rank\">{} of {ranked}</p>",
        mine[col("rank")]
    )));
    // counted from the cutoff place: how many stand at or above the last Q
    let last_q = q_shown.1.last().unwrap()[0].parse::<usize>().unwrap();
    let cutoff_place = rows
        .iter()
        .filter(|r| r[col("rank")].parse::<usize>().is_ok_and(|n| n <= last_q))
        .count();
    let rank: usize = mine[col("rank")].parse().unwrap();
    assert!(page.contains(&format!(
        "<p class=\"status\">Not qualified: {} places below the cutoff</p>",
        rank - cutoff_place
    )));
    for (label, name) in [
        ("Games won", "won"),
        ("Average score", "avg_score"),
        ("Tiles left", "tiles"),
    ] {
        assert!(
            page.contains(&format!("<dt>{label}</dt><dd>{}</dd>", mine[col(name)])),
            "{label}"
        );
    }
    let games = &page[page.find("id=\"games\"").unwrap()..];
    assert_eq!(games.matches("<li class=\"card\">").count(), 1);
    assert_eq!(games.matches("<span class=\"score\">").count(), 3);
    assert_eq!(games.matches("<a href=\"../p/").count(), 3);
    assert!(page.contains("<h2>Why this place: prelim</h2>"));
    // The whole page, in each language, as reviewed.
    let main =
        |page: &str| page[page.find("<main>").unwrap()..page.find("</main>").unwrap()].to_string();
    insta::assert_snapshot!("hk_player_P0003_en", main(&page));
    let zh = scratch.path("site-zh");
    publish(&with(demo.clone(), &p(&["--lang", "zh-Hant"])), &zh);
    let page_zh = std::fs::read_to_string(zh.join("p/P0003.html")).unwrap();
    insta::assert_snapshot!("hk_player_P0003_zh_hant", main(&page_zh));
    // why the place, in the page's language too
    assert!(page_zh.contains("排名次序：勝局（多者優先）"), "{page_zh}");
    assert!(
        page_zh.contains("排在 P0620 (Yuen Nga Yee) 之上"),
        "{page_zh}"
    );
    assert!(!page_zh.contains("is above") && !page_zh.contains("Order:"));
    // the index's sentences follow each other with no space after 。
    let index_zh = std::fs::read_to_string(zh.join("index.html")).unwrap();
    assert!(index_zh.contains("。121 名選手由初賽晉級。"), "{index_zh}");
    assert!(!index_zh.contains("。 "), "{index_zh}");
    // Light pages: the standings and the projector of 1,200 players.
    for dir in [&site, &zh] {
        for page in ["standings-prelim.html", "projector.html"] {
            let size = std::fs::metadata(dir.join(page)).unwrap().len();
            assert!(
                size <= 250_000,
                "{}: {size} bytes",
                dir.join(page).display()
            );
        }
    }
    let explain = stdout_of(&with(p(&["explain", "P0003", "--format", "csv"]), &demo));
    same_numbers(
        "HK explain P0003",
        &site_table(&site.join("p/P0003.html"), "why-prelim"),
        &csv_tables(&explain)[0],
        &[],
    );
}

/// Every column header, heading and label the Chinese site writes itself
/// is in Chinese: the header of each column of every table the demos
/// have (standings by group, qualifiers, medals, the award, problems,
/// settings, log, cards, players) comes from the Chinese table of words.
#[test]
fn every_column_of_the_chinese_site_has_a_chinese_header() {
    let scratch = Scratch::new("zh-headers");
    let mut seen = std::collections::BTreeSet::new();
    for (k, event) in [example("nvso-2023"), fixtures().join("e2e/hk")]
        .into_iter()
        .enumerate()
    {
        let site = scratch.path(&format!("site{k}"));
        publish(
            &[
                PathBuf::from("--event"),
                event,
                "--lang".into(),
                "zh-Hant".into(),
            ],
            &site,
        );
        for (path, bytes) in files(&site) {
            if !path.ends_with(".html") {
                continue;
            }
            let page = String::from_utf8(bytes).unwrap();
            assert!(page.contains("<html lang=\"zh-Hant\">"), "{path}");
            for th in page.split("<th ").skip(1) {
                let Some(at) = th.find("data-name=\"") else {
                    continue;
                };
                let name = &th[at + 11..at + 11 + th[at + 11..].find('"').unwrap()];
                let label = strip_tags(&format!("<th {}", &th[..th.find("</th>").unwrap()]));
                assert!(
                    !label.is_ascii() || label == "SHA-256",
                    "{path}: column {name} is headed {label:?}"
                );
                seen.insert(name.to_string());
            }
        }
    }
    // The columns of every kind of table were seen.
    for name in [
        "rank",
        "group",
        "medal",
        "parent_name",
        "reason",
        "setting",
        "seat",
        "leader",
    ] {
        assert!(seen.contains(name), "no page has a {name} column: {seen:?}");
    }
}

/// What a page says: its text without styles, scripts and tags, a line
/// per element.
fn page_text(page: &str) -> String {
    let mut text = page.to_string();
    for (open, close) in [("<style", "</style>"), ("<script", "</script>")] {
        while let Some(at) = text.find(open) {
            let end = text[at..]
                .find(close)
                .map_or(text.len(), |e| at + e + close.len());
            text.replace_range(at..end, "\n");
        }
    }
    strip_tags(&text.replace('<', "\n<"))
}

/// Four English words in a row (lower-case letters, as a sentence has
/// them; names are capitalised).
fn english_run(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    words
        .windows(4)
        .find(|w| {
            w.iter().all(|w| {
                let w = w.trim_end_matches([',', '.', ';', ':', ')']);
                !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c == '\'')
            })
        })
        .map(|w| w.join(" "))
}

/// Every sentence of a Chinese page is said in Chinese: the standings'
/// order line, the notes under a table and in its cells (a shared rank, a
/// shared medal, a tie at the cutoff), a card's page, the reasons of who
/// goes on, the award's, the director's decisions. No piece of two words
/// or more of an English sentence of the words table (the export's
/// sentences, as the site says them) is on a page, nor four English words
/// in a row. The Log page shows the desk's data (files, times) as
/// written.
#[test]
fn the_chinese_site_says_no_english_sentence() {
    use tilerank::lang::Lang;
    use tilerank::report::words::{Sentence, EN};
    let scratch = Scratch::new("zh-sentences");
    let keys = [
        EN.order,
        EN.sort_key,
        EN.key_won,
        EN.key_average,
        EN.key_total,
    ];
    let keys = keys.into_iter().chain([EN.key_tiles, EN.key_best]);
    let pieces: Vec<&str> = Sentence::ALL
        .iter()
        .map(|s| s.words(Lang::En))
        .chain(keys)
        .flat_map(|t| t.split("{}"))
        .map(str::trim)
        .filter(|p| p.split_whitespace().count() >= 2)
        .collect();
    assert!(pieces.len() > 40, "{pieces:?}");
    let events = [
        vec![PathBuf::from("--event"), example("nvso-2023")],
        vec![PathBuf::from("--event"), example("gwinnett")],
        vec![PathBuf::from("--event"), fixtures().join("e2e/hk")],
        hk_demo(),
    ];
    let mut pages = 0;
    for (k, event) in events.into_iter().enumerate() {
        let site = scratch.path(&format!("site{k}"));
        publish(&with(event, &p(&["--lang", "zh-Hant"])), &site);
        for (path, bytes) in files(&site) {
            if !path.ends_with(".html") || path == "log.html" {
                continue;
            }
            let text = page_text(&String::from_utf8(bytes).unwrap());
            for piece in &pieces {
                assert!(
                    !text.contains(piece),
                    "{path} says {piece:?} in English:\n{text}"
                );
            }
            // (the settings are named by their keys, `date`, `games`...)
            if let Some(run) = english_run(&text).filter(|_| path != "settings.html") {
                panic!("{path} has English words: {run:?}\n{text}");
            }
            // a problem's severity in words (one English word each)
            if path == "problems.html" {
                for severity in ["error", "warning", "note"] {
                    assert!(
                        !text.split_whitespace().any(|w| w == severity),
                        "{path} says {severity:?}:\n{text}"
                    );
                }
            }
            pages += 1;
        }
    }
    assert!(pages > 1600, "{pages} pages");
}

/// The words of ASCII letters (two or more) in `text`.
fn latin_words(text: &str) -> std::collections::BTreeSet<String> {
    text.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() >= 2)
        .map(str::to_string)
        .collect()
}

/// An event folder's site in Chinese, as the director publishes it after
/// `init`, `roster` and `import` (and a card replaced, then put back):
/// the import log says its actions (匯入, 名冊, 取代, 移除), its stage (初賽)
/// and its time's header (時間) in Chinese, data aside (files, hashes,
/// times, reasons); the index says the tie at the cutoff with no policy's
/// English name; a line the same for every row says a Chinese value with
/// no space before it; and the settings count the cards stored in the
/// event instead of 0 files and 0 sheets read.
#[test]
fn an_event_folders_chinese_log_index_and_settings_say_no_english_word() {
    let scratch = Scratch::new("zh-folder");
    let event = scratch.path("event");
    let run = |args: &[&std::ffi::OsStr]| {
        Test::new()
            .args(args)
            .arg("--event")
            .arg(&event)
            .run()
            .success();
    };
    Test::new()
        .args(["init", "--profile", "hk", "--name", "香港公開賽"])
        .args(["--date", "2026-03-28"])
        .arg(&event)
        .run()
        .success();
    run(&["roster".as_ref(), example("hk-2026/roster.csv").as_os_str()]);
    run(&["import".as_ref(), example("hk-2026/cards").as_os_str()]);
    let dumped = crate::live_desk::dump(&event, scratch.path("dump"));
    let card = std::fs::read_to_string(dumped.join("cards/prelim-S01-T01.csv")).unwrap();
    let other = scratch.write("T01.csv", &crate::live_desk::swap_seats(&card));
    let back = scratch.write("T01-back.csv", &card);
    for (file, reason) in [(&other, "typed wrong"), (&back, "as signed")] {
        run(&[
            "import".as_ref(),
            file.as_os_str(),
            "--replace".as_ref(),
            "--reason".as_ref(),
            reason.as_ref(),
        ]);
    }
    // taken out, and put back
    run(&[
        "remove".as_ref(),
        "--session".as_ref(),
        "S01".as_ref(),
        "--table".as_ref(),
        "1".as_ref(),
        "--reason".as_ref(),
        "stray".as_ref(),
    ]);
    run(&["import".as_ref(), back.as_os_str()]);
    let site = scratch.path("site");
    publish(
        &[
            PathBuf::from("--event"),
            event.clone(),
            "--lang".into(),
            "zh-Hant".into(),
        ],
        &site,
    );
    let read = |page: &str| std::fs::read_to_string(site.join(page)).unwrap();

    // The log: every word of Latin letters is data.
    let (header, rows) = site_table(&site.join("log.html"), "data");
    let at = |name: &str| header.iter().position(|h| h == name);
    let actions: Vec<&str> = rows
        .iter()
        .map(|r| r[at("action").unwrap()].as_str())
        .collect();
    assert_eq!(actions[0], "名冊", "{actions:?}");
    assert_eq!(actions[1..13], ["匯入"; 12], "{actions:?}");
    assert_eq!(
        actions[13..],
        ["取代", "取代", "移除", "匯入"],
        "{actions:?}"
    );
    let mut text = page_text(&read("log.html"));
    for data in ["file", "sha256", "time", "reason"]
        .into_iter()
        .filter_map(at)
    {
        for row in &rows {
            text = text.replace(&row[data], "");
        }
    }
    let stage = at("stage").map(|i| rows[1][i].as_str());
    assert!(stage.is_none() || stage == Some("初賽"), "{stage:?}");
    assert!(text.contains("初賽"), "{text}");
    assert!(text.contains("時間"), "{text}");
    let latin = latin_words(&text);
    assert!(
        latin
            .iter()
            .all(|w| ["tilerank", "SHA"].contains(&w.as_str())),
        "log.html: {latin:?}\n{text}"
    );

    // The index and the problems: the tie at the cutoff, in Chinese.
    for page in ["index.html", "problems.html"] {
        let text = page_text(&read(page));
        assert!(
            text.contains("兩人均晉級（規則：晉級線同分者全部晉級）"),
            "{page}: {text}"
        );
        // (the rules profile is named as the settings write it)
        let latin = latin_words(&text);
        assert!(
            latin.iter().all(|w| w == "tilerank" || w == "hk"),
            "{page}: {latin:?}\n{text}"
        );
    }

    // A card's line the same for every row: a Chinese value follows
    // without a space, a number with one.
    let card_page = page_text(&read("t/prelim-S01-T1.html"));
    assert!(card_page.contains("核對：全部正確。"), "{card_page}");
    assert!(card_page.contains("得分總和：全部為 0。"), "{card_page}");
    for (path, bytes) in files(&site) {
        let page = String::from_utf8(bytes).unwrap();
        for (i, _) in page.match_indices("全部為 ") {
            let next = page[i + "全部為 ".len()..].chars().next().unwrap();
            assert!(
                !('\u{4E00}'..='\u{9FFF}').contains(&next),
                "{path}: 全部為 {next}"
            );
        }
    }

    // The settings: the cards stored in the event; no files were given.
    let (_, rows) = site_table(&site.join("settings.html"), "data");
    let setting = |name: &str| rows.iter().find(|r| r[0] == name).map(|r| r[1].as_str());
    assert_eq!(setting("cards_stored"), Some("300"), "{rows:?}");
    assert_eq!(setting("cards_read"), Some("300"), "{rows:?}");
    assert_eq!(
        (setting("files"), setting("sheets")),
        (None, None),
        "{rows:?}"
    );
}

/// A warning the checks make (a column nobody reads) is said on the
/// Problems page in the page's language; the command line says it in
/// English.
#[test]
fn a_warning_of_the_checks_is_said_in_the_pages_language() {
    let scratch = Scratch::new("zh-warning");
    let cards: String = std::fs::read_to_string(fixtures().join("good/went-out.csv"))
        .unwrap()
        .lines()
        .enumerate()
        .map(|(i, l)| format!("{l},{}\n", if i == 0 { "remarks" } else { "" }))
        .collect();
    let file = scratch.write("cards.csv", &cards);
    let args = vec![
        file,
        PathBuf::from("--roster"),
        fixtures().join("roster.csv"),
    ];
    run(&with(p(&["check"]), &args))
        .success()
        .stderr_has("cards.csv:1:9: warning: unknown column \"remarks\" ignored");
    for (lang, said, not) in [
        ("zh-Hant", "不明欄位 \"remarks\"，已略過", "unknown column"),
        ("en", "unknown column \"remarks\" ignored", "不明欄位"),
    ] {
        let site = scratch.path(&format!("site-{lang}"));
        publish(&with(args.clone(), &p(&["--lang", lang])), &site);
        let page = page_text(&std::fs::read_to_string(site.join("problems.html")).unwrap());
        assert!(page.contains(said), "{lang}: {page}");
        assert!(!page.contains(not), "{lang}: {page}");
    }
}

/// Why a withdrawn player is not ranked is the reason that holds, on the
/// player's page in its language as `explain` says it: the roster marks
/// P0002 withdrawn; P0004 left seat D blank in game 3.
#[test]
fn a_withdrawn_player_is_said_why_on_their_page_and_by_explain() {
    let scratch = Scratch::new("withdrawn-why");
    let roster = std::fs::read_to_string(fixtures().join("roster.csv"))
        .unwrap()
        .replace(
            "P0002,Lee Siu Ming,1958-11-15,,,",
            "P0002,Lee Siu Ming,1958-11-15,,W,",
        );
    let args = vec![
        fixtures().join("scorecard/withdrawn.csv"),
        PathBuf::from("--roster"),
        scratch.write("roster.csv", &roster),
    ];
    for (id, said) in [
        ("P0002", "P0002 is withdrawn on the roster; not ranked."),
        (
            "P0004",
            "P0004 is withdrawn: they played fewer games than a card has; not ranked.",
        ),
    ] {
        run(&with(p(&["explain", id]), &args))
            .success()
            .stdout_has(said)
            .stdout_lacks("or withdrawn on the roster");
    }
    for (lang, p2, p4) in [
        (
            "zh-Hant",
            "P0002 已退出（名冊註明），不計名次。",
            "P0004 已退出：對局少於記分卡的局數，不計名次。",
        ),
        (
            "en",
            "P0002 is withdrawn on the roster; not ranked.",
            "P0004 is withdrawn: they played fewer games than a card has; not ranked.",
        ),
    ] {
        let site = scratch.path(&format!("site-{lang}"));
        publish(&with(args.clone(), &p(&["--lang", lang])), &site);
        for (id, said) in [("P0002", p2), ("P0004", p4)] {
            let page =
                page_text(&std::fs::read_to_string(site.join(format!("p/{id}.html"))).unwrap());
            assert!(page.contains(said), "{lang} {id}: {page}");
            // one word for it on the page: 已退出, not 退賽 or a bare 退出
            if lang == "zh-Hant" {
                assert_eq!(
                    page.matches("退").count(),
                    page.matches("已退出").count(),
                    "{page}"
                );
            }
        }
        // the table's page says that P0004's seat left after game 2
        let card = page_text(&std::fs::read_to_string(site.join("t/prelim-S01-T7.html")).unwrap());
        let left = match lang {
            "en" => "Seat D (P0004 Cheung Mei Ling) played no game after game 2: withdrawn.",
            _ => "座位 D（P0004 Cheung Mei Ling）第 2 局後沒有再比賽：已退出。",
        };
        assert!(card.contains(left), "{lang}: {card}");
    }
}

/// A disqualified player is said so in one word in Chinese, 已取消資格, as
/// a withdrawn one is 已退出: on their page, why they are not ranked and
/// their status; in the standings' note. A table's status cell says the
/// word without 已 (short, as the English cell's DQ: a row of the
/// standings keeps to one line on a phone).
#[test]
fn a_disqualified_player_is_said_in_one_word_in_chinese() {
    let scratch = Scratch::new("disqualified-zh");
    let roster = std::fs::read_to_string(fixtures().join("roster.csv"))
        .unwrap()
        .replace(
            "P0002,Lee Siu Ming,1958-11-15,,,",
            "P0002,Lee Siu Ming,1958-11-15,,DQ,",
        );
    let args = vec![
        fixtures().join("scorecard/withdrawn.csv"),
        PathBuf::from("--roster"),
        scratch.write("roster.csv", &roster),
    ];
    let site = scratch.path("site");
    publish(&with(args.clone(), &p(&["--lang", "zh-Hant"])), &site);
    let page = page_text(&std::fs::read_to_string(site.join("p/P0002.html")).unwrap());
    assert!(
        page.contains("P0002 已取消資格（名冊註明），不計名次。"),
        "{page}"
    );
    let standings =
        page_text(&std::fs::read_to_string(site.join("standings-prelim.html")).unwrap());
    // (the note under the standings says the statuses in the same words)
    assert!(
        standings.contains("2 人另列，不計名次（已退出或已取消資格）。"),
        "{standings}"
    );
    // the word, and the word without 已 once: the status cell
    for text in [&page, &standings] {
        assert!(text.contains("已取消資格"), "{text}");
        assert_eq!(
            text.matches("取消資格").count(),
            text.matches("已取消資格").count() + 1,
            "{text}"
        );
    }
    let en = scratch.path("site-en");
    publish(&args, &en);
    let page = page_text(&std::fs::read_to_string(en.join("p/P0002.html")).unwrap());
    assert!(
        page.contains("P0002 is disqualified on the roster; not ranked."),
        "{page}"
    );
}

/// Under a table rule (gwinnett) nobody is "places below the cutoff":
/// a player's page says what their table decided, as `explain` does, in
/// the page's language. Under the top N the distance to the cutoff stays,
/// one place said as one.
#[test]
fn a_players_page_says_why_they_did_not_go_on_under_each_rule() {
    let scratch = Scratch::new("why-not-on");
    let event = vec![PathBuf::from("--event"), example("gwinnett")];
    let status = |site: &Path, id: &str| {
        let page = std::fs::read_to_string(site.join(format!("p/{id}.html"))).unwrap();
        page.lines()
            .filter(|l| l.starts_with("<p class=\"status\">"))
            .map(strip_tags)
            .collect::<Vec<_>>()
    };
    let en = scratch.path("gw-en");
    publish(&event, &en);
    // GW19 was 2nd at table 5 (rank 14; GW21 went on at rank 13)
    assert_eq!(
        status(&en, "GW19"),
        ["Not qualified: 2nd lowest total at table 5 with 76; the last to go on from there had 73"]
    );
    // GW07 went on from the prelim, not from the semi
    assert_eq!(
        status(&en, "GW07"),
        [
            "Not qualified: 2nd lowest total at semi table 1 with 70; the last to go on from there had 29",
            "Qualified"
        ]
    );
    // GW16 shared table 6's lowest total, and the director named GW07
    assert_eq!(
        status(&en, "GW16"),
        ["Not qualified: lowest total at table 6 with 36: in a tie, the director named who goes on"]
    );
    for (id, said) in [
        ("GW19", "Does not go on to the semi: 2nd lowest total at table 5 with 76; the last to go on from there had 73."),
        ("GW16", "Does not go on to the semi: lowest total at table 6 with 36: in a tie, the director named who goes on."),
    ] {
        run(&with(p(&["explain", id]), &event)).success().stdout_has(said);
    }
    let zh = scratch.path("gw-zh");
    publish(&with(event.clone(), &p(&["--lang", "zh-Hant"])), &zh);
    assert_eq!(
        status(&zh, "GW19"),
        ["未晉級：第 2 低總分（第 5 枱）76；該枱最後晉級者總分 73"]
    );
    assert_eq!(
        status(&zh, "GW16"),
        ["未晉級：第 6 枱最低總分 36：同分，由裁判長指定晉級者"]
    );
    // nvso: a second behind the others, by how far
    let nv = scratch.path("nv-en");
    publish(&[PathBuf::from("--event"), example("nvso-2023")], &nv);
    let seconds = files(&nv)
        .into_iter()
        .filter(|(path, _)| path.starts_with("p/"))
        .flat_map(|(path, _)| status(&nv, &path[2..path.len() - 5]))
        .filter(|s| s.starts_with("Not qualified: second: "))
        .count();
    assert!(seconds > 0);

    // the top N: one place below the cutoff
    let good = vec![
        fixtures().join("scorecard/good.csv"),
        PathBuf::from("--roster"),
        fixtures().join("roster.csv"),
        PathBuf::from("--top"),
        PathBuf::from("1"),
    ];
    for (lang, one, two) in [
        (
            "en",
            "Not qualified: 1 place below the cutoff",
            "Not qualified: 2 places below the cutoff",
        ),
        (
            "zh-Hant",
            "未晉級：距晉級線 1 個名次",
            "未晉級：距晉級線 2 個名次",
        ),
    ] {
        let site = scratch.path(&format!("good-{lang}"));
        publish(&with(good.clone(), &p(&["--lang", lang])), &site);
        let all: Vec<String> = ["P0001", "P0002", "P0003", "P0004"]
            .iter()
            .flat_map(|id| status(&site, id))
            .collect();
        assert!(all.iter().any(|s| s == one), "{lang}: {all:?}");
        assert!(all.iter().any(|s| s == two), "{lang}: {all:?}");
    }

    // a rank shared above the cutoff: the first player out is still one
    // place below it (P0001 and P0002 share rank 1 of the top 2, P0003
    // ranks 3rd)
    let tie = scratch.path("tie.csv");
    let card = std::fs::read_to_string(fixtures().join("scorecard/good.csv")).unwrap();
    let mut lines: Vec<&str> = card.lines().collect();
    lines[7] = "Game 1,1,+30,0,0,-10,3,0,-10,3,0,-10,3";
    lines[8] = "Game 2,0,-10,3,1,+30,0,0,-10,3,0,-10,3";
    lines[9] = "Game 3,0,-5,2,0,-5,2,1,+15,0,0,-5,2";
    lines[10] = "Total,1,+15,5,1,+15,5,1,-5,6,0,-25,8";
    std::fs::write(&tie, lines.join("\n")).unwrap();
    let site = scratch.path("tie-en");
    publish(
        &with(
            vec![
                tie,
                PathBuf::from("--roster"),
                fixtures().join("roster.csv"),
            ],
            &p(&["--top", "2"]),
        ),
        &site,
    );
    assert_eq!(status(&site, "P0001"), ["Qualified"]);
    assert_eq!(status(&site, "P0002"), ["Qualified"]);
    assert_eq!(
        status(&site, "P0003"),
        ["Not qualified: 1 place below the cutoff"]
    );
    assert_eq!(
        status(&site, "P0004"),
        ["Not qualified: 2 places below the cutoff"]
    );
}

/// The index's "cards in" table keeps its headers and stage labels on one
/// line on a phone, English and Chinese: the table numbers alone wrap.
#[test]
fn the_index_keeps_short_labels_of_the_cards_in_table_on_one_line() {
    let scratch = Scratch::new("cards-in-nowrap");
    for lang in ["en", "zh-Hant"] {
        let site = scratch.path(lang);
        publish(
            &with(
                vec![
                    fixtures().join("scorecard/good.csv"),
                    PathBuf::from("--roster"),
                    fixtures().join("roster.csv"),
                ],
                &p(&["--lang", lang]),
            ),
            &site,
        );
        let css = std::fs::read_to_string(site.join("site.css")).unwrap();
        assert!(
            css.contains(
                "table.imported th, table.imported td:not(.tables) { white-space: nowrap; }"
            ),
            "{lang}"
        );
        let index = std::fs::read_to_string(site.join("index.html")).unwrap();
        assert!(
            index.contains("<link rel=\"stylesheet\" href=\"site.css\">"),
            "{lang}"
        );
        assert!(
            index.contains("<table class=\"imported\" id=\"imported\">"),
            "{lang}"
        );
        assert!(index.contains("<td class=\"tables\">"), "{lang}");
    }
}

/// publish's closing line counts one card page as one.
#[test]
fn publish_says_one_card_page_in_the_singular() {
    let scratch = Scratch::new("one-card-page");
    publish(
        &[
            fixtures().join("scorecard/good.csv"),
            PathBuf::from("--roster"),
            fixtures().join("roster.csv"),
        ],
        &scratch.path("site"),
    )
    .stderr_has(" files: index.html, 12 player pages, 1 card page\n")
    .stderr_lacks("card pages");
}

/// The Chinese site parts a heading with the full-width comma, and heads
/// the session column 場次 as the card pages say it.
#[test]
fn the_chinese_site_uses_the_chinese_comma_and_one_word_for_session() {
    let scratch = Scratch::new("zh-comma");
    let site = scratch.path("site");
    publish(
        &[
            PathBuf::from("--event"),
            example("nvso-2023"),
            PathBuf::from("--lang"),
            PathBuf::from("zh-Hant"),
        ],
        &site,
    );
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains(">初賽排名，65-79組</a>"), "{index}");
    assert!(!index.contains("排名, "), "{index}");
    assert!(
        index.contains("<th data-name=\"session\">場次</th>"),
        "{index}"
    );
    let page = std::fs::read_to_string(site.join("standings-prelim-65-79.html")).unwrap();
    assert!(page.contains("初賽排名，65-79組"), "{page}");
    let card = std::fs::read_to_string(site.join("t/final-S01-T1.html")).unwrap();
    assert!(card.contains("場次 S01"), "{card}");
    assert!(!card.contains(">節<"), "{card}");
}

/// The contents of the zip entries of `path` whose names start with
/// `prefix`, by name.
fn zip_texts(path: &Path, prefix: &str) -> BTreeMap<String, String> {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut out = BTreeMap::new();
    for i in 0..zip.len() {
        let mut f = zip.by_index(i).unwrap();
        let name = f.name().unwrap().to_string();
        if name.starts_with(prefix) {
            let mut text = String::new();
            f.read_to_string(&mut text).unwrap();
            out.insert(name, text);
        }
    }
    out
}

#[test]
fn blank_cards_carry_a_qr_code_of_their_tables_page_in_chinese_too() {
    let scratch = Scratch::new("qr");
    let cards = scratch.path("cards.xlsx");
    let base = "https://results.example.org/hk-2026";
    Test::new()
        .args(["seating", "--roster"])
        .arg(example("hk-2026/roster.csv"))
        .args(["--seed", "1", "--lang", "zh-Hant", "--site-url", base, "-o"])
        .arg(&cards)
        .run()
        .success();
    // Each card's code names its table's page on the site ...
    let pages: Vec<String> = zip_texts(&cards, "xl/drawings/drawing")
        .values()
        .map(|xml| {
            let at = xml.find("descr=\"").expect("the code names its page") + 7;
            xml[at..at + xml[at..].find('"').unwrap()].to_string()
        })
        .collect();
    assert_eq!(pages.len(), 300, "one code a card");
    // ... which is the page the published site has for that table, once
    // its card is in (the HK demo's cards seat the same 300 tables).
    let site = scratch.path("site");
    publish(&hk_demo(), &site);
    let mut on_site: Vec<String> = files(&site)
        .into_keys()
        .filter(|p| p.starts_with("t/"))
        .map(|p| format!("{base}/{p}"))
        .collect();
    let mut printed = pages.clone();
    on_site.sort();
    printed.sort();
    assert_eq!(printed, on_site);
    // The labels in Chinese, beside the English words the reader needs.
    let strings = &zip_texts(&cards, "xl/sharedStrings.xml")["xl/sharedStrings.xml"];
    for label in [
        "Name (姓名)",
        "Session number (場次):",
        "Total (總計)",
        "This table's results (本枱賽果):",
    ] {
        assert!(strings.contains(label), "{label}");
    }
    // Without --site-url, no code.
    let plain = scratch.path("plain.xlsx");
    Test::new()
        .args(["seating", "--roster"])
        .arg(example("hk-2026/roster.csv"))
        .args(["--seed", "1", "-o"])
        .arg(&plain)
        .run()
        .success();
    assert!(zip_texts(&plain, "xl/drawings/").is_empty());
    assert!(!zip_texts(&plain, "xl/sharedStrings.xml")["xl/sharedStrings.xml"].contains("姓名"));
}

/// Compares every stage's standings per group, the qualifiers (`advance`)
/// and the medals of an event folder with its site (the Gwinnett demo's
/// settings name the player the director chose to settle a tie: every
/// command applies it).
fn compare_event_folder(name: &str, groups: &[&str], stages: &[&str]) {
    let scratch = Scratch::new(name);
    let site = scratch.path("site");
    let dir = example(name);
    let event = vec![PathBuf::from("--event"), dir];
    publish(&event, &site);
    for stage in stages {
        let cli = csv_tables(&stdout_of(&with(
            p(&[
                "standings",
                "--stage",
                stage,
                "--by-group",
                "--format",
                "csv",
            ]),
            &event,
        )));
        let names: Vec<String> = if groups.is_empty() {
            vec![format!("Standings {stage}")]
        } else {
            groups
                .iter()
                .map(|g| format!("Standings {stage} {g}"))
                .collect()
        };
        assert_eq!(cli.len(), names.len(), "{name} {stage}: tables");
        for (table, cli) in names.iter().zip(&cli) {
            let page = site.join(tilerank::report::site::page_name(table));
            same_numbers(
                &format!("{name} {table}"),
                &site_table(&page, "data"),
                cli,
                &["status", "note"],
            );
        }
    }
    let mut going: Vec<String> = Vec::new();
    let group_list: Vec<Option<&str>> = if groups.is_empty() {
        vec![None]
    } else {
        groups.iter().copied().map(Some).collect()
    };
    for group in group_list {
        let mut args = with(p(&["advance", "--format", "csv"]), &event);
        let mut table = "Qualifiers".to_string();
        if let Some(g) = group {
            args.extend(p(&["--group", g]));
            table = format!("Qualifiers {g}");
        }
        let cli = csv_tables(&stdout_of(&args));
        let page = site.join(tilerank::report::site::page_name(&table));
        same_numbers(
            &format!("{name} {table}"),
            &site_table(&page, "data"),
            &cli[0],
            &[],
        );
        let player = cli[0].0.iter().position(|h| h == "player").unwrap();
        going.extend(cli[0].1.iter().map(|r| r[player].clone()));
    }
    // Who goes on from each later stage that sends players on (the
    // Gwinnett semi): `advance --stage` and its own page.
    for stage in stages.iter().skip(1).take(stages.len().saturating_sub(2)) {
        let args = with(p(&["advance", "--stage", stage, "--format", "csv"]), &event);
        let cli = csv_tables(&stdout_of(&args));
        let table = format!("Qualifiers {stage}");
        let page = site.join(tilerank::report::site::page_name(&table));
        same_numbers(
            &format!("{name} {table}"),
            &site_table(&page, "data"),
            &cli[0],
            &[],
        );
        let index = std::fs::read_to_string(site.join("index.html")).unwrap();
        assert!(
            index.contains(&format!(
                "href=\"{}\"",
                tilerank::report::site::page_name(&table)
            )),
            "{name}: the index links {table}"
        );
    }
    // A player's page says "Qualified" exactly for the players `advance`
    // lists, and the medal exactly for the players `medals` lists.
    let medals = csv_tables(&stdout_of(&with(p(&["medals", "--format", "csv"]), &event)));
    let col = |name: &str| medals[0].0.iter().position(|h| h == name).unwrap();
    for (path, bytes) in files(&site) {
        let Some(id) = path
            .strip_prefix("p/")
            .and_then(|p| p.strip_suffix(".html"))
        else {
            continue;
        };
        let page = String::from_utf8(bytes).unwrap();
        assert_eq!(
            page.contains("<p class=\"status\">Qualified</p>"),
            going.iter().any(|g| g == id),
            "{name} {id}"
        );
        let medal = medals[0].1.iter().find(|r| r[col("player")] == id);
        let said = medal.map(|r| format!("<p class=\"status\">Medal: {}</p>", r[col("medal")]));
        assert_eq!(
            said.as_ref().is_some_and(|s| page.contains(s)),
            medal.is_some(),
            "{name} {id}"
        );
        assert_eq!(page.contains("Medal: "), medal.is_some(), "{name} {id}");
    }
    same_numbers(
        &format!("{name} medals"),
        &site_table(&site.join("medals.html"), "data"),
        &medals[0],
        &[],
    );
}

#[test]
fn the_nvso_demo_site_has_the_numbers_of_standings_advance_and_medals() {
    compare_event_folder(
        "nvso-2023",
        &["50-64", "65-79", "80+"],
        &["prelim", "final"],
    );
}

#[test]
fn the_gwinnett_demo_site_has_the_numbers_of_standings_advance_and_medals() {
    compare_event_folder("gwinnett", &[], &["prelim", "semi", "final"]);
}

/// Every file of a site, by path.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).unwrap().to_string_lossy();
                out.insert(rel.replace('\\', "/"), std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

#[test]
fn the_same_input_gives_the_same_bytes_and_nothing_comes_from_the_network() {
    let scratch = Scratch::new("same");
    let event = vec![PathBuf::from("--event"), example("nvso-2023")];
    publish(&event, &scratch.path("one"));
    publish(&event, &scratch.path("two"));
    // Publishing again over the first replaces it whole.
    publish(&event, &scratch.path("one"));
    let one = files(&scratch.path("one"));
    let two = files(&scratch.path("two"));
    assert_eq!(
        one.keys().collect::<Vec<_>>(),
        two.keys().collect::<Vec<_>>()
    );
    for (path, bytes) in &one {
        assert!(bytes == &two[path], "{path} differs between two runs");
    }
    assert_eq!(one.keys().filter(|k| k.starts_with("p/")).count(), 36);
    assert_eq!(one.keys().filter(|k| k.starts_with("t/")).count(), 12);
    // Nothing is left beside the site.
    assert_eq!(std::fs::read_dir(&scratch.0).unwrap().count(), 2);
    for (path, bytes) in &one {
        let text = String::from_utf8(bytes.clone()).unwrap();
        for remote in ["http://", "https://", "//cdn", "@import"] {
            assert!(!text.contains(remote), "{path} refers to {remote}");
        }
    }
}

/// The fixture roster with three players named like markup.
const MARKUP_NAMES: [&str; 3] = [
    "<script>alert(1)</script>",
    "\"><img src=x onerror=alert(2)>",
    "</script><script>alert(3)</script>",
];

pub fn markup_event(scratch: &Scratch) -> Vec<PathBuf> {
    let text = std::fs::read_to_string(fixtures().join("roster.csv")).unwrap();
    let quoted = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let text = text
        .replace(
            "P0001,Chan Tai Man,",
            &format!("P0001,{},", quoted(MARKUP_NAMES[0])),
        )
        .replace(
            "P0002,Lee Siu Ming,",
            &format!("P0002,{},", quoted(MARKUP_NAMES[1])),
        )
        .replace(
            "P0003,Wong Ka Yan,",
            &format!("P0003,{},", quoted(MARKUP_NAMES[2])),
        );
    let roster = scratch.path("roster.csv");
    std::fs::write(&roster, text).unwrap();
    vec![
        fixtures().join("good/hk-examples.csv"),
        "--roster".into(),
        roster,
        "--name".into(),
        "<b>Open</b> & Co".into(),
    ]
}

#[test]
fn a_name_with_markup_is_shown_as_text_on_every_page() {
    let scratch = Scratch::new("markup");
    let site = scratch.path("site");
    publish(&markup_event(&scratch), &site);
    let all = files(&site);
    let mut pages_with_names = 0;
    for (path, bytes) in &all {
        let text = String::from_utf8(bytes.clone()).unwrap();
        for bad in ["<script>alert", "<img", "<b>Open"] {
            assert!(!text.contains(bad), "{path} has {bad:?} as markup");
        }
        if path.ends_with(".html") {
            // Only the site's own two scripts, by file.
            assert_eq!(text.matches("<script").count(), 2, "{path}");
            assert_eq!(text.matches("<script src=").count(), 2, "{path}");
            assert!(text.contains("&lt;b&gt;Open&lt;/b&gt; &amp; Co"), "{path}");
            if text.contains("&lt;script&gt;alert(1)&lt;/script&gt;") {
                pages_with_names += 1;
            }
        }
    }
    // The standings, qualifiers, players list, 4 players' pages (each
    // names the others), the card.
    assert!(
        pages_with_names >= 8,
        "{pages_with_names} pages show the name"
    );
    let p1 = String::from_utf8(all["p/P0001.html"].clone()).unwrap();
    assert!(p1.contains("<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>"));
    assert!(p1.contains("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"));
    // The search index is a script: no `<` at all, the names still there.
    let index = String::from_utf8(all["players.js"].clone()).unwrap();
    assert!(!index.contains('<') && !index.contains('>'), "{index}");
    assert!(index.contains("\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"));
}

#[test]
fn publish_refuses_bad_cards_and_a_folder_it_did_not_write() {
    let scratch = Scratch::new("refuse");
    let site = scratch.path("site");
    Test::new()
        .args(["publish", "--roster", "roster.csv"])
        .fixture("bad/check2-won-2.csv")
        .arg("-o")
        .arg(&site)
        .run()
        .failure(1)
        .stderr_has("bad/check2-won-2.csv:6:6")
        .stderr_has(
            "Nothing published: fix the errors above (or leave their files out) and run again.",
        );
    assert!(!site.exists());

    let other = scratch.path("notes");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("plan.txt"), "keep").unwrap();
    Test::new()
        .args(["publish", "--roster", "roster.csv"])
        .fixture("good/hk-examples.csv")
        .arg("-o")
        .arg(&other)
        .run()
        .failure(2)
        .stderr_has("is not a site tilerank wrote")
        .stderr_has("give a new or empty folder");
    assert_eq!(
        std::fs::read_to_string(other.join("plan.txt")).unwrap(),
        "keep"
    );

    let file = scratch.path("results.html");
    std::fs::write(&file, "x").unwrap();
    Test::new()
        .args(["publish", "--roster", "roster.csv"])
        .fixture("good/hk-examples.csv")
        .arg("-o")
        .arg(&file)
        .run()
        .failure(2)
        .stderr_has("results.html: is a file, not a folder");

    // The site folder is made, in a folder that must be there: the one
    // that is not is named (or the file where a folder goes), before
    // anything is read, and nothing is made.
    let missing = scratch.path("no-such-folder/sub");
    Test::new()
        .args(["publish", "--roster", "roster.csv"])
        .fixture("good/hk-examples.csv")
        .arg("-o")
        .arg(missing.join("site"))
        .run()
        .failure(2)
        .stderr_has(&format!(
            "tilerank: {}: no such folder (to write site in): check the path, or create the folder first",
            missing.display()
        ))
        .stderr_lacks("os error")
        .stderr_lacks("card accepted");
    assert!(!scratch.path("no-such-folder").exists());
    Test::new()
        .args(["publish", "--roster", "roster.csv"])
        .fixture("good/hk-examples.csv")
        .arg("-o")
        .arg(file.join("site"))
        .run()
        .failure(2)
        .stderr_has(&format!(
            "tilerank: {}: is a file, not a folder (to write site in): give a folder that is there",
            file.display()
        ))
        .stderr_lacks("os error");

    Test::new()
        .args(["publish", "-o"])
        .arg(&site)
        .run()
        .failure(2)
        .stderr_has("no INPUT given");
}

#[test]
fn the_award_and_medal_pages_have_the_numbers_of_awards_and_medals() {
    let scratch = Scratch::new("award");
    let site = scratch.path("site");
    let event = vec![PathBuf::from("--event"), fixtures().join("e2e/hk")];
    publish(&event, &site);
    for (command, page) in [
        ("awards", "super-family-award.html"),
        ("medals", "medals.html"),
    ] {
        let cli = csv_tables(&stdout_of(&with(p(&[command, "--format", "csv"]), &event)));
        same_numbers(command, &site_table(&site.join(page), "data"), &cli[0], &[]);
    }
    // The parent's page shows the family's award row, and the medal.
    let h01 = std::fs::read_to_string(site.join("p/H01.html")).unwrap();
    assert!(h01.contains(">Super Family Award</a></h2>"), "{h01}");
    assert!(h01.contains(">2nd runner-up</td>"), "{h01}");
}

/// The families set apart from the Super Family Award are summed up in
/// one line under it, the same line on the site's award page (in the
/// page's language) as `awards` prints, never a line per family: the HK
/// end-to-end event with twelve more families on its roster, none of
/// whom played, and one entry whose family has no second member.
#[test]
fn the_award_page_sums_up_the_families_set_apart_as_awards_does() {
    let scratch = Scratch::new("award-apart");
    let event = scratch.path("event");
    copy_dir(&fixtures().join("e2e/hk"), &event);
    let mut roster = std::fs::read_to_string(event.join("roster.csv")).unwrap();
    for n in 0..12 {
        roster.push_str(&format!(
            "X{n:02}P,Parent {n},1980-01-01,G{n:02},,\nX{n:02}C,Child {n},2014-01-01,G{n:02},,\n"
        ));
    }
    roster.push_str("X99,Lone Member,1970-01-01,G99,,\n");
    std::fs::write(event.join("roster.csv"), roster).unwrap();
    let args = vec![PathBuf::from("--event"), event.clone()];
    let not_eligible = "13 families are not eligible for the award: neither member qualified for the final, 13 (F3, G00, G01, G02, G03, G04, G05, G06, G07, G08, …).";
    let not_a_unit = "1 family is not a unit: only one roster entry has the family id, 1 (G99).";
    let out = run(&with(p(&["awards"]), &args)).success();
    let summary: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.contains("not eligible") || l.contains("not a unit"))
        .collect();
    assert_eq!(
        summary,
        [
            not_eligible,
            &format!("{not_a_unit} Each family and why: tilerank awards --all.")[..]
        ],
        "{}",
        out.stdout
    );
    assert!(
        !out.stdout.lines().any(|l| l.starts_with("Family ")),
        "{}",
        out.stdout
    );
    // --all: each of the 14, and why
    let all = run(&with(p(&["awards", "--all", "--format", "csv"]), &args)).success();
    let tables = crate::test::csv_tables(&all.stdout);
    assert_eq!(tables[1].0, "Not eligible");
    let (header, rows) = &csv_tables(&all.stdout)[1];
    assert_eq!(header, &["family", "members", "reason"]);
    assert_eq!(rows.len(), 14, "{}", tables[1].1);
    assert_eq!(
        rows[13],
        [
            "G99",
            "X99 Lone Member",
            "not a unit: only one roster entry has this family id: a unit is two, a parent and a child"
        ]
    );
    // The site says the same, in English and in Chinese.
    for (lang, said) in [
        ("en", vec![not_eligible, not_a_unit]),
        (
            "zh-Hant",
            vec![
                "13 個家庭不合資格：兩名成員均未晉級決賽，13（F3、G00、G01、G02、G03、G04、G05、G06、G07、G08、…）。",
                "1 個家庭不構成參賽單位：名冊上只有一人用此家庭編號，1（G99）。",
            ],
        ),
    ] {
        let site = scratch.path(&format!("site-{lang}"));
        publish(&with(args.clone(), &p(&["--lang", lang])), &site);
        let page = std::fs::read_to_string(site.join("super-family-award.html")).unwrap();
        for line in said {
            assert!(page.contains(line), "{lang}: {line}\n{page}");
        }
        assert!(!page.contains("Family F3"), "{lang}");
        assert!(!page.contains("tilerank awards --all"), "{lang}");
    }
}

/// A card's page says where the card was played (its session and table),
/// never where the desk keeps it (the event's database, a file).
#[test]
fn a_card_page_names_its_session_and_table_not_where_it_is_stored() {
    let scratch = Scratch::new("card-place");
    let event = scratch.path("event");
    Test::new()
        .in_dir(&scratch.0)
        .args(["init", "event", "--profile", "hk", "--date", "2026-03-28"])
        .args(["--name", "Club night"])
        .run()
        .success();
    for (command, file) in [("roster", "roster.csv"), ("import", "good/hk-examples.csv")] {
        Test::new()
            .in_dir(&event)
            .arg(command)
            .arg(fixtures().join(file))
            .run()
            .success();
    }
    for (lang, said, heading) in [
        (
            "en",
            "3 games, as recorded at session S01, table 7.",
            "<h1>Prelim, session S01, table 7</h1>",
        ),
        (
            "zh-Hant",
            "3 局，場次 S01 第 7 枱的紀錄。",
            "<h1>初賽，場次 S01，第 7 枱</h1>",
        ),
    ] {
        let site = scratch.path(&format!("site-{lang}"));
        publish(
            &[
                PathBuf::from("--event"),
                event.clone(),
                "--lang".into(),
                lang.into(),
            ],
            &site,
        );
        let page = std::fs::read_to_string(site.join("t/prelim-S01-T7.html")).unwrap();
        assert!(page.contains(said), "{page}");
        // the heading starts with a capital, as the other pages' do
        assert!(page.contains(heading), "{page}");
        for (path, bytes) in files(&site) {
            let text = String::from_utf8_lossy(&bytes);
            assert!(!text.contains("tilerank.db"), "{path} names the database");
            // (the import log is the desk's page: it names the files)
            if path != "log.html" {
                assert!(!text.contains("hk-examples.csv"), "{path} names the file");
            }
        }
    }
}

/// Each page says PROVISIONAL for what it shows, as the export marks each
/// sheet: while players who went on to the final have not played it, the
/// final's standings, the medals and the projector (the latest stage)
/// say so (nvso gives no award: it has no page); the prelim's standings
/// and its qualifier lists, which wait for nothing, do not, nor do the
/// problems, settings and log pages, which give no places; the index
/// says what the event lacks.
#[test]
fn each_page_says_provisional_for_its_own_stage() {
    let scratch = Scratch::new("provisional-pages");
    let event = scratch.path("nvso");
    copy_dir(&example("nvso-2023"), &event);
    std::fs::remove_file(event.join("cards/final-S01-T03.csv")).unwrap();
    let site = scratch.path("site");
    publish(&[PathBuf::from("--event"), event], &site);
    let banner = "<p class=\"warn provisional\">Provisional: 4 players of the final not in yet";
    let mut said = Vec::new();
    let mut quiet = Vec::new();
    for (path, bytes) in files(&site) {
        if !path.ends_with(".html") || path.contains('/') {
            continue;
        }
        let page = String::from_utf8(bytes).unwrap();
        if page.contains(banner) {
            said.push(path);
        } else {
            quiet.push(path);
        }
    }
    for page in [
        "standings-final-50-64.html",
        "standings-final-65-79.html",
        "medals.html",
        "projector.html",
        "missing.html",
    ] {
        assert!(
            said.iter().any(|p| p == page),
            "{page} is not provisional: {said:?}"
        );
    }
    for page in [
        "standings-prelim-50-64.html",
        "standings-prelim-65-79.html",
        "qualifiers-50-64.html",
        "qualifiers-65-79.html",
        "players.html",
        // the desk's pages without places
        "problems.html",
        "log.html",
        "settings.html",
    ] {
        assert!(
            quiet.iter().any(|p| p == page),
            "{page} says provisional: {said:?}"
        );
    }
    // (nvso gives no Super Family Award: no page of it, nor a link)
    assert!(!site.join("super-family-award.html").exists());
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(!index.contains("super-family-award"));
    assert!(
        index.contains("4 players of the final still to come"),
        "{index}"
    );
}

/// Publishing again replaces what tilerank wrote and keeps what the
/// director added to the folder: a page of their own, a logo.
#[test]
fn publish_again_keeps_the_directors_files_and_drops_its_own_old_pages() {
    let scratch = Scratch::new("keep");
    let event = scratch.path("nvso");
    copy_dir(&example("nvso-2023"), &event);
    let site = scratch.path("site");
    let args = [PathBuf::from("--event"), event.clone()];
    publish(&args, &site);
    assert!(site.join("t/final-S01-T3.html").exists());
    std::fs::write(site.join("extra.html"), "<p>Prize giving at 5</p>").unwrap();
    std::fs::create_dir_all(site.join("img")).unwrap();
    std::fs::write(site.join("logo.png"), b"\x89PNG").unwrap();
    std::fs::write(site.join("img/hall.jpg"), b"jpg").unwrap();
    // The card of final table 3 is taken out of the event: its page goes.
    std::fs::remove_file(event.join("cards/final-S01-T03.csv")).unwrap();
    publish(&args, &site)
        .stderr_has("kept 3 files not written by tilerank: extra.html, img/hall.jpg, logo.png");
    assert!(!site.join("t/final-S01-T3.html").exists());
    assert!(site.join("t/final-S01-T2.html").exists());
    assert_eq!(
        std::fs::read_to_string(site.join("extra.html")).unwrap(),
        "<p>Prize giving at 5</p>"
    );
    assert_eq!(std::fs::read(site.join("logo.png")).unwrap(), b"\x89PNG");
    assert_eq!(std::fs::read(site.join("img/hall.jpg")).unwrap(), b"jpg");
    // A file of the director's with the name of a page tilerank now
    // writes stops the publish; nothing is lost.
    std::fs::copy(
        example("nvso-2023/cards/final-S01-T03.csv"),
        event.join("cards/final-S01-T03.csv"),
    )
    .unwrap();
    std::fs::write(site.join("t/final-S01-T3.html"), "mine").unwrap();
    Test::new()
        .arg("publish")
        .args(&args)
        .arg("-o")
        .arg(&site)
        .run()
        .failure(2)
        .stderr_has("t/final-S01-T3.html: is not a file tilerank wrote");
    assert_eq!(
        std::fs::read_to_string(site.join("t/final-S01-T3.html")).unwrap(),
        "mine"
    );
    assert!(site.join("extra.html").exists());
}

#[test]
fn the_index_counts_one_card_in_the_singular() {
    let scratch = Scratch::new("singular");
    let event = scratch.path("hk");
    copy_dir(&fixtures().join("e2e/hk"), &event);
    // the prelim's table 1 only: one card
    let prelim = std::fs::read_to_string(event.join("cards/prelim.csv")).unwrap();
    let card: String = prelim
        .lines()
        .filter(|l| l.starts_with("stage") || l.starts_with("prelim,S01,1,"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(event.join("cards/prelim.csv"), card).unwrap();
    std::fs::remove_file(event.join("cards/final.csv")).unwrap();
    let site = scratch.path("site");
    publish(&[PathBuf::from("--event"), event], &site);
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        index.contains("<dt>Cards in</dt><dd>1 card, 3 games, 4 players (8 on the roster)</dd>"),
        "{index}"
    );
}

#[test]
fn the_index_says_what_is_imported_and_what_is_missing() {
    let scratch = Scratch::new("missing");
    let event = scratch.path("hk");
    copy_dir(&fixtures().join("e2e/hk"), &event);
    // Two sessions of two tables expected; the event has session 1.
    let toml = std::fs::read_to_string(event.join("tilerank.toml")).unwrap();
    let toml = toml.replace("count = 1\ntables = 2", "count = 2\ntables = 2");
    std::fs::write(event.join("tilerank.toml"), toml).unwrap();
    // a ninth player on the roster, who has not played yet
    let mut roster = std::fs::read_to_string(event.join("roster.csv")).unwrap();
    roster.push_str("H09,Yip Ka Wai,1990-01-01,,,\n");
    std::fs::write(event.join("roster.csv"), roster).unwrap();
    let site = scratch.path("site");
    publish(&[PathBuf::from("--event"), event], &site).stderr_has("2 cards missing");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("<h1>HK end to end</h1>"));
    // the front page's title is the event's name, once
    assert!(index.contains("<title>HK end to end</title>"), "{index}");
    // the players who played, then the roster's count
    assert!(
        index.contains("<dt>Cards in</dt><dd>3 cards, 9 games, 8 players (9 on the roster)</dd>"),
        "{index}"
    );
    assert!(index.contains("<dt>Date</dt><dd>2026-03-28</dd>"));
    assert!(index.contains("<dt>Rules</dt><dd>hk</dd>"));
    assert!(index.contains("Results so far: 2 cards still to come, so places can still change."));
    // Every page of results says so too.
    let standings = std::fs::read_to_string(site.join("standings-prelim.html")).unwrap();
    assert!(standings.contains("Provisional: 2 cards not in yet"));
    let (_, imported) = site_table(&site.join("index.html"), "imported");
    assert_eq!(imported[0], ["prelim", "S01", "2", "1 2"]);
    let (_, missing) = site_table(&site.join("index.html"), "missing");
    assert_eq!(missing, [["prelim", "S02", "2", "1 2"]]);
    // Each imported table links to its card's page, which exists.
    assert!(index.contains("<a href=\"t/prelim-S01-T1.html\">1</a>"));
    assert!(site.join("t/prelim-S01-T1.html").is_file());
}

// ----------------------------------------------------------------- serve

/// One GET over plain HTTP: (status, body).
fn get(address: &str, path: &str) -> (u16, String) {
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.0\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    let response = String::from_utf8_lossy(&response).into_owned();
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

/// `tilerank serve` running, its standard error read into lines.
struct Server {
    child: std::process::Child,
    address: String,
    lines: std::sync::mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Server {
    fn start(args: &[PathBuf]) -> Server {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("tilerank"))
            .arg("serve")
            .args(args)
            .args(["--port", "0"])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stderr)
                .lines()
                .map_while(Result::ok)
            {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = Server {
            child,
            address: String::new(),
            lines: rx,
            seen: Vec::new(),
        };
        let line = server.wait_for("Serving http://");
        server.address = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap()
            .to_string();
        server
    }

    fn wait_for(&mut self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(120);
        while Instant::now() < deadline {
            match self.lines.recv_timeout(Duration::from_millis(200)) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(text) {
                        return line;
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                Err(_) => break,
            }
        }
        panic!(
            "serve never said {text:?}; it said:\n{}",
            self.seen.join("\n")
        );
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `tilerank ARGS --event DIR`, which must succeed.
fn in_event(dir: &Path, args: &[PathBuf]) {
    Test::new()
        .args(args)
        .arg("--event")
        .arg(dir)
        .run()
        .success();
}

#[test]
fn serve_shows_a_newly_imported_card_without_a_restart_and_stops_on_ctrl_c() {
    let scratch = Scratch::new("serve");
    let dir = scratch.path("gwinnett");
    Test::new()
        .args(["init", "--profile", "gwinnett", "--name", "Serve test"])
        .arg(&dir)
        .run()
        .success();
    // The demo's settings (games per stage), its roster and all its cards
    // but the final's.
    // (they name GW07, the director's choice for the tie at prelim table 6)
    let settings = std::fs::read_to_string(example("gwinnett/tilerank.toml")).unwrap();
    std::fs::write(dir.join("tilerank.toml"), settings).unwrap();
    in_event(
        &dir,
        &[PathBuf::from("roster"), example("gwinnett/roster.csv")],
    );
    let cards = example("gwinnett/cards");
    let mut first: Vec<PathBuf> = vec!["import".into()];
    for e in std::fs::read_dir(&cards).unwrap() {
        let path = e.unwrap().path();
        if !path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("final")
        {
            first.push(path);
        }
    }
    in_event(&dir, &first);

    let mut server = Server::start(&[PathBuf::from("--event"), dir.clone()]);
    assert!(
        server.address.starts_with("127.0.0.1:"),
        "{}",
        server.address
    );
    let (status, index) = get(&server.address, "/");
    assert_eq!(status, 200);
    assert!(index.contains("Gwinnett Senior Golden Games Rummikub"));
    let (_, medals) = get(&server.address, "/medals.html");
    assert!(medals.contains("No final yet"), "{medals}");
    let (status, _) = get(&server.address, "/p/no-such-player.html");
    assert_eq!(status, 404);
    let (status, css) = get(&server.address, "/site.css");
    assert_eq!(status, 200);
    assert!(css.contains("@media print"));

    // The final's card is imported while serve runs.
    in_event(
        &dir,
        &[PathBuf::from("import"), cards.join("final-S01-T01.csv")],
    );
    let expected = csv_tables(
        &Test::new()
            .args(["medals", "--format", "csv", "--event"])
            .arg(&dir)
            .run()
            .success()
            .stdout,
    );
    let gold = &expected[0].1[0];
    assert_eq!(gold[1], "Gold");
    // Looked at once a second at most: within a few seconds it shows.
    let deadline = Instant::now() + Duration::from_secs(30);
    let medals = loop {
        let (_, medals) = get(&server.address, "/medals.html");
        if !medals.contains("No final yet") || Instant::now() > deadline {
            break medals;
        }
        std::thread::sleep(Duration::from_millis(300));
    };
    assert!(
        medals.contains(&format!(">{}</a>", gold[4])),
        "the gold medal {} is not shown:\n{medals}",
        gold[4]
    );
    let (_, projector) = get(&server.address, "/projector.html");
    assert!(projector.contains("Standings, final"));
    server.wait_for("Pages rebuilt");

    // Ctrl-C: a clean stop, exit status 0.
    let pid = server.child.id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    server.wait_for("Stopped.");
    let status = server.child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn serve_says_why_it_has_no_pages_while_the_cards_have_errors() {
    let scratch = Scratch::new("serve-bad");
    let cards = scratch.path("cards");
    std::fs::create_dir_all(&cards).unwrap();
    std::fs::copy(
        fixtures().join("bad/check2-won-2.csv"),
        cards.join("bad.csv"),
    )
    .unwrap();
    // Another address of the loopback network, as --bind 0.0.0.0 would be
    // the hall's.
    let server = Server::start(&[
        cards.clone(),
        "--roster".into(),
        fixtures().join("roster.csv"),
        "--bind".into(),
        "127.0.0.2".into(),
    ]);
    assert!(
        server.address.starts_with("127.0.0.2:"),
        "{}",
        server.address
    );
    // Said before it listens: nothing is run again under serve, the file
    // is saved again.
    let said = format!(
        "Pages not rebuilt: fix the errors above and save {} again: tilerank serve reads it again by itself; the last good pages stay up.",
        cards.join("bad.csv").display()
    );
    assert!(
        server.seen.iter().any(|l| l.contains(&said)),
        "{said}\n{:?}",
        server.seen
    );
    let (status, body) = get(&server.address, "/");
    assert_eq!(status, 503);
    assert!(
        body.contains("No results to show: the cards have errors, which the desk is correcting."),
        "{body}"
    );
    assert!(
        body.contains("bad.csv (1 error), which the desk is correcting."),
        "{body}"
    );
    // The bad card is taken out of the folder: the pages come.
    std::fs::remove_file(cards.join("bad.csv")).unwrap();
    std::fs::copy(
        fixtures().join("good/hk-examples.csv"),
        cards.join("good.csv"),
    )
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        let (status, _) = get(&server.address, "/standings-prelim.html");
        if status == 200 || Instant::now() > deadline {
            break status;
        }
        std::thread::sleep(Duration::from_millis(300));
    };
    assert_eq!(status, 200);
    // (an empty POST: the whole answer)
    let post = |path: &str| {
        let mut stream = std::net::TcpStream::connect(&server.address).unwrap();
        write!(stream, "POST {path} HTTP/1.0\r\nContent-Length: 0\r\n\r\n").unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    };
    let response = post("/");
    assert!(
        response.starts_with("HTTP/1.0 405") || response.starts_with("HTTP/1.1 405"),
        "{response}"
    );
    // a referee's phone posting to a server without the live desk
    let response = post("/api/cards");
    assert!(
        response.contains(" 405 ")
            && response.contains(
                "the live desk is off: the director starts it with tilerank serve --entry"
            ),
        "{response}"
    );
}

/// A file saved with errors while `serve` runs is left out: the terminal
/// says to save it again (nothing is run again), and every page, the
/// hall's screen too, names it with its errors, in the pages' language,
/// until it is saved right.
#[test]
fn a_file_saved_with_errors_is_named_on_every_page_until_it_is_saved_right() {
    let scratch = Scratch::new("serve-left-out");
    for (lang, said) in [
        ("en", "S01.csv (1 error), which the desk is correcting. Until then these pages show the results from before."),
        ("zh-Hant", "S01.csv（1 個錯誤），記分台正在更正。更正前，本頁顯示先前的賽果。"),
    ] {
        let cards = scratch.path(&format!("cards-{lang}"));
        std::fs::create_dir_all(&cards).unwrap();
        let file = cards.join("S01.csv");
        std::fs::copy(fixtures().join("good/hk-examples.csv"), &file).unwrap();
        let mut server = Server::start(&[
            cards.clone(),
            "--roster".into(),
            fixtures().join("roster.csv"),
            "--lang".into(),
            lang.into(),
        ]);
        let (status, index) = get(&server.address, "/");
        assert_eq!(status, 200);
        assert!(!index.contains("id=\"refused\""), "{index}");
        let (_, before) = get(&server.address, "/api/version");
        // (a new size: a save within the same second is seen; the files
        // are looked at on a request)
        std::fs::copy(fixtures().join("bad/check2-won-2.csv"), &file).unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        let index = loop {
            let (_, index) = get(&server.address, "/");
            if index.contains(said) || Instant::now() > deadline {
                break index;
            }
            std::thread::sleep(Duration::from_millis(300));
        };
        assert!(index.contains(said), "{said}\n{index}");
        // the hall's screen too, and open pages are told to reload
        let (_, projector) = get(&server.address, "/projector.html");
        assert!(projector.contains(said), "{projector}");
        let (_, after) = get(&server.address, "/api/version");
        assert_ne!(before, after);
        let (_, css) = get(&server.address, "/site.css");
        assert!(!css.contains(said));
        server.wait_for("Pages not rebuilt");
        let line = format!(
            "Pages not rebuilt: fix the errors above and save {} again: tilerank serve reads it again by itself; the last good pages stay up.",
            file.display()
        );
        assert!(
            server.seen.iter().any(|l| l == &line),
            "{line}\n{:?}",
            server.seen
        );
        // saved right: the notice goes
        std::fs::copy(fixtures().join("good/hk-examples.csv"), &file).unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        let index = loop {
            let (_, index) = get(&server.address, "/");
            if !index.contains("id=\"refused\"") || Instant::now() > deadline {
                break index;
            }
            std::thread::sleep(Duration::from_millis(300));
        };
        assert!(!index.contains("id=\"refused\""), "{index}");
        server.wait_for("Pages rebuilt");
    }
}

#[test]
fn serve_says_when_its_port_is_taken() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    Test::new()
        .args(["serve", "--roster", "roster.csv", "--port", &port])
        .fixture("good/hk-examples.csv")
        .run()
        .failure(2)
        .stderr_has(&format!("cannot listen on 127.0.0.1 port {port}"));
    Test::new()
        .args(["serve", "--bind", "the-hall"])
        .run()
        .failure(2)
        .stderr_has("invalid value 'the-hall' for '--bind <ADDR>'");
}

/// The published HK demo in headless Chromium (Debian's `chromium`): a
/// player found by a Chinese name through the search box, their page after
/// its scripts ran, the standings laid out at 375 and 1280 px wide, and
/// markup names as text in the search results.
///
/// Without Chromium the test says that it did not run, and passes; with
/// `CI=true` it fails instead (`.ci/run` installs Chromium).
mod browser {
    use super::{hk_demo, markup_event, publish, Scratch};
    use crate::devtools::{chromium_or_skip, Browser};
    use std::path::Path;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    /// A file as a URL, with a query.
    fn url(path: &Path, query: &str) -> String {
        let mut s = String::from("file://");
        for b in path.to_string_lossy().bytes() {
            if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
                s.push(b as char);
            } else {
                s.push_str(&format!("%{b:02X}"));
            }
        }
        if !query.is_empty() {
            s.push('?');
            s.push_str(query);
        }
        s
    }

    /// Percent-encodes a query value.
    fn encode(text: &str) -> String {
        text.bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() {
                    (b as char).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect()
    }

    /// Runs headless Chromium on `target` with `extra` flags; its standard
    /// output (the DOM for `--dump-dom`).
    fn headless(chromium: &Path, scratch: &Scratch, extra: &[String], target: &str) -> String {
        let profile = scratch.path(&format!("profile-{}", extra.len() + target.len()));
        let _ = std::fs::remove_dir_all(&profile);
        let mut child = Command::new(chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--force-device-scale-factor=1",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .args(extra)
            .arg(target)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts");
        let mut stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut out = String::new();
            let _ = std::io::Read::read_to_string(&mut stdout, &mut out);
            out
        });
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                panic!("chromium did not finish in 120 s on {target}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        reader.join().unwrap()
    }

    fn dom(chromium: &Path, scratch: &Scratch, target: &str) -> String {
        let dom = headless(chromium, scratch, &["--dump-dom".to_string()], target);
        assert!(dom.contains("</html>"), "no DOM from {target}: {dom}");
        dom
    }

    #[test]
    fn the_demo_site_in_a_browser_search_by_chinese_name_then_the_players_page() {
        let Some(chromium) = chromium_or_skip() else {
            return;
        };
        let scratch = Scratch::new("browser");
        let site = scratch.path("site");
        publish(&hk_demo(), &site);

        // Typing 郭樂安 into the search box (the ?q= parameter fills it).
        let index = dom(
            &chromium,
            &scratch,
            &url(&site.join("index.html"), &format!("q={}", encode("郭樂安"))),
        );
        let results = &index[index.find("<ul id=\"results\"").unwrap()..];
        let results = &results[..results.find("</ul>").unwrap()];
        assert!(!results.contains("hidden"), "{results}");
        assert_eq!(results.matches("<li>").count(), 1, "{results}");
        let href = results
            .split("href=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .expect("a link to the player's page");
        assert_eq!(href, "p/P0003.html");
        assert!(results.contains(">P0003 郭樂安</a>"), "{results}");
        // By id too, ignoring case, and by part of a romanised name.
        let by_id = dom(
            &chromium,
            &scratch,
            &url(&site.join("index.html"), "q=p0003"),
        );
        assert!(by_id.contains(">P0003 郭樂安</a>"));

        // Following the link: the player's page, as the script left it.
        let player = dom(&chromium, &scratch, &url(&site.join(href), ""));
        assert!(player.contains("<h1>郭樂安</h1>"));
        assert!(player.contains("<h2>Why this place: prelim</h2>"));

        // The standings sorted by the script: ?sort=-rank (integers, by
        // their text), then ?sort=avg_score (scores, by their exact order).
        let standings = site.join("standings-prelim.html");
        let column = |dom: &str, name: &str| -> Vec<String> {
            let header = &dom[dom.find("<thead>").unwrap()..dom.find("</thead>").unwrap()];
            let at = header
                .split("<th ")
                .skip(1)
                .position(|th| th.contains(&format!("data-name=\"{name}\"")))
                .unwrap();
            let body = &dom[dom.find("<tbody>").unwrap()..dom.find("</tbody>").unwrap()];
            body.split("<tr>")
                .skip(1)
                .map(|tr| {
                    let td = tr.split("<td").nth(at + 1).unwrap();
                    super::strip_tags(&format!("<td{}", td.split("</td>").next().unwrap()))
                })
                .collect()
        };
        let by_rank = dom(&chromium, &scratch, &url(&standings, "sort=-rank"));
        assert!(
            by_rank.contains("aria-sort=\"descending\""),
            "the script did not sort"
        );
        let ranks: Vec<u32> = column(&by_rank, "rank")
            .iter()
            .filter(|r| !r.is_empty())
            .map(|r| r.parse().unwrap())
            .collect();
        assert!(ranks.len() > 1000);
        assert!(ranks.windows(2).all(|w| w[0] >= w[1]), "{:?}", &ranks[..10]);
        let by_avg = dom(&chromium, &scratch, &url(&standings, "sort=avg_score"));
        let avg: Vec<f64> = column(&by_avg, "avg_score")
            .iter()
            .map(|a| a.parse().unwrap())
            .collect();
        assert!(avg.windows(2).all(|w| w[0] <= w[1]), "{:?}", &avg[..10]);
    }

    #[test]
    fn markup_in_names_stays_text_in_the_browser() {
        let Some(chromium) = chromium_or_skip() else {
            return;
        };
        let scratch = Scratch::new("browser-markup");
        let site = scratch.path("site");
        publish(&markup_event(&scratch), &site);
        let index = dom(
            &chromium,
            &scratch,
            &url(&site.join("index.html"), "q=alert"),
        );
        let results = &index[index.find("<ul id=\"results\"").unwrap()..];
        let results = &results[..results.find("</ul>").unwrap()];
        assert_eq!(results.matches("<li>").count(), 3, "{results}");
        assert!(results.contains("P0001 &lt;script&gt;alert(1)&lt;/script&gt;"));
        // No element was made from a name: only the page's two scripts.
        assert_eq!(index.matches("<script").count(), 2, "{index}");
        assert!(!index.contains("<img"), "{index}");
        let player = dom(&chromium, &scratch, &url(&site.join("p/P0002.html"), ""));
        assert!(!player.contains("<img"), "{player}");
        assert!(player.contains("&lt;img src=x onerror=alert(2)&gt;"));
    }

    /// axe-core's script (`.ci/run` installs it with npm into
    /// `.ci/browser`), or why the test cannot run.
    fn axe_or_skip() -> Option<String> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(".ci/browser/node_modules/axe-core/axe.min.js");
        match std::fs::read_to_string(&path) {
            Ok(script) => Some(script),
            Err(e) => {
                if std::env::var("CI").is_ok_and(|v| v == "true") {
                    panic!("{}: {e}: CI must check the pages with axe-core (.ci/run installs it: cd .ci/browser && npm ci)", path.display());
                }
                eprintln!("BROWSER TEST DID NOT RUN: no axe-core (cd .ci/browser && npm ci)");
                None
            }
        }
    }

    /// Every page of a site, by path from its root.
    fn html_pages(site: &Path) -> Vec<String> {
        super::files(site)
            .into_keys()
            .filter(|p| p.ends_with(".html"))
            .collect()
    }

    /// The serious and critical faults axe-core finds on the page shown.
    fn axe_faults(browser: &mut Browser, axe: &str) -> Vec<String> {
        browser.eval(axe);
        let found = browser.eval(
            "axe.run(document, {resultTypes: ['violations']}).then(function (r) {
               return r.violations
                 .filter(function (v) { return v.impact === 'serious' || v.impact === 'critical'; })
                 .map(function (v) {
                   return v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3).map(function (n) { return n.target.join(' '); }).join(', ');
                 });
             })",
        );
        found
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    }

    /// The HK demo published in each language, on a phone 375 px wide
    /// (Chromium's own device emulation, over the DevTools protocol): no
    /// page scrolls sideways, axe-core finds nothing serious, a player's
    /// page says the rank before any table; the names of the standings
    /// keep to one line; the projector shows 15 players or more on a
    /// 1280×720 screen in large type.
    ///
    /// With TILERANK_SCREENSHOTS=DIR, writes the README's screenshots of
    /// a player's page into DIR.
    #[test]
    fn the_hk_demo_on_a_phone_in_english_and_chinese() {
        let Some(chromium) = chromium_or_skip() else {
            return;
        };
        let Some(axe) = axe_or_skip() else {
            return;
        };
        let scratch = Scratch::new("phone");
        let demo = hk_demo();
        // What the player's page must say: P0003's rank of how many.
        let standings = super::csv_tables(&super::stdout_of(&super::with(
            super::p(&["standings", "--format", "csv"]),
            &demo,
        )));
        let (header, rows) = &standings[0];
        let rank_col = header.iter().position(|h| h == "rank").unwrap();
        let ranked = rows.iter().filter(|r| !r[rank_col].is_empty()).count();
        let p0003 = rows.iter().find(|r| r[1] == "P0003").unwrap()[rank_col].clone();

        for lang in ["en", "zh-Hant"] {
            let site = scratch.path(&format!("site-{lang}"));
            let mut args = demo.clone();
            args.extend(["--lang".into(), lang.into()]);
            publish(&args, &site);
            let mut browser = Browser::start(&chromium, &scratch.path(&format!("profile-{lang}")));
            browser.viewport(375, 740, true);

            // Every page: the language said, nothing wider than the phone.
            let mut pages = html_pages(&site);
            // The site's own pages first, then the players' and the cards'.
            pages.sort_by_key(|p| (p.contains('/'), p.clone()));
            assert!(pages.len() > 1500, "{} pages", pages.len());
            for page in &pages {
                browser.go(&url(&site.join(page), ""));
                // A page wider than the phone widens its layout viewport
                // (innerWidth) past the screen's 375 px.
                let m = browser.eval(
                    "[screen.width, innerWidth, document.documentElement.scrollWidth, document.documentElement.lang]",
                );
                assert_eq!(m[0], 375, "{lang} {page}: the screen is not a phone's");
                assert!(
                    m[1] == 375 && m[2].as_u64().unwrap() <= 375,
                    "{lang} {page}: scrolls sideways ({} px wide)",
                    m[2]
                );
                assert_eq!(m[3], lang, "{lang} {page}: <html lang>");
            }

            // axe-core on every kind of page.
            for page in [
                "index.html",
                "standings-prelim.html",
                "qualifiers.html",
                "medals.html",
                "super-family-award.html",
                "players.html",
                "projector.html",
                "missing.html",
                "problems.html",
                "settings.html",
                "log.html",
                "p/P0003.html",
                "p/P0077.html",
                "t/prelim-S12-T19.html",
            ] {
                browser.go(&url(&site.join(page), ""));
                let faults = axe_faults(&mut browser, &axe);
                assert!(faults.is_empty(), "{lang} {page}: axe-core: {faults:#?}");
            }

            // A player's page leads with the answer: the rank of how many,
            // before any table.
            browser.go(&url(&site.join("p/P0003.html"), ""));
            let lead = browser.eval(
                "(function () {
                   var r = document.querySelector('main .rank'), t = document.querySelector('main table');
                   return [r ? r.textContent : '', !t || !!(r.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING),
                           document.querySelector('main .status').textContent];
                 })()",
            );
            let said = lead[0].as_str().unwrap();
            let (at, of) = (said.find(&p0003), said.find(&ranked.to_string()));
            assert!(
                at.is_some() && of.is_some() && at < of,
                "{lang}: the rank is not said as {p0003} of {ranked}: {said:?}"
            );
            assert_eq!(lead[1], true, "{lang}: a table comes before the rank");
            assert!(!lead[2].as_str().unwrap().is_empty(), "{lang}: no status");
            if let Ok(dir) = std::env::var("TILERANK_SCREENSHOTS") {
                let height = browser
                    .eval("document.documentElement.scrollHeight")
                    .as_u64()
                    .unwrap()
                    .min(1300) as u32;
                browser.viewport(375, height, true);
                let short = if lang == "en" { "en" } else { "zh" };
                let png = Path::new(&dir).join(format!("site-player-{short}.png"));
                std::fs::write(&png, browser.screenshot()).unwrap();
                browser.viewport(375, 740, true);
            }
            let png = browser.screenshot();
            assert_eq!(&png[1..4], b"PNG");

            // The index and the standings as a phone shows them, to look
            // at; the README's standings on a laptop, the search box
            // finding 陳國雄.
            if let Ok(dir) = std::env::var("TILERANK_SCREENSHOTS") {
                for page in ["index", "standings-prelim"] {
                    browser.go(&url(&site.join(format!("{page}.html")), ""));
                    let png = Path::new(&dir).join(format!("{page}-{lang}.png"));
                    std::fs::write(&png, browser.screenshot()).unwrap();
                }
                if lang == "en" {
                    browser.viewport(960, 540, false);
                    let q = format!("q={}", encode("陳國雄"));
                    browser.go(&url(&site.join("standings-prelim.html"), &q));
                    let png = Path::new(&dir).join("site-standings.png");
                    std::fs::write(&png, browser.screenshot()).unwrap();
                    browser.viewport(375, 740, true);
                }
            }

            // The standings: every row on one line, names shortened.
            browser.go(&url(&site.join("standings-prelim.html"), ""));
            let heights = browser.eval(
                "Array.prototype.map.call(document.querySelectorAll('#data tbody tr'), function (r) { return r.getBoundingClientRect().height; })",
            );
            let heights: Vec<f64> = heights
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h.as_f64().unwrap())
                .collect();
            assert_eq!(heights.len(), rows.len());
            let (low, high) = heights
                .iter()
                .fold((f64::MAX, 0f64), |(l, h), &x| (l.min(x), h.max(x)));
            assert!(
                high < low * 1.5,
                "{lang}: a row of the standings wraps ({low} to {high} px high)"
            );

            // The projector on a hall's screen.
            browser.viewport(1280, 720, false);
            browser.go(&url(&site.join("projector.html"), ""));
            let seen = browser.eval(
                "(function () {
                   var rows = document.querySelectorAll('tbody tr'), n = 0;
                   for (var i = 0; i < rows.length; i++) if (rows[i].getBoundingClientRect().bottom <= innerHeight) n++;
                   return [n, parseFloat(getComputedStyle(rows[0].cells[1]).fontSize)];
                 })()",
            );
            assert!(
                seen[0].as_u64().unwrap() >= 15,
                "{lang}: the projector shows {} players on 1280×720",
                seen[0]
            );
            assert!(
                seen[1].as_f64().unwrap() >= 24.0,
                "{lang}: the projector's type is {} px",
                seen[1]
            );
        }
    }
}

/// `serve` given a folder or file that is not there stops at once with the
/// message and exit status every command gives (it used to serve "no
/// results yet" pages that never came).
#[test]
fn serve_of_an_event_or_file_not_there_stops_with_exit_status_2() {
    Test::new()
        .args(["serve", "--event", "no-such-event", "--port", "0"])
        .run()
        .failure(2)
        .stderr_has("no-such-event: not an event folder (no tilerank.toml)");
    Test::new()
        .args(["serve", "no-such-file.csv", "--port", "0"])
        .run()
        .failure(2)
        .stderr_has("no-such-file.csv: no such file or folder");
}

/// On a phone the medals keep their age group (a gold means nothing
/// without it) and a card's page its tiles left; the id and the note go.
#[test]
fn a_phone_keeps_the_medals_group_and_the_cards_tiles() {
    let scratch = Scratch::new("phone-columns");
    let site = scratch.path("site");
    publish(&[PathBuf::from("--event"), example("nvso-2023")], &site);
    let hidden = |page: &str| -> String {
        let html = std::fs::read_to_string(site.join(page)).unwrap();
        let at = html
            .find("@media screen and (max-width:640px){")
            .expect(page);
        html[at..].split('}').next().unwrap().to_string()
    };
    // medals: group, medal, rank, player, name, note
    assert_eq!(
        hidden("medals.html"),
        "@media screen and (max-width:640px){#data tr>:nth-child(4),#data tr>:nth-child(6){display:none"
    );
    // a card: game, seat, player, name, won, score, tiles, ...
    let card = hidden("t/final-S01-T1.html");
    assert!(!card.contains("nth-child(7)"), "{card}");
    assert!(card.contains("nth-child(3)"), "{card}");
}

/// A phone and the projector keep the columns the place rests on, the
/// rules' first keys: the total under nvso and gwinnett (the average goes
/// instead), games won and the average under hk.
#[test]
fn a_phone_and_the_projector_keep_the_rules_order_keys() {
    let scratch = Scratch::new("phone-keys");
    // the headers a phone shows of the table `id` on `page`, and those the
    // projector shows
    let on_phone = |site: &Path, page: &str, id: &str| -> Vec<String> {
        let html = std::fs::read_to_string(site.join(page)).unwrap();
        let at = html
            .find("@media screen and (max-width:640px){")
            .expect(page);
        let hidden = html[at..].split('}').next().unwrap().to_string();
        let (header, _) = site_table(&site.join(page), id);
        header
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !hidden.contains(&format!("nth-child({})", i + 1)))
            .map(|(_, h)| h)
            .collect()
    };
    let on_projector = |site: &Path| -> Vec<String> {
        let html = std::fs::read_to_string(site.join("projector.html")).unwrap();
        let head = &html[html.find("<thead>").unwrap()..html.find("</thead>").unwrap()];
        head.split("data-name=\"")
            .skip(1)
            .map(|th| th[..th.find('"').unwrap()].to_string())
            .collect()
    };
    let gw = scratch.path("gw");
    publish(&[PathBuf::from("--event"), example("gwinnett")], &gw);
    assert_eq!(
        on_phone(&gw, "standings-prelim.html", "data"),
        ["rank", "name", "won", "total_score", "status"]
    );
    assert_eq!(
        on_projector(&gw),
        ["rank", "name", "won", "total_score", "tiles"]
    );
    let nv = scratch.path("nv");
    publish(&[PathBuf::from("--event"), example("nvso-2023")], &nv);
    assert_eq!(
        on_phone(&nv, "standings-prelim-65-79.html", "data"),
        ["rank", "name", "won", "total_score", "status"]
    );
    let hk = scratch.path("hk");
    publish(&hk_demo(), &hk);
    assert_eq!(
        on_phone(&hk, "standings-prelim.html", "data"),
        ["rank", "name", "won", "avg_score", "status"]
    );
    assert_eq!(
        on_projector(&hk),
        ["rank", "name", "won", "avg_score", "tiles", "status"]
    );
}

/// Under penalty points (the Gwinnett demo) the standings' pages head the
/// scores as penalty points, in each language, and so do a player's page
/// and the order line under the standings; the columns keep their
/// machine names. The Settings page says what each setting is about in
/// the page's language.
#[test]
fn penalty_points_are_headed_as_penalty_points() {
    let scratch = Scratch::new("penalty-headers");
    let event = vec![PathBuf::from("--event"), example("gwinnett")];
    for (lang, average, total, not, order, rule) in [
        (
            "en",
            "Average penalty points",
            "Total penalty points",
            "Average score",
            "total penalty points (lower first)",
            "Who goes on from each stage: ",
        ),
        (
            "zh-Hant",
            "平均罰分",
            "總罰分",
            "平均得分",
            "總罰分（低者優先）",
            "各階段的晉級方式：",
        ),
    ] {
        let site = scratch.path(&format!("site-{lang}"));
        publish(&with(event.clone(), &p(&["--lang", lang])), &site);
        let page = std::fs::read_to_string(site.join("standings-prelim.html")).unwrap();
        assert!(
            page.contains(&format!(">{average}</button>")),
            "{lang}: {page}"
        );
        assert!(
            page.contains(&format!(">{total}</button>")),
            "{lang}: {page}"
        );
        assert!(!page.contains(not), "{lang}: {page}");
        assert!(page.contains(order), "{lang}: {page}");
        assert!(page.contains("data-name=\"avg_score\""), "{lang}");
        assert!(page.contains("data-name=\"total_score\""), "{lang}");
        // a player's page says the average in the same words
        let player = std::fs::read_to_string(site.join("p/GW10.html")).unwrap();
        assert!(
            player.contains(&format!("<dt>{average}</dt>")),
            "{lang}: {player}"
        );
        assert!(player.contains(order), "{lang}: {player}");
        let settings = std::fs::read_to_string(site.join("settings.html")).unwrap();
        assert!(settings.contains(rule), "{lang}: {settings}");
        assert!(settings.contains("[qualifiers] rule"), "{lang}: {settings}");
    }
}
