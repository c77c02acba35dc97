//! `tilerank compare`: two typings of the same cards, value by value.

use super::{parse_profile, print_problems, say_hints, Outcome};
use anyhow::{bail, Context, Result};
use clap::Args;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use tilerank::compare::typing::{Part, Side};
use tilerank::compare::{agreeing, compare, lines, Typing};
use tilerank::domain::{CardKey, Label, SessionName, Stage};
use tilerank::event::HeldTyping;
use tilerank::event_folder::{EventFolder, ReadFile};
use tilerank::ingest::hashes::ReadHashes;
use tilerank::ingest::raw::RawCard;
use tilerank::problem::{Problems, Severity};
use tilerank::profile::{ProfileName, Rules};
use tilerank::roster::Roster;
use tilerank::rules::card_checks::check_card;

/// Compare two typings of the same cards (double entry): every value that differs, with both places
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank compare S03.xlsx S03-second.csv --roster roster.csv\n  tilerank compare typed-by-ann/ typed-by-ben/ --roster roster.csv\n\nCards are matched by stage, session and table, whatever the file, sheet or layout. Values are compared as the checks read them (+30, 30.0 and 30 agree). A seat's player typed as an id in one typing and as a name in the other is the same player when --roster says so. Each difference is printed as FIRST-PLACE vs SECOND-PLACE: CARD: WHAT, then one line per value; when all that differs is two seats' lines (or players) exchanged, a last line asks whether those seats are swapped. Three or more cards of a session that only one typing has are said in one line naming their tables. The rules are not checked here: run tilerank check. A file given as both typings is refused (it agrees with itself).\n\nExit status: 0 the typings agree; 1 they differ (or a card could not be read); 2 the command line is wrong, a file cannot be read, or one is given as both typings."
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

    /// Rules profile, for how scores are read and racks scored (default hk)
    #[arg(long, value_name = "NAME", value_parser = parse_profile, help = super::profile_help("Rules profile, for how scores are read and racks scored", "(default hk)"))]
    pub profile: Option<ProfileName>,

    /// A rules file of your own, instead of a profile
    #[arg(long = "rules", value_name = "FILE", conflicts_with = "profile")]
    pub rules_file: Option<PathBuf>,
}

pub fn run(args: CompareArgs) -> Result<Outcome> {
    let rules = super::given_rules(&args.rules_file, args.profile)?.unwrap_or_else(Rules::hk);
    not_both(
        std::slice::from_ref(&args.first),
        &args.second,
        "nothing compared",
    )?;
    let mut problems = Problems::new();
    let roster = match &args.roster {
        Some(path) => tilerank::ingest::roster::read(path, &mut problems)?,
        None => Roster::open(),
    };
    let first = Typing::read(
        std::slice::from_ref(&args.first),
        &rules,
        None,
        &mut problems,
    )?;
    let second = Typing::read(
        std::slice::from_ref(&args.second),
        &rules,
        None,
        &mut problems,
    )?;
    print_problems(&problems);
    let comparison = compare(&first, &second, &rules, &roster);
    let mut out = std::io::stdout().lock();
    for line in comparison.lines() {
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    if args.roster.is_none()
        && comparison
            .differences
            .iter()
            .any(|d| d.part == Part::Players)
    {
        say!("note: without a roster a player typed as an id in one typing and as a name in the other differs: give --roster FILE");
    }
    let n = comparison.differences.len();
    say!(
        "first typing {}, second typing {}: {} {}; {}",
        super::cards(first.card_count()),
        super::cards(second.card_count()),
        comparison.agreed.len(),
        if comparison.agreed.len() == 1 {
            "agrees"
        } else {
            "agree"
        },
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

/// A double-entry import (`import --second-entry`): the first typing's
/// files filtered down to the cards the second typing confirms, written to
/// a temporary folder (removed when this is dropped) for the store to
/// import, and the reason its log line records.
pub struct SecondEntry {
    /// The agreed cards, file by file, ready for the store.
    pub read: Vec<ReadFile>,
    /// The first typing's cards held back, for the store to record beside
    /// the agreed ones (the event names them so, not as missing).
    pub held: Vec<HeldTyping>,
    pub reason: String,
    /// Differences listed, and first-typing files refused for errors.
    pub differences: usize,
    /// The first typing's files refused for errors (the import says so).
    pub refused: Vec<String>,
}

impl SecondEntry {
    /// Both typings agree on everything and every file went in.
    pub fn is_clean(&self) -> bool {
        self.differences + self.refused.len() == 0
    }
}

/// Refuses a file given as both typings, or in a folder given as one and
/// as the other: it agrees with itself, whatever it holds (a slip of the
/// command line, not a second typing); `then` says what is not done.
fn not_both(first: &[PathBuf], second: &Path, then: &str) -> Result<()> {
    let same = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let firsts: Vec<PathBuf> = tilerank::ingest::expand(first)?
        .iter()
        .filter(|p| p.as_os_str() != "-")
        .map(|p| same(p))
        .collect();
    if let Some(both) = tilerank::ingest::expand(&[second.to_path_buf()])?
        .iter()
        .find(|p| firsts.contains(&same(p)))
    {
        bail!(
            "{}: given as both typings; the second typing is typed apart from the first, from the signed cards ({then})",
            both.display()
        );
    }
    Ok(())
}

/// Cards' tables, session by session in the order of the keys: `session
/// S01 tables 1, 2, 4-25; final session S01 table 3`.
fn tables_named(keys: &[CardKey]) -> String {
    CardKey::tables_by_session(keys)
        .into_iter()
        .map(|(key, tables)| {
            let stage = match key.stage.as_str() {
                Stage::DEFAULT => String::new(),
                stage => format!("{stage} "),
            };
            format!(
                "{stage}session {} {} {}",
                SessionName(&key.session),
                if tables.len() == 1 { "table" } else { "tables" },
                Label::ranges(tables)
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Compares the files to import with their second typing; prints every
/// difference (those cards are held back) and the checks' errors of the
/// agreed cards (a file with any is not imported, as a plain import would
/// refuse it).
pub fn second_entry(
    folder: &EventFolder,
    files: &[PathBuf],
    second: &Path,
    stage: Option<&str>,
    reason: Option<&str>,
) -> Result<SecondEntry> {
    // (a file given as both typings would confirm every card of it by
    // itself)
    not_both(files, second, "nothing imported")?;
    let rules = folder.rules();
    let mut problems = Problems::new();
    // The event's stored roster (its cards are not needed here).
    let mut roster = folder.load(&[], None)?.roster;
    // (the log keeps the hash of the bytes each file was read as)
    let hashes = ReadHashes::keep();
    let first = Typing::read(files, &rules, stage, &mut problems)?;
    let second_typing = Typing::read(&[second.to_path_buf()], &rules, stage, &mut problems)?;
    let (agreed, differences, left_out) = agreeing(first, &second_typing, &rules, &roster);
    // First-typing cards held back (a card can differ in several parts),
    // with the values that differ (a part with none, as a card typed once
    // only, counts one) and the file of the first typing.
    let mut held_back: BTreeMap<_, HeldTyping> = BTreeMap::new();
    for d in differences
        .iter()
        .filter(|d| d.part != Part::OnlyIn(Side::Second))
    {
        let h = held_back.entry(&d.key).or_insert_with(|| HeldTyping {
            key: d.key.clone(),
            first: d
                .first
                .as_ref()
                .map_or_else(String::new, |p| p.source.file.clone()),
            second: second.display().to_string(),
            differ: 0,
        });
        h.differ += d.cells.len().max(1);
    }
    let held = held_back.len();
    let mut by_file: BTreeMap<String, Vec<RawCard>> = BTreeMap::new();
    for card in agreed {
        by_file
            .entry(card.source.file.clone())
            .or_default()
            .push(card);
    }
    let mut refused = Vec::new();
    for (file, cards) in &by_file {
        let before = problems.error_count();
        let read_errors = problems
            .iter()
            .any(|p| p.severity == Severity::Error && p.place.source.file == *file);
        let checked = cards
            .iter()
            .filter(|c| check_card(c, &rules, &mut roster, &mut problems).is_ok())
            .count();
        if read_errors || checked < cards.len() || problems.error_count() > before {
            refused.push(file.clone());
        }
    }
    print_problems(&problems);
    // (the hints of games refused, as a plain import says them)
    say_hints(&problems);
    let mut err = std::io::stderr().lock();
    for line in lines(&differences) {
        writeln!(err, "{line}")?;
    }
    if !left_out.is_empty() {
        writeln!(
            err,
            "double entry: {} of the second typing left out, {} not in the files imported ({})",
            super::cards(left_out.len()),
            if left_out.len() == 1 {
                "its table"
            } else {
                "their tables"
            },
            tables_named(&left_out)
        )?;
    }
    let agreed_count: usize = by_file.values().map(Vec::len).sum();
    writeln!(
        err,
        "double entry: {} {} with the second typing ({}); {}",
        super::cards(agreed_count),
        if agreed_count == 1 { "agrees" } else { "agree" },
        second.display(),
        match held {
            0 => "none held back".to_string(),
            n => format!(
                "{} held back until both typings agree (listed above)",
                super::cards(n)
            ),
        }
    )?;
    let mut entry = SecondEntry {
        read: Vec::new(),
        held: held_back.into_values().collect(),
        reason: format!(
            "double entry: confirmed by {}{}",
            second.display(),
            match held {
                0 => String::new(),
                n => format!(" ({} held back)", super::cards(n)),
            }
        ),
        differences: differences.len(),
        refused: refused.clone(),
    };
    if let Some(r) = reason.filter(|r| !r.trim().is_empty()) {
        entry.reason = format!("{}; {r}", entry.reason);
    }
    // The agreed cards go to the store under the file they were typed in:
    // its name, and the hash of the bytes its cards were read from, are
    // what the log records.
    let sha256: BTreeMap<String, String> = tilerank::ingest::expand(files)?
        .iter()
        .filter_map(|path| Some((tilerank::ingest::shown(path), hashes.of(path)?)))
        .collect();
    for (file, cards) in by_file.into_iter().filter(|(f, _)| !refused.contains(f)) {
        let sha256 = sha256
            .get(&file)
            .with_context(|| format!("{file}: its bytes were not read whole"))?;
        entry.read.push(ReadFile {
            sha256: sha256.clone(),
            name: file,
            cards,
            problems: Problems::new(),
        });
    }
    Ok(entry)
}
