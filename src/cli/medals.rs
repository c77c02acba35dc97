//! `tilerank medals`: gold, silver and bronze of the final, per age group.

use super::answers::{final_answers, groups, rankable_for};
use super::{EventArgs, Outcome, OutputArgs};
use anyhow::Result;
use clap::Args;
use tilerank::report::stages::{mark_rows, medals_table};

/// Print the medals of the final per age group (HK: Champion, 1st and 2nd runner-up); ties share a medal
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank medals --event examples/nvso-2023\n  tilerank medals cards/ --roster roster.csv --profile nvso --date 2023-09-13 -o medals.xlsx\n\nThe medals wait (exit 1) while a player who went on to the final has no final card yet, or while cards the event expects are missing; --allow-incomplete gives them marked PROVISIONAL (in a CSV, JSON or workbook file, on every row too)."
)]
pub struct MedalsArgs {
    #[command(flatten)]
    pub event: EventArgs,

    /// One age group only
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,

    /// Give the medals even while the final (or a card the event expects) is not all in (marked PROVISIONAL)
    #[arg(long)]
    pub allow_incomplete: bool,

    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: MedalsArgs) -> Result<Outcome> {
    let titled = args.output.shows_titles()?;
    let loaded = args.event.load(args.event.rules()?)?;
    let event = &loaded.event;
    let Some(_) = rankable_for(
        event,
        event.final_stage().as_str(),
        Some("the medals go to the top three of the final's standings"),
    )?
    else {
        return Ok(Outcome::DataErrors);
    };
    let wanted = groups(event, &args.group)?;
    let Some(completeness) = final_answers(&loaded, args.allow_incomplete, "medals") else {
        return Ok(Outcome::DataErrors);
    };
    let all: Vec<_> = event
        .medals()
        .unwrap_or_default()
        .into_iter()
        .filter(|m| wanted.contains(&m.group))
        .collect();
    let mut table = medals_table(&all, event);
    table.title.push_str(&completeness.title_suffix());
    // (a file without titles says it on every row)
    if let Some(mark) = completeness.mark().filter(|_| !titled) {
        mark_rows(&mut table, &mark);
    }
    args.output.emit(&[table])?;
    Ok(Outcome::Done)
}
