//! The command line: one module per command, each with its `Args` and one
//! `run` function. Shared options live here.

/// `eprintln!` for the terminal's messages: a line broken between words to
/// the window's width ([`say_line`]).
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::say_line(&format!($($arg)*))
    };
}

mod advance;
mod answers;
mod awards;
mod check;
mod compare;
mod completions;
mod dump;
mod explain;
mod export;
mod import;
mod init;
mod log;
mod man;
mod medals;
mod profiles;
mod publish;
mod qualifiers;
#[cfg(test)]
mod quoted;
mod referee;
mod remove;
mod roster;
mod score;
mod seating;
mod serve;
mod standings;
mod watch;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use tilerank::config::Overrides;
use tilerank::event::{Event, Request};
use tilerank::event_folder::{EventFolder, NotEvent};
use tilerank::problem::{Problems, Severity};
use tilerank::profile::{ProfileName, Rules};
use tilerank::report::{output, Format, Streamed, Table};

#[derive(Parser, Debug)]
#[command(
    name = "tilerank",
    version,
    about = "The scoring desk of Rummikub tournaments: checks score cards, ranks players, lists qualifiers.",
    long_about = None,
    after_help = "Exit status: 0 done; 1 the data has errors (each listed with its place), or a decision waits for the director (a DECISION line), or the answer waits for what the event still lacks (cards missing, players still to play, a table held on the live desk's board: --allow-incomplete gives it marked PROVISIONAL); 2 the command line or tilerank.toml is wrong, or a file cannot be read.\n\nExample:\n  tilerank qualifiers examples/hk-2026/cards --roster examples/hk-2026/roster.csv"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    Init(init::InitArgs),
    Roster(roster::RosterArgs),
    Import(import::ImportArgs),
    Log(log::LogArgs),
    Remove(remove::RemoveArgs),
    Referee(referee::RefereeArgs),
    Dump(dump::DumpArgs),
    Check(check::CheckArgs),
    Compare(compare::CompareArgs),
    Profiles(profiles::ProfilesArgs),
    Standings(standings::StandingsArgs),
    Qualifiers(qualifiers::QualifiersArgs),
    Score(score::ScoreArgs),
    Explain(explain::ExplainArgs),
    Export(export::ExportArgs),
    Advance(advance::AdvanceArgs),
    Seating(seating::SeatingArgs),
    Medals(medals::MedalsArgs),
    Awards(awards::AwardsArgs),
    Publish(publish::PublishArgs),
    Serve(serve::ServeArgs),
    Completions(completions::CompletionsArgs),
    Man(man::ManArgs),
}

/// What the commands that present a ranking or who goes on, but take no
/// `--top`, give: said when `--top` is given to one ([`parse_error`]).
const WITHOUT_TOP: [(&str, &str); 6] = [
    (
        "standings",
        "it lists every player of the stage, Q marking who goes on",
    ),
    ("advance", "it lists who goes on by the event's rule"),
    (
        "explain",
        "it explains one player's place, and says whether they go on",
    ),
    (
        "seating",
        "it seats the players of the next stage, with --from STAGE those who go on from it",
    ),
    (
        "medals",
        "it gives places 1 to 3 of the final in each age group",
    ),
    ("awards", "it ranks the families for the Super Family Award"),
];

/// The error of a command line clap refuses, as clap says it; but `--top`
/// on a command without it (`medals --top 3`, guessed from `qualifiers
/// --top N`), where clap's tip named `--output` as a similar argument,
/// says what the command gives and where `--top` is. `args` is the command
/// line, the program's name first.
pub fn parse_error(error: clap::Error, args: &[std::ffi::OsString]) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    use clap::CommandFactory;
    let top = error.kind() == ErrorKind::UnknownArgument
        && matches!(
            error.get(ContextKind::InvalidArg),
            Some(ContextValue::String(arg)) if arg == "--top"
        );
    let command = args.get(1).and_then(|a| a.to_str());
    let Some((name, gives)) = WITHOUT_TOP
        .iter()
        .find(|(name, _)| top && command == Some(name))
    else {
        return error;
    };
    let mut cli = Cli::command();
    // (the usage line names `tilerank medals`)
    cli.build();
    let Some(sub) = cli.find_subcommand_mut(name) else {
        return error;
    };
    sub.error(
        ErrorKind::UnknownArgument,
        format!(
            "{name} has no --top: {gives} (see tilerank {name} --help)\n\n  tip: --top N is how many go on under a top-N rule: tilerank qualifiers --top N (export, publish and serve take it too), or [qualifiers] top = N in tilerank.toml for every command"
        ),
    )
}

/// How a command ended, for the exit status.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Done,
    DataErrors,
}

pub fn run(cli: Cli) -> Result<Outcome> {
    match cli.command {
        Command::Init(a) => init::run(a),
        Command::Roster(a) => roster::run(a),
        Command::Import(a) => import::run(a),
        Command::Log(a) => log::run(a),
        Command::Remove(a) => remove::run(a),
        Command::Referee(a) => referee::run(a),
        Command::Dump(a) => dump::run(a),
        Command::Check(a) => check::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Profiles(a) => profiles::run(a),
        Command::Standings(a) => standings::run(a),
        Command::Qualifiers(a) => qualifiers::run(a),
        Command::Score(a) => score::run(a),
        Command::Explain(a) => explain::run(a),
        Command::Export(a) => export::run(a),
        Command::Advance(a) => advance::run(a),
        Command::Seating(a) => seating::run(a),
        Command::Medals(a) => medals::run(a),
        Command::Awards(a) => awards::run(a),
        Command::Publish(a) => publish::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Completions(a) => completions::run(a),
        Command::Man(a) => man::run(a),
    }
}

/// What every reading command takes.
#[derive(Args, Debug)]
pub struct EventArgs {
    /// Score cards: CSV files, workbooks (.xlsx .xlsm .xls .ods) or folders of them; - reads CSV from standard input. Optional in an event folder, whose imported cards are always read
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    /// The roster (CSV or workbook: id, name, birth_date, family, status, group); default: the event's, else players are known by what the cards say
    #[arg(long, value_name = "FILE")]
    pub roster: Option<PathBuf>,

    /// Rules profile (default: the event's, else hk); another profile than the event's starts from that profile's defaults
    #[arg(long, value_name = "NAME", value_parser = parse_profile, help = profile_help("Rules profile", "(default: the event's, else hk); another profile than the event's starts from that profile's defaults"))]
    pub profile: Option<ProfileName>,

    /// A rules file of your own (tilerank profiles show NAME writes one to start from), instead of the event's settings or a profile
    #[arg(long = "rules", value_name = "FILE", conflicts_with = "profile")]
    pub rules_file: Option<PathBuf>,

    /// The event folder (default: the current folder when it has a tilerank.toml)
    #[arg(long, value_name = "DIR")]
    pub event: Option<PathBuf>,

    /// The event date YYYY-MM-DD, for ages and age groups (default: the event's)
    #[arg(long, value_name = "DATE", value_parser = tilerank::config::parse_date)]
    pub date: Option<String>,
}

fn parse_profile(s: &str) -> Result<ProfileName, String> {
    s.parse()
}

/// `--cutoff-ties`: the setting's own choices (shown by `--help` and the
/// completions).
fn cutoff_ties_parser(
) -> impl clap::builder::TypedValueParser<Value = tilerank::profile::CutoffTies> {
    use clap::builder::TypedValueParser;
    use tilerank::config::settings::{parse_cli, CUTOFF_TIES};
    clap::builder::PossibleValuesParser::new(CUTOFF_TIES.iter().map(|(n, _)| *n))
        .try_map(|s| parse_cli(&s, CUTOFF_TIES))
}

/// A `--profile` help line that names the built-in profiles as they are.
pub fn profile_help(head: &str, tail: &str) -> String {
    let names: Vec<&str> = ProfileName::all().map(ProfileName::as_str).collect();
    format!("{head}: {} {tail}", names.join(", "))
}

/// The rules of `--rules FILE`, or of `--profile NAME`, when given.
pub fn given_rules(file: &Option<PathBuf>, profile: Option<ProfileName>) -> Result<Option<Rules>> {
    Ok(match (file, profile) {
        (Some(path), _) => Some(tilerank::config::RulesFile::load(path)?.rules),
        (None, Some(p)) => Some(p.rules()),
        (None, None) => None,
    })
}

/// An event as read, and the folder it came from.
pub struct Loaded {
    pub event: Event,
    pub folder: Option<EventFolder>,
}

impl EventArgs {
    /// The event folder: `--event DIR`, else the current folder if it is one.
    pub fn folder(&self) -> Result<Option<EventFolder>> {
        match &self.event {
            Some(dir) => {
                if EventFolder::find(Some(dir)).is_none() {
                    bail!(EventFolder::why_not(dir).said(dir, ""));
                }
                Ok(Some(EventFolder::open(dir)?))
            }
            None => match EventFolder::find(None) {
                Some(dir) => Ok(Some(EventFolder::open(&dir)?)),
                None => {
                    // (a tilerank.toml that is no file is said, not taken
                    // for a folder of files alone)
                    let here = Path::new(".");
                    match EventFolder::why_not(here) {
                        NotEvent::Missing => Ok(None),
                        not => bail!(not.said(here, "")),
                    }
                }
            },
        }
    }

    /// What this command line changes of the event's settings (said
    /// first by every command that reads an event: standard input given
    /// for two of its inputs is refused here, before anything is read).
    pub fn overrides(&self) -> Result<Overrides> {
        self.stdin_once()?;
        Ok(Overrides {
            profile: self.profile,
            rules: given_rules(&self.rules_file, None)?,
            date: self.date.clone(),
            ..Overrides::default()
        })
    }

    /// Standard input (`-`) is one input at most: the cards, `--roster` or
    /// `--rules`. Read for one, it is empty for the next, which would be
    /// said to be an empty file.
    fn stdin_once(&self) -> Result<()> {
        let given: Vec<&str> = (self.inputs.iter().map(|p| (p, "INPUT")))
            .chain(self.roster.iter().map(|p| (p, "--roster")))
            .chain(self.rules_file.iter().map(|p| (p, "--rules")))
            .filter(|(p, _)| p.as_os_str() == "-")
            .map(|(_, what)| what)
            .collect();
        if given.len() > 1 {
            bail!(
                "standard input (-) is given {} times ({}): it can be read once; save all but one to a file and give its name",
                given.len(),
                given.join(", ")
            );
        }
        Ok(())
    }

    /// The rules: the event's settings (else the profile's defaults, or
    /// the rules file), then the command line ([`Overrides::apply`]).
    pub fn rules(&self) -> Result<Rules> {
        self.rules_with(self.overrides()?)
    }

    pub fn rules_with(&self, overrides: Overrides) -> Result<Rules> {
        let folder = self.folder()?;
        Ok(overrides.apply(folder.as_ref().map(|f| &f.config)))
    }

    /// Reads and checks every input (the event's cards first), printing the
    /// problems found.
    pub fn load(&self, rules: Rules) -> Result<Loaded> {
        self.load_keeping(rules, tilerank::event::Keep::Cards)
    }

    /// As [`EventArgs::load`], keeping `keep` of the cards (the commands
    /// that present only the standings keep their sums).
    pub fn load_keeping(&self, rules: Rules, keep: tilerank::event::Keep) -> Result<Loaded> {
        let folder = self.folder()?;
        if folder.is_none() && self.inputs.is_empty() && self.roster.is_none() {
            bail!(
                "no INPUT given, and no event folder here (no {}): give card files or folders, or --event DIR",
                tilerank::config::FILE_NAME
            );
        }
        let read = rules.clone();
        // A spinner on a terminal for a long read, cleared before the problems.
        let spinner = tilerank::report::progress::Progress::spinner("Reading the cards");
        let event = match &folder {
            Some(f) => f
                .load_keeping(&self.inputs, self.roster.clone(), &rules, keep)
                .map_err(anyhow::Error::from),
            None => Event::load(&Request {
                keep,
                inputs: self.inputs.clone(),
                roster: self.roster.clone(),
                rules,
            })
            .map_err(anyhow::Error::from),
        };
        spinner.finish();
        let event = event?;
        print_problems(&event.problems);
        for hint in read_hints(&event.problems, &read, folder.as_ref().map(|f| &f.config)) {
            say_line(&hint);
        }
        let unreadable = event.problems.unreadable_count();
        if unreadable > 0 {
            bail!(
                "{} could not be read (see above); nothing was decided",
                if unreadable == 1 {
                    "1 input".to_string()
                } else {
                    format!("{unreadable} inputs")
                }
            );
        }
        Ok(Loaded { event, folder })
    }
}

/// How many go on under a top-N rule, and what a tie across that cutoff
/// does, for this run only (`qualifiers`, `export`, `publish`, `serve`).
#[derive(Args, Debug)]
pub struct CutoffArgs {
    /// How many go on under a top-N rule (default: the event's, 120 for hk)
    #[arg(long, value_name = "N", value_parser = |s: &str| tilerank::config::settings::from_cli("qualifiers", "top", s, |r| r.qualifiers))]
    pub top: Option<u32>,

    /// Players tied on every key across the cutoff (the setting cutoff_ties)
    #[arg(long, value_name = "POLICY", value_parser = cutoff_ties_parser())]
    pub cutoff_ties: Option<tilerank::profile::CutoffTies>,
}

impl EventArgs {
    /// The rules with this run's cutoff ([`Overrides::apply`]). A cutoff
    /// under a rule that has none (who goes on is decided at each table)
    /// is refused, as the settings refuse a setting of another rule
    /// (`[qualifiers] per_table` under the top N): the list would
    /// silently be the one without it.
    pub fn rules_with_cutoff(&self, cutoff: &CutoffArgs) -> Result<Rules> {
        let rules = self.rules_with(Overrides {
            top: cutoff.top,
            cutoff_ties: cutoff.cutoff_ties,
            ..self.overrides()?
        })?;
        if rules.going_on != tilerank::profile::GoingOn::TopOfStandings {
            let given = match (cutoff.top, cutoff.cutoff_ties) {
                (Some(n), _) => format!("--top {n}"),
                (None, Some(_)) => "--cutoff-ties".to_string(),
                (None, None) => return Ok(rules),
            };
            bail!(
                "{given}: only for a rule of the top N of the standings ([qualifiers] rule = \"top\"): who goes on here is {} ({} rules), and no cutoff is made",
                tilerank::report::going_on::rule(&rules),
                rules.profile
            );
        }
        Ok(rules)
    }
}

/// The event folder of commands that need one.
#[derive(Args, Debug)]
pub struct EventFolderArg {
    /// The event folder (default: the current folder)
    #[arg(long, value_name = "DIR")]
    pub event: Option<PathBuf>,
}

impl EventFolderArg {
    pub fn open(&self) -> Result<EventFolder> {
        let dir = self.event.clone().unwrap_or_else(|| PathBuf::from("."));
        if EventFolder::find(Some(&dir)).is_none() {
            bail!(EventFolder::why_not(&dir).said(&dir, ", or give --event DIR"));
        }
        Ok(EventFolder::open(&dir)?)
    }
}

/// Where and how a report goes.
#[derive(Args, Debug)]
pub struct OutputArgs {
    /// Output format; with -o, taken from the file's extension when not given
    #[arg(long, value_enum)]
    pub format: Option<Format>,

    /// Write to FILE (whole or not at all) instead of standard output
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

impl OutputArgs {
    /// `--format`, else the output file's extension, else the terminal.
    pub fn format(&self) -> Result<Format> {
        // (refused before anything is read: a folder, the event's files)
        if let Some(path) = &self.output {
            output::check_target(path)?;
        }
        Ok(match (self.format, &self.output) {
            // (a file named for another format would not open as it says)
            (Some(f), Some(path)) => match Format::from_path(path) {
                Some(named) if named != f && named != Format::Table => bail!(
                    "--format {} but {} is named as {}: give a file name of the format, or leave --format out",
                    f.name(),
                    path.display(),
                    named.name()
                ),
                _ => f,
            },
            (Some(f), None) => f,
            (None, None) => Format::Table,
            (None, Some(path)) if output::is_stdout(path) => Format::Table,
            (None, Some(path)) => Format::from_path(path).with_context(|| {
                format!(
                    "cannot tell the format of {}: give --format table, csv, json or xlsx",
                    path.display()
                )
            })?,
        })
    }

    /// Whether the reader of the report sees the tables' titles: the text
    /// table does. CSV and JSON have none, and a workbook has them in the
    /// printed page's header only: there a list that is not final marks
    /// its rows ([`tilerank::report::stages::mark_not_final`]).
    pub fn shows_titles(&self) -> Result<bool> {
        Ok(self.format()? == Format::Table)
    }

    /// Writes tables whose rows are made as they are written, in a format
    /// that writes row by row ([`Format::streams`]): to standard output, or
    /// to the file whole or not at all.
    pub fn emit_streamed(&self, format: Format, tables: Vec<Streamed<'_>>) -> Result<()> {
        let path = self.output.clone().unwrap_or_else(|| PathBuf::from("-"));
        // each table's rows counted as they pass, to say what was written:
        // made one at a time, those of the last pass (the terminal makes
        // them twice); made in chunks, on several threads and in any
        // order, up to the furthest row made
        use std::sync::{atomic::AtomicUsize, atomic::Ordering::Relaxed, Arc};
        let counted: Vec<(String, Arc<AtomicUsize>)> = tables
            .iter()
            .map(|t| (t.name.clone(), Default::default()))
            .collect();
        let tables: Vec<Streamed<'_>> = tables
            .into_iter()
            .zip(&counted)
            .map(|(t, (_, n))| {
                let (counter, rows) = (n.clone(), t.rows);
                let chunks = t.chunks.map(|c| {
                    let (n, make) = (n.clone(), c.make);
                    tilerank::report::Chunks {
                        rows: c.rows,
                        make: Box::new(move |range, sink| {
                            make(range.clone(), sink);
                            n.fetch_max(range.end, Relaxed);
                        }),
                    }
                });
                Streamed {
                    // (made again for each pass: the last pass counts)
                    rows: Box::new(move || {
                        counter.store(0, Relaxed);
                        let n = counter.clone();
                        Box::new(rows().inspect(move |_| _ = n.fetch_add(1, Relaxed)))
                    }),
                    chunks,
                    ..t
                }
            })
            .collect();
        let mut tables = Some(tables);
        // (as emit: a table given -o, even -o -, is never narrowed)
        let to_file = self.output.is_some();
        output::write_report_with(&path, &mut |out| {
            format.stream(tables.take().unwrap_or_default(), out, to_file)?;
            Ok(())
        })?;
        if !output::is_stdout(&path) {
            let what = counted
                .iter()
                .map(|(name, n)| (name.as_str(), n.load(Relaxed)));
            say_written(&path, &rows_written(what));
        }
        Ok(())
    }

    pub fn emit(&self, tables: &[Table]) -> Result<()> {
        let format = self.format()?;
        let exporter = match self.output {
            Some(_) => format.file_exporter(),
            None => format.exporter(),
        };
        let bytes = exporter.export(tables)?;
        match &self.output {
            Some(path) if !output::is_stdout(path) => {
                output::write_report(path, &bytes)?;
                say_written(path, &tables_written(tables));
            }
            _ => {
                if format == Format::Xlsx && std::io::stdout().is_terminal() {
                    bail!("a workbook cannot be shown in the terminal: give -o FILE.xlsx");
                }
                let mut out = std::io::stdout().lock();
                out.write_all(&bytes)?;
                out.flush()?;
            }
        }
        Ok(())
    }
}

/// Writes a message to standard error, each of its lines broken between
/// words to the window's width when standard error is a terminal (never
/// when it is piped or redirected, so that a line stays one line for
/// `grep`). A closed standard error is no error.
pub fn say_line(text: &str) {
    let mut out = String::new();
    wrap_lines(text, stderr_width(), &mut out);
    let _ = std::io::stderr().lock().write_all(out.as_bytes());
}

/// `text`, line by line, each broken between words to `width`.
fn wrap_lines(text: &str, width: Option<usize>, out: &mut String) {
    for line in text.split('\n') {
        tilerank::report::terminal::push_wrapped(line, width, out);
    }
}

/// The width of the terminal standard error is, if it is one (asked once a
/// run: a run with thousands of errors prints them at one width).
fn stderr_width() -> Option<usize> {
    static WIDTH: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *WIDTH.get_or_init(|| {
        let err = std::io::stderr();
        if !err.is_terminal() {
            return None;
        }
        terminal_size::terminal_size_of(&err).map(|(w, _)| usize::from(w.0))
    })
}

/// What a command that wrote a file says: which file, and what is in it.
pub fn say_written(path: &std::path::Path, what: &str) {
    say!("{} written: {what}", path.display());
}

/// The tables of a report, as [`say_written`] names them: `Qualifiers (121
/// rows)`.
pub fn tables_written(tables: &[Table]) -> String {
    rows_written(tables.iter().map(|t| (t.name.as_str(), t.rows.len())))
}

/// Tables by name and number of rows, as [`say_written`] names them.
pub fn rows_written<'a>(tables: impl Iterator<Item = (&'a str, usize)>) -> String {
    let rows = |n: usize| {
        if n == 1 {
            "1 row".to_string()
        } else {
            format!("{n} rows")
        }
    };
    tables
        .map(|(name, n)| format!("{name} ({})", rows(n)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The exit status the run has reached so far (1 once data errors were
/// listed, 2 once an input could not be read), for a run cut short by a
/// closed standard output.
static STATUS: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

pub fn status_so_far() -> u8 {
    STATUS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Bytes to standard output, flushed.
pub fn write_stdout(bytes: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}

/// Problems to standard error, sorted by place, one a line.
pub fn print_problems(problems: &Problems) {
    let status = match (problems.unreadable_count(), problems.has_errors()) {
        (1.., _) => 2,
        (0, true) => 1,
        _ => 0,
    };
    STATUS.fetch_max(status, std::sync::atomic::Ordering::Relaxed);
    for p in problems.sorted() {
        say_line(&p.to_string());
    }
}

/// The hints of games refused ([`tilerank::problem::Hint`]: one sign
/// that makes a game pass), after the problems, a line each.
pub fn say_hints(problems: &Problems) {
    for line in hint_lines(problems) {
        say_line(&line);
    }
}

/// The lines [`say_hints`] says.
pub fn hint_lines(problems: &Problems) -> Vec<String> {
    let (hints, more) = problems.hints();
    let mut lines: Vec<String> = hints.iter().map(|h| format!("hint: {}", h.said)).collect();
    if more > 0 {
        lines.push(format!(
            "hint: … and {more} more {} (the first {} are said)",
            if more == 1 { "hint" } else { "hints" },
            tilerank::problem::HINTS_KEPT
        ));
    }
    lines
}

/// The hints after the problems of a read under `rules` (every reading
/// command, `check --watch` at each check), in the event folder of
/// settings `config` if any: the sign hints ([`hint_lines`]), then the
/// cards refused that add up under another profile, said once, after
/// their errors. When the event's own settings were set aside (its rules
/// are not the ones read, see [`tilerank::config::Overrides::apply`])
/// and they fit the cards, the hint says to drop the option that set them
/// aside.
pub fn read_hints(
    problems: &Problems,
    rules: &tilerank::profile::Rules,
    config: Option<&tilerank::config::Config>,
) -> Vec<String> {
    let mut lines = hint_lines(problems);
    let own = config
        .map(tilerank::config::Config::rules)
        .filter(|own| own.written_at.file != rules.written_at.file);
    let hint = match &own {
        Some(own) => problems.other_profile_than_own(
            rules.profile,
            &tilerank::problem::SetAside {
                own,
                option: match &rules.written_at.file {
                    Some(file) => format!("--rules {file}"),
                    None => format!("--profile {}", rules.profile),
                },
            },
        ),
        None => problems.other_profile(rules.profile),
    };
    if let Some(hint) = hint {
        lines.push(format!("hint: {hint}"));
    }
    lines
}

/// The closing line of a reading command.
pub fn summary(event: &Event) -> String {
    let c = &event.counts;
    let errors = event.problems.error_count();
    let warnings = event
        .problems
        .iter()
        .filter(|p| p.severity == Severity::Warning)
        .count();
    // What was read: the event's stored cards, then the files given (the
    // sheets of workbooks: a CSV file has none); nothing when nothing was.
    let mut read = Vec::new();
    if c.stored > 0 {
        read.push(format!("{} stored in the event", cards(c.stored)));
    }
    if c.files > 0 {
        let mut files = format!(
            "{} {}",
            c.files,
            if c.files == 1 { "file" } else { "files" }
        );
        if c.sheets > 0 {
            files.push_str(&format!(
                ", {} {}",
                c.sheets,
                if c.sheets == 1 { "sheet" } else { "sheets" }
            ));
        }
        read.push(files);
    }
    let mut s = match read.is_empty() {
        true => String::new(),
        false => format!("{}: ", read.join(" and ")),
    };
    s.push_str(&format!(
        "{} accepted, {} {}",
        cards(c.accepted),
        c.games,
        if c.games == 1 { "game" } else { "games" }
    ));
    if c.cards_rejected > 0 {
        s.push_str(&format!(", {} rejected", c.cards_rejected));
    }
    s.push_str(&format!(
        "; {} {}",
        errors,
        if errors == 1 { "error" } else { "errors" }
    ));
    // (the cards are accepted: what is wrong is who plays a later stage,
    // or at which table)
    let later: Vec<String> = event
        .later_errors(&event.qualifying_stage())
        .map(|(stage, n)| format!("{n} about the {stage}'s players or tables"))
        .collect();
    if !later.is_empty() {
        s.push_str(&format!(" ({})", later.join(", ")));
    }
    if warnings > 0 {
        s.push_str(&format!(
            ", {} {}",
            warnings,
            if warnings == 1 { "warning" } else { "warnings" }
        ));
    }
    s
}

/// `1 player`, `2 players`.
pub fn players(n: usize) -> String {
    if n == 1 {
        "1 player".to_string()
    } else {
        format!("{n} players")
    }
}

/// What a command that writes prints when another one holds the event.
pub fn say_waiting() {
    say!("waiting for another import of this event...");
}

/// `1 card`, `2 cards`.
pub fn cards(n: usize) -> String {
    if n == 1 {
        "1 card".to_string()
    } else {
        format!("{n} cards")
    }
}

/// `1 blank score card`, `30 score cards`: cards to print.
pub fn score_cards(n: usize) -> String {
    if n == 1 {
        "1 score card".to_string()
    } else {
        format!("{n} score cards")
    }
}

/// An error and its causes, each said once: `what failed: why: why
/// not`. A cause an error already says at its end (`out.csv: cannot be
/// written: No such file or directory (os error 2)`, whose cause is
/// that system error) is not said again.
pub fn said_once(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let said = cause.to_string();
        if text.ends_with(&said) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&said);
    }
    text
}

/// What an error says, each line to be said after `tilerank: `: every
/// mistake of a settings file, one a line (each with its place), or else
/// the error said once ([`said_once`]).
pub fn said_lines(e: &anyhow::Error) -> Vec<String> {
    use tilerank::config::ConfigError;
    use tilerank::event_folder::FolderError;
    let several = e.chain().find_map(|cause| {
        let config = cause.downcast_ref::<ConfigError>().or_else(|| {
            match cause.downcast_ref::<FolderError>() {
                Some(FolderError::Config(c)) => Some(c),
                _ => None,
            }
        });
        match config {
            Some(ConfigError::Several(errors)) => Some(errors),
            _ => None,
        }
    });
    match several {
        Some(errors) => errors.iter().map(ToString::to_string).collect(),
        None => vec![said_once(e)],
    }
}

pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn a_cause_already_said_is_not_said_again() {
        let os = || std::io::Error::from(std::io::ErrorKind::NotFound);
        let e = anyhow::Error::from(output::OutputError::Io {
            path: "out.csv".into(),
            source: os(),
        });
        let said = os().to_string();
        assert_eq!(said_once(&e), format!("out.csv: cannot be written: {said}"));
        // a context above it, and a cause not said yet, are kept
        let e = e.context("the site was not written");
        assert_eq!(
            said_once(&e),
            format!("the site was not written: out.csv: cannot be written: {said}")
        );
        let e = anyhow::Error::from(os()).context("x.csv: cannot be read");
        assert_eq!(said_once(&e), format!("x.csv: cannot be read: {said}"));
    }

    #[test]
    fn messages_break_between_words_at_the_window_width() {
        let note = "NOTE: TIE AT THE CUTOFF: 2 players share rank 120 across the top-120 cutoff (1 within it, 1 beyond); both go on (policy include): 121 qualifiers";
        let mut out = String::new();
        wrap_lines(note, Some(80), &mut out);
        assert_eq!(
            out,
            "NOTE: TIE AT THE CUTOFF: 2 players share rank 120 across the top-120 cutoff (1\n\
             within it, 1 beyond); both go on (policy include): 121 qualifiers\n"
        );
        // every word whole, in order
        let words: Vec<&str> = out.split_whitespace().collect();
        assert_eq!(words, note.split_whitespace().collect::<Vec<_>>());
        // a message of two lines keeps its line break; piped, nothing is
        // broken
        let mut out = String::new();
        wrap_lines("first line\nsecond", Some(8), &mut out);
        assert_eq!(out, "first\nline\nsecond\n");
        let mut out = String::new();
        wrap_lines(note, None, &mut out);
        assert_eq!(out, format!("{note}\n"));
    }
}
