//! `tilerank awards`: the HK Super Family Award.

use super::answers::{final_answers, rankable_for};
use super::{EventArgs, Outcome, OutputArgs};
use anyhow::{bail, Result};
use clap::Args;
use tilerank::report::stages::{awards_table, families_apart_table, mark_rows};

/// Print the Super Family Award (hk): parent-and-child units who both reached the final, ranked on their summed results
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank awards --event my-event\n  tilerank awards --event my-event --all --format csv > families.csv\n  tilerank awards prelim-cards/ final-cards/ --roster roster.csv --date 2026-04-12\n\nA unit is two roster entries with the same family id: a child aged 7 to 18 and a parent aged 18 or over on the event date. Both must qualify from the prelim; the final's results decide. Under the placings one line counts the families that are not eligible (or not units) by reason, naming the first of each; --all lists each family and why in a second table (Not eligible). The award waits (exit 1) while a player who went on has no final card yet, or cards the event expects are missing; --allow-incomplete decides it marked PROVISIONAL (in a CSV, JSON or workbook file, on every row too)."
)]
pub struct AwardsArgs {
    #[command(flatten)]
    pub event: EventArgs,

    /// Decide the award even while the final (or a card the event expects) is not all in (marked PROVISIONAL)
    #[arg(long)]
    pub allow_incomplete: bool,

    /// List each family that is not eligible or not a unit, and why: a second table, in every format (without it, one line under the award counts them by reason)
    #[arg(long)]
    pub all: bool,

    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: AwardsArgs) -> Result<Outcome> {
    let titled = args.output.shows_titles()?;
    let loaded = args.event.load(args.event.rules()?)?;
    let event = &loaded.event;
    let Some(_) = rankable_for(
        event,
        event.final_stage().as_str(),
        Some("the Super Family Award is decided on the final's results"),
    )?
    else {
        return Ok(Outcome::DataErrors);
    };
    let qualifying = event.qualifying_stage();
    if !event.stages().contains(&qualifying) {
        bail!("the award needs the {qualifying} cards too (who qualified for the final)");
    }
    let award = match event.super_family() {
        Ok(award) => award,
        Err(why) => bail!("{why}"),
    };
    let Some(completeness) = final_answers(&loaded, args.allow_incomplete, "award") else {
        return Ok(Outcome::DataErrors);
    };
    // The award's placings, then a line that counts the families set
    // apart by reason (as the export and the site say it); --all lists
    // each, as a table of its own.
    let mut table = awards_table(&award, &event.roster, event.rules.scoring);
    table.title.push_str(&completeness.title_suffix());
    // (a file without titles says it on every row)
    if let Some(mark) = completeness.mark().filter(|_| !titled) {
        mark_rows(&mut table, &mark);
    }
    let mut tables = vec![table];
    if args.all {
        tables.push(families_apart_table(&award, &event.roster));
    } else if titled && !(award.ineligible.is_empty() && award.not_units.is_empty()) {
        if let Some(last) = tables[0].notes.last_mut() {
            last.push_str(" Each family and why: tilerank awards --all.");
        }
    }
    args.output.emit(&tables)?;
    Ok(Outcome::Done)
}
