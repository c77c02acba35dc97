//! `tilerank init`: create an event folder.

use super::Outcome;
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use tilerank::event_folder::EventFolder;
use tilerank::profile::ProfileName;

/// Create an event folder: tilerank.toml (every setting with the profile's default) and the database that keeps the roster and the imported cards
#[derive(Args, Debug)]
#[command(
    after_help = "Example:\n  tilerank init hk-2026 --profile hk --name \"Rummikub HK 2026 Preliminary Round\" --date 2026-03-28\n  cd hk-2026 && tilerank roster ../roster.csv && tilerank import ../S01.xlsx"
)]
pub struct InitArgs {
    /// The folder to create (default: the current folder)
    #[arg(value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,

    /// Rules profile: hk, nvso, pressman or gwinnett (its defaults are written to tilerank.toml: hk expects 12 sessions of 25 tables)
    #[arg(long, default_value = "hk", value_parser = |s: &str| s.parse::<ProfileName>())]
    pub profile: ProfileName,

    /// The event's name
    #[arg(long)]
    pub name: String,

    /// The event date, YYYY-MM-DD (ages are taken on it; 2026-3-28 and 2026/03/28 are read too)
    #[arg(long, value_parser = tilerank::config::parse_date)]
    pub date: Option<String>,
}

pub fn run(args: InitArgs) -> Result<Outcome> {
    let folder = EventFolder::init(&args.dir, args.profile, &args.name, args.date.as_deref())?;
    say!(
        "Created the event {:?} in {} ({} rules). Next: tilerank roster FILE, then tilerank import FILE...",
        args.name,
        folder.dir.display(),
        args.profile
    );
    Ok(Outcome::Done)
}
