//! The index: the event's name, date and profile, what has been imported
//! (the cards of each stage and session, linked), what is still missing,
//! the director's decisions, and a link to every page.

use super::html::{self, esc, Frame};
use super::links::card_page;
use super::words::fill;
use super::Context;
use crate::domain::{CardKey, Label, PlayerId, SessionName, Stage};
use crate::event::{Completeness, Held};
use crate::report::stages::qualifiers_of;
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

/// "3 cards" in the page's words.
pub fn cards(ctx: &Context, n: usize) -> String {
    let w = ctx.words();
    counted(n, w.one_card, w.n_cards)
}

/// `one` when `n` is 1, else `many` filled with `n`: "1 game", "3 games".
fn counted(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        one.to_string()
    } else {
        fill(many, &[&n])
    }
}

/// What `c` (the event's, or what a stage's answers wait for) still
/// lacks, in the page's words (`3 cards, 117 players of the final`);
/// `None` when it lacks nothing.
fn still_to_come(ctx: &Context, c: &Completeness) -> Option<String> {
    let w = ctx.words();
    let mut parts = Vec::new();
    if !c.missing.is_empty() {
        parts.push(cards(ctx, c.missing.len()));
    }
    for (stage, players) in &c.waiting {
        let stage = w.stage(stage.as_str());
        parts.push(match players.len() {
            1 => fill(w.one_waiting, &[&stage]),
            n => fill(w.n_waiting, &[&n, &stage]),
        });
    }
    for (why, one, many) in held_words(ctx) {
        match c.held_for(why).count() {
            0 => {}
            1 => parts.push(one.to_string()),
            n => parts.push(fill(many, &[&n])),
        }
    }
    (!parts.is_empty()).then(|| parts.join(w.comma))
}

/// Each reason the live desk's board holds a table back, with the page's
/// words for one table and for more.
fn held_words(ctx: &Context) -> [(Held, &'static str, &'static str); 3] {
    let w = ctx.words();
    [
        (Held::Conflict, w.one_conflict, w.n_conflicts),
        (Held::Waiting, w.one_for_desk, w.n_for_desk),
        (Held::TypedTwice, w.one_typed_twice, w.n_typed_twice),
    ]
}

/// The banner of a page while what it shows lacks cards or players:
/// `c`, the completeness of the page's stage
/// ([`crate::event::Event::completeness_of`], as the export marks each
/// sheet), or of the whole event.
pub fn provisional(ctx: &Context, c: &Completeness) -> String {
    let Some(still) = still_to_come(ctx, c) else {
        return String::new();
    };
    format!(
        "<p class=\"warn provisional\">{}</p>\n",
        esc(&fill(ctx.words().provisional, &[&still]))
    )
}

/// Where the event is, in a player's words: what is in, what is still to
/// come, who goes on, whether the medals are decided.
fn state(ctx: &Context) -> Vec<String> {
    let w = ctx.words();
    let event = ctx.event;
    let Some(latest) = event.stages().pop() else {
        return vec![w.state_none.to_string()];
    };
    let still = still_to_come(ctx, ctx.req.completeness);
    let mut out = vec![if let Some(still) = &still {
        fill(w.state_provisional, &[still])
    } else if event.rules.schedule.is_none() {
        fill(w.state_unchecked, &[&w.stage(latest.as_str())])
    } else {
        fill(w.state_complete, &[&w.stage(latest.as_str())])
    }];
    // Who goes on from the latest stage: the rows of the export's
    // qualifier lists of that stage.
    let going: usize = ctx
        .tables
        .iter()
        .filter(|t| qualifiers_of(event, &t.name).is_some_and(|(stage, _)| stage == latest))
        .map(|t| t.rows.len())
        .sum();
    if going > 0 {
        out.push(fill(
            w.state_qualifiers,
            &[&going, &w.stage(latest.as_str())],
        ));
    }
    let medals = ctx.tables.iter().find(|t| t.name == "Medals");
    if still.is_none() && medals.is_some_and(|t| !t.rows.is_empty()) {
        out.push(w.state_final_played.to_string());
    }
    out
}

pub fn page(ctx: &Context) -> String {
    let event = ctx.event;
    let rules = &event.rules;
    let w = ctx.words();
    let mut b = String::new();
    let name = if ctx.name().is_empty() {
        w.results
    } else {
        ctx.name()
    };
    let _ = writeln!(b, "<h1>{}</h1>", esc(name));
    // What a player came for first: the search, then where the event is.
    b.push_str(&html::search_form("", ctx.lang, "search find"));
    let complete = ctx.req.completeness.is_complete();
    let class = if complete { "state" } else { "state warn" };
    let id = if complete { "state" } else { "provisional" };
    let _ = writeln!(
        b,
        "<p class=\"{class}\" id=\"{id}\">{}</p>",
        state(ctx)
            .iter()
            .map(|s| esc(s))
            .collect::<Vec<_>>()
            .join(ctx.words().between_sentences)
    );

    let _ = writeln!(b, "<h2>{}</h2>\n<ul class=\"pages\">", esc(w.results));
    for table in &ctx.tables {
        if matches!(
            table.name.as_str(),
            "Missing" | "Problems" | "Settings" | "Log"
        ) {
            continue;
        }
        let _ = writeln!(
            b,
            "<li><a href=\"{}\">{}</a></li>",
            esc(&super::table_page(table)),
            esc(&ctx.heading(table))
        );
    }
    let _ = writeln!(
        b,
        "<li><a href=\"players.html\">{}</a></li>",
        esc(&fill(w.every_player, &[&event.roster.len()]))
    );
    let _ = writeln!(
        b,
        "<li><a href=\"projector.html\">{}</a></li>\n</ul>",
        esc(w.projector_view)
    );

    let _ = writeln!(b, "<dl class=\"facts\">");
    if let Some(d) = &rules.event_date {
        let _ = writeln!(b, "<dt>{}</dt><dd>{}</dd>", esc(w.date), esc(d));
    }
    let _ = writeln!(
        b,
        "<dt>{}</dt><dd>{}</dd>",
        esc(w.rules),
        esc(&rules.profile.to_string())
    );
    // the players who sat at a card; the roster's count after them when
    // some are still to play
    let played = (0..event.roster.len() as u32)
        .filter(|&p| event.tallies.played(PlayerId(p)))
        .count();
    let mut counts = fill(
        w.imported_counts,
        &[
            &cards(ctx, event.cards.len()),
            &counted(event.counts.games, w.one_game, w.n_games),
            &counted(played, w.one_player, w.n_players),
        ],
    );
    if played < event.roster.len() {
        counts.push_str(&fill(w.on_roster, &[&event.roster.len()]));
    }
    let _ = writeln!(b, "<dt>{}</dt><dd>{}</dd>", esc(w.imported), esc(&counts));
    let _ = writeln!(b, "</dl>");

    let stages = event.stages();
    let head = format!(
        "<thead><tr><th data-name=\"stage\">{}</th><th data-name=\"session\">{}</th><th data-name=\"cards\">{}</th><th data-name=\"tables\">{}</th></tr></thead>",
        esc(w.header("stage")),
        esc(w.header("session")),
        esc(w.header("cards")),
        esc(w.header("tables"))
    );
    let _ = writeln!(b, "<h2>{}</h2>", esc(w.imported));
    if event.cards.is_empty() {
        let _ = writeln!(b, "<p class=\"empty\">{}</p>", esc(w.no_cards));
    } else {
        let _ = writeln!(
            b,
            "<div class=\"wrap\"><table class=\"imported\" id=\"imported\">{head}<tbody>"
        );
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
                esc(w.stage(stage.as_str())),
                esc(&SessionName(&session).to_string()),
                keys.len(),
                tables.join(" ")
            );
        }
        b.push_str("</tbody></table></div>\n");
    }
    let _ = writeln!(b, "<h2>{}</h2>", esc(w.missing));
    let missing = &ctx.req.completeness.missing;
    if ctx.req.completeness.is_complete() {
        let _ = writeln!(b, "<p id=\"missing\">{}</p>", esc(w.nothing_missing));
    }
    // players who went on to a stage and have not played it: the ids
    for (stage, players) in &ctx.req.completeness.waiting {
        let stage = w.stage(stage.as_str());
        let who = match players.len() {
            1 => fill(w.one_waiting, &[&stage]),
            n => fill(w.n_waiting, &[&n, &stage]),
        };
        let ids: Vec<&str> = players.iter().map(|&p| event.roster.id(p)).collect();
        let said = fill(w.entry_says, &[&who, &ids.join(" ")]);
        let _ = writeln!(b, "<p class=\"waiting\">{}</p>", esc(&said));
    }
    // the tables the live desk's board holds back, and why
    for (why, one, many) in held_words(ctx) {
        let tables: Vec<String> = (ctx.req.completeness.held_for(why))
            .map(|k| fill(w.entry_card, &[&SessionName(&k.session), &k.table]))
            .collect();
        let what = match tables.len() {
            0 => continue,
            1 => one.to_string(),
            n => fill(many, &[&n]),
        };
        let said = fill(w.entry_says, &[&what, &tables.join(w.comma)]);
        let _ = writeln!(b, "<p class=\"held\">{}</p>", esc(&said));
    }
    if !missing.is_empty() {
        let _ = writeln!(
            b,
            "<div class=\"wrap\"><table class=\"imported\" id=\"missing\">{head}<tbody>"
        );
        for ((stage, session), keys) in by_session(missing.iter(), &stages) {
            let tables: Vec<String> = keys.iter().map(|k| esc(&k.table.to_string())).collect();
            let _ = writeln!(
                b,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"tables\">{}</td></tr>",
                esc(w.stage(stage.as_str())),
                esc(&SessionName(&session).to_string()),
                keys.len(),
                tables.join(" ")
            );
        }
        b.push_str("</tbody></table></div>\n");
    }
    // The director's decisions and the desk's own pages, last.
    let _ = writeln!(b, "<h2>{}</h2>", esc(w.desk_notes));
    for d in &ctx.decisions {
        let _ = writeln!(
            b,
            "<p class=\"note\">{}</p>",
            esc(&super::said::say(ctx.lang, d))
        );
    }
    b.push_str("<ul class=\"pages\">\n");
    for table in &ctx.tables {
        if matches!(
            table.name.as_str(),
            "Missing" | "Problems" | "Settings" | "Log"
        ) {
            let _ = writeln!(
                b,
                "<li><a href=\"{}\">{}</a></li>",
                esc(&super::table_page(table)),
                esc(&ctx.heading(table))
            );
        }
    }
    b.push_str("</ul>\n");
    html::page(
        &Frame {
            event: ctx.name(),
            title: name,
            root: "",
            class: "page index",
            lang: ctx.lang,
        },
        &b,
    )
}
