//! `tilerank advance`: who goes on from a stage, and why.

use super::answers::{
    answers_of, going_on_from, groups, named, print_decisions, unmarked_not_written, Unmarked,
};
use super::{EventArgs, Outcome, OutputArgs};
use anyhow::Result;
use clap::Args;
use tilerank::report::stages::{advance_table, mark_not_final};

/// List who goes on from a stage and why (rank, table winner, best second), and what needs the director
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank advance --event my-event\n  tilerank advance cards/ --roster roster.csv --profile nvso --date 2023-09-13\n  tilerank advance --event examples/gwinnett --player GW07\n\nWho goes on is the rule of the event's profile or rules file ([qualifiers] rule: the top N of the standings with the cutoff-tie policy, table winners then the best seconds, or the best at each table; the profiles command lists the built-in profiles). Ties the rules cannot settle are DECISION lines and exit 1 (the list is still written, marked not final); --player settles them, or table_ties = \"all\" in tilerank.toml sends every tied player on.\n\nAs qualifiers does, the list waits (exit 1) while cards the event expects are missing, or players who went on to the stage have not played it; --allow-incomplete prints it marked PROVISIONAL. Written to a CSV, JSON or workbook file, a list that is not final says so on every row, in a note column; one with nobody on it yet has no row to say it on and is not written at all (exit 1)."
)]
pub struct AdvanceArgs {
    #[command(flatten)]
    pub event: EventArgs,

    /// The stage players go on from (default: the event's first stage)
    #[arg(long)]
    pub stage: Option<String>,

    /// One age group only
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,

    /// A player the director names to settle a tie (repeatable)
    #[arg(long = "player", value_name = "PLAYER")]
    pub players: Vec<String>,

    /// Present the list even while cards the event expects are missing (marked PROVISIONAL)
    #[arg(long)]
    pub allow_incomplete: bool,

    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: AdvanceArgs) -> Result<Outcome> {
    let loaded = args.event.load(args.event.rules()?)?;
    let event = &loaded.event;
    let stage = args
        .stage
        .clone()
        .unwrap_or_else(|| event.qualifying_stage().to_string());
    let Some(stage) = going_on_from(event, &stage)? else {
        return Ok(Outcome::DataErrors);
    };
    let named = named(event, &args.players)?;
    let Some(completeness) = answers_of(
        &loaded,
        &stage,
        args.allow_incomplete,
        &super::answers::Refusal::new(
            format!("No list of who goes on from the {stage}: "),
            "a provisional list",
        ),
    ) else {
        return Ok(Outcome::DataErrors);
    };
    // (a file without titles says it on every row)
    let marked = !args.output.shows_titles()?;
    let mut tables = Vec::new();
    let mut refused = false;
    let mut unmarked = Unmarked::new();
    for group in groups(event, &args.group)? {
        let list = event.advance(&stage, group.as_deref(), &named);
        print_decisions(&list, &event.roster, &[]);
        refused |= list.is_refused();
        let mut table = advance_table(&list, &event.roster);
        table.title.push_str(&completeness.title_suffix());
        if marked {
            let mark = mark_not_final(&mut table, &list, completeness.mark().as_deref());
            if let Some(mark) = mark.filter(|_| table.rows.is_empty()) {
                unmarked.push((list.group.clone(), mark));
            }
        }
        tables.push(table);
    }
    let written = !unmarked_not_written(&args.output, &unmarked);
    if written {
        args.output.emit(&tables)?;
    }
    if refused {
        say!("The list is not final: the director decides (see the DECISION above).");
    }
    Ok(if refused || !written {
        Outcome::DataErrors
    } else {
        Outcome::Done
    })
}
