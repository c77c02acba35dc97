//! `tilerank import`: check card files and store them in the event.

use super::{print_problems, EventFolderArg, Outcome};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use tilerank::event_folder::{CardFate, StopAfter};

/// Check score cards and store them in the event: each file whole, or nothing from it
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank import S01.xlsx S02.xlsx\n  tilerank import S03-table7.csv --replace --reason \"score of seat B corrected by the referee\"\n\nImporting the same card again changes nothing. A different card for a table already imported is refused, showing what differs, unless --replace (with --reason): the old card is kept in history/. Every import is recorded in the log (tilerank log)."
)]
pub struct ImportArgs {
    /// Card files or folders (CSV or workbooks)
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// The stage the cards belong to (default: what the cards say, else prelim)
    #[arg(long)]
    pub stage: Option<String>,

    /// Replace cards imported before (needs --reason)
    #[arg(long, requires = "reason")]
    pub replace: bool,

    /// Why the cards are replaced, for the log
    #[arg(long)]
    pub reason: Option<String>,

    /// Double entry: a second typing of the same cards (file or folder); only cards both typings agree on are imported, the others are held back and listed
    #[arg(long, value_name = "FILE_OR_FOLDER")]
    pub second_entry: Option<PathBuf>,

    #[command(flatten)]
    pub event: EventFolderArg,
}

pub fn run(args: ImportArgs) -> Result<Outcome> {
    let folder = args.event.open()?;
    let second = match &args.second_entry {
        Some(second) => Some(super::compare::second_entry(
            &folder,
            &args.files,
            second,
            args.stage.as_deref(),
            args.reason.as_deref(),
        )?),
        None => None,
    };
    let report = folder.import(
        second.as_ref().map_or(&args.files, |s| &s.files),
        args.stage.as_deref(),
        args.replace,
        second
            .as_ref()
            .map_or(args.reason.as_deref(), |s| Some(&s.reason)),
        StopAfter::Never,
    )?;
    print_problems(&report.problems);
    for (file, fates) in &report.files {
        let refused = report.refused.contains(file);
        let file = second.as_ref().map_or(file.as_str(), |s| s.original(file));
        if refused {
            eprintln!("{file}: nothing imported (errors above)");
            continue;
        }
        let count = |f: CardFate| fates.iter().filter(|(_, x)| *x == f).count();
        let (new, same, replaced) = (
            count(CardFate::New),
            count(CardFate::Unchanged),
            count(CardFate::Replaced),
        );
        let cards = |n: usize| {
            if n == 1 {
                "1 card".to_string()
            } else {
                format!("{n} cards")
            }
        };
        if new + replaced == 0 {
            eprintln!(
                "{file}: already imported, identical ({}): nothing to do",
                cards(same)
            );
        } else {
            eprintln!(
                "{file}: {} imported, {replaced} replaced, {same} unchanged",
                cards(new)
            );
        }
    }
    Ok(
        if report.refused.is_empty() && second.is_none_or(|s| s.is_clean()) {
            Outcome::Done
        } else {
            Outcome::DataErrors
        },
    )
}
