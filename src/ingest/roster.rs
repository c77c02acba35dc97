//! The roster layout (FORMATS.md): `id,name,birth_date,family,status,group`.

use super::cell::{Cell, Row};
use super::hashes::Hashing;
use super::header::{blank_in_table, header_of, map_header, Column, ColumnMap};
use super::limits::{hint, Limits};
use super::lines::{Fields, MergedLabels};
use super::split::Splitter;
use super::text::{PlainRest, SplitFields};
use super::{expand, open, recognise, InputError, Kind, Rows};
use crate::place::Source;
use crate::problem::Problems;
use crate::roster::{Batch, NameHasher, PlayerFields, Roster, Status};
use crate::rules::age_groups::{not_a_date, Date};
use std::borrow::Cow;
use std::path::{Path, PathBuf};

const ID: usize = 0;
const NAME: usize = 1;
const BIRTH: usize = 2;
const AGE: usize = 3;
const FAMILY: usize = 4;
const STATUS: usize = 5;
const GROUP: usize = 6;

/// The roster's columns, each with the names it is also given: in
/// English, and in Chinese as a Hong Kong volunteer writes them
/// (Traditional, and Simplified), docs/formats.md.
const COLUMNS: [Column; 7] = [
    Column {
        name: "id",
        aliases: &[
            "playerid",
            "player",
            "編號",
            "编号",
            "號碼",
            "号码",
            "選手編號",
            "选手编号",
            "參賽編號",
            "参赛编号",
        ],
        required: true,
    },
    Column {
        name: "name",
        aliases: &[
            "playername",
            "fullname",
            "姓名",
            "名字",
            "選手姓名",
            "选手姓名",
        ],
        required: true,
    },
    Column {
        name: "birthdate",
        aliases: &[
            "dateofbirth",
            "dob",
            "birthday",
            "出生日期",
            "生日",
            "出生年月日",
        ],
        required: false,
    },
    Column {
        name: "age",
        aliases: &["年齡", "年龄"],
        required: false,
    },
    Column {
        name: "family",
        aliases: &["familyid", "familyunit", "家庭", "家庭編號", "家庭编号"],
        required: false,
    },
    Column {
        name: "status",
        aliases: &["狀態", "状态"],
        required: false,
    },
    Column {
        name: "group",
        aliases: &[
            "agegroup",
            "組別",
            "组别",
            "年齡組別",
            "年龄组别",
            "年齡組",
            "年龄组",
        ],
        required: false,
    },
];

/// How near a header row comes to the layout (see
/// [`super::header::lacking`]).
pub fn lacking(texts: &[String]) -> (usize, Vec<String>) {
    super::header::lacking(texts, &COLUMNS, None)
}

pub fn is_header(texts: &[String]) -> bool {
    map_header(texts, &COLUMNS).is_some()
}

/// Reads a roster file (CSV or workbook; every roster sheet of it). A
/// large plain CSV file is read a chunk at a time, never whole
/// (`read_file`); any other file is read whole.
pub fn read(path: &PathBuf, problems: &mut Problems) -> Result<Roster, InputError> {
    let limits = Limits::from_env()?;
    let large = std::fs::metadata(path).is_ok_and(|m| m.len() >= CHUNKED_FROM);
    if large && super::is_text_file(path) {
        if let Some((mut roster, said)) = read_file(path, &limits, CHUNK) {
            super::note_read(path);
            problems.extend(said);
            roster.shrink_to_fit();
            return Ok(roster);
        }
    }
    let mut roster = Roster::default();
    let mut looked = Looked::default();
    let mut unreadable = false;
    for file in expand(std::slice::from_ref(path))? {
        match open(&file) {
            Ok(sheets) => read_sheets(sheets, &limits, &mut roster, problems, &mut looked),
            Err(e @ (InputError::BadLimit { .. } | InputError::NotFound { .. })) => return Err(e),
            Err(e) => {
                // Keep going, then decide: the cards are still checked (their
                // players known by what the cards say, nothing checked that
                // needs the roster: Roster::unread), the run ends with exit
                // status 2.
                let (place, message) = e.to_problem();
                problems.unreadable(place, message);
                unreadable = true;
            }
        }
    }
    if unreadable {
        // (a roster's file unread: the sheets that hold none are skipped,
        // not said to be no roster)
        for sheet in looked.skipped {
            not_a_roster(&sheet, problems);
        }
        return Ok(Roster::unread());
    }
    if !looked.found {
        not_found(&super::shown(path), looked, problems);
        return Ok(Roster::unread());
    }
    roster.shrink_to_fit();
    Ok(roster)
}

/// A roster given as bytes, read as [`read`] reads a file (the entry point
/// of the roster fuzz target).
pub fn from_bytes(
    name: &str,
    bytes: Vec<u8>,
    limits: &Limits,
    problems: &mut Problems,
) -> Result<Roster, InputError> {
    let mut roster = Roster::default();
    let mut looked = Looked::default();
    read_sheets(
        super::read_bytes(name, bytes, limits)?,
        limits,
        &mut roster,
        problems,
        &mut looked,
    );
    if !looked.found {
        not_found(name, looked, problems);
    }
    Ok(roster)
}

/// A plain CSV roster (no quote, no lone carriage return) read both ways:
/// split where it lies, in chunks on every core, and row by row from the
/// CSV reader's rows; for each, every message and every player. `None`
/// for any other text. The roster fuzz target holds the two the same, as
/// a test does.
#[doc(hidden)]
pub fn both_ways(
    name: &str,
    bytes: Vec<u8>,
    limits: &Limits,
) -> Option<[(Vec<String>, Vec<crate::roster::Player>); 2]> {
    let (text, _) = super::text::decode_owned(bytes).ok()?;
    super::text::check_lengths(&text, name, limits).ok()?;
    if text.is_empty() || !super::split::takes(text.as_bytes()) {
        return None;
    }
    let read = |rows: super::text::CsvRows| {
        let sheet = super::Sheet {
            source: Source::file(name),
            rows: Rows::Csv(rows),
            encoding: None,
            bad_cells: Vec::new(),
            merged: Vec::new(),
            hidden: false,
        };
        let (mut roster, mut problems) = (Roster::default(), Problems::new());
        read_sheets(
            vec![sheet],
            limits,
            &mut roster,
            &mut problems,
            &mut Looked::default(),
        );
        let said = problems.iter().map(|p| p.to_string()).collect();
        let players = roster.iter().map(|(_, p)| p.into_owned()).collect();
        (said, players)
    };
    Some([
        read(super::text::CsvRows::new(text.clone())),
        read(super::text::rows_by_reader(text)),
    ])
}

/// A roster file read a chunk at a time, `size` bytes a chunk, as [`read`]
/// reads a large one: every message and every player; `None` where it is
/// left to the whole read. Tests and the roster fuzz target hold it to
/// [`from_bytes`] of the file's bytes.
#[doc(hidden)]
pub fn in_chunks(
    path: &Path,
    size: u64,
    limits: &Limits,
) -> Option<(Vec<String>, Vec<crate::roster::Player>)> {
    let (roster, problems) = read_file(path, limits, size)?;
    let said = problems.iter().map(|p| p.to_string()).collect();
    let players = roster.iter().map(|(_, p)| p.into_owned()).collect();
    Some((said, players))
}

/// The sheets of a roster's files looked at: whether one was a roster,
/// and those that hold none, while none is.
#[derive(Default)]
struct Looked {
    found: bool,
    /// The sheets that hold no roster, before one that does: each is
    /// skipped (a warning) once a roster is found, else is said to hold no
    /// roster (an error, [`not_found`]): said once either way.
    skipped: Vec<Source>,
}

/// No roster found in `name`: an error at each sheet looked at (a CSV
/// file's one, at the file), or at the file when no sheet held anything.
fn not_found(name: &str, looked: Looked, problems: &mut Problems) {
    let sheets = match looked.skipped {
        s if s.is_empty() => vec![crate::place::Source::file(name)],
        s => s,
    };
    for sheet in sheets {
        problems.error(
            sheet.whole(),
            "no roster found: expected a header with at least id and name (optional: birth_date, age, family, status, group)",
        );
    }
}

/// A sheet that holds no roster, beside one that does: skipped.
fn not_a_roster(sheet: &Source, problems: &mut Problems) {
    problems.warning(
        sheet.whole(),
        crate::problem::said::Said::new(crate::problem::said::Msg::NotARoster, []),
    );
}

/// Reads every roster sheet, noting in `looked` whether there was one
/// and the sheets skipped.
fn read_sheets(
    sheets: Vec<super::Sheet>,
    limits: &Limits,
    roster: &mut Roster,
    problems: &mut Problems,
    looked: &mut Looked,
) {
    for mut sheet in sheets {
        if !super::read_or_skip(&sheet, problems) {
            continue;
        }
        for (place, why) in std::mem::take(&mut sheet.bad_cells) {
            problems.error(place, why);
        }
        let (kind, seen) = recognise(&mut sheet, problems);
        match kind {
            Kind::Roster => {
                if !looked.found {
                    looked.found = true;
                    for skipped in std::mem::take(&mut looked.skipped) {
                        not_a_roster(&skipped, problems);
                    }
                }
                let merged = MergedLabels::of_columns(&sheet.merged, &SHARED);
                read_sheet(
                    &sheet.source,
                    seen,
                    sheet.rows,
                    merged,
                    roster,
                    limits,
                    problems,
                );
            }
            Kind::Empty => {}
            _ if looked.found => not_a_roster(&sheet.source, problems),
            _ => looked.skipped.push(sheet.source.clone()),
        }
    }
}

/// What a reading thread gives the adding one: players, and the problems
/// said before each (by the index of the player they came before), so
/// that every message comes where one thread would say it.
struct Read {
    players: Batch,
    /// For each player, the column of its id (for a message).
    id_cols: Vec<u32>,
    said: Vec<(usize, Problems)>,
    /// The bytes of the file's chunk read last, kept for its room.
    buf: Vec<u8>,
}

impl Read {
    fn new(hasher: NameHasher) -> Read {
        Read {
            players: Batch::new(hasher),
            id_cols: Vec::with_capacity(BATCH),
            said: Vec::new(),
            buf: Vec::new(),
        }
    }

    /// Moves what was read down `by` lines: a chunk's lines were counted
    /// from its start. (A message of a roster line names no other line:
    /// each is moved where it is said.)
    fn move_down(&mut self, by: u32) {
        self.players.move_lines(by);
        for (_, said) in &mut self.said {
            said.move_rows(by);
        }
    }

    /// Keeps the problems said since the last player.
    fn say(&mut self, here: &mut Problems) {
        if !here.is_empty() {
            self.said.push((self.players.len(), std::mem::take(here)));
        }
    }

    /// Reads a roster line (not blank): a player, or problems said.
    fn line(
        &mut self,
        source: &Source,
        m: &ColumnMap,
        fields: &mut impl Fields,
        limits: &Limits,
        here: &mut Problems,
    ) {
        let number = fields.number();
        if let Some(line) = read_line(source, m, fields, limits, here) {
            self.say(here);
            self.players.push(&line.fields(), source, number);
            self.id_cols.push(line.id_col);
        }
    }

    /// Adds the players read to `roster`, in order, each message said in
    /// its place among those of the lines (an id already taken is one).
    fn add_to(&mut self, roster: &mut Roster, source: &Source, out: &mut Problems) {
        let mut said = std::mem::take(&mut self.said).into_iter().peekable();
        let mut say_to = |k: usize, out: &mut Problems| {
            while let Some((_, p)) = said.next_if(|(before, _)| *before <= k) {
                out.extend(p);
            }
        };
        let (players, id_cols) = (&self.players, &self.id_cols);
        roster.add_batch(players, |k, first| {
            say_to(k, out);
            let player = players.player(k);
            let row = player.place.as_ref().and_then(|p| p.row).unwrap_or(0);
            let at = first
                .place
                .as_ref()
                .map(|p| p.to_string())
                .unwrap_or_default();
            out.error(
                source.at(row, Some(id_cols[k])),
                format!(
                    "id {} is already used at {at} ({}); ids must be unique",
                    super::cell::quoted(&player.id),
                    first.name
                ),
            );
        });
        say_to(usize::MAX, out);
    }

    /// Empties what was read, keeping its room.
    fn clear(&mut self) {
        self.players.clear();
        self.id_cols.clear();
        self.said.clear();
    }
}

/// Players a reading thread sends at a time, from rows.
const BATCH: usize = 1024;

/// Bytes of a plain text a thread reads at a time (some 8,000 roster lines).
const CHUNK: u64 = 256 << 10;

/// The room to keep for a chunk of `bytes` bytes, in steps of 64 KiB.
/// Chunks end at a line's end, a few bytes either side of [`CHUNK`]; a
/// buffer used again that is given room by the byte grows each time a
/// chunk is a little longer than the last, and growing copies it (a
/// third of the fresh memory a million players' roster asked for).
fn room(bytes: usize) -> usize {
    const STEP: usize = 64 << 10;
    bytes.checked_next_multiple_of(STEP).unwrap_or(bytes)
}

/// Reads a roster sheet, whose rows before `rest` are `seen` (its header
/// is the last of them, as [`recognise`] stops there). Its lines are read
/// into players on other threads and added to `roster` in order: a plain
/// CSV text (nearly every roster) is split where it lies, in chunks, on
/// every core ([`read_body`]); other rows are read on one thread. The
/// messages are those, and in the order, that one thread reading row by
/// row gives.
fn read_sheet(
    source: &Source,
    seen: Vec<Row>,
    mut rest: Rows,
    mut merged: MergedLabels,
    roster: &mut Roster,
    limits: &Limits,
    problems: &mut Problems,
) {
    // Room for a player a line, when the rows say how many lines there
    // are: the id index then never grows (growing, it holds its old and
    // new tables at once).
    if let (_, Some(most)) = rest.size_hint() {
        roster.reserve(most.saturating_add(seen.len()).min(MOST_RESERVED));
    }
    let hasher = roster.hasher();
    let Some((map, mut first)) = header_and_first(
        source,
        seen,
        &mut rest,
        &mut merged,
        hasher,
        limits,
        problems,
    ) else {
        return;
    };
    let rest = match rest {
        Rows::Csv(rows) => match rows.into_plain() {
            Ok(plain) => {
                first.add_to(roster, source, problems);
                // (a text held whole is read to its end: see `Body::Text`;
                // its bytes were hashed as read)
                let _ = read_body(
                    source,
                    &map,
                    &Body::Text(&plain),
                    CHUNK,
                    roster,
                    limits,
                    problems,
                    None,
                );
                return;
            }
            Err(rows) => Rows::Csv(*rows),
        },
        rows => rows,
    };
    read_rows(source, &map, first, rest, merged, roster, limits, problems);
}

/// Players reserved room for at most, ahead of reading them (up to 4
/// million: room reserved is untouched memory, but a text of nothing but
/// line breaks is not to reserve gigabytes).
const MOST_RESERVED: usize = 1 << 22;

/// The column map of a roster sheet's header (among the rows `seen`, else
/// the first of `rest` that is one), and the lines after it among those
/// seen, read; `None` when there is no header.
fn header_and_first(
    source: &Source,
    seen: Vec<Row>,
    rest: &mut Rows,
    merged: &mut MergedLabels,
    hasher: NameHasher,
    limits: &Limits,
    problems: &mut Problems,
) -> Option<(ColumnMap, Read)> {
    let mut seen = seen.into_iter().map(Ok);
    let header = header_of(source, &mut seen, &COLUMNS, |_| true, problems);
    let map = header.or_else(|| header_of(source, rest, &COLUMNS, |_| true, problems))?;
    // (the lines after the header among those seen: none, as it is the
    // last seen; read all the same)
    let mut first = Read::new(hasher);
    let mut here = Problems::new();
    for mut row in seen
        .flatten()
        .filter(|row| !blank_in_table(source, &map, row))
    {
        if fill_merged(merged, source, &map, &mut row, &mut here) {
            first.line(source, &map, &mut row, limits, &mut here);
        }
    }
    first.say(&mut here);
    Some((map, first))
}

/// Reads rows on this thread into batches, which another adds.
#[allow(clippy::too_many_arguments)]
fn read_rows(
    source: &Source,
    map: &ColumnMap,
    first: Read,
    rows: Rows,
    mut merged: MergedLabels,
    roster: &mut Roster,
    limits: &Limits,
    problems: &mut Problems,
) {
    let hasher = roster.hasher();
    std::thread::scope(|scope| {
        let (to_adder, for_adder) = std::sync::mpsc::sync_channel::<Read>(8);
        let adder = scope.spawn(move || {
            let mut out = Problems::new();
            for mut read in for_adder {
                read.add_to(roster, source, &mut out);
            }
            out
        });
        let _ = to_adder.send(first);
        let mut read = Read::new(hasher.clone());
        let mut here = Problems::new();
        for row in rows {
            match row {
                Ok(row) if blank_in_table(source, map, &row) => {}
                Ok(mut row) => {
                    if fill_merged(&mut merged, source, map, &mut row, &mut here) {
                        read.line(source, map, &mut row, limits, &mut here);
                    }
                }
                Err(e) => {
                    here.error(source.place(e.at), e.message);
                    break;
                }
            }
            if read.players.len() >= BATCH {
                let full = std::mem::replace(&mut read, Read::new(hasher.clone()));
                // (a closed channel: the adder panicked, said at its join)
                let _ = to_adder.send(full);
            }
        }
        read.say(&mut here);
        let _ = to_adder.send(read);
        drop(to_adder);
        match adder.join() {
            Ok(said) => problems.extend(said),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    });
}

/// The lines of a plain roster text after its header, read a chunk at a
/// time: a text held whole, or a file's (never held whole).
enum Body<'a> {
    /// The rest of a text held whole. Its lines are within the limits
    /// (checked when it was read), and plain (or it would not be one).
    Text(&'a PlainRest),
    /// Bytes `from..len` of a file, the first of line `line + 1`. Any
    /// line that is not plain or could be over a limit, or bytes that are
    /// not UTF-8, and the file is read whole instead ([`read_file`]).
    File {
        file: &'a std::fs::File,
        from: u64,
        len: u64,
        line: u32,
        delimiter: u8,
    },
}

/// Bytes looked at, from a chunk's nominal end, for the line break it ends
/// at: a line this long is not a roster's (the file is read whole).
const WINDOW: usize = 4 << 10;

impl Body<'_> {
    fn delimiter(&self) -> u8 {
        match self {
            Body::Text(plain) => plain.delimiter,
            Body::File { delimiter, .. } => *delimiter,
        }
    }

    /// The lines before the body.
    fn line(&self) -> u32 {
        match self {
            Body::Text(plain) => plain.line,
            Body::File { line, .. } => *line,
        }
    }

    /// Where the body's bytes start and end.
    fn span(&self) -> (u64, u64) {
        match self {
            Body::Text(plain) => (plain.from as u64, plain.text.len() as u64),
            Body::File { from, len, .. } => (*from, *len),
        }
    }

    /// Its chunks: about `size` bytes each, each ending where a line does.
    fn chunks(&self, size: u64) -> Option<Vec<(u64, u64)>> {
        let (mut at, end) = self.span();
        let mut chunks = Vec::new();
        let mut buf = Vec::new();
        while at < end {
            let nominal = at.saturating_add(size.max(1));
            let next = if nominal >= end {
                end
            } else {
                self.line_end(nominal - 1, end, &mut buf)?
            };
            chunks.push((at, next));
            at = next;
        }
        Some(chunks)
    }

    /// Where the line byte `at` is on ends (after its line break; `end`
    /// when it has none): a file's read into `buf` a window at a time.
    fn line_end(&self, at: u64, end: u64, buf: &mut Vec<u8>) -> Option<u64> {
        let found = match self {
            Body::Text(plain) => memchr::memchr(b'\n', &plain.text.as_bytes()[at as usize..]),
            Body::File { file, .. } => {
                buf.resize(
                    usize::try_from(end - at).map_or(WINDOW, |n| n.min(WINDOW)),
                    0,
                );
                super::read_exact_at(file, buf, at).ok()?;
                match memchr::memchr(b'\n', buf) {
                    None if at + (buf.len() as u64) < end => return None,
                    found => found,
                }
            }
        };
        Some(found.map_or(end, |i| at + i as u64 + 1))
    }

    /// The text of chunk `a..b` (a file's read into `buf`); `None` when a
    /// file's bytes are not UTF-8, or fewer than they were.
    fn text<'b>(&'b self, (a, b): (u64, u64), buf: &'b mut Vec<u8>) -> Option<&'b str> {
        match self {
            Body::Text(plain) => plain.text.get(a as usize..b as usize),
            Body::File { file, .. } => {
                let len = usize::try_from(b - a).ok()?;
                buf.reserve(room(len).saturating_sub(buf.len()));
                buf.resize(len, 0);
                super::read_exact_at(file, buf, a).ok()?;
                std::str::from_utf8(buf).ok()
            }
        }
    }

    /// The limits a line of the body is split within: none for a text
    /// held whole (its lines were checked); for a file's, those within
    /// which a line is surely within every limit (the whole read says
    /// which limit a line is over).
    fn splitting(&self, limits: &Limits) -> Limits {
        match self {
            Body::Text(_) => Limits {
                line_bytes: u64::MAX,
                field_bytes: u64::MAX,
                ..*limits
            },
            Body::File { .. } => {
                // (the splitter counts a line without its carriage return)
                let longest = super::text::longest_within(limits);
                Limits {
                    line_bytes: longest.saturating_sub(1),
                    field_bytes: longest,
                    ..*limits
                }
            }
        }
    }
}

/// Reads the lines of `body` into `roster`: chunks of about `size` bytes
/// are read on every core, each line counted from its chunk's start, and
/// added here in their order, moved down to their lines; a file's chunks
/// go to `hashing` in that order too. `None` when a file's line is not the
/// splitter's (see [`Body::File`]): what was added is then to be dropped.
#[allow(clippy::too_many_arguments)]
fn read_body(
    source: &Source,
    map: &ColumnMap,
    body: &Body,
    size: u64,
    roster: &mut Roster,
    limits: &Limits,
    problems: &mut Problems,
    mut hashing: Option<&mut Hashing>,
) -> Option<()> {
    let chunks = body.chunks(size)?;
    // (what the chunks were read into, added: read into again)
    let spare = std::sync::Mutex::new(Vec::<Read>::new());
    // (room for the texts of every line: untouched room is never in memory)
    let (from, end) = body.span();
    roster.reserve_entry_text(usize::try_from(end - from).unwrap_or(0));
    let hasher = roster.hasher();
    let splitting = body.splitting(limits);
    let read_chunk = |&range: &(u64, u64)| -> Option<(Read, u32)> {
        let mut read = spare
            .lock()
            .ok()
            .and_then(|mut spare| spare.pop())
            .unwrap_or_else(|| Read::new(hasher.clone()));
        let mut buf = std::mem::take(&mut read.buf);
        let text = body.text(range, &mut buf)?;
        let mut splitter = Splitter::new(body.delimiter(), &splitting);
        read.players.reserve(room(text.len()));
        let mut here = Problems::new();
        let (mut at, mut number) = (0, 0u32);
        while at < text.len() {
            let (next, plain) = splitter.next_line(text.as_bytes(), at);
            if plain.is_none() && matches!(body, Body::File { .. }) {
                return None;
            }
            number = number.saturating_add(1);
            let mut line = SplitFields {
                text: text.get(at..next).unwrap_or_default(),
                fields: &splitter.fields,
                number,
            };
            if !line.is_blank() {
                read.line(source, map, &mut line, limits, &mut here);
            }
            at = next;
        }
        read.say(&mut here);
        read.buf = buf;
        Some((read, number))
    };
    let mut before = body.line();
    let add = |(mut read, lines): (Read, u32)| {
        if let Some(hashing) = &mut hashing {
            // (a file's chunk: its bytes, as read)
            hashing.update(&read.buf);
        }
        read.move_down(before);
        before = before.saturating_add(lines);
        read.add_to(roster, source, problems);
        read.clear();
        if let Ok(mut spare) = spare.lock() {
            spare.push(read);
        }
    };
    in_order(&chunks, read_chunk, add)
}

/// Reads each of `items` by `read`, on every core, and gives each to `add`
/// in their order; `None` as soon as a read is. Threads but this one read;
/// this one adds, and reads the next item itself when the one to add is
/// not read yet (a thread a processor: one more, on two processors, left
/// them a fifth idle, waiting on each other).
fn in_order<T: Sync, R: Send>(
    items: &[T],
    read: impl Fn(&T) -> Option<R> + Sync,
    mut add: impl FnMut(R),
) -> Option<()> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len());
    if threads <= 1 {
        for item in items {
            add(read(item)?);
        }
        return Some(());
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let claim = || next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::thread::scope(|scope| {
        let (to_adder, for_adder) =
            std::sync::mpsc::sync_channel::<(usize, Option<R>)>(2 * threads);
        for _ in 1..threads {
            let to_adder = to_adder.clone();
            let (claim, read) = (&claim, &read);
            scope.spawn(move || loop {
                let j = claim();
                let Some(item) = items.get(j) else { break };
                let got = read(item);
                let failed = got.is_none();
                // (a closed channel: this thread's reading is not wanted)
                if to_adder.send((j, got)).is_err() || failed {
                    break;
                }
            });
        }
        drop(to_adder);
        // each item added in its turn; those read ahead of it wait
        let mut ahead = std::collections::BTreeMap::<usize, Option<R>>::new();
        let mut turn = 0;
        while turn < items.len() {
            if let Some(got) = ahead.remove(&turn) {
                add(got?);
                turn += 1;
                continue;
            }
            if let Ok((j, got)) = for_adder.try_recv() {
                ahead.insert(j, got);
                continue;
            }
            if ahead.len() < 2 * threads {
                let j = claim();
                if let Some(item) = items.get(j) {
                    ahead.insert(j, read(item));
                    continue;
                }
            }
            match for_adder.recv() {
                Ok((j, got)) => {
                    ahead.insert(j, got);
                }
                // every other thread ended: no item is to come
                Err(_) => break,
            }
        }
        (turn == items.len()).then_some(())
    })
}

/// Files from this size on are read a chunk at a time when they can be
/// ([`read_file`]): never held whole, a roster of a million players is
/// some 32 MB less memory to ask the system for.
const CHUNKED_FROM: u64 = 1 << 20;

/// Bytes of the start of a file read for its header: whole lines, the
/// delimiter judged on them as on a text's first lines.
const HEAD: u64 = 64 << 10;

/// Reads a roster file a chunk at a time, never whole, as [`read`] reads
/// a large one: its players and the problems said. `None` for any file but
/// the common shape (UTF-8 CSV with no quote, its header among its first
/// lines, each line short and plain): it is then read whole, the way any
/// file is, which says what is wrong with it.
fn read_file(path: &Path, limits: &Limits, size: u64) -> Option<(Roster, Problems)> {
    let name = super::shown(path);
    let source = Source::file(&name);
    let file = std::fs::File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    let mut head = vec![0u8; usize::try_from(len.min(HEAD)).ok()?];
    super::read_exact_at(&file, &mut head, 0).ok()?;
    if super::not_spreadsheet_kind(&head).is_some() || super::workbook::format_of(&head).is_some() {
        return None;
    }
    // (a NUL: UTF-16 without a byte order mark, or a damaged file; the
    // whole read says which, see `text::decode`)
    if memchr::memchr(0, &head).is_some() {
        return None;
    }
    let whole = head.len() as u64 == len;
    if !whole {
        head.truncate(memchr::memrchr(b'\n', &head)? + 1);
    }
    let bom = if head.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let text = std::str::from_utf8(&head[bom..]).ok()?;
    let judged = text.lines().filter(|l| !l.trim().is_empty()).count();
    if !super::split::takes(text.as_bytes()) || (!whole && judged < super::text::SNIFF_LINES) {
        return None;
    }
    let mut problems = Problems::new();
    let mut sheet = super::Sheet {
        source: source.clone(),
        rows: Rows::Csv(super::text::CsvRows::new(text.to_string())),
        encoding: None,
        bad_cells: Vec::new(),
        merged: Vec::new(),
        hidden: false,
    };
    let (kind, seen) = recognise(&mut sheet, &mut problems);
    let header = seen.last().map(|row| row.number).filter(|&n| n > 0)?;
    if kind != Kind::Roster {
        return None;
    }
    // the lines after the header's (a plain text's lines are its line
    // feeds')
    let from = match memchr::memchr_iter(b'\n', text.as_bytes()).nth(header as usize - 1) {
        Some(i) => (bom + i + 1) as u64,
        None => len,
    };
    // the file's bytes hashed in its order: the head's up to the body,
    // then each chunk as it is added
    let mut hashing = Hashing::start();
    hashing.update(head.get(..usize::try_from(from).ok()?)?);
    let mut roster = Roster::default();
    // room for a player a line, the lines judged by the head's
    let lines = super::split::line_feeds(text.as_bytes()).max(1) as u64;
    let per_line = (text.len() as u64 / lines).max(1);
    roster.reserve(
        usize::try_from(len / per_line + 1).map_or(MOST_RESERVED, |n| n.min(MOST_RESERVED)),
    );
    let hasher = roster.hasher();
    let mut no_rest = Rows::Csv(super::text::CsvRows::new(String::new()));
    // (a text: no merged cells)
    let mut merged = MergedLabels::new(&[]);
    let (map, mut first) = header_and_first(
        &source,
        seen,
        &mut no_rest,
        &mut merged,
        hasher,
        limits,
        &mut problems,
    )?;
    first.add_to(&mut roster, &source, &mut problems);
    let body = Body::File {
        file: &file,
        from,
        len,
        line: header,
        delimiter: super::text::sniff_delimiter(text),
    };
    read_body(
        &source,
        &map,
        &body,
        size,
        &mut roster,
        limits,
        &mut problems,
        Some(&mut hashing),
    )?;
    // a file that grew while it was read is read again, whole
    if file.metadata().ok()?.len() != len {
        return None;
    }
    hashing.done(path);
    Some((roster, problems))
}

/// The columns whose merged cell (a workbook's `D3:D4`) gives its value to
/// every row it covers: a value several players share, a family, a
/// status or an age group, typed once for them (docs/formats.md).
const SHARED: [usize; 3] = [FAMILY, STATUS, GROUP];

/// The columns of a value of each player's own, and how a message names
/// them: a merged cell there is an error (two players given one id, or
/// one birth date, by a slip of the mouse), said at each cell the range
/// covers but its first.
const OWN: [(usize, &str); 4] = [
    (ID, "id"),
    (NAME, "name"),
    (BIRTH, "birth_date"),
    (AGE, "age"),
];

/// Fills the cells of a workbook's roster row that a merged range covers
/// ([`MergedLabels`], as a card's line layouts read theirs): a shared
/// value ([`SHARED`]) reads as the range's first cell; a player's own
/// ([`OWN`]) is an error naming the range, and reads as blank. False when
/// the row names no player (its id or name is such a cell).
fn fill_merged(
    merged: &mut MergedLabels,
    source: &Source,
    m: &ColumnMap,
    row: &mut Row,
    problems: &mut Problems,
) -> bool {
    merged.fill(m, row, &OWN.map(|(c, _)| c));
    let mut names_a_player = true;
    for (c, what) in OWN {
        let Some(i) = m.get(c) else { continue };
        if let Cell::Merged(_) = row.get(i) {
            problems.error(
                row.place(source, i),
                format!("{what} is {}", row.get(i).describe()),
            );
            row.cells[i] = Cell::Empty;
            names_a_player &= c != ID && c != NAME;
        }
    }
    names_a_player
}

/// A roster line's values, borrowed from its cells where they are text
/// (a million lines: no text of its own each).
struct Line<'a> {
    id: Cow<'a, str>,
    name: Cow<'a, str>,
    birth_date: Option<Cow<'a, str>>,
    age: Option<u32>,
    family: Cow<'a, str>,
    status: Status,
    group: Cow<'a, str>,
    /// The column of the id (for a message).
    id_col: u32,
}

/// A text given, when it is not blank.
fn given(t: &str) -> Option<&str> {
    Some(t).filter(|t| !t.is_empty())
}

impl Line<'_> {
    fn fields(&self) -> PlayerFields<'_> {
        PlayerFields {
            id: &self.id,
            name: &self.name,
            birth_date: self.birth_date.as_deref(),
            age: self.age,
            family: given(&self.family),
            status: self.status,
            group: given(&self.group),
        }
    }
}

/// A roster line's values, or `None` when the line cannot name a player
/// (each problem said).
fn read_line<'a>(
    source: &Source,
    m: &ColumnMap,
    row: &'a mut impl Fields,
    limits: &Limits,
    problems: &mut Problems,
) -> Option<Line<'a>> {
    // (a cell's place is made when a message needs it: a roster of a
    // million lines)
    let number = row.number();
    // the values read as cells (a date or number cell of a workbook) are
    // taken out first; the texts are borrowed
    // (a birth date written as it is kept, the usual roster's, is read
    // from the text: no cell made, and no text, the line's borrowed)
    let written = m
        .get(BIRTH)
        .is_some_and(|i| written_date(&row.text(i)).is_some());
    let mut cell = |c: usize| m.get(c).map(|i| (row.take(i), i));
    let birth = if written { None } else { cell(BIRTH) };
    let age = cell(AGE);
    let status = cell(STATUS);
    let row = &*row;
    if super::lines::beyond_header(source, m.width, row, problems) {
        return None;
    }
    let place = |i: usize| source.at(number, Some(row.at(i).col));
    let text = move |c: usize| m.get(c).map(|i| row.text(i)).unwrap_or_default();
    let (id, name) = (text(ID), text(NAME));
    let line = || source.at(number, None);
    let place_of = |c: usize| m.get(c).map_or_else(line, place);
    if id.is_empty() {
        problems.error(place_of(ID), "id is blank; every player needs a unique id");
        return None;
    }
    if name.is_empty() {
        problems.error(place_of(NAME), format!("name of {id} is blank"));
        return None;
    }
    for (column, value) in [(ID, &id), (NAME, &name)] {
        // (a character is at least a byte: a text of no more bytes than the
        // limit is within it without counting its characters)
        if value.len() as u64 <= limits.name_chars {
            continue;
        }
        let n = value.chars().count() as u64;
        if n > limits.name_chars {
            problems.unreadable(
                place_of(column),
                format!(
                    "{} of {n} characters; {}",
                    if column == ID { "an id" } else { "a name" },
                    hint(limits.name_chars, "TILERANK_MAX_NAME_CHARS")
                ),
            );
            return None;
        }
    }
    // (the values first, the line made of them at the end: a line made
    // first and changed after was read back at once, in pieces, when it
    // was given, and the processor waited for it: perf annotate)
    let mut birth_date_of = written.then(|| text(BIRTH));
    if let Some((cell, i)) = birth.filter(|(c, _)| !c.is_empty()) {
        match birth_date(&cell) {
            Some(d) => birth_date_of = Some(Cow::Owned(d.into_owned())),
            None => problems.error(
                place(i),
                if matches!(&cell, Cell::Text(t) if Date::parse(t).is_some()) {
                    // a date, of a year no player is born in
                    format!(
                        "{BIRTH_IS} {}; expected a date from {} to {}",
                        cell.describe(),
                        BIRTH_YEARS.start(),
                        BIRTH_YEARS.end()
                    )
                } else {
                    // a date of no day (`2014-02-30`) says why it is none
                    let why = match &cell {
                        Cell::Text(t) => not_a_date(t),
                        _ => "expected a date YYYY-MM-DD".to_string(),
                    };
                    format!("{BIRTH_IS} {}; {why}", cell.describe())
                },
            ),
        }
    }
    let mut age_of = None;
    if let Some((cell, i)) = age.filter(|(c, _)| !c.is_empty()) {
        match super::lines::whole_number(&cell).filter(|&a| a <= 130) {
            Some(a) => age_of = Some(a),
            None => problems.error(
                place(i),
                format!(
                    "{AGE_IS} {}; expected a whole number of years",
                    cell.describe()
                ),
            ),
        }
    }
    let mut status_of = Status::Active;
    if let Some((cell, i)) = status {
        match Status::parse(&cell.text_ref()) {
            Some(s) => status_of = s,
            None => problems.error(
                place(i),
                format!(
                    "status is {}; expected {}",
                    cell.describe(),
                    Status::accepted()
                ),
            ),
        }
    }
    Some(Line {
        id,
        name,
        birth_date: birth_date_of,
        age: age_of,
        family: text(FAMILY),
        status: status_of,
        group: text(GROUP),
        id_col: m.get(ID).map_or(0, |i| row.at(i).col),
    })
}

/// How the error of a birth date or an age typed that is none begins
/// ([`read_line`] says it at the cell).
const BIRTH_IS: &str = "birth_date is";
const AGE_IS: &str = "age is";

/// The roster lines (source and line) whose birth date or age was typed
/// and is no date or age, said at its cell: such a player has none, and
/// that it has none is not said again ([`crate::event`]'s age groups).
pub(crate) fn ages_typed_wrong(problems: &Problems) -> std::collections::HashSet<(Source, u32)> {
    (problems.iter())
        .filter(|p| p.severity == crate::problem::Severity::Error && p.place.col.is_some())
        .filter(|p| p.message.starts_with(BIRTH_IS) || p.message.starts_with(AGE_IS))
        .filter_map(|p| Some((p.place.source.clone(), p.place.row?)))
        .collect()
}

/// A birth date as `YYYY-MM-DD`, from a date cell or text read as every
/// date is ([`Date::parse`]: `2014-09-30`, `2014/9/30`), from 1900 to 2100.
pub fn birth_date(cell: &Cell) -> Option<Cow<'_, str>> {
    let text = match cell {
        Cell::Date(serial) => return super::cell::date_from_serial(*serial).map(Cow::Owned),
        Cell::Text(t) => t.trim(),
        _ => return None,
    };
    if let Some(date) = written_date(text) {
        return Some(Cow::Borrowed(date));
    }
    let date = Date::parse(text).filter(is_birth_year)?;
    Some(Cow::Owned(date.to_string()))
}

/// A text that is a birth date written as it is kept, `YYYY-MM-DD` (the
/// usual roster's): taken as it is, no text made.
fn written_date(text: &str) -> Option<&str> {
    let (y, m, d) = crate::rules::age_groups::written_ymd(text)?;
    Date::new(y, m, d).filter(is_birth_year).map(|_| text)
}

/// The years a birth date is taken from.
const BIRTH_YEARS: std::ops::RangeInclusive<i32> = 1900..=2100;

/// Whether a date is in the years a birth date is taken from
/// ([`BIRTH_YEARS`]).
fn is_birth_year(date: &Date) -> bool {
    BIRTH_YEARS.contains(&date.year)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chunk's room holds it, in 64 KiB steps: chunks a few bytes either
    /// side of `CHUNK` get the same room (a buffer used again never grows
    /// for them), and a length past the last step is given as it is.
    #[test]
    fn a_chunks_room_holds_it_in_steps() {
        let chunk = CHUNK as usize;
        for bytes in [0, 1, chunk - 5, chunk, chunk + 1, chunk + 4000] {
            let r = room(bytes);
            assert!(r >= bytes && r.is_multiple_of(64 << 10), "{bytes}: {r}");
        }
        assert_eq!(room(chunk + 1), room(chunk + 4000));
        assert_eq!(room(usize::MAX), usize::MAX);
    }

    /// A roster of tens of thousands of lines is read on several threads,
    /// in chunks (split where it lies) or in batches (by the CSV reader,
    /// when a field is quoted): its messages are in the order of its
    /// lines, across chunks and batches too, and each comes once, at its
    /// place; an id is taken by the first line that has it, in whichever
    /// chunk that is.
    #[test]
    fn a_long_rosters_messages_come_in_line_order() {
        const LINES: u32 = 40_000;
        for quoted in [false, true] {
            let mut csv = String::from("id,name,birth_date\n");
            for i in 1..=LINES {
                // (an id taken again from far back: another chunk)
                let id = match i {
                    _ if i % 7000 == 0 => i - 6999,
                    _ if i % 700 == 0 => i - 1,
                    _ => i,
                };
                let name = match i {
                    15_000 => String::new(),
                    1 if quoted => "\"N1, the first\"".to_string(),
                    _ => format!("N{i}"),
                };
                let birth = if i % 300 == 0 {
                    "1999-02-30"
                } else {
                    "1999-02-28"
                };
                csv.push_str(&format!("P{id},{name},{birth}\n"));
                if i % 5000 == 0 {
                    csv.push_str(",,\n");
                }
            }
            assert!(csv.len() as u64 > 3 * CHUNK, "several chunks");
            let mut problems = Problems::new();
            let roster =
                from_bytes("r.csv", csv.into_bytes(), &Limits::default(), &mut problems).unwrap();
            let said: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
            let mut expected = Vec::new();
            let mut taken = 0;
            for i in 1..=LINES {
                // (a blank line after every 5000th)
                let line = i + 1 + (i - 1) / 5000;
                if i == 15_000 {
                    expected.push(format!("r.csv:{line}:2: error: name of P15000 is blank"));
                    continue;
                }
                if i % 300 == 0 {
                    expected.push(format!(
                        "r.csv:{line}:3: error: birth_date is \"1999-02-30\"; no such day: February 1999 has 28 days"
                    ));
                }
                let first = match i {
                    _ if i % 7000 == 0 => Some(i - 6999),
                    _ if i % 700 == 0 => Some(i - 1),
                    _ => None,
                };
                if let Some(first) = first {
                    taken += 1;
                    let name = if first == 1 && quoted {
                        "N1, the first".to_string()
                    } else {
                        format!("N{first}")
                    };
                    expected.push(format!(
                        "r.csv:{line}:1: error: id \"P{first}\" is already used at r.csv:{} ({name}); ids must be unique",
                        first + 1 + (first - 1) / 5000,
                    ));
                }
            }
            assert_eq!(said, expected, "quoted: {quoted}");
            // every line but the blank name's and the taken ids
            assert_eq!(roster.len(), LINES as usize - 1 - taken, "quoted: {quoted}");
            let last = roster.find(&format!("P{LINES}")).unwrap();
            assert_eq!(roster.name(last), format!("N{LINES}"));
            assert_eq!(
                roster.get(last).place.as_ref().and_then(|p| p.row),
                Some(LINES + 1 + (LINES - 1) / 5000)
            );
        }
    }

    /// A roster text (`;` and CRLF) of `n` lines after `head` and its
    /// header, with values of every kind read or refused: an id taken
    /// again every `taken` lines, birth dates, ages and statuses good and
    /// bad, blank lines after every `blank`th; names by `name`.
    fn varied_roster(
        head: &str,
        n: u32,
        taken: u32,
        blank: u32,
        name: impl Fn(u32) -> String,
    ) -> String {
        let mut text = format!("{head}id;name;birth_date;age;status;group;family\r\n");
        for i in 0..n {
            let id = if i % taken == 0 { i / 2 } else { i };
            let birth =
                ["1953-02-07", "1953/2/7", "", "1953-02-30", " 2001-12-31 "][i as usize % 5];
            let age = ["", "7", "7.0", "x", "131"][(i as usize / 5) % 5];
            let status = ["", "", "withdrawn", "dq", "maybe"][(i as usize / 25) % 5];
            text.push_str(&format!(
                "P{id};  {} ;{birth};{age};{status};U{};F{}\r\n",
                name(i),
                i % 3,
                i / 4
            ));
            if i % blank == 0 {
                text.push_str(";;;\r\n\r\n");
            }
        }
        text
    }

    /// A plain roster split where it lies, in chunks on every core, reads
    /// as the CSV reader's rows read: the same messages and players, for
    /// rosters with blank lines, `;` and CRLF, long fields, taken ids, and
    /// many chunks.
    #[test]
    fn a_plain_roster_reads_as_the_csv_readers_rows_read() {
        let long = varied_roster("\r\n", 30_000, 977, 4999, |i| format!("Chan Tai Man {i}"));
        let texts = [
            "id,name\nP1,A\nP1,B\n,C\nP2,\n\nP3,D".to_string(),
            "id,name,birth_date\nP1,A,2014-02-30\nP2,B,2014-02-28\n".to_string(),
            format!("id,name\nP1,{}\n", "x".repeat(300)),
            long,
        ];
        for text in texts {
            let [split, read] =
                both_ways("r.csv", text.clone().into_bytes(), &Limits::default()).expect("plain");
            assert_eq!(split, read, "{}", &text[..text.len().min(200)]);
            if text.len() as u64 > 4 * CHUNK {
                // (the long roster: messages of every kind, most players)
                let (said, players) = &split;
                for kind in ["already used", "birth_date is", "age is", "status is"] {
                    assert!(said.iter().any(|m| m.contains(kind)), "{kind}");
                }
                assert!(players.len() > 29_000, "{}", players.len());
            }
        }
        assert!(both_ways("r.csv", b"id,name\nP1,\"A\"\n".to_vec(), &Limits::default()).is_none());
    }

    /// A roster file read a chunk at a time (never whole, as a large one
    /// is) reads as it reads whole: the same messages, at the same places,
    /// and the same players listed on the same lines, in chunks of any
    /// size; and a file that is not the common shape is left to the whole
    /// read, which says what is wrong.
    #[test]
    fn a_roster_file_read_in_chunks_reads_as_it_reads_whole() {
        let dir = std::env::temp_dir().join(format!("tilerank-chunks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let long = varied_roster(
            "\u{feff}Spring league roster\r\n\r\n",
            3_000,
            97,
            499,
            |i| {
                // (within the errors listed, the first 1,000)
                if i == 150 {
                    String::new()
                } else {
                    format!("陳大文 {i}")
                }
            },
        );
        let small: String = (1..=30).map(|i| format!("P{i},N{i}\n")).collect();
        let texts = [
            long.clone(),
            format!("id,name\n{small}P1,again\n,blank id\nP99,"),
            format!("id,name\n{small}"),
            "id,name\nP1,A\nP1,B\n,C\nP2,\n\nP3,D".to_string(),
        ];
        let path = dir.join("roster.csv");
        let limits = Limits::default();
        for text in &texts {
            std::fs::write(&path, text).unwrap();
            let mut problems = Problems::new();
            let name = path.display().to_string();
            let whole =
                from_bytes(&name, text.clone().into_bytes(), &limits, &mut problems).unwrap();
            let said: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
            let players: Vec<_> = whole.iter().map(|(_, p)| p.into_owned()).collect();
            for size in [1, 7, 61, 4096, 1 << 30] {
                let (in_chunks_said, in_chunks_players) =
                    in_chunks(&path, size, &limits).expect("the common shape");
                assert_eq!(in_chunks_said, said, "chunks of {size}: {}", &text[..40]);
                assert_eq!(
                    in_chunks_players,
                    players,
                    "chunks of {size}: {}",
                    &text[..40]
                );
            }
        }
        // (the long roster: messages of every kind, on lines far down)
        std::fs::write(&path, &long).unwrap();
        let (said, players) = in_chunks(&path, 4096, &limits).unwrap();
        for kind in [
            "already used",
            "birth_date is",
            "age is",
            "status is",
            "name of P150 is blank",
            // (past the errors listed, counted)
            "more errors in",
        ] {
            assert!(said.iter().any(|m| m.contains(kind)), "{kind}");
        }
        assert!(players.len() > 2_900, "{}", players.len());
        assert!(
            said.iter().any(|m| m.contains("roster.csv:1250:")),
            "{said:?}"
        );
        // left to the whole read: a quote, bytes that are not UTF-8, a
        // line that could be over a limit, a header that comes late, a
        // workbook, an image
        let late = format!("{}id,name\n{small}", "a note\n".repeat(45));
        let over = Limits {
            line_bytes: 6,
            ..Limits::default()
        };
        for (bytes, limits) in [
            (b"id,name\nP1,\"A\"\n".to_vec(), &limits),
            (
                [format!("id,name\n{small}").as_bytes(), b"P2,\xE9\n"].concat(),
                &limits,
            ),
            (format!("id,name\n{small}").into_bytes(), &over),
            (late.into_bytes(), &limits),
            (b"PK\x03\x04id,name\nP1,A\n".to_vec(), &limits),
            (b"%PDF-1.4 id,name\nP1,A\n".to_vec(), &limits),
        ] {
            std::fs::write(&path, &bytes).unwrap();
            assert!(
                in_chunks(&path, 61, limits).is_none(),
                "{:?}",
                String::from_utf8_lossy(&bytes)
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A roster file read a chunk at a time hashes the bytes it read, its
    /// head then each chunk in the file's order as it is added (chunks
    /// read on every core): the file's hash, in chunks of any size. One
    /// left to the whole read is hashed as read whole. Nothing is hashed
    /// unless asked.
    #[test]
    fn a_roster_read_in_chunks_hashes_the_bytes_it_read_in_order() {
        use crate::ingest::hashes::ReadHashes;
        let dir = std::env::temp_dir().join(format!("tilerank-hashed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("roster.csv");
        let text = varied_roster(
            "\u{feff}Spring league roster\r\n\r\n",
            3_000,
            97,
            499,
            |i| format!("陳大文 {i}"),
        );
        std::fs::write(&path, &text).unwrap();
        let hash = crate::event_folder::sha256_hex(text.as_bytes());
        let limits = Limits::default();
        for size in [1, 61, 4096, 1 << 30] {
            let hashes = ReadHashes::keep();
            in_chunks(&path, size, &limits).expect("the common shape");
            assert_eq!(hashes.of(&path).as_ref(), Some(&hash), "chunks of {size}");
        }
        in_chunks(&path, 61, &limits).unwrap();
        assert_eq!(ReadHashes::keep().of(&path), None, "not asked");
        // (a quote: read whole)
        let quoted = text.replacen("陳大文 7", "\"陳大文\" 7", 1);
        std::fs::write(&path, &quoted).unwrap();
        assert!(in_chunks(&path, 61, &limits).is_none());
        let hashes = ReadHashes::keep();
        read(&path, &mut Problems::new()).unwrap();
        assert_eq!(
            hashes.of(&path),
            Some(crate::event_folder::sha256_hex(quoted.as_bytes()))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The players and messages of a roster given as text.
    fn read_text(text: &str) -> (Vec<crate::roster::Player>, Vec<String>) {
        let mut problems = Problems::new();
        let roster = from_bytes(
            "r.csv",
            text.as_bytes().to_vec(),
            &Limits::default(),
            &mut problems,
        )
        .unwrap();
        let players = roster.iter().map(|(_, p)| p.into_owned()).collect();
        (players, problems.iter().map(|p| p.to_string()).collect())
    }

    /// A roster whose header is written in Chinese (a Hong Kong
    /// volunteer's) is read as the English one is, each column's usual
    /// Chinese names taken (tester r8 #3).
    #[test]
    fn reads_a_header_written_in_chinese() {
        let (players, said) =
            read_text("編號,姓名,出生日期,家庭,狀態,組別\nP1,陳大文,1961-04-02,F1,退出,U12\n");
        assert_eq!(said, Vec::<String>::new());
        let p = &players[0];
        assert_eq!(
            (p.id.as_str(), p.name.as_str(), p.birth_date.as_deref()),
            ("P1", "陳大文", Some("1961-04-02"))
        );
        assert_eq!(
            (p.family.as_deref(), p.status, p.group.as_deref()),
            (Some("F1"), Status::Withdrawn, Some("U12"))
        );
        for header in [
            "號碼,名字,生日,家庭編號,年齡組別",
            "選手編號,選手姓名,出生年月日,家庭,年齡組",
            "编号,姓名,出生日期,家庭编号,组别",
        ] {
            let (players, said) = read_text(&format!("{header}\nP1,A,1961-04-02,F1,U12\n"));
            assert_eq!(said, Vec::<String>::new(), "{header}");
            let p = &players[0];
            assert_eq!(
                (
                    p.id.as_str(),
                    p.name.as_str(),
                    p.birth_date.as_deref(),
                    p.family.as_deref(),
                    p.group.as_deref()
                ),
                ("P1", "A", Some("1961-04-02"), Some("F1"), Some("U12")),
                "{header}"
            );
        }
        let (players, said) = read_text("編號,姓名,年齡\nP1,A,70\n");
        assert_eq!((said.len(), players[0].age), (0, Some(70)));
    }

    /// A file that holds no roster is said to once, at each sheet (a CSV
    /// file's: at the file): an error, not also a warning that the sheet
    /// is skipped. A sheet beside a roster's is skipped, a warning
    /// (tester r8 #3).
    #[test]
    fn no_roster_found_is_said_once_a_sheet() {
        const NONE: &str = "error: no roster found: expected a header with at least id and name \
                            (optional: birth_date, age, family, status, group)";
        let (_, said) = read_text("a,b\n1,2\n");
        assert_eq!(said, [format!("r.csv: {NONE}")]);
        let dir = std::env::temp_dir().join(format!("tilerank-no-roster-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let said_of = |sheets: &[(&str, &[&str])]| {
            let path = dir.join("roster.xlsx");
            let mut book = rust_xlsxwriter::Workbook::new();
            for (name, rows) in sheets {
                let sheet = book.add_worksheet();
                sheet.set_name(*name).unwrap();
                for (r, row) in rows.iter().enumerate() {
                    for (c, v) in row.split(',').enumerate() {
                        sheet.write_string(r as u32, c as u16, v).unwrap();
                    }
                }
            }
            book.save(&path).unwrap();
            let mut problems = Problems::new();
            let roster = read(&path, &mut problems).unwrap();
            let said: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
            (roster.len(), said, super::super::shown(&path))
        };
        let (_, said, at) = said_of(&[("名冊", &["編碼,名子", "P1,A"])]);
        assert_eq!(said, [format!("{at}[名冊]: {NONE}")]);
        let (_, said, at) = said_of(&[("Notes", &["a note"]), ("Other", &["x,y"])]);
        assert_eq!(
            said,
            [
                format!("{at}[Notes]: {NONE}"),
                format!("{at}[Other]: {NONE}")
            ]
        );
        let (players, said, at) =
            said_of(&[("Notes", &["a note"]), ("Players", &["id,name", "P1,A"])]);
        assert_eq!(
            (players, said),
            (
                1,
                vec![format!(
                    "{at}[Notes]: warning: not a roster (expected a header with id and name): skipped"
                )]
            )
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A status written in Chinese (a Hong Kong volunteer's roster) is
    /// read: `退出` withdrawn, `取消資格` disqualified, and the words the
    /// pages say them in (`已退出`, `已取消資格`); one that is none
    /// says every word taken (tester r8 #3).
    #[test]
    fn reads_statuses_written_in_chinese_and_says_every_word_taken() {
        let (players, said) =
            read_text("id,name,status\nP1,A,退出\nP2,B,取消資格\nP3,C,wd\nP4,D,maybe\nP5,E,\nP6,F,已退出\nP7,G,已取消資格\n");
        let status: Vec<(&str, Status)> =
            players.iter().map(|p| (p.id.as_str(), p.status)).collect();
        assert_eq!(
            status,
            [
                ("P1", Status::Withdrawn),
                ("P2", Status::Disqualified),
                ("P3", Status::Withdrawn),
                ("P4", Status::Active),
                ("P5", Status::Active),
                // (as the pages say them)
                ("P6", Status::Withdrawn),
                ("P7", Status::Disqualified),
            ]
        );
        assert_eq!(
            said,
            [
                "r.csv:5:3: error: status is \"maybe\"; expected blank, active (or OK), \
              withdrawn (or W, WD, withdrew, 退出, 已退出) or disqualified (or DQ, 取消資格, 取消资格, 已取消資格)"
            ]
        );
    }

    /// A birth date written the Chinese way is kept as `YYYY-MM-DD`; one
    /// written day and month first, which could be either way, says so
    /// (tester r8 #3).
    #[test]
    fn reads_a_birth_date_written_the_chinese_way() {
        let (players, said) = read_text(
            "id,name,birth_date\nP1,A,1961年4月2日\nP2,B,１９６１年４月２日\nP3,C,02/04/1961\n",
        );
        let births: Vec<Option<&str>> = players.iter().map(|p| p.birth_date.as_deref()).collect();
        assert_eq!(births, [Some("1961-04-02"), Some("1961-04-02"), None]);
        assert_eq!(
            said,
            ["r.csv:4:3: error: birth_date is \"02/04/1961\"; day and month could be either way \
              (1961-04-02 or 1961-02-04); write it as YYYY-MM-DD"]
        );
    }

    #[test]
    fn reads_birth_dates_as_people_write_them() {
        assert_eq!(
            birth_date(&Cell::text("2014-09-30")).as_deref(),
            Some("2014-09-30")
        );
        assert_eq!(
            birth_date(&Cell::text("2014/9/3")).as_deref(),
            Some("2014-09-03")
        );
        assert_eq!(
            birth_date(&Cell::Date(46109.0)).as_deref(),
            Some("2026-03-28")
        );
        assert_eq!(birth_date(&Cell::text("2014-02-30")), None);
        assert_eq!(birth_date(&Cell::text("30/09/2014")), None);
        assert_eq!(birth_date(&Cell::text("1899-12-31")), None, "before 1900");
        assert_eq!(birth_date(&Cell::text("2101-01-01")), None, "after 2100");
    }

    /// A birth date's text is read as every date is (the settings', the
    /// command line's): the same texts taken, each as the same day.
    #[test]
    fn a_birth_date_is_read_as_every_date_is() {
        for text in [
            "2014-09-30",
            " 2014-9-3 ",
            "2014.09.30",
            "2014/9/30",
            "2000-02-29",
            "1900-02-29",
            "+2014-1-1",
            "02014-01-01",
            "2014-009-03",
            "2014-1-1-1",
            "14-09-30",
            "2014-13-01",
            "",
        ] {
            let every = crate::config::parse_date(text).ok();
            assert_eq!(
                birth_date(&Cell::text(text)).map(|d| d.into_owned()),
                every,
                "{text:?}"
            );
        }
    }
}
