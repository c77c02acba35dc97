//! The results as a static website: the tables of the results export
//! ([`crate::report::export::build`]) as HTML pages, one page per player
//! and per card, an index and a projector view.
//!
//! The site presents the export's answers and computes none of its own
//! (the export's sentences said in the page's language, [`said`]):
//! standings, qualifiers, medals and the award are the export's tables;
//! a player's place and its reasons are those tables' rows and
//! [`crate::report::standings::explain_table`]; a card's page is the
//! export's Games table for that card.
//!
//! | file | what |
//! |---|---|
//! | `index.html` | the event, what was imported and what is missing, links ([`index`]) |
//! | `standings-prelim.html`, `qualifiers.html`, `medals.html`, ... | one page per table of the export but Games ([`pages`]) |
//! | `players.html`, `p/ID.html` | every player; one page per player ([`player`]) |
//! | `t/prelim-S01-T07.html` | one page per card, as recorded ([`card`]) |
//! | `projector.html` | the latest stage's standings, large, scrolling and reloading itself ([`projector`]) |
//! | `site.css`, `site.js`, `players.js` | styles (screen, phone, print), sorting and search, the search index ([`assets`]) |
//! | `.tilerank-files` | what tilerank wrote, which the next publish replaces; anything else in the folder is kept ([`write::MANIFEST`]) |
//!
//! Beside the site, the page a referee types a card on at the table
//! (`serve --entry`): [`entry`].
//!
//! The same input gives the same bytes: nothing depends on the clock, on
//! hash order or on where the site is written. [`write_site`] writes the
//! folder whole.

pub mod assets;
pub mod card;
pub mod entry;
pub mod html;
pub mod index;
pub mod links;
pub mod pages;
pub mod player;
pub mod projector;
pub mod said;
pub use super::words;
pub mod write;

use crate::event::Event;
use crate::report::export::{self, ExportRequest};
use crate::report::stages::qualifiers_of;
use crate::report::Table;
use std::collections::{BTreeMap, HashMap};

pub use words::Lang;
use words::{fill, Words};
pub use write::{write_site, SiteWriteError};

/// The site's files, by path from its root (`index.html`, `p/P0001.html`).
pub struct Site {
    pub files: BTreeMap<String, Vec<u8>>,
    /// Ties at the cutoff and other decisions, as the export says them.
    pub decisions: Vec<String>,
    /// A qualifier list waits for the director: the site is not final.
    pub unsettled: bool,
    /// What the event still lacks, as the pages say it (the live desk's
    /// board says it too).
    pub completeness: crate::event::Completeness,
}

/// What every page builder reads.
pub struct Context<'a> {
    pub event: &'a Event,
    pub req: &'a ExportRequest<'a>,
    /// The export's tables, Games left out.
    pub tables: Vec<Table>,
    /// Each table's page, from the root, in the order of `tables`.
    pub table_pages: Vec<String>,
    /// Roster id to page.
    pub players: HashMap<String, String>,
    /// (stage, session, table) to card page.
    pub cards: HashMap<(String, String, String), String>,
    pub decisions: Vec<String>,
    /// The language of the pages.
    pub lang: Lang,
}

impl Context<'_> {
    /// The event's name for the pages' frame.
    pub fn name(&self) -> &str {
        self.req.name
    }

    pub fn words(&self) -> &'static Words {
        self.lang.words()
    }

    /// What the page of one of the export's tables waits for, as the
    /// export marks its sheet: a stage's standings, its stage's
    /// ([`Event::completeness_of`]); the qualifier lists, the qualifying
    /// stage's; the medals and the award, the last stage's; the missing
    /// cards, the whole event's. `None` for the desk's pages that give no
    /// places (problems, settings, log): they say nothing provisional.
    pub fn completeness_of(&self, table: &Table) -> Option<crate::event::Completeness> {
        let event = self.event;
        if matches!(table.name.as_str(), "Problems" | "Settings" | "Log") {
            return None;
        }
        let stage = if let Some(stage) = self.stage_of(table) {
            Some(stage)
        } else if let Some((stage, _)) = qualifiers_of(event, &table.name) {
            Some(stage)
        } else if matches!(table.name.as_str(), "Medals" | "Super Family Award") {
            Some(event.final_stage())
        } else {
            None
        };
        Some(match stage {
            Some(stage) => event.completeness_of(&stage),
            None => self.req.completeness.clone(),
        })
    }

    /// The stage of one of the export's standings tables (`Standings
    /// prelim 50-64` is the prelim's); `None` for another table.
    pub fn stage_of(&self, table: &Table) -> Option<crate::domain::Stage> {
        let rest = table.name.strip_prefix("Standings ")?;
        self.event
            .stages()
            .into_iter()
            .find(|s| rest == s.as_str() || rest.starts_with(&format!("{} ", s.as_str())))
    }

    /// What one of the export's tables is, in the page's words, from its
    /// name: `Standings prelim 50-64` is "Standings, prelim, group 50-64".
    pub fn heading(&self, table: &Table) -> String {
        heading(self.words(), self.event, &table.name)
    }
}

/// What the export's table `name` is, in `w`'s words (see
/// [`Context::heading`]), of `event` (its age groups and stages).
pub fn heading(w: &Words, event: &Event, name: &str) -> String {
    let groups = &event.group_list();
    let with_group = |what: String, rest: &str| {
        if rest.is_empty() {
            what
        } else {
            format!("{what}{}{}", w.comma, fill(w.group, &[&rest]))
        }
    };
    if let Some(rest) = name.strip_prefix("Standings ") {
        // The stage, then the group if the event has groups.
        let (stage, group) = groups
            .iter()
            .flatten()
            .find_map(|g| {
                rest.strip_suffix(g.as_str())
                    .and_then(|s| s.strip_suffix(' '))
                    .map(|s| (s, g.as_str()))
            })
            .unwrap_or((rest, ""));
        return with_group(fill(w.standings, &[&w.stage(stage)]), group);
    }
    if let Some((stage, group)) = qualifiers_of(event, name) {
        // who goes on from the first stage, or from a later one
        let what = w.qualifiers_of(stage.as_str(), stage == event.qualifying_stage());
        return with_group(what, group);
    }
    match name {
        "Medals" => w.medals,
        "Super Family Award" => w.award,
        "Missing" => w.missing,
        "Problems" => w.problems,
        "Settings" => w.settings,
        "Log" => w.log,
        other => other,
    }
    .to_string()
}

/// The page of one of the export's tables: its name in lower case,
/// `Standings prelim` as `standings-prelim.html`.
pub fn table_page(table: &Table) -> String {
    page_name(&table.name)
}

/// The page of the export's table named `name` (its sheet name).
pub fn page_name(name: &str) -> String {
    format!(
        "{}.html",
        links::slug(&name.to_lowercase().replace(' ', "-"))
    )
}

/// Builds every page of the site, in the language `lang`.
pub fn build(req: &ExportRequest, lang: Lang) -> Site {
    let event = req.event;
    let export = export::build_in(req, lang);
    let tables: Vec<Table> = export
        .tables
        .into_iter()
        .filter(|t| t.name != "Games")
        .collect();
    let table_pages = tables.iter().map(table_page).collect();
    let players = event
        .roster
        .iter()
        .map(|(_, p)| (p.id.clone(), links::player_page(&p.id)))
        .collect();
    let ctx = Context {
        event,
        req,
        tables,
        table_pages,
        players,
        cards: links::Links::card_map(&event.cards),
        decisions: export.decisions.clone(),
        lang,
    };
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut put = |path: String, text: String| {
        files.insert(path, text.into_bytes());
    };
    put("index.html".into(), index::page(&ctx));
    for (path, text) in pages::pages(&ctx) {
        put(path, text);
    }
    let games = card::games_by_card(&ctx);
    for (path, text) in card::pages(&ctx, &games) {
        put(path, text);
    }
    put("players.html".into(), player::list_page(&ctx));
    for (path, text) in player::pages(&ctx, &games) {
        put(path, text);
    }
    put("projector.html".into(), projector::page(&ctx));
    put("site.css".into(), assets::CSS.to_string());
    put("site.js".into(), assets::JS.to_string());
    put("players.js".into(), assets::players_js(&ctx));
    Site {
        files,
        decisions: export.decisions,
        unsettled: export.unsettled,
        completeness: req.completeness.clone(),
    }
}
