//! Every player: the list (`players.html`, the search box's page without
//! scripts) and one page each: their rows in the export's tables (place,
//! qualification, medal, award), why they have their place (as `explain`
//! says it), and their games.

use super::html::{self, esc, Frame, TableHtml};
use super::links::{player_page, Links};
use super::Context;
use crate::domain::{PlayerId, Stage};
use crate::report::standings::explain_table;
use crate::report::{Column, Table, Value};
use crate::roster::{Player, Status};
use crate::rules::standings::Standings;
use std::collections::HashMap;
use std::fmt::Write;

fn text(s: &str) -> Value {
    if s.is_empty() {
        Value::Empty
    } else {
        Value::Text(s.to_string())
    }
}

fn status(p: &Player) -> &'static str {
    match p.status {
        Status::Active => "",
        Status::Withdrawn => "withdrawn",
        Status::Disqualified => "disqualified",
    }
}

/// Every player of the roster: id, name, group, status.
pub fn list_page(ctx: &Context) -> String {
    let table = Table {
        name: "Players".into(),
        title: format!("Players: {}", ctx.event.roster.len()),
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
                    Value::Text(p.id.clone()),
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
    body.push_str(
        "<p class=\"meta\">Type in the box above to find a player by id, name or Chinese name.</p>\n",
    );
    body.push_str(&html::table(&TableHtml::whole(&table, "players", &links)));
    html::page(
        &Frame {
            event: ctx.name(),
            title: "Players",
            root: "",
            class: "page",
        },
        &body,
    )
}

/// The columns of a player's games.
fn game_columns() -> Vec<Column> {
    vec![
        Column::text("stage"),
        Column::text("session"),
        Column::text("table"),
        Column::int("game"),
        Column::text("seat"),
        Column::text("others"),
        Column::int("won"),
        Column::score("score"),
        Column::int("tiles"),
    ]
}

/// The ids in a row of a table: its player, parent and child columns.
fn ids_in(table: &Table, row: &[Value]) -> Vec<String> {
    table
        .columns
        .iter()
        .zip(row)
        .filter(|(c, _)| matches!(c.name, "player" | "parent" | "child"))
        .filter_map(|(_, v)| match v {
            Value::Text(t) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

/// (path, HTML) of every player's page. `games` is the export's Games
/// table of each card, in the order of the event's cards.
pub fn pages(ctx: &Context, games: &[Table]) -> Vec<(String, String)> {
    let event = ctx.event;
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
    let mut standings: HashMap<(Stage, Option<String>), Standings> = HashMap::new();
    let links = Links {
        root: "../",
        players: &ctx.players,
        cards: &ctx.cards,
    };
    let mut out = Vec::new();
    for (pid, p) in event.roster.iter() {
        let mut body = String::new();
        let _ = writeln!(body, "<h1>{}</h1>", esc(display_name(&p)));
        let mut facts = vec![format!("id {}", esc(&p.id))];
        if let Some(g) = &p.group {
            facts.push(format!("group {}", esc(g)));
        }
        if let Some(f) = &p.family {
            facts.push(format!("family {}", esc(f)));
        }
        if !status(&p).is_empty() {
            facts.push(status(&p).to_string());
        }
        let _ = writeln!(body, "<p class=\"meta\">{}</p>", facts.join(" · "));

        // Their rows in the standings, qualifiers, medals and award.
        let found = rows_of.get(&p.id).map(Vec::as_slice).unwrap_or_default();
        if found.is_empty() {
            body.push_str("<p class=\"empty\">No results yet.</p>\n");
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
            let _ = writeln!(
                body,
                "<h2><a href=\"../{}\">{}</a></h2>",
                esc(&ctx.table_pages[t]),
                esc(&table.title)
            );
            body.push_str(&html::table(&TableHtml {
                rows: Some(&rows),
                notes: false,
                ..TableHtml::whole(table, &format!("t{t}"), &links)
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
        for stage in stages {
            let group = event.groups.of.get(&pid).cloned();
            let s = standings
                .entry((stage.clone(), group.clone()))
                .or_insert_with(|| event.standings_in(&stage, group.as_deref()));
            if let Some(explain) = explain_table(s, &event.roster, pid) {
                let _ = writeln!(body, "<h2>Why: {}</h2>", esc(&explain.title));
                body.push_str(&html::table(&TableHtml {
                    table: &explain,
                    id: &format!("why-{}", super::links::slug(stage.as_str())),
                    links: &links,
                    heading: false,
                    rows: None,
                    columns: None,
                    notes: true,
                }));
            }
        }

        // Their games.
        let mut rows = Vec::new();
        for &c in my_cards {
            let card = &event.cards[c];
            let others: Vec<String> = card
                .seats
                .iter()
                .filter(|s| s.player != pid)
                .map(|s| {
                    let o = event.roster.get(s.player);
                    format!("{} {}", s.seat, display_name(&o))
                })
                .collect();
            let g = &games[c];
            let col = |name: &str| g.columns.iter().position(|c| c.name == name);
            let pick = |row: &[Value], name: &str| {
                col(name)
                    .and_then(|i| row.get(i).cloned())
                    .unwrap_or(Value::Empty)
            };
            for row in &g.rows {
                if pick(row, "player") != Value::Text(p.id.clone()) {
                    continue;
                }
                rows.push(vec![
                    pick(row, "stage"),
                    pick(row, "session"),
                    Value::Text(pick(row, "table").to_string()),
                    pick(row, "game"),
                    pick(row, "seat"),
                    Value::Text(others.join(", ")),
                    pick(row, "won"),
                    pick(row, "score"),
                    pick(row, "tiles"),
                ]);
            }
        }
        let games_table = Table {
            name: "Games".into(),
            title: format!("Games: {}", rows.len()),
            columns: game_columns(),
            rows,
            notes: Vec::new(),
        };
        let _ = writeln!(body, "<h2>{}</h2>", esc(&games_table.title));
        body.push_str(&html::table(&TableHtml::whole(
            &games_table,
            "games",
            &links,
        )));
        let page = html::page(
            &Frame {
                event: ctx.name(),
                title: display_name(&p),
                root: "../",
                class: "page",
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
