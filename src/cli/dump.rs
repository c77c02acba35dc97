//! `tilerank dump`: the whole event as plain CSV files, for people and git.

use super::{EventFolderArg, Outcome};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

/// Write the event as plain files: tilerank.toml, roster.csv, log.csv and one CSV per card (results layout), every value as stored
#[derive(Args, Debug)]
#[command(
    after_help = "Example:\n  tilerank dump backup-2026-03-28\n\nThe folder must be new or empty. Values are written as stored, never escaped for spreadsheets. Reading commands take the dump as it is (--event DIR). To build a database event from it again:\n  mkdir NEW && cp DIR/tilerank.toml NEW/\n  tilerank roster DIR/roster.csv --event NEW && tilerank import DIR/cards --event NEW\n\nThe event built again has the settings, the roster and the cards; its log begins with those two commands (log.csv keeps the old one). It has no referees (add them again), and not the live desk's entries and decisions (entries.csv, decisions.csv) nor the tables held back by double entry (held.csv: a table still held back is missing there, or its earlier card counts as if final, until its two typings are imported again with --second-entry; the dump names such tables). Read as an event, the dump holds back the tables its held.csv says are still held back, as the event did; not the live desk's."
)]
pub struct DumpArgs {
    /// The folder to write into (new or empty)
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,

    #[command(flatten)]
    pub event: EventFolderArg,
}

pub fn run(args: DumpArgs) -> Result<Outcome> {
    let folder = args.event.open()?;
    let done = folder.dump(&args.dir)?;
    // (the live desk's record, when a card was ever entered at a table)
    let desk = match done.entries {
        0 => String::new(),
        n => format!(
            ", entries.csv ({}), decisions.csv ({})",
            counted(n, "entry", "entries"),
            counted(done.decisions, "decision", "decisions")
        ),
    };
    // (the tables double entries held back, when there were some)
    let held = match done.held {
        0 => String::new(),
        n => format!(", held.csv ({})", counted(n, "row", "rows")),
    };
    say!(
        "Dumped {} into {}: tilerank.toml, roster.csv ({} players), {} in cards/, log.csv ({} lines){desk}{held}.",
        folder.config.event.name,
        args.dir.display(),
        done.players,
        super::cards(done.cards),
        done.log
    );
    // What an event built again from the dump would lose without a word.
    if !done.still_held.is_empty() {
        let tables: Vec<String> = done.still_held.iter().map(|k| k.to_string()).collect();
        let (are, them, each, their) = match tables.len() {
            1 => ("1 table is".to_string(), "it", "it is", "its"),
            n => (format!("{n} tables are"), "them", "each is", "their"),
        };
        say!(
            "{are} still held back by double entry (held.csv): the dump read as an event holds {them} back too, but an event built again from it does not ({each} missing there, or {their} earlier card counts as if final). Import {their} two typings again there with --second-entry: {}.",
            tables.join(", ")
        );
    }
    Ok(Outcome::Done)
}

/// `1 entry`, `3 entries`.
fn counted(n: usize, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}
