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
            let title = fill(
                w.card_title,
                &[
                    &w.stage(card.key.stage.as_str()),
                    &SessionName(&card.key.session),
                    &card.key.table,
                ],
            );
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
