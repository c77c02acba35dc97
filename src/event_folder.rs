//! An event folder: the settings a person edits beside a SQLite database
//! that holds what the desk stored.
//!
//! ```text
//! EVENT/
//!   tilerank.toml   settings (tilerank init; edited by hand)
//!   tilerank.db     roster, cards, replaced cards, import log, referees (SQLite)
//! ```
//!
//! Why a database: an import must go in whole or not at all, under a killed
//! process, a full disk, a read-only folder or two desks importing at once.
//! Transactions, locking and crash recovery are what SQLite does, and tests
//! harder than we could. Every command that writes is ONE transaction
//! (`BEGIN IMMEDIATE`): it commits everything it stored or nothing. There is
//! no journal of our own and nothing is ever "pending".
//!
//! Decisions:
//! - **Rollback journal** (`journal_mode = DELETE`, `synchronous = FULL`), not
//!   WAL: at rest the event is one file (copy it and you have all of it),
//!   reading works in a read-only folder (WAL needs to write its `-shm`
//!   file), and imports are short, so readers waiting for a commit is no
//!   cost. A killed import leaves `tilerank.db-journal`, which the next
//!   command rolls back before it reads.
//! - **A second writer waits**: the first attempt to take the write lock does
//!   not wait; when it is busy the caller is told (the command prints one
//!   line) and the attempt is repeated with a `busy_timeout` of
//!   [`WAIT_FOR_WRITER`]. The second import then reads the first one's cards
//!   inside its own transaction and checks against them.
//! - **Stored values are raw**: ids, names and card values are stored as read
//!   (never escaped for spreadsheets; escaping belongs to spreadsheet
//!   outputs only). A card is stored as the lines of the results layout it was
//!   checked into: the player by roster id, the score as its exact decimal
//!   (a pot shared by three: 6 decimals, which the checks take back to the
//!   exact third, see [`score_text`]).
//! - **Reading commands re-check** the stored cards under the current
//!   `tilerank.toml` and roster, as if they were a file `tilerank.db` with one
//!   sheet per card (`EVENT/tilerank.db[prelim-S01-T07]!F3`); `tilerank dump`
//!   writes that same card to `cards/prelim-S01-T07.csv`, so a place names
//!   the same cell there. The desk's messages name a stored card by where
//!   it came from instead (`imported from S07.xlsx[Table 03] on
//!   2026-03-14 22:31 UTC`, `entry::origin_said`), when that is known;
//!   a referee's phone by the card, game and seat.
//! - **Source folders**: a folder with `tilerank.toml` and no database, but a
//!   `roster.csv` and a `cards/` folder (the demo events in `examples/`, or an
//!   event folder of the old file layout), is read as those files, in memory,
//!   by the reading commands. Commands that write refuse it and say how to
//!   build a database event from it.
//!
//! The schema is [`MIGRATIONS`]; its version is `PRAGMA user_version`, and a
//! database of an older version is migrated in one transaction when opened.

use crate::config::{Config, ConfigError, FILE_NAME};
use crate::domain::{Card, CardKey, Label, Seat, SessionName, Stage};
use crate::event::{Event, Held, HeldTyping, Keep, Request};
use crate::ingest::cell::Cell;
use crate::ingest::raw::RawCard;
use crate::ingest::{self, InputError};
use crate::intake::Intake;
use crate::place::Source;
use crate::problem::said::{Msg, Part, Said};
use crate::problem::Problems;
use crate::profile::{ProfileName, Rules};
use crate::roster::Roster;
use crate::rules::card_checks::{
    check_card, check_values, checked_card, name_players, Checked, Seating,
};
use crate::score::Score;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

mod entry;
mod referees;
mod store;
pub use entry::{
    differences, entry_by_in, entry_source, entry_stage, source_in, Accept, BoardCard, BoardEntry,
    BoardTable, CardRow, Difference, Entered, EntryCheck, EntryProblem, Holder, Refusal, SeatName,
    TableState, ENTRY_MAX_BYTES, ROW_FIELDS,
};
pub use referees::{
    check_site_url, entry_link, Denied, Referee, RefereeKey, DEFAULT_SITE, KEY_LEN,
};
use store::{
    read_players, roster_fields, Origin, RosterPiece, StoredCard, StoredLine, StoredScore,
    ROSTER_HEADER,
};
pub use store::{LogEntry, Store, MIGRATIONS, WAIT_FOR_WRITER};

/// What a roster stored again changed against the roster stored before,
/// by player id, in roster order.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct RosterChanges {
    /// The same roster as stored: nothing was stored.
    pub same: bool,
    pub added: Vec<String>,
    pub removed: Vec<String>,
    /// Each player whose entry changed, with each field that did and its
    /// new value (blank when emptied).
    pub changed: Vec<(String, Vec<(&'static str, String)>)>,
}

impl RosterChanges {
    /// The changes from roster `before` to roster `after`.
    pub fn between(before: &Roster, after: &Roster) -> RosterChanges {
        let fields = |r: &Roster| -> HashMap<String, Vec<String>> {
            r.iter()
                .map(|(_, p)| (p.id.clone(), roster_fields(&p)))
                .collect()
        };
        let (old, new) = (fields(before), fields(after));
        let mut changes = RosterChanges::default();
        for (_, p) in after.iter() {
            match old.get(&p.id) {
                None => changes.added.push(p.id.clone()),
                Some(was) => {
                    let now = &new[&p.id];
                    let differ: Vec<(&'static str, String)> = ROSTER_HEADER
                        .iter()
                        .zip(was.iter().zip(now))
                        .filter(|(_, (a, b))| a != b)
                        .map(|(&field, (_, b))| (field, b.clone()))
                        .collect();
                    if !differ.is_empty() {
                        changes.changed.push((p.id.clone(), differ));
                    }
                }
            }
        }
        for (_, p) in before.iter() {
            if !new.contains_key(&p.id) {
                changes.removed.push(p.id.clone());
            }
        }
        changes
    }
}

/// The database file in the event folder.
pub const DB_FILE: &str = "tilerank.db";
/// The roster of a source folder, and of a dump.
pub const ROSTER_FILE: &str = "roster.csv";
/// The log of a dump (and of the old file layout).
pub const LOG_FILE: &str = "log.csv";
/// The cards of a source folder, and of a dump.
pub const CARDS_DIR: &str = "cards";
/// The tables double entries held back, in a dump (a record: an event
/// built again from the dump, or the dump read as an event, holds none
/// back).
pub const HELD_FILE: &str = "held.csv";

#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    // transparent: said once, not again as its own cause
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Input(#[from] InputError),
    #[error("{path}: {reason}")]
    Io { path: String, reason: String },
    #[error("{0}")]
    Refused(String),
    #[error("{path}: {reason}")]
    Database { path: String, reason: String },
    /// Cards checked or imported into an event with no roster stored.
    #[error("no roster in {dir}: store one first with `tilerank roster FILE`")]
    NoRoster { dir: String },
    /// Another process held the database longer than this one waits.
    #[error("{path}: another tilerank kept this event busy longer than this one waits (a writer up to 10 minutes, a reader 1 minute): nothing of this command was stored; try again")]
    Busy { path: String },
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

/// The SHA-256 of `bytes`, as lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    ingest::hashes::hex(&Sha256::digest(bytes))
}

/// Where an event's data is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    /// `tilerank.db`.
    Database,
    /// No database: `roster.csv` and `cards/` beside `tilerank.toml`, read
    /// as they are (a demo event, or the old file layout).
    Files,
}

/// The event folder.
#[derive(Debug)]
pub struct EventFolder {
    pub dir: PathBuf,
    pub config: Config,
    pub storage: Storage,
}

/// One card's fate in an import.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardFate {
    New,
    Unchanged,
    Replaced,
    /// Not stored: the desk's typing differs from the card a referee
    /// entered at the table, and is kept for the director's board beside
    /// it (the file's other cards go in).
    Held,
    /// Not stored: a double entry (`import --second-entry`) whose two
    /// typings of it differ held it back, and the event records the table
    /// typed twice (a card the event held of it stays meanwhile).
    TypedTwice,
}

/// What an import did, file by file.
#[derive(Debug, Default)]
pub struct ImportReport {
    pub problems: Problems,
    /// Per file: its name, and each card with its fate (empty when refused).
    pub files: Vec<(String, Vec<(CardKey, CardFate)>)>,
    pub refused: Vec<String>,
    /// The cards that differ from the event's card of their key (and were
    /// not replaced): each is also an error in `problems`.
    pub conflicts: Vec<CardKey>,
    /// The tables in conflict settled for the event's card, given again
    /// the same with `--replace`.
    pub settled: Vec<CardKey>,
}

/// A score as text that [`Score::parse`] reads back: the exact decimal
/// (every score read from a file has one), else, for a pot shared by three
/// (`41/3`), 6 decimals (`13.666667`), which the checks take back to the
/// exact third as they do a spreadsheet's rounded value (a game's scores are
/// whole, halves or thirds).
pub fn score_text(score: &Score) -> String {
    let (n, d) = (i128::from(score.numer()), i128::from(score.denom()));
    let scale: i128 = 1_000_000;
    // rounded half away from zero
    let scaled = (2 * n * scale + d * (n.signum())) / (2 * d);
    let sign = if scaled < 0 { "-" } else { "" };
    let abs = scaled.unsigned_abs();
    let unit = scale as u128;
    let frac = format!("{:06}", abs % unit);
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        format!("{sign}{}", abs / unit)
    } else {
        format!("{sign}{}.{frac}", abs / unit)
    }
}

/// The results-layout header of a stored card.
const CARD_HEADER: [&str; 9] = [
    "stage", "session", "table", "game", "seat", "player", "won", "score", "tiles",
];

fn card_lines(card: &Card, roster: &Roster) -> Vec<StoredLine> {
    card.games
        .iter()
        .flat_map(|g| {
            g.results.iter().map(move |r| StoredLine {
                game: g.number,
                seat: r.seat,
                player: roster.id(r.player).to_string(),
                won: r.won,
                score: StoredScore::Exact(r.score),
                tiles: r.tiles,
            })
        })
        .collect()
}

/// A stored line as the fields of a results-layout CSV line.
fn line_fields(key: &CardKey, l: &StoredLine) -> [String; 9] {
    [
        key.stage.to_string(),
        SessionName(&key.session).to_string(),
        key.table.to_string(),
        l.game.to_string(),
        l.seat.to_string(),
        l.player.clone(),
        u8::from(l.won).to_string(),
        l.score.text(),
        l.tiles.map(|t| t.to_string()).unwrap_or_default(),
    ]
}

/// Fields as one CSV line, values as they are (never escaped for
/// spreadsheets). A field is quoted when CSV needs it, and also when it
/// holds a tab, a `;` or spaces at its ends, so that the delimiter sniffing
/// and trimming of our own reader give it back unchanged.
fn csv_line<I: IntoIterator<Item = S>, S: AsRef<str>>(fields: I) -> String {
    let mut line = String::new();
    for (i, field) in fields.into_iter().enumerate() {
        let f = field.as_ref();
        if i > 0 {
            line.push(',');
        }
        let quote = f.contains([',', '"', '\r', '\n', '\t', ';'])
            || f.starts_with(char::is_whitespace)
            || f.ends_with(char::is_whitespace);
        if quote {
            line.push('"');
            line.push_str(&f.replace('"', "\"\""));
            line.push('"');
        } else {
            line.push_str(f);
        }
    }
    line
}

/// One file as an import reads it: its name as shown, its bytes (hashed
/// into the log), its cards, and the problems reading them found.
pub struct ReadFile {
    pub name: String,
    /// The SHA-256 of the file's bytes, as the import log records it.
    pub sha256: String,
    pub cards: Vec<RawCard>,
    pub problems: Problems,
}

/// A card file to import: read already (a double entry's agreed cards), or
/// to be read in the import.
enum ToImport {
    Read(ReadFile),
    File(PathBuf),
}

impl ToImport {
    /// The file's name as shown.
    fn name(&self) -> String {
        match self {
            ToImport::Read(r) => r.name.clone(),
            ToImport::File(path) => ingest::shown(path),
        }
    }
}

/// The files of an import that give a table another of its files gives,
/// and the errors that say so (each at the second card, naming the first):
/// every file of them is refused, as `check` rejects every card of a table
/// given twice. They are found once every file was read, and the import
/// is then taken again from the start with them refused: nothing of them
/// is written (a rare second pass: two files of one table is an error).
struct Twice {
    files: HashSet<String>,
    said: Problems,
}

/// Whether a card that differs from the event's card of its key replaces
/// it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Replace<'a> {
    No,
    Yes,
    /// Only the card this referee entered, while the table is not settled
    /// (asked inside the import's transaction).
    OwnEntry(&'a str),
}

/// How an import takes its files.
#[derive(Clone, Copy)]
struct How<'a> {
    /// Replaces the cards' own stage.
    stage: Option<&'a str>,
    /// Whether a card that differs from the stored one replaces it.
    replace: Replace<'a>,
    /// Why (the log keeps it).
    reason: Option<&'a str>,
    /// Everything checked as an import would, nothing kept.
    trial: bool,
    /// The desk's typing (not a referee's entry): a card it types the same
    /// as a referee entered is confirmed, and the referee can no longer
    /// change it.
    desk: bool,
}

impl<'a> How<'a> {
    fn import(stage: Option<&'a str>, replace: bool, reason: Option<&'a str>) -> How<'a> {
        How {
            stage,
            replace: if replace { Replace::Yes } else { Replace::No },
            reason,
            trial: false,
            desk: true,
        }
    }
}

/// One file of an import, as its cards come: each checked, named, compared
/// with the stored card of its key, and written to the store when it is new
/// or replaces one; what the checks across cards need is kept (the seating
/// and keys), not the cards.
/// The stored cards' rows, by key (a million players: a quarter of a
/// million cards, hashed quickly).
type StoredIds = HashMap<CardKey, i64, foldhash::fast::RandomState>;

struct FileImport<'a> {
    rules: &'a Rules,
    roster: &'a mut Roster,
    store: &'a Store,
    /// The stored cards' rows, by key.
    by_key: &'a StoredIds,
    /// The log row the file's cards point to (written after them).
    log: i64,
    replace: Replace<'a>,
    problems: Problems,
    /// Each card that differs from the stored one (said after the checks
    /// across cards, as it always was).
    differs: Problems,
    /// Each card that differs from a referee's entry of its table: said
    /// as `differs` is, but it refuses only itself (it waits for the
    /// director's board; the file's other cards go in).
    held: Problems,
    /// Those cards' keys and lines.
    conflicts: Vec<(CardKey, Vec<StoredLine>)>,
    /// The cards given again the same with `--replace` whose table is in
    /// conflict: who entered the versions that differ (they are set aside,
    /// the event's card stands).
    settles: Vec<(CardKey, Vec<String>)>,
    /// The desk's typing, in an event where referees entered cards: a card
    /// that differs from a referee's is kept for the director's board.
    beside_entries: bool,
    seating: Seating,
    keys: HashSet<CardKey, foldhash::fast::RandomState>,
    fates: Vec<(CardKey, CardFate)>,
    /// The rows written, by key.
    new_ids: Vec<(CardKey, i64)>,
    /// The cards' stages, each once in a row.
    stages: Vec<String>,
    /// The games of the cards written (new or replacing one).
    games: usize,
    /// Cards written: new or replacing one.
    outputs: usize,
    /// The file is refused whatever comes (a table given twice): nothing
    /// more is written.
    doomed: bool,
    /// The file gives a table another file of the import gives too: it is
    /// refused, its cards checked on their own and compared with nothing
    /// stored (see [`Twice`]).
    barred: bool,
    /// The stored cards are named by where they came from (the desk's
    /// import); not to a referee's phone, never shown the server's files.
    origins: bool,
    /// The store failed.
    failed: Option<FolderError>,
}

impl<'a> FileImport<'a> {
    fn new(
        rules: &'a Rules,
        roster: &'a mut Roster,
        store: &'a Store,
        by_key: &'a StoredIds,
        log: i64,
        replace: Replace<'a>,
        beside_entries: bool,
    ) -> FileImport<'a> {
        FileImport {
            rules,
            roster,
            store,
            by_key,
            log,
            replace,
            problems: Problems::new(),
            differs: Problems::new(),
            held: Problems::new(),
            conflicts: Vec::new(),
            settles: Vec::new(),
            beside_entries,
            seating: Seating::default(),
            keys: HashSet::default(),
            fates: Vec::new(),
            new_ids: Vec::new(),
            stages: Vec::new(),
            games: 0,
            outputs: 0,
            doomed: false,
            barred: false,
            origins: false,
            failed: None,
        }
    }

    /// Cards read whole, the ordinary way: each is done with once checked.
    fn add_raw<'r>(&mut self, raw: impl IntoIterator<Item = &'r RawCard>) {
        for raw in raw {
            match check_card(raw, self.rules, self.roster, &mut self.problems) {
                Ok(card) => self.accept(card),
                Err(refused) => self.refuse(&refused.card, &raw.source, &refused.players),
            }
        }
    }

    /// A card its own checks refused (the file is refused with it): seated
    /// for the checks across cards, so that a table given twice is said
    /// now, not once its errors are mended.
    fn refuse(
        &mut self,
        card: &Checked,
        source: &Source,
        players: &[Option<crate::domain::PlayerId>; 4],
    ) {
        self.seating.add_refused(card, source, players);
        if !self.keys.insert(card.key.clone()) {
            self.doomed = true;
        }
    }

    /// A card that passed its checks.
    fn accept(&mut self, card: Card) {
        self.seating.add_card(&card);
        if !self.keys.insert(card.key.clone()) {
            // a table given twice: refused by the checks across cards
            self.doomed = true;
        }
        let stage = card.key.stage.to_string();
        if self.stages.last() != Some(&stage) {
            self.stages.push(stage);
        }
        if self.barred {
            // (refused with the table given twice: neither compared with
            // the stored card nor written)
            self.doomed = true;
            return;
        }
        let old = match self.by_key.get(&card.key) {
            Some(&id) => match self.store.card(id, &card.key) {
                Ok(old) => Some(old),
                Err(e) => {
                    self.failed.get_or_insert(e);
                    return;
                }
            },
            None => None,
        };
        // (a card's lines are made here to compare with a card of its key
        // stored before, and to be stored)
        let lines = card_lines(&card, self.roster);
        let fate = match &old {
            None => match self.waiting_differs(&card.key, &lines) {
                // double entry: the desk's typing differs from a referee's
                Some((referee, entered)) => {
                    self.differ(&card, Some(referee), &entered, &lines, None)
                }
                None => CardFate::New,
            },
            Some(old) if old.lines == lines => {
                if self.replace == Replace::Yes && self.beside_entries {
                    self.in_conflict(&card.key, &lines);
                }
                CardFate::Unchanged
            }
            Some(_) if self.replaces(&card.key) => CardFate::Replaced,
            Some(old) => {
                let by = if self.beside_entries {
                    match self.store.entered_by(&card.key) {
                        Ok(by) => by,
                        Err(e) => {
                            self.failed.get_or_insert(e);
                            None
                        }
                    }
                } else {
                    None
                };
                self.differ(&card, by, &old.lines, &lines, Some(old.id))
            }
        };
        if !matches!(fate, CardFate::Unchanged | CardFate::Held) {
            self.outputs += 1;
            self.games += card.games.len();
            let refused = self.doomed
                || self.failed.is_some()
                || self.problems.has_errors()
                || self.differs.has_errors();
            if !refused {
                if let Err(e) = self.write(&card, old.map(|o| o.id), &lines) {
                    self.failed = Some(e);
                }
            }
        }
        self.fates.push((card.key, fate));
    }

    /// Refuses `card`, typed as `lines`, for differing from the event's
    /// version of it (`was`), which `referee` entered at the table; its
    /// fate. The desk's typing of a referee's card is held for the board
    /// (the rest of the file goes in); else the whole file is refused.
    fn differ(
        &mut self,
        card: &Card,
        referee: Option<String>,
        was: &[StoredLine],
        lines: &[StoredLine],
        was_id: Option<i64>,
    ) -> CardFate {
        let key = &card.key;
        let held = referee.is_some();
        // (the desk's typing is held beside a referee's at the desk only;
        // a referee whose card differs is told to tell the desk)
        let (differs, advice) = match referee {
            Some(referee) => (
                Said::new(
                    Msg::EnteredDiffers,
                    [key.said(), Part::Text(referee), diff(key, was, lines)],
                ),
                Part::said(Msg::KeptForBoard, []),
            ),
            None => (
                said_imported_differs(key, self.origin_of(was_id), was, lines),
                Part::advice(
                    match shares_a_player(was, lines) {
                        true => Said::new(Msg::GiveReplace, []),
                        false => Said::new(Msg::NoPlayerShared, []),
                    },
                    Said::new(Msg::DiffersAtTable, []),
                ),
            ),
        };
        let said = if held {
            &mut self.held
        } else {
            &mut self.differs
        };
        said.error(
            card.place.clone(),
            Said::new(Msg::WithAdvice, [Part::Said(differs), advice]),
        );
        self.conflicts.push((key.clone(), lines.to_vec()));
        if held {
            CardFate::Held
        } else {
            CardFate::Unchanged
        }
    }

    /// Where the stored card of row `id` came from
    /// ([`Store::card_origin_of`]), when the stored cards are named so.
    fn origin_of(&mut self, id: Option<i64>) -> Option<Said> {
        if !self.origins {
            return None;
        }
        match self.store.card_origin_of(id?) {
            Ok(origin) => origin,
            Err(e) => {
                self.failed.get_or_insert(e);
                None
            }
        }
    }

    /// Double entry: the first referee whose entry of `key`, waiting for
    /// the desk, differs from the desk's typing `lines`, with the entry's
    /// lines. (Until the two agree, or the director decides on the board,
    /// the card does not count.)
    fn waiting_differs(
        &mut self,
        key: &CardKey,
        lines: &[StoredLine],
    ) -> Option<(String, Vec<StoredLine>)> {
        // (`--replace` puts the desk's typing in, as over a referee's card
        // under single entry)
        let replacing = matches!(self.replace, Replace::Yes);
        if replacing || !(self.beside_entries && self.rules.double_entry) {
            return None;
        }
        let waiting = match self.store.waiting_entries(key) {
            Ok(waiting) => waiting,
            Err(e) => {
                self.failed.get_or_insert(e);
                return None;
            }
        };
        waiting.into_iter().find_map(|(referee, body)| {
            // (an entry that no longer passes the checks is the board's
            // to show; it is not compared)
            let entered = entry::entry_lines(&body, &referee, self.rules, Some(self.roster))?;
            (entered != lines).then_some((referee, entered))
        })
    }

    /// `--replace` gives the event's card of `key` again, the same
    /// (`lines`): when entries of the table since it was last decided
    /// differ from it (the table is in conflict), it is to be settled for
    /// the event's card.
    fn in_conflict(&mut self, key: &CardKey, lines: &[StoredLine]) {
        let entries = match self.store.undecided_entries(key) {
            Ok(entries) => entries,
            Err(e) => {
                self.failed.get_or_insert(e);
                return;
            }
        };
        let differ: Vec<String> = entries
            .into_iter()
            .filter(|(referee, body)| {
                entry::entry_lines(body, referee, self.rules, Some(self.roster)).as_deref()
                    != Some(lines)
            })
            .map(|(referee, _)| entry::entry_source(&referee))
            .collect();
        if !differ.is_empty() {
            self.settles.push((key.clone(), differ));
        }
    }

    /// Whether a card of `key` that differs from the stored one replaces it.
    fn replaces(&mut self, key: &CardKey) -> bool {
        match self.replace {
            Replace::No => false,
            Replace::Yes => true,
            Replace::OwnEntry(referee) => match self.store.entered_by(key) {
                Ok(by) => by.as_deref() == Some(referee),
                Err(e) => {
                    self.failed.get_or_insert(e);
                    false
                }
            },
        }
    }

    /// Stores `card`, replacing the stored card of row `old`.
    fn write(
        &mut self,
        card: &Card,
        old: Option<i64>,
        lines: &[StoredLine],
    ) -> Result<(), FolderError> {
        if let Some(old) = old {
            self.store.replace_card(old, self.log)?;
        }
        let source = card.place.source.to_string();
        let id = self
            .store
            .insert_card(self.log, &card.key, &source, lines)?;
        self.new_ids.push((card.key.clone(), id));
        Ok(())
    }
}

impl crate::stream::Take for FileImport<'_> {
    fn rules(&self) -> &Rules {
        self.rules
    }
    fn keeps_cards(&self) -> bool {
        true
    }
    fn hasher(&self) -> crate::roster::NameHasher {
        self.roster.hasher()
    }
    fn problems(&mut self) -> &mut Problems {
        &mut self.problems
    }
    fn warm(&self, hashes: &[u64; 4]) {
        for &h in hashes {
            self.roster.warm(h);
        }
    }
    fn add_checked(&mut self, source: &Source, card: &Checked, hashes: Option<&[u64; 4]>) {
        match (
            &card.values,
            name_players(card, source, hashes, self.roster, &mut self.problems),
        ) {
            (Some(values), Ok(players)) => {
                self.accept(checked_card(card, source, values, &players))
            }
            (_, Ok(players) | Err(players)) => self.refuse(card, source, &players),
        }
    }
}

/// Why a folder is no event folder ([`EventFolder::why_not`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotEvent {
    /// It has no `tilerank.toml`.
    Missing,
    /// Its `tilerank.toml` is something else than a file: what, in words
    /// (`a folder, not a file`, `a symbolic link to /dev/zero, a device,
    /// not a file`).
    NotAFile(String),
}

impl NotEvent {
    /// `{dir}: not an event folder …`, with what to do: `init` creates
    /// the settings of a folder without them (`or` what else to do).
    pub fn said(&self, dir: &Path, or: &str) -> String {
        match self {
            NotEvent::Missing => format!(
                "{}: not an event folder (no {FILE_NAME}); create one with tilerank init{or}",
                dir.display()
            ),
            NotEvent::NotAFile(what) => format!(
                "{}: not an event folder: its {FILE_NAME} is {what}; make it the event's settings file (a symbolic link to a file is followed)",
                dir.display()
            ),
        }
    }
}

impl EventFolder {
    /// The event folder at `dir`, or in the current folder.
    pub fn find(dir: Option<&Path>) -> Option<PathBuf> {
        let dir = dir
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        dir.join(FILE_NAME).is_file().then_some(dir)
    }

    /// Why `dir` is no event folder, when [`EventFolder::find`] finds
    /// none: it has no `tilerank.toml`, or its `tilerank.toml` is no file
    /// (a symbolic link is followed, and one to a file is the settings).
    pub fn why_not(dir: &Path) -> NotEvent {
        let path = dir.join(FILE_NAME);
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            return NotEvent::Missing;
        };
        if let Some(link) = ingest::broken_link(&path) {
            return NotEvent::NotAFile(link.to_string());
        }
        let kind = |meta: &std::fs::Metadata| {
            let t = meta.file_type();
            if t.is_dir() {
                return "a folder";
            }
            #[cfg(unix)]
            {
                use std::os::unix::fs::FileTypeExt;
                if t.is_char_device() || t.is_block_device() {
                    return "a device";
                }
                if t.is_fifo() {
                    return "a pipe";
                }
                if t.is_socket() {
                    return "a socket";
                }
            }
            "not a regular file"
        };
        if !meta.file_type().is_symlink() {
            return NotEvent::NotAFile(format!("{}, not a file", kind(&meta)));
        }
        let target = std::fs::read_link(&path).unwrap_or_default();
        match std::fs::metadata(&path) {
            Ok(meta) => NotEvent::NotAFile(format!(
                "a symbolic link to {}, {}, not a file",
                target.display(),
                kind(&meta)
            )),
            Err(e) => NotEvent::NotAFile(format!(
                "a symbolic link to {}, which cannot be followed: {e}",
                target.display()
            )),
        }
    }

    /// Creates the folder, its `tilerank.toml` and its database; refuses an
    /// existing event.
    pub fn init(
        dir: &Path,
        profile: ProfileName,
        name: &str,
        date: Option<&str>,
    ) -> Result<EventFolder, FolderError> {
        EventFolder::init_with(dir, &profile.rules(), name, date)
    }

    /// [`EventFolder::init`] with rules of the director's own (a rules
    /// file): `tilerank.toml` starts from them, every setting written.
    pub fn init_with(
        dir: &Path,
        rules: &Rules,
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
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        // The database first: a folder with settings but no database takes
        // one on its first write anyway.
        Store::open(&dir.join(DB_FILE), true)?;
        crate::report::output::write_atomically(
            &toml,
            Config::template_of(rules, rules.profile, name, date).as_bytes(),
        )
        .map_err(io(&toml))?;
        EventFolder::open(dir)
    }

    pub fn open(dir: &Path) -> Result<EventFolder, FolderError> {
        let config = Config::load(&dir.join(FILE_NAME))?;
        // (a report of this run is never written over them)
        crate::report::output::note_event(dir);
        let storage = if dir.join(DB_FILE).exists() {
            Storage::Database
        } else {
            Storage::Files
        };
        Ok(EventFolder {
            dir: dir.to_path_buf(),
            config,
            storage,
        })
    }

    pub fn rules(&self) -> Rules {
        // Checked when loaded.
        self.config.rules()
    }

    pub fn db_path(&self) -> PathBuf {
        self.dir.join(DB_FILE)
    }

    /// The roster file of a source folder (`None` for a database event).
    pub fn roster_path(&self) -> PathBuf {
        self.dir.join(ROSTER_FILE)
    }

    /// Opens the database for a command that writes. A folder with settings
    /// only gets one; a source folder is refused.
    fn writer(&self) -> Result<Store, FolderError> {
        if self.storage == Storage::Database {
            return Store::open(&self.db_path(), false);
        }
        let sources: Vec<&str> = [ROSTER_FILE, CARDS_DIR, LOG_FILE]
            .into_iter()
            .filter(|f| self.dir.join(f).exists())
            .collect();
        if sources.is_empty() {
            return Store::open(&self.db_path(), true);
        }
        Err(FolderError::Refused(self.convert_message(&sources)))
    }

    /// How to build a database event from a source folder.
    pub fn convert_message(&self, found: &[&str]) -> String {
        let d = self.dir.display();
        format!(
            "{d} holds its event as files ({}) and no {DB_FILE}: it is read as it is, and tilerank does not write into it. To store it in a database event, build one beside it:\n  mkdir NEW && cp {d}/{FILE_NAME} NEW/\n  tilerank roster {d}/{ROSTER_FILE} --event NEW\n  tilerank import {d}/{CARDS_DIR} --event NEW",
            found.join(", ")
        )
    }

    /// Opens the database to read it (`None` for a source folder).
    fn reader(&self) -> Result<Option<Store>, FolderError> {
        match self.storage {
            Storage::Database => Store::open(&self.db_path(), false).map(Some),
            Storage::Files => Ok(None),
        }
    }

    /// Loads the event: settings, stored roster and cards (or the source
    /// folder's files), and `extra` inputs; `roster` replaces the event's.
    pub fn load(&self, extra: &[PathBuf], roster: Option<PathBuf>) -> Result<Event, FolderError> {
        self.load_with(extra, roster, &self.rules())
    }

    /// [`EventFolder::load`] under `rules` (the settings with the command
    /// line's overrides).
    pub fn load_with(
        &self,
        extra: &[PathBuf],
        roster: Option<PathBuf>,
        rules: &Rules,
    ) -> Result<Event, FolderError> {
        self.load_keeping(extra, roster, rules, Keep::Cards)
    }

    /// As [`EventFolder::load_with`], keeping `keep` of the cards of a
    /// folder read as files.
    pub fn load_keeping(
        &self,
        extra: &[PathBuf],
        roster: Option<PathBuf>,
        rules: &Rules,
        keep: Keep,
    ) -> Result<Event, FolderError> {
        let Some(store) = self.reader()? else {
            let mut inputs = Vec::new();
            let cards = self.dir.join(CARDS_DIR);
            if cards.is_dir() && ingest::expand(std::slice::from_ref(&cards)).is_ok() {
                inputs.push(cards);
            }
            inputs.extend(extra.iter().cloned());
            let roster = roster.or_else(|| Some(self.roster_path()).filter(|p| p.is_file()));
            let mut event = Event::load(&Request {
                keep,
                inputs,
                roster,
                rules: rules.clone(),
            })?;
            // a dump's tables still held back by double entry: held back
            // here too, as in the event it was dumped from (with no
            // referee's entry, what its board holds back)
            event.typed_twice = self.held_in_files()?;
            event.held = (event.typed_twice.iter())
                .map(|h| (h.key.clone(), Held::TypedTwice))
                .collect();
            return Ok(event);
        };
        // One read transaction: every card of one committed state, read a
        // card at a time into the one intake (and again, should cards
        // clash: the second pass leaves them out of the sums).
        let read = store.begin_read()?;
        let mut problems = Problems::new();
        // the stored roster is read into the first pass's intake, beside
        // its cards (see read_stored)
        let stored_roster = match &roster {
            Some(_) => store.roster().map(|_| None)?,
            None => store.roster_log()?,
        };
        let given = roster.is_some();
        let roster = match roster {
            Some(path) => Some(ingest::roster::read(&path, &mut problems)?),
            None => stored_roster.map(|_| Roster::default()),
        };
        let more = if extra.is_empty() {
            None
        } else {
            let mut more = ingest::read_cards(extra, &mut problems)?;
            more.set_stage(None, &rules.stages, &mut problems);
            // (the stored roster is read with the stored cards, below)
            let given = roster.as_ref().filter(|_| given);
            set_aside_imported(&store, &mut more, given, rules, &mut problems)?;
            Some(more)
        };
        let mut event = stored_event(&store, rules, keep, roster, stored_roster, more, problems)?;
        // (the tables a double entry held back, with their two typings)
        event.typed_twice = store.typed_twice()?;
        read.commit().map_err(|e| store.error(e))?;
        // what the live desk's board holds back: the answers wait for it
        event.held = (self.held_back()?.into_iter())
            .filter_map(|t| match t.state {
                TableState::Conflict => Some((t.key, Held::Conflict)),
                TableState::Waiting => Some((t.key, Held::Waiting)),
                TableState::TypedTwice => Some((t.key, Held::TypedTwice)),
                TableState::Missing | TableState::In => None,
            })
            .collect();
        Ok(event)
    }

    /// The tables still held back by double entry that a folder read as
    /// files names in its held.csv (a dump writes it; rows marked `yes` in
    /// its `held` column), with their two typings; none without the file.
    fn held_in_files(&self) -> Result<Vec<HeldTyping>, FolderError> {
        let path = self.dir.join(HELD_FILE);
        if !path.is_file() {
            return Ok(Vec::new());
        }
        let shown = path.display().to_string();
        // (read a record at a time: the file is the tool's, but may be
        // anything)
        let file = std::fs::File::open(&path).map_err(io(&path))?;
        let mut reader = csv::ReaderBuilder::new()
            .flexible(true)
            .from_reader(std::io::BufReader::new(file));
        let header = reader.headers().map_err(|e| FolderError::Io {
            path: shown.clone(),
            reason: e.to_string(),
        })?;
        const COLUMNS: [&str; 7] = [
            "stage", "session", "table", "first", "second", "differ", "held",
        ];
        let at: Vec<Option<usize>> = COLUMNS
            .iter()
            .map(|c| header.iter().position(|h| h.trim() == *c))
            .collect();
        let Some(at) = at.into_iter().collect::<Option<Vec<usize>>>() else {
            return Err(FolderError::Refused(format!(
                "{shown}: expected the columns {}, as tilerank dump writes them",
                COLUMNS.join(", ")
            )));
        };
        let mut held = Vec::new();
        for row in reader.records() {
            let row = row.map_err(|e| FolderError::Io {
                path: shown.clone(),
                reason: e.to_string(),
            })?;
            let line = row.position().map_or(0, |p| p.line());
            let field = |k: usize| row.get(at[k]).unwrap_or_default().trim();
            if !field(6).eq_ignore_ascii_case("yes") {
                continue;
            }
            let differ = field(5).parse::<usize>().map_err(|_| {
                FolderError::Refused(format!(
                    "{shown}:{line}: differ is \"{}\"; expected a whole number (the values that differ)",
                    field(5)
                ))
            })?;
            held.push(HeldTyping {
                key: store::stored_key(field(0), field(1), field(2)),
                first: field(3).to_string(),
                second: field(4).to_string(),
                differ,
            });
        }
        Ok(held)
    }

    /// Checks a roster and stores it (the roster stored before is kept).
    /// Returns the problems; nothing is stored when any is an error.
    pub fn store_roster(
        &self,
        source: &Path,
        rules: &Rules,
        on_wait: &mut dyn FnMut(),
    ) -> Result<(Problems, usize), FolderError> {
        let (problems, players, _) = self.store_roster_changes(source, rules, on_wait)?;
        Ok((problems, players))
    }

    /// [`EventFolder::store_roster`], with what it changed against the
    /// roster stored before (`None` when none was; when the roster has
    /// errors, not yet compared).
    pub fn store_roster_changes(
        &self,
        source: &Path,
        rules: &Rules,
        on_wait: &mut dyn FnMut(),
    ) -> Result<(Problems, usize, Option<RosterChanges>), FolderError> {
        let mut problems = Problems::new();
        // (the log keeps the hash of the bytes read)
        let hashes = ingest::hashes::ReadHashes::keep();
        let roster = ingest::roster::read(&source.to_path_buf(), &mut problems)?;
        let sha256 = hashes.of(source).unwrap_or_default();
        drop(hashes);
        crate::rules::roster_checks::check_roster(
            &roster,
            rules,
            self.config.event.date.as_deref(),
            &mut problems,
        );
        if problems.has_errors() {
            // the roster's own errors, and with them the players who have
            // played and are missing from it: every error in one run
            // (nothing to compare with when the roster could not be read,
            // or no roster was found in the file)
            if !roster.is_open() && !roster.is_empty() {
                if let Some(store) = self.reader()? {
                    let read = store.begin_read()?;
                    let (lacking, _) = played_not_on(&store, rules, &roster)?;
                    read.commit().map_err(|e| store.error(e))?;
                    say_played_not_on(source, &lacking, &mut problems);
                }
            }
            return Ok((problems, roster.len(), None));
        }
        let store = self.writer()?;
        let tx = store.begin_write(on_wait)?;
        // the same roster again: nothing to store (compared entry by entry,
        // neither held as text)
        let stored = store.roster()?;
        let same = match &stored {
            Some(stored) => {
                stored.len() == roster.len()
                    && stored
                        .iter()
                        .zip(roster.iter())
                        .all(|((_, a), (_, b))| roster_fields(&a) == roster_fields(&b))
            }
            None => roster.is_empty(),
        };
        let mut changes = stored.map(|s| RosterChanges::between(&s, &roster));
        if same {
            if let Some(c) = &mut changes {
                c.same = true;
            }
            return Ok((problems, roster.len(), changes));
        }
        let (lacking, later) = played_not_on(&store, rules, &roster)?;
        if !lacking.is_empty() {
            say_played_not_on(source, &lacking, &mut problems);
            return Ok((problems, roster.len(), None));
        }
        // A roster that changes who went on to a later stage whose cards
        // are stored (a status or a birth date changed after that stage
        // was seated and played from the list before) is refused, as an
        // import or a remove that changes it is.
        let before = match later {
            true => Some(went_on_stored(&store, rules)?),
            false => None,
        };
        let log = store.append_log(&LogEntry {
            time: utc_now(),
            action: "roster".into(),
            file: ingest::shown(source),
            sha256,
            stage: String::new(),
            cards: roster.len() as i64,
            games: 0,
            reason: String::new(),
        })?;
        store.insert_roster(log, &roster)?;
        if let Some(before) = before {
            if let Some((moved, instead)) = moved_off(&store, rules, &before)? {
                problems.error(
                    Source::file(&ingest::shown(source)).whole(),
                    format!(
                        "with this roster, who went on changes, and {moved} would no longer have gone on{instead}: nothing stored (the later stage was played by the list before; keep the roster as it was for the players who went on)"
                    ),
                );
                // (the transaction is dropped, not committed: nothing stored)
                return Ok((problems, roster.len(), None));
            }
            // Nobody moved off, but the list grew: a player now goes on
            // to a stage played without them (a withdrawn player marked
            // as playing again, the cutoff's tie then one longer). The
            // stage would wait for a card that was never played; one who
            // went on and did not play is named absent instead.
            let grown = went_on_anew(&store, rules, &before.1)?;
            if !grown.is_empty() {
                let (now, absent) = said_went_on_anew(&grown);
                problems.error(
                    Source::file(&ingest::shown(source)).whole(),
                    format!(
                        "with this roster, who went on changes, and {now}, with no card there: nothing stored (the later stage was played by the list before; keep the roster as it was for the players who went on, or, if they went on and did not play, first add {absent} in {FILE_NAME}, then store this roster)"
                    ),
                );
                return Ok((problems, roster.len(), None));
            }
        }
        tx.commit().map_err(|e| store.error(e))?;
        Ok((problems, roster.len(), changes))
    }

    /// The log, oldest first, as rows of its columns.
    pub fn log(&self) -> Result<Vec<BTreeMap<String, String>>, FolderError> {
        Ok(self
            .log_entries()?
            .iter()
            .map(|e| {
                LogEntry::COLUMNS
                    .iter()
                    .map(|c| c.to_string())
                    .zip(e.fields())
                    .collect()
            })
            .collect())
    }

    /// The log table, oldest first (empty for a source folder): the
    /// import log, with the live desk's entries and decisions in time
    /// order among its rows.
    pub fn log_entries(&self) -> Result<Vec<LogEntry>, FolderError> {
        match self.reader()? {
            Some(store) => store.log_with_desk(&self.rules()),
            None => Ok(Vec::new()),
        }
    }

    /// Imports card files in one transaction: each file whole, or nothing
    /// from it; nothing at all when the command fails or is stopped.
    pub fn import(
        &self,
        files: &[PathBuf],
        stage: Option<&str>,
        replace: bool,
        reason: Option<&str>,
        on_wait: &mut dyn FnMut(),
    ) -> Result<ImportReport, FolderError> {
        let _replay = ingest::once::Replay::keep();
        let files = self.to_read(files)?;
        let store = self.writer()?;
        self.store_read(
            &store,
            files,
            &How::import(stage, replace, reason),
            on_wait,
            &mut |_, _| Ok(()),
        )
    }

    /// Imports cards already read (a double entry's agreed cards, under the
    /// name and bytes of the file they were typed in), as
    /// [`EventFolder::import`] does, and records in the same transaction
    /// the tables `held` back because the two typings differ: each file's
    /// fates end with its cards held back ([`CardFate::TypedTwice`]), a
    /// file all of whose cards were held back has a line of them, but for
    /// the files the caller `refused`: those come first, refused (in
    /// `ImportReport::refused`, with no fates), as a plain import's.
    pub fn import_read(
        &self,
        read: Vec<ReadFile>,
        held: &[HeldTyping],
        refused: &[String],
        replace: bool,
        reason: Option<&str>,
        on_wait: &mut dyn FnMut(),
    ) -> Result<ImportReport, FolderError> {
        let store = self.writer()?;
        let read = read.into_iter().map(ToImport::Read).collect();
        let mut recorded = false;
        let mut report = self.store_read(
            &store,
            read,
            &How::import(None, replace, reason),
            on_wait,
            &mut |store, _| {
                recorded = true;
                store.hold_typings(held)
            },
        )?;
        // (the files the double entry's check refused are the import's)
        report.refused.splice(0..0, refused.iter().cloned());
        report
            .files
            .splice(0..0, refused.iter().map(|f| (f.clone(), Vec::new())));
        if !recorded {
            // (nothing stored, nothing held back: every file refused)
            return Ok(report);
        }
        // (each file's cards held back, beside what became of its others)
        for h in held.iter().filter(|h| !refused.contains(&h.first)) {
            let fates = match report.files.iter_mut().find(|(n, _)| *n == h.first) {
                Some((name, _)) if report.refused.contains(name) => continue,
                Some((_, fates)) => fates,
                None => {
                    report.files.push((h.first.clone(), Vec::new()));
                    &mut report.files.last_mut().expect("pushed").1
                }
            };
            fates.push((h.key.clone(), CardFate::TypedTwice));
        }
        Ok(report)
    }

    /// Takes the card of `key` out of the event: the table has no card
    /// again, as before it was imported (a card typed under the wrong
    /// table or stage, a referee's card sent on the wrong form). The card
    /// stays in the database, marked removed by a log row that keeps
    /// `reason`, as a replaced card is; importing it again puts it back.
    /// Returns where the card was read from.
    pub fn remove_card(
        &self,
        key: &CardKey,
        reason: &str,
        on_wait: &mut dyn FnMut(),
    ) -> Result<Removed, FolderError> {
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(FolderError::Refused(
                "a removal needs a reason (--reason \"...\": the log keeps it)".to_string(),
            ));
        }
        let store = self.writer()?;
        let tx = store.begin_write(on_wait)?;
        let Some(card) = store.card_of_key(key)? else {
            let (stage, session, _) = entry::key_fields(key);
            let mut tables: Vec<Label> = store
                .tables_of(&stage, &session)?
                .iter()
                .filter_map(|t| Label::table(t))
                .collect();
            tables.sort();
            let stored = match tables.is_empty() {
                true => format!("the event has no card of {stage} session {session}"),
                false => format!(
                    "the event's cards of {stage} session {session} are of {} {}",
                    if tables.len() == 1 { "table" } else { "tables" },
                    Label::ranges(&tables)
                ),
            };
            return Err(FolderError::Refused(format!(
                "{key}: no such card in the event, nothing removed ({stored})"
            )));
        };
        let source = store.card_source(card.id)?;
        let games: HashSet<u32> = card.lines.iter().map(|l| l.game).collect();
        // A card of a stage before another: who went on may change without
        // it, and a player on a later stage's stored cards no longer go on
        // (the later stage was played by the list before), as an import
        // that changes it is refused.
        let rules = self.rules();
        let later = rules.stage_rank(&key.stage) + 1 < rules.stages.len();
        let before = match later {
            true => Some(went_on_stored(&store, &rules)?),
            false => None,
        };
        let log = store.append_log(&LogEntry {
            time: utc_now(),
            action: "remove".into(),
            file: source.clone(),
            sha256: String::new(),
            stage: key.stage.to_string(),
            cards: 1,
            games: games.len() as i64,
            reason: reason.to_string(),
        })?;
        store.replace_card(card.id, log)?;
        if let Some(before) = before {
            if let Some((moved, instead)) = moved_off(&store, &rules, &before)? {
                return Ok(Removed::Not(format!(
                    "{key}: without this card, who went on changes, and {moved} would no longer have gone on{instead}: nothing removed (the later stage was played by the list before). To correct the card, replace it with the later stage's cards corrected, in one tilerank import --replace"
                )));
            }
        }
        tx.commit().map_err(|e| store.error(e))?;
        Ok(Removed::Card { source })
    }

    /// [`EventFolder::import`] through a store opened before (a test caps
    /// its size with [`Store::limit_pages`]).
    pub fn import_into(
        &self,
        store: &Store,
        files: &[PathBuf],
        stage: Option<&str>,
        replace: bool,
        reason: Option<&str>,
        on_wait: &mut dyn FnMut(),
    ) -> Result<ImportReport, FolderError> {
        let _replay = ingest::once::Replay::keep();
        let files = self.to_read(files)?;
        self.store_read(
            store,
            files,
            &How::import(stage, replace, reason),
            on_wait,
            &mut |_, _| Ok(()),
        )
    }

    /// The card files an import reads, found before any lock is taken (a
    /// wrong name or limit is said at once); each is read in the import's
    /// transaction, a card at a time where it can be. Standard input (`-`)
    /// or a pipe is read whole here, before the lock, and held (the caller
    /// holds an [`ingest::once::Replay`]): the event is not held while
    /// whatever feeds the pipe takes its time (a second import, or a card
    /// a referee enters, goes in meanwhile). Its bytes are then read as a
    /// file's are, by the streaming reader where it can.
    fn to_read(&self, files: &[PathBuf]) -> Result<Vec<ToImport>, FolderError> {
        crate::ingest::limits::Limits::from_env()?;
        let files = ingest::expand(files)?;
        for path in files.iter().filter(|p| ingest::once::gives_once(p)) {
            debug_assert!(ingest::once::is_held(), "the caller holds a Replay");
            // (why it could not be read is kept too, and said in turn)
            let _ = ingest::held_bytes(path);
        }
        Ok(files.into_iter().map(ToImport::File).collect())
    }

    /// Reads one card file the ordinary way, whole: racks are scored,
    /// `stage` replaces the cards' own.
    fn read_file(&self, file: &Path, stage: Option<&str>) -> Result<ReadFile, FolderError> {
        let rules = self.rules();
        let name = ingest::shown(file);
        let mut problems = Problems::new();
        // (the log keeps the hash of the bytes read)
        let hashes = ingest::hashes::ReadHashes::keep();
        let mut inputs = ingest::read_cards(&[file.to_path_buf()], &mut problems)?;
        let sha256 = hashes.of(file).unwrap_or_default();
        drop(hashes);
        inputs.set_stage(stage, &rules.stages, &mut problems);
        let mut raw = inputs.cards;
        for rc in inputs.rack_cards {
            raw.extend(ingest::racks::score_card(&rc, &rules, &mut problems));
        }
        Ok(ReadFile {
            name,
            sha256,
            cards: raw,
            problems,
        })
    }

    /// The one import: every file's cards checked against the stored ones
    /// and written in one transaction; `then` runs last, inside it (what an
    /// entry at the table records beside its card).
    fn store_read(
        &self,
        store: &Store,
        read: Vec<ToImport>,
        how: &How,
        on_wait: &mut dyn FnMut(),
        then: &mut dyn FnMut(&Store, &ImportReport) -> Result<(), FolderError>,
    ) -> Result<ImportReport, FolderError> {
        self.store_files(store, &read, how, on_wait, then, None)
    }

    /// [`EventFolder::store_read`], the files of `twice` refused.
    fn store_files(
        &self,
        store: &Store,
        read: &[ToImport],
        how: &How,
        on_wait: &mut dyn FnMut(),
        then: &mut dyn FnMut(&Store, &ImportReport) -> Result<(), FolderError>,
        twice: Option<Twice>,
    ) -> Result<ImportReport, FolderError> {
        let How {
            stage,
            replace,
            reason,
            trial,
            desk,
        } = *how;
        // (whether any card was entered at a table, asked once)
        let entries = desk && store.has_entries()?;
        let rules = self.rules();
        let mut report = ImportReport::default();
        let tx = store.begin_write(on_wait)?;
        // (a file's cards are written as they are checked, before the log
        // row that they point to)
        store.defer_references()?;
        let stored = {
            let Some(mut roster) = store.roster()? else {
                return Err(FolderError::NoRoster {
                    dir: self.dir.display().to_string(),
                });
            };
            // the stored cards, a card at a time: checked under today's
            // settings and roster, and kept by key and seating (their lines
            // stay in the store)
            let mut problems = Problems::new();
            // (named by where they came from at the desk, not to a phone)
            let mut reader = StoredReader::new(&store.path.display().to_string(), desk);
            let mut seating = Seating::default();
            let mut stored_ids = StoredIds::default();
            store.each_card_ref(&mut |id, key, lines, origin| {
                for raw in reader.read(key, lines, origin, &mut problems) {
                    if let Ok(card) = check_card(&raw, &rules, &mut roster, &mut problems) {
                        seating.add_card(&card);
                    }
                }
                stored_ids.insert(key.clone(), id);
            })?;
            seating.clashes(&roster, &rules, &mut problems);
            if problems.has_errors() {
                // Data errors (exit status 1): listed, and every file refused.
                problems.error(
                    Source::file(&store.path.display().to_string()).whole(),
                    Said::new(
                        Msg::ThenAdvice,
                        [
                            // (a referee's phone posts one card, not files)
                            Part::advice(
                                Said::new(Msg::StoredCardsWrong, []),
                                Said::new(Msg::StoredCardsWrongPosted, []),
                            ),
                            Part::advice(
                                Said::new(Msg::StoredCardsAtDesk, []),
                                Said::new(Msg::StoredCardsAtTable, []),
                            ),
                        ],
                    ),
                );
                report.problems.extend(problems);
                for file in read {
                    let name = file.name();
                    report.refused.push(name.clone());
                    report.files.push((name, Vec::new()));
                }
                return Ok(report);
            }
            (roster, stored_ids, seating)
        };
        let (mut roster, mut by_key, mut current) = stored;
        // The keys of the later stages' cards kept; whether there are any
        let mut kept: HashSet<CardKey, foldhash::fast::RandomState> = HashSet::default();
        let mut later_kept = false;
        // The later stages' cards stored: a card of this import may change
        // who went on to them (a prelim card corrected after the final was
        // seated from it, or the prelim's last card in after a final card
        // judged on its list as it stood). Who was a stranger on them before
        // is known, so that only what this import changes is said.
        let stored_later: HashSet<CardKey, foldhash::fast::RandomState> = current
            .keys()
            .filter(|k| rules.stage_rank(&k.stage) > 0)
            .collect();
        let (strangers_before, waiting_before) = match stored_later.is_empty() {
            true => (None, Strangers::new()),
            false => {
                let (strangers, waiting) = went_on_stored(store, &rules)?;
                (Some(strangers), waiting)
            }
        };

        let files = read.len();
        // The tables each file gives, one after another, and where each
        // file's begin: a table two files give is found as `check` finds
        // it, once every file is read (see [`Twice`]).
        let mut run = Seating::default();
        let mut run_files: Vec<(usize, String)> = Vec::new();
        let (refusing, said_twice) = match twice {
            Some(Twice { files, said }) => (files, said),
            None => (HashSet::new(), Problems::new()),
        };
        report.problems.extend(said_twice);
        for (n, file) in read.iter().enumerate() {
            let log = store.next_log_id()?;
            // A file's cards go to the store as they are checked; a file
            // refused is taken back to here.
            store.mark()?;
            let file_barred = refusing.contains(&file.name());
            let (name, sha256, read_none, mut file) = match file {
                ToImport::File(path) => {
                    let name = ingest::shown(path);
                    let mut file =
                        FileImport::new(&rules, &mut roster, store, &by_key, log, replace, entries);
                    file.barred = file_barred;
                    file.origins = desk;
                    // (the log keeps the hash of the bytes read)
                    let hashes = ingest::hashes::ReadHashes::keep();
                    if stage.is_none() && crate::stream::read_one(path, &mut file).is_some() {
                        (name, hashes.of(path).unwrap_or_default(), false, file)
                    } else {
                        // not the common shape: read whole, the ordinary way
                        drop(file);
                        store.undo_to_mark()?;
                        store.mark()?;
                        let read = self.read_file(path, stage)?;
                        let mut file = FileImport::new(
                            &rules,
                            &mut roster,
                            store,
                            &by_key,
                            log,
                            replace,
                            entries,
                        );
                        file.barred = file_barred;
                        file.origins = desk;
                        let read_none = read.cards.is_empty();
                        file.problems = read.problems;
                        file.add_raw(&read.cards);
                        (name, read.sha256, read_none, file)
                    }
                }
                ToImport::Read(read) => {
                    let mut file =
                        FileImport::new(&rules, &mut roster, store, &by_key, log, replace, entries);
                    file.barred = file_barred;
                    file.origins = desk;
                    let read_none = read.cards.is_empty();
                    file.problems = read.problems.clone();
                    file.add_raw(&read.cards);
                    (read.name.clone(), read.sha256.clone(), read_none, file)
                }
            };
            if let Some(e) = file.failed.take() {
                return Err(e);
            }
            let mut problems = std::mem::take(&mut file.problems);
            if read_none && !problems.has_errors() {
                problems.error(Source::file(&name).whole(), "no cards found in this file");
            }
            // Seated elsewhere across imports: check against the stored cards
            // that this file does not replace.
            let keys = std::mem::take(&mut file.keys);
            let seating = std::mem::take(&mut file.seating);
            if files > 1 && refusing.is_empty() {
                run_files.push((run.len(), name.clone()));
                run.add_tables(&seating);
            }
            let all = current.kept_then(|k| !keys.contains(k), seating);
            all.clashes(file.roster, &rules, &mut problems);
            problems.extend(std::mem::take(&mut file.differs));
            // (the cards held for the board refuse only themselves)
            let held = std::mem::take(&mut file.held);
            let conflicts = std::mem::take(&mut file.conflicts);
            let settles = std::mem::take(&mut file.settles);
            report
                .conflicts
                .extend(conflicts.iter().map(|(k, _)| k.clone()));
            let FileImport {
                fates,
                new_ids,
                stages,
                games,
                outputs,
                ..
            } = file;
            let later = stages.iter().any(|s| rules.stage_rank(&Stage::new(s)) > 0);
            if problems.has_errors() || file_barred {
                problems.extend(held);
                store.undo_to_mark()?;
                if entries {
                    // the desk's typing of a card a referee entered, kept
                    // for the board beside the referee's
                    for (key, lines) in &conflicts {
                        store.keep_desk_version(key, &name, lines)?;
                    }
                }
                report.refused.push(name.clone());
                report.problems.extend(problems);
                report.files.push((name, Vec::new()));
                continue;
            }
            let replacing = fates.iter().any(|(_, f)| *f == CardFate::Replaced);
            if replacing && reason.is_none_or(|r| r.trim().is_empty()) {
                return Err(FolderError::Refused(
                    "--replace needs --reason \"why the card is replaced\"".to_string(),
                ));
            }
            report.problems.extend(problems);
            report.problems.extend(held);
            if trial {
                // Checked as an import would (a later stage's players
                // too), and nothing kept.
                let mut strangers = Problems::new();
                if later {
                    strangers_on(
                        store,
                        &rules,
                        &all,
                        &keys,
                        &roster,
                        Judged::Imported,
                        &mut strangers,
                    )?;
                }
                if let Some(before) = &strangers_before {
                    let other = stored_later
                        .iter()
                        .filter(|k| !keys.contains(*k))
                        .cloned()
                        .collect();
                    strangers_on(
                        store,
                        &rules,
                        &all,
                        &other,
                        &roster,
                        Judged::Stored(before),
                        &mut strangers,
                    )?;
                    if strangers.has_errors() {
                        let instead = now_waiting(store, &rules, &waiting_before)?;
                        strangers.error(
                            Source::file(&name).whole(),
                            said_went_on_changes(&rules, &stored_later, &instead),
                        );
                    }
                }
                store.undo_to_mark()?;
                if strangers.has_errors() {
                    report.problems.extend(strangers);
                    report.refused.push(name.clone());
                    report.files.push((name, Vec::new()));
                } else {
                    report.files.push((name, fates));
                }
                continue;
            }
            if entries {
                // the desk's typing of the cards held, kept for the board
                // beside the referees' (the others go in)
                for (key, lines) in &conflicts {
                    store.keep_desk_version(key, &name, lines)?;
                }
                for (key, fate) in &fates {
                    if *fate == CardFate::Unchanged {
                        match settles.iter().find(|(k, _)| k == key) {
                            // --replace of the event's card, the same, over
                            // the versions in conflict with it: settled for
                            // it, as on the board
                            Some((_, set_aside)) => {
                                let why = reason.unwrap_or_default().trim();
                                store.settle_for_event_card(key, &name, why)?;
                                report.settled.push(key.clone());
                                report.problems.note(
                                    Source::file(&name).whole(),
                                    format!(
                                        "{key}: the event's card, the same as this one, stands (--replace); set aside: {}; the board shows the table decided",
                                        set_aside.join(", ")
                                    ),
                                );
                            }
                            None => store.confirm_entry(key, &name)?,
                        }
                        continue;
                    }
                    if replace != Replace::Yes {
                        continue;
                    }
                    // --replace over the referees' entries: the table is
                    // settled, as on the board (which no longer shows it
                    // in conflict, nor offers the entry set aside)
                    let why = reason.unwrap_or_default().trim();
                    let set_aside = store.settle_by_desk(key, &name, why, log)?;
                    if !set_aside.is_empty() {
                        report.problems.note(
                            Source::file(&name).whole(),
                            format!(
                                "{key}: this card replaces what referee {} entered (--replace); the board shows the table decided",
                                set_aside.join(", ")
                            ),
                        );
                    }
                }
            }
            if outputs == 0 {
                // The same cards again: nothing to store, not even a log line.
                store.keep_since_mark()?;
                report.files.push((name, fates));
                continue;
            }
            store.note_card_order(&new_ids)?;
            store.append_log_as(
                Some(log),
                &LogEntry {
                    time: utc_now(),
                    action: if replacing { "replace" } else { "import" }.into(),
                    file: name.clone(),
                    sha256: sha256.clone(),
                    stage: stages.join(" "),
                    // what this import stored: a card the store held
                    // already, the same, is not counted
                    cards: outputs as i64,
                    games: games as i64,
                    // Why a card was replaced, or how it was confirmed (a
                    // double entry): whatever the command was given.
                    // (a referee's entry gives a reason for a correction
                    // only)
                    reason: match replace {
                        Replace::OwnEntry(_) if !replacing => String::new(),
                        _ => reason.unwrap_or("").trim().to_string(),
                    },
                },
            )?;
            store.keep_since_mark()?;
            // (the next file's cards are compared with these; after the
            // last file, nothing is)
            if n + 1 < files {
                by_key.extend(new_ids);
            }
            current = all;
            if later {
                later_kept = true;
                // (a later stage's keys only: an import of a million
                // players' prelim holds none)
                kept.extend(keys.into_iter().filter(|k| rules.stage_rank(&k.stage) > 0));
            }
            report.files.push((name, fates));
        }
        // A table two files of the import give: every card of it is
        // rejected, as `check` rejects them (the tool cannot tell which is
        // right), so both files are refused. Found only now, once the first
        // is in: the import is taken again from the start with those files
        // refused, the others each in or out on their own as before.
        let mut said = Problems::new();
        let clashing = run.clashes(&roster, &rules, &mut said);
        if !clashing.is_empty() {
            let file_of = |i: usize| {
                let k = run_files.partition_point(|(first, _)| *first <= i);
                run_files[k - 1].1.clone()
            };
            let files = clashing.into_iter().map(file_of).collect();
            drop(tx);
            return self.store_files(store, read, how, on_wait, then, Some(Twice { files, said }));
        }
        // A later stage's card: its players are those who went on, judged
        // (as the reading commands judge them) once every file is in, as
        // the files may bring the stage before too (a folder's final.csv
        // before its prelim.csv). A player who did not go on refuses the
        // whole import.
        //
        // A later stage's card stored before, and kept: who went on to it
        // may change with the cards imported, and a player on it who went
        // on no longer refuses the whole import too (said as the import's,
        // at the stored card).
        let mut problems = Problems::new();
        if later_kept {
            strangers_on(
                store,
                &rules,
                &current,
                &kept,
                &roster,
                Judged::Imported,
                &mut problems,
            )?;
            // (files of no such card are refused too: said once)
            if problems.has_errors() && report.files.len() - report.refused.len() > 1 {
                problems.error(
                    Source::file(&store.path.display().to_string()).whole(),
                    "a later stage's card above has a player who did not go on, or a table its seating does not have: nothing imported (correct the card, or import the other files without it)",
                );
            }
        }
        if let Some(before) = strangers_before.as_ref().filter(|_| !trial) {
            let other = stored_later
                .iter()
                .filter(|k| !kept.contains(*k))
                .cloned()
                .collect();
            let mut moved = Problems::new();
            strangers_on(
                store,
                &rules,
                &current,
                &other,
                &roster,
                Judged::Stored(before),
                &mut moved,
            )?;
            if moved.has_errors() {
                let instead = now_waiting(store, &rules, &waiting_before)?;
                moved.error(
                    Source::file(&store.path.display().to_string()).whole(),
                    said_went_on_changes(&rules, &stored_later, &instead),
                );
                problems.extend(moved);
            }
        }
        if problems.has_errors() {
            report.problems.extend(problems);
            for (name, fates) in &mut report.files {
                fates.clear();
                if !report.refused.contains(name) {
                    report.refused.push(name.clone());
                }
            }
            return Ok(report);
        }
        if desk && !trial {
            // A table a double entry held back whose card, the one the
            // event held, the desk imported again, the same: confirmed,
            // its mark is cleared (a card stored clears it by itself).
            let held = store.typed_twice()?;
            if !held.is_empty() {
                for (name, fates) in &report.files {
                    let confirmed: Vec<CardKey> = fates
                        .iter()
                        .filter(|(k, f)| {
                            *f == CardFate::Unchanged && held.iter().any(|h| h.key == *k)
                        })
                        .map(|(k, _)| k.clone())
                        .collect();
                    store.confirm_typings(&confirmed, name)?;
                }
            }
        }
        then(store, &report)?;
        tx.commit().map_err(|e| store.error(e))?;
        Ok(report)
    }

    /// Opens the event's database to write it (for
    /// [`EventFolder::import_into`]).
    pub fn store(&self) -> Result<Store, FolderError> {
        self.writer()
    }

    /// Writes the event as plain files into `out`, which must be empty or
    /// not exist: a copy of `tilerank.toml`, `roster.csv`, `log.csv`, and
    /// `cards/NAME.csv` per card (results layout), all values raw. The dump
    /// is a source folder: reading commands take it as `--event`, and
    /// `roster` + `import` of its files build the same event again.
    pub fn dump(&self, out: &Path) -> Result<DumpReport, FolderError> {
        let Some(store) = self.reader()? else {
            return Err(FolderError::Refused(format!(
                "{} has no {DB_FILE}: its files are the event already",
                self.dir.display()
            )));
        };
        crate::report::output::not_an_event_file(out)
            .map_err(|e| FolderError::Refused(e.to_string()))?;
        if out.exists() && !out.is_dir() {
            return Err(FolderError::Refused(format!(
                "{}: is a file, not a folder: dump writes the event into a folder (new or empty), such as backup-2026-03-28",
                out.display()
            )));
        }
        if std::fs::read_dir(out).is_ok_and(|mut d| d.next().is_some()) {
            return Err(FolderError::Refused(format!(
                "{}: the folder is not empty; dump into a new or empty folder",
                out.display()
            )));
        }
        let read = store.begin_read()?;
        let roster = store.roster_rows()?;
        let cards = store.cards()?;
        let log = store.log()?;
        let [entries, decisions] = store.entries_for_dump()?;
        let held = store.held_typings_for_dump()?;
        let still_held: Vec<CardKey> = store.typed_twice()?.into_iter().map(|h| h.key).collect();
        read.commit().map_err(|e| store.error(e))?;

        let cards_dir = out.join(CARDS_DIR);
        std::fs::create_dir_all(&cards_dir).map_err(io(&cards_dir))?;
        let toml = self.dir.join(FILE_NAME);
        let settings = std::fs::read(&toml).map_err(io(&toml))?;
        let copy = out.join(FILE_NAME);
        crate::report::output::write_atomically(&copy, &settings).map_err(io(&copy))?;
        let write = |path: &Path, header: &[&str], rows: &mut dyn Iterator<Item = Vec<String>>| {
            let mut text = csv_line(header.iter().copied());
            text.push('\n');
            for row in rows {
                text.push_str(&csv_line(&row));
                text.push('\n');
            }
            crate::report::output::write_atomically(path, text.as_bytes()).map_err(io(path))
        };
        if !roster.is_empty() {
            write(
                &out.join(ROSTER_FILE),
                &ROSTER_HEADER,
                &mut roster.clone().into_iter(),
            )?;
        }
        write(
            &out.join(LOG_FILE),
            &LogEntry::COLUMNS,
            &mut log.iter().map(|e| e.fields().to_vec()),
        )?;
        // the live desk's record: every card entered at a table (as
        // posted), and every decision of the board
        if entries.len() > 1 {
            for (name, rows) in [("entries.csv", &entries), ("decisions.csv", &decisions)] {
                let (header, rows) = rows.split_first().expect("a header");
                let header: Vec<&str> = header.iter().map(String::as_str).collect();
                write(&out.join(name), &header, &mut rows.iter().cloned())?;
            }
        }
        // the tables double entries held back, and those confirmed since
        // (an event built again from the dump holds none back)
        if held.len() > 1 {
            let (header, rows) = held.split_first().expect("a header");
            let header: Vec<&str> = header.iter().map(String::as_str).collect();
            write(&out.join(HELD_FILE), &header, &mut rows.iter().cloned())?;
        }
        for card in &cards {
            let path = cards_dir.join(format!("{}.csv", card.key.name()));
            write(
                &path,
                &CARD_HEADER,
                &mut card
                    .lines
                    .iter()
                    .map(|l| line_fields(&card.key, l).to_vec()),
            )?;
        }
        Ok(DumpReport {
            players: roster.len(),
            cards: cards.len(),
            log: log.len(),
            entries: entries.len().saturating_sub(1),
            decisions: match entries.len() > 1 {
                true => decisions.len().saturating_sub(1),
                false => 0,
            },
            held: held.len().saturating_sub(1),
            still_held,
        })
    }
}

/// What [`EventFolder::remove_card`] did.
#[derive(Debug)]
pub enum Removed {
    /// The card is removed; it was read from `source`.
    Card { source: String },
    /// Nothing removed: the event's data says why (who went on to a
    /// later stage would change).
    Not(String),
}

/// What a dump wrote.
#[derive(Debug)]
pub struct DumpReport {
    pub players: usize,
    pub cards: usize,
    pub log: usize,
    /// The rows of entries.csv and decisions.csv (written when a card
    /// was ever entered at a table).
    pub entries: usize,
    pub decisions: usize,
    /// The rows of held.csv: every table a double entry held back, and
    /// every confirmation of one (written when there is any).
    pub held: usize,
    /// The tables still held back by double entry: an event built again
    /// from the dump does not hold them back.
    pub still_held: Vec<CardKey>,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> FolderError + '_ {
    move |e| FolderError::Io {
        path: path.display().to_string(),
        reason: e.to_string(),
    }
}

/// What differs between two versions of a card, a line per game and seat
/// as the live desk says it ([`entry::differs_said`]): `game 3, seat A:
/// score 25 vs 30`, the old version's value first; said in each language
/// ([`Msg::EnteredDiffers`] indents the lines).
fn diff(key: &CardKey, old: &[StoredLine], new: &[StoredLine]) -> Part {
    let differs = entry::differences(&entry::rows_of(key, old), &entry::rows_of(key, new));
    let lines = entry::differs_said(&differs)
        .into_iter()
        .map(Part::Said)
        .collect();
    Part::Each(lines, Msg::DiffersNextLine)
}

/// `key` was imported before and differs: the event's card (`was`, from
/// `origin`, [`Store::card_origin_of`]) vs this one (`lines`), and what
/// differs.
fn said_imported_differs(
    key: &CardKey,
    origin: Option<Said>,
    was: &[StoredLine],
    lines: &[StoredLine],
) -> Said {
    let card = match origin {
        Some(from) => Part::said(Msg::EventsCardFrom, [Part::Said(from)]),
        None => Part::said(Msg::EventsCard, []),
    };
    Said::new(
        Msg::ImportedDiffers,
        [key.said(), card, diff(key, was, lines)],
    )
}

/// Cards of files given beside the event's own (`check FILE` in an event
/// folder) whose table the event holds already, as `import` takes them: a
/// card as it was imported is that card (left out: the event counts it
/// once, and a note says so, a note a file); one that differs is an error
/// naming what differs, as `import` refuses it. A card with errors of its
/// own stays, for the ordinary checks to list them. A card in the racks
/// layout is taken as scored, as `import` stores it: as any other card.
/// A table the files give twice stays too, compared with nothing stored:
/// the checks across cards say it is given twice, as `import` refuses
/// every file that gives it ([`Seating::clashes`]).
fn set_aside_imported(
    store: &Store,
    more: &mut ingest::CardInputs,
    roster: Option<&Roster>,
    rules: &Rules,
    problems: &mut Problems,
) -> Result<(), FolderError> {
    let mut aside = SetAside {
        store,
        roster,
        rules,
        naming: None,
        same: Vec::new(),
        differing: 0,
    };
    // the tables the files give more than once
    let mut given: HashMap<&CardKey, usize> = HashMap::new();
    let keys =
        (more.cards.iter().map(|c| &c.key)).chain(more.rack_cards.iter().map(|c| &c.grouped.key));
    for key in keys {
        *given.entry(key).or_default() += 1;
    }
    let twice: HashSet<CardKey> = given
        .into_iter()
        .filter(|&(_, n)| n > 1)
        .map(|(k, _)| k.clone())
        .collect();
    let mut kept = Vec::with_capacity(more.cards.len());
    for raw in std::mem::take(&mut more.cards) {
        let taken = match store.card_of_key(&raw.key)? {
            _ if twice.contains(&raw.key) => false,
            Some(old) => aside.takes(&raw, &old, problems)?,
            None => false,
        };
        if !taken {
            kept.push(raw);
        }
    }
    more.cards = kept;
    let mut kept = Vec::with_capacity(more.rack_cards.len());
    for rack_card in std::mem::take(&mut more.rack_cards) {
        // (scored here only when the event holds its table; a card that
        // does not score stays, its errors said when the ordinary checks
        // score it)
        let taken = match store.card_of_key(&rack_card.grouped.key)? {
            _ if twice.contains(&rack_card.grouped.key) => false,
            Some(old) => match ingest::racks::score_card(&rack_card, rules, &mut Problems::new()) {
                Some(raw) => aside.takes(&raw, &old, problems)?,
                None => false,
            },
            None => false,
        };
        if !taken {
            kept.push(rack_card);
        }
    }
    more.rack_cards = kept;
    more.differing += aside.differing;
    for (source, n) in aside.same {
        problems.note(
            source.whole(),
            if n == 1 {
                Said::new(Msg::OneImportedAlready, [])
            } else {
                Said::new(Msg::ImportedAlready, [Part::text(n)])
            },
        );
    }
    Ok(())
}

/// Whether two typings of a card have a player in common: one that has
/// none is most likely another table's (or stage's) card with its header
/// mistyped, and `--replace` would overwrite a right card with it.
fn shares_a_player<A: PartialEq<B>, B>(was: &[StoredLine<A>], lines: &[StoredLine<B>]) -> bool {
    lines
        .iter()
        .any(|l| was.iter().any(|w| w.player == l.player))
}

/// What [`set_aside_imported`] holds while it goes through a run's cards.
struct SetAside<'a> {
    store: &'a Store,
    /// The roster given to this run, if any.
    roster: Option<&'a Roster>,
    rules: &'a Rules,
    /// The roster that names the cards: this run's, else the stored one;
    /// taken once, and only when a card's table is stored.
    naming: Option<Option<Roster>>,
    /// The cards set aside as imported, counted by file (a workbook's cards
    /// are each on a sheet).
    same: Vec<(Source, usize)>,
    /// The cards set aside as differing from the event's (each an error).
    differing: usize,
}

impl SetAside<'_> {
    /// Whether `raw`, of a table the event holds as `old`, is that card
    /// (counted, to be noted) or differs from it (an error in `problems`):
    /// either way it is set aside. A card that fails its own checks is not.
    fn takes(
        &mut self,
        raw: &RawCard,
        old: &StoredCard,
        problems: &mut Problems,
    ) -> Result<bool, FolderError> {
        let named = match &mut self.naming {
            Some(named) => named,
            None => self.naming.insert(match self.roster {
                Some(r) => Some(r.clone()),
                None => self.store.roster()?,
            }),
        };
        let Some(named) = named.as_mut() else {
            return Ok(false);
        };
        let mut own = Problems::new();
        let Ok(card) = check_card(raw, self.rules, named, &mut own) else {
            return Ok(false);
        };
        let lines = card_lines(&card, named);
        if lines == old.lines {
            match self
                .same
                .iter_mut()
                .find(|(s, _)| s.file == raw.source.file)
            {
                Some((_, n)) => *n += 1,
                None => self.same.push((Source::file(&raw.source.file), 1)),
            }
            return Ok(true);
        }
        let origin = self.store.card_origin_of(old.id)?;
        problems.error(
            card.place.clone(),
            format!(
                "{}{}",
                said_imported_differs(&card.key, origin, &old.lines, &lines),
                match shares_a_player(&old.lines, &lines) {
                    true => "import it with --replace --reason \"...\" to replace the event's card"
                        .to_string(),
                    false => Said::new(Msg::NoPlayerShared, []).to_string(),
                }
            ),
        );
        self.differing += 1;
        Ok(true)
    }
}

/// Whose later-stage cards [`strangers_on`] judges.
enum Judged<'a> {
    /// The cards of the files imported: their players, and their tables
    /// (a table past the stage's seating, [`Event::table_off`]).
    Imported,
    /// Stored cards the files do not replace: their players only, less those who
    /// were strangers on them before the import (what a card brought
    /// changes of who went on; a stored card's table is the reading
    /// commands' to say).
    Stored(&'a Strangers),
}

/// Each player on a card of `keys` (written into `store`'s transaction,
/// and sat in `seating`) who plays a later stage without having gone on
/// to it: an error at the card, as the reading commands say it of the
/// event that holds the card; and, of the cards imported, a table the
/// stage's seating does not have.
fn strangers_on(
    store: &Store,
    rules: &Rules,
    seating: &Seating,
    keys: &HashSet<CardKey, foldhash::fast::RandomState>,
    roster: &Roster,
    judged: Judged,
    problems: &mut Problems,
) -> Result<(), FolderError> {
    let event = judged_event(store, rules)?;
    for e in &event.entrants_so_far() {
        for &p in &e.strangers {
            let id = (e.stage.clone(), event.roster.id(p).to_string());
            if matches!(judged, Judged::Stored(known) if known.contains(&id)) {
                continue;
            }
            let Ok(here) = roster.find(event.roster.id(p)) else {
                continue;
            };
            let on = |k: &CardKey| k.stage == e.stage && keys.contains(k);
            if let Some((key, place)) = seating.card_of(here, on) {
                problems.error(place, Said::of_card(&key, event.stranger(e, p)));
            }
        }
        if matches!(judged, Judged::Stored(_)) {
            continue;
        }
        for (key, place) in seating.cards_of_stage(&e.stage) {
            if let Some(off) = Event::table_off(e, &key).filter(|_| keys.contains(&key)) {
                problems.error(place, Said::of_card(&key, off));
            }
        }
    }
    Ok(())
}

/// Why an import is refused whose cards change who went on to a later
/// stage whose cards (among `stored`) were played by the list before
/// (`instead`: who now goes on, [`now_waiting`]). The desk is told how to
/// go on: the later stage's cards corrected with the import, or, when the
/// later stage stands as played, those who now go on marked withdrawn
/// first (the next in line then goes on: the list it was played by).
fn said_went_on_changes(
    rules: &Rules,
    stored: &HashSet<CardKey, foldhash::fast::RandomState>,
    instead: &[String],
) -> Said {
    let stages = Part::Each(
        rules
            .stages
            .iter()
            .filter(|s| stored.iter().any(|k| k.stage.as_str() == s.as_str()))
            .map(|s| Part::Stage(s.clone()))
            .collect(),
        Msg::AndThe,
    );
    let said = said_now_waiting(instead);
    let desk = match instead.is_empty() {
        true => Said::new(Msg::WentOnAtDesk, [stages.clone()]),
        false => Said::new(
            Msg::WentOnAtDeskOrWithdraw,
            [
                stages.clone(),
                stages.clone(),
                Part::text(instead.join(", ")),
            ],
        ),
    };
    Said::new(
        Msg::ThenAdvice,
        [
            // (a referee's phone posts one card, not files)
            Part::advice(
                Said::new(Msg::WentOnChanges, [stages.clone(), said.clone()]),
                Said::new(Msg::WentOnChangesPosted, [stages, said]),
            ),
            Part::advice(desk, Said::new(Msg::WentOnAtTable, [])),
        ],
    )
}

/// Players on a later stage's cards who did not go on to it, by stage and
/// id (see [`Event::entrants_so_far`]).
type Strangers = HashSet<(Stage, String)>;

/// The event `store` holds as its transaction sees it, its sums only: what
/// who went on to a later stage is judged on.
fn judged_event(store: &Store, rules: &Rules) -> Result<Event, FolderError> {
    let stored_roster = store.roster_log()?;
    let given = stored_roster.map(|_| Roster::default());
    stored_event(
        store,
        rules,
        Keep::Sums,
        given,
        stored_roster,
        None,
        Problems::new(),
    )
}

/// The players on the later stages' cards `store` holds who did not go on
/// to them, as its transaction sees it.
fn strangers_stored(store: &Store, rules: &Rules) -> Result<Strangers, FolderError> {
    went_on_stored(store, rules).map(|(strangers, _)| strangers)
}

/// [`strangers_stored`], and who went on to a later stage and has no card
/// of it yet (as [`crate::event::Entrants::waiting`]).
fn went_on_stored(store: &Store, rules: &Rules) -> Result<(Strangers, Strangers), FolderError> {
    let event = judged_event(store, rules)?;
    let (mut strangers, mut waiting) = (Strangers::new(), Strangers::new());
    for e in event.entrants_so_far() {
        let id = |p| (e.stage.clone(), event.roster.id(p).to_string());
        strangers.extend(e.strangers.iter().map(|&p| id(p)));
        waiting.extend(e.waiting.iter().map(|&p| id(p)));
    }
    Ok((strangers, waiting))
}

/// The players of the stored cards that `roster` does not have, each with
/// the first card that names them, and whether any card is of a stage
/// after the first. A new roster replaces the whole list: every player on
/// a stored card must be on it, or every report would stop at that card.
fn played_not_on(
    store: &Store,
    rules: &Rules,
    roster: &Roster,
) -> Result<(BTreeMap<String, String>, bool), FolderError> {
    let mut reader = StoredReader::new(&store.path.display().to_string(), false);
    let mut read_problems = Problems::new();
    let mut lacking: BTreeMap<String, String> = BTreeMap::new();
    let mut later = false;
    store.each_card_ref(&mut |_, key, lines, origin| {
        later = later || rules.stage_rank(&key.stage) > 0;
        for raw in reader.read(key, lines, origin, &mut read_problems) {
            for seat in raw.seats.iter().chain(&raw.renamed) {
                if roster.find(&seat.player).is_err() {
                    lacking
                        .entry(seat.player.to_string())
                        .or_insert_with(|| raw.key.to_string());
                }
            }
        }
    })?;
    Ok((lacking, later))
}

/// Says each player of [`played_not_on`] an error of roster file `source`.
fn say_played_not_on(source: &Path, lacking: &BTreeMap<String, String>, problems: &mut Problems) {
    let whole = Source::file(&ingest::shown(source)).whole();
    for (player, card) in lacking {
        problems.error(
            whole.clone(),
            format!(
                "player \"{player}\" of the imported card {card} is not on this roster: a roster replaces the whole list, so keep every player who has played (nothing stored)"
            ),
        );
    }
}

/// Who plays a later stage and no longer goes on to it after a change
/// made in `store`'s transaction (`before`: who did not, and who was
/// waiting, as [`went_on_stored`] said it before the change), said as
/// `H07 plays the final, …`, and who now goes on instead
/// ([`said_now_waiting`]); nothing when the change moves nobody off.
fn moved_off(
    store: &Store,
    rules: &Rules,
    (before, waiting): &(Strangers, Strangers),
) -> Result<Option<(String, Part)>, FolderError> {
    let mut moved: Vec<(Stage, String)> = strangers_stored(store, rules)?
        .into_iter()
        .filter(|s| !before.contains(s))
        .collect();
    if moved.is_empty() {
        return Ok(None);
    }
    moved.sort();
    // `H01 and H03, who play the final,`: the players of each stage
    let mut said: Vec<String> = Vec::new();
    for run in moved.chunk_by(|a, b| a.0 == b.0) {
        let ids: Vec<&str> = run.iter().map(|(_, id)| id.as_str()).collect();
        let who = match ids.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => continue,
        };
        let verb = if ids.len() == 1 { "plays" } else { "play" };
        said.push(format!("{who}, who {verb} the {},", run[0].0));
    }
    let instead = said_now_waiting(&now_waiting(store, rules, waiting)?);
    Ok(Some((said.join(" "), instead)))
}

/// Who now goes on to a later stage and has no card of it, and did not
/// before (`waiting`, as [`went_on_stored`] said it before the change),
/// by id.
fn now_waiting(
    store: &Store,
    rules: &Rules,
    waiting: &Strangers,
) -> Result<Vec<String>, FolderError> {
    let (_, now) = went_on_stored(store, rules)?;
    let mut new: Vec<String> = now
        .into_iter()
        .filter(|w| !waiting.contains(w))
        .map(|(_, id)| id)
        .collect();
    new.sort_unstable();
    new.dedup();
    Ok(new)
}

/// Who now goes on to a later stage whose cards are stored and has no
/// card of it, and did not before (`waiting`, as [`went_on_stored`] said
/// it before the change), each with the stage, in the order of the
/// stages, then by id.
fn went_on_anew(
    store: &Store,
    rules: &Rules,
    waiting: &Strangers,
) -> Result<Vec<(Stage, String)>, FolderError> {
    let (_, now) = went_on_stored(store, rules)?;
    let mut new: Vec<(Stage, String)> = now.into_iter().filter(|w| !waiting.contains(w)).collect();
    new.sort_by(|a, b| (rules.stage_rank(&a.0), &a.1).cmp(&(rules.stage_rank(&b.0), &b.1)));
    Ok(new)
}

/// [`went_on_anew`]'s players as the roster's refusal says them: who
/// would go on (`H03 would go on to the semi and H05 to the final`), and
/// the settings that would keep them out (`H03 to [stages.semi] absent
/// and …`), a stage's players together.
fn said_went_on_anew(grown: &[(Stage, String)]) -> (String, String) {
    let (mut now, mut absent) = (Vec::new(), Vec::new());
    for run in grown.chunk_by(|a, b| a.0 == b.0) {
        let ids: Vec<&str> = run.iter().map(|(_, id)| id.as_str()).collect();
        let who = match ids.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => continue,
        };
        let stage = &run[0].0;
        let verb = if now.is_empty() { " would go on" } else { "" };
        now.push(format!("{who}{verb} to the {stage}"));
        absent.push(format!("{who} to [stages.{stage}] absent"));
    }
    (now.join(" and "), absent.join(" and "))
}

/// [`now_waiting`]'s players as a message says them: `; P0483 now goes
/// on, with no card yet`, or nothing.
fn said_now_waiting(new: &[String]) -> Part {
    match new {
        [] => Part::Text(String::new()),
        [one] => Part::said(Msg::NowGoesOn, [Part::text(one)]),
        _ => Part::said(Msg::NowGoOn, [Part::text(new.join(", "))]),
    }
}

/// The event `store` holds, as its transaction sees it, under `rules`:
/// its cards, and `more`; its roster is `roster` when given, else the one
/// stored by log row `stored_roster` (read beside the cards).
fn stored_event(
    store: &Store,
    rules: &Rules,
    keep: Keep,
    roster: Option<Roster>,
    mut stored_roster: Option<i64>,
    more: Option<ingest::CardInputs>,
    problems: Problems,
) -> Result<Event, FolderError> {
    let keep_cards = keep == Keep::Cards || !crate::event::sums_suffice(rules);
    let pass = |roster: Option<Roster>, skip: Vec<usize>| -> Result<Intake, FolderError> {
        let intake = Intake::new(roster, rules, keep_cards, problems.clone(), skip);
        let mut intake = read_stored(store, intake, stored_roster.take())?;
        if let Some(more) = &more {
            intake.mark_stored();
            intake.add_inputs(more);
        }
        Ok(intake)
    };
    crate::intake::in_passes(roster, pass)
}

/// Every stored card into `intake`, in the order stored, on four
/// threads: this one reads the database; two others read each card as the
/// results layout reads it ([`StoredReader`]) and check its values
/// ([`check_values`]), a batch of cards each in turn; the fourth names
/// their players and adds them up ([`Intake::add_checked`]), the batches
/// in the order read. The problems are the intake's in the order one
/// thread gives them. With `roster`, the log row of the stored roster, its
/// players are read first into the intake's roster (empty until then):
/// this thread reads them, the fourth adds them.
///
/// The cards are read in one pass in the order stored when the store says
/// that is their keys' order (they were imported in it: the common case),
/// or does not know; else every key is read first and the cards by key.
/// Read as stored, should a card's key come before the one before's after
/// all (a hand-edited database, or one from before the store kept its
/// cards' order), the cards added are forgotten ([`Intake::back_to`]: the
/// roster stays) and every card is read again by key.
fn read_stored(store: &Store, intake: Intake, roster: Option<i64>) -> Result<Intake, FolderError> {
    if store.card_order()? == Some(false) {
        return read_stored_in(store, intake, roster, CardOrder::ByKey).map(|(intake, _)| intake);
    }
    match read_stored_in(store, intake, roster, CardOrder::AsStored)? {
        (intake, None) => Ok(intake),
        (mut intake, Some(mark)) => {
            intake.back_to(mark);
            read_stored_in(store, intake, None, CardOrder::ByKey).map(|(intake, _)| intake)
        }
    }
}

/// The order [`read_stored_in`] reads the stored cards in.
#[derive(Clone, Copy, PartialEq)]
enum CardOrder {
    /// As stored, while that is their keys' order.
    AsStored,
    /// By key.
    ByKey,
}

/// A stored roster's players as the thread that reads its parts hands
/// them to the one that adds them.
enum Added {
    /// A player stored a row a player.
    Player(crate::roster::Player),
    /// A part's players.
    Batch(crate::roster::Batch),
}

/// [`read_stored`] in `order`; with [`CardOrder::AsStored`], the intake
/// as it was before its first card (`Some`) when the cards were not stored
/// in their keys' order.
fn read_stored_in(
    store: &Store,
    mut intake: Intake,
    roster: Option<i64>,
    order: CardOrder,
) -> Result<(Intake, Option<crate::intake::Mark>), FolderError> {
    /// What one stored card gives: what reading and checking it said, and
    /// the card when it could be read (its names hashed).
    struct Read {
        problems: Problems,
        card: Option<(Source, Checked, [u64; 4])>,
    }
    const BATCH: usize = 256;
    /// The threads that read and check cards.
    const CHECKERS: usize = 2;
    /// How many batches a thread may check before the fourth takes them:
    /// it adds the roster first, and meanwhile the cards are checked. A
    /// batch checked holds some 180 kB (about 720 bytes a card), so this
    /// bounds them to some 17 MB (a million players: 32 batches left a
    /// core idle while the roster was added; 128 and more took the peak
    /// past 150 MiB once the cards were read without a first pass; 64
    /// reached 150 MiB once the rows were written in chunks, and was no
    /// faster than 48 once the roster was added with its index read in
    /// bursts).
    const CHECKED_AHEAD: usize = 48;
    let rules = intake.rules().clone();
    let keep = intake.keeps_cards();
    let hasher = intake.roster().hasher();
    if let Some(log) = roster {
        store.reserve_roster(log, intake.roster_mut())?;
    }
    let db = store.path.display().to_string();
    let roster_source = store.roster_source();
    std::thread::scope(|scope| {
        // (every piece may wait: this thread reads the roster's parts, a
        // megabyte or so each, at once, and goes on to the cards while the
        // fourth adds the players; this costs at most the roster's bytes
        // once more, and lets the cards be read and checked meanwhile)
        let (to_adder, for_adder) = std::sync::mpsc::channel::<Vec<RosterPiece>>();
        let mut to_checkers = Vec::new();
        let mut checked = Vec::new();
        let mut checkers = Vec::new();
        for _ in 0..CHECKERS {
            let (to_checker, for_checker) = std::sync::mpsc::sync_channel::<StoredBatch>(2);
            let (to_adder, for_adder) = std::sync::mpsc::sync_channel::<Vec<Read>>(CHECKED_AHEAD);
            to_checkers.push(to_checker);
            checked.push(for_adder);
            // (named by where they came from: the reading commands are
            // the desk's)
            let mut reader = StoredReader::new(&db, true);
            let (rules, hasher) = (&rules, hasher.clone());
            checkers.push(scope.spawn(move || {
                let mut scratch = String::new();
                for cards in for_checker {
                    let mut batch = Vec::with_capacity(cards.keys.len());
                    cards.each(|key, lines, origin| {
                        let mut problems = Problems::new();
                        let raws = reader.read(key, lines, origin, &mut problems);
                        if raws.is_empty() {
                            batch.push(Read {
                                problems: std::mem::take(&mut problems),
                                card: None,
                            });
                        }
                        for mut raw in raws {
                            let values = check_values(&raw, rules, keep, &mut problems);
                            let mut hashes = [0u64; 4];
                            for s in &raw.seats {
                                hashes[s.seat.index()] = hasher.hash(&s.player, &mut scratch);
                            }
                            let checked = Checked::from_raw(&mut raw, values);
                            batch.push(Read {
                                problems: std::mem::take(&mut problems),
                                card: Some((raw.source, checked, hashes)),
                            });
                            // (its games' and seats' room kept for the cards
                            // to come)
                            reader.give_back(raw.games, raw.seats);
                        }
                    });
                    // (a closed channel: the other thread panicked, said below)
                    let _ = to_adder.send(batch);
                }
            }));
        }
        let adder = scope.spawn(move || {
            // The roster's parts are read into batches of players on a
            // thread beside this one, which adds each batch as it comes
            // (while the roster is added, the checking threads soon wait:
            // a million players read and added here took most of the
            // event's `qualifiers` at that size).
            let hasher = intake.roster().hasher();
            let roster_source = &roster_source;
            let next = std::thread::scope(|scope| {
                let (to_add, for_adding) = std::sync::mpsc::sync_channel::<Added>(2);
                let reader = scope.spawn(move || {
                    // the position of the next player of a part (None: a
                    // part could not be read)
                    let mut next = Some(1);
                    for piece in for_adder.into_iter().flatten() {
                        let added = match piece {
                            RosterPiece::Player(player) => Added::Player(player),
                            RosterPiece::Part(body) => {
                                let mut batch = crate::roster::Batch::new(hasher.clone());
                                next = next.and_then(|first| {
                                    read_players(&mut batch, &body, first, roster_source)
                                });
                                if next.is_none() {
                                    break; // (nothing of a damaged part is added)
                                }
                                Added::Batch(batch)
                            }
                        };
                        // (a closed channel: the adding thread panicked)
                        if to_add.send(added).is_err() {
                            break;
                        }
                    }
                    next
                });
                for added in for_adding {
                    match added {
                        Added::Player(player) => {
                            let _ = intake.roster_mut().add(player);
                        }
                        Added::Batch(batch) => intake.roster_mut().add_batch(&batch, |_, _| {}),
                    }
                }
                reader
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            });
            // (to come back to, should the cards be read again in another
            // order)
            let mark = (order == CardOrder::AsStored).then(|| intake.mark());
            // the names of the cards a few ahead are looked for while these
            // are named (see Roster::warm)
            let warm = |intake: &Intake, read: Option<&Read>| {
                if let Some((_, _, hashes)) = read.and_then(|r| r.card.as_ref()) {
                    for &h in hashes {
                        intake.roster().warm(h);
                    }
                }
            };
            // the batches in the order read: from each checker in turn,
            // till one has no more
            'batches: for turn in (0..CHECKERS).cycle() {
                let Ok(mut cards) = checked[turn].recv() else {
                    break 'batches;
                };
                for i in 0..cards.len() {
                    crate::roster::warm_ahead(i, &cards, |read| warm(&intake, Some(read)));
                    let read = &mut cards[i];
                    intake.problems.extend(std::mem::take(&mut read.problems));
                    if let Some((source, card, hashes)) = &read.card {
                        intake.add_checked(source, card, Some(hashes));
                    }
                }
            }
            (intake, next.is_some(), mark)
        });
        // (a roster stored a row a player is sent a batch of players at a
        // time, one stored in parts a part at a time)
        let mut pieces = Vec::new();
        let players = match roster {
            Some(log) => store.each_roster_piece(log, &mut |piece| {
                let part = matches!(piece, RosterPiece::Part(_));
                pieces.push(piece);
                if part || pieces.len() >= BATCH {
                    let _ = to_adder.send(std::mem::take(&mut pieces));
                }
            }),
            None => Ok(()),
        };
        let _ = to_adder.send(pieces);
        drop(to_adder);
        let mut stored = 0;
        let mut batch = StoredBatch::default();
        let mut turn = (0..CHECKERS).cycle();
        let mut send = |batch: StoredBatch| {
            let _ = to_checkers[turn.next().unwrap_or_default()].send(batch);
        };
        let mut each = |_, key: &CardKey, lines: &[StoredLine<&str>], origin: Origin<'_>| {
            stored += 1;
            batch.push(key, lines, origin);
            if batch.keys.len() >= BATCH {
                let next = StoredBatch::like(&batch);
                send(std::mem::replace(&mut batch, next));
            }
        };
        // (whether the cards came in their keys' order)
        let read = players.and_then(|()| match order {
            CardOrder::AsStored => store.each_card_as_stored(&mut each),
            CardOrder::ByKey => store.each_card_by_key(&mut each).map(|()| true),
        });
        if !batch.keys.is_empty() {
            send(batch);
        }
        drop(to_checkers);
        let mut panic = None;
        for checker in checkers {
            if let Err(p) = checker.join() {
                panic.get_or_insert(p);
            }
        }
        let (mut intake, roster_read, mark) = match (adder.join(), panic) {
            (Ok(added), None) => added,
            (Err(panic), _) | (_, Some(panic)) => std::panic::resume_unwind(panic),
        };
        let in_order = read?;
        if !roster_read {
            return Err(store.damaged_roster());
        }
        if !in_order {
            return Ok((intake, mark));
        }
        intake.counts.stored += stored;
        Ok((intake, None))
    })
}

/// Stored cards as read from the database, packed for the thread that
/// reads them (a few allocations a batch, not a few a line).
#[derive(Default)]
struct StoredBatch {
    keys: Vec<CardKey>,
    /// Where each card's lines end in `lines`.
    ends: Vec<usize>,
    /// The lines, each player's id a range of `text`.
    lines: Vec<StoredLine<(usize, usize)>>,
    /// Each card's [`Origin`]: its source and time, ranges of `text`.
    origins: Vec<[(usize, usize); 2]>,
    text: String,
}

impl StoredBatch {
    /// An empty batch with the room `full` took (a batch is not grown a
    /// line at a time).
    fn like(full: &StoredBatch) -> StoredBatch {
        StoredBatch {
            keys: Vec::with_capacity(full.keys.len()),
            ends: Vec::with_capacity(full.ends.len()),
            lines: Vec::with_capacity(full.lines.len()),
            origins: Vec::with_capacity(full.origins.len()),
            text: String::with_capacity(full.text.len()),
        }
    }

    fn push(&mut self, key: &CardKey, lines: &[StoredLine<&str>], origin: Origin<'_>) {
        self.keys.push(key.clone());
        // (the cards of one import share their origin: its text is kept
        // once a run of them, not copied for each card)
        let same = |(a, b): (usize, usize), t: &str| self.text.get(a..b) == Some(t);
        let origin = match self.origins.last() {
            Some(&[s, t]) if same(s, origin.source) && same(t, origin.time) => [s, t],
            _ => {
                let mut range = |t: &str| {
                    let start = self.text.len();
                    self.text.push_str(t);
                    (start, self.text.len())
                };
                [range(origin.source), range(origin.time)]
            }
        };
        self.origins.push(origin);
        for l in lines {
            let start = self.text.len();
            self.text.push_str(l.player);
            self.lines.push(StoredLine {
                game: l.game,
                seat: l.seat,
                player: (start, self.text.len()),
                won: l.won,
                score: l.score.clone(),
                tiles: l.tiles,
            });
        }
        self.ends.push(self.lines.len());
    }

    /// Each card, its key and lines.
    fn each(&self, mut f: impl FnMut(&CardKey, &[StoredLine<&str>], Origin<'_>)) {
        let mut lines = Vec::new();
        let mut start = 0;
        for ((key, &end), origin) in self.keys.iter().zip(&self.ends).zip(&self.origins) {
            lines.clear();
            lines.extend(self.lines[start..end].iter().map(|l| StoredLine {
                game: l.game,
                seat: l.seat,
                player: &self.text[l.player.0..l.player.1],
                won: l.won,
                score: l.score.clone(),
                tiles: l.tiles,
            }));
            let [source, time] = origin.map(|(a, b)| &self.text[a..b]);
            f(key, &lines, Origin { source, time });
            start = end;
        }
    }
}

/// The stored cards as the results layout reads them, each from a sheet
/// of its own in the database (`tilerank.db[prelim-S01-T07]`): its header
/// ([`CARD_HEADER`]) on row 1, a line a row, values cells as a file's are,
/// a score exact. The lines are read where they lie, by the layout's own
/// reader ([`ingest::results::add_line`]); the header is mapped once.
struct StoredReader {
    db: String,
    /// Each card is named by where it came from ([`entry::origin_said`]),
    /// not by its sheet of the database, when that is known.
    origins: bool,
    /// The last origin said: its source, time and words (the cards of a
    /// file share them).
    origin: Option<(String, String, Option<std::sync::Arc<str>>)>,
    columns: ingest::header::ColumnMap,
    grouper: ingest::lines::Grouper<ingest::raw::RawLine>,
    stages: ingest::lines::StageCache,
    /// The stage and session of the card read before, and their texts.
    last: Option<(Stage, Label, [ingest::cell::Text; 2])>,
}

impl StoredReader {
    fn new(db: &str, origins: bool) -> StoredReader {
        let header: Vec<String> = CARD_HEADER.iter().map(|h| h.to_string()).collect();
        let columns = ingest::header::map_header(&header, &ingest::results::columns())
            .expect("the stored cards' header is the results layout's");
        debug_assert!(columns.unknown.is_empty() && columns.twice.is_empty());
        let source = Source::sheet(db, "");
        StoredReader {
            db: db.to_string(),
            origins,
            origin: None,
            columns,
            grouper: ingest::lines::Grouper::new(&source),
            stages: ingest::lines::StageCache::default(),
            last: None,
        }
    }

    /// The texts of the stage, session and table of `key`, as a results
    /// file writes them. (The stage's and session's are kept from the card
    /// before: the cards of a session follow one another.)
    fn texts(&mut self, key: &CardKey) -> [ingest::cell::Text; 3] {
        use compact_str::ToCompactString;
        let table = match &key.table {
            Label::Num(n) => ingest::cell::Text::new(itoa::Buffer::new().format(*n)),
            table => table.to_compact_string(),
        };
        match &self.last {
            Some((stage, session, [s, t])) if *stage == key.stage && *session == key.session => {
                [s.clone(), t.clone(), table]
            }
            _ => {
                let texts = [
                    key.stage.to_compact_string(),
                    SessionName(&key.session).to_compact_string(),
                ];
                self.last = Some((key.stage.clone(), key.session.clone(), texts.clone()));
                let [s, t] = texts;
                [s, t, table]
            }
        }
    }

    /// Where a card came from, in words, when cards are named so.
    fn origin_words(&mut self, origin: Origin<'_>) -> Option<std::sync::Arc<str>> {
        if !self.origins {
            return None;
        }
        match &self.origin {
            Some((source, time, words)) if source == origin.source && time == origin.time => {
                words.clone()
            }
            _ => {
                let words = entry::origin_said(origin.source, origin.time)
                    .map(|s| std::sync::Arc::from(s.to_string()));
                self.origin = Some((origin.source.into(), origin.time.into(), words.clone()));
                words
            }
        }
    }

    /// A card's games and list of seats, done with: their room is used
    /// for the cards to come.
    fn give_back(&mut self, games: Vec<ingest::raw::RawGame>, seats: Vec<ingest::raw::RawSeat>) {
        self.grouper.give_back(games, seats);
    }

    /// The card of `key` whose lines are `lines`, as read (a card, or none
    /// when its lines cannot be placed: a hand-edited database).
    fn read<P: AsRef<str>>(
        &mut self,
        key: &CardKey,
        lines: &[StoredLine<P>],
        origin: Origin<'_>,
        problems: &mut Problems,
    ) -> Vec<RawCard> {
        let origin = self.origin_words(origin);
        let source = Source::sheet_from(&self.db, &key.name(), origin);
        let texts = self.texts(key);
        // the card its texts name, read once: when it is the one stored
        // (always, but in a hand-edited database), its lines give it as
        // it is
        let read = self.stages.key([&texts[0], &texts[1], &texts[2]]);
        let card = read.as_ref().filter(|read| *read == key);
        self.grouper.restart(&source);
        for (i, line) in lines.iter().enumerate() {
            let mut row = StoredRow::new(i as u32 + 2, &texts, card, line);
            if row.is_blank() {
                continue;
            }
            ingest::results::add_line(
                &source,
                &self.columns,
                &mut row,
                &mut self.stages,
                &mut self.grouper,
                problems,
            );
        }
        self.grouper.end_run(problems);
        ingest::results::cards(&source, &mut self.grouper).collect()
    }
}

/// One line of a stored card as a row of its sheet: the cells of
/// [`CARD_HEADER`], column 1 on, each made when it is read. Its game and
/// seat are given as they are stored ([`ingest::lines::Fields::whole`],
/// [`ingest::lines::Fields::seat`]), written as text only for a message;
/// its won and tiles are number cells, as a workbook's are (said the same
/// in a message: `200`).
struct StoredRow<'a, P> {
    number: u32,
    /// The card's stage, session and table as written.
    key: &'a [ingest::cell::Text; 3],
    /// The card those name, when known ([`ingest::lines::Fields::card`]).
    card: Option<&'a CardKey>,
    line: &'a StoredLine<P>,
    /// The cells taken out (see [`ingest::lines::Fields::take`]), by bit.
    taken: u16,
}

impl<'a, P: AsRef<str>> StoredRow<'a, P> {
    fn new(
        number: u32,
        key: &'a [ingest::cell::Text; 3],
        card: Option<&'a CardKey>,
        line: &'a StoredLine<P>,
    ) -> Self {
        StoredRow {
            number,
            key,
            card,
            line,
            taken: 0,
        }
    }

    /// Cell `i` as text when it holds text (all but an exact score).
    fn field(&self, i: usize) -> std::borrow::Cow<'_, str> {
        use std::borrow::Cow::{Borrowed, Owned};
        match i {
            0..=2 => Borrowed(&self.key[i]),
            3 => Owned(itoa::Buffer::new().format(self.line.game).to_string()),
            4 => Borrowed(["A", "B", "C", "D"][self.line.seat.index()]),
            5 => Borrowed(self.line.player.as_ref()),
            6 => Borrowed(if self.line.won { "1" } else { "0" }),
            7 => match &self.line.score {
                StoredScore::Text(t) => Borrowed(t),
                StoredScore::Exact(_) => Borrowed(""),
            },
            8 => match self.line.tiles {
                Some(t) => Owned(itoa::Buffer::new().format(t).to_string()),
                None => Borrowed(""),
            },
            _ => Borrowed(""),
        }
    }

    fn cell(&self, i: usize) -> Cell {
        let text = |t: &str| match t {
            "" => Cell::Empty,
            t => Cell::Text(t.into()),
        };
        if self.taken & (1 << i) != 0 {
            return Cell::Empty;
        }
        // (the values a card keeps made at once: a million lines)
        match (i, &self.line.score) {
            (5, _) => text(self.line.player.as_ref()),
            (6, _) => Cell::Number(if self.line.won { 1.0 } else { 0.0 }),
            (7, StoredScore::Exact(s)) => Cell::Exact(*s),
            (8, _) => self
                .line
                .tiles
                .map_or(Cell::Empty, |t| Cell::Number(f64::from(t))),
            _ => text(&self.field(i)),
        }
    }

    fn is_blank(&self) -> bool {
        !matches!(self.line.score, StoredScore::Exact(_))
            && (0..CARD_HEADER.len()).all(|i| self.field(i).is_empty())
    }
}

impl<P: AsRef<str>> ingest::lines::Fields for StoredRow<'_, P> {
    fn number(&self) -> u32 {
        self.number
    }

    fn at(&self, i: usize) -> crate::place::At {
        crate::place::At::cell(self.number, 1 + i as u32)
    }

    fn text(&self, i: usize) -> std::borrow::Cow<'_, str> {
        match &self.line.score {
            StoredScore::Exact(_) if i == 7 => self.cell(i).text_ref().into_owned().into(),
            _ if self.taken & (1 << i) != 0 => "".into(),
            _ => self.field(i),
        }
    }

    fn take(&mut self, i: usize) -> Cell {
        let cell = self.cell(i);
        if i < CARD_HEADER.len() {
            self.taken |= 1 << i;
        }
        cell
    }

    fn whole(&self, i: usize) -> Option<u32> {
        match i {
            3 if self.taken & (1 << i) == 0 => Some(self.line.game),
            _ => ingest::lines::whole_number_text(&self.text(i)),
        }
    }

    fn seat(&self, i: usize) -> Option<Seat> {
        match i {
            4 if self.taken & (1 << i) == 0 => Some(self.line.seat),
            _ => Seat::parse(&self.text(i)),
        }
    }

    fn card(&self) -> Option<&CardKey> {
        self.card
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    /// What differs between the event's card and a typing of it is said
    /// line by line in the message's language: the Chinese message's lines
    /// are Chinese, the English one's as they were.
    #[test]
    fn what_differs_is_said_in_each_language() {
        let key = CardKey {
            stage: Stage::new(Stage::DEFAULT),
            session: Label::Num(1),
            table: Label::Num(2),
        };
        let line = |game, seat, player: &str, score| StoredLine {
            game,
            seat,
            player: player.to_string(),
            won: false,
            score: StoredScore::Exact(Score::whole(score)),
            tiles: Some(5),
        };
        let was = [line(3, Seat::A, "H01", -5), line(3, Seat::B, "H02", -7)];
        let now = [line(3, Seat::A, "H01", -6), line(3, Seat::B, "H03", -8)];
        let said = Said::new(
            Msg::EnteredDiffers,
            [key.said(), Part::text("Ann Lee"), diff(&key, &was, &now)],
        );
        assert_eq!(
            said.say(Lang::En),
            "session S01 table 2 was entered by referee Ann Lee and differs (their card vs this one):\n  \
             game 3, seat A: score -5 vs -6\n  \
             game 3, seat B: player H02 vs H03 and score -7 vs -8\n"
        );
        assert_eq!(
            said.say(Lang::ZhHant),
            "場次 S01 第 2 枱已由裁判 Ann Lee 輸入，內容不同（其計分卡對此計分卡）：\n  \
             第 3 局，座位 A：得分 -5 對 -6\n  \
             第 3 局，座位 B：選手 H02 對 H03 和得分 -7 對 -8\n"
        );
    }

    /// A stored line's game and seat are given to the layout's reader as
    /// they are stored, and a bad value (a hand-edited database) is still
    /// named at its cell as a file's would be.
    #[test]
    fn stored_lines_are_read_as_the_layout_reads_a_file() {
        let key = CardKey {
            stage: Stage::new(Stage::DEFAULT),
            session: Label::Num(1),
            table: Label::Num(7),
        };
        let line = |game, seat, player: &str| StoredLine {
            game,
            seat,
            player: player.to_string(),
            won: false,
            score: StoredScore::Exact(Score::whole(-5)),
            tiles: Some(5),
        };
        let mut reader = StoredReader::new("tilerank.db", false);
        let mut problems = Problems::new();
        let good = [line(2, Seat::C, "P1"), line(2, Seat::A, "P2")];
        let cards = reader.read(&key, &good, Origin::default(), &mut problems);
        assert!(problems.is_empty());
        let [card] = &cards[..] else {
            panic!("one card: {cards:?}")
        };
        assert_eq!(card.games.len(), 1);
        assert_eq!(card.games[0].number, 2);
        let seats: Vec<(Seat, &str)> = card
            .seats
            .iter()
            .map(|s| (s.seat, s.player.as_str()))
            .collect();
        assert_eq!(seats, [(Seat::A, "P2"), (Seat::C, "P1")]);
        assert_eq!(card.source.to_string(), "tilerank.db[prelim-S01-T07]");

        let bad = [line(0, Seat::B, "P1"), line(1, Seat::D, "")];
        reader.read(&key, &bad, Origin::default(), &mut problems);
        // tiles past the most a rack holds, and a won given (as a number,
        // as a workbook's) beside it
        let too_many = StoredLine {
            tiles: Some(200),
            won: true,
            ..line(1, Seat::A, "P3")
        };
        for raw in reader.read(&key, &[too_many], Origin::default(), &mut problems) {
            check_values(&raw, &Rules::hk(), false, &mut problems);
        }
        let said: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(
            said[..2],
            [
                "tilerank.db[prelim-S01-T07]!D2: error: game is 0; expected a game number 1, 2, 3...",
                "tilerank.db[prelim-S01-T07]!F3: error: player is blank; expected a roster id or name",
            ]
        );
        // (the card's other errors, one player seated, are said beside)
        let tiles: Vec<&String> = said.iter().filter(|s| s.contains("tiles")).collect();
        assert_eq!(
            tiles,
            ["tilerank.db[prelim-S01-T07]!I2: error: tiles is 200; expected a whole number of tiles from 0 to 106"]
        );

        // a key no file could name (a hand-edited database: a blank
        // session) is read from its cells, as a file's line is, and said
        let blank = CardKey {
            session: Label::Text(" ".into()),
            ..key.clone()
        };
        let mut problems = Problems::new();
        let cards = reader.read(&blank, &good, Origin::default(), &mut problems);
        assert!(cards.is_empty());
        let said: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(
            said[0],
            "tilerank.db[prelim-_-T07]!B2: error: session is blank; expected a session such as S01 or 1"
        );
    }

    #[test]
    fn scores_are_stored_exactly_and_read_back() {
        for (n, d, text) in [
            (-12, 1, "-12"),
            (0, 1, "0"),
            (15, 2, "7.5"),
            (-1, 8, "-0.125"),
            (7, 1_000_000, "0.000007"),
            (41, 3, "13.666667"),
            (-10, 3, "-3.333333"),
        ] {
            let s = Score::ratio(n, d);
            assert_eq!(score_text(&s), text);
            let back = Score::parse(text).unwrap();
            let back = if d == 3 { back.snap(6).unwrap() } else { back };
            assert_eq!(back, s, "{text}");
        }
    }
}
