//! The referee's entry page (placeholder until the page lands).

use super::html::esc;
use super::words::Lang;

pub struct EntryPage<'a> {
    pub lang: Lang,
    pub event: &'a str,
    pub referee: &'a str,
    pub stage: &'a str,
    pub sessions: &'a [String],
    pub tables: &'a [String],
    pub games: u32,
    pub seats: &'a [char],
    pub csrf: &'a str,
}

pub fn page(p: &EntryPage) -> String {
    format!(
        "<!DOCTYPE html><html lang=\"{}\"><meta charset=\"utf-8\"><title>{}</title><p>{}</p><meta name=\"csrf\" content=\"{}\"></html>\n",
        p.lang.tag(),
        esc(p.event),
        esc(p.referee),
        esc(p.csrf)
    )
}
