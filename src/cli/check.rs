//! `tilerank check`: read and check score cards, list every problem.

use super::{summary, EventArgs, Outcome};
use anyhow::Result;
use clap::Args;

/// Check score cards: every error with its place (file, sheet, row, column), nothing imported
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank check S01.xlsx --roster roster.csv\n  tilerank check cards/ --roster roster.csv\n  tilerank check session3.csv\n\nEach problem is printed as PLACE: error: WHAT WAS FOUND; WHAT WAS EXPECTED, where PLACE is file:line:column for CSV and file[sheet]!C7 for workbooks. Exit status 1 when there is any error."
)]
pub struct CheckArgs {
    #[command(flatten)]
    pub event: EventArgs,

    /// Keep watching the INPUT files and folders: check again at each save, print only what changed; Ctrl-C stops
    #[arg(long)]
    pub watch: bool,
}

pub fn run(args: CheckArgs) -> Result<Outcome> {
    if args.watch {
        return super::watch::run(&args.event);
    }
    let event = args.event.load(args.event.rules()?)?.event;
    super::say_line(&summary(&event));
    Ok(if event.problems.has_errors() {
        Outcome::DataErrors
    } else {
        Outcome::Done
    })
}
