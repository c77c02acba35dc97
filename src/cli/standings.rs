//! `tilerank standings`: the ranking of one stage.

use super::{summary, EventArgs, Loaded, Outcome, OutputArgs};
use anyhow::{bail, Result};
use clap::Args;
use tilerank::domain::Stage;
use tilerank::event::{Completeness, Event};
use tilerank::report::standings::standings_table;

/// Print the standings of a stage (withdrawn and disqualified players listed apart)
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank standings cards/ --roster roster.csv\n  tilerank standings cards/ --roster roster.csv -o standings.xlsx\n  tilerank standings results.csv --format csv > standings.csv\n\nNothing is ranked while any card has an error: fix it (see tilerank check) or leave its file out."
)]
pub struct StandingsArgs {
    #[command(flatten)]
    pub event: EventArgs,

    /// The stage to rank: prelim, semi, final, or a stage named on the cards
    #[arg(long, default_value = "prelim")]
    pub stage: String,

    /// One age group only
    #[arg(long, value_name = "GROUP", conflicts_with = "by_group")]
    pub group: Option<String>,

    /// One table per age group
    #[arg(long)]
    pub by_group: bool,

    #[command(flatten)]
    pub output: OutputArgs,
}

/// Refuses to rank when the data has errors; finds the stage.
pub fn rankable(event: &Event, stage: &str) -> Result<Option<Stage>> {
    if event.problems.has_errors() {
        eprintln!("{}", summary(event));
        eprintln!("Nothing ranked: fix the errors above (or leave their files out) and run again.");
        return Ok(None);
    }
    let stage = Stage::new(stage);
    if !event.stages().contains(&stage) {
        let known: Vec<String> = event.stages().iter().map(|s| s.to_string()).collect();
        if known.is_empty() {
            bail!("no cards were read: nothing to rank");
        }
        bail!(
            "no cards of stage {stage}: the cards have {}",
            known.join(", ")
        );
    }
    eprintln!("{}", summary(event));
    Ok(Some(stage))
}

/// What the event still lacks ([`tilerank::event::Event::completeness`]),
/// said on standard error: the missing cards session by session, and the
/// roster's players who have not played.
pub fn report_missing(loaded: &Loaded) -> Completeness {
    let c = loaded.event.completeness();
    if !c.missing.is_empty() {
        eprintln!("{} missing:", crate::cli::cards(c.missing.len()));
        for line in c.missing_by_session(loaded.event.rules.schedule) {
            eprintln!("  {line}");
        }
    }
    if !c.no_shows.is_empty() {
        let ids: Vec<String> = c
            .no_shows
            .iter()
            .map(|&p| loaded.event.roster.get(p).id.clone())
            .collect();
        eprintln!(
            "{} on the roster played no game: {}",
            crate::cli::players(ids.len()),
            ids.join(", ")
        );
    }
    c
}

pub fn run(args: StandingsArgs) -> Result<Outcome> {
    let loaded = args.event.load(args.event.rules()?)?;
    let event = &loaded.event;
    let Some(stage) = rankable(event, &args.stage)? else {
        return Ok(Outcome::DataErrors);
    };
    let missing = report_missing(&loaded).missing;
    let groups: Vec<Option<String>> = match (&args.group, args.by_group) {
        (Some(_), _) => super::advance::groups(event, &args.group)?,
        (None, true) => event.group_list(),
        (None, false) => vec![None],
    };
    let mut tables = Vec::new();
    for group in groups {
        let standings = event.standings_in(&stage, group.as_deref());
        let mut title = format!(
            "Standings, {stage}{} ({} rules): {} ranked, {} apart",
            group
                .as_ref()
                .map(|g| format!(", group {g}"))
                .unwrap_or_default(),
            event.rules.profile,
            standings.ranked.len(),
            standings.apart.len()
        );
        if !missing.is_empty() {
            title.push_str(&format!(
                " (PROVISIONAL: {} missing)",
                crate::cli::cards(missing.len())
            ));
        }
        let mut table = standings_table(&standings, &event.roster, None, &title);
        if let Some(g) = &group {
            table.name = format!("{stage} {g}");
        }
        tables.push(table);
    }
    args.output.emit(&tables)?;
    Ok(Outcome::Done)
}
