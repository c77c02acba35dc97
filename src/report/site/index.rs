//! The index: the event's name, date and profile, what has been imported
//! (the cards of each stage and session, linked), what is still missing,
//! the director's decisions, and a link to every page.

use super::html::{self, esc, Frame};
use super::links::card_page;
use super::Context;
use crate::domain::{CardKey, Label, SessionName, Stage};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Cards by (stage, session), tables in order.
fn by_session<'a>(
    keys: impl Iterator<Item = &'a CardKey>,
    stages: &[Stage],
) -> Vec<((Stage, Label), Vec<&'a CardKey>)> {
    let mut map: BTreeMap<(usize, Stage, Label), Vec<&CardKey>> = BTreeMap::new();
    for k in keys {
        let order = stages
            .iter()
            .position(|s| *s == k.stage)
            .unwrap_or(stages.len());
        map.entry((order, k.stage.clone(), k.session.clone()))
            .or_default()
            .push(k);
    }
    map.into_iter()
        .map(|((_, stage, session), mut keys)| {
            keys.sort_by(|a, b| a.table.cmp(&b.table));
            ((stage, session), keys)
        })
        .collect()
}

pub fn page(ctx: &Context) -> String {
    let event = ctx.event;
    let rules = &event.rules;
    let mut b = String::new();
    let name = if ctx.name().is_empty() {
        "Results"
    } else {
        ctx.name()
    };
    let _ = writeln!(b, "<h1>{}</h1>", esc(name));
    let _ = writeln!(b, "<dl class=\"facts\">");
    if let Some(d) = &rules.event_date {
        let _ = writeln!(b, "<dt>Date</dt><dd>{}</dd>", esc(d));
    }
    let _ = writeln!(
        b,
        "<dt>Rules</dt><dd>{}</dd>",
        esc(&rules.profile.to_string())
    );
    let _ = writeln!(
        b,
        "<dt>Imported</dt><dd>{} cards, {} games, {} players</dd>",
        event.cards.len(),
        event.counts.games,
        event.roster.len()
    );
    let _ = writeln!(b, "</dl>");

    let missing = &ctx.req.completeness.missing;
    if !missing.is_empty() {
        let _ = writeln!(
            b,
            "<p class=\"warn\" id=\"provisional\">PROVISIONAL: {} the event expects {} not imported yet; standings and qualifiers may change.</p>",
            if missing.len() == 1 { "1 card".to_string() } else { format!("{} cards", missing.len()) },
            if missing.len() == 1 { "is" } else { "are" }
        );
    }
    for d in &ctx.decisions {
        let _ = writeln!(b, "<p class=\"warn\">{}</p>", esc(d));
    }

    b.push_str("<h2>Results</h2>\n<ul class=\"pages\">\n");
    for (table, path) in ctx.tables.iter().zip(&ctx.table_pages) {
        let _ = writeln!(
            b,
            "<li><a href=\"{}\">{}</a></li>",
            esc(path),
            esc(&table.title)
        );
    }
    let _ = writeln!(
        b,
        "<li><a href=\"players.html\">Every player ({})</a></li>",
        event.roster.len()
    );
    b.push_str("<li><a href=\"projector.html\">Projector view</a></li>\n</ul>\n");

    let stages = event.stages();
    b.push_str("<h2>Imported</h2>\n");
    if event.cards.is_empty() {
        b.push_str("<p class=\"empty\">No cards yet.</p>\n");
    } else {
        b.push_str("<table class=\"imported\" id=\"imported\"><thead><tr><th>stage</th><th>session</th><th>cards</th><th>tables</th></tr></thead><tbody>\n");
        for ((stage, session), keys) in by_session(event.cards.iter().map(|c| &c.key), &stages) {
            let tables: Vec<String> = keys
                .iter()
                .map(|k| {
                    format!(
                        "<a href=\"{}\">{}</a>",
                        esc(&card_page(k)),
                        esc(&k.table.to_string())
                    )
                })
                .collect();
            let _ = writeln!(
                b,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"tables\">{}</td></tr>",
                esc(stage.as_str()),
                esc(&SessionName(&session).to_string()),
                keys.len(),
                tables.join(" ")
            );
        }
        b.push_str("</tbody></table>\n");
    }
    b.push_str("<h2>Missing</h2>\n");
    if missing.is_empty() {
        b.push_str("<p id=\"missing\">Nothing: every card the event expects is in (or the event sets no [sessions] to expect).</p>\n");
    } else {
        b.push_str("<table class=\"imported\" id=\"missing\"><thead><tr><th>stage</th><th>session</th><th>cards</th><th>tables</th></tr></thead><tbody>\n");
        for ((stage, session), keys) in by_session(missing.iter(), &stages) {
            let tables: Vec<String> = keys.iter().map(|k| esc(&k.table.to_string())).collect();
            let _ = writeln!(
                b,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"tables\">{}</td></tr>",
                esc(stage.as_str()),
                esc(&SessionName(&session).to_string()),
                keys.len(),
                tables.join(" ")
            );
        }
        b.push_str("</tbody></table>\n");
    }
    html::page(
        &Frame {
            event: ctx.name(),
            title: "Index",
            root: "",
            class: "page index",
        },
        &b,
    )
}
