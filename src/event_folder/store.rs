//! `tilerank.db`: the SQLite database of an event folder, and its schema.
//!
//! Only SQL lives here; what the rows mean (cards checked, imports,
//! dumps) is in the parent module. The schema is [`MIGRATIONS`], versioned
//! by `PRAGMA user_version` and brought up to date in one transaction when
//! the database is opened, in the manner of cargo's `util/sqlite.rs`.

use super::FolderError;
use crate::domain::{CardKey, Label, SessionName, Stage};
use crate::place::Source;
use crate::roster::{Player, Roster, Status};
use rusqlite::types::ValueRef;
use rusqlite::{params, Connection, ErrorCode, OpenFlags};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a command that writes waits for another one to finish.
pub const WAIT_FOR_WRITER: Duration = Duration::from_secs(600);
/// How long a reading command waits for a commit under way.
const WAIT_FOR_READ: Duration = Duration::from_secs(60);

/// The schema, one step per version (`PRAGMA user_version` is the number of
/// steps applied). Append a step to change it; never edit a step.
pub const MIGRATIONS: &[&str] = &[
    // 1: the first schema.
    "
    -- What was stored, when, from which file: one row per command and file
    -- that changed the event. Append-only.
    CREATE TABLE log (
        id      INTEGER PRIMARY KEY,   -- in the order stored
        time    TEXT NOT NULL,         -- UTC, 2026-03-28T12:45:00Z
        action  TEXT NOT NULL,         -- roster | import | replace
        file    TEXT NOT NULL,         -- as named on the command line
        sha256  TEXT NOT NULL,         -- of the file's bytes
        stage   TEXT NOT NULL,         -- the stages of its cards, space separated
        cards   INTEGER NOT NULL,      -- players, for a roster
        games   INTEGER NOT NULL,
        reason  TEXT NOT NULL          -- why cards were replaced
    );
    CREATE TRIGGER log_is_append_only_update BEFORE UPDATE ON log
        BEGIN SELECT RAISE(ABORT, 'the import log is append-only'); END;
    CREATE TRIGGER log_is_append_only_delete BEFORE DELETE ON log
        BEGIN SELECT RAISE(ABORT, 'the import log is append-only'); END;

    -- Every roster stored; the event's is the newest (the highest log id).
    CREATE TABLE players (
        log        INTEGER NOT NULL REFERENCES log(id),
        position   INTEGER NOT NULL,   -- 1-based, the roster's order
        id         TEXT NOT NULL,
        name       TEXT NOT NULL,
        birth_date TEXT,               -- YYYY-MM-DD
        age        INTEGER,
        family     TEXT,
        status     TEXT NOT NULL,      -- '' | withdrawn | disqualified
        grp        TEXT,               -- the age group the roster gives
        PRIMARY KEY (log, position)
    );

    -- Every card stored. A replaced card stays, with the log row (time,
    -- reason) of the import that replaced it.
    CREATE TABLE cards (
        id          INTEGER PRIMARY KEY,
        stage       TEXT NOT NULL,     -- prelim | semi | final | ...
        session     TEXT NOT NULL,     -- S01, or the label as written
        tbl         TEXT NOT NULL,     -- 7, or the label as written
        log         INTEGER NOT NULL REFERENCES log(id),
        source      TEXT NOT NULL,     -- where it was read: S01.xlsx[Table 7]
        replaced_by INTEGER REFERENCES log(id)   -- NULL: the event's card
    );
    CREATE UNIQUE INDEX one_card_per_table ON cards (stage, session, tbl)
        WHERE replaced_by IS NULL;

    -- A card's lines in the results layout: one per seat per game.
    CREATE TABLE lines (
        card    INTEGER NOT NULL REFERENCES cards(id),
        line    INTEGER NOT NULL,      -- 1-based, in game and seat order
        game    INTEGER NOT NULL,
        seat    TEXT NOT NULL,         -- A B C D
        player  TEXT NOT NULL,         -- roster id
        won     INTEGER NOT NULL,      -- 1 | 0
        score   TEXT NOT NULL,         -- -12, 7.5; a third: 13.666667
        tiles   INTEGER,               -- NULL: a knocked rack not counted
        PRIMARY KEY (card, line)
    );
    ",
];

/// One line of a stored card, as the `lines` table holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct StoredLine {
    pub game: u32,
    pub seat: String,
    pub player: String,
    pub won: bool,
    pub score: String,
    pub tiles: Option<u16>,
}

/// One stored card.
#[derive(Debug, Clone)]
pub(super) struct StoredCard {
    pub id: i64,
    pub key: CardKey,
    pub lines: Vec<StoredLine>,
}

/// A row of the log table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogEntry {
    pub time: String,
    pub action: String,
    pub file: String,
    pub sha256: String,
    pub stage: String,
    pub cards: i64,
    pub games: i64,
    pub reason: String,
}

impl LogEntry {
    pub const COLUMNS: [&'static str; 8] = [
        "time", "action", "file", "sha256", "stage", "cards", "games", "reason",
    ];

    pub fn fields(&self) -> [String; 8] {
        [
            self.time.clone(),
            self.action.clone(),
            self.file.clone(),
            self.sha256.clone(),
            self.stage.clone(),
            self.cards.to_string(),
            self.games.to_string(),
            self.reason.clone(),
        ]
    }
}

fn is_busy(e: &rusqlite::Error) -> bool {
    e.sqlite_error_code()
        .is_some_and(|c| matches!(c, ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked))
}

/// An open `tilerank.db`.
pub struct Store {
    pub(super) conn: Connection,
    pub(super) path: PathBuf,
    /// How long a write waits for another writer.
    wait: Duration,
}

/// A transaction: rolled back when dropped uncommitted (a failed command).
pub(super) struct Transaction<'a> {
    conn: &'a Connection,
    done: bool,
}

impl Transaction<'_> {
    pub(super) fn commit(mut self) -> rusqlite::Result<()> {
        self.conn.execute_batch("COMMIT")?;
        self.done = true;
        Ok(())
    }
}

impl Drop for Transaction<'_> {
    fn drop(&mut self) {
        if !self.done && !self.conn.is_autocommit() {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
    }
}

impl Store {
    /// Opens (`create`: creates) the database and brings its schema up to date.
    pub fn open(path: &Path, create: bool) -> Result<Store, FolderError> {
        let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        if create {
            flags |= OpenFlags::SQLITE_OPEN_CREATE;
        }
        let conn = Connection::open_with_flags(path, flags).map_err(|e| FolderError::Database {
            path: path.display().to_string(),
            reason: format!("cannot be opened: {e}"),
        })?;
        let store = Store {
            conn,
            path: path.to_path_buf(),
            wait: WAIT_FOR_WRITER,
        };
        store
            .conn
            .busy_timeout(WAIT_FOR_READ)
            .map_err(|e| store.error(e))?;
        store
            .conn
            .execute_batch(
                "PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;",
            )
            .map_err(|e| store.error(e))?;
        store.migrate()?;
        Ok(store)
    }

    /// A database error, said for the director.
    pub(super) fn error(&self, e: rusqlite::Error) -> FolderError {
        let reason = match e.sqlite_error_code() {
            Some(ErrorCode::DiskFull) => {
                "the disk is full: nothing of this command was stored, the event is as it was"
                    .to_string()
            }
            Some(ErrorCode::ReadOnly) => "cannot be written (a read-only folder or file): nothing of this command was stored, the event is as it was".to_string(),
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => "another tilerank kept this event busy longer than this one waits (a writer up to 10 minutes, a reader 1 minute): nothing of this command was stored; try again".to_string(),
            Some(ErrorCode::SystemIoFailure) => "cannot be written (a disk error): nothing of this command was stored, the event is as it was".to_string(),
            Some(ErrorCode::NotADatabase) => "is not a tilerank database (or is damaged)".to_string(),
            _ => format!("database error: {e}"),
        };
        FolderError::Database {
            path: self.path.display().to_string(),
            reason,
        }
    }

    pub(super) fn version(&self) -> Result<usize, FolderError> {
        let v: i64 = self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(|e| self.error(e))?;
        Ok(v.max(0) as usize)
    }

    pub(super) fn migrate(&self) -> Result<(), FolderError> {
        let version = self.version()?;
        if version == MIGRATIONS.len() {
            return Ok(());
        }
        if version > MIGRATIONS.len() {
            return Err(FolderError::Database {
                path: self.path.display().to_string(),
                reason: format!(
                    "was written by a newer tilerank (schema {version}; this one knows {}): update tilerank",
                    MIGRATIONS.len()
                ),
            });
        }
        let tx = self.begin_write(&mut || {})?;
        // Another process may have migrated while this one waited.
        let version = self.version()?;
        for step in MIGRATIONS.iter().skip(version) {
            self.conn.execute_batch(step).map_err(|e| self.error(e))?;
        }
        self.conn
            .pragma_update(None, "user_version", MIGRATIONS.len() as i64)
            .map_err(|e| self.error(e))?;
        tx.commit().map_err(|e| self.error(e))
    }

    /// `BEGIN IMMEDIATE`: takes the write lock, calling `on_wait` once when
    /// another process holds it, then waiting up to [`WAIT_FOR_WRITER`] (or
    /// what [`Store::wait_for_writers`] set).
    pub(super) fn begin_write(
        &self,
        on_wait: &mut dyn FnMut(),
    ) -> Result<Transaction<'_>, FolderError> {
        let conn = &self.conn;
        conn.busy_timeout(Duration::ZERO)
            .map_err(|e| self.error(e))?;
        let first = conn.execute_batch("BEGIN IMMEDIATE");
        conn.busy_timeout(self.wait).map_err(|e| self.error(e))?;
        match first {
            Ok(()) => {}
            Err(e) if is_busy(&e) => {
                on_wait();
                conn.execute_batch("BEGIN IMMEDIATE")
                    .map_err(|e| self.error(e))?;
            }
            Err(e) => return Err(self.error(e)),
        }
        Ok(Transaction { conn, done: false })
    }

    /// A read transaction: what is read inside it is one committed state.
    pub(super) fn begin_read(&self) -> Result<Transaction<'_>, FolderError> {
        self.conn
            .execute_batch("BEGIN DEFERRED")
            .map_err(|e| self.error(e))?;
        Ok(Transaction {
            conn: &self.conn,
            done: false,
        })
    }

    /// How long a write waits for another writer before it gives up
    /// (default [`WAIT_FOR_WRITER`]).
    pub fn wait_for_writers(&mut self, wait: Duration) {
        self.wait = wait;
    }

    /// Caps the database at `pages` pages (of 4 KiB): past it a write fails as
    /// on a full disk. For tests of a full disk.
    pub fn limit_pages(&self, pages: u32) -> Result<(), FolderError> {
        self.conn
            .query_row(&format!("PRAGMA max_page_count = {pages}"), [], |_| Ok(()))
            .map_err(|e| self.error(e))
    }

    /// The newest roster: `None` when none was stored.
    pub(super) fn roster(&self) -> Result<Option<Roster>, FolderError> {
        let e = |e| self.error(e);
        let newest: Option<i64> = self
            .conn
            .query_row("SELECT max(log) FROM players", [], |r| r.get(0))
            .map_err(e)?;
        let Some(log) = newest else {
            return Ok(None);
        };
        let source = Source::sheet(&self.path.display().to_string(), "roster");
        let mut stmt = self
            .conn
            .prepare(
                "SELECT position, id, name, birth_date, age, family, status, grp
                 FROM players WHERE log = ?1 ORDER BY position",
            )
            .map_err(e)?;
        let mut rows = stmt.query([log]).map_err(e)?;
        let mut roster = Roster::default();
        while let Some(r) = rows.next().map_err(e)? {
            let position: u32 = r.get(0).map_err(e)?;
            let status: String = r.get(6).map_err(e)?;
            let player = Player {
                id: r.get(1).map_err(e)?,
                name: r.get(2).map_err(e)?,
                birth_date: r.get(3).map_err(e)?,
                age: r.get(4).map_err(e)?,
                family: r.get(5).map_err(e)?,
                status: Status::parse(&status).unwrap_or_default(),
                group: r.get(7).map_err(e)?,
                // the line of roster.csv in a dump
                place: Some(source.at(position + 1, None)),
            };
            let _ = roster.add(player);
        }
        Ok(Some(roster))
    }

    pub(super) fn roster_rows(&self) -> Result<Vec<Vec<String>>, FolderError> {
        let Some(roster) = self.roster()? else {
            return Ok(Vec::new());
        };
        Ok(roster.iter().map(|(_, p)| roster_fields(&p)).collect())
    }

    /// The event's cards (not the replaced ones), in stage, session, table order.
    pub(super) fn cards(&self) -> Result<Vec<StoredCard>, FolderError> {
        let e = |e| self.error(e);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT c.id, c.stage, c.session, c.tbl,
                        l.game, l.seat, l.player, l.won, l.score, l.tiles
                 FROM cards c JOIN lines l ON l.card = c.id
                 WHERE c.replaced_by IS NULL
                 ORDER BY c.id, l.line",
            )
            .map_err(e)?;
        let mut rows = stmt.query([]).map_err(e)?;
        let mut cards: Vec<StoredCard> = Vec::new();
        while let Some(r) = rows.next().map_err(e)? {
            let id: i64 = r.get(0).map_err(e)?;
            if cards.last().is_none_or(|c| c.id != id) {
                let stage: String = r.get(1).map_err(e)?;
                let session: String = r.get(2).map_err(e)?;
                let table: String = r.get(3).map_err(e)?;
                cards.push(StoredCard {
                    id,
                    key: CardKey {
                        stage: Stage::new(&stage),
                        session: Label::session(&session).unwrap_or(Label::Text(session)),
                        table: Label::table(&table).unwrap_or(Label::Text(table)),
                    },
                    lines: Vec::new(),
                });
            }
            let tiles: Option<i64> = r.get(9).map_err(e)?;
            let line = StoredLine {
                game: r.get(4).map_err(e)?,
                seat: r.get(5).map_err(e)?,
                player: r.get(6).map_err(e)?,
                won: r.get::<_, i64>(7).map_err(e)? != 0,
                score: r.get(8).map_err(e)?,
                tiles: tiles.and_then(|t| u16::try_from(t).ok()),
            };
            if let Some(card) = cards.last_mut() {
                card.lines.push(line);
            }
        }
        cards.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(cards)
    }

    pub(super) fn log(&self) -> Result<Vec<LogEntry>, FolderError> {
        let e = |e| self.error(e);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT time, action, file, sha256, stage, cards, games, reason
                 FROM log ORDER BY id",
            )
            .map_err(e)?;
        let rows = stmt
            .query_map([], |r| {
                // Whatever bytes a cell holds (a hand-edited database), the log
                // shows them: text as it is, anything else as text.
                let text = |i: usize| -> rusqlite::Result<String> {
                    Ok(match r.get_ref(i)? {
                        ValueRef::Null => String::new(),
                        ValueRef::Integer(n) => n.to_string(),
                        ValueRef::Real(x) => x.to_string(),
                        ValueRef::Text(b) | ValueRef::Blob(b) => {
                            String::from_utf8_lossy(b).into_owned()
                        }
                    })
                };
                let int = |i: usize| -> rusqlite::Result<i64> {
                    Ok(match r.get_ref(i)? {
                        ValueRef::Integer(n) => n,
                        _ => text(i)?.trim().parse().unwrap_or(0),
                    })
                };
                Ok(LogEntry {
                    time: text(0)?,
                    action: text(1)?,
                    file: text(2)?,
                    sha256: text(3)?,
                    stage: text(4)?,
                    cards: int(5)?,
                    games: int(6)?,
                    reason: text(7)?,
                })
            })
            .map_err(e)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(e)
    }

    pub(super) fn append_log(&self, entry: &LogEntry) -> Result<i64, FolderError> {
        self.conn
            .execute(
                "INSERT INTO log (time, action, file, sha256, stage, cards, games, reason)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    entry.time,
                    entry.action,
                    entry.file,
                    entry.sha256,
                    entry.stage,
                    entry.cards,
                    entry.games,
                    entry.reason
                ],
            )
            .map_err(|e| self.error(e))?;
        Ok(self.conn.last_insert_rowid())
    }

    pub(super) fn insert_roster(&self, log: i64, roster: &Roster) -> Result<(), FolderError> {
        let e = |e| self.error(e);
        let mut stmt = self
            .conn
            .prepare(
                "INSERT INTO players (log, position, id, name, birth_date, age, family, status, grp)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )
            .map_err(e)?;
        for (i, (_, p)) in roster.iter().enumerate() {
            stmt.execute(params![
                log,
                i as i64 + 1,
                p.id,
                p.name,
                p.birth_date,
                p.age,
                p.family,
                status_text(p.status),
                p.group
            ])
            .map_err(e)?;
        }
        Ok(())
    }

    pub(super) fn insert_card(
        &self,
        log: i64,
        key: &CardKey,
        source: &str,
        lines: &[StoredLine],
    ) -> Result<(), FolderError> {
        let e = |e| self.error(e);
        self.conn
            .execute(
                "INSERT INTO cards (stage, session, tbl, log, source) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    key.stage.to_string(),
                    SessionName(&key.session).to_string(),
                    key.table.to_string(),
                    log,
                    source
                ],
            )
            .map_err(e)?;
        let card = self.conn.last_insert_rowid();
        let mut stmt = self
            .conn
            .prepare_cached(
                "INSERT INTO lines (card, line, game, seat, player, won, score, tiles)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )
            .map_err(e)?;
        for (i, l) in lines.iter().enumerate() {
            stmt.execute(params![
                card,
                i as i64 + 1,
                l.game,
                l.seat,
                l.player,
                l.won,
                l.score,
                l.tiles
            ])
            .map_err(e)?;
        }
        Ok(())
    }
}

pub(super) fn status_text(s: Status) -> &'static str {
    match s {
        Status::Active => "",
        Status::Withdrawn => "withdrawn",
        Status::Disqualified => "disqualified",
    }
}

pub(super) const ROSTER_HEADER: [&str; 7] = [
    "id",
    "name",
    "birth_date",
    "age",
    "family",
    "status",
    "group",
];

pub(super) fn roster_fields(p: &Player) -> Vec<String> {
    vec![
        p.id.clone(),
        p.name.clone(),
        p.birth_date.clone().unwrap_or_default(),
        p.age.map(|a| a.to_string()).unwrap_or_default(),
        p.family.clone().unwrap_or_default(),
        status_text(p.status).to_string(),
        p.group.clone().unwrap_or_default(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_is_applied_once_and_versioned() {
        let dir = std::env::temp_dir().join(format!("tilerank-schema-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(super::super::DB_FILE);
        let store = Store::open(&path, true).unwrap();
        assert_eq!(store.version().unwrap(), MIGRATIONS.len());
        drop(store);
        // Opening again applies nothing (a second CREATE TABLE would fail).
        let store = Store::open(&path, false).unwrap();
        assert_eq!(store.version().unwrap(), MIGRATIONS.len());
        // The log is append-only.
        store
            .append_log(&LogEntry {
                time: super::super::utc_now(),
                action: "import".into(),
                file: "x.csv".into(),
                sha256: String::new(),
                stage: String::new(),
                cards: 0,
                games: 0,
                reason: String::new(),
            })
            .unwrap();
        let err = store.conn.execute("DELETE FROM log", []).unwrap_err();
        assert!(err.to_string().contains("append-only"), "{err}");
        // A newer schema is refused, not guessed at.
        store.conn.pragma_update(None, "user_version", 99).unwrap();
        drop(store);
        let err = Store::open(&path, false).err().unwrap().to_string();
        assert!(err.contains("newer tilerank"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
