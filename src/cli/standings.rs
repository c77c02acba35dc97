//! `tilerank standings`: the ranking of one stage.

use super::answers::{groups, rankable, report_missing_of};
use super::{EventArgs, Outcome, OutputArgs};
use anyhow::Result;
use clap::Args;
use std::borrow::Cow;
use tilerank::report::standings::{
    columns, standings_chunks, standings_name, standings_notes, standings_rows, standings_table,
};
use tilerank::report::Streamed;

/// Print the standings of a stage (withdrawn and disqualified players listed apart)
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank standings cards/ --roster roster.csv\n  tilerank standings cards/ --roster roster.csv -o standings.xlsx\n  tilerank standings cards/ --roster roster.csv --format csv > standings.csv\n\nStatus Q marks who goes on to the next stage: the players tilerank qualifiers and tilerank advance list, under every rule. Nothing is ranked while any card has an error: fix it (see tilerank check) or leave its file out. While cards the event expects are missing, or players who went on to the stage (or one before it) have not played it, the title says PROVISIONAL, and so does every row of a CSV, JSON or workbook file, in the note column."
)]
pub struct StandingsArgs {
    #[command(flatten)]
    pub event: EventArgs,

    /// The stage to rank: one of the event's stages ([rules] stages; default:
    /// the first, prelim under every profile)
    #[arg(long)]
    pub stage: Option<String>,

    /// One age group only
    #[arg(long, value_name = "GROUP", conflicts_with = "by_group")]
    pub group: Option<String>,

    /// One table per age group
    #[arg(long)]
    pub by_group: bool,

    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: StandingsArgs) -> Result<Outcome> {
    let loaded = args
        .event
        .load_keeping(args.event.rules()?, tilerank::event::Keep::Sums)?;
    let event = &loaded.event;
    let Some(stage) = rankable(
        event,
        &args
            .stage
            .unwrap_or_else(|| event.qualifying_stage().to_string()),
    )?
    else {
        return Ok(Outcome::DataErrors);
    };
    // (the standings of a stage are provisional while cards of the first
    // are missing, or while players who went on to it, or to a stage
    // before it, have not played it: the rule of every answer of the stage)
    let completeness = report_missing_of(&loaded, &stage);
    let provisional = completeness.title_suffix();
    // (a file without titles says it on every row)
    let marked = !args.output.shows_titles()?;
    let mark = completeness.mark().filter(|_| marked);
    let mark = mark.as_deref();
    let groups: Vec<Option<String>> = match (&args.group, args.by_group) {
        (Some(_), _) => groups(event, &args.group)?,
        (None, true) => event.group_list(),
        (None, false) => vec![None],
    };
    let mut ranked = Vec::new();
    for group in groups {
        // who goes on marked as every view marks it
        let standings = event.standings_going_on(&stage, group.as_deref());
        let mut title = format!(
            "Standings, {stage}{} ({} rules): {} ranked, {} apart",
            group
                .as_ref()
                .map(|g| format!(", group {g}"))
                .unwrap_or_default(),
            event.rules.profile,
            standings.standings.ranked.len(),
            standings.standings.apart.len()
        );
        title.push_str(&provisional);
        let name = match &group {
            Some(g) => format!("{stage} {g}"),
            None => standings_name(&standings.standings),
        };
        ranked.push((name, title, standings));
    }
    let format = args.output.format()?;
    if format.streams() {
        // rows written as they are made (the terminal makes them twice, to
        // measure and to draw): a million players are never held as text;
        // a long table's chunks are made on two threads
        let roster = &event.roster;
        let tables = ranked
            .iter()
            .map(|(name, title, s)| Streamed {
                name: name.clone(),
                title: title.clone(),
                columns: columns(&s.standings, event.rules.scoring),
                rows: Box::new(move || Box::new(standings_rows(s, roster, mark).map(Cow::Owned))),
                chunks: Some(standings_chunks(s, roster, mark)),
                notes: standings_notes(s, event.rules.scoring),
            })
            .collect();
        args.output.emit_streamed(format, tables)?;
        return Ok(Outcome::Done);
    }
    let mut tables = Vec::new();
    for (name, title, standings) in &ranked {
        let mut table = standings_table(standings, &event.roster, title, event.rules.scoring);
        table.name = name.clone();
        if let Some(mark) = mark {
            tilerank::report::stages::mark_rows(&mut table, mark);
        }
        tables.push(table);
    }
    args.output.emit(&tables)?;
    Ok(Outcome::Done)
}
