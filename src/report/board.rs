//! The director's board of the live desk (`tilerank serve --entry`,
//! `/board`): the tables waiting for the director's decision first (in
//! conflict: the versions side by side, each value that differs between
//! them marked and said in a line, with a form to accept one, with a
//! reason), then every other table of the session at a glance (in, and
//! from whom; waiting for the desk's typing; missing). In English or
//! Traditional Chinese, as the entry page chooses: the language the
//! director's browser asks for first, else `serve`'s `--lang`.

use crate::domain::Seat;
use crate::event_folder::{
    differences, entry_by_in, source_in, BoardTable, CardRow, Difference, TableState,
};
use crate::lang::Lang;
use crate::report::site::html::esc;
use crate::report::words::{fill, Words};
use std::collections::HashSet;
use std::fmt::Write;

pub struct Board<'a> {
    pub lang: Lang,
    pub event: &'a str,
    pub tables: &'a [BoardTable],
    /// The form token of this run.
    pub csrf: &'a str,
    /// `[entry] double`: a referee's card waits for the desk's typing.
    pub double: bool,
    /// The files whose errors keep them out of the pages `serve` serves,
    /// each with its errors ([`crate::report::site::html::refused_notice`]).
    pub left_out: &'a std::collections::BTreeMap<String, usize>,
    /// Of each later stage that has begun, the players who went on to it
    /// and have no card of it yet: the event's own answer
    /// ([`crate::event::Completeness::waiting`]), as `check` and the pages
    /// say it. The board lists the first stage's tables only.
    pub no_card: &'a [(crate::domain::Stage, Vec<crate::domain::PlayerId>)],
}

fn state_word(w: &Words, state: TableState) -> &'static str {
    match state {
        TableState::Missing => w.board_missing_state,
        TableState::Waiting => w.board_waiting_state,
        TableState::In => w.board_in_state,
        TableState::Conflict => w.board_conflict_state,
        TableState::TypedTwice => w.board_typed_twice_state,
    }
}

fn state_class(state: TableState) -> &'static str {
    match state {
        TableState::Missing => "missing",
        TableState::Waiting => "waiting",
        TableState::In => "in",
        TableState::Conflict => "conflict",
        TableState::TypedTwice => "typed-twice",
    }
}

/// A table the director is to settle: in conflict, or (single entry) an
/// entry with no card of the event to agree with.
fn to_decide(t: &BoardTable, double: bool) -> bool {
    t.state == TableState::Conflict || (t.state == TableState::Waiting && !double)
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1rem;max-width:70rem}\
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}\
.conflict td{background:#fde2e1}.waiting td{background:#fff5d6}.missing td{color:#666}\
.versions{display:flex;gap:1rem;flex-wrap:wrap}\
.versions>div{flex:1 1 20rem;border:1px solid #999;padding:.5rem;background:#fff}form{margin:.5rem 0}\
table.rows{width:auto;font-size:.9rem}table.rows td,table.rows th{padding:.1rem .5rem;background:#fff}\
mark{background:#ffd54f;font-weight:700;padding:0 .15rem}.differs{margin:.2rem 0 .5rem;font-weight:600}\
input[type=text]{width:20rem;max-width:100%}.warn{background:#fff4d6;border-left:4px solid #d89b00;padding:.45rem .7rem}.counts span{margin-right:1rem}h2{margin-top:1.5rem}";

/// The whole board page.
pub fn page(b: &Board) -> String {
    let w = b.lang.words();
    let count = |s: TableState| b.tables.iter().filter(|t| t.state == s).count();
    let event = if b.event.is_empty() {
        w.board_event
    } else {
        b.event
    };
    // a later stage's players with no card yet, after the tables
    let no_card: String = b
        .no_card
        .iter()
        .map(|(stage, players)| {
            let stage = w.stage(stage.as_str());
            let said = match players.len() {
                1 => fill(w.board_one_no_card, &[&stage]),
                n => fill(w.board_n_no_card, &[&n, &stage]),
            };
            format!("<span>{}</span>", esc(&said))
        })
        .collect();
    // the tables a double entry held back, when there are some
    let typed_twice = match count(TableState::TypedTwice) {
        0 => String::new(),
        n => format!("<span>{}</span>", esc(&fill(w.board_typed_twice, &[&n]))),
    };
    let mut body = String::new();
    let _ = write!(
        body,
        "<h1>{}</h1>\n<p class=\"counts\"><span>{}</span><span>{}</span><span>{}</span><span>{}</span>{typed_twice}{no_card}</p>\n<p>{}</p>\n",
        esc(&fill(w.board_title, &[&event])),
        esc(&fill(w.board_in, &[&count(TableState::In)])),
        esc(&fill(w.board_waiting, &[&count(TableState::Waiting)])),
        esc(&fill(w.board_conflicts, &[&count(TableState::Conflict)])),
        esc(&fill(w.board_missing, &[&count(TableState::Missing)])),
        esc(if b.double {
            w.board_double
        } else {
            w.board_single
        }),
    );
    body.push_str(&crate::report::site::html::refused_notice(
        b.lang, b.left_out,
    ));
    let (decide, others): (Vec<&BoardTable>, Vec<&BoardTable>) =
        b.tables.iter().partition(|t| to_decide(t, b.double));
    if !decide.is_empty() {
        let _ = writeln!(
            body,
            "<h2 id=\"decide\">{}</h2>",
            esc(&fill(w.board_decide, &[&decide.len()]))
        );
        tables(&mut body, b, &decide);
    }
    if !others.is_empty() {
        let _ = writeln!(
            body,
            "<h2 id=\"others\">{}</h2>",
            esc(if decide.is_empty() {
                w.board_tables
            } else {
                w.board_others
            })
        );
        tables(&mut body, b, &others);
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}<p><a href=\"/board\">{}</a></p>\n</body>\n</html>\n",
        b.lang.tag(),
        esc(&fill(w.board_page_title, &[&event])),
        esc(w.board_reload),
    )
}

/// A table of the board's rows: each table, and for one to decide, its
/// versions and the form that settles it.
fn tables(body: &mut String, b: &Board, list: &[&BoardTable]) {
    let w = b.lang.words();
    let [card_col, state_col, event_col, entries_col] = w.board_headers;
    let _ = writeln!(
        body,
        "<table>\n<tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
        esc(card_col),
        esc(state_col),
        esc(event_col),
        esc(entries_col)
    );
    for t in list {
        let card = match &t.card {
            Some(c) => format!(
                "{} <small>({})</small>",
                esc(&source_in(b.lang, &c.from)),
                esc(&c.time)
            ),
            None => "—".to_string(),
        };
        let entries = t
            .entries
            .iter()
            .map(|e| {
                format!(
                    "{} <small>({}{})</small>",
                    esc(&entry_by_in(b.lang, &e.referee)),
                    esc(&e.time),
                    if e.agrees {
                        esc(w.board_agrees)
                    } else {
                        String::new()
                    }
                )
            })
            .collect::<Vec<_>>()
            .join("<br>");
        let _ = writeln!(
            body,
            "<tr class=\"{}\" id=\"{}\"><td>{}</td><td>{}</td><td>{card}</td><td>{}{}</td></tr>",
            state_class(t.state),
            esc(&anchor(t)),
            esc(&t.key.said().say(b.lang)),
            esc(state_word(w, t.state)),
            if entries.is_empty() {
                "—".to_string()
            } else {
                entries
            },
            t.decided
                .as_ref()
                .map(|d| format!("<br><small>{}</small>", esc(&fill(w.board_decided, &[d]))))
                .unwrap_or_default()
        );
        if to_decide(t, b.double) {
            let _ = writeln!(
                body,
                "<tr class=\"{}\"><td colspan=\"4\">{}</td></tr>",
                state_class(t.state),
                versions(t, b)
            );
        }
    }
    body.push_str("</table>\n");
}

fn anchor(t: &BoardTable) -> String {
    t.key
        .to_string()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect()
}

/// One version of a table's card: its name on the board and its rows.
struct Version<'a> {
    name: String,
    rows: &'a [CardRow],
}

/// The versions of a table side by side, each value that differs from
/// the first (the event's card, else the first entry) marked and said in
/// a line, and the form that settles it.
fn versions(t: &BoardTable, b: &Board) -> String {
    let w = b.lang.words();
    let mut all: Vec<Version> = Vec::new();
    if let Some(c) = &t.card {
        all.push(Version {
            name: w.board_the_card.to_string(),
            rows: &c.rows,
        });
    }
    for e in &t.entries {
        all.push(Version {
            name: fill(w.board_entry, &[&e.id, &entry_by_in(b.lang, &e.referee)]),
            rows: &e.rows,
        });
    }
    // each version's values that differ from the first's, and the first's
    // that differ from any other's
    let mut marked: Vec<HashSet<(u32, Seat, usize)>> = vec![HashSet::new(); all.len()];
    let mut out = String::new();
    if let Some((first, rest)) = all.split_first() {
        for (i, other) in rest.iter().enumerate() {
            if other.rows.is_empty() || first.rows.is_empty() {
                continue;
            }
            let differs = differences(first.rows, other.rows);
            if differs.is_empty() {
                continue;
            }
            for d in &differs {
                let at = (d.game, d.seat, d.field);
                marked[0].insert(at);
                marked[i + 1].insert(at);
            }
            let said: Vec<String> = differs.iter().map(|d| difference(w, d)).collect();
            let _ = write!(
                out,
                "<p class=\"differs\">{}</p>",
                esc(&fill(
                    w.board_differs,
                    &[&first.name, &other.name, &said.join(w.board_then)]
                ))
            );
        }
    }
    out.push_str("<div class=\"versions\">");
    let mut choices = String::new();
    let mut n = 0;
    if let Some(c) = &t.card {
        let _ = write!(
            out,
            "<div><strong>{}</strong> ({}){}</div>",
            esc(&all[n].name),
            esc(&source_in(b.lang, &c.from)),
            rows(w, &c.rows, &marked[n])
        );
        n += 1;
        let _ = write!(
            choices,
            "<label><input type=\"radio\" name=\"choice\" value=\"card\" required> {}</label><br>",
            esc(w.board_keep)
        );
    }
    for e in &t.entries {
        let shown = if e.rows.is_empty() {
            esc(w.board_no_longer)
        } else {
            rows(w, &e.rows, &marked[n])
        };
        let _ = write!(
            out,
            "<div><strong>{}</strong> ({}){shown}</div>",
            esc(&all[n].name),
            esc(&e.time),
        );
        n += 1;
        if !e.agrees && !e.rows.is_empty() {
            let _ = write!(
                choices,
                "<label><input type=\"radio\" name=\"choice\" value=\"{}\" required> {}</label><br>",
                e.id,
                esc(&fill(
                    w.board_accept_entry,
                    &[&e.id, &entry_by_in(b.lang, &e.referee)]
                ))
            );
        }
    }
    out.push_str("</div>");
    let (stage, session, table) = (
        t.key.stage.to_string(),
        crate::domain::SessionName(&t.key.session).to_string(),
        t.key.table.to_string(),
    );
    let _ = write!(
        out,
        "<form method=\"post\" action=\"/board/accept\">{choices}<input type=\"hidden\" name=\"stage\" value=\"{}\"><input type=\"hidden\" name=\"session\" value=\"{}\"><input type=\"hidden\" name=\"table\" value=\"{}\"><input type=\"hidden\" name=\"csrf\" value=\"{}\"><label>{} <input type=\"text\" name=\"reason\" required placeholder=\"{}\"></label> <button>{}</button></form>",
        esc(&stage),
        esc(&session),
        esc(&table),
        esc(b.csrf),
        esc(w.board_reason),
        esc(w.board_reason_hint),
        esc(w.board_accept),
    );
    out
}

/// A value that differs, in a line: `game 3, seat B score: 35 vs -35`.
fn difference(w: &Words, d: &Difference) -> String {
    let [a, b] = d.values.clone().map(|v| v.unwrap_or_else(|| "—".into()));
    fill(
        w.board_difference,
        &[&d.game, &d.seat, &w.board_fields[d.field], &a, &b],
    )
}

/// A version's rows as a table, the values in `marked` marked.
fn rows(w: &Words, rows: &[CardRow], marked: &HashSet<(u32, Seat, usize)>) -> String {
    let mut out = String::from("<table class=\"rows\"><tr>");
    for h in w.board_columns {
        let _ = write!(out, "<th>{}</th>", esc(h));
    }
    out.push_str("</tr>");
    for r in rows {
        let _ = write!(out, "<tr><td>{}</td><td>{}</td>", r.game, r.seat);
        for (field, v) in r.values.iter().enumerate() {
            if marked.contains(&(r.game, r.seat, field)) {
                let _ = write!(out, "<td><mark>{}</mark></td>", esc(v));
            } else {
                let _ = write!(out, "<td>{}</td>", esc(v));
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{CardKey, Label, Stage};
    use crate::event_folder::{BoardCard, BoardEntry};

    fn row(game: u32, seat: Seat, values: [&str; 4]) -> CardRow {
        CardRow {
            game,
            seat,
            values: values.map(str::to_string),
        }
    }

    fn table(n: u32, state: TableState) -> BoardTable {
        BoardTable {
            key: CardKey {
                stage: Stage::prelim(),
                session: Label::Num(1),
                table: Label::Num(n),
            },
            state,
            card: Some(BoardCard {
                from: "S01.csv".into(),
                time: "2026-03-28T12:00:00Z".into(),
                rows: vec![
                    row(3, Seat::A, ["P0001", "1", "70", "0"]),
                    row(3, Seat::B, ["P0002", "0", "-35", "4"]),
                    row(3, Seat::C, ["P0003", "0", "-35", "6"]),
                ],
            }),
            entries: vec![BoardEntry {
                id: 3,
                referee: "<b>Ann</b>".into(),
                time: "2026-03-28T12:01:00Z".into(),
                rows: vec![
                    row(3, Seat::A, ["P0001", "1", "70", "0"]),
                    row(3, Seat::B, ["P0002", "0", "35", "4"]),
                    row(3, Seat::C, ["P0003", "0", "-35", "6"]),
                ],
                agrees: false,
            }],
            decided: None,
        }
    }

    fn board(lang: Lang, tables: &[BoardTable]) -> String {
        page(&Board {
            lang,
            event: "Open",
            tables,
            csrf: "tok123",
            double: true,
            left_out: &Default::default(),
            no_card: &[],
        })
    }

    #[test]
    fn a_conflict_shows_both_versions_and_a_form_with_the_token() {
        let html = board(Lang::En, &[table(7, TableState::Conflict)]);
        assert!(html.contains("CONFLICT"));
        assert!(
            html.contains("<strong>The event&#39;s card</strong>"),
            "{html}"
        );
        assert!(html.contains("Entry 3 by &lt;b&gt;Ann&lt;/b&gt;"), "{html}");
        assert!(html.contains("name=\"csrf\" value=\"tok123\""));
        assert!(html.contains("value=\"3\""), "the entry can be accepted");
        assert!(!html.contains("<b>Ann"), "names are escaped");
    }

    #[test]
    fn a_conflict_marks_the_values_that_differ_and_says_them_in_a_line() {
        let html = board(Lang::En, &[table(7, TableState::Conflict)]);
        // in each version, seat B's score of game 3, and nothing else
        assert_eq!(html.matches("<mark>").count(), 2, "{html}");
        assert!(html.contains("<td><mark>-35</mark></td>"), "{html}");
        assert!(html.contains("<td><mark>35</mark></td>"), "{html}");
        assert!(
            html.contains("<p class=\"differs\">The event&#39;s card vs Entry 3 by &lt;b&gt;Ann&lt;/b&gt;: game 3, seat B score: -35 vs 35</p>"),
            "{html}"
        );
        // a line the other version has not
        let mut t = table(7, TableState::Conflict);
        t.entries[0].rows.pop();
        let html = board(Lang::En, &[t]);
        assert!(
            html.contains("game 3, seat C player: P0003 vs —; game 3, seat C won: 0 vs —"),
            "{html}"
        );
    }

    /// A table a double entry held back is said so, and counted, in both
    /// languages; it is not one the board decides (tester r8 #11).
    #[test]
    fn a_table_typed_twice_is_said_so_not_missing() {
        let mut t = table(4, TableState::TypedTwice);
        t.card = None;
        t.entries.clear();
        let html = board(Lang::En, &[t.clone()]);
        assert!(
            html.contains("<td>typed twice, the typings differ (held back by double entry): compare them with the signed card, then import the right one</td>"),
            "{html}"
        );
        assert!(
            html.contains("<span>0 missing</span><span>1 typed twice, the typings differ</span>"),
            "{html}"
        );
        assert!(!html.contains("Waiting for your decision"), "{html}");
        let html = board(Lang::ZhHant, &[t]);
        assert!(
            html.contains("輸入兩次但兩次不符（雙重輸入暫緩）"),
            "{html}"
        );
        assert!(html.contains("<span>輸入兩次不符 1 枱</span>"), "{html}");
        // none: not counted
        let html = board(Lang::En, &[table(7, TableState::Conflict)]);
        assert!(!html.contains("typed twice"), "{html}");
    }

    #[test]
    fn the_tables_to_decide_come_first() {
        let mut done = table(1, TableState::In);
        done.entries[0].agrees = true;
        let mut missing = table(2, TableState::Missing);
        missing.card = None;
        missing.entries.clear();
        let tables = [done, missing, table(9, TableState::Conflict)];
        let html = board(Lang::En, &tables);
        let at = |text: &str| html.find(text).unwrap_or_else(|| panic!("{text}: {html}"));
        assert!(at("Waiting for your decision (1)") < at("id=\"session-S01-table-9\""));
        assert!(at("id=\"session-S01-table-9\"") < at("The other tables"));
        assert!(at("The other tables") < at("id=\"session-S01-table-1\""));
        assert!(at("id=\"session-S01-table-1\"") < at("id=\"session-S01-table-2\""));
        // none to decide: the tables, in order
        let html = board(Lang::En, &tables[..2]);
        assert!(!html.contains("Waiting for your decision"), "{html}");
        assert!(html.contains("<h2 id=\"others\">The tables</h2>"), "{html}");
    }

    #[test]
    fn the_board_speaks_english_or_traditional_chinese() {
        let tables = [table(7, TableState::Conflict)];
        let zh = board(Lang::ZhHant, &tables);
        assert!(zh.contains("<html lang=\"zh-Hant\">"), "{zh}");
        for said in [
            "<title>看板 — Open</title>",
            "<h1>Open — 記分台看板</h1>",
            "<span>衝突 1 枱</span>",
            "待你決定（1 枱）",
            "<td>場次 S01 第 7 枱</td><td>衝突</td>",
            "<strong>第 3 號輸入（&lt;b&gt;Ann&lt;/b&gt;）</strong>",
            "賽事的計分卡對第 3 號輸入（&lt;b&gt;Ann&lt;/b&gt;）：第 3 局，座位 B 得分：-35 對 35",
            "<th>局</th><th>座位</th><th>選手</th><th>勝局</th><th>得分</th><th>餘牌</th>",
            "採用第 3 號輸入（&lt;b&gt;Ann&lt;/b&gt;）",
            "<button>採用</button>",
        ] {
            assert!(zh.contains(said), "{said}: {zh}");
        }
        for english in ["CONFLICT", "The event", "Entry 3", "Accept", "Reason"] {
            assert!(!zh.contains(english), "{english}: {zh}");
        }
        let en = board(Lang::En, &tables);
        assert!(en.contains("<html lang=\"en\">"));
        assert!(
            en.contains("<td>session S01 table 7</td><td>CONFLICT</td>"),
            "{en}"
        );
        assert!(!en.contains("衝突"));
    }

    #[test]
    fn entries_of_the_live_desk_are_named_in_the_pages_words() {
        // the event's card entered by a referee, the desk's typing kept
        // beside it: tilerank's words in Chinese, names and files as written
        let mut t = table(7, TableState::Conflict);
        t.card.as_mut().unwrap().from = crate::event_folder::entry_source("Ann Lee");
        t.entries[0].referee = "desk: cards/S01.xlsx".into();
        let zh = board(Lang::ZhHant, &[t.clone()]);
        for said in [
            "<td>裁判 Ann Lee 的輸入 <small>",
            "<strong>賽事的計分卡</strong> (裁判 Ann Lee 的輸入)",
            "賽事的計分卡對第 3 號輸入（記分台：cards/S01.xlsx）：",
            "<td>記分台：cards/S01.xlsx <small>",
            "採用第 3 號輸入（記分台：cards/S01.xlsx）",
        ] {
            assert!(zh.contains(said), "{said}: {zh}");
        }
        for english in ["entry by referee", "desk:"] {
            assert!(!zh.contains(english), "{english}: {zh}");
        }
        let en = board(Lang::En, &[t]);
        for said in [
            "<td>entry by referee Ann Lee <small>",
            "<td>desk: cards/S01.xlsx <small>",
        ] {
            assert!(en.contains(said), "{said}: {en}");
        }
    }

    /// The files whose errors keep them out of the pages are named on the
    /// board too, in its language, with their errors.
    #[test]
    fn the_board_names_the_files_left_out_of_the_pages() {
        let left_out = [("cards/S03.xlsx".to_string(), 2)].into();
        for (lang, said) in [
            (Lang::En, "Not in these results yet: cards/S03.xlsx (2 errors), which the desk is correcting."),
            (Lang::ZhHant, "尚未計入賽果：cards/S03.xlsx（2 個錯誤），記分台正在更正。"),
        ] {
            let html = page(&Board {
                lang,
                event: "Open",
                tables: &[table(7, TableState::Missing)],
                csrf: "tok",
                double: false,
                left_out: &left_out,
                no_card: &[],
            });
            assert!(html.contains(said), "{said}: {html}");
        }
        assert!(!board(Lang::En, &[table(7, TableState::Missing)]).contains("id=\"refused\""));
    }

    /// During the final (the prelim complete, one final card in), the
    /// board says the finalists with no card yet, as `check` and the
    /// pages do, not only the prelim's tables missing.
    #[test]
    fn the_board_says_the_players_of_a_later_stage_with_no_card_yet() {
        let mut done = table(1, TableState::In);
        done.entries.clear();
        let no_card = [(
            Stage::new("final"),
            (4..121).map(crate::domain::PlayerId).collect::<Vec<_>>(),
        )];
        for (lang, said) in [
            (
                Lang::En,
                "<span>1 in</span><span>0 waiting for the desk</span><span>0 in conflict</span><span>0 missing</span><span>117 players of the final have no card yet</span></p>",
            ),
            (
                Lang::ZhHant,
                "<span>已收 1 枱</span><span>等候記分台 0 枱</span><span>衝突 0 枱</span><span>未交 0 枱</span><span>決賽尚無計分卡 117 名</span></p>",
            ),
        ] {
            let html = page(&Board {
                lang,
                event: "Open",
                tables: std::slice::from_ref(&done),
                csrf: "tok",
                double: false,
                left_out: &Default::default(),
                no_card: &no_card,
            });
            assert!(html.contains(said), "{said}: {html}");
        }
        // one player
        let one = [(Stage::new("final"), vec![crate::domain::PlayerId(7)])];
        let html = page(&Board {
            lang: Lang::En,
            event: "Open",
            tables: std::slice::from_ref(&done),
            csrf: "tok",
            double: false,
            left_out: &Default::default(),
            no_card: &one,
        });
        assert!(
            html.contains("<span>1 player of the final has no card yet</span>"),
            "{html}"
        );
        // nothing of a later stage to come: the counts alone
        let html = board(Lang::En, std::slice::from_ref(&done));
        assert!(html.contains("<span>0 missing</span></p>"), "{html}");
    }

    #[test]
    fn a_table_in_has_no_form() {
        let mut t = table(7, TableState::In);
        t.entries[0].agrees = true;
        t.entries[0].rows = t.card.as_ref().unwrap().rows.clone();
        let html = page(&Board {
            lang: Lang::En,
            event: "Open",
            tables: &[t],
            csrf: "tok",
            double: false,
            left_out: &Default::default(),
            no_card: &[],
        });
        assert!(html.contains("1 in"));
        assert!(!html.contains("<form"));
        assert!(!html.contains("<mark>"));
    }
}
