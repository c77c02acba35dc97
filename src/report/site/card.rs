//! One page per card: every game line as recorded, with what the checks
//! computed (the export's Games table, for this card alone), under the
//! card's stage, session and table.

use super::html::{self, esc, Frame, TableHtml};
use super::links::{card_page, Links};
use super::words::fill;
use super::Context;
use crate::domain::SessionName;
use crate::report::export::games_table;
use crate::report::Table;
use std::fmt::Write;

/// The Games columns a card's page shows: its stage, session and table
/// are in the page's title.
const CARD_COLUMNS: [&str; 13] = [
    "game",
    "seat",
    "player",
    "name",
    "won",
    "score",
    "tiles",
    "players",
    "finish",
    "leader",
    "game_sum",
    "card_total",
    "check",
];

/// The export's Games table of each card, in the order of the event's
/// cards.
pub fn games_by_card(ctx: &Context) -> Vec<Table> {
    ctx.event
        .cards
        .iter()
        .map(|card| games_table(std::slice::from_ref(card), ctx.event))
        .collect()
}

/// (path, HTML) of every card's page.
pub fn pages(ctx: &Context, games: &[Table]) -> Vec<(String, String)> {
    let links = Links {
        root: "../",
        players: &ctx.players,
        cards: &ctx.cards,
    };
    ctx.event
        .cards
        .iter()
        .zip(games)
        .map(|(card, table)| {
            let w = ctx.words();
            let title = crate::report::capitalised(&fill(
                w.card_title,
                &[
                    &w.stage(card.key.stage.as_str()),
                    &SessionName(&card.key.session),
                    &card.key.table,
                ],
            ));
            let mut body = format!("<h1>{}</h1>\n", esc(&title));
            body.push_str(&format!(
                "<p class=\"meta\">{}</p>\n",
                // (where the desk keeps the card, a file or the event's
                // database, is the desk's: a player reads the table)
                esc(&fill(
                    w.card_meta,
                    &[
                        &card.games.len(),
                        &SessionName(&card.key.session),
                        &card.key.table
                    ]
                )),
            ));
            body.push_str(&html::table(&TableHtml {
                columns: Some(&CARD_COLUMNS),
                ..TableHtml::whole(table, "data", &links, ctx.lang)
            }));
            // a seat whose player left before the card's last game
            // (withdrawn): said under the games, which have no line of it
            let end = card.games.iter().map(|g| g.number).max().unwrap_or(0);
            for s in &card.seats {
                let played = (card.games.iter())
                    .filter(|g| g.results.iter().any(|r| r.seat == s.seat))
                    .map(|g| g.number)
                    .max();
                if let Some(last) = played.filter(|&last| last < end) {
                    let p = ctx.event.roster.get(s.player);
                    let who = format!("{} {}", p.id, p.name);
                    let said = fill(w.seat_left, &[&s.seat, &who, &last]);
                    let _ = writeln!(body, "<p class=\"meta left\">{}</p>", esc(&said));
                }
            }
            let page = html::page(
                &Frame {
                    event: ctx.name(),
                    title: &title,
                    root: "../",
                    class: "page",
                    lang: ctx.lang,
                },
                &body,
            );
            (card_page(&card.key), page)
        })
        .collect()
}
