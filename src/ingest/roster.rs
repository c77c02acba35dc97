//! The roster layout (FORMATS.md): `id,name,birth_date,family,status,group`.

use super::cell::{Cell, Row, Text};
use super::header::{header_of, map_header, Column, ColumnMap};
use super::limits::{hint, Limits};
use super::lines::Fields;
use super::split::Splitter;
use super::text::{PlainRest, SplitFields};
use super::{expand, open, recognise, InputError, Kind, Rows};
use crate::place::Source;
use crate::problem::Problems;
use crate::roster::{Batch, NameHasher, PlayerFields, Roster, Status};
use crate::rules::age_groups::Date;
use std::borrow::Cow;
use std::path::PathBuf;

const ID: usize = 0;
const NAME: usize = 1;
const BIRTH: usize = 2;
const AGE: usize = 3;
const FAMILY: usize = 4;
const STATUS: usize = 5;
const GROUP: usize = 6;

const COLUMNS: [Column; 7] = [
    Column {
        name: "id",
        aliases: &["playerid", "player"],
        required: true,
    },
    Column {
        name: "name",
        aliases: &["playername", "fullname"],
        required: true,
    },
    Column {
        name: "birthdate",
        aliases: &["dateofbirth", "dob", "birthday"],
        required: false,
    },
    Column {
        name: "age",
        aliases: &[],
        required: false,
    },
    Column {
        name: "family",
        aliases: &["familyid", "familyunit"],
        required: false,
    },
    Column {
        name: "status",
        aliases: &[],
        required: false,
    },
    Column {
        name: "group",
        aliases: &["agegroup"],
        required: false,
    },
];

pub fn is_header(texts: &[String]) -> bool {
    map_header(texts, &COLUMNS).is_some()
}

/// Reads a roster file (CSV or workbook; every roster sheet of it).
pub fn read(path: &PathBuf, problems: &mut Problems) -> Result<Roster, InputError> {
    let limits = Limits::from_env()?;
    let mut roster = Roster::default();
    let mut found = false;
    let mut unreadable = false;
    for file in expand(std::slice::from_ref(path))? {
        match open(&file) {
            Ok(sheets) => found |= read_sheets(sheets, &limits, &mut roster, problems),
            Err(e @ (InputError::BadLimit { .. } | InputError::NotFound { .. })) => return Err(e),
            Err(e) => {
                // Keep going, then decide: the cards are still checked (their
                // players known by what the cards say), the run ends with
                // exit status 2.
                let (place, message) = e.to_problem();
                problems.unreadable(place, message);
                unreadable = true;
            }
        }
    }
    if unreadable {
        return Ok(Roster::open());
    }
    if !found {
        not_found(&super::shown(path), problems);
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
    if !read_sheets(
        super::read_bytes(name, bytes, limits)?,
        limits,
        &mut roster,
        problems,
    ) {
        not_found(name, problems);
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
    let (text, _) = super::text::decode_owned(bytes);
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
        };
        let (mut roster, mut problems) = (Roster::default(), Problems::new());
        read_sheets(vec![sheet], limits, &mut roster, &mut problems);
        let said = problems.iter().map(|p| p.to_string()).collect();
        let players = roster.iter().map(|(_, p)| p.into_owned()).collect();
        (said, players)
    };
    Some([
        read(super::text::CsvRows::new(text.clone())),
        read(super::text::rows_by_reader(text)),
    ])
}

fn not_found(name: &str, problems: &mut Problems) {
    problems.error(
        crate::place::Source::file(name).whole(),
        "no roster found: expected a header with at least id and name (optional: birth_date, age, family, status, group)",
    );
}

/// Reads every roster sheet; whether there was one.
fn read_sheets(
    sheets: Vec<super::Sheet>,
    limits: &Limits,
    roster: &mut Roster,
    problems: &mut Problems,
) -> bool {
    let mut found = false;
    for mut sheet in sheets {
        for (place, why) in std::mem::take(&mut sheet.bad_cells) {
            problems.error(place, why);
        }
        let (kind, seen) = recognise(&mut sheet, problems);
        match kind {
            Kind::Roster => {
                found = true;
                read_sheet(&sheet.source, seen, sheet.rows, roster, limits, problems);
            }
            Kind::Empty => {}
            _ => problems.warning(
                sheet.source.whole(),
                "not a roster (expected a header with id and name): skipped",
            ),
        }
    }
    found
}

/// What a reading thread gives the adding one: players, and the problems
/// said before each (by the index of the player they came before), so
/// that every message comes where one thread would say it.
struct Read {
    players: Batch,
    /// For each player, the column of its id (for a message).
    id_cols: Vec<u32>,
    said: Vec<(usize, Problems)>,
}

impl Read {
    fn new(hasher: NameHasher) -> Read {
        Read {
            players: Batch::new(hasher),
            id_cols: Vec::with_capacity(BATCH),
            said: Vec::new(),
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
                    "id {:?} is already used at {at} ({}); ids must be unique",
                    player.id, first.name
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
const CHUNK: usize = 256 << 10;

/// Reads a roster sheet, whose rows before `rest` are `seen` (its header
/// is the last of them, as [`recognise`] stops there). Its lines are read
/// into players on other threads and added to `roster` in order: a plain
/// CSV text (nearly every roster) is split where it lies, in chunks, on
/// every core; other rows are read on one thread. The messages are
/// those, and in the order, that one thread reading row by row gives.
fn read_sheet(
    source: &Source,
    seen: Vec<Row>,
    mut rest: Rows,
    roster: &mut Roster,
    limits: &Limits,
    problems: &mut Problems,
) {
    // Room for a player a line, when the rows say how many lines there
    // are: the id index then never grows (growing, it holds its old and
    // new tables at once). Up to 4 million players: room reserved is
    // untouched memory, but a text of nothing but line breaks is not to
    // reserve gigabytes.
    if let (_, Some(most)) = rest.size_hint() {
        roster.reserve(most.saturating_add(seen.len()).min(1 << 22));
    }
    let mut seen = seen.into_iter().map(Ok);
    let header = header_of(source, &mut seen, &COLUMNS, |_| true, problems);
    let Some(map) = header.or_else(|| header_of(source, &mut rest, &COLUMNS, |_| true, problems))
    else {
        return;
    };
    // (the lines after the header among those seen: none, as it is the
    // last seen; read first all the same)
    let mut first = Read::new(roster.hasher());
    let mut here = Problems::new();
    for mut row in seen.flatten().filter(|row| !row.is_blank()) {
        first.line(source, &map, &mut row, limits, &mut here);
    }
    first.say(&mut here);
    let rest = match rest {
        Rows::Csv(rows) => match rows.into_plain() {
            Ok(plain) => {
                first.add_to(roster, source, problems);
                first.clear();
                return read_plain(source, &map, &plain, roster, limits, problems);
            }
            Err(rows) => Rows::Csv(*rows),
        },
        rows => rows,
    };
    read_rows(source, &map, first, rest, roster, limits, problems);
}

/// Reads rows on this thread into batches, which another adds.
fn read_rows(
    source: &Source,
    map: &ColumnMap,
    first: Read,
    rows: Rows,
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
                Ok(row) if row.is_blank() => {}
                Ok(mut row) => read.line(source, map, &mut row, limits, &mut here),
                Err(e) => {
                    here.error(source.whole(), format!("cannot be read as CSV: {e}"));
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

/// Reads the rest of a plain text: chunks of its lines are read on every
/// core, and added here in their order.
fn read_plain(
    source: &Source,
    map: &ColumnMap,
    plain: &PlainRest,
    roster: &mut Roster,
    limits: &Limits,
    problems: &mut Problems,
) {
    let chunks = chunks(plain);
    // (what the chunks were read into, added: read into again)
    let spare = std::sync::Mutex::new(Vec::<Read>::new());
    // (room for the texts of every line: untouched room is never in memory)
    roster.reserve_entry_text(plain.text.len() - plain.from);
    let hasher = roster.hasher();
    let read_chunk = |&(start, end, before): &(usize, usize, u32)| {
        let (text, bytes) = (plain.text.as_str(), &plain.text.as_bytes()[..end]);
        // (the text's lines are within the limits already, checked before
        // it is read)
        let unlimited = Limits {
            line_bytes: u64::MAX,
            field_bytes: u64::MAX,
            ..Limits::default()
        };
        let mut splitter = Splitter::new(plain.delimiter, &unlimited);
        let mut read = spare
            .lock()
            .ok()
            .and_then(|mut spare| spare.pop())
            .unwrap_or_else(|| Read::new(hasher.clone()));
        read.players.reserve(end - start);
        let mut here = Problems::new();
        let (mut at, mut number) = (start, before);
        while at < end {
            let (next, _) = splitter.next_line(bytes, at);
            number += 1;
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
        read
    };
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(chunks.len());
    if threads <= 1 {
        for chunk in &chunks {
            read_chunk(chunk).add_to(roster, source, problems);
        }
        return;
    }
    // Threads but this one read chunks; this one adds them in their
    // order, and reads the next chunk itself when the one to add is not
    // read yet (a thread a processor: one more, on two processors, left
    // them a fifth idle, waiting on each other).
    let next = std::sync::atomic::AtomicUsize::new(0);
    let claim = || next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::thread::scope(|scope| {
        let (to_adder, for_adder) = std::sync::mpsc::sync_channel::<(usize, Read)>(2 * threads);
        for _ in 1..threads {
            let to_adder = to_adder.clone();
            let (claim, chunks, read_chunk) = (&claim, &chunks, &read_chunk);
            scope.spawn(move || loop {
                let j = claim();
                let Some(chunk) = chunks.get(j) else { break };
                // (a closed channel: this thread's reading is not wanted)
                if to_adder.send((j, read_chunk(chunk))).is_err() {
                    break;
                }
            });
        }
        drop(to_adder);
        // each chunk added in its turn; those read ahead of it wait
        let mut ahead = std::collections::BTreeMap::<usize, Read>::new();
        let mut turn = 0;
        while turn < chunks.len() {
            if let Some(mut read) = ahead.remove(&turn) {
                read.add_to(roster, source, problems);
                read.clear();
                if let Ok(mut spare) = spare.lock() {
                    spare.push(read);
                }
                turn += 1;
                continue;
            }
            if let Ok((j, read)) = for_adder.try_recv() {
                ahead.insert(j, read);
                continue;
            }
            if ahead.len() < 2 * threads {
                let j = claim();
                if let Some(chunk) = chunks.get(j) {
                    ahead.insert(j, read_chunk(chunk));
                    continue;
                }
            }
            match for_adder.recv() {
                Ok((j, read)) => {
                    ahead.insert(j, read);
                }
                // every other thread ended: no chunk is to come
                Err(_) => break,
            }
        }
    });
}

/// The chunks of a plain text's rest, each ending where a line does: where
/// each starts and ends, and the lines before it.
fn chunks(plain: &PlainRest) -> Vec<(usize, usize, u32)> {
    let bytes = plain.text.as_bytes();
    let mut chunks = Vec::new();
    let (mut at, mut before) = (plain.from, plain.line);
    while at < bytes.len() {
        let end = match bytes.get(at + CHUNK..) {
            Some(after) => memchr::memchr(b'\n', after).map_or(bytes.len(), |i| at + CHUNK + i + 1),
            None => bytes.len(),
        };
        chunks.push((at, end, before));
        let breaks = super::split::line_feeds(&bytes[at..end]);
        before = before.saturating_add(u32::try_from(breaks).unwrap_or(u32::MAX));
        at = end;
    }
    chunks
}

/// A roster line's values, borrowed from its cells where they are text
/// (a million lines: no text of its own each).
struct Line<'a> {
    id: Cow<'a, str>,
    name: Cow<'a, str>,
    birth_date: Option<Text>,
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
    // from the text: no cell made)
    let written = m
        .get(BIRTH)
        .and_then(|i| written_date(&row.text(i)).map(Text::from));
    let mut cell = |c: usize| m.get(c).map(|i| (row.take(i), i));
    let birth = if written.is_some() { None } else { cell(BIRTH) };
    let (age, status) = (cell(AGE), cell(STATUS));
    let row = &*row;
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
    let mut player = Line {
        id,
        name,
        birth_date: written,
        age: None,
        family: text(FAMILY),
        status: Status::Active,
        group: text(GROUP),
        id_col: m.get(ID).map_or(0, |i| row.at(i).col),
    };
    if let Some((cell, i)) = birth.filter(|(c, _)| !c.is_empty()) {
        match birth_date(&cell) {
            Some(d) => player.birth_date = Some(Text::from(d.as_ref())),
            None => problems.error(
                place(i),
                if matches!(&cell, Cell::Text(t) if Date::parse(t).is_some()) {
                    // a date, of a year no player is born in
                    format!(
                        "birth_date is {}; expected a date from {} to {}",
                        cell.describe(),
                        BIRTH_YEARS.start(),
                        BIRTH_YEARS.end()
                    )
                } else {
                    format!(
                        "birth_date is {}; expected a date YYYY-MM-DD",
                        cell.describe()
                    )
                },
            ),
        }
    }
    if let Some((cell, i)) = age.filter(|(c, _)| !c.is_empty()) {
        match super::lines::whole_number(&cell).filter(|&a| a <= 130) {
            Some(a) => player.age = Some(a),
            None => problems.error(
                place(i),
                format!(
                    "age is {}; expected a whole number of years",
                    cell.describe()
                ),
            ),
        }
    }
    if let Some((cell, i)) = status {
        match Status::parse(&cell.text_ref()) {
            Some(s) => player.status = s,
            None => problems.error(
                place(i),
                format!(
                    "status is {}; expected blank, withdrawn or disqualified",
                    cell.describe()
                ),
            ),
        }
    }
    Some(player)
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
            assert!(csv.len() > 3 * CHUNK, "several chunks");
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
                        "r.csv:{line}:3: error: birth_date is \"1999-02-30\"; expected a date YYYY-MM-DD"
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

    /// A plain roster split where it lies, in chunks on every core, reads
    /// as the CSV reader's rows read: the same messages and players, for
    /// rosters with blank lines, `;` and CRLF, long fields, taken ids, and
    /// many chunks.
    #[test]
    fn a_plain_roster_reads_as_the_csv_readers_rows_read() {
        let mut long = String::from("\r\nid;name;birth_date;age;status;group;family\r\n");
        for i in 0..30_000u32 {
            let id = if i % 977 == 0 { i / 2 } else { i };
            let birth =
                ["1953-02-07", "1953/2/7", "", "1953-02-30", " 2001-12-31 "][i as usize % 5];
            let age = ["", "7", "7.0", "x", "131"][(i as usize / 5) % 5];
            let status = ["", "", "withdrawn", "dq", "maybe"][(i as usize / 25) % 5];
            long.push_str(&format!(
                "P{id};  Chan Tai Man {i} ;{birth};{age};{status};U{};F{}\r\n",
                i % 3,
                i / 4
            ));
            if i % 4999 == 0 {
                long.push_str(";;;\r\n\r\n");
            }
        }
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
            if text.len() > 4 * CHUNK {
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
