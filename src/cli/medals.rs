//! `tilerank medals`: gold, silver and bronze of the final, per age group.

use super::advance::groups;
use super::standings::rankable;
use super::{EventArgs, Outcome, OutputArgs};
use anyhow::Result;
use clap::Args;
use tilerank::report::stages::medals_table;
use tilerank::rules::medals::{award, award_group};

/// Print the medals of the final per age group (HK: Champion, 1st and 2nd runner-up); ties share a medal
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank medals --event hk-2026\n  tilerank medals final-cards.xlsx --roster roster.csv --profile nvso -o medals.xlsx"
)]
pub struct MedalsArgs {
    #[command(flatten)]
    pub event: EventArgs,

    /// The stage whose standings give the medals
    #[arg(long, default_value = "final")]
    pub stage: String,

    /// One age group only
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,

    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: MedalsArgs) -> Result<Outcome> {
    let loaded = args.event.load(args.event.rules()?)?;
    let event = &loaded.event;
    let Some(stage) = rankable(event, &args.stage)? else {
        return Ok(Outcome::DataErrors);
    };
    let all: Vec<_> = groups(event, &args.group)?
        .into_iter()
        .map(|g| {
            let standings = event.standings_in(&stage, g.as_deref());
            match &g {
                Some(name) => award_group(name, &standings),
                None => award(&standings),
            }
        })
        .collect();
    args.output.emit(&[medals_table(&all, event)])?;
    Ok(Outcome::Done)
}
