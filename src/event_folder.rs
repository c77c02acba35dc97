//! An event folder: where an event's cards accumulate, session after
//! session, in plain files a person can read and back up.
//!
//! ```text
//! EVENT/
//!   tilerank.toml            settings (tilerank init)
//!   roster.csv               the checked roster (tilerank roster)
//!   cards/prelim-S01-T07.csv one file per imported card, results layout
//!   history/                 replaced cards and rosters, never deleted
//!   log.csv                  append-only: what was imported, when, from where
//!   .tilerank.lock           present while an import runs
//! ```
//!
//! Safety: every file is written to a temporary file, flushed, then renamed
//! into place, so a card file is always whole; readers skip temporary files.
//! A replaced card is moved to `history/` before the new one is written.
//! Before writing its cards an import writes a journal (`.tilerank.pending`)
//! naming them, and removes it after appending its log line: an import
//! killed in between leaves each card whole in or out, and the journal, which
//! `log` reports; importing the same file again completes and records it.

use crate::config::{Config, ConfigError, FILE_NAME};
use crate::domain::{Card, CardKey, Label, SessionName, Stage};
use crate::event::{Event, Request};
use crate::ingest::{self, InputError};
use crate::problem::Problems;
use crate::profile::{ProfileName, Rules};
use crate::report::cards::results_table;
use crate::report::output::write_atomically;
use crate::report::Exporter;
use crate::roster::Roster;
use crate::rules::card_checks::{check_card, check_clashes};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

pub const ROSTER_FILE: &str = "roster.csv";
pub const LOG_FILE: &str = "log.csv";
const LOCK_FILE: &str = ".tilerank.lock";
/// Written before an import's card files, removed after its log line.
const PENDING_FILE: &str = ".tilerank.pending";
const LOG_HEADER: &str = "time,action,file,sha256,stage,cards,games,reason\n";

#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    #[error("{0}")]
    Config(#[from] ConfigError),
    #[error("{0}")]
    Input(#[from] InputError),
    #[error("{path}: {reason}")]
    Io { path: String, reason: String },
    #[error("{0}")]
    Refused(String),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> FolderError + '_ {
    move |e| FolderError::Io {
        path: path.display().to_string(),
        reason: e.to_string(),
    }
}

/// The time now, UTC, as `2026-03-28T12:45:00Z`.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let day = crate::ingest::cell::date_from_serial((secs / 86_400) as f64 + 25_569.0)
        .unwrap_or_default();
    let s = secs % 86_400;
    format!("{day}T{:02}:{:02}:{:02}Z", s / 3600, s / 60 % 60, s % 60)
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The event folder.
#[derive(Debug)]
pub struct EventFolder {
    pub dir: PathBuf,
    pub config: Config,
}

/// Held while an import writes; removed when dropped.
pub struct Lock {
    path: PathBuf,
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// One card's fate in an import.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardFate {
    New,
    Unchanged,
    Replaced,
}

/// What an import did, file by file.
#[derive(Debug, Default)]
pub struct ImportReport {
    pub problems: Problems,
    /// Per file: its name, and each card with its fate (empty when refused).
    pub files: Vec<(String, Vec<(CardKey, CardFate)>)>,
    pub refused: Vec<String>,
}

/// A step an import can be stopped after, for tests of a killed import.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopAfter {
    Never,
    /// After this many card files were written, before the log line.
    Cards(usize),
}

impl EventFolder {
    /// The event folder at `dir`, or in the current folder.
    pub fn find(dir: Option<&Path>) -> Option<PathBuf> {
        let dir = dir
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        dir.join(FILE_NAME).is_file().then_some(dir)
    }

    /// Creates the folder and its `tilerank.toml`; refuses an existing one.
    pub fn init(
        dir: &Path,
        profile: ProfileName,
        name: &str,
        date: Option<&str>,
    ) -> Result<EventFolder, FolderError> {
        let toml = dir.join(FILE_NAME);
        if toml.exists() {
            return Err(FolderError::Refused(format!(
                "{} exists already: this folder is an event",
                toml.display()
            )));
        }
        std::fs::create_dir_all(dir.join("cards")).map_err(io(dir))?;
        std::fs::create_dir_all(dir.join("history")).map_err(io(dir))?;
        write_atomically(&toml, Config::template(profile, name, date).as_bytes())
            .map_err(io(&toml))?;
        let log = dir.join(LOG_FILE);
        if !log.exists() {
            write_atomically(&log, LOG_HEADER.as_bytes()).map_err(io(&log))?;
        }
        EventFolder::open(dir)
    }

    pub fn open(dir: &Path) -> Result<EventFolder, FolderError> {
        let config = Config::load(&dir.join(FILE_NAME))?;
        Ok(EventFolder {
            dir: dir.to_path_buf(),
            config,
        })
    }

    pub fn rules(&self) -> Rules {
        // Checked when loaded.
        self.config.rules()
    }

    pub fn roster_path(&self) -> PathBuf {
        self.dir.join(ROSTER_FILE)
    }

    pub fn cards_dir(&self) -> PathBuf {
        self.dir.join("cards")
    }

    /// The stored cards, for reading commands.
    pub fn stored_inputs(&self) -> Vec<PathBuf> {
        let dir = self.cards_dir();
        let has_cards = std::fs::read_dir(&dir)
            .map(|mut d| {
                d.any(|e| e.is_ok_and(|e| !e.file_name().to_string_lossy().starts_with('.')))
            })
            .unwrap_or(false);
        if has_cards {
            vec![dir]
        } else {
            Vec::new()
        }
    }

    /// Takes the import lock, or says who holds it. A lock left by a
    /// process that no longer runs is taken over.
    pub fn lock(&self) -> Result<Lock, FolderError> {
        let path = self.dir.join(LOCK_FILE);
        for _ in 0..2 {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    let _ = writeln!(f, "{} {}", std::process::id(), utc_now());
                    return Ok(Lock { path });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let held = std::fs::read_to_string(&path).unwrap_or_default();
                    let pid = held.split_whitespace().next().unwrap_or("");
                    let alive = !pid.is_empty() && Path::new("/proc").join(pid).exists();
                    if alive || !Path::new("/proc").exists() {
                        return Err(FolderError::Refused(format!(
                            "another tilerank is importing into this event (pid {pid}, since {}); wait for it to finish. If none is running, delete {}",
                            held.split_whitespace().nth(1).unwrap_or("?"),
                            path.display()
                        )));
                    }
                    // A stopped import: its cards are whole files; take over.
                    std::fs::remove_file(&path).map_err(io(&path))?;
                }
                Err(e) => return Err(io(&path)(e)),
            }
        }
        Err(FolderError::Refused(format!(
            "cannot take the lock {}",
            path.display()
        )))
    }

    /// Checks a roster and stores it; the roster stored before is kept in
    /// `history/`. Returns the problems; nothing is stored when any is an error.
    pub fn store_roster(
        &self,
        source: &Path,
        rules: &Rules,
    ) -> Result<(Problems, usize), FolderError> {
        let _lock = self.lock()?;
        let mut problems = Problems::new();
        let roster = ingest::roster::read(&source.to_path_buf(), &mut problems)?;
        crate::rules::roster_checks::check_roster(
            &roster,
            rules,
            self.config.event.date.as_deref(),
            &mut problems,
        );
        if problems.has_errors() {
            return Ok((problems, roster.len()));
        }
        let bytes = roster_csv(&roster);
        let target = self.roster_path();
        if let Ok(old) = std::fs::read(&target) {
            if old == bytes {
                return Ok((problems, roster.len()));
            }
            self.keep_in_history(&target, ROSTER_FILE)?;
        }
        write_atomically(&target, &bytes).map_err(io(&target))?;
        self.append_log(&[
            utc_now(),
            "roster".into(),
            source.display().to_string(),
            sha256_hex(&std::fs::read(source).unwrap_or_default()),
            String::new(),
            roster.len().to_string(),
            String::new(),
            String::new(),
        ])?;
        Ok((problems, roster.len()))
    }

    fn keep_in_history(&self, path: &Path, name: &str) -> Result<PathBuf, FolderError> {
        let history = self.dir.join("history");
        std::fs::create_dir_all(&history).map_err(io(&history))?;
        let stamp = utc_now().replace(':', "");
        let mut target = history.join(format!("{stamp}-{name}"));
        let mut n = 2;
        while target.exists() {
            target = history.join(format!("{stamp}-{n}-{name}"));
            n += 1;
        }
        std::fs::rename(path, &target).map_err(io(path))?;
        Ok(target)
    }

    fn append_log(&self, fields: &[String]) -> Result<(), FolderError> {
        let path = self.dir.join(LOG_FILE);
        let new = !path.exists();
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        w.write_record(fields).map_err(|e| FolderError::Io {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
        let line = w.into_inner().unwrap_or_default();
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(io(&path))?;
        if new {
            f.write_all(LOG_HEADER.as_bytes()).map_err(io(&path))?;
        }
        f.write_all(&line).map_err(io(&path))?;
        f.sync_all().map_err(io(&path))
    }

    /// The log, as written.
    pub fn log(&self) -> Result<Vec<BTreeMap<String, String>>, FolderError> {
        let path = self.dir.join(LOG_FILE);
        let Ok(text) = std::fs::read_to_string(&path) else {
            return Ok(Vec::new());
        };
        let mut r = csv::ReaderBuilder::new()
            .flexible(true)
            .from_reader(text.as_bytes());
        let headers = r.headers().cloned().unwrap_or_default();
        Ok(r.records()
            .filter_map(Result::ok)
            .map(|rec| {
                headers
                    .iter()
                    .zip(rec.iter())
                    .map(|(h, v)| (h.to_string(), v.to_string()))
                    .collect()
            })
            .collect())
    }

    /// The file a card is stored in.
    pub fn card_path(&self, key: &CardKey) -> PathBuf {
        let clean = |s: String| {
            s.chars()
                .map(|c| {
                    if c.is_alphanumeric() || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect::<String>()
        };
        let table = match &key.table {
            Label::Num(n) => format!("T{n:02}"),
            Label::Text(t) => format!("T{}", clean(t.clone())),
        };
        let name = format!(
            "{}-{}-{table}.csv",
            clean(key.stage.to_string()),
            clean(SessionName(&key.session).to_string())
        );
        self.cards_dir().join(name)
    }

    /// Loads the event: settings, stored roster, stored cards and `extra`
    /// inputs.
    pub fn load(&self, extra: &[PathBuf], roster: Option<PathBuf>) -> Result<Event, FolderError> {
        let mut inputs = self.stored_inputs();
        inputs.extend(extra.iter().cloned());
        let roster = roster.or_else(|| Some(self.roster_path()).filter(|p| p.is_file()));
        Ok(Event::load(&Request {
            inputs,
            roster,
            rules: self.rules(),
        })?)
    }

    /// Imports card files: each file whole, or nothing from it.
    pub fn import(
        &self,
        files: &[PathBuf],
        stage: Option<&str>,
        replace: bool,
        reason: Option<&str>,
        stop: StopAfter,
    ) -> Result<ImportReport, FolderError> {
        let _lock = self.lock()?;
        let rules = self.rules();
        let mut report = ImportReport::default();
        if !self.roster_path().is_file() {
            return Err(FolderError::Refused(format!(
                "no roster in {}: store one first with `tilerank roster FILE`",
                self.dir.display()
            )));
        }
        let stored = self.load(&[], None)?;
        if stored.problems.has_errors() {
            report.problems.extend(stored.problems);
            return Err(FolderError::Refused(
                "the event's stored files have errors (listed above); nothing imported".to_string(),
            ));
        }
        let mut roster: Roster = stored.roster;
        let mut current: Vec<Card> = stored.cards;
        let mut written = 0;
        for file in ingest::expand(files)? {
            let name = ingest::shown(&file);
            let bytes = std::fs::read(&file).unwrap_or_default();
            let mut problems = Problems::new();
            let mut inputs = ingest::read_cards(std::slice::from_ref(&file), &mut problems)?;
            if let Some(s) = stage {
                let s = Stage::new(s);
                inputs
                    .cards
                    .iter_mut()
                    .for_each(|c| c.key.stage = s.clone());
                inputs
                    .rack_cards
                    .iter_mut()
                    .for_each(|c| c.grouped.key.stage = s.clone());
            }
            let mut raw = inputs.cards;
            for rc in inputs.rack_cards {
                raw.extend(ingest::racks::score_card(rc, &rules, &mut problems));
            }
            let new_cards: Vec<Card> = raw
                .iter()
                .filter_map(|c| check_card(c, &rules, &mut roster, &mut problems))
                .collect();
            if raw.is_empty() && !problems.has_errors() {
                problems.error(
                    crate::place::Source::file(&name).whole(),
                    "no cards found in this file",
                );
            }
            // Seated elsewhere across imports: check against the stored cards
            // that this file does not replace.
            let mut together: Vec<Card> = current
                .iter()
                .filter(|c| !new_cards.iter().any(|n| n.key == c.key))
                .cloned()
                .collect();
            together.extend(new_cards.iter().cloned());
            check_clashes(&together, &roster, &mut problems);
            // Differences from stored cards.
            let mut fates = Vec::new();
            let mut outputs = Vec::new();
            for card in &new_cards {
                let text = card_csv(card, &roster);
                let path = self.card_path(&card.key);
                let fate = match std::fs::read(&path) {
                    Ok(old) if old == text => CardFate::Unchanged,
                    Ok(_) if replace => CardFate::Replaced,
                    Ok(old) => {
                        problems.error(
                            card.place.clone(),
                            format!(
                                "{} was imported before and differs:\n{}give --replace --reason \"...\" to replace it (the old card is kept in history/)",
                                card.key,
                                diff(&String::from_utf8_lossy(&old), &String::from_utf8_lossy(&text))
                            ),
                        );
                        CardFate::Unchanged
                    }
                    Err(_) => CardFate::New,
                };
                if fate != CardFate::Unchanged {
                    outputs.push((path, text));
                }
                fates.push((card.key.clone(), fate));
            }
            if problems.has_errors() {
                report.refused.push(name.clone());
                report.problems.extend(problems);
                report.files.push((name, Vec::new()));
                continue;
            }
            if fates.iter().any(|(_, f)| *f == CardFate::Replaced)
                && reason.is_none_or(|r| r.trim().is_empty())
            {
                return Err(FolderError::Refused(
                    "--replace needs --reason \"why the card is replaced\"".to_string(),
                ));
            }
            report.problems.extend(problems);
            let hash = sha256_hex(&bytes);
            let pending_path = self.dir.join(PENDING_FILE);
            if !outputs.is_empty() {
                let mut journal = format!("{hash}\n");
                for (path, _) in &outputs {
                    journal.push_str(&format!("{}\n", path.display()));
                }
                write_atomically(&pending_path, journal.as_bytes()).map_err(io(&pending_path))?;
            }
            for (path, text) in &outputs {
                if path.exists() {
                    let name = path
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    self.keep_in_history(path, &name)?;
                }
                write_atomically(path, text).map_err(io(path))?;
                written += 1;
                if stop == StopAfter::Cards(written) {
                    return Ok(report);
                }
            }
            let changed = fates
                .iter()
                .filter(|(_, f)| *f != CardFate::Unchanged)
                .count();
            let unlogged = self.unlogged();
            let action = if fates.iter().any(|(_, f)| *f == CardFate::Replaced) {
                "replace"
            } else if changed > 0 {
                "import"
            } else if new_cards
                .iter()
                .any(|c| unlogged.contains(&self.card_path(&c.key)))
            {
                // An import stopped before its log line: record it now.
                "recorded"
            } else {
                // The same cards again: a no-op, not even a log line.
                report.files.push((name, fates));
                continue;
            };
            let stages: Vec<String> = {
                let mut v: Vec<String> =
                    new_cards.iter().map(|c| c.key.stage.to_string()).collect();
                v.dedup();
                v
            };
            self.append_log(&[
                utc_now(),
                action.to_string(),
                name.clone(),
                hash.clone(),
                stages.join(" "),
                new_cards.len().to_string(),
                new_cards
                    .iter()
                    .map(|c| c.games.len())
                    .sum::<usize>()
                    .to_string(),
                reason.unwrap_or("").to_string(),
            ])?;
            if self.pending().is_some_and(|(h, _)| h == hash) {
                std::fs::remove_file(&pending_path).map_err(io(&pending_path))?;
            }
            current.retain(|c| !new_cards.iter().any(|n| n.key == c.key));
            current.extend(new_cards);
            report.files.push((name, fates));
        }
        Ok(report)
    }

    /// Cards the settings expect that are not stored (prelim sessions).
    pub fn missing(&self, cards: &[Card]) -> Vec<CardKey> {
        crate::event::missing_cards(
            cards,
            self.config.sessions.count,
            self.config.sessions.tables,
        )
    }

    /// Card files written by an import that stopped before its log line
    /// (named in the `.pending` journal it left).
    pub fn unlogged(&self) -> Vec<PathBuf> {
        self.pending()
            .map(|(_, paths)| paths.into_iter().filter(|p| p.exists()).collect())
            .unwrap_or_default()
    }

    /// The journal of an import under way: the source's hash and its card files.
    fn pending(&self) -> Option<(String, Vec<PathBuf>)> {
        let text = std::fs::read_to_string(self.dir.join(PENDING_FILE)).ok()?;
        let mut lines = text.lines();
        let hash = lines.next()?.to_string();
        Some((hash, lines.map(PathBuf::from).collect()))
    }
}

/// A card as stored: the results layout, players by roster id.
pub fn card_csv(card: &Card, roster: &Roster) -> Vec<u8> {
    let table = results_table(std::slice::from_ref(card), roster);
    crate::report::csv::Csv.export(&[table]).unwrap_or_default()
}

/// The roster as stored.
fn roster_csv(roster: &Roster) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record([
        "id",
        "name",
        "birth_date",
        "age",
        "family",
        "status",
        "group",
    ]);
    for (_, p) in roster.iter() {
        let status = match p.status {
            crate::roster::Status::Active => "",
            crate::roster::Status::Withdrawn => "withdrawn",
            crate::roster::Status::Disqualified => "disqualified",
        };
        let _ = w.write_record([
            p.id.as_str(),
            p.name.as_str(),
            p.birth_date.as_deref().unwrap_or(""),
            &p.age.map(|a| a.to_string()).unwrap_or_default(),
            p.family.as_deref().unwrap_or(""),
            status,
            p.group.as_deref().unwrap_or(""),
        ]);
    }
    w.into_inner().unwrap_or_default()
}

/// The lines that differ between two stored cards, `-` old and `+` new.
fn diff(old: &str, new: &str) -> String {
    let mut out = String::new();
    for line in old.lines().filter(|l| !new.lines().any(|n| n == *l)) {
        out.push_str(&format!("  - {line}\n"));
    }
    for line in new.lines().filter(|l| !old.lines().any(|o| o == *l)) {
        out.push_str(&format!("  + {line}\n"));
    }
    out
}
