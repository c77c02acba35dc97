//! One page per table of the export (standings of each stage and group,
//! qualifiers, medals, the Super Family Award, problems, settings, log),
//! each the table itself with its title and notes.

use super::html::{self, esc, Frame, TableHtml};
use super::links::Links;
use super::words::fill;
use super::Context;
use crate::report::Value;
use std::fmt::Write;

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
            let title = ctx.heading(table);
            let mut body = format!("<h1>{}</h1>\n", esc(&title));
            if let Some(c) = ctx.completeness_of(table) {
                body.push_str(&super::index::provisional(ctx, &c));
            }
            let ranked = table.columns.iter().position(|c| c.name == "rank");
            if let (Some(rank), true) = (ranked, table.name.starts_with("Standings ")) {
                let n = table
                    .rows
                    .iter()
                    .filter(|r| r[rank] != Value::Empty)
                    .count();
                let _ = writeln!(
                    body,
                    "<p class=\"meta\">{}</p>",
                    esc(&fill(
                        ctx.words().ranked_apart,
                        &[&n, &(table.rows.len() - n)]
                    ))
                );
            }
            let mut whole = TableHtml::whole(table, "data", &links, ctx.lang);
            if table.name == "Medals" && table.rows.is_empty() {
                // The export's note, in the page's words.
                let _ = writeln!(body, "<p class=\"meta\">{}</p>", esc(ctx.words().no_final));
                whole.notes = false;
            }
            body.push_str(&html::table(&whole));
            let page = html::page(
                &Frame {
                    event: ctx.name(),
                    title: &title,
                    root: "",
                    class: "page",
                    lang: ctx.lang,
                },
                &body,
            );
            (path.clone(), page)
        })
        .collect()
}
