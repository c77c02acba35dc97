//! `tilerank log`: what was imported, replaced or removed, when, from which
//! file; and the live desk's entries and decisions.

use super::{EventFolderArg, Outcome, OutputArgs};
use anyhow::Result;
use clap::Args;
use tilerank::event_folder::{LogEntry, Storage};
use tilerank::report::{Column, Table, Value};

/// Show the event's import log: what was imported, replaced or removed, when, from which file (name and content hash), and each card a referee entered at a table and each decision that settled one
#[derive(Args, Debug)]
#[command(after_help = "Example:\n  tilerank log\n  tilerank log --format csv -o log.csv")]
pub struct LogArgs {
    #[command(flatten)]
    pub event: EventFolderArg,

    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: LogArgs) -> Result<Outcome> {
    let folder = args.event.open()?;
    let on_terminal = args.output.format.is_none() && args.output.output.is_none();
    let rows = folder
        .log_entries()?
        .into_iter()
        .map(|entry| {
            let text = |v: String| {
                if v.is_empty() {
                    Value::Empty
                } else {
                    Value::Text(v.into())
                }
            };
            // The table shows a hash's first 12 characters (whole characters).
            let sha256 = if on_terminal {
                entry.sha256.chars().take(12).collect()
            } else {
                entry.sha256
            };
            vec![
                text(entry.time),
                text(entry.action),
                text(entry.file),
                text(sha256),
                text(entry.stage),
                Value::Int(entry.cards),
                Value::Int(entry.games),
                text(entry.reason),
            ]
        })
        .collect();
    let columns = LogEntry::COLUMNS
        .iter()
        .map(|&name| {
            if name == "cards" || name == "games" {
                Column::int(name)
            } else {
                Column::text(name)
            }
        })
        .collect();
    let mut notes = Vec::new();
    if folder.storage == Storage::Files {
        notes.push(format!(
            "{} has no database: its event is the files in it (roster.csv, cards/), and there is no import log to show",
            folder.dir.display()
        ));
    }
    let table = Table {
        name: "Log".into(),
        title: format!("Import log of {}", folder.config.event.name),
        columns,
        rows,
        notes,
    };
    args.output.emit(&[table])?;
    Ok(Outcome::Done)
}
