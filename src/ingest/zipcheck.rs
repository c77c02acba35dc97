//! What a zipped workbook (`.xlsx`, `.ods`) will cost, measured before
//! calamine opens it.
//!
//! Each member is expanded once into nothing, stopping at the size limit,
//! so a member that expands a thousandfold is refused after reading its
//! first allowed bytes. On the way, the shared-string table of an `.xlsx`
//! (calamine reserves room for its declared count up front) and the tables
//! of an `.ods` (calamine builds each as a rectangle from its first filled
//! cell to its last, repeats expanded) are measured too, and the merged
//! ranges of an `.ods` found (calamine does not read them).

use super::cell::Merge;
use super::limits::{hint, Limits};
use super::InputError;
use crate::place::Source;
use quick_xml::events::{BytesStart, Event};
use std::io::{BufReader, Cursor, Read};
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

/// Counts the bytes the XML reader takes since it last gave an event
/// (`taken`, set to 0 by its caller after each), and fails past `cap`:
/// the reader holds one event whole (a text, a tag) before it gives it,
/// so no event is held past the cap (and the reader's buffer).
struct EventCap<R> {
    inner: R,
    taken: std::rc::Rc<std::cell::Cell<u64>>,
    cap: u64,
}

impl<R: Read> Read for EventCap<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let taken = self.taken.get() + n as u64;
        self.taken.set(taken);
        if taken > self.cap {
            return Err(std::io::Error::other("an XML event over the limit"));
        }
        Ok(n)
    }
}

/// The most bytes of XML one shared string's event may take: as many as
/// the longest text a cell may hold could take written with entities
/// (`&amp;` is five bytes for one), and room for its markup.
fn event_cap(limits: &Limits) -> u64 {
    limits
        .field_bytes
        .saturating_mul(8)
        .saturating_add(64 * 1024)
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
    let taken = std::rc::Rc::new(std::cell::Cell::new(0));
    let mut reader = xml(EventCap {
        inner: r,
        taken: taken.clone(),
        cap: event_cap(limits),
    });
    let mut buf = Vec::new();
    let mut count: u64 = 0;
    // the string being read (its text's bytes so far), and whether in its
    // phonetic run (`rPh`, not part of the text a cell shows)
    let mut text: Option<u64> = None;
    let mut phonetic = false;
    loop {
        buf.clear();
        let event = reader.read_event_into(&mut buf);
        if taken.get() > event_cap(limits) {
            return Err(too_long(count.max(1)));
        }
        taken.set(0);
        let more = |text: &mut Option<u64>, n: u64| match text.as_mut() {
            Some(t) => {
                *t = t.saturating_add(n);
                *t > limits.field_bytes
            }
            None => false,
        };
        match event {
            Ok(Event::End(e)) => match e.local_name().as_ref() {
                "si" => text = None,
                "rPh" => phonetic = false,
                _ => {}
            },
            Ok(Event::Text(t)) if !phonetic => {
                if more(&mut text, t.len() as u64) {
                    return Err(too_long(count));
                }
            }
            Ok(Event::CData(t)) if !phonetic => {
                if more(&mut text, t.len() as u64) {
                    return Err(too_long(count));
                }
            }
            // an entity is one character: `&amp;` one byte, `&#x4E2D;`
            // three (one not known, at most four)
            Ok(Event::GeneralRef(r)) if !phonetic => {
                let n = match r.resolve_char_ref() {
                    Ok(Some(c)) => c.len_utf8(),
                    Ok(None) if matches!(&*r, "amp" | "lt" | "gt" | "quot" | "apos") => 1,
                    _ => 4,
                };
                if more(&mut text, n as u64) {
                    return Err(too_long(count));
                }
            }
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) => match e.local_name().as_ref() {
                "sst" => {
                    if let Some(v) = attr(&e, "uniqueCount") {
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
                "si" => {
                    count += 1;
                    if count > limits.shared_strings {
                        return Err(too_many(format!("more than {}", limits.shared_strings)));
                    }
                    text = Some(0);
                }
                "rPh" => phonetic = true,
                _ => {}
            },
            Ok(Event::Eof) | Err(_) => return Ok(()),
            Ok(_) => {}
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
    /// The cell being read: its repeat count and bytes of text.
    cell: Option<(u64, u64)>,
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
    let mut reader = xml(r);
    let mut buf = Vec::new();
    let mut table: Option<Table> = None;
    let mut row: Option<OdsRow> = None;
    loop {
        buf.clear();
        let event = match reader.read_event_into(&mut buf) {
            Ok(e) => e,
            // calamine will say what is wrong with the XML
            Err(_) => return Ok(()),
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
            }
            Event::End(e) if e.name().as_ref() == "table:table-row" => {
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
                        let at = |i: u64| u32::try_from(i).unwrap_or(u32::MAX);
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
                let filled =
                    attr(e, "office:value-type").is_some() || attr(e, "table:formula").is_some();
                if filled && n > 0 {
                    let last = r.col + n - 1;
                    r.span = Some(match r.span {
                        Some((c0, c1)) => (c0.min(r.col), c1.max(last)),
                        None => (r.col, last),
                    });
                    r.stored = last + 1;
                }
                r.col += n;
                let text = ["office:string-value", "table:formula"]
                    .iter()
                    .filter_map(|k| attr(e, k))
                    .map(|v| v.len() as u64)
                    .sum::<u64>();
                if matches!(event, Event::Start(_)) {
                    r.cell = Some((n, text));
                } else {
                    r.text = r.text.saturating_add(text.saturating_mul(n));
                }
            }
            Event::End(e)
                if e.name().as_ref() == "table:table-cell"
                    || e.name().as_ref() == "table:covered-table-cell" =>
            {
                if let Some(r) = row.as_mut() {
                    if let Some((n, text)) = r.cell.take() {
                        r.text = r.text.saturating_add(text.saturating_mul(n));
                    }
                }
            }
            Event::Text(t) => {
                if let Some((_, text)) = row.as_mut().and_then(|r| r.cell.as_mut()) {
                    *text = text.saturating_add(t.len() as u64);
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
            _ => {}
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
}
