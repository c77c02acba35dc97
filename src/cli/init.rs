//! `tilerank init`: create an event folder.

use super::Outcome;
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use tilerank::event_folder::EventFolder;
use tilerank::profile::{ProfileName, Rules};

/// Create an event folder: tilerank.toml (every setting with the profile's default) and the database that keeps the roster and the imported cards
#[derive(Args, Debug)]
#[command(
    after_help = "Example:\n  tilerank init my-event --profile hk --name \"Rummikub HK 2026 Preliminary Round\" --date 2026-03-28\n  cd my-event && tilerank roster ../roster.csv && tilerank import ../S01.xlsx"
)]
pub struct InitArgs {
    /// The folder to create (default: the current folder)
    #[arg(value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,

    /// Rules profile (its defaults are written to tilerank.toml: hk expects 12 sessions of 25 tables)
    #[arg(long, default_value = "hk", value_parser = |s: &str| s.parse::<ProfileName>(), help = super::profile_help("Rules profile", "(its defaults are written to tilerank.toml: hk expects 12 sessions of 25 tables)"))]
    pub profile: ProfileName,

    /// A rules file of your own: tilerank.toml starts from it, every setting written
    #[arg(long = "rules", value_name = "FILE", conflicts_with = "profile")]
    pub rules_file: Option<PathBuf>,

    /// The event's name
    #[arg(long)]
    pub name: String,

    /// The event date, YYYY-MM-DD (ages are taken on it; 2026-3-28 and 2026/03/28 are read too)
    #[arg(long, value_parser = tilerank::config::parse_date)]
    pub date: Option<String>,
}

pub fn run(args: InitArgs) -> Result<Outcome> {
    let rules = super::given_rules(&args.rules_file, Some(args.profile))?.unwrap_or_else(Rules::hk);
    let folder = EventFolder::init_with(&args.dir, &rules, &args.name, args.date.as_deref())?;
    say!(
        "Created the event {:?} in {} ({} rules). Next: tilerank roster FILE, then tilerank import FILE...",
        args.name,
        folder.dir.display(),
        rules.profile
    );
    Ok(Outcome::Done)
}
