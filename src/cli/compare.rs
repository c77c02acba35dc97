//! `tilerank compare`: two typings of the same cards, value by value.

use super::{parse_profile, print_problems, Outcome};
use anyhow::Result;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use tilerank::compare::{compare, Typing};
use tilerank::problem::Problems;
use tilerank::profile::{ProfileName, Rules};
use tilerank::roster::Roster;

/// Compare two typings of the same cards (double entry): every value that differs, with both places
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank compare S03.xlsx S03-second.csv --roster roster.csv\n  tilerank compare typed-by-ann/ typed-by-ben/ --roster roster.csv\n\nCards are matched by stage, session and table, whatever the file, sheet or layout. Values are compared as the checks read them (+30, 30.0 and 30 agree). A seat's player typed as an id in one typing and as a name in the other is the same player when --roster says so. Each difference is printed as FIRST-PLACE vs SECOND-PLACE: CARD: WHAT, then one line per value. The rules are not checked here: run tilerank check.\n\nExit status: 0 the typings agree; 1 they differ (or a card could not be read); 2 the command line is wrong or a file cannot be read."
)]
pub struct CompareArgs {
    /// The first typing: a CSV file, a workbook, or a folder of them
    #[arg(value_name = "FIRST")]
    pub first: PathBuf,

    /// The second typing of the same cards, in any layout and format
    #[arg(value_name = "SECOND")]
    pub second: PathBuf,

    /// The roster, to tell that an id and a name are the same player
    #[arg(long, value_name = "FILE")]
    pub roster: Option<PathBuf>,

    /// Rules profile, for how scores are read and racks scored: hk, nvso, pressman or gwinnett (default hk)
    #[arg(long, value_name = "NAME", value_parser = parse_profile)]
    pub profile: Option<ProfileName>,
}

pub fn run(args: CompareArgs) -> Result<Outcome> {
    let rules = args.profile.map_or_else(Rules::hk, Rules::for_profile);
    let mut problems = Problems::new();
    let roster = match &args.roster {
        Some(path) => tilerank::ingest::roster::read(path, &mut problems)?,
        None => Roster::open(),
    };
    let first = Typing::read(std::slice::from_ref(&args.first), &rules, &mut problems)?;
    let second = Typing::read(std::slice::from_ref(&args.second), &rules, &mut problems)?;
    print_problems(&problems);
    let comparison = compare(&first, &second, &rules, &roster);
    let mut out = std::io::stdout().lock();
    for d in &comparison.differences {
        writeln!(out, "{d}")?;
    }
    out.flush()?;
    let n = comparison.differences.len();
    eprintln!(
        "first typing {}, second typing {}: {} agree; {}",
        super::cards(first.card_count()),
        super::cards(second.card_count()),
        comparison.agreed.len(),
        match n {
            0 => "no difference".to_string(),
            1 => "1 difference".to_string(),
            n => format!("{n} differences"),
        }
    );
    Ok(if n > 0 || problems.has_errors() {
        Outcome::DataErrors
    } else {
        Outcome::Done
    })
}
