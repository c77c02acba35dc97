//! `tilerank roster`: check a roster and store it in the event.

use super::{print_problems, say_waiting, EventFolderArg, Outcome};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

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
    let (problems, players) = folder.store_roster(&args.file, &folder.rules(), &mut say_waiting)?;
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
    say!("Roster stored: {players} players.");
    Ok(Outcome::Done)
}
