//! One page per table of the export (standings of each stage and group,
//! qualifiers, medals, the Super Family Award, problems, settings, log),
//! each the table itself with its title and notes.

use super::html::{self, esc, Frame, TableHtml};
use super::links::Links;
use super::Context;

/// (path, HTML) of every table page.
pub fn pages(ctx: &Context) -> Vec<(String, String)> {
    let links = Links {
        root: "",
        players: &ctx.players,
        cards: &ctx.cards,
    };
    ctx.tables
        .iter()
        .zip(&ctx.table_pages)
        .map(|(table, path)| {
            let mut body = format!("<h1>{}</h1>\n", esc(&table.title));
            body.push_str(&html::table(&TableHtml::whole(table, "data", &links)));
            let page = html::page(
                &Frame {
                    event: ctx.name(),
                    title: &table.name,
                    root: "",
                    class: "page",
                },
                &body,
            );
            (path.clone(), page)
        })
        .collect()
}
