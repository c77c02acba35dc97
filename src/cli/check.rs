//! `tilerank check`: read and check score cards, list every problem.

use super::{summary, EventArgs, Outcome};
use anyhow::Result;
use clap::Args;

/// Check score cards: every error with its place (file, sheet, row, column), nothing imported
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank check S01.xlsx --roster roster.csv\n  tilerank check cards/ --roster roster.csv\n  tilerank check session3.csv\n\nEach problem is printed as PLACE: error: WHAT WAS FOUND; WHAT WAS EXPECTED, where PLACE is file:line:column for CSV and file[sheet]!C7 for workbooks. In an event folder, the last lines say what the event still lacks, as the reading commands do: the cards its schedule expects that are not in (session by session), the players who went on to a later stage and have not played it, the roster's players with no game, and the tables the live desk's board holds back (in conflict, or a referee's entry waiting for the desk's typing). Exit status 1 when there is any error; cards still missing are no error (exit status 0)."
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
    // with no game; then what the board holds back. They are no error of
    // the cards read: the exit status is the cards' (docs/formats.md).
    if let Some(folder) = &loaded.folder {
        super::answers::report_missing(&loaded);
        say_held_back(folder)?;
    }
    Ok(if event.problems.has_errors() {
        Outcome::DataErrors
    } else {
        Outcome::Done
    })
}

/// The tables the live desk's board holds back, on standard error
/// ([`held_back_lines`]).
fn say_held_back(folder: &tilerank::event_folder::EventFolder) -> Result<()> {
    for line in held_back_lines(folder)? {
        say!("{line}");
    }
    Ok(())
}

/// The tables the live desk's board holds back
/// ([`tilerank::event_folder::EventFolder::held_back`]): those in
/// conflict, for the director to decide on the board, and those a referee
/// entered that wait for the desk's typing (double entry), a line each
/// kind. Each such table without a card is among the cards missing too:
/// this says why. `check` says them, and each check of `check --watch`.
pub fn held_back_lines(folder: &tilerank::event_folder::EventFolder) -> Result<Vec<String>> {
    use tilerank::event_folder::TableState;
    let held = folder.held_back()?;
    let tables = |state: TableState| -> Vec<String> {
        (held.iter())
            .filter(|t| t.state == state)
            .map(|t| t.key.to_string())
            .collect()
    };
    let mut lines = Vec::new();
    let mut say = |keys: Vec<String>, what: &str| {
        if keys.is_empty() {
            return;
        }
        const SHOWN: usize = 20;
        let n = keys.len();
        let mut shown: Vec<String> = keys.into_iter().take(SHOWN).collect();
        if n > SHOWN {
            shown.push(format!("and {} more", n - SHOWN));
        }
        let tables = if n == 1 {
            "1 table".to_string()
        } else {
            format!("{n} tables")
        };
        lines.push(format!("{tables} {what}: {}", shown.join(", ")));
    };
    say(
        tables(TableState::Conflict),
        "in conflict on the director's board (two versions of the card differ: the director decides which stands, on the board of tilerank serve --entry)",
    );
    say(
        tables(TableState::Waiting),
        "entered by a referee, waiting for the desk's typing of the signed card (double entry: it counts once an import of it agrees)",
    );
    Ok(lines)
}
