//! `tilerank qualifiers`: who goes on from the qualifying stage, by the
//! profile's rule ([`tilerank::event::Event::advance`]): the top N with the
//! cutoff-tie policy, table winners and best seconds, or each table's
//! lowest total.

use super::answers::{
    answers_of, going_on_from, groups, print_decisions, unmarked_not_written, Unmarked,
};
use super::{CutoffArgs, EventArgs, Outcome, OutputArgs};
use anyhow::Result;
use clap::Args;
use tilerank::report::stages::{mark_not_final, qualifiers_view};

/// List who goes on to the final (HK: the top 120 of the prelim standings; other profiles by their own rule)
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank qualifiers cards/ --roster roster.csv\n  tilerank qualifiers cards/ --roster roster.csv --top 120 --cutoff-ties exclude -o qualifiers.xlsx\n  tilerank qualifiers --event examples/nvso-2023 # table winners and best seconds, per age group\n\nWhen players tied on every key straddle the cutoff, the list says so and applies --cutoff-ties: include (all of them go), exclude (none of them go) or error (exit 1, the director decides). A tie the profile's table rule cannot settle is a DECISION line and exit 1 (the list is still written, marked not final, as by advance) until the director names players ([qualifiers] named in tilerank.toml, [stages.NAME] named for a later stage; tilerank advance --player tries it) or sets table_ties = \"all\".\n\nIn an event folder whose settings list the sessions and tables, the list waits (exit 1) until every card is in (and, from a later stage, until every player who went on to it has played it); --allow-incomplete prints it marked PROVISIONAL. Written to a CSV, JSON or workbook file, a list that is not final says so on every row, in its note column (PROVISIONAL: ..., or NOT FINAL: the director decides); one with nobody on it yet (a tie at the cutoff from rank 1) has no row to say it on and is not written at all (exit 1)."
)]
pub struct QualifiersArgs {
    #[command(flatten)]
    pub event: EventArgs,

    #[command(flatten)]
    pub cutoff: CutoffArgs,

    /// The stage the qualifiers come from (default: the event's first stage)
    #[arg(long)]
    pub stage: Option<String>,

    /// One age group only
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,

    /// Present the list even while cards the event expects are missing (marked PROVISIONAL)
    #[arg(long)]
    pub allow_incomplete: bool,

    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: QualifiersArgs) -> Result<Outcome> {
    let rules = args.event.rules_with_cutoff(&args.cutoff)?;
    let loaded = args
        .event
        .load_keeping(rules, tilerank::event::Keep::Sums)?;
    let event = &loaded.event;
    let stage = args
        .stage
        .clone()
        .unwrap_or_else(|| event.qualifying_stage().to_string());
    let Some(stage) = going_on_from(event, &stage)? else {
        return Ok(Outcome::DataErrors);
    };
    let Some(completeness) = answers_of(
        &loaded,
        &stage,
        args.allow_incomplete,
        &super::answers::Refusal::new("No qualifier list: ", "a provisional list"),
    ) else {
        return Ok(Outcome::DataErrors);
    };
    let provisional = completeness.title_suffix();
    // (a file without titles says it on every row)
    let marked = !args.output.shows_titles()?;
    let mut tables = Vec::new();
    let mut refused = false;
    let mut unmarked = Unmarked::new();
    // The table on the screen says a settled tie under it: said once.
    let on_screen = args.output.format()? == tilerank::report::Format::Table
        && args
            .output
            .output
            .as_ref()
            .is_none_or(|p| tilerank::report::output::is_stdout(p));
    for group in groups(event, &args.group)? {
        let list = event.advance(&stage, group.as_deref(), &[]);
        let mut table = qualifiers_view(&list, event, &provisional);
        if marked {
            let mark = mark_not_final(&mut table, &list, completeness.mark().as_deref());
            if let Some(mark) = mark.filter(|_| table.rows.is_empty()) {
                unmarked.push((list.group.clone(), mark));
            }
        }
        if on_screen && list.is_refused() {
            // the DECISION is said on standard error, not again under the table
            let said: Vec<String> = list
                .decisions
                .iter()
                .map(|d| {
                    tilerank::report::going_on::decision(
                        d,
                        &event.roster,
                        list.table_ties,
                        &tilerank::report::going_on::settings_file(&list),
                    )
                })
                .collect();
            table.notes.retain(|n| !said.contains(n));
            print_decisions(&list, &event.roster, &[]);
        } else {
            print_decisions(
                &list,
                &event.roster,
                if on_screen { &table.notes } else { &[] },
            );
        }
        refused |= list.is_refused();
        tables.push(table);
    }
    // as `advance` does: the list is written, marked not final, exit 1
    // (unless it has no row to mark)
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
