//! Workbooks: a sheet per table, made to look like what a careful person
//! makes in a spreadsheet program.
//!
//! - Typed cells: counts and ranks are numbers, scores numbers with two
//!   decimals (the printed value, so that a sheet reads back equal to the
//!   CSV), text always text: a name from input beginning with `=` is a
//!   string with Excel's invisible quote prefix, never a formula.
//! - A bold header row in people's words ("Average score", see
//!   [`Column::label`](super::Column::label)), frozen, with a filter; widths that fit the content
//!   (CJK characters count double), long text wrapped.
//! - Print: A4, one page wide, landscape when the columns need it, the
//!   header row on every page, the event's name and the table's title at the
//!   top, `Page x of y` at the bottom. Notes under the table are merged
//!   across its width and wrapped so that they print whole.
//! - Excel's limits: sheet names of at most 31 characters without `[]:*?/\`,
//!   unique; at most 1,048,576 rows a sheet, refused before anything is
//!   written (with the advice to write CSV).

use super::{looks_like_formula, ExportError, Exporter, Kind, Table, Value};
use rust_xlsxwriter::{DocProperties, Format, FormatAlign, FormatBorder, Workbook, Worksheet};
use unicode_width::UnicodeWidthStr;

/// The workbook writer. `Xlsx::default()` writes no event name in the page
/// header.
#[derive(Clone, Debug, Default)]
pub struct Xlsx {
    /// The event's name, printed at the top of every page.
    pub event: Option<String>,
}

/// Excel's limit on rows in a sheet.
pub const MAX_ROWS: usize = 1_048_576;

/// The widest a column gets, in characters; longer text wraps at spaces.
const MAX_WIDTH: usize = 50;

/// The widest a column gets to hold a word that cannot wrap (a hash).
const MAX_WORD_WIDTH: usize = 80;

/// Points a line of text takes in a row (Calibri 11).
const LINE_HEIGHT: f64 = 15.0;

/// Printable width of an A4 portrait page at 100%, in column-width
/// characters (8.27 in less 1.4 in of margins, at about 0.073 in each).
const PORTRAIT_WIDTH: f64 = 94.0;

/// Characters of the page header Excel accepts.
const MAX_HEADER: usize = 255;

/// A sheet name within Excel's rules: at most 31 characters (UTF-16 units),
/// none of `[]:*?/\`, no apostrophe at either end, not `History` (reserved
/// by Excel), unique in the workbook ignoring case.
pub fn sheet_name(wanted: &str, taken: &[String]) -> String {
    let clean: String = wanted
        .chars()
        .map(|c| {
            if "[]:*?/\\".contains(c) || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    let clean = clean.trim().trim_matches('\'').trim();
    let mut base = truncate_utf16(clean, 31).trim_end_matches('\'').to_string();
    if base.trim().is_empty() {
        base = "Sheet".to_string();
    }
    if base.eq_ignore_ascii_case("history") {
        base.push('_');
    }
    let is_taken = |name: &str| {
        let lower = name.to_lowercase();
        taken.iter().any(|t| t.to_lowercase() == lower)
    };
    let mut name = base.clone();
    let mut n = 2;
    while is_taken(&name) {
        let suffix = format!(" ({n})");
        let room = 31 - suffix.len();
        name = truncate_utf16(&base, room)
            .trim_end_matches('\'')
            .to_string()
            + &suffix;
        n += 1;
    }
    name
}

/// The sheet name of each table, in order, as the workbook has them.
pub fn sheet_names(tables: &[Table]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for table in tables {
        let name = sheet_name(&table.name, &names);
        names.push(name);
    }
    names
}

/// The longest start of `text` of at most `units` UTF-16 code units.
fn truncate_utf16(text: &str, units: usize) -> &str {
    let mut used = 0;
    for (i, c) in text.char_indices() {
        used += c.len_utf16();
        if used > units {
            return &text[..i];
        }
    }
    text
}

/// The rows a table takes on its sheet: the header, the rows, and a blank
/// row then one row per note.
pub fn sheet_rows(table: &Table) -> usize {
    let notes = if table.notes.is_empty() {
        0
    } else {
        1 + table.notes.len()
    };
    1 + table.rows.len() + notes
}

/// Refuses tables that would not fit a sheet of `max_rows` rows, naming
/// each, before anything is written.
pub fn check_rows(tables: &[Table], max_rows: usize) -> Result<(), ExportError> {
    let too_long: Vec<String> = tables
        .iter()
        .filter(|t| sheet_rows(t) > max_rows)
        .map(|t| format!("{} needs {} rows", t.name, sheet_rows(t)))
        .collect();
    if too_long.is_empty() {
        return Ok(());
    }
    Err(ExportError::Other(format!(
        "a workbook sheet holds at most {max_rows} rows and {}: nothing written; write CSV instead (--format csv), which has no row limit",
        too_long.join(", ")
    )))
}

impl Exporter for Xlsx {
    fn export(&self, tables: &[Table]) -> Result<Vec<u8>, ExportError> {
        self.write(tables, &mut |_| {})
    }
}

impl Xlsx {
    /// The workbook's bytes; `progress` is told of the rows written, a
    /// thousand at a time and at the end of each table.
    pub fn write(
        &self,
        tables: &[Table],
        progress: &mut dyn FnMut(usize),
    ) -> Result<Vec<u8>, ExportError> {
        check_rows(tables, MAX_ROWS)?;
        let mut book = Workbook::new();
        let mut properties = DocProperties::new().set_author("tilerank");
        if let Some(event) = self.event.as_deref().filter(|e| !e.trim().is_empty()) {
            properties = properties.set_title(event);
        }
        book.set_properties(&properties);
        let formats = Formats::new();
        for (table, name) in tables.iter().zip(sheet_names(tables)) {
            let sheet = book.add_worksheet();
            sheet.set_name(&name)?;
            write_table(sheet, table, &formats, self.event.as_deref(), progress)?;
        }
        Ok(book.save_to_buffer()?)
    }
}

struct Formats {
    header: Format,
    header_number: Format,
    text: Format,
    score: Format,
    score_tenths: Format,
    int: Format,
    quoted: Format,
    wrapped: Format,
    wrapped_quoted: Format,
    note: Format,
}

impl Formats {
    fn new() -> Formats {
        // Text is indented by one character, so that it never touches the
        // right-aligned number before it.
        // Every cell at the top, so that a row grown for wrapped text
        // still reads across.
        let top = Format::new().set_align(FormatAlign::Top);
        let text = top.clone().set_align(FormatAlign::Left).set_indent(1);
        let wrapped = text.clone().set_text_wrap();
        let header = Format::new()
            .set_bold()
            .set_border_bottom(FormatBorder::Thin)
            .set_align(FormatAlign::Top);
        Formats {
            // Right, over the numbers' right edge, indented clear of the
            // filter button.
            header_number: header.clone().set_align(FormatAlign::Right).set_indent(2),
            header: header.set_align(FormatAlign::Left).set_indent(1),
            // A score prints as the terminal prints it: 477, 5.5, 68.67
            // (whole ones take the plain number format).
            score: top.clone().set_num_format("0.00"),
            score_tenths: top.clone().set_num_format("0.0"),
            int: top.clone(),
            quoted: text.clone().set_quote_prefix(),
            wrapped_quoted: wrapped.clone().set_quote_prefix(),
            wrapped,
            text,
            note: Format::new()
                .set_text_wrap()
                .set_align(FormatAlign::Top)
                .set_italic(),
        }
    }
}

/// The text a cell shows: scores as the terminal shows them (477, 5.5,
/// 68.67).
fn shown(value: &Value) -> String {
    value.to_string()
}

/// Display width of the widest line of `text`.
fn text_width(text: &str) -> usize {
    text.lines().map(UnicodeWidthStr::width).max().unwrap_or(0)
}

/// Column widths in characters: the widest value or header, with room for
/// the header's filter button, at most [`MAX_WIDTH`].
fn column_widths(table: &Table) -> Vec<usize> {
    // The header's filter button takes about two characters at the right
    // (a number's header is indented clear of it); text is indented by one.
    let mut widths: Vec<usize> = table
        .columns
        .iter()
        .map(|c| {
            c.label().width()
                + match c.kind {
                    Kind::Text => 4,
                    Kind::Int | Kind::Score => 5,
                }
        })
        .collect();
    for row in &table.rows {
        for (w, v) in widths.iter_mut().zip(row) {
            let indent = usize::from(matches!(v, Value::Text(_)));
            *w = (*w).max(text_width(&shown(v)) + 1 + indent);
        }
    }
    // A column may be wider than MAX_WIDTH to hold its longest word.
    let mut words = vec![0; widths.len()];
    for row in &table.rows {
        for (w, v) in words.iter_mut().zip(row) {
            if let Value::Text(t) = v {
                let longest = t.split_whitespace().map(|x| x.width()).max();
                *w = (*w).max(longest.unwrap_or(0) + 2);
            }
        }
    }
    widths
        .iter()
        .zip(words)
        .map(|(w, word)| (*w).clamp(4, MAX_WIDTH.max(word.min(MAX_WORD_WIDTH))))
        .collect()
}

/// Lines `text` takes wrapped in a column `width` characters wide (less the
/// indent and a margin, since wrapping is by words).
fn wrapped_lines(text: &str, width: usize) -> usize {
    let room = width.saturating_sub(3).max(1);
    text.lines()
        .map(|l| l.width().div_ceil(room).max(1))
        .sum::<usize>()
        .max(1)
}

/// `&` doubled, as headers and footers want it.
fn header_text(text: &str) -> String {
    text.replace('&', "&&")
}

fn write_table(
    sheet: &mut Worksheet,
    table: &Table,
    f: &Formats,
    event: Option<&str>,
    progress: &mut dyn FnMut(usize),
) -> Result<(), ExportError> {
    let widths = column_widths(table);
    // Text longer than its column wraps instead of spilling or hiding.
    let wraps: Vec<bool> = table
        .rows
        .iter()
        .fold(vec![false; widths.len()], |mut acc, row| {
            for ((a, v), w) in acc.iter_mut().zip(row).zip(&widths) {
                if let Value::Text(t) = v {
                    *a |= text_width(t) + 2 > *w || t.contains('\n');
                }
            }
            acc
        });
    for (c, col) in table.columns.iter().enumerate() {
        let format = match col.kind {
            Kind::Text => &f.header,
            Kind::Int | Kind::Score => &f.header_number,
        };
        sheet.write_string_with_format(0, c as u16, col.label(), format)?;
    }
    let mut since = 0;
    for (r, row) in table.rows.iter().enumerate() {
        let r = r as u32 + 1;
        for (c, v) in row.iter().enumerate().take(table.columns.len()) {
            let c16 = c as u16;
            let wrap = wraps.get(c).copied().unwrap_or(false);
            match v {
                Value::Empty => {}
                Value::Text(t) => match (looks_like_formula(t), wrap) {
                    (true, true) => {
                        sheet.write_string_with_format(r, c16, t.as_str(), &f.wrapped_quoted)?;
                    }
                    (true, false) => {
                        sheet.write_string_with_format(r, c16, t.as_str(), &f.quoted)?;
                    }
                    (false, true) => {
                        sheet.write_string_with_format(r, c16, t.as_str(), &f.wrapped)?;
                    }
                    (false, false) => {
                        sheet.write_string_with_format(r, c16, t.as_str(), &f.text)?;
                    }
                },
                Value::Int(i) => {
                    sheet.write_number_with_format(r, c16, *i as f64, &f.int)?;
                }
                Value::Score(s) => {
                    let format = match s.hundredths() % 100 {
                        0 => &f.int,
                        h if h % 10 == 0 => &f.score_tenths,
                        _ => &f.score,
                    };
                    sheet.write_number_with_format(r, c16, s.to_f64_rounded(), format)?;
                }
            }
        }
        // Rows with wrapped text get the height of their lines (neither
        // writer nor reader measures them).
        let lines = row
            .iter()
            .zip(&widths)
            .zip(&wraps)
            .filter_map(|((v, w), wrap)| match v {
                Value::Text(t) if *wrap => Some(wrapped_lines(t, *w)),
                _ => None,
            })
            .max()
            .unwrap_or(1);
        if lines > 1 {
            sheet.set_row_height(r, LINE_HEIGHT * lines as f64)?;
        }
        since += 1;
        if since == 1000 {
            progress(since);
            since = 0;
        }
    }
    progress(since);
    for (c, w) in widths.iter().enumerate() {
        sheet.set_column_width(c as u16, *w as f64)?;
    }
    let last_row = table.rows.len() as u32;
    let last_col = table.columns.len().saturating_sub(1) as u16;
    sheet.set_freeze_panes(1, 0)?;
    if !table.columns.is_empty() {
        sheet.autofilter(0, 0, last_row, last_col)?;
    }
    // Notes: merged across the table and wrapped, so they print whole.
    let total_width: usize = widths.iter().sum();
    for (i, note) in table.notes.iter().enumerate() {
        let r = last_row + 2 + i as u32;
        let lines = wrapped_lines(note, total_width);
        if last_col > 0 {
            sheet.merge_range(r, 0, r, last_col, note, &f.note)?;
        } else {
            sheet.write_string_with_format(r, 0, note, &f.note)?;
        }
        if lines > 1 {
            sheet.set_row_height(r, LINE_HEIGHT * lines as f64)?;
        }
    }
    // Print setup.
    if total_width as f64 > PORTRAIT_WIDTH {
        sheet.set_landscape();
    } else {
        sheet.set_portrait();
    }
    sheet.set_paper_size(9); // A4
    sheet.set_print_fit_to_pages(1, 0);
    sheet.set_repeat_rows(0, 0)?;
    sheet.set_margins(0.5, 0.5, 0.9, 0.7, 0.3, 0.3);
    let mut header = String::from("&C");
    if let Some(event) = event.filter(|e| !e.trim().is_empty()) {
        // The size before the font, so that a name starting with a digit
        // does not read as part of the size.
        header.push_str("&12&\"-,Bold\"");
        header.push_str(&header_text(event.trim()));
        header.push_str("&10&\"-,Regular\"\n");
    }
    header.push_str(&header_text(&table.title));
    if header.encode_utf16().count() > MAX_HEADER {
        let cut = truncate_utf16(&header, MAX_HEADER - 1);
        // A cut must not leave a lone `&` (a control character).
        header = cut.strip_suffix('&').unwrap_or(cut).to_string() + "…";
    }
    sheet.set_header(&header);
    sheet.set_footer("&L&A&CPage &P of &N");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Column;

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
        assert_eq!(sheet_name("'quoted'", &[]), "quoted");
        assert_eq!(sheet_name("History", &[]), "History_");
        assert_eq!(sheet_name("ÄLTERE", &["ältere".to_string()]), "ÄLTERE (2)");
        let long = "x".repeat(30) + "'y";
        let name = sheet_name(&long, &[]);
        assert!(!name.ends_with('\''), "{name}");
        for odd in [
            "a/b:c*d?e[f]g\\h",
            "'",
            "長い名前の長い名前の長い名前の長い名前の長い名前の長い名前の",
            "😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀",
            "tab\there",
        ] {
            let name = sheet_name(odd, &[]);
            assert!(
                rust_xlsxwriter::utility::check_sheet_name(&name).is_ok(),
                "{odd:?} -> {name:?}"
            );
        }
    }

    fn table(rows: usize, notes: usize) -> Table {
        Table {
            name: "Games".into(),
            title: "t".into(),
            columns: vec![Column::int("n")],
            rows: (0..rows).map(|i| vec![Value::Int(i as i64)]).collect(),
            notes: (0..notes).map(|i| format!("note {i}")).collect(),
        }
    }

    #[test]
    fn a_table_longer_than_a_sheet_is_refused_before_writing() {
        assert_eq!(sheet_rows(&table(9, 0)), 10);
        assert_eq!(sheet_rows(&table(6, 2)), 10);
        assert!(check_rows(&[table(9, 0), table(6, 2)], 10).is_ok());
        let err = check_rows(&[table(10, 0), table(3, 0)], 10)
            .unwrap_err()
            .to_string();
        assert!(err.contains("at most 10 rows"), "{err}");
        assert!(err.contains("Games needs 11 rows"), "{err}");
        assert!(err.contains("--format csv"), "{err}");
        assert!(check_rows(&[table(7, 2)], 10).is_err());
    }

    #[test]
    fn widths_count_cjk_double_and_show_two_decimals() {
        let t = Table {
            name: "t".into(),
            title: "t".into(),
            columns: vec![Column::text("name"), Column::score("avg_score")],
            rows: vec![vec![
                Value::Text("陳大文陳大文陳大文".into()),
                Value::Score(crate::score::Score::whole(-12345)),
            ]],
            notes: vec![],
        };
        // 9 CJK characters are 18 columns, plus one of room and one of
        // indent; "Average score" and room for the filter button.
        assert_eq!(column_widths(&t), vec![20, 18]);
    }

    /// The printout shows a score as the terminal does (477, 5.5, 68.67),
    /// and a number's header at the right, over the numbers.
    #[test]
    fn scores_print_as_the_terminal_shows_them_under_right_aligned_headers() {
        use crate::score::Score;
        use std::io::Read;
        let t = Table {
            name: "t".into(),
            title: "t".into(),
            columns: vec![Column::text("name"), Column::score("total_score")],
            rows: [Score::whole(477), Score::ratio(11, 2), Score::ratio(206, 3)]
                .into_iter()
                .map(|s| vec![Value::Text("x".into()), Value::Score(s)])
                .collect(),
            notes: vec![],
        };
        let bytes = Xlsx { event: None }.export(&[t]).unwrap();
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        let mut member = |name: &str| {
            let mut text = String::new();
            zip.by_name(name)
                .unwrap()
                .read_to_string(&mut text)
                .unwrap();
            text
        };
        let sheet = member("xl/worksheets/sheet1.xml");
        let styles = member("xl/styles.xml");
        // the style index of a cell, and that style's <xf> in cellXfs
        let xf = |cell: &str| -> String {
            let at = sheet.find(&format!("<c r=\"{cell}\"")).unwrap();
            let s: usize = sheet[at..]
                .split("s=\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .unwrap()
                .parse()
                .unwrap();
            let xfs = styles.split("<cellXfs").nth(1).unwrap();
            xfs.split("<xf ").nth(s + 1).unwrap().to_string()
        };
        let format_code = |xf: &str| -> Option<String> {
            let id = xf.split("numFmtId=\"").nth(1)?.split('"').next()?;
            let at = styles.find(&format!("numFmtId=\"{id}\" formatCode=\""))?;
            Some(
                styles[at..]
                    .split("formatCode=\"")
                    .nth(1)?
                    .split('"')
                    .next()?
                    .into(),
            )
        };
        assert_eq!(format_code(&xf("B2")), None, "477: {}", xf("B2"));
        assert_eq!(format_code(&xf("B3")).as_deref(), Some("0.0"));
        assert_eq!(format_code(&xf("B4")).as_deref(), Some("0.00"));
        assert!(xf("B1").contains("horizontal=\"right\""), "{}", xf("B1"));
        assert!(xf("A1").contains("horizontal=\"left\""), "{}", xf("A1"));
    }
}
