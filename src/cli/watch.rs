//! `tilerank check --watch PATH...`: the live check while volunteers type.
//!
//! Checks once and prints everything, then re-checks whenever a watched
//! file is saved and prints only what changed since the last check: new
//! problems, fixed ones, cards accepted (and cards no longer accepted);
//! then, at every check, what a plain `check` says after its problems (the
//! hints; in an event folder what the event lacks and what the board holds
//! back), from the functions `check` says them with.
//!
//! Files are watched through their folders: a spreadsheet program saves by
//! writing a temporary file and renaming it over the old one, which a watch
//! on the file itself would lose. Saves are debounced ([`DEBOUNCE`]); a file
//! that cannot be read (half-written) is tried again once after the
//! debounce, then reported once and left as its last check had it until it
//! is saved again. Ctrl-C stops cleanly; the exit status is that of the
//! last check.

use super::{EventArgs, Outcome};
use anyhow::{bail, Context, Result};
use notify_debouncer_mini::notify::RecursiveMode;
use notify_debouncer_mini::{new_debouncer, DebounceEventResult};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};
use tilerank::compare::{diff_checks, CheckState};
use tilerank::event::{Event, Request};
use tilerank::event_folder::{EventFolder, FolderError};
use tilerank::ingest::{self, InputError};

/// How long a file must be quiet before it is checked: a spreadsheet
/// program's save is over by then.
pub const DEBOUNCE: Duration = Duration::from_millis(300);

/// The files a folder is read for (as `ingest` reads folders).
const DATA_EXTENSIONS: [&str; 7] = ["csv", "tsv", "txt", "xlsx", "xlsm", "xls", "ods"];

enum Message {
    Files(DebounceEventResult),
    Stop,
}

/// What is watched: folders (every data file in them) and single files.
struct Watched {
    dirs: BTreeSet<PathBuf>,
    files: BTreeSet<PathBuf>,
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

impl Watched {
    fn new(inputs: &[PathBuf]) -> Result<Watched> {
        let mut w = Watched {
            dirs: BTreeSet::new(),
            files: BTreeSet::new(),
        };
        for input in inputs {
            if input.as_os_str() == "-" {
                bail!("--watch cannot watch standard input (-): give files or folders");
            }
            if input.is_dir() {
                w.dirs.insert(canonical(input));
            } else if input.is_file() {
                w.files.insert(canonical(input));
            } else if let Some(link) = ingest::broken_link(input) {
                bail!("{}: {link}", input.display());
            } else {
                bail!("{}: no such file or folder", input.display());
            }
        }
        Ok(w)
    }

    /// The folders to ask the system to watch, and how: a folder given
    /// with the folders in it (as `ingest` reads them), a file's own
    /// folder alone.
    fn folders(&self) -> BTreeMap<PathBuf, RecursiveMode> {
        let mut v: BTreeMap<PathBuf, RecursiveMode> = self
            .files
            .iter()
            .filter_map(|f| Some((f.parent()?.to_path_buf(), RecursiveMode::NonRecursive)))
            .collect();
        v.extend(
            self.dirs
                .iter()
                .map(|d| (d.clone(), RecursiveMode::Recursive)),
        );
        v
    }

    /// A change of this path calls for a new check.
    fn concerns(&self, path: &Path) -> bool {
        let Some(name) = path.file_name().map(|n| n.to_string_lossy()) else {
            return false;
        };
        let parent = path.parent().map(canonical).unwrap_or_default();
        if self.files.contains(&parent.join(&*name)) {
            return true;
        }
        // spreadsheet lock and temporary files: `~$S01.xlsx`, `.~lock.S01.xlsx#`
        let data = !name.starts_with('.')
            && !name.starts_with("~$")
            && path.extension().is_some_and(|e| {
                DATA_EXTENSIONS.contains(&e.to_string_lossy().to_lowercase().as_str())
            });
        data && parent.ancestors().any(|dir| self.dirs.contains(dir))
    }
}

/// Size and modification time of every file read: a save changes them,
/// a spreadsheet program opening the file (or a check reading it) does not.
type Signature = BTreeMap<PathBuf, Option<(u64, std::time::SystemTime)>>;

fn signature(inputs: &[PathBuf]) -> Signature {
    inputs
        .iter()
        .flat_map(|i| ingest::expand(std::slice::from_ref(i)).unwrap_or_else(|_| vec![i.clone()]))
        .map(|f| {
            let meta = std::fs::metadata(&f).ok();
            let stamp = meta.and_then(|m| Some((m.len(), m.modified().ok()?)));
            (f, stamp)
        })
        .collect()
}

/// The files whose signature changed (saved, created or removed).
fn changed(before: &Signature, after: &Signature) -> Vec<String> {
    let mut names: BTreeSet<String> = BTreeSet::new();
    for (path, stamp) in after {
        if before.get(path) != Some(stamp) {
            names.insert(ingest::shown(path));
        }
    }
    for path in before.keys().filter(|p| !after.contains_key(*p)) {
        names.insert(ingest::shown(path));
    }
    names.into_iter().collect()
}

/// One check: the event of every file that could be read, and the files
/// that could not (name as shown, and why).
fn check(
    folder: Option<&EventFolder>,
    request: &Request,
) -> (Option<Event>, BTreeMap<String, String>) {
    let mut unreadable = BTreeMap::new();
    let mut files = Vec::new();
    for input in &request.inputs {
        match ingest::expand(std::slice::from_ref(input)) {
            Ok(f) => files.extend(f),
            Err(e) => {
                unreadable.insert(ingest::shown(input), e.to_string());
            }
        }
    }
    loop {
        let inputs: Vec<PathBuf> = files
            .iter()
            .filter(|f| !unreadable.contains_key(&ingest::shown(f)))
            .cloned()
            .collect();
        let attempt = Request {
            keep: tilerank::event::Keep::Cards,
            inputs,
            ..request.clone()
        };
        match load(folder, &attempt) {
            Ok(event) => return (Some(event), unreadable),
            Err(e) => {
                let path = match &e {
                    InputError::NotFound { path }
                    | InputError::Unreadable { path, .. }
                    | InputError::NotASpreadsheet { path, .. }
                    | InputError::BrokenLink { path, .. }
                    | InputError::EmptyFolder { path }
                    | InputError::TooDeep { path, .. }
                    | InputError::SomeTooDeep { path, .. } => path.clone(),
                    InputError::Sheet { place, .. } | InputError::Limit { place, .. } => {
                        place.source.file.clone()
                    }
                    InputError::BadLimit { .. } => {
                        unreadable.insert("tilerank".into(), e.to_string());
                        return (None, unreadable);
                    }
                };
                if unreadable.contains_key(&path) || !files.iter().any(|f| ingest::shown(f) == path)
                {
                    // Not a card file (the roster): nothing to check without it.
                    unreadable.insert(path, e.to_string());
                    return (None, unreadable);
                }
                unreadable.insert(path, e.to_string());
            }
        }
    }
}

/// The event: an event folder's stored cards and roster with the watched
/// files, or the watched files alone.
fn load(folder: Option<&EventFolder>, request: &Request) -> Result<Event, InputError> {
    match folder {
        Some(f) => f
            .load_with(&request.inputs, request.roster.clone(), &request.rules)
            .map_err(|e| match e {
                FolderError::Input(i) => i,
                other => InputError::Unreadable {
                    path: f.dir.display().to_string(),
                    reason: other.to_string(),
                },
            }),
        None => Event::load(request),
    }
}

/// What a plain `check` says after the problems, from the same functions:
/// the hints ([`super::read_hints`]), then, in an event folder, what the
/// event still lacks ([`super::answers::missing_lines`]), the tables the
/// board holds back among it.
fn check_notes(
    folder: Option<&EventFolder>,
    event: Option<&Event>,
    request: &Request,
) -> Vec<String> {
    let Some(event) = event else {
        return Vec::new();
    };
    let mut lines = super::read_hints(&event.problems, &request.rules, folder.map(|f| &f.config));
    if folder.is_some() {
        lines.extend(super::answers::missing_lines(event));
    }
    lines
}

/// `2 errors, 25 cards accepted`.
fn tally(state: &CheckState) -> String {
    let errors = state.error_count();
    format!(
        "{} {}, {} accepted",
        errors,
        if errors == 1 { "error" } else { "errors" },
        super::cards(state.accepted.len())
    )
}

pub fn run(args: &EventArgs) -> Result<Outcome> {
    if args.inputs.is_empty() {
        bail!("--watch needs the files or folders to watch: tilerank check --watch PATH...");
    }
    let watched = Watched::new(&args.inputs)?;
    let rules = args.rules()?;
    let folder = args.folder()?;
    let inputs = args.inputs.clone();
    let roster = args.roster.clone();
    let request = Request {
        keep: tilerank::event::Keep::Cards,
        inputs,
        roster,
        rules,
    };

    let (tx, rx) = mpsc::channel();
    let stop = tx.clone();
    ctrlc::set_handler(move || {
        let _ = stop.send(Message::Stop);
    })
    .context("cannot catch Ctrl-C")?;
    let mut debouncer = new_debouncer(DEBOUNCE, move |result| {
        let _ = tx.send(Message::Files(result));
    })
    .context("cannot watch files on this system")?;
    for (dir, mode) in watched.folders() {
        debouncer
            .watcher()
            .watch(&dir, mode)
            .with_context(|| format!("{}: cannot be watched", dir.display()))?;
    }

    let mut out = std::io::stdout().lock();
    let mut last = signature(&args.inputs);
    let (event, unreadable) = check(folder.as_ref(), &request);
    let mut state = event.as_ref().map(CheckState::of).unwrap_or_default();
    for p in &state.problems {
        writeln!(out, "{p}")?;
    }
    for line in check_notes(folder.as_ref(), event.as_ref(), &request) {
        writeln!(out, "{line}")?;
    }
    for why in unreadable.values() {
        writeln!(out, "unreadable: {why}: checked again when it is saved")?;
    }
    writeln!(out, "checked: {}", tally(&state))?;
    writeln!(
        out,
        "watching {}: each save is checked; Ctrl-C to stop",
        args.inputs
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )?;
    out.flush()?;
    let mut reported: BTreeMap<String, String> = unreadable;

    // When a half-written file is tried again.
    let mut retry_at: Option<Instant> = None;
    let mut saved: BTreeSet<String> = BTreeSet::new();
    loop {
        let message = match retry_at {
            Some(at) => rx.recv_timeout(at.saturating_duration_since(Instant::now())),
            None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match message {
            Ok(Message::Stop) | Err(RecvTimeoutError::Disconnected) => break,
            Ok(Message::Files(Err(e))) => {
                writeln!(out, "watching: {e}")?;
                continue;
            }
            Ok(Message::Files(Ok(events))) => {
                if !events.iter().any(|e| watched.concerns(&e.path)) {
                    continue;
                }
                let now = signature(&args.inputs);
                let names = changed(&last, &now);
                if names.is_empty() {
                    continue; // opened or read, not saved
                }
                last = now;
                saved.extend(names);
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
        let (event, unreadable) = check(folder.as_ref(), &request);
        if !unreadable.is_empty() && retry_at.is_none() {
            // Half-written, perhaps: try again once the save is surely over.
            retry_at = Some(Instant::now() + DEBOUNCE * 2);
            continue;
        }
        retry_at = None;
        let mut now = event.as_ref().map(CheckState::of).unwrap_or_default();
        for file in unreadable.keys() {
            now.keep_file(&state, file);
        }
        let diff = diff_checks(&state, &now);
        // (a file deleted, or moved away, is said removed, not saved)
        let shown_now: BTreeSet<String> = last.keys().map(|p| ingest::shown(p)).collect();
        let (kept, gone): (Vec<String>, Vec<String>) = std::mem::take(&mut saved)
            .into_iter()
            .partition(|n| shown_now.contains(n));
        let said: Vec<String> = [(kept, "saved"), (gone, "removed")]
            .into_iter()
            .filter(|(names, _)| !names.is_empty())
            .map(|(names, how)| format!("{} {how}", names.join(", ")))
            .collect();
        writeln!(out, "{}:", said.join("; "))?;
        let mut told = false;
        for (file, why) in &unreadable {
            if reported.get(file) != Some(why) {
                told = true;
                writeln!(
                    out,
                    "  unreadable: {why}: its last check stands until it is saved again"
                )?;
            }
        }
        reported = unreadable;
        for p in &diff.new {
            writeln!(out, "  new:      {p}")?;
        }
        for p in &diff.fixed {
            writeln!(out, "  fixed:    {p}")?;
        }
        for (key, place) in &diff.accepted {
            writeln!(out, "  accepted: {key} ({place})")?;
        }
        for (key, place) in &diff.unaccepted {
            writeln!(out, "  no longer accepted: {key} ({place})")?;
        }
        if diff.is_empty() && !told {
            writeln!(out, "  no change")?;
        }
        for line in check_notes(folder.as_ref(), event.as_ref(), &request) {
            writeln!(out, "  {line}")?;
        }
        writeln!(out, "  now: {}", tally(&now))?;
        out.flush()?;
        state = now;
    }
    writeln!(out, "stopped watching: {}", tally(&state))?;
    out.flush()?;
    Ok(if state.error_count() > 0 {
        Outcome::DataErrors
    } else {
        Outcome::Done
    })
}
