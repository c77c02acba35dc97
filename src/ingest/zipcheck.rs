//! What a zipped workbook (`.xlsx`, `.ods`) will cost, measured before
//! calamine opens it.
//!
//! Each member is expanded once into nothing, stopping at the size limit,
//! so a member that expands a thousandfold is refused after reading its
//! first allowed bytes. On the way, the shared-string table of an `.xlsx`
//! (calamine reserves room for its declared count up front) and the tables
//! of an `.ods` (calamine builds each as a rectangle from its first filled
//! cell to its last, repeats expanded) are measured too, each cell's text
//! (in a shared string, an `.xlsx` sheet, an `.ods` table) as it streams,
//! and the merged ranges of an `.ods` found (calamine does not read them).

use super::cell::Merge;
use super::limits::{hint, Limits};
use super::InputError;
use crate::place::Source;
use quick_xml::events::{BytesStart, Event};
use std::cell::Cell;
use std::io::{BufReader, Cursor, Read};
use std::rc::Rc;
use zip::ZipArchive;

/// Whether a zip holds an OpenDocument spreadsheet rather than an `.xlsx`.
pub fn is_ods(bytes: &[u8]) -> bool {
    match ZipArchive::new(Cursor::new(bytes)) {
        Ok(zip) => {
            zip.index_for_name("content.xml").is_some()
                && zip.index_for_name("[Content_Types].xml").is_none()
        }
        Err(_) => false,
    }
}

/// Reads through at most `limit` bytes, then fails.
struct Capped<R> {
    inner: R,
    read: u64,
    limit: u64,
    over: bool,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        if self.read > self.limit {
            self.over = true;
            return Err(std::io::Error::other("over the size limit"));
        }
        Ok(n)
    }
}

/// What of the XML the reader takes counts toward [`event_cap`]: nothing
/// (away from any cell: calamine holds what is there as it is, and no
/// real file writes much), the markup (all but blank space: blank space
/// between cells, however long, is no cell's text; a tag or a text where
/// only cells are is), or every byte (inside a cell's text).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Count {
    Nothing,
    Markup,
    All,
}

/// What the XML reader has taken since it last gave an event.
#[derive(Clone, Copy)]
struct Taken {
    count: Count,
    bytes: u64,
}

/// Counts the bytes the XML reader takes since it last gave an event, as
/// [`Count`] says, and fails past `cap`: the reader holds one event whole
/// (a text, a tag) before it gives it, so no counted event is held past
/// the cap (and the reader's buffer).
struct EventCap<R> {
    inner: R,
    taken: Rc<Cell<Taken>>,
    cap: u64,
}

impl<R: Read> Read for EventCap<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let mut taken = self.taken.get();
        let more = match taken.count {
            Count::Nothing => 0,
            Count::Markup => buf[..n]
                .iter()
                .filter(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
                .count() as u64,
            Count::All => n as u64,
        };
        taken.bytes = taken.bytes.saturating_add(more);
        self.taken.set(taken);
        if taken.bytes > self.cap {
            return Err(std::io::Error::other("an XML event over the limit"));
        }
        Ok(n)
    }
}

/// The most bytes of XML one event in a cell's text may take: as many as
/// the longest text a cell may hold could take written with entities
/// (`&amp;` is five bytes for one), and room for its markup.
fn event_cap(limits: &Limits) -> u64 {
    limits
        .field_bytes
        .saturating_mul(8)
        .saturating_add(64 * 1024)
}

/// Why an XML reader stops before the end.
enum Stop {
    /// An event over [`event_cap`], where its caller counts.
    Over,
    /// The XML is broken, or the member is over its size (calamine, or the
    /// caller, will say).
    Broken,
}

/// An XML reader that holds no event of more than [`event_cap`] bytes
/// where its caller counts them ([`CappedXml::count`]).
struct CappedXml<R> {
    reader: quick_xml::Reader<BufReader<EventCap<R>>>,
    taken: Rc<Cell<Taken>>,
    cap: u64,
}

impl<R: Read> CappedXml<R> {
    fn new(r: R, limits: &Limits, count: Count) -> Self {
        let taken = Rc::new(Cell::new(Taken { count, bytes: 0 }));
        let cap = event_cap(limits);
        CappedXml {
            reader: xml(EventCap {
                inner: r,
                taken: taken.clone(),
                cap,
            }),
            taken,
            cap,
        }
    }

    /// What counts from the next event on.
    fn count(&self, count: Count) {
        self.taken.set(Taken {
            count,
            ..self.taken.get()
        });
    }

    fn next<'b>(&mut self, buf: &'b mut Vec<u8>) -> Result<Event<'b>, Stop> {
        buf.clear();
        self.taken.set(Taken {
            bytes: 0,
            ..self.taken.get()
        });
        let event = self.reader.read_event_into(buf);
        if self.taken.get().bytes > self.cap {
            return Err(Stop::Over);
        }
        event.map_err(|_| Stop::Broken)
    }
}

/// Checks a zipped workbook against the limits; the merged ranges of an
/// `.ods`, by sheet name.
pub fn check(
    bytes: &[u8],
    name: &str,
    limits: &Limits,
) -> Result<Vec<(String, Merge)>, InputError> {
    let mut merged = Vec::new();
    let unreadable = |reason: String| InputError::Unreadable {
        path: name.to_string(),
        reason,
    };
    let mut zip = ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| unreadable(format!("not a workbook: a damaged zip file ({e})")))?;
    for i in 0..zip.len() {
        // A member that cannot be opened is left to calamine to judge: it
        // may not need it.
        let Ok(member) = zip.by_index(i) else {
            continue;
        };
        let member_name = member.name().map(|n| n.to_string()).unwrap_or_default();
        let mut capped = Capped {
            inner: member,
            read: 0,
            limit: limits.zip_member_bytes,
            over: false,
        };
        let lower = member_name.to_ascii_lowercase();
        let measured = if lower.ends_with("sharedstrings.xml") {
            shared_strings(&mut capped, name, limits)
        } else if lower.starts_with("xl/worksheets/") && lower.ends_with(".xml") {
            sheet_texts(&mut capped, name, &member_name, limits)
        } else if lower == "content.xml" {
            ods_tables(&mut capped, name, limits, &mut merged)
        } else {
            Ok(())
        };
        if !capped.over {
            measured?;
            let _ = std::io::copy(&mut capped, &mut std::io::sink());
        }
        if capped.over {
            return Err(InputError::Limit {
                place: Source::file(name).whole(),
                message: format!(
                    "its member {member_name} expands to more bytes than allowed; {}",
                    hint(limits.zip_member_bytes, "TILERANK_MAX_ZIP_MEMBER_BYTES")
                ),
            });
        }
    }
    Ok(merged)
}

fn xml<R: Read>(r: R) -> quick_xml::Reader<BufReader<R>> {
    let mut reader = quick_xml::Reader::from_reader(BufReader::new(r));
    reader.config_mut().check_end_names = false;
    reader
}

fn attr(e: &BytesStart<'_>, key: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == key)
        .map(|a| a.value.to_string())
}

/// The bytes of a cell's text an event holds: a text, or an entity (one
/// character: `&amp;` one byte, `&#x4E2D;` three; one not known, at most
/// four).
fn text_bytes(e: &Event<'_>) -> Option<u64> {
    match e {
        Event::Text(t) => Some(t.len() as u64),
        Event::CData(t) => Some(t.len() as u64),
        Event::GeneralRef(r) => Some(match r.resolve_char_ref() {
            Ok(Some(c)) => c.len_utf8() as u64,
            Ok(None) if matches!(&**r, "amp" | "lt" | "gt" | "quot" | "apos") => 1,
            _ => 4,
        }),
        _ => None,
    }
}

/// The text a cell shows of a string written in runs, as an `.xlsx` writes
/// a shared string (`<si>`) or an inline one (`<is>`): the texts of its
/// `<t>`s, not of its phonetic guide (`<rPh>`), as calamine reads it.
#[derive(Default)]
struct Runs {
    bytes: u64,
    in_t: bool,
    phonetic: bool,
}

impl Runs {
    /// Follows one event inside the string; its bytes so far.
    fn follow(&mut self, e: &Event<'_>) -> u64 {
        match e {
            Event::Start(s) => match s.local_name().as_ref() {
                "t" => self.in_t = true,
                "rPh" => self.phonetic = true,
                _ => {}
            },
            Event::End(s) => match s.local_name().as_ref() {
                "t" => self.in_t = false,
                "rPh" => self.phonetic = false,
                _ => {}
            },
            _ if self.in_t && !self.phonetic => {
                if let Some(n) = text_bytes(e) {
                    self.bytes = self.bytes.saturating_add(n);
                }
            }
            _ => {}
        }
        self.bytes
    }
}

/// The declared count (`uniqueCount`) and the strings themselves: their
/// number, and each one's length, read as they stream (a text over
/// `TILERANK_MAX_FIELD_BYTES` is refused at once, never held whole: a
/// small file may hold a string of hundreds of MB, deflated a
/// thousandfold).
fn shared_strings<R: Read>(r: R, name: &str, limits: &Limits) -> Result<(), InputError> {
    let too_many = |n: String| InputError::Limit {
        place: Source::file(name).whole(),
        message: format!(
            "its shared-string table holds {n} strings; {}",
            hint(limits.shared_strings, "TILERANK_MAX_SHARED_STRINGS")
        ),
    };
    let too_long = |k: u64| InputError::Limit {
        place: Source::file(name).whole(),
        message: format!(
            "its shared string {k} (a text a cell may show) is longer than {} bytes; {}",
            limits.field_bytes,
            hint(limits.field_bytes, "TILERANK_MAX_FIELD_BYTES")
        ),
    };
    // every byte of a string counts; between strings, all but blank space
    let mut xml = CappedXml::new(r, limits, Count::Markup);
    let mut buf = Vec::new();
    let mut count: u64 = 0;
    // the string being read
    let mut string: Option<Runs> = None;
    loop {
        let event = match xml.next(&mut buf) {
            Ok(e) => e,
            Err(Stop::Over) => return Err(too_long(count.max(1))),
            Err(Stop::Broken) => return Ok(()),
        };
        match &event {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "sst" => {
                if let Some(v) = attr(e, "uniqueCount") {
                    let digits = v.trim().trim_start_matches('+');
                    let declared = digits.parse::<u64>().unwrap_or(u64::MAX);
                    if !digits.is_empty()
                        && digits.bytes().all(|b| b.is_ascii_digit())
                        && declared > limits.shared_strings
                    {
                        return Err(too_many(format!("{digits} (as declared)")));
                    }
                }
            }
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "si" => {
                count += 1;
                if count > limits.shared_strings {
                    return Err(too_many(format!("more than {}", limits.shared_strings)));
                }
                if matches!(event, Event::Start(_)) {
                    string = Some(Runs::default());
                    xml.count(Count::All);
                }
            }
            Event::End(e) if e.local_name().as_ref() == "si" => {
                string = None;
                xml.count(Count::Markup);
            }
            Event::Eof => return Ok(()),
            e => {
                if string
                    .as_mut()
                    .is_some_and(|s| s.follow(e) > limits.field_bytes)
                {
                    return Err(too_long(count));
                }
            }
        }
    }
}

/// The text being read in an `.xlsx` cell.
enum CellText {
    /// Its value (`<v>`): a number, or a formula's text result.
    Value(u64),
    /// Its inline string (`<is>`).
    Inline(Runs),
}

/// The texts an `.xlsx` sheet writes in its cells itself (an inline
/// string, a formula's text result), each measured as it streams: one
/// longer than `TILERANK_MAX_FIELD_BYTES` is refused at its cell, never
/// held whole (calamine holds a cell's text whole before it is measured;
/// a small file may hold one of hundreds of MB). No event of a cell's text
/// is held longer than [`event_cap`] bytes, nor a tag or a text between
/// cells (blank space aside, which calamine holds as it is).
fn sheet_texts<R: Read>(r: R, name: &str, member: &str, limits: &Limits) -> Result<(), InputError> {
    let mut xml = CappedXml::new(r, limits, Count::Nothing);
    let mut buf = Vec::new();
    // the last cell begun (its reference, `B7`), whether it is still being
    // read, and the text being read in it
    let mut cell = String::new();
    let mut in_cell = false;
    let mut text: Option<CellText> = None;
    loop {
        let event = match xml.next(&mut buf) {
            Ok(e) => e,
            Err(Stop::Over) => {
                let (at, what) = match (in_cell, cell.is_empty()) {
                    (true, _) => (
                        format!("cell {cell}"),
                        format!("a text longer than {} bytes", limits.field_bytes),
                    ),
                    (false, empty) => (
                        if empty {
                            "before its first cell".to_string()
                        } else {
                            format!("after cell {cell}")
                        },
                        format!(
                            "a tag or a text of more than {} bytes where only cells are",
                            event_cap(limits)
                        ),
                    ),
                };
                return Err(InputError::Limit {
                    place: Source::file(name).whole(),
                    message: format!(
                        "its sheet {member}, {at}, holds {what}; {}",
                        hint(limits.field_bytes, "TILERANK_MAX_FIELD_BYTES")
                    ),
                });
            }
            // calamine will say what is wrong with the XML
            Err(Stop::Broken) => return Ok(()),
        };
        match &event {
            Event::Start(e) | Event::Empty(e) if text.is_none() => {
                let start = matches!(event, Event::Start(_));
                match e.local_name().as_ref() {
                    "sheetData" if start => xml.count(Count::Markup),
                    "c" => {
                        // a cell may leave its place unsaid
                        cell = attr(e, "r").unwrap_or_else(|| "?".to_string());
                        in_cell = start;
                    }
                    "v" if start => {
                        text = Some(CellText::Value(0));
                        xml.count(Count::All);
                    }
                    "is" if start => {
                        text = Some(CellText::Inline(Runs::default()));
                        xml.count(Count::All);
                    }
                    _ => {}
                }
            }
            Event::End(e) if matches!(e.local_name().as_ref(), "v" | "is" | "c") => {
                if e.local_name().as_ref() == "c" {
                    in_cell = false;
                }
                text = None;
                xml.count(Count::Markup);
            }
            Event::End(e) if e.local_name().as_ref() == "sheetData" => xml.count(Count::Nothing),
            Event::Eof => return Ok(()),
            _ => {}
        }
        let bytes = match text.as_mut() {
            Some(CellText::Value(n)) => {
                *n = n.saturating_add(text_bytes(&event).unwrap_or(0));
                *n
            }
            Some(CellText::Inline(runs)) => runs.follow(&event),
            None => 0,
        };
        if bytes > limits.field_bytes {
            return Err(InputError::Limit {
                place: Source::file(name).whole(),
                message: format!(
                    "its sheet {member}, cell {cell}, holds a text longer than {} bytes; {}",
                    limits.field_bytes,
                    hint(limits.field_bytes, "TILERANK_MAX_FIELD_BYTES")
                ),
            });
        }
    }
}

/// One `.ods` table as calamine will hold it.
#[derive(Default)]
struct Table {
    name: String,
    rows: u64,
    first_row: Option<u64>,
    last_row: u64,
    min_col: u64,
    max_col: u64,
    /// Cells calamine keeps before it builds the rectangle: each row element
    /// up to its last filled cell.
    stored: u64,
    /// Bytes of text, each repeat of a cell or row counted.
    text: u64,
}

/// The row being read.
#[derive(Default)]
struct OdsRow {
    repeats: u64,
    /// The next column.
    col: u64,
    /// First and last filled columns.
    span: Option<(u64, u64)>,
    /// Cells calamine keeps for it.
    stored: u64,
    /// Bytes of text in one copy of the row.
    text: u64,
    /// The cell being read.
    cell: Option<OdsCell>,
}

/// The `.ods` cell being read.
struct OdsCell {
    /// Its column, and how many times it is repeated.
    col: u64,
    repeats: u64,
    /// Bytes of text in it, its note counted.
    text: u64,
    /// Bytes of the text calamine makes of it: its paragraphs (a line
    /// break between two), their spaces written as a count
    /// (`<text:s text:c="9"/>` is nine), tabs and line breaks; not its note
    /// (`office:annotation`).
    shown: u64,
    paragraphs: u64,
    in_note: bool,
}

impl OdsCell {
    /// Follows one event inside the cell.
    fn follow(&mut self, e: &Event<'_>) {
        let mut add = |n: u64, shown: bool| {
            self.text = self.text.saturating_add(n);
            if shown {
                self.shown = self.shown.saturating_add(n);
            }
        };
        match e {
            Event::Start(s) | Event::Empty(s) => match s.name().as_ref() {
                "office:annotation" => self.in_note = matches!(e, Event::Start(_)),
                "text:s" => {
                    let n = attr(s, "text:c").and_then(|v| v.trim().parse::<u64>().ok());
                    add(n.unwrap_or(1), !self.in_note);
                }
                "text:p" if !self.in_note => {
                    self.paragraphs += 1;
                    if self.paragraphs > 1 {
                        add(1, true);
                    }
                }
                "text:tab" | "text:line-break" => add(1, !self.in_note),
                _ => {}
            },
            Event::End(s) if s.name().as_ref() == "office:annotation" => self.in_note = false,
            e => {
                if let Some(n) = text_bytes(e) {
                    add(n, !self.in_note);
                }
            }
        }
    }
}

/// calamine's caps on repeated rows and columns.
const ODS_ROWS: u64 = 1_048_576;
const ODS_COLUMNS: u64 = 16_384;

fn repeats(e: &BytesStart<'_>, key: &str) -> Option<u64> {
    match attr(e, key) {
        Some(v) => v.trim().parse::<u64>().ok(),
        None => Some(1),
    }
}

/// The tables of an `.ods` (its `content.xml`), measured as calamine will
/// hold them; a cell's text longer than `TILERANK_MAX_FIELD_BYTES` is
/// refused at its cell as it streams, never held whole (calamine holds a
/// cell's text whole before it is measured). No event inside a row is held
/// longer than [`event_cap`] bytes (blank space between cells aside, which
/// calamine holds as it is).
fn ods_tables<R: Read>(
    r: R,
    name: &str,
    limits: &Limits,
    merged: &mut Vec<(String, Merge)>,
) -> Result<(), InputError> {
    let too_big = |t: &Table, what: String, hint: String| InputError::Limit {
        place: Source::sheet(name, &t.name).whole(),
        message: format!("{what}; {hint}"),
    };
    let cells_hint = || hint(limits.cells, "TILERANK_MAX_CELLS");
    let text_hint = || hint(limits.sheet_text_bytes, "TILERANK_MAX_SHEET_TEXT_BYTES");
    let at = |i: u64| u32::try_from(i).unwrap_or(u32::MAX);
    // a cell's text over the limit: the cell at `col` of the row being read
    let too_long = |t: &Table, col: u64| InputError::Limit {
        place: Source::sheet(name, &t.name).at(at(t.rows + 1), Some(at(col + 1))),
        message: format!(
            "a text longer than {} bytes; {}",
            limits.field_bytes,
            hint(limits.field_bytes, "TILERANK_MAX_FIELD_BYTES")
        ),
    };
    // a row's markup counts (a cell's tag holds its text, `office:string-value`),
    // and every byte of a cell
    let mut xml = CappedXml::new(r, limits, Count::Nothing);
    let mut buf = Vec::new();
    let mut table: Option<Table> = None;
    let mut row: Option<OdsRow> = None;
    loop {
        let event = match xml.next(&mut buf) {
            Ok(e) => e,
            // in a row: the cell being read, or the one whose tag is
            Err(Stop::Over) => {
                return match (table.as_ref(), row.as_ref()) {
                    (Some(t), Some(r)) => {
                        Err(too_long(t, r.cell.as_ref().map_or(r.col, |c| c.col)))
                    }
                    // calamine will say what is wrong with the XML
                    _ => Ok(()),
                };
            }
            Err(Stop::Broken) => return Ok(()),
        };
        match event {
            Event::Start(e) if e.name().as_ref() == "table:table" => {
                table = Some(Table {
                    name: attr(&e, "table:name").unwrap_or_default(),
                    min_col: u64::MAX,
                    ..Table::default()
                });
            }
            Event::End(e) if e.name().as_ref() == "table:table" => {
                if let Some(t) = table.take() {
                    if let Some(first) = t.first_row {
                        let area = (t.last_row + 1 - first)
                            .saturating_mul(t.max_col.saturating_sub(t.min_col) + 1);
                        if area > limits.cells {
                            let what = format!("the sheet's used range holds {area} cells");
                            return Err(too_big(&t, what, cells_hint()));
                        }
                    }
                }
            }
            Event::Start(e) if e.name().as_ref() == "table:table-row" => {
                let Some(t) = table.as_ref() else { continue };
                let Some(n) = repeats(&e, "table:number-rows-repeated") else {
                    return Ok(());
                };
                row = Some(OdsRow {
                    repeats: n.min(ODS_ROWS.saturating_sub(t.rows)),
                    ..OdsRow::default()
                });
                xml.count(Count::Markup);
            }
            Event::End(e) if e.name().as_ref() == "table:table-row" => {
                xml.count(Count::Nothing);
                let (Some(t), Some(r)) = (table.as_mut(), row.take()) else {
                    continue;
                };
                if let Some((c0, c1)) = r.span {
                    t.first_row.get_or_insert(t.rows);
                    t.last_row = t.rows + r.repeats.max(1) - 1;
                    t.min_col = t.min_col.min(c0);
                    t.max_col = t.max_col.max(c1);
                }
                t.stored = t.stored.saturating_add(r.stored);
                t.text = t
                    .text
                    .saturating_add(r.text.saturating_mul(r.repeats.max(1)));
                t.rows += r.repeats;
                if t.stored > limits.cells {
                    let what = format!(
                        "the sheet's used range holds more than {} cells",
                        limits.cells
                    );
                    return Err(too_big(t, what, cells_hint()));
                }
                if t.text > limits.sheet_text_bytes {
                    let what = format!(
                        "the sheet holds more than {} bytes of text (repeated cells counted each time)",
                        limits.sheet_text_bytes
                    );
                    return Err(too_big(t, what, text_hint()));
                }
            }
            Event::Start(ref e) | Event::Empty(ref e)
                if e.name().as_ref() == "table:table-cell"
                    || e.name().as_ref() == "table:covered-table-cell" =>
            {
                let Some(r) = row.as_mut() else { continue };
                let Some(n) = repeats(e, "table:number-columns-repeated") else {
                    return Ok(());
                };
                let n = n.min(ODS_COLUMNS.saturating_sub(r.col));
                // a merged range: its first cell says how far it spans
                let span = |key: &str| repeats(e, key).unwrap_or(1).max(1);
                let (down, across) = (
                    span("table:number-rows-spanned"),
                    span("table:number-columns-spanned"),
                );
                if (down > 1 || across > 1) && (merged.len() as u64) < limits.cells {
                    if let Some(t) = table.as_ref() {
                        let (row, col) = (t.rows.saturating_add(1), r.col.saturating_add(1));
                        merged.push((
                            t.name.clone(),
                            Merge {
                                first: (at(row), at(col)),
                                last: (
                                    at(row.saturating_add(down - 1)),
                                    at(col.saturating_add(across - 1)),
                                ),
                            },
                        ));
                    }
                }
                // the text of its tag, which calamine holds as written (a
                // string's text, without entities, is what the cell shows)
                let string = attr(e, "office:string-value");
                let formula = attr(e, "table:formula");
                let text = [&string, &formula]
                    .iter()
                    .filter_map(|v| v.as_ref())
                    .map(|v| v.len() as u64)
                    .sum::<u64>();
                if let (Some(v), Some(t)) = (&string, table.as_ref()) {
                    let shown = || quick_xml::escape::unescape(v).map_or(v.len(), |s| s.len());
                    if v.len() as u64 > limits.field_bytes && shown() as u64 > limits.field_bytes {
                        return Err(too_long(t, r.col));
                    }
                }
                let filled = attr(e, "office:value-type").is_some() || formula.is_some();
                if filled && n > 0 {
                    let last = r.col + n - 1;
                    r.span = Some(match r.span {
                        Some((c0, c1)) => (c0.min(r.col), c1.max(last)),
                        None => (r.col, last),
                    });
                    r.stored = last + 1;
                }
                if matches!(event, Event::Start(_)) {
                    r.cell = Some(OdsCell {
                        col: r.col,
                        repeats: n,
                        text,
                        shown: 0,
                        paragraphs: 0,
                        in_note: false,
                    });
                    xml.count(Count::All);
                } else {
                    r.text = r.text.saturating_add(text.saturating_mul(n));
                }
                r.col += n;
            }
            Event::End(e)
                if e.name().as_ref() == "table:table-cell"
                    || e.name().as_ref() == "table:covered-table-cell" =>
            {
                if let Some(r) = row.as_mut() {
                    if let Some(c) = r.cell.take() {
                        r.text = r.text.saturating_add(c.text.saturating_mul(c.repeats));
                    }
                    xml.count(Count::Markup);
                }
            }
            Event::Eof => {
                return match table {
                    Some(t) => Err(InputError::Sheet {
                        place: Source::sheet(name, &t.name).whole(),
                        reason: "the sheet ends before its table does: the file is cut short"
                            .to_string(),
                    }),
                    None => Ok(()),
                };
            }
            e => {
                if let (Some(t), Some(r)) = (table.as_ref(), row.as_mut()) {
                    if let Some(c) = r.cell.as_mut() {
                        c.follow(&e);
                        if c.shown > limits.field_bytes {
                            return Err(too_long(t, c.col));
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ods_content(body: &str) -> String {
        format!("<office:document-content><office:body><office:spreadsheet><table:table table:name=\"S\">{body}</table:table></office:spreadsheet></office:body></office:document-content>")
    }

    #[test]
    fn ods_used_range_counts_repeats_between_filled_cells() {
        let limits = Limits {
            cells: 100,
            ..Limits::default()
        };
        let small = ods_content("<table:table-row><table:table-cell office:value-type=\"float\"/></table:table-row><table:table-row table:number-rows-repeated=\"1000000\"><table:table-cell table:number-columns-repeated=\"1024\"/></table:table-row>");
        assert!(ods_tables(small.as_bytes(), "x.ods", &limits, &mut Vec::new()).is_ok());
        let far = ods_content("<table:table-row><table:table-cell office:value-type=\"float\"/></table:table-row><table:table-row table:number-rows-repeated=\"20\"><table:table-cell/></table:table-row><table:table-row><table:table-cell table:number-columns-repeated=\"9\"/><table:table-cell office:value-type=\"float\"/></table:table-row>");
        let e = ods_tables(far.as_bytes(), "x.ods", &limits, &mut Vec::new()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "x.ods[S]: the sheet's used range holds 220 cells; the limit is 100 (set TILERANK_MAX_CELLS to change it)"
        );
    }

    #[test]
    fn ods_merged_ranges_are_found_at_their_first_cell() {
        // row 1: A1 spans two rows (A1:A2); row 2: B2 spans three columns
        // and two rows (B2:D3) after a covered A2; a far span is capped
        let content = ods_content("<table:table-row><table:table-cell table:number-rows-spanned=\"2\" office:value-type=\"float\"/></table:table-row><table:table-row><table:covered-table-cell/><table:table-cell table:number-columns-spanned=\"3\" table:number-rows-spanned=\"2\"/><table:table-cell table:number-rows-spanned=\"18446744073709551615\"/></table:table-row>");
        let mut merged = Vec::new();
        ods_tables(content.as_bytes(), "t.ods", &Limits::default(), &mut merged).unwrap();
        let ranges: Vec<(String, String)> = merged
            .iter()
            .map(|(sheet, m)| (sheet.clone(), m.name()))
            .collect();
        assert_eq!(
            ranges,
            [
                ("S".to_string(), "A1:A2".to_string()),
                ("S".to_string(), "B2:D3".to_string()),
                ("S".to_string(), format!("C2:C{}", u32::MAX)),
            ]
        );
    }

    #[test]
    fn ods_text_counts_every_repeat() {
        let limits = Limits {
            sheet_text_bytes: 1000,
            ..Limits::default()
        };
        let cell = format!(
            "<table:table-cell office:value-type=\"string\" table:number-columns-repeated=\"10\"><text:p>{}</text:p></table:table-cell>",
            "x".repeat(20)
        );
        let fits = ods_content(&format!(
            "<table:table-row table:number-rows-repeated=\"5\">{cell}</table:table-row>"
        ));
        assert!(ods_tables(fits.as_bytes(), "x.ods", &limits, &mut Vec::new()).is_ok());
        let over = ods_content(&format!(
            "<table:table-row table:number-rows-repeated=\"6\">{cell}</table:table-row>"
        ));
        let e = ods_tables(over.as_bytes(), "x.ods", &limits, &mut Vec::new()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("x.ods[S]: the sheet holds more than 1000 bytes of text"),
            "{e}"
        );
    }

    #[test]
    fn a_table_cut_short_is_named() {
        let cut = "<office:document-content><table:table table:name=\"S1\"><table:table-row><table:table-cell/></table:table-row>";
        let e =
            ods_tables(cut.as_bytes(), "x.ods", &Limits::default(), &mut Vec::new()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("x.ods[S1]: cannot be read: the sheet ends before its table does"),
            "{e}"
        );
    }

    #[test]
    fn shared_strings_declared_or_counted() {
        let limits = Limits {
            shared_strings: 2,
            ..Limits::default()
        };
        let declared =
            "<sst xmlns=\"x\" count=\"1\" uniqueCount=\"4294967295\"><si><t>a</t></si></sst>";
        let e = shared_strings(declared.as_bytes(), "b.xlsx", &limits).unwrap_err();
        assert!(
            e.to_string()
                .contains("holds 4294967295 (as declared) strings"),
            "{e}"
        );
        let three = "<sst><si><t>a</t></si><si/><x:si/></sst>";
        let e = shared_strings(three.as_bytes(), "b.xlsx", &limits).unwrap_err();
        assert!(e.to_string().contains("holds more than 2 strings"), "{e}");
        let two = "<sst uniqueCount=\"2\"><si><t>a</t></si><si/></sst>";
        assert!(shared_strings(two.as_bytes(), "b.xlsx", &limits).is_ok());
    }

    /// A shared string's text is counted as it streams: its runs and
    /// entities, not its phonetic guide; one past the limit is refused at
    /// its number, and a text too long to hold is never held.
    #[test]
    fn a_shared_string_longer_than_a_cell_is_refused() {
        let limits = Limits {
            field_bytes: 10,
            ..Limits::default()
        };
        let read = |xml: &str| shared_strings(xml.as_bytes(), "b.xlsx", &limits);
        let fits = "<sst><si><t>0123456789</t></si><si><r><t>01234</t></r><r><t>5678&amp;</t></r><rPh><t>phonetic guide</t></rPh></si></sst>";
        assert!(read(fits).is_ok());
        let e = read(
            "<sst><si><t>a</t></si><si><r><t>012345</t></r><r><t>6789&amp;</t></r></si></sst>",
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "b.xlsx: its shared string 2 (a text a cell may show) is longer than 10 bytes; the limit is 10 (set TILERANK_MAX_FIELD_BYTES to change it)"
        );
        // a text far past what the XML reader may hold of one event
        let huge = format!("<sst><si><t>{}</t></si></sst>", "x".repeat(1 << 20));
        let e = read(&huge).unwrap_err();
        assert!(e.to_string().contains("its shared string 1 "), "{e}");
    }

    /// `head`, `len` bytes of `fill`, then `tail`, made as it is read (no
    /// text of hundreds of MB is held by the test), and how many bytes of
    /// it were read.
    fn stream(head: &str, fill: u8, len: u64, tail: &str) -> (impl Read, Rc<Cell<u64>>) {
        struct Counted<R>(R, Rc<Cell<u64>>);
        impl<R: Read> Read for Counted<R> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = self.0.read(buf)?;
                self.1.set(self.1.get() + n as u64);
                Ok(n)
            }
        }
        let read = Rc::new(Cell::new(0));
        let r = Cursor::new(head.to_string())
            .chain(std::io::repeat(fill).take(len))
            .chain(Cursor::new(tail.to_string()));
        (Counted(r, read.clone()), read)
    }

    const HUGE: u64 = 200 << 20;

    fn sheet(cells: &str) -> (String, String) {
        (
            format!("<worksheet><dimension ref=\"A1\"/><sheetData><row r=\"1\">{cells}"),
            "</row></sheetData></worksheet>".to_string(),
        )
    }

    /// A text in an `.xlsx` sheet's cell is counted as it streams, in its
    /// `<v>` or its inline string's `<t>`s (not a phonetic guide): one of
    /// 200 MB is refused at its cell after reading a few hundred kB.
    #[test]
    fn an_xlsx_cell_text_over_the_limit_is_refused_as_it_streams() {
        let limits = Limits::default();
        let refused = |head: &str, tail: &str| {
            let (sheet_head, sheet_tail) = sheet(&format!("<c r=\"B1\"/>{head}"));
            let (r, read) = stream(&sheet_head, b'x', HUGE, &format!("{tail}{sheet_tail}"));
            let e = sheet_texts(r, "big.xlsx", "xl/worksheets/sheet1.xml", &limits).unwrap_err();
            assert!(read.get() < 1 << 20, "read {} bytes", read.get());
            e.to_string()
        };
        let message = "big.xlsx: its sheet xl/worksheets/sheet1.xml, cell C1, holds a text longer than 32768 bytes; the limit is 32768 (set TILERANK_MAX_FIELD_BYTES to change it)";
        for (head, tail) in [
            ("<c r=\"C1\" t=\"inlineStr\"><is><t>", "</t></is></c>"),
            (
                "<c r=\"C1\" t=\"inlineStr\"><is><r><t>a</t></r><r><t>",
                "</t></r></is></c>",
            ),
            ("<c r=\"C1\" t=\"str\"><f>\"a\"</f><v>", "</v></c>"),
            // written with entities, it is held longer than it is
            ("<c r=\"C1\" t=\"str\"><v>", "</v></c>"),
        ] {
            assert_eq!(refused(head, tail), message, "{head}");
        }
        let at = |cells: &str, limit: u64| {
            let (head, tail) = sheet(cells);
            let limits = Limits {
                field_bytes: limit,
                ..Limits::default()
            };
            sheet_texts(
                format!("{head}{tail}").as_bytes(),
                "b.xlsx",
                "s.xml",
                &limits,
            )
        };
        // entities are one character each; a phonetic guide is not shown
        let cell = "<c r=\"D1\" t=\"inlineStr\"><is><r><t>01234</t></r><r><t>5678&amp;</t></r><rPh><t>phonetic guide</t></rPh></is></c>";
        assert!(at(cell, 10).is_ok());
        assert_eq!(
            at(cell, 9).unwrap_err().to_string(),
            "b.xlsx: its sheet s.xml, cell D1, holds a text longer than 9 bytes; the limit is 9 (set TILERANK_MAX_FIELD_BYTES to change it)"
        );
        assert!(at("<c r=\"E1\" t=\"str\"><v>&#x4E2D;&#x6587;</v></c>", 6).is_ok());
        assert!(at("<c r=\"E1\" t=\"str\"><v>&#x4E2D;&#x6587;</v></c>", 5).is_err());
    }

    /// Blank space between a sheet's cells, anywhere, however long, is no
    /// cell's text: `expands.xlsx` (tests/fixtures/hostile) holds 2 MB of
    /// it, and a sheet may be written with a line per cell.
    #[test]
    fn blank_space_between_xlsx_cells_is_no_text() {
        let limits = Limits {
            field_bytes: 10,
            ..Limits::default()
        };
        let blank = 2 << 20;
        for (head, tail) in [
            ("<worksheet><dimension ref=\"A1:B1\"/>", "<sheetData><row r=\"1\"><c r=\"A1\"><v>1</v></c></row></sheetData></worksheet>"),
            ("<worksheet><sheetData><row r=\"1\"><c r=\"A1\"><v>1</v></c>", "<c r=\"B1\" t=\"inlineStr\"><is><t>0123456789</t></is></c></row></sheetData></worksheet>"),
            ("<worksheet><sheetData><row r=\"1\"><c r=\"A1\" t=\"str\"><f>\"a\"</f>", "<v>a</v></c></row>\n<row r=\"2\"></row></sheetData></worksheet>"),
            ("<worksheet><sheetData><row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>a</t><rPh><t>", "</t></rPh></is></c></row></sheetData></worksheet>"),
        ] {
            for fill in [b' ', b'\n', b'\t', b'\r'] {
                let (r, read) = stream(head, fill, blank, tail);
                let checked = sheet_texts(r, "b.xlsx", "s.xml", &limits);
                if head.ends_with("<rPh><t>") {
                    // a phonetic guide is held by the reader (not by the
                    // cell): as long a text as any counted one is refused
                    assert!(checked.is_err(), "{head}");
                } else {
                    assert!(checked.is_ok(), "{head}: {:?}", checked.err());
                    assert_eq!(read.get(), head.len() as u64 + blank + tail.len() as u64);
                }
            }
        }
    }

    /// Between cells, where only tags and blank space are, a tag or a text
    /// longer than a cell's text could take is refused, at the cell it
    /// follows: nothing there is held past that either.
    #[test]
    fn a_long_tag_between_xlsx_cells_is_refused() {
        let limits = Limits::default();
        let (head, tail) = sheet("<c r=\"A1\"><v>1</v></c><c r=\"B1\" s=\"");
        let (r, read) = stream(&head, b'1', HUGE, &format!("\"/>{tail}"));
        let e = sheet_texts(r, "b.xlsx", "s.xml", &limits).unwrap_err();
        assert!(read.get() < 1 << 20, "read {} bytes", read.get());
        assert_eq!(
            e.to_string(),
            "b.xlsx: its sheet s.xml, after cell A1, holds a tag or a text of more than 327680 bytes where only cells are; the limit is 32768 (set TILERANK_MAX_FIELD_BYTES to change it)"
        );
        // away from the cells, the sheet is calamine's to read
        let (r, _) = stream(
            "<worksheet><extLst>",
            b'x',
            2 << 20,
            "</extLst></worksheet>",
        );
        assert!(sheet_texts(r, "b.xlsx", "s.xml", &limits).is_ok());
    }

    /// Blank space between shared strings is no string's text.
    #[test]
    fn blank_space_between_shared_strings_is_no_text() {
        let (r, _) = stream(
            "<sst><si><t>a</t></si>",
            b' ',
            2 << 20,
            "<si><t>b</t></si></sst>",
        );
        assert!(shared_strings(r, "b.xlsx", &Limits::default()).is_ok());
    }

    /// An `.ods` cell's text is counted as it streams: its paragraphs,
    /// their spaces written as a count, its `office:string-value`, not its
    /// note. One of 200 MB is refused at its cell after reading a few
    /// hundred kB; blank space between cells is no text.
    #[test]
    fn an_ods_cell_text_over_the_limit_is_refused_as_it_streams() {
        let limits = Limits::default();
        let message = "x.ods[S]!C2: a text longer than 32768 bytes; the limit is 32768 (set TILERANK_MAX_FIELD_BYTES to change it)";
        let row1 = "<table:table-row><table:table-cell/></table:table-row>";
        let huge = |cell_head: &str, fill: u8, cell_tail: &str| {
            let content = ods_content(&format!("{row1}<table:table-row><table:table-cell table:number-columns-repeated=\"2\"/>{cell_head}@{cell_tail}</table:table-row>"));
            let (head, tail) = content.split_once('@').unwrap();
            let (r, read) = stream(head, fill, HUGE, tail);
            let checked = ods_tables(r, "x.ods", &limits, &mut Vec::new());
            (checked.map_err(|e| e.to_string()), read.get())
        };
        for (head, fill, tail) in [
            (
                "<table:table-cell office:value-type=\"string\"><text:p>",
                b'x',
                "</text:p></table:table-cell>",
            ),
            (
                "<table:table-cell office:value-type=\"string\"><text:p>",
                b' ',
                "</text:p></table:table-cell>",
            ),
            (
                "<table:table-cell office:value-type=\"string\"><text:p>a</text:p>",
                b'\n',
                "<text:p>b</text:p></table:table-cell>",
            ),
            (
                "<table:table-cell office:value-type=\"string\" office:string-value=\"",
                b'x',
                "\"/>",
            ),
        ] {
            let (checked, read) = huge(head, fill, tail);
            assert_eq!(checked, Err(message.to_string()), "{head}");
            assert!(read < 1 << 20, "read {read} bytes");
        }
        // blank space between cells and rows, however long, is no text
        let (checked, read) = huge(
            "",
            b' ',
            "<table:table-cell office:value-type=\"string\"><text:p>a</text:p></table:table-cell>",
        );
        assert_eq!(checked, Ok(()));
        assert!(read > HUGE);
        let at = |cell: &str, limit: u64| {
            let limits = Limits {
                field_bytes: limit,
                ..Limits::default()
            };
            let content = ods_content(&format!("{row1}<table:table-row><table:table-cell/><table:table-cell/>{cell}</table:table-row>"));
            ods_tables(content.as_bytes(), "x.ods", &limits, &mut Vec::new())
                .map_err(|e| e.to_string())
        };
        // a paragraph of a thousand million spaces written as their count
        let spaces = "<table:table-cell office:value-type=\"string\"><text:p>a<text:s text:c=\"1000000000\"/>b</text:p></table:table-cell>";
        assert_eq!(at(spaces, 32768), Err(message.to_string()));
        // two paragraphs, a line break between, entities one byte each;
        // a note is not the cell's text
        let cell = "<table:table-cell office:value-type=\"string\"><office:annotation><text:p>a note far longer than the cell</text:p></office:annotation><text:p>a&amp;b</text:p><text:p>c<text:s/><text:tab/>d</text:p></table:table-cell>";
        assert_eq!(at(cell, 8), Ok(()));
        assert!(at(cell, 7).is_err());
        let attribute = "<table:table-cell office:value-type=\"string\" office:string-value=\"a&amp;b&amp;c\"/>";
        assert_eq!(at(attribute, 5), Ok(()));
        assert_eq!(
            at(attribute, 4),
            Err("x.ods[S]!C2: a text longer than 4 bytes; the limit is 4 (set TILERANK_MAX_FIELD_BYTES to change it)".to_string())
        );
    }
}
