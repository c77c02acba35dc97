//! `tilerank remove`: take a card out of the event (kept in its database,
//! the log says when and why).

use super::{say_waiting, EventFolderArg, Outcome};
use anyhow::{bail, Result};
use clap::Args;
use tilerank::domain::{CardKey, Label, Stage};

/// Take a card out of the event: its table has no card again, as before it was imported (the card is kept in the event's database, and the log says when and why)
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank remove --stage final --session S01 --table 40 --reason \"a prelim card typed on the final's form\"\n  tilerank remove --session S02 --table 7 --reason \"typed as table 7, was table 17\"\n\nFor a card with a wrong value, import the corrected card with --replace instead. Importing a removed card again puts it back. The log lists every removal with its reason (tilerank log). A card of an earlier stage is not removed when, without it, a player on a later stage's stored cards would no longer have gone on (exit 1): the later stage was played by the list before."
)]
pub struct RemoveArgs {
    /// The card's stage (default: the event's first stage, the prelim)
    #[arg(long, value_name = "STAGE")]
    pub stage: Option<String>,

    /// The card's session, as the card gives it (S03 or 3)
    #[arg(long, value_name = "SESSION")]
    pub session: String,

    /// The card's table number
    #[arg(long, value_name = "TABLE")]
    pub table: String,

    /// Why the card is taken out (required: the log keeps it)
    #[arg(long, value_name = "TEXT")]
    pub reason: String,

    #[command(flatten)]
    pub event: EventFolderArg,
}

pub fn run(args: RemoveArgs) -> Result<Outcome> {
    let folder = args.event.open()?;
    let rules = folder.rules();
    let stages = &rules.stages;
    let stage = match &args.stage {
        Some(s) if !stages.iter().any(|x| x == s) => bail!(
            "--stage {s}: not one of this event's stages ({}: [rules] stages in tilerank.toml)",
            stages.join(", ")
        ),
        Some(s) => Stage::new(s),
        None => Stage::new(stages.first().map_or("prelim", String::as_str)),
    };
    let Some(session) = Label::session(&args.session) else {
        bail!(
            "--session {:?}: expected a session as the cards give it (S03 or 3)",
            args.session
        );
    };
    let Some(table) = Label::table(&args.table) else {
        bail!("--table {:?}: expected a table number (7)", args.table);
    };
    let key = CardKey {
        stage,
        session,
        table,
    };
    match folder.remove_card(&key, &args.reason, &mut say_waiting)? {
        tilerank::event_folder::Removed::Card { source } => {
            say!("{key}: removed (it was read from {source}); tilerank log keeps when and why.");
            Ok(Outcome::Done)
        }
        tilerank::event_folder::Removed::Not(why) => {
            say!("{}: error: {why}", folder.db_path().display());
            Ok(Outcome::DataErrors)
        }
    }
}
