//! `tilerank check`: read and check score cards, list every problem.

use super::{summary, EventArgs, Outcome};
use anyhow::Result;
use clap::Args;

/// Check score cards: every error with its place (file, sheet, row, column), nothing imported
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank check S01.xlsx --roster roster.csv\n  tilerank check cards/ --roster roster.csv\n  tilerank check session3.csv\n\nEach problem is printed as PLACE: error: WHAT WAS FOUND; WHAT WAS EXPECTED, where PLACE is file:line:column for CSV and file[sheet]!C7 for workbooks. In an event folder, the last lines say what the event still lacks, as the reading commands do: the cards its schedule expects that are not in (session by session; a card given with errors is listed apart, as rejected), the players who went on to a later stage and have not played it, the roster's players with no game, and the tables the live desk's board holds back (in conflict, or a referee's entry waiting for the desk's typing). Exit status 1 when there is any error; cards still missing are no error (exit status 0)."
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
    let loaded = args.event.load(args.event.rules()?)?;
    let event = &loaded.event;
    super::say_line(&summary(event));
    // In an event folder, what the event still lacks, as every reading
    // command says it: the cards its schedule expects and does not have,
    // the players who went on and have not played, the roster's players
    // with no game, then what the board holds back. They are no error of
    // the cards read: the exit status is the cards' (docs/formats.md).
    if loaded.folder.is_some() {
        super::answers::report_missing(&loaded);
    }
    Ok(if event.problems.has_errors() {
        Outcome::DataErrors
    } else {
        Outcome::Done
    })
}
