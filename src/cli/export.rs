//! `tilerank export`: the results workbook a director publishes (or the
//! same tables as CSV, JSON or on the terminal).

use super::answers::{report_missing, sources, whole_event_refusal, Again, Sources};
use super::{summary, CutoffArgs, EventArgs, Outcome, OutputArgs};
use anyhow::{bail, Result};
use clap::Args;
use std::io::{IsTerminal, Write};
use tilerank::ingest::hashes::ReadHashes;
use tilerank::report::export::{build, ExportRequest};
use tilerank::report::progress::Progress;
use tilerank::report::xlsx::{check_rows, sheet_names, Xlsx, MAX_ROWS};
use tilerank::report::{output, Format, Table};

/// Export the results: standings per stage and group, qualifiers, medals, awards, every game line, problems, settings and log
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank export --event my-event -o results.xlsx\n  tilerank export cards/ --roster roster.csv --name \"HK Open 2026\" -o results.xlsx\n  tilerank export cards/ --roster roster.csv --format csv > results.csv\n\nThe workbook has one sheet per table, numbers stored as numbers, a frozen header with a filter, and pages that print one page wide with the header row on each. A name from input that begins with = + - @ is written as text, never as a formula. Nothing is written while any card has an error, or while cards the event expects are missing or players who went on to a stage have not played it (unless --allow-incomplete: each table that is not final then says PROVISIONAL, as the command that prints it alone does, and so does each of its rows in the note column)."
)]
pub struct ExportArgs {
    #[command(flatten)]
    pub event: EventArgs,

    /// The event's name, at the top of every printed page (default: the event's, from tilerank.toml)
    #[arg(long, value_name = "TEXT")]
    pub name: Option<String>,

    #[command(flatten)]
    pub cutoff: CutoffArgs,

    /// Export even while cards the event expects are missing (each table that is not final says PROVISIONAL)
    #[arg(long)]
    pub allow_incomplete: bool,

    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: ExportArgs) -> Result<Outcome> {
    // `tilerank export results.xlsx`: the file meant to be written, given
    // as an input to read
    if args.output.output.is_none() {
        let meant = args.event.inputs.iter().find(|p| {
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            !p.exists() && ["xlsx", "csv", "json"].contains(&ext.to_ascii_lowercase().as_str())
        });
        if let Some(path) = meant {
            bail!(
                "{}: no such file or folder to read; to write the export there, give it after -o: tilerank export -o {}",
                path.display(),
                path.display()
            );
        }
    }
    let rules = args.event.rules_with_cutoff(&args.cutoff)?;
    let format = args.output.format()?;
    if format == Format::Xlsx && args.output.output.is_none() && std::io::stdout().is_terminal() {
        bail!("a workbook cannot be shown in the terminal: give -o FILE.xlsx");
    }
    // (the log lists each input with the hash of the bytes read)
    let hashes = ReadHashes::keep();
    let loaded = args.event.load(rules)?;
    let event = &loaded.event;
    if event.problems.has_errors() {
        say!("{}", summary(event));
        say!(
            "Nothing exported: {}.",
            whole_event_refusal(event, Again::Run)
        );
        return Ok(Outcome::DataErrors);
    }
    if event.cards.is_empty() {
        // (cards still to come, as missing cards are: exit status 1)
        say!("{}", summary(event));
        say!("Nothing exported: the event has no cards yet (import the first session's cards).");
        return Ok(Outcome::DataErrors);
    }
    say!("{}", summary(event));
    let completeness = report_missing(&loaded);
    if !completeness.is_complete() && !args.allow_incomplete {
        let refusal = super::answers::Refusal::new("Nothing exported: ", "a provisional export");
        say!("{}", super::answers::refusal_of(&completeness, &refusal));
        return Ok(Outcome::DataErrors);
    }
    let Sources { name, sources, log } =
        sources(&args.event, args.name.as_deref(), &loaded, &hashes)?;
    let export = build(&ExportRequest {
        event,
        name: &name,
        completeness: &completeness,
        marked: format != Format::Table,
        sources,
        log,
    });
    for d in &export.decisions {
        say!("{d}");
    }
    if export.unsettled {
        say!("Nothing exported: a qualifier list waits for the director's decision (see above).");
        return Ok(Outcome::DataErrors);
    }
    write(&args, format, &name, &export.tables)?;
    Ok(Outcome::Done)
}

/// Writes the tables in `format` to `-o FILE` (whole or not at all) or to
/// standard output.
fn write(args: &ExportArgs, format: Format, name: &str, tables: &[Table]) -> Result<()> {
    let bytes = match format {
        Format::Xlsx => {
            check_rows(tables, MAX_ROWS)?;
            let rows: usize = tables.iter().map(|t| t.rows.len()).sum();
            let target = args
                .output
                .output
                .as_ref()
                .and_then(|p| p.file_name())
                .map_or("the workbook".to_string(), |n| {
                    n.to_string_lossy().into_owned()
                });
            let bar = Progress::bar(rows as u64, "rows", format!("Writing {target}"));
            let xlsx = Xlsx {
                event: Some(name.to_string()).filter(|n| !n.trim().is_empty()),
            };
            let mut written = 0;
            let bytes = xlsx.write(tables, &mut |n| {
                bar.inc(n as u64);
                written += n;
                if written == rows {
                    bar.set_message(format!("Compressing {target}"));
                }
            });
            bar.finish();
            bytes?
        }
        // A table written to a file is never narrowed to the window.
        other if args.output.output.is_some() => other.file_exporter().export(tables)?,
        other => other.exporter().export(tables)?,
    };
    match &args.output.output {
        Some(path) if !output::is_stdout(path) => {
            // Whole or not at all, through a link, never over an input.
            output::write_report(path, &bytes)?;
            if format == Format::Xlsx {
                let sheets = sheet_names(tables);
                super::say_written(
                    path,
                    &format!("{} sheets: {}", sheets.len(), sheets.join(", ")),
                );
            } else {
                super::say_written(path, &super::tables_written(tables));
            }
        }
        _ => {
            let mut out = std::io::stdout().lock();
            out.write_all(&bytes)?;
            out.flush()?;
        }
    }
    Ok(())
}
