//! `tilerank dump`: the whole event as plain CSV files, for people and git.

use super::{EventFolderArg, Outcome};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

/// Write the event as plain files: tilerank.toml, roster.csv, log.csv and one CSV per card (results layout), every value as stored
#[derive(Args, Debug)]
#[command(
    after_help = "Example:\n  tilerank dump backup-2026-03-28\n\nThe folder must be new or empty. Values are written as stored, never escaped for spreadsheets. Reading commands take the dump as it is (--event DIR). To build a database event from it again:\n  mkdir NEW && cp DIR/tilerank.toml NEW/\n  tilerank roster DIR/roster.csv --event NEW && tilerank import DIR/cards --event NEW"
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
    say!(
        "Dumped {} into {}: tilerank.toml, roster.csv ({} players), {} in cards/, log.csv ({} lines){desk}.",
        folder.config.event.name,
        args.dir.display(),
        done.players,
        super::cards(done.cards),
        done.log
    );
    Ok(Outcome::Done)
}

/// `1 entry`, `3 entries`.
fn counted(n: usize, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}
