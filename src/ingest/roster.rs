//! The roster layout (FORMATS.md): `id,name,birth_date,family,status,group`.

use super::cell::{Cell, Row};
use super::header::{each_line, map_header, Column};
use super::limits::{hint, Limits};
use super::{expand, open, recognise, InputError, Kind};
use crate::problem::Problems;
use crate::roster::{Player, Roster, Status};
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

fn read_sheet(
    source: &crate::place::Source,
    rows: impl Iterator<Item = Result<Row, String>>,
    roster: &mut Roster,
    limits: &Limits,
    problems: &mut Problems,
) {
    each_line(
        source,
        rows,
        &COLUMNS,
        |_| true,
        problems,
        |m, row, problems| {
            // (a cell's place is made when a message needs it: a roster
            // of a million lines)
            let get = |c: usize| m.get(c).map(|i| (row.get(i), i));
            let place = |i: usize| row.place(source, i);
            let text = |c: usize| get(c).map(|(v, _)| v.text_ref()).unwrap_or_default();
            let (id, name) = (text(ID), text(NAME));
            let line = || source.at(row.number, None);
            let place_of = |c: usize| get(c).map_or_else(line, |(_, i)| place(i));
            if id.is_empty() {
                problems.error(place_of(ID), "id is blank; every player needs a unique id");
                return;
            }
            if name.is_empty() {
                problems.error(place_of(NAME), format!("name of {id} is blank"));
                return;
            }
            for (column, value) in [(ID, &id), (NAME, &name)] {
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
                    return;
                }
            }
            let mut player = Player::named(&id, &name);
            player.place = Some(line());
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
            player.family = Some(text(FAMILY).into_owned()).filter(|f| !f.is_empty());
            player.group = Some(text(GROUP).into_owned()).filter(|g| !g.is_empty());
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
            if let Err(existing) = roster.add(player) {
                let first = roster.get(existing);
                let at = first
                    .place
                    .as_ref()
                    .map(|p| p.to_string())
                    .unwrap_or_default();
                problems.error(
                    place_of(ID),
                    format!(
                        "id {id:?} is already used at {at} ({}); ids must be unique",
                        first.name
                    ),
                );
            }
        },
    );
}

/// A birth date as `YYYY-MM-DD`, from a date cell or text (`2014-09-30`,
/// `2014/9/30`).
pub fn birth_date(cell: &Cell) -> Option<String> {
    let text = match cell {
        Cell::Date(serial) => return super::cell::date_from_serial(*serial),
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
            text.to_string()
        } else {
            format!("{y:04}-{m:02}-{d:02}")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
