//! `tilerank qualifiers`: the top N of the prelim standings (RULES.md
//! section 7), with the cutoff-tie policy.

use super::standings::{rankable, report_missing};
use super::{EventArgs, Outcome, OutputArgs};
use anyhow::Result;
use clap::Args;
use tilerank::profile::CutoffTies;
use tilerank::report::standings::qualifiers_table;
use tilerank::rules::qualifiers::select;

/// List the qualifiers for the final: the top N of the prelim standings
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank qualifiers cards/ --roster roster.csv\n  tilerank qualifiers cards/ --roster roster.csv --top 120 --cutoff-ties exclude -o qualifiers.xlsx\n\nWhen players tied on every key straddle the cutoff, the list says so and applies --cutoff-ties: include (all of them go), exclude (none of them go) or error (exit 1, the director decides)."
)]
pub struct QualifiersArgs {
    #[command(flatten)]
    pub event: EventArgs,

    /// How many go to the final (default: the profile's, 120 for hk)
    #[arg(long, value_name = "N")]
    pub top: Option<u32>,

    /// Players tied on every key across the cutoff: include, exclude, or error
    #[arg(long, value_enum, value_name = "POLICY")]
    pub cutoff_ties: Option<CutoffTies>,

    /// The stage the qualifiers come from
    #[arg(long, default_value = "prelim")]
    pub stage: String,

    /// Present the list even while cards the event expects are missing (marked PROVISIONAL)
    #[arg(long)]
    pub allow_incomplete: bool,

    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: QualifiersArgs) -> Result<Outcome> {
    let mut rules = args.event.rules()?;
    if let Some(n) = args.top {
        rules.qualifiers = n;
    }
    if let Some(p) = args.cutoff_ties {
        rules.cutoff_ties = p;
    }
    let loaded = args.event.load(rules)?;
    let event = &loaded.event;
    let Some(stage) = rankable(event, &args.stage)? else {
        return Ok(Outcome::DataErrors);
    };
    let missing = report_missing(&loaded);
    if !missing.is_empty() && !args.allow_incomplete {
        eprintln!("No qualifier list: cards are missing. Import them, or give --allow-incomplete for a provisional list.");
        return Ok(Outcome::DataErrors);
    }
    let standings = event.standings(&stage);
    let q = select(&standings, event.rules.qualifiers, event.rules.cutoff_ties);
    if let Some(message) = q.straddle_message() {
        eprintln!("{message}");
    }
    if q.is_refused() {
        eprintln!("No qualifier list written: the cutoff policy is error.");
        return Ok(Outcome::DataErrors);
    }
    let mut title = format!(
        "Qualifiers for the final: top {} of the {stage} standings ({} rules), {} players",
        q.cutoff,
        event.rules.profile,
        q.qualified.len()
    );
    if !missing.is_empty() {
        title = format!(
            "PROVISIONAL ({} missing): {title}",
            crate::cli::cards(missing.len())
        );
    }
    let table = qualifiers_table(&standings, &q, &event.roster, &title);
    args.output.emit(&[table])?;
    Ok(Outcome::Done)
}
