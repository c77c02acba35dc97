//! `tilerank explain`: why a player has their place.

use super::answers::{rankable, report_missing_of};
use super::{EventArgs, Outcome, OutputArgs};
use anyhow::{bail, Result};
use clap::Args;
use tilerank::report::standings::explain_table;
use tilerank::roster::Unresolved;

/// Show a player's keys, the players just above and below, and which key decided each place
#[derive(Args, Debug)]
#[command(
    after_help = "Example:\n  tilerank explain P0117 cards/ --roster roster.csv\n  tilerank explain \"Lucas Shum\" --event my-event"
)]
pub struct ExplainArgs {
    /// The player: roster id, or a name that matches one roster entry
    #[arg(value_name = "PLAYER")]
    pub player: String,

    #[command(flatten)]
    pub event: EventArgs,

    /// The stage (default: the event's first, prelim under every profile)
    #[arg(long)]
    pub stage: Option<String>,

    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: ExplainArgs) -> Result<Outcome> {
    let loaded = args.event.load(args.event.rules()?)?;
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
    let player = match event.roster.find(&args.player) {
        Ok(p) => p,
        Err(Unresolved::Unknown) => bail!("no player {:?} in this event", args.player),
        Err(Unresolved::Ambiguous(ids)) => {
            let ids: Vec<String> = ids
                .iter()
                .map(|&p| event.roster.get(p).id.clone())
                .collect();
            bail!(
                "{:?} names {} players ({}): give the id",
                args.player,
                ids.len(),
                ids.join(", ")
            )
        }
    };
    // The player's own group: the same standings and list as every other
    // command shows.
    let group = event.groups.of.get(&player).cloned();
    // the whole standings, ranked once, and who goes on from them
    let marked = event.standings_going_on(&stage, group.as_deref());
    let Some(mut table) = explain_table(&marked, &event.roster, player, event.rules.scoring) else {
        // (a roster player who did not play: the answer, not a mistyped
        // command line)
        let p = event.roster.get(player);
        say!(
            "{} ({}) is on the roster and has no games in the {stage} stage: not ranked in it.",
            p.id,
            p.name
        );
        return Ok(Outcome::Done);
    };
    if let Some(g) = &group {
        table.notes.push(format!("Ranked in age group {g}."));
    }
    if let Some(to) = marked.lists.first().map(|l| &l.to) {
        let verdict = match marked.advancer(player) {
            Some((list, a)) => format!(
                "Goes on to the {}: {}.",
                list.to,
                tilerank::report::going_on::reason(a)
            ),
            None => match marked.staying(player) {
                Some(why) => format!(
                    "Does not go on to the {to}: {}.",
                    tilerank::report::going_on::staying(why)
                ),
                None => format!("Does not go on to the {to}."),
            },
        };
        // (who goes on is not known for sure while the stage waits for
        // cards: the verdict says so, as the lists do)
        let verdict = match report_missing_of(&loaded, &stage).mark() {
            Some(mark) => format!("{} ({mark}).", verdict.trim_end_matches('.')),
            None => verdict,
        };
        table.notes.push(verdict);
    }
    args.output.emit(&[table])?;
    Ok(Outcome::Done)
}
