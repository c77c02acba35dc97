//! Workbooks: a sheet per table, typed cells (numbers stay numbers, scores
//! with two decimals), bold frozen header with a filter, widths that fit
//! (CJK characters count double), and a print setup that fits the columns
//! to one page wide with the header row on every page.

use super::{looks_like_formula, ExportError, Exporter, Kind, Table, Value};
use rust_xlsxwriter::{Format, FormatBorder, Workbook, Worksheet};
use unicode_width::UnicodeWidthStr;

pub struct Xlsx;

/// Excel's limit on rows in a sheet.
pub const MAX_ROWS: usize = 1_048_576;

/// A sheet name within Excel's rules: at most 31 characters, none of
/// `[]:*?/\`, unique in the workbook.
pub fn sheet_name(wanted: &str, taken: &[String]) -> String {
    let clean: String = wanted
        .chars()
        .map(|c| if "[]:*?/\\".contains(c) { '_' } else { c })
        .collect::<String>()
        .trim_matches('\'')
        .chars()
        .take(31)
        .collect();
    let base = if clean.trim().is_empty() {
        "Sheet".to_string()
    } else {
        clean
    };
    let mut name = base.clone();
    let mut n = 2;
    while taken.iter().any(|t| t.eq_ignore_ascii_case(&name)) {
        let suffix = format!(" ({n})");
        name = base.chars().take(31 - suffix.len()).collect::<String>() + &suffix;
        n += 1;
    }
    name
}

impl Exporter for Xlsx {
    fn export(&self, tables: &[Table]) -> Result<Vec<u8>, ExportError> {
        let mut book = Workbook::new();
        let mut names = Vec::new();
        for table in tables {
            if table.rows.len() + 1 > MAX_ROWS {
                return Err(ExportError::Other(format!(
                    "{} has {} rows; a sheet holds at most {} (write CSV instead)",
                    table.name,
                    table.rows.len(),
                    MAX_ROWS - 1
                )));
            }
            let name = sheet_name(&table.name, &names);
            names.push(name.clone());
            let sheet = book.add_worksheet();
            sheet.set_name(&name)?;
            write_table(sheet, table)?;
        }
        Ok(book.save_to_buffer()?)
    }
}

fn write_table(sheet: &mut Worksheet, table: &Table) -> Result<(), ExportError> {
    let header = Format::new()
        .set_bold()
        .set_border_bottom(FormatBorder::Thin);
    let score = Format::new().set_num_format("0.00");
    let quoted = Format::new().set_quote_prefix();
    let mut widths: Vec<usize> = table.columns.iter().map(|c| c.name.width()).collect();
    for (c, col) in table.columns.iter().enumerate() {
        sheet.write_string_with_format(0, c as u16, col.name, &header)?;
    }
    for (r, row) in table.rows.iter().enumerate() {
        let r = r as u32 + 1;
        for (c, v) in row.iter().enumerate() {
            let c16 = c as u16;
            match v {
                Value::Empty => {}
                Value::Text(t) if looks_like_formula(t) => {
                    sheet.write_string_with_format(r, c16, t, &quoted)?;
                }
                Value::Text(t) => {
                    sheet.write_string(r, c16, t)?;
                }
                Value::Int(i) => {
                    sheet.write_number(r, c16, *i as f64)?;
                }
                Value::Score(s) => {
                    sheet.write_number_with_format(r, c16, s.to_f64_rounded(), &score)?;
                }
            }
            if let Some(w) = widths.get_mut(c) {
                *w = (*w).max(v.to_string().width());
            }
        }
    }
    for (c, w) in widths.iter().enumerate() {
        sheet.set_column_width(c as u16, (*w as f64 + 2.0).min(60.0))?;
    }
    let last_row = table.rows.len() as u32;
    let last_col = table.columns.len().saturating_sub(1) as u16;
    sheet.set_freeze_panes(1, 0)?;
    sheet.autofilter(0, 0, last_row, last_col)?;
    for (i, note) in table.notes.iter().enumerate() {
        sheet.write_string(last_row + 2 + i as u32, 0, note)?;
    }
    let numeric = table
        .columns
        .iter()
        .filter(|c| c.kind != Kind::Text)
        .count();
    if table.columns.len() > 8 || numeric > 6 {
        sheet.set_landscape();
    }
    sheet.set_paper_size(9); // A4
    sheet.set_print_fit_to_pages(1, 0);
    sheet.set_repeat_rows(0, 0)?;
    sheet.set_header(&format!("&C&\"-,Bold\"{}", table.title.replace('&', "&&")));
    sheet.set_footer("&CPage &P of &N");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sheet_names_follow_excels_rules() {
        assert_eq!(sheet_name("prelim [50-64]", &[]), "prelim _50-64_");
        assert_eq!(
            sheet_name("a very long sheet name that goes on and on", &[])
                .chars()
                .count(),
            31
        );
        assert_eq!(
            sheet_name("Standings", &["standings".to_string()]),
            "Standings (2)"
        );
        assert_eq!(sheet_name("", &[]), "Sheet");
    }
}
