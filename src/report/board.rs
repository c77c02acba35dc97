//! The director's board of the live desk (`tilerank serve --entry`,
//! `/board`): every table of the session at a glance (in, and from whom;
//! waiting for the desk's typing; missing; in conflict), and for a
//! conflict the versions side by side with a form to accept one, with a
//! reason. In English, as the command line is: the director's tool.

use crate::event_folder::{BoardTable, TableState};
use crate::report::site::html::esc;
use std::fmt::Write;

pub struct Board<'a> {
    pub event: &'a str,
    pub tables: &'a [BoardTable],
    /// The form token of this run.
    pub csrf: &'a str,
    /// `[entry] double`: a referee's card waits for the desk's typing.
    pub double: bool,
}

fn state_word(state: TableState) -> &'static str {
    match state {
        TableState::Missing => "missing",
        TableState::Waiting => "waiting for the desk",
        TableState::In => "in",
        TableState::Conflict => "CONFLICT",
    }
}

fn state_class(state: TableState) -> &'static str {
    match state {
        TableState::Missing => "missing",
        TableState::Waiting => "waiting",
        TableState::In => "in",
        TableState::Conflict => "conflict",
    }
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1rem;max-width:70rem}\
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}\
.conflict td{background:#fde2e1}.waiting td{background:#fff5d6}.missing td{color:#666}\
pre{margin:0;font-size:.85rem;white-space:pre-wrap}.versions{display:flex;gap:1rem;flex-wrap:wrap}\
.versions>div{flex:1 1 20rem;border:1px solid #999;padding:.5rem}form{margin:.5rem 0}\
input[type=text]{width:20rem;max-width:100%}.counts span{margin-right:1rem}";

/// The whole board page.
pub fn page(b: &Board) -> String {
    let count = |s: TableState| b.tables.iter().filter(|t| t.state == s).count();
    let mut body = String::new();
    let _ = write!(
        body,
        "<h1>{} — the desk's board</h1>\n<p class=\"counts\"><span>{} in</span><span>{} waiting for the desk</span><span>{} in conflict</span><span>{} missing</span></p>\n<p>{}</p>\n",
        esc(if b.event.is_empty() { "Event" } else { b.event }),
        count(TableState::In),
        count(TableState::Waiting),
        count(TableState::Conflict),
        count(TableState::Missing),
        if b.double {
            "Double entry: a referee's card counts once the desk's typing of the paper card agrees."
        } else {
            "A referee's card counts as soon as it is entered; the desk's typing is checked against it."
        }
    );
    body.push_str("<table>\n<tr><th>card</th><th>state</th><th>the event's card</th><th>referees' entries</th></tr>\n");
    for t in b.tables {
        let card = match &t.card {
            Some(c) => format!("{} <small>({})</small>", esc(&c.from), esc(&c.time)),
            None => "—".to_string(),
        };
        let entries = t
            .entries
            .iter()
            .map(|e| {
                format!(
                    "{} <small>({}{})</small>",
                    esc(&e.referee),
                    esc(&e.time),
                    if e.agrees { ", agrees" } else { "" }
                )
            })
            .collect::<Vec<_>>()
            .join("<br>");
        let _ =
            writeln!(
            body,
            "<tr class=\"{}\" id=\"{}\"><td>{}</td><td>{}</td><td>{card}</td><td>{}{}</td></tr>",
            state_class(t.state),
            esc(&anchor(t)),
            esc(&t.key.to_string()),
            state_word(t.state),
            if entries.is_empty() { "—".to_string() } else { entries },
            t.decided
                .as_ref()
                .map(|d| format!("<br><small>decided {}</small>", esc(d)))
                .unwrap_or_default()
        );
        if t.state == TableState::Conflict || (t.state == TableState::Waiting && !b.double) {
            let _ = writeln!(
                body,
                "<tr class=\"{}\"><td colspan=\"4\">{}</td></tr>",
                state_class(t.state),
                versions(t, b.csrf)
            );
        }
    }
    body.push_str("</table>\n");
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>Board — {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}<p><a href=\"/board\">Reload</a></p>\n</body>\n</html>\n",
        esc(b.event)
    )
}

fn anchor(t: &BoardTable) -> String {
    t.key
        .to_string()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect()
}

/// The versions of a table side by side, and the form that settles it.
fn versions(t: &BoardTable, csrf: &str) -> String {
    let mut out = String::from("<div class=\"versions\">");
    let mut choices = String::new();
    if let Some(c) = &t.card {
        let _ = write!(
            out,
            "<div><strong>The event's card</strong> ({})<pre>{}</pre></div>",
            esc(&c.from),
            esc(&c.lines.join("\n"))
        );
        choices.push_str("<label><input type=\"radio\" name=\"choice\" value=\"card\" required> keep the event's card</label><br>");
    }
    for e in &t.entries {
        let _ = write!(
            out,
            "<div><strong>Entry {} by {}</strong> ({})<pre>{}</pre></div>",
            e.id,
            esc(&e.referee),
            esc(&e.time),
            esc(&if e.lines.is_empty() {
                "(no longer passes its checks)".to_string()
            } else {
                e.lines.join("\n")
            })
        );
        if !e.agrees && !e.lines.is_empty() {
            let _ = write!(
                choices,
                "<label><input type=\"radio\" name=\"choice\" value=\"{}\" required> accept entry {} by {}</label><br>",
                e.id,
                e.id,
                esc(&e.referee)
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
        "<form method=\"post\" action=\"/board/accept\">{choices}<input type=\"hidden\" name=\"stage\" value=\"{}\"><input type=\"hidden\" name=\"session\" value=\"{}\"><input type=\"hidden\" name=\"table\" value=\"{}\"><input type=\"hidden\" name=\"csrf\" value=\"{}\"><label>Reason <input type=\"text\" name=\"reason\" required placeholder=\"checked against the signed card\"></label> <button>Accept</button></form>",
        esc(&stage),
        esc(&session),
        esc(&table),
        esc(csrf)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{CardKey, Label, Stage};
    use crate::event_folder::{BoardCard, BoardEntry};

    fn table(state: TableState) -> BoardTable {
        BoardTable {
            key: CardKey {
                stage: Stage::prelim(),
                session: Label::Num(1),
                table: Label::Num(7),
            },
            state,
            card: Some(BoardCard {
                from: "S01.csv".into(),
                time: "2026-03-28T12:00:00Z".into(),
                lines: vec!["session,table".into()],
            }),
            entries: vec![BoardEntry {
                id: 3,
                referee: "<b>Ann</b>".into(),
                time: "2026-03-28T12:01:00Z".into(),
                lines: vec!["S01,7,1,A,P0001,1,30,0".into()],
                agrees: false,
            }],
            decided: None,
        }
    }

    #[test]
    fn a_conflict_shows_both_versions_and_a_form_with_the_token() {
        let tables = [table(TableState::Conflict)];
        let html = page(&Board {
            event: "Open",
            tables: &tables,
            csrf: "tok123",
            double: true,
        });
        assert!(html.contains("CONFLICT"));
        assert!(html.contains("The event's card"));
        assert!(html.contains("Entry 3 by &lt;b&gt;Ann&lt;/b&gt;"), "{html}");
        assert!(html.contains("name=\"csrf\" value=\"tok123\""));
        assert!(html.contains("value=\"3\""), "the entry can be accepted");
        assert!(!html.contains("<b>Ann"), "names are escaped");
    }

    #[test]
    fn a_table_in_has_no_form() {
        let mut t = table(TableState::In);
        t.entries[0].agrees = true;
        let tables = [t];
        let html = page(&Board {
            event: "Open",
            tables: &tables,
            csrf: "tok",
            double: false,
        });
        assert!(html.contains("1 in"));
        assert!(!html.contains("<form"));
    }
}
