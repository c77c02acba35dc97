//! `tilerank.db`: the SQLite database of an event folder, and its schema.
//!
//! Only SQL lives here; what the rows mean (cards checked, imports,
//! dumps) is in the parent module. The schema is [`MIGRATIONS`], versioned
//! by `PRAGMA user_version` and brought up to date in one transaction when
//! the database is opened, in the manner of cargo's `util/sqlite.rs`.

use super::FolderError;
use crate::domain::{CardKey, Label, Seat, SessionName, Stage};
use crate::place::Source;
use crate::roster::{Player, Roster, Status};
use crate::score::Score;
use rusqlite::types::ValueRef;
use rusqlite::{params, Connection, ErrorCode, OpenFlags, OptionalExtension};
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
    // 2: a card's lines in one value beside it, numbers as numbers (see
    // `encode_lines`): reading an event reads one row a card. Cards stored
    // under schema 1 keep their rows in `lines` (body NULL) and read as
    // before.
    "
    ALTER TABLE cards ADD COLUMN body BLOB;
    ",
    // 3: the referees of the live desk (issue 21), each known by a key of
    // their own, of which only the SHA-256 is kept. A referee is never
    // deleted, and revoked once for good.
    "
    CREATE TABLE referees (
        id       INTEGER PRIMARY KEY,  -- in the order added
        name     TEXT NOT NULL,
        key_hash TEXT NOT NULL UNIQUE, -- SHA-256 of the key, hex
        added    TEXT NOT NULL,        -- UTC, 2026-03-28T12:45:00Z
        revoked  TEXT                  -- UTC; NULL: active
    );
    CREATE UNIQUE INDEX one_active_referee_per_name ON referees (name)
        WHERE revoked IS NULL;
    CREATE TRIGGER referees_are_kept BEFORE DELETE ON referees
        BEGIN SELECT RAISE(ABORT, 'a referee is kept: revoke them instead'); END;
    CREATE TRIGGER referees_are_only_revoked BEFORE UPDATE ON referees
        WHEN OLD.revoked IS NOT NULL OR NEW.revoked IS NULL
            OR NEW.name IS NOT OLD.name OR NEW.key_hash IS NOT OLD.key_hash
            OR NEW.added IS NOT OLD.added
        BEGIN SELECT RAISE(ABORT, 'a referee is only ever revoked, once'); END;
    ",
    // 4: cards entered at the table (issue 21): every referee's entry as
    // posted, and the director's decisions between an entry and the
    // event's card. Both append-only.
    "
    CREATE TABLE entries (
        id       INTEGER PRIMARY KEY,  -- in the order posted
        time     TEXT NOT NULL,        -- UTC
        referee  TEXT NOT NULL,        -- the referee's name
        stage    TEXT NOT NULL,
        session  TEXT NOT NULL,
        tbl      TEXT NOT NULL,
        body     BLOB NOT NULL,        -- the card as posted (results layout)
        outcome  TEXT NOT NULL,        -- stored | same | waiting | conflict
        log      INTEGER REFERENCES log(id)  -- the import that stored it
    );
    CREATE TRIGGER entries_are_kept_update BEFORE UPDATE ON entries
        BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END;
    CREATE TRIGGER entries_are_kept_delete BEFORE DELETE ON entries
        BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END;
    CREATE TABLE decisions (
        id         INTEGER PRIMARY KEY,
        time       TEXT NOT NULL,      -- UTC
        stage      TEXT NOT NULL,
        session    TEXT NOT NULL,
        tbl        TEXT NOT NULL,
        entry      INTEGER REFERENCES entries(id), -- accepted; NULL: the event's card stands
        last_entry INTEGER NOT NULL,   -- the table's latest entry when decided
        reason     TEXT NOT NULL,
        log        INTEGER REFERENCES log(id)      -- the import it made, if any
    );
    CREATE TRIGGER decisions_are_kept_update BEFORE UPDATE ON decisions
        BEGIN SELECT RAISE(ABORT, 'decisions are append-only'); END;
    CREATE TRIGGER decisions_are_kept_delete BEFORE DELETE ON decisions
        BEGIN SELECT RAISE(ABORT, 'decisions are append-only'); END;
    ",
    // 5: a roster's players in a few values (see `encode_players`), not a
    // row each: storing and reading a roster of a million players writes
    // and reads some forty values. Rosters stored under schemas 1 to 4 keep
    // their rows in `players` and read as before.
    "
    CREATE TABLE roster_parts (
        log     INTEGER NOT NULL REFERENCES log(id),
        part    INTEGER NOT NULL,      -- 1-based, the roster's order
        players INTEGER NOT NULL,      -- how many players the body holds
        texts   INTEGER NOT NULL,      -- the byte length of their texts
        body    BLOB NOT NULL,
        PRIMARY KEY (log, part)
    );
    ",
    // 6: whether the cards, in the order stored (the replaced ones left
    // out), are in their keys' order: 1, the reports read them in one pass
    // as stored; 0, they read every key first and the cards by key; NULL
    // (cards stored before this schema), they read them as stored while
    // they come in order. Kept by every import (`Store::note_card_order`).
    "
    CREATE TABLE card_order (in_key_order INTEGER);
    INSERT INTO card_order
        SELECT CASE WHEN EXISTS (SELECT 1 FROM cards) THEN NULL ELSE 1 END;
    ",
    // 7: the tables a double-entry import (`import --second-entry`) held
    // back because its two typings differ, recorded in the import's
    // transaction: until a card of the table is stored after it (a later
    // import, or --replace), `check`, the board and the pages name the
    // table as held back by double entry, not as missing. Append-only: a
    // row that differs in no value (`differ` 0, no second typing) clears
    // the table's mark, an import having given the card the event held
    // again, the same (`Store::confirm_typings`).
    "
    CREATE TABLE held_typings (
        id       INTEGER PRIMARY KEY,
        time     TEXT NOT NULL,        -- UTC
        stage    TEXT NOT NULL,
        session  TEXT NOT NULL,
        tbl      TEXT NOT NULL,
        first    TEXT NOT NULL,        -- the first typing's file, as named
        second   TEXT NOT NULL,        -- the second typing (file or folder)
        differ   INTEGER NOT NULL,     -- the values that differ
        after    INTEGER NOT NULL      -- the log's last row then: a card stored after it clears the mark
    );
    CREATE TRIGGER held_typings_are_kept_update BEFORE UPDATE ON held_typings
        BEGIN SELECT RAISE(ABORT, 'held typings are append-only'); END;
    CREATE TRIGGER held_typings_are_kept_delete BEFORE DELETE ON held_typings
        BEGIN SELECT RAISE(ABORT, 'held typings are append-only'); END;
    ",
];

/// How many players a part of a stored roster holds (the last, fewer).
const PART_PLAYERS: usize = 32_768;

/// A card's key from its stage, session and table as stored (and as a
/// dump writes them).
pub(super) fn stored_key(stage: &str, session: &str, table: &str) -> CardKey {
    KeyReader::default().key(stage, session, table)
}

/// Reads cards' keys as stored, the stage and session read again only
/// when they are not the card before's.
#[derive(Default)]
struct KeyReader {
    /// The stage and session of the card before, as stored and as read.
    last: Option<(String, String, Stage, Label)>,
}

impl KeyReader {
    fn key(&mut self, stage: &str, session: &str, table: &str) -> CardKey {
        let same = |(s, n, _, _): &(String, String, Stage, Label)| s == stage && n == session;
        if !self.last.as_ref().is_some_and(same) {
            self.last = None;
        }
        let (_, _, stage, session) = self.last.get_or_insert_with(|| {
            let label = Label::session(session).unwrap_or_else(|| Label::Text(session.into()));
            (stage.into(), session.into(), Stage::new(stage), label)
        });
        CardKey {
            stage: stage.clone(),
            session: session.clone(),
            table: Label::table(table).unwrap_or_else(|| Label::Text(table.into())),
        }
    }
}

/// One line of a stored card; `P` holds the player's id (a line read
/// from the database borrows it, `&str`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct StoredLine<P = String> {
    pub game: u32,
    pub seat: Seat,
    /// The player's roster id.
    pub player: P,
    pub won: bool,
    pub score: StoredScore,
    pub tiles: Option<u16>,
}

impl StoredLine<&str> {
    pub fn to_owned_line(&self) -> StoredLine {
        StoredLine {
            game: self.game,
            seat: self.seat,
            player: self.player.to_string(),
            won: self.won,
            score: self.score.clone(),
            tiles: self.tiles,
        }
    }
}

impl StoredLine {
    pub fn as_ref_line(&self) -> StoredLine<&str> {
        StoredLine {
            game: self.game,
            seat: self.seat,
            player: &self.player,
            won: self.won,
            score: self.score.clone(),
            tiles: self.tiles,
        }
    }
}

/// A stored score: exact (schema 2), or the text schema 1 stored (`-12`,
/// `7.5`, a third as `13.666667`), which the checks read as they read a
/// file's.
#[derive(Debug, Clone, Eq)]
pub(super) enum StoredScore {
    Exact(Score),
    Text(String),
}

impl StoredScore {
    /// As a results file writes it (see [`super::score_text`]).
    pub fn text(&self) -> String {
        match self {
            StoredScore::Exact(s) => super::score_text(s),
            StoredScore::Text(t) => t.clone(),
        }
    }
}

/// Two scores are the same when they are written the same: a card stored
/// under schema 1 and the same card read again are one card.
impl PartialEq for StoredScore {
    fn eq(&self, other: &StoredScore) -> bool {
        match (self, other) {
            (StoredScore::Exact(a), StoredScore::Exact(b)) => a == b,
            _ => self.text() == other.text(),
        }
    }
}

/// A card's lines as the `body` of its row: for each line, in order, the
/// game (u32), the seat (0 to 3), won (0 or 1), the tiles left (u16;
/// 65535: not counted), the score as numerator and denominator (i64 each),
/// the player's id (its byte length as u32, then UTF-8); little-endian.
pub(super) fn encode_lines(lines: &[StoredLine]) -> Vec<u8> {
    let mut body = Vec::with_capacity(lines.len() * 36);
    for l in lines {
        body.extend_from_slice(&l.game.to_le_bytes());
        body.push(l.seat.index() as u8);
        body.push(u8::from(l.won));
        body.extend_from_slice(&l.tiles.unwrap_or(u16::MAX).to_le_bytes());
        let score = match &l.score {
            StoredScore::Exact(s) => *s,
            // (only cards read from schema 1 hold text: never written again)
            StoredScore::Text(t) => Score::parse(t).unwrap_or_default(),
        };
        body.extend_from_slice(&score.numer().to_le_bytes());
        body.extend_from_slice(&score.denom().to_le_bytes());
        body.extend_from_slice(&(l.player.len() as u32).to_le_bytes());
        body.extend_from_slice(l.player.as_bytes());
    }
    body
}

/// The lines [`encode_lines`] wrote; `None` for bytes it did not write (a
/// damaged or hand-edited database).
pub(super) fn decode_lines(body: &[u8]) -> Option<Vec<StoredLine>> {
    let lines = decode_lines_ref(body)?;
    Some(lines.iter().map(StoredLine::to_owned_line).collect())
}

/// As [`decode_lines`], the players' ids borrowed from `body`.
pub(super) fn decode_lines_ref(mut body: &[u8]) -> Option<Vec<StoredLine<&str>>> {
    fn take<'a>(body: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
        let (head, rest) = (body.get(..n)?, body.get(n..)?);
        *body = rest;
        Some(head)
    }
    fn array<const N: usize>(body: &mut &[u8]) -> Option<[u8; N]> {
        take(body, N)?.try_into().ok()
    }
    /// The bytes as text, when they are UTF-8: an id of a few ASCII
    /// bytes, the usual, is seen to be at once (the general check costs
    /// some 80 instructions however short the text: a million lines).
    fn text(bytes: &[u8]) -> Option<&str> {
        if bytes.is_ascii() {
            // SAFETY: ASCII bytes are UTF-8.
            return Some(unsafe { std::str::from_utf8_unchecked(bytes) });
        }
        std::str::from_utf8(bytes).ok()
    }
    let mut lines = Vec::with_capacity(body.len() / 36);
    while !body.is_empty() {
        let game = u32::from_le_bytes(array(&mut body)?);
        let [seat, won] = array(&mut body)?;
        let tiles = u16::from_le_bytes(array(&mut body)?);
        let numer = i64::from_le_bytes(array(&mut body)?);
        let denom = i64::from_le_bytes(array(&mut body)?);
        let len = u32::from_le_bytes(array(&mut body)?) as usize;
        let player = text(take(&mut body, len)?)?;
        if denom <= 0 || won > 1 {
            return None;
        }
        lines.push(StoredLine {
            game,
            seat: *Seat::ALL.get(usize::from(seat))?,
            player,
            won: won == 1,
            score: StoredScore::Exact(Score::ratio(numer, denom)),
            tiles: (tiles != u16::MAX).then_some(tiles),
        });
    }
    Some(lines)
}

/// Players' values as a part of a roster's `body`: the byte length of
/// their texts (u32), their texts one after another (UTF-8), then for
/// each player, in the roster's order: its status (0 active, 1 withdrawn,
/// 2 disqualified), which values are given (bits: 1 birth date, 2 age, 4
/// family, 8 group), the age (u32) when given, and the byte length of each
/// of its texts: the id, the name, and the birth date, family and group
/// when given. A length under 255 is one byte, else 255 and a u32;
/// little-endian.
/// Returns the byte length of the texts.
fn encode_players(roster: &Roster, players: std::ops::Range<usize>, body: &mut Vec<u8>) -> usize {
    let mut texts = String::new();
    let mut records = Vec::with_capacity(players.len() * 8);
    for i in players {
        let p = roster.fields(crate::domain::PlayerId(i as u32));
        records.push(match p.status {
            Status::Active => 0,
            Status::Withdrawn => 1,
            Status::Disqualified => 2,
        });
        let given = u8::from(p.birth_date.is_some())
            | u8::from(p.age.is_some()) << 1
            | u8::from(p.family.is_some()) << 2
            | u8::from(p.group.is_some()) << 3;
        records.push(given);
        if let Some(age) = p.age {
            records.extend_from_slice(&age.to_le_bytes());
        }
        let given = [p.birth_date, p.family, p.group].into_iter().flatten();
        for t in [p.id, p.name].into_iter().chain(given) {
            texts.push_str(t);
            match u8::try_from(t.len()) {
                Ok(n) if n < u8::MAX => records.push(n),
                _ => {
                    records.push(u8::MAX);
                    // (a text is one cell: well under 4 GiB)
                    records.extend_from_slice(&(t.len() as u32).to_le_bytes());
                }
            }
        }
    }
    body.clear();
    body.extend_from_slice(&(texts.len() as u32).to_le_bytes());
    body.extend_from_slice(texts.as_bytes());
    body.extend_from_slice(&records);
    texts.len()
}

/// Adds to `roster` the players [`encode_players`] wrote in `body`, the
/// first of them at 1-based position `first` of the roster stored
/// (listed on line `first + 1` of `source`, the roster as a dump writes
/// it); a player whose id is taken is left out, as a roster file's. The
/// next position, or `None` for bytes it did not write (a damaged or
/// hand-edited database: none of them is added).
pub(super) fn add_players(
    roster: &mut Roster,
    body: &[u8],
    first: u32,
    source: &Source,
) -> Option<u32> {
    let mut batch = crate::roster::Batch::new(roster.hasher());
    let next = read_players(&mut batch, body, first, source)?;
    roster.add_batch(&batch, |_, _| {});
    Some(next)
}

/// The players [`encode_players`] wrote in `body` pushed to `batch`, as
/// [`add_players`] adds them (on any thread: a roster's parts are read
/// into batches beside the thread that adds them). The next position, or
/// `None` for bytes it did not write.
pub(super) fn read_players(
    batch: &mut crate::roster::Batch,
    mut body: &[u8],
    first: u32,
    source: &Source,
) -> Option<u32> {
    fn take<'a>(body: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
        let (head, rest) = (body.get(..n)?, body.get(n..)?);
        *body = rest;
        Some(head)
    }
    fn u32_le(body: &mut &[u8]) -> Option<u32> {
        Some(u32::from_le_bytes(take(body, 4)?.try_into().ok()?))
    }
    let size = u32_le(&mut body)? as usize;
    let texts = std::str::from_utf8(take(&mut body, size)?).ok()?;
    let mut at = 0usize;
    let mut text = |body: &mut &[u8]| -> Option<&str> {
        let n = match *take(body, 1)?.first()? {
            u8::MAX => u32_le(body)? as usize,
            n => usize::from(n),
        };
        let t = texts.get(at..at.checked_add(n)?)?;
        at += n;
        Some(t)
    };
    let mut position = first;
    while !body.is_empty() {
        let [status, given] = take(&mut body, 2)?.try_into().ok()?;
        let status = match status {
            0 => Status::Active,
            1 => Status::Withdrawn,
            2 => Status::Disqualified,
            _ => return None,
        };
        if given > 0b1111 {
            return None;
        }
        let age = match given & 2 {
            0 => None,
            _ => Some(u32_le(&mut body)?),
        };
        let (id, name) = (text(&mut body)?, text(&mut body)?);
        let mut optional = |bit: u8| match given & bit {
            0 => Some(None),
            _ => text(&mut body).map(Some),
        };
        let player = crate::roster::PlayerFields {
            id,
            name,
            birth_date: optional(1)?,
            age,
            family: optional(4)?,
            status,
            group: optional(8)?,
        };
        batch.push(&player, source, position + 1);
        position = position.checked_add(1)?;
    }
    (at == texts.len()).then_some(position)
}

/// A piece of a stored roster, as read (see [`Store::each_roster_piece`]).
pub(super) enum RosterPiece {
    /// A player of a roster stored a row a player (before schema 5).
    Player(Player),
    /// Players as [`encode_players`] wrote them.
    Part(Vec<u8>),
}

/// What [`Store::each_card_ref`] gives each card to: its row id, key,
/// lines, and where it came from ([`Origin`]).
pub(super) type EachCard<'a> = dyn FnMut(i64, &CardKey, &[StoredLine<&str>], Origin<'_>) + 'a;

/// Where a stored card came from: its file as stored (`cards.source`) and
/// the time of its import (UTC); see [`super::entry::origin_said`].
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Origin<'a> {
    pub source: &'a str,
    pub time: &'a str,
}

/// The columns of a card's row that give its [`Origin`], in a query of
/// `cards`.
const ORIGIN_COLUMNS: &str = "source, (SELECT time FROM log WHERE log.id = cards.log)";

/// Reads a stored card's lines from its row (`id`, then `body`): the
/// lines its body holds, or, stored under schema 1, its rows of `lines`.
struct CardReader<'a> {
    store: &'a Store,
    old_lines: rusqlite::Statement<'a>,
}

impl CardReader<'_> {
    /// The card of `key` whose row is `r` (of row id `id`, its
    /// [`ORIGIN_COLUMNS`] at `origin`) to `f`.
    fn card(
        &mut self,
        key: &CardKey,
        id: i64,
        r: &rusqlite::Row<'_>,
        origin: usize,
        f: &mut EachCard<'_>,
    ) -> Result<(), FolderError> {
        let text = |i: usize| r.get_ref(i).ok().and_then(|v| v.as_str().ok());
        let origin = Origin {
            source: text(origin).unwrap_or_default(),
            time: text(origin + 1).unwrap_or_default(),
        };
        let e = |e| self.store.error(e);
        let got: i64 = r.get(0).map_err(e)?;
        let old;
        let lines = match r.get_ref(1).map_err(e)? {
            ValueRef::Blob(body) => decode_lines_ref(body),
            ValueRef::Null => {
                old = self.store.old_lines(&mut self.old_lines, id)?;
                Some(old.iter().map(StoredLine::as_ref_line).collect())
            }
            _ => None,
        };
        let Some(lines) = lines.filter(|_| got == id) else {
            return Err(FolderError::Database {
                path: self.store.path.display().to_string(),
                reason: format!("is damaged: the stored card {key} cannot be read"),
            });
        };
        f(id, key, &lines, origin);
        Ok(())
    }
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
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => {
                return FolderError::Busy {
                    path: self.path.display().to_string(),
                }
            }
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
        let Some(log) = self.roster_log()? else {
            return Ok(None);
        };
        let mut roster = Roster::default();
        self.reserve_roster(log, &mut roster)?;
        let source = self.roster_source();
        let mut next = Some(1);
        self.each_roster_piece(log, &mut |piece| match piece {
            RosterPiece::Player(player) => {
                let _ = roster.add(player);
            }
            RosterPiece::Part(body) => {
                next = next.and_then(|first| add_players(&mut roster, &body, first, &source));
            }
        })?;
        match next {
            Some(_) => {
                // (a roster to keep, and to copy for each card a referee
                // enters: nothing kept only for adding)
                roster.shrink_to_fit();
                Ok(Some(roster))
            }
            None => Err(self.damaged_roster()),
        }
    }

    /// Where a stored roster's players are listed: the roster as a dump
    /// writes it, a line a player after its header.
    pub(super) fn roster_source(&self) -> Source {
        Source::sheet(&self.path.display().to_string(), "roster")
    }

    /// The error of a stored roster that cannot be read.
    pub(super) fn damaged_roster(&self) -> FolderError {
        FolderError::Database {
            path: self.path.display().to_string(),
            reason: "is damaged: the stored roster cannot be read".to_string(),
        }
    }

    /// The log row of the newest roster: `None` when none was stored.
    pub(super) fn roster_log(&self) -> Result<Option<i64>, FolderError> {
        self.conn
            .query_row(
                "SELECT max(log) FROM (SELECT max(log) AS log FROM players
                                       UNION ALL SELECT max(log) FROM roster_parts)",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.error(e))
    }

    /// Makes room in `roster` for the players of the roster of log row
    /// `log` (and for their texts, when stored in parts).
    pub(super) fn reserve_roster(&self, log: i64, roster: &mut Roster) -> Result<(), FolderError> {
        let (players, texts, bytes): (Option<i64>, Option<i64>, Option<i64>) = self
            .conn
            .query_row(
                "SELECT coalesce((SELECT sum(players) FROM roster_parts WHERE log = ?1),
                                 (SELECT max(position) FROM players WHERE log = ?1)),
                        (SELECT sum(texts) FROM roster_parts WHERE log = ?1),
                        (SELECT sum(length(body)) FROM roster_parts WHERE log = ?1)",
                [log],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .map_err(|e| self.error(e))?;
        let room = |n: Option<i64>| usize::try_from(n.unwrap_or(0)).unwrap_or(0);
        // (never more than the parts' bytes can hold, whatever a damaged
        // count says: a player takes 4 bytes at least)
        let players = match bytes {
            Some(bytes) => room(players).min(room(Some(bytes)) / 4),
            None => room(players),
        };
        roster.reserve(players);
        roster.reserve_entry_text(room(texts).min(room(bytes)));
        Ok(())
    }

    /// The roster of log row `log`, piece by piece in the roster's order:
    /// its parts (schema 5 on), or a player a row (a roster stored before).
    pub(super) fn each_roster_piece(
        &self,
        log: i64,
        f: &mut dyn FnMut(RosterPiece),
    ) -> Result<(), FolderError> {
        let e = |e| self.error(e);
        let mut stmt = self
            .conn
            .prepare("SELECT body FROM roster_parts WHERE log = ?1 ORDER BY part")
            .map_err(e)?;
        let mut rows = stmt.query([log]).map_err(e)?;
        let mut parts = false;
        while let Some(r) = rows.next().map_err(e)? {
            match r.get_ref(0).map_err(e)? {
                ValueRef::Blob(body) => f(RosterPiece::Part(body.to_vec())),
                _ => return Err(self.damaged_roster()),
            }
            parts = true;
        }
        if parts {
            return Ok(());
        }
        self.each_player(log, &mut |player| f(RosterPiece::Player(player)))
    }

    /// Each player of the roster of log row `log` stored a row a player
    /// (before schema 5), in the roster's order.
    fn each_player(&self, log: i64, add: &mut dyn FnMut(Player)) -> Result<(), FolderError> {
        let e = |e| self.error(e);
        let source = self.roster_source();
        let mut stmt = self
            .conn
            .prepare(
                "SELECT position, id, name, birth_date, age, family, status, grp
                 FROM players WHERE log = ?1 ORDER BY position",
            )
            .map_err(e)?;
        let mut rows = stmt.query([log]).map_err(e)?;
        while let Some(r) = rows.next().map_err(e)? {
            let position: u32 = r.get(0).map_err(e)?;
            let status = match r.get_ref(6).map_err(e)? {
                ValueRef::Text(b"") => Some(Status::default()),
                _ => Status::parse(&r.get::<_, String>(6).map_err(e)?),
            };
            let player = Player {
                id: r.get(1).map_err(e)?,
                name: r.get(2).map_err(e)?,
                birth_date: r.get(3).map_err(e)?,
                age: r.get(4).map_err(e)?,
                family: r.get(5).map_err(e)?,
                status: status.unwrap_or_default(),
                group: r.get(7).map_err(e)?,
                // the line of roster.csv in a dump
                place: Some(source.at(position + 1, None)),
            };
            add(player);
        }
        Ok(())
    }

    pub(super) fn roster_rows(&self) -> Result<Vec<Vec<String>>, FolderError> {
        let Some(roster) = self.roster()? else {
            return Ok(Vec::new());
        };
        Ok(roster.iter().map(|(_, p)| roster_fields(&p)).collect())
    }

    /// The event's cards (not the replaced ones), in stage, session, table order.
    pub(super) fn cards(&self) -> Result<Vec<StoredCard>, FolderError> {
        let mut cards = Vec::new();
        self.each_card(&mut |card| cards.push(card))?;
        Ok(cards)
    }

    /// Each of the event's cards (not the replaced ones), one at a time, in
    /// stage, session, table order: nothing but the card at hand is held.
    pub(super) fn each_card(&self, f: &mut dyn FnMut(StoredCard)) -> Result<(), FolderError> {
        self.each_card_ref(&mut |id, key, lines, _| {
            f(StoredCard {
                id,
                key: key.clone(),
                lines: lines.iter().map(StoredLine::to_owned_line).collect(),
            })
        })
    }

    /// As [`Store::each_card`], each card's row id, key and lines, its
    /// lines borrowed from the row read.
    pub(super) fn each_card_ref(&self, f: &mut EachCard<'_>) -> Result<(), FolderError> {
        // (stored in the order imported: most often the cards' own order,
        // read then in one pass, each key as it comes; else every key first,
        // sorted, and the cards read one by one)
        let in_id_order = {
            let mut stmt = self
                .conn
                .prepare(
                    "SELECT stage, session, tbl FROM cards WHERE replaced_by IS NULL ORDER BY id",
                )
                .map_err(|e| self.error(e))?;
            let mut rows = stmt.query([]).map_err(|e| self.error(e))?;
            let mut keys = KeyReader::default();
            let mut last: Option<CardKey> = None;
            let mut sorted = true;
            while let Some(r) = rows.next().map_err(|e| self.error(e))? {
                let key = self.key_at(&mut keys, r, 0)?;
                if last.as_ref().is_some_and(|last| *last > key) {
                    sorted = false;
                    break;
                }
                last = Some(key);
            }
            sorted
        };
        match in_id_order {
            true => self.each_card_as_stored(f).map(|_| ()),
            false => self.each_card_by_key(f),
        }
    }

    /// The key of a card whose stage, session and table are columns `at`..
    /// of row `r` (the stage and session read again only when they are not
    /// the card before's: most cards share them).
    fn key_at(
        &self,
        keys: &mut KeyReader,
        r: &rusqlite::Row<'_>,
        at: usize,
    ) -> Result<CardKey, FolderError> {
        let e = |e| self.error(e);
        let text = |i: usize| -> Result<&str, FolderError> {
            match r.get_ref(at + i).map_err(e)?.as_str() {
                Ok(text) => Ok(text),
                // (what is not text is said as reading it as text says)
                Err(_) => Err(e(r
                    .get::<_, String>(at + i)
                    .err()
                    .unwrap_or(rusqlite::Error::InvalidColumnIndex(at + i)))),
            }
        };
        Ok(keys.key(text(0)?, text(1)?, text(2)?))
    }

    /// As [`Store::each_card_ref`], in the order the cards were stored,
    /// for as long as that is their keys' order (the common case: one pass,
    /// no key read twice): `Ok(false)` when a card's key comes before the
    /// one before's, that card and those after it not given (read them
    /// again, [`Store::each_card_by_key`]).
    pub(super) fn each_card_as_stored(&self, f: &mut EachCard<'_>) -> Result<bool, FolderError> {
        let e = |e| self.error(e);
        let mut keys = KeyReader::default();
        let mut reader = self.card_reader()?;
        let mut all = self
            .conn
            .prepare(&format!(
                "SELECT id, body, stage, session, tbl, {ORIGIN_COLUMNS} FROM cards
                 WHERE replaced_by IS NULL ORDER BY id"
            ))
            .map_err(e)?;
        let mut rows = all.query([]).map_err(e)?;
        let mut last: Option<CardKey> = None;
        while let Some(r) = rows.next().map_err(e)? {
            let key = self.key_at(&mut keys, r, 2)?;
            if last.as_ref().is_some_and(|last| *last > key) {
                return Ok(false);
            }
            reader.card(&key, r.get(0).map_err(e)?, r, 5, f)?;
            last = Some(key);
        }
        Ok(true)
    }

    /// As [`Store::each_card_ref`], every key read first, sorted, and the
    /// cards read one by one in that order.
    pub(super) fn each_card_by_key(&self, f: &mut EachCard<'_>) -> Result<(), FolderError> {
        let e = |e| self.error(e);
        let mut keys = KeyReader::default();
        let mut reader = self.card_reader()?;
        let mut order: Vec<(CardKey, i64)> = Vec::new();
        let mut stmt = self
            .conn
            .prepare(
                "SELECT id, stage, session, tbl FROM cards WHERE replaced_by IS NULL ORDER BY id",
            )
            .map_err(e)?;
        let mut rows = stmt.query([]).map_err(e)?;
        while let Some(r) = rows.next().map_err(e)? {
            order.push((self.key_at(&mut keys, r, 1)?, r.get(0).map_err(e)?));
        }
        order.sort_by(|a, b| a.0.cmp(&b.0));
        let mut by_id = self
            .conn
            .prepare(&format!(
                "SELECT id, body, {ORIGIN_COLUMNS} FROM cards WHERE id = ?1"
            ))
            .map_err(e)?;
        for (key, id) in order {
            let mut rows = by_id.query([id]).map_err(e)?;
            if let Some(r) = rows.next().map_err(e)? {
                reader.card(&key, id, r, 2, f)?;
            }
        }
        Ok(())
    }

    /// Whether the cards, in the order stored, are in their keys' order
    /// (see [`MIGRATIONS`], schema 6): `None` when not known.
    pub(super) fn card_order(&self) -> Result<Option<bool>, FolderError> {
        let order: Option<Option<i64>> = self
            .conn
            .query_row("SELECT in_key_order FROM card_order", [], |r| r.get(0))
            .optional()
            .map_err(|e| self.error(e))?;
        Ok(order.flatten().map(|o| o == 1))
    }

    /// Keeps [`Store::card_order`] true only while the cards stored are in
    /// their keys' order: `written` are the rows an import just wrote, in
    /// the order written. (Replacing a card leaves the others in their
    /// order; a card written after one of a later key breaks it, and it
    /// stays broken.)
    pub(super) fn note_card_order(&self, written: &[(CardKey, i64)]) -> Result<(), FolderError> {
        let e = |e| self.error(e);
        let Some(&(_, first)) = written.first() else {
            return Ok(());
        };
        if self.card_order()? != Some(true) {
            return Ok(());
        }
        let mut stmt = self
            .conn
            .prepare(
                "SELECT stage, session, tbl FROM cards
                 WHERE replaced_by IS NULL AND id < ?1 ORDER BY id DESC LIMIT 1",
            )
            .map_err(e)?;
        let mut rows = stmt.query([first]).map_err(e)?;
        let before = match rows.next().map_err(e)? {
            Some(r) => Some(self.key_at(&mut KeyReader::default(), r, 0)?),
            None => None,
        };
        let mut keys = before.iter().chain(written.iter().map(|(key, _)| key));
        let mut last = keys.next();
        let in_order = keys.all(|key| {
            let ordered = last.is_none_or(|last| last <= key);
            last = Some(key);
            ordered
        });
        if !in_order {
            self.conn
                .execute("UPDATE card_order SET in_key_order = 0", [])
                .map_err(e)?;
        }
        Ok(())
    }

    /// What reads a stored card's lines from its row.
    fn card_reader(&self) -> Result<CardReader<'_>, FolderError> {
        let old_lines = self
            .conn
            .prepare(
                "SELECT game, seat, player, won, score, tiles FROM lines WHERE card = ?1 ORDER BY line",
            )
            .map_err(|e| self.error(e))?;
        Ok(CardReader {
            store: self,
            old_lines,
        })
    }

    /// The event's card of `key` (not one replaced), when it has one.
    pub(super) fn card_of_key(&self, key: &CardKey) -> Result<Option<StoredCard>, FolderError> {
        let (stage, session, table) = super::entry::key_fields(key);
        let id: Option<i64> = self
            .conn
            .prepare_cached(
                "SELECT id FROM cards
                  WHERE stage = ?1 AND session = ?2 AND tbl = ?3 AND replaced_by IS NULL",
            )
            .and_then(|mut stmt| {
                stmt.query_row(rusqlite::params![stage, session, table], |r| r.get(0))
                    .optional()
            })
            .map_err(|e| self.error(e))?;
        id.map(|id| self.card(id, key)).transpose()
    }

    /// The stored card of row `id` (its key as given).
    pub(super) fn card(&self, id: i64, key: &CardKey) -> Result<StoredCard, FolderError> {
        let e = |e| self.error(e);
        let mut old_lines = self
            .conn
            .prepare_cached(
                "SELECT game, seat, player, won, score, tiles FROM lines WHERE card = ?1 ORDER BY line",
            )
            .map_err(e)?;
        let mut stmt = self
            .conn
            .prepare_cached("SELECT body FROM cards WHERE id = ?1")
            .map_err(e)?;
        let mut rows = stmt.query([id]).map_err(e)?;
        let lines = match rows.next().map_err(e)? {
            Some(r) => match r.get_ref(0).map_err(e)? {
                ValueRef::Blob(body) => decode_lines(body),
                ValueRef::Null => Some(self.old_lines(&mut old_lines, id)?),
                _ => None,
            },
            None => None,
        };
        match lines {
            Some(lines) => Ok(StoredCard {
                id,
                key: key.clone(),
                lines,
            }),
            None => Err(FolderError::Database {
                path: self.path.display().to_string(),
                reason: format!("is damaged: the stored card {key} cannot be read"),
            }),
        }
    }

    /// A card's lines as schema 1 stored them (rows of `lines`).
    fn old_lines(
        &self,
        stmt: &mut rusqlite::Statement<'_>,
        card: i64,
    ) -> Result<Vec<StoredLine>, FolderError> {
        let e = |e| self.error(e);
        let mut rows = stmt.query([card]).map_err(e)?;
        let mut lines = Vec::new();
        while let Some(r) = rows.next().map_err(e)? {
            let tiles: Option<i64> = r.get(5).map_err(e)?;
            let seat: String = r.get(1).map_err(e)?;
            lines.push(StoredLine {
                game: r.get(0).map_err(e)?,
                seat: Seat::parse(&seat).unwrap_or(Seat::A),
                player: r.get(2).map_err(e)?,
                won: r.get::<_, i64>(3).map_err(e)? != 0,
                score: StoredScore::Text(r.get(4).map_err(e)?),
                tiles: tiles.and_then(|t| u16::try_from(t).ok()),
            });
        }
        Ok(lines)
    }

    pub(super) fn log(&self) -> Result<Vec<LogEntry>, FolderError> {
        Ok(self.log_rows()?.into_iter().map(|(_, l)| l).collect())
    }

    /// The log's rows with their ids, oldest first.
    pub(super) fn log_rows(&self) -> Result<Vec<(i64, LogEntry)>, FolderError> {
        let e = |e| self.error(e);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT time, action, file, sha256, stage, cards, games, reason, id
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
                Ok((
                    r.get(8)?,
                    LogEntry {
                        time: text(0)?,
                        action: text(1)?,
                        file: text(2)?,
                        sha256: text(3)?,
                        stage: text(4)?,
                        cards: int(5)?,
                        games: int(6)?,
                        reason: text(7)?,
                    },
                ))
            })
            .map_err(e)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(e)
    }

    pub(super) fn append_log(&self, entry: &LogEntry) -> Result<i64, FolderError> {
        self.append_log_as(None, entry)
    }

    /// The id the next row of the log gets (see [`Store::append_log_as`]).
    pub(super) fn next_log_id(&self) -> Result<i64, FolderError> {
        self.conn
            .query_row("SELECT coalesce(max(id), 0) + 1 FROM log", [], |r| r.get(0))
            .map_err(|e| self.error(e))
    }

    /// Appends `entry` to the log as row `id` ([`Store::next_log_id`], when
    /// rows that point to it were written first: an import's cards, under
    /// [`Store::defer_references`]), or as the next row.
    pub(super) fn append_log_as(
        &self,
        id: Option<i64>,
        entry: &LogEntry,
    ) -> Result<i64, FolderError> {
        self.conn
            .execute(
                "INSERT INTO log (id, time, action, file, sha256, stage, cards, games, reason)
                 VALUES (?9, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    entry.time,
                    entry.action,
                    entry.file,
                    entry.sha256,
                    entry.stage,
                    entry.cards,
                    entry.games,
                    entry.reason,
                    id
                ],
            )
            .map_err(|e| self.error(e))?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Within a write: the references of the rows written (a card's log
    /// row) are checked at the commit, not as each row is written.
    pub(super) fn defer_references(&self) -> Result<(), FolderError> {
        self.conn
            .execute_batch("PRAGMA defer_foreign_keys = ON")
            .map_err(|e| self.error(e))
    }

    /// Within a write: a point to come back to ([`Store::undo_to_mark`]),
    /// or to keep what was written since ([`Store::keep_since_mark`]).
    pub(super) fn mark(&self) -> Result<(), FolderError> {
        self.conn
            .execute_batch("SAVEPOINT mark")
            .map_err(|e| self.error(e))
    }

    /// Undoes what was written since [`Store::mark`].
    pub(super) fn undo_to_mark(&self) -> Result<(), FolderError> {
        self.conn
            .execute_batch("ROLLBACK TO mark; RELEASE mark")
            .map_err(|e| self.error(e))
    }

    /// Keeps what was written since [`Store::mark`] (in the write, till its
    /// commit).
    pub(super) fn keep_since_mark(&self) -> Result<(), FolderError> {
        self.conn
            .execute_batch("RELEASE mark")
            .map_err(|e| self.error(e))
    }

    /// Where the stored card of row `card` was read (`S01.xlsx[Table 7]`).
    pub(super) fn card_source(&self, card: i64) -> Result<String, FolderError> {
        self.conn
            .query_row("SELECT source FROM cards WHERE id = ?1", [card], |r| {
                r.get(0)
            })
            .map_err(|e| self.error(e))
    }

    /// Where the stored card of row `card` came from, in words
    /// ([`super::entry::origin_said`]): its file and the time of its
    /// import; `None` when no file is stored for it.
    pub(super) fn card_origin_of(
        &self,
        card: i64,
    ) -> Result<Option<crate::problem::said::Said>, FolderError> {
        let (source, time): (String, String) = self
            .conn
            .prepare_cached(
                "SELECT c.source, l.time FROM cards c JOIN log l ON l.id = c.log WHERE c.id = ?1",
            )
            .and_then(|mut stmt| stmt.query_row([card], |r| Ok((r.get(0)?, r.get(1)?))))
            .map_err(|e| self.error(e))?;
        Ok(super::entry::origin_said(&source, &time))
    }

    /// Records, in the import's transaction, the tables a double-entry
    /// import held back because its two typings differ (schema 7).
    pub(super) fn hold_typings(
        &self,
        held: &[crate::event::HeldTyping],
    ) -> Result<(), FolderError> {
        let e = |e| self.error(e);
        let mut stmt = self
            .conn
            .prepare_cached(
                "INSERT INTO held_typings (time, stage, session, tbl, first, second, differ, after)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, (SELECT coalesce(max(id), 0) FROM log))",
            )
            .map_err(e)?;
        let time = super::utc_now();
        for h in held {
            let (stage, session, table) = super::entry::key_fields(&h.key);
            stmt.execute(params![
                time,
                stage,
                session,
                table,
                h.first,
                h.second,
                h.differ as i64
            ])
            .map_err(e)?;
        }
        Ok(())
    }

    /// Records, in the import's transaction, the tables of `keys` held
    /// back by a double entry whose card, the one the event held, an
    /// import gave again, the same: the desk confirmed it, and the mark is
    /// cleared (a row of the table that differs in no value).
    pub(super) fn confirm_typings(&self, keys: &[CardKey], file: &str) -> Result<(), FolderError> {
        let held: Vec<crate::event::HeldTyping> = keys
            .iter()
            .map(|key| crate::event::HeldTyping {
                key: key.clone(),
                first: file.to_string(),
                second: String::new(),
                differ: 0,
            })
            .collect();
        self.hold_typings(&held)
    }

    /// The tables a double-entry import held back (schema 7) whose mark
    /// stands: the last row of the table (the last import that held it
    /// back, as it recorded it) says values differ, and no card of the
    /// table was stored after it. A card the event held before the mark
    /// does not clear it (`import --replace --second-entry` held back its
    /// replacement: the old card counts meanwhile, and the table is named
    /// typed twice); the same card imported again does
    /// (`Store::confirm_typings`). By key.
    pub(super) fn typed_twice(&self) -> Result<Vec<crate::event::HeldTyping>, FolderError> {
        let e = |e| self.error(e);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT h.stage, h.session, h.tbl, h.first, h.second, h.differ FROM held_typings h
                  WHERE h.id = (SELECT max(g.id) FROM held_typings g
                         WHERE g.stage = h.stage AND g.session = h.session AND g.tbl = h.tbl)
                    AND h.differ > 0
                    AND NOT EXISTS (SELECT 1 FROM cards c
                         WHERE c.stage = h.stage AND c.session = h.session AND c.tbl = h.tbl
                           AND c.log > h.after)",
            )
            .map_err(e)?;
        let mut keys = KeyReader::default();
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    [r.get::<_, String>(0)?, r.get(1)?, r.get(2)?],
                    r.get::<_, String>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, i64>(5)?,
                ))
            })
            .map_err(e)?;
        let mut out = Vec::new();
        for row in rows {
            let ([stage, session, table], first, second, differ) = row.map_err(e)?;
            out.push(crate::event::HeldTyping {
                key: keys.key(&stage, &session, &table),
                first,
                second,
                differ: differ.max(0) as usize,
            });
        }
        out.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(out)
    }

    /// Every row of the held typings (schema 7), oldest first, for a dump:
    /// its time, stage, session and table, the two typings, the values
    /// that differ (0: the card the event held confirmed), how many rows
    /// the log had then (a card imported after them clears the mark), and
    /// whether the row holds its table back still (`yes`, as
    /// `Store::typed_twice` decides it), under a header.
    pub(super) fn held_typings_for_dump(&self) -> Result<Vec<Vec<String>>, FolderError> {
        let e = |e| self.error(e);
        let held = self.typed_twice()?;
        let mut stmt = self
            .conn
            .prepare(
                "SELECT h.time, h.stage, h.session, h.tbl, h.first, h.second, h.differ,
                        (SELECT count(*) FROM log WHERE log.id <= h.after),
                        h.id = (SELECT max(g.id) FROM held_typings g
                                 WHERE g.stage = h.stage AND g.session = h.session AND g.tbl = h.tbl)
                   FROM held_typings h ORDER BY h.id",
            )
            .map_err(e)?;
        let mut keys = KeyReader::default();
        let mut out = vec![[
            "time",
            "stage",
            "session",
            "table",
            "first",
            "second",
            "differ",
            "log_lines",
            "held",
        ]
        .map(String::from)
        .to_vec()];
        let mut q = stmt.query([]).map_err(e)?;
        while let Some(r) = q.next().map_err(e)? {
            let mut row: Vec<String> = (0..4)
                .map(|i| r.get::<_, String>(i))
                .collect::<Result<_, _>>()
                .map_err(e)?;
            let key = keys.key(&row[1], &row[2], &row[3]);
            let last: bool = r.get(8).map_err(e)?;
            let still = last && held.iter().any(|h| h.key == key);
            row.push(r.get(4).map_err(e)?);
            row.push(r.get(5).map_err(e)?);
            row.push(r.get::<_, i64>(6).map_err(e)?.to_string());
            row.push(r.get::<_, i64>(7).map_err(e)?.to_string());
            row.push(if still { "yes" } else { "" }.to_string());
            out.push(row);
        }
        Ok(out)
    }

    /// The keys of the event's cards (none replaced) of one stage and
    /// session.
    pub(super) fn tables_of(&self, stage: &str, session: &str) -> Result<Vec<String>, FolderError> {
        let e = |e| self.error(e);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT tbl FROM cards
                  WHERE stage = ?1 AND session = ?2 AND replaced_by IS NULL ORDER BY id",
            )
            .map_err(e)?;
        let rows = stmt
            .query_map(params![stage, session], |r| r.get(0))
            .map_err(e)?;
        rows.collect::<Result<_, _>>().map_err(e)
    }

    /// Marks the stored card of row `card` replaced by the import of log
    /// row `log`.
    pub(super) fn replace_card(&self, card: i64, log: i64) -> Result<(), FolderError> {
        let e = |e| self.error(e);
        self.conn
            .prepare_cached("UPDATE cards SET replaced_by = ?1 WHERE id = ?2")
            .map_err(e)?
            .execute(params![log, card])
            .map_err(e)?;
        Ok(())
    }

    /// Stores `roster` as the roster of log row `log`, in parts of
    /// [`PART_PLAYERS`] players.
    pub(super) fn insert_roster(&self, log: i64, roster: &Roster) -> Result<(), FolderError> {
        let e = |e| self.error(e);
        let mut stmt = self
            .conn
            .prepare(
                "INSERT INTO roster_parts (log, part, players, texts, body)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .map_err(e)?;
        let mut body = Vec::new();
        for (part, start) in (0..roster.len()).step_by(PART_PLAYERS).enumerate() {
            let end = roster.len().min(start + PART_PLAYERS);
            let texts = encode_players(roster, start..end, &mut body);
            stmt.execute(params![
                log,
                part as i64 + 1,
                (end - start) as i64,
                texts as i64,
                body
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
    ) -> Result<i64, FolderError> {
        let e = |e| self.error(e);
        self.conn
            .prepare_cached(
                "INSERT INTO cards (stage, session, tbl, log, source, body) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )
            .map_err(e)?
            .execute(params![
                    key.stage.to_string(),
                    SessionName(&key.session).to_string(),
                    key.table.to_string(),
                    log,
                    source,
                    encode_lines(lines)
                ])
            .map_err(e)?;
        Ok(self.conn.last_insert_rowid())
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

    fn lines() -> Vec<StoredLine> {
        let line = |game, seat, player: &str, won, score, tiles| StoredLine {
            game,
            seat,
            player: player.into(),
            won,
            score: StoredScore::Exact(score),
            tiles,
        };
        vec![
            line(1, Seat::A, "P0001", true, Score::whole(30), Some(0)),
            line(1, Seat::B, "李小明", false, Score::ratio(-41, 3), None),
            line(2, Seat::D, "", false, Score::ratio(11, 2), Some(106)),
            line(
                u32::MAX,
                Seat::C,
                "x",
                true,
                Score::whole(i64::MIN + 1),
                Some(7),
            ),
        ]
    }

    #[test]
    fn a_cards_lines_read_back_exactly() {
        let lines = lines();
        assert_eq!(decode_lines(&encode_lines(&lines)), Some(lines));
        assert_eq!(decode_lines(&[]), Some(Vec::new()));
    }

    #[test]
    fn damaged_bytes_are_refused_never_guessed() {
        let body = encode_lines(&lines());
        // every cut short of a whole line
        // (28 bytes a line, and its player id)
        let whole = [0, 33, 33 + 37, 33 + 37 + 28, body.len()];
        for n in 0..body.len() {
            let read = decode_lines(&body[..n]);
            assert_eq!(read.is_some(), whole.contains(&n), "cut at {n}");
        }
        // a seat, a won and a denominator out of range
        for (at, byte) in [(4, 4u8), (5, 2), (16, 0)] {
            let mut bad = body.clone();
            bad[at] = byte;
            if at == 16 {
                bad[16..24].fill(0);
            }
            assert_eq!(decode_lines(&bad), None, "byte {at}");
        }
    }

    #[test]
    fn a_rosters_players_read_back_exactly_and_damaged_bytes_are_refused() {
        let mut roster = Roster::default();
        let long = "x".repeat(300);
        let players = [
            Player::named("P0001", "Chan Tai Man"),
            Player {
                birth_date: Some("2010-01-31".into()),
                age: Some(16),
                family: Some(String::new()),
                status: Status::Withdrawn,
                group: Some("U18".into()),
                ..Player::named("李小明", &long)
            },
            Player {
                status: Status::Disqualified,
                age: Some(u32::MAX - 1),
                ..Player::named("Z", "")
            },
        ];
        for p in players.clone() {
            roster.add(p).unwrap();
        }
        let mut body = Vec::new();
        let texts = encode_players(&roster, 0..roster.len(), &mut body);
        assert_eq!(texts, 5 + 12 + 9 + 300 + 10 + 3 + 1);
        let source = Source::sheet("tilerank.db", "roster");
        let mut back = Roster::default();
        assert_eq!(add_players(&mut back, &body, 7, &source), Some(10));
        assert_eq!(back.len(), 3);
        for (i, p) in players.iter().enumerate() {
            let got = back.get(crate::domain::PlayerId(i as u32)).into_owned();
            assert_eq!(got.place, Some(source.at(i as u32 + 8, None)));
            assert_eq!(Player { place: None, ..got }, *p);
        }
        // every cut short (the last player's id is a text: a cut before it
        // leaves a text unread), and a status or given out of range:
        // refused, never a panic
        for n in 0..body.len() {
            let cut = add_players(&mut Roster::default(), &body[..n], 1, &source);
            assert_eq!(cut, None, "cut at {n}");
        }
        for (at, byte) in [(4 + texts, 3u8), (4 + texts + 1, 16)] {
            let mut bad = body.clone();
            bad[at] = byte;
            assert_eq!(add_players(&mut Roster::default(), &bad, 1, &source), None);
        }
    }

    #[test]
    fn a_score_stored_as_text_is_the_same_as_its_exact_value() {
        let exact = StoredScore::Exact(Score::ratio(41, 3));
        assert_eq!(exact, StoredScore::Text("13.666667".into()));
        assert_ne!(exact, StoredScore::Text("13.67".into()));
        assert_eq!(
            StoredScore::Exact(Score::whole(-12)),
            StoredScore::Text("-12".into())
        );
    }

    /// A log row of an import of nothing.
    fn an_import() -> LogEntry {
        LogEntry {
            time: super::super::utc_now(),
            action: "import".into(),
            file: "x.csv".into(),
            sha256: String::new(),
            stage: String::new(),
            cards: 0,
            games: 0,
            reason: String::new(),
        }
    }

    /// The store keeps whether its cards, in the order stored, are in
    /// their keys' order: imports in order keep it, a card written after
    /// one of a later key breaks it for good, a card replaced in place of
    /// the last keeps it; a store whose cards came before schema 6 does not
    /// know.
    #[test]
    fn the_cards_order_is_kept_by_every_import() {
        let dir = std::env::temp_dir().join(format!("tilerank-order-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let store = Store::open(&dir.join(super::super::DB_FILE), true).unwrap();
        assert_eq!(store.card_order().unwrap(), Some(true));
        // the log rows the cards point to
        for _ in 0..2 {
            store.append_log(&an_import()).unwrap();
        }
        let key = |session, table| CardKey {
            stage: Stage::prelim(),
            session: Label::Num(session),
            table: Label::Num(table),
        };
        // what an import writes: its cards, then what it says of them
        let import = |keys: &[CardKey]| {
            let written: Vec<(CardKey, i64)> = keys
                .iter()
                .map(|k| (k.clone(), store.insert_card(1, k, "x.csv", &[]).unwrap()))
                .collect();
            store.note_card_order(&written).unwrap();
            written
        };
        // tables 9 then 10: in order as numbers, not as texts
        import(&[key(1, 9), key(1, 10)]);
        let s2 = import(&[key(2, 1), key(2, 2)]);
        assert_eq!(store.card_order().unwrap(), Some(true));
        // the last card replaced: the new one follows the one before it
        store.replace_card(s2[1].1, 2).unwrap();
        import(&[key(2, 2)]);
        assert_eq!(store.card_order().unwrap(), Some(true));
        // a card of session 1 after session 2's: broken, and it stays so
        import(&[key(1, 11)]);
        assert_eq!(store.card_order().unwrap(), Some(false));
        import(&[key(3, 1)]);
        assert_eq!(store.card_order().unwrap(), Some(false));
        // a store whose cards came before the order was kept
        store
            .conn
            .execute_batch("DELETE FROM card_order; INSERT INTO card_order VALUES (NULL)")
            .unwrap();
        assert_eq!(store.card_order().unwrap(), None);
        import(&[key(4, 1)]);
        assert_eq!(store.card_order().unwrap(), None);
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }

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
        store.append_log(&an_import()).unwrap();
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
