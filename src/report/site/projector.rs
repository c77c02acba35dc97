//! The projector view for the hall: the standings of the latest stage
//! (every age group), in large type, scrolling down by itself and then
//! reloading, so that a projector left on it shows each new import.

use super::html::{self, esc, Frame, TableHtml};
use super::links::Links;
use super::Context;
use crate::report::Table;
use std::fmt::Write;

/// What the hall reads from the back: the place, who, and what the place
/// rests on: these, and every column that is a key of the rules' order
/// ([`projector_columns`]).
const PROJECTOR_COLUMNS: [&str; 5] = ["rank", "name", "group", "tiles", "status"];

/// The columns of `table` the projector shows: [`PROJECTOR_COLUMNS`] and
/// the keys of the rules' order (games won, the average and tiles under
/// `hk`; the total and games won under `nvso` and `gwinnett`).
fn projector_columns(table: &Table) -> Vec<&'static str> {
    table
        .columns
        .iter()
        .filter(|c| c.key.is_some() || PROJECTOR_COLUMNS.contains(&c.name))
        .map(|c| c.name)
        .collect()
}

pub fn page(ctx: &Context) -> String {
    let links = Links {
        root: "",
        players: &ctx.players,
        cards: &ctx.cards,
    };
    let latest = ctx.event.stages().pop();
    let mut body = String::new();
    let mut shown = 0;
    if let Some(stage) = &latest {
        let name = format!("Standings {stage}");
        for (i, table) in ctx.tables.iter().enumerate() {
            let of_stage = table
                .name
                .strip_prefix(&name)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '));
            if of_stage {
                let _ = writeln!(body, "<h2>{}</h2>", esc(&ctx.heading(table)));
                let columns = projector_columns(table);
                body.push_str(&html::table(&TableHtml {
                    columns: Some(&columns),
                    notes: false,
                    ..TableHtml::whole(table, &format!("standings{i}"), &links, ctx.lang)
                }));
                shown += 1;
            }
        }
    }
    let w = ctx.words();
    if shown == 0 {
        let _ = writeln!(body, "<p class=\"empty\">{}</p>", esc(w.no_standings));
    }
    let body = format!(
        "<h1>{}</h1>\n{}{body}<p class=\"meta\">{}</p>\n",
        esc(if ctx.name().is_empty() {
            w.results
        } else {
            ctx.name()
        }),
        // (the standings of the latest stage: what they wait for)
        match &latest {
            Some(stage) => super::index::provisional(ctx, &ctx.event.completeness_of(stage)),
            None => super::index::provisional(ctx, ctx.req.completeness),
        },
        esc(w.scrolls)
    );
    html::page(
        &Frame {
            event: ctx.name(),
            title: w.projector,
            root: "",
            class: "projector",
            lang: ctx.lang,
        },
        &body,
    )
}
