//! `tilerank referee`: the referees of the live desk (issue 21), each with
//! a key of their own: add one, list them, revoke one.

use super::{say_waiting, say_written, write_stdout, EventFolderArg, Outcome, OutputArgs};
use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use compact_str::ToCompactString;
use std::path::PathBuf;
use tilerank::event_folder::{check_site_url, entry_link, DEFAULT_SITE};
use tilerank::report::{Column, Table, Value};

/// Referees of the live desk: add one (a key of their own, shown once), list them, revoke one
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank referee add \"Ann Lee\" --site-url http://192.168.1.20:8080 -o ann.png\n  tilerank referee list\n  tilerank referee revoke \"Ann Lee\"\n\nThe event keeps only a hash of each key. The link opens the entry page of the live desk (tilerank serve --entry --bind 0.0.0.0) on the hall's network."
)]
pub struct RefereeArgs {
    #[command(subcommand)]
    pub command: RefereeCommand,
}

#[derive(Subcommand, Debug)]
pub enum RefereeCommand {
    Add(AddArgs),
    List(ListArgs),
    Revoke(RevokeArgs),
}

/// Add a referee: prints their key (once: only its hash is stored) and the link to the entry page
#[derive(Args, Debug)]
#[command(
    after_help = "Example:\n  tilerank referee add \"Ann Lee\" --site-url http://192.168.1.20:8080 -o ann.png\n\nStandard output has two lines, key: KEY and link: URL. Keep them from view: whoever has the key types cards as this referee until it is revoked (tilerank referee revoke NAME)."
)]
pub struct AddArgs {
    /// The referee's name, as the desk knows them (unique among the active referees)
    #[arg(value_name = "NAME")]
    pub name: String,

    /// The live desk's address, as the referees' phones reach it (default: [event] site of tilerank.toml, else http://127.0.0.1:8080)
    #[arg(long, value_name = "URL")]
    pub site_url: Option<String>,

    /// Also write the link as a QR code to print for the referee (a PNG image)
    #[arg(short, long, value_name = "FILE.png")]
    pub output: Option<PathBuf>,

    #[command(flatten)]
    pub event: EventFolderArg,
}

/// List the referees: name, active or revoked, when added, when revoked (never a key)
#[derive(Args, Debug)]
#[command(after_help = "Example:\n  tilerank referee list\n  tilerank referee list --format csv")]
pub struct ListArgs {
    #[command(flatten)]
    pub event: EventFolderArg,

    #[command(flatten)]
    pub output: OutputArgs,
}

/// Revoke a referee: their key lets no one in again (the referee stays listed)
#[derive(Args, Debug)]
#[command(after_help = "Example:\n  tilerank referee revoke \"Ann Lee\"")]
pub struct RevokeArgs {
    /// The referee's name, as the list of referees shows it (tilerank referee list)
    #[arg(value_name = "NAME")]
    pub name: String,

    #[command(flatten)]
    pub event: EventFolderArg,
}

pub fn run(args: RefereeArgs) -> Result<Outcome> {
    match args.command {
        RefereeCommand::Add(a) => add(a),
        RefereeCommand::List(a) => list(a),
        RefereeCommand::Revoke(a) => revoke(a),
    }
}

/// The largest side of the printed QR code, in pixels (about 5 cm at 300
/// dots per inch).
const PRINT_SIDE: usize = 600;

fn add(args: AddArgs) -> Result<Outcome> {
    // The output is checked before anything is stored.
    if let Some(path) = &args.output {
        let png = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("png"));
        anyhow::ensure!(
            png,
            "{}: expected a file name ending in .png (the QR code is written as a PNG image)",
            path.display()
        );
    }
    let folder = args.event.open()?;
    let site = args
        .site_url
        .clone()
        .or_else(|| folder.config.event.site.clone())
        .unwrap_or_else(|| DEFAULT_SITE.to_string());
    check_site_url(&site)?;
    let (referee, key) = folder.add_referee(&args.name, &mut say_waiting)?;
    let link = entry_link(&site, &key)?;
    write_stdout(format!("key: {key}\nlink: {link}\n").as_bytes())?;
    if points_here(&site) {
        say!(
            "warning: the link points at this computer itself ({site}): a referee's phone cannot open it. Revoke this referee (tilerank referee revoke {:?}) and add them again with --site-url and this computer's address on the hall's network (tilerank serve --entry --bind 0.0.0.0 listens there), or set site in [event] of tilerank.toml first",
            referee.name
        );
    }
    say!(
        "Referee {:?} added to the event {:?}. The key is shown this once: the event keeps only its hash.",
        referee.name,
        folder.config.event.name
    );
    if let Some(path) = &args.output {
        let png = tilerank::report::qr::png(&link, PRINT_SIDE)?;
        tilerank::report::output::write_report(path, &png).with_context(|| {
            format!(
                "the referee is added, but their QR code is not written: run tilerank referee revoke {:?} and add them again",
                referee.name
            )
        })?;
        say_written(
            path,
            &format!(
                "the entry link of {:?} as a QR code, to print",
                referee.name
            ),
        );
    }
    Ok(Outcome::Done)
}

/// Whether `site` names this computer alone (`localhost`, `127.0.0.1`,
/// `[::1]`): no other device reaches it.
fn points_here(site: &str) -> bool {
    let rest = site.split_once("://").map_or(site, |(_, r)| r);
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let host = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host.split(':').next().unwrap_or(""),
    };
    host.eq_ignore_ascii_case("localhost") || host.starts_with("127.") || host == "::1"
}

fn list(args: ListArgs) -> Result<Outcome> {
    let folder = args.event.open()?;
    let text = |v: &str| {
        if v.is_empty() {
            Value::Empty
        } else {
            Value::Text(v.to_compact_string())
        }
    };
    let rows = folder
        .referees()?
        .into_iter()
        .map(|r| {
            vec![
                text(&r.name),
                text(if r.revoked.is_some() {
                    "revoked"
                } else {
                    "active"
                }),
                text(&r.added),
                text(r.revoked.as_deref().unwrap_or("")),
            ]
        })
        .collect::<Vec<_>>();
    let notes = if rows.is_empty() {
        vec!["No referee yet: add one with tilerank referee add NAME (it prints their key and the link to the entry page).".into()]
    } else {
        Vec::new()
    };
    let table = Table {
        name: "Referees".into(),
        title: format!("Referees of {}", folder.config.event.name),
        columns: vec![
            Column::text("name"),
            Column::text("status"),
            Column::text("added"),
            Column::text("revoked"),
        ],
        rows,
        notes,
    };
    args.output.emit(&[table])?;
    Ok(Outcome::Done)
}

fn revoke(args: RevokeArgs) -> Result<Outcome> {
    let folder = args.event.open()?;
    let referee = folder.revoke_referee(&args.name, &mut say_waiting)?;
    say!(
        "Referee {:?} revoked at {}: their key lets no one in again.",
        referee.name,
        referee.revoked.as_deref().unwrap_or_default()
    );
    Ok(Outcome::Done)
}
