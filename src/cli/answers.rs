//! How the reading commands present the event model's answers: the stage
//! they rank (refused while any card has an error), the age groups asked
//! for, the players the director names, the decisions left open and what
//! the event still lacks. Every command that shows who goes on prints them
//! the same way.

use super::{summary, EventArgs, Loaded};
use anyhow::{bail, Result};
use tilerank::domain::{PlayerId, Stage};
use tilerank::event::{AdvanceList, Completeness, Event, Held};
use tilerank::ingest::hashes::ReadHashes;
use tilerank::roster::Roster;

/// [`rankable`] for a stage players go on from (`advance`, `qualifiers`,
/// `seating --from`): the event's last stage is refused first, as a
/// command line that asks the impossible (exit status 2).
pub fn going_on_from(event: &Event, stage: &str) -> Result<Option<Stage>> {
    // (an event of one stage sends its players on to a final it does
    // not list, as before)
    let stages = &event.rules.stages;
    if stages.len() > 1 && stages.last().is_some_and(|s| s == stage) {
        bail!(
            "the {stage} is this event's last stage ({}: [rules] stages in tilerank.toml): nobody goes on from it; its placings are tilerank standings --stage {stage} and tilerank medals",
            event.rules.stages.join(", ")
        );
    }
    rankable(event, stage)
}

/// Refuses to rank when the data has errors; finds the stage.
/// Errors of a later stage's players ([`Event::errors_of`]) do not stop
/// the answers of `stage`: they are listed, and said to wait for the later
/// stage only (exit status 1 all the same: the data has errors).
pub fn rankable(event: &Event, stage: &str) -> Result<Option<Stage>> {
    rankable_for(event, stage, None)
}

/// [`rankable`], saying when `stage` is still to be played what waits for
/// it (`the medals go to the top three of the final's standings`).
pub fn rankable_for(event: &Event, stage: &str, waits: Option<&str>) -> Result<Option<Stage>> {
    let stage = Stage::new(stage);
    if event.errors_of(&stage) > 0 {
        say!("{}", summary(event));
        say!("Nothing ranked: {}.", fix_errors(event));
        return Ok(None);
    }
    if !event.rules.stages.iter().any(|s| s == stage.as_str()) {
        bail!(
            "stage {stage} is not one of this event's stages ({}: [rules] stages in tilerank.toml)",
            event.rules.stages.join(", ")
        );
    }
    // A stage the event plays and has no card of yet is data still to
    // come (exit status 1, as missing cards are); another stage is a
    // mistyped command line (2, above).
    if !event.stages().contains(&stage) {
        say!("{}", summary(event));
        let known: Vec<String> = event.stages().iter().map(|s| s.to_string()).collect();
        if known.is_empty() {
            say!("Nothing ranked: the event has no cards yet (import the first session's cards).");
        } else {
            say!(
                "Nothing ranked yet: the {stage} is still to be played (no card of it yet; the cards so far are of the {}){}.",
                known.join(", "),
                waits.map(|w| format!("; {w}")).unwrap_or_default()
            );
        }
        return Ok(None);
    }
    say!("{}", summary(event));
    say_later_errors(event, &stage);
    Ok(Some(stage))
}

/// How the answers come again once the errors are fixed: a command is
/// run again, or (`serve`) the event is read again by itself when a file
/// is saved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Again {
    Run,
    Saved,
}

/// Why a view of the whole event (`publish`, `export`, `serve`) is refused
/// when the cards have errors: what to do, and, when the errors are all of
/// a later stage's players ([`Event::errors_of`]), that the first stage's
/// answers can be printed meanwhile.
pub fn whole_event_refusal(event: &Event, again: Again) -> String {
    let first = event.qualifying_stage();
    let later: Vec<String> = event
        .later_errors(&first)
        .map(|(s, n)| match n {
            1 => format!("the {s}'s cards have 1 error"),
            n => format!("the {s}'s cards have {n} errors"),
        })
        .collect();
    if event.errors_of(&first) > 0 || later.is_empty() {
        return match again {
            Again::Run => fix_errors(event),
            Again::Saved => fix_errors_saved(event),
        };
    }
    if again == Again::Saved {
        return format!(
            "{} (above): {}; the {first}'s answers are printed meanwhile (tilerank qualifiers --stage {first})",
            later.join(", "),
            fix_errors_saved(event)
        );
    }
    let fix = match event.counts.stored {
        0 => "correct the card, or leave its file out",
        _ => "correct the card (tilerank import --replace) or take it out (tilerank remove)",
    };
    format!(
        "{} (above): {fix}, and run again; the {first}'s answers are printed meanwhile (tilerank qualifiers --stage {first})",
        later.join(", ")
    )
}

/// What to do about the errors above, which stop the answers, as is true
/// of where the cards were read: a file given is fixed or left out of the
/// run; a card stored in the event folder cannot be left out, it is
/// corrected (`import --replace`) or taken out (`remove`).
pub fn fix_errors(event: &Event) -> String {
    match (at_stored(event), event.counts.files > 0) {
        (true, false) => format!("fix the errors above and run again ({STORED})"),
        (true, true) => {
            format!("fix the errors above (or leave out a file given that has them) and run again ({STORED})")
        }
        (false, true) => "fix the errors above (or leave their files out) and run again".into(),
        (false, false) => "fix the errors above and run again".into(),
    }
}

/// How a stored card is mended (the errors may be of the settings or the
/// roster: this says how a stored card is mended, not that a card is
/// wrong).
const STORED: &str = "a stored card is corrected with tilerank import --replace FILE --reason \"...\", or taken out with tilerank remove --stage STAGE --session S --table T --reason \"...\"";

/// The database of an event folder: its stored cards.
fn is_database(file: &str) -> bool {
    std::path::Path::new(file).file_name()
        == Some(std::ffi::OsStr::new(tilerank::event_folder::DB_FILE))
}

/// An error is at a stored card: [`STORED`] is said only then (one of
/// the settings or the roster is not mended so).
fn at_stored(event: &Event) -> bool {
    event.problems.iter().any(|p| {
        p.severity == tilerank::problem::Severity::Error
            && p.place.source.sheet.is_some()
            && is_database(&p.place.source.file)
    })
}

/// [`fix_errors`] under `serve`, where nobody runs anything again: it
/// reads the event again by itself when a file is saved, so the files
/// with errors are named, to be fixed and saved again (a stored card is
/// mended as [`fix_errors`] says).
pub fn fix_errors_saved(event: &Event) -> String {
    let files: Vec<String> = (event.problems.errors_by_file().into_keys())
        .filter(|f| !f.is_empty() && !is_database(f))
        .collect();
    let save = match files.as_slice() {
        [] => None,
        [file] => Some(format!("fix the errors above and save {file} again")),
        [files @ .., last] => Some(format!(
            "fix the errors above and save {} and {last} again",
            files.join(", ")
        )),
    };
    match (save, at_stored(event)) {
        (Some(save), false) if files.len() == 1 => {
            format!("{save}: tilerank serve reads it again by itself")
        }
        (Some(save), false) => format!("{save}: tilerank serve reads them again by itself"),
        (Some(save), true) => {
            format!("{save} ({STORED}): tilerank serve reads the event again by itself")
        }
        (None, true) => {
            format!(
                "fix the errors above ({STORED}): tilerank serve reads the event again by itself"
            )
        }
        (None, false) => {
            "fix the errors above: tilerank serve reads the event again by itself".into()
        }
    }
}

/// Says that the errors of the stages after `stage` (a final card with a
/// player who did not go on) wait for those stages only.
pub fn say_later_errors(event: &Event, stage: &Stage) {
    for (later, n) in event.later_errors(stage) {
        let errors = match n {
            1 => "1 error".to_string(),
            n => format!("{n} errors"),
        };
        say!("The {later}'s cards have {errors} (above): the {later}'s answers wait for them; the {stage}'s answers below do not depend on them.");
    }
}

/// What the event still lacks ([`tilerank::event::Event::completeness`]),
/// said on standard error: the missing cards session by session, the
/// players who went on to a later stage and have not played it yet, and
/// the roster's players who have not played. For the views of the whole
/// event (the export, the site), and `check` in an event folder.
pub fn report_missing(loaded: &Loaded) -> Completeness {
    let c = loaded.event.completeness();
    say_lacking(loaded, &c, true);
    c
}

/// What the answers of `stage` wait for
/// ([`tilerank::event::Event::completeness_of`]), said on standard error as
/// [`report_missing`] says it: the missing cards, the players who went on
/// to `stage` (or a stage before it) and have not played it, and, of the
/// first stage, the roster's players who have not played.
pub fn report_missing_of(loaded: &Loaded, stage: &Stage) -> Completeness {
    let event = &loaded.event;
    let c = event.completeness_of(stage);
    say_lacking(loaded, &c, *stage == event.qualifying_stage());
    c
}

/// The one gate of the answers of `stage` (who goes on from it: `qualifiers`,
/// `advance`, `seating --from`; of the last stage: `medals`, `awards`):
/// what they wait for is said ([`report_missing_of`]); while anything is,
/// they wait (`None`, after `refusal`) unless `allow`
/// (`--allow-incomplete`). Else what the event lacks for them: its
/// [`Completeness::title_suffix`] and [`Completeness::mark`] say
/// PROVISIONAL, or nothing once it lacks nothing.
pub fn answers_of(
    loaded: &Loaded,
    stage: &Stage,
    allow: bool,
    refusal: &Refusal,
) -> Option<Completeness> {
    let c = report_missing_of(loaded, stage);
    if !c.is_complete() && !allow {
        say!("{}", refusal_of(&c, refusal));
        return None;
    }
    Some(c)
}

/// Answers refused while the event lacks what they wait for: what is not
/// given, and what `--allow-incomplete` gives instead. The reason and
/// what to do are [`refusal_of`]'s to say, from what the event lacks.
pub struct Refusal {
    /// What is not given, up to its reason: `"No qualifier list: "`, or
    /// `"Nothing seated: who goes on from the prelim is not known while "`.
    pub nothing: String,
    /// What `--allow-incomplete` gives instead: `"a provisional list"`.
    pub instead: String,
}

impl Refusal {
    pub fn new(nothing: impl Into<String>, instead: impl Into<String>) -> Refusal {
        Refusal {
            nothing: nothing.into(),
            instead: instead.into(),
        }
    }
}

/// `refusal` said whole: its reason and what to do are what `c` lacks
/// ("the event is not complete (above). Import the rest, or give
/// --allow-incomplete ..."), the tables in conflict on the board named as
/// the reason, and what settles them, when they are what `c` lacks (only
/// they, or with other cards).
pub fn refusal_of(c: &Completeness, refusal: &Refusal) -> String {
    let conflicts = c.held_for(Held::Conflict).count();
    let only = c.missing.is_empty()
        && c.waiting.is_empty()
        && c.held.iter().all(|(_, w)| *w == Held::Conflict);
    let (tables, it) = match conflicts {
        1 => ("1 table is".to_string(), "it"),
        n => (format!("{n} tables are"), "each"),
    };
    let settle = format!(
        "settle {it} on the director's board (tilerank serve --entry), or import the right card with --replace --reason \"why\""
    );
    let (why, what_to_do) = match (conflicts, only) {
        (0, _) => (
            "the event is not complete".to_string(),
            "Import the rest".to_string(),
        ),
        (_, true) => (
            format!("{tables} in conflict on the director's board"),
            format!("{}{}", settle[..1].to_uppercase(), &settle[1..]),
        ),
        (n, false) => (
            "the event is not complete".to_string(),
            format!(
                "Import the rest and {settle} (the {} in conflict)",
                if n == 1 { "table" } else { "tables" }
            ),
        ),
    };
    format!(
        "{}{why} (above). {what_to_do}, or give --allow-incomplete for {}.",
        refusal.nothing, refusal.instead
    )
}

/// The answers of the last stage (the medals, the award): [`answers_of`]
/// it.
pub fn final_answers(loaded: &Loaded, allow: bool, what: &str) -> Option<Completeness> {
    let refusal = Refusal::new(format!("No {what} yet: "), format!("provisional {what}"));
    answers_of(loaded, &loaded.event.final_stage(), allow, &refusal)
}

/// Says `c` on standard error; the roster's players who have not played
/// too when `no_shows`.
fn say_lacking(loaded: &Loaded, c: &Completeness, no_shows: bool) {
    for line in lacking_lines(&loaded.event, c, no_shows) {
        say!("{line}");
    }
}

/// What the event lacks ([`Event::completeness`]) in the lines
/// [`report_missing`] says: `check` and each check of `check --watch`.
pub fn missing_lines(event: &Event) -> Vec<String> {
    lacking_lines(event, &event.completeness(), true)
}

/// The lines of `c`: the cards missing, session by session; the players
/// who went on to a stage and have no card of it yet; when `no_shows`,
/// the roster's players who have not played; then the tables the live
/// desk's board holds back ([`held_lines`]).
fn lacking_lines(event: &Event, c: &Completeness, no_shows: bool) -> Vec<String> {
    let mut lines = lacking_play(event, c, no_shows);
    lines.extend(held_lines(event, c));
    lines
}

/// The tables the live desk's board holds back ([`Completeness::held`]),
/// a line each kind: those in conflict, for the director to decide on the
/// board, those a referee entered that wait for the desk's typing
/// (double entry), and those the desk typed twice that differ (each with
/// its two typings and how many values differ, as the event knows them).
fn held_lines(event: &Event, c: &Completeness) -> Vec<String> {
    let mut lines = Vec::new();
    for (why, what) in [
        (Held::Conflict, "in conflict on the director's board (two versions of the card differ: the director decides which stands, on the board of tilerank serve --entry)"),
        (Held::Waiting, "entered by a referee, waiting for the desk's typing of the signed card (double entry: it counts once an import of it agrees)"),
        (Held::TypedTwice, "typed twice at the desk, and the two typings differ (held back by double entry, not missing): compare each typing with the signed card, correct the wrong one and import them again with --second-entry, or import the right typing alone"),
    ] {
        const SHOWN: usize = 20;
        let keys: Vec<String> = (c.held_for(why))
            .map(|k| match event.typed_twice.iter().find(|h| h.key == *k) {
                Some(h) if why == Held::TypedTwice => format!(
                    "{k} ({} vs {}: {} {})",
                    h.first,
                    h.second,
                    h.differ,
                    if h.differ == 1 { "value differs" } else { "values differ" }
                ),
                _ => k.to_string(),
            })
            .collect();
        let n = keys.len();
        if n == 0 {
            continue;
        }
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
    }
    lines
}

/// [`lacking_lines`] but the board's.
fn lacking_play(event: &Event, c: &Completeness, no_shows: bool) -> Vec<String> {
    let mut lines = Vec::new();
    // (a table whose card was given and rejected is not missing: its
    // errors are said above, and the card is there to correct)
    let (refused, absent) = event.refused_of(&c.missing);
    for (keys, one, many) in [
        (absent, "missing", "missing"),
        (
            refused,
            "rejected (its errors are above)",
            "rejected (their errors are above)",
        ),
    ] {
        let what = match keys.len() {
            0 => continue,
            1 => one,
            _ => many,
        };
        lines.push(format!("{} {what}:", crate::cli::cards(keys.len())));
        for line in Completeness::by_session(&keys, event.rules.schedule) {
            lines.push(format!("  {line}"));
        }
    }
    for e in event
        .entrants
        .iter()
        .filter(|e| !e.waiting.is_empty() && c.waiting.iter().any(|(s, _)| *s == e.stage))
    {
        lines.push(format!(
            "{}: {} of the {} who went on from the {} {} no card yet: {}",
            e.stage,
            e.waiting.len(),
            crate::cli::players(e.went_on),
            e.from,
            if e.waiting.len() == 1 { "has" } else { "have" },
            some_ids(&e.waiting, &event.roster)
        ));
    }
    if !no_shows {
        return lines;
    }
    if !c.no_shows.is_empty() && !c.missing.is_empty() {
        // Cards are still to come: their players have not played yet.
        let n = c.no_shows.len();
        lines.push(format!(
            "{} on the roster {} not played yet",
            crate::cli::players(n),
            if n == 1 { "has" } else { "have" }
        ));
    } else if !c.no_shows.is_empty() && event.counts.cards_rejected > 0 {
        // A rejected card's players may have played: they have no game
        // that counts until it is corrected. (Which players the rejected
        // cards name is not known here: the count of them, in the
        // summary, is not tied to these.)
        let n = c.no_shows.len();
        lines.push(format!(
            "{} on the roster {} no accepted game: {}",
            crate::cli::players(n),
            if n == 1 { "has" } else { "have" },
            some_ids(&c.no_shows, &event.roster),
        ));
    } else if !c.no_shows.is_empty() {
        lines.push(format!(
            "{} on the roster played no game: {}",
            crate::cli::players(c.no_shows.len()),
            some_ids(&c.no_shows, &event.roster)
        ));
    }
    lines
}

/// A line a person reads: the first ids, and how many more.
fn some_ids(players: &[PlayerId], roster: &Roster) -> String {
    const SHOWN: usize = 20;
    let mut ids: Vec<String> = players
        .iter()
        .take(SHOWN)
        .map(|&p| roster.id(p).to_string())
        .collect();
    if players.len() > SHOWN {
        ids.push(format!("and {} more", players.len() - SHOWN));
    }
    ids.join(", ")
}

/// The players `--player` names. Under the top N of the standings no
/// name settles a tie (a tie at its cutoff follows `cutoff_ties`, in the
/// settings file the rules were read from): a name is refused there, as
/// `--top` is under a rule decided at each table.
pub fn named(event: &Event, names: &[String]) -> Result<Vec<PlayerId>> {
    if let (Some(n), tilerank::profile::GoingOn::TopOfStandings) =
        (names.first(), event.rules.going_on)
    {
        bail!(
            "--player {n:?}: only for a rule decided at each table: who goes on here is {} ({} rules), and a tie at its cutoff follows cutoff_ties in {} (tilerank qualifiers --cutoff-ties for one run), never a name",
            tilerank::report::going_on::rule(&event.rules),
            event.rules.profile,
            event.rules.written_at.file()
        );
    }
    names
        .iter()
        .map(|n| match event.roster.find(n) {
            Ok(p) => Ok(p),
            Err(_) => bail!("--player {n:?} names no single player of this event"),
        })
        .collect()
}

/// The groups a command reports on: `--group`, or every group.
pub fn groups(event: &Event, group: &Option<String>) -> Result<Vec<Option<String>>> {
    match group {
        None => Ok(event.group_list()),
        Some(g) => match event
            .groups
            .names
            .iter()
            .find(|n| n.eq_ignore_ascii_case(g))
        {
            Some(n) => Ok(vec![Some(n.clone())]),
            None if event.groups.names.is_empty() => bail!("this event has no age groups"),
            None => bail!(
                "no group {g:?}: the event's groups are {}",
                event.groups.names.join(", ")
            ),
        },
    }
}

/// Each decision of a list, once, on standard error: `DECISION` while the
/// director must act, `NOTE` once the rules or the director settled it.
/// A decision the table on the screen already says under it (`shown`) is
/// not said again.
pub fn print_decisions(list: &AdvanceList, roster: &Roster, shown: &[String]) {
    let label = if list.settled { "NOTE" } else { "DECISION" };
    let group = list
        .group
        .as_ref()
        .map(|g| format!(" ({g})"))
        .unwrap_or_default();
    for d in &list.decisions {
        let d = tilerank::report::going_on::decision(
            d,
            roster,
            list.table_ties,
            &tilerank::report::going_on::settings_file(list),
        );
        if shown.contains(&d) {
            continue;
        }
        say!("{label}{group}: {d}");
    }
}

/// The lists that are not final and have no row to say so on (by
/// [`tilerank::report::stages::mark_not_final`]), each with its group and
/// the mark its rows would carry.
pub type Unmarked = Vec<(Option<String>, String)>;

/// A list that is not final says so on every row of a file without titles
/// (CSV, JSON, a workbook); a list with no row yet (a tie at the cutoff
/// from rank 1) has nowhere to say it, and its file would read as the
/// final list, of nobody. Such a list is not written at all, to the file
/// or to standard output: said here (`true`), as `export` writes nothing
/// while a list waits for the director.
pub fn unmarked_not_written(output: &super::OutputArgs, unmarked: &Unmarked) -> bool {
    if unmarked.is_empty() {
        return false;
    }
    let target = match &output.output {
        Some(path) if !tilerank::report::output::is_stdout(path) => path.display().to_string(),
        _ => "standard output".to_string(),
    };
    let lists: Vec<String> = unmarked
        .iter()
        .map(|(group, mark)| {
            let list = match group {
                Some(g) => format!("the list of group {g}"),
                None => "the list".to_string(),
            };
            format!("{list} is not final ({mark}) and has nobody on it yet")
        })
        .collect();
    say!(
        "Nothing written to {target}: {}, so no row could say so: written empty, it would read as the final list.",
        lists.join("; ")
    );
    true
}

/// What the export and the website are built from beside the event: the
/// event's name (`name`, else the event folder's), where the data came from
/// (for the Settings sheet), and the log (the folder's import log, then
/// each input read this time and the roster given, with the hashes of the
/// bytes they were read as: `hashes`, held while the event was loaded;
/// for an event of files alone, then the cards accepted and rejected).
pub struct Sources {
    pub name: String,
    pub sources: Vec<(String, String)>,
    pub log: Vec<std::collections::BTreeMap<String, String>>,
}

pub fn sources(
    args: &EventArgs,
    name: Option<&str>,
    loaded: &Loaded,
    hashes: &ReadHashes,
) -> Result<Sources> {
    use std::collections::BTreeMap;
    use tilerank::ingest;
    let name = name
        .map(str::to_string)
        .or_else(|| loaded.folder.as_ref().map(|f| f.config.event.name.clone()))
        .unwrap_or_default();
    let mut sources = Vec::new();
    if let Some(f) = &loaded.folder {
        sources.push(("event_folder".to_string(), f.dir.display().to_string()));
    }
    if let Some(r) = &args.roster {
        sources.push(("roster".to_string(), r.display().to_string()));
    } else if let Some(f) = loaded.folder.as_ref().filter(|f| f.roster_path().is_file()) {
        sources.push(("roster".to_string(), f.roster_path().display().to_string()));
    }
    for input in &args.inputs {
        sources.push(("input".to_string(), ingest::shown(input)));
    }
    let mut log = match &loaded.folder {
        Some(f) => f.log()?,
        None => Vec::new(),
    };
    let mut read = |action: &str, path: &std::path::Path| {
        log.push(BTreeMap::from([
            ("action".to_string(), action.to_string()),
            ("file".to_string(), ingest::shown(path)),
            ("sha256".to_string(), hashes.of(path).unwrap_or_default()),
        ]));
    };
    if let Some(roster) = &args.roster {
        read("read roster", roster);
    }
    for file in ingest::expand(&args.inputs)? {
        read("read", &file);
    }
    // An event read from files alone (no card stored: no import log to
    // say it): what came of the cards read, as the summary line counts
    // them (the event's counts), the cards accepted with their stages and
    // games, then the cards rejected.
    let c = &loaded.event.counts;
    if c.stored == 0 && c.files > 0 {
        let stages: Vec<String> = (loaded.event.stages().iter())
            .map(|s| s.to_string())
            .collect();
        for (action, stage, cards, games) in [
            ("accepted", stages.join(" "), c.accepted, Some(c.games)),
            ("rejected", String::new(), c.cards_rejected, None),
        ] {
            log.push(BTreeMap::from_iter(
                [
                    ("action", action.to_string()),
                    ("stage", stage),
                    ("cards", cards.to_string()),
                    ("games", games.map(|g| g.to_string()).unwrap_or_default()),
                ]
                .map(|(k, v)| (k.to_string(), v)),
            ));
        }
    }
    Ok(Sources { name, sources, log })
}

#[cfg(test)]
mod tests {
    use super::{refusal_of, Refusal};
    use tilerank::domain::{CardKey, Label, Stage};
    use tilerank::event::{Completeness, Held};

    fn key(table: u32) -> CardKey {
        CardKey {
            stage: Stage::prelim(),
            session: Label::Num(7),
            table: Label::Num(table),
        }
    }

    /// Each refusal is one sentence made from its parts: the reason and
    /// what to do follow from what the event lacks, whatever the refusal.
    #[test]
    fn a_refusal_says_why_and_what_settles_it() {
        let seating = Refusal::new(
            "Nothing seated: who goes on from the prelim is not known while ",
            "a provisional seating (each printed card says so)",
        );
        let mut c = Completeness {
            missing: vec![key(3)],
            ..Completeness::default()
        };
        assert_eq!(
            refusal_of(&c, &seating),
            "Nothing seated: who goes on from the prelim is not known while the event is not complete (above). Import the rest, or give --allow-incomplete for a provisional seating (each printed card says so)."
        );
        c.held = vec![(key(5), Held::Conflict)];
        assert_eq!(
            refusal_of(&c, &Refusal::new("No qualifier list: ", "a provisional list")),
            "No qualifier list: the event is not complete (above). Import the rest and settle it on the director's board (tilerank serve --entry), or import the right card with --replace --reason \"why\" (the table in conflict), or give --allow-incomplete for a provisional list."
        );
        c.missing.clear();
        c.held.push((key(6), Held::Conflict));
        assert_eq!(
            refusal_of(&c, &seating),
            "Nothing seated: who goes on from the prelim is not known while 2 tables are in conflict on the director's board (above). Settle each on the director's board (tilerank serve --entry), or import the right card with --replace --reason \"why\", or give --allow-incomplete for a provisional seating (each printed card says so)."
        );
        // a table waiting for the desk's typing is not a conflict
        c.held = vec![(key(5), Held::Waiting)];
        assert_eq!(
            refusal_of(&c, &Refusal::new("No medals yet: ", "provisional medals")),
            "No medals yet: the event is not complete (above). Import the rest, or give --allow-incomplete for provisional medals."
        );
    }
}
