//! Workbooks (`.xlsx`, `.xlsm`, `.xls`, `.ods`) through calamine: each sheet
//! becomes rows of cells with their real sheet coordinates.

use super::cell::{Cell, Row};
use super::{InputError, Sheet};
use crate::place::Source;
use calamine::{open_workbook_auto, Data, Range, Reader};
use std::path::Path;

pub fn open(path: &Path, name: &str) -> Result<Vec<Sheet>, InputError> {
    let unreadable = |reason: String| InputError::Unreadable {
        path: name.to_string(),
        reason,
    };
    let mut book = open_workbook_auto(path)
        .map_err(|e| unreadable(format!("not a workbook calamine can read ({e})")))?;
    let mut sheets = Vec::new();
    for sheet_name in book.sheet_names() {
        let values = book
            .worksheet_range(&sheet_name)
            .map_err(|e| unreadable(format!("sheet {sheet_name:?}: {e}")))?;
        // Formulas are read only to tell a formula with no saved result from
        // a blank cell; a file without them is no error.
        let formulas = book.worksheet_formula(&sheet_name).unwrap_or_default();
        let rows = rows_of(&values, &formulas);
        sheets.push(Sheet {
            source: Source::sheet(name, &sheet_name),
            rows: Box::new(rows.into_iter().map(Ok)),
            encoding: None,
        });
    }
    Ok(sheets)
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
        Data::DateTimeIso(s) | Data::DurationIso(s) => Cell::text(s),
        Data::Error(e) => Cell::Error(format!("{e}")),
    }
}

/// Rows over the union of the value and formula ranges, 1-based.
fn rows_of(values: &Range<Data>, formulas: &Range<String>) -> Vec<Row> {
    let bounds = [
        values.start().zip(values.end()),
        formulas.start().zip(formulas.end()),
    ];
    let Some(((r0, c0), (r1, c1))) = bounds.into_iter().flatten().reduce(|a, b| {
        (
            (a.0 .0.min(b.0 .0), a.0 .1.min(b.0 .1)),
            (a.1 .0.max(b.1 .0), a.1 .1.max(b.1 .1)),
        )
    }) else {
        return Vec::new();
    };
    (r0..=r1)
        .map(|r| {
            let cells = (c0..=c1)
                .map(
                    |c| match values.get_value((r, c)).map(convert).unwrap_or(Cell::Empty) {
                        Cell::Empty => match formulas.get_value((r, c)) {
                            Some(f) if !f.is_empty() => Cell::FormulaWithoutValue(format!("={f}")),
                            _ => Cell::Empty,
                        },
                        cell => cell,
                    },
                )
                .collect();
            Row {
                number: r + 1,
                first_col: c0 + 1,
                cells,
            }
        })
        .collect()
}
