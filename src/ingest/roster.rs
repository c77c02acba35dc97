//! The roster layout (FORMATS.md): `id,name,birth_date,family,status,group`.

use super::cell::{Cell, Row};
use super::header::{each_line, map_header, Column};
use super::limits::{hint, Limits};
use super::{expand, open, recognise, InputError, Kind};
use crate::problem::Problems;
use crate::roster::{Batch, PlayerFields, Roster, Status};
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
                let rows = seen.into_iter().map(Ok).chain(sheet.rows);
                read_sheet(&sheet.source, rows, roster, limits, problems);
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

/// What the reading thread gives the adding one: players, and the
/// problems said before each (by the index of the player they came
/// before), so that every message comes where one thread would say it.
struct Read {
    players: Batch,
    /// For each player, the column of its id (for a message).
    id_cols: Vec<u32>,
    said: Vec<(usize, Problems)>,
}

impl Read {
    fn new() -> Read {
        Read {
            players: Batch::new(),
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
}

/// Players sent to the adding thread at a time.
const BATCH: usize = 1024;

/// Reads a roster sheet: its lines are read into players on this thread,
/// and added to `roster` on another (a roster of a million reads in about
/// the time of the slower of the two). The messages are those, and in the
/// order, that one thread gives.
fn read_sheet(
    source: &crate::place::Source,
    rows: impl Iterator<Item = Result<Row, String>>,
    roster: &mut Roster,
    limits: &Limits,
    problems: &mut Problems,
) {
    // Room for a player a line, when the rows say how many lines there
    // are: the id index then never grows (growing, it holds its old and
    // new tables at once). Up to 4 million players: room reserved is
    // untouched memory, but a text of nothing but line breaks is not to
    // reserve gigabytes.
    if let (_, Some(most)) = rows.size_hint() {
        roster.reserve(most.min(1 << 22));
    }
    std::thread::scope(|scope| {
        let (to_adder, for_adder) = std::sync::mpsc::sync_channel::<Read>(8);
        let adder = scope.spawn(move || {
            let mut out = Problems::new();
            for read in for_adder {
                let mut said = read.said.into_iter().peekable();
                let mut say_to = |k: usize, out: &mut Problems| {
                    while let Some((_, p)) = said.next_if(|(before, _)| *before <= k) {
                        out.extend(p);
                    }
                };
                roster.add_batch(&read.players, |k, first| {
                    say_to(k, &mut out);
                    let player = read.players.player(k);
                    let row = player.place.as_ref().and_then(|p| p.row).unwrap_or(0);
                    let at = first
                        .place
                        .as_ref()
                        .map(|p| p.to_string())
                        .unwrap_or_default();
                    out.error(
                        source.at(row, Some(read.id_cols[k])),
                        format!(
                            "id {:?} is already used at {at} ({}); ids must be unique",
                            player.id, first.name
                        ),
                    );
                });
                say_to(usize::MAX, &mut out);
            }
            out
        });
        let mut read = Read::new();
        let mut here = Problems::new();
        each_line(
            source,
            rows,
            &COLUMNS,
            |_| true,
            &mut here,
            |m, row, here| {
                if let Some(line) = read_line(source, m, &row, limits, here) {
                    read.say(here);
                    read.players.push(&line.fields(), source, row.number);
                    read.id_cols.push(line.id_col);
                    if read.players.len() >= BATCH {
                        let full = std::mem::replace(&mut read, Read::new());
                        // (a closed channel: the adder panicked, said at its join)
                        let _ = to_adder.send(full);
                    }
                }
            },
        );
        read.say(&mut here);
        let _ = to_adder.send(read);
        drop(to_adder);
        match adder.join() {
            Ok(said) => problems.extend(said),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    });
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
    source: &crate::place::Source,
    m: &super::header::ColumnMap,
    row: &'a Row,
    limits: &Limits,
    problems: &mut Problems,
) -> Option<Line<'a>> {
    // (a cell's place is made when a message needs it: a roster of a
    // million lines)
    let get = |c: usize| m.get(c).map(|i| (row.get(i), i));
    let place = |i: usize| row.place(source, i);
    let text = |c: usize| get(c).map(|(v, _)| v.text_ref()).unwrap_or_default();
    let (id, name) = (text(ID), text(NAME));
    let line = || source.at(row.number, None);
    let place_of = |c: usize| get(c).map_or_else(line, |(_, i)| place(i));
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
        birth_date: None,
        age: None,
        family: text(FAMILY),
        status: Status::Active,
        group: text(GROUP),
        id_col: get(ID).map_or(0, |(_, i)| row.col(i)),
    };
    if let Some((cell, i)) = get(BIRTH).filter(|(c, _)| !c.is_empty()) {
        match birth_date(cell) {
            Some(d) => player.birth_date = Some(d),
            None => problems.error(
                place(i),
                format!(
                    "birth_date is {}; expected a date YYYY-MM-DD",
                    cell.describe()
                ),
            ),
        }
    }
    if let Some((cell, i)) = get(AGE).filter(|(c, _)| !c.is_empty()) {
        match super::results::whole_number(cell).filter(|&a| a <= 130) {
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
    if let Some((cell, i)) = get(STATUS) {
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

/// A birth date as `YYYY-MM-DD`, from a date cell or text (`2014-09-30`,
/// `2014/9/30`).
pub fn birth_date(cell: &Cell) -> Option<Cow<'_, str>> {
    let text = match cell {
        Cell::Date(serial) => return super::cell::date_from_serial(*serial).map(Cow::Owned),
        Cell::Text(t) => t.trim(),
        _ => return None,
    };
    let mut parts = text.split(['-', '/', '.']);
    let (Some(ys), Some(ms), Some(ds), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return None;
    };
    let (y, m, d): (u32, u32, u32) = (ys.parse().ok()?, ms.parse().ok()?, ds.parse().ok()?);
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let valid = (1900..=2100).contains(&y)
        && (1..=12).contains(&m)
        && d >= 1
        && d <= days[(m - 1) as usize];
    // (a date written as it is kept, the usual roster's, is kept as written)
    let kept = text.len() == 10
        && text.as_bytes()[4] == b'-'
        && text.as_bytes()[7] == b'-'
        && [ys, ms, ds]
            .iter()
            .all(|p| p.bytes().all(|b| b.is_ascii_digit()));
    valid.then(|| {
        if kept {
            Cow::Borrowed(text)
        } else {
            Cow::Owned(format!("{y:04}-{m:02}-{d:02}"))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A roster of thousands of lines is read on two threads, in batches:
    /// its messages are in the order of its lines, across batches too, and
    /// each comes once, at its place.
    #[test]
    fn a_long_rosters_messages_come_in_line_order() {
        let mut csv = String::from("id,name,birth_date\n");
        for i in 1..=3000u32 {
            let id = if i % 700 == 0 { i - 1 } else { i };
            let name = if i == 1500 {
                String::new()
            } else {
                format!("N{i}")
            };
            let birth = if i % 300 == 0 {
                "1999-02-30"
            } else {
                "1999-02-28"
            };
            csv.push_str(&format!("P{id},{name},{birth}\n"));
        }
        let mut problems = Problems::new();
        let roster =
            from_bytes("r.csv", csv.into_bytes(), &Limits::default(), &mut problems).unwrap();
        let said: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        let mut expected = Vec::new();
        for i in 1..=3000u32 {
            let line = i + 1;
            if i == 1500 {
                expected.push(format!("r.csv:{line}:2: error: name of P1500 is blank"));
                continue;
            }
            if i % 300 == 0 {
                expected.push(format!(
                    "r.csv:{line}:3: error: birth_date is \"1999-02-30\"; expected a date YYYY-MM-DD"
                ));
            }
            if i % 700 == 0 {
                expected.push(format!(
                    "r.csv:{line}:1: error: id \"P{}\" is already used at r.csv:{} (N{}); ids must be unique",
                    i - 1,
                    line - 1,
                    i - 1
                ));
            }
        }
        assert_eq!(said, expected);
        // every line but the blank name's and the four taken ids
        assert_eq!(roster.len(), 3000 - 1 - 4);
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
    }
}
