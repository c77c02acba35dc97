//! `tilerank publish`: the results as a static website (see
//! `tilerank::report::site`), written whole into one folder.

use super::answers::{report_missing, sources, whole_event_refusal, Again, Sources};
use super::{summary, CutoffArgs, EventArgs, Outcome};
use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;
use tilerank::ingest::hashes::ReadHashes;
use tilerank::report::export::ExportRequest;
use tilerank::report::site::{self, Lang, Site};

/// Publish the results as a website: standings, qualifiers, medals, award, a page per player and per table
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank publish examples/hk-2026/cards --roster examples/hk-2026/roster.csv --name \"HK Open 2026\" -o site\n  tilerank publish --event my-event -o site\n  tilerank publish --event my-event --lang zh-Hant -o site-zh\n\nThe site works opened from disk (site/index.html) and on any web host: its styles and scripts are inside it and nothing is fetched from the network. The folder is written whole (a temporary folder renamed into place), in a folder that must be there (it is never made); an existing folder is replaced only if it is empty or an earlier tilerank site, and then only the files tilerank wrote (listed in its .tilerank-files): pages, pictures and other files you added to the folder are kept. While cards the event expects are missing, or players who went on have not played, each page says PROVISIONAL while what it shows waits for them (as each sheet of export), and the index lists what is missing. Nothing is written while any card has an error."
)]
pub struct PublishArgs {
    #[command(flatten)]
    pub event: SiteEventArgs,

    /// The folder to write the site into (what tilerank wrote there is replaced; files you added are kept)
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
}

/// What `publish` and `serve` read, and how they rank.
#[derive(Args, Debug)]
pub struct SiteEventArgs {
    #[command(flatten)]
    pub event: EventArgs,

    /// The event's name, on every page (default: the event's, from tilerank.toml)
    #[arg(long, value_name = "TEXT")]
    pub name: Option<String>,

    #[command(flatten)]
    pub cutoff: CutoffArgs,

    /// The language of the pages: en (English) or zh-Hant (Traditional Chinese); names and data are shown as written
    #[arg(long, value_name = "LANG", default_value = "en", value_parser = parse_lang)]
    pub lang: Lang,
}

/// `--lang`: a language the site has words for.
pub fn parse_lang(text: &str) -> Result<Lang, String> {
    text.parse()
}

/// A site, or why there is none (the problems are already printed).
pub enum Built {
    Site(Site),
    /// Data errors, or a qualifier list waiting for the director: what
    /// the director is told, and what a served page says meanwhile (to
    /// players, who cannot see the errors).
    Refused {
        why: String,
        public: &'static str,
        /// The files whose errors stop the site, each with its errors
        /// (none when it waits for a decision).
        errors: std::collections::BTreeMap<String, usize>,
    },
}

impl SiteEventArgs {
    /// Reads the event and builds every page; `again` says how the pages
    /// come once the errors are fixed (`publish` is run again, `serve`
    /// reads a file again when it is saved).
    pub fn build(&self, again: Again) -> Result<Built> {
        let rules = self.event.rules_with_cutoff(&self.cutoff)?;
        // (the log lists each input with the hash of the bytes read)
        let hashes = ReadHashes::keep();
        let loaded = self.event.load(rules)?;
        let event = &loaded.event;
        if event.problems.has_errors() {
            eprintln!("{}", summary(event));
            return Ok(Built::Refused {
                why: whole_event_refusal(event, again),
                public: "the cards have errors, which the desk is correcting",
                errors: event.problems.errors_by_file(),
            });
        }
        eprintln!("{}", summary(event));
        let completeness = report_missing(&loaded);
        let Sources { name, sources, log } =
            sources(&self.event, self.name.as_deref(), &loaded, &hashes)?;
        let site = site::build(
            &ExportRequest {
                event,
                name: &name,
                completeness: &completeness,
                // (the pages show each table's title)
                marked: false,
                sources,
                log,
            },
            self.lang,
        );
        for d in &site.decisions {
            eprintln!("{d}");
        }
        if site.unsettled {
            return Ok(Built::Refused {
                why: "a qualifier list waits for the director's decision (see above)".into(),
                public: "a qualifier list waits for the director's decision",
                errors: Default::default(),
            });
        }
        Ok(Built::Site(site))
    }
}

pub fn run(args: PublishArgs) -> Result<Outcome> {
    // (a site folder named as one of the event's files would stop the
    // event being read)
    tilerank::report::output::not_an_event_file(&args.output)?;
    // (the site folder is made, in a folder that is there: said before
    // anything is read)
    tilerank::report::output::folder_is_there(&args.output)?;
    let site = match args.event.build(Again::Run)? {
        Built::Site(site) => site,
        Built::Refused { why, .. } => {
            eprintln!("Nothing published: {why}.");
            return Ok(Outcome::DataErrors);
        }
    };
    let kept = site::write_site(&args.output, &site)
        .with_context(|| "the site was not written".to_string())?;
    let players = site.files.keys().filter(|p| p.starts_with("p/")).count();
    let cards = site.files.keys().filter(|p| p.starts_with("t/")).count();
    eprintln!(
        "{}: {}: index.html, {}, {}",
        args.output.display(),
        counted(site.files.len(), "file"),
        counted(players, "player page"),
        counted(cards, "card page")
    );
    if !kept.is_empty() {
        eprintln!(
            "{}: kept {} not written by tilerank: {}",
            args.output.display(),
            counted(kept.len(), "file"),
            kept.join(", ")
        );
    }
    Ok(Outcome::Done)
}

/// `n` of a thing in words: "1 card page", "4 card pages".
fn counted(n: usize, thing: &str) -> String {
    match n {
        1 => format!("1 {thing}"),
        n => format!("{n} {thing}s"),
    }
}
