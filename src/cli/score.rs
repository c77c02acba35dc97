//! `tilerank score`: compute the cards from the racks and write them out.

use super::{summary, EventArgs, Outcome, OutputArgs};
use anyhow::{bail, Context, Result};
use clap::Args;
use std::io::{IsTerminal, Write};
use tilerank::report::cards::{print_cards, results_table};
use tilerank::report::output;
use tilerank::report::scorecard_xlsx::{cards_workbook_with, CardExtras};
use tilerank::report::Format;

/// Score cards from racks: write the computed results (.csv) or printable score cards (.xlsx)
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank score racks-S01.csv -o S01-results.csv\n  tilerank score racks-S01.csv --roster roster.csv -o S01-cards.xlsx\n\nThe racks layout (session, table, game, seat, player, points, jokers, tiles, penalty, or a rack column listing the tiles such as R5 B13 J) gives what was left on each rack; the tool computes every score and winner by the rules profile. Cards in the results or score-card layout are checked and written out as they are. Nothing is written while any card has an error."
)]
pub struct ScoreArgs {
    #[command(flatten)]
    pub event: EventArgs,

    /// The event's name, printed in the score cards' title
    #[arg(long, default_value = "Rummikub")]
    pub name: String,

    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: ScoreArgs) -> Result<Outcome> {
    let event = args.event.load(args.event.rules()?)?.event;
    super::say_line(&summary(&event));
    if event.problems.has_errors() {
        let _ = writeln!(
            std::io::stderr(),
            "Nothing written: fix the errors above and run again."
        );
        return Ok(Outcome::DataErrors);
    }
    if event.cards.is_empty() {
        bail!("no cards were read: nothing to score");
    }
    match (args.output.format()?, &args.output.output) {
        (Format::Xlsx, Some(path)) => {
            if output::is_stdout(path) && std::io::stdout().is_terminal() {
                bail!("a workbook cannot be shown in the terminal: give -o FILE.xlsx");
            }
            let cards = print_cards(&event.cards, &event.roster, &args.name, &event.rules.stages);
            // (the score's column as the event scores: Penalty points
            // under gwinnett)
            let extras = CardExtras {
                scoring: event.rules.scoring,
                ..CardExtras::default()
            };
            let bytes = cards_workbook_with(&cards, &extras)
                .context("the score cards cannot be written")?;
            output::write_report(path, &bytes)?;
            if !output::is_stdout(path) {
                super::say_written(
                    path,
                    &format!(
                        "{} filled in from the racks, one a sheet, ready to print and sign",
                        super::score_cards(cards.len())
                    ),
                );
            }
        }
        _ => args
            .output
            .emit(&[results_table(&event.cards, &event.roster)])?,
    }
    Ok(Outcome::Done)
}
