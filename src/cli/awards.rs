//! `tilerank awards`: the HK Super Family Award.

use super::standings::rankable;
use super::{EventArgs, Outcome, OutputArgs};
use anyhow::{bail, Result};
use clap::Args;
use std::collections::HashSet;
use tilerank::domain::Stage;
use tilerank::report::stages::awards_table;
use tilerank::rules::awards::super_family;

/// Print the Super Family Award (hk): parent-and-child units who both reached the final, ranked on their summed results
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank awards --event hk-2026\n  tilerank awards prelim-cards/ final-cards/ --roster roster.csv --date 2026-04-12\n\nA unit is two roster entries with the same family id: a child aged 7 to 18 and a parent aged 18 or over on the event date. Both must qualify from the prelim; the final's results decide."
)]
pub struct AwardsArgs {
    #[command(flatten)]
    pub event: EventArgs,

    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: AwardsArgs) -> Result<Outcome> {
    let loaded = args.event.load(args.event.rules()?)?;
    let event = &loaded.event;
    let Some(final_stage) = rankable(event, "final")? else {
        return Ok(Outcome::DataErrors);
    };
    let Some(date) = event.rules.event_date.clone() else {
        bail!("the award needs the event date for ages: give --date YYYY-MM-DD (or [event] date in tilerank.toml)");
    };
    let prelim = Stage::prelim();
    if !event.stages().contains(&prelim) {
        bail!("the award needs the prelim cards too (who qualified for the final)");
    }
    let qualified: HashSet<_> = event
        .advance(&prelim, None, &[])
        .going
        .iter()
        .map(|(p, _)| *p)
        .collect();
    let award = super_family(
        &event.roster,
        &date,
        &qualified,
        &event.standings(&final_stage),
    );
    args.output.emit(&[awards_table(&award, &event.roster)])?;
    Ok(Outcome::Done)
}
