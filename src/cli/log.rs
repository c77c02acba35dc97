//! `tilerank log`: what was imported or replaced, when, from which file.

use super::{EventFolderArg, Outcome, OutputArgs};
use anyhow::Result;
use clap::Args;
use tilerank::report::{Column, Kind, Table, Value};

/// Show the event's import log: what was imported or replaced, when, from which file (name and content hash)
#[derive(Args, Debug)]
#[command(after_help = "Example:\n  tilerank log\n  tilerank log --format csv -o log.csv")]
pub struct LogArgs {
    #[command(flatten)]
    pub event: EventFolderArg,

    #[command(flatten)]
    pub output: OutputArgs,
}

const COLUMNS: [&str; 8] = [
    "time", "action", "file", "sha256", "stage", "cards", "games", "reason",
];

pub fn run(args: LogArgs) -> Result<Outcome> {
    let folder = args.event.open()?;
    let log = folder.log()?;
    let rows = log
        .iter()
        .map(|entry| {
            COLUMNS
                .iter()
                .map(|c| {
                    let v = entry.get(*c).cloned().unwrap_or_default();
                    match (*c, v.parse::<i64>()) {
                        ("cards" | "games", Ok(n)) => Value::Int(n),
                        ("sha256", _)
                            if v.len() > 12
                                && args.output.format.is_none()
                                && args.output.output.is_none() =>
                        {
                            Value::Text(v[..12].to_string())
                        }
                        _ if v.is_empty() => Value::Empty,
                        _ => Value::Text(v),
                    }
                })
                .collect()
        })
        .collect();
    let columns = COLUMNS
        .iter()
        .map(|&name| Column {
            name,
            kind: if name == "cards" || name == "games" {
                Kind::Int
            } else {
                Kind::Text
            },
        })
        .collect();
    let mut notes = Vec::new();
    for path in folder.unlogged() {
        notes.push(format!("{}: stored after the last log line (an import was stopped before it logged); import its file again to record it", path.display()));
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
