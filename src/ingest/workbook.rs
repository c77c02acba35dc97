//! Workbooks (`.xlsx`, `.xlsm`, `.xls`, `.ods`) through calamine: each sheet
//! becomes rows of its filled cells with their real sheet coordinates.
//!
//! A workbook may come from anywhere, so it is read defensively:
//! - before calamine opens a zip (`.xlsx`, `.ods`), every member is expanded
//!   once into nothing, to check its size, the shared-string count of an
//!   `.xlsx` and the used range of each `.ods` table (`super::zipcheck`);
//! - an `.xlsx` sheet is read cell by cell (calamine's cell reader), never as
//!   a rectangle, so one far cell costs one cell;
//! - the whole read runs contained ([`super::contained`]): a panic or an
//!   overrun of the time budget is an error naming the file;
//! - a cell calamine cannot read is an error at that cell, and the rest of
//!   the sheet is still read.

use super::cell::{Cell, Row};
use super::contained::{self, Failure};
use super::limits::{hint, Limits};
use super::{zipcheck, InputError};
use crate::place::{column_name, Place, Source};
use calamine::{
    Data, DataRef, Dimensions, Ods, Range, Reader, Xls, Xlsx, XlsxError, XlsxFormulaMetadata,
};
use std::collections::HashMap;
use std::io::Cursor;

/// One sheet as read: its rows, and the cells that could not be read.
#[derive(Debug, Default)]
pub struct SheetData {
    pub name: String,
    /// The sheet is hidden in the workbook: it is not read (`rows` is
    /// empty), and the reader says so.
    pub hidden: bool,
    pub rows: Vec<Row>,
    /// 1-based row and column, and what went wrong.
    pub bad_cells: Vec<(u32, u32, String)>,
    /// The merged ranges.
    pub merged: Vec<Merge>,
}

pub use super::cell::Merge;

/// A merged range as calamine measures it (0-based), as a [`Merge`].
fn merge_of(d: &Dimensions) -> Merge {
    let one = |(r, c): (u32, u32)| (r.saturating_add(1), c.saturating_add(1));
    Merge {
        first: one(d.start),
        last: one(d.end),
    }
}

/// The merged ranges of a sheet, at most as many as the sheet may hold
/// cells.
fn merges(found: Vec<Dimensions>, limits: &Limits) -> Vec<Merge> {
    found
        .iter()
        .take(usize::try_from(limits.cells).unwrap_or(usize::MAX))
        .map(merge_of)
        .collect()
}

/// The kinds of workbook, told from the first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Xlsx,
    Ods,
    Xls,
}

pub fn format_of(bytes: &[u8]) -> Option<Format> {
    if bytes.starts_with(b"PK\x03\x04") {
        Some(if zipcheck::is_ods(bytes) {
            Format::Ods
        } else {
            Format::Xlsx
        })
    } else if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0]) {
        Some(Format::Xls)
    } else {
        None
    }
}

/// Seconds added to the read budget for each whole MB of a workbook.
pub const SECONDS_PER_MB: u64 = 5;

/// Reads a workbook's bytes, contained (own thread, deadline, no panic).
pub fn read(bytes: Vec<u8>, name: &str, limits: &Limits) -> Result<Vec<SheetData>, InputError> {
    let owned = name.to_string();
    let l = *limits;
    // a large workbook takes longer: the budget grows with its size
    let seconds = limits
        .read_seconds
        .saturating_add(bytes.len() as u64 / (1024 * 1024) * SECONDS_PER_MB);
    match contained::run(seconds, move || read_now(bytes, &owned, &l)) {
        Ok(result) => result,
        Err(Failure::Panicked(why)) => Err(InputError::Unreadable {
            path: name.to_string(),
            reason: format!("the workbook reader failed on this file ({why}); the file is damaged or not a workbook"),
        }),
        Err(Failure::TimedOut(s)) => Err(InputError::Limit {
            place: Source::file(name).whole(),
            message: format!(
                "reading took more than {s} seconds and was stopped; the file is damaged, or {} (plus {SECONDS_PER_MB} a MB of the file)",
                hint(l.read_seconds, "TILERANK_READ_SECONDS")
            ),
        }),
    }
}

/// Reads a workbook's bytes on the calling thread.
pub fn read_now(bytes: Vec<u8>, name: &str, limits: &Limits) -> Result<Vec<SheetData>, InputError> {
    let unreadable = |reason: String| InputError::Unreadable {
        path: name.to_string(),
        reason,
    };
    // (what the reader found is kept for whoever looks into the file; the
    // director is told what to do)
    let not_a_workbook = |e: &dyn std::fmt::Display| {
        unreadable(format!(
            "not a workbook that can be read ({e}): open it in Excel or LibreOffice and save it again as .xlsx"
        ))
    };
    match format_of(&bytes) {
        None => Err(unreadable(
            "not a workbook: an .xlsx/.ods is a zip file, an .xls a compound document".into(),
        )),
        Some(Format::Xlsx) => {
            zipcheck::check(&bytes, name, limits)?;
            let mut book = Xlsx::new(Cursor::new(bytes)).map_err(|e| not_a_workbook(&e))?;
            let mut sheets = Vec::new();
            for (sheet_name, hidden) in sheet_list(&book) {
                sheets.push(if hidden {
                    SheetData::hidden(sheet_name)
                } else {
                    read_xlsx_sheet(&mut book, &sheet_name, name, limits)?
                });
            }
            Ok(sheets)
        }
        Some(Format::Ods) => {
            let merged = zipcheck::check(&bytes, name, limits)?;
            let book = Ods::new(Cursor::new(bytes)).map_err(|e| not_a_workbook(&e))?;
            read_ranges(book, name, limits, |_, sheet| {
                merged
                    .iter()
                    .filter(|(s, _)| s == sheet)
                    .map(|(_, m)| *m)
                    .collect()
            })
        }
        Some(Format::Xls) => {
            super::xlscheck::check(&bytes, name, limits)?;
            let book = Xls::new(Cursor::new(bytes)).map_err(|e| not_a_workbook(&e))?;
            read_ranges(book, name, limits, |book, sheet| {
                merges(
                    book.merge_cells_by_sheet_name(sheet).unwrap_or_default(),
                    limits,
                )
            })
        }
    }
}

/// A sheet's cells so far, each checked against the limits.
struct Cells<'a> {
    cells: Vec<(u32, u32, Cell)>,
    text_bytes: u64,
    name: &'a str,
    sheet: &'a str,
    limits: &'a Limits,
}

impl Cells<'_> {
    /// Adds a cell at 0-based `(row, col)`.
    fn push(&mut self, row: u32, col: u32, cell: Cell) -> Result<(), InputError> {
        if let Cell::Text(t) = &cell {
            self.text_bytes += t.len() as u64;
            if self.text_bytes > self.limits.sheet_text_bytes {
                return Err(InputError::Limit {
                    place: self.place(row, col),
                    message: format!(
                        "the sheet holds more than {} bytes of text by this cell; {}",
                        self.limits.sheet_text_bytes,
                        hint(
                            self.limits.sheet_text_bytes,
                            "TILERANK_MAX_SHEET_TEXT_BYTES"
                        )
                    ),
                });
            }
            if t.len() as u64 > self.limits.field_bytes {
                return Err(InputError::Limit {
                    place: self.place(row, col),
                    message: format!(
                        "a text of {} bytes; {}",
                        t.len(),
                        hint(self.limits.field_bytes, "TILERANK_MAX_FIELD_BYTES")
                    ),
                });
            }
        }
        if self.cells.len() as u64 >= self.limits.cells {
            return Err(InputError::Limit {
                place: Source::sheet(self.name, self.sheet).whole(),
                message: format!(
                    "more than {} filled cells; {}",
                    self.limits.cells,
                    hint(self.limits.cells, "TILERANK_MAX_CELLS")
                ),
            });
        }
        self.cells.push((row, col, cell));
        Ok(())
    }

    fn place(&self, row: u32, col: u32) -> Place {
        Source::sheet(self.name, self.sheet).at(row.saturating_add(1), Some(col.saturating_add(1)))
    }

    /// The rows: filled cells grouped by row, each row dense from the
    /// sheet's first filled column to its own last filled cell (so a column
    /// is at the same index on every row). Blank rows are left out.
    fn into_rows(mut self) -> Result<Vec<Row>, InputError> {
        self.cells.sort_by_key(|&(r, c, _)| (r, c));
        self.cells.dedup_by_key(|&mut (r, c, _)| (r, c));
        let Some(c0) = self.cells.iter().map(|&(_, c, _)| c).min() else {
            return Ok(Vec::new());
        };
        let mut rows: Vec<Row> = Vec::new();
        let mut held: u64 = 0;
        let mut i = 0;
        while i < self.cells.len() {
            let r = self.cells[i].0;
            let j = i + self.cells[i..].iter().take_while(|c| c.0 == r).count();
            let c1 = self.cells[j - 1].1;
            held += u64::from(c1 - c0) + 1;
            if held > self.limits.cells {
                return Err(InputError::Limit {
                    place: self.place(r, c1),
                    message: format!(
                        "the sheet's rows span more than {} cells (blanks between filled cells count); {}",
                        self.limits.cells,
                        hint(self.limits.cells, "TILERANK_MAX_CELLS")
                    ),
                });
            }
            let mut cells = vec![Cell::Empty; (c1 - c0) as usize + 1];
            for (_, c, cell) in self.cells[i..j].iter_mut() {
                cells[(*c - c0) as usize] = std::mem::take(cell);
            }
            rows.push(Row {
                number: r.saturating_add(1),
                first_col: c0.saturating_add(1),
                cells,
            });
            i = j;
        }
        Ok(rows)
    }
}

fn convert_ref(value: &DataRef<'_>) -> Cell {
    match value {
        DataRef::Empty => Cell::Empty,
        DataRef::String(s) => Cell::text(s),
        DataRef::SharedString(s) => Cell::text(s),
        DataRef::Int(i) => Cell::Number(*i as f64),
        DataRef::Float(f) => Cell::Number(*f),
        DataRef::Bool(b) => Cell::Bool(*b),
        DataRef::DateTime(d) if d.is_datetime() => Cell::Date(d.as_f64()),
        DataRef::DateTime(d) => Cell::Number(d.as_f64()),
        // (an .ods date: kept as an .xlsx keeps it, a serial number)
        DataRef::DateTimeIso(s) => {
            super::cell::serial_from_iso(s).map_or_else(|| Cell::text(s), Cell::Date)
        }
        DataRef::DurationIso(s) => Cell::text(s),
        DataRef::Error(e) => Cell::Error(e.to_string().into()),
    }
}

fn convert(value: &Data) -> Cell {
    match value {
        Data::Empty => Cell::Empty,
        Data::String(s) => Cell::text(s),
        Data::Int(i) => Cell::Number(*i as f64),
        Data::Float(f) => Cell::Number(*f),
        Data::Bool(b) => Cell::Bool(*b),
        Data::DateTime(d) if d.is_datetime() => Cell::Date(d.as_f64()),
        Data::DateTime(d) => Cell::Number(d.as_f64()),
        // (an .ods date: kept as an .xlsx keeps it, a serial number)
        Data::DateTimeIso(s) => {
            super::cell::serial_from_iso(s).map_or_else(|| Cell::text(s), Cell::Date)
        }
        Data::DurationIso(s) => Cell::text(s),
        Data::Error(e) => Cell::Error(e.to_string().into()),
    }
}

/// Errors after which the sheet's XML cannot be followed any further.
fn is_fatal(e: &XlsxError) -> bool {
    matches!(
        e,
        XlsxError::Xml(_) | XlsxError::XmlEof(_) | XlsxError::Io(_) | XlsxError::Zip(_)
    )
}

/// How many unreadable cells end the reading of a sheet.
const MAX_BAD_CELLS: usize = 100;

fn read_xlsx_sheet(
    book: &mut Xlsx<Cursor<Vec<u8>>>,
    sheet: &str,
    name: &str,
    limits: &Limits,
) -> Result<SheetData, InputError> {
    let sheet_error = |e: &dyn std::fmt::Display| InputError::Sheet {
        place: Source::sheet(name, sheet).whole(),
        reason: e.to_string(),
    };
    let mut reader = book
        .worksheet_cells_reader(sheet)
        .map_err(|e| sheet_error(&e))?;
    let mut cells = Cells {
        cells: Vec::new(),
        text_bytes: 0,
        name,
        sheet,
        limits,
    };
    let mut bad_cells = Vec::new();
    // A cell that cannot be read is placed from its neighbours: calamine's
    // error does not say where it was.
    let mut last: Option<(u32, u32)> = None;
    let mut pending: Option<String> = None;
    // Shared formulas by index: where each was written, and its text. (The
    // metadata reader is used because calamine's expanding reader makes
    // room for every index up to the largest `si` a file names.)
    let mut shared: HashMap<usize, ((u32, u32), String)> = HashMap::new();
    loop {
        match reader.next_cell_with_formula_metadata() {
            Ok(None) => break,
            Ok(Some(record)) => {
                let (r, c) = record.pos;
                if let Some(why) = pending.take() {
                    bad_cells.push(bad_place(last, Some((r, c)), why));
                }
                last = Some((r, c));
                let formula = match record.formula {
                    Some(XlsxFormulaMetadata::Normal { formula }) => Some(formula),
                    Some(XlsxFormulaMetadata::Shared {
                        shared_index,
                        formula,
                        ..
                    }) => {
                        shared.insert(shared_index, ((r, c), formula.clone()));
                        Some(formula)
                    }
                    Some(XlsxFormulaMetadata::SharedDerived { shared_index }) => {
                        Some(match shared.get(&shared_index) {
                            Some(((r0, c0), f)) => {
                                let (row, col) = (u64::from(*r0) + 1, c0.saturating_add(1));
                                format!("{f} (shared from {}{row})", column_name(col))
                            }
                            None => "(a shared formula)".to_string(),
                        })
                    }
                    Some(_) => Some("(a formula)".to_string()),
                    None => None,
                };
                let cell = match (convert_ref(&record.value), formula) {
                    (Cell::Empty, Some(f)) if !f.is_empty() => {
                        Cell::FormulaWithoutValue(format!("={f}").into())
                    }
                    (cell, _) => cell,
                };
                if !cell.is_empty() {
                    cells.push(r, c, cell)?;
                }
            }
            Err(e) if is_fatal(&e) => {
                if let Some(why) = pending.take() {
                    bad_cells.push(bad_place(last, None, why));
                }
                // the sheet cannot be followed past this point
                if cells.cells.is_empty() && bad_cells.is_empty() {
                    return Err(sheet_error(&e));
                }
                let (r, c) = last.map_or((0, 0), |(r, c)| (r, c.saturating_add(1)));
                bad_cells.push((
                    r.saturating_add(1),
                    c.saturating_add(1),
                    format!("the sheet cannot be read from here on: {e}"),
                ));
                break;
            }
            Err(e) => {
                if let Some(why) = pending.replace(e.to_string()) {
                    bad_cells.push(bad_place(last, None, why));
                }
                if bad_cells.len() >= MAX_BAD_CELLS {
                    break;
                }
            }
        }
    }
    if let Some(why) = pending.take() {
        bad_cells.push(bad_place(last, None, why));
    }
    drop(reader);
    // (a sheet whose merged ranges cannot be read is read without them)
    let merged = merges(
        book.merge_cells_by_sheet_name(sheet).unwrap_or_default(),
        limits,
    );
    Ok(SheetData {
        name: sheet.to_string(),
        hidden: false,
        rows: cells.into_rows()?,
        bad_cells,
        merged,
    })
}

/// The place of an unreadable cell between the last cell read and the next
/// (0-based in, 1-based out): the cell after the last one.
fn bad_place(
    last: Option<(u32, u32)>,
    next: Option<(u32, u32)>,
    why: String,
) -> (u32, u32, String) {
    let (r, c) = match (last, next) {
        (Some((r, c)), _) => (r, c.saturating_add(1)),
        (None, Some((r, c))) if c > 0 => (r, c - 1),
        (None, Some((r, _))) => (r.saturating_sub(1), 0),
        (None, None) => (0, 0),
    };
    let exact =
        matches!((last, next), (Some((r0, c0)), Some((r1, c1))) if r0 == r1 && c1 == c0 + 2);
    let message = if exact {
        format!("this cell cannot be read: {why}")
    } else {
        format!("a cell here or just after cannot be read: {why}")
    };
    (r.saturating_add(1), c.saturating_add(1), message)
}

/// The workbook's sheets in its order, each with whether it is hidden
/// (hidden or very hidden in Excel's words, `display: none` in an `.ods`).
fn sheet_list<R: Reader<Cursor<Vec<u8>>>>(book: &R) -> Vec<(String, bool)> {
    book.sheets_metadata()
        .iter()
        .map(|s| (s.name.clone(), s.visible != calamine::SheetVisible::Visible))
        .collect()
}

impl SheetData {
    /// A hidden sheet, not read.
    fn hidden(name: String) -> SheetData {
        SheetData {
            name,
            hidden: true,
            rows: Vec::new(),
            bad_cells: Vec::new(),
            merged: Vec::new(),
        }
    }
}

/// `.xls` and `.ods`: calamine reads each sheet as a rectangle (its size was
/// checked beforehand); only its filled cells are kept.
fn read_ranges<R: Reader<Cursor<Vec<u8>>>>(
    mut book: R,
    name: &str,
    limits: &Limits,
    merged: impl Fn(&R, &str) -> Vec<Merge>,
) -> Result<Vec<SheetData>, InputError>
where
    R::Error: std::fmt::Display,
{
    let mut sheets = Vec::new();
    for (sheet, hidden) in sheet_list(&book) {
        if hidden {
            sheets.push(SheetData::hidden(sheet));
            continue;
        }
        let values = book
            .worksheet_range(&sheet)
            .map_err(|e| InputError::Sheet {
                place: Source::sheet(name, &sheet).whole(),
                reason: e.to_string(),
            })?;
        // Formulas are read only to tell a formula with no saved result from
        // a blank cell; a file without them is no error.
        let formulas: Range<String> = book.worksheet_formula(&sheet).unwrap_or_default();
        let mut cells = Cells {
            cells: Vec::new(),
            text_bytes: 0,
            name,
            sheet: &sheet,
            limits,
        };
        for (r, c, value) in values.used_cells() {
            let (r, c) = (r as u32, c as u32);
            let (r0, c0) = values.start().unwrap_or_default();
            let cell = convert(value);
            if !cell.is_empty() {
                cells.push(r + r0, c + c0, cell)?;
            }
        }
        if let Some((r0, c0)) = formulas.start() {
            for (r, c, f) in formulas.used_cells() {
                let (r, c) = (r as u32 + r0, c as u32 + c0);
                let blank = values
                    .get_value((r, c))
                    .is_none_or(|v| convert(v).is_empty());
                if blank && !f.is_empty() {
                    cells.push(r, c, Cell::FormulaWithoutValue(format!("={f}").into()))?;
                }
            }
        }
        sheets.push(SheetData {
            hidden: false,
            rows: cells.into_rows()?,
            bad_cells: Vec::new(),
            merged: merged(&book, &sheet),
            name: sheet,
        });
    }
    Ok(sheets)
}
