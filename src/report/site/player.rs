//! Every player: the list (`players.html`, the search box's page without
//! scripts) and one page each: their rows in the export's tables (place,
//! qualification, medal, award), why they have their place (as `explain`
//! says it), and their games.

use super::html::{self, esc, Frame, TableHtml};
use super::links::{player_page, Links};
use super::words::fill;
use super::words::Words;
use super::Context;
use crate::domain::{PlayerId, Stage};
use crate::event::StandingsGoingOn;
use crate::profile::vocabulary::SortKey;
use crate::profile::GoingOn;
use crate::report::stages::qualifiers_of;
use crate::report::standings::{explain_table, key_value, withdrawn_why};
use crate::report::{Column, Table, Value};
use crate::roster::{Player, Status};
use crate::rules::standings::Standings;
use crate::rules::standings::{deciding_key, Apart, Entry};
use compact_str::ToCompactString;
use std::collections::HashMap;
use std::fmt::Write;

fn text(s: &str) -> Value {
    if s.is_empty() {
        Value::Empty
    } else {
        Value::Text(s.to_compact_string())
    }
}

fn status(p: &Player) -> &'static str {
    match p.status {
        Status::Active => "",
        Status::Withdrawn => "W",
        Status::Disqualified => "DQ",
    }
}

/// Every player of the roster: id, name, group, status.
pub fn list_page(ctx: &Context) -> String {
    let table = Table {
        name: "Players".into(),
        title: fill(ctx.words().players_count, &[&ctx.event.roster.len()]),
        columns: vec![
            Column::text("player"),
            Column::text("name"),
            Column::text("group"),
            Column::text("status"),
        ],
        rows: ctx
            .event
            .roster
            .iter()
            .map(|(_, p)| {
                vec![
                    Value::text(&p.id),
                    text(&p.name),
                    text(p.group.as_deref().unwrap_or("")),
                    text(status(&p)),
                ]
            })
            .collect(),
        notes: Vec::new(),
    };
    let links = Links {
        root: "",
        players: &ctx.players,
        cards: &ctx.cards,
    };
    let mut body = format!("<h1>{}</h1>\n", esc(&table.title));
    let _ = writeln!(
        body,
        "<p class=\"meta\">{}</p>",
        esc(ctx.words().players_hint)
    );
    body.push_str(&html::table(&TableHtml::whole(
        &table, "players", &links, ctx.lang,
    )));
    html::page(
        &Frame {
            event: ctx.name(),
            title: ctx.words().players,
            root: "",
            class: "page",
            lang: ctx.lang,
        },
        &body,
    )
}

/// The ids in a row of a table: its player, parent and child columns.
fn ids_in(table: &Table, row: &[Value]) -> Vec<String> {
    table
        .columns
        .iter()
        .zip(row)
        .filter(|(c, _)| matches!(c.name, "player" | "parent" | "child"))
        .filter_map(|(_, v)| match v {
            Value::Text(t) => Some(t.to_string()),
            _ => None,
        })
        .collect()
}

/// A cell of `row` by column name.
fn cell<'t>(table: &'t Table, row: &'t [Value], name: &str) -> &'t Value {
    table
        .columns
        .iter()
        .position(|c| c.name == name)
        .and_then(|i| row.get(i))
        .unwrap_or(&Value::Empty)
}

/// The answer a player's page leads with, for one standings table: their
/// rank of how many, what it means (qualified or how far from the cutoff,
/// the medal, withdrawn), games won, average score and tiles. Read from
/// the export's rows: the standings row, the other rows' Q, the medals.
///
/// `listed`: whether the player is on a qualifier list, for the standings
/// of the stage those lists go on from (`None` for other stages).
/// `staying`: why they do not go on from this table's stage, under a
/// table rule (the list's answer, in English, as `explain` says it).
fn answer(
    ctx: &Context,
    t: usize,
    r: usize,
    listed: Option<bool>,
    staying: Option<&str>,
    medal: Option<&str>,
) -> String {
    let w = ctx.words();
    let table = &ctx.tables[t];
    let row = &table.rows[r];
    let rank = |row: &[Value]| match cell(table, row, "rank") {
        Value::Int(n) => Some(*n),
        _ => None,
    };
    let ranked = table.rows.iter().filter(|r| rank(r).is_some()).count();
    let status = cell(table, row, "status").to_string();
    // The cutoff place: how many ranked players stand at or above the
    // last rank marked Q in this table, so the first player out is one
    // place below it even when a rank above is shared.
    let cutoff = table
        .rows
        .iter()
        .filter(|r| cell(table, r, "status").to_string() == "Q")
        .filter_map(|r| rank(r))
        .max()
        .map(|last| {
            let places = table
                .rows
                .iter()
                .filter(|r| rank(r).is_some_and(|n| n <= last));
            i64::try_from(places.count()).unwrap_or(i64::MAX)
        });
    let mut b = String::new();
    let _ = writeln!(
        b,
        "<section class=\"answer\"><h2><a href=\"../{}\">{}</a></h2>",
        esc(&super::table_page(table)),
        esc(&ctx.heading(table))
    );
    let place = match rank(row) {
        Some(n) => fill(w.rank_of, &[&n, &ranked]),
        None => w.no_rank.to_string(),
    };
    let _ = writeln!(b, "<p class=\"rank\">{}</p>", esc(&place));
    let top_n = ctx.event.rules.going_on == GoingOn::TopOfStandings;
    let said = match (status.as_str(), listed, rank(row), cutoff) {
        ("W", ..) => Some(w.withdrawn.to_string()),
        ("DQ", ..) => Some(w.disqualified.to_string()),
        ("Q", ..) | (_, Some(true), ..) => Some(w.qualified.to_string()),
        // a table rule: what their table said
        _ if staying.is_some() => {
            staying.map(|why| fill(w.not_qualified_because, &[&super::said::say(ctx.lang, why)]))
        }
        // the top N: how far from its cutoff (a table rule has none)
        (_, _, Some(n), Some(c)) if n > c && top_n => Some(match n - c {
            1 => w.not_qualified_by_one.to_string(),
            by => fill(w.not_qualified_by, &[&by]),
        }),
        (_, Some(false), ..) | (_, _, _, Some(_)) => Some(w.not_qualified.to_string()),
        _ => None,
    };
    let mut lines: Vec<String> = said.into_iter().collect();
    if let Some(m) = medal {
        lines.push(fill(w.medal, &[&w.cell(m)]));
    }
    for line in lines {
        let _ = writeln!(b, "<p class=\"status\">{}</p>", esc(&line));
    }
    b.push_str("<dl class=\"stats\">");
    // a column headed as its table heads it (penalty points: "Average
    // penalty points")
    let header = |name: &'static str| {
        let column = table.columns.iter().find(|c| c.name == name);
        w.header(column.map_or(name, |c| c.heading_name()))
    };
    for (label, name) in [
        (w.games_won, "won"),
        (header("avg_score"), "avg_score"),
        (header("tiles"), "tiles"),
        (header("games"), "games"),
    ] {
        let value = cell(table, row, name);
        if *value != Value::Empty {
            let _ = write!(
                b,
                "<div><dt>{}</dt><dd>{}</dd></div>",
                esc(label),
                esc(&value.to_string())
            );
        }
    }
    b.push_str("</dl></section>\n");
    b
}

/// (path, HTML) of every player's page. `games` is the export's Games
/// table of each card, in the order of the event's cards.
pub fn pages(ctx: &Context, games: &[Table]) -> Vec<(String, String)> {
    let event = ctx.event;
    let w = ctx.words();
    // Where each id appears in the export's tables: (table, row).
    let mut rows_of: HashMap<String, Vec<(usize, usize)>> = HashMap::new();
    for (t, table) in ctx.tables.iter().enumerate() {
        if matches!(table.name.as_str(), "Problems" | "Settings" | "Log") {
            continue;
        }
        for (r, row) in table.rows.iter().enumerate() {
            for id in ids_in(table, row) {
                let list = rows_of.entry(id).or_default();
                if list.last() != Some(&(t, r)) {
                    list.push((t, r));
                }
            }
        }
    }
    // The cards each player sat at.
    let mut cards_of: HashMap<PlayerId, Vec<usize>> = HashMap::new();
    for (i, card) in event.cards.iter().enumerate() {
        for s in &card.seats {
            cards_of.entry(s.player).or_default().push(i);
        }
    }
    // each stage's standings with who goes on from them, as `explain`
    // has them: its status column marks them as the standings do
    let mut standings: HashMap<(Stage, Option<String>), StandingsGoingOn> = HashMap::new();
    let links = Links {
        root: "../",
        players: &ctx.players,
        cards: &ctx.cards,
    };
    let mut out = Vec::new();
    for (pid, p) in event.roster.iter() {
        let mut body = String::new();
        let _ = writeln!(body, "<h1>{}</h1>", esc(display_name(&p)));
        let mut facts = vec![esc(&fill(w.player_id, &[&p.id]))];
        if let Some(g) = &p.group {
            facts.push(esc(&fill(w.group, &[g])));
        }
        if let Some(f) = &p.family {
            facts.push(esc(&fill(w.family, &[f])));
        }
        match p.status {
            Status::Active => {}
            Status::Withdrawn => facts.push(esc(w.withdrawn)),
            Status::Disqualified => facts.push(esc(w.disqualified)),
        }
        let _ = writeln!(body, "<p class=\"meta\">{}</p>", facts.join(" · "));

        // The answer: their place in each stage's standings, the latest
        // first, then the other tables that list them (medals, award).
        let found = rows_of.get(&p.id).map(Vec::as_slice).unwrap_or_default();
        if found.is_empty() {
            let _ = writeln!(body, "<p class=\"empty\">{}</p>", esc(w.no_results));
        }
        let medal = found
            .iter()
            .find(|(t, _)| ctx.tables[*t].name == "Medals")
            .map(|&(t, r)| cell(&ctx.tables[t], &ctx.tables[t].rows[r], "medal").to_string());
        let in_standings: Vec<(usize, usize)> = found
            .iter()
            .copied()
            .filter(|(t, _)| ctx.tables[*t].name.starts_with("Standings "))
            .collect();
        // On a qualifier list: the lists that go on from the qualifying
        // stage.
        let lists: Vec<usize> = (0..ctx.tables.len())
            .filter(|&t| {
                qualifiers_of(event, &ctx.tables[t].name)
                    .is_some_and(|(stage, _)| stage == event.qualifying_stage())
            })
            .collect();
        let deciding = lists.iter().any(|&t| !ctx.tables[t].rows.is_empty());
        let listed = found.iter().any(|(t, _)| lists.contains(t));
        let qualifying = format!("Standings {}", event.qualifying_stage());
        for (k, &(t, r)) in in_standings.iter().rev().enumerate() {
            let name = &ctx.tables[t].name;
            let of_qualifying = name
                .strip_prefix(&qualifying)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '));
            let on_list = (deciding && of_qualifying).then_some(listed);
            // why they do not go on from the table's stage, as their
            // list says it
            let staying = ctx.stage_of(&ctx.tables[t]).and_then(|stage| {
                let group = event.groups.of.get(&pid).cloned();
                standings
                    .entry((stage.clone(), group.clone()))
                    .or_insert_with(|| event.standings_going_on(&stage, group.as_deref()))
                    .staying(pid)
                    .map(crate::report::going_on::staying)
            });
            body.push_str(&answer(
                ctx,
                t,
                r,
                on_list,
                staying.as_deref(),
                medal.as_deref().filter(|_| k == 0),
            ));
        }
        let mut i = 0;
        while i < found.len() {
            let t = found[i].0;
            let rows: Vec<usize> = found[i..]
                .iter()
                .take_while(|(x, _)| *x == t)
                .map(|(_, r)| *r)
                .collect();
            i += rows.len();
            let table = &ctx.tables[t];
            if table.name.starts_with("Standings ") || table.name.starts_with("Qualifiers") {
                continue;
            }
            let _ = writeln!(
                body,
                "<h2><a href=\"../{}\">{}</a></h2>",
                esc(&ctx.table_pages[t]),
                esc(&ctx.heading(table))
            );
            body.push_str(&html::table(&TableHtml {
                rows: Some(&rows),
                notes: false,
                ..TableHtml::whole(table, &format!("t{t}"), &links, ctx.lang)
            }));
        }

        // Why: the explain table of each stage they played.
        let my_cards = cards_of.get(&pid).map(Vec::as_slice).unwrap_or_default();
        let mut stages: Vec<Stage> = Vec::new();
        for stage in event.stages() {
            if my_cards.iter().any(|&c| event.cards[c].key.stage == stage) {
                stages.push(stage);
            }
        }
        for stage in stages.iter().rev() {
            let group = event.groups.of.get(&pid).cloned();
            let s = standings
                .entry((stage.clone(), group.clone()))
                .or_insert_with(|| event.standings_going_on(stage, group.as_deref()));
            if let Some(mut explain) = explain_table(s, &event.roster, pid, event.rules.scoring) {
                // the sentences in the page's language
                explain.notes = why_notes(&s.standings, &event.roster, pid, w, event.rules.scoring);
                let _ = writeln!(
                    body,
                    "<h2>{}</h2>",
                    esc(&fill(w.why, &[&w.stage(stage.as_str())]))
                );
                body.push_str(&html::table(&TableHtml {
                    prune: false,
                    ..TableHtml::whole(
                        &explain,
                        &format!("why-{}", super::links::slug(stage.as_str())),
                        &links,
                        ctx.lang,
                    )
                }));
            }
        }

        // Their games, a card per table: where, their seat, who else sat
        // there (linked), then each game: won, score, tiles.
        let mut cards = String::new();
        let mut n = 0;
        for &c in my_cards {
            let card = &event.cards[c];
            let g = &games[c];
            let mine: Vec<&Vec<Value>> = g
                .rows
                .iter()
                .filter(|row| *cell(g, row, "player") == Value::text(&p.id))
                .collect();
            let Some(first) = mine.first() else {
                continue;
            };
            n += mine.len();
            let others: Vec<String> = card
                .seats
                .iter()
                .filter(|s| s.player != pid)
                .map(|s| {
                    let o = event.roster.get(s.player);
                    let name = esc(display_name(&o));
                    match ctx.players.get(&o.id) {
                        Some(page) => format!(
                            "<li>{} <a href=\"../{}\">{name}</a></li>",
                            esc(&s.seat.to_string()),
                            esc(page)
                        ),
                        None => format!("<li>{} {name}</li>", esc(&s.seat.to_string())),
                    }
                })
                .collect();
            let _ = write!(
                cards,
                "<li class=\"card\"><p class=\"where\"><a href=\"../{}\">{}</a></p><p>{}</p><p class=\"others\">{}</p><ul class=\"others\">{}</ul><ul class=\"games\">",
                esc(&super::links::card_page(&card.key)),
                esc(&crate::report::capitalised(&fill(
                    w.card_title,
                    &[
                        &w.stage(card.key.stage.as_str()),
                        &cell(g, first, "session"),
                        &cell(g, first, "table"),
                    ]
                ))),
                esc(&fill(w.seat, &[&cell(g, first, "seat")])),
                esc(w.at_table),
                others.join("")
            );
            for row in mine {
                let won = matches!(cell(g, row, "won"), Value::Int(1));
                let _ = write!(
                    cards,
                    "<li{}>{}{} <span class=\"score\">{}</span></li>",
                    if won { " class=\"won\"" } else { "" },
                    esc(&fill(w.game_n, &[&cell(g, row, "game")])),
                    if won {
                        format!(" <strong>{}</strong>", esc(w.won_game))
                    } else {
                        String::new()
                    },
                    esc(&fill(
                        w.score_tiles,
                        &[&cell(g, row, "score"), &cell(g, row, "tiles")]
                    )),
                );
            }
            cards.push_str("</ul></li>\n");
        }
        let _ = writeln!(body, "<h2>{}</h2>", esc(&fill(w.games, &[&n])));
        let _ = writeln!(body, "<ol class=\"cards\" id=\"games\">\n{cards}</ol>");
        let title = display_name(&p).to_string();
        let page = html::page(
            &Frame {
                event: ctx.name(),
                title: &title,
                root: "../",
                class: "page player",
                lang: ctx.lang,
            },
            &body,
        );
        out.push((player_page(&p.id), page));
    }
    out
}

/// A player's name, or their id when the roster has no name.
fn display_name(p: &Player) -> &str {
    if p.name.trim().is_empty() {
        &p.id
    } else {
        &p.name
    }
}

/// Why the player has their place, in the page's words: the order of the
/// keys, and which key puts them below the player above and above the
/// player below (the answer of `explain`, said in `w`'s language).
fn why_notes(
    s: &Standings,
    roster: &crate::roster::Roster,
    pid: PlayerId,
    w: &Words,
    scoring: crate::profile::Scoring,
) -> Vec<String> {
    // each key in the words of the standings' order line
    let key = |sk: SortKey| crate::report::words::sort_key(w, sk, scoring);
    let who = |e: &Entry| format!("{} ({})", roster.id(e.player()), roster.name(e.player()));
    let keys: Vec<String> = s.order.iter().map(|&k| key(k)).collect();
    let mut notes = vec![fill(w.order, &[&keys.join(w.then)])];
    let why =
        |upper: &Entry, lower: &Entry| match deciding_key(&upper.tally(), &lower.tally(), &s.order)
        {
            Some(k) => fill(
                w.above,
                &[
                    &who(upper),
                    &who(lower),
                    &key(k),
                    &key_value(upper, k.key),
                    &key_value(lower, k.key),
                ],
            ),
            None => fill(
                w.all_equal,
                &[&who(upper), &who(lower), &upper.rank.unwrap_or(0)],
            ),
        };
    if let Some(i) = s.ranked.iter().position(|e| e.player() == pid) {
        if i > 0 {
            notes.push(why(&s.ranked[i - 1], &s.ranked[i]));
        }
        if let Some(next) = s.ranked.get(i + 1) {
            notes.push(why(&s.ranked[i], next));
        }
    } else if let Some(e) = s.apart.iter().find(|e| e.player() == pid) {
        let word = match e.apart {
            Some(Apart::Withdrawn) => withdrawn_why(w, roster, pid),
            _ => w.disqualified_why,
        };
        notes.push(fill(word, &[&roster.id(pid)]));
    }
    notes
}
