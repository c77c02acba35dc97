//! The projector view for the hall: the standings of the latest stage
//! (every age group), in large type, scrolling down by itself and then
//! reloading, so that a projector left on it shows each new import.

use super::html::{self, esc, Frame, TableHtml};
use super::links::Links;
use super::Context;

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
                body.push_str(&html::table(&TableHtml {
                    heading: true,
                    ..TableHtml::whole(table, &format!("standings{i}"), &links)
                }));
                shown += 1;
            }
        }
    }
    if shown == 0 {
        body.push_str("<p class=\"empty\">No standings yet.</p>\n");
    }
    let body = format!(
        "<h1>{}</h1>\n{body}<p class=\"meta\">This page scrolls by itself and reloads at the end.</p>\n",
        esc(if ctx.name().is_empty() {
            "Standings"
        } else {
            ctx.name()
        })
    );
    html::page(
        &Frame {
            event: ctx.name(),
            title: "Projector",
            root: "",
            class: "projector",
        },
        &body,
    )
}
