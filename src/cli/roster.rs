//! `tilerank roster`: check a roster and store it in the event.

use super::{print_problems, say_waiting, EventFolderArg, Outcome};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use tilerank::event_folder::RosterChanges;

/// Check a roster (unique ids, dates, statuses) and store it in the event folder
#[derive(Args, Debug)]
#[command(
    after_help = "Example:\n  tilerank roster roster.xlsx\n\nThe roster's columns: id, name (required), birth_date (YYYY-MM-DD) or age, family, status (blank, withdrawn, disqualified), group. Nothing is stored while it has an error; a roster stored before is kept in the event's database."
)]
pub struct RosterArgs {
    /// The roster file (CSV or workbook)
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    #[command(flatten)]
    pub event: EventFolderArg,
}

pub fn run(args: RosterArgs) -> Result<Outcome> {
    let folder = args.event.open()?;
    let (problems, players, changes) =
        folder.store_roster_changes(&args.file, &folder.rules(), &mut say_waiting)?;
    print_problems(&problems);
    if problems.has_errors() {
        say!(
            "Roster not stored: {} (listed above).",
            match problems.error_count() {
                1 => "1 error".to_string(),
                n => format!("{n} errors"),
            }
        );
        // a roster that cannot be read at all is exit status 2, as for
        // every command
        if problems.unreadable_count() > 0 {
            anyhow::bail!("{} could not be read (see above)", args.file.display());
        }
        return Ok(Outcome::DataErrors);
    }
    match changes {
        None => say!("Roster stored: {players} players."),
        Some(c) if c.same => {
            say!("Roster unchanged: it is the roster already stored ({players} players); nothing stored.")
        }
        Some(c) => say!(
            "Roster stored: {players} players, replacing the roster stored before: {}.",
            said_changes(&c)
        ),
    }
    Ok(Outcome::Done)
}

/// What a roster stored again changed: `1 added (P0999), 0 removed, 1
/// changed (P0613: status now withdrawn)`, a few ids of each.
fn said_changes(c: &RosterChanges) -> String {
    const SHOWN: usize = 5;
    let some = |ids: Vec<String>| -> String {
        let n = ids.len();
        let mut shown: Vec<String> = ids.into_iter().take(SHOWN).collect();
        if n > SHOWN {
            shown.push(format!("and {} more", n - SHOWN));
        }
        match n {
            0 => String::new(),
            _ => format!(" ({})", shown.join("; ")),
        }
    };
    let changed = c.changed.iter().map(|(id, fields)| {
        let what: Vec<String> = (fields.iter())
            .map(|(field, value)| match value.as_str() {
                "" if *field == "status" => "status now active".to_string(),
                "" => format!("{} now blank", field.replace('_', " ")),
                v => format!("{} now {v}", field.replace('_', " ")),
            })
            .collect();
        format!("{id}: {}", what.join(", "))
    });
    format!(
        "{} added{}, {} removed{}, {} changed{}",
        c.added.len(),
        some(c.added.clone()),
        c.removed.len(),
        some(c.removed.clone()),
        c.changed.len(),
        some(changed.collect())
    )
}
