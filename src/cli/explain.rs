//! `tilerank explain`: why a player has their place.

use super::standings::rankable;
use super::{EventArgs, Outcome, OutputArgs};
use anyhow::{bail, Result};
use clap::Args;
use tilerank::report::standings::explain_table;
use tilerank::roster::Unresolved;

/// Show a player's keys, the players just above and below, and which key decided each place
#[derive(Args, Debug)]
#[command(
    after_help = "Example:\n  tilerank explain P0117 cards/ --roster roster.csv\n  tilerank explain \"Chan Tai Man\" --event hk-2026"
)]
pub struct ExplainArgs {
    /// The player: roster id, or a name that matches one roster entry
    #[arg(value_name = "PLAYER")]
    pub player: String,

    #[command(flatten)]
    pub event: EventArgs,

    /// The stage
    #[arg(long, default_value = "prelim")]
    pub stage: String,

    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: ExplainArgs) -> Result<Outcome> {
    let loaded = args.event.load(args.event.rules()?)?;
    let event = loaded.event;
    let Some(stage) = rankable(&event, &args.stage)? else {
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
    let standings = event.standings(&stage);
    let Some(table) = explain_table(&standings, &event.roster, player) else {
        bail!(
            "{} has no games in the {stage} stage",
            event.roster.get(player).id
        );
    };
    args.output.emit(&[table])?;
    Ok(Outcome::Done)
}
