//! `tilerank import`: check card files and store them in the event.

use super::{print_problems, say_hints, say_waiting, EventFolderArg, Outcome};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use tilerank::event_folder::CardFate;

/// Check score cards and store them in the event: each file whole, or nothing from it
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank import S01.xlsx S02.xlsx\n  tilerank import S03-table7.csv --replace --reason \"score of seat B corrected by the referee\"\n\nImporting the same card again changes nothing. A different card for a table already imported is refused, showing what differs, unless --replace (with --reason): the old card is kept in the event's database. A card that differs from what a referee entered at the table (tilerank serve) is held for the director's board, and the file's other cards go in (exit status 1). One import is one transaction: stopped or failed, it stores nothing; a second import of the same event waits for the first, then checks against its cards. A later stage's card (the final) with a player who did not go on refuses the whole import. Every import is recorded in the log (tilerank log)."
)]
pub struct ImportArgs {
    /// Card files or folders (CSV or workbooks)
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// The stage the cards belong to (default: what the cards say, else prelim)
    #[arg(long)]
    pub stage: Option<String>,

    /// Replace cards imported before (needs --reason)
    #[arg(long, requires = "reason")]
    pub replace: bool,

    /// Why the cards are replaced, for the log
    #[arg(long, value_name = "TEXT")]
    pub reason: Option<String>,

    /// Double entry: a second typing of the same cards (a file or a folder; its cards of tables not imported are left out); only cards both typings agree on are imported, the others are held back and listed
    #[arg(long, value_name = "FILE_OR_FOLDER")]
    pub second_entry: Option<PathBuf>,

    #[command(flatten)]
    pub event: EventFolderArg,
}

pub fn run(args: ImportArgs) -> Result<Outcome> {
    let folder = args.event.open()?;
    let mut clean = true;
    let report = match &args.second_entry {
        Some(second) => {
            let entry = super::compare::second_entry(
                &folder,
                &args.files,
                second,
                args.stage.as_deref(),
                args.reason.as_deref(),
            )?;
            clean = entry.is_clean();
            folder.import_read(
                entry.read,
                &entry.held,
                &entry.refused,
                args.replace,
                Some(&entry.reason),
                &mut say_waiting,
            )?
        }
        None => folder.import(
            &args.files,
            args.stage.as_deref(),
            args.replace,
            args.reason.as_deref(),
            &mut say_waiting,
        )?,
    };
    print_problems(&report.problems);
    say_hints(&report.problems);
    // (cards refused that add up under another profile: said once, after
    // their errors)
    if let Some(hint) = report
        .problems
        .other_profile_in_event(folder.rules().profile)
    {
        say!("hint: {hint}");
    }
    for (file, fates) in &report.files {
        if report.refused.contains(file) {
            say!("{file}: nothing imported (errors above)");
            continue;
        }
        let count = |f: CardFate| fates.iter().filter(|(_, x)| *x == f).count();
        let (new, same, replaced, held, typed_twice) = (
            count(CardFate::New),
            count(CardFate::Unchanged),
            count(CardFate::Replaced),
            count(CardFate::Held),
            count(CardFate::TypedTwice),
        );
        let cards = |n: usize| {
            if n == 1 {
                "1 card".to_string()
            } else {
                format!("{n} cards")
            }
        };
        // (a card held differs from a referee's entry: it waits for the
        // director's board, the file's other cards are in)
        let mut held = match held {
            0 => String::new(),
            n => format!("; {} held for the director's board (see above)", cards(n)),
        };
        // (held back by a double entry whose two typings differ: not
        // stored, whatever the file's other cards did)
        if typed_twice > 0 {
            held.push_str(&format!(
                "; {} held back until both typings agree (see above)",
                cards(typed_twice)
            ));
        }
        // (given again the same with --replace: the tables in conflict
        // are settled for it)
        let settled = fates
            .iter()
            .filter(|(k, _)| report.settled.contains(k))
            .count();
        if new + replaced == 0 && held.is_empty() && settled > 0 {
            say!(
                "{file}: already imported, identical ({}); {} in conflict settled for it (see above)",
                cards(same),
                if settled == 1 {
                    "1 table".to_string()
                } else {
                    format!("{settled} tables")
                }
            );
        } else if new + replaced == 0 && held.is_empty() {
            say!(
                "{file}: already imported, identical ({}): nothing to do",
                cards(same)
            );
        } else {
            say!(
                "{file}: {} imported, {replaced} replaced, {same} unchanged{held}",
                cards(new)
            );
        }
    }
    // Each file goes in whole or not at all, on its own: the last line
    // counts both.
    let files = |n: usize| {
        if n == 1 {
            "1 file".to_string()
        } else {
            format!("{n} files")
        }
    };
    let refused = report.refused.len();
    let taken: Vec<_> = report
        .files
        .iter()
        .filter(|(f, _)| !report.refused.contains(f))
        .collect();
    let stored = |fates: &Vec<(_, CardFate)>| {
        fates
            .iter()
            .filter(|(_, f)| matches!(f, CardFate::New | CardFate::Replaced))
            .count()
    };
    let count = |fate: CardFate| {
        taken
            .iter()
            .flat_map(|(_, fates)| fates)
            .filter(|(_, f)| *f == fate)
            .count()
    };
    let (held, typed_twice) = (count(CardFate::Held), count(CardFate::TypedTwice));
    let new_cards: usize = taken.iter().map(|(_, fates)| stored(fates)).sum();
    // (a file whose every card was held back, for the director's board or
    // until both typings agree: neither imported nor already imported,
    // its cards are counted held)
    let all_held_back = |fates: &Vec<(_, CardFate)>| {
        !fates.is_empty()
            && fates
                .iter()
                .all(|(_, f)| matches!(f, CardFate::TypedTwice | CardFate::Held))
    };
    let held_back_files = taken
        .iter()
        .filter(|(_, fates)| all_held_back(fates))
        .count();
    let same = taken
        .iter()
        .filter(|(_, fates)| {
            stored(fates) == 0
                && !fates.iter().any(|(_, f)| *f == CardFate::Held)
                && !all_held_back(fates)
        })
        .count();
    let mut summary = format!(
        "{}: {} imported ({})",
        files(report.files.len()),
        taken.len() - same - held_back_files,
        crate::cli::cards(new_cards)
    );
    if same > 0 {
        summary.push_str(&format!(", {same} already imported"));
    }
    if held > 0 {
        summary.push_str(&format!(
            ", {} held for the director's board",
            crate::cli::cards(held)
        ));
    }
    if typed_twice > 0 {
        summary.push_str(&format!(
            ", {} held back until both typings agree",
            crate::cli::cards(typed_twice)
        ));
    }
    if refused > 0 {
        summary.push_str(&format!(
            ", {refused} with errors: nothing imported from {}",
            if refused == 1 { "it" } else { "them" }
        ));
    }
    say!("{summary}");
    // A file that could not be read at all is exit status 2, as for every
    // command; the other files went in (or not) on their own.
    let unreadable = report.problems.unreadable_count();
    if unreadable > 0 {
        anyhow::bail!("{} could not be read (see above)", files(unreadable));
    }
    Ok(if report.refused.is_empty() && held == 0 && clean {
        Outcome::Done
    } else {
        Outcome::DataErrors
    })
}
